//! Validated arguments: every command goes from its clap arguments ([`crate::cli`]) to a plan
//! before anything runs, so a bad flag, a file that does not parse or an unusable `--out` fails
//! in milliseconds with a message that names it. One module per command (`plan::match_`,
//! `plan::export`, …), the run setup that `match`, `sprt`, `tournament` and `leak` share in
//! [`run`], `--rules` in [`rules_arg`]; [`Plan`] is the validated command.

use jieqi_core::{Position, Rules};
use jieqi_engine::Limits;

use crate::cli::common::LimitArgs;
use crate::cli::{Cli, Command};
use crate::engines::{self, EngineEntry};
use crate::error::Error;
use crate::run::RunSetup;

pub mod analyze;
pub mod bench;
pub mod book;
pub mod export;
pub mod history;
pub mod jai;
pub mod label;
pub mod leak;
pub mod match_;
pub mod merge;
pub mod perft;
pub mod replay;
pub mod rules_arg;
pub mod run;
pub mod show;
pub mod solve;
pub mod sprt;
pub mod spsa;
pub mod stats;
pub mod suite;
pub mod tournament;
pub mod tune;
pub mod view;

/// A validated command, ready to run.
#[derive(Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one plan per process; boxing would buy nothing"
)]
pub enum Plan {
    /// `arena perft`.
    Perft(perft::PerftPlan),
    /// `arena show`.
    Show(show::ShowPlan),
    /// `arena match`.
    Match(RunSetup),
    /// `arena sprt`.
    Sprt(RunSetup),
    /// `arena tournament`.
    Tournament(RunSetup),
    /// `arena leak`.
    Leak(RunSetup),
    /// `--check` of `match`, `sprt`, `tournament` or `leak`: the validated run, to be described
    /// and not played.
    Check(RunSetup),
    /// `arena merge`.
    Merge(merge::MergePlan),
    /// `arena book`.
    Book(book::BookPlan),
    /// `arena history`.
    History(history::HistoryPlan),
    /// `arena replay`.
    Replay(replay::ReplayPlan),
    /// `arena stats`.
    Stats(stats::StatsPlan),
    /// `arena export`.
    Export(export::ExportPlan),
    /// `arena analyze`.
    Analyze(analyze::AnalyzePlan),
    /// `arena view`.
    View(view::ViewPlan),
    /// `arena tune`.
    Tune(tune::TunePlan),
    /// `arena spsa`.
    Spsa(spsa::SpsaPlan),
    /// `arena label`.
    Label(label::LabelPlan),
    /// `arena solve`.
    Solve(solve::SolvePlan),
    /// `arena suite`.
    Suite(suite::SuitePlan),
    /// `arena engines`: the list, or (with `--spsa-params`) this engine's tunable keys.
    Engines(Option<crate::tuning::spsa::EngineKeys>),
    /// `arena jai`: the settings to start from.
    Jai(jai::JaiSettings),
    /// `arena bench`.
    Bench(bench::BenchPlan),
}

