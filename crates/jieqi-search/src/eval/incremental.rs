//! The one evaluation path. Each piece's terms (material, piece-square values, the king-attack
//! units it adds against the enemy king, whether it guards its own) depend only on its side, kind
//! and square: [`Evaluator`] tabulates them. An [`Incremental`] holds their sums for a position,
//! computed from scratch or kept along the search's make/unmake ([`Evaluator::update`]); the
//! position's value is those sums plus mobility, hidden pieces at their pool's mean, king safety
//! and the tempo bonus ([`Evaluator::evaluate_with`]).

use jieqi_core::{Color, Occupant, PlayedMove, Position, Role, Square};

use super::EvalWeights;
use super::mobility::{horse_mobility, line_mobility};

const CHARIOT: usize = Role::Chariot.index();
const HORSE_K: usize = Role::Horse.index();
const CANNON: usize = Role::Cannon.index();
/// Table index of a hidden piece (after the seven roles).
const HIDDEN_K: usize = 7;

/// One piece's terms: its material plus piece-square value, its attack units against the enemy
/// king, and whether it guards its own (0 or 1).
#[derive(Clone, Copy, Debug)]
struct Terms {
    base: i32,
    attack: i32,
    guard: i32,
}

/// The terms of a piece of `role` (`None`: hidden) of `color` on `sq`. A king and a hidden piece
/// have only the learned table's value here (a hidden piece's material is its pool's mean, added
/// at evaluation); a hidden piece on an advisor's or elephant's start square guards. Inlined:
/// [`evaluate`] computes it for every piece it meets.
#[inline(always)]
fn square_terms(w: &EvalWeights, color: Color, role: Option<Role>, sq: Square) -> Terms {
    let kind = role.map_or(HIDDEN_K, Role::index);
    let table = w.pst.at(kind, color, sq);
    let Some(role) = role else {
        let guard = matches!(
            jieqi_core::start_role(sq),
            Some(Role::Advisor | Role::Elephant)
        );
        return Terms {
            base: table,
            attack: 0,
            guard: i32::from(guard),
        };
    };
    if role == Role::King {
        return Terms {
            base: table,
            attack: 0,
            guard: 0,
        };
    }
    let on_their_half = !sq.is_own_half(color);
    let (attack, guard) = match role {
        Role::Advisor => (0, sq.is_palace(color)),
        Role::Elephant => (0, !on_their_half),
        Role::Chariot if on_their_half => (3, false),
        Role::Horse | Role::Cannon if on_their_half => (2, false),
        Role::Pawn => {
            // Near the enemy palace: ranks 6..=9 from its own side, files c–g.
            let adv = match color {
                Color::Red => sq.rank(),
                Color::Black => 9 - sq.rank(),
            };
            (i32::from(adv >= 6 && (2..=6).contains(&sq.file())), false)
        }
        _ => (0, false),
    };
    Terms {
        base: w.piece(color, role, sq) + w.pst(color, role, sq) + table,
        attack,
        guard: i32::from(guard),
    }
}

/// Table kind of what stands on square `s` (a role index, or [`HIDDEN_K`]), if anything.
#[inline]
fn kind_at(pos: &Position, s: usize) -> Option<usize> {
    match pos.occupant(Square::from_index(s)) {
        None => None,
        Some(Occupant::Revealed(p)) => Some(p.role.index()),
        Some(Occupant::Hidden(_)) => Some(HIDDEN_K),
    }
}

/// The per-piece terms of the evaluation, summed: per side, the material + piece-square values,
/// the king-attack units against it, its guards, its hidden pieces, and bitboards of its face-up
/// chariots, cannons and horses (for mobility); and per pool the sum of its identities' values,
/// its size and its mean (the value of a hidden piece, recomputed only when the pool changes).
/// Built from scratch by [`Evaluator::incremental`], kept along a search's make/unmake by
/// [`Evaluator::update`]; mobility is computed at evaluation time ([`Evaluator::evaluate_with`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Incremental {
    base: [i32; 2],
    attack: [i32; 2],
    guards: [i32; 2],
    hidden: [i32; 2],
    /// `[side][0 chariots, 1 cannons, 2 horses]`.
    mobile: [[u128; 3]; 2],
    pool_sum: [i64; 2],
    pool_len: [i64; 2],
    /// [`EvalWeights::hidden`] of each pool.
    pool_mean: [i32; 2],
}

