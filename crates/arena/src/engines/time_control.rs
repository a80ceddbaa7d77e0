//! Clock time controls in fastchess's syntax, and the clock that runs them.
//!
//! `10+0.1` is 10 seconds for the game plus 0.1 s after every move; `40/60+0.6` is 60 seconds for
//! every 40 moves (the clock gains another 60 s after each 40th move) plus 0.6 s a move; `60` is
//! 60 seconds, sudden death. Seconds may be fractional; times are kept to the millisecond.

use core::fmt;
use std::time::Duration;

/// A clock time control.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Moves per period: the clock gains `base` again after each this many moves (`None`: the
    /// whole game is one period).
    pub moves: Option<u32>,
    /// Time for a period.
    pub base: Duration,
    /// Time added after every move.
    pub increment: Duration,
}

/// The longest base time or increment accepted: one day.
const MAX_SECONDS: f64 = 86_400.0;

/// The longest a move may be given in milliseconds (`--movetime`, `--move-timeout`, an engine's
/// `movetime=`): a day, as a clock's base time.
pub const MAX_MOVE_MS: u64 = 86_400_000;

/// The hard limit of a move without a clock or `--move-timeout`: movetime plus this.
pub const MOVETIME_GRACE: Duration = Duration::from_secs(1);

/// The hard limit of a move with no time limit of any kind (node and depth limits only).
pub const NO_TIME_LIMIT_TIMEOUT: Duration = Duration::from_secs(60);

/// The hard limit of a move without a clock: the movetime plus [`MOVETIME_GRACE`], or
/// [`NO_TIME_LIMIT_TIMEOUT`] without one.
pub fn unclocked_limit(movetime: Option<Duration>) -> Duration {
    movetime.map_or(NO_TIME_LIMIT_TIMEOUT, |t| t + MOVETIME_GRACE)
}

/// Seconds as a duration, to the millisecond; `None` unless a finite number in [0, one day].
fn seconds(text: &str) -> Option<Duration> {
    let t = text.trim();
    if t.is_empty() || t.starts_with('+') || t.starts_with('-') {
        return None;
    }
    let s: f64 = t.parse().ok()?;
    (s.is_finite() && (0.0..=MAX_SECONDS).contains(&s))
        .then(|| Duration::from_millis((s * 1000.0).round() as u64))
}

impl TimeControl {
    /// Parses `[moves/]seconds[+increment]`.
    ///
    /// # Errors
    /// What is wrong with the text.
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let err = |why: &'static str| TimeControlError {
            text: text.to_string(),
            why,
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m.trim().parse().map_err(|_| {
                    err("the moves per period are not a whole number from 1 to 4294967295")
                })?;
                if m == 0 {
                    return Err(err("the moves per period must be at least 1"));
                }
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = seconds(base)
            .ok_or_else(|| err("the base time is not a number of seconds from 0 to 86400"))?;
        let increment = match increment {
            Some(i) => seconds(i)
                .ok_or_else(|| err("the increment is not a number of seconds from 0 to 86400"))?,
            None => Duration::ZERO,
        };
        if base.is_zero() && increment.is_zero() {
            return Err(err("there is no time at all"));
        }
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

/// A time control's text that does not parse ([`TimeControl::parse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControlError {
    /// The text, as given.
    pub text: String,
    /// What is wrong with it.
    pub why: &'static str,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}': {} (expected [MOVES/]SECONDS[+INCREMENT], e.g. 10+0.1 or 40/60+0.6)",
            self.text, self.why
        )
    }
}

impl std::error::Error for TimeControlError {}

/// Seconds with as few decimals as needed (`10`, `0.1`, `2.125`).
fn secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms % 1000 == 0 {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_string()
    }
}

impl fmt::Display for TimeControl {
    /// The canonical text, which [`TimeControl::parse`] reads back: `40/60+0.6`, `10+0.1`, `60`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        f.write_str(&secs(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", secs(self.increment))?;
        }
        Ok(())
    }
}

