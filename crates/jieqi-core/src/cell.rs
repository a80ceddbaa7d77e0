//! Board cell codes: how [`Position`](crate::Position) stores a square's occupant in one byte, and
//! the encoding [`attacks::is_attacked`](crate::attacks::is_attacked) reads. Engines that keep a
//! board of their own (the playout board) use the same codes so that they can call the core's
//! attack test.
//!
//! A cell is [`EMPTY`] (0) or `1 + colour * 8 + kind` ([`code`]), the kind a [`Role`] index
//! (`Role as u8`, 0..=6) or [`HIDDEN_KIND`] (7) for a face-down piece.

use crate::{Color, Occupant, Piece, Role};

/// The code of an empty cell.
pub const EMPTY: u8 = 0;

/// The kind of a hidden piece (the role kinds are `Role as u8`, 0..=6).
pub const HIDDEN_KIND: u8 = 7;

/// The cell code of a piece of `color` and `kind`.
#[inline(always)]
pub const fn code(color: Color, kind: u8) -> u8 {
    1 + (color as u8) * 8 + kind
}

/// The colour of an occupied cell's piece.
#[inline(always)]
pub const fn code_color(c: u8) -> Color {
    if c > 8 { Color::Black } else { Color::Red }
}

/// The kind of an occupied cell's piece: a role index, or [`HIDDEN_KIND`].
#[inline(always)]
pub const fn code_kind(c: u8) -> u8 {
    c.wrapping_sub(1) & 7
}

pub(crate) fn occupant_code(o: Option<Occupant>) -> u8 {
    match o {
        None => EMPTY,
        Some(Occupant::Revealed(p)) => code(p.color, p.role as u8),
        Some(Occupant::Hidden(c)) => code(c, HIDDEN_KIND),
    }
}

pub(crate) fn code_occupant(c: u8) -> Option<Occupant> {
    if c == EMPTY {
        None
    } else if code_kind(c) == HIDDEN_KIND {
        Some(Occupant::Hidden(code_color(c)))
    } else {
        Some(Occupant::Revealed(Piece {
            color: code_color(c),
            role: Role::from_index(code_kind(c) as usize).expect("kind below 7"),
        }))
    }
}
