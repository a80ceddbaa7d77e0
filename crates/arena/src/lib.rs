//! The `arena` tool's library: command-line arguments, their validation into a plan, and one module
//! per subcommand. `src/main.rs` only parses, validates, dispatches and maps the result to the exit
//! status, in one place.
//!
//! - [`cli`]: the raw clap arguments, one module per command (`cli::match_`, `cli::export`, …);
//!   [`plan`]: validated arguments, one module per command (`plan::run` for the run setup of
//!   match, sprt, tournament and leak), every bad-input error found there before anything runs;
//!   [`commands`]: one module per command, each taking its plan; [`error`]: the one
//!   [`error::Error`] every layer returns, with [`error::Error::exit_code`] (2 bad input, 4 output
//!   that cannot be written).
//! - [`engines`]: `--engine` arguments → engine entries (the registry's engines, external `uci:`
//!   engines, the `faulty` test engine); `engines::uci`: the UCI driver.
//! - `run::game_runner`: one game under the referee, with clocks (`engines::time_control`) and
//!   hard limits (`run::alarm`).
//! - The run core every game-playing command is a thin layer over: [`run`] (setup, execution,
//!   stop rules, scheduler, scoreboard), [`records`] (the journal, the per-game formats, shards),
//!   [`report`] (summary text and `summary.json`, standings, the HTML report, the leak report).
//! - `commands::match_`: `arena match`; `commands::sprt`: `arena sprt`; `commands::replay`: `arena
//!   replay`; `commands::tournament`, `commands::leak`, `commands::merge`, `commands::history`;
//!   `commands::export`, `commands::tune`, `commands::solve`, `commands::suite`;
//!   `commands::stats` over [`stats`] (statistics, the result block); `commands::bench`,
//!   `commands::perft`, `commands::show`, `commands::engines`.
//! - `plan::rules_arg`: `--rules`; `records::deal_seed`: the canonical deal seed → deal mapping
//!   ([`deal_for_seed`]).

#![deny(missing_docs)]

pub mod cli;
pub mod commands;
pub mod engines;
pub mod error;
pub mod plan;
pub mod records;
pub mod report;
pub mod run;
pub mod stats;
pub mod util;

pub use records::deal_seed::deal_for_seed;

#[cfg(test)]
mod layers;
