//! `jieqi-uci`: any of our engines behind the Pikafish dialect of UCI, so that JieqiBox and match
//! runners can load it (the protocol is described in `jieqi-rules.md`, "Notation used by the
//! ecosystem").
//!
//! - [`command`] parses one command line;
//! - [`options`] holds the UCI options and turns them into an engine spec (the same specs the
//!   arena uses, so an engine plays the same here as in-process);
//! - [`session`] keeps the position as the view of the side to move, runs searches on a thread
//!   (`stop` and `isready` are heard during them) and writes the answers.
//!
//! Moves in `position … moves` carry the reveal suffix (`b0c2N`) and, for the capturer only, the
//! captured hidden identity (`h2h9Rn`); the session builds from them exactly the information set
//! the side to move has, so a fair engine sees nothing more over UCI than in the arena.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod command;
pub mod options;
pub mod session;

pub use session::{Flow, Output, Session};
