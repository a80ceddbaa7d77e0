//! `arena book`: writes a balanced opening book — positions a few plies from the start (random
//! legal plies, or a seeded choice among the reference engine's best moves), kept only where a
//! reference search at fixed nodes scores them within ±X for the side to move, each distinct.
//!
//! Candidate `k` is played from the ChaCha20 stream of `mix(seed, k)` (its ply count, its moves
//! and, in Jieqi, its deal); candidates are scored on the scheduler and taken in candidate order
//! (the finished prefix), so the same seed and flags write the same book at any thread count.
//! A Jieqi position is written as its public FEN: the identities it revealed out of the pools,
//! a captured hidden piece's left in (nobody but its capturer saw it).

//!
//! The work is `analysis::book`'s, the file and the printed line `report::book`'s.

use std::io::Write;

use crate::analysis::book as work;
use crate::error::Error;
use crate::plan::book::BookPlan;

/// Makes the book and writes it; prints what it kept.
///
/// # Errors
/// Too few positions within `--max-candidates`, or the file cannot be written.
pub fn run(plan: &BookPlan, out: &mut dyn Write) -> Result<(), Error> {
    let started = std::time::Instant::now();
    let bar = crate::report::bar::progress(plan.positions as u64, "positions kept", false);
    let made = work::make(plan, &|| bar.inc(1))?;
    bar.finish_and_clear();
    made.enough(plan)?;
    crate::report::book::write(plan, &made, started, out)
}
