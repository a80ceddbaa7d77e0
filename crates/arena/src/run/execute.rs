//! Plays a run: jobs on the scheduler, each finished pair journaled, the finished prefix tallied in
//! job order and the stop rule asked after each job that joins it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::engines::logs::RunLogs;
use crate::error::Error;
use crate::records::build::Builds;
use crate::records::files::write_atomically;
use crate::records::journal::{FolderLock, Journal};
use crate::records::shard::Shard;
use crate::records::{self, CsvFile, GameLine, Span};
use crate::run::observer::{RunNote, RunObserver};
use crate::run::progress::{Snapshot, Timer};
use crate::run::scheduler::{self, Flow, Prefix, SchedulerError};
use crate::run::scoreboard::{PairPoints, Scoreboard};
use crate::run::stop::StopRule;
use crate::run::watch::Watch;
use crate::run::{MatchSetup, RunSetup};
use crate::stats::Sprt;

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
    /// Whether an interruption (Ctrl-C) stopped it before its end: what it counted is the
    /// finished prefix, and `--resume` plays the rest.
    pub interrupted: bool,
    /// Games played by this process (not resumed).
    pub played_now: u64,
    /// Wall time of this process's play.
    pub wall: Duration,
    /// The fingerprint.
    pub fingerprint: String,
    /// The first engine's half-points of each counted pair, by job: what the bootstraps need
    /// of the games, which are on disk (`games.jsonl`), not here.
    pub points: PairPoints,
    /// The lock of the results folder, held until the reports are written (dropped with the
    /// outcome).
    pub lock: Option<FolderLock>,
    /// The code that played the run.
    pub builds: Builds,
    /// For a merge (`arena merge`): the shards' runs, in shard order; empty for a run played here.
    pub merged: Vec<ShardRun>,
}

/// One shard of a merged run, as its folder recorded it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ShardRun {
    /// `K/N`.
    pub shard: String,
    /// Its folder.
    pub dir: String,
    /// Its command line.
    pub command: String,
    /// Its worker threads, if recorded.
    pub threads: Option<usize>,
}

/// Checks, writing nothing, that [`execute`] would start this run: that its folder can be made,
/// no live run holds it, its journal is this run's to resume (or absent without `--resume`),
/// and a resumed gate or shard is the same test and share. `--check` makes these refusals, by
/// the same code as the run.
///
/// # Errors
/// The refusal `execute` would start with.
pub fn check_start(setup: &RunSetup) -> Result<(), Error> {
    // A folder that cannot be made is one the results cannot be written to (exit 4).
    crate::records::files::try_create_dir(&setup.options.out)
        .map_err(|e| Error::Write(e.to_string()))?;
    if !setup.options.out.is_dir() {
        return Ok(());
    }
    FolderLock::check(&setup.options.out)?;
    let fingerprint = setup.fingerprint();
    Journal::check(
        &setup.options.out.join("games.jsonl"),
        setup.options.resume,
        &fingerprint,
        &run_records(setup),
    )?;
    resume_refusals(
        setup,
        recorded_before(setup).as_ref(),
        &setup.match_setup(&fingerprint),
    )
}

/// What the games of `setup` are checked against when read back (by a resume, or by a merge
/// reading a shard).
pub fn run_records(setup: &RunSetup) -> crate::records::check::RunRecords {
    crate::records::check::RunRecords {
        rules: setup.rules,
        max_plies: setup.max_plies,
        seed: setup.seed,
        openings: setup.openings.clone(),
        adjudication: setup.adjudication,
        pairings: setup.pairing_labels(),
    }
}

/// The record of the run a `--resume` continues, if its folder has one that reads.
fn recorded_before(setup: &RunSetup) -> Option<MatchSetup> {
    if !setup.options.resume {
        return None;
    }
    crate::records::files::read_bounded(
        &setup.options.out.join(setup.record_name()),
        crate::records::files::MAX_SMALL_FILE,
    )
    .ok()
    .and_then(|t| serde_json::from_str::<MatchSetup>(&t).ok())
}

