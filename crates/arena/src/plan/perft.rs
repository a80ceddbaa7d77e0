//! `arena perft`'s plan: the position to count from and how deep.

use jieqi_core::Position;

use crate::cli::perft::PerftArgs;
use crate::error::Error;
use crate::plan::rules_arg;

/// What `arena perft` counts.
#[derive(Debug)]
pub struct PerftPlan {
    /// The root position (it carries its rules).
    pub position: Position,
    /// Plies to count.
    pub depth: u32,
    /// Print the per-root-move counts first.
    pub divide: bool,
    /// End with the JSON summary line.
    pub json: bool,
}

impl PerftPlan {
    /// Validates `arena perft` arguments.
    ///
    /// # Errors
    /// Bad rules or a bad FEN.
    pub fn new(args: PerftArgs) -> Result<PerftPlan, Error> {
        let rules = rules_arg::resolve(&args.rules.rules)?;
        Ok(PerftPlan {
            position: crate::plan::position(args.fen, &rules)?,
            depth: args.depth,
            divide: args.divide,
            json: args.json,
        })
    }
}
