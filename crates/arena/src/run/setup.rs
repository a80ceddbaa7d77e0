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

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use jieqi_core::{ByColor, Rules};
use jieqi_engine::{Limits, mix};
use serde::{Deserialize, Serialize};

use crate::commands::tournament::TournamentOptions;
use crate::engines::EngineEntry;
use crate::engines::logs::RunLogs;
use crate::engines::time_control::TimeControl;
use crate::records::journal::{Journal, JournalError, write_atomically};
use crate::records::shard::Shard;
use crate::records::{self, GameLine};
use crate::run::game_runner::{GameSpec, Player, play_game};
use crate::run::scheduler::{self, Flow, Prefix, SchedulerError};
use crate::run::scoreboard::Scoreboard;
use crate::stats::Sprt;

/// The deal seed of pair `p` in a run with master seed `seed`.
pub const fn pair_seed(seed: u64, p: u64) -> u64 {
    mix(seed, p)
}

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

/// A validated run.
#[derive(Clone, Debug)]
pub struct RunSetup {
    /// The engines, by slot; labels are unique.
    pub engines: Vec<EngineEntry>,
    /// Pairings of slots, `(a, b)`: `a` has Red in game 1 of every pair.
    pub pairings: Vec<(usize, usize)>,
    /// Pairs per pairing (for a stopping run, the most it may play).
    pub pairs: u64,
    /// The share of the pairs this process plays (`--shard K/N`); `None`: all of them.
    pub shard: Option<Shard>,
    /// A tournament's options (`arena tournament`); `None` for a two-engine run.
    pub tournament: Option<TournamentOptions>,
    /// Master seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Rules.
    pub rules: Rules,
    /// Adjudication cap.
    pub max_plies: u32,
    /// Node, depth and movetime limits for every engine that does not set its own.
    pub limits: Limits,
    /// The clock for every engine that does not set its own.
    pub tc: Option<TimeControl>,
    /// How far past its clock a move may go.
    pub timemargin: Duration,
    /// The hard limit of one move (`--move-timeout`).
    pub move_timeout: Option<Duration>,
    /// An information-leak run's arms (`arena leak`); `None` otherwise.
    pub leak: Option<crate::commands::leak::LeakOptions>,
    /// Output folder.
    pub out: PathBuf,
    /// Continue an interrupted run in `out`.
    pub resume: bool,
    /// The SPRT to report (and, with `gate`, to stop by).
    pub sprt: Option<Sprt>,
    /// Whether this is a gate (`arena sprt`): the SPRT stops the run and its verdict is the
    /// outcome.
    pub gate: bool,
    /// For a gate: count engine failures as losses and go on, instead of stopping at the first.
    pub recover: bool,
    /// Show a progress bar.
    pub progress: bool,
    /// `--log`: keep each game's UCI traffic in `logs/` (see [`crate::engines::logs`]).
    pub log: bool,
    /// The command line, for the summary.
    pub command: String,
}

