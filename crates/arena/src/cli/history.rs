//! Arguments of `arena history`.

use clap::Args;

/// Arguments of `arena history`.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// A folder of nights (e.g. results/nightly/): folders scripts/nightly.sh made, each with a
    /// night.json whose date is its name; other folders are skipped and named. Writes
    /// DIR/index.html (the newest night's series) and DIR/series-<key>.html per series.
    #[arg(value_name = "DIR")]
    pub dir: std::path::PathBuf,
}
