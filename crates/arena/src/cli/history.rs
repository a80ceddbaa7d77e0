//! Arguments of `arena history`.

use clap::Args;

/// Arguments of `arena history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// A folder of tournament folders (one per night, e.g. results/nightly/), each with a
    /// ratings.json; writes DIR/index.html.
    #[arg(value_name = "DIR")]
    pub dir: std::path::PathBuf,
}
