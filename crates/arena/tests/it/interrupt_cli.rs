//! Ctrl-C as an outcome: an interrupted run stops starting pairs, abandons the games in progress
//! (never recorded), writes and prints its standings of the pairs it finished like a normal end,
//! says how to continue, and exits 130; `--resume` then plays it to the games of a run never
//! interrupted.

use std::path::Path;

use crate::common::{csv_without_timing, interrupted_after_lines, json, ok, s, text, tmp};

/// Pairs of the match: long enough that, once two pairs are in the journal, the rest takes far
/// more than the three seconds a signal may need to arrive on a loaded machine (each pair is
/// about 0.3 s of one core here).
const PAIRS: &str = "16";

/// The match, with its folder and any more arguments.
fn match_args<'a>(out: &'a Path, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "match",
        "--engine",
        "alphabeta",
        "--engine",
        "greedy",
        "--nodes",
        "20000",
        "--pairs",
        PAIRS,
        "--seed",
        "42",
        "--no-progress",
        "--out",
        s(out),
    ];
    args.extend_from_slice(more);
    args
}

/// Complete lines of a file (0 if it is not there yet).
fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .matches('\n')
        .count()
}

/// SIGINT after two pairs of a one-thread match: exit 130, the standings of the kept pairs on
/// stdout and in summary.json, the resume line on stderr, the journal holding only finished
/// pairs, the folder released; `--resume` completes it to the games.csv of an uninterrupted run.
#[test]
fn an_interrupted_match_prints_its_standings_and_resumes_to_the_same_games() {
    let root = tmp("match");
    let (full, cut) = (root.join("full"), root.join("cut"));
    let journal = cut.join("games.jsonl");
    let o = interrupted_after_lines(&match_args(&cut, &["--threads", "1"]), &journal, 4);
    let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(130), "{stdout}{stderr}");
    // What was kept is what the journal holds: whole pairs, no game cut short.
    let kept = lines(&journal);
    assert!(kept % 2 == 0 && kept >= 4, "{kept} lines");
    let pairs = kept / 2;
    assert!(pairs < 16, "the run was not interrupted: {stdout}");
    assert!(
        stdout.starts_with("Results of alphabeta vs greedy")
            && stdout.contains(&format!("PARTIAL: {pairs} of 16 pairs counted"))
            && stdout.contains(&format!("Results in {}", cut.display())),
        "{stdout}"
    );
    assert!(
        stderr.contains(&format!(
            "interrupted: {pairs} finished pairs are kept in {}; continue with: arena match \
             --out {} --resume",
            journal.display(),
            cut.display()
        )),
        "{stderr}"
    );
    let summary = json(&cut.join("summary.json"));
    assert_eq!(summary["results"]["pairs"], pairs as u64, "{summary}");
    assert_eq!(summary["results"]["games"], kept as u64, "{summary}");
    assert_eq!(lines(&cut.join("games.csv")), kept + 1);
    assert!(!cut.join(".arena.lock").exists(), "the folder is released");
    // Resumed, it ends as the run that was never interrupted (its threads do not matter).
    ok(&match_args(&cut, &["--resume"]));
    ok(&match_args(&full, &["--threads", "2"]));
    assert_eq!(csv_without_timing(&full), csv_without_timing(&cut));
    let _ = std::fs::remove_dir_all(root);
}
