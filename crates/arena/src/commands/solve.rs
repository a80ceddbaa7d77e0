//! `arena solve`: runs engines over a test suite (an EPD-style file, see [`crate::records::epd`]) and
//! reports which positions each solved and how fast.
//!
//! Every (engine, position) is one job of the [`crate::run::scheduler`]; `--threads` positions are
//! searched at once, each by a fresh engine ([`crate::analysis::solve`] says what is solved and
//! how fast); the tables and summaries are printed by [`crate::report::solve`].
//!
//! Every finished position is appended to the journal `solve.jsonl` in the results folder
//! ([`crate::records::journal::ItemJournal`]: the run's setup, then one checked line per
//! position), so `--resume` continues an interrupted run; `--min-solved` makes the run fail
//! (exit 1) when an engine solved fewer positions.

use std::io::Write;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::analysis::solve::{EngineSummary, PositionResult, solve_one, summarise};
use crate::error::Error;
use crate::plan::solve::SolvePlan;
use crate::records::epd::Suite;
use crate::records::journal::ItemJournal;
use crate::report::solve::{summary_line, write_table};

/// What a run searches, as its journal records it: a resume must search the same.
#[derive(Debug, Serialize, Deserialize)]
struct JournalSetup {
    /// The suite file as given (not compared: the suite may move).
    suite: String,
    /// FNV-1a of the suite's text.
    suite_digest: String,
    rules: String,
    /// (label, spec) of every engine.
    engines: Vec<(String, String)>,
    limits: String,
    move_timeout: Option<u64>,
    seed: u64,
}

impl JournalSetup {
    fn of(plan: &SolvePlan) -> JournalSetup {
        JournalSetup {
            suite: plan.suite_path.display().to_string(),
            suite_digest: format!("{:016x}", plan.suite.digest),
            rules: plan.rules_name.clone(),
            engines: plan
                .engines
                .iter()
                .map(|e| (e.label.clone(), e.spec.to_string()))
                .collect(),
            limits: plan.limits.to_string(),
            move_timeout: plan.move_timeout,
            seed: plan.seed,
        }
    }

    /// How the run `was` recorded differs from this one `now`, if it does.
    fn differs(was: &JournalSetup, now: &JournalSetup) -> Option<String> {
        let show = |e: &[(String, String)]| {
            e.iter()
                .map(|(_, spec)| spec.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let timeout = |t: Option<u64>| t.map_or("default".to_string(), |t| format!("{t} ms"));
        if was.suite_digest != now.suite_digest {
            Some(format!(
                "the suite's content differs from that of {}",
                was.suite
            ))
        } else if was.engines != now.engines {
            Some(format!(
                "engines {} there, {} here",
                show(&was.engines),
                show(&now.engines)
            ))
        } else if was.rules != now.rules {
            Some(format!("--rules {} there, {} here", was.rules, now.rules))
        } else if was.limits != now.limits {
            Some(format!("limits {} there, {} here", was.limits, now.limits))
        } else if was.move_timeout != now.move_timeout {
            Some(format!(
                "--move-timeout {} there, {} here",
                timeout(was.move_timeout),
                timeout(now.move_timeout)
            ))
        } else if was.seed != now.seed {
            Some(format!("--seed {} there, {} here", was.seed, now.seed))
        } else {
            None
        }
    }
}

/// A line of the journal: a finished job (position-major: position `job / engines`, engine
/// `job % engines`) and its result.
#[derive(Serialize, Deserialize)]
struct JournalLine {
    job: u64,
    result: PositionResult,
}

/// How `--min-solved` came out for one engine.
#[derive(Serialize)]
struct MinSolvedJson<'a> {
    /// The flag as given.
    given: &'a str,
    /// Positions each engine had to solve.
    required: usize,
    /// Whether every engine did.
    passed: bool,
}

/// What `solve.json` holds.
#[derive(Serialize)]
struct SolveJson<'a> {
    harness: &'static str,
    /// The code that searched.
    build: crate::records::build::Build,
    suite: String,
    rules: String,
    limits: String,
    seed: u64,
    threads: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    min_solved: Option<MinSolvedJson<'a>>,
    skipped_lines: Vec<SkippedLine>,
    engines: &'a [EngineSummary],
    positions: &'a [PositionResult],
}

#[derive(Serialize)]
struct SkippedLine {
    line: usize,
    error: String,
}

