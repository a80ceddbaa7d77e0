//! Squares of the 9×10 board.

use crate::Color;

/// A square, `a0` (Red's left corner) to `i9`. Files a–i run left to right from Red's side, rank 0
/// is Red's back rank. The index is `rank * 9 + file`, 0..90.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

#[allow(missing_docs)]
impl Square {
    /// The square a0.
    pub const A0: Square = Square(0);
    /// The square b0.
    pub const B0: Square = Square(1);
    /// The square c0.
    pub const C0: Square = Square(2);
    /// The square d0.
    pub const D0: Square = Square(3);
    /// The square e0.
    pub const E0: Square = Square(4);
    /// The square f0.
    pub const F0: Square = Square(5);
    /// The square g0.
    pub const G0: Square = Square(6);
    /// The square h0.
    pub const H0: Square = Square(7);
    /// The square i0.
    pub const I0: Square = Square(8);
    /// The square a1.
    pub const A1: Square = Square(9);
    /// The square b1.
    pub const B1: Square = Square(10);
    /// The square c1.
    pub const C1: Square = Square(11);
    /// The square d1.
    pub const D1: Square = Square(12);
    /// The square e1.
    pub const E1: Square = Square(13);
    /// The square f1.
    pub const F1: Square = Square(14);
    /// The square g1.
    pub const G1: Square = Square(15);
    /// The square h1.
    pub const H1: Square = Square(16);
    /// The square i1.
    pub const I1: Square = Square(17);
    /// The square a2.
    pub const A2: Square = Square(18);
    /// The square b2.
    pub const B2: Square = Square(19);
    /// The square c2.
    pub const C2: Square = Square(20);
    /// The square d2.
    pub const D2: Square = Square(21);
    /// The square e2.
    pub const E2: Square = Square(22);
    /// The square f2.
    pub const F2: Square = Square(23);
    /// The square g2.
    pub const G2: Square = Square(24);
    /// The square h2.
    pub const H2: Square = Square(25);
    /// The square i2.
    pub const I2: Square = Square(26);
    /// The square a3.
    pub const A3: Square = Square(27);
    /// The square b3.
    pub const B3: Square = Square(28);
    /// The square c3.
    pub const C3: Square = Square(29);
    /// The square d3.
    pub const D3: Square = Square(30);
    /// The square e3.
    pub const E3: Square = Square(31);
    /// The square f3.
    pub const F3: Square = Square(32);
    /// The square g3.
    pub const G3: Square = Square(33);
    /// The square h3.
    pub const H3: Square = Square(34);
    /// The square i3.
    pub const I3: Square = Square(35);
    /// The square a4.
    pub const A4: Square = Square(36);
    /// The square b4.
    pub const B4: Square = Square(37);
    /// The square c4.
    pub const C4: Square = Square(38);
    /// The square d4.
    pub const D4: Square = Square(39);
    /// The square e4.
    pub const E4: Square = Square(40);
    /// The square f4.
    pub const F4: Square = Square(41);
    /// The square g4.
    pub const G4: Square = Square(42);
    /// The square h4.
    pub const H4: Square = Square(43);
    /// The square i4.
    pub const I4: Square = Square(44);
    /// The square a5.
    pub const A5: Square = Square(45);
    /// The square b5.
    pub const B5: Square = Square(46);
    /// The square c5.
    pub const C5: Square = Square(47);
    /// The square d5.
    pub const D5: Square = Square(48);
    /// The square e5.
    pub const E5: Square = Square(49);
    /// The square f5.
    pub const F5: Square = Square(50);
    /// The square g5.
    pub const G5: Square = Square(51);
    /// The square h5.
    pub const H5: Square = Square(52);
    /// The square i5.
    pub const I5: Square = Square(53);
    /// The square a6.
    pub const A6: Square = Square(54);
    /// The square b6.
    pub const B6: Square = Square(55);
    /// The square c6.
    pub const C6: Square = Square(56);
    /// The square d6.
    pub const D6: Square = Square(57);
    /// The square e6.
    pub const E6: Square = Square(58);
    /// The square f6.
    pub const F6: Square = Square(59);
    /// The square g6.
    pub const G6: Square = Square(60);
    /// The square h6.
    pub const H6: Square = Square(61);
    /// The square i6.
    pub const I6: Square = Square(62);
    /// The square a7.
    pub const A7: Square = Square(63);
    /// The square b7.
    pub const B7: Square = Square(64);
    /// The square c7.
    pub const C7: Square = Square(65);
    /// The square d7.
    pub const D7: Square = Square(66);
    /// The square e7.
    pub const E7: Square = Square(67);
    /// The square f7.
    pub const F7: Square = Square(68);
    /// The square g7.
    pub const G7: Square = Square(69);
    /// The square h7.
    pub const H7: Square = Square(70);
    /// The square i7.
    pub const I7: Square = Square(71);
    /// The square a8.
    pub const A8: Square = Square(72);
    /// The square b8.
    pub const B8: Square = Square(73);
    /// The square c8.
    pub const C8: Square = Square(74);
    /// The square d8.
    pub const D8: Square = Square(75);
    /// The square e8.
    pub const E8: Square = Square(76);
    /// The square f8.
    pub const F8: Square = Square(77);
    /// The square g8.
    pub const G8: Square = Square(78);
    /// The square h8.
    pub const H8: Square = Square(79);
    /// The square i8.
    pub const I8: Square = Square(80);
    /// The square a9.
    pub const A9: Square = Square(81);
    /// The square b9.
    pub const B9: Square = Square(82);
    /// The square c9.
    pub const C9: Square = Square(83);
    /// The square d9.
    pub const D9: Square = Square(84);
    /// The square e9.
    pub const E9: Square = Square(85);
    /// The square f9.
    pub const F9: Square = Square(86);
    /// The square g9.
    pub const G9: Square = Square(87);
    /// The square h9.
    pub const H9: Square = Square(88);
    /// The square i9.
    pub const I9: Square = Square(89);
}

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 90;

    /// Square from its index; `None` past 89.
    #[inline]
    pub const fn new(index: usize) -> Option<Square> {
        if index < 90 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Square from file (0..9) and rank (0..10); `None` off the board.
    #[inline]
    pub const fn from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    /// Square from an index known to be below 90.
    ///
    /// # Panics
    /// Panics if `index >= 90`.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        assert!(index < 90, "square index out of range");
        Square(index as u8)
    }

    /// Index 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (a..i).
    #[inline]
    pub const fn file(self) -> i32 {
        (self.0 % 9) as i32
    }

    /// Rank 0..10.
    #[inline]
    pub const fn rank(self) -> i32 {
        (self.0 / 9) as i32
    }

    /// The same square seen from the other side (rank r becomes 9 − r).
    pub const fn flip_rank(self) -> Square {
        Square((((9 - self.rank()) * 9) + self.file()) as u8)
    }

    /// Whether the square is on `color`'s own half (ranks 0–4 for Red, 5–9 for Black).
    #[inline]
    pub const fn is_own_half(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Whether the square is in `color`'s palace (files d–f, ranks 0–2 for Red, 7–9 for Black).
    #[inline]
    pub const fn is_palace(self, color: Color) -> bool {
        let f = self.file();
        let r = self.rank();
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }

    /// Parses `a0`..`i9`.
    pub fn from_ascii(s: &[u8]) -> Option<Square> {
        match s {
            [f @ b'a'..=b'i', r @ b'0'..=b'9'] => {
                Square::from_coords((f - b'a') as i32, (r - b'0') as i32)
            }
            _ => None,
        }
    }
}

impl core::fmt::Display for Square {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank())
    }
}

/// A square name that is not `a0`..`i9`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareError {
    /// The text that was given, at most 16 characters of it.
    pub text: String,
}

impl core::fmt::Display for SquareError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{:?} is not a square (a file a-i then a rank 0-9, like e3)",
            self.text
        )
    }
}

impl std::error::Error for SquareError {}

impl core::str::FromStr for Square {
    type Err = SquareError;
    fn from_str(s: &str) -> Result<Square, SquareError> {
        Square::from_ascii(s.as_bytes()).ok_or_else(|| SquareError {
            text: s.chars().take(16).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_square_names_and_names_the_bad_ones() {
        assert_eq!(
            "e3".parse::<Square>(),
            Ok(Square::from_coords(4, 3).unwrap())
        );
        assert_eq!(
            "i9".parse::<Square>().map(|s| s.to_string()),
            Ok("i9".into())
        );
        let err = "j1".parse::<Square>().unwrap_err();
        assert_eq!(err.text, "j1");
        assert!(err.to_string().contains("\"j1\" is not a square"), "{err}");
        let long = "x".repeat(1000).parse::<Square>().unwrap_err();
        assert_eq!(long.text.len(), 16, "the error keeps a bounded excerpt");
    }
}