impl Plan {
    /// Validates the parsed command line. `colour_ok` says whether boards may use ANSI colour
    /// (stdout is a terminal and the user did not ask for no colour); `given(id)` whether the
    /// subcommand's argument `id` was given on the command line (not defaulted), which decides
    /// whether it wins over a config file's value.
    ///
    /// # Errors
    /// Bad input ([`Error::exit_code`] 2): a flag's value, rules, a FEN, a file or folder that
    /// cannot be used.
    pub fn from_cli(
        cli: Cli,
        colour_ok: bool,
        given: &dyn Fn(&str) -> bool,
    ) -> Result<Plan, Error> {
        Ok(match cli.command {
            Command::Perft(args) => Plan::Perft(perft::PerftPlan::new(args)?),
            Command::Show(args) => Plan::Show(show::ShowPlan::new(args, colour_ok)?),
            Command::Match(args) => {
                checked(args.run.check, match_::plan(args, given)?, Plan::Match)
            }
            Command::Sprt(args) => checked(args.run.check, sprt::plan(args, given)?, Plan::Sprt),
            Command::Tournament(args) => checked(
                args.run.check,
                tournament::plan(args, given)?,
                Plan::Tournament,
            ),
            Command::Leak(args) => checked(args.run.check, leak::plan(args, given)?, Plan::Leak),
            Command::Merge(args) => Plan::Merge(merge::MergePlan::new(args)),
            Command::Book(args) => Plan::Book(book::plan(args)?),
            Command::History(args) => Plan::History(history::HistoryPlan::new(args)),
            Command::Replay(args) => Plan::Replay(replay::plan(args, colour_ok, given)?),
            Command::Stats(args) => Plan::Stats(stats::plan(&args)?),
            Command::Export(args) => Plan::Export(export::ExportPlan::new(args)?),
            Command::Analyze(args) => Plan::Analyze(analyze::plan(args, given)?),
            Command::View(args) => Plan::View(view::plan(args)?),
            Command::Tune(args) => Plan::Tune(tune::TunePlan::new(args)?),
            Command::Spsa(args) => Plan::Spsa(spsa::plan(args)?),
            Command::Label(args) => Plan::Label(label::plan(args)?),
            Command::Solve(args) => Plan::Solve(solve::SolvePlan::new(args)?),
            Command::Suite(args) => Plan::Suite(suite::SuitePlan::new(args)?),
            Command::Engines(args) => Plan::Engines(
                args.spsa_params
                    .map(|name| crate::tuning::spsa::EngineKeys::of(&name))
                    .transpose()?,
            ),
            Command::Jai(args) => Plan::Jai(jai::JaiSettings::from_args(args)?),
            Command::Bench(args) => Plan::Bench(bench::BenchPlan::new(args)?),
        })
    }
}

/// A game-playing command's plan: the run itself, or with `--check` ([`Plan::Check`]) the run to
/// describe instead of playing it.
fn checked(check: bool, setup: RunSetup, play: fn(RunSetup) -> Plan) -> Plan {
    if check {
        Plan::Check(setup)
    } else {
        play(setup)
    }
}

/// The position `--fen` names under `rules`, or the rules' start position.
fn position(fen: Option<String>, rules: &Rules) -> Result<Position, Error> {
    match fen {
        None => Ok(Position::start(rules)),
        Some(fen) => Position::from_fen(&fen, rules).map_err(|source| Error::Fen {
            fen: fen.clone(),
            source,
        }),
    }
}

/// `--nodes`, `--depth`, `--movetime`: each at least 1 when given.
fn limits(args: &LimitArgs) -> Result<Limits, Error> {
    if args.nodes == Some(0) {
        return Err(Error::arg("--nodes", "must be at least 1"));
    }
    if args.depth == Some(0) {
        return Err(Error::arg("--depth", "must be at least 1"));
    }
    if args.movetime == Some(0) {
        return Err(Error::arg("--movetime", "must be at least 1 ms"));
    }
    Ok(Limits {
        nodes: args.nodes,
        depth: args.depth,
        movetime: args.movetime.map(std::time::Duration::from_millis),
        clock: None,
    })
}

/// The engine an `--engine` (or `flag`) argument names.
fn engine(flag: &'static str, arg: &str) -> Result<EngineEntry, Error> {
    engines::parse_arg(arg).map_err(|e| Error::arg(flag, e.to_string()))
}

/// Splits a comma-separated list, without surrounding brackets; no items for blank text.
pub fn items(text: &str) -> Vec<&str> {
    let t = text.trim();
    let t = t.strip_prefix('[').unwrap_or(t);
    let t = t.strip_suffix(']').unwrap_or(t).trim();
    if t.is_empty() {
        Vec::new()
    } else {
        t.split(',').map(str::trim).collect()
    }
}
