//! One run of paired games — the core every game-playing command is a thin layer over: `match`
//! (two engines, a fixed number of pairs) and `sprt` (two engines, until the test decides).
//!
//! A [`RunSetup`] names engine slots, pairings of slots, limits and an output folder.
//! [`execute`] plays the jobs — job `j` is pair `j / n` of pairing `j % n` for `n` pairings, so
//! every pairing plays pair `p` on the same deal — through the [`crate::run::scheduler`], journals
//! each finished pair, tallies the finished prefix of jobs on a [`Scoreboard`] and asks a
//! [`StopRule`] after each job joins it, then writes the results ([`crate::report`]).
//!
//! Pair `p` deals from the seed [`pair_seed`]`(S, p)`; game 1 of a pairing gives its first engine
//! Red, game 2 Black, on the same deal. Every number comes from the finished prefix, in job order,
//! so the same setup gives the same games and the same statistics at any thread count (the timing
//! columns aside), and a stop rule stops after the same number of pairs.

use std::path::PathBuf;
use std::time::Duration;

use jieqi_core::Rules;
use jieqi_engine::Limits;
use serde::{Deserialize, Serialize};

use crate::engines::EngineEntry;
use crate::engines::time_control::TimeControl;
use crate::records;
use crate::records::build::{Build, Builds};
use crate::records::shard::Shard;
use crate::run::game_runner::Player;
use crate::run::kind::RunKind;

pub use crate::records::deal_seed::pair_seed;

/// Which engines of a two-engine run see everything (leak measurement).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Omniscient {
    /// Both fair.
    #[default]
    None,
    /// The first engine omniscient.
    A,
    /// The second engine omniscient.
    B,
    /// Both omniscient.
    Both,
}

impl Omniscient {
    /// The value for a first engine that sees everything or not (`a`) and a second (`b`).
    pub fn of(a: bool, b: bool) -> Omniscient {
        match (a, b) {
            (false, false) => Omniscient::None,
            (true, false) => Omniscient::A,
            (false, true) => Omniscient::B,
            (true, true) => Omniscient::Both,
        }
    }

    /// Whether slot `slot` (0 or 1) sees everything.
    pub fn sees_all(self, slot: usize) -> bool {
        matches!(
            (self, slot),
            (Omniscient::A, 0) | (Omniscient::B, 1) | (Omniscient::Both, _)
        )
    }

    /// The name in `match.json` and `summary.json`: `none`, `a`, `b`, `both`.
    pub fn name(self) -> &'static str {
        match self {
            Omniscient::None => "none",
            Omniscient::A => "a",
            Omniscient::B => "b",
            Omniscient::Both => "both",
        }
    }
}

/// A validated run: what it plays ([`RunSpec`], which its fingerprint and record describe; the
/// fields of a `RunSetup` read through to it) and how this process plays it ([`RunOptions`]).
#[derive(Clone, Debug)]
pub struct RunSetup {
    /// What the run plays.
    pub spec: RunSpec,
    /// How this process plays it.
    pub options: RunOptions,
}

impl std::ops::Deref for RunSetup {
    type Target = RunSpec;

    fn deref(&self) -> &RunSpec {
        &self.spec
    }
}

/// What a run plays: the engines, pairings and pairs, the deals, rules and limits — every field
/// its fingerprint ([`RunSpec::fingerprint`]) and record (`match.json`) are made of. The same spec
/// gives the same games.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The engines, by slot; labels are unique.
    pub engines: Vec<EngineEntry>,
    /// Pairings of slots, `(a, b)`: `a` has Red in game 1 of every pair.
    pub pairings: Vec<(usize, usize)>,
    /// Pairs per pairing (for a stopping run, the most it may play).
    pub pairs: u64,
    /// The share of the pairs this process plays (`--shard K/N`); `None`: all of them.
    pub shard: Option<Shard>,
    /// What kind of run: a match, a gate, a tournament or a leak run.
    pub kind: RunKind,
    /// Master seed.
    pub seed: u64,
    /// Rules.
    pub rules: Rules,
    /// Adjudication cap.
    pub max_plies: u32,
    /// The opening book pairs start from (`--openings`); `None`: the rules' start position.
    pub openings: Option<std::sync::Arc<crate::records::openings::Book>>,
    /// `--resign` and `--draw`.
    pub adjudication: crate::records::adjudication::Adjudication,
    /// Node, depth and movetime limits for every engine that does not set its own.
    pub limits: Limits,
    /// The clock for every engine that does not set its own.
    pub tc: Option<TimeControl>,
    /// How far past its clock a move may go.
    pub timemargin: Duration,
    /// The hard limit of one move (`--move-timeout`).
    pub move_timeout: Option<Duration>,
}