/// The run recorded in a results folder: the record's path (`match.json`, `tournament.json` or
/// `leak-run.json`), the record, and the run it describes (engines unprobed, one thread).
///
/// # Errors
/// No record, or one that cannot be read; the message names the file.
pub fn recorded_run(dir: &std::path::Path) -> Result<(PathBuf, MatchSetup, RunSetup), String> {
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!("{}: no such folder", dir.display()));
        }
        Err(e) => return Err(format!("{}: {e}", dir.display())),
        Ok(m) if !m.is_dir() => {
            return Err(format!("{} is a file, not a results folder", dir.display()));
        }
        Ok(_) => {}
    }
    let path = RECORD_NAMES
        .iter()
        .map(|name| dir.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!(
                "{} holds no recorded run (match.json, tournament.json or leak-run.json)",
                dir.display()
            )
        })?;
    let text =
        crate::records::journal::read_bounded(&path, crate::records::journal::MAX_SMALL_FILE)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    let record: MatchSetup =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let setup = record
        .run_setup(dir.to_path_buf(), 1, String::new())
        .map_err(|m| format!("{}: {m}", path.display()))?;
    Ok((path, record, setup))
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
    /// Omniscient engines.
    pub omniscient: Omniscient,
    /// A gate's test (`arena sprt`), which a resumed gate must keep.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate: Option<Sprt>,
    /// The SPRT a match reports without stopping on it (`--sprt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
    /// The shard this folder holds (`--shard K/N`); absent: every pair.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Every engine and pairing of a run with more than the one pairing of `engines`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all: Option<AllEngines>,
    /// A tournament's options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentOptions>,
    /// A leak run's arms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leak: Option<crate::commands::leak::LeakOptions>,
    /// `--log`: games keep their UCI traffic (a resume keeps doing so). Not part of the
    /// fingerprint: it changes no game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub log: bool,
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
        if self.tournament.is_some() {
            "tournament"
        } else if self.leak.is_some() {
            "leak"
        } else if self.gate.is_some() {
            "sprt"
        } else {
            "match"
        }
    }

    /// The run this record describes, to report on pairs played elsewhere (`arena merge`):
    /// engines rebuilt from their recorded specs (external engines are not started), every pair
    /// (no shard), no progress bar.
    ///
    /// # Errors
    /// A recorded spec that no longer names an engine.
    pub fn run_setup(
        &self,
        out: PathBuf,
        threads: usize,
        command: String,
    ) -> Result<RunSetup, String> {
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
            .map(|(label, spec)| crate::commands::replay::entry(label, spec))
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
            engines,
            pairings,
            pairs: self.pairs,
            shard: None,
            tournament: self.tournament.clone(),
            seed: self.seed,
            threads,
            rules: self.rules,
            max_plies: self.max_plies,
            limits: self.limits(),
            tc: self.tc,
            timemargin: Duration::from_millis(self.timemargin_ms.unwrap_or(0)),
            move_timeout: self.move_timeout_ms.map(Duration::from_millis),
            leak: self.leak.clone(),
            out,
            resume: false,
            sprt: self.gate.or(self.sprt),
            gate: self.gate.is_some(),
            recover: true,
            progress: false,
            log: self.log,
            command,
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
}

/// A run that could not run or finish.
#[derive(Debug)]
pub enum RunError {
    /// The output folder or its journal is unusable (bad input: exit 2).
    Output(String),
    /// Writing results failed (a runtime failure).
    Io(std::io::Error),
}

impl core::fmt::Display for RunError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RunError::Output(m) => write!(f, "{m}"),
            RunError::Io(e) => write!(f, "writing results: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<std::io::Error> for RunError {
    fn from(e: std::io::Error) -> RunError {
        RunError::Io(e)
    }
}

/// Decides after each finished pair whether a run stops.
pub trait StopRule {
    /// Called each time a job joins the finished prefix, with the board of exactly that prefix
    /// (`pairs` jobs); `true` stops the run there.
    fn stop(&mut self, board: &Scoreboard, pairs: u64) -> bool;

    /// A short live status for the progress bar, if the rule has one.
    fn status(&self, _board: &Scoreboard) -> Option<String> {
        None
    }
}

/// The rule of a fixed number of pairs: never stop early.
#[derive(Copy, Clone, Debug, Default)]
pub struct PlayAll;

impl StopRule for PlayAll {
    fn stop(&mut self, _: &Scoreboard, _: u64) -> bool {
        false
    }
}

/// What a run came to.
#[derive(Debug)]
pub struct RunOutcome {
    /// The counted jobs' tally.
    pub board: Scoreboard,
    /// Jobs counted: the finished prefix, up to where the rule stopped it.
    pub counted: u64,
    /// Jobs that finished beyond that: kept in the journal, never counted.
    pub beyond: u64,
    /// Whether the stop rule stopped the run.
    pub stopped: bool,
    /// Games played by this process (not resumed).
    pub played_now: u64,
    /// Wall time of this process's play.
    pub wall: Duration,
    /// The fingerprint.
    pub fingerprint: String,
    /// The counted pairs, by job.
    pub games: BTreeMap<u64, [GameLine; 2]>,
    /// The lock of the results folder, held until the reports are written (dropped with the
    /// outcome).
    pub lock: Option<crate::records::journal::FolderLock>,
}

