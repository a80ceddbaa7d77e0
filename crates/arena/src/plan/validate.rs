//! Validated arguments: what to run, with every bad-input error found before anything runs.

use jieqi_core::{Color, Deal, Determinization, FenError, Position, PositionError, Rules};

use crate::cli::{
    Cli, Command, HistoryArgs, LeakArgs, LimitArgs, MatchArgs, MergeArgs, PerftArgs, ReplayArgs,
    RunArgs, ShowArgs, SprtCmdArgs, TournamentArgs,
};
use crate::commands::stats::StatsArgs;
use crate::engines::time_control::TimeControl;
use crate::engines::{self, EngineEntry};
use crate::plan::replay::{ReplayPlan, Show};
use crate::plan::rules_arg::{self, RulesArgError};
use crate::plan::tournament::{self, TournamentConfig};
use crate::records::shard::Shard;
use crate::report::board_text::{BoardStyle, Glyphs};
use crate::run::folder;
use crate::run::kind::{self, Mode, RunKind, TournamentOptions};
use crate::run::{Omniscient, RunSetup};
use crate::util::text::slug;
use crate::util::time::utc_timestamp;
use jieqi_core::ByColor;
use jieqi_engine::Limits;

/// A validated command, ready to run.
#[derive(Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one plan per process; boxing would buy nothing"
)]
pub enum Plan {
    /// `arena perft`.
    Perft(PerftPlan),
    /// `arena show`.
    Show(ShowPlan),
    /// `arena match`.
    Match(RunSetup),
    /// `arena sprt`.
    Sprt(RunSetup),
    /// `arena tournament`.
    Tournament(RunSetup),
    /// `arena leak`.
    Leak(RunSetup),
    /// `arena merge`.
    Merge(MergeArgs),
    /// `arena history`.
    History(HistoryArgs),
    /// `arena replay`.
    Replay(ReplayPlan),
    /// `arena stats`.
    Stats(StatsArgs),
    /// `arena export`.
    Export(crate::commands::export::ExportArgs),
    /// `arena tune`.
    Tune(crate::commands::tune::TuneArgs),
    /// `arena solve`: arguments checked when it runs.
    Solve(crate::commands::solve::SolveArgs),
    /// `arena suite`.
    Suite(crate::commands::suite::SuiteArgs),
    /// `arena engines`.
    Engines,
    /// `arena bench`.
    Bench(crate::commands::bench::BenchPlan),
}

/// What `arena perft` counts.
#[derive(Debug)]
pub struct PerftPlan {
    /// The root position (it carries its rules).
    pub position: Position,
    /// Plies to count.
    pub depth: u32,
    /// Print the per-root-move counts first.
    pub divide: bool,
    /// End with the JSON summary line.
    pub json: bool,
}

/// What `arena show` prints.
#[derive(Debug)]
pub struct ShowPlan {
    /// The position to draw (it carries its rules).
    pub position: Position,
    /// The deal named by `--seed`, with the truth it gives the start position.
    pub seeded: Option<SeededDeal>,
    /// How to draw boards.
    pub style: BoardStyle,
}

/// A deal named by a seed, for the referee's eyes.
#[derive(Debug)]
pub struct SeededDeal {
    /// The seed.
    pub seed: u64,
    /// The deal [`crate::records::deal_seed::deal_for_seed`] maps it to.
    pub deal: Deal,
    /// The start position with every hidden identity fixed by the deal.
    pub truth: Determinization,
}

/// Bad input found while validating the command line.
#[derive(Debug)]
pub enum PlanError {
    /// `--rules` gives no usable rule set.
    Rules(RulesArgError),
    /// `--fen` does not read, or reads into an illegal position.
    Fen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        source: FenError,
    },
    /// `--seed` under rules without hidden pieces.
    SeedNeedsHidden {
        /// The rule set's name.
        rules: String,
    },
    /// A flag's value is wrong; the message says how.
    Arg {
        /// The flag (`--engine`, `--pairs`, …).
        flag: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The deal does not fit the start position (a bug, not bad input).
    DealMismatch {
        /// The seed.
        seed: u64,
        /// What the position objected to.
        source: PositionError,
    },
}

impl core::fmt::Display for PlanError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PlanError::Rules(e) => write!(f, "{e}"),
            PlanError::Fen { fen, source } => write!(f, "--fen '{fen}': {source}"),
            PlanError::SeedNeedsHidden { rules } => write!(
                f,
                "--seed: rules '{rules}' have no hidden pieces, so there is no deal to show \
                 (use --fen, or rules with hidden pieces such as standard)"
            ),
            PlanError::Arg { flag, message } => write!(f, "{flag}: {message}"),
            PlanError::DealMismatch { seed, source } => write!(
                f,
                "--seed {seed}: the deal does not fit the start position: {source}"
            ),
        }
    }
}

