//! `arena bench`'s plan: the perft depth, the playouts, the engines to time and their limits.

use jieqi_engine::Limits;

use crate::cli::bench::BenchArgs;
use crate::engines::EngineEntry;
use crate::error::Error;

/// The engines benchmarked when none are named.
pub const DEFAULT_ENGINES: [&str; 6] = [
    "random",
    "greedy",
    "level:hard",
    "flat-uct:sims=2000",
    "ismcts:iters=20000",
    "alphabeta:depth=2",
];

/// A validated `arena bench`.
#[derive(Debug)]
pub struct BenchPlan {
    /// Perft depth on the Xiangqi start position.
    pub perft_depth: u32,
    /// Engines to time.
    pub engines: Vec<EngineEntry>,
    /// Limits for every engine move.
    pub limits: Limits,
    /// Print one JSON object at the end.
    pub json: bool,
    /// Random playouts per rule set.
    pub playouts: u64,
}

impl BenchPlan {
    /// Validates `arena bench` arguments.
    ///
    /// # Errors
    /// A bad engine or limit.
    pub fn new(args: BenchArgs) -> Result<BenchPlan, Error> {
        let specs: Vec<String> = if args.engines.is_empty() {
            DEFAULT_ENGINES.iter().map(|s| s.to_string()).collect()
        } else {
            args.engines.clone()
        };
        Ok(BenchPlan {
            perft_depth: args.perft_depth,
            engines: specs
                .iter()
                .map(|s| crate::plan::engine("--engine", s))
                .collect::<Result<_, _>>()?,
            limits: crate::plan::limits(&args.limits)?,
            json: args.json,
            playouts: args.playouts.max(1),
        })
    }
}
