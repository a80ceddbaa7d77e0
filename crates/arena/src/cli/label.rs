//! Arguments of `arena label`.

use std::path::PathBuf;

use clap::Args;

/// Arguments of `arena label`.
#[derive(Debug, Args)]
pub struct LabelArgs {
    /// Results folders whose games give the positions (of `arena match`, `sprt`, or a
    /// tournament's pairings/NN folders), read in the order given.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// The chunk to write (data/jieqi/chunk-0000.jqd, say); its provenance is written beside it
    /// with .json. An existing chunk is never replaced: the command refuses before any work.
    #[arg(long, value_name = "FILE", value_parser = crate::cli::common::out_path)]
    pub out: PathBuf,
    /// The label engine: an in-process spec (`arena engines` lists them). It searches each
    /// position as the side to move sees it; give it more nodes than the games' players had.
    #[arg(long, value_name = "SPEC", default_value = "alphabeta")]
    pub engine: String,
    /// Nodes of each label search, 1 to 100000000.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub nodes: u64,
    /// Positions in the chunk, exactly: the first this many quiet positions of the games (1 to
    /// 500000). Too few in the games is an error.
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    pub positions: usize,
    /// Plies skipped at the start of every game (as `arena tune --skip`).
    #[arg(long, value_name = "PLIES", default_value_t = 10)]
    pub skip: usize,
    /// Games labelled at once [default: the number of cores]. The chunk is the same at any
    /// number.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
}
