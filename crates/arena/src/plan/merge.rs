//! `arena merge`'s plan: the shard folders and the merged folder. Whether the shards belong
//! together is known only once they are read, which [`crate::run::merge`] does.

use std::path::PathBuf;

use crate::cli::merge::MergeArgs;

/// A validated `arena merge`.
#[derive(Debug)]
pub struct MergePlan {
    /// The shard folders, every shard once (clap requires one at least).
    pub dirs: Vec<PathBuf>,
    /// The merged results folder.
    pub out: PathBuf,
    /// Report even though pairs are missing.
    pub partial: bool,
    /// Merge shards that different builds played.
    pub allow_mixed_builds: bool,
}

impl MergePlan {
    /// The plan of `arena merge` arguments (clap has checked all there is to check).
    pub fn new(args: MergeArgs) -> MergePlan {
        MergePlan {
            dirs: args.dirs,
            out: args.out,
            partial: args.partial,
            allow_mixed_builds: args.allow_mixed_builds,
        }
    }
}
