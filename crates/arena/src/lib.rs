//! The `arena` tool's library: command-line arguments, their validation into a plan, and one module
//! per subcommand. `src/main.rs` only parses, validates and dispatches.
//!
//! - [`cli`]: the raw clap arguments; [`plan`]: validated arguments, every bad-input error found here.
//! - [`engines`]: the registry (spec strings and config files → engines).
//! - [`game_runner`]: one game under the referee; [`match_cmd`]: `arena match`; [`records`]: the
//!   result files; [`replay`]: `arena replay`.
//! - [`stats`], [`block`], [`stats_cmd`]: statistics, the result block, `arena stats`.
//! - [`bench_cmd`]: `arena bench`; [`perft_cmd`]: `arena perft`; [`show`], [`board_text`]: `arena show`.
//! - [`rules_arg`]: `--rules`; [`deal_seed`]: the canonical deal seed → deal mapping ([`deal_for_seed`]).

#![deny(missing_docs)]

pub mod bench_cmd;
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
pub mod uci_engine;

pub use deal_seed::deal_for_seed;
