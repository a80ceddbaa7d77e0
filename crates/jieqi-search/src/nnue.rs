//! A small efficiently updatable network (NNUE-style) that corrects the hand-crafted evaluation.
//!
//! Inputs: one feature per piece, from each side's perspective — whether the piece is that side's
//! own or the opponent's, its kind as the board shows it (one of the seven roles, or hidden) and
//! its square (ranks flipped for Black, so both perspectives see their own side at the bottom):
//! 2 × 8 × 90 = [`INPUTS`] features, about 32 active. One hidden layer of [`HIDDEN`] units per
//! perspective (the same weights for both), clipped to [0, 1]; the output is a weighted sum of
//! the side to move's units and then the other side's, in centipawns, added to the evaluation.
//!
//! Integer inference: the accumulator holds the hidden units' inputs times [`QA`] as `i16`; the
//! output weights are centipawns times [`QB`] as `i16`. The accumulator is computed from the board
//! at each evaluation (about 32 pieces × 2 perspectives × [`HIDDEN`] additions; the search's
//! evaluation cache saves repeats): kept along make/unmake it would have cost every search,
//! with or without a network, 2 % more instructions (the search copies its per-piece terms at
//! each move). `arena tune --net` fits the weights (as floats) and writes them rounded to these
//! units.

use jieqi_core::{Color, Occupant, Position, Square};
use serde::{Deserialize, Serialize};

/// Hidden units per perspective.
pub const HIDDEN: usize = 32;
/// Input features: own or opponent's, 8 kinds (roles, then hidden), 90 squares.
pub const INPUTS: usize = 2 * 8 * 90;
/// Accumulator units per 1.0 of a hidden unit's input (the clip's top).
pub const QA: i32 = 127;
/// Output weight units per centipawn.
pub const QB: i32 = 64;

/// The accumulators of the two perspectives (Red's, then Black's), in [`QA`] units.
pub type Accumulator = [[i16; HIDDEN]; 2];

/// The network's weights, in integer units.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Net {
    /// `[feature][unit]`, [`INPUTS`] × [`HIDDEN`] values, in [`QA`] units.
    pub w0: Vec<i16>,
    /// One bias per hidden unit, in [`QA`] units.
    pub b0: Vec<i16>,
    /// Output weights: the side to move's [`HIDDEN`] units, then the other side's; centipawns
    /// times [`QB`].
    pub w1: Vec<i16>,
    /// Output bias, in centipawns times [`QA`] × [`QB`].
    pub b1: i32,
}

/// The feature of a piece of `color` and table kind `kind` (a role index, or 7 for hidden) on
/// square index `s`, seen from `persp`'s side.
#[inline]
pub fn feature(persp: usize, color: usize, kind: usize, s: usize) -> usize {
    let rel = if persp == 0 {
        s
    } else {
        (9 - s / 9) * 9 + s % 9
    };
    (usize::from(color != persp) * 8 + kind) * 90 + rel
}

/// The table kind of an occupant (role index, or 7 for hidden).
#[inline]
pub fn kind_of(o: Occupant) -> (usize, usize) {
    match o {
        Occupant::Revealed(p) => (p.color.index(), p.role.index()),
        Occupant::Hidden(c) => (c.index(), 7),
    }
}

impl Net {
    /// A field of the wrong size, by name.
    pub fn malformed(&self) -> Option<&'static str> {
        if self.w0.len() != INPUTS * HIDDEN {
            Some("net.w0 must have 1440 × 32 values")
        } else if self.b0.len() != HIDDEN {
            Some("net.b0 must have 32 values")
        } else if self.w1.len() != 2 * HIDDEN {
            Some("net.w1 must have 64 values")
        } else {
            None
        }
    }

    /// The accumulators of an empty board (the biases).
    #[inline]
    pub fn empty(&self) -> Accumulator {
        let mut a = [[0i16; HIDDEN]; 2];
        for p in &mut a {
            p.copy_from_slice(&self.b0[..HIDDEN]);
        }
        a
    }

    /// Adds (`sign` > 0) or removes a piece of `color` and `kind` on square index `s`.
    #[inline]
    pub fn add(&self, acc: &mut Accumulator, color: usize, kind: usize, s: usize, sign: i32) {
        for (persp, a) in acc.iter_mut().enumerate() {
            let f = feature(persp, color, kind, s) * HIDDEN;
            let row = &self.w0[f..f + HIDDEN];
            if sign > 0 {
                for (x, &w) in a.iter_mut().zip(row) {
                    *x = x.wrapping_add(w);
                }
            } else {
                for (x, &w) in a.iter_mut().zip(row) {
                    *x = x.wrapping_sub(w);
                }
            }
        }
    }

    /// The accumulators of `pos`, from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = self.empty();
        for color in Color::ALL {
            let mut bits = pos.occupied(color);
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(o) = pos.occupant(Square::from_index(s)) {
                    let (c, k) = kind_of(o);
                    self.add(&mut acc, c, k, s, 1);
                }
            }
        }
        acc
    }

    /// The correction in centipawns for `stm` to move, from its point of view.
    #[inline]
    pub fn output(&self, acc: &Accumulator, stm: Color) -> i32 {
        let us = stm.index();
        // In i64: a weights file's bias may be any i32, and nothing read from outside overflows.
        let mut sum = i64::from(self.b1);
        for (half, a) in [&acc[us], &acc[1 - us]].into_iter().enumerate() {
            let w = &self.w1[half * HIDDEN..(half + 1) * HIDDEN];
            let mut s = 0i32;
            for (&x, &w) in a.iter().zip(w) {
                // At most 32 × 127 × 32,768 in all: no overflow.
                s += i32::from(x.clamp(0, QA as i16)) * i32::from(w);
            }
            sum += i64::from(s);
        }
        sum.div_euclid(i64::from(QA * QB)) as i32
    }

    /// The correction for `pos`, from the side to move's point of view (from scratch).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos.turn())
    }
}