/// What a resume may not change: a gate's test, a shard's share.
fn resume_refusals(
    setup: &RunSetup,
    before: Option<&MatchSetup>,
    recorded: &MatchSetup,
) -> Result<(), Error> {
    let setup_path = setup.options.out.join(setup.record_name());
    if setup.options.resume && setup.kind.is_gate() {
        // A gate's hypotheses cannot change mid-test: that would let a user shop for a verdict.
        if let Some(before) = before.filter(|b| b.kind.sprt() != recorded.kind.sprt()) {
            let show = |g: Option<Sprt>| {
                g.map_or("no test".to_string(), |s| {
                    format!(
                        "[{}, {}] {}, alpha {}, beta {}",
                        s.elo0, s.elo1, s.model, s.alpha, s.beta
                    )
                })
            };
            return Err(Error::Input(format!(
                "--resume: {} was a gate of {}; this one asks for {}: a gate's test cannot \
                 change mid-test (start a new --out)",
                setup_path.display(),
                show(before.kind.sprt()),
                show(recorded.kind.sprt())
            )));
        }
    }
    if setup.options.resume {
        // A shard resumed as another shard would mix pairs of two shares in one folder.
        if let Some(before) = before.filter(|b| b.shard != recorded.shard) {
            let show =
                |s: Option<Shard>| s.map_or("the whole run".to_string(), |s| format!("shard {s}"));
            return Err(Error::Input(format!(
                "--resume: {} holds {}; this run asks for {} (resume it with the same --shard, or \
                 choose another --out)",
                setup.options.out.display(),
                show(before.shard),
                show(recorded.shard)
            )));
        }
    }
    Ok(())
}

/// Plays the run: journals every finished pair, tallies the finished prefix, asks its kind's stop
/// rule ([`crate::run::stop::for_kind`]) after
/// each pair that joins it, and writes `match.json`, the final `games.jsonl` and `games.csv`.
/// Returns what the run came to; the report layer prints it and writes the summaries.
///
/// In three steps: `start` holds the folder and checks and tallies what a resume finds,
/// `play` plays the rest, `finish` writes the journal in job order and the CSV. The run says
/// how it goes only to `observer` (its notes, progress and the progress lines its setup's
/// cadence asks for, [`crate::run::progress`]): the core prints nothing.
///
/// An interruption ([`crate::util::interrupt::requested`]) stops it as its stop rule would: no
/// new pair starts, the games being played are abandoned (not recorded; a resume plays their
/// pairs), and the run finishes with what was counted, as [`RunOutcome::interrupted`].
///
/// # Errors
/// The output folder or journal is unusable, or writing fails.
pub fn execute(setup: &RunSetup, observer: &dyn RunObserver) -> Result<RunOutcome, Error> {
    let mut rule = crate::run::stop::for_kind(&setup.kind);
    let rule = rule.as_mut();
    let mut run = start(setup, rule, observer)?;
    let played = play(setup, &mut run, rule, observer)?;
    finish(setup, run, &played)
}

/// A run whose folder is held and whose journal is open, with what its resume found tallied.
struct Started {
    fingerprint: String,
    lock: FolderLock,
    journal: Journal,
    journal_path: PathBuf,
    /// The record written to the folder (its builds joined with this process's).
    recorded: MatchSetup,
    /// This run's jobs recorded before, and where their lines are.
    done: BTreeMap<u64, [Span; 2]>,
    /// Recorded pairs that are not this run's jobs (beyond a smaller cap): kept, never counted.
    foreign: Vec<[Span; 2]>,
    tally: Tally,
}

/// What this process's play came to.
struct Played {
    /// Games played here.
    played_now: u64,
    /// Wall time of the play.
    wall: Duration,
    /// Whether an interruption stopped it short.
    interrupted: bool,
}

