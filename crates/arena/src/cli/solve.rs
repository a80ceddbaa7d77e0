//! Arguments of `arena solve`.

use std::path::PathBuf;

use clap::Args;

use crate::cli::common::{LimitArgs, RulesArgs};

/// `arena solve` arguments.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The suite: one position a line, FEN then operations (`bm`, `am`, `dm N`, `id "name"`,
    /// `c0`…`c9`), each ended by `;`; lines starting with `;` or `#` are comments.
    ///
    /// Lines that do not hold up are reported with their numbers and skipped. See
    /// configs/suites/README.md for the format and the suites we ship.
    #[arg(value_name = "SUITE")]
    pub suite: PathBuf,
    /// An engine to run (repeatable, to compare engines on the same positions): a spec such as
    /// `alphabeta:threads=2`, `mcts-solver`, `uci:path=…`, or a JSON file of configs/engines/.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// Search limits for every position.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Positions searched at once [default: the number of cores]. An engine's own threads
    /// (`alphabeta:threads=2`) come on top: with a time limit, keep the product at most the
    /// number of cores.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// The rule set the suite's positions are played under (`xiangqi` for plain Xiangqi suites).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Master seed: position i is searched with seed mix(S, i).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// A search taking longer than this many milliseconds counts as a failure.
    ///
    /// Default: the movetime plus 1000 ms, or 60000 ms with no time limit. An external engine
    /// whose spec sets `timeout=MS` has that limit instead, longer or shorter.
    #[arg(long, value_name = "MS", value_parser = crate::cli::common::milliseconds)]
    pub move_timeout: Option<u64>,
    /// Results folder for solve.json, solve.csv and the journal solve.jsonl [default:
    /// results/<UTC timestamp>-solve-<suite name>/].
    #[arg(long, value_name = "DIR", value_parser = crate::cli::common::out_path)]
    pub out: Option<PathBuf>,
    /// Continue the interrupted run in --out: the positions in its journal (solve.jsonl, one
    /// line per finished position) are kept, the rest are searched.
    ///
    /// The suite's content, the engines, the rules, the limits, --move-timeout and --seed must
    /// be the run's (a resume with others is refused); --threads may differ.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// For CI: exit with status 1 (as `arena sprt` when H0 is accepted) unless every engine
    /// solved at least N positions, or P % of the suite's valid positions (`--min-solved 40`,
    /// `--min-solved 87.5%`).
    ///
    /// The table, the files and a line saying whether each engine passed are written either
    /// way. N must be from 1 to the number of positions, P above 0 and at most 100.
    #[arg(long, value_name = "N|P%")]
    pub min_solved: Option<String>,
    /// Check every `mate N` an engine reports with the exhaustive mate prover, which branches
    /// over every identity a hidden piece may reveal, within this many prover nodes (0: no
    /// check).
    ///
    /// A claim the prover refutes is shown as such, and a `dm` position whose mate claim is
    /// refuted is not solved; the summary counts claims proved, refuted and unknown (budget).
    /// The check runs after the search and is not in its time.
    #[arg(long, value_name = "N", default_value_t = jieqi_search::mate::CLAIM_NODES)]
    pub mate_check_nodes: u64,
    /// Print only the positions an engine did not solve (the summary is always printed).
    #[arg(long)]
    pub failed_only: bool,
    /// Never draw a progress bar (it is only drawn when stderr is a terminal anyway).
    #[arg(long)]
    pub no_progress: bool,
}
