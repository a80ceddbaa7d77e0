//! The raw command line, as clap parses it. Nothing here is checked beyond its type;
//! [`crate::plan`] validates it.

use clap::{Args, Parser, Subcommand};

/// Self-play tournament harness and tools for Jieqi (揭棋, "uncovering xiangqi") engines.
#[derive(Debug, Parser)]
#[command(name = "arena", version, propagate_version = true)]
pub struct Cli {
    /// The subcommand to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaves of the move tree below a position (checks move generation).
    ///
    /// A move by a hidden piece branches once per identity still in the mover's pool (the
    /// public game tree), so Jieqi counts are larger than the number of from-to moves.
    Perft(PerftArgs),
    /// Print a position as a board a person can read, with pools, FEN and check status.
    Show(ShowArgs),
}

/// `--rules`, shared by every subcommand.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Rule set: a preset (standard, xiangqi, simple) or a JSON rules file.
    ///
    /// A file holds a serialized rule set: every field of jieqi_core::Rules, enum values in
    /// kebab-case, unknown fields refused (see configs/rules/*.json). A preset name wins over a
    /// file of the same name; write ./NAME for the file.
    #[arg(long, value_name = "R", default_value = "standard")]
    pub rules: String,
}

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
