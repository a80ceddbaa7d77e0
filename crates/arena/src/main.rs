//! `arena`: parses the command line, validates it into a plan, and runs it. The work is in the
//! `arena` library; this file decides the exit status, in one place ([`main`]).

#![forbid(unsafe_code)]

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use arena::cli::Cli;
use arena::commands;
use arena::error::Error;
use arena::plan::Plan;
use arena::report::{GateResult, RunEnd};
use arena::stats::Hypothesis;
use arena::util::interrupt::EXIT_INTERRUPTED;
use clap::{CommandFactory, FromArgMatches};

/// Exit status of `arena sprt` when H0 is accepted (do not merge), and of `arena solve` when an
/// engine solved fewer positions than `--min-solved`: a test that failed.
const EXIT_H0: u8 = 1;
/// Exit status of `arena replay DIR` when the replay differs from the record, and of `arena
/// sprt` when the test is inconclusive at its cap.
const EXIT_DIFFERENT: u8 = 3;
/// Exit status of `arena sprt` stopped by an engine failure (without `--recover`), and of `arena
/// match`, `tournament`, `leak` and `merge` when an engine failed in more than
/// [`arena::run::scoreboard::FAILURE_SHARE`] of its games.
const EXIT_ENGINE_FAILURE: u8 = 5;

/// What a command that ran to its end came to: its result, not an error.
enum Outcome {
    /// The command did its work (exit 0, once its output is flushed).
    Done,
    /// The gate's verdict.
    Verdict(GateResult),
    /// `arena replay DIR`: the replay differs from the record.
    Differs,
    /// `arena solve --min-solved`: an engine solved fewer positions.
    BelowMinimum,
    /// A match, tournament, leak run or merge in which an engine failed in more than
    /// [`arena::run::scoreboard::FAILURE_SHARE`] of its games.
    EnginesFailed,
    /// Ctrl-C (or SIGTERM) stopped the command, which kept and reported what had finished.
    Interrupted,
}

impl Outcome {
    /// A played run's outcome by how it ended.
    fn of_run(end: RunEnd) -> Outcome {
        match end {
            RunEnd::Sound => Outcome::Done,
            RunEnd::EnginesFailed => Outcome::EnginesFailed,
            RunEnd::Interrupted => Outcome::Interrupted,
        }
    }
}

/// Maps the result of [`run`] to the process status: a command's outcome (0, or the gate's
/// verdict, 3 for a replay that differs, 1 for a solve below `--min-solved`, 5 for a run whose
/// engine failed too often, 130 for one Ctrl-C stopped), else the error's code (2 bad input, 4 output that
/// cannot be written; clap's own for usage) after its message. A closed pipe (`arena show |
/// head`) is the reader's choice, not a failure.
fn main() -> ExitCode {
    let code = match run() {
        Ok(Outcome::Done) => 0,
        Ok(Outcome::Verdict(GateResult::Accepted(Hypothesis::H1))) => 0,
        Ok(Outcome::Verdict(GateResult::Accepted(Hypothesis::H0))) => EXIT_H0,
        Ok(Outcome::Verdict(GateResult::Inconclusive)) => EXIT_DIFFERENT,
        Ok(Outcome::Verdict(GateResult::EngineFailure)) => EXIT_ENGINE_FAILURE,
        Ok(Outcome::Verdict(GateResult::Repeated)) => EXIT_DIFFERENT,
        Ok(Outcome::Verdict(GateResult::Interrupted)) => EXIT_INTERRUPTED,
        Ok(Outcome::Differs) => EXIT_DIFFERENT,
        Ok(Outcome::BelowMinimum) => EXIT_H0,
        Ok(Outcome::EnginesFailed) => EXIT_ENGINE_FAILURE,
        Ok(Outcome::Interrupted) => EXIT_INTERRUPTED,
        Err(e) if e.is_broken_pipe() => 0,
        Err(e) => {
            match &e {
                // Help and --version: clap's own rendering on stdout, coloured on a terminal.
                Error::Usage(usage) if !usage.use_stderr() => {
                    let _ = usage.print();
                }
                // A usage error quotes what was typed (`invalid value '…'`): plain text, escaped
                // as every other message is.
                Error::Usage(usage) => {
                    let _ = write!(
                        std::io::stderr(),
                        "{}",
                        arena::util::text::message(&usage.render().to_string())
                    );
                }
                // Escaped and cut to length: no control character or bidi control of an
                // input reaches the terminal raw, however the message quoted it.
                // Written, not `eprintln!`: a closed stderr (`2>&1 | head`) must not turn the
                // error's exit status into a panic's.
                _ => {
                    let _ = writeln!(
                        std::io::stderr(),
                        "error: {}",
                        arena::util::text::message(&e.to_string())
                    );
                }
            }
            e.exit_code()
        }
    };
    ExitCode::from(code)
}