impl Incremental {
    /// Sets the pool mean of side `c` from its sum and size (as [`EvalWeights::hidden`] does).
    #[inline]
    fn set_mean(&mut self, c: usize) {
        self.pool_mean[c] = if self.pool_len[c] == 0 {
            0
        } else {
            (self.pool_sum[c] / self.pool_len[c]) as i32
        };
    }

    /// Adds (`sign` 1) or takes away (−1) a piece of kind `kind` of side `c` on square `s`, whose
    /// terms are `t`.
    #[inline(always)]
    fn add(&mut self, c: usize, kind: usize, s: usize, t: Terms, sign: i32) {
        self.base[c] += sign * t.base;
        self.attack[1 - c] += sign * t.attack;
        self.guards[c] += sign * t.guard;
        self.hidden[c] += sign * i32::from(kind == HIDDEN_K);
        let slot = match kind {
            CHARIOT => 0,
            CANNON => 1,
            HORSE_K => 2,
            _ => return,
        };
        // Toggle: a piece is added where none stands and removed where it stands.
        self.mobile[c][slot] ^= 1u128 << s;
    }

    /// The piece terms of `pos` from scratch, each piece's from `terms(color, role or None if
    /// hidden, square)`; the pools are left empty ([`Incremental::set_pool`]).
    #[inline(always)]
    fn of(pos: &Position, terms: impl Fn(Color, Option<Role>, Square) -> Terms) -> Incremental {
        let mut inc = Incremental::default();
        for color in Color::ALL {
            let c = color.index();
            let mut bits = pos.occupied(color);
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let sq = Square::from_index(s);
                let (kind, role) = match pos.occupant(sq) {
                    None => continue,
                    Some(Occupant::Revealed(p)) => (p.role.index(), Some(p.role)),
                    Some(Occupant::Hidden(_)) => (HIDDEN_K, None),
                };
                inc.add(c, kind, s, terms(color, role, sq), 1);
            }
        }
        inc
    }

    /// Sets the pool terms of `color` from its pool in `pos` under weights `w`.
    #[inline]
    fn set_pool(&mut self, pos: &Position, w: &EvalWeights, color: Color) {
        let c = color.index();
        let pool = pos.pool(color);
        self.pool_sum[c] = Role::ALL
            .iter()
            .map(|&r| w.identity(r) as i64 * pool.get(r) as i64)
            .sum();
        self.pool_len[c] = i64::from(pool.total());
        self.set_mean(c);
    }
}

/// The value of `pos`, whose per-piece terms are `inc`, from the side to move's point of view:
/// the terms plus mobility, hidden pieces at their pool's mean, king safety and the tempo bonus.
#[inline]
fn value(w: &EvalWeights, pos: &Position, inc: &Incremental) -> i32 {
    let occ_by = [pos.occupied(Color::Red), pos.occupied(Color::Black)];
    let occ = occ_by[0] | occ_by[1];
    let mut score = inc.base;
    for color in Color::ALL {
        let c = color.index();
        let own = occ_by[c];
        let [chariots, cannons, horses] = inc.mobile[c];
        let mut m = 0;
        let mut bits = chariots;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            m += w.mobility_chariot * line_mobility(s, false, occ, own);
        }
        let mut bits = cannons;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            m += w.mobility_cannon * line_mobility(s, true, occ, own);
        }
        let mut bits = horses;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            m += w.mobility_horse * horse_mobility(s, occ, own);
        }
        score[c] += m;
        score[c] += inc.hidden[c] * inc.pool_mean[c];
        if pos.king(color).is_some() {
            let missing = (4 - inc.guards[c]).max(0);
            score[c] -=
                w.king_attack * inc.attack[c] + w.king_attack_open * inc.attack[c] * missing;
        }
    }
    let us = pos.turn().index();
    score[us] - score[1 - us] + w.tempo
}

/// [`super::evaluate`]: the one path with each piece's terms computed as it is met instead of
/// read from tables (no setup, for callers that evaluate now and then).
pub(super) fn evaluate(pos: &Position, w: &EvalWeights) -> i32 {
    let mut inc = Incremental::of(pos, |color, role, sq| square_terms(w, color, role, sq));
    // A pool's mean counts only times the side's hidden pieces: computed only if it has some.
    for color in Color::ALL {
        if inc.hidden[color.index()] > 0 {
            inc.set_pool(pos, w, color);
        }
    }
    value(w, pos, &inc)
}

