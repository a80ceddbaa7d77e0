//! Engines as the arena sees them: `--engine` arguments → entries ([`entry`], re-exported here),
//! the UCI client for external engines ([`uci`], its system calls in [`fd`]) and its dialects ([`dialect`]), their logs ([`logs`]), clocks
//! ([`time_control`]) and Ctrl-C handling ([`interrupt`]).

pub mod dialect;
pub mod entry;
pub mod fd;
pub mod interrupt;
pub mod logs;
pub mod time_control;
pub mod uci;

pub use entry::*;
