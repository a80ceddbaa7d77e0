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

//!
//! The journal and the searches are `analysis::solve_journal`'s, the printed results and the
//! files `report::solve_files`'.

use std::io::Write;

use crate::analysis::solve_journal::{JournalLine, JournalSetup, resumed_results, search};
use crate::error::Error;
use crate::plan::solve::SolvePlan;
use crate::records::journal::ItemJournal;
use crate::report::solve_files::report;

pub use crate::report::solve_files::Ended;

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