impl std::error::Error for PlanError {}

impl From<RulesArgError> for PlanError {
    fn from(e: RulesArgError) -> PlanError {
        PlanError::Rules(e)
    }
}

impl Plan {
    /// Validates the parsed command line. `colour_ok` says whether boards may use ANSI colour
    /// (stdout is a terminal and the user did not ask for no colour); `given(id)` whether the
    /// subcommand's argument `id` was given on the command line (not defaulted), which decides
    /// whether it wins over a config file's value.
    ///
    /// # Errors
    /// Bad rules, a bad FEN, or a seed under rules without hidden pieces.
    pub fn from_cli(
        cli: Cli,
        colour_ok: bool,
        given: &dyn Fn(&str) -> bool,
    ) -> Result<Plan, PlanError> {
        match cli.command {
            Command::Tournament(args) => Ok(Plan::Tournament(tournament_plan(args, given)?)),
            Command::Leak(args) => Ok(Plan::Leak(leak_plan(args, given)?)),
            Command::Merge(args) => Ok(Plan::Merge(args)),
            Command::History(args) => Ok(Plan::History(args)),
            Command::Perft(args) => Ok(Plan::Perft(PerftPlan::new(args)?)),
            Command::Show(args) => Ok(Plan::Show(ShowPlan::new(args, colour_ok)?)),
            Command::Match(args) => Ok(Plan::Match(match_plan(args, given)?)),
            Command::Sprt(args) => Ok(Plan::Sprt(sprt_plan(args, given)?)),
            Command::Replay(args) => Ok(Plan::Replay(replay_plan(args, colour_ok, given)?)),
            Command::Stats(args) => Ok(Plan::Stats(args)),
            Command::Export(args) => Ok(Plan::Export(args)),
            Command::Tune(args) => Ok(Plan::Tune(args)),
            Command::Solve(args) => Ok(Plan::Solve(args)),
            Command::Suite(args) => Ok(Plan::Suite(args)),
            Command::Engines => Ok(Plan::Engines),
            Command::Bench(args) => {
                let specs: Vec<String> = if args.engines.is_empty() {
                    crate::commands::bench::DEFAULT_ENGINES
                        .iter()
                        .map(|s| s.to_string())
                        .collect()
                } else {
                    args.engines.clone()
                };
                Ok(Plan::Bench(crate::commands::bench::BenchPlan {
                    perft_depth: args.perft_depth,
                    engines: specs
                        .iter()
                        .map(|s| engine("--engine", s))
                        .collect::<Result<_, _>>()?,
                    limits: limits(&args.limits)?,
                    json: args.json,
                    playouts: args.playouts.max(1),
                }))
            }
        }
    }
}

/// The position `--fen` names under `rules`, or the rules' start position.
fn position(fen: Option<String>, rules: &Rules) -> Result<Position, PlanError> {
    match fen {
        None => Ok(Position::start(rules)),
        Some(fen) => Position::from_fen(&fen, rules).map_err(|source| PlanError::Fen {
            fen: fen.clone(),
            source,
        }),
    }
}

impl PerftPlan {
    /// Validates `arena perft` arguments.
    ///
    /// # Errors
    /// Bad rules or a bad FEN.
    pub fn new(args: PerftArgs) -> Result<PerftPlan, PlanError> {
        let rules = rules_arg::resolve(&args.rules.rules)?;
        Ok(PerftPlan {
            position: position(args.fen, &rules)?,
            depth: args.depth,
            divide: args.divide,
            json: args.json,
        })
    }
}

impl ShowPlan {
    /// Validates `arena show` arguments; `colour_ok` as in [`Plan::from_cli`].
    ///
    /// # Errors
    /// Bad rules, a bad FEN, or a seed under rules without hidden pieces.
    pub fn new(args: ShowArgs, colour_ok: bool) -> Result<ShowPlan, PlanError> {
        let rules = rules_arg::resolve(&args.rules.rules)?;
        let position = position(args.fen, &rules)?;
        let seeded = match args.seed {
            None => None,
            Some(_) if !rules.has_hidden() => {
                return Err(PlanError::SeedNeedsHidden {
                    rules: rules.name.to_string(),
                });
            }
            Some(seed) => {
                let deal = crate::records::deal_seed::deal_for_seed(seed, &rules);
                let assignment: Vec<_> = Color::ALL
                    .into_iter()
                    .flat_map(|c| deal.assignments(c).collect::<Vec<_>>())
                    .collect();
                let truth = Determinization::new(position.clone(), assignment)
                    .map_err(|source| PlanError::DealMismatch { seed, source })?;
                Some(SeededDeal { seed, deal, truth })
            }
        };
        let glyphs = if args.unicode {
            Glyphs::Unicode
        } else {
            Glyphs::Ascii
        };
        Ok(ShowPlan {
            position,
            seeded,
            style: BoardStyle {
                glyphs,
                ansi: colour_ok,
            },
        })
    }
}

