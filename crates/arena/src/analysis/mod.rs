//! The analysis layer: a game studied after the fact. [`study`] is a game to look at (from a
//! results folder's record, or from a PGN or JieqiBox file: [`import`]), played through by the
//! referee; [`verdict`] is what a reference engine says of each of its plies (`arena analyze`),
//! and the report layer draws both (`report::viewer`).
//!
//! It sits above `run` (it searches positions with engine entries, on the run's scheduler) and
//! below `report`.

pub mod bench;
pub mod book;
pub mod import;
pub mod perft;
pub mod reference;
pub mod solve;
pub mod solve_journal;
pub mod study;
pub mod suite;
pub mod verdict;

pub use study::StudyGame;
pub use verdict::{Analysis, Class, PlyAnalysis, Summary, expected};
