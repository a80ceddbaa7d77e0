//! The text formats games and positions are exchanged in, one module each, reader beside writer:
//! [`pgn`] (what `arena export` writes, and the games `arena analyze` and `--openings` read),
//! [`jieqibox`] (JieqiBox's notation JSON and its FEN, the one writer of that FEN for `arena
//! export` and `arena jai`) and [`epd`] (the lines of opening books and test suites). Turning
//! what a file says into a game played through is `crate::analysis::import`'s, what a book's or
//! a suite's position means is [`crate::records::openings`]'s and [`crate::records::epd`]'s;
//! this module reads and writes text only.
//!
//! Every failure is a [`FormatError`], turned into the arena's [`crate::error::Error`] in one
//! place (its `From`).

use std::path::PathBuf;

use jieqi_core::{FenError, Rules};

use crate::records::GameLine;

pub mod epd;
pub mod jieqibox;
pub mod pgn;

/// Why a game cannot be read from a file or written to one; its text names the file, the game,
/// the line or ply, and the field.
#[derive(Debug)]
pub enum FormatError {
    /// A file cannot be opened or read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The text does not hold up; the message names where and what.
    Malformed(String),
    /// A recorded game does not play through from its deal (its record was altered): not
    /// written.
    NotPlayable {
        /// Its number in the folder.
        number: u64,
        /// Its pair.
        pair: u64,
        /// Game 1 or 2 of the pair.
        game: u8,
        /// What is wrong with it.
        problem: String,
    },
    /// A recorded position does not read back as a FEN.
    Fen {
        /// The FEN.
        fen: String,
        /// Why.
        source: FenError,
    },
}

impl FormatError {
    /// The error with `prefix` before its text (`game 3: …`).
    #[must_use]
    pub fn at(self, prefix: impl std::fmt::Display) -> FormatError {
        FormatError::Malformed(format!("{prefix}: {self}"))
    }
}

impl From<String> for FormatError {
    fn from(message: String) -> FormatError {
        FormatError::Malformed(message)
    }
}

impl From<&str> for FormatError {
    fn from(message: &str) -> FormatError {
        FormatError::Malformed(message.to_string())
    }
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Read { path, source } => write!(f, "{}: {source}", path.display()),
            FormatError::Malformed(m) => f.write_str(m),
            FormatError::NotPlayable {
                number,
                pair,
                game,
                problem,
            } => write!(
                f,
                "game {number} (pair {pair}, game {game}): {problem}; not exported"
            ),
            FormatError::Fen { fen, source } => write!(
                f,
                "a recorded position does not read back ({source}): {fen}"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// A file or game that cannot be read or written is bad input (exit 2): the one conversion.
impl From<FormatError> for crate::error::Error {
    fn from(e: FormatError) -> crate::error::Error {
        crate::error::Error::Input(e.to_string())
    }
}

/// One recorded game as the writers take it, played through from its deal
/// ([`crate::records::check::check_record`], by the caller: a writer only writes), with what
/// the run's record says around it.
pub struct RecordedGame<'a> {
    /// Its number in the folder.
    pub number: u64,
    /// Its line.
    pub line: &'a GameLine,
    /// Whether the run counted it (a pair past a gate's stop is not counted).
    pub counted: bool,
    /// The run's rules.
    pub rules: &'a Rules,
    /// The start position's public FEN.
    pub start_fen: &'a str,
    /// Each ply's record and the public FEN after it.
    pub plies: &'a [(jieqi_core::Record, String)],
    /// The event: `arena match`, `arena sprt`, ….
    pub event: String,
    /// The time control as its flag gives it, under a clock.
    pub time_control: Option<String>,
    /// The day it is written, `YYYY.MM.DD`.
    pub date: &'a str,
}

impl RecordedGame<'_> {
    /// The variant name protocols use for its rules: `jieqi`, `xiangqi`, or the rules' own name.
    fn variant(&self) -> String {
        jieqi_registry::uci_variant(self.rules).to_string()
    }
}

/// A recorded score in centipawns from the mover's point of view, a win rate mapped by
/// [`jieqi_engine::Score::win_rate_cp`] (the Elo logistic); `None` for a mate.
fn centipawns(score: jieqi_engine::Score) -> Option<i64> {
    use jieqi_engine::Score;
    match score {
        Score::Cp(cp) => Some(i64::from(cp)),
        Score::WinRate(w) => Some(i64::from(Score::win_rate_cp(w))),
        Score::Mate(_) => None,
    }
}