/// How this process plays a run: where it writes, whether it resumes, its threads, what it shows
/// and logs. None of it changes a game (the threads and `--log` are recorded, not fingerprinted).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads.
    pub threads: usize,
    /// Output folder.
    pub out: PathBuf,
    /// Whether the arena named `out` (no `--out`): the run then claims a folder of that name
    /// that no other run has, with a suffix `-2`, `-3`… if it must ([`crate::run::folder::claim`]).
    pub default_out: bool,
    /// Continue an interrupted run in `out`.
    pub resume: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// When to print progress lines on stderr (`--report-every`; see [`crate::run::progress`]).
    pub report_every: crate::run::progress::Cadence,
    /// `--log`: keep each game's UCI traffic in `logs/` (see [`crate::engines::logs`]).
    pub log: bool,
    /// `--log-limit`: the most bytes all the game logs of this run may take together.
    pub log_limit: u64,
    /// The command line, for the summary.
    pub command: String,
    /// `--allow-mixed-builds`: a resume may continue a run another build started.
    pub allow_mixed_builds: bool,
    /// Who watches the games live and may stop the run (`arena jai`); `None` for every other
    /// run. Not recorded: it changes no game.
    pub watch: Option<crate::run::watch::Watch>,
}

/// Why `engines` think by the clock under a run's clock `tc` and `limits`, if they do: a run or
/// engine `tc` or `movetime`, or an external engine with no node or depth limit, which is sent
/// `go movetime 1000`. Such games depend on the machine: a replay may differ, and sharing cores
/// weakens them.
pub fn time_limited(
    tc: Option<TimeControl>,
    limits: &Limits,
    engines: &[&EngineEntry],
) -> Option<String> {
    if let Some(tc) = tc {
        return Some(format!("the run played on a clock (--tc {tc})"));
    }
    if let Some(t) = limits.movetime {
        return Some(format!(
            "the run limited moves by time (--movetime {})",
            t.as_millis()
        ));
    }
    for e in engines {
        if e.limits.tc.is_some() || e.limits.movetime.is_some() {
            return Some(format!("engine '{}' plays on time ({})", e.label, e.limits));
        }
        if e.external && limits.nodes.is_none() && limits.depth.is_none() && e.limits.is_empty() {
            return Some(format!(
                "external engine '{}' had no node or depth limit (it was sent go movetime 1000)",
                e.label
            ));
        }
    }
    None
}

/// What `match.json` records before the first game: enough to replay any game of the run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchSetup {
    /// Fingerprint of the run.
    pub fingerprint: String,
    /// Engine A then B: (label, spec as written).
    pub engines: [(String, String); 2],
    /// Rules.
    pub rules: Rules,
    /// Master seed.
    pub seed: u64,
    /// Pairs asked for.
    pub pairs: u64,
    /// Per-move nodes limit.
    pub nodes: Option<u64>,
    /// Per-move depth limit.
    pub depth: Option<u32>,
    /// Per-move time limit.
    pub movetime_ms: Option<u64>,
    /// Move timeout.
    pub move_timeout_ms: Option<u64>,
    /// Clock time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// Clock margin (with a clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timemargin_ms: Option<u64>,
    /// Adjudication cap.
    pub max_plies: u32,
    /// The opening book (`--openings`): how it was asked for, its size and hash. The folder
    /// keeps the book itself ([`crate::records::openings::FOLDER_COPY`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<crate::records::openings::BookRecord>,
    /// `--resign` and `--draw` (absent: off).
    #[serde(
        default,
        skip_serializing_if = "crate::records::adjudication::Adjudication::is_off"
    )]
    pub adjudication: crate::records::adjudication::Adjudication,
    /// Omniscient engines.
    pub omniscient: Omniscient,
    /// What kind of run, in the fields records always had (`gate`, `sprt`, `recover`,
    /// `tournament`, `leak`; see [`crate::run::kind::KindFields`]).
    #[serde(flatten)]
    pub kind: RunKind,
    /// The shard this folder holds (`--shard K/N`); absent: every pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Every engine and pairing of a run with more than the one pairing of `engines`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all: Option<AllEngines>,
    /// `--log`: games keep their UCI traffic (a resume keeps doing so). Not part of the
    /// fingerprint: it changes no game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub log: bool,
    /// The code that played the run (`build`, `later_builds`; absent in older records). Not part
    /// of the fingerprint: a resume or merge compares builds itself ([`Builds::join`]).
    #[serde(flatten)]
    pub builds: Builds,
    /// Worker threads the run was started with (a resume without `--threads` uses them);
    /// absent in older records and in a merge's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// The command line.
    pub command: String,
}

