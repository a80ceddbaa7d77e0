//! Piece kinds, pieces and what can stand on a square.

use crate::Color;

/// A piece kind.
///
/// FEN letters (uppercase for Red, lowercase for Black): `R` chariot, `N` horse, `B` elephant,
/// `A` advisor, `K` king, `C` cannon, `P` pawn. `X`/`x` marks a hidden piece (see [`Occupant`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// 車 — slides any distance orthogonally.
    Chariot = 0,
    /// 馬 — one orthogonal then one diagonal step, blocked by a piece on its leg.
    Horse = 1,
    /// 象 — two diagonal steps, blocked by a piece on its eye.
    Elephant = 2,
    /// 士 — one diagonal step.
    Advisor = 3,
    /// 將 — one orthogonal step, confined to the palace in mainstream rules.
    King = 4,
    /// 炮 — moves like a chariot, captures by jumping exactly one screen.
    Cannon = 5,
    /// 兵 — one step forward; also sideways once across the river.
    Pawn = 6,
}

impl Role {
    /// All roles in index order.
    pub const ALL: [Role; 7] = [
        Role::Chariot,
        Role::Horse,
        Role::Elephant,
        Role::Advisor,
        Role::King,
        Role::Cannon,
        Role::Pawn,
    ];

    /// How many pieces of this role a side has at the start.
    pub const fn start_count(self) -> u8 {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }

    /// Index 0..7 in declaration order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Role from its index; `None` past 6.
    pub const fn from_index(i: usize) -> Option<Role> {
        if i < 7 { Some(Role::ALL[i]) } else { None }
    }

    /// Lowercase FEN letter.
    pub const fn char(self) -> char {
        match self {
            Role::Chariot => 'r',
            Role::Horse => 'n',
            Role::Elephant => 'b',
            Role::Advisor => 'a',
            Role::King => 'k',
            Role::Cannon => 'c',
            Role::Pawn => 'p',
        }
    }

    /// Uppercase FEN letter.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Role from a FEN letter in either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'r' => Some(Role::Chariot),
            'n' => Some(Role::Horse),
            'b' => Some(Role::Elephant),
            'a' => Some(Role::Advisor),
            'k' => Some(Role::King),
            'c' => Some(Role::Cannon),
            'p' => Some(Role::Pawn),
            _ => None,
        }
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Chariot => "chariot",
            Role::Horse => "horse",
            Role::Elephant => "elephant",
            Role::Advisor => "advisor",
            Role::King => "king",
            Role::Cannon => "cannon",
            Role::Pawn => "pawn",
        }
    }
}

/// A face-up piece: a colour and a role.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub role: Role,
}

impl Piece {
    /// FEN letter: uppercase for Red.
    pub const fn char(self) -> char {
        match self.color {
            Color::Red => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Piece from a FEN letter; the case gives the colour.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }
}

/// What stands on an occupied square: a face-up piece, or a hidden (face-down) piece whose identity
/// the board does not say.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Occupant {
    /// A face-up piece.
    Revealed(Piece),
    /// A face-down piece of this colour.
    Hidden(Color),
}

impl Occupant {
    /// Owner of the piece.
    pub const fn color(self) -> Color {
        match self {
            Occupant::Revealed(p) => p.color,
            Occupant::Hidden(c) => c,
        }
    }

    /// FEN letter: the piece letter, or `X`/`x` for a hidden piece.
    pub const fn char(self) -> char {
        match self {
            Occupant::Revealed(p) => p.char(),
            Occupant::Hidden(Color::Red) => 'X',
            Occupant::Hidden(Color::Black) => 'x',
        }
    }

    /// Occupant from a FEN letter (`X`/`x` for hidden).
    pub const fn from_char(c: char) -> Option<Occupant> {
        match c {
            'X' => Some(Occupant::Hidden(Color::Red)),
            'x' => Some(Occupant::Hidden(Color::Black)),
            _ => match Piece::from_char(c) {
                Some(p) => Some(Occupant::Revealed(p)),
                None => None,
            },
        }
    }
}

/// Counts of identities per role for one side: the identities a side has not yet seen, or a deal's
/// contents. Indexed by [`Role`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pool(pub [u8; 7]);

impl Pool {
    /// The empty pool.
    pub const EMPTY: Pool = Pool([0; 7]);

    /// A side's full material without its king: 2 R, 2 N, 2 B, 2 A, 2 C, 5 P (15 pieces).
    pub const STANDARD: Pool = Pool([2, 2, 2, 2, 0, 2, 5]);

    /// A side's full material with its king (16 pieces).
    pub const FULL: Pool = Pool([2, 2, 2, 2, 1, 2, 5]);

    /// Count of one role.
    #[inline]
    pub const fn get(&self, role: Role) -> u8 {
        self.0[role as usize]
    }

    /// Total number of identities.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    /// Number of roles with a nonzero count.
    pub fn distinct(&self) -> u32 {
        self.0.iter().filter(|&&n| n > 0).count() as u32
    }

    /// Whether no identity is left.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 7]
    }

    /// Roles with a nonzero count, in role order.
    pub fn roles(&self) -> impl Iterator<Item = Role> + '_ {
        Role::ALL.into_iter().filter(|r| self.get(*r) > 0)
    }
}
