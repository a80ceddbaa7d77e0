//! Chance nodes: the outcomes of a move (reveals, a captured hidden king), their prices and
//! the Star1 window arithmetic.

use super::*;

/// One outcome of a move in the public tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    /// Weight (probability = weight / [`Branches::total`]).
    pub weight: u32,
    /// Revealed identity (hidden mover) or `None`.
    pub reveal: Option<Role>,
    /// The move captured the (hidden) enemy king: the game is won, no position follows.
    pub king_win: bool,
}

/// The outcomes of one move: a single plain branch for a face-up mover, one per pool identity for
/// a hidden mover, plus a king-capture outcome when a hidden piece that may be the king is taken.
#[derive(Copy, Clone, Debug)]
pub struct Branches {
    pub(super) items: [Branch; 8],
    pub(super) len: usize,
    /// Sum of the weights.
    pub total: u32,
}

impl Branches {
    /// The outcomes with positive weight.
    pub fn as_slice(&self) -> &[Branch] {
        &self.items[..self.len]
    }

    fn push(&mut self, b: Branch) {
        if b.weight > 0 {
            self.items[self.len] = b;
            self.len += 1;
            self.total += b.weight;
        }
    }

    /// Whether the move is deterministic (one plain outcome).
    pub fn is_single(&self) -> bool {
        self.len == 1 && !self.items[0].king_win
    }
}

/// The chance outcomes of legal move `m` in `pos` for a player who knows `knowledge` (see the
/// module docs for the fair probabilities). Where the player knows a hidden piece, its move has
/// the one outcome of its identity, and its capture wins for sure if it is the king and never
/// otherwise.
pub fn branches(pos: &Position, knowledge: &Knowledge, m: Move) -> Branches {
    let mut out = Branches {
        items: [Branch {
            weight: 0,
            reveal: None,
            king_win: false,
        }; 8],
        len: 0,
        total: 0,
    };
    let us = pos.turn();
    let rules = pos.rules();
    // Whether the captured piece may be the hidden enemy king, and among how many hidden pieces
    // it is (fair: 1 / (its hidden pieces); known: for sure).
    let victim = if m.from != m.to {
        knowledge.belief(pos, m.to)
    } else {
        None
    };
    let (king_victim, victims) = match victim {
        Some(Belief::Known(r)) => (r == Role::King, 1),
        Some(Belief::Pool(pool)) if rules.hidden_king && pool.get(Role::King) > 0 => {
            (true, pos.hidden_count(!us))
        }
        _ => (false, 1),
    };
    if let Some(mover) = knowledge.belief(pos, m.from) {
        let pool = mover.weights();
        let total = pool.total();
        let h = if rules.hidden_king {
            pos.hidden_count(us)
        } else {
            0
        };
        // A fair player knows a hidden king is never among the captured identities: it is on the
        // board, each hidden piece being it with probability 1/h; the rest share the remaining
        // probability.
        let corrected = matches!(mover, Belief::Pool(_))
            && rules.hidden_king
            && pool.get(Role::King) > 0
            && total > h;
        let mut reveal_total = 0;
        let mut items = [(Role::King, 0u32); 7];
        for (i, r) in Role::ALL.into_iter().enumerate() {
            let c = pool.get(r) as u32;
            let w = if c == 0 {
                0
            } else if corrected {
                if r == Role::King {
                    total - 1
                } else {
                    c * (h - 1)
                }
            } else {
                c
            };
            items[i] = (r, w);
            reveal_total += w;
        }
        if king_victim {
            out.push(Branch {
                weight: reveal_total,
                reveal: None,
                king_win: true,
            });
        }
        let survive = if king_victim { victims - 1 } else { 1 };
        for (r, w) in items {
            out.push(Branch {
                weight: w * survive,
                reveal: Some(r),
                king_win: false,
            });
        }
    } else {
        if king_victim {
            out.push(Branch {
                weight: 1,
                reveal: None,
                king_win: true,
            });
        }
        out.push(Branch {
            weight: if king_victim { victims - 1 } else { 1 },
            reveal: None,
            king_win: false,
        });
    }
    out
}

/// The price of playing outcome `i` of a hidden-piece move with outcomes `br` as if it were
/// certain: the expected material of the mover's hidden pieces plus the revealed one over all
/// outcomes, minus that of outcome `i` (the mover's point of view, centipawns, as the evaluation
/// counts it: each hidden piece at its pool's mean, see [`EvalWeights::hidden`]). Added to the
/// value of outcome `i`, it prices the reveal at its expectation, so a lucky sample is not taken
/// for a gain of material (the revealed piece's moves and threats stay those of outcome `i`).
pub fn reveal_price(pos: &Position, w: &EvalWeights, br: &Branches, i: usize) -> i32 {
    let us = pos.turn();
    let pool = *pos.pool(us);
    let others = i64::from(pos.hidden_count(us).saturating_sub(1));
    let after = |b: &Branch| -> i64 {
        let Some(r) = b.reveal else { return 0 };
        let mut rest = pool;
        rest.0[r.index()] = rest.0[r.index()].saturating_sub(1);
        i64::from(w.identity(r)) + others * i64::from(w.hidden(&rest))
    };
    let items = br.as_slice();
    let expected: i64 = items.iter().map(|b| i64::from(b.weight) * after(b)).sum();
    round_div(
        expected - i64::from(br.total) * after(&items[i]),
        i64::from(br.total),
    )
}

/// `s / w` rounded to the nearest integer, halves up (monotone in `s`).
#[inline]
pub fn round_div(s: i64, w: i64) -> i32 {
    (2 * s + w).div_euclid(2 * w) as i32
}

/// Star1 child window (a, b) from the mover's side for an outcome with bounds [lo, hi] and weight
/// `w`, given the scaled window `aw = αW`, `bw = βW` and the bound sums.
#[inline]
pub(super) fn star1_window(
    aw: i64,
    bw: i64,
    s_lo: i64,
    s_hi: i64,
    lo: i32,
    hi: i32,
    w: i64,
) -> (i32, i32) {
    let rest_hi = s_hi - w * hi as i64;
    let rest_lo = s_lo - w * lo as i64;
    let a = (aw - rest_hi).div_euclid(w);
    let b = -((rest_lo - bw).div_euclid(w)); // ceil((bw - rest_lo) / w)
    let a = a.max(lo as i64 - 1).max(-INF as i64) as i32;
    let b = b.min(hi as i64 + 1).min(INF as i64) as i32;
    (a, b)
}
