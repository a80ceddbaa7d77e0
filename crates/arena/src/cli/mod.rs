//! The raw command line, as clap parses it: [`Cli`] and its [`Command`]s here, each command's
//! arguments in a module of its own (`cli::match_::MatchArgs`, `cli::export::ExportArgs`, …),
//! the arguments several commands share in [`common`], [`run`] and [`sprt_args`]. Nothing here
//! is checked beyond its type; [`crate::plan`] validates it.

use clap::{Parser, Subcommand};

pub mod analyze;
pub mod bench;
pub mod book;
pub mod common;
pub mod engines;
pub mod export;
pub mod history;
pub mod jai;
pub mod label;
pub mod leak;
pub mod match_;
pub mod merge;
pub mod perft;
pub mod replay;
pub mod run;
pub mod show;
pub mod solve;
pub mod sprt;
pub mod sprt_args;
pub mod spsa;
pub mod stats;
pub mod suite;
pub mod tournament;
pub mod tune;
pub mod view;

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
    Perft(perft::PerftArgs),
    /// Print a position as a board a person can read, with pools, FEN and check status.
    Show(show::ShowArgs),
    /// Play seeded, colour-swapped game pairs between two engines and report Elo, LOS and more.
    ///
    /// Pair p deals from seed_p = mix(S, p) and is played twice on that deal, engine A as Red then
    /// as Black. Results go to --out: games.csv, games.jsonl (replayable), summary.json,
    /// summary.txt, and games.html (a table of the games, with viewer pages of up to 10 of them
    /// under games/). The same command gives the same games at any --threads. Exit status 5 when an engine lost more than 5 % of its
    /// games by a failure (illegal move, panic, error, timeout, crash, protocol error).
    Match(match_::MatchArgs),
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
    Sprt(sprt::SprtCmdArgs),
    /// Rate many engines: a round robin or gauntlet of seeded, colour-swapped pairs, Bradley–Terry
    /// ratings with bootstrap intervals, and a report a person opens in a browser.
    ///
    /// Pair p of every pairing is played on the same deal (seed mix(S, p)). Results go to --out:
    /// ratings.csv, ratings.json, report.md, report.html, summary.txt, games.jsonl (the
    /// journal; --resume continues it), and under pairings/ one ordinary match folder per
    /// pairing (`arena replay` reads them; report.html links each one's games.html). Ratings are logistic Elo by maximum likelihood over
    /// all games (a draw is half a point), anchored at one engine; 95 % intervals and the
    /// likelihood of superiority of each engine over the next (CFS) come from a seeded bootstrap
    /// over pair indices. Exit status 5 when an engine lost more than 5 % of its
    /// games by a failure (illegal move, panic, error, timeout, crash, protocol error).
    Tournament(tournament::TournamentArgs),
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
    /// folders that `arena replay` reads, each with its games index games.html. Exit status 5 when an engine lost more than 5 % of its
    /// games by a failure (illegal move, panic, error, timeout, crash, protocol error).
    Leak(leak::LeakArgs),
    /// Write a balanced opening book for --openings: positions a few plies from the start
    /// (random legal plies, or a seeded choice among a reference engine's best moves), kept
    /// where the reference search at fixed nodes scores them within ±X for the side to move,
    /// each distinct; the same seed and flags write the same book.
    Book(book::BookArgs),
    /// Put the shards of a match or tournament (run with --shard K/N on several machines) back
    /// together: check they belong together, and write the results one machine would have.
    ///
    /// Refuses shards of different runs (fingerprint: harness version, engine specs, rules, seed,
    /// limits), different N, the same shard twice, pairs recorded twice, and missing pairs
    /// (unless --partial). Prints a chi-square homogeneity test across shards and flags a shard
    /// whose results differ from the others by more than chance (a broken worker). Exit status:
    /// 0 merged, 2 refused, 4 results could not be written, 5 merged but an engine lost more
    /// than 5 % of its games by a failure.
    Merge(merge::MergeArgs),
    /// Run a match for JieqiBox's Match mode: speak its JAI protocol on stdin and stdout.
    ///
    /// Add the arena in JieqiBox's engine manager with the arguments `jai` (and any flags
    /// below), enter Match Mode and load it: its Match Options dialog lists the settings below,
    /// Start Match plays the match through the same run core as `arena match` and shows every
    /// game and move live, Stop Match ends it keeping the finished pairs (and says the last
    /// match's end again once it has ended). Each match gets a new folder under OutDir, an
    /// ordinary results folder: replay, export, the reports and `arena match --out DIR --resume`
    /// work on it. Protocol: docs/jai.md.
    Jai(jai::JaiArgs),
    /// Write DIR/index.html for a folder of nightly tournaments: links to every night, the
    /// latest rating list, and every engine's rating over time.
    History(history::HistoryArgs),
    /// Replay one seeded game exactly, ply by ply, or check a game recorded in a results folder.
    Replay(replay::ReplayArgs),
    /// Find where a game went wrong: a reference engine searches every ply from the mover's own
    /// view and with the truth, and says what each move cost and what was chance.
    ///
    /// For each ply: the recorded engine's own score, depth and PV; the reference's best move and
    /// score from the mover's view (what it could have known) and, for contrast, with every
    /// hidden piece in view; the move played scored by a search restricted to it, its reveal
    /// taken in expectation over the mover's belief; the loss (best minus played, as expected
    /// game score) and the class (inaccuracy 5 %, mistake 10 %, blunder 15 %); and how the score
    /// moved once a reveal or hidden capture was known (chance). Prints a summary — the turning
    /// point, each side's worst moves, how much of the game's swing was chance — and writes the
    /// analysis JSON and the game viewer page (docs/analyze.md).
    Analyze(analyze::AnalyzeArgs),
    /// Write the games of a results folder as PGN ([Variant "jieqi"], a FEN tag, moves with their
    /// reveal letters) or as JieqiBox notation JSON, for a GUI to load.
    Export(export::ExportArgs),
    /// Write one recorded game as an HTML page to step through in a browser: the board with the
    /// hidden pieces face down (and a true view with their identities), the moves, and the
    /// engines' scores on a chart.
    ///
    /// The page is one self-contained file (no network, no other file): keys ← → (one ply), ↑ ↓
    /// (one move), Home, End and T (public or true view), clicks on the moves and the chart's
    /// marks, and the address #ply=K, with &view=true in the true view (kept as you step and
    /// switch, read when the page opens). The last move is marked, a reveal ringed, a capture
    /// badged with what it took. Prints the path written.
    View(view::ViewArgs),
    /// Fit the evaluation's weights to the results of recorded games (Texel tuning): positions
    /// from the folders' games.jsonl, labelled with their games' results, a held-out share of the
    /// games to measure the fit, and the tuned weights written as JSON for `alphabeta:eval=PATH`.
    Tune(tune::TuneArgs),
    /// Tune an engine's parameters by SPSA, as fishtest does: each iteration plays θ+c_k·Δ
    /// against θ−c_k·Δ (a colour-swapped pair) and steps θ along Δ by the result.
    ///
    /// Gains as fishtest: c_k = c_end·N^0.101/(k+1)^0.101,
    /// a_k = r_end·c_end²·(A+N)^0.602/(A+k+1)^0.602, θ ← clamp(θ + a_k/c_k·(wins − losses)·Δ).
    /// Iterations run in batches from
    /// one θ, so the path does not depend on --threads. The state is DIR/spsa.json (--resume
    /// continues it exactly); the result is printed as a spec for `arena sprt` and written to
    /// spsa.txt, with spsa.csv and spsa.html (docs/spsa.md). Exit status 130 when Ctrl-C stopped
    /// it (the unfinished batch is played again on --resume).
    Spsa(spsa::SpsaArgs),
    /// Label the quiet positions of recorded games by a deeper search and write them as one
    /// training data chunk (docs/data.md), for `arena tune --data`.
    ///
    /// A chunk is a compact file of positions as the side to move sees them, each with the label
    /// search's score and depth, its game's result and where it came from (deal seed, pair,
    /// game, ply); its provenance is written beside it. A chunk is never rewritten, and the same
    /// games and flags give the same bytes at any --threads.
    Label(label::LabelArgs),
    /// Run engines over a test suite (an EPD-style file of positions with bm/am/dm) and report
    /// which positions each solved, and the time and nodes each took to find the answer.
    ///
    /// Positions are searched --threads at once, each by a fresh engine asked once as in a game.
    /// A position is solved when the answer is right: one of its `bm` moves, none of its `am`
    /// moves, and for `dm N` a reported `mate M` with M <= N. The time to solution is when the
    /// answer became right for good (from the engine's interim reports). Prints a table per
    /// engine and `solved X / Y`; writes solve.json and solve.csv to --out, and the journal
    /// solve.jsonl as positions finish (--resume continues an interrupted run). Lines of the
    /// suite that do not hold up are reported with their numbers and skipped. Exit status 1 when
    /// an engine solved fewer than --min-solved.
    Solve(solve::SolveArgs),
    /// Make a test suite for `arena solve` from recorded games, every position verified by an
    /// exhaustive search: `mates` (mate in N, no shorter; rules without hidden pieces) or
    /// `tactics` (one move wins material by force whatever the hidden pieces are).
    Suite(suite::SuiteArgs),
    /// Print the result block (Elo, nElo, LOS, SPRT LLR) from pentanomial or W/D/L counts alone.
    Stats(stats::StatsArgs),
    /// List the engines `--engine` accepts, with their parameters (or, with --spsa-params, an
    /// engine's tunable keys as an `arena spsa` parameters file).
    Engines(engines::EnginesArgs),
    /// Speed figures on fixed inputs: perft nodes/s, playouts/s, and each engine's nodes/s.
    Bench(bench::BenchArgs),
}
