//! SPSA tuning as fishtest defines it (`arena spsa`): the parameters file ([`params`]), the
//! schedule of perturbations and steps ([`Schedule`]), the tuner's whole state as its run
//! folder's record keeps it ([`Record`], `spsa.json`), and the games of a batch played through
//! the run core ([`play`]).
//!
//! For N iterations, A = `a_ratio`·N, α = 0.602, γ = 0.101, each parameter has
//! c = c_end·N^γ and a = r_end·c_end²·(A+N)^α; iteration k (from 0) perturbs by
//! c_k = c/(k+1)^γ and steps by a_k = a/(A+k+1)^α. With Δ ∈ {−1, +1} per parameter (drawn from a
//! ChaCha stream of (seed, k)), θ+c_k·Δ plays θ−c_k·Δ (each clamped to [min, max]) a
//! colour-swapped pair; r = wins − losses of θ+ over the pair (in [−2, 2]) and
//! θ ← clamp(θ + a_k/c_k·r·Δ, min, max), θ staying a float.
//!
//! Iterations are played in batches of B, all from θ at the batch's start; the updates are then
//! applied in iteration order. Nothing depends on the thread count, so the same settings give
//! the same θ path on any machine, and a resumed run the path of an uninterrupted one.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

pub mod params;
pub mod play;

pub use params::{EngineKeys, Kind, Param, ParamsError};

/// fishtest's α: the step's decay exponent.
pub const ALPHA: f64 = 0.602;
/// fishtest's γ: the perturbation's decay exponent.
pub const GAMMA: f64 = 0.101;
/// The version of the record's layout (`spsa.json`).
pub const FORMAT: u32 = 1;
/// The record's file name in the run folder.
pub const RECORD_FILE: &str = "spsa.json";
/// The stream constant that seeds the Δ draws (`mix(seed, DELTA_STREAM)`), apart from deals.
const DELTA_STREAM: u64 = 0x5350_5341_4445_4c54;

/// What a run tunes and how: everything its fingerprint is made of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The base engine's spec as written.
    pub engine: String,
    /// Whether the values go to UCI options (`option.NAME=V`) rather than spec keys.
    pub uci: bool,
    /// The parameters.
    pub params: Vec<Param>,
    /// N: iterations (one game pair each).
    pub iterations: u64,
    /// B: iterations per batch.
    pub batch: u64,
    /// A / N.
    pub a_ratio: f64,
    /// Master seed (Δ of iteration k from its ChaCha stream k; its deal is pair k's).
    pub seed: u64,
    /// The fingerprint of the games (engine, rules, limits, book, adjudication, seed).
    pub games: String,
}

impl Settings {
    /// The run's fingerprint: a hash of the settings.
    pub fn fingerprint(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        format!("{:016x}", crate::records::fnv(&text))
    }

    /// The schedule of these settings.
    pub fn schedule(&self) -> Schedule {
        Schedule {
            n: self.iterations,
            a_big: self.a_ratio * self.iterations as f64,
        }
    }

    /// The spec key of parameter `i`: its name, or `option.NAME` for a UCI engine.
    pub fn key(&self, i: usize) -> String {
        if self.uci {
            format!("option.{}", self.params[i].name)
        } else {
            self.params[i].name.clone()
        }
    }
}

/// The gains of a run of N iterations.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Schedule {
    /// N.
    pub n: u64,
    /// A.
    pub a_big: f64,
}

impl Schedule {
    /// c_k of `p` at iteration `k` (from 0): c_end·N^γ/(k+1)^γ.
    pub fn c_k(&self, p: &Param, k: u64) -> f64 {
        p.c_end * (self.n as f64).powf(GAMMA) / ((k + 1) as f64).powf(GAMMA)
    }

    /// a_k of `p` at iteration `k`: r_end·c_end²·(A+N)^α/(A+k+1)^α.
    pub fn a_k(&self, p: &Param, k: u64) -> f64 {
        p.r_end * p.c_end * p.c_end * (self.a_big + self.n as f64).powf(ALPHA)
            / (self.a_big + (k + 1) as f64).powf(ALPHA)
    }
}

/// Δ of iteration `k`: ±1 per parameter, from ChaCha stream `k` of the seed.
pub fn delta(seed: u64, k: u64, n: usize) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(jieqi_engine::mix(seed, DELTA_STREAM));
    rng.set_stream(k);
    (0..n)
        .map(|_| if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 })
        .collect()
}

/// The values θ±c_k·Δ of iteration `k` for the sign `sign` (+1: θ+, −1: θ−), each clamped to
/// its range.
pub fn perturbed(settings: &Settings, theta: &[f64], k: u64, sign: f64) -> Vec<f64> {
    let s = settings.schedule();
    let d = delta(settings.seed, k, settings.params.len());
    settings
        .params
        .iter()
        .zip(theta)
        .zip(d)
        .map(|((p, &t), d)| (t + sign * s.c_k(p, k) * d).clamp(p.min, p.max))
        .collect()
}

/// What one iteration's pair gave θ+: its wins, draws and losses (two games).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    /// Games θ+ won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games θ+ lost.
    pub losses: u64,
}

