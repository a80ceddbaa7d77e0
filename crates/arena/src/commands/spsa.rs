//! `arena spsa`: SPSA tuning ([`crate::tuning::spsa`]) — batches of iterations played through the
//! run core, the record rewritten after each, the result and its files at the end.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::plan::spsa::SpsaPlan;
use crate::tuning::spsa::play::{LABELS, Player};
use crate::tuning::spsa::{FORMAT, RECORD_FILE, Record, Stint};

/// How `arena spsa` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Every iteration was played.
    Done,
    /// Ctrl-C stopped it: the finished batches are kept, the unfinished one dropped.
    Interrupted,
}

/// The largest record read back (the history of 10^7 iterations stays far below).
const MAX_RECORD_BYTES: u64 = 256 << 20;

/// The record to start from: a new one, or with `--resume` the folder's (refused when its
/// fingerprint is not this run's).
fn start(plan: &SpsaPlan) -> Result<Record, Error> {
    let dir = &plan.setup.options.out;
    let path = dir.join(RECORD_FILE);
    if !path.exists() {
        let mut record = Record::new(plan.settings.clone());
        record.builds.push(Stint {
            from_iteration: 0,
            build: plan.setup.current_build(),
        });
        return Ok(record);
    }
    if !plan.setup.options.resume {
        return Err(Error::Input(format!(
            "{} holds an spsa run already: give --resume to continue it, or another --out",
            dir.display()
        )));
    }
    let bad = |m: String| Error::Input(format!("{}: {m}", path.display()));
    let text = crate::records::files::read_bounded(&path, MAX_RECORD_BYTES)
        .map_err(|e| bad(e.to_string()))?;
    let record: Record = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    if record.format != FORMAT {
        return Err(bad(format!(
            "format {} (this arena reads format {FORMAT})",
            record.format
        )));
    }
    // The fingerprints, not the settings read back: a number's last bit may read back otherwise.
    if record.fingerprint != plan.settings.fingerprint() {
        return Err(bad(format!(
            "another run: its settings (fingerprint {}) are not these (fingerprint {}); a \
             resume takes the run's own --engine, --params, --iterations (N enters the gains), \
             --batch, --a-ratio, --seed, rules, limits, book and adjudication",
            record.fingerprint,
            plan.settings.fingerprint()
        )));
    }
    let mut record = record;
    record.settings = plan.settings.clone();
    if record.exact_theta().is_none() || record.iteration > record.settings.iterations {
        return Err(bad("theta_bits or iteration do not hold up".into()));
    }
    let current = plan.setup.current_build();
    if record.builds.is_empty() {
        // A record from before builds were kept: who played so far is unknown.
        record.builds.push(Stint {
            from_iteration: record.iteration,
            build: current,
        });
    } else if let Some(why) = record.builds.last().and_then(|s| s.build.differs(&current)) {
        if !plan.setup.options.allow_mixed_builds {
            return Err(bad(format!(
                "another build played this run ({why}): give --allow-mixed-builds to continue \
                 it with this one (the record then lists each build from the iteration it took \
                 over)"
            )));
        }
        record.builds.push(Stint {
            from_iteration: record.iteration,
            build: current,
        });
    }
    Ok(record)
}

/// Writes `bytes` to `dir/name` through [`crate::records::files`].
fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Error> {
    let path = dir.join(name);
    crate::records::files::write_atomically(&path, bytes)
        .map_err(|e| Error::Write(format!("cannot write {}: {e}", path.display())))
}

/// Writes the record (spsa.json).
fn save(dir: &Path, record: &Record) -> Result<(), Error> {
    let mut json = serde_json::to_string_pretty(record)
        .map_err(|e| Error::Write(format!("cannot encode the record: {e}")))?;
    json.push('\n');
    write(dir, RECORD_FILE, json.as_bytes())
}

/// Writes the record's path (spsa.csv), page (spsa.html) and result (spsa.txt).
fn finish(dir: &Path, record: &Record) -> Result<(), Error> {
    let spec = record.result_spec();
    write(
        dir,
        "spsa.csv",
        crate::report::spsa::path_csv(record).as_bytes(),
    )?;
    write(
        dir,
        "spsa.html",
        crate::report::html::spsa::spsa_html(record, &spec).as_bytes(),
    )?;
    write(
        dir,
        "spsa.txt",
        crate::report::spsa::result_text(record).as_bytes(),
    )
}

/// Runs the tuner and prints its result to `out` (progress lines go to stderr).
///
/// # Errors
/// The folder or its record cannot be used (another run's, or broken), an iteration's engine is
/// refused, or writing fails.
pub fn run(plan: &SpsaPlan, out: &mut dyn Write) -> Result<Ended, Error> {
    let dir = plan.setup.options.out.as_path();
    if !dir.is_dir() {
        crate::records::files::create_dir(dir)
            .map_err(|e| Error::Write(format!("cannot make {}: {e}", dir.display())))?;
    }
    // Two runs never write one folder at once (the lock goes when this run ends).
    let _lock = crate::records::journal::FolderLock::take(dir)?;
    let mut record = start(plan)?;
    let logs = crate::engines::logs::RunLogs::new(dir, &LABELS, plan.setup.options.log)
        .map_err(|e| Error::Input(e.to_string()))?;
    let player = Player {
        run: &plan.setup.spec,
        threads: plan.setup.options.threads,
        logs: &logs,
    };
    save(dir, &record)?;
    let mut batches = 0u64;
    let mut last_line: Option<Instant> = None;
    let mut ended = Ended::Done;
    while !record.next_batch().is_empty() {
        if crate::util::interrupt::requested() {
            ended = Ended::Interrupted;
            break;
        }
        let Some(results) = player
            .batch(&record)
            .map_err(|e| Error::Input(e.to_string()))?
        else {
            ended = Ended::Interrupted;
            break;
        };
        record.apply_batch(&results);
        save(dir, &record)?;
        batches += 1;
        let due = plan.report_every > 0
            && batches % plan.report_every == 0
            && last_line.is_none_or(|t| t.elapsed() >= Duration::from_secs(1));
        if due || record.next_batch().is_empty() {
            let _ = writeln!(
                std::io::stderr(),
                "{}",
                crate::report::spsa::progress_line(&record)
            );
            last_line = Some(Instant::now());
        }
    }
    finish(dir, &record)?;
    out.write_all(crate::report::spsa::result_text(&record).as_bytes())
        .map_err(Error::Output)?;
    if ended == Ended::Interrupted {
        let _ = writeln!(
            std::io::stderr(),
            "interrupted: {} of {} iterations kept in {} (the unfinished batch is dropped); \
             continue with the same command and --resume",
            record.iteration,
            record.settings.iterations,
            dir.join(RECORD_FILE).display()
        );
    }
    Ok(ended)
}
