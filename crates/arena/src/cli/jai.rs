//! Arguments of `arena jai`.

use clap::Args;

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
    /// Results folder, an ordinary `arena match` folder (JAI option OutDir; empty:
    /// results/<UTC timestamp>-<A>-vs-<B>/ when the match starts).
    #[arg(long, value_name = "DIR", default_value = "")]
    pub out: String,
}
