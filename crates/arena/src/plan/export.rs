//! `arena export`'s plan: the run recorded in the folder, the games chosen by `--game` and
//! `--pair`, and where they go; every refusal that needs no game converted is made here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::cli::export::{ExportArgs, Format};
use crate::error::Error;
use crate::records::{self, GameLine};
use crate::run::MatchSetup;

/// A validated `arena export`.
#[derive(Debug)]
pub struct ExportPlan {
    /// The results folder.
    pub dir: PathBuf,
    /// The run its record describes.
    pub setup: MatchSetup,
    /// The games to export, by number (games.csv's), in number order; never empty.
    pub games: Vec<(u64, GameLine)>,
    /// The numbers of the games to export that the run did not count (`--beyond-stop`): each
    /// is marked.
    pub uncounted: BTreeSet<u64>,
    /// How many games the run did not count were left out (without `--beyond-stop`).
    pub left_out: u64,
    /// Where the run stopped counting, for people: `the gate stopped after 39 pairs`, `pairs
    /// beyond its 20 are not counted …`; empty when it counted every recorded game.
    pub stop: String,
    /// `YYYY.MM.DD` (UTC) of the journal's last change: when the run ended.
    pub date: String,
    /// The format.
    pub format: Format,
    /// Where to write [default: standard output]; with `--format jieqibox` and several games,
    /// a folder.
    pub out: Option<PathBuf>,
}

impl ExportPlan {
    /// Validates `arena export` arguments: reads the folder's record and journal and chooses
    /// the games.
    ///
    /// # Errors
    /// The folder holds no readable run, the game is not there, `--pair`/`--game` do not fit the
    /// folder, `--out` is a results file of the folder, or several JieqiBox games have no
    /// folder to go to.
    pub fn new(args: ExportArgs) -> Result<ExportPlan, Error> {
        let Loaded {
            record: setup,
            mut games,
            uncounted,
            stop,
        } = load(&args.dir, one_game(&args))?;
        // Games the run did not count are left out unless asked for; one asked for by number
        // is refused with the reason rather than silently dropped.
        let mut left_out = 0;
        if !args.beyond_stop {
            if let Some(n) = args.game.filter(|_| args.pair.is_none()) {
                if uncounted.contains(&n) {
                    return Err(Error::Input(format!(
                        "--game {n}: {} did not count it ({stop}): give --beyond-stop to export \
                         it anyway, marked",
                        args.dir.display()
                    )));
                }
            }
            for n in &uncounted {
                games.remove(n);
                // Said only when the whole folder was asked for.
                if args.game.is_none() {
                    left_out += 1;
                }
            }
        }
        if let Some(out) = &args.out {
            check_out(&args.dir, out)?;
        }
        let several_pairings = setup.all.is_some();
        let mut take = |number: u64| {
            games
                .remove(&number)
                .map(|g| (number, g))
                .ok_or_else(|| missing(&args, number))
        };
        let chosen: Vec<(u64, GameLine)> = match (args.pair, args.game) {
            (Some(_), Some(_)) if several_pairings => {
                return Err(Error::Input(format!(
                    "--pair: {} holds several pairings, so a pair index names several games: \
                     give --game N (the number column of its games.csv)",
                    args.dir.display()
                )));
            }
            (Some(pair), Some(game @ (1 | 2))) => {
                let number = records::game_number(pair, game as u8);
                if !args.beyond_stop && uncounted.contains(&number) {
                    return Err(Error::Input(format!(
                        "--pair {pair} --game {game}: {} did not count that pair ({stop}): \
                         give --beyond-stop to export it anyway, marked",
                        args.dir.display()
                    )));
                }
                vec![take(number)?]
            }
            (Some(_), Some(game)) => {
                return Err(Error::Input(format!(
                    "--game {game}: with --pair it is 1 (A Red) or 2 (A Black)"
                )));
            }
            (None, Some(n)) => vec![take(n)?],
            (_, None) => games.into_iter().collect(),
        };
        if chosen.is_empty() {
            return Err(Error::Input(format!(
                "{}: no games recorded",
                args.dir.join("games.jsonl").display()
            )));
        }
        if args.format == Format::Jieqibox && chosen.len() > 1 {
            let Some(folder) = &args.out else {
                return Err(Error::Input(format!(
                    "--format jieqibox writes one file per game: give --out FOLDER for the {} \
                     games, or --game N for one",
                    chosen.len()
                )));
            };
            if folder.exists() && !folder.is_dir() {
                return Err(Error::Input(format!(
                    "--out {}: a file, but --format jieqibox writes one file per game: give a \
                     folder for the {} games, or --game N for one",
                    folder.display(),
                    chosen.len()
                )));
            }
        }
        let uncounted = chosen
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| uncounted.contains(n))
            .collect();
        Ok(ExportPlan {
            date: date_of(&args.dir.join("games.jsonl")),
            dir: args.dir,
            setup,
            games: chosen,
            uncounted,
            left_out,
            stop,
            format: args.format,
            out: args.out,
        })
    }
}

