//! One pairing of a run of several pairings written as an ordinary match folder, and the lines
//! every report of such a run shares.

use std::collections::BTreeMap;
use std::path::Path;

use crate::records::files::write_atomically;
use crate::records::journal::jsonl;
use crate::records::{self, GameLine};
use crate::run::kind::RunKind;
use crate::run::{self, RunError, RunOutcome, RunSetup};

/// Writes pairing `i`'s match folder: `match.json`, `games.jsonl`, `games.csv`, `summary.json`
/// and `summary.txt`, as `arena match` writes them (the games carry the tournament's
/// fingerprint).
/// Writes pairing `i` of a run of several pairings as an ordinary match folder in `dir`
/// (`match.json`, `games.jsonl`, `games.csv`, summaries), which `arena replay` reads: its pairs
/// are the run's pairs of that pairing, its record the run's with the two engines (and their
/// omniscience) alone.
///
/// # Errors
/// Writing fails.
pub fn write_pairing(
    setup: &RunSetup,
    outcome: &RunOutcome,
    i: usize,
    dir: &Path,
) -> Result<(), RunError> {
    let (a, b) = setup.pairings[i];
    let dir = dir.to_path_buf();
    crate::records::files::create_dir(&dir)?;
    let sub = RunSetup {
        engines: vec![setup.engines[a].clone(), setup.engines[b].clone()],
        pairings: vec![(0, 1)],
        kind: RunKind::Match { sprt: None },
        out: dir.clone(),
        ..setup.clone()
    };
    let np = setup.pairings.len() as u64;
    // Pair p is job p of the one-pairing run (of its shard).
    let games: BTreeMap<u64, [GameLine; 2]> = outcome
        .games
        .iter()
        .filter(|(job, _)| *job % np == i as u64)
        .map(|(job, pair)| (job / np, pair.clone()))
        .collect();
    let mut record = sub.match_setup(&outcome.fingerprint);
    record.command = setup.command.clone();
    let mut json = serde_json::to_vec_pretty(&record).map_err(std::io::Error::other)?;
    json.push(b'\n');
    write_atomically(&dir.join("match.json"), &json)?;
    write_atomically(&dir.join("games.jsonl"), &jsonl(games.values().flatten())?)?;
    records::write_csv(&dir.join("games.csv"), &games, 1)?;
    let sub_outcome = run::outcome_of(&sub, outcome.fingerprint.clone(), games);
    crate::report::summary::report(&sub, &sub_outcome, &mut std::io::sink())
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
    } else if outcome.games.is_empty() {
        "Time: no games played (there was nothing to play)\n".to_string()
    } else {
        "Time: no games played this run (every counted pair was already recorded)\n".to_string()
    }
}
