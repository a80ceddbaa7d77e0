//! The shards of a run (`--shard K/N` on several machines) put back together: each shard folder
//! read and checked, the shards checked against each other, their pairs merged in job order into
//! one results folder, and the shards' homogeneity tested (the work of `arena merge`).
//!
//! The shards must belong together — the same fingerprint (harness version, engine specs, rules,
//! seed, limits), the same pairs and the same N — each shard may come once, no pair may be
//! recorded twice, and every pair must be there (unless `partial`). The merged folder's record
//! and `games.csv` are written by the run's own code ([`crate::run::execute::write_record`],
//! [`crate::run::execute::write_csv`]) from the merged games in job order, and its reports by
//! the same finish as a run's, so its `games.csv`, `games.jsonl` and `summary.json` equal one
//! machine's run, timing fields aside.
//!
//! A chi² homogeneity test across shards (fishtest's check for a broken worker) is written to
//! `merge.json`: for every pairing, the shards' pentanomial counts form a table whose
//! homogeneity is tested; each shard is also tested against the rest of the shards pooled, and
//! flagged when its p-value, times the number of shards (Bonferroni), is below 0.001.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::Error;
use crate::records::files::{AtomicFile, write_atomically};
use crate::records::shard::Shard;
use crate::records::{self, Span};
use crate::run::kind::RunKind;
use crate::run::scoreboard::Scoreboard;
use crate::run::{self, MatchSetup, RunOutcome, RunSetup, Tallied};
use crate::stats::{self, Pentanomial};

/// A shard is flagged when its p-value against the others, times the number of shards, is below
/// this.
pub const FLAG_P: f64 = 0.001;

/// One shard folder, read.
struct ShardDir {
    dir: PathBuf,
    record: MatchSetup,
    shard: Shard,
    /// Its complete pairs, by where their lines are in its journal.
    pairs: BTreeMap<records::PairKey, [Span; 2]>,
    journal: PathBuf,
    threads: Option<usize>,
    /// Its book, as its folder keeps it (a run with `--openings`).
    book: Option<std::sync::Arc<crate::records::openings::Book>>,
}

/// How one shard compares with the others.
#[derive(Clone, Debug, Serialize)]
pub struct ShardCheck {
    /// Its folder.
    pub dir: String,
    /// `K/N`.
    pub shard: String,
    /// Pairs it holds.
    pub pairs: u64,
    /// Points of the first engine of each pairing, as a fraction of the games.
    pub score: f64,
    /// chi² of this shard against the others pooled, summed over pairings.
    pub chi2: f64,
    /// Its degrees of freedom.
    pub dof: u32,
    /// Its p-value.
    pub p_value: f64,
    /// Whether it is flagged (p × shards < [`FLAG_P`]).
    pub flagged: bool,
}

/// `merge.json`: the shards and the homogeneity test.
#[derive(Clone, Debug, Serialize)]
pub struct MergeReport {
    /// The run's fingerprint.
    pub fingerprint: String,
    /// N.
    pub shards: u64,
    /// Every shard folder merged.
    pub checks: Vec<ShardCheck>,
    /// chi² over every pairing's shards × pentanomial table, summed.
    pub chi2: f64,
    /// Its degrees of freedom.
    pub dof: u32,
    /// Its p-value.
    pub p_value: f64,
    /// Pair indices missing from at least one pairing.
    pub missing_pairs: Vec<u64>,
}

fn refuse(m: impl Into<String>) -> Error {
    Error::Input(m.into())
}

