//! `arena tune`'s plan: the folders, the starting weights (read here), the weights kept fixed
//! and the fit's settings, each checked before any game is read.

use std::path::PathBuf;

use jieqi_search::eval::EvalWeights;

use crate::cli::tune::TuneArgs;
use crate::error::Error;

/// A validated `arena tune`.
#[derive(Debug)]
pub struct TunePlan {
    /// Results folders whose games to learn from.
    pub dirs: Vec<PathBuf>,
    /// The weights to start from (`--eval`, or the built-in ones).
    pub base: EvalWeights,
    /// Where to write the tuned weights.
    pub out: PathBuf,
    /// The share of the games held out of the fit, in [0, 0.9).
    pub holdout: f64,
    /// Plies skipped at the start of every game.
    pub skip: usize,
    /// Steps of the fit.
    pub iterations: u32,
    /// The step size of the fit, in centipawns.
    pub rate: f64,
    /// Weights kept as they are, by name (each one a weight of [`TunePlan::base`]).
    pub fix: Vec<String>,
    /// Most positions read.
    pub max_positions: usize,
    /// The share of the game result in each position's target, in [0, 1].
    pub lambda: f64,
    /// Seed of the training / held-out split.
    pub seed: u64,
}

impl TunePlan {
    /// Validates `arena tune` arguments and reads `--eval`.
    ///
    /// # Errors
    /// `--lambda` or `--holdout` out of range, a weights file that cannot be read, a `--fix`
    /// name that is no weight.
    pub fn new(args: TuneArgs) -> Result<TunePlan, Error> {
        if !(0.0..=1.0).contains(&args.lambda) {
            return Err(Error::Input(format!(
                "--lambda {}: give a share in [0, 1]",
                args.lambda
            )));
        }
        crate::records::files::check_output(&args.out)
            .map_err(|m| Error::Input(format!("--out {m}")))?;
        if !(0.0..0.9).contains(&args.holdout) {
            return Err(Error::Input(format!(
                "--holdout {}: give a share in [0, 0.9)",
                args.holdout
            )));
        }
        let base = match &args.eval {
            Some(p) => EvalWeights::from_json_file(p).map_err(Error::Input)?,
            None => EvalWeights::default(),
        };
        let names = named(&base);
        for f in &args.fix {
            if !names.iter().any(|(k, _)| k == f) {
                let all: Vec<&str> = names.iter().map(|(k, _)| k.as_str()).collect();
                return Err(Error::Input(format!(
                    "--fix {f}: no such weight (the weights are {})",
                    all.join(", ")
                )));
            }
        }
        Ok(TunePlan {
            dirs: args.dirs,
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
        })
    }
}

/// The weights' names and values, in the order of their JSON form.
pub fn named(w: &EvalWeights) -> Vec<(String, f64)> {
    let value = serde_json::to_value(w).expect("weights serialize");
    let serde_json::Value::Object(map) = value else {
        unreachable!("weights are an object")
    };
    map.into_iter()
        .map(|(k, v)| (k, v.as_f64().unwrap_or(0.0)))
        .collect()
}
