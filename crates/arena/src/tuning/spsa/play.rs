//! A batch of SPSA iterations played through the run core: iteration k is job k of a two-engine
//! run θ+ against θ− (pair k's deal, or book position, and seed), one colour-swapped pair played
//! by [`crate::run::pair::play_job`] on the [`crate::run::scheduler`]'s workers.

use std::collections::BTreeMap;
use std::ops::Range;

use jieqi_core::Color;

use crate::engines::logs::RunLogs;
use crate::records::GameLine;
use crate::run::RunSpec;
use crate::run::scheduler::{self, Flow, SchedulerError};
use crate::tuning::spsa::{Record, Settings, Wdl, perturbed, spec_with};

/// What plays a run's batches: the games' run (its engines are replaced per iteration), the
/// workers and the logs.
pub struct Player<'a> {
    /// The run whose rules, limits, book, adjudication and seed the games take.
    pub run: &'a RunSpec,
    /// Worker threads.
    pub threads: usize,
    /// The engines' error output (and traffic with `--log`).
    pub logs: &'a RunLogs,
}

/// Why a batch could not be played.
#[derive(Debug)]
pub enum PlayError {
    /// The worker pool could not start.
    Pool(String),
    /// An iteration's engine could not be made from its spec.
    Engine(String),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Pool(m) | PlayError::Engine(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for PlayError {}

/// The labels of θ+ and θ− in the games.
pub const LABELS: [&str; 2] = ["theta-plus", "theta-minus"];

/// θ+'s tally of one pair: game 1 has θ+ as Red, game 2 as Black.
pub fn pair_wdl(pair: &[GameLine; 2]) -> Wdl {
    let mut w = Wdl::default();
    for (line, plus) in pair.iter().zip([Color::Red, Color::Black]) {
        match line.result.winner() {
            None => w.draws += 1,
            Some(c) if c == plus => w.wins += 1,
            Some(_) => w.losses += 1,
        }
    }
    w
}

impl Player<'_> {
    /// The run of iteration `k` from θ `theta`: θ+ and θ− as its two engines.
    fn iteration_run(&self, s: &Settings, theta: &[f64], k: u64) -> Result<RunSpec, PlayError> {
        let mut run = self.run.clone();
        let mut engines = Vec::with_capacity(2);
        for (sign, label) in [1.0, -1.0].into_iter().zip(LABELS) {
            let spec = spec_with(s, &perturbed(s, theta, k, sign));
            let parsed =
                jieqi_engine::Spec::parse(&spec).map_err(|e| PlayError::Engine(e.to_string()))?;
            let mut entry = crate::engines::entry::from_spec(label.to_string(), parsed)
                .map_err(|e| PlayError::Engine(e.to_string()))?;
            entry.label = label.to_string();
            engines.push(entry);
        }
        run.engines = engines;
        run.pairings = vec![(0, 1)];
        run.pairs = s.iterations;
        run.shard = None;
        Ok(run)
    }

    /// Plays the iterations of the record's next batch, all from its θ, and returns θ+'s tally
    /// of each in order; `Ok(None)` when Ctrl-C stopped the batch before every pair finished
    /// (the batch is dropped: a resume plays it again, the same).
    ///
    /// # Errors
    /// The pool cannot start, or an iteration's engine spec is refused.
    pub fn batch(&self, record: &Record) -> Result<Option<Vec<Wdl>>, PlayError> {
        let s = &record.settings;
        let theta = record.exact_theta().unwrap_or_else(|| record.theta.clone());
        let ks: Range<u64> = record.next_batch();
        let runs = ks
            .clone()
            .map(|k| self.iteration_run(s, &theta, k))
            .collect::<Result<Vec<_>, _>>()?;
        let fingerprint = record.fingerprint.as_str();
        let mut done: BTreeMap<u64, Wdl> = BTreeMap::new();
        let mut stopped = false;
        let play = |j: u64| {
            let k = ks.start + j;
            crate::run::pair::play_job(&runs[j as usize], None, k, fingerprint, self.logs)
        };
        let total = ks.end - ks.start;
        let window = scheduler::window(self.threads, false);
        scheduler::run(
            total,
            self.threads,
            window,
            &|_| false,
            &play,
            |j, pair| -> Result<Flow, PlayError> {
                match pair {
                    Some(pair) => {
                        done.insert(j, pair_wdl(&pair));
                        Ok(Flow::Continue)
                    }
                    None => {
                        stopped = true;
                        Ok(Flow::Stop)
                    }
                }
            },
        )
        .map_err(|e| match e {
            SchedulerError::Pool(m) => PlayError::Pool(m),
            SchedulerError::Caller(e) => e,
        })?;
        if stopped || done.len() as u64 != total {
            return Ok(None);
        }
        Ok(Some(done.into_values().collect()))
    }
}
