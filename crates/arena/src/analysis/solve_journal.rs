//! `arena solve`'s journal and searches: the setup a resume must match, the journal's lines,
//! the results a resumed journal holds, and the searches of the jobs not done yet, on the
//! scheduler.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::analysis::solve::{PositionResult, SolvePlan, solve_one};
use crate::error::Error;
use crate::records::journal::ItemJournal;

/// What a run searches, as its journal records it: a resume must search the same.
#[derive(Debug, Serialize, Deserialize)]
pub struct JournalSetup {
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
    /// The setup `plan` searches.
    pub fn of(plan: &SolvePlan) -> JournalSetup {
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
    pub fn differs(was: &JournalSetup, now: &JournalSetup) -> Option<String> {
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
pub struct JournalLine {
    /// The job.
    pub job: u64,
    /// Its result.
    pub result: PositionResult,
}

/// The results a resumed journal at `journal_path` holds, by job (`None`: still to search).
///
/// # Errors
/// The journal records a job this run does not have, or one twice (exit 2).
pub fn resumed_results(
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
pub fn search(
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
