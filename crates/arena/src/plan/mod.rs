//! Validated arguments: every command goes from its clap arguments to a plan
//! ([`validate`], re-exported here) before anything runs; `--rules` ([`rules_arg`]).

pub mod replay;
pub mod rules_arg;
pub mod tournament;
pub mod validate;

pub use validate::*;
