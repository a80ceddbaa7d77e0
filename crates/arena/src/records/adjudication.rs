//! Adjudication: ending a game that is decided before the board says so, from the scores each
//! engine reports for its own move — fastchess's `-resign` and `-draw`, in its words.
//!
//! - **Resign** `movecount=N score=CP [twosided=false]`: one-sided (the default), each side
//!   counts its own consecutive moves scored at −CP or worse (a mate against it counts, a move
//!   without a score or above −CP starts it again); two-sided, one count of consecutive plies
//!   whose mover scores at least CP either way (a mate counts), which must also agree on who is
//!   winning (a ply whose score says the other side is winning starts the count again). When a
//!   side's count reaches N (two-sided: the shared count 2·N) and the side that just moved scores
//!   its position below 0, that side loses (`adjudication-resign`).
//! - **Draw** `movenumber=M movecount=N score=CP`: one count of consecutive plies whose mover
//!   scores within ±CP (centipawns; a mate, or a move without a score, starts it again; so does
//!   a capture or a reveal, which changes the material, before the ply is counted). Once the
//!   position's full-move number (counted from the game's start, an opening's included) is past
//!   M and the count reaches 2·N, the game is drawn (`adjudication-draw`).
//!
//! Scores are read as recorded (`games.jsonl`'s text, [`jieqi_engine::Score::parse`]): a
//! win rate through the logistic ([`jieqi_engine::Score::win_rate_cp`]), a mate beyond any bound.
//! An engine that reports no score is never adjudicated against, and a game with such an
//! engine is never drawn by adjudication. The same record always gives the same verdict at the
//! same ply, so `--resume` and `arena merge` check every adjudicated game against its scores.

use jieqi_core::{ByColor, Color};
use jieqi_engine::Score;
use serde::{Deserialize, Serialize};

/// `--resign`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resign {
    /// Consecutive moves of one side (two-sided: of each side).
    pub movecount: u32,
    /// Centipawns.
    pub score: i32,
    /// Both engines must agree.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub twosided: bool,
}

/// `--draw`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    /// The full-move number the game must be past.
    pub movenumber: u32,
    /// Consecutive moves of each side.
    pub movecount: u32,
    /// Centipawns either way.
    pub score: i32,
}

/// A run's adjudication: none by default.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// `--resign`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<Resign>,
    /// `--draw`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Draw>,
}

impl Adjudication {
    /// Whether neither rule is on.
    pub fn is_off(&self) -> bool {
        self.resign.is_none() && self.draw.is_none()
    }
}

impl std::fmt::Display for Adjudication {
    /// `resign movecount=3 score=600, draw movenumber=40 movecount=8 score=10`, or `off`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(r) = self.resign {
            parts.push(format!(
                "resign movecount={} score={}{}",
                r.movecount,
                r.score,
                if r.twosided { " twosided=true" } else { "" }
            ));
        }
        if let Some(d) = self.draw {
            parts.push(format!(
                "draw movenumber={} movecount={} score={}",
                d.movenumber, d.movecount, d.score
            ));
        }
        if parts.is_empty() {
            write!(f, "off")
        } else {
            write!(f, "{}", parts.join(", "))
        }
    }
}

/// What an adjudication decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The winner; `None`: a draw.
    pub winner: Option<Color>,
    /// The scores that decided it, for the record's detail.
    pub detail: String,
}

/// A score as a number the bounds compare: centipawns, or a mate as ±[`MATE`].
fn value(score: Option<Score>) -> Option<(i64, bool)> {
    match score? {
        Score::Cp(cp) => Some((i64::from(cp), false)),
        Score::WinRate(w) => Some((i64::from(Score::win_rate_cp(w)), false)),
        Score::Mate(n) if n > 0 => Some((MATE, true)),
        Score::Mate(_) => Some((-MATE, true)),
    }
}

/// A mate's value: beyond every centipawn bound.
const MATE: i64 = 1 << 40;

/// One game's counts, fed each ply's mover and recorded score.
#[derive(Clone, Debug)]
pub struct Tracker {
    rules: Adjudication,
    /// One-sided resign: each side's consecutive losing moves.
    losing: ByColor<u32>,
    /// Two-sided resign: consecutive decisive plies, and the side they say is winning.
    decisive: u32,
    winning: Option<Color>,
    /// Consecutive drawish plies.
    drawish: u32,
    /// The scores of the last plies, newest last, for the verdict's detail.
    recent: Vec<String>,
}

impl Tracker {
    /// A new game under `rules`.
    pub fn new(rules: Adjudication) -> Tracker {
        Tracker {
            rules,
            losing: ByColor::default(),
            decisive: 0,
            winning: None,
            drawish: 0,
            recent: Vec::new(),
        }
    }

