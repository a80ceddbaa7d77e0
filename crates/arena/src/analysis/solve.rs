//! `arena solve`'s work: one engine's search of one suite position ([`solve_one`]) and an
//! engine's totals ([`summarise`]).
//!
//! Each search is asked once as in a game (`crate::run::game_runner::search_once`: the same hard
//! limit, an engine that does not stop is given up). The engine's interim reports
//! ([`jieqi_engine::SearchInfo`], one per completed depth for `alphabeta`) say when it first had
//! a right answer: a right move (one of `bm`, none of `am`) and, for `dm N`, a reported `mate M`
//! with M ≤ N. A position is **solved** when the final answer is right; its **time to
//! solution** is when the answer became right for good (the report from which every later one
//! and the answer were right), as EPD test tools count it; `held` says whether the first right
//! report already was that one. Seeds are `mix(--seed, position index)`, the same for every
//! engine, so node-limited runs are reproducible.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jieqi_engine::{Score, SearchInfo, mix};
use jieqi_search::mate::{Verdict, check_claim};
use serde::{Deserialize, Serialize};

use std::path::PathBuf;

use jieqi_engine::Limits;

use crate::engines::EngineEntry;
use crate::records::epd::{Entry, Suite};
use crate::run::game_runner::{Reporter, search_once};

/// One engine's result on one position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PositionResult {
    /// The engine's label.
    pub engine: String,
    /// Number of the position among the suite's valid positions, from 1 (as in the table).
    pub index: usize,
    /// Its line in the suite file.
    pub line: usize,
    /// Its id.
    pub id: String,
    /// Its FEN.
    pub fen: String,
    /// What was asked (`bm …; dm N`).
    pub expected: String,
    /// The move the engine answered (none after a failure).
    pub mv: Option<String>,
    /// The score it reported with it.
    pub score: Option<String>,
    /// The depth it reported.
    pub depth: Option<u32>,
    /// Nodes of the whole search.
    pub nodes: u64,
    /// Milliseconds of the whole search.
    pub ms: f64,
    /// Whether the answer was a right move.
    pub right_move: bool,
    /// For `dm N`: whether the engine reported mate in at most N.
    pub mate_proved: Option<bool>,
    /// What the mate prover said of the engine's `mate N` claim (`proved (in K)`, `refuted`,
    /// `unknown (…)`), if it made one and claims were checked.
    #[serde(default)]
    pub mate_check: Option<String>,
    /// Whether the position was solved (right move, and for `dm` a mate claim within N that
    /// the prover did not refute).
    pub solved: bool,
    /// Milliseconds and nodes at the first right report.
    pub first_ms: Option<f64>,
    /// Nodes at the first right report.
    pub first_nodes: Option<u64>,
    /// Milliseconds to solution: from when the answer stayed right to the end.
    pub found_ms: Option<f64>,
    /// Nodes to solution.
    pub found_nodes: Option<u64>,
    /// Whether the first right report already stayed right to the end.
    pub held: bool,
    /// Interim reports heard.
    pub reports: u32,
    /// The failure, if the engine did not answer.
    pub error: Option<String>,
}

/// One engine's totals over the suite.
#[derive(Clone, Debug, Serialize)]
pub struct EngineSummary {
    /// The engine's label.
    pub engine: String,
    /// Its spec as given.
    pub spec: String,
    /// Positions searched.
    pub positions: usize,
    /// Positions solved.
    pub solved: usize,
    /// Positions answered with a right move.
    pub right_moves: usize,
    /// `dm` positions, and how many of them the engine proved.
    pub dm_positions: usize,
    /// `dm` positions with mate in at most N reported.
    pub mates_proved: usize,
    /// Mate claims the engine made (final answers reporting `mate N`) and were checked.
    pub mate_claims: usize,
    /// Mate claims the prover proved.
    pub claims_proved: usize,
    /// Mate claims the prover refuted.
    pub claims_refuted: usize,
    /// Positions where the engine failed (no answer).
    pub failures: usize,
    /// Total search milliseconds.
    pub total_ms: f64,
    /// Total nodes.
    pub total_nodes: u64,
    /// Mean milliseconds to solution over the solved positions.
    pub mean_found_ms: Option<f64>,
    /// Solved / positions per `dm N` (N, solved, positions), for mate suites.
    pub by_dm: Vec<(u32, usize, usize)>,
}

