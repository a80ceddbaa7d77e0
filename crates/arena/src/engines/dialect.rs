//! The UCI dialects the arena's client speaks: how an engine writes squares, and which
//! `UCI_Variant` it is told for a rule set.
//!
//! - **Pikafish** (jieqi-uci, Pikafish and its Jieqi branch): ranks 0–9 from Red's side
//!   (`h2e2`, `b0c2`), and the registry's variant names (`jieqi`, `xiangqi`, `simple`).
//! - **Fairy** (Fairy-Stockfish): ranks 1–10 (`h3e3`, `b10c8`), the same files, and its own
//!   variant names, of which only `xiangqi` is our rules
//!   ([`jieqi_registry::FAIRY_VARIANTS`]). Its Xiangqi FEN is the plain one our positions
//!   write (`board side - - half full`, Red is `w`), so positions need no mapping.
//!
//! Either way a variant is only sent when the engine declares `UCI_Variant`, and when it
//! declares it as a combo the name must be one of its values: an engine that offers only
//! `chess` would otherwise be told `jieqi` and play chess rules.

use jieqi_core::{Move, PlayedMove, Rules, Square};

/// The spec key that chooses a dialect (`dialect=fairy`); without it the engine's `id name`
/// decides ([`Dialect::detect`]).
pub const KEY: &str = "dialect";

/// How an engine writes moves and names variants.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// Ranks 0–9 (`h2e2`): jieqi-uci, Pikafish.
    #[default]
    Pikafish,
    /// Ranks 1–10 (`h3e3`, `b10c8`): Fairy-Stockfish.
    Fairy,
}

