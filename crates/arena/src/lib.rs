//! The `arena` tool's library, in layers (one folder each, lowest first; a module uses only its
//! own layer and lower ones, never in a circle — `tests/layers.rs` checks it). `src/main.rs` only
//! parses, validates, dispatches and maps the result to the exit status, in one place.
//!
//! - [`error`]: the one [`error::Error`] the commands return, with [`error::Error::exit_code`]
//!   (lower layers return their own small error types, converted into it by `From`);
//!   [`util`]: helpers with one home each (printable text and slugs, UTC time, the Ctrl-C
//!   request every long command polls).
//! - [`stats`]: pure statistics (Elo, SPRT, ratings, the bootstrap, the result block).
//! - [`records`]: what a run leaves on disk and reads back (game lines and their spans, the
//!   journal, every file written through `records::files`, deal seeds, shards, suites, and the
//!   PGN, JieqiBox and EPD formats in `records::formats`, reader beside writer).
//! - [`engines`]: `--engine` arguments → engine entries; the UCI client, logs, clocks, and the
//!   engine process groups ended on Ctrl-C.
//! - [`run`]: the run core every game-playing command is a thin layer over — the kind of run
//!   (`run::kind::RunKind`), what is played (`RunSpec`) and how (`RunOptions`), execution, stop
//!   rules, scheduler, scoreboard, one game. It prints nothing: what a person sees goes through
//!   a `run::observer::RunObserver` that `report` implements.
//! - [`analysis`]: a game studied after the fact: a recorded or exported game played through
//!   ([`analysis::StudyGame`]) and a reference engine's verdict on each ply (`arena analyze`).
//! - [`tuning`]: the evaluation tuner (`arena tune`): positions of recorded games and training
//!   data chunks and the linear fit; `arena label`'s labelling; and SPSA (`arena spsa`:
//!   `tuning::spsa`).
//! - [`report`]: what a person reads, chosen by the run's kind in one place
//!   ([`report::write_reports`]).
//! - [`cli`]: the raw clap arguments, one module per command; [`plan`]: validated arguments,
//!   one module per command, every bad-input error found before anything runs.
//! - [`commands`]: one module per command, each taking its plan.

#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod analysis;
pub mod cli;
pub mod commands;
pub mod engines;
pub mod error;
pub mod plan;
pub mod records;
pub mod report;
pub mod run;
pub mod stats;
pub mod tuning;
pub mod util;

pub use records::deal_seed::deal_for_seed;