/// What the interim reports have shown so far.
#[derive(Default)]
struct Tracker {
    reports: u32,
    first: Option<(f64, u64)>,
    streak: Option<(f64, u64)>,
}

/// Whether a score proves `dm n`: mate in at most n moves of the side to move.
fn proves_mate(score: Option<Score>, n: u32) -> bool {
    matches!(score, Some(Score::Mate(m)) if m >= 1 && (m as u32) <= n)
}

/// Whether an answer (move and score) is right for `entry`.
fn right(entry: &Entry, mv: Option<jieqi_core::Move>, score: Option<Score>) -> bool {
    mv.is_some_and(|m| entry.right_move(m)) && entry.dm.is_none_or(|n| proves_mate(score, n))
}

/// Runs one engine on one position (number `index` from 0), searching with `limits` and the hard
/// limit `hard`, seeded by `mix(seed, index)`; checks a mate claim with `mate_check_nodes`.
pub fn solve_one(
    engine: &EngineEntry,
    entry: &Entry,
    index: usize,
    limits: &jieqi_engine::Limits,
    hard: Duration,
    seed: u64,
    mate_check_nodes: u64,
) -> PositionResult {
    let started = Instant::now();
    let tracker = Arc::new(Mutex::new(Tracker::default()));
    let reporter: Reporter = {
        let tracker = Arc::clone(&tracker);
        let entry = entry.clone();
        Arc::new(move |info: &SearchInfo| {
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            let ok = right(&entry, info.pv.first().copied(), info.score);
            let mut t = tracker.lock().unwrap_or_else(|e| e.into_inner());
            t.reports += 1;
            if ok {
                t.first.get_or_insert((ms, info.nodes));
                t.streak.get_or_insert((ms, info.nodes));
            } else {
                t.streak = None;
            }
        })
    };
    let answer = search_once(
        engine,
        &entry.view,
        limits,
        mix(seed, index as u64),
        hard,
        &reporter,
        &[],
    );
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let t = tracker.lock().unwrap_or_else(|e| e.into_inner());
    let mut result = PositionResult {
        engine: engine.label.clone(),
        index: index + 1,
        line: entry.line,
        id: entry.id.clone(),
        fen: entry.fen.clone(),
        expected: entry.expected(),
        mv: None,
        score: None,
        depth: None,
        nodes: 0,
        ms,
        right_move: false,
        mate_proved: None,
        mate_check: None,
        solved: false,
        first_ms: None,
        first_nodes: None,
        found_ms: None,
        found_nodes: None,
        held: false,
        reports: t.reports,
        error: None,
    };
    match answer {
        Err(e) => result.error = Some(e),
        Ok(choice) if !entry.view.legal_moves().contains(&choice.mv) => {
            result.mv = Some(choice.mv.to_string());
            result.nodes = choice.info.nodes;
            result.error = Some(format!("illegal move {}", choice.mv));
        }
        Ok(choice) => {
            let info = &choice.info;
            result.mv = Some(choice.mv.to_string());
            result.score = info.score.map(score_text);
            result.depth = info.depth;
            result.nodes = info.nodes;
            result.right_move = entry.right_move(choice.mv);
            let verdict = match info.score {
                Some(Score::Mate(n)) if mate_check_nodes > 0 => Some(
                    check_claim(
                        entry.view.position(),
                        entry.view.knowledge(),
                        choice.mv,
                        n,
                        mate_check_nodes,
                        None,
                    )
                    .0,
                ),
                _ => None,
            };
            result.mate_check = verdict.map(|v| v.to_string());
            let refuted = verdict == Some(Verdict::Refuted);
            result.mate_proved = entry.dm.map(|n| proves_mate(info.score, n) && !refuted);
            result.solved = right(entry, Some(choice.mv), info.score) && !refuted;
            let first = t.first.or(result.solved.then_some((ms, info.nodes)));
            result.first_ms = first.map(|f| f.0);
            result.first_nodes = first.map(|f| f.1);
            if result.solved {
                let found = t.streak.unwrap_or((ms, info.nodes));
                result.found_ms = Some(found.0);
                result.found_nodes = Some(found.1);
                result.held = first == Some(found);
            }
        }
    }
    result
}