impl Dialect {
    /// The values of the `dialect=` key, as written.
    pub const NAMES: [&'static str; 2] = ["pikafish", "fairy"];

    /// The dialect a `dialect=` value names.
    ///
    /// # Errors
    /// A value that is not one of [`Dialect::NAMES`], named in the message.
    pub fn parse(value: &str) -> Result<Dialect, DialectError> {
        match value {
            "pikafish" => Ok(Dialect::Pikafish),
            "fairy" => Ok(Dialect::Fairy),
            _ => Err(DialectError::Unknown(value.to_string())),
        }
    }

    /// The dialect of an engine that calls itself `id_name` (the rest of its `id name` line):
    /// Fairy for Fairy-Stockfish, else Pikafish.
    pub fn detect(id_name: &str) -> Dialect {
        let name = id_name.trim_start().as_bytes();
        let fairy = b"fairy-stockfish";
        if name.len() >= fairy.len() && name[..fairy.len()].eq_ignore_ascii_case(fairy) {
            Dialect::Fairy
        } else {
            Dialect::Pikafish
        }
    }

    /// The dialect's name, as the `dialect=` key takes it.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Pikafish => "pikafish",
            Dialect::Fairy => "fairy",
        }
    }

    /// The rank written for a rank index 0–9.
    fn rank_offset(self) -> i32 {
        match self {
            Dialect::Pikafish => 0,
            Dialect::Fairy => 1,
        }
    }

    /// Appends a square's text (`e0` or, in Fairy, `e1`).
    pub fn push_square(self, text: &mut String, sq: Square) {
        use std::fmt::Write as _;
        text.push((b'a' + sq.file() as u8) as char);
        // Writing to a String cannot fail.
        let _ = write!(text, "{}", sq.rank() + self.rank_offset());
    }

    /// Appends a played move as the engine writes it: both squares, then the reveal and capture
    /// letters of [`PlayedMove::to_text`].
    pub fn push_move(self, text: &mut String, pm: &PlayedMove, mover: jieqi_core::Color) {
        match self {
            Dialect::Pikafish => text.push_str(&pm.to_text(mover)),
            Dialect::Fairy => {
                self.push_square(text, pm.mv.from);
                self.push_square(text, pm.mv.to);
                // The letters after the four characters of our own text.
                text.push_str(&pm.to_text(mover)[4..]);
            }
        }
    }

    /// Reads the two squares a move's text starts with; the rest of the word (a reveal or
    /// promotion suffix) is returned as it is. `None` when the word does not start with a move.
    pub fn read_move(self, word: &str) -> Option<(Move, &str)> {
        let (from, rest) = self.read_square(word)?;
        let (to, rest) = self.read_square(rest)?;
        Some((Move { from, to }, rest))
    }

    /// Reads one square at the start of `text`: a file `a`–`i` and the rank, one digit (0–9) in
    /// Pikafish, one or two (1–10, no leading zero) in Fairy, and no further digit.
    fn read_square(self, text: &str) -> Option<(Square, &str)> {
        let b = text.as_bytes();
        let file = match b.first()? {
            f @ b'a'..=b'i' => i32::from(f - b'a'),
            _ => return None,
        };
        let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let len = match self {
            Dialect::Pikafish => 1,
            // "10" is the only two-digit rank; "1" followed by "0" is not rank 1.
            Dialect::Fairy if b[1..].starts_with(b"10") => 2,
            Dialect::Fairy => 1,
        };
        // A rank is never followed by another digit (`a11` is no square).
        if digits != len {
            return None;
        }
        let rank = text[1..1 + len].parse::<i32>().ok()? - self.rank_offset();
        if self == Dialect::Fairy && b[1] == b'0' {
            return None;
        }
        let sq = Square::from_coords(file, rank)?;
        Some((sq, &text[1 + len..]))
    }

    /// The `UCI_Variant` to set for `rules` on an engine of this dialect whose `UCI_Variant`
    /// option is `declared` (`None`: it has none; a combo's values when it is one, else
    /// empty). `Ok(None)`: nothing to send (a Pikafish engine without the option plays its one
    /// game, as it always has).
    ///
    /// # Errors
    /// The rules have no name in this dialect, the engine has no `UCI_Variant` while it needs
    /// one, or its combo does not offer the name: the message names the rules and what the
    /// engine offers.
    pub fn variant_for(
        self,
        declared: Option<&Declared>,
        rules: &Rules,
    ) -> Result<Option<&'static str>, VariantError> {
        let asked = || rules.name.to_string();
        let variant = match self {
            Dialect::Pikafish => match jieqi_registry::uci_variant_of(rules) {
                Some(v) => v,
                None => return Err(VariantError::NoUciVariant { rules: asked() }),
            },
            Dialect::Fairy => match jieqi_registry::fairy_variant_of(rules) {
                Some(v) => v,
                None => return Err(VariantError::NotFairy { rules: asked() }),
            },
        };
        match declared {
            None if self == Dialect::Fairy => Err(VariantError::NoOption {
                rules: asked(),
                variant,
            }),
            None => Ok(None),
            Some(Declared::Combo(offered))
                if !offered.iter().any(|v| v.eq_ignore_ascii_case(variant)) =>
            {
                Err(VariantError::NotOffered {
                    rules: asked(),
                    variant,
                    offered: offered.clone(),
                })
            }
            Some(_) => Ok(Some(variant)),
        }
    }
}

/// A `dialect=` value that is not one of [`Dialect::NAMES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialectError {
    /// The value, as given.
    Unknown(String),
}

impl std::fmt::Display for DialectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DialectError::Unknown(value) => write!(
                f,
                "parameter '{KEY}': '{value}' is not a dialect (known: {})",
                Dialect::NAMES.join(", ")
            ),
        }
    }
}

impl std::error::Error for DialectError {}

/// Why an engine cannot be told a rule set's `UCI_Variant` ([`Dialect::variant_for`]); the
/// message names the rules and what the engine offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// The rules have no name among the `UCI_Variant`s (the Pikafish dialect).
    NoUciVariant {
        /// The rules' name.
        rules: String,
    },
    /// The rules are none of Fairy-Stockfish's variants.
    NotFairy {
        /// The rules' name.
        rules: String,
    },
    /// A Fairy-Stockfish engine that declares no `UCI_Variant` option.
    NoOption {
        /// The rules' name.
        rules: String,
        /// The variant it would be told.
        variant: &'static str,
    },
    /// The engine's `UCI_Variant` combo does not offer the variant.
    NotOffered {
        /// The rules' name.
        rules: String,
        /// The variant the rules need.
        variant: &'static str,
        /// The combo's values.
        offered: Vec<String>,
    },
}

