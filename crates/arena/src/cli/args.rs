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
    /// Play seeded, colour-swapped game pairs between two engines and report Elo, LOS and more.
    ///
    /// Pair p deals from seed_p = mix(S, p) and is played twice on that deal, engine A as Red then
    /// as Black. Results go to --out: games.csv, games.jsonl (replayable), summary.json,
    /// summary.txt. The same command gives the same games at any --threads.
    Match(MatchArgs),
    /// The merge gate: play pairs between NEW and BASE until the SPRT accepts H0 or H1 (or the
    /// cap is reached), and exit with the verdict.
    ///
    /// A fishtest/fastchess-style sequential test on the pentanomial counts of game pairs.
    /// Exit status: 0 = H1 accepted (the test passed: merge), 1 = H0 accepted (it failed: do
    /// not merge), 3 = inconclusive at --max-pairs, 5 = an engine failed (without --recover),
    /// 2 = bad usage or configuration, 4 = results could not be written. The verdict
    /// is taken on the longest finished prefix of pair indices, so with node or depth limits it
    /// does not depend on --threads. Pairs that finished beyond the stopping point stay in
    /// games.jsonl but are not counted.
    Sprt(SprtCmdArgs),
    /// Rate many engines: a round robin or gauntlet of seeded, colour-swapped pairs, Bradley–Terry
    /// ratings with bootstrap intervals, and a report a person opens in a browser.
    ///
    /// Pair p of every pairing is played on the same deal (seed mix(S, p)). Results go to --out:
    /// ratings.csv, ratings.json, report.md, report.html, summary.txt, games.jsonl (the
    /// journal; --resume continues it), and under pairings/ one ordinary match folder per
    /// pairing (`arena replay` reads them). Ratings are logistic Elo by maximum likelihood over
    /// all games (a draw is half a point), anchored at one engine; 95 % intervals and the
    /// likelihood of superiority of each engine over the next (CFS) come from a seeded bootstrap
    /// over pair indices.
    Tournament(TournamentArgs),
    /// Measure what seeing every hidden piece is worth to each engine: omniscient vs fair on the
    /// same deals, with a paired confidence interval for the difference.
    ///
    /// For each --engine E: arm F = E fair vs the opponent O, arm Ω = E omniscient vs O, and the
    /// head-to-head E omniscient vs E fair, pair p of every arm on the same deal (seed
    /// mix(S, p)). Without --opponent, O is E's own fair self: F is 0 by symmetry (not played)
    /// and Ω is the head-to-head. Reports per engine the Elo of F and Ω with 95 % intervals,
    /// Δ = Elo(Ω) − Elo(F) with a 95 % interval from a paired bootstrap over pair indices (and the
    /// independent interval beside it), the head-to-head, and what Δ says: an engine that gains
    /// nothing while it searches ignores the hidden identities or already sees them (a leak).
    /// `--engine faulty:mode=peek` is a positive control: a harness leak the report must show
    /// at Δ ≈ 0. Results go to --out: leak.json, leak.md, summary.txt, games.jsonl (the journal;
    /// --resume continues it), and arms/NN-<engine>/{fair,omniscient,head-to-head}/, ordinary match
    /// folders that `arena replay` reads.
    Leak(LeakArgs),
    /// Put the shards of a match or tournament (run with --shard K/N on several machines) back
    /// together: check they belong together, and write the results one machine would have.
    ///
    /// Refuses shards of different runs (fingerprint: harness version, engine specs, rules, seed,
    /// limits), different N, the same shard twice, pairs recorded twice, and missing pairs
    /// (unless --partial). Prints a chi-square homogeneity test across shards and flags a shard
    /// whose results differ from the others by more than chance (a broken worker). Exit status:
    /// 0 merged, 2 refused, 4 results could not be written.
    Merge(MergeArgs),
    /// Write DIR/index.html for a folder of nightly tournaments: links to every night, the
    /// latest rating list, and every engine's rating over time.
    History(HistoryArgs),
    /// Replay one seeded game exactly, ply by ply, or check a game recorded in a results folder.
    Replay(ReplayArgs),
    /// Write the games of a results folder as PGN ([Variant "jieqi"], a FEN tag, moves with their
    /// reveal letters) or as JieqiBox notation JSON, for a GUI to load.
    Export(crate::commands::export::ExportArgs),
    /// Fit the evaluation's weights to the results of recorded games (Texel tuning): positions
    /// from the folders' games.jsonl, labelled with their games' results, a held-out share of the
    /// games to measure the fit, and the tuned weights written as JSON for `alphabeta:eval=PATH`.
    Tune(crate::commands::tune::TuneArgs),
    /// Run engines over a test suite (an EPD-style file of positions with bm/am/dm) and report
    /// which positions each solved, and the time and nodes each took to find the answer.
    ///
    /// Positions are searched --threads at once, each by a fresh engine asked once as in a game.
    /// A position is solved when the answer is right: one of its `bm` moves, none of its `am`
    /// moves, and for `dm N` a reported `mate M` with M <= N. The time to solution is when the
    /// answer became right for good (from the engine's interim reports). Prints a table per
    /// engine and `solved X / Y`; writes solve.json and solve.csv to --out. Lines of the suite
    /// that do not hold up are reported with their numbers and skipped.
    Solve(crate::commands::solve::SolveArgs),
    /// Make a test suite for `arena solve` from recorded games, every position verified by an
    /// exhaustive search: `mates` (mate in N, no shorter; rules without hidden pieces) or
    /// `tactics` (one move wins material by force whatever the hidden pieces are).
    Suite(crate::commands::suite::SuiteArgs),
    /// Print the result block (Elo, nElo, LOS, SPRT LLR) from pentanomial or W/D/L counts alone.
    Stats(crate::commands::stats::StatsArgs),
    /// List the engines `--engine` accepts, with their parameters.
    Engines,
    /// Speed figures on fixed inputs: perft nodes/s, playouts/s, and each engine's nodes/s.
    Bench(BenchArgs),
}