impl Wdl {
    /// The sum of two tallies.
    pub fn plus(self, o: Wdl) -> Wdl {
        Wdl {
            wins: self.wins + o.wins,
            draws: self.draws + o.draws,
            losses: self.losses + o.losses,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// One batch in the record's history: θ after it and what its games gave θ+.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Iterations done after the batch.
    pub iteration: u64,
    /// θ after the batch, rounded to 6 decimals (the exact θ is the record's `theta_bits`).
    pub theta: Vec<f64>,
    /// The batch's games, for θ+.
    #[serde(flatten)]
    pub wdl: Wdl,
}

/// The tuner's whole state: `DIR/spsa.json`. A resume reads it and continues exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// [`FORMAT`].
    pub format: u32,
    /// [`Settings::fingerprint`].
    pub fingerprint: String,
    /// What is tuned and how.
    pub settings: Settings,
    /// Iterations done.
    pub iteration: u64,
    /// θ now, rounded to 6 decimals (for a person).
    pub theta: Vec<f64>,
    /// θ now, exactly: each value's IEEE-754 bits in hex (what a resume continues from).
    pub theta_bits: Vec<String>,
    /// Every game so far, for θ+.
    #[serde(flatten)]
    pub wdl: Wdl,
    /// θ after each batch.
    pub history: Vec<Step>,
    /// The code that played: the build that started the run, then each other build a resume
    /// (with `--allow-mixed-builds`) continued it with, from the iteration it took over.
    #[serde(default)]
    pub builds: Vec<Stint>,
}

/// A build and the iteration from which it played the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stint {
    /// The first iteration this build played.
    pub from_iteration: u64,
    /// The code.
    pub build: crate::records::build::Build,
}

/// `x` rounded to 6 decimals.
fn six(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

impl Record {
    /// A new run's record: θ at the parameters' starts.
    pub fn new(settings: Settings) -> Record {
        let theta: Vec<f64> = settings.params.iter().map(|p| p.start).collect();
        Record {
            format: FORMAT,
            fingerprint: settings.fingerprint(),
            theta_bits: bits(&theta),
            theta: theta.iter().map(|&t| six(t)).collect(),
            settings,
            iteration: 0,
            wdl: Wdl::default(),
            history: Vec::new(),
            builds: Vec::new(),
        }
    }

    /// θ exactly (from `theta_bits`); `None` if they do not read back.
    pub fn exact_theta(&self) -> Option<Vec<f64>> {
        let t: Option<Vec<f64>> = self
            .theta_bits
            .iter()
            .map(|b| u64::from_str_radix(b, 16).ok().map(f64::from_bits))
            .collect();
        t.filter(|t| t.len() == self.settings.params.len())
    }

    /// The iterations of the next batch; empty when the run is done.
    pub fn next_batch(&self) -> std::ops::Range<u64> {
        let s = &self.settings;
        self.iteration..(self.iteration + s.batch).min(s.iterations)
    }

    /// Applies the results of the batch that starts at `self.iteration`, one per iteration in
    /// order (all played from the θ the batch started from), and appends the batch to the
    /// history.
    pub fn apply_batch(&mut self, results: &[Wdl]) {
        let s = &self.settings;
        let schedule = s.schedule();
        let mut theta = self.exact_theta().unwrap_or_else(|| self.theta.clone());
        let mut batch = Wdl::default();
        for (j, wdl) in results.iter().enumerate() {
            let k = self.iteration + j as u64;
            let r = wdl.wins as f64 - wdl.losses as f64;
            let d = delta(s.seed, k, s.params.len());
            for ((t, p), d) in theta.iter_mut().zip(&s.params).zip(d) {
                let step = schedule.a_k(p, k) / schedule.c_k(p, k) * r * d;
                *t = (*t + step).clamp(p.min, p.max);
            }
            batch = batch.plus(*wdl);
        }
        self.iteration += results.len() as u64;
        self.wdl = self.wdl.plus(batch);
        self.theta_bits = bits(&theta);
        self.theta = theta.iter().map(|&t| six(t)).collect();
        self.history.push(Step {
            iteration: self.iteration,
            theta: self.theta.clone(),
            wdl: batch,
        });
    }

    /// The base engine's spec with θ's values (rounded as they are sent) as its keys.
    pub fn result_spec(&self) -> String {
        let theta = self.exact_theta().unwrap_or_else(|| self.theta.clone());
        spec_with(&self.settings, &theta)
    }
}

/// Each value's bits in hex.
fn bits(theta: &[f64]) -> Vec<String> {
    theta
        .iter()
        .map(|t| format!("{:016x}", t.to_bits()))
        .collect()
}

/// The base engine's spec (`settings.engine`) with `values` as its keys (replacing a key it
/// already sets); keys go after the engine's own.
pub fn spec_with(settings: &Settings, values: &[f64]) -> String {
    let mut spec = match jieqi_engine::Spec::parse(&settings.engine) {
        Ok(s) => s,
        Err(_) => return settings.engine.clone(),
    };
    for (i, (p, &v)) in settings.params.iter().zip(values).enumerate() {
        let key = settings.key(i);
        let text = p.value_text(v);
        match spec.params.iter_mut().find(|(k, _)| *k == key) {
            Some(kv) => kv.1 = text,
            None => spec.params.push((key, text)),
        }
    }
    spec.to_string()
}

#[cfg(test)]
mod tests;