/// How `arena solve` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Every search was done, and every engine solved at least `--min-solved` positions (or the
    /// flag was not given).
    Passed,
    /// Every search was done, and an engine solved fewer positions than `--min-solved`.
    BelowMinimum,
    /// Ctrl-C: the finished searches are kept in the journal, for `--resume`.
    Interrupted,
}

/// Runs the command; says whether it passed `--min-solved` (always, without it), or was
/// interrupted: once [`crate::util::interrupt::requested`] is set no search starts, and none
/// that ends after it is recorded (its engine may have been ended).
///
/// # Errors
/// The scheduler cannot start its threads, the results folder is another run's or in use, its
/// journal exists without `--resume` or is another setup's (exit 2), or results that cannot be
/// written (exit 4).
pub fn run(args: &SolvePlan, w: &mut dyn Write) -> Result<Ended, Error> {
    let (suite, limits, threads, engines, out_dir) = (
        &args.suite,
        &args.limits,
        args.threads,
        &args.engines,
        &args.out,
    );
    let name = args.suite_path.display().to_string();
    let positions = suite.entries.len();
    let jobs = (positions * engines.len()) as u64;
    let context = format!(
        "{} positions ({} lines skipped), rules {}, {}, {threads} at once, seed {}",
        positions,
        suite.errors.len(),
        args.rules_name,
        limits,
        args.seed
    );
    let io = |e: std::io::Error| Error::Write(format!("writing output: {e}"));
    let _lock = crate::records::journal::FolderLock::take(out_dir)?;
    let journal_path = out_dir.join(crate::plan::solve::JOURNAL);
    let setup = JournalSetup::of(args);
    let (mut journal, resumed) = ItemJournal::open::<_, JournalLine>(
        &journal_path,
        args.resume,
        &setup,
        JournalSetup::differs,
    )
    .map_err(Error::Input)?;
    if resumed.truncated {
        eprintln!(
            "note: the last line of {} was cut short: that position is searched again",
            journal_path.display()
        );
    }
    let mut results = resumed_results(args, &journal_path, resumed.items)?;
    let kept = results.iter().filter(|r| r.is_some()).count();
    writeln!(w, "arena solve {name}: {context}").map_err(io)?;
    if args.resume {
        writeln!(
            w,
            "resumed: {kept} of {jobs} searches kept from {}",
            journal_path.display()
        )
        .map_err(io)?;
    }
    w.flush().map_err(io)?;
    let bar = crate::report::bar::progress(jobs, "positions", args.no_progress);
    bar.inc(kept as u64);
    search(args, &mut journal, &mut results, &bar)?;
    bar.finish_and_clear();
    if crate::util::interrupt::requested() {
        let items = results.iter().filter(|r| r.is_some()).count();
        eprintln!(
            "\ninterrupted: {items} finished {} kept in {}; continue with: arena solve \
             … --out {} --resume",
            if items == 1 {
                "search is"
            } else {
                "searches are"
            },
            journal_path.display(),
            out_dir.display()
        );
        return Ok(Ended::Interrupted);
    }
    journal
        .finish(
            &setup,
            results.iter().enumerate().filter_map(|(job, r)| {
                r.as_ref().map(|r| JournalLine {
                    job: job as u64,
                    result: r.clone(),
                })
            }),
        )
        .map_err(Error::Results)?;
    report(args, results, w)
}

/// The results a resumed journal at `journal_path` holds, by job (`None`: still to search).
///
/// # Errors
/// The journal records a job this run does not have, or one twice (exit 2).
fn resumed_results(
    args: &SolvePlan,
    journal_path: &std::path::Path,
    items: Vec<JournalLine>,
) -> Result<Vec<Option<PositionResult>>, Error> {
    let engines = &args.engines;
    let jobs = (args.suite.entries.len() * engines.len()) as u64;
    let mut results: Vec<Option<PositionResult>> = vec![None; jobs as usize];
    for line in items {
        let (p, k) = (
            line.job as usize / engines.len(),
            line.job as usize % engines.len(),
        );
        if line.job >= jobs || line.result.engine != engines[k].label || line.result.index != p + 1
        {
            return Err(Error::Input(format!(
                "--resume: {} records job {} ({} on position {}), which this run does not have \
                 (the file was edited?)",
                journal_path.display(),
                line.job,
                crate::util::text::printable(&line.result.engine),
                line.result.index
            )));
        }
        if results[line.job as usize].is_some() {
            return Err(Error::Input(format!(
                "--resume: {} records job {} ({} on position {}) twice (the file was edited?)",
                journal_path.display(),
                line.job,
                crate::util::text::printable(&line.result.engine),
                line.result.index
            )));
        }
        results[line.job as usize] = Some(line.result);
    }
    Ok(results)
}

