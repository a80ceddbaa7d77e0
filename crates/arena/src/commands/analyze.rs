//! `arena analyze`: a reference engine judges every ply of a game (see
//! [`crate::analysis::reference`] and [`crate::analysis::verdict`]); prints the summary and the
//! notable plies, writes the analysis JSON and the game's viewer page.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use serde_json::json;

use crate::analysis::StudyGame;
use crate::analysis::reference::analyse;
use crate::analysis::verdict::{Analysis, Class, PlyAnalysis};
use crate::error::Error;
use crate::plan::analyze::AnalyzePlan;
use crate::report::analysis_text::{plies, ply_line, threads};
use crate::util::text::{counted, printable};

/// The format name and version the analysis JSON carries.
const FORMAT: (&str, u32) = ("arena-analysis", 1);

/// A chance event at least this large (expected score) is printed with the classified moves.
const NOTABLE_CHANCE: f64 = 0.05;

/// One game's entry of the analysis JSON.
fn game_json(study: &StudyGame, analysis: &Analysis) -> serde_json::Value {
    json!({
        "title": study.title,
        "number": study.number,
        "seed": study.seed,
        "red": study.red,
        "black": study.black,
        "result": study.result,
        "ending": study.ending,
        "plies": study.moves.len(),
        "truth_known": study.truth_known,
        "recorded": study.recorded,
        "analysis": analysis,
    })
}

/// The analysis JSON of `games`.
fn document(games: &[serde_json::Value]) -> Result<Vec<u8>, Error> {
    let doc = json!({
        "format": FORMAT.0,
        "version": FORMAT.1,
        "thresholds": {
            "inaccuracy": Class::INACCURACY,
            "mistake": Class::MISTAKE,
            "blunder": Class::BLUNDER,
        },
        "games": games,
    });
    let mut text = serde_json::to_string_pretty(&doc).map_err(|e| Error::Write(e.to_string()))?;
    text.push('\n');
    Ok(text.into_bytes())
}

/// Writes `bytes` to the user-named or default output `path`.
fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    crate::records::files::write_output(path, bytes).map_err(|e| Error::Write(e.to_string()))
}

/// Analyses one game, prints its summary and notable plies and writes its files; returns its
/// entry of the analysis JSON, or `None` when Ctrl-C cut it short.
fn analyse_game(
    plan: &AnalyzePlan,
    target: &crate::plan::analyze::Target,
    w: &mut dyn Write,
) -> Result<Option<serde_json::Value>, Error> {
    let reference = &plan.reference;
    let study = &target.study;
    if let Some(note) = &target.note {
        writeln!(w, "{note}").map_err(Error::Output)?;
    }
    let views = if reference.omniscient && study.truth_known {
        "from each mover's own view, and with the truth for contrast"
    } else if !study.truth_known {
        "from each mover's own view (the file does not give the hidden pieces: no true board)"
    } else {
        "from each mover's own view"
    };
    writeln!(
        w,
        "Analysis of {}: red {} vs black {}, {} ({}), {}\nReference: {} ({}), {views}, {}",
        printable(&study.title),
        printable(&study.red),
        printable(&study.black),
        study.result.text(),
        study.ending,
        plies(study.moves.len()),
        printable(&reference.entry.label),
        reference.limits_text,
        threads(reference.threads)
    )
    .map_err(Error::Output)?;
    let positions = study.moves.len() as u64 + 1;
    let bar = crate::report::bar::progress(positions, "positions", plan.no_progress);
    let started = Instant::now();
    let analysis = analyse(study, reference, &|| bar.inc(1));
    bar.finish_and_clear();
    // A game cut short by Ctrl-C is not analysed: its engine may have been ended.
    if crate::util::interrupt::requested() {
        return Ok(None);
    }
    let analysis =
        analysis.map_err(|m| Error::Input(format!("{}: {m}", printable(&study.title))))?;
    let seconds = started.elapsed().as_secs_f64();
    for line in &analysis.summary.lines {
        writeln!(w, "{line}").map_err(Error::Output)?;
    }
    let notable: Vec<&PlyAnalysis> = analysis
        .plies
        .iter()
        .filter(|p| {
            plan.all_plies
                || p.class.is_some()
                || p.note.is_some()
                || p.chance.is_some_and(|c| c.abs() >= NOTABLE_CHANCE)
        })
        .collect();
    if !notable.is_empty() {
        writeln!(
            w,
            "{}",
            if plan.all_plies {
                "Every ply (loss and chance in expected score, the mover's view):"
            } else {
                "Notable plies (classified moves, and reveals or hidden captures that moved \
                 the score by 5% or more; --all-plies for every ply):"
            }
        )
        .map_err(Error::Output)?;
        for p in notable {
            let recorded = study.recorded.get(p.ply - 1).and_then(Option::as_ref);
            writeln!(w, "{}", ply_line(p, recorded)).map_err(Error::Output)?;
        }
    }
    writeln!(
        w,
        "Analysed {} in {seconds:.1} s ({:.2} s a position on {}).",
        counted(positions, "position"),
        seconds / positions as f64,
        threads(reference.threads)
    )
    .map_err(Error::Output)?;
    let entry = game_json(study, &analysis);
    if let Some(path) = &target.json {
        write(path, &document(std::slice::from_ref(&entry))?)?;
        writeln!(w, "Analysis: {}", path.display()).map_err(Error::Output)?;
    }
    if let Some(path) = &target.html {
        let page = crate::report::viewer::page(study, Some(&analysis));
        write(path, page.as_bytes())?;
        writeln!(w, "Viewer: {}", path.display()).map_err(Error::Output)?;
        if let Some(folder) = &target.folder {
            crate::report::games_index::relink(folder);
        }
    }
    Ok(Some(entry))
}

