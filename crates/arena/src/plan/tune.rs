//! `arena tune`'s plan: the folders, the starting weights (read here), the weights kept fixed
//! and the fit's settings, each checked before any game is read.

use std::path::PathBuf;

use jieqi_search::eval::EvalWeights;

use crate::cli::tune::TuneArgs;
use crate::error::Error;
use crate::tuning::weights::{PST_NAMES, fixes, named};

/// The largest `--rate`, in centipawns: a step of the fit that moves a weight by a pawn.
pub const MAX_RATE: f64 = 100.0;

/// The most `--iterations`.
pub const MAX_ITERATIONS: u32 = 1_000_000;

/// The fewest positions the fit takes (`--max-positions` below it could never fit).
pub const MIN_POSITIONS: usize = 1000;

/// The most `--max-positions` (a bound on memory: each position is kept with its features).
pub const MAX_POSITIONS: usize = 100_000_000;

/// A validated `arena tune`: the tuner's settings ([`crate::tuning::TuneSettings`]), checked
/// here.
pub use crate::tuning::TuneSettings as TunePlan;

impl TunePlan {
    /// Validates `arena tune` arguments and reads `--eval`.
    ///
    /// # Errors
    /// A number flag out of its range (or not finite), a folder given twice (by its path or as
    /// another copy of the same run), a folder without a recorded run, a weights file that cannot
    /// be read, a `--fix` name that is no weight.
    pub fn new(args: TuneArgs) -> Result<TunePlan, Error> {
        use crate::util::text::number;
        if !(0.0..=1.0).contains(&args.lambda) {
            return Err(Error::Input(format!(
                "--lambda {}: give a share in [0, 1]",
                number(args.lambda)
            )));
        }
        if !(0.0..=1.0).contains(&args.l2) {
            return Err(Error::Input(format!(
                "--l2 {}: give a weight in [0, 1]",
                number(args.l2)
            )));
        }
        crate::records::files::check_output(&args.out)
            .map_err(|m| Error::Input(format!("--out {m}")))?;
        if !(0.0..0.9).contains(&args.holdout) {
            return Err(Error::Input(format!(
                "--holdout {}: give a share in [0, 0.9)",
                number(args.holdout)
            )));
        }
        if !(args.rate > 0.0 && args.rate <= MAX_RATE) {
            return Err(Error::Input(format!(
                "--rate {}: give a step in (0, {MAX_RATE}] centipawns",
                number(args.rate)
            )));
        }
        if !(1..=MAX_ITERATIONS).contains(&args.iterations) {
            return Err(Error::Input(format!(
                "--iterations {}: give 1 to {MAX_ITERATIONS} steps",
                args.iterations
            )));
        }
        if !(MIN_POSITIONS..=MAX_POSITIONS).contains(&args.max_positions) {
            return Err(Error::Input(format!(
                "--max-positions {}: give {MIN_POSITIONS} to {MAX_POSITIONS} (the fit needs at \
                 least {MIN_POSITIONS} positions)",
                args.max_positions
            )));
        }
        let base = match &args.eval {
            Some(p) => EvalWeights::from_json_file(p).map_err(Error::Input)?,
            None => EvalWeights::default(),
        };
        distinct_runs(&args.dirs)?;
        let names = named(&base);
        for f in &args.fix {
            if !names.iter().any(|(k, _)| fixes(f, k)) {
                return Err(Error::Input(format!(
                    "--fix {f}: no such weight; give a key of configs/eval/default.json (such \
                     as pawn or tempo), a table pst.<{}>, or one of its values pst.<table>[i], \
                     i from 0 to 49",
                    PST_NAMES.join("|")
                )));
            }
        }
        let data = chunk_files(&args.data)?;
        if args.out.extension().is_some_and(|e| e == "jqd") {
            return Err(Error::Input(format!(
                "--out {}: a .jqd name is a data chunk's, which is never rewritten: give a \
                 .json weights file",
                args.out.display()
            )));
        }
        Ok(TunePlan {
            dirs: args.dirs,
            data,
            base,
            out: args.out,
            holdout: args.holdout,
            skip: args.skip,
            iterations: args.iterations,
            rate: args.rate,
            fix: args.fix,
            max_positions: args.max_positions,
            lambda: args.lambda,
            seed: args.seed,
            pst: args.pst,
            l2: args.l2,
            eval_path: args.eval,
        })
    }
}

/// The chunk files of `--data`: each file as given, each folder's `.jqd` files in name order;
/// a path given twice (or a folder with no chunk) is refused.
fn chunk_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| Error::Input(format!("--data {}: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "jqd") && f.is_file())
                .collect();
            if found.is_empty() {
                return Err(Error::Input(format!(
                    "--data {}: no .jqd chunk in it",
                    p.display()
                )));
            }
            found.sort();
            files.extend(found);
        } else if p.is_file() {
            files.push(p.clone());
        } else {
            return Err(Error::Input(format!(
                "--data {}: no such file or folder",
                p.display()
            )));
        }
    }
    let mut real: Vec<PathBuf> = files
        .iter()
        .map(|f| f.canonicalize().unwrap_or_else(|_| f.clone()))
        .collect();
    real.sort();
    if let Some(w) = real.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::Input(format!(
            "--data: {} given twice (its positions would count twice)",
            w[0].display()
        )));
    }
    Ok(files)
}

/// Refuses a folder given twice, by its path (`runs/a` and `runs/./a`, a link to it) or as
/// another copy of the same run (the same fingerprint and shard, or a whole run and one of its
/// shards): its games would count twice, and a game could fall in both the fit and the held-out
/// share.
fn distinct_runs(dirs: &[PathBuf]) -> Result<(), Error> {
    let mut seen: Vec<(&PathBuf, PathBuf, crate::run::MatchSetup)> = Vec::new();
    for dir in dirs {
        let (_, record, _) = crate::run::folder::recorded_run(dir).map_err(Error::Input)?;
        let real = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        for (other, other_real, other_record) in &seen {
            if *other_real == real {
                return Err(Error::Input(format!(
                    "{} and {} are the same folder: give each folder once (its games would \
                     count twice)",
                    other.display(),
                    dir.display()
                )));
            }
            let overlap = match (other_record.shard, record.shard) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            };
            if !record.fingerprint.is_empty()
                && other_record.fingerprint == record.fingerprint
                && overlap
            {
                return Err(Error::Input(format!(
                    "{} and {} hold the same run (fingerprint {}): give one of them (its games \
                     would count twice)",
                    other.display(),
                    dir.display(),
                    record.fingerprint
                )));
            }
        }
        seen.push((dir, real, record));
    }
    Ok(())
}
