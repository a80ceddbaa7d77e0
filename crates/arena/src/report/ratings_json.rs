//! The rating list's data, as `ratings.json` holds it and every report of a tournament reads it.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::report::PerMove;
use crate::run::kind::TournamentOptions;
use crate::stats::block::json_f64;

/// One engine's line of the rating list, as `ratings.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatedEngine {
    /// Rank, from 1.
    pub rank: usize,
    /// Label.
    pub label: String,
    /// Spec as written.
    pub spec: String,
    /// Rating (logistic Elo), `"inf"`/`"-inf"` when it scored every or no point against a group,
    /// `null` when unrated.
    #[serde(with = "json_f64")]
    pub elo: f64,
    /// Lower end of the 95 % bootstrap interval.
    #[serde(with = "json_f64")]
    pub elo_lower: f64,
    /// Upper end.
    #[serde(with = "json_f64")]
    pub elo_upper: f64,
    /// Likelihood of superiority over the next engine of the list (`null` for the last).
    pub cfs_next: Option<f64>,
    /// Points.
    pub points: f64,
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Points per game.
    pub score: f64,
    /// Draws per game.
    pub draw_rate: f64,
    /// Whether this is the anchor.
    pub anchor: bool,
    /// Engine failures.
    pub failures: u64,
    /// Games lost on time.
    pub time_forfeits: u64,
    /// What its searches reported per move.
    pub per_move: PerMove,
}

/// One cell of the pairwise table: `row` against `col` (labels).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairwiseCell {
    /// The row engine.
    pub row: String,
    /// The column engine.
    pub col: String,
    /// The row engine's points per game.
    pub score: f64,
    /// Games.
    pub games: u64,
    /// The row engine's logistic Elo from this pairing alone (pentanomial).
    #[serde(with = "json_f64")]
    pub elo: f64,
    /// Likelihood that the row engine is the stronger.
    pub los: f64,
}

/// One pairing's line (the per-pairing table).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingLine {
    /// First engine (Red in game 1 of each pair); the counts are its.
    pub a: String,
    /// Second engine.
    pub b: String,
    /// Pairs.
    pub pairs: u64,
    /// Wins of `a`.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of `a`.
    pub losses: u64,
    /// `a`'s points per game.
    pub score: f64,
    /// `a`'s logistic Elo.
    #[serde(with = "json_f64")]
    pub elo: f64,
    /// Lower end of its 95 % interval.
    #[serde(with = "json_f64")]
    pub elo_lower: f64,
    /// Upper end.
    #[serde(with = "json_f64")]
    pub elo_upper: f64,
    /// Its LOS.
    #[serde(with = "json_f64")]
    pub los: f64,
    /// Why the interval and the LOS are undefined (then `null`), as
    /// [`crate::stats::NoSpread::reason`]; absent when they are defined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_undefined: Option<String>,
    /// `[LL, LD, WL+DD, WD, WW]`.
    pub ptnml: [u64; 5],
    /// Plies per game.
    pub average_plies: f64,
    /// Failures of `a`, then `b`.
    pub failures: [u64; 2],
    /// Its match folder, relative to the tournament's.
    pub folder: String,
}

/// `ratings.json`: the rating list, the pairwise table and the pairings, with what produced them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingsJson {
    /// The command line.
    pub command: String,
    /// The harness version.
    pub harness_version: String,
    /// The code that played the run (`build`, `later_builds`).
    #[serde(flatten)]
    pub builds: crate::records::build::Builds,
    /// The run's fingerprint.
    pub fingerprint: String,
    /// What the header says: limits, threads, seed, rules, pairs.
    pub context: String,
    /// The tournament's options (mode, anchor, resamples).
    pub tournament: TournamentOptions,
    /// Pairs per pairing asked for.
    pub pairs: u64,
    /// Master seed.
    pub seed: u64,
    /// Pairs counted, over all pairings.
    pub counted_pairs: u64,
    /// The shard these ratings are of (`--shard`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::records::shard::Shard>,
    /// The rating list, best first.
    pub engines: Vec<RatedEngine>,
    /// Every pairing's cells, both ways.
    pub pairwise: Vec<PairwiseCell>,
    /// Every pairing.
    pub pairings: Vec<PairingLine>,
}

impl RatingsJson {
    /// The pairwise cell of `row` against `col`, if they played.
    pub fn cell(&self, row: &str, col: &str) -> Option<&PairwiseCell> {
        self.pairwise.iter().find(|c| c.row == row && c.col == col)
    }

    /// Every pairwise cell by (row, column) label: one pass over the table, so that a grid of
    /// the rating list looks each cell up at once (a search per cell made the grid of `n`
    /// engines cost `n²` searches of the whole table).
    pub fn cells(&self) -> HashMap<(&str, &str), &PairwiseCell> {
        self.pairwise
            .iter()
            .map(|c| ((c.row.as_str(), c.col.as_str()), c))
            .collect()
    }
}
