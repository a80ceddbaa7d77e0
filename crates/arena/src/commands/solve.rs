//! `arena solve`: runs engines over a test suite (an EPD-style file, see [`crate::records::epd`]) and
//! reports which positions each solved and how fast.
//!
//! Every (engine, position) is one job of the [`crate::run::scheduler`]; `--threads` positions are
//! searched at once, each by a fresh engine, asked once as in a game ([`search_once`]: the same
//! hard limit, an engine that does not stop is given up). The engine's interim reports
//! ([`jieqi_engine::SearchInfo`], one per completed depth for `alphabeta`) say when it first
//! had a right answer: a right move (one of `bm`, none of `am`) and, for `dm N`, a reported
//! `mate M` with M ≤ N. A position is **solved** when the final answer is right; its **time to
//! solution** is when the answer became right for good (the report from which every later one
//! and the answer were right), as EPD test tools count it; `held` says whether the first right
//! report already was that one. Seeds are `mix(--seed, position index)`, the same for every
//! engine, so node-limited runs are reproducible.
//!
//! Every finished position is appended to the journal `solve.jsonl` in the results folder
//! ([`crate::records::journal::ItemJournal`]: the run's setup, then one checked line per
//! position), so `--resume` continues an interrupted run; `--min-solved` makes the run fail
//! (exit 1) when an engine solved fewer positions.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jieqi_engine::{Score, SearchInfo, mix};
use jieqi_search::mate::{Verdict, check_claim};
use serde::{Deserialize, Serialize};

use crate::engines::EngineEntry;
use crate::error::Error;
use crate::plan::solve::SolvePlan;
use crate::records::epd::{Entry, Suite};
use crate::records::journal::ItemJournal;
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

/// What a run searches, as its journal records it: a resume must search the same.
#[derive(Debug, Serialize, Deserialize)]
struct JournalSetup {
    /// The suite file as given (not compared: the suite may move).
    suite: String,
    /// FNV-1a of the suite's text.
    suite_digest: String,
    rules: String,
    /// (label, spec) of every engine.
    engines: Vec<(String, String)>,
    limits: String,
    move_timeout: Option<u64>,
    seed: u64,
}

impl JournalSetup {
    fn of(plan: &SolvePlan) -> JournalSetup {
        JournalSetup {
            suite: plan.suite_path.display().to_string(),
            suite_digest: format!("{:016x}", plan.suite.digest),
            rules: plan.rules_name.clone(),
            engines: plan
                .engines
                .iter()
                .map(|e| (e.label.clone(), e.spec.to_string()))
                .collect(),
            limits: plan.limits.to_string(),
            move_timeout: plan.move_timeout,
            seed: plan.seed,
        }
    }

    /// How the run `was` recorded differs from this one `now`, if it does.
    fn differs(was: &JournalSetup, now: &JournalSetup) -> Option<String> {
        let show = |e: &[(String, String)]| {
            e.iter()
                .map(|(_, spec)| spec.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let timeout = |t: Option<u64>| t.map_or("default".to_string(), |t| format!("{t} ms"));
        if was.suite_digest != now.suite_digest {
            Some(format!(
                "the suite's content differs from that of {}",
                was.suite
            ))
        } else if was.engines != now.engines {
            Some(format!(
                "engines {} there, {} here",
                show(&was.engines),
                show(&now.engines)
            ))
        } else if was.rules != now.rules {
            Some(format!("--rules {} there, {} here", was.rules, now.rules))
        } else if was.limits != now.limits {
            Some(format!("limits {} there, {} here", was.limits, now.limits))
        } else if was.move_timeout != now.move_timeout {
            Some(format!(
                "--move-timeout {} there, {} here",
                timeout(was.move_timeout),
                timeout(now.move_timeout)
            ))
        } else if was.seed != now.seed {
            Some(format!("--seed {} there, {} here", was.seed, now.seed))
        } else {
            None
        }
    }
}

/// A line of the journal: a finished job (position-major: position `job / engines`, engine
/// `job % engines`) and its result.
#[derive(Serialize, Deserialize)]
struct JournalLine {
    job: u64,
    result: PositionResult,
}

/// How `--min-solved` came out for one engine.
#[derive(Serialize)]
struct MinSolvedJson<'a> {
    /// The flag as given.
    given: &'a str,
    /// Positions each engine had to solve.
    required: usize,
    /// Whether every engine did.
    passed: bool,
}

/// What `solve.json` holds.
#[derive(Serialize)]
struct SolveJson<'a> {
    harness: &'static str,
    /// The code that searched.
    build: crate::records::build::Build,
    suite: String,
    rules: String,
    limits: String,
    seed: u64,
    threads: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    min_solved: Option<MinSolvedJson<'a>>,
    skipped_lines: Vec<SkippedLine>,
    engines: &'a [EngineSummary],
    positions: &'a [PositionResult],
}

