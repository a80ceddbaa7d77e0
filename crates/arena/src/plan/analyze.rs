//! `arena analyze`'s plan: the games to analyse (read and checked here), the reference engine
//! and its limits, and where each analysis goes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use jieqi_engine::Limits;

use crate::analysis::StudyGame;
use crate::analysis::reference::Reference;
use crate::cli::analyze::AnalyzeArgs;
use crate::error::Error;
use crate::records::{self, GameLine};
use crate::run::folder;

/// The reference's node budget when no limit is given: reproducible, and about a third of a
/// second a search for `alphabeta` on one core.
pub const DEFAULT_NODES: u64 = 100_000;

/// One game to analyse and where its results go.
#[derive(Debug)]
pub struct Target {
    /// The game.
    pub study: StudyGame,
    /// Where it was found, said first (`game 37 of … is pair 18, game 1 of …`).
    pub note: Option<String>,
    /// Its own analysis JSON (`None` when `--out` gathers every game in one file).
    pub json: Option<PathBuf>,
    /// Its viewer page with the analysis.
    pub html: Option<PathBuf>,
    /// The match folder whose games index (`games.html`) lists it, for a game of a folder.
    pub folder: Option<PathBuf>,
}

/// A validated `arena analyze`.
#[derive(Debug)]
pub struct AnalyzePlan {
    /// The games, in the order asked.
    pub targets: Vec<Target>,
    /// The reference engine and its limits.
    pub reference: Reference,
    /// One JSON file for every game (`--out`).
    pub out: Option<PathBuf>,
    /// Print every ply, not only the notable ones.
    pub all_plies: bool,
    /// Never draw a progress bar.
    pub no_progress: bool,
}

/// The games of a `--games` list: numbers and ranges (`1,4,10-20`), or `all` (`None`).
fn game_list(text: &str) -> Result<Option<Vec<u64>>, Error> {
    if text.trim() == "all" {
        return Ok(None);
    }
    let bad = |why: String| Error::arg("--games", why);
    let mut out = Vec::new();
    for item in crate::plan::items(text) {
        let number = |t: &str| {
            t.trim()
                .parse::<u64>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| {
                    bad(format!(
                        "'{}' is not a game number (1, 2, …)",
                        crate::util::text::echo(t)
                    ))
                })
        };
        match item.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(bad(format!("the range {item} is empty")));
                }
                if b - a >= 100_000 {
                    return Err(bad(format!("the range {item} holds over 100000 games")));
                }
                out.extend(a..=b);
            }
            None => out.push(number(item)?),
        }
    }
    if out.is_empty() {
        return Err(bad(
            "no game given: numbers, ranges (1,4,10-20) or all".into()
        ));
    }
    // A game listed twice would be analysed twice, its files written twice.
    let mut seen = std::collections::HashSet::new();
    if let Some(twice) = out.iter().find(|&&n| !seen.insert(n)) {
        return Err(bad(format!(
            "game {twice} is listed more than once: give each game once"
        )));
    }
    Ok(Some(out))
}

/// `DIR/analysis/game-<N>.json` and `.html`.
fn folder_outputs(dir: &Path, number: u64) -> (PathBuf, PathBuf) {
    let base = dir.join("analysis");
    (
        base.join(format!("game-{number}.json")),
        base.join(format!("game-{number}.html")),
    )
}

