//! Arguments of `arena match`.

use clap::Args;

use crate::cli::run::RunArgs;

/// Arguments of `arena match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// An engine: a spec such as `greedy:noise=0.3`, or a JSON file from configs/engines/. Give
    /// exactly two; results are reported for the first against the second.
    #[arg(long = "engine", value_name = "SPEC", long_help = ENGINE_HELP_TWO)]
    pub engines: Vec<String>,
    /// Limits, deals, output.
    #[command(flatten)]
    pub run: RunArgs,
    /// Number of game pairs (each pair is two games on one deal, colours swapped).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub pairs: u64,
    /// Give engine A, engine B or both an omniscient view (every hidden piece visible), to
    /// measure what hidden information is worth. The summary says so; `arena leak` measures it
    /// with paired intervals.
    #[arg(long, value_name = "A|B|both")]
    pub omniscient: Option<String>,
    /// Also report the SPRT (it does not stop the match; `arena sprt` does).
    #[command(flatten)]
    pub sprt: crate::cli::sprt_args::SprtArgs,
}

/// `--engine` of `match`.
const ENGINE_HELP_TWO: &str = concat!(
    "An engine: a spec such as `greedy:noise=0.3`, or a JSON file from configs/engines/. Give \
     exactly two; results are reported for the first against the second.\n\n",
    "Every spec also takes the arena's keys: name=LABEL (its name in reports; labels must be \
     unique) and limits for that engine alone, replacing the run's of the same kind: tc=, \
     movetime=, nodes=, depth= (e.g. `alphabeta:tc=5+0.05,name=half` for a time-odds match). \
     External engines: `uci:path=PATH,option.Hash=64`. `arena engines` lists them all."
);
