//! The `arena` tool's library: command-line arguments, their validation into a plan, and one module
//! per subcommand. `src/main.rs` only parses, validates and dispatches.
//!
//! - [`cli`]: the raw clap arguments.
//! - [`plan`]: validated arguments, ready to run; every bad-input error is found here.
//! - [`rules_arg`]: `--rules` as a preset name or a JSON file.
//! - [`deal_seed`]: the canonical deal seed → deal mapping ([`deal_for_seed`]).
//! - [`perft_cmd`]: `arena perft`.
//! - [`show`] and [`board_text`]: `arena show` and the board drawing it uses.

#![deny(missing_docs)]

pub mod block;
pub mod board_text;
pub mod cli;
pub mod deal_seed;
pub mod engines;
pub mod game_runner;
pub mod match_cmd;
pub mod perft_cmd;
pub mod plan;
pub mod records;
pub mod replay;
pub mod rules_arg;
pub mod show;
pub mod stats;
pub mod stats_cmd;

pub use deal_seed::deal_for_seed;
