//! The evaluation tuner (`arena tune`): Texel tuning of the evaluation weights from the arena's
//! own games and training data chunks. It reads results folders and chunks and fits; the command
//! writes the weights file. Modules: [`positions`] (the games' positions and the split),
//! [`weights`] (weights by name), [`texel`] (the linear fit), and [`label`] (`arena label`:
//! positions labelled by a deeper search, written as training data chunks, which the tuner reads
//! with `--data`). [`spsa`] is the other tuner, of an engine's parameters by games (`arena spsa`;
//! its own module docs).
//!
//! The positions come from the `games.jsonl` of results folders: every recorded game is played
//! through from its seed's deal by the referee (`crate::records::check::check_record` first: a record
//! that does not hold up is skipped and counted), and each position after the first `--skip`
//! plies in which the side to move is not in check and the last move took nothing is kept as the
//! side to move sees it (its fair view: hidden pieces are its pools, as the search evaluates
//! them), labelled with the game's result from Red's side (1, ½, 0). Games that ended by an
//! engine failure are left out: their result says nothing about the position.
//!
//! The evaluation is linear in its weights (material, piece-square terms, mobility, king safety,
//! tempo), so each position becomes a feature vector: the change of its score (Red's side) per
//! unit of each weight, measured by `jieqi_search::eval::evaluate` with that weight raised, plus the part no tuned
//! weight explains. The fit minimises the mean squared error between results and the win
//! probability `1 / (1 + 10^(−K·score/400))` (Texel's method): first K with the starting
//! weights (golden-section search), then the weights by Adam. The games are split into a training
//! and a held-out share (`--holdout`, by game, seeded), and the held-out loss is computed with the
//! real evaluation of the rounded weights, so it measures what the engine will play with.

use std::path::PathBuf;

use jieqi_search::eval::EvalWeights;

pub mod label;
pub mod positions;
pub mod spsa;
pub mod texel;
pub mod weights;

/// What the tuner reads and how it fits: `arena tune`'s validated arguments
/// (`crate::plan::tune::TunePlan`, which checks them).
#[derive(Debug)]
pub struct TuneSettings {
    /// Results folders whose games to learn from.
    pub dirs: Vec<PathBuf>,
    /// Training data chunks to learn from (`--data`, folders expanded to their `.jqd` files).
    pub data: Vec<PathBuf>,
    /// The weights to start from (`--eval`, or the built-in ones).
    pub base: EvalWeights,
    /// Where to write the tuned weights.
    pub out: PathBuf,
    /// The share of the games held out of the fit, in [0, 0.9).
    pub holdout: f64,
    /// Plies skipped at the start of every game.
    pub skip: usize,
    /// Steps of the fit, in [1, `plan::tune::MAX_ITERATIONS`].
    pub iterations: u32,
    /// The step size of the fit, in centipawns, in (0, `plan::tune::MAX_RATE`].
    pub rate: f64,
    /// Weights kept as they are, by name (each one a weight of [`TuneSettings::base`]).
    pub fix: Vec<String>,
    /// Most positions read, in [`plan::tune::MIN_POSITIONS`, `plan::tune::MAX_POSITIONS`].
    pub max_positions: usize,
    /// The share of the game result in each position's target, in [0, 1].
    pub lambda: f64,
    /// Seed of the training / held-out split.
    pub seed: u64,
    /// Whether the piece-square tables are fitted too.
    pub pst: bool,
    /// The pull towards the starting weights, in [0, 1].
    pub l2: f64,
    /// The `--eval` file the weights started from, if any.
    pub eval_path: Option<PathBuf>,
}

/// The expected score of a position scored `s` (Red's side), with scale `k`.
#[inline]
pub fn sigmoid(k: f64, s: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * s / 400.0))
}

/// The scale K in [0.05, 5] that minimises `loss`, by `steps` steps of golden-section search.
pub fn fit_k(steps: u32, loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..steps {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// A weights file's `provenance`: what made it (`made_by`), the build, the runs by fingerprint
/// (their folders' names are the machine's), then `rest`'s fields.
pub fn provenance(
    args: &TuneSettings,
    made_by: &str,
    rest: serde_json::Value,
) -> serde_json::Value {
    let build = crate::records::build::Build::current(&[]);
    let mut p = serde_json::json!({
        "made_by": made_by,
        "arena": build.version,
        "commit": build.commit,
        "dirty": build.dirty,
        "runs": args
            .dirs
            .iter()
            .map(|d| {
                crate::run::folder::recorded_run(d).map_or_else(|_| "?".into(), |r| r.1.fingerprint)
            })
            .collect::<Vec<_>>(),
        "data": args.data.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
    });
    if let (Some(p), serde_json::Value::Object(rest)) = (p.as_object_mut(), rest) {
        p.extend(rest);
    }
    p
}