/// The engines and pairings of a run of several pairings (a tournament).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AllEngines {
    /// Every engine by slot: (label, spec as written).
    pub engines: Vec<(String, String)>,
    /// Pairings of slots, `(a, b)`: `a` has Red in game 1 of every pair.
    pub pairings: Vec<(usize, usize)>,
    /// The slots that play with an omniscient view.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub omniscient: Vec<usize>,
}

impl MatchSetup {
    /// The command that made this run: `tournament`, `leak`, `sprt` (a gate) or `match`.
    pub fn command_name(&self) -> &'static str {
        self.kind.command_name()
    }

    /// The run this record describes, to report on pairs played elsewhere (`arena merge`):
    /// engines rebuilt from their recorded specs (external engines are not started), every pair
    /// (no shard), no progress bar.
    ///
    /// `book` is the run's book as its folder keeps it ([`crate::run::folder::recorded_book`]),
    /// for a record that has one.
    ///
    /// # Errors
    /// A recorded spec that no longer names an engine; a book missing or given where the record
    /// has none, or another book than the record's.
    pub fn run_setup(
        &self,
        out: PathBuf,
        threads: usize,
        command: String,
        book: Option<std::sync::Arc<crate::records::openings::Book>>,
    ) -> Result<RunSetup, String> {
        match (&self.openings, &book) {
            (None, None) => {}
            (Some(r), Some(b)) if b.record() == *r => {}
            (Some(r), Some(b)) => {
                return Err(format!(
                    "the run's book is {} positions of SHA-256 {}, and the book given is {} \
                     positions of SHA-256 {}",
                    r.positions,
                    r.sha256,
                    b.record().positions,
                    b.record().sha256
                ));
            }
            (Some(r), None) => {
                return Err(format!(
                    "the run played from the book {} and it is missing",
                    r.spec
                ));
            }
            (None, Some(_)) => return Err("the run played from no book".into()),
        }
        let (engines, pairings, omniscient) = match &self.all {
            Some(all) => (
                all.engines.clone(),
                all.pairings.clone(),
                all.omniscient.clone(),
            ),
            None => (
                self.engines.to_vec(),
                vec![(0, 1)],
                (0..2).filter(|&s| self.omniscient.sees_all(s)).collect(),
            ),
        };
        let mut engines = engines
            .iter()
            .map(|(label, spec)| crate::engines::recorded(label, spec))
            .collect::<Result<Vec<_>, _>>()?;
        if omniscient.iter().any(|&s| s >= engines.len()) {
            return Err("an omniscient slot is not a recorded engine".into());
        }
        for s in omniscient {
            engines[s].omniscient = true;
        }
        if pairings
            .iter()
            .any(|&(a, b)| a >= engines.len() || b >= engines.len())
        {
            return Err("a pairing names an engine slot that is not recorded".into());
        }
        Ok(RunSetup {
            spec: RunSpec {
                engines,
                pairings,
                pairs: self.pairs,
                shard: None,
                kind: self.kind.clone(),
                seed: self.seed,
                rules: self.rules,
                max_plies: self.max_plies,
                openings: book,
                adjudication: self.adjudication,
                limits: self.limits(),
                tc: self.tc,
                timemargin: Duration::from_millis(self.timemargin_ms.unwrap_or(0)),
                move_timeout: self.move_timeout_ms.map(Duration::from_millis),
            },
            options: RunOptions {
                threads,
                out,
                default_out: false,
                resume: false,
                progress: false,
                report_every: crate::run::progress::Cadence::Never,
                log: self.log,
                log_limit: crate::engines::logs::MAX_RUN_LOG_BYTES,
                command,
                allow_mixed_builds: false,
                watch: None,
            },
        })
    }

    /// The per-move limits.
    pub fn limits(&self) -> Limits {
        Limits {
            nodes: self.nodes,
            depth: self.depth,
            movetime: self.movetime_ms.map(Duration::from_millis),
            clock: None,
        }
    }
}

