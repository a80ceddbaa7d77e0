//! Plays a run: jobs on the scheduler, each finished pair journaled, the finished prefix tallied in
//! job order and the stop rule asked after each job that joins it.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::engines::logs::RunLogs;
use crate::records::files::write_atomically;
use crate::records::journal::{Journal, JournalError};
use crate::records::shard::Shard;
use crate::records::{self, GameLine};
use crate::run::scheduler::{self, Flow, Prefix, SchedulerError};
use crate::run::scoreboard::Scoreboard;
use crate::run::stop::StopRule;
use crate::run::{MatchSetup, RunSetup};
use crate::stats::Sprt;

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

/// Plays the run: journals every finished pair, tallies the finished prefix, asks its kind's stop
/// rule ([`crate::run::stop::for_kind`]) after
/// each pair that joins it, and writes `match.json`, the final `games.jsonl` and `games.csv`.
/// Returns what the run came to; [`report`] prints it and writes the summaries.
///
/// # Errors
/// The output folder or journal is unusable, or writing fails.
pub fn execute(setup: &RunSetup) -> Result<RunOutcome, RunError> {
    let mut rule = crate::run::stop::for_kind(&setup.kind);
    let rule = rule.as_mut();
    let fingerprint = setup.fingerprint();
    crate::records::files::create_dir(&setup.out).map_err(|e| RunError::Output(e.to_string()))?;
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
    if setup.resume && setup.kind.is_gate() {
        // A gate's hypotheses cannot change mid-test: that would let a user shop for a verdict.
        let before =
            crate::records::files::read_bounded(&setup_path, crate::records::files::MAX_SMALL_FILE)
                .ok()
                .and_then(|t| serde_json::from_str::<MatchSetup>(&t).ok());
        if let Some(before) = before.filter(|b| b.kind.sprt() != recorded.kind.sprt()) {
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
                show(before.kind.sprt()),
                show(recorded.kind.sprt())
            )));
        }
    }
    if setup.resume {
        // A shard resumed as another shard would mix pairs of two shares in one folder.
        let before =
            crate::records::files::read_bounded(&setup_path, crate::records::files::MAX_SMALL_FILE)
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
    let template = if setup.kind.is_gate() {
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
