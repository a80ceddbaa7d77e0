//! Arguments of `arena jai`.

use clap::Args;

/// The display delay when none is given, in milliseconds: a move every half second at most,
/// what a watcher can follow (a match whose moves take longer is not slowed).
pub const DEFAULT_DISPLAY_DELAY: u64 = 500;
/// The longest display delay taken, in milliseconds: ten seconds a move.
pub const MAX_DISPLAY_DELAY: u64 = 10_000;

/// Arguments of `arena jai`: the match's settings, each also a JAI option that JieqiBox's
/// "Match Options" dialog can change before `startmatch`.
#[derive(Debug, Args)]
pub struct JaiArgs {
    /// The two engines (JAI options Engine1 and Engine2): any spec `arena match` takes, such as
    /// `alphabeta`, `uci:path=/path/to/engine` or a JSON file from configs/engines/
    /// [default: alphabeta and ismcts].
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// Number of game pairs (JAI option TotalRounds): each pair is two games on one deal,
    /// colours swapped.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub pairs: u64,
    /// Nodes or iterations per move (JAI option Nodes; 0: none).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub nodes: u64,
    /// Search depth per move (JAI option Depth; 0: none).
    #[arg(long, value_name = "D", default_value_t = 0)]
    pub depth: u32,
    /// Milliseconds per move (JAI option MoveTimeMs; 0: none).
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = crate::cli::common::milliseconds)]
    pub movetime: u64,
    /// A clock for both engines, as `arena match --tc` (JAI option TimeControl; empty: none).
    #[arg(long, value_name = "TC", default_value = "")]
    pub tc: String,
    /// Rule set: a preset (standard, xiangqi, simple) or a JSON rules file (JAI option Rules).
    #[arg(long, value_name = "R", default_value = "standard")]
    pub rules: String,
    /// Master seed: pair p deals from mix(S, p) (JAI option Seed).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (JAI option Concurrency). JieqiBox shows one board: with more than
    /// one, it shows one game move by move at a time (the next to start when it ends) while
    /// the others play unseen, and the W-L-D counts them all.
    #[arg(long, value_name = "T", default_value_t = 1)]
    pub threads: usize,
    /// The folder that holds the matches (JAI option OutDir; empty: results/ in the runner's
    /// working directory, which is the arena binary's folder when JieqiBox starts it). Each match
    /// gets a new folder in it, <UTC timestamp>-<A>-vs-<B>, an ordinary `arena match` folder;
    /// every path is printed absolute.
    #[arg(long, value_name = "DIR", default_value = "")]
    pub out: String,
    /// Continue a stopped match instead of starting a new one (JAI option Resume): the match
    /// the folder given as OutDir holds, else the newest match started from JieqiBox in it, as
    /// its record describes it, to TotalRounds pairs.
    #[arg(long)]
    pub resume: bool,
    /// Milliseconds at least between two moves shown (JAI option DisplayDelayMs; 0: as fast as
    /// they are played). Only the shown game waits, outside the engines' clocks; moves that
    /// take longer are not delayed.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_DISPLAY_DELAY,
          value_parser = clap::value_parser!(u64).range(0..=MAX_DISPLAY_DELAY))]
    pub display_delay: u64,
}
