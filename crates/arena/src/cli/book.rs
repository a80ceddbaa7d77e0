//! Arguments of `arena book`.

use clap::Args;

use crate::cli::common::RulesArgs;

/// Arguments of `arena book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// The rule set of the book's positions.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The book file to write (EPD: one FEN a line, with `ce` and `id` operations).
    #[arg(long, value_name = "FILE", value_parser = crate::cli::common::out_path)]
    pub out: std::path::PathBuf,
    /// Positions to write.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub positions: usize,
    /// Plies from the start position to each book position: N, or a range MIN-MAX drawn
    /// uniformly per position.
    #[arg(long, value_name = "N|MIN-MAX", default_value = "8")]
    pub plies: String,
    /// How each ply is chosen: `random` (uniform over the legal moves) or `engine` (the
    /// reference engine scores every legal move with --choose-nodes, restricted to it, and one
    /// of those within --margin of the best is drawn uniformly: a seeded multi-PV choice).
    #[arg(long, value_name = "HOW", default_value = "random")]
    pub choose: String,
    /// `--choose engine`: nodes of each root move's search.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub choose_nodes: u64,
    /// `--choose engine`: the centipawns below the best move a move may score and be drawn.
    #[arg(long, value_name = "CP", default_value_t = 40)]
    pub margin: i32,
    /// The reference engine that scores each candidate position (its spec, as --engine).
    #[arg(long, value_name = "SPEC", default_value = "alphabeta")]
    pub engine: String,
    /// Nodes of the reference search that scores a candidate position.
    #[arg(long, value_name = "N", default_value_t = 5000)]
    pub nodes: u64,
    /// Keep a position only when the reference search scores it within ±CP centipawns for the
    /// side to move (a mate score never).
    #[arg(long, value_name = "CP", default_value_t = 60)]
    pub max_score: i32,
    /// Seed: candidate k plays its plies (and, in Jieqi, its deal) from mix(S, k). The same
    /// seed and flags write the same book at any --threads.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Give up after this many candidates [default: 50 × --positions].
    #[arg(long, value_name = "N")]
    pub max_candidates: Option<u64>,
    /// Worker threads [default: the number of cores].
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
}
