//! Arguments of `arena bench`.

use clap::Args;

use crate::cli::common::LimitArgs;

/// Arguments of `arena bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Perft depth on the Xiangqi start position.
    #[arg(long, value_name = "D", default_value_t = 5)]
    pub perft_depth: u32,
    /// Random playouts to time per rule set (simple and standard start positions).
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub playouts: u64,
    /// An engine to time (repeatable) [default: random, greedy, level:hard, flat-uct:sims=2000,
    /// ismcts:iters=20000, alphabeta:depth=2].
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// Search limits for every engine move.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// End with one JSON object holding every figure.
    #[arg(long)]
    pub json: bool,
}
