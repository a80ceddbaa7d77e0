//! Results folders written by the arena before the run kind was a type (frozen under
//! `tests/fixtures/old-runs/`, see its README) still resume, replay, export and merge, and give
//! the games a fresh run of the same command gives.

use std::path::{Path, PathBuf};

use crate::common::{arena, csv_without_timing, match_args, ok, tmp};

fn status(args: &[&str]) -> (i32, String) {
    let o = arena(args);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code().unwrap_or(-1), text)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/old-runs")
        .join(name)
}

/// A copy of a fixture folder to work in (a resume rewrites it).
fn copy(name: &str) -> PathBuf {
    fn walk(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let target = to.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), &target);
            } else {
                std::fs::copy(e.path(), target).unwrap();
            }
        }
    }
    let dir = tmp(name);
    walk(&fixture(name), &dir);
    dir
}

#[test]
fn every_old_record_reads_as_its_kind() {
    use arena::run::MatchSetup;
    use arena::run::kind::RunKind;
    for (folder, record, kind) in [
        ("match", "match.json", "match"),
        ("sprt", "match.json", "sprt"),
        ("tournament", "tournament.json", "tournament"),
        ("leak", "leak-run.json", "leak"),
        ("shard1", "match.json", "match"),
    ] {
        let text = std::fs::read_to_string(fixture(folder).join(record)).unwrap();
        let setup: MatchSetup = serde_json::from_str(&text).unwrap();
        assert_eq!(setup.kind.command_name(), kind, "{folder}");
        // Written back, the record names its kind in the fields it always had.
        let again: serde_json::Value = serde_json::to_value(&setup).unwrap();
        let old: serde_json::Value = serde_json::from_str(&text).unwrap();
        for field in ["gate", "sprt", "tournament", "leak"] {
            assert_eq!(again.get(field), old.get(field), "{folder}: {field}");
        }
        if let RunKind::Gate { recover, .. } = setup.kind {
            assert!(!recover, "an old gate's record says nothing of --recover");
        }
    }
    // A record that names two kinds is refused, by name.
    let text = std::fs::read_to_string(fixture("tournament").join("tournament.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["gate"] = serde_json::json!({"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05, "model": "normalized"});
    let e = serde_json::from_value::<MatchSetup>(v)
        .unwrap_err()
        .to_string();
    assert!(e.contains("more than one kind of run"), "{e}");
}

#[test]
fn an_interrupted_old_match_resumes_to_the_games_of_a_fresh_run() {
    let resumed = copy("partial");
    // Its games were played by a build that was not recorded: continuing it would mix builds.
    let (code, said) = status(&[
        "match",
        "--out",
        resumed.to_str().unwrap(),
        "--resume",
        "--no-progress",
    ]);
    assert_eq!(code, 2, "{said}");
    // (The journal's cut-short last line, an unfinished pair, is dropped when it is opened.)
    assert!(said.contains("cut short"), "{said}");
    assert!(
        said.contains("did not record its build") && said.contains("--allow-mixed-builds"),
        "{said}"
    );
    let o = arena(&[
        "match",
        "--out",
        resumed.to_str().unwrap(),
        "--resume",
        "--allow-mixed-builds",
        "--no-progress",
    ]);
    let said = crate::common::text(&o.stderr);
    assert!(o.status.success(), "{said}");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(resumed.join("match.json")).unwrap())
            .unwrap();
    assert!(record.get("build").is_none(), "{record}");
    assert_eq!(
        record["later_builds"].as_array().map(Vec::len),
        Some(1),
        "{record}"
    );
    assert!(crate::common::text(&o.stdout).contains("MIXED"));
    let fresh = tmp("fresh-partial");
    ok(&match_args(
        "greedy",
        "random",
        "4",
        &["--out", fresh.to_str().unwrap(), "--no-progress"],
    ));
    assert_eq!(csv_without_timing(&resumed), csv_without_timing(&fresh));
    assert_eq!(csv_without_timing(&resumed).lines().count(), 9);
    for d in [resumed, fresh] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn old_folders_of_every_kind_resume_as_finished_runs() {
    for (kind, folder, code) in [
        ("match", "match", 0),
        ("sprt", "sprt", 0),
        ("tournament", "tournament", 0),
        ("leak", "leak", 0),
    ] {
        let dir = copy(folder);
        let before = csv_without_timing(&fixture(folder));
        let (got, text) = status(&[
            kind,
            "--out",
            dir.to_str().unwrap(),
            "--resume",
            "--no-progress",
        ]);
        assert_eq!(got, code, "arena {kind} --resume: {text}");
        assert!(text.contains("no games played this run"), "{kind}: {text}");
        assert_eq!(csv_without_timing(&dir), before, "{kind}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn old_folders_replay_and_export() {
    for (folder, game) in [
        ("match", "3"),
        ("sprt", "1"),
        ("tournament", "5"),
        ("leak", "2"),
    ] {
        let text = ok(&["replay", fixture(folder).to_str().unwrap(), "--game", game]);
        assert!(text.contains("identical"), "{folder}: {text}");
        let out = tmp(&format!("export-{folder}")).join("games.pgn");
        ok(&[
            "export",
            fixture(folder).to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let pgn = std::fs::read_to_string(&out).unwrap();
        // The games the run counted: games.csv's (the sprt fixture's gate stopped after 5
        // pairs, and 13 more finished beyond its stop)…
        let lines = |name: &str| {
            std::fs::read_to_string(fixture(folder).join(name))
                .unwrap()
                .lines()
                .count()
        };
        let counted = lines("games.csv") - 1;
        assert_eq!(pgn.matches("[Event ").count(), counted, "{folder}");
        assert_eq!(pgn.matches("[Counted ").count(), 0, "{folder}");
        // …and with --beyond-stop every recorded game, those beyond the stop marked.
        ok(&[
            "export",
            fixture(folder).to_str().unwrap(),
            "--beyond-stop",
            "--out",
            out.to_str().unwrap(),
        ]);
        let pgn = std::fs::read_to_string(&out).unwrap();
        let games = lines("games.jsonl");
        assert_eq!(pgn.matches("[Event ").count(), games, "{folder}");
        assert_eq!(pgn.matches("[Counted \"no\"]").count(), games - counted);
        if folder == "sprt" {
            assert_eq!((counted, games), (10, 36));
        }
        let _ = std::fs::remove_dir_all(out.parent().unwrap());
    }
}

#[test]
fn old_shards_merge_into_the_run_one_machine_plays() {
    let merged = tmp("merged");
    let dirs: Vec<String> = ["shard0", "shard1", "shard2"]
        .iter()
        .map(|s| fixture(s).to_str().unwrap().to_string())
        .collect();
    ok(&[
        "merge",
        &dirs[0],
        &dirs[1],
        &dirs[2],
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(
        csv_without_timing(&merged),
        csv_without_timing(&fixture("match"))
    );
    let one: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("match").join("summary.json")).unwrap(),
    )
    .unwrap();
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(merged.join("summary.json")).unwrap())
            .unwrap();
    for field in ["fingerprint", "ptnml", "wdl", "elo"] {
        assert_eq!(all.get(field), one.get(field), "{field}");
    }
    let _ = std::fs::remove_dir_all(merged);
}