    /// Counts one ply: `mover` moved, reported `score` (its recorded text, if any), the move
    /// captured or revealed (`irreversible`), and the position after it has full-move number
    /// `fullmove`. Returns the verdict when this ply decides the game.
    pub fn ply(
        &mut self,
        mover: Color,
        score: Option<&str>,
        irreversible: bool,
        fullmove: u32,
    ) -> Option<Verdict> {
        if self.rules.is_off() {
            return None;
        }
        let v = value(score.and_then(Score::parse));
        self.recent
            .push(format!("{mover} {}", score.unwrap_or("none")));
        let keep = 2 * self
            .rules
            .resign
            .map_or(0, |r| r.movecount)
            .max(self.rules.draw.map_or(0, |d| d.movecount)) as usize;
        if self.recent.len() > keep.max(1) {
            self.recent.remove(0);
        }
        if let Some(r) = self.rules.resign {
            let bound = i64::from(r.score);
            if r.twosided {
                match v {
                    Some((x, mate)) if mate || x.abs() >= bound => {
                        let winner = if x > 0 { mover } else { !mover };
                        if self.winning == Some(winner) {
                            self.decisive += 1;
                        } else {
                            self.decisive = 1;
                            self.winning = Some(winner);
                        }
                    }
                    _ => {
                        self.decisive = 0;
                        self.winning = None;
                    }
                }
            } else {
                match v {
                    Some((x, _)) if x <= -bound => self.losing[mover] += 1,
                    _ => self.losing[mover] = 0,
                }
            }
        }
        if let Some(d) = self.rules.draw {
            if irreversible {
                self.drawish = 0;
            }
            match v {
                Some((x, false)) if x.abs() <= i64::from(d.score) => self.drawish += 1,
                _ => self.drawish = 0,
            }
        }
        if let (Some(r), Some((x, _))) = (self.rules.resign, v) {
            let counted = if r.twosided {
                self.decisive >= 2 * r.movecount
            } else {
                self.losing[mover] >= r.movecount
            };
            if counted && x < 0 {
                return Some(Verdict {
                    winner: Some(!mover),
                    detail: format!(
                        "{mover} resigns (--resign {}; last scores {})",
                        self.rules_text(true),
                        self.recent.join(", ")
                    ),
                });
            }
        }
        if let Some(d) = self.rules.draw
            && fullmove.saturating_sub(1) >= d.movenumber
            && self.drawish >= 2 * d.movecount
        {
            return Some(Verdict {
                winner: None,
                detail: format!(
                    "drawn at move {} (--draw {}; last scores {})",
                    fullmove.saturating_sub(1),
                    self.rules_text(false),
                    self.recent.join(", ")
                ),
            });
        }
        None
    }

    fn rules_text(&self, resign: bool) -> String {
        match (resign, self.rules.resign, self.rules.draw) {
            (true, Some(r), _) => format!(
                "movecount={} score={}{}",
                r.movecount,
                r.score,
                if r.twosided { " twosided=true" } else { "" }
            ),
            (false, _, Some(d)) => format!(
                "movenumber={} movecount={} score={}",
                d.movenumber, d.movecount, d.score
            ),
            _ => String::new(),
        }
    }
}

/// Why the words of `--resign` or `--draw` do not read; each names the word or key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WordsError {
    /// A word without `=` (the flag's keys second).
    NotKeyValue(String, &'static [&'static str]),
    /// A key the flag does not have (the flag's keys second).
    NotAKey(String, &'static [&'static str]),
    /// A key given twice.
    Twice(&'static str),
    /// `twosided=` neither true nor false.
    TwoSided(String),
    /// A value that is no whole number from 0 to 1,000,000 (the key first).
    Number(&'static str, String),
    /// A required key missing.
    Missing(&'static str),
    /// `movecount=0` (for `--draw` when `draw`).
    NoMoves {
        /// Whether the words are `--draw`'s.
        draw: bool,
    },
}

impl std::fmt::Display for WordsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::util::text::echo;
        let keys = |keys: &[&str]| keys.join("=, ") + "=";
        match self {
            WordsError::NotKeyValue(word, k) => {
                write!(f, "'{}' is no key=value ({})", echo(word), keys(k))
            }
            WordsError::NotAKey(key, k) => {
                write!(f, "'{}' is no key of the flag ({})", echo(key), keys(k))
            }
            WordsError::Twice(key) => write!(f, "{key}= is given twice"),
            WordsError::TwoSided(other) => write!(f, "twosided={}: true or false", echo(other)),
            WordsError::Number(key, value) => write!(
                f,
                "{key}={}: a whole number from 0 to 1000000 (a movecount from 1)",
                echo(value)
            ),
            WordsError::Missing(key) => write!(f, "give {key}="),
            WordsError::NoMoves { draw: true } => {
                f.write_str("movecount=0: at least 1 move of each side")
            }
            WordsError::NoMoves { draw: false } => f.write_str("movecount=0: at least 1 move"),
        }
    }
}