/// Searches every job not in `results` yet, appending each to `journal` as it finishes. After
/// Ctrl-C no search starts and none is recorded.
///
/// # Errors
/// The scheduler cannot start its threads (exit 2), or the journal cannot be written (exit 4).
fn search(
    args: &SolvePlan,
    journal: &mut ItemJournal,
    results: &mut [Option<PositionResult>],
    bar: &indicatif::ProgressBar,
) -> Result<(), Error> {
    let (suite, limits, threads, engines) =
        (&args.suite, &args.limits, args.threads, &args.engines);
    let jobs = (suite.entries.len() * engines.len()) as u64;
    let done: Vec<bool> = results.iter().map(Option::is_some).collect();
    let hards: Vec<Duration> = engines
        .iter()
        .map(|e| {
            crate::run::player(
                e,
                limits,
                None,
                args.move_timeout.map(Duration::from_millis),
                false,
            )
            .hard_limit()
            .unwrap_or(crate::run::game_runner::NO_TIME_LIMIT_TIMEOUT)
        })
        .collect();
    let per_engine: Vec<jieqi_engine::Limits> = engines
        .iter()
        .map(|e| crate::run::player(e, limits, None, None, false).limits)
        .collect();
    let play = |job: u64| {
        let (p, k) = (job as usize / engines.len(), job as usize % engines.len());
        solve_one(
            &engines[k],
            &suite.entries[p],
            p,
            &per_engine[k],
            hards[k],
            args.seed,
            args.mate_check_nodes,
        )
    };
    crate::run::scheduler::run(
        jobs,
        threads,
        // Results are kept by position, so how far ahead a worker runs matters to nothing.
        u64::MAX,
        &|job| done[job as usize] || crate::util::interrupt::requested(),
        &play,
        |job, r: PositionResult| -> Result<crate::run::scheduler::Flow, std::io::Error> {
            if crate::util::interrupt::requested() {
                return Ok(crate::run::scheduler::Flow::Stop);
            }
            bar.inc(1);
            if r.solved {
                bar.set_message(format!(
                    "{} solved {}",
                    r.engine,
                    crate::util::text::echo(&r.id)
                ));
            }
            let line = JournalLine { job, result: r };
            journal.append(&line)?;
            results[job as usize] = Some(line.result);
            Ok(crate::run::scheduler::Flow::Continue)
        },
    )
    .map_err(|e| match e {
        crate::run::scheduler::SchedulerError::Caller(e) => Error::Results(e),
        crate::run::scheduler::SchedulerError::Pool(m) => Error::Input(m),
    })?;
    Ok(())
}

/// Prints each engine's table and summary and the `--min-solved` verdict, and writes
/// `solve.json` and `solve.csv`.
///
/// # Errors
/// Output or results that cannot be written (exit 4).
fn report(
    args: &SolvePlan,
    results: Vec<Option<PositionResult>>,
    w: &mut dyn Write,
) -> Result<Ended, Error> {
    let (suite, engines, out_dir) = (&args.suite, &args.engines, &args.out);
    let io = |e: std::io::Error| Error::Write(format!("writing output: {e}"));
    // Job order is position-major; reports go engine by engine.
    let mut by_engine: Vec<Vec<PositionResult>> = vec![Vec::new(); engines.len()];
    for r in results.into_iter().flatten() {
        let k = engines
            .iter()
            .position(|e| e.label == r.engine)
            .unwrap_or(0);
        by_engine[k].push(r);
    }
    let summaries: Vec<EngineSummary> = engines
        .iter()
        .zip(&by_engine)
        .map(|(e, rs)| summarise(e, rs, suite))
        .collect();
    for (s, rs) in summaries.iter().zip(&by_engine) {
        write_table(w, s, rs, args.failed_only).map_err(io)?;
    }
    writeln!(w).map_err(io)?;
    for s in &summaries {
        writeln!(w, "{}", summary_line(s)).map_err(io)?;
    }
    let passed = match &args.min_solved {
        None => true,
        Some(min) => {
            for s in &summaries {
                writeln!(
                    w,
                    "--min-solved {}: {} {} ({} solved, {} needed)",
                    min.given,
                    s.engine,
                    if s.solved >= min.required {
                        "passed"
                    } else {
                        "FAILED"
                    },
                    s.solved,
                    min.required
                )
                .map_err(io)?;
            }
            summaries.iter().all(|s| s.solved >= min.required)
        }
    };
    let all: Vec<PositionResult> = by_engine.into_iter().flatten().collect();
    let min_json = args.min_solved.as_ref().map(|m| MinSolvedJson {
        given: &m.given,
        required: m.required,
        passed,
    });
    write_files(out_dir, args, min_json, suite, &summaries, &all)?;
    writeln!(w, "results: {}", out_dir.display()).map_err(io)?;
    Ok(if passed {
        Ended::Passed
    } else {
        Ended::BelowMinimum
    })
}

