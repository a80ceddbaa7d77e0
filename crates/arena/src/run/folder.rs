//! A results folder read back: the run its record describes, where a numbered game is, and one
//! recorded game with the record that made it.

use std::path::{Path, PathBuf};

use crate::engines::EngineEntry;
use crate::records::{self, GameLine};
use crate::run::kind::RECORD_NAMES;
use crate::run::{MatchSetup, RunSetup, Tallied};
use crate::util::text::printable;

/// The run `setup` with its folder claimed: a folder named by the arena (no `--out`) is made here
/// under a name no other run has, its own or with a suffix `-2`, `-3`… (two runs started in the
/// same second get the same name from the clock); a folder the user named is left to the run.
///
/// # Errors
/// The folder cannot be made, or every name up to
/// [`crate::records::files::MAX_UNIQUE_TRIES`] is taken (exit 4: the results cannot be
/// written).
pub fn claim(setup: &RunSetup) -> Result<std::borrow::Cow<'_, RunSetup>, crate::error::Error> {
    use crate::error::Error;
    if !setup.options.default_out {
        return Ok(std::borrow::Cow::Borrowed(setup));
    }
    let out = crate::records::files::create_unique_dir(&setup.options.out)
        .map_err(|e| Error::Write(format!("{e}: give --out")))?;
    Ok(std::borrow::Cow::Owned(RunSetup {
        spec: setup.spec.clone(),
        options: crate::run::RunOptions {
            out,
            default_out: false,
            ..setup.options.clone()
        },
    }))
}

/// The run recorded in a results folder: the record's path (`match.json`, `tournament.json` or
/// `leak-run.json`), the record, and the run it describes (engines unprobed, one thread).
///
/// # Errors
/// No record, or one that cannot be read; the message names the file.
pub fn recorded_run(dir: &std::path::Path) -> Result<(PathBuf, MatchSetup, RunSetup), String> {
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!("{}: no such folder", dir.display()));
        }
        Err(e) => return Err(format!("{}: {e}", dir.display())),
        Ok(m) if m.is_file() => {
            return Err(format!("{} is a file, not a results folder", dir.display()));
        }
        Ok(m) if !m.is_dir() => {
            // A named pipe, a device, a socket: said as such, never opened.
            return Err(format!(
                "{} is {}, not a results folder",
                dir.display(),
                crate::records::files::special_kind(m.file_type())
            ));
        }
        Ok(_) => {}
    }
    let path = RECORD_NAMES
        .iter()
        .map(|name| dir.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!(
                "{} holds no recorded run (match.json, tournament.json or leak-run.json)",
                dir.display()
            )
        })?;
    let text = crate::records::files::read_bounded(&path, crate::records::files::MAX_SMALL_FILE)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let record: MatchSetup =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let book = recorded_book(dir, &record)?;
    let setup = record
        .run_setup(dir.to_path_buf(), 1, String::new(), book)
        .map_err(|m| format!("{}: {m}", path.display()))?;
    Ok((path, record, setup))
}

/// The book of the run `record` describes, as its folder `dir` keeps it
/// ([`crate::records::openings::FOLDER_COPY`]), arranged for its seed; `None` for a run without
/// one.
///
/// # Errors
/// The copy is missing, unreadable, or not the recorded book (its hash differs).
pub fn recorded_book(
    dir: &std::path::Path,
    record: &MatchSetup,
) -> Result<Option<std::sync::Arc<crate::records::openings::Book>>, String> {
    use crate::records::openings::{Book, FOLDER_COPY, read_epd};
    let Some(r) = &record.openings else {
        return Ok(None);
    };
    let path = dir.join(FOLDER_COPY);
    let positions = read_epd(&path, &record.rules).map_err(|m| {
        format!(
            "the run played from the book {} and its copy cannot be read: {m}",
            r.spec
        )
    })?;
    let book = Book::new(r.spec.clone(), positions, record.seed)
        .map_err(|m| format!("{}: {m}", path.display()))?;
    if book.record() != *r {
        return Err(format!(
            "{} is not the book the run played from ({} positions of SHA-256 {} recorded, {} of \
             {} found): it was edited",
            path.display(),
            r.positions,
            r.sha256,
            book.record().positions,
            book.record().sha256
        ));
    }
    Ok(Some(std::sync::Arc::new(book)))
}

