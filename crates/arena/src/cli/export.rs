//! Arguments of `arena export`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// Arguments of `arena export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A results folder (of `arena match`, `sprt`, `tournament` or `leak`, a shard or a merge).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Only this game: its number in games.csv; with --pair, game 1 or 2 of that pair. Without
    /// it, every game of the folder, in number order.
    #[arg(long, value_name = "N")]
    pub game: Option<u64>,
    /// With --game 1|2: the pair index (a match folder only: in a tournament or leak folder it
    /// names several games, so give --game N).
    #[arg(long, value_name = "P", requires = "game")]
    pub pair: Option<u64>,
    /// Also export the games the run did not count: the pairs that finished after a gate's
    /// SPRT stopped it (up to one pair per thread finishes past the stop), and pairs beyond
    /// --pairs after a resume with fewer. Each is marked: a `[Counted "no"]` tag in PGN,
    /// `"counted": false` in JieqiBox's metadata. Without this flag they are left out, and
    /// export says how many (on its summary line, or on standard error when the games go to
    /// standard output).
    #[arg(long)]
    pub beyond_stop: bool,
    /// The format: pgn (every game in one file) or jieqibox (JieqiBox's notation JSON, one file
    /// per game).
    #[arg(long, value_enum, default_value_t = Format::Pgn)]
    pub format: Format,
    /// Where to write: a file (PGN, or JieqiBox with one game), or a folder (JieqiBox with
    /// several games: game-<number>.json each, the numbers zero-padded to one width so that
    /// they sort) [default: standard output, for PGN and for one JieqiBox game]. An existing
    /// file is replaced atomically, a link's target is written, a device (/dev/stdout) is
    /// written through; the folder's own results files are refused.
    #[arg(long, value_name = "PATH", value_parser = crate::cli::common::out_path)]
    pub out: Option<PathBuf>,
}

/// An export format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// PGN with `[Variant "jieqi"]` and a FEN tag.
    Pgn,
    /// JieqiBox's notation JSON.
    Jieqibox,
}