/// A score as UCI would say it: `cp 35`, `mate 3`, `wr 0.62`.
fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
        Score::WinRate(w) => format!("wr {w:.3}"),
    }
}

/// One engine's totals over its results `rs` on `suite`.
pub fn summarise(engine: &EngineEntry, rs: &[PositionResult], suite: &Suite) -> EngineSummary {
    let solved: Vec<&PositionResult> = rs.iter().filter(|r| r.solved).collect();
    let mut by_dm: Vec<(u32, usize, usize)> = Vec::new();
    for r in rs {
        if let Some(n) = suite.entries[r.index - 1].dm {
            match by_dm.iter_mut().find(|(m, _, _)| *m == n) {
                Some(slot) => {
                    slot.1 += usize::from(r.solved);
                    slot.2 += 1;
                }
                None => by_dm.push((n, usize::from(r.solved), 1)),
            }
        }
    }
    by_dm.sort_unstable();
    let claims = |what: &str| {
        rs.iter()
            .filter(|r| r.mate_check.as_deref().is_some_and(|c| c.starts_with(what)))
            .count()
    };
    EngineSummary {
        engine: engine.label.clone(),
        spec: engine.spec.to_string(),
        positions: rs.len(),
        solved: solved.len(),
        right_moves: rs.iter().filter(|r| r.right_move).count(),
        dm_positions: rs.iter().filter(|r| r.mate_proved.is_some()).count(),
        mates_proved: rs.iter().filter(|r| r.mate_proved == Some(true)).count(),
        mate_claims: rs.iter().filter(|r| r.mate_check.is_some()).count(),
        claims_proved: claims("proved"),
        claims_refuted: claims("refuted"),
        failures: rs.iter().filter(|r| r.error.is_some()).count(),
        total_ms: rs.iter().map(|r| r.ms).sum(),
        total_nodes: rs.iter().map(|r| r.nodes).sum(),
        mean_found_ms: (!solved.is_empty())
            .then(|| solved.iter().filter_map(|r| r.found_ms).sum::<f64>() / solved.len() as f64),
        by_dm,
    }
}

/// `--min-solved`: the fewest positions each engine must solve for the run to pass.
#[derive(Clone, Debug, PartialEq)]
pub struct MinSolved {
    /// The flag's value as given (`40`, `87.5%`).
    pub given: String,
    /// The fewest positions to solve, out of the suite's valid positions.
    pub required: usize,
}

/// A validated `arena solve`.
#[derive(Debug)]
pub struct SolvePlan {
    /// The suite file, as given.
    pub suite_path: PathBuf,
    /// Its positions (never none) and the lines skipped.
    pub suite: Suite,
    /// `--rules` as given (the name reports show).
    pub rules_name: String,
    /// Limits for every position.
    pub limits: Limits,
    /// Positions searched at once, 1 to 1024.
    pub threads: usize,
    /// The engines, with unique labels.
    pub engines: Vec<EngineEntry>,
    /// Master seed.
    pub seed: u64,
    /// The hard limit of one search, in milliseconds.
    pub move_timeout: Option<u64>,
    /// The results folder (created, and written to once).
    pub out: PathBuf,
    /// Continue the interrupted run in `out` from its journal.
    pub resume: bool,
    /// `--min-solved`: the fewest positions each engine must solve.
    pub min_solved: Option<MinSolved>,
    /// Prover nodes for the check of each mate claim (0: none).
    pub mate_check_nodes: u64,
    /// Print only the positions an engine did not solve.
    pub failed_only: bool,
    /// Never draw a progress bar.
    pub no_progress: bool,
}
