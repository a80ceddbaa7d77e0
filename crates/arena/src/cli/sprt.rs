//! Arguments of `arena sprt`, the merge gate.

use clap::Args;

use crate::cli::run::RunArgs;

/// Arguments of `arena sprt`.
#[derive(Debug, Args)]
pub struct SprtCmdArgs {
    /// An engine: NEW first, then BASE (a spec such as `alphabeta:hash=32`, or a JSON file from
    /// configs/engines/).
    #[arg(long = "engine", value_name = "SPEC", long_help = ENGINE_HELP_GATE)]
    pub engines: Vec<String>,
    /// Limits, deals, output.
    #[command(flatten)]
    pub run: RunArgs,
    /// H0: NEW − BASE = ELO0 (normalized Elo unless --model logistic).
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 0.0,
        allow_hyphen_values = true
    )]
    pub elo0: f64,
    /// H1: NEW − BASE = ELO1. fishtest's short test is [0, 2], its long one [0.5, 2.5], its
    /// non-regression test [−1.75, 0.25].
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 2.0,
        allow_hyphen_values = true
    )]
    pub elo1: f64,
    /// The test's model and error rates.
    #[command(flatten)]
    pub test: crate::cli::sprt_args::SprtTestArgs,
    /// The most pairs to play; the test is inconclusive (exit 3) if no bound is crossed by then.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub max_pairs: u64,
    /// Count engine failures (crash, hang, protocol error, illegal move…) as losses and go on,
    /// as fastchess's -recover. Without it the gate stops at the first failure with exit 5: a
    /// verdict resting on a broken engine means nothing.
    #[arg(long)]
    pub recover: bool,
    /// Take the verdict even when more than 1 % of the pairs repeat an earlier pair move for
    /// move. Without it such a gate ends inconclusive (exit 3): repeated games are not
    /// independent, so its LLR counts the same evidence many times (a Xiangqi gate at fixed
    /// nodes from one start position plays one pair over and over; give --openings).
    #[arg(long)]
    pub allow_repeats: bool,
}

/// `--engine` of `sprt`.
const ENGINE_HELP_GATE: &str = concat!(
    "An engine: NEW first, then BASE (a spec such as `alphabeta:hash=32`, or a JSON file from \
     configs/engines/). Give exactly two.\n\n",
    "Every spec also takes the arena's keys: name=LABEL (its name in reports; labels must be \
     unique) and limits for that engine alone: tc=, movetime=, nodes=, depth=. External \
     engines: `uci:path=PATH,option.Hash=64`."
);
