//! `arena suite`'s plan: the folders to mine, a suite file that can be written outside them, the
//! proofs' threads and budget, and each kind's settings, checked before any game is read.

use std::path::PathBuf;

use crate::cli::suite::{CommonArgs, MatesArgs, SuiteArgs, SuiteKind, TacticsArgs};
use crate::error::Error;

pub use crate::analysis::suite::{CommonPlan, MatesPlan, TacticsPlan};

/// A validated `arena suite`.
#[derive(Debug)]
pub enum SuitePlan {
    /// `arena suite mates`.
    Mates(MatesPlan),
    /// `arena suite tactics`.
    Tactics(TacticsPlan),
}

impl SuitePlan {
    /// Validates `arena suite` arguments.
    ///
    /// # Errors
    /// An `--out` that is a folder, inside a games folder or in a folder that cannot be written;
    /// a kind's setting out of range; threads out of range.
    pub fn new(args: SuiteArgs) -> Result<SuitePlan, Error> {
        match args.kind {
            SuiteKind::Mates(a) => {
                check_out(&a.common)?;
                let MatesArgs {
                    common,
                    max_moves,
                    per_length,
                } = a;
                if !(1..=8).contains(&max_moves) {
                    return Err(Error::Input("--max-moves must be from 1 to 8".into()));
                }
                Ok(SuitePlan::Mates(MatesPlan {
                    common: common_plan(common)?,
                    max_moves,
                    per_length,
                }))
            }
            SuiteKind::Tactics(a) => {
                check_out(&a.common)?;
                let TacticsArgs {
                    common,
                    min_gain,
                    depth,
                    min_hidden,
                    skip,
                    max_balance,
                    per_game,
                    max,
                    mate_moves,
                } = a;
                if mate_moves > 8 {
                    return Err(Error::Input("--mate-moves must be from 0 to 8".into()));
                }
                if depth == 0 || depth > 4 {
                    return Err(Error::Input("--depth must be from 1 to 4".into()));
                }
                if min_gain < 1 {
                    return Err(Error::Input("--min-gain must be at least 1".into()));
                }
                Ok(SuitePlan::Tactics(TacticsPlan {
                    common: common_plan(common)?,
                    min_gain,
                    depth,
                    min_hidden,
                    skip,
                    max_balance,
                    per_game,
                    max,
                    mate_moves,
                }))
            }
        }
    }
}

/// The output must not be inside a folder the games come from, and must be writable, before
/// any proof is started.
fn check_out(common: &CommonArgs) -> Result<(), Error> {
    let out = &common.out;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if let Ok(parent) = parent.canonicalize() {
        for dir in &common.dirs {
            if dir.canonicalize().is_ok_and(|d| parent.starts_with(&d)) {
                return Err(Error::Input(format!(
                    "--out {}: inside the games folder {}; write the suite elsewhere",
                    out.display(),
                    dir.display()
                )));
            }
        }
    }
    let target =
        crate::records::files::check_output(out).map_err(|m| Error::Input(format!("--out {m}")))?;
    // A device or pipe is written through; a file is made beside what the links lead to.
    if let crate::records::files::Target::New(p) | crate::records::files::Target::Regular(p) =
        &target
    {
        let folder = p.parent().filter(|p| !p.as_os_str().is_empty());
        crate::records::files::probe_folder(folder.unwrap_or(std::path::Path::new(".")))
            .map_err(|e| Error::Input(format!("--out {}: {e}", out.display())))?;
    }
    Ok(())
}

/// `--threads` (1 to 1024, by default the machine's cores) and the rest of the common arguments.
fn common_plan(common: CommonArgs) -> Result<CommonPlan, Error> {
    let threads = common
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !(1..=1024).contains(&threads) {
        return Err(Error::Input("--threads must be from 1 to 1024".into()));
    }
    Ok(CommonPlan {
        dirs: common.dirs,
        out: common.out,
        threads,
        budget: common.budget,
    })
}