fn arg_err(flag: &'static str, message: impl Into<String>) -> PlanError {
    PlanError::Arg {
        flag,
        message: message.into(),
    }
}

fn limits(args: &LimitArgs) -> Result<Limits, PlanError> {
    if args.nodes == Some(0) {
        return Err(arg_err("--nodes", "must be at least 1"));
    }
    if args.depth == Some(0) {
        return Err(arg_err("--depth", "must be at least 1"));
    }
    if args.movetime == Some(0) {
        return Err(arg_err("--movetime", "must be at least 1 ms"));
    }
    Ok(Limits {
        nodes: args.nodes,
        depth: args.depth,
        movetime: args.movetime.map(std::time::Duration::from_millis),
        clock: None,
    })
}

fn engine(flag: &'static str, arg: &str) -> Result<EngineEntry, PlanError> {
    engines::parse_arg(arg).map_err(|e| arg_err(flag, e.to_string()))
}

/// The most pairs a run may ask for: 2·10^8 games, weeks of play on any machine.
pub const MAX_PAIRS: u64 = 100_000_000;

/// The most worker threads a run may ask for.
pub const MAX_THREADS: usize = 1024;

/// `--threads`: 1 to [`MAX_THREADS`]; by default the machine's cores.
fn threads_arg(threads: Option<usize>) -> Result<usize, PlanError> {
    match threads {
        Some(0) => Err(arg_err("--threads", "must be at least 1")),
        Some(t) if t > MAX_THREADS => Err(arg_err(
            "--threads",
            format!("{t} is more than the {MAX_THREADS} threads a run may use"),
        )),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// The worker threads a run of `jobs` pairs uses: never more than its pairs (a pair's two games
/// run on one thread, so more workers would only wait). A `--threads` given (`asked`) that is cut
/// is said on stderr. (A resumed run says so when it knows the pairs left, and any run whose
/// threads outnumber the cores under time limits: [`crate::run::execute`].)
fn capped_threads(threads: usize, asked: bool, jobs: u64) -> usize {
    let used = threads
        .min(usize::try_from(jobs).unwrap_or(usize::MAX))
        .max(1);
    if asked && used < threads {
        eprintln!(
            "note: --threads {threads}: {used} used, one per pair to play ({jobs} {})",
            if jobs == 1 { "pair" } else { "pairs" }
        );
    }
    used
}

/// Engines from `--engine` arguments, with unique labels.
fn engine_list(args: &[String]) -> Result<Vec<EngineEntry>, PlanError> {
    let engines: Vec<EngineEntry> = args
        .iter()
        .map(|a| engine("--engine", a))
        .collect::<Result<_, _>>()?;
    for (i, a) in engines.iter().enumerate() {
        if engines[..i].iter().any(|b| b.label == a.label) {
            let hint = if a.spec.params.iter().any(|(k, _)| k == "name") {
                "give them different name= labels".to_string()
            } else {
                format!(
                    "give one a name, e.g. --engine {}{}name={}-2",
                    a.spec,
                    if a.spec.params.is_empty() { ":" } else { "," },
                    a.spec.name
                )
            };
            return Err(arg_err(
                "--engine",
                format!(
                    "two engines are labelled '{}': labels name engines in every report, so \
                     they must differ; {hint}",
                    a.label
                ),
            ));
        }
    }
    Ok(engines)
}

/// The run of `match` and `sprt`: exactly two engines, one pairing.
fn two_engine_setup(
    engine_args: &[String],
    run: RunArgs,
    pairs: u64,
    pairs_flag: &'static str,
) -> Result<RunSetup, PlanError> {
    if engine_args.len() != 2 {
        return Err(arg_err(
            "--engine",
            format!("give exactly two engines (got {})", engine_args.len()),
        ));
    }
    let engines = engine_list(engine_args)?;
    let name = format!("{}-vs-{}", slug(&engines[0].label), slug(&engines[1].label));
    run_setup(engines, vec![(0, 1)], run, pairs, pairs_flag, &name)
}

/// The parts every game-playing command shares: the engines, the deals, limits, clock, shard and
/// output. `pairs` is the number of pairs per pairing (the cap, for `sprt`).
fn run_setup(
    engines: Vec<EngineEntry>,
    pairings: Vec<(usize, usize)>,
    args: RunArgs,
    pairs: u64,
    pairs_flag: &'static str,
    default_out: &str,
) -> Result<RunSetup, PlanError> {
    if pairs == 0 {
        return Err(arg_err(pairs_flag, "must be at least 1"));
    }
    if pairs > MAX_PAIRS {
        return Err(arg_err(
            pairs_flag,
            format!("{pairs} is more than the {MAX_PAIRS} pairs a run may play"),
        ));
    }
    let threads = threads_arg(args.threads)?;
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(|e| arg_err("--shard", e))?;
    // More workers than jobs would only wait.
    let jobs = shard
        .map_or(pairs, |s| s.pairs_of(pairs))
        .saturating_mul(pairings.len() as u64);
    let threads = capped_threads(threads, args.threads.is_some(), jobs);
    if args.max_plies == 0 {
        return Err(arg_err("--max-plies", "must be at least 1"));
    }
    let tc = args
        .tc
        .as_deref()
        .map(TimeControl::parse)
        .transpose()
        .map_err(|e| arg_err("--tc", e))?;
    if args.move_timeout == Some(0) {
        return Err(arg_err("--move-timeout", "must be at least 1 ms"));
    }
    let rules = rules_arg::resolve(&args.rules.rules)?;
    if let Some(e) = engines.iter().find(|e| e.external) {
        if jieqi_registry::uci_variant_of(&rules).is_none() {
            return Err(arg_err(
                "--rules",
                format!(
                    "the rules '{}' are no UCI_Variant ({}, with their presets' switches), so \
                     the external engine '{}' cannot be told them and would play other rules \
                     than the referee applies",
                    rules.name.as_str(),
                    jieqi_registry::UCI_VARIANTS
                        .iter()
                        .map(|(v, _)| *v)
                        .collect::<Vec<_>>()
                        .join(", "),
                    e.label
                ),
            ));
        }
    }
    let out = match args.out {
        Some(dir) => dir,
        None => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            std::path::PathBuf::from("results").join(format!(
                "{}-{default_out}{}",
                utc_timestamp(now),
                shard.map_or(String::new(), |s| format!("-shard{}of{}", s.index, s.count))
            ))
        }
    };
    Ok(RunSetup {
        engines,
        pairings,
        pairs,
        shard,
        kind: RunKind::Match { sprt: None },
        seed: args.seed,
        threads,
        rules,
        max_plies: args.max_plies,
        limits: limits(&args.limits)?,
        tc,
        timemargin: std::time::Duration::from_millis(args.timemargin),
        move_timeout: args.move_timeout.map(std::time::Duration::from_millis),
        out,
        resume: args.resume,
        progress: !args.no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        log: args.log,
        command: std::env::args().collect::<Vec<_>>().join(" "),
    })
}

/// Flags that choose a run's games, which `--resume` with only `--out` takes from the record.
const RECORDED_FLAGS: [&str; 20] = [
    "seed",
    "rules",
    "max_plies",
    "nodes",
    "depth",
    "movetime",
    "tc",
    "timemargin",
    "move_timeout",
    "shard",
    "omniscient",
    "sprt",
    "elo0",
    "elo1",
    "config",
    "gauntlet",
    "anchor",
    "bootstrap",
    "opponent",
    "model",
];

/// `--resume` with `--out` and no engines: the run recorded in the folder, as it was started
/// (engines, deals, limits, shard, test), with this command line's threads, progress bar and, if
/// given, `pairs` (a new cap). `command` is the subcommand, which must be the run's.
fn recorded_run(
    command: &str,
    run: &RunArgs,
    pairs: Option<u64>,
    given: &dyn Fn(&str) -> bool,
) -> Result<RunSetup, PlanError> {
    let out = run
        .out
        .clone()
        .ok_or_else(|| arg_err("--resume", "needs --out DIR"))?;
    if let Some(flag) = RECORDED_FLAGS.iter().find(|f| given(f)) {
        return Err(arg_err(
            "--resume",
            format!(
                "without --engine the run is taken as {} recorded it, so --{} cannot change it: \
                 give every flag of the run again (with --engine), or none",
                out.display(),
                flag.replace('_', "-")
            ),
        ));
    }
    let (path, record, mut setup) = crate::run::folder::recorded_run(&out).map_err(|m| {
        arg_err(
            "--resume",
            format!("{m}: give the engines and flags of the run"),
        )
    })?;
    let kind = record.command_name();
    if kind != command {
        return Err(arg_err(
            "--resume",
            format!(
                "{} records an `arena {kind}` run: resume it with `arena {kind} --out {} --resume`",
                path.display(),
                out.display()
            ),
        ));
    }
    setup.threads = threads_arg(run.threads)?;
    setup.command = std::env::args().collect::<Vec<_>>().join(" ");
    if let Some(p) = pairs {
        if p == 0 || p > MAX_PAIRS {
            return Err(arg_err(
                "--pairs",
                format!("must be between 1 and {MAX_PAIRS}"),
            ));
        }
        setup.pairs = p;
    }
    setup.shard = record.shard;
    setup.resume = true;
    setup.threads = capped_threads(setup.threads, false, setup.jobs());
    setup.progress = !run.no_progress && std::io::IsTerminal::is_terminal(&std::io::stderr());
    setup.log = setup.log || run.log;
    Ok(setup)
}

fn match_plan(args: MatchArgs, given: &dyn Fn(&str) -> bool) -> Result<RunSetup, PlanError> {
    if args.engines.is_empty() && args.run.resume {
        let pairs = given("pairs").then_some(args.pairs);
        return recorded_run("match", &args.run, pairs, given);
    }
    let sprt = args
        .sprt
        .validate()
        .map_err(|(flag, message)| arg_err(flag, message))?;
    let omniscient = match args.omniscient.as_deref() {
        None => Omniscient::None,
        Some("A" | "a") => Omniscient::A,
        Some("B" | "b") => Omniscient::B,
        Some("both") => Omniscient::Both,
        Some(other) => {
            return Err(arg_err(
                "--omniscient",
                format!("'{other}' is not A, B or both"),
            ));
        }
    };
    let mut setup = two_engine_setup(&args.engines, args.run, args.pairs, "--pairs")?;
    for (slot, entry) in setup.engines.iter().enumerate() {
        if omniscient.sees_all(slot) && entry.external {
            return Err(arg_err(
                "--omniscient",
                format!(
                    "engine '{}' is an external process: it only ever gets its side's \
                     information over UCI, so it cannot play omniscient (measure leaks with an \
                     in-process engine)",
                    entry.label
                ),
            ));
        }
    }
    for (slot, entry) in setup.engines.iter_mut().enumerate() {
        entry.omniscient = omniscient.sees_all(slot);
    }
    setup.kind = RunKind::Match { sprt };
    Ok(setup)
}

fn sprt_plan(args: SprtCmdArgs, given: &dyn Fn(&str) -> bool) -> Result<RunSetup, PlanError> {
    if args.engines.is_empty() && args.run.resume {
        let pairs = given("max_pairs").then_some(args.max_pairs);
        let mut setup = recorded_run("sprt", &args.run, pairs, given)?;
        if let RunKind::Gate { recover, .. } = &mut setup.kind {
            *recover = args.recover;
        }
        return Ok(setup);
    }
    let sprt = args
        .test
        .sprt(args.elo0, args.elo1, "--elo0/--elo1")
        .map_err(|(flag, message)| arg_err(flag, message))?;
    if args.run.shard.is_some() {
        return Err(arg_err(
            "--shard",
            "a gate stops when its test decides, on the pairs in order: it cannot be cut into \
             shards (shard a fixed-length `arena match` instead)",
        ));
    }
    let mut setup = two_engine_setup(&args.engines, args.run, args.max_pairs, "--max-pairs")?;
    setup.kind = RunKind::Gate {
        sprt,
        recover: args.recover,
    };
    Ok(setup)
}

fn tournament_plan(
    mut args: TournamentArgs,
    given: &dyn Fn(&str) -> bool,
) -> Result<RunSetup, PlanError> {
    if args.engines.is_empty() && args.config.is_none() && args.run.resume {
        return recorded_run("tournament", &args.run, args.pairs, given);
    }
    let mut listed: Option<Vec<[String; 2]>> = None;
    if let Some(path) = &args.config {
        if !args.engines.is_empty() {
            return Err(arg_err(
                "--engine",
                "the engines come from --config; give them in one place",
            ));
        }
        let c = TournamentConfig::load(path).map_err(|m| arg_err("--config", m))?;
        // The file fills what the command line did not give.
        let fill = |id: &str| !given(id);
        if !given("gauntlet") {
            args.gauntlet = args.gauntlet.or(c.gauntlet.clone());
        }
        if fill("pairs") {
            args.pairs = args.pairs.or(c.pairs);
        }
        if fill("anchor") {
            args.anchor = args.anchor.or(c.anchor.clone());
        }
        if fill("bootstrap") {
            args.bootstrap = args.bootstrap.or(c.bootstrap);
        }
        fill_run(&mut args.run, &c, given);
        listed = c.pairings;
        args.engines = c.engines;
    }
    if args.engines.len() < 2 {
        return Err(arg_err(
            "--engine",
            format!(
                "a tournament needs two engines or more (got {}); give --engine for each, or \
                 --config",
                args.engines.len()
            ),
        ));
    }
    let engines = engine_list(&args.engines)?;
    let slot = |label: &str, flag: &'static str| {
        engines
            .iter()
            .position(|e| e.label == label)
            .ok_or_else(|| {
                let labels: Vec<&str> = engines.iter().map(|e| e.label.as_str()).collect();
                arg_err(
                    flag,
                    format!(
                        "no engine is labelled '{label}' (the engines are {})",
                        labels.join(", ")
                    ),
                )
            })
    };
    let (mode, pairings) = match (&args.gauntlet, &listed) {
        (Some(_), Some(_)) => {
            return Err(arg_err(
                "--gauntlet",
                "a config listing its pairings cannot also be a gauntlet",
            ));
        }
        (Some(g), None) => (
            Mode::Gauntlet,
            kind::gauntlet(engines.len(), slot(g, "--gauntlet")?),
        ),
        (None, Some(list)) => {
            let mut pairings = Vec::new();
            for [a, b] in list {
                let p = (
                    slot(a, "--config: pairings")?,
                    slot(b, "--config: pairings")?,
                );
                if p.0 == p.1 {
                    return Err(arg_err(
                        "--config: pairings",
                        format!("[{a}, {b}] pairs an engine with itself"),
                    ));
                }
                if pairings.iter().any(|&(x, y)| (x, y) == p || (y, x) == p) {
                    return Err(arg_err(
                        "--config: pairings",
                        format!("[{a}, {b}] is listed twice (in either order)"),
                    ));
                }
                pairings.push(p);
            }
            if pairings.is_empty() {
                return Err(arg_err("--config: pairings", "the list is empty"));
            }
            check_connected(&engines, &pairings)?;
            (Mode::Listed, pairings)
        }
        (None, None) => (Mode::RoundRobin, kind::round_robin(engines.len())),
    };
    let (anchor, anchor_elo) = match &args.anchor {
        Some(a) => {
            let (label, elo) = tournament::parse_anchor(a).map_err(|m| arg_err("--anchor", m))?;
            slot(&label, "--anchor")?;
            (label, elo)
        }
        None => (engines[0].label.clone(), 0.0),
    };
    let resamples = args.bootstrap.unwrap_or(1000);
    if resamples == 0 || resamples > kind::TOURNAMENT_MAX_RESAMPLES {
        return Err(arg_err(
            "--bootstrap",
            format!("must be between 1 and {}", kind::TOURNAMENT_MAX_RESAMPLES),
        ));
    }
    let pairs = args.pairs.unwrap_or(100);
    let mut setup = run_setup(engines, pairings, args.run, pairs, "--pairs", "tournament")?;
    setup.kind = RunKind::Tournament(TournamentOptions {
        mode,
        anchor,
        anchor_elo,
        resamples,
        series: args
            .config
            .as_deref()
            .and_then(|c| c.file_stem())
            .map(|s| s.to_string_lossy().to_string()),
    });
    Ok(setup)
}