fn write_files(
    dir: &std::path::Path,
    args: &SolvePlan,
    min_solved: Option<MinSolvedJson<'_>>,
    suite: &Suite,
    summaries: &[EngineSummary],
    all: &[PositionResult],
) -> Result<(), Error> {
    let io = |what: &str, e: std::io::Error| {
        Error::Write(format!("cannot write {}: {e}", dir.join(what).display()))
    };
    crate::records::files::create_dir(dir).map_err(|e| io("", e))?;
    let json = SolveJson {
        harness: env!("CARGO_PKG_VERSION"),
        build: crate::records::build::Build::current(
            &args
                .engines
                .iter()
                .filter_map(|e| e.executable().map(|p| (e.label.clone(), p)))
                .collect::<Vec<_>>(),
        ),
        suite: args.suite_path.display().to_string(),
        rules: args.rules_name.clone(),
        limits: args.limits.to_string(),
        seed: args.seed,
        threads: args.threads,
        min_solved,
        skipped_lines: suite
            .errors
            .iter()
            .map(|e| SkippedLine {
                line: e.line,
                error: e.message.clone(),
            })
            .collect(),
        engines: summaries,
        positions: all,
    };
    let bytes =
        serde_json::to_vec_pretty(&json).map_err(|e| Error::Write(format!("solve.json: {e}")))?;
    crate::records::files::write_output(&dir.join("solve.json"), &bytes)
        .map_err(|e| io("solve.json", e))?;
    let mut csv = csv::Writer::from_writer(Vec::new());
    let header = [
        "engine",
        "index",
        "line",
        "id",
        "expected",
        "move",
        "score",
        "depth",
        "nodes",
        "ms",
        "right_move",
        "mate_proved",
        "mate_check",
        "solved",
        "first_ms",
        "first_nodes",
        "found_ms",
        "found_nodes",
        "held",
        "error",
        "fen",
    ];
    let write_err = |e: csv::Error| Error::Write(format!("solve.csv: {e}"));
    csv.write_record(header).map_err(write_err)?;
    let opt = |v: Option<String>| v.unwrap_or_default();
    for r in all {
        csv.write_record([
            r.engine.clone(),
            r.index.to_string(),
            r.line.to_string(),
            r.id.clone(),
            r.expected.clone(),
            opt(r.mv.clone()),
            opt(r.score.clone()),
            opt(r.depth.map(|d| d.to_string())),
            r.nodes.to_string(),
            format!("{:.1}", r.ms),
            r.right_move.to_string(),
            opt(r.mate_proved.map(|b| b.to_string())),
            opt(r.mate_check.clone()),
            r.solved.to_string(),
            opt(r.first_ms.map(|v| format!("{v:.1}"))),
            opt(r.first_nodes.map(|v| v.to_string())),
            opt(r.found_ms.map(|v| format!("{v:.1}"))),
            opt(r.found_nodes.map(|v| v.to_string())),
            r.held.to_string(),
            opt(r.error.clone()),
            r.fen.clone(),
        ])
        .map_err(write_err)?;
    }
    let bytes = csv
        .into_inner()
        .map_err(|e| Error::Write(format!("solve.csv: {e}")))?;
    crate::records::files::write_output(&dir.join("solve.csv"), &bytes)
        .map_err(|e| io("solve.csv", e))?;
    Ok(())
}