/// The job after which a recorded run stopped counting, if its stop rule stopped it: its pairs
/// (`pair_of(job)`, both games, game 1 first) tallied in job order and its kind's rule asked
/// after each, exactly as [`crate::run::execute`] did while playing ([`Tallied::count`]). Pairs
/// of later jobs finished beyond the stop (a gate plays up to one pair per thread past it):
/// they are in the journal but not in the run's numbers. `None` when the rule never stopped it
/// on the recorded prefix (a run of every pair, a gate not yet decided).
pub fn stop_job(
    setup: &RunSetup,
    mut pair_of: impl FnMut(u64) -> Option<[GameLine; 2]>,
) -> Option<u64> {
    let mut rule = crate::run::stop::for_kind(&setup.kind);
    let mut tallied = Tallied::new(&setup.pairings);
    for job in 0..setup.jobs() {
        // The finished prefix ends at the first job not recorded: no stop on it.
        let pair = pair_of(job)?;
        if tallied.count(job, &pair, rule.as_mut()) {
            return Some(job);
        }
    }
    None
}

/// Why a recorded game would not come out the same when played again, if it would not: time
/// limits (`tc`, `movetime`, an external engine without a node or depth limit, which is sent
/// `go movetime 1000`) or an ending that depends on the machine (a timeout, a time forfeit, a
/// crash).
pub fn not_reproducible(
    setup: &MatchSetup,
    line: &GameLine,
    red: &EngineEntry,
    black: &EngineEntry,
) -> Option<String> {
    use crate::records::termination::Termination;
    if let Some(why) = crate::run::time_limited(setup.tc, &setup.limits(), &[red, black]) {
        return Some(why);
    }
    match line.reason {
        Termination::Timeout | Termination::TimeForfeit | Termination::EngineCrash => {
            Some(format!(
                "it ended by {}, which depends on the machine and its load",
                line.reason.name()
            ))
        }
        _ => None,
    }
}

/// Where a numbered game of a results folder is ([`locate`]).
#[derive(Debug)]
pub struct Located {
    /// The match folder that holds it.
    pub folder: PathBuf,
    /// Its pair index.
    pub pair: u64,
    /// 1 or 2.
    pub game: u8,
    /// Where it is, when that is not the folder asked about.
    pub note: Option<String>,
}

/// The folder, pair and game (1 or 2) of game `number` of a results folder, and a sentence saying
/// where it is when that is not the folder itself. In a match folder, game N is game
/// `(N − 1) % 2 + 1` of pair `(N − 1) / 2`; in a run of several pairings (`tournament`, `leak`)
/// it is that of job `(N − 1) / 2`, which is pair `job / pairings` of pairing `job % pairings`,
/// whose own folder numbers it again from its pairs.
///
/// # Errors
/// No recorded run in `dir`, or no such game number.
pub fn locate(dir: &Path, number: u64) -> Result<Located, (&'static str, String)> {
    let (job, game) = records::job_of_number(number).ok_or((
        "--game",
        "game numbers start at 1 (the `number` column of games.csv)".to_string(),
    ))?;
    let (path, record, setup) = crate::run::folder::recorded_run(dir).map_err(|m| ("DIR", m))?;
    let np = setup.pairings.len() as u64;
    let (pair, i) = (job / np, (job % np) as usize);
    if pair >= record.pairs {
        return Err((
            "--game",
            format!(
                "{} records {} pairs ({} games): there is no game {number}",
                path.display(),
                record.pairs,
                record.pairs.saturating_mul(2 * np)
            ),
        ));
    }
    if let Some(shard) = record.shard.filter(|s| !s.has(pair)) {
        return Err((
            "--game",
            format!(
                "game {number} is pair {pair}, which shard {}/{} plays; {} holds shard {shard}",
                pair % shard.count,
                shard.count,
                dir.display()
            ),
        ));
    }
    // A run with pairing folders (a tournament, a leak run — even of one arm) keeps each game in
    // its pairing's folder; a match folder is its own.
    if np == 1 && record.all.is_none() {
        return Ok(Located {
            folder: dir.to_path_buf(),
            pair,
            game,
            note: None,
        });
    }
    let folder = dir.join(setup.pairing_folder(i));
    let note = format!(
        "game {number} of {} is pair {pair}, game {game} of {} (game {} there)",
        dir.display(),
        folder.display(),
        records::game_number(pair, game)
    );
    Ok(Located {
        folder,
        pair,
        game,
        note: Some(note),
    })
}