/// Fills the run flags the command line did not give from a tournament config: seed, rules,
/// adjudication cap, limits (as a group: a limit on the command line replaces all of the file's),
/// clock margin and move timeout.
fn fill_run(run: &mut RunArgs, c: &TournamentConfig, given: &dyn Fn(&str) -> bool) {
    let fill = |id: &str| !given(id);
    if let (true, Some(v)) = (fill("seed"), c.seed) {
        run.seed = v;
    }
    if let (true, Some(v)) = (fill("rules"), &c.rules) {
        run.rules.rules = v.clone();
    }
    if let (true, Some(v)) = (fill("max_plies"), c.max_plies) {
        run.max_plies = v;
    }
    if fill("nodes") && fill("depth") && fill("movetime") && fill("tc") {
        run.limits.nodes = c.nodes;
        run.limits.depth = c.depth;
        run.limits.movetime = c.movetime_ms;
        run.tc = c.tc.clone();
    }
    if let (true, Some(v)) = (fill("timemargin"), c.timemargin_ms) {
        run.timemargin = v;
    }
    if fill("move_timeout") {
        run.move_timeout = run.move_timeout.or(c.move_timeout_ms);
    }
}

fn leak_plan(mut args: LeakArgs, given: &dyn Fn(&str) -> bool) -> Result<RunSetup, PlanError> {
    if args.engines.is_empty() && args.config.is_none() && args.run.resume {
        return recorded_run("leak", &args.run, args.pairs, given);
    }
    // An external engine cannot play omniscient: say so before starting it.
    for a in &args.engines {
        if engines::entry_unprobed(a).is_ok_and(|e| e.external) {
            return Err(arg_err(
                "--engine",
                format!(
                    "'{a}' is an external process: it only ever gets its side's information \
                     over UCI, so it cannot play omniscient (it can be the --opponent)"
                ),
            ));
        }
    }
    let flag = if args.config.is_some() {
        "--config: leak"
    } else {
        "--engine"
    };
    let (engines, opponent) = match &args.config {
        Some(path) => {
            let c = TournamentConfig::load(path).map_err(|m| arg_err("--config", m))?;
            let Some(leak) = c.leak.clone() else {
                return Err(arg_err(
                    "--config",
                    format!(
                        "{} has no \"leak\" section ({{\"engines\": [LABEL, …], \"opponent\": \
                         LABEL, \"pairs\": N}}) naming the engines to measure",
                        path.display()
                    ),
                ));
            };
            if !given("pairs") {
                args.pairs = args.pairs.or(leak.pairs).or(c.pairs);
            }
            if !given("bootstrap") {
                args.bootstrap = args.bootstrap.or(c.bootstrap);
            }
            fill_run(&mut args.run, &c, given);
            let all = engine_list(&c.engines)?;
            let pick = |label: &str| {
                all.iter()
                    .find(|e| e.label == label)
                    .cloned()
                    .ok_or_else(|| {
                        let labels: Vec<&str> = all.iter().map(|e| e.label.as_str()).collect();
                        arg_err(
                            "--config: leak",
                            format!(
                                "no engine of {} is labelled '{label}' (they are {})",
                                path.display(),
                                labels.join(", ")
                            ),
                        )
                    })
            };
            let engines = leak
                .engines
                .iter()
                .map(|l| pick(l))
                .collect::<Result<Vec<_>, _>>()?;
            let opponent = leak.opponent.as_deref().map(pick).transpose()?;
            (engines, opponent)
        }
        None => (
            engine_list(&args.engines)?,
            args.opponent
                .as_deref()
                .map(|o| engine("--opponent", o))
                .transpose()?,
        ),
    };
    if engines.is_empty() {
        return Err(arg_err(
            flag,
            "give an engine to measure (--engine SPEC, one or more)",
        ));
    }
    for (i, e) in engines.iter().enumerate() {
        if e.external {
            return Err(arg_err(
                flag,
                format!(
                    "engine '{}' is an external process: it only ever gets its side's \
                     information over UCI, so it cannot play omniscient (it can be the \
                     --opponent)",
                    e.label
                ),
            ));
        }
        if engines[..i].iter().any(|x| x.label == e.label) {
            return Err(arg_err(flag, format!("'{}' is given twice", e.label)));
        }
    }
    if let Some(o) = &opponent {
        if let Some(e) = engines
            .iter()
            .find(|e| e.label == o.label || kind::omniscient_label(&e.label) == o.label)
        {
            return Err(arg_err(
                "--opponent",
                format!(
                    "the opponent is labelled '{}' like engine '{}': leave out --opponent to \
                     measure an engine against its own fair self, or give the opponent a \
                     name=LABEL",
                    o.label, e.label
                ),
            ));
        }
    }
    let resamples = args.bootstrap.unwrap_or(1000);
    if !(kind::LEAK_MIN_RESAMPLES..=kind::LEAK_MAX_RESAMPLES).contains(&resamples) {
        return Err(arg_err(
            "--bootstrap",
            format!(
                "must be between {} and {} (fewer resamples cannot place a 95 % interval)",
                kind::LEAK_MIN_RESAMPLES,
                kind::LEAK_MAX_RESAMPLES
            ),
        ));
    }
    let (slots, pairings, options) = kind::arms(engines, opponent, resamples);
    let pairs = args.pairs.unwrap_or(100);
    let mut setup = run_setup(slots, pairings, args.run, pairs, "--pairs", "leak")?;
    setup.kind = RunKind::Leak(options);
    Ok(setup)
}

