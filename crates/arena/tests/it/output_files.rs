//! Where the arena writes, end to end: a file the user names never replaces one of a results
//! folder's own files (not even through a link), a device is written through and stays a device,
//! and `merge --out` never writes over a run that is not an earlier merge.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{arena, match_args, s, text, tmp};

/// Runs the arena and expects exit status `code`; returns its error output.
fn expect(code: i32, args: &[&str]) -> String {
    let o = arena(args);
    assert_eq!(
        o.status.code(),
        Some(code),
        "arena {args:?}:\n{}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    text(&o.stderr)
}

/// Plays a quick match (random against greedy: long games, enough positions to tune) into `dir`.
fn run(dir: &Path, extra: &[&str]) {
    let mut args = vec![
        "match",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--seed",
        "3",
        "--no-progress",
        "--out",
        s(dir),
    ];
    args.extend_from_slice(extra);
    expect(0, &args);
}

/// Makes a character device `dir/name` with `major`/`minor` (as root). Without root the test is
/// skipped, saying so, unless `CI` is set: there it fails.
fn mknod(test: &str, path: &Path, major: u32, minor: u32) -> bool {
    let made = Command::new("mknod")
        .arg(path)
        .arg("c")
        .arg(major.to_string())
        .arg(minor.to_string())
        .output();
    match made {
        Ok(o) if o.status.success() => true,
        other => {
            let why = match other {
                Ok(o) => text(&o.stderr),
                Err(e) => e.to_string(),
            };
            assert!(
                !crate::common::in_ci(),
                "{test}: mknod {} failed (CI needs root): {why}",
                path.display()
            );
            // Straight to stderr, past the test harness's capture: a skip must be seen.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: {test}: needs root for mknod ({})",
                why.trim()
            );
            false
        }
    }
}

#[cfg(unix)]
fn is_char_device(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_char_device())
}

