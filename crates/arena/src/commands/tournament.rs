//! `arena tournament`: many engines, every pairing of a round robin or a gauntlet (or a listed
//! set), pair `p` of every pairing on the same deal — a thin layer over the run core
//! ([`crate::run`]). After the games, [`crate::report::standings`] rates the engines and writes the
//! rating list, the pairwise table, the per-pairing match folders and the reports.

use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::run::{self, PlayAll, RunError, RunSetup};

/// How the pairings of a tournament are chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Every engine against every other.
    RoundRobin,
    /// One engine against each of the others.
    Gauntlet,
    /// The pairings a config file lists.
    Listed,
}

impl Mode {
    /// `round robin`, `gauntlet` or `listed pairings`.
    pub fn text(self) -> &'static str {
        match self {
            Mode::RoundRobin => "round robin",
            Mode::Gauntlet => "gauntlet",
            Mode::Listed => "listed pairings",
        }
    }
}

/// What a tournament adds to a run: how its pairings were chosen and how it rates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentOptions {
    /// How the pairings were chosen.
    pub mode: Mode,
    /// The engine whose rating is fixed.
    pub anchor: String,
    /// Its rating.
    pub anchor_elo: f64,
    /// Bootstrap resamples for the intervals and CFS.
    pub resamples: usize,
    /// The series a run belongs to: the name of its config file (`nightly` for
    /// configs/nightly.json). A report's history shows the earlier runs of its series beside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<String>,
}

/// A tournament config file (`--config`, e.g. configs/nightly.json). Every key but `engines` is
/// optional; a flag given on the command line wins over the file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    /// Engines, as `--engine` takes them (specs or engine files, paths relative to the current
    /// folder).
    pub engines: Vec<String>,
    /// A gauntlet of this engine (label) against the others.
    pub gauntlet: Option<String>,
    /// Only these pairings, `[A, B]` by label (A has Red in game 1 of each pair).
    pub pairings: Option<Vec<[String; 2]>>,
    /// Pairs per pairing.
    pub pairs: Option<u64>,
    /// Master seed.
    pub seed: Option<u64>,
    /// Rule set: a preset or a rules file.
    pub rules: Option<String>,
    /// Adjudication cap.
    pub max_plies: Option<u32>,
    /// Nodes per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// Milliseconds per move.
    pub movetime_ms: Option<u64>,
    /// A clock, `SECONDS[+INC]` or `MOVES/SECONDS[+INC]`.
    pub tc: Option<String>,
    /// Clock margin in milliseconds.
    pub timemargin_ms: Option<u64>,
    /// Hard limit of one move in milliseconds.
    pub move_timeout_ms: Option<u64>,
    /// `LABEL=ELO`.
    pub anchor: Option<String>,
    /// Bootstrap resamples.
    pub bootstrap: Option<usize>,
    /// The information-leak measurement of the nightly report (`arena leak --config`), which
    /// `arena tournament` itself does not play.
    pub leak: Option<LeakConfig>,
}

/// The `leak` section of a tournament config: which of its engines `arena leak --config`
/// measures, against which, on how many pairs.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeakConfig {
    /// Labels of the config's engines to measure.
    pub engines: Vec<String>,
    /// The label of the fair opponent (one of the config's engines) [default: each engine's own
    /// fair self].
    pub opponent: Option<String>,
    /// Pairs per arm [default: the config's pairs].
    pub pairs: Option<u64>,
}

/// The largest config file read.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

impl TournamentConfig {
    /// Reads a config file.
    ///
    /// # Errors
    /// A message naming the file, and the line, column and key of a bad value.
    pub fn load(path: &std::path::Path) -> Result<TournamentConfig, String> {
        let name = path.display();
        let text = crate::records::journal::read_bounded(path, MAX_CONFIG_BYTES)
            .map_err(|e| format!("{name}: cannot read: {e}"))?;
        serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))
    }
}

/// The largest anchor rating, in absolute value.
pub const MAX_ANCHOR_ELO: f64 = 100_000.0;

/// Reads `LABEL=ELO`.
///
/// # Errors
/// A message saying what is wrong.
pub fn parse_anchor(s: &str) -> Result<(String, f64), String> {
    let (label, elo) = s
        .rsplit_once('=')
        .ok_or_else(|| format!("'{s}' is not LABEL=ELO, e.g. greedy=0"))?;
    let elo: f64 = elo
        .trim()
        .parse()
        .ok()
        .filter(|x: &f64| x.abs() <= MAX_ANCHOR_ELO)
        .ok_or_else(|| {
            format!("'{s}': '{elo}' is not a number between -{MAX_ANCHOR_ELO} and {MAX_ANCHOR_ELO}")
        })?;
    Ok((label.to_string(), elo))
}

/// The most bootstrap resamples a tournament may ask for.
pub const MAX_RESAMPLES: usize = 1_000_000;

/// Every pairing of `n` engines, `(i, j)` with `i < j`, in the order `(0,1), (0,2), …, (1,2), …`.
pub fn round_robin(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

/// Engine `g` against every other, `(g, j)` in slot order.
pub fn gauntlet(n: usize, g: usize) -> Vec<(usize, usize)> {
    (0..n).filter(|&j| j != g).map(|j| (g, j)).collect()
}

/// Plays the tournament and writes its reports (see [`crate::report::standings`]).
///
/// # Errors
/// The output folder is unusable, an old journal is corrupt, or writing fails.
pub fn run(setup: &RunSetup, out: &mut dyn Write) -> Result<(), RunError> {
    let outcome = run::execute(setup, &mut PlayAll)?;
    crate::report::standings::report(setup, &outcome, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings() {
        assert_eq!(round_robin(3), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(round_robin(5).len(), 10);
        assert_eq!(gauntlet(3, 1), [(1, 0), (1, 2)]);
    }
}
