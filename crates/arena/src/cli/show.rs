//! Arguments of `arena show`.

use clap::Args;

use crate::cli::common::RulesArgs;

/// Arguments of `arena show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The rule set.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Position to show, as a FEN [default: the rules' start position].
    #[arg(long, value_name = "FEN", conflicts_with = "seed")]
    pub fen: Option<String>,
    /// Show the start position with the deal this seed names, and the truth (referee only).
    ///
    /// The seed goes through the project's canonical seed → deal mapping (the same one matches
    /// and replays use). The output reveals every hidden identity, which players must not see.
    /// Needs rules with hidden pieces.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Draw pieces as Chinese characters instead of FEN letters.
    ///
    /// Red 俥傌相仕帥炮兵 in square brackets (and red on a terminal unless NO_COLOR is set), Black
    /// 車馬象士將砲卒, hidden pieces 暗.
    #[arg(long)]
    pub unicode: bool,
}
