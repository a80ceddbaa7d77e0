//! Records that were tampered with: what `--resume` refuses, and what it upgrades.

use serde_json::Value;

use crate::common::{ok, refused, s, tmp};

/// A 3-pair match of `greedy` against `random` in `dir/run`.
fn played(dir: &std::path::Path) -> std::path::PathBuf {
    let run = dir.join("run");
    ok(&[
        "match",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--pairs",
        "3",
        "--threads",
        "1",
        "--seed",
        "9",
        "--out",
        s(&run),
        "--no-progress",
    ]);
    run
}

/// The journal's lines as JSON values.
fn lines(run: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(run.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn write(run: &std::path::Path, lines: &[Value]) {
    let text: String = lines.iter().map(|v| v.to_string() + "\n").collect();
    std::fs::write(run.join("games.jsonl"), text).unwrap();
}

#[test]
fn a_flipped_result_without_its_checksum_is_not_resumed() {
    let dir = tmp("flipped");
    let run = played(&dir);
    let mut all = lines(&run);
    let flipped = match all[2]["result"].as_str().unwrap() {
        "1-0" => "0-1",
        _ => "1-0",
    };
    all[2]["result"] = Value::from(flipped);
    all[2].as_object_mut().unwrap().remove("check");
    write(&run, &all);
    let err = refused(&[
        "match",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--pairs",
        "4",
        "--threads",
        "1",
        "--seed",
        "9",
        "--out",
        s(&run),
        "--resume",
        "--no-progress",
    ]);
    assert!(
        err.contains("line 3 has no checksum while line 1 has one"),
        "{err}"
    );
}

#[test]
fn a_journal_from_before_checksums_resumes_into_a_checked_one() {
    let dir = tmp("upgrade");
    let run = played(&dir);
    // As a version before checksums wrote it, and interrupted after two pairs.
    let mut all = lines(&run);
    for v in &mut all {
        v.as_object_mut().unwrap().remove("check");
    }
    all.truncate(4);
    write(&run, &all);
    ok(&[
        "match",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--pairs",
        "3",
        "--threads",
        "1",
        "--seed",
        "9",
        "--out",
        s(&run),
        "--resume",
        "--no-progress",
    ]);
    let resumed = lines(&run);
    assert_eq!(resumed.len(), 6);
    assert!(
        resumed.iter().all(|v| v["check"].is_string()),
        "every line checked"
    );
    // And it resumes again (no mixed journal).
    ok(&[
        "match",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--pairs",
        "4",
        "--threads",
        "1",
        "--seed",
        "9",
        "--out",
        s(&run),
        "--resume",
        "--no-progress",
    ]);
    assert_eq!(lines(&run).len(), 8);
}

#[test]
fn times_in_milliseconds_are_bounded_by_a_day() {
    let dir = tmp("bounds");
    let out = dir.join("run");
    for args in [
        vec!["match", "--movetime", "18446744073709551615"],
        vec!["match", "--move-timeout", "86400001"],
        vec!["solve", "suite.epd", "--move-timeout", "99999999999"],
        vec!["analyze", "x", "--movetime", "86400001"],
        vec!["jai", "--movetime", "86400001"],
    ] {
        let mut all = args.clone();
        if args[0] == "match" {
            all.extend(["--engine", "greedy", "--engine", "random", "--out", s(&out)]);
        }
        let o = crate::common::arena(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        let err = crate::common::text(&o.stderr);
        assert!(
            err.contains("more than a day (86400000 ms)"),
            "{all:?}: {err}"
        );
    }
    let err = refused(&[
        "match",
        "--engine",
        "greedy:movetime=86400001",
        "--engine",
        "random",
        "--out",
        s(&out),
    ]);
    assert!(err.contains("more than a day"), "{err}");
    // A day itself is allowed (the plan goes on to its other checks).
    let o = crate::common::arena(&[
        "match",
        "--movetime",
        "86400000",
        "--check",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", crate::common::text(&o.stderr));
}
