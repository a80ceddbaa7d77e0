//! What a player believes a hidden piece is: the one way engines reason about hidden identities.
//!
//! A fair player believes every hidden piece of a side is any identity of that side's pool, in
//! proportion to its count (hidden pieces move by their square, never by their identity, so
//! nothing observed favours one assignment over another). An omniscient player knows each one.
//! Engines ask [`Knowledge::belief`] wherever they value, branch on or sample a hidden piece, so
//! that an omniscient view changes what every engine does, and a fair one changes nothing.

use crate::{Occupant, Pool, Position, Role, Square};

/// A player's belief about the hidden piece on one square.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Belief {
    /// Any identity of its owner's pool, each in proportion to its count (a fair player).
    Pool(Pool),
    /// This identity, for sure (an omniscient player).
    Known(Role),
}

impl Belief {
    /// The identities with their weights: the pool, or a pool of the one known identity. The
    /// probability of an identity is its weight over [`Pool::total`].
    pub fn weights(&self) -> Pool {
        match *self {
            Belief::Pool(pool) => pool,
            Belief::Known(role) => {
                let mut pool = Pool::EMPTY;
                pool.0[role.index()] = 1;
                pool
            }
        }
    }

    /// The identity, when it is known for sure.
    pub fn known(&self) -> Option<Role> {
        match *self {
            Belief::Pool(_) => None,
            Belief::Known(role) => Some(role),
        }
    }

    /// The probability that the piece is `role`.
    pub fn probability(&self, role: Role) -> f64 {
        let w = self.weights();
        match w.total() {
            0 => 0.0,
            n => w.get(role) as f64 / n as f64,
        }
    }

    /// `(identity, probability)` for every identity of positive probability, in [`Role::ALL`]
    /// order.
    pub fn outcomes(&self) -> impl Iterator<Item = (Role, f64)> + '_ {
        let w = self.weights();
        let n = w.total() as f64;
        Role::ALL
            .into_iter()
            .filter(move |&r| w.get(r) > 0)
            .map(move |r| (r, w.get(r) as f64 / n))
    }

    /// The expected `value` of the piece as an exact fraction `(Σ weight · value, Σ weight)`;
    /// `(0, 0)` for an empty pool. Engines divide as their own arithmetic needs.
    pub fn expectation(&self, value: impl Fn(Role) -> i64) -> (i64, u32) {
        let w = self.weights();
        let sum = Role::ALL
            .into_iter()
            .map(|r| w.get(r) as i64 * value(r))
            .sum();
        (sum, w.total())
    }
}

/// What a player knows of the hidden identities, valid at every position of its view's public
/// game tree — the view's position and any position reached from it by legal moves. A hidden piece
/// never moves without revealing itself, so a square that is hidden there holds the same piece it
/// held in the view.
///
/// Fair knowledge (from a fair [`crate::View`]) holds nothing: its beliefs are the pools of the
/// position asked about. Omniscient knowledge holds the identity of every hidden piece of the
/// view; nothing else can construct it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// Role index + 1 of the hidden piece on each square (omniscient), 0 where unknown or empty.
    known: Option<[u8; 90]>,
}

impl Knowledge {
    /// A fair player's knowledge: pools only.
    pub const FAIR: Knowledge = Knowledge { known: None };

    pub(crate) fn omniscient(identity: impl Fn(Square) -> Option<Role>) -> Knowledge {
        let mut known = [0u8; 90];
        for sq in Square::all() {
            if let Some(r) = identity(sq) {
                known[sq.index()] = r as u8 + 1;
            }
        }
        Knowledge { known: Some(known) }
    }

    /// Whether this knowledge sees every hidden piece.
    pub fn is_omniscient(&self) -> bool {
        self.known.is_some()
    }

    /// The belief about the piece on `sq` in `pos` (a position of this knowledge's tree), or
    /// `None` when no hidden piece stands there. Fair: the owner's pool in `pos`. Omniscient: the
    /// piece's identity.
    #[inline]
    pub fn belief(&self, pos: &Position, sq: Square) -> Option<Belief> {
        let Some(Occupant::Hidden(owner)) = pos.occupant(sq) else {
            return None;
        };
        if let Some(known) = &self.known {
            if let Some(r) = known[sq.index()]
                .checked_sub(1)
                .and_then(|i| Role::from_index(i as usize))
            {
                return Some(Belief::Known(r));
            }
        }
        Some(Belief::Pool(*pos.pool(owner)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fair_beliefs_are_the_pool() {
        let pos = Position::start(&crate::Rules::standard());
        let b = Knowledge::FAIR.belief(&pos, Square::A0).unwrap();
        assert_eq!(b, Belief::Pool(Pool::STANDARD));
        assert_eq!(b.known(), None);
        assert_eq!(b.probability(Role::Pawn), 5.0 / 15.0);
        let total: f64 = b.outcomes().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert_eq!(b.expectation(|_| 1), (15, 15));
        assert_eq!(
            Knowledge::FAIR.belief(&pos, Square::E0),
            None,
            "face-up king"
        );
        assert_eq!(Knowledge::FAIR.belief(&pos, Square::E4), None, "empty");
    }

    #[test]
    fn known_beliefs_are_certain() {
        let b = Belief::Known(Role::Horse);
        assert_eq!(b.weights().total(), 1);
        assert_eq!(b.probability(Role::Horse), 1.0);
        assert_eq!(b.probability(Role::Pawn), 0.0);
        assert_eq!(b.outcomes().collect::<Vec<_>>(), [(Role::Horse, 1.0)]);
        assert_eq!(
            b.expectation(|r| r as i64 * 10),
            (Role::Horse as i64 * 10, 1)
        );
    }
}
