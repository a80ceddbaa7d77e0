//! When a run stops: after every pair (a fixed number of pairs), or when a gate's SPRT decides.
//! The kind of run chooses ([`for_kind`]).

use crate::run::kind::RunKind;
use crate::run::scoreboard::Scoreboard;
use crate::stats::Sprt;

/// Decides after each finished pair whether a run stops.
pub trait StopRule {
    /// Called each time a job joins the finished prefix, with the board of exactly that prefix
    /// (`pairs` jobs); `true` stops the run there.
    fn stop(&mut self, board: &Scoreboard, pairs: u64) -> bool;

    /// A short live status for the progress bar, if the rule has one.
    fn status(&self, _board: &Scoreboard) -> Option<String> {
        None
    }
}

/// The rule of a fixed number of pairs: never stop early.
#[derive(Copy, Clone, Debug, Default)]
pub struct PlayAll;

impl StopRule for PlayAll {
    fn stop(&mut self, _: &Scoreboard, _: u64) -> bool {
        false
    }
}

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

/// The stop rule of a kind of run: a gate stops by its SPRT, every other kind plays every pair.
pub fn for_kind(kind: &RunKind) -> Box<dyn StopRule> {
    match kind {
        RunKind::Gate { sprt, recover, .. } => Box::new(SprtStop {
            sprt: *sprt,
            recover: *recover,
        }),
        _ => Box::new(PlayAll),
    }
}