/// Arguments of `arena bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Perft depth on the Xiangqi start position.
    #[arg(long, value_name = "D", default_value_t = 5)]
    pub perft_depth: u32,
    /// Random playouts to time per rule set (simple and standard start positions).
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub playouts: u64,
    /// An engine to time (repeatable) [default: random, greedy, level:hard, flat-uct:sims=2000,
    /// ismcts:iters=20000, alphabeta:depth=2].
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// Search limits for every engine move.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// End with one JSON object holding every figure.
    #[arg(long)]
    pub json: bool,
}

/// Per-move search limits, shared by `match`, `sprt`, `replay` and `bench`.
#[derive(Debug, Args, Clone)]
pub struct LimitArgs {
    /// Nodes (alpha-beta) or iterations (MCTS) per move. Reproducible.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search depth per move, in plies. Reproducible.
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Milliseconds per move. Not reproducible: prefer --nodes for tests.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
}

/// What every game-playing command takes: the engines, the deals, the limits, the output.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Master seed: pair p deals from mix(S, p).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads [default: the number of cores].
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// The rule set.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Adjudicate a game as a draw after this many plies (reason `max-plies`).
    #[arg(long, value_name = "PLIES", default_value_t = 400)]
    pub max_plies: u32,
    /// Search limits given to both engines on every move.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// A clock for both engines, fastchess style: SECONDS[+INCREMENT] or MOVES/SECONDS[+INC],
    /// e.g. 10+0.1 or 40/60+0.6.
    ///
    /// Each side's clock runs while its engine thinks; in-process engines get the clocks and
    /// decide their own move time, UCI engines get `go wtime btime winc binc [movestogo]`. A move
    /// that takes longer than the time left (plus --timemargin) loses on time (`time-forfeit`).
    /// Not reproducible, like --movetime.
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Milliseconds a move may overrun its clock before it loses on time (with a clock).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub timemargin: u64,
    /// A move taking longer than this many milliseconds loses the game (reason `timeout`).
    ///
    /// The engine's stop flag is set at this limit, and an engine that does not stop is not
    /// waited for. Default: the movetime plus 1000 ms; with a clock, the clock itself (plus
    /// --timemargin); with neither, 60000 ms. In-process and external engines get the same.
    #[arg(long, value_name = "MS")]
    pub move_timeout: Option<u64>,
    /// Results folder [default: results/<UTC timestamp>-<A>-vs-<B>/, for a tournament
    /// results/<UTC timestamp>-tournament/, for a leak run results/<UTC timestamp>-leak/].
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
    /// Continue the interrupted run in --out: finished pairs are kept, the rest are played.
    ///
    /// With --out alone (no --engine) the run is taken from the folder's record (match.json,
    /// tournament.json or leak-run.json) as it was started; --threads, --no-progress and a new
    /// --pairs cap may still be given. Results folders are locked while a run writes them.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Never draw a progress bar (it is only drawn when stderr is a terminal anyway).
    #[arg(long)]
    pub no_progress: bool,
    /// Keep every game's UCI traffic with external engines in --out/logs/game-<number>.log
    /// (<number> as in games.csv): each line sent (>) and read (<), with the time since the
    /// game started, the side and the engine; at most 16 MiB a game. External engines' error
    /// output is kept in logs/<NN>-<engine>.stderr.log (1 MiB each) with or without this flag.
    #[arg(long)]
    pub log: bool,
    /// Play only shard K of N: the pairs p with p ≡ K (mod N), K counted from 0.
    ///
    /// Run the N shards on N machines (Slurm array, Kubernetes indexed job, GNU parallel: see
    /// scripts/cluster/), then `arena merge` their folders: the merged results equal one
    /// machine's run. The folder records the shard.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

