//! `arena match`: seeded, colour-swapped game pairs between two engines, in parallel, with a
//! progress bar, a fastchess-style result block and machine-readable results.
//!
//! Pair `p` uses the deal seed `seed_p = mix(S, p)` ([`pair_seed`]); game 1 gives engine A Red,
//! game 2 gives it Black, on the same deal. Every number is computed from the pairs in pair order
//! once the run ends, so the same command gives the same games and the same `games.csv` rows at any
//! `--threads` (the `ms_*` timing columns aside).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use jieqi_core::{ByColor, Color, Rules};
use jieqi_engine::{Limits, mix};
use rayon::prelude::*;
use serde_json::json;

use crate::block::{BlockInput, block_json, render_block};
use crate::engines::EngineEntry;
use crate::game_runner::{GameSpec, PlayedGame, Termination, play_game};
use crate::records::{self, GameLine};
use crate::stats::{GameScore, Pentanomial, Wdl};

/// The deal seed of pair `p` in a match with master seed `seed`.
pub const fn pair_seed(seed: u64, p: u64) -> u64 {
    mix(seed, p)
}

/// Which engines see everything (leak measurement).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Omniscient {
    /// Both fair.
    None,
    /// Engine A omniscient.
    A,
    /// Engine B omniscient.
    B,
    /// Both omniscient.
    Both,
}

/// A validated `arena match`.
#[derive(Debug)]
pub struct MatchPlan {
    /// Engine A (the one results are reported for) and engine B.
    pub engines: [EngineEntry; 2],
    /// Number of pairs.
    pub pairs: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Rules.
    pub rules: Rules,
    /// Adjudication cap.
    pub max_plies: u32,
    /// Per-move limits for both engines.
    pub limits: Limits,
    /// Per-move wall-clock limit whose breach loses the game.
    pub move_timeout: Option<Duration>,
    /// Omniscient engines.
    pub omniscient: Omniscient,
    /// Output folder.
    pub out: PathBuf,
    /// Continue an interrupted run in `out`.
    pub resume: bool,
    /// Optional SPRT to report.
    pub sprt: Option<crate::stats::Sprt>,
    /// Show a progress bar (stderr is a terminal).
    pub progress: bool,
    /// The command line, for the summary.
    pub command: String,
}

/// A match that could not run or finish.
#[derive(Debug)]
pub enum MatchError {
    /// The output folder is unusable.
    Output(String),
    /// A results file is corrupt.
    Records(records::RecordsError),
    /// Writing failed.
    Io(std::io::Error),
}

impl core::fmt::Display for MatchError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MatchError::Output(m) => write!(f, "{m}"),
            MatchError::Records(e) => write!(f, "{e}"),
            MatchError::Io(e) => write!(f, "writing results: {e}"),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<std::io::Error> for MatchError {
    fn from(e: std::io::Error) -> MatchError {
        MatchError::Io(e)
    }
}

impl MatchPlan {
    /// What identifies the games of this match: harness version, engines, rules, seed, limits,
    /// cap and omniscience. Results with the same fingerprint may be merged or resumed.
    pub fn fingerprint(&self) -> String {
        let text = json!({
            "harness": env!("CARGO_PKG_VERSION"),
            "a": self.engines[0].spec.to_string(),
            "b": self.engines[1].spec.to_string(),
            "rules": self.rules,
            "seed": self.seed,
            "limits": self.limits.to_string(),
            "max_plies": self.max_plies,
            "omniscient": format!("{:?}", self.omniscient),
        })
        .to_string();
        // FNV-1a, 64 bits: stable across platforms and Rust versions.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }

    /// What `match.json` records: enough to replay any game of the match.
    pub fn setup(&self, fingerprint: &str) -> crate::replay::MatchSetup {
        crate::replay::MatchSetup {
            fingerprint: fingerprint.to_string(),
            engines: [
                (
                    self.engines[0].label.clone(),
                    self.engines[0].spec.to_string(),
                ),
                (
                    self.engines[1].label.clone(),
                    self.engines[1].spec.to_string(),
                ),
            ],
            rules: self.rules,
            seed: self.seed,
            pairs: self.pairs,
            nodes: self.limits.nodes,
            depth: self.limits.depth,
            movetime_ms: self.limits.movetime.map(|d| d.as_millis() as u64),
            move_timeout_ms: self.move_timeout.map(|d| d.as_millis() as u64),
            max_plies: self.max_plies,
            omniscient: self.omniscient_name().to_string(),
            command: self.command.clone(),
        }
    }

    fn omniscient_name(&self) -> &'static str {
        match self.omniscient {
            Omniscient::None => "none",
            Omniscient::A => "a",
            Omniscient::B => "b",
            Omniscient::Both => "both",
        }
    }