impl RunSetup {
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
        if self.tournament.is_some() {
            "tournament.json"
        } else if self.leak.is_some() {
            "leak-run.json"
        } else {
            "match.json"
        }
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
        };
        // Through a `Value`, whose maps sort their keys: the text older versions hashed.
        let text = serde_json::to_value(&input)
            .map(|v| v.to_string())
            .unwrap_or_default();
        format!("{:016x}", records::fnv(&text))
    }

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
            omniscient: self.omniscient(),
            gate: self.sprt.filter(|_| self.gate),
            sprt: self.sprt.filter(|_| !self.gate),
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
            tournament: self.tournament.clone(),
            leak: self.leak.clone(),
            log: self.log,
            command: self.command.clone(),
        }
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

    /// What the block's header says in parentheses: limits, threads, seed, rules, pairs (the cap,
    /// for a gate).
    pub fn context(&self) -> String {
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
        format!(
            "{limits}, {} thread{}, seed {}, rules {}, {}{} pair{}{shard}",
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.seed,
            self.rules.name,
            if self.gate { "at most " } else { "" },
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

    /// Plays job `job`: both games of its pair.
    fn play_job(&self, job: u64, fingerprint: &str, logs: &RunLogs) -> [GameLine; 2] {
        let (pairing, p) = self.job(job);
        let (a, b) = self.pairings[pairing];
        let seed = pair_seed(self.seed, p);
        let whole_run_job = p * self.pairings.len() as u64 + pairing as u64;
        let game = |number: u8, red: usize, black: usize| {
            let logs = logs.game(
                records::game_number(whole_run_job, number),
                ByColor { red, black },
                ByColor {
                    red: self.engines[red].label.as_str(),
                    black: self.engines[black].label.as_str(),
                },
            );
            let spec = GameSpec {
                rules: &self.rules,
                deal_seed: seed,
                players: ByColor {
                    red: self.player(red),
                    black: self.player(black),
                },
                max_plies: self.max_plies,
                timemargin: self.timemargin,
                logs,
            };
            let played = play_game(&spec, None);
            GameLine::new(
                fingerprint,
                p,
                number,
                seed,
                &self.engines[red].label,
                &self.engines[black].label,
                &played,
            )
        };
        [game(1, a, b), game(2, b, a)]
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

/// Plays the run: journals every finished pair, tallies the finished prefix, asks `rule` after
/// each pair that joins it, and writes `match.json`, the final `games.jsonl` and `games.csv`.
/// Returns what the run came to; [`report`] prints it and writes the summaries.
///
/// # Errors
/// The output folder or journal is unusable, or writing fails.
pub fn execute(setup: &RunSetup, rule: &mut dyn StopRule) -> Result<RunOutcome, RunError> {
    let fingerprint = setup.fingerprint();
    std::fs::create_dir_all(&setup.out)
        .map_err(|e| RunError::Output(format!("cannot create {}: {e}", setup.out.display())))?;
    let lock =
        crate::records::journal::FolderLock::acquire(&setup.out).map_err(RunError::Output)?;
    let journal_path = setup.out.join("games.jsonl");
    let (mut journal, resumed) =
        Journal::open(&journal_path, setup.resume, &fingerprint).map_err(|e| match e {
            JournalError::Io(e) => RunError::Io(e),
            other => RunError::Output(other.to_string()),
        })?;
    if resumed.truncated {
        eprintln!(
            "note: the last line of {} was cut short and is replayed",
            journal_path.display()
        );
    }
    let setup_path = setup.out.join(setup.record_name());
    let recorded = setup.match_setup(&fingerprint);
    crate::engines::interrupt::run_started(&setup.out, recorded.command_name());
    if setup.resume && setup.gate {
        // A gate's hypotheses cannot change mid-test: that would let a user shop for a verdict.
        let before = crate::records::journal::read_bounded(
            &setup_path,
            crate::records::journal::MAX_SMALL_FILE,
        )
        .ok()
        .and_then(|t| serde_json::from_str::<MatchSetup>(&t).ok());
        if let Some(before) = before.filter(|b| b.gate != recorded.gate) {
            let show = |g: Option<Sprt>| {
                g.map_or("no test".to_string(), |s| {
                    format!(
                        "[{}, {}] {}, alpha {}, beta {}",
                        s.elo0, s.elo1, s.model, s.alpha, s.beta
                    )
                })
            };
            return Err(RunError::Output(format!(
                "--resume: {} was a gate of {}; this one asks for {}: a gate's test cannot \
                 change mid-test (start a new --out)",
                setup_path.display(),
                show(before.gate),
                show(recorded.gate)
            )));
        }
    }
    if setup.resume {
        // A shard resumed as another shard would mix pairs of two shares in one folder.
        let before = crate::records::journal::read_bounded(
            &setup_path,
            crate::records::journal::MAX_SMALL_FILE,
        )
        .ok()
        .and_then(|t| serde_json::from_str::<MatchSetup>(&t).ok());
        if let Some(before) = before.filter(|b| b.shard != recorded.shard) {
            let show =
                |s: Option<Shard>| s.map_or("the whole run".to_string(), |s| format!("shard {s}"));
            return Err(RunError::Output(format!(
                "--resume: {} holds {}; this run asks for {} (resume it with the same --shard, or \
                 choose another --out)",
                setup.out.display(),
                show(before.shard),
                show(recorded.shard)
            )));
        }
    }
    let mut setup_json = serde_json::to_vec_pretty(&recorded).map_err(std::io::Error::other)?;
    setup_json.push(b'\n');
    write_atomically(&setup_path, &setup_json)?;

    // Resumed pairs of this run's jobs, and the others (beyond a smaller cap): those are kept in
    // the journal, never counted.
    let mut done: BTreeMap<u64, [GameLine; 2]> = BTreeMap::new();
    let mut foreign: Vec<[GameLine; 2]> = Vec::new();
    for (key, pair) in resumed.pairs {
        match setup.job_of(&key) {
            Some(job) => {
                done.insert(job, pair);
            }
            None => foreign.push(pair),
        }
    }
    if !foreign.is_empty() {
        eprintln!(
            "note: {} recorded pairs lie beyond --pairs {}: they stay in {} but are not counted",
            foreign.len(),
            setup.pairs,
            journal_path.display()
        );
    }
    let total = setup.jobs();
    let mut tally = Tally {
        board: Scoreboard::new(&setup.pairings),
        prefix: Prefix::new(),
        finished: BTreeMap::new(),
        counted: 0,
        stopped: false,
    };
    let bar = progress_bar(setup, done.len() as u64);
    for (job, pair) in &done {
        tally.push(*job, pair.clone(), rule);
    }
    bar.set_message(live_message(&tally.board, rule));
    let started = Instant::now();
    let mut played_now = 0u64;
    if !tally.stopped && (done.len() as u64) < total {
        let fp = fingerprint.as_str();
        let left = total - done.len() as u64;
        let used = setup
            .threads
            .min(usize::try_from(left).unwrap_or(usize::MAX));
        if setup.resume && used < setup.threads {
            eprintln!(
                "note: {left} {} left to play: {used} of the {} threads used",
                if left == 1 { "pair" } else { "pairs" },
                setup.threads
            );
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if used > cores && setup.is_time_limited() {
            eprintln!(
                "note: {used} threads on {cores} {}: engines share cores, so these \
                 time-limited games are played weaker than they would be alone",
                if cores == 1 { "core" } else { "cores" }
            );
        }
        let labels: Vec<&str> = setup.engines.iter().map(|e| e.label.as_str()).collect();
        let logs = RunLogs::new(&setup.out, &labels, setup.log).map_err(RunError::Output)?;
        if setup.log && !setup.engines.iter().any(|e| e.external) {
            eprintln!(
                "note: --log keeps the UCI traffic of external engines, and this run has none: \
                 no game logs are written"
            );
        }
        let result = scheduler::run(
            total,
            setup.threads,
            &|job| done.contains_key(&job),
            &|job| setup.play_job(job, fp, &logs),
            |job, pair: [GameLine; 2]| -> Result<Flow, std::io::Error> {
                journal.append(&pair)?;
                played_now += 2;
                bar.inc(2);
                tally.push(job, pair, rule);
                bar.set_message(live_message(&tally.board, rule));
                Ok(if tally.stopped {
                    Flow::Stop
                } else {
                    Flow::Continue
                })
            },
        );
        match result {
            Ok(()) => {}
            Err(SchedulerError::Pool(m)) => return Err(RunError::Output(m)),
            Err(SchedulerError::Caller(e)) => return Err(RunError::Io(e)),
        }
    }
    bar.finish_and_clear();
    let wall = started.elapsed();

    // Final files, in job order: the journal keeps every finished pair, the rest only counted ones.
    journal.finish(tally.finished.values().chain(&foreign).flatten())?;
    let beyond = tally.finished.len() as u64 - tally.counted + foreign.len() as u64;
    let games: BTreeMap<u64, [GameLine; 2]> = tally
        .finished
        .into_iter()
        .filter(|(job, _)| *job < tally.counted)
        .collect();
    records::write_csv(
        &setup.out.join("games.csv"),
        &games,
        setup.pairings.len() as u64,
    )?;
    Ok(RunOutcome {
        beyond,
        counted: tally.counted,
        board: tally.board,
        stopped: tally.stopped,
        played_now,
        wall,
        fingerprint,
        games,
        lock: Some(lock),
    })
}

/// The outcome of a run whose pairs were played elsewhere (`arena merge`, the per-pairing folders
/// of a tournament): `games` tallied in job order, as [`execute`] would have tallied them.
pub fn outcome_of(
    setup: &RunSetup,
    fingerprint: String,
    games: BTreeMap<u64, [GameLine; 2]>,
) -> RunOutcome {
    let n = setup.pairings.len() as u64;
    let mut board = Scoreboard::new(&setup.pairings);
    for (job, pair) in &games {
        board.add_pair((job % n) as usize, pair);
    }
    RunOutcome {
        board,
        counted: games.len() as u64,
        beyond: 0,
        stopped: false,
        played_now: 0,
        wall: Duration::ZERO,
        fingerprint,
        games,
        lock: None,
    }
}

/// The running tally: finished jobs, the prefix, the board of the counted prefix.
struct Tally {
    board: Scoreboard,
    prefix: Prefix<()>,
    finished: BTreeMap<u64, [GameLine; 2]>,
    /// Jobs counted (the prefix up to a stop).
    counted: u64,
    stopped: bool,
}

impl Tally {
    fn push(&mut self, job: u64, pair: [GameLine; 2], rule: &mut dyn StopRule) {
        let pairings = self.board.pairings().len() as u64;
        self.finished.insert(job, pair);
        for (j, ()) in self.prefix.push(job, ()) {
            if self.stopped {
                continue;
            }
            let pair = &self.finished[&j];
            self.board.add_pair((j % pairings) as usize, pair);
            self.counted = j + 1;
            if rule.stop(&self.board, self.counted) {
                self.stopped = true;
            }
        }
    }
}

fn progress_bar(setup: &RunSetup, done_pairs: u64) -> ProgressBar {
    if !setup.progress {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(setup.jobs().saturating_mul(2));
    // A gate stops when its test decides, long before its cap as a rule: no bar to the cap, no
    // ETA; its message shows the LLR against its bounds.
    let template = if setup.gate {
        "{spinner} {pos} games  {msg}  [{elapsed_precise}]"
    } else {
        "{bar:32.cyan/blue} {pos}/{len} games  {msg}  [{elapsed_precise} < {eta_precise}]"
    };
    bar.set_style(
        ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_position(done_pairs * 2);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

fn live_message(board: &Scoreboard, rule: &dyn StopRule) -> String {
    if board.pairings().len() > 1 {
        // A tournament: one pairing's Elo would say little; the failures say what matters.
        let failures: u64 = board
            .pairings()
            .iter()
            .map(|p| p.failures.iter().sum::<u64>())
            .sum();
        return format!(
            "{} pairings, {failures} engine failures",
            board.pairings().len()
        );
    }
    let p = &board.pairings()[0];
    let e = crate::stats::pentanomial(&p.ptnml);
    let mut s = format!(
        "W {} D {} L {}  Elo {} ± {}",
        p.wdl.wins,
        p.wdl.draws,
        p.wdl.losses,
        fmt_elo(e.elo),
        fmt_elo(e.elo_error)
    );
    if let Some(status) = rule.status(board) {
        s.push_str("  ");
        s.push_str(&status);
    }
    s
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// The files that record a run in its folder, one per kind of run (see
/// [`RunSetup::record_name`]).
pub const RECORD_NAMES: [&str; 3] = ["tournament.json", "leak-run.json", "match.json"];

/// Writes a run's reports from its outcome and prints its summary: a tournament's standings
/// ([`crate::report::standings::report`]), a leak run's report ([`crate::commands::leak::report`]), or a two-engine
/// run's summary ([`report`]). What `arena merge` writes for the shards of any run.
///
/// # Errors
/// Writing fails.
pub fn write_reports(
    setup: &RunSetup,
    outcome: &RunOutcome,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    if setup.tournament.is_some() {
        crate::report::standings::report(setup, outcome, out)
    } else if setup.leak.is_some() {
        crate::commands::leak::report(setup, outcome, out)
    } else {
        report(setup, outcome, out)
    }
}

/// Prints a run's summary to `out` and writes `summary.txt` and `summary.json`: what every
/// two-engine run command ends with.
///
/// # Errors
/// Writing fails.
pub fn report(setup: &RunSetup, outcome: &RunOutcome, out: &mut dyn Write) -> Result<(), RunError> {
    let text = crate::report::summary_text(setup, outcome);
    write_atomically(&setup.out.join("summary.txt"), text.as_bytes())?;
    let summary = crate::report::summary(setup, outcome);
    let mut json = serde_json::to_vec_pretty(&summary).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomically(&setup.out.join("summary.json"), &json)?;
    out.write_all(text.as_bytes())?;
    writeln!(out, "Results in {}", setup.out.display())?;
    Ok(())
}
