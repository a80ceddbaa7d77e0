//! A tournament config file (`--config`) and `--anchor`.

use serde::Deserialize;

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
        let text = crate::records::files::read_bounded(path, MAX_CONFIG_BYTES)
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
