//! The raw command line, as clap parses it ([`args`], re-exported here), and the SPRT flags
//! several commands share ([`sprt_args`]). Nothing here is checked beyond its type;
//! [`crate::plan`] validates it.

pub mod args;
pub mod sprt_args;

pub use args::*;