    fn omniscient_for(&self, game: u8) -> ByColor<bool> {
        // Game 1: A is Red. Game 2: A is Black.
        let (a, b) = match self.omniscient {
            Omniscient::None => (false, false),
            Omniscient::A => (true, false),
            Omniscient::B => (false, true),
            Omniscient::Both => (true, true),
        };
        if game == 1 {
            ByColor { red: a, black: b }
        } else {
            ByColor { red: b, black: a }
        }
    }

    /// The limits and cap, for the header of the block.
    pub fn context(&self) -> String {
        format!(
            "{}, {} threads, seed {}, rules {}, {} pairs",
            self.limits, self.threads, self.seed, self.rules.name, self.pairs
        )
    }

    fn play_pair(&self, p: u64, fingerprint: &str) -> [GameLine; 2] {
        let seed = pair_seed(self.seed, p);
        let [a, b] = &self.engines;
        let line = |game: u8, red: &EngineEntry, black: &EngineEntry| {
            let spec = GameSpec {
                rules: &self.rules,
                deal_seed: seed,
                red,
                black,
                limits: self.limits,
                max_plies: self.max_plies,
                omniscient: self.omniscient_for(game),
                move_timeout: self.move_timeout,
            };
            let played: PlayedGame = play_game(&spec, None);
            GameLine::new(
                fingerprint,
                p,
                game,
                seed,
                &red.label,
                &black.label,
                &played,
            )
        };
        [line(1, a, b), line(2, b, a)]
    }
}

/// Engine A's score in a game line.
fn a_score(g: &GameLine) -> GameScore {
    let a_color = if g.game == 1 {
        Color::Red
    } else {
        Color::Black
    };
    match g.winner() {
        None => GameScore::Draw,
        Some(c) if c == a_color => GameScore::Win,
        Some(_) => GameScore::Loss,
    }
}

/// Everything the summary reports, computed from complete pairs in pair order.
#[derive(Debug, Default)]
pub struct Tally {
    /// Pentanomial counts from A's side.
    pub ptnml: Pentanomial,
    /// Game counts from A's side.
    pub wdl: Wdl,
    /// A's points and games as Red, then as Black.
    pub by_color: [(f64, u64); 2],
    /// Terminations.
    pub terminations: BTreeMap<String, u64>,
    /// Engine failures per engine label.
    pub failures: BTreeMap<String, u64>,
    /// Total plies.
    pub plies: u64,
    /// Milliseconds inside engines, and in whole games.
    pub engine_ms: f64,
    /// Milliseconds of whole games (harness included).
    pub total_ms: f64,
}