/// How `arena analyze` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Every game was analysed.
    Done,
    /// Ctrl-C: the games that finished are kept (`keep`), the others are not analysed.
    Interrupted,
}

/// Runs `arena analyze`. Polls [`crate::util::interrupt::requested`]: once it is set, no further
/// position is searched, what finished is kept and the run ends [`Ended::Interrupted`].
///
/// # Errors
/// The reference engine failed on a ply, or an output cannot be written.
pub fn run(plan: &AnalyzePlan, w: &mut dyn Write) -> Result<Ended, Error> {
    let mut documents: Vec<serde_json::Value> = Vec::new();
    for target in &plan.targets {
        if crate::util::interrupt::requested() {
            keep(plan.out.as_deref(), &documents);
            return Ok(Ended::Interrupted);
        }
        let Some(entry) = analyse_game(plan, target, w)? else {
            keep(plan.out.as_deref(), &documents);
            return Ok(Ended::Interrupted);
        };
        documents.push(entry);
        writeln!(w).map_err(Error::Output)?;
    }
    let Some(out) = &plan.out else {
        return Ok(Ended::Done);
    };
    write(out, &document(&documents)?)?;
    writeln!(
        w,
        "Analysis of {}: {}",
        counted(documents.len() as u64, "game"),
        out.display()
    )
    .map_err(Error::Output)?;
    Ok(Ended::Done)
}

/// What an interrupted `arena analyze` keeps, and says on stderr: with `--out`, the games
/// analysed so far in that file (it is otherwise written only at the end); without it, each
/// finished game's files are already beside it.
fn keep(out: Option<&Path>, documents: &[serde_json::Value]) {
    let games = counted(documents.len() as u64, "finished game");
    match (out, documents.is_empty()) {
        (_, true) => eprintln!("\ninterrupted: no game had finished: nothing kept"),
        (None, false) => {
            eprintln!("\ninterrupted: the analyses of {games}, each beside its game, kept");
        }
        (Some(path), false) => match document(documents) {
            Ok(bytes) => match crate::records::files::write_output(path, &bytes) {
                Ok(()) => eprintln!(
                    "\ninterrupted: the analyses of {games} kept in {}",
                    path.display()
                ),
                Err(e) => {
                    eprintln!("\ninterrupted: the analyses of {games} could not be kept: {e}")
                }
            },
            Err(e) => eprintln!(
                "\ninterrupted: nothing (the analyses of {games} do not serialize: {e}) kept"
            ),
        },
    }
}
