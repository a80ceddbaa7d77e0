//! Arguments of `arena leak`.

use clap::Args;

use crate::cli::run::RunArgs;

/// Arguments of `arena leak`.
#[derive(Debug, Args)]
pub struct LeakArgs {
    /// An engine to measure (one or more): a spec such as `ismcts:iters=500`, or a JSON file from
    /// configs/engines/. In-process engines only: an external engine gets its side's information
    /// over UCI and cannot play omniscient.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// The fair opponent every engine meets in arms F and Ω (any engine, external ones included)
    /// [default: each engine's own fair self].
    #[arg(long, value_name = "SPEC")]
    pub opponent: Option<String>,
    /// Take the engines, opponent and pairs from the `leak` section of a tournament config
    /// (`{"engines": [LABEL…], "opponent": LABEL, "pairs": N}`, labels of its engines), and the
    /// seed, rules and limits from the config itself; a flag on the command line wins (but
    /// --engine and --opponent cannot be combined with it). This is how the nightly report
    /// measures leaks (scripts/nightly.sh).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["engines", "opponent"])]
    pub config: Option<std::path::PathBuf>,
    /// Game pairs per arm (each pair is two games on one deal, colours swapped) [default: 100].
    #[arg(long, value_name = "N")]
    pub pairs: Option<u64>,
    /// Bootstrap resamples of pair indices for the paired interval of Δ, 100 to 100000
    /// [default: 1000].
    #[arg(long, value_name = "N")]
    pub bootstrap: Option<usize>,
    /// Limits, deals, output.
    #[command(flatten)]
    pub run: RunArgs,
}
