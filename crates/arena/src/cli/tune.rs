//! Arguments of `arena tune`.

use std::path::PathBuf;

use clap::Args;

/// `arena tune` arguments.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// Results folders whose games to learn from (of `arena match` or `sprt`, or a tournament's
    /// pairings/NN folders). Games between any engines count. Each folder once: the same folder
    /// twice, or two copies of one run, are refused.
    #[arg(value_name = "DIR", required_unless_present = "data")]
    pub dirs: Vec<PathBuf>,
    /// Training data chunks to learn from too (of `arena label`, docs/data.md): .jqd files, or
    /// folders whose .jqd files are all read (in name order). Each position's score target is
    /// its label search's score (so give --lambda below 1 to use it), its result its game's.
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The weights to start from: a JSON file like configs/eval/default.json [default: the
    /// built-in hand-crafted weights, those of configs/eval/default.json].
    #[arg(long, value_name = "PATH")]
    pub eval: Option<PathBuf>,
    /// Where to write the tuned weights (JSON, replaced atomically). Load them with
    /// `alphabeta:eval=PATH`.
    #[arg(long, value_name = "PATH", value_parser = crate::cli::common::out_path)]
    pub out: PathBuf,
    /// The share of the games held out of the fit, to measure it on games it did not see, in
    /// [0, 0.9).
    #[arg(long, value_name = "FRACTION", default_value_t = 0.1)]
    pub holdout: f64,
    /// Plies skipped at the start of every game (the opening says little about the result).
    #[arg(long, value_name = "PLIES", default_value_t = 10)]
    pub skip: usize,
    /// Steps of the weights' fit (Adam), 1 to 1000000.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub iterations: u32,
    /// The step size of the fit, in centipawns, more than 0 and at most 100.
    #[arg(long, value_name = "CP", default_value_t = 0.5)]
    pub rate: f64,
    /// Weights kept as they are, by name (comma-separated, e.g. `pawn,tempo`; a whole
    /// piece-square table as `pst.horse`, one of its values as `pst.horse[12]`). `king` is always
    /// kept (both kings are always on the board, so the games cannot tell its value).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub fix: Vec<String>,
    /// Most positions read (a bound on memory), 1000 to 100000000; the rest of the games are not
    /// read.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub max_positions: usize,
    /// The share of the game result in each position's target; the rest is the win probability
    /// of the score the engine's search gave that position when it was played (as recorded in
    /// games.jsonl: `+1.25` pawns, `#3` a mate), which is less noisy than one game's result. 1:
    /// results only (plain Texel tuning). In [0, 1].
    #[arg(long, value_name = "SHARE", default_value_t = 1.0)]
    pub lambda: f64,
    /// Fit the piece-square tables too (a table per role and one for hidden pieces, 50 squares
    /// each: 400 more weights), not only the scalar weights.
    #[arg(long)]
    pub pst: bool,
    /// Pull towards the starting weights: this much times the sum of each weight's squared
    /// change (in centipawns) is added to the loss, so weights the games say little about stay
    /// near where they were. 0: none; in [0, 1].
    #[arg(long, value_name = "L", default_value_t = 0.0)]
    pub l2: f64,
    /// Seed of the training / held-out split of the games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}