impl serde::Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for TimeControl {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TimeControl, D::Error> {
        let text = String::deserialize(d)?;
        TimeControl::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// One side's clock during a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    tc: TimeControl,
    remaining: Duration,
    /// Moves made in the current period.
    moves_in_period: u32,
}

/// What a move did to a clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Punch {
    /// In time; the clock now shows this much.
    InTime(Duration),
    /// The move took longer than the time left plus the margin: the side loses on time.
    Flagged {
        /// Time that was left before the move.
        left: Duration,
    },
}

impl GameClock {
    /// A full clock at the start of a game.
    pub fn new(tc: TimeControl) -> GameClock {
        GameClock {
            tc,
            remaining: tc.base,
            moves_in_period: 0,
        }
    }

    /// Time left.
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// The increment after each move.
    pub fn increment(&self) -> Duration {
        self.tc.increment
    }

    /// Moves to go before the next refill (`None` in sudden death).
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves_in_period)
    }

    /// Charges a move that took `elapsed`: past the time left plus `margin` it flags; otherwise
    /// the time is taken off (never below zero), the increment is added, and after the period's
    /// last move the base time is added again.
    pub fn punch(&mut self, elapsed: Duration, margin: Duration) -> Punch {
        if elapsed > self.remaining + margin {
            return Punch::Flagged {
                left: self.remaining,
            };
        }
        self.remaining = self.remaining.saturating_sub(elapsed) + self.tc.increment;
        self.moves_in_period += 1;
        if let Some(m) = self.tc.moves {
            if self.moves_in_period == m {
                self.moves_in_period = 0;
                self.remaining += self.tc.base;
            }
        }
        Punch::InTime(self.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_fastchess_syntax() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (None, ms(10_000), ms(100))
        );
        assert_eq!(tc.to_string(), "10+0.1");
        let tc = TimeControl::parse("40/60+0.6").unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (Some(40), ms(60_000), ms(600))
        );
        assert_eq!(tc.to_string(), "40/60+0.6");
        let tc = TimeControl::parse("60").unwrap();
        assert_eq!(tc.to_string(), "60");
        assert_eq!(
            TimeControl::parse("2.125+0.01").unwrap().to_string(),
            "2.125+0.01"
        );
        assert_eq!(TimeControl::parse("0+1").unwrap().base, Duration::ZERO);
        for text in [TimeControl::parse("40/60+0.6").unwrap(), tc] {
            assert_eq!(TimeControl::parse(&text.to_string()).unwrap(), text);
        }
    }

    #[test]
    fn malformed_time_controls_say_why() {
        for (text, why) in [
            ("", "base time"),
            ("ten", "base time"),
            ("10+", "increment"),
            ("10+-1", "increment"),
            ("-10", "base time"),
            ("0/10", "at least 1"),
            ("x/10", "whole number"),
            ("0+0", "no time"),
            ("1e9", "from 0 to 86400"),
            ("4294967296/10", "from 1 to 4294967295"),
            ("inf", "base time"),
            ("NaN+1", "base time"),
        ] {
            let e = TimeControl::parse(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn the_clock_runs_down_gains_increments_and_refills() {
        let mut c = GameClock::new(TimeControl::parse("2/1+0.1").unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        assert_eq!(c.punch(ms(300), Duration::ZERO), Punch::InTime(ms(800)));
        assert_eq!(c.moves_to_go(), Some(1));
        // The second move ends the period: the base second comes back.
        assert_eq!(c.punch(ms(800), Duration::ZERO), Punch::InTime(ms(1100)));
        assert_eq!(c.moves_to_go(), Some(2));
        // Over the time left, but within the margin: in time, at zero plus the increment.
        assert_eq!(c.punch(ms(1150), ms(100)), Punch::InTime(ms(100)));
        assert_eq!(c.punch(ms(201), ms(100)), Punch::Flagged { left: ms(100) });
    }
}
