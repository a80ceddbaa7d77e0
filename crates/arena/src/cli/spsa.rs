//! Arguments of `arena spsa`.

use clap::Args;

/// Arguments of `arena spsa`.
#[derive(Debug, Args)]
pub struct SpsaArgs {
    /// The base engine: an in-process spec (`alphabeta:hash=16`), whose tuned values are added as
    /// keys (`alphabeta:hash=16,NAME=V`), or an external one (`uci:path=PATH`), whose values are
    /// sent as spin options (`option.NAME=V`). An engine that does not take every parameter at
    /// its min and at its max is refused before the first game.
    #[arg(long, value_name = "SPEC")]
    pub engine: String,
    /// The parameters file: one a line, `NAME, int|float, start, min, max, c_end, r_end`
    /// (fishtest/OpenBench format; `#` comments and blank lines allowed; at most 64 parameters,
    /// 1 MB). int values are rounded when put into the spec.
    #[arg(long, value_name = "FILE")]
    pub params: std::path::PathBuf,
    /// N: iterations, one colour-swapped pair of θ+c_k·Δ against θ−c_k·Δ each (N enters the
    /// gains: a resume cannot change it).
    #[arg(long, value_name = "N")]
    pub iterations: u64,
    /// B: iterations per batch, all played from θ at the batch's start and applied in order
    /// after it. Fixed (not the thread count), so the θ path is the same on any machine; give
    /// at least --threads to keep every worker busy.
    #[arg(long, value_name = "B", default_value_t = 8)]
    pub batch: u64,
    /// A as a share of N (fishtest: 0.1): a_k = a/(A+k+1)^0.602.
    #[arg(long, value_name = "R", default_value_t = 0.1)]
    pub a_ratio: f64,
    /// Master seed: iteration k plays pair k's deal (seed mix(S, k)) and draws its Δ from
    /// ChaCha stream k of S.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads [default: the number of cores]. Changes no game and no θ.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// The games: rules, limits, clock, book and adjudication, as `arena match` takes them.
    /// A clock or --movetime makes the θ path depend on the machine.
    #[command(flatten)]
    pub game: crate::cli::run::GameArgs,
    /// The run folder: spsa.json (the tuner's whole state, rewritten after every batch),
    /// spsa.csv (θ after each batch), spsa.html (each parameter's path), spsa.txt (the result).
    /// The games themselves are not kept.
    #[arg(long, value_name = "DIR", value_parser = crate::cli::common::out_path)]
    pub out: std::path::PathBuf,
    /// Continue the run in --out from its spsa.json: the same θ path as an uninterrupted run.
    /// The flags must be the run's own (its fingerprint: engine, parameters, iterations, batch,
    /// A, seed, rules, limits, book, adjudication); --threads may differ.
    #[arg(long)]
    pub resume: bool,
    /// Let --resume continue a run that another build started (another arena binary, unless
    /// both are clean builds of one commit, or another executable of the external engine).
    /// Without it such a resume is refused; with it the record lists each build with the
    /// iteration it took over from (`builds`).
    #[arg(long)]
    pub allow_mixed_builds: bool,
    /// Print a progress line on stderr after every N batches (0: never) [default: 1, at most
    /// one line a second].
    #[arg(long, value_name = "N")]
    pub report_every: Option<u64>,
    /// Keep every game's UCI traffic with external engines in --out/logs/, as `arena match
    /// --log` (game numbers 2k+1 and 2k+2 for iteration k).
    #[arg(long)]
    pub log: bool,
}
