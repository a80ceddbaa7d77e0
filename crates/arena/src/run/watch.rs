//! Watching a run live: a [`Watcher`] hears every game start, every ply and every game end as
//! they happen, and a [`Watch`] may ask the run to stop. Only `arena jai` (JieqiBox's match mode)
//! watches; other runs have none, and a run without one plays exactly as before.
//!
//! The watcher is called from the worker threads that play the games, so with several threads
//! calls for different games interleave; each call names its game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use jieqi_core::{Game, Record};
use jieqi_engine::SearchInfo;

use crate::records::GameLine;

/// A game of the run, as the watcher is told about it.
#[derive(Clone, Copy, Debug)]
pub struct WatchedGame<'a> {
    /// The game's number in the run, from 1: 2 × job + 1 or 2 (job order, so the games of a
    /// one-thread run come in this order).
    pub number: u64,
    /// Red's label.
    pub red: &'a str,
    /// Black's label.
    pub black: &'a str,
}

/// One ply as it was played.
#[derive(Clone, Copy, Debug)]
pub struct WatchedPly<'a> {
    /// The game after the move.
    pub game: &'a Game,
    /// The referee's record of the move (true reveal and captured identities).
    pub record: &'a Record,
    /// What the mover's engine said about its search.
    pub info: &'a SearchInfo,
    /// Milliseconds the engine took.
    pub ms: f64,
}

/// Hears a run's games live. Implementations must be cheap: they run on the game's thread.
pub trait Watcher: Send + Sync {
    /// A game starts; `game` is its start position.
    fn game_started(&self, which: WatchedGame<'_>, game: &Game);
    /// A ply of the game was played.
    fn ply(&self, which: WatchedGame<'_>, ply: WatchedPly<'_>);
    /// The game ended and is recorded as `line` (it counts once its pair is finished).
    fn game_ended(&self, which: WatchedGame<'_>, line: &GameLine);
    /// The game was abandoned because the run was asked to stop: it is not recorded.
    fn game_abandoned(&self, which: WatchedGame<'_>);
}

/// A watcher and the flag that stops its run.
#[derive(Clone)]
pub struct Watch {
    /// Who hears the games.
    pub watcher: Arc<dyn Watcher>,
    /// Set to stop the run: no new game starts, and the games being played end at once (a move
    /// in progress is stopped through its engine's stop flag within the alarm's tick),
    /// unrecorded (their pairs are left to a `--resume`).
    pub stop: Arc<AtomicBool>,
}

impl Watch {
    /// A watch with its stop flag down.
    pub fn new(watcher: Arc<dyn Watcher>) -> Watch {
        Watch {
            watcher,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether the run was asked to stop.
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("stop", &self.stopping())
            .finish_non_exhaustive()
    }
}
