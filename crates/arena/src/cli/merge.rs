//! Arguments of `arena merge`.

use clap::Args;

/// Arguments of `arena merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard folders (of `match --shard` or `tournament --shard`), every shard once.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<std::path::PathBuf>,
    /// The merged results folder (must not exist, or hold an earlier merge of the same run).
    #[arg(long, value_name = "DIR", value_parser = crate::cli::common::out_path)]
    pub out: std::path::PathBuf,
    /// Report even though pairs are missing (a shard not finished or lost); the summary says
    /// which.
    #[arg(long)]
    pub partial: bool,
    /// Merge shards that different builds played (another arena binary, or another executable
    /// of an external engine; a clean build of the same commit counts as the same).
    ///
    /// Without it such a merge is refused; with it the merged record and summaries list every
    /// build and say MIXED.
    #[arg(long)]
    pub allow_mixed_builds: bool,
}
