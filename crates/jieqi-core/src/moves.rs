//! Moves: the from-to pair an engine chooses, and the played move with the identities it revealed.

use crate::{Color, Role, Square};

/// A move as chosen: from and to squares. A flip in place (the seed-000 variant) has `from == to`.
/// Text form `b0c2`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Square the piece leaves.
    pub from: Square,
    /// Square the piece lands on (equal to `from` for a flip in place).
    pub to: Square,
}

impl Move {
    /// Makes a move.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Parses `b0c2` (exactly four characters).
    ///
    /// # Errors
    /// Says which part is not a square.
    pub fn from_text(s: &str) -> Result<Move, MoveTextError> {
        let b = s.as_bytes();
        if b.len() != 4 {
            return Err(MoveTextError::new(s, "a move is four characters like b0c2"));
        }
        let from = Square::from_ascii(&b[0..2])
            .ok_or_else(|| MoveTextError::new(s, "characters 1-2 are not a square a0..i9"))?;
        let to = Square::from_ascii(&b[2..4])
            .ok_or_else(|| MoveTextError::new(s, "characters 3-4 are not a square a0..i9"))?;
        Ok(Move { from, to })
    }
}

impl core::fmt::Display for Move {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl core::str::FromStr for Move {
    type Err = MoveTextError;
    fn from_str(s: &str) -> Result<Move, MoveTextError> {
        Move::from_text(s)
    }
}

/// A move together with what it revealed, as a record or a player's knowledge holds it.
///
/// `reveal` is the identity a hidden mover turned out to be (required exactly when the mover was
/// hidden). `capture` is the identity of a captured hidden piece, when the observer knows it;
/// `None` when nothing hidden was captured or when the observer was not told.
///
/// Text form (Pikafish dialect): `b0c2`, `b0c2N` (a red hidden piece revealed as a horse),
/// `h2h9Rn` (a red hidden piece revealed as a chariot captured a hidden black horse). Letter case
/// gives the owner: uppercase Red, lowercase Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// Identity the hidden mover revealed.
    pub reveal: Option<Role>,
    /// Identity of the captured hidden piece, if known.
    pub capture: Option<Role>,
}

impl PlayedMove {
    /// A move that revealed and captured nothing hidden.
    pub const fn plain(mv: Move) -> PlayedMove {
        PlayedMove {
            mv,
            reveal: None,
            capture: None,
        }
    }

    /// Formats with the mover's colour deciding the letter cases.
    pub fn to_text(&self, mover: Color) -> String {
        let mut s = String::with_capacity(6);
        for sq in [self.mv.from, self.mv.to] {
            s.push((b'a' + sq.file() as u8) as char);
            s.push((b'0' + sq.rank() as u8) as char);
        }
        let case = |r: Role, c: Color| {
            if c == Color::Red {
                r.upper_char()
            } else {
                r.char()
            }
        };
        if let Some(r) = self.reveal {
            s.push(case(r, mover));
        }
        if let Some(r) = self.capture {
            s.push(case(r, !mover));
        }
        s
    }

    /// Parses `b0c2`, `b0c2N`, `h2h9Rn` for a move by `mover`: a suffix letter in the mover's case
    /// is the reveal, one in the opponent's case is the captured identity.
    ///
    /// # Errors
    /// Says which character is wrong.
    pub fn from_text(s: &str, mover: Color) -> Result<PlayedMove, MoveTextError> {
        if s.len() < 4 || !s.is_char_boundary(4) {
            return Err(MoveTextError::new(
                s,
                "a move starts with four characters like b0c2",
            ));
        }
        let mv = Move::from_text(&s[..4])?;
        let mut pm = PlayedMove::plain(mv);
        for (i, ch) in s[4..].chars().enumerate() {
            let role = Role::from_char(ch).ok_or_else(|| {
                MoveTextError::new(
                    s,
                    "a suffix letter is not one of r n b a k c p (either case)",
                )
            })?;
            let owner = if ch.is_ascii_uppercase() {
                Color::Red
            } else {
                Color::Black
            };
            if i >= 2 {
                return Err(MoveTextError::new(
                    s,
                    "at most two suffix letters (reveal, capture)",
                ));
            }
            if owner == mover {
                if pm.reveal.is_some() || pm.capture.is_some() {
                    return Err(MoveTextError::new(
                        s,
                        "the reveal letter must come first, once",
                    ));
                }
                pm.reveal = Some(role);
            } else {
                if pm.capture.is_some() {
                    return Err(MoveTextError::new(s, "two captured-identity letters"));
                }
                pm.capture = Some(role);
            }
        }
        Ok(pm)
    }
}

/// A malformed move text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTextError {
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub reason: &'static str,
}

impl MoveTextError {
    fn new(text: &str, reason: &'static str) -> MoveTextError {
        MoveTextError {
            text: text.to_string(),
            reason,
        }
    }
}

impl core::fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "move '{}': {}", self.text, self.reason)
    }
}

impl std::error::Error for MoveTextError {}

/// Upper bound on the moves of one position (generous: Jieqi lets advisors and elephants roam).
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves; generating moves never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::A0, Square::A0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// Panics if the list is full ([`MAX_MOVES`]), which no reachable position causes.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Removes the move at `i` by moving the last move into its place.
    #[inline]
    pub fn swap_remove(&mut self, i: usize) -> Move {
        let m = self.moves[i];
        self.len -= 1;
        self.moves[i] = self.moves[self.len];
        m
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl core::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
