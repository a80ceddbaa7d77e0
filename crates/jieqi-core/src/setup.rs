//! A plain, possibly inconsistent position description: what a FEN parses into.

use crate::{ByColor, Color, Occupant, Pool, Square};

/// A position as written down, before any rule checks. [`crate::Position::from_setup`] validates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// What stands on each square, by square index.
    pub board: [Option<Occupant>; 90],
    /// Side to move.
    pub turn: Color,
    /// Identities each side has not yet seen (the FEN pool field). `None` when the FEN had no pool
    /// field: the pool is then inferred as each side's material minus its face-up pieces.
    pub pools: Option<ByColor<Pool>>,
    /// Hidden pieces the side to move captured and so knows (the JieqiBox 6-field form's 4th field),
    /// by the captured pieces' colour. `None` when the FEN had no such field.
    pub captured_hidden: Option<ByColor<Pool>>,
    /// Plies since the last capture.
    pub halfmoves: u32,
    /// Move number, starting at 1 and incremented after Black moves.
    pub fullmoves: u32,
}

impl Setup {
    /// An empty board, Red to move, no pool field.
    pub fn empty() -> Setup {
        Setup {
            board: [None; 90],
            turn: Color::Red,
            pools: None,
            captured_hidden: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// What stands on a square.
    pub fn get(&self, sq: Square) -> Option<Occupant> {
        self.board[sq.index()]
    }

    /// Puts something on a square (or clears it).
    pub fn set(&mut self, sq: Square, o: Option<Occupant>) {
        self.board[sq.index()] = o;
    }
}