impl std::error::Error for WordsError {}

/// Parses the words of `--resign` or `--draw` (separate, or comma-separated: `movecount=3
/// score=600`, `movecount=3,score=600`); `draw` chooses which. `none` turns it off.
///
/// # Errors
/// A word that is no key of the flag, a value that is no whole number (score: 0 or more;
/// movecount: 1 or more for resign), a key given twice or a required key missing
/// ([`WordsError`]).
pub fn parse_words(words: &[String], draw: bool) -> Result<Adjudication, WordsError> {
    let mut out = Adjudication::default();
    if words.is_empty() || (words.len() == 1 && words[0] == "none") {
        return Ok(out);
    }
    let keys: &[&str] = if draw {
        &["movenumber", "movecount", "score"]
    } else {
        &["movecount", "score", "twosided"]
    };
    let mut values: Vec<Option<i64>> = vec![None; keys.len()];
    let mut twosided = None;
    for word in words
        .iter()
        .flat_map(|w| w.split([',', ' ', '\t']))
        .filter(|w| !w.is_empty())
    {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| WordsError::NotKeyValue(word.to_string(), keys))?;
        let i = keys
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| WordsError::NotAKey(key.to_string(), keys))?;
        if key == "twosided" {
            if twosided.is_some() {
                return Err(WordsError::Twice(keys[i]));
            }
            twosided = Some(match value {
                "true" => true,
                "false" => false,
                other => return Err(WordsError::TwoSided(other.to_string())),
            });
            continue;
        }
        if values[i].is_some() {
            return Err(WordsError::Twice(keys[i]));
        }
        let n: i64 = value
            .parse()
            .ok()
            .filter(|n| (0..=1_000_000).contains(n))
            .ok_or_else(|| WordsError::Number(keys[i], value.to_string()))?;
        values[i] = Some(n);
    }
    let need = |i: usize| values[i].ok_or(WordsError::Missing(keys[i]));
    if draw {
        let movecount = need(1)? as u32;
        if movecount == 0 {
            return Err(WordsError::NoMoves { draw });
        }
        out.draw = Some(Draw {
            movenumber: need(0)? as u32,
            movecount,
            score: need(2)? as i32,
        });
    } else {
        let movecount = need(0)? as u32;
        if movecount == 0 {
            return Err(WordsError::NoMoves { draw });
        }
        out.resign = Some(Resign {
            movecount,
            score: need(1)? as i32,
            twosided: twosided.unwrap_or(false),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn resign(movecount: u32, score: i32, twosided: bool) -> Adjudication {
        Adjudication {
            resign: Some(Resign {
                movecount,
                score,
                twosided,
            }),
            draw: None,
        }
    }

    #[test]
    fn flags_read_in_fastchess_words_and_with_commas() {
        let a = parse_words(&words("movecount=3 score=600"), false).unwrap();
        assert_eq!(a, resign(3, 600, false));
        let b = parse_words(&words("movecount=3,score=600,twosided=true"), false).unwrap();
        assert_eq!(b, resign(3, 600, true));
        let d = parse_words(&words("movenumber=40 movecount=8 score=10"), true).unwrap();
        assert_eq!(
            d.draw,
            Some(Draw {
                movenumber: 40,
                movecount: 8,
                score: 10
            })
        );
        for bad in [
            "movecount=3",
            "score=600",
            "movecount=x score=1",
            "movecount=0 score=1",
            "movecount=1 score=-5",
            "movecount=1 score=5 foo=1",
            "movecount=1 movecount=2 score=5",
            "movecount=1 score=5 twosided=yes",
            "600",
        ] {
            assert!(parse_words(&words(bad), false).is_err(), "{bad}");
        }
        assert!(parse_words(&words("movenumber=1 score=3"), true).is_err());
        assert!(parse_words(&words("movenumber=0 movecount=0 score=0"), true).is_err());
        // One quoted word holding every key reads as the separate words.
        let quoted = vec!["movecount=3 score=600".to_string()];
        assert_eq!(parse_words(&quoted, false).unwrap(), resign(3, 600, false));
        assert!(parse_words(&words("none"), true).unwrap().is_off());
    }

    #[test]
    fn refusals_name_the_word_or_key() {
        for (text, draw, want) in [
            (
                "score",
                false,
                "'score' is no key=value (movecount=, score=, twosided=)",
            ),
            (
                "colour=red",
                true,
                "'colour' is no key of the flag (movenumber=, movecount=, score=)",
            ),
            (
                "twosided=true twosided=true",
                false,
                "twosided= is given twice",
            ),
            ("twosided=yes", false, "twosided=yes: true or false"),
            ("score=1 score=2", false, "score= is given twice"),
            (
                "score=-1",
                false,
                "score=-1: a whole number from 0 to 1000000 (a movecount from 1)",
            ),
            ("score=1", false, "give movecount="),
            ("movecount=0 score=1", false, "movecount=0: at least 1 move"),
            (
                "movenumber=1 movecount=0 score=1",
                true,
                "movecount=0: at least 1 move of each side",
            ),
        ] {
            let e = parse_words(&words(text), draw).unwrap_err().to_string();
            assert_eq!(e, want, "{text}");
        }
    }

    #[test]
    fn one_sided_resign_counts_the_losers_own_moves() {
        let mut t = Tracker::new(resign(3, 500, false));
        // Red keeps saying it is lost; Black's scores do not matter.
        assert_eq!(t.ply(Color::Red, Some("-5.00"), false, 1), None);
        assert_eq!(t.ply(Color::Black, Some("+9.00"), false, 2), None);
        assert_eq!(t.ply(Color::Red, Some("-6.00"), false, 2), None);
        assert_eq!(t.ply(Color::Black, None, false, 3), None);
        let v = t.ply(Color::Red, Some("-5.50"), false, 3).unwrap();
        assert_eq!(v.winner, Some(Color::Black));
        assert!(v.detail.contains("red resigns"), "{}", v.detail);
        // A score above the bound starts the count again; no score too.
        let mut t = Tracker::new(resign(2, 500, false));
        assert_eq!(t.ply(Color::Red, Some("-5.00"), false, 1), None);
        assert_eq!(t.ply(Color::Red, Some("-4.99"), false, 2), None);
        assert_eq!(t.ply(Color::Red, Some("-5.00"), false, 3), None);
        assert_eq!(t.ply(Color::Red, None, false, 4), None);
        assert_eq!(t.ply(Color::Red, Some("-5.00"), false, 5), None);
        assert!(t.ply(Color::Red, Some("#-3"), false, 6).is_some());
        // An engine that reports no score is never adjudicated against.
        let mut t = Tracker::new(resign(1, 1, false));
        for k in 0..20 {
            assert_eq!(t.ply(Color::Red, None, false, k), None);
            assert_eq!(t.ply(Color::Black, Some("+20.00"), false, k), None);
        }
    }

    #[test]
    fn two_sided_resign_needs_both_sides_to_agree() {
        let mut t = Tracker::new(resign(2, 300, true));
        assert_eq!(t.ply(Color::Red, Some("+4.00"), false, 1), None);
        assert_eq!(t.ply(Color::Black, Some("-4.00"), false, 2), None);
        assert_eq!(t.ply(Color::Red, Some("+4.00"), false, 2), None);
        // Four plies agree that Red wins; the mover (Black) scores below 0 and resigns.
        let v = t.ply(Color::Black, Some("-3.50"), false, 3).unwrap();
        assert_eq!(v.winner, Some(Color::Red));
        // A ply that says the other side wins starts the count again.
        let mut t = Tracker::new(resign(1, 300, true));
        assert_eq!(t.ply(Color::Red, Some("+4.00"), false, 1), None);
        assert_eq!(t.ply(Color::Black, Some("+4.00"), false, 2), None);
        let v = t.ply(Color::Red, Some("-4.00"), false, 2).unwrap();
        assert_eq!(v.winner, Some(Color::Black));
    }

    #[test]
    fn draw_needs_the_move_number_and_quiet_plies() {
        let rules = Adjudication {
            resign: None,
            draw: Some(Draw {
                movenumber: 3,
                movecount: 2,
                score: 10,
            }),
        };
        let mut t = Tracker::new(rules);
        // Four drawish plies, but not yet past move 3.
        assert_eq!(t.ply(Color::Red, Some("0.05"), false, 1), None);
        assert_eq!(t.ply(Color::Black, Some("-0.10"), false, 2), None);
        assert_eq!(t.ply(Color::Red, Some("0.00"), false, 2), None);
        assert_eq!(t.ply(Color::Black, Some("0.00"), false, 3), None);
        // A capture starts the count again (this ply counts: 1).
        assert_eq!(t.ply(Color::Red, Some("0.00"), true, 4), None);
        assert_eq!(t.ply(Color::Black, Some("0.01"), false, 4), None);
        assert_eq!(t.ply(Color::Red, Some("0.00"), false, 4), None);
        let v = t.ply(Color::Black, Some("50.0%"), false, 5).unwrap();
        assert_eq!(v.winner, None);
        // A mate or a missing score starts it again.
        let mut t = Tracker::new(rules);
        for (s, k) in [
            (Some("0.0"), 9),
            (Some("#5"), 9),
            (Some("0.0"), 10),
            (None, 10),
        ] {
            assert_eq!(t.ply(Color::Red, s, false, k), None);
        }
    }
}
