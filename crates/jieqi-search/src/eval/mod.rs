//! Static evaluation, in centipawns from the side to move's point of view.
//!
//! Hidden pieces are valued at the expected value of their owner's pool in the position (seed 004):
//! the mean value of the identities that side has not yet seen, which changes as pieces reveal.
//! A player who knows hidden pieces (an omniscient view, [`Knowledge`]) values those at their
//! identities instead: [`known_hidden`] is the difference, [`evaluate_known`] the sum.
//! Weights live in [`EvalWeights`] (loadable from `configs/eval/*.json`), not in scattered constants.
//!
//! Terms, each from one side's point of view and subtracted for the other:
//! - material: face-up pieces by role (a pawn is worth more across the river), hidden pieces at the
//!   mean value of their owner's pool;
//! - piece-square terms: for chariot, horse, cannon and pawn a centrality bonus per file step
//!   towards the centre file and an advancement bonus per rank towards the enemy (mirrored for
//!   Black); pawns only earn advancement once across the river; plus the learned tables
//!   ([`Pst`]) for every kind of piece, hidden pieces included;
//! - mobility: for face-up chariots, horses and cannons, a bonus per pseudo-legal move (empty
//!   squares plus captures; horse legs respected; cannon captures over a screen);
//! - king safety: enemy face-up chariots, horses, cannons on the king's half and crossed pawns
//!   near its palace are "attackers" (weighted by role); the penalty is
//!   `king_attack × attack + king_attack_open × attack × missing_guards`, where guards are own
//!   advisors and elephants (face up, or still hidden on their start squares) out of four;
//! - a small tempo bonus for the side to move.
//!
//! The terms are written once, in one path (eval/incremental.rs): each piece's terms by side,
//! kind and square, summed into an [`Incremental`] (kept along make/unmake by the search), then
//! mobility, hidden pieces and king safety. [`evaluate`] (no setup), [`Evaluator::evaluate`]
//! (tables built once) and [`Evaluator::evaluate_with`] (the search's, from kept sums) all go
//! through it; tests/it/eval.rs checks it against a plain 90-square reference written term by
//! term.

mod incremental;
mod mobility;
mod weights;

use jieqi_core::{Belief, Color, Knowledge, Position, Square};

pub use incremental::{Evaluator, Incremental};
pub use weights::{EvalWeights, MAX_WEIGHTS_FILE, PST_SQUARES, Pst};

/// Evaluates `pos` from the side to move's point of view under weights `w`.
///
/// The evaluation path of [`Evaluator`] with each piece's terms computed as it is met rather
/// than read from tables: no setup, for callers that evaluate now and then (an engine that
/// evaluates at every node builds an [`Evaluator`] once).
pub fn evaluate(pos: &Position, w: &EvalWeights) -> i32 {
    incremental::evaluate(pos, w)
}

/// What knowing hidden pieces changes in the evaluation of `pos`, from the side to move's point
/// of view: every hidden piece whose identity `knowledge` holds counts at its
/// [`EvalWeights::identity`] instead of its pool's mean. 0 for fair knowledge (computed only for
/// an omniscient one).
pub fn known_hidden(pos: &Position, w: &EvalWeights, knowledge: &Knowledge) -> i32 {
    if !knowledge.is_omniscient() {
        return 0;
    }
    let mut score = [0i32; 2];
    for color in Color::ALL {
        let c = color.index();
        let mean = w.hidden(pos.pool(color));
        let mut bits = pos.occupied(color);
        while bits != 0 {
            let sq = Square::from_index(bits.trailing_zeros() as usize);
            bits &= bits - 1;
            if let Some(Belief::Known(r)) = knowledge.belief(pos, sq) {
                score[c] += w.identity(r) - mean;
            }
        }
    }
    let us = pos.turn().index();
    score[us] - score[1 - us]
}

/// [`evaluate`] for a player who knows `knowledge`: plus [`known_hidden`].
pub fn evaluate_known(pos: &Position, w: &EvalWeights, knowledge: &Knowledge) -> i32 {
    evaluate(pos, w) + known_hidden(pos, w, knowledge)
}

/// Maps a centipawn score to an expected game score in (0, 1) with the logistic curve
/// 1 / (1 + 10^(−cp/400)) (Elo scale: +400 cp ≈ 91 %).
#[inline]
pub fn win_probability(cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-(cp as f64) / 400.0))
}