/// Listed pairings must use every engine and connect them all: engines in groups that never
/// meet have no ratings relative to each other.
fn check_connected(engines: &[EngineEntry], pairings: &[(usize, usize)]) -> Result<(), PlanError> {
    let n = engines.len();
    if let Some(idle) = (0..n).find(|&i| !pairings.iter().any(|&(a, b)| a == i || b == i)) {
        return Err(arg_err(
            "--config: pairings",
            format!(
                "engine '{}' plays in no pairing: drop it from engines, or pair it",
                engines[idle].label
            ),
        ));
    }
    let mut group: Vec<usize> = (0..n).collect();
    fn root(group: &mut [usize], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    for &(a, b) in pairings {
        let (ra, rb) = (root(&mut group, a), root(&mut group, b));
        group[ra] = rb;
    }
    let first = root(&mut group, 0);
    if let Some(apart) = (0..n).find(|&i| root(&mut group, i) != first) {
        return Err(arg_err(
            "--config: pairings",
            format!(
                "'{}' and '{}' are in groups of engines that never meet, so they cannot be \
                 rated on one scale: add a pairing between the groups",
                engines[0].label, engines[apart].label
            ),
        ));
    }
    Ok(())
}

fn replay_plan(
    args: ReplayArgs,
    colour_ok: bool,
    given: &dyn Fn(&str) -> bool,
) -> Result<ReplayPlan, PlanError> {
    // Flags of one mode given in the other would be silently ignored: refuse them.
    if args.dir.is_some() {
        for flag in ["nodes", "depth", "movetime", "rules", "max_plies"] {
            if given(flag) {
                return Err(arg_err(
                    "DIR",
                    format!(
                        "--{} is for a replay by --seed: a results folder brings its own rules, \
                         limits and cap",
                        flag.replace('_', "-")
                    ),
                ));
            }
        }
    } else {
        for (id, flag) in [
            ("show", "--show"),
            ("recheck", "--recheck"),
            ("pair", "--pair"),
            ("game", "--game"),
        ] {
            if given(id) {
                return Err(arg_err(
                    flag,
                    "is for a game recorded in a results folder: give DIR",
                ));
            }
        }
    }
    let style = BoardStyle {
        glyphs: if args.unicode {
            Glyphs::Unicode
        } else {
            Glyphs::Ascii
        },
        ansi: colour_ok,
    };
    if let Some(dir) = args.dir {
        let (folder, pair, game, located) = match (args.pair, args.game) {
            (Some(pair), Some(game @ (1 | 2))) => (dir, pair, game as u8, None),
            (Some(_), Some(game)) => {
                return Err(arg_err(
                    "--game",
                    format!("{game}: with --pair it is 1 (A Red) or 2 (A Black)"),
                ));
            }
            (Some(_), None) => {
                return Err(arg_err("--game", "needed with --pair (1 or 2)"));
            }
            (None, Some(number)) => {
                let at = folder::locate(&dir, number).map_err(|(flag, m)| arg_err(flag, m))?;
                (at.folder, at.pair, at.game, at.note)
            }
            (None, None) => {
                return Err(arg_err(
                    "--game",
                    "needed with a results folder: --game N (the number column of games.csv), \
                     or --pair P --game 1|2",
                ));
            }
        };
        let (setup, line, path) =
            folder::load_recorded(&folder, pair, game).map_err(|m| arg_err("DIR", m))?;
        let a = engines::recorded(&setup.engines[0].0, &setup.engines[0].1)
            .map_err(|m| arg_err("DIR", m))?;
        let b = engines::recorded(&setup.engines[1].0, &setup.engines[1].1)
            .map_err(|m| arg_err("DIR", m))?;
        let (red, black) = if game == 1 { (a, b) } else { (b, a) };
        let (oa, ob) = (setup.omniscient.sees_all(0), setup.omniscient.sees_all(1));
        let omniscient = if game == 1 {
            ByColor { red: oa, black: ob }
        } else {
            ByColor { red: ob, black: oa }
        };
        let show = if args.show {
            Some(Show::Asked)
        } else if args.recheck {
            None
        } else {
            folder::not_reproducible(&setup, &line, &red, &black).map(Show::NotReproducible)
        };
        return Ok(ReplayPlan {
            rules: setup.rules,
            red,
            black,
            deal_seed: line.seed,
            limits: setup.limits(),
            tc: setup.tc,
            timemargin: std::time::Duration::from_millis(setup.timemargin_ms.unwrap_or(0)),
            move_timeout: setup.move_timeout_ms.map(std::time::Duration::from_millis),
            max_plies: setup.max_plies,
            omniscient,
            stop_at: args.ply,
            boards: args.boards,
            style,
            expected: Some((line, path)),
            show,
            located,
        });
    }
    let seed = args.seed.ok_or_else(|| {
        arg_err(
            "--seed",
            "give a deal seed with --red and --black, or a results folder",
        )
    })?;
    let red = engine("--red", args.red.as_deref().unwrap_or_default())?;
    let black = engine("--black", args.black.as_deref().unwrap_or_default())?;
    if args.max_plies == 0 {
        return Err(arg_err("--max-plies", "must be at least 1"));
    }
    Ok(ReplayPlan {
        rules: rules_arg::resolve(&args.rules.rules)?,
        red,
        black,
        deal_seed: seed,
        limits: limits(&args.limits)?,
        tc: None,
        timemargin: std::time::Duration::ZERO,
        move_timeout: None,
        max_plies: args.max_plies,
        omniscient: ByColor {
            red: false,
            black: false,
        },
        stop_at: args.ply,
        boards: args.boards,
        style,
        expected: None,
        show: None,
        located: None,
    })
}
