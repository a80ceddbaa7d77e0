//! The kind of a run, as a type: what it plays (its pairings and slots are laid out here) and what
//! it stops by. Reports choose by it in one place ([`crate::report::write_reports`]).
//!
//! A record (`match.json`, `tournament.json`, `leak-run.json`) stores the kind in the fields it
//! always had — `gate`, `sprt`, `tournament`, `leak` — so every folder written before the kind
//! was a type still reads ([`KindFields`]).

use serde::{Deserialize, Serialize};

use crate::engines::EngineEntry;
use crate::stats::Sprt;
use crate::util::text::slug;

/// What kind of run this is.
#[derive(Clone, Debug, PartialEq)]
pub enum RunKind {
    /// `arena match`: every pair is played; an SPRT, if given, is reported, never stopped by.
    Match {
        /// The test the report shows (`--sprt`).
        sprt: Option<Sprt>,
    },
    /// `arena sprt`, the gate: pairs are played until the test decides (or the cap).
    Gate {
        /// The test.
        sprt: Sprt,
        /// Count engine failures as losses and go on, instead of stopping at the first.
        recover: bool,
        /// Take a verdict even when more than 1 % of the pairs repeat earlier pairs
        /// (`--allow-repeats`).
        allow_repeats: bool,
    },
    /// `arena tournament`: many engines, rated together.
    Tournament(TournamentOptions),
    /// `arena leak`: omniscient against fair copies of each engine.
    Leak(LeakOptions),
}

impl RunKind {
    /// The command that makes this kind of run: `match`, `sprt`, `tournament` or `leak`.
    pub fn command_name(&self) -> &'static str {
        match self {
            RunKind::Match { .. } => "match",
            RunKind::Gate { .. } => "sprt",
            RunKind::Tournament(_) => "tournament",
            RunKind::Leak(_) => "leak",
        }
    }

    /// The file that records the run in its folder: `match.json` for a two-engine run (what
    /// `arena replay` reads), `tournament.json` for a tournament, `leak-run.json` for a leak run.
    pub fn record_name(&self) -> &'static str {
        match self {
            RunKind::Match { .. } | RunKind::Gate { .. } => "match.json",
            RunKind::Tournament(_) => "tournament.json",
            RunKind::Leak(_) => "leak-run.json",
        }
    }

    /// The SPRT the run reports (a gate's, or a match's `--sprt`).
    pub fn sprt(&self) -> Option<Sprt> {
        match self {
            RunKind::Match { sprt } => *sprt,
            RunKind::Gate { sprt, .. } => Some(*sprt),
            _ => None,
        }
    }

    /// Whether the run is a gate (stops by its SPRT).
    pub fn is_gate(&self) -> bool {
        matches!(self, RunKind::Gate { .. })
    }

    /// A tournament's options.
    pub fn tournament(&self) -> Option<&TournamentOptions> {
        match self {
            RunKind::Tournament(t) => Some(t),
            _ => None,
        }
    }

    /// A leak run's layout.
    pub fn leak(&self) -> Option<&LeakOptions> {
        match self {
            RunKind::Leak(l) => Some(l),
            _ => None,
        }
    }
}

/// The files that record a run in its folder, one per kind of run (see
/// [`RunKind::record_name`]; the list is [`crate::records::files::RUN_RECORDS`]).
pub const RECORD_NAMES: [&str; 3] = crate::records::files::RUN_RECORDS;

/// How a record stores the kind: the fields records always had. At most one of `gate`,
/// `tournament` and `leak` is set; none is a match.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct KindFields {
    /// A gate's test (`arena sprt`), which a resumed gate must keep.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<Sprt>,
    /// The SPRT a match reports without stopping on it (`--sprt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
    /// A gate's `--recover` (absent in records older than the kind: no).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recover: bool,
    /// A gate's `--allow-repeats` (absent: no).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_repeats: bool,
    /// A tournament's options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentOptions>,
    /// A leak run's arms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leak: Option<LeakOptions>,
}

impl TryFrom<KindFields> for RunKind {
    type Error = String;

    fn try_from(f: KindFields) -> Result<RunKind, String> {
        match (f.gate, f.tournament, f.leak) {
            (None, None, None) => Ok(RunKind::Match { sprt: f.sprt }),
            (Some(sprt), None, None) => Ok(RunKind::Gate {
                sprt,
                recover: f.recover,
                allow_repeats: f.allow_repeats,
            }),
            (None, Some(t), None) => Ok(RunKind::Tournament(t)),
            (None, None, Some(l)) => Ok(RunKind::Leak(l)),
            _ => Err("the record names more than one kind of run (gate, tournament, leak)".into()),
        }
    }
}

