//! `arena match`: two engines, a fixed number of pairs — a thin layer over the run core
//! ([`crate::run`]): play every pair, then report.

use std::io::Write;

use crate::error::Error;
use crate::run::{self, RunSetup};

/// Plays the match and prints its summary to `out` (the files go to the setup's folder).
///
/// # Errors
/// The output folder is unusable, an old journal is corrupt, or writing fails.
pub fn run(setup: &RunSetup, out: &mut dyn Write) -> Result<(), Error> {
    let outcome = run::execute(setup, &crate::report::progress_line)?;
    crate::report::write_reports(setup, &outcome, out)
}
