//! Every result names the code that played it: the run records, summaries and rating files carry
//! the build (commit, dirty tree, SHA-256 of the arena and of external engines); a resume or a
//! merge that would mix builds is refused unless allowed; a merged run says it was merged, a
//! resumed one keeps its threads, an empty shard rates nothing.

use std::path::Path;

use serde_json::Value;

use crate::common::{arena, json, ok, refused, s, text, tmp};

fn play(out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "match",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--seed",
        "3",
        "--threads",
        "1",
        "--no-progress",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

/// Rewrites the `build` of a folder's record as another commit's.
fn pretend_another_build(dir: &Path) {
    let path = dir.join("match.json");
    let mut record = json(&path);
    record["build"]["commit"] = Value::from("f".repeat(40));
    record["build"]["arena_sha256"] = Value::from("0".repeat(64));
    std::fs::write(&path, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
}

#[test]
fn every_record_and_summary_names_its_build() {
    let dir = tmp("named");
    let out = play(&dir.join("m"), &["--pairs", "2"]);
    let record = json(&dir.join("m/match.json"));
    let build = &record["build"];
    let commit = build["commit"].as_str().unwrap();
    assert!(
        commit == "unknown"
            || (commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{build}"
    );
    assert!(build["dirty"].is_boolean(), "{build}");
    let sha = build["arena_sha256"].as_str().unwrap();
    assert_eq!(sha.len(), 64, "{build}");
    // The hash is the binary's that ran, as sha256sum computes it (where the tool exists).
    if let Ok(o) = std::process::Command::new("sha256sum")
        .arg(crate::common::arena_bin())
        .output()
    {
        assert!(text(&o.stdout).starts_with(sha), "{}", text(&o.stdout));
    }
    assert_eq!(json(&dir.join("m/summary.json"))["build"], *build);
    assert!(
        out.contains(&format!(
            "Build: commit {}",
            &commit[..12.min(commit.len())]
        )),
        "{out}"
    );
    assert_eq!(record["threads"], 1);

    // A tournament's ratings.json and report name it too.
    let t = dir.join("t");
    ok(&[
        "tournament",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--engine",
        "level:easy",
        "--pairs",
        "1",
        "--threads",
        "1",
        "--bootstrap",
        "100",
        "--no-progress",
        "--out",
        s(&t),
    ]);
    assert_eq!(json(&t.join("ratings.json"))["build"]["arena_sha256"], sha);
    assert_eq!(
        json(&t.join("tournament.json"))["build"]["arena_sha256"],
        sha
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_resume_by_another_build_is_refused_unless_allowed() {
    let dir = tmp("resume");
    let m = dir.join("m");
    play(&m, &["--pairs", "2"]);
    pretend_another_build(&m);
    let o = arena(&[
        "match",
        "--out",
        s(&m),
        "--resume",
        "--pairs",
        "3",
        "--no-progress",
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the arena differs: commit ffffffffffff"),
        "{err}"
    );
    assert!(err.contains("--allow-mixed-builds"), "{err}");
    // Refused before any game: the journal still holds the two pairs.
    assert_eq!(
        std::fs::read_to_string(m.join("games.jsonl"))
            .unwrap()
            .lines()
            .count(),
        4
    );
    let out = ok(&[
        "match",
        "--out",
        s(&m),
        "--resume",
        "--pairs",
        "3",
        "--allow-mixed-builds",
        "--no-progress",
    ]);
    assert!(out.contains("MIXED: also played by"), "{out}");
    let record = json(&m.join("match.json"));
    assert_eq!(record["build"]["commit"], "f".repeat(40));
    assert_eq!(record["later_builds"].as_array().map(Vec::len), Some(1));
    // Resuming a finished run plays nothing and asks nothing.
    ok(&["match", "--out", s(&m), "--resume", "--no-progress"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_resume_keeps_the_threads_the_run_was_started_with() {
    let dir = tmp("threads");
    let m = dir.join("m");
    play(&m, &["--pairs", "2"]);
    let o = arena(&[
        "match",
        "--out",
        s(&m),
        "--resume",
        "--pairs",
        "4",
        "--no-progress",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(json(&m.join("summary.json"))["threads"], 1);
    assert!(
        text(&o.stdout).contains(", 1 thread,"),
        "{}",
        text(&o.stdout)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_merge_of_different_builds_is_refused_and_a_merge_says_it_merged() {
    let dir = tmp("merge");
    let shards: Vec<_> = (0..2).map(|k| dir.join(format!("s{k}"))).collect();
    for (k, d) in shards.iter().enumerate() {
        play(d, &["--pairs", "4", "--shard", &format!("{k}/2")]);
    }
    pretend_another_build(&shards[1]);
    let merged = dir.join("merged");
    let err = refused(&["merge", s(&shards[0]), s(&shards[1]), "--out", s(&merged)]);
    assert!(
        err.contains("different builds") && err.contains("--allow-mixed-builds"),
        "{err}"
    );
    assert!(!merged.join("games.jsonl").exists());
    let out = ok(&[
        "merge",
        s(&shards[0]),
        s(&shards[1]),
        "--out",
        s(&merged),
        "--allow-mixed-builds",
    ]);
    assert!(out.contains("merged from 2 shards"), "{out}");
    assert!(
        out.contains("Merged: 2 shards played these games (threads 1, 1)"),
        "{out}"
    );
    assert!(!out.contains("no games played this run"), "{out}");
    assert!(out.contains("MIXED"), "{out}");
    let summary = json(&merged.join("summary.json"));
    assert!(summary.get("threads").is_none(), "{summary}");
    let runs = summary["shard_runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert!(
        runs[1]["command"].as_str().unwrap().contains("--shard 1/2"),
        "{summary}"
    );
    assert_eq!(
        json(&merged.join("match.json"))["later_builds"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_empty_shard_rates_nothing() {
    let dir = tmp("empty");
    let out = play(&dir.join("e"), &["--pairs", "3", "--shard", "5/10"]);
    assert!(
        out.contains("No games counted: shard 5/10 holds none of the 3 pairs"),
        "{out}"
    );
    assert!(!out.contains("LOS") && !out.contains("inf"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}
