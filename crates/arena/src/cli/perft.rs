//! Arguments of `arena perft`.

use clap::Args;

use crate::cli::common::RulesArgs;

/// Arguments of `arena perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The rule set.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Position to count from, as a FEN [default: the rules' start position].
    ///
    /// Pikafish 5-field (`board side pool halfmove fullmove`, X/x hidden), JieqiBox 6-field, or a
    /// plain Xiangqi FEN; missing trailing fields take defaults.
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Number of plies to count.
    #[arg(long, short = 'd', value_name = "D")]
    pub depth: u32,
    /// First print the count below each root move, as `move: count`.
    ///
    /// A hidden piece's move is listed once per identity it may reveal, e.g. `b0c2N: 1234`.
    #[arg(long)]
    pub divide: bool,
    /// End the output with one JSON line {"depth":D,"nodes":N,"seconds":S,"nps":R}.
    #[arg(long)]
    pub json: bool,
}
