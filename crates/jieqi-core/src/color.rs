//! The two sides.

use core::ops::{Index, IndexMut, Not};

/// A side. Red moves first and sits on ranks 0–4; Black sits on ranks 5–9.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Color {
    /// The side that moves first (uppercase letters in FEN, `w` to move).
    Red = 0,
    /// The second side (lowercase letters in FEN, `b` to move).
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// Returns 0 for Red and 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Returns the English name, `"red"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// Returns the FEN side-to-move letter: `w` for Red (the Pikafish dialect), `b` for Black.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl core::fmt::Display for Color {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ByColor<T> {
    /// Red's value.
    pub red: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Builds a value per colour from a function of the colour.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            red: f(Color::Red),
            black: f(Color::Black),
        }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            red: f(self.red),
            black: f(self.black),
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Red => &mut self.red,
            Color::Black => &mut self.black,
        }
    }
}