/// Installs the Ctrl-C and SIGTERM handler (once). The first asks everything to stop
/// ([`arena::util::interrupt::request`]) and ends the engines' process groups; a command that
/// polls the request (`polls`) then keeps and reports what finished and returns
/// [`Outcome::Interrupted`]. A second one (a user who will not wait for that), or any for a
/// command that does not poll, exits here with status 130.
fn install_interrupt_handler(polls: bool) {
    // A handler that cannot be installed leaves the default: the process dies silently.
    let _ = ctrlc::set_handler(move || {
        if arena::util::interrupt::request() {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        arena::engines::interrupt::end_engines();
        if !polls {
            let _ = writeln!(std::io::stderr(), "\ninterrupted");
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
    });
}

/// Whether the command of `plan` polls the interruption ([`arena::util::interrupt::requested`])
/// and ends on its own, with [`Outcome::Interrupted`], after writing and reporting what finished.
fn polls_interrupt(plan: &Plan) -> bool {
    matches!(
        plan,
        Plan::Match(_)
            | Plan::Sprt(_)
            | Plan::Tournament(_)
            | Plan::Leak(_)
            | Plan::Jai(_)
            | Plan::Analyze(_)
            | Plan::Solve(_)
            | Plan::Tune(_)
            | Plan::Spsa(_)
            | Plan::Label(_)
    )
}

/// Parses the command line, validates it into a plan and runs it.
fn run() -> Result<Outcome, Error> {
    let matches = Cli::command().try_get_matches().map_err(Error::Usage)?;
    let cli = Cli::from_arg_matches(&matches).map_err(Error::Usage)?;
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
    let plan = Plan::from_cli(cli, colour_ok, &given)?;
    install_interrupt_handler(polls_interrupt(&plan));
    // JAI answers from the match's threads while this one reads commands: it owns stdout.
    if let Plan::Jai(settings) = &plan {
        let input = std::io::BufReader::new(std::io::stdin());
        return commands::jai::run(settings, input, Box::new(stdout)).map(Outcome::of_run);
    }
    let mut out = stdout.lock();
    let outcome = match &plan {
        Plan::Perft(p) => commands::perft::run(p, &mut out).map(|()| Outcome::Done),
        Plan::Show(s) => commands::show::run(s, &mut out).map(|()| Outcome::Done),
        Plan::Engines(keys) => {
            commands::engines::run(keys.as_ref(), &mut out).map(|()| Outcome::Done)
        }
        Plan::Jai(_) => Ok(Outcome::Done),
        Plan::Bench(b) => commands::bench::run(b, &mut out).map(|()| Outcome::Done),
        Plan::Export(e) => commands::export::run(e, &mut out).map(|()| Outcome::Done),
        Plan::Analyze(a) => commands::analyze::run(a, &mut out).map(|end| match end {
            commands::analyze::Ended::Done => Outcome::Done,
            commands::analyze::Ended::Interrupted => Outcome::Interrupted,
        }),
        Plan::View(v) => commands::view::run(v, &mut out).map(|()| Outcome::Done),
        Plan::Tune(t) => commands::tune::run(t, &mut out).map(|()| Outcome::Done),
        Plan::Spsa(s) => commands::spsa::run(s, &mut out).map(|end| match end {
            commands::spsa::Ended::Done => Outcome::Done,
            commands::spsa::Ended::Interrupted => Outcome::Interrupted,
        }),
        Plan::Label(l) => commands::label::run(l, &mut out).map(|end| match end {
            commands::label::Ended::Done => Outcome::Done,
            commands::label::Ended::Interrupted => Outcome::Interrupted,
        }),
        Plan::Solve(s) => commands::solve::run(s, &mut out).map(|end| match end {
            commands::solve::Ended::Passed => Outcome::Done,
            commands::solve::Ended::BelowMinimum => Outcome::BelowMinimum,
            commands::solve::Ended::Interrupted => Outcome::Interrupted,
        }),
        Plan::Suite(s) => commands::suite::run(s, &mut out).map(|()| Outcome::Done),
        Plan::Stats(s) => commands::stats::run(s, &mut out).map(|()| Outcome::Done),
        Plan::Match(m) => commands::match_::run(m, &mut out).map(Outcome::of_run),
        Plan::Sprt(s) => commands::sprt::run(s, &mut out).map(Outcome::Verdict),
        Plan::Tournament(t) => commands::tournament::run(t, &mut out).map(Outcome::of_run),
        Plan::Leak(l) => commands::leak::run(l, &mut out).map(Outcome::of_run),
        Plan::Check(c) => commands::check::run(c, &mut out).map(|()| Outcome::Done),
        Plan::Merge(m) => commands::merge::run(m, &mut out).map(Outcome::of_run),
        Plan::Book(b) => commands::book::run(b, &mut out).map(|()| Outcome::Done),
        Plan::History(h) => commands::history::run(h, &mut out).map(|()| Outcome::Done),
        Plan::Replay(r) => commands::replay::run(r, &mut out).map(|same| {
            if same {
                Outcome::Done
            } else {
                Outcome::Differs
            }
        }),
    }?;
    match outcome {
        // A command that did its work fails if its output cannot be flushed.
        Outcome::Done => out.flush().map_err(Error::Output)?,
        // A result is the exit status whatever becomes of the output.
        Outcome::Verdict(_)
        | Outcome::Differs
        | Outcome::BelowMinimum
        | Outcome::EnginesFailed
        | Outcome::Interrupted => {
            let _ = out.flush();
        }
    }
    Ok(outcome)
}
