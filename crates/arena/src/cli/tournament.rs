//! Arguments of `arena tournament`.

use clap::Args;

use crate::cli::run::RunArgs;

/// Arguments of `arena tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// A tournament config (JSON): engines, pairings, pairs, seed, rules, limits, anchor.
    ///
    /// Keys (unknown keys are refused): engines (a list of specs as --engine takes them),
    /// gauntlet (a label), pairings (a list of [A, B] label pairs), pairs, seed, rules,
    /// max_plies, openings, resign and draw (each its flag's words in one string), nodes,
    /// depth, movetime_ms, tc, timemargin_ms, move_timeout_ms, anchor
    /// ("LABEL=ELO"), bootstrap (100 to 100000), leak (what `arena leak --config` measures; the tournament's
    /// report shows a leak table found in its leak/ folder). A flag given on the command line
    /// wins over the file's value; --engine cannot be combined with it. See configs/nightly.json.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// An engine (two or more): a spec such as `greedy:noise=0.3`, or a JSON file from
    /// configs/engines/. Every spec also takes name=LABEL and its own tc=, movetime=, nodes=,
    /// depth=.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// A gauntlet: this engine (its label) plays each of the others, and they do not play each
    /// other [default: a round robin, every engine against every other].
    #[arg(long, value_name = "LABEL")]
    pub gauntlet: Option<String>,
    /// Game pairs per pairing (each pair is two games on one deal, colours swapped) [default: 100].
    #[arg(long, value_name = "N")]
    pub pairs: Option<u64>,
    /// Fix this engine's rating: LABEL=ELO, e.g. greedy=0 [default: the first engine at 0].
    /// Intervals are relative to it, as in Ordo.
    #[arg(long, value_name = "LABEL=ELO")]
    pub anchor: Option<String>,
    /// Bootstrap resamples of pair indices for the 95 % intervals and CFS, 100 to 100000
    /// [default: 1000].
    #[arg(long, value_name = "N")]
    pub bootstrap: Option<usize>,
    /// Limits, deals, output.
    #[command(flatten)]
    pub run: RunArgs,
}
