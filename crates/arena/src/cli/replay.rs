//! Arguments of `arena replay`.

use clap::Args;

use crate::cli::common::{LimitArgs, RulesArgs};

/// Arguments of `arena replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A results folder (of `arena match`, `sprt`, `tournament` or `leak`): the game --game N
    /// (or --pair P --game 1|2) recorded there. Under reproducible limits (nodes, depth) it is
    /// played again and compared with the record (deal, every move, result and termination);
    /// under time limits, or when it ended by a timeout or crash, it is shown as recorded and
    /// the output says why.
    #[arg(value_name = "DIR", conflicts_with_all = ["seed", "red", "black"])]
    pub dir: Option<std::path::PathBuf>,
    /// With DIR (a match folder: in a tournament or leak folder a pair index names several
    /// games, so give --game N): the pair index (then --game is 1 or 2).
    #[arg(long, value_name = "P", requires = "dir")]
    pub pair: Option<u64>,
    /// With DIR: the game's number in the folder's games.csv ("game 37"); with --pair, game 1
    /// (engine A Red) or 2 (engine A Black) of that pair.
    #[arg(long, value_name = "N", requires = "dir")]
    pub game: Option<u64>,
    /// With DIR: print the recorded game ply by ply (moves, reveals, captures, search info, the
    /// public and true boards at the end or with --boards, the result) without running any
    /// engine.
    #[arg(long, requires = "dir", conflicts_with = "recheck")]
    pub show: bool,
    /// With DIR: play the game again even under time limits (it may differ: the engines think
    /// for as long as the machine lets them).
    #[arg(long, requires = "dir")]
    pub recheck: bool,
    /// Without DIR: the deal seed of the game (a pair's seed as games.csv lists it).
    #[arg(long, value_name = "S", requires_all = ["red", "black"])]
    pub seed: Option<u64>,
    /// Without DIR: Red's engine spec.
    #[arg(long, value_name = "SPEC")]
    pub red: Option<String>,
    /// Without DIR: Black's engine spec.
    #[arg(long, value_name = "SPEC")]
    pub black: Option<String>,
    /// The rule set (without DIR; a results folder brings its own).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Search limits (without DIR; a results folder brings its own).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Adjudication cap (without DIR).
    #[arg(long, value_name = "PLIES", default_value_t = 400)]
    pub max_plies: u32,
    /// Stop after this ply and show the board there.
    #[arg(long, value_name = "K")]
    pub ply: Option<usize>,
    /// Draw the boards after every ply: the public board (what both players see) and the true
    /// board (every hidden identity shown), the ply's move marked — `*` where it came from, its
    /// piece in parentheses where it went.
    #[arg(long)]
    pub boards: bool,
    /// Draw pieces as Chinese characters.
    #[arg(long)]
    pub unicode: bool,
}
