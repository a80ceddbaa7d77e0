//! `arena history`: the index page of a folder of nightly tournaments, written by
//! [`crate::report::history`].

use std::io::Write;

use crate::error::Error;
use crate::plan::history::HistoryPlan;

/// Writes `DIR/index.html` and says so on `out`.
///
/// # Errors
/// No night in the folder (exit 2), or writing fails (exit 4).
pub fn run(plan: &HistoryPlan, out: &mut dyn Write) -> Result<(), Error> {
    crate::report::history::run(&plan.dir, out)
}