impl From<RunKind> for KindFields {
    fn from(kind: RunKind) -> KindFields {
        let mut f = KindFields::default();
        match kind {
            RunKind::Match { sprt } => f.sprt = sprt,
            RunKind::Gate {
                sprt,
                recover,
                allow_repeats,
            } => {
                f.gate = Some(sprt);
                f.recover = recover;
                f.allow_repeats = allow_repeats;
            }
            RunKind::Tournament(t) => f.tournament = Some(t),
            RunKind::Leak(l) => f.leak = Some(l),
        }
        f
    }
}

impl Serialize for RunKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        KindFields::from(self.clone()).serialize(s)
    }
}

impl<'de> Deserialize<'de> for RunKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RunKind, D::Error> {
        RunKind::try_from(KindFields::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

// Tournaments.

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

// Leak runs.

/// A leak run's layout: which slots and pairings measure which engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeakOptions {
    /// One entry per measured engine, in the order given.
    pub arms: Vec<Arms>,
    /// The common opponent's label; `None`: each engine plays its own fair self.
    pub opponent: Option<String>,
    /// Bootstrap resamples for the paired interval of Δ.
    pub resamples: usize,
}

/// The slots and pairings of one measured engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arms {
    /// The engine's label.
    pub engine: String,
    /// Its fair slot.
    pub fair: usize,
    /// Its omniscient slot.
    pub omniscient: usize,
    /// The pairing E fair vs O; `None` without an opponent (0 by symmetry, not played).
    pub fair_arm: Option<usize>,
    /// The pairing E omniscient vs O (without an opponent, the head-to-head).
    pub omniscient_arm: usize,
    /// The pairing E omniscient vs E fair.
    pub head_to_head: usize,
}

/// The label of an engine's omniscient copy.
pub fn omniscient_label(label: &str) -> String {
    format!("{label} (omniscient)")
}

/// Lays out a leak run: per engine a fair slot and an omniscient copy, then the opponent's slot
/// (if any); per engine the pairings Ω vs O, F vs O, Ω vs F (with an opponent) or Ω vs F alone.
/// Returns the slots, the pairings and the options.
pub fn arms(
    engines: Vec<EngineEntry>,
    opponent: Option<EngineEntry>,
    resamples: usize,
) -> (Vec<EngineEntry>, Vec<(usize, usize)>, LeakOptions) {
    let mut slots = Vec::new();
    let mut pairings = Vec::new();
    let mut arms = Vec::new();
    let opponent_slot = 2 * engines.len();
    for e in &engines {
        let fair = slots.len();
        slots.push(e.clone());
        let mut omni = e.clone();
        omni.label = omniscient_label(&e.label);
        omni.omniscient = true;
        slots.push(omni);
        let omniscient = fair + 1;
        let a = if opponent.is_some() {
            let base = pairings.len();
            pairings.push((omniscient, opponent_slot));
            pairings.push((fair, opponent_slot));
            pairings.push((omniscient, fair));
            Arms {
                engine: e.label.clone(),
                fair,
                omniscient,
                fair_arm: Some(base + 1),
                omniscient_arm: base,
                head_to_head: base + 2,
            }
        } else {
            pairings.push((omniscient, fair));
            let h = pairings.len() - 1;
            Arms {
                engine: e.label.clone(),
                fair,
                omniscient,
                fair_arm: None,
                omniscient_arm: h,
                head_to_head: h,
            }
        };
        arms.push(a);
    }
    let opponent_label = opponent.as_ref().map(|o| o.label.clone());
    if let Some(o) = opponent {
        slots.push(o);
    }
    (
        slots,
        pairings,
        LeakOptions {
            arms,
            opponent: opponent_label,
            resamples,
        },
    )
}

/// The folder of pairing `i` of a leak run: `arms/NN-<engine>/fair`, `…/omniscient` or
/// `…/head-to-head` (without an opponent the head-to-head is arm Ω, in `head-to-head`); NN
/// numbers the engines from 01, so two labels that read alike as folder names never share one.
impl LeakOptions {
    /// The folder of pairing `i` when it is one of the arms, relative to the run's.
    pub fn arm_folder(&self, i: usize) -> Option<String> {
        let width = self.arms.len().to_string().len().max(2);
        for (k, a) in self.arms.iter().enumerate() {
            let name = if a.head_to_head == i {
                "head-to-head"
            } else if a.omniscient_arm == i {
                "omniscient"
            } else if a.fair_arm == Some(i) {
                "fair"
            } else {
                continue;
            };
            return Some(format!("arms/{:0width$}-{}/{name}", k + 1, slug(&a.engine)));
        }
        None
    }
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
