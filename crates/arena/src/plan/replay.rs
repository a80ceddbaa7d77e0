//! `arena replay`'s plan: one seeded game to play again, or a recorded one to check or show.

use std::path::PathBuf;
use std::time::Duration;

use jieqi_core::{ByColor, Rules};
use jieqi_engine::Limits;

use crate::engines::EngineEntry;
use crate::engines::time_control::TimeControl;
use crate::records::GameLine;
use crate::report::board_text::BoardStyle;

/// A validated replay.
#[derive(Debug)]
pub struct ReplayPlan {
    /// Rules.
    pub rules: Rules,
    /// Red's engine.
    pub red: EngineEntry,
    /// Black's engine.
    pub black: EngineEntry,
    /// Deal seed.
    pub deal_seed: u64,
    /// Limits.
    pub limits: Limits,
    /// The clock, as the match had it (a clock game replays only approximately).
    pub tc: Option<TimeControl>,
    /// The clock margin.
    pub timemargin: Duration,
    /// The hard limit of one move.
    pub move_timeout: Option<Duration>,
    /// Cap.
    pub max_plies: u32,
    /// Omniscient sides.
    pub omniscient: ByColor<bool>,
    /// Stop after this ply and show the board.
    pub stop_at: Option<usize>,
    /// Draw the board after every ply.
    pub boards: bool,
    /// Board style.
    pub style: BoardStyle,
    /// The recorded game to compare with, and where it came from.
    pub expected: Option<(GameLine, PathBuf)>,
    /// Show the recorded game instead of playing it again, and why.
    pub show: Option<Show>,
    /// Where the recorded game was found, said first (`game 37 is pair 18, game 1 of …`).
    pub located: Option<String>,
}

/// Why a recorded game is shown rather than played again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Show {
    /// `--show` asked for it.
    Asked,
    /// Its game would not come out the same ([`not_reproducible`]).
    NotReproducible(String),
}