impl Tally {
    /// Adds one complete pair.
    pub fn add_pair(&mut self, pair: &[GameLine; 2]) {
        self.ptnml.add(a_score(&pair[0]), a_score(&pair[1]));
        for g in pair {
            let s = a_score(g);
            match s {
                GameScore::Win => self.wdl.wins += 1,
                GameScore::Draw => self.wdl.draws += 1,
                GameScore::Loss => self.wdl.losses += 1,
            }
            let slot = &mut self.by_color[g.game as usize - 1];
            slot.0 += match s {
                GameScore::Win => 1.0,
                GameScore::Draw => 0.5,
                GameScore::Loss => 0.0,
            };
            slot.1 += 1;
            *self.terminations.entry(g.reason.clone()).or_default() += 1;
            if g.termination().is_some_and(Termination::is_failure) {
                let loser = if g.winner() == Some(Color::Red) {
                    &g.black
                } else {
                    &g.red
                };
                *self.failures.entry(loser.clone()).or_default() += 1;
            }
            self.plies += g.plies as u64;
            self.engine_ms += g.ms.red + g.ms.black;
            self.total_ms += g.total_ms;
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wdl.wins + self.wdl.draws + self.wdl.losses
    }
}

/// Runs the match and prints the result block to `out`.
///
/// # Errors
/// The output folder is unusable, an old journal is corrupt, or writing fails.
pub fn run(plan: &MatchPlan, out: &mut dyn Write) -> Result<(), MatchError> {
    let fingerprint = plan.fingerprint();
    let journal_path = plan.out.join("games.jsonl");
    let mut done: BTreeMap<u64, [GameLine; 2]> = BTreeMap::new();
    if plan.resume {
        if journal_path.exists() {
            let (lines, truncated) =
                records::read_jsonl(&journal_path).map_err(MatchError::Records)?;
            if let Some(bad) = lines.iter().find(|g| g.fingerprint != fingerprint) {
                return Err(MatchError::Output(format!(
                    "--resume: {} holds games of another match (fingerprint {} at pair {}, this match is {}); \
                     the engines, rules, seed, limits or cap differ",
                    journal_path.display(),
                    bad.fingerprint,
                    bad.pair,
                    fingerprint
                )));
            }
            if truncated {
                eprintln!(
                    "note: the last line of {} was cut short and is replayed",
                    journal_path.display()
                );
            }
            done = records::complete_pairs(lines);
            done.retain(|p, _| *p < plan.pairs);
        }
    } else if journal_path.exists() {
        return Err(MatchError::Output(format!(
            "{} exists: add --resume to continue that run, or choose another --out",
            journal_path.display()
        )));
    }
    std::fs::create_dir_all(&plan.out)
        .map_err(|e| MatchError::Output(format!("cannot create {}: {e}", plan.out.display())))?;
    let mut setup =
        serde_json::to_vec_pretty(&plan.setup(&fingerprint)).map_err(std::io::Error::other)?;
    setup.push(b'\n');
    write_atomically(&plan.out.join("match.json"), &setup)?;
    // Rewrite the journal with the complete pairs only, so that half pairs are replayed whole.
    let mut journal = std::io::BufWriter::new(std::fs::File::create(&journal_path)?);
    for pair in done.values() {
        for g in pair {
            serde_json::to_writer(&mut journal, g).map_err(std::io::Error::other)?;
            journal.write_all(b"\n")?;
        }
    }
    journal.flush()?;

    let todo: Vec<u64> = (0..plan.pairs).filter(|p| !done.contains_key(p)).collect();
    let todo_count = todo.len() as u64;
    let bar = progress_bar(plan, done.len() as u64);
    let mut live = Tally::default();
    for pair in done.values() {
        live.add_pair(pair);
    }
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.threads)
        .build()
        .map_err(|e| MatchError::Output(format!("cannot start {} threads: {e}", plan.threads)))?;
    let (tx, rx) = mpsc::channel::<[GameLine; 2]>();
    std::thread::scope(|scope| -> Result<(), MatchError> {
        let fp = fingerprint.as_str();
        scope.spawn(move || {
            pool.install(|| {
                todo.par_iter().for_each_with(tx, |tx, &p| {
                    let _ = tx.send(plan.play_pair(p, fp));
                })
            })
        });
        for pair in rx {
            let mut buf = Vec::new();
            for g in &pair {
                serde_json::to_writer(&mut buf, g).map_err(std::io::Error::other)?;
                buf.push(b'\n');
            }
            journal.write_all(&buf)?;
            journal.flush()?;
            live.add_pair(&pair);
            bar.inc(2);
            bar.set_message(live_message(&live));
            done.insert(pair[0].pair, pair);
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    let wall = started.elapsed();

    // Final files, in pair order.
    let games: Vec<GameLine> = done.values().flat_map(|p| p.iter().cloned()).collect();
    let mut jsonl = Vec::new();
    for g in &games {
        serde_json::to_writer(&mut jsonl, g).map_err(std::io::Error::other)?;
        jsonl.push(b'\n');
    }
    write_atomically(&journal_path, &jsonl)?;
    records::write_csv(&plan.out.join("games.csv"), &games)?;
    let mut tally = Tally::default();
    for pair in done.values() {
        tally.add_pair(pair);
    }
    let played_now = 2 * todo_count;
    let text = summary_text(plan, &tally, wall, played_now);
    write_atomically(&plan.out.join("summary.txt"), text.as_bytes())?;
    let summary = summary_json(plan, &tally, wall, &fingerprint);
    let mut json_bytes = serde_json::to_vec_pretty(&summary).map_err(std::io::Error::other)?;
    json_bytes.push(b'\n');
    write_atomically(&plan.out.join("summary.json"), &json_bytes)?;
    out.write_all(text.as_bytes())?;
    writeln!(out, "Results in {}", plan.out.display())?;
    Ok(())
}

fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

fn progress_bar(plan: &MatchPlan, done_pairs: u64) -> ProgressBar {
    if !plan.progress {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(plan.pairs * 2);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:32.cyan/blue} {pos}/{len} games  {msg}  [{elapsed_precise} < {eta_precise}]",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.set_position(done_pairs * 2);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

fn live_message(t: &Tally) -> String {
    let e = crate::stats::pentanomial(&t.ptnml);
    format!(
        "W {} D {} L {}  Elo {} ± {}",
        t.wdl.wins,
        t.wdl.draws,
        t.wdl.losses,
        fmt_elo(e.elo),
        fmt_elo(e.elo_error)
    )
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

fn block_input<'a>(plan: &'a MatchPlan, tally: &Tally, context: &'a str) -> BlockInput<'a> {
    BlockInput {
        a: &plan.engines[0].label,
        b: &plan.engines[1].label,
        context,
        ptnml: Some(tally.ptnml),
        wdl: tally.wdl,
        sprt: plan.sprt,
    }
}

fn summary_text(plan: &MatchPlan, tally: &Tally, wall: Duration, played_now: u64) -> String {
    let context = plan.context();
    let mut s = render_block(&block_input(plan, tally, &context));
    if !s.ends_with('\n') {
        s.push('\n');
    }
    let pct = |(points, games): (f64, u64)| {
        if games == 0 {
            0.0
        } else {
            100.0 * points / games as f64
        }
    };
    s.push_str(&format!(
        "{} as Red: {:.2} %, as Black: {:.2} %\n",
        plan.engines[0].label,
        pct(tally.by_color[0]),
        pct(tally.by_color[1])
    ));
    let games = tally.games().max(1);
    s.push_str(&format!(
        "Average plies: {:.1}\n",
        tally.plies as f64 / games as f64
    ));
    let terms: Vec<String> = tally
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    s.push_str(&format!("Terminations: {}\n", terms.join(", ")));
    let failures: Vec<String> = plan
        .engines
        .iter()
        .map(|e| {
            format!(
                "{} {}",
                e.label,
                tally.failures.get(&e.label).copied().unwrap_or(0)
            )
        })
        .collect();
    s.push_str(&format!(
        "Engine failures (illegal move, panic, error, timeout, crash, protocol error): {}\n",
        failures.join(", ")
    ));
    if plan.omniscient != Omniscient::None {
        s.push_str(&format!(
            "Omniscient: {:?} (this engine saw every hidden piece)\n",
            plan.omniscient
        ));
    }
    let secs = wall.as_secs_f64();
    let share = if tally.total_ms > 0.0 {
        100.0 * tally.engine_ms / tally.total_ms
    } else {
        0.0
    };
    s.push_str(&format!(
        "Time: {:.1} s wall this run, {:.1} games/s; {:.1} % of game time inside engines\n",
        secs,
        if secs > 0.0 {
            played_now as f64 / secs
        } else {
            0.0
        },
        share
    ));
    s
}

fn summary_json(
    plan: &MatchPlan,
    tally: &Tally,
    wall: Duration,
    fingerprint: &str,
) -> serde_json::Value {
    let context = plan.context();
    let pct = |(points, games): (f64, u64)| {
        if games == 0 {
            0.0
        } else {
            points / games as f64
        }
    };
    json!({
        "command": plan.command,
        "harness_version": env!("CARGO_PKG_VERSION"),
        "fingerprint": fingerprint,
        "engines": {
            "a": { "label": plan.engines[0].label, "spec": plan.engines[0].spec.to_string() },
            "b": { "label": plan.engines[1].label, "spec": plan.engines[1].spec.to_string() },
        },
        "rules": plan.rules,
        "pairs": plan.pairs,
        "seed": plan.seed,
        "threads": plan.threads,
        "limits": {
            "nodes": plan.limits.nodes,
            "depth": plan.limits.depth,
            "movetime_ms": plan.limits.movetime.map(|d| d.as_millis() as u64),
        },
        "move_timeout_ms": plan.move_timeout.map(|d| d.as_millis() as u64),
        "max_plies": plan.max_plies,
        "omniscient": plan.omniscient_name(),
        "results": block_json(&block_input(plan, tally, &context)),
        "a_score_as_red": pct(tally.by_color[0]),
        "a_score_as_black": pct(tally.by_color[1]),
        "average_plies": tally.plies as f64 / tally.games().max(1) as f64,
        "terminations": tally.terminations,
        "failures": plan.engines.iter().map(|e| (e.label.clone(), tally.failures.get(&e.label).copied().unwrap_or(0))).collect::<BTreeMap<_, _>>(),
        "timing": {
            "wall_seconds_this_run": wall.as_secs_f64(),
            "engine_ms": tally.engine_ms,
            "game_ms": tally.total_ms,
            "engine_share": if tally.total_ms > 0.0 { tally.engine_ms / tally.total_ms } else { 0.0 },
        },
    })
}
