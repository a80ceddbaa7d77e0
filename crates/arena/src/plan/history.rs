//! `arena history`'s plan: the folder of nightly tournaments
//! ([`crate::report::history::run`] says when it holds none).

use std::path::PathBuf;

use crate::cli::history::HistoryArgs;

/// A validated `arena history`.
#[derive(Debug)]
pub struct HistoryPlan {
    /// The folder of tournament folders; `index.html` is written there.
    pub dir: PathBuf,
}

impl HistoryPlan {
    /// The plan of `arena history` arguments.
    pub fn new(args: HistoryArgs) -> HistoryPlan {
        HistoryPlan { dir: args.dir }
    }
}
