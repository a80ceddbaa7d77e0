//! `arena sprt`: the merge gate — a thin layer over the run core ([`crate::run`]); the kind
//! [`crate::run::kind::RunKind::Gate`] makes the SPRT its stop rule: pairs are played until the
//! test accepts H0 or H1 on the finished prefix of pair indices, or the cap is reached.

use std::io::Write;

use crate::error::Error;
use crate::report::{GateResult, gate_result};
use crate::run::{self, RunSetup};

/// Runs the gate, prints its summary to `out` (the files go to the setup's folder) and returns
/// its result.
///
/// # Errors
/// The output folder is unusable, an old journal is corrupt, or writing fails.
pub fn run(setup: &RunSetup, out: &mut dyn Write) -> Result<GateResult, Error> {
    let setup = &*run::folder::claim(setup)?;
    let outcome = run::execute(setup, &crate::report::observer::Terminal::new(setup))?;
    crate::report::write_reports(setup, &outcome, out)?;
    crate::report::say_interrupted(setup, &outcome, out);
    Ok(gate_result(setup, &outcome).unwrap_or(GateResult::Inconclusive))
}
