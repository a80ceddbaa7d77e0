//! `arena tournament`: many engines, every pairing of a round robin or a gauntlet (or a listed
//! set), pair `p` of every pairing on the same deal — a thin layer over the run core
//! ([`crate::run`]). After the games, [`crate::report::standings`] rates the engines and writes the
//! rating list, the pairwise table, the per-pairing match folders and the reports.

use std::io::Write;

use crate::error::Error;
use crate::run::{self, RunSetup};

/// Plays the tournament and writes its reports (see [`crate::report::standings`]).
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
