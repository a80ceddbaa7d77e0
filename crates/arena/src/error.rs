//! The one error every step of the arena returns — validating the command line into a plan,
//! running a command, writing its results — and the exit status it maps to
//! ([`Error::exit_code`]): 2 for bad input, 4 for output that cannot be written. `main` prints it
//! and exits with that status, in one place. A command's *result* is no error: the gate's verdict
//! (0, 1, 3, 5) and a replay that differs from its record (3) are values the commands return.

use jieqi_core::{FenError, PositionError};

/// Exit status for bad usage or input (the same clap uses for a bad command line).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status of a runtime failure: output or results that cannot be written.
pub const EXIT_IO: u8 = 4;

/// Why a command did not run or did not finish; the message names the flag, file or folder.
#[derive(Debug)]
pub enum Error {
    /// The command line does not parse, or asks for help or the version: clap's own message
    /// and exit status (2, or 0 for `--help` and `--version`).
    Usage(clap::Error),
    /// A flag's value is wrong; the message says how (exit 2).
    Arg {
        /// The flag (`--engine`, `--pairs`, …).
        flag: &'static str,
        /// What is wrong.
        message: String,
    },
    /// `--rules` gives no usable rule set (exit 2); the error is `plan::rules_arg::RulesArgError`.
    Rules(Box<dyn std::error::Error + Send + Sync>),
    /// `--fen` does not read, or reads into an illegal position (exit 2).
    Fen {
        /// The FEN as given.
        fen: String,
        /// What is wrong with it.
        source: FenError,
    },
    /// `--seed` under rules without hidden pieces (exit 2).
    SeedNeedsHidden {
        /// The rule set's name.
        rules: String,
    },
    /// The deal does not fit the start position (a bug, not bad input; exit 2).
    DealMismatch {
        /// The seed.
        seed: u64,
        /// What the position objected to.
        source: PositionError,
    },
    /// A folder, record or file that cannot be used, or arguments that do not fit it; the
    /// message names it (exit 2).
    Input(String),
    /// Writing a run's results failed (exit 4).
    Results(std::io::Error),
    /// Writing the command's output failed (exit 4; a closed pipe, `arena show | head`, is the
    /// reader's choice and no failure: see [`Error::is_broken_pipe`]).
    Output(std::io::Error),
    /// A file or folder cannot be written; the message names it (exit 4).
    Write(String),
}

impl Error {
    /// A flag's value is wrong: `message` says how (a text, or a typed error of a lower layer,
    /// such as the engines' `TimeControlError` or `CannotPlay`).
    pub fn arg(flag: &'static str, message: impl core::fmt::Display) -> Error {
        Error::Arg {
            flag,
            message: message.to_string(),
        }
    }

    /// The process's exit status for this error: 2 for bad usage or input, 4 for output or
    /// results that cannot be written (clap's own status for [`Error::Usage`]).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(e) => u8::try_from(e.exit_code()).unwrap_or(EXIT_BAD_INPUT),
            Error::Arg { .. }
            | Error::Rules(_)
            | Error::Fen { .. }
            | Error::SeedNeedsHidden { .. }
            | Error::DealMismatch { .. }
            | Error::Input(_) => EXIT_BAD_INPUT,
            Error::Results(_) | Error::Output(_) | Error::Write(_) => EXIT_IO,
        }
    }

    /// Whether writing the output failed because its reader closed the pipe.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::Usage(e) => write!(f, "{e}"),
            Error::Arg { flag, message } => write!(f, "{flag}: {message}"),
            Error::Rules(e) => write!(f, "{e}"),
            Error::Fen { fen, source } => write!(f, "--fen '{fen}': {source}"),
            Error::SeedNeedsHidden { rules } => write!(
                f,
                "--seed: rules '{rules}' have no hidden pieces, so there is no deal to show \
                 (use --fen, or rules with hidden pieces such as standard)"
            ),
            Error::DealMismatch { seed, source } => write!(
                f,
                "--seed {seed}: the deal does not fit the start position: {source}"
            ),
            Error::Input(m) | Error::Write(m) => f.write_str(m),
            Error::Results(e) => write!(f, "writing results: {e}"),
            Error::Output(e) => write!(f, "writing output: {e}"),
        }
    }
}

impl std::error::Error for Error {}

/// An I/O error while a run writes its results (the `?` of the run core and the reports).
impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Results(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::ErrorKind;

    fn io(kind: ErrorKind) -> std::io::Error {
        std::io::Error::new(kind, "closed")
    }

    #[test]
    fn bad_input_exits_2_and_output_that_cannot_be_written_4() {
        for e in [
            Error::arg("--pairs", "must be at least 1"),
            Error::Input("DIR: no such folder".into()),
            Error::SeedNeedsHidden {
                rules: "xiangqi".into(),
            },
            Error::Rules("--rules 'x': not a preset".into()),
        ] {
            assert_eq!(e.exit_code(), EXIT_BAD_INPUT, "{e}");
        }
        for e in [
            Error::Results(io(ErrorKind::Other)),
            Error::Output(io(ErrorKind::Other)),
            Error::Write("cannot write x".into()),
        ] {
            assert_eq!(e.exit_code(), EXIT_IO, "{e}");
        }
    }

    #[test]
    fn usage_errors_keep_claps_status() {
        use clap::CommandFactory;
        let help = crate::cli::Cli::command()
            .try_get_matches_from(["arena", "--help"])
            .expect_err("help is clap's error");
        assert_eq!(Error::Usage(help).exit_code(), 0);
        let bad = crate::cli::Cli::command()
            .try_get_matches_from(["arena", "nosuch"])
            .expect_err("no such command");
        assert_eq!(Error::Usage(bad).exit_code(), EXIT_BAD_INPUT);
    }

    #[test]
    fn only_a_closed_output_pipe_is_no_failure() {
        assert!(Error::Output(io(ErrorKind::BrokenPipe)).is_broken_pipe());
        assert!(!Error::Output(io(ErrorKind::Other)).is_broken_pipe());
        // A run's results that cannot be written are a failure whatever the cause: a gate
        // must not pass (exit 0) because its summary could not be printed.
        assert!(!Error::Results(io(ErrorKind::BrokenPipe)).is_broken_pipe());
    }

    #[test]
    fn messages_name_what_failed() {
        assert_eq!(
            Error::arg("--pairs", "must be at least 1").to_string(),
            "--pairs: must be at least 1"
        );
        assert_eq!(
            Error::Results(io(ErrorKind::Other)).to_string(),
            "writing results: closed"
        );
        assert_eq!(
            Error::Output(io(ErrorKind::Other)).to_string(),
            "writing output: closed"
        );
    }
}