/// The evaluation with each piece's terms tabulated once per side, kind (role or hidden) and
/// square. Build it once per search (not per node); it gives exactly the values of
/// [`super::evaluate`].
#[derive(Clone, Debug)]
pub struct Evaluator {
    weights: EvalWeights,
    /// `[side][kind][square]`: material + piece-square value ([`square_terms`]).
    base: [[[i32; 90]; 8]; 2],
    /// `[side][kind][square]`: attack units against the enemy king, plus 16 × guards.
    aux: [[[u8; 90]; 8]; 2],
}

impl Evaluator {
    /// Tabulates `weights`.
    pub fn new(weights: &EvalWeights) -> Evaluator {
        let mut e = Evaluator {
            weights: weights.clone(),
            base: [[[0; 90]; 8]; 2],
            aux: [[[0; 90]; 8]; 2],
        };
        for color in Color::ALL {
            let c = color.index();
            for sq in Square::all() {
                for kind in 0..8 {
                    let t = square_terms(weights, color, Role::ALL.get(kind).copied(), sq);
                    e.base[c][kind][sq.index()] = t.base;
                    // Attack units are at most 3, guards 0 or 1.
                    e.aux[c][kind][sq.index()] = (t.attack + 16 * t.guard) as u8;
                }
            }
        }
        e
    }

    /// The weights this evaluator was built from.
    pub fn weights(&self) -> &EvalWeights {
        &self.weights
    }

    /// The tabulated terms of a piece of kind `kind` of `color` on square `s`.
    #[inline]
    fn terms(&self, color: Color, kind: usize, s: usize) -> Terms {
        let c = color.index();
        let a = self.aux[c][kind][s];
        Terms {
            base: self.base[c][kind][s],
            attack: i32::from(a & 15),
            guard: i32::from(a >> 4),
        }
    }

    /// Evaluates `pos` from the side to move's point of view (the value of
    /// [`super::evaluate`]).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_with(pos, &self.incremental(pos))
    }

    /// The per-piece terms of `pos`, from scratch.
    pub fn incremental(&self, pos: &Position) -> Incremental {
        let mut inc = Incremental::of(pos, |color, role, sq| {
            self.terms(color, role.map_or(HIDDEN_K, Role::index), sq.index())
        });
        for color in Color::ALL {
            inc.set_pool(pos, &self.weights, color);
        }
        inc
    }

    /// Updates `inc`, the terms of `pos`, to those of the position after `pos.make(pm)`. Call it
    /// *before* making the move; to take the move back, restore the saved copy.
    #[inline]
    pub fn update(&self, inc: &mut Incremental, pos: &Position, pm: PlayedMove) {
        let (from, to) = (pm.mv.from.index(), pm.mv.to.index());
        let us = pos.turn();
        let them = !us;
        let Some(moving) = kind_at(pos, from) else {
            return;
        };
        if from != to {
            if let Some(captured) = kind_at(pos, to) {
                let terms = self.terms(them, captured, to);
                inc.add(them.index(), captured, to, terms, -1);
            }
        }
        if let Some(r) = pm.capture {
            let t = them.index();
            inc.pool_sum[t] -= i64::from(self.weights.identity(r));
            inc.pool_len[t] -= 1;
            inc.set_mean(t);
        }
        let u = us.index();
        if let Some(r) = pm.reveal {
            inc.pool_sum[u] -= i64::from(self.weights.identity(r));
            inc.pool_len[u] -= 1;
            inc.set_mean(u);
        }
        let landed = pm.reveal.map_or(moving, Role::index);
        inc.add(u, moving, from, self.terms(us, moving, from), -1);
        inc.add(u, landed, to, self.terms(us, landed, to), 1);
    }

    /// Evaluates `pos` given its per-piece terms `inc` (the value of [`super::evaluate`]): the
    /// search's evaluation, which computes only mobility per call.
    pub fn evaluate_with(&self, pos: &Position, inc: &Incremental) -> i32 {
        value(&self.weights, pos, inc)
    }
}