/// Arguments of `arena match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// An engine: a spec such as `greedy:noise=0.3`, or a JSON file from configs/engines/. Give
    /// exactly two; results are reported for the first against the second.
    #[arg(long = "engine", value_name = "SPEC", long_help = ENGINE_HELP_TWO)]
    pub engines: Vec<String>,
    /// Limits, deals, output.
    #[command(flatten)]
    pub run: RunArgs,
    /// Number of game pairs (each pair is two games on one deal, colours swapped).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub pairs: u64,
    /// Give engine A, engine B or both an omniscient view (every hidden piece visible), to
    /// measure what hidden information is worth. The summary says so; `arena leak` measures it
    /// with paired intervals.
    #[arg(long, value_name = "A|B|both")]
    pub omniscient: Option<String>,
    /// Also report the SPRT (it does not stop the match; `arena sprt` does).
    #[command(flatten)]
    pub sprt: crate::cli::sprt_args::SprtArgs,
}

/// Arguments of `arena sprt`.
#[derive(Debug, Args)]
pub struct SprtCmdArgs {
    /// An engine: NEW first, then BASE (a spec such as `alphabeta:hash=32`, or a JSON file from
    /// configs/engines/).
    #[arg(long = "engine", value_name = "SPEC", long_help = ENGINE_HELP_GATE)]
    pub engines: Vec<String>,
    /// Limits, deals, output.
    #[command(flatten)]
    pub run: RunArgs,
    /// H0: NEW − BASE = ELO0 (normalized Elo unless --model logistic).
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 0.0,
        allow_hyphen_values = true
    )]
    pub elo0: f64,
    /// H1: NEW − BASE = ELO1. fishtest's short test is [0, 2], its long one [0.5, 2.5], its
    /// non-regression test [−1.75, 0.25].
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 2.0,
        allow_hyphen_values = true
    )]
    pub elo1: f64,
    /// The test's model and error rates.
    #[command(flatten)]
    pub test: crate::cli::sprt_args::SprtTestArgs,
    /// The most pairs to play; the test is inconclusive (exit 3) if no bound is crossed by then.
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub max_pairs: u64,
    /// Count engine failures (crash, hang, protocol error, illegal move…) as losses and go on,
    /// as fastchess's -recover. Without it the gate stops at the first failure with exit 5: a
    /// verdict resting on a broken engine means nothing.
    #[arg(long)]
    pub recover: bool,
}