#[cfg(unix)]
#[test]
fn export_refuses_a_link_to_the_runs_journal() {
    let dir = tmp("export");
    let ex5 = dir.join("ex5");
    run(&ex5, &["--pairs", "2"]);
    let journal = std::fs::read(ex5.join("games.jsonl")).unwrap();
    let out = dir.join("out.pgn");
    std::os::unix::fs::symlink("ex5/games.jsonl", &out).unwrap();
    let err = expect(2, &["export", s(&ex5), "--out", s(&out)]);
    assert!(
        err.contains("out.pgn is a link to")
            && err.contains("games.jsonl")
            && err.contains("the journal"),
        "{err}"
    );
    assert_eq!(std::fs::read(ex5.join("games.jsonl")).unwrap(), journal);
    assert!(std::fs::symlink_metadata(&out).unwrap().is_symlink());
    // The folder's own files by name, and through a link to the folder.
    let err = expect(2, &["export", s(&ex5), "--out", s(&ex5.join("games.csv"))]);
    assert!(err.contains("own games.csv (the games table"), "{err}");
    let alias = dir.join("alias");
    std::os::unix::fs::symlink("ex5", &alias).unwrap();
    expect(
        2,
        &["export", s(&ex5), "--out", s(&alias.join("match.json"))],
    );
    assert_eq!(std::fs::read(ex5.join("games.jsonl")).unwrap(), journal);
    // Another file beside them is an output like any.
    expect(0, &["export", s(&ex5), "--out", s(&ex5.join("games.pgn"))]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn tune_refuses_the_runs_journal() {
    let dir = tmp("tune");
    let reference = dir.join("ref");
    // Enough games to tune: the journal would be replaced with weights.
    run(&reference, &["--pairs", "20", "--threads", "2"]);
    let journal = std::fs::read(reference.join("games.jsonl")).unwrap();
    let err = expect(
        2,
        &[
            "tune",
            s(&reference),
            "--out",
            s(&reference.join("games.jsonl")),
        ],
    );
    assert!(
        err.contains("games.jsonl is the results folder's own games.jsonl (the journal"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(reference.join("games.jsonl")).unwrap(),
        journal
    );
    let err = expect(
        2,
        &[
            "tune",
            s(&reference),
            "--out",
            s(&reference.join("summary.json")),
        ],
    );
    assert!(err.contains("the summary"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn tune_and_suite_write_through_a_device_and_keep_it() {
    let test = "tune_and_suite_write_through_a_device_and_keep_it";
    let dir = tmp("device");
    let (full, null) = (dir.join("full"), dir.join("null"));
    if !mknod(test, &full, 1, 7) || !mknod(test, &null, 1, 3) {
        let _ = std::fs::remove_dir_all(dir);
        return;
    }
    let reference = dir.join("ref");
    run(&reference, &["--pairs", "20", "--threads", "2"]);
    let journal = std::fs::read(reference.join("games.jsonl")).unwrap();
    let tune = |out: &Path| {
        vec![
            "tune".to_string(),
            s(&reference).to_string(),
            "--iterations".into(),
            "5".into(),
            "--out".into(),
            s(out).to_string(),
        ]
    };
    let suite = |out: &Path| {
        vec![
            "suite".to_string(),
            "tactics".into(),
            s(&reference).to_string(),
            "--budget".into(),
            "100".into(),
            "--threads".into(),
            "1".into(),
            "--out".into(),
            s(out).to_string(),
        ]
    };
    let link = dir.join("link");
    std::os::unix::fs::symlink("full", &link).unwrap();
    for args in [tune(&full), suite(&full), tune(&link), suite(&link)] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // /dev/full refuses every write: the write fails (exit 4), the device stays.
        let err = expect(4, &args);
        assert!(
            err.contains("full") && err.contains("No space left"),
            "{err}"
        );
        assert!(is_char_device(&full), "{args:?} replaced the device");
    }
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    for args in [tune(&null), suite(&null)] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        expect(0, &args);
        assert!(is_char_device(&null), "{args:?} replaced the device");
    }
    // Nothing was left beside them.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["full", "link", "null", "ref"]);
    assert_eq!(
        std::fs::read(reference.join("games.jsonl")).unwrap(),
        journal
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn merge_refuses_a_single_machines_run_folder() {
    let dir = tmp("merge");
    let base = ["--pairs", "6"];
    let shards: Vec<PathBuf> = (0..3)
        .map(|k| {
            let shard = dir.join(format!("sh{k}"));
            let index = format!("{k}/3");
            let mut args = base.to_vec();
            args.extend_from_slice(&["--threads", "1", "--shard", &index]);
            run(&shard, &args);
            shard
        })
        .collect();
    // The same run on one machine: the same fingerprint, no shard.
    let ref60 = dir.join("ref60");
    let mut args = base.to_vec();
    args.extend_from_slice(&["--threads", "2"]);
    run(&ref60, &args);
    let journal = std::fs::read(ref60.join("games.jsonl")).unwrap();
    let record = std::fs::read(ref60.join("match.json")).unwrap();
    let merge = |out: &Path| {
        let mut a = vec!["merge".to_string()];
        a.extend(shards.iter().map(|p| s(p).to_string()));
        a.extend(["--out".to_string(), s(out).to_string()]);
        a
    };
    let args = merge(&ref60);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = expect(2, &args);
    assert!(
        err.contains("ref60")
            && err.contains("one machine's run")
            && err.contains("not an earlier merge"),
        "{err}"
    );
    assert_eq!(std::fs::read(ref60.join("games.jsonl")).unwrap(), journal);
    assert_eq!(std::fs::read(ref60.join("match.json")).unwrap(), record);
    assert!(!ref60.join("merge.json").exists());
    // A folder of other files is refused too.
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.txt"), b"mine").unwrap();
    let args = merge(&other);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = expect(2, &args);
    assert!(err.contains("notes.txt"), "{err}");
    assert_eq!(std::fs::read(other.join("notes.txt")).unwrap(), b"mine");
    // An empty folder takes the merge, and an earlier merge may be merged over.
    let merged = dir.join("merged");
    std::fs::create_dir_all(&merged).unwrap();
    for _ in 0..2 {
        let args = merge(&merged);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        expect(0, &args);
        assert!(merged.join("merge.json").is_file());
    }
    // The merge is the single run's games.
    let games = |d: &Path| {
        std::fs::read_to_string(d.join("games.jsonl"))
            .unwrap()
            .lines()
            .count()
    };
    assert_eq!(games(&merged), games(&ref60));
    let _ = std::fs::remove_dir_all(dir);
}

/// `analyze --out F --html F` used to write the JSON over the page (and print "Viewer: F"), and
/// `view --out DIR/games.html` to replace the folder's games index: both are refused, nothing
/// written.
#[test]
fn outputs_never_overwrite_each_other_or_the_games_index() {
    let dir = tmp("own-index");
    run(&dir, &["--pairs", "1", "--max-plies", "6"]);
    let index = dir.join("games.html");
    let before = std::fs::read(&index).unwrap();
    let e = crate::common::refused(&["view", s(&dir), "--game", "1", "--out", s(&index)]);
    assert!(e.contains("the games index"), "{e}");
    assert_eq!(std::fs::read(&index).unwrap(), before);
    let f = dir.join("a.html");
    let e = crate::common::refused(&[
        "analyze",
        s(&dir),
        "--game",
        "1",
        "--nodes",
        "10",
        "--out",
        s(&f),
        "--html",
        s(&f),
    ]);
    assert!(
        e.contains("--html") && e.contains("overwrite each other"),
        "{e}"
    );
    // The page beside --out takes its name with .html: the same file.
    let e = crate::common::refused(&[
        "analyze",
        s(&dir),
        "--game",
        "1",
        "--nodes",
        "10",
        "--out",
        s(&f),
    ]);
    assert!(e.contains("overwrite each other"), "{e}");
    assert!(!f.exists());
}

/// A game asked for by pair beyond the run is named as asked, with the run's pairs; an INPUT
/// that is a named pipe or a loop of links is said to be one (it used to be "no such results
/// folder or game file"), and the pipe is never opened.
#[test]
#[cfg(unix)]
fn a_missing_pair_and_odd_inputs_are_named() {
    let dir = tmp("odd-inputs");
    run(&dir, &["--pairs", "2", "--max-plies", "6"]);
    for cmd in ["analyze", "view", "replay", "export"] {
        let e = crate::common::refused(&[cmd, s(&dir), "--pair", "99", "--game", "1"]);
        assert!(
            e.contains("pair 99 game 1") && e.contains("the run has 2 pairs"),
            "{cmd}: {e}"
        );
    }
    let fifo = dir.join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let e = crate::common::refused(&["analyze", s(&fifo), "--game", "1"]);
        assert!(e.contains("a named pipe, not a regular file"), "{e}");
        let e = crate::common::refused(&["view", s(&fifo), "--game", "1"]);
        assert!(e.contains("is a named pipe, not a results folder"), "{e}");
    }
    let looped = dir.join("loop");
    std::os::unix::fs::symlink(&looped, &looped).unwrap();
    let e = crate::common::refused(&["analyze", s(&looped), "--game", "1"]);
    assert!(e.contains("symbolic links"), "{e}");
}

#[cfg(unix)]
#[test]
fn a_folders_own_file_linked_elsewhere_is_not_written_through() {
    let dir = crate::common::tmp("own-links");
    let run = dir.join("run");
    let outside = dir.join("outside.txt");
    std::fs::write(&outside, "precious").unwrap();
    let ran = crate::common::arena(&match_args(
        "random",
        "greedy",
        "8",
        &[
            "--max-plies",
            "20",
            "--no-progress",
            "--out",
            run.to_str().unwrap(),
        ],
    ));
    assert!(ran.status.success());
    // The games index, then a viewer page, made links to a file outside the folder.
    std::fs::remove_file(run.join("games.html")).unwrap();
    std::os::unix::fs::symlink(&outside, run.join("games.html")).unwrap();
    let view = crate::common::arena(&["view", run.to_str().unwrap(), "--game", "15"]);
    let err = String::from_utf8_lossy(&view.stderr);
    assert!(err.contains("outside its folder"), "{err}");
    std::os::unix::fs::symlink(&outside, run.join("games/game-16.html")).unwrap();
    let view = crate::common::arena(&["view", run.to_str().unwrap(), "--game", "16"]);
    assert!(!view.status.success());
    let err = String::from_utf8_lossy(&view.stderr);
    assert!(err.contains("game-16.html is a link to"), "{err}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious");
    let _ = std::fs::remove_dir_all(&dir);
}
