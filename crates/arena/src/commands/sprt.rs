//! `arena sprt`: the merge gate — a thin layer over the run core ([`crate::run`]) with the SPRT
//! as its stop rule: pairs are played until the test accepts H0 or H1 on the finished prefix of
//! pair indices, or the cap is reached.

use std::io::Write;

use crate::report::{GateResult, gate_result};
use crate::run::scoreboard::Scoreboard;
use crate::run::{self, RunError, RunSetup, StopRule};
use crate::stats::Sprt;

/// Stops a run once the SPRT on its first pairing's pentanomial counts crosses a bound — or,
/// unless told to recover, at the first engine failure.
#[derive(Copy, Clone, Debug)]
pub struct SprtStop {
    /// The test.
    pub sprt: Sprt,
    /// Count engine failures as losses and go on (fastchess's `-recover`).
    pub recover: bool,
}

impl SprtStop {
    fn llr(&self, board: &Scoreboard) -> f64 {
        self.sprt.llr_pentanomial(&board.pairings()[0].ptnml)
    }
}

impl StopRule for SprtStop {
    fn stop(&mut self, board: &Scoreboard, _pairs: u64) -> bool {
        let failed = board.pairings()[0].failures.iter().sum::<u64>() > 0;
        (failed && !self.recover) || self.sprt.verdict(self.llr(board)).is_some()
    }

    fn status(&self, board: &Scoreboard) -> Option<String> {
        let (a, b) = self.sprt.bounds();
        Some(format!("LLR {:.2} ({a:.2}, {b:.2})", self.llr(board)))
    }
}

/// Runs the gate, prints its summary to `out` (the files go to the setup's folder) and returns
/// its result.
///
/// # Errors
/// The output folder is unusable, an old journal is corrupt, or writing fails.
pub fn run(setup: &RunSetup, out: &mut dyn Write) -> Result<GateResult, RunError> {
    let sprt = setup
        .sprt
        .ok_or_else(|| RunError::Output("arena sprt needs an SPRT".into()))?;
    let mut rule = SprtStop {
        sprt,
        recover: setup.recover,
    };
    let outcome = run::execute(setup, &mut rule)?;
    run::report(setup, &outcome, out)?;
    Ok(gate_result(setup, &outcome).unwrap_or(GateResult::Inconclusive))
}