/// `--engine` of `match`.
const ENGINE_HELP_TWO: &str = concat!(
    "An engine: a spec such as `greedy:noise=0.3`, or a JSON file from configs/engines/. Give \
     exactly two; results are reported for the first against the second.\n\n",
    "Every spec also takes the arena's keys: name=LABEL (its name in reports; labels must be \
     unique) and limits for that engine alone, replacing the run's of the same kind: tc=, \
     movetime=, nodes=, depth= (e.g. `alphabeta:tc=5+0.05,name=half` for a time-odds match). \
     External engines: `uci:path=PATH,option.Hash=64`. `arena engines` lists them all."
);

/// `--engine` of `sprt`.
const ENGINE_HELP_GATE: &str = concat!(
    "An engine: NEW first, then BASE (a spec such as `alphabeta:hash=32`, or a JSON file from \
     configs/engines/). Give exactly two.\n\n",
    "Every spec also takes the arena's keys: name=LABEL (its name in reports; labels must be \
     unique) and limits for that engine alone: tc=, movetime=, nodes=, depth=. External \
     engines: `uci:path=PATH,option.Hash=64`."
);

/// Arguments of `arena tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// A tournament config (JSON): engines, pairings, pairs, seed, rules, limits, anchor.
    ///
    /// Keys (unknown keys are refused): engines (a list of specs as --engine takes them),
    /// gauntlet (a label), pairings (a list of [A, B] label pairs), pairs, seed, rules,
    /// max_plies, nodes, depth, movetime_ms, tc, timemargin_ms, move_timeout_ms, anchor
    /// ("LABEL=ELO"), bootstrap, leak (what `arena leak --config` measures; the tournament's
    /// report shows a leak table found in its leak/ folder). A flag given on the command line
    /// wins over the file's value; --engine cannot be combined with it. See configs/nightly.json.
    #[arg(long, value_name = "FILE")]
    pub config: Option<std::path::PathBuf>,
    /// An engine (two or more): a spec such as `greedy:noise=0.3`, or a JSON file from
    /// configs/engines/. Every spec also takes name=LABEL and its own tc=, movetime=, nodes=,
    /// depth=.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// A gauntlet: this engine (its label) plays each of the others, and they do not play each
    /// other [default: a round robin, every engine against every other].
    #[arg(long, value_name = "LABEL")]
    pub gauntlet: Option<String>,
    /// Game pairs per pairing (each pair is two games on one deal, colours swapped) [default: 100].
    #[arg(long, value_name = "N")]
    pub pairs: Option<u64>,
    /// Fix this engine's rating: LABEL=ELO, e.g. greedy=0 [default: the first engine at 0].
    /// Intervals are relative to it, as in Ordo.
    #[arg(long, value_name = "LABEL=ELO")]
    pub anchor: Option<String>,
    /// Bootstrap resamples of pair indices for the 95 % intervals and CFS [default: 1000].
    #[arg(long, value_name = "N")]
    pub bootstrap: Option<usize>,
    /// Limits, deals, output.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Arguments of `arena leak`.