fn read_dir(dir: &Path, notes: &dyn Fn(&crate::run::observer::RunNote)) -> Result<ShardDir, Error> {
    let path = crate::run::kind::RECORD_NAMES
        .iter()
        .map(|f| dir.join(f))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            refuse(format!(
                "{}: no match.json, tournament.json or leak-run.json: not a results folder of \
                 `arena match`, `arena tournament` or `arena leak`",
                dir.display()
            ))
        })?;
    let text = read_bounded(&path)?;
    let record: MatchSetup =
        serde_json::from_str(&text).map_err(|e| refuse(format!("{}: {e}", path.display())))?;
    let journal = dir.join("games.jsonl");
    let shard = record.shard.unwrap_or(Shard { index: 0, count: 1 });
    let mut bad = None;
    let book = crate::run::folder::recorded_book(dir, &record)
        .map_err(|m| refuse(format!("{}: {m}", dir.display())))?;
    // What its games are checked against: the run its record describes, as a run checks its own.
    let run_records = run::execute::run_records(
        &record
            .run_setup(dir.to_path_buf(), 1, String::new(), book.clone())
            .map_err(|m| refuse(format!("{}: {m}", path.display())))?,
    );
    let (pairs, truncated) = records::pair_spans(&journal, |number, g| {
        if bad.is_none() {
            if g.fingerprint != record.fingerprint {
                bad = Some(format!(
                    "{}: pair {} game {} has fingerprint {}, its folder's run is {}",
                    journal.display(),
                    g.pair,
                    g.game,
                    g.fingerprint,
                    record.fingerprint
                ));
            } else if !shard.has(g.pair) || g.pair >= record.pairs {
                bad = Some(format!(
                    "{}: pair {} does not belong to shard {shard} of {} pairs",
                    journal.display(),
                    g.pair,
                    record.pairs
                ));
            } else if let Some(problem) = run_records.problem(g) {
                return Err(records::check::refusal(
                    &journal,
                    number,
                    g,
                    &problem,
                    "delete the line, then --resume that shard to replay that pair (or merge \
                     with --partial to leave it out)",
                ));
            }
        }
        Ok(())
    })
    .map_err(|e| refuse(e.to_string()))?;
    if let Some(m) = bad {
        return Err(refuse(m));
    }
    if truncated {
        notes(&crate::run::observer::RunNote::ShardLineCut {
            journal: journal.clone(),
        });
    }
    // Threads of the shard's run, for the merged summary: its record's, or (older records) its
    // summary's.
    let threads = record.threads.or_else(|| {
        crate::records::files::read_bounded(&dir.join("summary.json"), 64 << 20)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v.get("threads").and_then(serde_json::Value::as_u64))
            .and_then(|t| usize::try_from(t).ok())
    });
    Ok(ShardDir {
        dir: dir.to_path_buf(),
        record,
        shard,
        pairs,
        journal,
        threads,
        book,
    })
}

fn read_bounded(path: &Path) -> Result<String, Error> {
    crate::records::files::read_bounded(path, crate::records::files::MAX_SMALL_FILE)
        .map_err(|e| refuse(format!("{}: {e}", path.display())))
}

/// The fields two run records differ in (those that make runs differ), for the refusal.
fn differences(a: &MatchSetup, b: &MatchSetup) -> Vec<String> {
    let value = |m: &MatchSetup| {
        let mut v = serde_json::to_value(m).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            for k in [
                "command",
                "shard",
                "fingerprint",
                "build",
                "later_builds",
                "threads",
                "log",
            ] {
                o.remove(k);
            }
        }
        v
    };
    let (va, vb) = (value(a), value(b));
    let keys: BTreeSet<&String> = va
        .as_object()
        .into_iter()
        .chain(vb.as_object())
        .flat_map(|o| o.keys())
        .collect();
    keys.into_iter()
        .filter(|k| va.get(k.as_str()) != vb.get(k.as_str()))
        .map(|k| {
            let show = |v: Option<&serde_json::Value>| v.map_or("absent".into(), |v| v.to_string());
            format!(
                "{k}: {} vs {}",
                show(va.get(k.as_str())),
                show(vb.get(k.as_str()))
            )
        })
        .collect()
}

