//! `arena`: parses the command line, validates it into a plan, and runs it. The work is in the
//! `arena` library.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use arena::cli::Cli;
use arena::plan::Plan;
use arena::report::GateResult;
use arena::run::RunError;
use arena::stats::Hypothesis;
use clap::{CommandFactory, FromArgMatches};

/// Exit status of `arena sprt` when H0 is accepted (do not merge).
const EXIT_H0: u8 = 1;
/// Exit status for bad usage or configuration (the same clap uses for a bad command line).
const EXIT_BAD_INPUT: u8 = 2;
/// Exit status of `arena replay DIR` when the replay differs from the record, and of `arena
/// sprt` when the test is inconclusive at its cap.
const EXIT_DIFFERENT: u8 = 3;
/// Exit status of a runtime failure: output or results that cannot be written.
const EXIT_IO: u8 = 4;
/// Exit status of `arena sprt` stopped by an engine failure (without `--recover`).
const EXIT_ENGINE_FAILURE: u8 = 5;

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // Whether the subcommand's argument `id` was given on the command line (not defaulted).
    let given = |id: &str| {
        matches.subcommand().is_some_and(|(_, sub)| {
            sub.try_get_raw(id).is_ok_and(|v| v.is_some())
                && sub.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
        })
    };
    let stdout = std::io::stdout();
    // ANSI colour only for a terminal, and never when NO_COLOR is set (https://no-color.org).
    let colour_ok =
        stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let plan = match Plan::from_cli(cli, colour_ok, &given) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    arena::engines::interrupt::install();
    let mut out = stdout.lock();
    let result = match &plan {
        Plan::Perft(p) => arena::commands::perft::run(p, &mut out),
        Plan::Show(s) => arena::commands::show::run(s, &mut out),
        Plan::Engines => arena::engines::write_help(&mut out),
        Plan::Bench(b) => arena::commands::bench::run(b, &mut out),
        Plan::Export(args) => match arena::commands::export::run(args, &mut out) {
            Ok(()) => Ok(()),
            Err(e) => return command_failed(&e),
        },
        Plan::Tune(args) => match arena::commands::tune::run(args, &mut out) {
            Ok(()) => Ok(()),
            Err(e) => return command_failed(&e),
        },
        Plan::Solve(args) => match arena::commands::solve::run(args, &mut out) {
            Ok(()) => Ok(()),
            Err(e) => return command_failed(&e),
        },
        Plan::Suite(args) => match arena::commands::suite::run(args, &mut out) {
            Ok(()) => Ok(()),
            Err(e) => return command_failed(&e),
        },
        Plan::Stats(args) => match arena::commands::stats::run(args, &mut out) {
            Ok(()) => Ok(()),
            Err(arena::commands::stats::StatsCmdError::Io(e)) => Err(e),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(EXIT_BAD_INPUT);
            }
        },
        Plan::Match(m) => match arena::commands::play::run(m, &mut out) {
            Ok(()) => Ok(()),
            Err(e) => return run_failed(&e),
        },
        Plan::Sprt(s) => {
            let result = match arena::commands::sprt::run(s, &mut out) {
                Ok(r) => r,
                Err(e) => return run_failed(&e),
            };
            let _ = out.flush();
            return match result {
                GateResult::Accepted(Hypothesis::H1) => ExitCode::SUCCESS,
                GateResult::Accepted(Hypothesis::H0) => ExitCode::from(EXIT_H0),
                GateResult::Inconclusive => ExitCode::from(EXIT_DIFFERENT),
                GateResult::EngineFailure => ExitCode::from(EXIT_ENGINE_FAILURE),
            };
        }
        Plan::Tournament(t) => match arena::commands::tournament::run(t, &mut out) {
            Ok(()) => Ok(()),
            Err(e) => return run_failed(&e),
        },
        Plan::Leak(l) => match arena::commands::leak::run(l, &mut out) {
            Ok(()) => Ok(()),
            Err(e) => return run_failed(&e),
        },
        Plan::Merge(m) => match arena::commands::merge::run(m, &mut out) {
            Ok(()) => Ok(()),
            Err(e) => return run_failed(&e),
        },
        Plan::History(h) => match arena::report::history::run(&h.dir, &mut out) {
            Ok(()) => Ok(()),
            Err(e) => return run_failed(&e),
        },
        Plan::Replay(r) => match arena::commands::replay::run(r, &mut out) {
            Ok(true) => Ok(()),
            Ok(false) => {
                let _ = out.flush();
                return ExitCode::from(EXIT_DIFFERENT);
            }
            Err(e) => Err(e),
        },
    }
    .and_then(|()| out.flush());
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`arena show | head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: writing output: {e}");
            ExitCode::from(EXIT_IO)
        }
    }
}

/// The exit of `export` or `tune` that failed: bad input is 2, an unwritable output 4.
fn command_failed(e: &arena::error::CommandError) -> ExitCode {
    eprintln!("error: {e}");
    match e {
        arena::error::CommandError::Input(_) => ExitCode::from(EXIT_BAD_INPUT),
        arena::error::CommandError::Io(_) => ExitCode::from(EXIT_IO),
    }
}

/// The exit of a run that failed: bad configuration (an unusable folder or journal) is 2, a
/// failure to write results 4.
fn run_failed(e: &RunError) -> ExitCode {
    eprintln!("error: {e}");
    match e {
        RunError::Output(_) => ExitCode::from(EXIT_BAD_INPUT),
        RunError::Io(_) => ExitCode::from(EXIT_IO),
    }
}
