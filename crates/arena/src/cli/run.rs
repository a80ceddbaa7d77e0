//! What every game-playing command (`match`, `sprt`, `tournament`, `leak`) takes: the engines'
//! deals, limits, clock, output and shard.

use clap::Args;

use crate::cli::common::{LimitArgs, RulesArgs};

/// What every game-playing command takes: the engines, the deals, the limits, the output.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Master seed: pair p deals from mix(S, p).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Worker threads [default: the number of cores].
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// The games: rules, limits, clock, book and adjudication.
    #[command(flatten)]
    pub game: GameArgs,
    /// Results folder [default: results/<UTC timestamp>-<A>-vs-<B>/, for a tournament
    /// results/<UTC timestamp>-tournament/, for a leak run results/<UTC timestamp>-leak/].
    #[arg(long, value_name = "DIR", value_parser = crate::cli::common::out_path)]
    pub out: Option<std::path::PathBuf>,
    /// Continue the interrupted run in --out: finished pairs are kept, the rest are played.
    ///
    /// With --out alone (no --engine) the run is taken from the folder's record (match.json,
    /// tournament.json or leak-run.json) as it was started; --threads, --no-progress,
    /// --report-every and a new --pairs cap may still be given. Results folders are locked
    /// while a run writes them.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Let --resume continue a run that another build started (another arena binary, or another
    /// executable of an external engine).
    ///
    /// Without it such a resume is refused, so that one run's numbers never mix two versions of
    /// the code unnoticed; with it the record lists every build that played (later_builds) and
    /// the summary says MIXED.
    #[arg(long)]
    pub allow_mixed_builds: bool,
    /// Never draw a progress bar (it is only drawn when stderr is a terminal anyway).
    ///
    /// Progress lines (--report-every) still appear when stderr is not a terminal.
    #[arg(long)]
    pub no_progress: bool,
    /// Print a progress line on stderr every N counted pairs (0: never).
    ///
    /// A line gives the pairs done and planned, the games, the first engine's W/D/L, score and
    /// Elo ± its 95 % interval (pentanomial) and, for a gate, the LLR with its bounds; for a
    /// tournament the leader(s), for a leak run each engine's arms. Default: a line every 60 s
    /// when stderr is not a terminal (a CI log, a cron mail, a cluster shard's log), none on a
    /// terminal, where the progress bar shows the same (lines asked for print above it).
    #[arg(long, value_name = "N")]
    pub report_every: Option<u64>,
    /// Keep every game's UCI traffic with external engines in --out/logs/game-<number>.log
    /// (<number> as in games.csv): each line sent (>) and read (<), with the time since the
    /// game started, the side and the engine; at most 16 MiB a game. External engines' error
    /// output is kept in logs/<NN>-<engine>.stderr.log (1 MiB each) with or without this flag.
    /// All the game logs of a run together stop at --log-limit.
    #[arg(long)]
    pub log: bool,
    /// The most bytes the game logs of --log may take together in one run (each start or
    /// resume): SIZE in bytes, or with K, M or G (KiB, MiB, GiB) [default: 1G].
    ///
    /// When it is reached a warning is said once on stderr, the game logs end with a note, no
    /// more traffic is written, and the games go on.
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::common::byte_size)]
    pub log_limit: Option<u64>,
    /// Play only shard K of N: the pairs p with p ≡ K (mod N), K counted from 0.
    ///
    /// Run the N shards on N machines (Slurm array, Kubernetes indexed job, GNU parallel: see
    /// scripts/cluster/), then `arena merge` their folders: the merged results equal one
    /// machine's run. The folder records the shard.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Check the run and exit: validate every flag, engine and file as a real run would, and
    /// --out as it would start with it (a folder it can make, not in use by a running arena, no
    /// games of a run there without --resume, with --resume this run's), print what it would
    /// play (engines, pairs, shard, fingerprint) and exit 0 without playing or writing anything.
    /// The cluster scripts check a run this way before submitting it.
    #[arg(long)]
    pub check: bool,
}

/// How each game is played, for every command that plays games (`match`, `sprt`, `tournament`,
/// `leak`, `spsa`): the rules, the limits and clock, the book, the adjudication.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// The rule set.
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Adjudicate a game as a draw after this many plies (reason `max-plies`).
    #[arg(long, value_name = "PLIES", default_value_t = 400)]
    pub max_plies: u32,
    /// Start every pair from a position of an opening book, fastchess style:
    /// `file=FILE [format=epd|pgn|jieqibox] [order=sequential|random] [plies=N] [start=K]`
    /// (the words separate or comma-separated; a bare FILE is file=FILE).
    ///
    /// Pair p plays position (K − 1 + p) mod N of the book (shuffled once with --seed for
    /// order=random) twice, colours swapped; in Jieqi its hidden pieces are dealt from the
    /// pair's seed, drawn from the position's pools. EPD: one FEN a line (hidden pieces and
    /// pools as `arena show` writes them; EPD operations after it ignored). PGN (games as
    /// `arena export` writes them, or any PGN with coordinate moves) and JieqiBox game JSON
    /// (one game or an array): each game's position after its first plies=N plies (all of
    /// them by default). The format is taken from the extension (.epd, .pgn, .json) when not
    /// given; order is sequential and start 1 by default. The book's hash goes into the run's
    /// fingerprint and its folder keeps a copy (openings.epd), so resume, shards and merge
    /// play and check the same book.
    ///
    /// Default: under rules without hidden pieces (Xiangqi), the built-in Xiangqi book
    /// (file=builtin:xiangqi order=random; configs/books/README.md), since every pair would
    /// otherwise replay the one start position; `--openings none` plays from the start
    /// position anyway. Under Jieqi rules the deal varies the games and there is no default.
    #[arg(long, value_name = "file=FILE", num_args = 1..)]
    pub openings: Vec<String>,
    /// End a game when an engine's own scores say it is lost, fastchess style:
    /// `movecount=N score=CP [twosided=true]` (the words separate or comma-separated).
    ///
    /// One-sided (the default): the side whose engine scored its own move at −CP or worse on N
    /// consecutive moves of its own loses (`adjudication-resign`) once it scores below 0.
    /// twosided=true: both engines must agree, on 2·N consecutive plies each scoring at least
    /// CP either way for the same side. A mate counts as beyond any bound; a move without a
    /// score starts the count again, so an engine that reports no score is never adjudicated
    /// against. Off by default; recorded with the run (its fingerprint and match.json). The
    /// scores that decided are in the game's detail.
    #[arg(long, value_name = "movecount=N score=CP", num_args = 1..)]
    pub resign: Vec<String>,
    /// Draw a game when both engines' scores say it is even, fastchess style:
    /// `movenumber=M movecount=N score=CP`.
    ///
    /// Once the full-move number (counted from the game's start, an opening's moves included)
    /// is past M and 2·N consecutive plies were scored within ±CP by the engine that moved,
    /// the game is drawn (`adjudication-draw`). A capture or a reveal, a mate score or a move
    /// without a score starts the count again. Off by default; recorded with the run.
    #[arg(long, value_name = "movenumber=M movecount=N score=CP", num_args = 1..)]
    pub draw: Vec<String>,
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
    /// --timemargin); with neither, 60000 ms. In-process and external engines get the same,
    /// except an external engine whose spec sets `timeout=MS`: that is its hard limit instead,
    /// longer or shorter (a clock still flags it).
    #[arg(long, value_name = "MS", value_parser = crate::cli::common::milliseconds)]
    pub move_timeout: Option<u64>,
}