/// Pair indices as ranges: `0-4, 7, 9-10`.
pub fn ranges(xs: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < xs.len() {
        let mut j = i;
        while j + 1 < xs.len() && xs[j + 1] == xs[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            xs[i].to_string()
        } else {
            format!("{}-{}", xs[i], xs[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// What kind of run a record is, as a phrase: `a match`, `a tournament`, `a leak run`.
fn kind(record: &MatchSetup) -> &'static str {
    match record.kind {
        RunKind::Tournament(_) => "a tournament",
        RunKind::Leak(_) => "a leak run",
        RunKind::Gate { .. } => "a gate",
        RunKind::Match { .. } => "a match",
    }
}

/// A merge asked for (`arena merge`): the shard folders, the merged folder and what it accepts.
pub struct MergeRequest<'a> {
    /// The shard folders, every shard once.
    pub dirs: &'a [PathBuf],
    /// The merged results folder.
    pub out: &'a Path,
    /// Merge even though pairs are missing.
    pub partial: bool,
    /// Merge shards that different builds played.
    pub allow_mixed_builds: bool,
    /// Hears the notes of the merge as the shards are read (the merge prints nothing itself).
    pub notes: &'a dyn Fn(&crate::run::observer::RunNote),
}

/// A merge done: what the run's finish reports, and what the merge adds.
#[derive(Debug)]
pub struct Merged {
    /// The merged run's setup (its folder the merged one).
    pub setup: RunSetup,
    /// What the merged run came to; it holds the merged folder's lock until it is dropped, after
    /// the reports are written.
    pub outcome: RunOutcome,
    /// The shards and their homogeneity, as `merge.json` holds them.
    pub report: MergeReport,
    /// The shard indices not given.
    pub absent: Vec<u64>,
}

/// The shards read and checked, ready to be written as one run.
struct Checked {
    shards: Vec<ShardDir>,
    setup: RunSetup,
    builds: crate::records::build::Builds,
    /// Every pair by its job: its shard and where its lines are.
    games: BTreeMap<u64, (usize, [Span; 2])>,
    missing: Vec<u64>,
    absent: Vec<u64>,
}

/// Merges the shard folders into `req.out`: writes its record, `games.jsonl`, `games.csv`, the
/// engines' logs and `merge.json`, and returns the merged run for the reports.
///
/// # Errors
/// Shards that do not belong together, duplicates, overlaps, missing pairs without `partial`
/// ([`Error::Input`]); writing fails ([`Error::Results`], [`Error::Write`]).
pub fn merge(req: &MergeRequest) -> Result<Merged, Error> {
    let Checked {
        shards,
        setup,
        builds,
        games,
        missing,
        absent,
    } = check(req)?;
    let first = &shards[0];
    let out_dir = req.out;
    let fingerprint = first.record.fingerprint.clone();
    // A folder that cannot be made is one the results cannot be written to (exit 4).
    crate::records::files::create_dir(out_dir).map_err(|e| Error::Write(e.to_string()))?;
    // Held until every merged file is written.
    let lock = crate::records::journal::FolderLock::take(out_dir)?;
    check_out(out_dir, &fingerprint)?;
    let mut record = setup.match_setup(&fingerprint);
    record.kind = first.record.kind.clone();
    record.builds = builds.clone();
    record.threads = None;
    run::execute::write_record(&setup, &record)?;
    let n = setup.pairings.len();
    let (tallied, boards) = write_merged(&shards, &setup, &games, out_dir)?;
    run::execute::write_csv(&setup, &out_dir.join("games.jsonl"), setup.jobs())?;
    for s in &shards {
        crate::engines::logs::merge_logs(&s.dir, out_dir, s.record.shard)?;
    }

    let (checks, chi2, dof, p_value) = homogeneity(&shards, &boards, n);
    let report = MergeReport {
        fingerprint: fingerprint.clone(),
        shards: first.shard.count,
        checks,
        chi2,
        dof,
        p_value,
        missing_pairs: missing,
    };
    let mut json = serde_json::to_vec_pretty(&report).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomically(&out_dir.join("merge.json"), &json)?;

    let shard_runs = shards
        .iter()
        .map(|s| run::execute::ShardRun {
            shard: s.shard.to_string(),
            dir: s.dir.display().to_string(),
            command: s.record.command.clone(),
            threads: s.threads,
        })
        .collect();
    let mut outcome = run::outcome_of(fingerprint, tallied, builds, shard_runs);
    outcome.lock = Some(lock);
    Ok(Merged {
        setup,
        outcome,
        report,
        absent,
    })
}

/// Reads the shard folders and checks, writing nothing, that they merge into `req.out`.
fn check(req: &MergeRequest) -> Result<Checked, Error> {
    let shards: Vec<ShardDir> = req
        .dirs
        .iter()
        .map(|d| read_dir(d, req.notes))
        .collect::<Result<_, _>>()?;
    check_together(&shards)?;
    let first = &shards[0];
    let count = first.shard.count;
    let mut by_index: BTreeMap<u64, &ShardDir> = BTreeMap::new();
    for s in &shards {
        if let Some(other) = by_index.insert(s.shard.index, s) {
            return Err(refuse(format!(
                "shard {} is given twice: {} and {}",
                s.shard,
                other.dir.display(),
                s.dir.display()
            )));
        }
    }
    let out_dir = req.out;
    if shards.iter().any(|s| same_dir(&s.dir, out_dir)) {
        return Err(refuse(format!(
            "--out {} is one of the shards; choose a new folder",
            out_dir.display()
        )));
    }
    // One run's games must come from one build, unless the user says they may mix.
    let mut builds = first.record.builds.clone();
    for s in &shards[1..] {
        builds
            .join(&s.record.builds, req.allow_mixed_builds)
            .map_err(|m| {
                refuse(format!(
                    "{} and {} were played by different builds: {m}",
                    first.dir.display(),
                    s.dir.display()
                ))
            })?;
    }
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let setup = first
        .record
        .run_setup(out_dir.to_path_buf(), 1, command, first.book.clone())
        .map_err(|m| refuse(format!("{}: {m}", first.dir.display())))?;
    check_records(&shards, out_dir)?;

    let games = jobs_of(&shards, &setup)?;
    let missing: Vec<u64> = (0..setup.jobs())
        .filter(|j| !games.contains_key(j))
        .map(|j| setup.job(j).1)
        .collect::<BTreeSet<u64>>()
        .into_iter()
        .collect();
    let absent: Vec<u64> = (0..count).filter(|k| !by_index.contains_key(k)).collect();
    if !missing.is_empty() && !req.partial {
        let shards_text = if absent.is_empty() {
            String::new()
        } else {
            format!(
                " (not given: shard {})",
                absent
                    .iter()
                    .map(|k| format!("{k}/{count}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        return Err(refuse(format!(
            "{} of {} pairs are missing{shards_text}: {}; finish or resume those shards, or \
             merge with --partial",
            missing.len(),
            setup.pairs,
            ranges(&missing)
        )));
    }
    Ok(Checked {
        shards,
        setup,
        builds,
        games,
        missing,
        absent,
    })
}

/// Refuses shards that are not shards of one run: a gate, another kind, fingerprint, pair count,
/// rating or shard count than the first's.
fn check_together(shards: &[ShardDir]) -> Result<(), Error> {
    let first = &shards[0];
    if let Some(s) = shards.iter().find(|s| s.record.kind.is_gate()) {
        return Err(refuse(format!(
            "{}: a gate (`arena sprt`) stops on its own test and is never sharded; there is \
             nothing to merge",
            s.dir.display()
        )));
    }
    let count = first.shard.count;
    for s in &shards[1..] {
        if kind(&s.record) != kind(&first.record) {
            let inner = |d: &Path| {
                d.ancestors().any(|a| {
                    a.file_name()
                        .is_some_and(|n| n == "arms" || n == "pairings")
                })
            };
            let hint = if inner(&s.dir) || inner(&first.dir) {
                " (a folder under arms/ or pairings/ is one arm or pairing of a run: merge the \
                 shards' top folders)"
            } else {
                ""
            };
            return Err(refuse(format!(
                "{} is {} but {} is {}: only shards of one run merge{hint}",
                first.dir.display(),
                kind(&first.record),
                s.dir.display(),
                kind(&s.record)
            )));
        }
        if s.record.fingerprint != first.record.fingerprint || s.record.pairs != first.record.pairs
        {
            let mut diff = differences(&first.record, &s.record);
            if diff.is_empty() {
                diff.push(format!(
                    "fingerprint: {} vs {} (another harness version?)",
                    first.record.fingerprint, s.record.fingerprint
                ));
            }
            return Err(refuse(format!(
                "{} and {} are not shards of one run: {}",
                first.dir.display(),
                s.dir.display(),
                diff.join("; ")
            )));
        }
        if s.record.kind != first.record.kind {
            let diff = differences(&first.record, &s.record);
            return Err(refuse(format!(
                "{} and {} rate differently ({}): every shard must be run with the same anchor \
                 and bootstrap",
                first.dir.display(),
                s.dir.display(),
                diff.join("; ")
            )));
        }
        if s.shard.count != count {
            return Err(refuse(format!(
                "{} is shard {} but {} is shard {}: every shard must come from the same N",
                first.dir.display(),
                first.shard,
                s.dir.display(),
                s.shard
            )));
        }
    }
    Ok(())
}

/// Refuses a shard whose record is not the run its games say they are (its fingerprint,
/// computed again, differs), naming a tournament's pairing folder or a leak run's arm as such.
fn check_records(shards: &[ShardDir], out_dir: &Path) -> Result<(), Error> {
    // Every record must be the run its games say they are: an edited match.json, a pairing
    // folder of a tournament or another harness version would otherwise pass as this run.
    for s in shards {
        let computed = s
            .record
            .run_setup(out_dir.to_path_buf(), 1, String::new(), s.book.clone())
            .map_err(|m| refuse(format!("{}: {m}", s.dir.display())))?
            .fingerprint();
        if computed != s.record.fingerprint {
            // `T/pairings/NN-a-vs-b` of a tournament, `L/arms/NN-<engine>/<arm>` of a leak run.
            let pairing_folder = s.dir.parent().is_some_and(|p| {
                p.file_name().is_some_and(|n| n == "pairings")
                    && p.parent()
                        .is_some_and(|t| t.join("tournament.json").is_file())
            }) || s.dir.ancestors().nth(2).is_some_and(|a| {
                a.file_name().is_some_and(|n| n == "arms")
                    && a.parent()
                        .is_some_and(|l| l.join("leak-run.json").is_file())
            });
            return Err(refuse(if pairing_folder {
                format!(
                    "{} is a pairing folder of a tournament or an arm of a leak run: merge the \
                     shards' top folders instead",
                    s.dir.display()
                )
            } else {
                format!(
                    "{}: its record does not match its fingerprint {} (this harness computes {} \
                     from it): match.json was edited, or another harness version wrote it",
                    s.dir.display(),
                    s.record.fingerprint,
                    computed
                )
            }));
        }
    }
    Ok(())
}

/// Homogeneity, per pairing, from each shard's own games (`boards`, `n` pairings): each shard
/// against the others, and all of them together (χ², degrees of freedom, p-value).
fn homogeneity(
    shards: &[ShardDir],
    boards: &[Scoreboard],
    n: usize,
) -> (Vec<ShardCheck>, f64, u32, f64) {
    let tables: Vec<Vec<Pentanomial>> = boards
        .iter()
        .map(|board| board.pairings().iter().map(|p| p.ptnml).collect())
        .collect();
    let (mut chi2, mut dof) = (0.0, 0u32);
    for i in 0..n {
        let column: Vec<Pentanomial> = tables.iter().map(|t| t[i]).collect();
        let (c, d, _) = stats::homogeneity(&column);
        chi2 += c;
        dof += d;
    }
    let p_value = stats::chi2_sf(chi2, dof);
    let checks: Vec<ShardCheck> = shards
        .iter()
        .zip(&tables)
        .enumerate()
        .map(|(k, (s, t))| {
            let (mut c2, mut d) = (0.0, 0u32);
            let mut wdl = stats::Wdl::default();
            for (i, own) in t.iter().enumerate() {
                let others: Vec<Pentanomial> = tables
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .map(|(_, t)| t[i])
                    .collect();
                let rest = stats::merge(&others);
                let (c, dd, _) = stats::homogeneity(&[*own, rest]);
                c2 += c;
                d += dd;
                let w = own.wdl();
                wdl.wins += w.wins;
                wdl.draws += w.draws;
                wdl.losses += w.losses;
            }
            let p = stats::chi2_sf(c2, d);
            ShardCheck {
                dir: s.dir.display().to_string(),
                shard: s.shard.to_string(),
                pairs: s.pairs.len() as u64,
                score: wdl.score(),
                chi2: c2,
                dof: d,
                p_value: p,
                flagged: shards.len() > 1 && p * (shards.len() as f64) < FLAG_P,
            }
        })
        .collect();
    (checks, chi2, dof, p_value)
}

/// Every pair of the shards into its job of the run `setup` (the shard and where its lines are),
/// refusing a pair that is not the run's or is recorded twice.
fn jobs_of(
    shards: &[ShardDir],
    setup: &RunSetup,
) -> Result<BTreeMap<u64, (usize, [Span; 2])>, Error> {
    let mut games: BTreeMap<u64, (usize, [Span; 2])> = BTreeMap::new();
    for (k, s) in shards.iter().enumerate() {
        for (key, spans) in &s.pairs {
            let job = setup.job_of(key).ok_or_else(|| {
                refuse(format!(
                    "{}: pair {} of {} vs {} is not a pair of this run",
                    s.dir.display(),
                    key.2,
                    key.0,
                    key.1
                ))
            })?;
            if let Some((other, _)) = games.insert(job, (k, *spans)) {
                return Err(refuse(format!(
                    "pair {} of {} vs {} is recorded twice: in {} and {}",
                    key.2,
                    key.0,
                    key.1,
                    shards[other].dir.display(),
                    s.dir.display()
                )));
            }
        }
    }
    Ok(games)
}

/// Writes the merged journal in one pass over the pairs in job order (`games`), tallied as a run
/// tallies them; each shard's board on the side, for the homogeneity test. No game is held
/// longer than it takes to copy it.
fn write_merged(
    shards: &[ShardDir],
    setup: &RunSetup,
    games: &BTreeMap<u64, (usize, [Span; 2])>,
    out_dir: &Path,
) -> Result<(Tallied, Vec<Scoreboard>), Error> {
    let n = setup.pairings.len();
    let mut tallied = Tallied::new(&setup.pairings);
    let mut boards: Vec<Scoreboard> = shards
        .iter()
        .map(|_| Scoreboard::new(&setup.pairings))
        .collect();
    let mut sources = shards
        .iter()
        .map(|s| {
            crate::records::files::open_regular(&s.journal)
                .map_err(|e| refuse(format!("{}: {e}", s.journal.display())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut journal = AtomicFile::create(&out_dir.join("games.jsonl"))?;
    for (&job, &(k, spans)) in games {
        // Each line with its checksum: a checked shard's line comes out byte for byte as it was,
        // and a shard from before checksums gets them, so the merged journal never mixes the two.
        let pair = records::read_pair(&mut sources[k], &shards[k].journal, spans)?;
        for g in &pair {
            let line = records::checked_line(g)? + "\n";
            std::io::Write::write_all(&mut journal, line.as_bytes())?;
        }
        tallied.add(job, &pair);
        boards[k].add_pair((job % n as u64) as usize, &pair);
    }
    journal.commit()?;
    Ok((tallied, boards))
}

/// Whether two paths name the same folder.
fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// The output folder may be new, empty, or hold an earlier merge of the same run, nothing else:
/// not a single machine's run (its record's command is `arena match`, `tournament` or `leak`,
/// and it has no `merge.json`), not a shard, not a folder of other files.
fn check_out(dir: &Path, fingerprint: &str) -> Result<(), Error> {
    let record = crate::run::kind::RECORD_NAMES
        .iter()
        .map(|name| dir.join(name))
        .find(|p| p.exists());
    let Some(path) = record else {
        // No run: only the lock just taken (and temporaries of a merge cut short) may be there.
        let others: Vec<String> = std::fs::read_dir(dir)
            .map_err(|e| refuse(format!("--out {}: {e}", dir.display())))?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| {
                n != crate::records::journal::LOCK_FILE
                    && !(n.starts_with('.') && n.ends_with(".tmp"))
            })
            .collect();
        if others.is_empty() {
            return Ok(());
        }
        return Err(refuse(format!(
            "--out {}: holds other files ({}{}), not an earlier merge; choose a new or empty \
             folder",
            dir.display(),
            others
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            if others.len() > 3 { ", …" } else { "" }
        )));
    };
    let record = crate::records::files::read_bounded(&path, crate::records::files::MAX_SMALL_FILE)
        .ok()
        .and_then(|text| serde_json::from_str::<MatchSetup>(&text).ok());
    let Some(record) = record else {
        return Err(refuse(format!(
            "--out {}: holds a run record that cannot be read ({}); choose a new folder",
            dir.display(),
            path.display()
        )));
    };
    // A merge's record keeps its command line (`arena merge …`), and it writes merge.json.
    let subcommand = record
        .command
        .split_whitespace()
        .skip(1)
        .find(|w| !w.starts_with('-'));
    let merged = subcommand == Some("merge") || dir.join("merge.json").is_file();
    if record.shard.is_some() || !merged {
        let whose = match record.shard {
            Some(s) => format!("shard {s} of"),
            None => "one machine's run:".to_string(),
        };
        return Err(refuse(format!(
            "--out {}: holds {whose} {} ({}), not an earlier merge; merging would replace its \
             games: choose a new folder",
            dir.display(),
            kind(&record),
            path.display()
        )));
    }
    if record.fingerprint != fingerprint {
        return Err(refuse(format!(
            "--out {}: holds the merge of another run ({}, fingerprint {}); choose a new folder",
            dir.display(),
            path.display(),
            record.fingerprint
        )));
    }
    Ok(())
}
