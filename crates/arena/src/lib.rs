//! The `arena` tool's library: command-line arguments, their validation into a plan, and one module
//! per subcommand. `src/main.rs` only parses, validates and dispatches.
//!
//! - [`cli`]: the raw clap arguments; [`plan`]: validated arguments, every bad-input error found here.
//! - [`engines`]: `--engine` arguments → engine entries (the registry's engines, external `uci:`
//!   engines, the `faulty` test engine); [`uci_engine`]: the UCI driver.
//! - [`game_runner`]: one game under the referee, with clocks ([`time_control`]) and hard limits
//!   ([`alarm`]).
//! - The run core every game-playing command is a thin layer over: [`run`] (setup, execution,
//!   stop rules), [`scheduler`] (jobs on the rayon pool), [`journal`] (`games.jsonl`, resume,
//!   atomic writes), [`scoreboard`] (tallies per pairing of engine slots), [`report`] (summary
//!   text and `summary.json`), [`records`] (the per-game formats).
//! - [`match_cmd`]: `arena match`; [`sprt_cmd`]: `arena sprt`; [`replay`]: `arena replay`;
//!   [`tournament`], [`standings`], [`ratings`], [`report_html`], [`history`]: `arena tournament`
//!   and its reports; [`leak`]: `arena leak`; [`merge`], [`shard`]: shards and `arena merge`.
//! - [`stats`], [`block`], [`stats_cmd`]: statistics, the result block, `arena stats`;
//!   [`sprt_args`]: the SPRT flags they share.
//! - [`bench_cmd`]: `arena bench`; [`perft_cmd`]: `arena perft`; [`show`], [`board_text`]: `arena show`.
//! - [`rules_arg`]: `--rules`; [`deal_seed`]: the canonical deal seed → deal mapping ([`deal_for_seed`]).

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
