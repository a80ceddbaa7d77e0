//! The run setup `match`, `sprt`, `tournament` and `leak` share: engines with unique labels, the
//! deals, limits, clock, shard, threads and output folder ([`run_setup`]), and `--resume` of a
//! recorded run ([`recorded_run`]).

use crate::cli::run::RunArgs;
use crate::engines::EngineEntry;
use crate::engines::time_control::TimeControl;
use crate::error::Error;
use crate::plan::rules_arg;
use crate::records::shard::Shard;
use crate::run::RunSetup;
use crate::run::kind::RunKind;
use crate::util::text::slug;
use crate::util::time::utc_timestamp;

/// The most pairs a run may ask for: 2·10^8 games, weeks of play on any machine.
pub const MAX_PAIRS: u64 = 100_000_000;

/// The fewest bootstrap resamples a command takes (`tournament` and `leak`, flag or config file):
/// a 95 % interval's ends are the 2.5 % and 97.5 % quantiles, which need resamples beyond them.
pub const MIN_RESAMPLES: usize = 100;

/// The most bootstrap resamples a command takes: enough for any interval, and a tournament refits
/// its ratings once per resample.
pub const MAX_RESAMPLES: usize = 100_000;

/// The bootstrap resamples when none are given.
pub const DEFAULT_RESAMPLES: usize = 1000;

/// The bootstrap resamples of `--bootstrap` or, when `from_config`, of a config file's
/// `"bootstrap"`: [`MIN_RESAMPLES`] to [`MAX_RESAMPLES`], by default [`DEFAULT_RESAMPLES`].
///
/// # Errors
/// A count out of range, naming the flag or the config field.
pub fn resamples_arg(value: Option<usize>, from_config: bool) -> Result<usize, Error> {
    let n = value.unwrap_or(DEFAULT_RESAMPLES);
    if (MIN_RESAMPLES..=MAX_RESAMPLES).contains(&n) {
        return Ok(n);
    }
    Err(Error::arg(
        if from_config {
            "--config: bootstrap"
        } else {
            "--bootstrap"
        },
        format!(
            "must be between {MIN_RESAMPLES} and {MAX_RESAMPLES} resamples, not {n} (fewer \
             cannot place a 95 % interval's ends)"
        ),
    ))
}

/// The most worker threads a run may ask for.
pub const MAX_THREADS: usize = 1024;

