//! Deals: the true identity of every hidden piece at the start.

use rand_core::Rng;

use crate::{ByColor, Color, Pool, Role, Rules, Square};

/// The hidden start squares of Red, in deal order: `a0 b0 c0 d0 [e0] f0 g0 h0 i0 b2 h2 a3 c3 e3 g3
/// i3` (`e0` only when kings start hidden). Black's are the same squares seen from Black's side
/// (`a9 b9 … b7 h7 a6 … i6`).
const RED_ORDER: [Square; 16] = [
    Square::A0,
    Square::B0,
    Square::C0,
    Square::D0,
    Square::E0,
    Square::F0,
    Square::G0,
    Square::H0,
    Square::I0,
    Square::B2,
    Square::H2,
    Square::A3,
    Square::C3,
    Square::E3,
    Square::G3,
    Square::I3,
];

/// The true identities of every hidden piece at the start, one list per side in the fixed square
/// order of [`Deal::squares`]. The unshuffled mainstream deal reads `RNBAABNRCCPPPPP` for Red.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    ids: ByColor<[Role; 16]>,
    len: u8,
}

/// A deal string that does not describe a deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealError(pub String);

impl core::fmt::Display for DealError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "invalid deal: {}", self.0)
    }
}

impl std::error::Error for DealError {}

/// A uniform integer in `0..n` from `next_u32` alone (Lemire's method with rejection), so that a
/// seeded stream gives the same numbers whatever version of `rand` sits on top.
///
/// # Panics
/// Panics if `n == 0`.
pub fn uniform_below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    assert!(n > 0, "uniform_below(0)");
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = rng.next_u32() as u64 * n as u64;
        if (m as u32) >= threshold {
            return (m >> 32) as u32;
        }
    }
}

/// Shuffles uniformly (Fisher–Yates with [`uniform_below`]).
pub(crate) fn shuffle<T, R: Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    for i in (1..items.len()).rev() {
        let j = uniform_below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

impl Deal {
    /// The hidden start squares of `color` in deal order (16 when kings are hidden, else 15).
    pub fn squares(color: Color, hidden_king: bool) -> impl Iterator<Item = Square> {
        RED_ORDER
            .into_iter()
            .filter(move |s| hidden_king || *s != Square::E0)
            .map(move |s| {
                if color == Color::Red {
                    s
                } else {
                    s.flip_rank()
                }
            })
    }

    /// The unshuffled deal: every hidden piece is what its square's start piece would be.
    pub fn unshuffled(rules: &Rules) -> Deal {
        let mut ids = [Role::Chariot; 16];
        let squares: Vec<Square> = Deal::squares(Color::Red, rules.hidden_king).collect();
        for (i, s) in squares.iter().enumerate() {
            ids[i] = crate::start_role(*s).expect("start square");
        }
        Deal {
            ids: ByColor {
                red: ids,
                black: ids,
            },
            len: squares.len() as u8,
        }
    }

    /// A uniformly random mainstream deal (15 hidden pieces a side).
    pub fn shuffled<R: Rng + ?Sized>(rng: &mut R) -> Deal {
        Deal::shuffled_for(&Rules::standard(), rng)
    }

    /// A uniformly random deal for a rule set: Red's identities are shuffled first, then Black's.
    pub fn shuffled_for<R: Rng + ?Sized>(rules: &Rules, rng: &mut R) -> Deal {
        let mut deal = Deal::unshuffled(rules);
        let n = deal.len as usize;
        shuffle(&mut deal.ids.red[..n], rng);
        shuffle(&mut deal.ids.black[..n], rng);
        deal
    }

    /// Whether the deal includes the kings (seed-000 variant).
    pub fn hidden_king(&self) -> bool {
        self.len == 16
    }

    /// Identities of `color`'s hidden pieces in the order of [`Deal::squares`].
    pub fn identities(&self, color: Color) -> &[Role] {
        &self.ids[color][..self.len as usize]
    }

    /// (square, identity) pairs of `color`.
    pub fn assignments(&self, color: Color) -> impl Iterator<Item = (Square, Role)> + '_ {
        Deal::squares(color, self.hidden_king()).zip(self.identities(color).iter().copied())
    }

    /// The deal string of one side: identity letters in square order, uppercase for Red.
    pub fn side_string(&self, color: Color) -> String {
        self.identities(color)
            .iter()
            .map(|r| {
                if color == Color::Red {
                    r.upper_char()
                } else {
                    r.char()
                }
            })
            .collect()
    }

    /// Reads a deal from its two side strings (letter case is not significant).
    ///
    /// # Errors
    /// Says which side's string has the wrong length, a bad letter or the wrong multiset.
    pub fn from_strings(red: &str, black: &str) -> Result<Deal, DealError> {
        let mut ids = ByColor {
            red: [Role::Chariot; 16],
            black: [Role::Chariot; 16],
        };
        let mut len = None;
        for (color, text) in [(Color::Red, red), (Color::Black, black)] {
            let n = text.chars().count();
            if n != 15 && n != 16 {
                return Err(DealError(format!(
                    "{color} string '{text}' has {n} letters; a deal has 15 (or 16 with the king)"
                )));
            }
            if len.is_some_and(|l| l != n) {
                return Err(DealError("the two sides have different lengths".into()));
            }
            len = Some(n);
            let mut counts = Pool::EMPTY;
            for (i, ch) in text.chars().enumerate() {
                let role = Role::from_char(ch).ok_or_else(|| {
                    DealError(format!(
                        "{color} string '{text}': '{ch}' at {} is not a piece letter",
                        i + 1
                    ))
                })?;
                ids[color][i] = role;
                counts.0[role.index()] += 1;
            }
            let want = if n == 16 { Pool::FULL } else { Pool::STANDARD };
            if counts != want {
                return Err(DealError(format!(
                    "{color} string '{text}' is not a shuffle of {}",
                    if n == 16 {
                        "RNBAKABNRCCPPPPP"
                    } else {
                        "RNBAABNRCCPPPPP"
                    }
                )));
            }
        }
        Ok(Deal {
            ids,
            len: len.unwrap_or(15) as u8,
        })
    }
}

impl core::fmt::Display for Deal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} {}",
            self.side_string(Color::Red),
            self.side_string(Color::Black)
        )
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Deal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Deal", 2)?;
        st.serialize_field("red", &self.side_string(Color::Red))?;
        st.serialize_field("black", &self.side_string(Color::Black))?;
        st.end()
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Deal {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Deal, D::Error> {
        #[derive(serde::Deserialize)]
        struct Raw {
            red: String,
            black: String,
        }
        let raw = Raw::deserialize(d)?;
        Deal::from_strings(&raw.red, &raw.black).map_err(serde::de::Error::custom)
    }
}
