//! Arguments of `arena analyze`.

use std::path::PathBuf;

use clap::Args;

use crate::cli::common::LimitArgs;

/// Arguments of `arena analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// What to analyse: a results folder (of `arena match`, `sprt`, `tournament` or `leak`, a
    /// shard or a merge) with --game N or --games LIST, or a game file: a PGN that `arena export`
    /// wrote, or a JieqiBox notation JSON (`arena export --format jieqibox`, or saved by
    /// JieqiBox).
    #[arg(value_name = "INPUT")]
    pub input: PathBuf,
    /// The game: its number in the folder's games.csv (in a tournament or leak folder, found in
    /// its pairing's folder as `arena replay --game N` finds it); with --pair, game 1 or 2 of
    /// that pair; in a PGN file, its `Number` tag (the first game when the file has one game
    /// and this is not given).
    #[arg(long, value_name = "N", conflicts_with = "games")]
    pub game: Option<u64>,
    /// With --game 1|2: the pair index (a match folder only).
    #[arg(long, value_name = "P", requires = "game")]
    pub pair: Option<u64>,
    /// Several games of a results folder: numbers and ranges (`1,4,10-20`) of games.csv, or
    /// `all`. With --pairing, the numbers are that pairing folder's own.
    #[arg(long, value_name = "LIST")]
    pub games: Option<String>,
    /// A tournament's or leak run's pairing folder to take --games from: its index from 1, or
    /// its path under `pairings/` or `arms/` (`01-greedy-vs-random`, `01-greedy/fair`), or any
    /// end of that path that names one folder only (`fair` when one engine is measured).
    #[arg(long, value_name = "NAME", requires = "games")]
    pub pairing: Option<String>,
    /// The reference engine that judges every ply [default: alphabeta]. Any engine spec; an
    /// external (`uci:`) engine is given `go … searchmoves` to score the move played, and gets
    /// no omniscient search.
    #[arg(long, value_name = "SPEC", default_value = "alphabeta")]
    pub engine: String,
    /// The limits of each search [default: --nodes 100000, reproducible]. The reference searches
    /// each ply up to three times: its best move, the move played, and with the truth in view.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Skip the omniscient search (the reference with every hidden piece in view), which is only
    /// contrast: the verdicts come from the mover's own view.
    #[arg(long)]
    pub no_omniscient: bool,
    /// The seed every search's seed is mixed from: the same seed, reference and limits give the
    /// same analysis.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Plies searched at once [default: the number of cores]. The analysis is the same at any
    /// count.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// The hard limit of one search, in milliseconds [default: 5 minutes, or 2 × --movetime + 5
    /// s]: past it the analysis stops with an error naming the ply.
    #[arg(long, value_name = "MS", value_parser = crate::cli::common::milliseconds)]
    pub move_timeout: Option<u64>,
    /// Where to write the analysis JSON (every game analysed, in one file) [default: a game of a
    /// results folder goes to its match folder's analysis/game-<N>.json; a game file's to
    /// <file>.analysis.json beside it]. An existing file is replaced atomically.
    #[arg(long, value_name = "FILE", value_parser = crate::cli::common::out_path)]
    pub out: Option<PathBuf>,
    /// Where to write the game viewer page with the analysis (one game) [default: beside the
    /// JSON, the same name ending .html]. The games index of the game's folder (games.html)
    /// links it.
    #[arg(long, value_name = "FILE", value_parser = crate::cli::common::out_path)]
    pub html: Option<PathBuf>,
    /// Print every ply's verdict, not only the classified moves and the chance events that
    /// moved the score by 5 % or more.
    #[arg(long)]
    pub all_plies: bool,
    /// Never draw a progress bar (it is drawn only when stderr is a terminal).
    #[arg(long)]
    pub no_progress: bool,
}
