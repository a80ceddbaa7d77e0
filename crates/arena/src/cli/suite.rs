//! Arguments of `arena suite` and its kinds (`mates`, `tactics`).

use std::path::PathBuf;

use clap::{Args, Subcommand};

/// `arena suite` arguments.
#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// What kind of suite to make.
    #[command(subcommand)]
    pub kind: SuiteKind,
}

/// The kinds of suite.
#[derive(Debug, Subcommand)]
pub enum SuiteKind {
    /// Mate-in-N positions from games that ended in mate (rules without hidden pieces).
    Mates(MatesArgs),
    /// Positions where one move wins material by force whatever the hidden pieces are.
    Tactics(TacticsArgs),
}

/// Arguments every kind takes.
#[derive(Debug, Args)]
pub struct CommonArgs {
    /// Results folders whose games to mine (of `arena match`, `sprt`, or a tournament's
    /// pairings/NN folders).
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// The suite file to write (replaced atomically).
    #[arg(long, value_name = "PATH", value_parser = crate::cli::common::out_path)]
    pub out: PathBuf,
    /// Worker threads for the proofs [default: the number of cores].
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Node budget of each proof: a position whose proof needs more is left out (and counted).
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub budget: u64,
}

/// `arena suite mates` arguments.
#[derive(Debug, Args)]
pub struct MatesArgs {
    /// Folders, output, threads, budget.
    #[command(flatten)]
    pub common: CommonArgs,
    /// Longest mate looked for, in moves of the side to move.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_moves: u32,
    /// Most positions kept per mate length (the first found, in game order).
    #[arg(long, value_name = "K", default_value_t = 30)]
    pub per_length: usize,
}

/// `arena suite tactics` arguments.
#[derive(Debug, Args)]
pub struct TacticsArgs {
    /// Folders, output, threads, budget.
    #[command(flatten)]
    pub common: CommonArgs,
    /// Material the move must win by force, in centipawns (pawn 100, advisor and elephant 200,
    /// horse 400, cannon 450, chariot 900).
    #[arg(long, value_name = "CP", default_value_t = 300)]
    pub min_gain: i32,
    /// Full-width plies of the proof, the move itself included (then captures until quiet).
    #[arg(long, value_name = "PLIES", default_value_t = 2)]
    pub depth: u32,
    /// Fewest hidden pieces on the board (both sides) for a position to count.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_hidden: u32,
    /// Plies skipped at the start of every game.
    #[arg(long, value_name = "PLIES", default_value_t = 10)]
    pub skip: usize,
    /// Largest material lead of either side, in centipawns, for a position to count (hidden
    /// pieces at the mean value of their pool): in a game already won, winning more material is
    /// rarely the best move.
    #[arg(long, value_name = "CP", default_value_t = 300)]
    pub max_balance: i32,
    /// Most positions kept from one game.
    #[arg(long, value_name = "K", default_value_t = 2)]
    pub per_game: usize,
    /// A position is left out when a move other than the winning one mates: the exhaustive
    /// mate prover (every reveal outcome must mate) looks for mates of up to this many moves,
    /// within --budget nodes (a position whose search runs over is left out too, and counted).
    ///
    /// Each move more costs about 15 times the nodes: 4 moves take well under a second a
    /// position, 5 moves a few seconds (--budget 20000000).
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub mate_moves: u32,
    /// Most positions kept in all (the first found, in game order).
    #[arg(long, value_name = "K", default_value_t = 150)]
    pub max: usize,
}