/// `--threads`: 1 to [`MAX_THREADS`]; by default the machine's cores.
fn threads_arg(threads: Option<usize>) -> Result<usize, Error> {
    match threads {
        Some(0) => Err(Error::arg("--threads", "must be at least 1")),
        Some(t) if t > MAX_THREADS => Err(Error::arg(
            "--threads",
            format!("{t} is more than the {MAX_THREADS} threads a run may use"),
        )),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The worker threads a run of `jobs` pairs uses: never more than its pairs (a pair's two games
/// run on one thread, so more workers would only wait). A `--threads` given (`asked`) that is cut
/// is said on stderr. (A resumed run says so when it knows the pairs left, and any run whose
/// threads outnumber the cores under time limits: [`crate::run::execute`].)
fn capped_threads(threads: usize, asked: bool, jobs: u64) -> usize {
    let used = threads
        .min(usize::try_from(jobs).unwrap_or(usize::MAX))
        .max(1);
    if asked && used < threads {
        eprintln!(
            "note: --threads {threads}: {used} used, one per pair to play ({jobs} {})",
            if jobs == 1 { "pair" } else { "pairs" }
        );
    }
    used
}

/// `--report-every N` (pairs; 0: never) on this process's stderr: without the flag, a line
/// every [`crate::run::progress::DEFAULT_INTERVAL`] when stderr is no terminal, none on a
/// terminal (the progress bar shows it).
fn report_every(given: Option<u64>) -> crate::run::progress::Cadence {
    crate::run::progress::Cadence::of(given, std::io::IsTerminal::is_terminal(&std::io::stderr()))
}

/// Engines from `--engine` arguments, with unique labels.
pub fn engine_list(args: &[String]) -> Result<Vec<EngineEntry>, Error> {
    let engines: Vec<EngineEntry> = args
        .iter()
        .map(|a| crate::plan::engine("--engine", a))
        .collect::<Result<_, _>>()?;
    for (i, a) in engines.iter().enumerate() {
        if engines[..i].iter().any(|b| b.label == a.label) {
            let hint = if a.spec.params.iter().any(|(k, _)| k == "name") {
                "give them different name= labels".to_string()
            } else {
                format!(
                    "give one a name, e.g. --engine {}{}name={}-2",
                    a.spec,
                    if a.spec.params.is_empty() { ":" } else { "," },
                    a.spec.name
                )
            };
            return Err(Error::arg(
                "--engine",
                format!(
                    "two engines are labelled '{}': labels name engines in every report, so \
                     they must differ; {hint}",
                    a.label
                ),
            ));
        }
    }
    Ok(engines)
}

/// The run of `match` and `sprt`: exactly two engines, one pairing.
pub fn two_engine_setup(
    engine_args: &[String],
    run: RunArgs,
    pairs: u64,
    pairs_flag: &'static str,
) -> Result<RunSetup, Error> {
    if engine_args.len() != 2 {
        return Err(Error::arg(
            "--engine",
            format!("give exactly two engines (got {})", engine_args.len()),
        ));
    }
    let engines = engine_list(engine_args)?;
    let name = format!("{}-vs-{}", slug(&engines[0].label), slug(&engines[1].label));
    run_setup(engines, vec![(0, 1)], run, pairs, pairs_flag, &name)
}

/// The parts every game-playing command shares: the engines, the deals, limits, clock, shard and
/// output. `pairs` is the number of pairs per pairing (the cap, for `sprt`).
pub fn run_setup(
    engines: Vec<EngineEntry>,
    pairings: Vec<(usize, usize)>,
    args: RunArgs,
    pairs: u64,
    pairs_flag: &'static str,
    default_out: &str,
) -> Result<RunSetup, Error> {
    if pairs == 0 {
        return Err(Error::arg(pairs_flag, "must be at least 1"));
    }
    if pairs > MAX_PAIRS {
        return Err(Error::arg(
            pairs_flag,
            format!("{pairs} is more than the {MAX_PAIRS} pairs a run may play"),
        ));
    }
    // A resume keeps the threads the run was started with unless --threads says otherwise.
    let recorded = (args.resume && args.threads.is_none())
        .then(|| args.out.as_deref().and_then(recorded_threads))
        .flatten();
    let threads = match recorded {
        Some(t) => t,
        None => threads_arg(args.threads)?,
    };
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(|e| Error::arg("--shard", e))?;
    // More workers than jobs would only wait.
    let jobs = shard
        .map_or(pairs, |s| s.pairs_of(pairs))
        .saturating_mul(pairings.len() as u64);
    let threads = capped_threads(threads, args.threads.is_some(), jobs);
    if args.game.max_plies == 0 {
        return Err(Error::arg("--max-plies", "must be at least 1"));
    }
    let tc = args
        .game
        .tc
        .as_deref()
        .map(TimeControl::parse)
        .transpose()
        .map_err(|e| Error::arg("--tc", e))?;
    if args.game.move_timeout == Some(0) {
        return Err(Error::arg("--move-timeout", "must be at least 1 ms"));
    }
    let rules = rules_arg::resolve(&args.game.rules.rules)?;
    if let Some(e) = engines.iter().find(|e| e.external) {
        if jieqi_registry::uci_variant_of(&rules).is_none() {
            return Err(Error::arg(
                "--rules",
                format!(
                    "the rules '{}' are no UCI_Variant ({}, with their presets' switches), so \
                     the external engine '{}' cannot be told them and would play other rules \
                     than the referee applies",
                    rules.name.as_str(),
                    jieqi_registry::UCI_VARIANTS
                        .iter()
                        .map(|(v, _)| *v)
                        .collect::<Vec<_>>()
                        .join(", "),
                    e.label
                ),
            ));
        }
    }
    for e in &engines {
        e.check_rules(&rules)
            .map_err(|why| Error::arg("--rules", why))?;
    }
    let openings = openings_arg(&args.game.openings, &rules, args.seed)?;
    let adjudication = crate::records::adjudication::Adjudication {
        resign: crate::records::adjudication::parse_words(&args.game.resign, false)
            .map_err(|m| Error::arg("--resign", m))?
            .resign,
        draw: crate::records::adjudication::parse_words(&args.game.draw, true)
            .map_err(|m| Error::arg("--draw", m))?
            .draw,
    };
    let named_by_arena = args.out.is_none();
    let out = match args.out {
        Some(dir) => dir,
        None => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            std::path::PathBuf::from("results").join(format!(
                "{}-{default_out}{}",
                utc_timestamp(now),
                shard.map_or(String::new(), |s| format!("-shard{}of{}", s.index, s.count))
            ))
        }
    };
    Ok(RunSetup {
        spec: crate::run::RunSpec {
            engines,
            pairings,
            pairs,
            shard,
            kind: RunKind::Match { sprt: None },
            seed: args.seed,
            rules,
            max_plies: args.game.max_plies,
            openings,
            adjudication,
            limits: crate::plan::limits(&args.game.limits)?,
            tc,
            timemargin: std::time::Duration::from_millis(args.game.timemargin),
            move_timeout: args.game.move_timeout.map(std::time::Duration::from_millis),
        },
        options: crate::run::RunOptions {
            threads,
            out,
            default_out: named_by_arena,
            resume: args.resume,
            progress: !args.no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr()),
            report_every: report_every(args.report_every),
            log: args.log,
            log_limit: args
                .log_limit
                .unwrap_or(crate::engines::logs::MAX_RUN_LOG_BYTES),
            command: std::env::args().collect::<Vec<_>>().join(" "),
            allow_mixed_builds: args.allow_mixed_builds,
            watch: None,
        },
    })
}

/// `--openings`: the book of the words given (see its help), the built-in Xiangqi book when none
/// are given under rules without hidden pieces, or none (`none`, or Jieqi rules), arranged for
/// the master seed `seed`.
///
/// # Errors
/// A word that is no `key=value` of the flag, a bad value, a file that cannot be read or a
/// position that is no opening under `rules` (named with its line or game).
pub fn openings_arg(
    words: &[String],
    rules: &jieqi_core::Rules,
    seed: u64,
) -> Result<Option<std::sync::Arc<crate::records::openings::Book>>, Error> {
    use crate::records::openings::{BUILTIN_XIANGQI, Book, BookFormat};
    let flag = "--openings";
    let bad = |m: String| Error::arg(flag, m);
    if words.is_empty() && rules.has_hidden() {
        return Ok(None);
    }
    if words.len() == 1 && words[0] == "none" {
        return Ok(None);
    }
    if words.len() > 1 && words.iter().any(|w| w == "none") {
        return Err(bad(
            "none stands alone (the start position, no book); it takes no other words".into(),
        ));
    }
    let words: Vec<&str> = if words.is_empty() {
        vec!["file=builtin:xiangqi", "order=random"]
    } else {
        words
            .iter()
            // A path may hold spaces: only commas separate words within one argument.
            .flat_map(|w| w.split(','))
            .filter(|w| !w.is_empty())
            .collect()
    };
    let spec = book_spec(&words)?;
    let builtin = spec.file == "builtin:xiangqi";
    let (format, plies) = (spec.format, spec.plies);
    let file = spec.file.clone();
    let positions = if builtin {
        if format != BookFormat::Epd {
            return Err(bad("builtin:xiangqi is an EPD book".into()));
        }
        crate::records::openings::parse_epd(BUILTIN_XIANGQI, rules, &file)
    } else {
        crate::analysis::import::book_positions(std::path::Path::new(&file), format, plies, rules)
    }
    .map_err(|e| bad(e.to_string()))?;
    Book::new(spec, positions, seed)
        .map(|b| Some(std::sync::Arc::new(b)))
        .map_err(|e| bad(e.to_string()))
}

/// The book `--openings` words ask for (already split at commas): `file=`, `format=` (else by
/// the file's extension), `order=`, `plies=` (PGN and JieqiBox only) and `start=`, each at most
/// once; a first word without `=` is the file.
///
/// # Errors
/// A word that is no key of the flag, a bad value, or a format that cannot be told.
fn book_spec(words: &[&str]) -> Result<crate::records::openings::BookSpec, Error> {
    use crate::records::openings::{BookFormat, BookOrder, BookSpec};
    let bad = |m: String| Error::arg("--openings", m);
    let (mut file, mut format, mut order, mut plies, mut start) = (None, None, None, None, None);
    for (i, word) in words.iter().enumerate() {
        let (key, value) = match word.split_once('=') {
            Some(kv) => kv,
            None if i == 0 => ("file", *word),
            None => {
                return Err(bad(format!(
                    "'{}' is no key=value (file=, format=, order=, plies=, start=)",
                    crate::util::text::echo(word)
                )));
            }
        };
        let once = |seen: bool| {
            if seen {
                Err(bad(format!("{key}= is given twice")))
            } else {
                Ok(())
            }
        };
        match key {
            "file" => {
                once(file.is_some())?;
                file = Some(value.to_string());
            }
            "format" => {
                once(format.is_some())?;
                format = Some(match value {
                    "epd" => BookFormat::Epd,
                    "pgn" => BookFormat::Pgn,
                    "jieqibox" | "json" => BookFormat::Jieqibox,
                    other => {
                        return Err(bad(format!(
                            "format={}: epd, pgn or jieqibox",
                            crate::util::text::echo(other)
                        )));
                    }
                });
            }
            "order" => {
                once(order.is_some())?;
                order = Some(match value {
                    "sequential" => BookOrder::Sequential,
                    "random" => BookOrder::Random,
                    other => {
                        return Err(bad(format!(
                            "order={}: sequential or random",
                            crate::util::text::echo(other)
                        )));
                    }
                });
            }
            "plies" => {
                once(plies.is_some())?;
                plies = Some(value.parse::<u32>().map_err(|_| {
                    bad(format!(
                        "plies={}: a whole number of plies",
                        crate::util::text::echo(value)
                    ))
                })?);
            }
            "start" => {
                once(start.is_some())?;
                start = Some(
                    value
                        .parse::<u64>()
                        .ok()
                        .filter(|&k| k >= 1)
                        .ok_or_else(|| {
                            bad(format!(
                                "start={}: the 1-based position pair 0 takes, a whole number \
                                 from 1",
                                crate::util::text::echo(value)
                            ))
                        })?,
                );
            }
            "policy" if value == "round" => {}
            other => {
                return Err(bad(format!(
                    "'{}' is no key of the flag (file=, format=, order=, plies=, start=)",
                    crate::util::text::echo(other)
                )));
            }
        }
    }
    let file = file
        .filter(|f| !f.is_empty())
        .ok_or_else(|| bad("give file=FILE (a path)".into()))?;
    let builtin = file == "builtin:xiangqi";
    let format = match format {
        Some(f) => f,
        None if builtin => BookFormat::Epd,
        None => {
            let ext = std::path::Path::new(&file)
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            match ext.as_deref() {
                Some("epd" | "fen") => BookFormat::Epd,
                Some("pgn") => BookFormat::Pgn,
                Some("json") => BookFormat::Jieqibox,
                _ => {
                    return Err(bad(format!(
                        "cannot tell the format of '{}' from its name: give format=epd, pgn or \
                         jieqibox",
                        crate::util::text::echo(&file)
                    )));
                }
            }
        }
    };
    if plies.is_some() && format == BookFormat::Epd {
        return Err(bad(
            "plies= is for PGN and JieqiBox books (an EPD line is its position)".into(),
        ));
    }
    Ok(BookSpec {
        file: file.clone(),
        format,
        order: order.unwrap_or(BookOrder::Sequential),
        plies,
        start: start.unwrap_or(1),
    })
}

/// The threads the run recorded in `out` was started with, if its record says (1 to
/// [`MAX_THREADS`]); the summary's header says how many a run used.
fn recorded_threads(out: &std::path::Path) -> Option<usize> {
    let (_, record, _) = crate::run::folder::recorded_run(out).ok()?;
    record.threads.filter(|t| (1..=MAX_THREADS).contains(t))
}

/// Flags that choose a run's games, which `--resume` with only `--out` takes from the record.
const RECORDED_FLAGS: [&str; 25] = [
    "seed",
    "openings",
    "resign",
    "draw",
    "rules",
    "max_plies",
    "nodes",
    "depth",
    "movetime",
    "tc",
    "timemargin",
    "move_timeout",
    "shard",
    "omniscient",
    "sprt",
    "elo0",
    "elo1",
    "config",
    "gauntlet",
    "anchor",
    "bootstrap",
    "opponent",
    "model",
    "alpha",
    "beta",
];

/// `--resume` with `--out` and no engines: the run recorded in the folder, as it was started
/// (engines, deals, limits, shard, test), with this command line's threads, progress bar and, if
/// given, `pairs` (a new cap). `command` is the subcommand, which must be the run's.
pub fn recorded_run(
    command: &str,
    run: &RunArgs,
    pairs: Option<u64>,
    given: &dyn Fn(&str) -> bool,
) -> Result<RunSetup, Error> {
    let out = run
        .out
        .clone()
        .ok_or_else(|| Error::arg("--resume", "needs --out DIR"))?;
    if let Some(flag) = RECORDED_FLAGS.iter().find(|f| given(f)) {
        return Err(Error::arg(
            "--resume",
            format!(
                "without --engine the run is taken as {} recorded it, so --{} cannot change it: \
                 give every flag of the run again (with --engine), or none",
                out.display(),
                flag.replace('_', "-")
            ),
        ));
    }
    let (path, record, mut setup) = crate::run::folder::recorded_run(&out).map_err(|m| {
        Error::arg(
            "--resume",
            format!("{m}: give the engines and flags of the run"),
        )
    })?;
    let kind = record.command_name();
    if kind != command {
        return Err(Error::arg(
            "--resume",
            format!(
                "{} records an `arena {kind}` run: resume it with `arena {kind} --out {} --resume`",
                path.display(),
                out.display()
            ),
        ));
    }
    setup.options.threads = match run
        .threads
        .is_none()
        .then(|| recorded_threads(&out))
        .flatten()
    {
        Some(t) => t,
        None => threads_arg(run.threads)?,
    };
    setup.options.allow_mixed_builds = run.allow_mixed_builds;
    setup.options.command = std::env::args().collect::<Vec<_>>().join(" ");
    if let Some(p) = pairs {
        if p == 0 || p > MAX_PAIRS {
            return Err(Error::arg(
                "--pairs",
                format!("must be between 1 and {MAX_PAIRS}"),
            ));
        }
        setup.spec.pairs = p;
    }
    setup.spec.shard = record.shard;
    setup.options.resume = true;
    setup.options.threads = capped_threads(setup.options.threads, false, setup.jobs());
    setup.options.progress =
        !run.no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr());
    setup.options.report_every = report_every(run.report_every);
    setup.options.log = setup.options.log || run.log;
    if let Some(limit) = run.log_limit {
        setup.options.log_limit = limit;
    }
    Ok(setup)
}