/// The games of a match folder `dir` with their numbers there (`None`: every recorded game),
/// read from its journal once and checked against its record.
fn folder_games(
    dir: &Path,
    numbers: Option<&[u64]>,
    note: impl Fn(u64) -> Option<String>,
) -> Result<Vec<Target>, Error> {
    let (path, setup, _) =
        folder::recorded_run(dir).map_err(|m| Error::arg("INPUT", m.to_string()))?;
    if setup.all.is_some() {
        return Err(Error::arg(
            "INPUT",
            format!(
                "{} is a folder of several pairings: give --game N, or --games with --pairing",
                dir.display()
            ),
        ));
    }
    let journal = dir.join("games.jsonl");
    let numbered = |g: &GameLine| records::game_number(g.pair, g.game);
    let picked: Vec<GameLine> = match numbers {
        None => {
            let (mut all, _) =
                records::read_jsonl(&journal).map_err(|e| Error::arg("INPUT", e.to_string()))?;
            all.sort_by_key(|g| numbered(g));
            all
        }
        Some(list) => {
            // Only the lines of the games asked for are read (see records::lookup).
            let keys: Vec<_> = list
                .iter()
                .map(|&n| records::job_of_number(n).unwrap_or((0, 1)))
                .collect();
            let wanted = keys.iter().copied().collect();
            let found = records::lookup::find_games(&journal, &wanted)
                .map_err(|e| Error::arg("INPUT", e.to_string()))?;
            let mut out = Vec::new();
            for (pair, game) in keys {
                let Some((_, line)) = found.games.get(&(pair, game)) else {
                    return Err(Error::arg(
                        if list.len() == 1 { "--game" } else { "--games" },
                        folder::missing_game(dir, &setup, pair, game, found.truncated),
                    ));
                };
                out.push(line.clone());
            }
            out
        }
    };
    if picked.is_empty() {
        return Err(Error::arg(
            "INPUT",
            format!("{}: no game recorded yet", journal.display()),
        ));
    }
    let mut targets = Vec::new();
    for line in &picked {
        if line.fingerprint != setup.fingerprint {
            return Err(Error::arg(
                "INPUT",
                format!(
                    "{}: pair {} game {} belongs to another run than {}",
                    journal.display(),
                    line.pair,
                    line.game,
                    path.display()
                ),
            ));
        }
        let number = numbered(line);
        targets.push(target_of(dir, &setup, line, number, note(number))?);
    }
    Ok(targets)
}

/// The target of recorded game `line`, number `number` of match folder `dir`.
fn target_of(
    dir: &Path,
    setup: &crate::run::MatchSetup,
    line: &GameLine,
    number: u64,
    note: Option<String>,
) -> Result<Target, Error> {
    let title = format!("{} game {number}", dir.display());
    let study = StudyGame::from_record(&setup.rules, line, setup.max_plies, title, Some(number))
        .map_err(|m| {
            Error::arg(
                "INPUT",
                format!(
                    "{} game {number}: the record does not hold up: {m}",
                    dir.display()
                ),
            )
        })?;
    let (json, html) = folder_outputs(dir, number);
    Ok(Target {
        study,
        note,
        json: Some(json),
        html: Some(html),
        folder: Some(dir.to_path_buf()),
    })
}

/// The pairing folder `name` of run folder `dir`: its index from 1, its path in the run folder
/// (`pairings/01-a-vs-b`, `arms/01-greedy/fair`), or any end of that path after a `/`
/// (`01-a-vs-b`, `01-greedy/fair`, `fair`) that names one folder only.
///
/// # Errors
/// No folder, or several, answer to `name`; the message lists the ones to choose from.
fn pairing_folder(dir: &Path, name: &str) -> Result<PathBuf, Error> {
    let (_, _, setup) =
        folder::recorded_run(dir).map_err(|m| Error::arg("INPUT", m.to_string()))?;
    let folders: Vec<String> = (0..setup.pairings.len())
        .map(|i| setup.pairing_folder(i))
        .collect();
    let name = name.trim_end_matches('/');
    if let Ok(i) = name.parse::<usize>() {
        if (1..=folders.len()).contains(&i) {
            return Ok(dir.join(&folders[i - 1]));
        }
    }
    let matches: Vec<&String> = folders
        .iter()
        .filter(|f| f.as_str() == name || f.ends_with(&format!("/{name}")))
        .collect();
    match matches.as_slice() {
        [one] => Ok(dir.join(one)),
        [] => {
            // An arm's folder (`01-greedy`) holds several pairings: name them.
            let under: Vec<&String> = folders
                .iter()
                .filter(|f| f.contains(&format!("/{name}/")) || f.starts_with(&format!("{name}/")))
                .collect();
            let (what, choices) = if under.is_empty() {
                (
                    format!(
                        "no pairing folder of {} is '{}'",
                        dir.display(),
                        crate::util::text::echo(name)
                    ),
                    folders.iter().collect(),
                )
            } else {
                (
                    format!(
                        "'{}' holds {} pairing folders: give one",
                        crate::util::text::echo(name),
                        under.len()
                    ),
                    under,
                )
            };
            Err(Error::arg(
                "--pairing",
                format!("{what} ({})", choice_list(&choices)),
            ))
        }
        several => Err(Error::arg(
            "--pairing",
            format!(
                "'{}' names {} pairing folders of {}: give one of {}",
                crate::util::text::echo(name),
                several.len(),
                dir.display(),
                choice_list(several)
            ),
        )),
    }
}

