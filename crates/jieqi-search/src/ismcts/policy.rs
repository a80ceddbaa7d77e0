//! How a node chooses and values: availability-aware UCB over its children, the widening bound and
//! the order new children come in, a new node's value (quiescence or playout), the per-ply
//! discount, and the end of the game.

use jieqi_core::{
    Color, Determinization, HistoryEntry, Move, MoveList, Position, classify_before_moves,
};
use rand_chacha::ChaCha8Rng;

use crate::leaf::{leaf_score, prior};
use crate::playout::{below, outcome_score};

use super::tree::NONE;
use super::*;

impl Ismcts {
    /// How many children a node with `visits` visits may have under progressive widening.
    pub(super) fn room(&self, visits: u32) -> f64 {
        (self.width * (f64::from(visits) + 1.0).powf(self.widen)).ceil()
    }

    /// The untried move (marked in `self.marks`; `untried` of them) a node adds next: with
    /// widening the one of highest [`prior`] (ties: uniformly at random), else any at random.
    pub(super) fn next_child(
        &self,
        det: &Determinization,
        moves: &MoveList,
        untried: usize,
        rng: &mut ChaCha8Rng,
    ) -> Move {
        let marked = |m: &&Move| self.marks[m.from.index()] & (1u128 << m.to.index()) != 0;
        if self.width == 0.0 {
            let k = below(rng, untried as u32) as usize;
            return *moves.iter().filter(marked).nth(k).expect("k < untried");
        }
        let mut best = (i32::MIN, moves[0]);
        let mut ties = 0u32;
        for m in moves.iter().filter(marked) {
            let p = prior(det, *m, &self.playout.weights);
            if p > best.0 {
                best = (p, *m);
                ties = 1;
            } else if p == best.0 {
                // Reservoir sampling: each of the tied moves is kept with equal probability.
                ties += 1;
                if below(rng, ties) == 0 {
                    best.1 = *m;
                }
            }
        }
        best.1
    }

    /// The value for `us` of the node just added (`det` at its position): a capture-only
    /// quiescence search scored by the evaluation.
    pub(super) fn value_leaf(&self, det: &mut Determinization, us: Color) -> f64 {
        leaf_score(det, us, &self.playout.weights)
    }

    /// Availability: marks the legal `moves` (in `self.marks`), then walks the children of
    /// `node`; a child whose move is legal here counts one more availability and is unmarked, so
    /// the marks left are the untried moves. Returns the legal child of best UCB (`NONE` if no
    /// child is legal) and how many children are legal.
    #[inline]
    pub(super) fn select(&mut self, tree: &mut Tree, node: u32, moves: &MoveList) -> (u32, usize) {
        for m in moves {
            self.marks[m.from.index()] |= 1u128 << m.to.index();
        }
        let ln_c = self.c;
        let mut tried = 0usize;
        let mut best = NONE;
        let mut best_ucb = f64::NEG_INFINITY;
        let mut c = tree.nodes[node as usize].first_child;
        while c != NONE {
            let child = &mut tree.nodes[c as usize];
            let (f, t) = (child.mv.from.index(), child.mv.to.index());
            let bit = 1u128 << t;
            if self.marks[f] & bit != 0 {
                self.marks[f] &= !bit;
                tried += 1;
                child.avail += 1;
                let v = child.visits.max(1) as f64;
                let ucb = child.reward / v + ln_c * ((child.avail as f64).ln() / v).sqrt();
                if ucb > best_ucb {
                    best_ucb = ucb;
                    best = c;
                }
            }
            c = child.next_sibling;
        }
        (best, tried)
    }
}

/// `score` (for either side) with its distance from a draw shrunk by `keep` per ply of `plies`.
#[inline]
pub(super) fn discounted(score: f64, plies: u32, keep: f64) -> f64 {
    if keep == 1.0 {
        score
    } else {
        0.5 + (score - 0.5) * keep.powi(plies.min(i32::MAX as u32) as i32)
    }
}

/// The tree's value for `perspective` of `pos` if the game is over there: the core's classifier
/// ([`jieqi_core::classify_before_moves`] over `window`, the positions since the last irreversible
/// move ending at `pos`, a position ending the game at its `count`-th occurrence) as a score, 1
/// win, 0 loss, 0.5 draw. As with the classifier, a side without a legal move is left to the
/// caller (the tree generates the moves next and scores an empty list as the mover's loss), and
/// so is a king taken by the move into `pos` (the tree checks it as it makes the move).
pub fn terminal_value(
    pos: &Position,
    window: &[HistoryEntry],
    count: u32,
    perspective: Color,
) -> Option<f64> {
    classify_before_moves(pos, false, window, count).map(|o| outcome_score(o, perspective))
}
