//! The run core every game-playing command is a thin layer over: the kind of run ([`kind`]), the
//! setup and its record ([`setup`], re-exported here), playing it ([`execute`]) and when it stops
//! ([`stop`]), when it says how far it has come ([`progress`]), the jobs on the rayon pool ([`scheduler`]), the tallies ([`scoreboard`]), one game
//! under the referee ([`game_runner`]), one pair ([`pair`]) and its watchdog ([`alarm`]), and a results folder read
//! back ([`folder`], [`recorded_games`]); shards put back together ([`merge`]); a live [`watch`] of the games (`arena jai`). The core
//! prints nothing: it tells a [`observer::RunObserver`] how it goes.

pub mod alarm;
pub mod execute;
pub mod folder;
pub mod game_runner;
pub mod kind;
pub mod merge;
pub mod observer;
pub mod pair;
pub mod progress;
pub mod recorded_games;
pub mod scheduler;
pub mod scoreboard;
pub mod setup;
pub mod stop;
pub mod watch;

pub use execute::{RunOutcome, Tallied, execute, outcome_of};
pub use setup::*;
pub use stop::{PlayAll, StopRule};