/// What identifies the games of a run, hashed into its fingerprint. Keys in alphabetical order,
/// and the newer ones only when set, so that older results keep their fingerprints.
#[derive(Serialize)]
struct FingerprintInput<'a> {
    a: String,
    b: String,
    harness: &'static str,
    limits: String,
    max_plies: u32,
    omniscient: String,
    rules: &'a Rules,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    tc: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timemargin_ms: Option<u64>,
    /// Every engine's spec, for a run of more than the one pairing `a`–`b`.
    #[serde(skip_serializing_if = "Option::is_none")]
    engines: Option<Vec<String>>,
    /// Its pairings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pairings: Option<&'a [(usize, usize)]>,
    /// Its omniscient slots, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    omniscient_slots: Option<Vec<usize>>,
    /// The opening book, if any: `--openings` and the SHA-256 of its positions.
    #[serde(skip_serializing_if = "Option::is_none")]
    openings: Option<String>,
    /// `--resign` and `--draw`, when either is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    adjudication: Option<String>,
}

impl RunSpec {
    /// Whether any engine plays on a clock.
    pub fn has_clock(&self) -> bool {
        self.tc.is_some() || self.engines.iter().any(|e| e.limits.tc.is_some())
    }

    /// The pairs this process plays per pairing: all, or its shard's.
    pub fn local_pairs(&self) -> u64 {
        self.shard.map_or(self.pairs, |s| s.pairs_of(self.pairs))
    }

    /// Jobs in all (of this shard).
    pub fn jobs(&self) -> u64 {
        self.local_pairs()
            .saturating_mul(self.pairings.len() as u64)
    }

    /// (pairing, pair index) of a job: job `j` is the `j / n`-th pair (of the shard) of pairing
    /// `j % n`.
    pub fn job(&self, job: u64) -> (usize, u64) {
        let n = self.pairings.len() as u64;
        let local = job / n;
        (
            (job % n) as usize,
            self.shard.map_or(local, |s| s.pair(local)),
        )
    }

