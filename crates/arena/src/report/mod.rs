//! What a person reads: a two-engine run's summary ([`summary`], re-exported here), a
//! tournament's standings ([`standings`]) and HTML page ([`html`]), the leak report ([`leak`]),
//! the nightly index ([`history`]) and boards as text ([`board_text`]). [`write_reports`] chooses
//! a run's report by its kind.

pub mod board_text;
pub mod history;
pub mod html;
pub mod leak;
pub mod nights;
pub mod pairing;
pub mod ratings_json;
pub mod standings;
pub mod summary;

pub use summary::*;

use std::io::Write;

use crate::error::Error;
use crate::run::kind::RunKind;
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