/// Pairing folders as a message lists them: without the `pairings/` or `arms/` they all
/// start with, the first 20, and how many more.
fn choice_list(folders: &[&String]) -> String {
    const SHOWN: usize = 20;
    let list: Vec<&str> = folders
        .iter()
        .take(SHOWN)
        .map(|f| {
            f.strip_prefix("pairings/")
                .or_else(|| f.strip_prefix("arms/"))
                .unwrap_or(f)
        })
        .collect();
    let more = folders.len().saturating_sub(SHOWN);
    let mut text = list.join(", ");
    if more > 0 {
        text += &format!(" and {more} more");
    }
    text
}

/// What an INPUT that is neither a folder nor a regular file is: nothing, or what is there (a
/// named pipe, a device, a loop of links), looked at without opening it.
fn neither(input: &Path) -> String {
    let what = match std::fs::metadata(input) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return format!("{}: no such results folder or game file", input.display());
        }
        // A loop of links says so (`Too many levels of symbolic links`).
        Err(e) => e.to_string(),
        Ok(m) => format!(
            "{}, not a regular file",
            crate::records::files::special_kind(m.file_type())
        ),
    };
    format!(
        "{}: {what}: INPUT is a results folder or a game file",
        input.display()
    )
}

/// A path as two outputs are compared: its folder made absolute where it exists (links
/// followed), so `a.json` and `./a.json` are one file.
fn same_file_key(path: &Path) -> PathBuf {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match (parent.canonicalize(), path.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
}

/// The games of a results folder `arena analyze` reads: `--games LIST` (with `--pairing NAME`
/// in a folder of several pairings), `--pair P --game 1|2`, or `--game N`.
///
/// # Errors
/// A game that is not there, or flags that do not say which.
fn folder_targets(args: &AnalyzeArgs) -> Result<Vec<Target>, Error> {
    let input = &args.input;
    Ok(match (&args.games, args.game, args.pair) {
        (Some(list), _, _) => {
            let numbers = game_list(list)?;
            match &args.pairing {
                Some(name) => {
                    let dir = pairing_folder(input, name)?;
                    folder_games(&dir, numbers.as_deref(), |_| None)?
                }
                None => {
                    let (_, record, _) = folder::recorded_run(input)
                        .map_err(|m| Error::arg("INPUT", m.to_string()))?;
                    if record.all.is_none() {
                        folder_games(input, numbers.as_deref(), |_| None)?
                    } else {
                        let Some(numbers) = numbers else {
                            return Err(Error::arg(
                                "--games",
                                "all in a folder of several pairings: give --pairing NAME \
                                 too (or list the numbers)",
                            ));
                        };
                        let mut out = Vec::new();
                        for n in numbers {
                            let at = folder::locate(input, n)
                                .map_err(|(flag, m)| Error::arg(flag, m))?;
                            let own = records::game_number(at.pair, at.game);
                            out.extend(folder_games(&at.folder, Some(&[own]), |_| {
                                at.note.clone()
                            })?);
                        }
                        out
                    }
                }
            }
        }
        (None, Some(g @ (1 | 2)), Some(pair)) => {
            let own = records::game_number(pair, g as u8);
            folder_games(input, Some(&[own]), |_| None)?
        }
        (None, Some(g), Some(_)) => {
            return Err(Error::arg(
                "--game",
                format!("{g}: with --pair it is 1 (A Red) or 2 (A Black)"),
            ));
        }
        (None, Some(n), None) => {
            let at = folder::locate(input, n).map_err(|(flag, m)| Error::arg(flag, m))?;
            let own = records::game_number(at.pair, at.game);
            folder_games(&at.folder, Some(&[own]), |_| at.note.clone())?
        }
        (None, None, _) => {
            return Err(Error::arg(
                "--game",
                "needed with a results folder: --game N (the number column of games.csv), \
                 --pair P --game 1|2, or --games LIST",
            ));
        }
    })
}

/// Checks that every output (`--out`, each game's JSON and page) can be written and that no two
/// are one file.
///
/// # Errors
/// An output that cannot be written, or two outputs that are one file.
fn check_outputs(args: &AnalyzeArgs, targets: &[Target]) -> Result<(), Error> {
    let mut outputs: Vec<(&'static str, &PathBuf)> = Vec::new();
    if let Some(out) = &args.out {
        outputs.push(("--out", out));
    }
    for t in targets {
        if let Some(j) = &t.json {
            outputs.push(("--out", j));
        }
        if let Some(h) = &t.html {
            outputs.push(("--html", h));
        }
    }
    let mut seen: Vec<(&'static str, &PathBuf, PathBuf)> = Vec::new();
    for (flag, path) in outputs {
        let target = crate::records::files::check_output(path).map_err(|m| Error::arg(flag, m))?;
        let same = same_file_key(target.path());
        if let Some((first, named, _)) = seen.iter().find(|(_, _, k)| *k == same) {
            return Err(Error::arg(
                flag,
                format!(
                    "{} is the file {first} {} names too: the analysis JSON and the game's page \
                     would overwrite each other (a page beside --out takes its name with \
                     .html): give them two names",
                    path.display(),
                    named.display()
                ),
            ));
        }
        seen.push((flag, path, same));
    }
    Ok(())
}

/// Validates `arena analyze` arguments: reads the games and checks every output path.
///
/// # Errors
/// A bad engine or limit, an input that cannot be read or does not hold up, a game that is not
/// there, an output that cannot be written.
pub fn plan(args: AnalyzeArgs, given: &dyn Fn(&str) -> bool) -> Result<AnalyzePlan, Error> {
    let _ = given;
    let input = &args.input;
    let mut targets = if input.is_dir() {
        folder_targets(&args)?
    } else if input.is_file() {
        if args.games.is_some() || args.pair.is_some() {
            return Err(Error::arg(
                "--games",
                "--games and --pair are for a results folder; a game file takes --game N",
            ));
        }
        let study = crate::analysis::import::study_from_file(input, args.game)
            .map_err(|m| Error::arg("INPUT", m.to_string()))?;
        let stem = input
            .file_stem()
            .map_or("game".into(), |s| s.to_string_lossy().into_owned());
        let stem = match args.game {
            Some(n) => format!("{stem}-game-{n}"),
            None => stem,
        };
        let json = input.with_file_name(format!("{stem}.analysis.json"));
        let html = input.with_file_name(format!("{stem}.analysis.html"));
        vec![Target {
            study,
            note: None,
            json: Some(json),
            html: Some(html),
            folder: None,
        }]
    } else {
        return Err(Error::arg("INPUT", neither(input)));
    };
    if let Some(out) = &args.out {
        for t in &mut targets {
            t.json = None;
        }
        if targets.len() == 1 && args.html.is_none() {
            let html = out.with_extension("html");
            targets[0].html = Some(html);
        }
    }
    if let Some(html) = &args.html {
        if targets.len() > 1 {
            return Err(Error::arg(
                "--html",
                format!(
                    "names one page, and {} games are analysed: leave it out to write each \
                     game's page beside its analysis",
                    targets.len()
                ),
            ));
        }
        targets[0].html = Some(html.clone());
    }
    check_outputs(&args, &targets)?;
    let entry = crate::plan::engine("--engine", &args.engine)?;
    for t in &targets {
        entry
            .check_rules(t.study.start.rules())
            .map_err(|why| Error::arg("--engine", why))?;
    }
    for (flag, value) in [
        ("--movetime", args.limits.movetime),
        ("--nodes", args.limits.nodes),
        ("--depth", args.limits.depth.map(u64::from)),
        ("--move-timeout", args.move_timeout),
    ] {
        if value == Some(0) {
            return Err(Error::arg(flag, "must be at least 1"));
        }
    }
    let mut limits = Limits {
        nodes: args.limits.nodes,
        depth: args.limits.depth,
        movetime: args.limits.movetime.map(Duration::from_millis),
        clock: None,
    };
    if limits.nodes.is_none() && limits.depth.is_none() && limits.movetime.is_none() {
        limits.nodes = Some(DEFAULT_NODES);
    }
    let mut limits_text = Vec::new();
    if let Some(n) = limits.nodes {
        limits_text.push(format!("nodes={n}"));
    }
    if let Some(d) = limits.depth {
        limits_text.push(format!("depth={d}"));
    }
    if let Some(t) = args.limits.movetime {
        limits_text.push(format!("movetime={t}"));
    }
    let hard = match (args.move_timeout, args.limits.movetime) {
        (Some(ms), _) => Duration::from_millis(ms),
        (None, Some(ms)) => Duration::from_millis(ms.saturating_mul(2).saturating_add(5000)),
        (None, None) => Duration::from_secs(300),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !(1..=1024).contains(&threads) {
        return Err(Error::arg("--threads", "must be from 1 to 1024"));
    }
    let omniscient = !args.no_omniscient && entry.executable().is_none();
    Ok(AnalyzePlan {
        targets,
        reference: Reference {
            entry,
            limits,
            limits_text: limits_text.join(","),
            seed: args.seed,
            threads,
            hard,
            omniscient,
        },
        out: args.out,
        all_plies: args.all_plies,
        no_progress: args.no_progress,
    })
}