    /// The file that records the run in its folder: `match.json` for a two-engine run (what
    /// `arena replay` reads), `tournament.json` for a tournament, `leak-run.json` for a leak run.
    pub fn record_name(&self) -> &'static str {
        self.kind.record_name()
    }

    /// Each pairing's engine labels, `(a, b)`: `a` is Red in game 1 of a pair, Black in game 2.
    pub fn pairing_labels(&self) -> Vec<(String, String)> {
        self.pairings
            .iter()
            .map(|&(a, b)| (self.engines[a].label.clone(), self.engines[b].label.clone()))
            .collect()
    }

    /// The folder of pairing `i` of a run of several pairings, relative to the run's: a leak
    /// run's arm (`arms/NN-<engine>/fair`, …), or `pairings/01-a-vs-b`.
    pub fn pairing_folder(&self, i: usize) -> String {
        if let Some(arm) = self.kind.leak().and_then(|l| l.arm_folder(i)) {
            return arm;
        }
        let (a, b) = self.pairings[i];
        let width = self.pairings.len().to_string().len().max(2);
        format!(
            "pairings/{:0width$}-{}-vs-{}",
            i + 1,
            crate::util::text::slug(&self.engines[a].label),
            crate::util::text::slug(&self.engines[b].label)
        )
    }

    /// Which engines of the first pairing see everything.
    pub fn omniscient(&self) -> Omniscient {
        Omniscient::of(self.a().omniscient, self.b().omniscient)
    }

    /// The slots that play with an omniscient view.
    pub fn omniscient_slots(&self) -> Vec<usize> {
        (0..self.engines.len())
            .filter(|&s| self.engines[s].omniscient)
            .collect()
    }

    /// Whether the run is the simple two-engine one (one pairing, slots 0 against 1).
    pub fn is_two_engine(&self) -> bool {
        self.engines.len() == 2 && self.pairings == [(0, 1)]
    }

    /// The first engine of the first pairing (the one a two-engine run reports for).
    pub fn a(&self) -> &EngineEntry {
        &self.engines[self.pairings[0].0]
    }

    /// The second engine of the first pairing.
    pub fn b(&self) -> &EngineEntry {
        &self.engines[self.pairings[0].1]
    }

    /// The fingerprint: a hash of harness version, engine specs, rules, seed, limits, cap,
    /// clock and omniscience. Runs with the same fingerprint may be resumed or merged.
    pub fn fingerprint(&self) -> String {
        let input = FingerprintInput {
            a: self.a().spec.to_string(),
            b: self.b().spec.to_string(),
            harness: env!("CARGO_PKG_VERSION"),
            limits: self.limits.to_string(),
            max_plies: self.max_plies,
            // Older versions hashed the Debug name: `None`, `A`, `B`, `Both`.
            omniscient: format!("{:?}", self.omniscient()),
            rules: &self.rules,
            seed: self.seed,
            tc: self.tc.map(|t| t.to_string()),
            timemargin_ms: self.tc.map(|_| self.timemargin.as_millis() as u64),
            engines: (!self.is_two_engine())
                .then(|| self.engines.iter().map(|e| e.spec.to_string()).collect()),
            pairings: (!self.is_two_engine()).then_some(self.pairings.as_slice()),
            omniscient_slots: Some(self.omniscient_slots())
                .filter(|s| !s.is_empty() && !self.is_two_engine()),
            openings: self.openings.as_ref().map(|b| {
                let r = b.record();
                format!("{} sha256={}", r.spec, r.sha256)
            }),
            adjudication: (!self.adjudication.is_off()).then(|| self.adjudication.to_string()),
        };
        // Through a `Value`, whose maps sort their keys: the text older versions hashed.
        let text = serde_json::to_value(&input)
            .map(|v| v.to_string())
            .unwrap_or_default();
        format!("{:016x}", records::fnv(&text))
    }

    /// The build of this arena with this run's external engines.
    pub fn current_build(&self) -> Build {
        let external: Vec<(String, String)> = self
            .engines
            .iter()
            .filter_map(|e| e.executable().map(|p| (e.label.clone(), p)))
            .collect();
        Build::current(&external)
    }

    /// The limits, clock and hard limit of the engine in slot `slot`: its own where its spec
    /// sets them, the run's otherwise.
    pub fn player(&self, slot: usize) -> Player<'_> {
        player(
            &self.engines[slot],
            &self.limits,
            self.tc,
            self.move_timeout,
            self.engines[slot].omniscient,
        )
    }

    /// [`RunSetup::context`] with `workers` in place of the threads (a merge: "merged from 3
    /// shards").
    pub fn context_with(&self, workers: &str) -> String {
        let limits = match self.tc {
            Some(tc) if self.limits.is_unlimited() => format!("tc={tc}"),
            Some(tc) => format!("{}, tc={tc}", self.limits),
            None => self.limits.to_string(),
        };
        // Engines with limits of their own say so: `half: tc=5+0.05`.
        let own: Vec<String> = self
            .engines
            .iter()
            .filter(|e| !e.limits.is_empty())
            .map(|e| format!("{}: {}", e.label, e.limits))
            .collect();
        let limits = if own.is_empty() {
            limits
        } else {
            format!("{limits} ({})", own.join("; "))
        };
        let shard = self
            .shard
            .map_or(String::new(), |s| format!(" (shard {s})"));
        let openings = self.openings.as_ref().map_or(String::new(), |b| {
            format!(
                ", openings {} ({} positions, {})",
                b.spec.file,
                b.positions().len(),
                b.spec.order.name()
            )
        });
        let adjudication = if self.adjudication.is_off() {
            String::new()
        } else {
            format!(", adjudication {}", self.adjudication)
        };
        format!(
            "{limits}, {workers}, seed {}, rules {}{openings}{adjudication}, {}{} pair{}{shard}",
            self.seed,
            self.rules.name,
            if self.kind.is_gate() { "at most " } else { "" },
            self.pairs,
            if self.pairs == 1 { "" } else { "s" }
        )
    }

    /// Whether any engine thinks by the clock ([`time_limited`]): then sharing cores weakens it.
    pub fn is_time_limited(&self) -> bool {
        time_limited(
            self.tc,
            &self.limits,
            &self.engines.iter().collect::<Vec<_>>(),
        )
        .is_some()
    }

    /// The job of a recorded pair, if it belongs to this run.
    pub fn job_of(&self, key: &records::PairKey) -> Option<u64> {
        let (a, b, p) = key;
        let pairing = self
            .pairings
            .iter()
            .position(|&(x, y)| self.engines[x].label == *a && self.engines[y].label == *b)?;
        if *p >= self.pairs || self.shard.is_some_and(|s| !s.has(*p)) {
            return None;
        }
        let local = self.shard.map_or(*p, |s| s.local(*p));
        Some(local * self.pairings.len() as u64 + pairing as u64)
    }
}