#[derive(Serialize)]
struct SkippedLine {
    line: usize,
    error: String,
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

/// Runs one engine on one position.
fn solve_one(
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

/// How `arena solve` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Every search was done, and every engine solved at least `--min-solved` positions (or the
    /// flag was not given).
    Passed,
    /// Every search was done, and an engine solved fewer positions than `--min-solved`.
    BelowMinimum,
    /// Ctrl-C: the finished searches are kept in the journal, for `--resume`.
    Interrupted,
}

/// Runs the command; says whether it passed `--min-solved` (always, without it), or was
/// interrupted: once [`crate::util::interrupt::requested`] is set no search starts, and none
/// that ends after it is recorded (its engine may have been ended).
///
/// # Errors
/// The scheduler cannot start its threads, the results folder is another run's or in use, its
/// journal exists without `--resume` or is another setup's (exit 2), or results that cannot be
/// written (exit 4).
pub fn run(args: &SolvePlan, w: &mut dyn Write) -> Result<Ended, Error> {
    let (suite, limits, threads, engines, out_dir) = (
        &args.suite,
        &args.limits,
        args.threads,
        &args.engines,
        &args.out,
    );
    let name = args.suite_path.display().to_string();
    let positions = suite.entries.len();
    let jobs = (positions * engines.len()) as u64;
    let context = format!(
        "{} positions ({} lines skipped), rules {}, {}, {threads} at once, seed {}",
        positions,
        suite.errors.len(),
        args.rules_name,
        limits,
        args.seed
    );
    let io = |e: std::io::Error| Error::Write(format!("writing output: {e}"));
    let _lock = crate::records::journal::FolderLock::acquire(out_dir).map_err(Error::Input)?;
    let journal_path = out_dir.join(crate::plan::solve::JOURNAL);
    let setup = JournalSetup::of(args);
    let (mut journal, resumed) = ItemJournal::open::<_, JournalLine>(
        &journal_path,
        args.resume,
        &setup,
        JournalSetup::differs,
    )
    .map_err(Error::Input)?;
    if resumed.truncated {
        eprintln!(
            "note: the last line of {} was cut short: that position is searched again",
            journal_path.display()
        );
    }
    let mut results: Vec<Option<PositionResult>> = vec![None; jobs as usize];
    for line in resumed.items {
        let (p, k) = (
            line.job as usize / engines.len(),
            line.job as usize % engines.len(),
        );
        if line.job >= jobs || line.result.engine != engines[k].label || line.result.index != p + 1
        {
            return Err(Error::Input(format!(
                "--resume: {} records job {} ({} on position {}), which this run does not have \
                 (the file was edited?)",
                journal_path.display(),
                line.job,
                crate::util::text::printable(&line.result.engine),
                line.result.index
            )));
        }
        if results[line.job as usize].is_some() {
            return Err(Error::Input(format!(
                "--resume: {} records job {} ({} on position {}) twice (the file was edited?)",
                journal_path.display(),
                line.job,
                crate::util::text::printable(&line.result.engine),
                line.result.index
            )));
        }
        results[line.job as usize] = Some(line.result);
    }
    let kept = results.iter().filter(|r| r.is_some()).count();
    writeln!(w, "arena solve {name}: {context}").map_err(io)?;
    if args.resume {
        writeln!(
            w,
            "resumed: {kept} of {jobs} searches kept from {}",
            journal_path.display()
        )
        .map_err(io)?;
    }
    w.flush().map_err(io)?;
    let bar = crate::report::bar::progress(jobs, "positions", args.no_progress);
    bar.inc(kept as u64);
    let done: Vec<bool> = results.iter().map(Option::is_some).collect();
    let hards: Vec<Duration> = engines
        .iter()
        .map(|e| {
            crate::run::player(
                e,
                limits,
                None,
                args.move_timeout.map(Duration::from_millis),
                false,
            )
            .hard_limit()
            .unwrap_or(crate::run::game_runner::NO_TIME_LIMIT_TIMEOUT)
        })
        .collect();
    let per_engine: Vec<jieqi_engine::Limits> = engines
        .iter()
        .map(|e| crate::run::player(e, limits, None, None, false).limits)
        .collect();
    let play = |job: u64| {
        let (p, k) = (job as usize / engines.len(), job as usize % engines.len());
        solve_one(
            &engines[k],
            &suite.entries[p],
            p,
            &per_engine[k],
            hards[k],
            args.seed,
            args.mate_check_nodes,
        )
    };
    crate::run::scheduler::run(
        jobs,
        threads,
        // Results are kept by position, so how far ahead a worker runs matters to nothing.
        u64::MAX,
        &|job| done[job as usize] || crate::util::interrupt::requested(),
        &play,
        |job, r: PositionResult| -> Result<crate::run::scheduler::Flow, std::io::Error> {
            if crate::util::interrupt::requested() {
                return Ok(crate::run::scheduler::Flow::Stop);
            }
            bar.inc(1);
            if r.solved {
                bar.set_message(format!(
                    "{} solved {}",
                    r.engine,
                    crate::util::text::echo(&r.id)
                ));
            }
            let line = JournalLine { job, result: r };
            journal.append(&line)?;
            results[job as usize] = Some(line.result);
            Ok(crate::run::scheduler::Flow::Continue)
        },
    )
    .map_err(|e| match e {
        crate::run::scheduler::SchedulerError::Caller(e) => Error::Results(e),
        crate::run::scheduler::SchedulerError::Pool(m) => Error::Input(m),
    })?;
    bar.finish_and_clear();
    if crate::util::interrupt::requested() {
        let items = results.iter().filter(|r| r.is_some()).count();
        eprintln!(
            "\ninterrupted: {items} finished {} kept in {}; continue with: arena solve \
             … --out {} --resume",
            if items == 1 {
                "search is"
            } else {
                "searches are"
            },
            journal_path.display(),
            out_dir.display()
        );
        return Ok(Ended::Interrupted);
    }
    journal
        .finish(
            &setup,
            results.iter().enumerate().filter_map(|(job, r)| {
                r.as_ref().map(|r| JournalLine {
                    job: job as u64,
                    result: r.clone(),
                })
            }),
        )
        .map_err(Error::Results)?;
    // Job order is position-major; reports go engine by engine.
    let mut by_engine: Vec<Vec<PositionResult>> = vec![Vec::new(); engines.len()];
    for r in results.into_iter().flatten() {
        let k = engines
            .iter()
            .position(|e| e.label == r.engine)
            .unwrap_or(0);
        by_engine[k].push(r);
    }
    let summaries: Vec<EngineSummary> = engines
        .iter()
        .zip(&by_engine)
        .map(|(e, rs)| summarise(e, rs, suite))
        .collect();
    for (s, rs) in summaries.iter().zip(&by_engine) {
        write_table(w, s, rs, args.failed_only).map_err(io)?;
    }
    writeln!(w).map_err(io)?;
    for s in &summaries {
        writeln!(w, "{}", summary_line(s)).map_err(io)?;
    }
    let passed = match &args.min_solved {
        None => true,
        Some(min) => {
            for s in &summaries {
                writeln!(
                    w,
                    "--min-solved {}: {} {} ({} solved, {} needed)",
                    min.given,
                    s.engine,
                    if s.solved >= min.required {
                        "passed"
                    } else {
                        "FAILED"
                    },
                    s.solved,
                    min.required
                )
                .map_err(io)?;
            }
            summaries.iter().all(|s| s.solved >= min.required)
        }
    };
    let all: Vec<PositionResult> = by_engine.into_iter().flatten().collect();
    let min_json = args.min_solved.as_ref().map(|m| MinSolvedJson {
        given: &m.given,
        required: m.required,
        passed,
    });
    write_files(out_dir, args, min_json, suite, &summaries, &all)?;
    writeln!(w, "results: {}", out_dir.display()).map_err(io)?;
    Ok(if passed {
        Ended::Passed
    } else {
        Ended::BelowMinimum
    })
}

fn summarise(engine: &EngineEntry, rs: &[PositionResult], suite: &Suite) -> EngineSummary {
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

fn write_table(
    w: &mut dyn Write,
    s: &EngineSummary,
    rs: &[PositionResult],
    failed_only: bool,
) -> std::io::Result<()> {
    writeln!(w)?;
    writeln!(w, "{}", s.engine)?;
    writeln!(
        w,
        "{:>4}  {:<16} {:<24} {:<6} {:<10} {:>9} {:>11} {:>9} {:>11}  result",
        "#", "id", "expected", "move", "score", "ms", "nodes", "found ms", "found nodes"
    )?;
    for r in rs {
        if failed_only && r.solved {
            continue;
        }
        let mut result = match (&r.error, r.solved, r.right_move) {
            (Some(e), _, _) => format!("failed: {e}"),
            (None, true, _) if r.held => "solved".into(),
            (None, true, _) => "solved (after a wrong answer)".into(),
            (None, false, true) => "right move, mate not proved".into(),
            (None, false, false) => "wrong".into(),
        };
        if let Some(c) = &r.mate_check {
            result.push_str(&format!("; mate claim {c}"));
        }
        let opt = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.0}"));
        writeln!(
            w,
            "{:>4}  {:<16} {:<24} {:<6} {:<10} {:>9.0} {:>11} {:>9} {:>11}  {result}",
            r.index,
            clip(&r.id, 16),
            clip(&r.expected, 24),
            r.mv.as_deref().unwrap_or("-"),
            r.score.as_deref().unwrap_or("-"),
            r.ms,
            r.nodes,
            opt(r.found_ms),
            r.found_nodes.map_or("-".into(), |n| n.to_string()),
        )?;
    }
    Ok(())
}

/// `s` for the table: escaped ([`crate::util::text::printable`]), cut to `n` characters.
fn clip(s: &str, n: usize) -> String {
    let s = crate::util::text::printable(s);
    if s.chars().count() <= n {
        s
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

fn summary_line(s: &EngineSummary) -> String {
    let pct = |a: usize, b: usize| {
        if b == 0 {
            0.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    let mut line = format!(
        "{}: solved {} / {} ({:.1} %); right move {} / {}",
        s.engine,
        s.solved,
        s.positions,
        pct(s.solved, s.positions),
        s.right_moves,
        s.positions
    );
    if s.dm_positions > 0 {
        line.push_str(&format!(
            "; mates proved {} / {}",
            s.mates_proved, s.dm_positions
        ));
    }
    if s.mate_claims > 0 {
        line.push_str(&format!(
            "; mate claims {}: {} proved, {} refuted, {} unknown",
            s.mate_claims,
            s.claims_proved,
            s.claims_refuted,
            s.mate_claims - s.claims_proved - s.claims_refuted
        ));
    }
    if s.failures > 0 {
        line.push_str(&format!("; {} failed", s.failures));
    }
    line.push_str(&format!(
        "; total {:.1} s, {} nodes",
        s.total_ms / 1000.0,
        s.total_nodes
    ));
    if let Some(m) = s.mean_found_ms {
        line.push_str(&format!("; mean time to solution {m:.0} ms"));
    }
    if !s.by_dm.is_empty() {
        let parts: Vec<String> = s
            .by_dm
            .iter()
            .map(|(n, a, b)| format!("dm{n} {a}/{b}"))
            .collect();
        line.push_str(&format!("; {}", parts.join(" ")));
    }
    line
}

fn write_files(
    dir: &std::path::Path,
    args: &SolvePlan,
    min_solved: Option<MinSolvedJson<'_>>,
    suite: &Suite,
    summaries: &[EngineSummary],
    all: &[PositionResult],
) -> Result<(), Error> {
    let io = |what: &str, e: std::io::Error| {
        Error::Write(format!("cannot write {}: {e}", dir.join(what).display()))
    };
    crate::records::files::create_dir(dir).map_err(|e| io("", e))?;
    let json = SolveJson {
        harness: env!("CARGO_PKG_VERSION"),
        build: crate::records::build::Build::current(
            &args
                .engines
                .iter()
                .filter_map(|e| e.executable().map(|p| (e.label.clone(), p)))
                .collect::<Vec<_>>(),
        ),
        suite: args.suite_path.display().to_string(),
        rules: args.rules_name.clone(),
        limits: args.limits.to_string(),
        seed: args.seed,
        threads: args.threads,
        min_solved,
        skipped_lines: suite
            .errors
            .iter()
            .map(|e| SkippedLine {
                line: e.line,
                error: e.message.clone(),
            })
            .collect(),
        engines: summaries,
        positions: all,
    };
    let bytes =
        serde_json::to_vec_pretty(&json).map_err(|e| Error::Write(format!("solve.json: {e}")))?;
    crate::records::files::write_output(&dir.join("solve.json"), &bytes)
        .map_err(|e| io("solve.json", e))?;
    let mut csv = csv::Writer::from_writer(Vec::new());
    let header = [
        "engine",
        "index",
        "line",
        "id",
        "expected",
        "move",
        "score",
        "depth",
        "nodes",
        "ms",
        "right_move",
        "mate_proved",
        "mate_check",
        "solved",
        "first_ms",
        "first_nodes",
        "found_ms",
        "found_nodes",
        "held",
        "error",
        "fen",
    ];
    let write_err = |e: csv::Error| Error::Write(format!("solve.csv: {e}"));
    csv.write_record(header).map_err(write_err)?;
    let opt = |v: Option<String>| v.unwrap_or_default();
    for r in all {
        csv.write_record([
            r.engine.clone(),
            r.index.to_string(),
            r.line.to_string(),
            r.id.clone(),
            r.expected.clone(),
            opt(r.mv.clone()),
            opt(r.score.clone()),
            opt(r.depth.map(|d| d.to_string())),
            r.nodes.to_string(),
            format!("{:.1}", r.ms),
            r.right_move.to_string(),
            opt(r.mate_proved.map(|b| b.to_string())),
            opt(r.mate_check.clone()),
            r.solved.to_string(),
            opt(r.first_ms.map(|v| format!("{v:.1}"))),
            opt(r.first_nodes.map(|v| v.to_string())),
            opt(r.found_ms.map(|v| format!("{v:.1}"))),
            opt(r.found_nodes.map(|v| v.to_string())),
            r.held.to_string(),
            opt(r.error.clone()),
            r.fen.clone(),
        ])
        .map_err(write_err)?;
    }
    let bytes = csv
        .into_inner()
        .map_err(|e| Error::Write(format!("solve.csv: {e}")))?;
    crate::records::files::write_output(&dir.join("solve.csv"), &bytes)
        .map_err(|e| io("solve.csv", e))?;
    Ok(())
}
