//! A determinization: a position in which every hidden piece's identity is fixed — the referee's
//! truth, or one sample of a player's information set.

use crate::{
    ByColor, Color, Move, MoveList, PlayedMove, Pool, Position, PositionError, Role, Square, Undo,
};

/// A position plus the identity of every hidden piece. Playing a move here resolves its reveal and
/// captured identities. Its position's pools are exactly the identities still hidden on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Determinization {
    pos: Position,
    /// Role index + 1 of the hidden piece on each square, 0 where there is none.
    ids: [u8; 90],
    /// Identities given to captured hidden pieces whose identity the sampling player did not know.
    captured: ByColor<Pool>,
}

impl Determinization {
    /// Fixes the identities of the hidden pieces of `pos`. The position's pools are replaced by
    /// exactly the assigned identities.
    ///
    /// # Errors
    /// A hidden piece without an identity, an identity on a square without a hidden piece, or more
    /// identities of a role than a side has.
    pub fn new(
        mut pos: Position,
        assignment: impl IntoIterator<Item = (Square, Role)>,
    ) -> Result<Determinization, PositionError> {
        let mut ids = [0u8; 90];
        let mut pools = ByColor {
            red: Pool::EMPTY,
            black: Pool::EMPTY,
        };
        for (sq, role) in assignment {
            let Some(crate::Occupant::Hidden(color)) = pos.occupant(sq) else {
                return Err(PositionError::IdentityOffHidden(sq));
            };
            if ids[sq.index()] != 0 {
                return Err(PositionError::BadIdentity(sq));
            }
            ids[sq.index()] = role as u8 + 1;
            pools[color].0[role.index()] += 1;
            if pools[color].get(role) > role.start_count() {
                return Err(PositionError::BadIdentity(sq));
            }
        }
        for sq in Square::all() {
            if pos.is_hidden(sq) && ids[sq.index()] == 0 {
                return Err(PositionError::BadIdentity(sq));
            }
        }
        pos.pools = pools;
        pos.hash = pos.compute_hash();
        Ok(Determinization {
            pos,
            ids,
            captured: ByColor::default(),
        })
    }

    pub(crate) fn from_parts(
        pos: Position,
        ids: [u8; 90],
        captured: ByColor<Pool>,
    ) -> Determinization {
        Determinization { pos, ids, captured }
    }

    /// The position (public board; pools equal to the hidden identities).
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The identity of the hidden piece on `sq`, if one stands there.
    #[inline]
    pub fn identity(&self, sq: Square) -> Option<Role> {
        match self.ids[sq.index()] {
            0 => None,
            n => Role::from_index(n as usize - 1),
        }
    }

    /// Identities this sample gave to captured hidden pieces whose identity the sampling player did
    /// not know, by owner. Empty for the referee's truth.
    pub fn captured_unknown(&self) -> &ByColor<Pool> {
        &self.captured
    }

    /// Legal moves (the same as the public board's).
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.pos.legal_moves()
    }

    /// The move with its reveal and captured identities filled in from this determinization.
    #[inline]
    pub fn resolve(&self, m: Move) -> PlayedMove {
        let capture = if m.from == m.to {
            None
        } else {
            self.identity(m.to)
        };
        PlayedMove {
            mv: m,
            reveal: self.identity(m.from),
            capture,
        }
    }

    /// Plays a legal move, resolving its identities; returns them with the undo information.
    ///
    /// # Panics
    /// May panic or corrupt the state if `m` is not legal.
    #[inline]
    pub fn make(&mut self, m: Move) -> (PlayedMove, Undo) {
        let pm = self.resolve(m);
        let undo = self.pos.make(pm);
        self.ids[m.from.index()] = 0;
        self.ids[m.to.index()] = 0;
        (pm, undo)
    }

    /// Takes back the last move.
    #[inline]
    pub fn unmake(&mut self, pm: PlayedMove, undo: Undo) {
        self.pos.unmake(pm, undo);
        if let Some(r) = pm.capture {
            self.ids[pm.mv.to.index()] = r as u8 + 1;
        }
        if let Some(r) = pm.reveal {
            self.ids[pm.mv.from.index()] = r as u8 + 1;
        }
    }
}
