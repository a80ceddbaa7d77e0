//! `arena suite`: makes test suites (files `arena solve` reads) from the positions of recorded
//! games, each position verified by an exhaustive search written for the purpose.
//!
//! - `mates`: under rules without hidden pieces, the positions 1, 3, 5, … plies before a game's
//!   mate (the winner to move), kept when [`MateProver`] proves the shortest forced mate to be
//!   `N ≤ --max-moves` moves (mate in N against every defence, none in N − 1); `bm` lists every
//!   first move that mates in N, `dm N` says N.
//! - `tactics`: under any rules, positions where exactly one move wins at least `--min-gain`
//!   centipawns of material by force ([`TacticProver`]: `--depth` full-width plies and captures,
//!   every hidden identity chosen against the mover, so the gain holds in every
//!   determinization), the side to move not in check and the last move not a capture (no plain
//!   recaptures), with at least `--min-hidden` hidden pieces on the board. The FEN is the side to
//!   move's view (JieqiBox 6-field: its pools and the hidden pieces it captured).
//!
//! Games are read in folder and journal order and candidates proved in parallel; the result
//! depends on neither the thread count nor timing, so the same folders give the same file.
//! The work is `analysis::suite`'s, the text and the file `report::suite`'s.
//!
//! [`MateProver`]: jieqi_search::mate::MateProver
//! [`TacticProver`]: jieqi_search::tactic::TacticProver

use std::io::Write;

use crate::analysis::suite as work;
use crate::error::Error;
use crate::plan::suite::{MatesPlan, SuitePlan, TacticsPlan};

/// Runs the command.
///
/// # Errors
/// Bad folders (exit 2), or a file that cannot be written (exit 4).
pub fn run(plan: &SuitePlan, w: &mut dyn Write) -> Result<(), Error> {
    match plan {
        SuitePlan::Mates(a) => mates(a, w),
        SuitePlan::Tactics(a) => tactics(a, w),
    }
}

fn mates(args: &MatesPlan, w: &mut dyn Write) -> Result<(), Error> {
    let found = work::mate_candidates(args)?;
    let pool = work::pool(&args.common)?;
    let bar =
        crate::report::bar::progress(found.candidates.len() as u64, "positions proved", false);
    let proofs = work::prove_mates(&pool, args.common.budget, &found.candidates, &|| bar.inc(1));
    bar.finish_and_clear();
    crate::report::suite::mates(args, &found, &proofs, w)
}

fn tactics(args: &TacticsPlan, w: &mut dyn Write) -> Result<(), Error> {
    let found = work::tactic_candidates(args)?;
    let pool = work::pool(&args.common)?;
    let bar =
        crate::report::bar::progress(found.candidates.len() as u64, "positions proved", false);
    let proofs = work::prove_tactics(args, &pool, &found.candidates, &|| bar.inc(1));
    bar.finish_and_clear();
    crate::report::suite::tactics(args, &found, &proofs, w)
}