#[derive(Debug, Args)]
pub struct LeakArgs {
    /// An engine to measure (one or more): a spec such as `ismcts:iters=500`, or a JSON file from
    /// configs/engines/. In-process engines only: an external engine gets its side's information
    /// over UCI and cannot play omniscient.
    #[arg(long = "engine", value_name = "SPEC")]
    pub engines: Vec<String>,
    /// The fair opponent every engine meets in arms F and Ω (any engine, external ones included)
    /// [default: each engine's own fair self].
    #[arg(long, value_name = "SPEC")]
    pub opponent: Option<String>,
    /// Take the engines, opponent and pairs from the `leak` section of a tournament config
    /// (`{"engines": [LABEL…], "opponent": LABEL, "pairs": N}`, labels of its engines), and the
    /// seed, rules and limits from the config itself; a flag on the command line wins (but
    /// --engine and --opponent cannot be combined with it). This is how the nightly report
    /// measures leaks (scripts/nightly.sh).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["engines", "opponent"])]
    pub config: Option<std::path::PathBuf>,
    /// Game pairs per arm (each pair is two games on one deal, colours swapped) [default: 100].
    #[arg(long, value_name = "N")]
    pub pairs: Option<u64>,
    /// Bootstrap resamples of pair indices for the paired interval of Δ, 100 to 100000
    /// [default: 1000].
    #[arg(long, value_name = "N")]
    pub bootstrap: Option<usize>,
    /// Limits, deals, output.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Arguments of `arena merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard folders (of `match --shard` or `tournament --shard`), every shard once.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<std::path::PathBuf>,
    /// The merged results folder (must not exist, or hold an earlier merge of the same run).
    #[arg(long, value_name = "DIR")]
    pub out: std::path::PathBuf,
    /// Report even though pairs are missing (a shard not finished or lost); the summary says
    /// which.
    #[arg(long)]
    pub partial: bool,
}

/// Arguments of `arena history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// A folder of tournament folders (one per night, e.g. results/nightly/), each with a
    /// ratings.json; writes DIR/index.html.
    #[arg(value_name = "DIR")]
    pub dir: std::path::PathBuf,
}

/// Arguments of `arena replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A results folder (of `arena match`, `sprt`, `tournament` or `leak`): the game --game N
    /// (or --pair P --game 1|2) recorded there. Under reproducible limits (nodes, depth) it is
    /// played again and compared with the record (deal, every move, result and termination);
    /// under time limits, or when it ended by a timeout or crash, it is shown as recorded and
    /// the output says why.
    #[arg(value_name = "DIR", conflicts_with_all = ["seed", "red", "black"])]
    pub dir: Option<std::path::PathBuf>,
    /// With DIR (a match folder: in a tournament or leak folder a pair index names several
    /// games, so give --game N): the pair index (then --game is 1 or 2).
    #[arg(long, value_name = "P", requires = "dir")]
    pub pair: Option<u64>,
    /// With DIR: the game's number in the folder's games.csv ("game 37"); with --pair, game 1
    /// (engine A Red) or 2 (engine A Black) of that pair.
    #[arg(long, value_name = "N", requires = "dir")]
    pub game: Option<u64>,
    /// With DIR: print the recorded game ply by ply (moves, reveals, captures, search info, the
    /// public and true boards at the end or with --boards, the result) without running any
    /// engine.
    #[arg(long, requires = "dir", conflicts_with = "recheck")]
    pub show: bool,
    /// With DIR: play the game again even under time limits (it may differ: the engines think
    /// for as long as the machine lets them).
    #[arg(long, requires = "dir")]
    pub recheck: bool,
    /// Without DIR: the deal seed of the game (a pair's seed as games.csv lists it).
    #[arg(long, value_name = "S", requires_all = ["red", "black"])]
    pub seed: Option<u64>,
    /// Without DIR: Red's engine spec.
    #[arg(long, value_name = "SPEC")]
    pub red: Option<String>,
    /// Without DIR: Black's engine spec.
    #[arg(long, value_name = "SPEC")]
    pub black: Option<String>,
    /// The rule set (without DIR; a results folder brings its own).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Search limits (without DIR; a results folder brings its own).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Adjudication cap (without DIR).
    #[arg(long, value_name = "PLIES", default_value_t = 400)]
    pub max_plies: u32,
    /// Stop after this ply and show the board there.
    #[arg(long, value_name = "K")]
    pub ply: Option<usize>,
    /// Draw the board after every ply.
    #[arg(long)]
    pub boards: bool,
    /// Draw pieces as Chinese characters.
    #[arg(long)]
    pub unicode: bool,
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