/// Refuses an `--out` file that is, or links to, one of a results folder's own files (see
/// [`crate::records::files::check_output`]); a folder is checked later (JieqiBox's one file per
/// game).
fn check_out(_dir: &Path, out: &Path) -> Result<(), Error> {
    if out.is_dir() {
        return Ok(());
    }
    crate::records::files::check_output(out)
        .map(drop)
        .map_err(|m| Error::Input(format!("--out {m}")))
}

/// Why game `number` is not in the folder, as `arena replay` says it.
fn missing(args: &ExportArgs, number: u64) -> Error {
    // Asked for by pair: said by pair, with the run's pairs.
    if let (Some(pair), Some(game @ (1 | 2))) = (args.pair, args.game)
        && let Ok((_, record, _)) = crate::run::folder::recorded_run(&args.dir)
    {
        return Error::Input(crate::run::folder::missing_game(
            &args.dir, &record, pair, game as u8, false,
        ));
    }
    match crate::run::folder::locate(&args.dir, number) {
        Err((_, m)) => Error::Input(m),
        Ok(crate::run::folder::Located { pair, game, .. }) => Error::Input(format!(
            "{}: game {number} (pair {pair}, game {game}) is not recorded: the run did not get \
             to it, or it was cut short (`--resume` plays it)",
            args.dir.join("games.jsonl").display()
        )),
    }
}

/// A results folder's run and games, read back.
struct Loaded {
    /// The run's record.
    record: MatchSetup,
    /// Its games by number.
    games: BTreeMap<u64, GameLine>,
    /// The numbers of the games it did not count.
    uncounted: BTreeSet<u64>,
    /// Why, for people (empty when it counted them all).
    stop: String,
}

/// The pair and game (1 or 2) of the one game `--game`/`--pair` ask for, in a folder of one
/// pairing (where job = pair); `None` when the whole folder is asked for.
fn one_game(args: &ExportArgs) -> Option<(u64, u8)> {
    match (args.pair, args.game) {
        (Some(pair), Some(game @ (1 | 2))) => Some((pair, game as u8)),
        (None, Some(n)) => records::job_of_number(n),
        _ => None,
    }
}

/// The number of recorded game `g` of the run (`setup`, recorded as `record`), refused when it
/// belongs to none of the run's pairings.
fn number_of(
    journal: &Path,
    record: &MatchSetup,
    setup: &crate::run::RunSetup,
    g: &GameLine,
) -> Result<u64, Error> {
    let (a, b) = if g.game == 1 {
        (&g.red, &g.black)
    } else {
        (&g.black, &g.red)
    };
    let pairing = setup
        .pairings
        .iter()
        .position(|&(x, y)| setup.engines[x].label == *a && setup.engines[y].label == *b);
    let Some(i) = pairing.filter(|_| g.fingerprint == record.fingerprint) else {
        return Err(Error::Input(format!(
            "{}: pair {} game {} (red '{}', black '{}', fingerprint {}) is not a game of \
             the run its record describes: the record or the journal was edited",
            journal.display(),
            g.pair,
            g.game,
            crate::util::text::printable(&g.red),
            crate::util::text::printable(&g.black),
            g.fingerprint
        )));
    };
    Ok(records::game_number(
        g.pair * setup.pairings.len() as u64 + i as u64,
        g.game,
    ))
}

