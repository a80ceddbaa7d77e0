//! One pairing of a run of several pairings written as an ordinary match folder, and the lines
//! every report of such a run shares.

use std::path::PathBuf;

use crate::error::Error;
use crate::records::files::{AtomicFile, write_atomically};
use crate::records::{self, CsvFile};
use crate::run::execute::{Tallied, pair_key};
use crate::run::kind::RunKind;
use crate::run::scoreboard::{PairPoints, Scoreboard};
use crate::run::{self, RunOutcome, RunSetup};

/// Writes every pairing of a run of several pairings as an ordinary match folder (`match.json`,
/// `games.jsonl`, `games.csv`, summaries) under [`RunSetup::pairing_folder`], which `arena
/// replay` reads: its pairs are the run's counted pairs of that pairing, its record the run's with
/// the two engines (and their omniscience) alone. The games are copied from the run's
/// `games.jsonl` in one pass, never held.
///
/// # Errors
/// Reading the run's journal or writing fails.
pub fn write_pairings(setup: &RunSetup, outcome: &RunOutcome) -> Result<(), Error> {
    let np = setup.pairings.len() as u64;
    let dirs: Vec<PathBuf> = (0..setup.pairings.len())
        .map(|i| setup.options.out.join(setup.pairing_folder(i)))
        .collect();
    let mut jsonls = Vec::with_capacity(dirs.len());
    let mut csvs = Vec::with_capacity(dirs.len());
    for dir in &dirs {
        crate::records::files::create_dir(dir)?;
        jsonls.push(AtomicFile::create(&dir.join("games.jsonl"))?);
        csvs.push(CsvFile::create(&dir.join("games.csv"), 1)?);
    }
    let journal = setup.options.out.join("games.jsonl");
    let mut source = crate::records::files::open_regular(&journal)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", journal.display())))?;
    records::for_each_pair(&journal, |spans, pair| {
        let Some(job) = setup
            .job_of(&pair_key(&pair))
            .filter(|&j| outcome.points.get(j).is_some())
        else {
            return Ok(());
        };
        // Pair p is job p of the one-pairing run (of its shard).
        let i = (job % np) as usize;
        records::copy_spans(&mut source, spans, &mut jsonls[i])?;
        csvs[i].pair(job / np, &pair)
    })?;
    for (f, c) in jsonls.into_iter().zip(csvs) {
        f.commit()?;
        c.finish()?;
    }
    for (i, dir) in dirs.into_iter().enumerate() {
        let (a, b) = setup.pairings[i];
        let sub = RunSetup {
            spec: crate::run::RunSpec {
                engines: vec![setup.engines[a].clone(), setup.engines[b].clone()],
                pairings: vec![(0, 1)],
                kind: RunKind::Match { sprt: None },
                ..setup.spec.clone()
            },
            options: crate::run::RunOptions {
                out: dir.clone(),
                ..setup.options.clone()
            },
        };
        let mut record = sub.match_setup(&outcome.fingerprint);
        record.command = setup.options.command.clone();
        record.builds = outcome.builds.clone();
        let mut json = serde_json::to_vec_pretty(&record).map_err(std::io::Error::other)?;
        json.push(b'\n');
        crate::records::openings::keep_copy(&dir, sub.openings.as_deref())?;
        write_atomically(&dir.join("match.json"), &json)?;
        let mut points = PairPoints::default();
        for (job, p) in outcome.points.iter().filter(|(j, _)| j % np == i as u64) {
            points.set(job / np, p);
        }
        let sub_outcome = run::outcome_of(
            outcome.fingerprint.clone(),
            Tallied {
                board: Scoreboard::of_pairing(&outcome.board.pairings()[i]),
                points,
            },
            outcome.builds.clone(),
            outcome.merged.clone(),
        );
        crate::report::summary::report(&sub, &sub_outcome, &mut std::io::sink())?;
    }
    Ok(())
}

/// `+12.3`, `-inf`, `unrated`.
pub fn elo_text(x: f64) -> String {
    if x.is_nan() {
        "unrated".into()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        // `+ 0.0` turns −0 into +0.
        format!("{:+.1}", x + 0.0)
    }
}

/// `Time: 12.3 s wall this run, 45.6 games/s`, or that no game was played this run.
pub fn time_line(outcome: &RunOutcome) -> String {
    if outcome.played_now > 0 {
        let secs = outcome.wall.as_secs_f64();
        format!(
            "Time: {:.1} s wall this run, {:.1} games/s\n",
            secs,
            outcome.played_now as f64 / secs.max(1e-9)
        )
    } else if outcome.points.is_empty() {
        "Time: no games played (there was nothing to play)\n".to_string()
    } else {
        "Time: no games played this run (every counted pair was already recorded)\n".to_string()
    }
}