impl std::fmt::Display for VariantError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VariantError::NoUciVariant { rules } => write!(
                f,
                "the rules '{rules}' are no UCI_Variant ({})",
                names(&jieqi_registry::UCI_VARIANTS)
            ),
            VariantError::NotFairy { rules } => write!(
                f,
                "the rules '{rules}' are none of Fairy-Stockfish's variants: it plays our rules \
                 only as {} (it has no Jieqi)",
                names(&jieqi_registry::FAIRY_VARIANTS)
            ),
            VariantError::NoOption { rules, variant } => write!(
                f,
                "the engine declares no UCI_Variant option, so it cannot be told '{variant}' for \
                 the rules '{rules}'"
            ),
            VariantError::NotOffered {
                rules,
                variant,
                offered,
            } => write!(
                f,
                "the rules '{rules}' need UCI_Variant '{variant}', which the engine does not \
                 offer (its UCI_Variant values: {})",
                offered.join(", ")
            ),
        }
    }
}

impl std::error::Error for VariantError {}

/// How an engine declares its `UCI_Variant` option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Declared {
    /// A combo: these values only.
    Combo(Vec<String>),
    /// Any other type (a string): any name.
    Free,
}

/// The names of a variant table, comma-separated.
fn names(table: &[(&str, &str)]) -> String {
    table.iter().map(|(v, _)| *v).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::Color;

    fn mv(text: &str) -> Move {
        Move::from_text(text).unwrap()
    }

    #[test]
    fn fairy_squares_are_ranked_one_to_ten() {
        let f = Dialect::Fairy;
        assert_eq!(f.read_move("c1e3"), Some((mv("c0e2"), "")));
        assert_eq!(f.read_move("b10c8"), Some((mv("b9c7"), "")));
        assert_eq!(f.read_move("a10a9"), Some((mv("a9a8"), "")));
        assert_eq!(f.read_move("a1a10"), Some((mv("a0a9"), "")));
        assert_eq!(f.read_move("e10e10"), Some((mv("e9e9"), "")));
        // Rank 0 and 11 do not exist; a leading zero is no rank.
        for bad in [
            "a0a1", "a1a0", "a11a1", "a1a11", "a01a2", "j1a1", "a1", "", "b10", "10a1",
        ] {
            assert_eq!(f.read_move(bad), None, "{bad}");
        }
        let mut text = String::new();
        f.push_square(&mut text, Square::from_coords(1, 9).unwrap());
        f.push_square(&mut text, Square::from_coords(2, 7).unwrap());
        assert_eq!(text, "b10c8");
    }

    #[test]
    fn pikafish_squares_are_ranked_zero_to_nine() {
        let p = Dialect::Pikafish;
        assert_eq!(p.read_move("h2e2"), Some((mv("h2e2"), "")));
        assert_eq!(p.read_move("h2h9Rn"), Some((mv("h2h9"), "Rn")));
        assert_eq!(p.read_move("b10c8"), None);
        assert_eq!(p.read_move("a9a"), None);
    }

    /// Every square pair written in a dialect reads back as the same move.
    #[test]
    fn moves_round_trip_in_both_dialects() {
        for d in [Dialect::Pikafish, Dialect::Fairy] {
            for from in Square::all() {
                for to in [Square::from_index(0), Square::from_index(89), from] {
                    let m = Move { from, to };
                    let mut text = String::new();
                    d.push_move(&mut text, &PlayedMove::plain(m), Color::Red);
                    assert_eq!(d.read_move(&text), Some((m, "")), "{d:?} {text}");
                }
            }
        }
    }

    #[test]
    fn reveal_and_capture_letters_follow_the_squares() {
        let mut pm = PlayedMove::plain(mv("h2h9"));
        pm.reveal = Some(jieqi_core::Role::Cannon);
        pm.capture = Some(jieqi_core::Role::Horse);
        let mut text = String::new();
        Dialect::Fairy.push_move(&mut text, &pm, Color::Red);
        assert_eq!(text, "h3h10Cn");
        assert_eq!(Dialect::Fairy.read_move(&text), Some((mv("h2h9"), "Cn")));
    }

    #[test]
    fn dialects_are_named_and_detected() {
        assert_eq!(Dialect::parse("fairy"), Ok(Dialect::Fairy));
        assert_eq!(Dialect::parse("pikafish"), Ok(Dialect::Pikafish));
        let e = Dialect::parse("stockfish").unwrap_err().to_string();
        assert!(
            e.contains("'stockfish' is not a dialect (known: pikafish, fairy)"),
            "{e}"
        );
        assert_eq!(
            Dialect::detect("Fairy-Stockfish 11.1 LB 64"),
            Dialect::Fairy
        );
        assert_eq!(Dialect::detect("fairy-stockfish"), Dialect::Fairy);
        assert_eq!(Dialect::detect("Pikafish 2024"), Dialect::Pikafish);
        assert_eq!(Dialect::detect("jieqi-uci 0.1"), Dialect::Pikafish);
        assert_eq!(Dialect::detect("Fairy"), Dialect::Pikafish);
        for d in [Dialect::Pikafish, Dialect::Fairy] {
            assert_eq!(Dialect::parse(d.name()), Ok(d));
        }
    }

    #[test]
    fn variants_are_checked_against_what_the_engine_offers() {
        let combo = |vars: &[&str]| Declared::Combo(vars.iter().map(|v| v.to_string()).collect());
        let (jieqi, xiangqi) = (Rules::standard(), Rules::xiangqi());
        // The case: a chess-only combo was told `jieqi` and played.
        let chess = combo(&["chess"]);
        let e = Dialect::Pikafish
            .variant_for(Some(&chess), &jieqi)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("'standard' need UCI_Variant 'jieqi'")
                && e.contains("its UCI_Variant values: chess"),
            "{e}"
        );
        let ours = combo(&["jieqi", "xiangqi", "simple"]);
        assert_eq!(
            Dialect::Pikafish.variant_for(Some(&ours), &jieqi),
            Ok(Some("jieqi"))
        );
        assert_eq!(
            Dialect::Pikafish.variant_for(Some(&combo(&["XiangQi"])), &xiangqi),
            Ok(Some("xiangqi"))
        );
        assert_eq!(
            Dialect::Pikafish.variant_for(Some(&Declared::Free), &jieqi),
            Ok(Some("jieqi"))
        );
        assert_eq!(Dialect::Pikafish.variant_for(None, &jieqi), Ok(None));
        // Fairy-Stockfish: xiangqi only, from its combo, and never without one.
        let fsf = combo(&["chess", "janggi", "minixiangqi", "xiangqi"]);
        assert_eq!(
            Dialect::Fairy.variant_for(Some(&fsf), &xiangqi),
            Ok(Some("xiangqi"))
        );
        let e = Dialect::Fairy
            .variant_for(Some(&fsf), &jieqi)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("'standard' are none of Fairy-Stockfish's"),
            "{e}"
        );
        let e = Dialect::Fairy
            .variant_for(Some(&combo(&["jieqi"])), &jieqi)
            .unwrap_err()
            .to_string();
        assert!(e.contains("it has no Jieqi"), "{e}");
        let e = Dialect::Fairy
            .variant_for(None, &xiangqi)
            .unwrap_err()
            .to_string();
        assert!(e.contains("declares no UCI_Variant"), "{e}");
        let e = Dialect::Fairy
            .variant_for(Some(&combo(&["chess"])), &xiangqi)
            .unwrap_err()
            .to_string();
        assert!(e.contains("its UCI_Variant values: chess"), "{e}");
    }
}
