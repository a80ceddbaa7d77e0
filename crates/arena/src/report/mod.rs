//! What a person reads: a two-engine run's summary ([`summary`], re-exported here), a
//! tournament's standings ([`standings`]) and HTML page ([`html`]), the leak report ([`leak`]),
//! the nightly index ([`history`]) over the nights and series of a root ([`nights`]), boards
//! as text ([`board_text`]), the games index of every match folder ([`games_index`]) and the
//! page of one game ([`viewer`]), `arena jai`'s answers to JieqiBox ([`jai`]). [`write_reports`]
//! chooses a run's report by its kind, and [`progress_line`] the text of its progress lines
//! ([`progress`]); [`observer::Terminal`] shows a run as it plays.

pub mod analysis_text;
pub mod bar;
pub mod bench;
pub mod board_text;
pub mod book;
pub mod export;
pub mod games_index;
pub mod history;
pub mod html;
pub mod jai;
pub mod leak;
pub mod nights;
pub mod observer;
pub mod pairing;
pub mod perft;
pub mod progress;
pub mod ratings_json;
pub mod replay;
pub mod solve;
pub mod solve_files;
pub mod spsa;
pub mod standings;
pub mod stats_text;
pub mod suite;
pub mod summary;
pub mod time_losses;
pub mod viewer;

pub use summary::*;

use std::io::Write;

use crate::error::Error;
use crate::run::kind::RunKind;
use crate::run::progress::Snapshot;
use crate::run::{RunOutcome, RunSetup};

/// Writes a run's reports from its outcome and prints its summary, by its kind: a tournament's
/// standings ([`standings::report`]), a leak run's report ([`leak::report`]), or a two-engine
/// run's summary ([`summary::report`]). The one place a report is chosen: every command that
/// plays, and `arena merge` for the shards of any run, come here.
///
/// # Errors
/// Writing fails.
pub fn write_reports(
    setup: &RunSetup,
    outcome: &RunOutcome,
    out: &mut dyn Write,
) -> Result<(), Error> {
    match &setup.kind {
        RunKind::Tournament(_) => standings::report(setup, outcome, out),
        RunKind::Leak(_) => leak::report(setup, outcome, out),
        RunKind::Match { .. } | RunKind::Gate { .. } => summary::report(setup, outcome, out),
    }
}

/// How a played run ended, for its exit status: sound, with an engine that failed in more
/// than [`crate::run::scoreboard::FAILURE_SHARE`] of its games (exit status 5), or interrupted
/// (exit status 130).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every engine failed in at most the share of its games.
    Sound,
    /// An engine failed in more.
    EnginesFailed,
    /// Ctrl-C stopped it: its standings are of the pairs it counted, and `--resume` plays the
    /// rest.
    Interrupted,
}

/// The line that names every engine of the run that failed in more than
/// [`crate::run::scoreboard::FAILURE_SHARE`] of its games, and says the exit status is 5; `None`
/// when none did.
pub fn failure_verdict(
    setup: &RunSetup,
    board: &crate::run::scoreboard::Scoreboard,
) -> Option<String> {
    use crate::util::text::counted;
    let failing = board.failing();
    if failing.is_empty() {
        return None;
    }
    let engines: Vec<String> = failing
        .iter()
        .map(|e| {
            format!(
                "{} failed in {} of its {} ({:.1} %)",
                setup
                    .engines
                    .get(e.slot)
                    .map_or("?", |en| en.label.as_str()),
                e.failures,
                counted(e.games, "game"),
                100.0 * e.failures as f64 / e.games as f64
            )
        })
        .collect();
    Some(format!(
        "ENGINE FAILURES: {}, more than the {:.0} % of its games an engine may lose by a failure \
         (illegal move, panic, error, timeout, crash, protocol error): exit status 5\n",
        engines.join("; "),
        100.0 * crate::run::scoreboard::FAILURE_SHARE
    ))
}

/// Writes a run's reports ([`write_reports`]) and says how it ended: a leak run's report ends
/// with the [`failure_verdict`] (a match's summary and a tournament's notes hold it already); an
/// interrupted run's with what it kept ([`say_interrupted`]).
///
/// # Errors
/// Writing fails.
pub fn finish(
    setup: &RunSetup,
    outcome: &RunOutcome,
    out: &mut dyn Write,
) -> Result<RunEnd, Error> {
    write_reports(setup, outcome, out)?;
    if say_interrupted(setup, outcome, out) {
        return Ok(RunEnd::Interrupted);
    }
    let Some(verdict) = failure_verdict(setup, &outcome.board) else {
        return Ok(RunEnd::Sound);
    };
    if matches!(setup.kind, RunKind::Leak(_)) {
        out.write_all(verdict.as_bytes())?;
    }
    Ok(RunEnd::EnginesFailed)
}

/// For an interrupted run ([`RunOutcome::interrupted`]), flushes `out` (the standings printed
/// so far) and says on stderr how many finished pairs its journal keeps and how to continue it;
/// returns whether it was interrupted.
pub fn say_interrupted(setup: &RunSetup, outcome: &RunOutcome, out: &mut dyn Write) -> bool {
    if !outcome.interrupted {
        return false;
    }
    let _ = out.flush();
    eprintln!("{}", interrupted_text(setup, outcome));
    true
}

/// `interrupted: 15 finished pairs are kept in DIR/games.jsonl; continue with: arena match --out
/// DIR --resume`, after an empty line: every pair the journal keeps (counted, finished beyond the
/// counted prefix, or beyond a smaller cap).
pub fn interrupted_text(setup: &RunSetup, outcome: &RunOutcome) -> String {
    let pairs = outcome.counted + outcome.beyond;
    format!(
        "\ninterrupted: {pairs} finished {} kept in {}; continue with: arena {} --out {} --resume",
        if pairs == 1 { "pair is" } else { "pairs are" },
        setup
            .options
            .out
            .join(crate::records::files::JOURNAL)
            .display(),
        setup.kind.command_name(),
        setup.options.out.display()
    )
}

/// The block's header context of a run: [`RunSetup::context`], or for a merge the shards in place
/// of the threads (a merge plays nothing; its shards' threads are in `summary.json`).
pub fn run_context(setup: &RunSetup, outcome: &RunOutcome) -> String {
    match outcome.merged.len() {
        0 => setup.context(),
        n => setup.context_with(&format!(
            "merged from {n} shard{}",
            if n == 1 { "" } else { "s" }
        )),
    }
}

/// The progress line of a run, by its kind: a two-engine run's score and test
/// ([`progress::two_engines`]), a tournament's leader ([`progress::tournament`]) or a leak run's
/// arms ([`progress::leak`]). [`observer::Terminal`] prints it when the run core says a line is
/// due.
pub fn progress_line(setup: &RunSetup, snapshot: &Snapshot<'_>) -> String {
    match &setup.kind {
        RunKind::Tournament(_) => progress::tournament(setup, snapshot),
        RunKind::Leak(_) => progress::leak(setup, snapshot),
        RunKind::Match { .. } | RunKind::Gate { .. } => progress::two_engines(setup, snapshot),
    }
}
