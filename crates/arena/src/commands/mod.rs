//! One module per command, each a thin layer over the plan, the run core and the reports.

pub mod analyze;
pub mod bench;
pub mod book;
pub mod check;
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
pub mod show;
pub mod solve;
pub mod sprt;
pub mod spsa;
pub mod stats;
pub mod suite;
pub mod tournament;
pub mod tune;
pub mod view;