/// The resume check: takes the folder and its lock, opens the journal (refusing another run's),
/// refuses a resume that changes a gate's test or a shard's share, tallies the pairs recorded
/// before, joins the builds, and writes the run's record (`match.json`…).
fn start(
    setup: &RunSetup,
    rule: &mut dyn StopRule,
    observer: &dyn RunObserver,
) -> Result<Started, Error> {
    let fingerprint = setup.fingerprint();
    // A folder that cannot be made is one the results cannot be written to (exit 4); one in use
    // by a live run is refused before anything is played (exit 2).
    crate::records::files::create_dir(&setup.options.out)
        .map_err(|e| Error::Write(e.to_string()))?;
    let lock = FolderLock::take(&setup.options.out)?;
    let journal_path = setup.options.out.join("games.jsonl");
    let (mut journal, resumed) = Journal::open(
        &journal_path,
        setup.options.resume,
        &fingerprint,
        &run_records(setup),
    )?;
    if resumed.truncated {
        observer.note(&RunNote::TruncatedLine {
            journal: journal_path.clone(),
        });
    }
    let mut recorded = setup.match_setup(&fingerprint);
    let before = recorded_before(setup);
    resume_refusals(setup, before.as_ref(), &recorded)?;

    // Resumed pairs of this run's jobs, and the others (beyond a smaller cap): those are kept in
    // the journal, never counted. Only where their lines are is kept.
    let mut done: BTreeMap<u64, [Span; 2]> = BTreeMap::new();
    let mut foreign: Vec<[Span; 2]> = Vec::new();
    for (key, spans) in resumed.pairs {
        match setup.job_of(&key) {
            Some(job) => {
                done.insert(job, spans);
            }
            None => foreign.push(spans),
        }
    }
    if !foreign.is_empty() {
        observer.note(&RunNote::BeyondPairs {
            count: foreign.len(),
            pairs: setup.pairs,
            journal: journal_path.clone(),
        });
    }
    let total = setup.jobs();
    let mut tally = Tally {
        counted_pairs: Tallied::new(&setup.pairings),
        prefix: Prefix::new(),
        finished: BTreeMap::new(),
        counted: 0,
        stopped: false,
    };
    observer.started(done.len() as u64);
    for (job, spans) in &done {
        tally.push(*job, *spans, None, &mut journal, rule, &mut |_, _| {})?;
    }
    // The code that plays the rest: the builds the record names, joined by this one only if it
    // plays something and is one of them, or mixing is allowed.
    let current = Builds::started_by(setup.current_build());
    let will_play = !tally.stopped && (done.len() as u64) < total;
    match &before {
        Some(before) if !will_play => {
            recorded.builds = before.builds.clone();
            recorded.threads = before.threads.or(recorded.threads);
        }
        Some(before) if !done.is_empty() || !foreign.is_empty() => {
            let mut builds = before.builds.clone();
            builds
                .join(&current, setup.options.allow_mixed_builds)
                .map_err(|m| {
                    Error::Input(format!("--resume: {}: {m}", setup.options.out.display()))
                })?;
            if builds.is_mixed() && !before.builds.is_mixed() {
                observer.note(&RunNote::MixedBuilds {
                    builds: builds.line(),
                });
            }
            recorded.builds = builds;
            // The threads it was started with stay its record's.
            recorded.threads = before.threads.or(recorded.threads);
        }
        _ => recorded.builds = current,
    }
    write_record(setup, &recorded)?;
    Ok(Started {
        fingerprint,
        lock,
        journal,
        journal_path,
        recorded,
        done,
        foreign,
        tally,
    })
}

