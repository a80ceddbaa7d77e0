//! Arguments of `arena view`.

use std::path::PathBuf;

use clap::Args;

/// Arguments of `arena view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// A results folder (of `arena match`, `sprt`, `tournament` or `leak`, a shard or a merge).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The game: its number in the folder's games.csv ("game 37"; in a tournament or leak folder
    /// it is found in its pairing's folder, as `arena replay --game N` finds it); with --pair,
    /// game 1 (engine A Red) or 2 (engine A Black) of that pair.
    #[arg(long, value_name = "N")]
    pub game: u64,
    /// With --game 1|2: the pair index (a match folder only: in a tournament or leak folder a
    /// pair index names several games, so give --game N).
    #[arg(long, value_name = "P")]
    pub pair: Option<u64>,
    /// Where to write the page [default: games/game-<N>.html in the match folder that holds the
    /// game, N its number in that folder's games.csv]. An existing file is replaced atomically,
    /// a link's target is written; the folder's own results files are refused.
    #[arg(long, value_name = "FILE", value_parser = crate::cli::common::out_path)]
    pub out: Option<PathBuf>,
}