/// `1 pair`, `2 pairs`.
fn pairs_text(n: u64) -> String {
    format!("{n} pair{}", if n == 1 { "" } else { "s" })
}

/// Why game `game` of pair `pair` is not in the journal of results folder `dir` (run `setup`;
/// `truncated`: its last line was cut short): the pair is another shard's, beyond the run's
/// pairs, or not played yet. The message names the journal, the pair and game asked and the
/// run's pairs.
pub fn missing_game(
    dir: &Path,
    setup: &MatchSetup,
    pair: u64,
    game: u8,
    truncated: bool,
) -> String {
    let why = match setup.shard {
        Some(shard) if !shard.has(pair) => format!(
            ": pair {pair} belongs to shard {}/{}, and this folder holds shard {shard}",
            pair % shard.count,
            shard.count
        ),
        _ if pair >= setup.pairs => format!(
            ": the run has {} (pair indices 0 to {}; game 1 or 2 of each)",
            pairs_text(setup.pairs),
            setup.pairs.saturating_sub(1)
        ),
        _ if truncated => format!(
            " (of the run's {}; its last line was cut short by an interruption: `arena {} \
             --out {} --resume` plays that pair again)",
            pairs_text(setup.pairs),
            setup.command_name(),
            dir.display()
        ),
        _ => format!(
            " (of the run's {}: the run did not get to it: `--resume` plays it)",
            pairs_text(setup.pairs)
        ),
    };
    format!(
        "{}: no record of pair {pair} game {game}{why}",
        dir.join(records::files::JOURNAL).display()
    )
}

/// Reads `match.json` and the recorded game of a results folder.
///
/// # Errors
/// Missing or corrupt files, or no such pair/game; the message names the file.
pub fn load_recorded(
    dir: &Path,
    pair: u64,
    game: u8,
) -> Result<(MatchSetup, GameLine, PathBuf), String> {
    let (path, setup, _) = crate::run::folder::recorded_run(dir)?;
    if setup.all.is_some() {
        let kind = setup.command_name();
        let sub = if setup.kind.leak().is_some() {
            "arms"
        } else {
            "pairings"
        };
        return Err(format!(
            "{} is {} `arena {kind}` folder of several pairings: give --game N (the number \
             column of its games.csv), or replay in one of its match folders under {sub}/",
            dir.display(),
            if kind == "leak" { "an" } else { "a" },
        ));
    }
    let journal = dir.join("games.jsonl");
    // Only this game's line is read: the journal may hold 10^5 pairs.
    let (found, truncated) =
        records::lookup::find_game(&journal, pair, game).map_err(|e| e.to_string())?;
    let Some((_, line)) = found else {
        return Err(missing_game(dir, &setup, pair, game, truncated));
    };
    // The record and match.json must describe the same run.
    if line.fingerprint != setup.fingerprint {
        return Err(format!(
            "{}: pair {pair} game {game} belongs to another run (fingerprint {}) than {} \
             (fingerprint {}): one of them was edited, or the folder mixes runs",
            journal.display(),
            line.fingerprint,
            path.display(),
            setup.fingerprint
        ));
    }
    // Its deal must be its pair's: a game of another pair (or seed) would check out move by
    // move against its own seed.
    let want = records::deal_seed::pair_seed(setup.seed, pair);
    if line.seed != want {
        return Err(format!(
            "{}: pair {pair} game {game} names deal seed {}, but {} deals pair {pair} from seed \
             {want} (master seed {}): the record was edited, or the folder mixes runs",
            journal.display(),
            line.seed,
            path.display(),
            setup.seed
        ));
    }
    let (a, b) = (&setup.engines[0].0, &setup.engines[1].0);
    let (red, black) = if game == 1 { (a, b) } else { (b, a) };
    if (&line.red, &line.black) != (red, black) {
        return Err(format!(
            "{}: pair {pair} game {game} names red '{}' and black '{}', but {} has '{red}' and \
             '{black}' there",
            journal.display(),
            printable(&line.red),
            printable(&line.black),
            path.display()
        ));
    }
    Ok((setup, line, journal))
}