/// Plays the jobs a resume left, on the scheduler: each finished pair journaled and tallied,
/// until they run out, the stop rule or the watch stops the run, or it is interrupted.
fn play(
    setup: &RunSetup,
    run: &mut Started,
    rule: &mut dyn StopRule,
    observer: &dyn RunObserver,
) -> Result<Played, Error> {
    let total = setup.jobs();
    observer.tally(
        &run.tally.counted_pairs.board,
        rule.status(&run.tally.counted_pairs.board),
    );
    let started = Instant::now();
    let mut timer = Timer::new(setup.options.report_every, started);
    let mut progress_line = |board: &Scoreboard, pairs: u64| {
        let now = Instant::now();
        if timer.due(pairs, now) {
            observer.progress(&Snapshot {
                board,
                pairs,
                planned: total,
                elapsed: now.duration_since(started),
            });
        }
    };
    let mut played_now = 0u64;
    let done = run.done.len() as u64;
    if !run.tally.stopped && done < total {
        let left = total - done;
        let used = setup
            .options
            .threads
            .min(usize::try_from(left).unwrap_or(usize::MAX));
        if setup.options.resume && used < setup.options.threads {
            observer.note(&RunNote::FewPairsLeft {
                left,
                used,
                threads: setup.options.threads,
            });
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if used > cores && setup.is_time_limited() {
            observer.note(&RunNote::SharedCores { used, cores });
        }
        let labels: Vec<&str> = setup.engines.iter().map(|e| e.label.as_str()).collect();
        let logs = RunLogs::new(&setup.options.out, &labels, setup.options.log)?
            .with_limit(setup.options.log_limit);
        if setup.options.log && !setup.engines.iter().any(|e| e.external) {
            observer.note(&RunNote::NoGameLogs);
        }
        // A gate stops on its test, a watched run (`arena jai`) when its watcher says: no worker
        // runs more than a pair ahead of the finished prefix, so fewer than `threads` pairs are
        // played beyond the stop. Other runs play every pair and may run further ahead.
        let window = scheduler::window(
            setup.options.threads,
            setup.kind.is_gate() || setup.options.watch.is_some(),
        );
        let fp = run.fingerprint.as_str();
        let Started {
            done,
            journal,
            tally,
            ..
        } = run;
        let result = scheduler::run(
            total,
            setup.options.threads,
            window,
            &|job| done.contains_key(&job),
            &|job| crate::run::pair::play_job(setup, setup.options.watch.as_ref(), job, fp, &logs),
            |job, pair: Option<[GameLine; 2]>| -> Result<Flow, std::io::Error> {
                // A pair the watch or an interruption stopped is not finished: nothing is
                // recorded of it.
                let Some(pair) = pair else {
                    return Ok(Flow::Stop);
                };
                let spans = journal.append(&pair)?;
                played_now += 2;
                observer.pair_played();
                tally.push(job, spans, Some(pair), journal, rule, &mut progress_line)?;
                observer.tally(
                    &tally.counted_pairs.board,
                    rule.status(&tally.counted_pairs.board),
                );
                Ok(
                    if tally.stopped
                        || setup.options.watch.as_ref().is_some_and(Watch::stopping)
                        || crate::util::interrupt::requested()
                    {
                        Flow::Stop
                    } else {
                        Flow::Continue
                    },
                )
            },
        );
        match result {
            Ok(()) => {}
            Err(SchedulerError::Pool(m)) => return Err(Error::Input(m)),
            Err(SchedulerError::Caller(e)) => return Err(Error::Results(e)),
        }
    }
    observer.ended();
    Ok(Played {
        played_now,
        wall: started.elapsed(),
        interrupted: crate::util::interrupt::requested()
            && !run.tally.stopped
            && run.tally.counted < total,
    })
}

/// Writes the final files, in job order: the journal keeps every finished pair, the CSV only
/// the counted ones; and says what the run came to.
fn finish(setup: &RunSetup, run: Started, played: &Played) -> Result<RunOutcome, Error> {
    let Started {
        fingerprint,
        lock,
        journal,
        journal_path,
        recorded,
        foreign,
        tally,
        ..
    } = run;
    let beyond = tally.finished.len() as u64 - tally.counted.min(tally.finished.len() as u64)
        + foreign.len() as u64;
    journal.finish(tally.finished.values().copied().chain(foreign))?;
    write_csv(setup, &journal_path, tally.counted)?;
    Ok(RunOutcome {
        beyond,
        counted: tally.counted,
        board: tally.counted_pairs.board,
        points: tally.counted_pairs.points,
        stopped: tally.stopped,
        interrupted: played.interrupted,
        played_now: played.played_now,
        wall: played.wall,
        fingerprint,
        lock: Some(lock),
        builds: recorded.builds,
        merged: Vec::new(),
    })
}

/// Writes the run's record (`match.json`, `tournament.json`…) to its folder, with the copy of
/// its book: how a run ([`execute`]) and a merge ([`crate::run::merge`]) record what they are.
///
/// # Errors
/// Writing fails.
pub fn write_record(setup: &RunSetup, recorded: &MatchSetup) -> Result<(), Error> {
    crate::records::openings::keep_copy(&setup.options.out, setup.openings.as_deref())?;
    let mut json = serde_json::to_vec_pretty(recorded).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomically(&setup.options.out.join(setup.record_name()), &json)?;
    Ok(())
}

/// Writes `games.csv` of the run from its journal at `journal_path` (in job order): the pairs of
/// its first `counted` jobs. A run ([`execute`]) and a merge ([`crate::run::merge`]) both end so.
///
/// # Errors
/// Reading the journal or writing the CSV fails.
pub fn write_csv(setup: &RunSetup, journal_path: &Path, counted: u64) -> Result<(), Error> {
    let mut csv = CsvFile::create(
        &setup.options.out.join("games.csv"),
        setup.pairings.len() as u64,
    )?;
    records::for_each_pair(journal_path, |_, pair| {
        match setup.job_of(&pair_key(&pair)) {
            Some(job) if job < counted => csv.pair(job, &pair),
            _ => Ok(()),
        }
    })?;
    csv.finish()?;
    Ok(())
}

/// The key of a pair: the first engine (Red in game 1), the second, the pair index.
pub fn pair_key(pair: &[GameLine; 2]) -> records::PairKey {
    (pair[0].red.clone(), pair[0].black.clone(), pair[0].pair)
}

/// The outcome of a run whose pairs were played elsewhere (`arena merge`): its board and points,
/// tallied in job order as [`execute`] would have tallied them (see [`Tallied`]), the builds
/// that played them and the shards' runs.
pub fn outcome_of(
    fingerprint: String,
    tallied: Tallied,
    builds: Builds,
    merged: Vec<ShardRun>,
) -> RunOutcome {
    RunOutcome {
        counted: tallied.points.len(),
        board: tallied.board,
        points: tallied.points,
        beyond: 0,
        stopped: false,
        interrupted: false,
        played_now: 0,
        wall: Duration::ZERO,
        fingerprint,
        lock: None,
        builds,
        merged,
    }
}

/// Pairs tallied one by one, in job order: the board and the points of a run's counted pairs.
#[derive(Debug)]
pub struct Tallied {
    /// The pairings' tallies.
    pub board: Scoreboard,
    /// The half-points of each pair, by job.
    pub points: PairPoints,
}

impl Tallied {
    /// Nothing tallied yet, for these pairings.
    pub fn new(pairings: &[(usize, usize)]) -> Tallied {
        Tallied {
            board: Scoreboard::new(pairings),
            points: PairPoints::default(),
        }
    }

    /// Adds the pair of job `job`.
    pub fn add(&mut self, job: u64, pair: &[GameLine; 2]) {
        let n = self.board.pairings().len() as u64;
        self.board.add_pair((job % n) as usize, pair);
        self.points.set(job, records::half_points(pair));
    }

    /// Counts the pair of job `job`, the next of the finished prefix, and asks `rule` whether the
    /// run stops there: how a run decides which of its pairs count, whether it is playing them
    /// ([`execute`]) or reading them back ([`crate::run::folder::stop_job`]).
    pub fn count(&mut self, job: u64, pair: &[GameLine; 2], rule: &mut dyn StopRule) -> bool {
        self.add(job, pair);
        rule.stop(&self.board, job + 1)
    }
}

/// The running tally: the board of the counted prefix, where every finished pair's lines are,
/// the pairs waiting for an earlier job (by where they are: they are read back when they join).
struct Tally {
    /// The counted prefix's board and points.
    counted_pairs: Tallied,
    prefix: Prefix<[Span; 2]>,
    /// Every finished job's lines in the journal, in job order.
    finished: BTreeMap<u64, [Span; 2]>,
    /// Jobs counted (the prefix up to a stop).
    counted: u64,
    stopped: bool,
}

impl Tally {
    /// Adds finished job `job` (its pair in hand, if it was just played) and counts the jobs that
    /// join the prefix, until the rule stops; `counted` hears the board after each.
    fn push(
        &mut self,
        job: u64,
        spans: [Span; 2],
        mut pair: Option<[GameLine; 2]>,
        journal: &mut Journal,
        rule: &mut dyn StopRule,
        counted: &mut dyn FnMut(&Scoreboard, u64),
    ) -> std::io::Result<()> {
        self.finished.insert(job, spans);
        for (j, spans) in self.prefix.push(job, spans) {
            if self.stopped {
                continue;
            }
            let pair = match pair.take().filter(|_| j == job) {
                Some(p) => p,
                None => journal.read(spans)?,
            };
            self.counted = j + 1;
            if self.counted_pairs.count(j, &pair, rule) {
                self.stopped = true;
            }
            counted(&self.counted_pairs.board, self.counted);
        }
        Ok(())
    }
}