/// Where a gate of one pairing stopped counting, its journal read a pair at a time (a gate
/// stops by the results of the pairs before; other runs count every pair).
fn stop_of_gate(setup: &crate::run::RunSetup, journal: &Path) -> Result<Option<u64>, Error> {
    if !setup.kind.is_gate() {
        return Ok(None);
    }
    let input = |e: String| Error::Input(e);
    let (pairs, _) =
        records::pair_spans(journal, |_, _| Ok(())).map_err(|e| input(e.to_string()))?;
    let by_pair: BTreeMap<u64, [records::Span; 2]> =
        pairs.into_iter().map(|((_, _, p), s)| (p, s)).collect();
    let mut file = crate::records::files::open_regular(journal)
        .map_err(|e| input(format!("{}: {e}", journal.display())))?;
    let mut failed = None;
    let stopped = crate::run::folder::stop_job(setup, |job| {
        let spans = *by_pair.get(&job)?;
        records::read_pair(&mut file, journal, spans)
            .map_err(|e| failed.get_or_insert(e.to_string()).clone())
            .ok()
    });
    match failed {
        Some(e) => Err(input(e)),
        None => Ok(stopped),
    }
}

/// The run recorded in `dir`, its games by number (see [`records::game_number`]) and those it did
/// not count: the pairs after the job where its stop rule stopped it
/// ([`crate::run::folder::stop_job`]), and pairs beyond its `pairs`. A game that belongs to none
/// of the run's pairings is an error; a last line cut short is said. With `only` (a folder of
/// one pairing), only that game's line is read ([`records::lookup`]), and a gate's other pairs
/// a pair at a time.
fn load(dir: &Path, only: Option<(u64, u8)>) -> Result<Loaded, Error> {
    let (_, record, setup) = crate::run::folder::recorded_run(dir).map_err(Error::Input)?;
    let journal = dir.join("games.jsonl");
    let only = only.filter(|_| record.all.is_none());
    let mut games = BTreeMap::new();
    let truncated = match only {
        Some((pair, game)) => {
            let (found, truncated) = records::lookup::find_game(&journal, pair, game)
                .map_err(|e| Error::Input(e.to_string()))?;
            if let Some((_, g)) = found {
                games.insert(number_of(&journal, &record, &setup, &g)?, g);
            }
            truncated
        }
        None => {
            let (lines, truncated) =
                records::read_jsonl(&journal).map_err(|e| Error::Input(e.to_string()))?;
            for g in lines {
                games.insert(number_of(&journal, &record, &setup, &g)?, g);
            }
            truncated
        }
    };
    if truncated {
        eprintln!(
            "note: the last line of {} was cut short by an interruption and is not exported \
             (`--resume` plays that pair again)",
            journal.display()
        );
    }
    let pair_of = |job: u64| {
        let game = |n: u8| games.get(&records::game_number(job, n)).cloned();
        Some([game(1)?, game(2)?])
    };
    let stopped = match only {
        Some(_) => stop_of_gate(&setup, &journal)?,
        None => crate::run::folder::stop_job(&setup, pair_of),
    };
    let mut reasons = Vec::new();
    if let Some(job) = stopped {
        // Job j stops the run after j + 1 jobs; the jobs of a run of one pairing are its pairs.
        let what = if setup.pairings.len() == 1 {
            "pair"
        } else {
            "job"
        };
        let n = job + 1;
        reasons.push(format!(
            "the {} stopped after {n} {what}{}",
            if setup.kind.is_gate() { "gate" } else { "run" },
            if n == 1 { "" } else { "s" }
        ));
    }
    let beyond_cap = games.values().any(|g| g.pair >= record.pairs);
    if beyond_cap {
        reasons.push(format!(
            "pairs beyond its {} are not counted (the run was resumed with fewer)",
            record.pairs
        ));
    }
    let uncounted = games
        .iter()
        .filter(|&(&n, g)| {
            let job = records::job_of_number(n).map_or(0, |(job, _)| job);
            stopped.is_some_and(|s| job > s) || g.pair >= record.pairs
        })
        .map(|(&n, _)| n)
        .collect();
    Ok(Loaded {
        record,
        games,
        uncounted,
        stop: reasons.join("; "),
    })
}

/// `YYYY.MM.DD` (UTC) of the journal's last change: when the run ended.
fn date_of(journal: &Path) -> String {
    let secs = std::fs::metadata(journal)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_secs());
    match secs {
        Some(s) => {
            let (y, m, d) = crate::util::time::civil_from_days((s / 86_400) as i64);
            format!("{y:04}.{m:02}.{d:02}")
        }
        None => "????.??.??".into(),
    }
}
