//! `arena match`: two engines, a fixed number of pairs — a thin layer over the run core
//! ([`crate::run`]): play every pair, then report.

use std::io::Write;

use crate::error::Error;
use crate::run::{self, RunSetup};

/// Plays the match and prints its summary to `out` (the files go to the setup's folder).
///
/// Returns how it ended: [`crate::report::RunEnd::EnginesFailed`] when an engine failed in more
/// than [`crate::run::scoreboard::FAILURE_SHARE`] of its games, [`crate::report::RunEnd::Interrupted`]
/// after Ctrl-C (its standings so far printed and written).
///
/// # Errors
/// The output folder is unusable, an old journal is corrupt, or writing fails.
pub fn run(setup: &RunSetup, out: &mut dyn Write) -> Result<crate::report::RunEnd, Error> {
    let setup = &*run::folder::claim(setup)?;
    let outcome = run::execute(setup, &crate::report::observer::Terminal::new(setup))?;
    crate::report::finish(setup, &outcome, out)
}