impl RunSetup {
    /// What `match.json` records.
    pub fn match_setup(&self, fingerprint: &str) -> MatchSetup {
        let ms = |d: Duration| d.as_millis() as u64;
        MatchSetup {
            fingerprint: fingerprint.to_string(),
            engines: [
                (self.a().label.clone(), self.a().spec.to_string()),
                (self.b().label.clone(), self.b().spec.to_string()),
            ],
            rules: self.rules,
            seed: self.seed,
            pairs: self.pairs,
            nodes: self.limits.nodes,
            depth: self.limits.depth,
            movetime_ms: self.limits.movetime.map(ms),
            move_timeout_ms: self.move_timeout.map(ms),
            tc: self.tc,
            timemargin_ms: self.tc.map(|_| ms(self.timemargin)),
            max_plies: self.max_plies,
            openings: self.openings.as_ref().map(|b| b.record()),
            adjudication: self.adjudication,
            omniscient: self.omniscient(),
            kind: self.kind.clone(),
            shard: self.shard,
            all: (!self.is_two_engine()).then(|| AllEngines {
                engines: self
                    .engines
                    .iter()
                    .map(|e| (e.label.clone(), e.spec.to_string()))
                    .collect(),
                pairings: self.pairings.clone(),
                omniscient: self.omniscient_slots(),
            }),
            log: self.options.log,
            builds: Builds::default(),
            threads: Some(self.options.threads),
            command: self.options.command.clone(),
        }
    }

    /// What the block's header says in parentheses: limits, threads, seed, rules, pairs (the cap,
    /// for a gate).
    pub fn context(&self) -> String {
        self.context_with(&format!(
            "{} thread{}",
            self.options.threads,
            if self.options.threads == 1 { "" } else { "s" }
        ))
    }
}

/// A player from an engine entry and the run's limits: the entry's own limits replace the run's
/// of the same kind. It gets an omniscient view when `omniscient`, and when the entry peeks (the
/// `faulty:mode=peek` leak, which records never show).
pub fn player<'a>(
    entry: &'a EngineEntry,
    run: &Limits,
    tc: Option<TimeControl>,
    move_timeout: Option<Duration>,
    omniscient: bool,
) -> Player<'a> {
    let own = &entry.limits;
    Player {
        engine: entry,
        limits: Limits {
            nodes: own.nodes.or(run.nodes),
            depth: own.depth.or(run.depth),
            movetime: own.movetime.or(run.movetime),
            clock: None,
        },
        tc: own.tc.or(tc),
        move_timeout,
        omniscient: omniscient || entry.peeks,
    }
}
