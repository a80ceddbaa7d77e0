//! Files the user names for the arena to read: only regular files are read, each up to a bound.
//! A named pipe is refused, never waited on (opening one blocks until a writer comes); a device
//! such as `/dev/zero` is refused, never read to its end (it has none).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{arena_bin, s, text, tmp};

/// Runs `arena ARGS...`, which must be refused (exit 2) within 60 s, its stderr saying `says`;
/// a run still going then is killed and the test fails (it would otherwise hang on a pipe).
#[track_caller]
fn refused_soon(args: &[&str], says: &str) {
    let mut child = Command::new(arena_bin())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arena binary runs");
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().expect("waitable").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("arena {args:?}: still running after 60 s (blocked on the file?)");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "arena {args:?}: {err}");
    assert!(err.contains(says), "arena {args:?}: {err}");
}

/// A named pipe at `path`, or `None` (the test is then skipped) where `mkfifo` is missing.
fn fifo(path: &Path) -> Option<()> {
    match Command::new("mkfifo").arg(path).status() {
        Ok(s) if s.success() => Some(()),
        other => {
            eprintln!("SKIPPED: mkfifo failed: {other:?}");
            None
        }
    }
}

/// A one-position suite (mate in 1), for the engine-spec cases.
fn suite(dir: &Path) -> String {
    let path = dir.join("one.epd");
    std::fs::write(
        &path,
        "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1 dm 1; id \"one\";\n",
    )
    .unwrap();
    s(&path).to_string()
}

/// Every way the arena is given a file, with `file` in it.
fn cases(dir: &Path, file: &str) -> Vec<Vec<String>> {
    let suite = suite(dir);
    let out = s(&dir.join("out")).to_string();
    let tuned = s(&dir.join("tuned.json")).to_string();
    let eval = format!("alphabeta:depth=1,eval={file}");
    [
        vec!["perft", "--rules", file, "--depth", "1"],
        vec![
            "solve",
            file,
            "--rules",
            "xiangqi",
            "--engine",
            "greedy",
            "--no-progress",
            "--out",
            &out,
        ],
        vec![
            "solve",
            &suite,
            "--rules",
            "xiangqi",
            "--engine",
            &eval,
            "--no-progress",
            "--out",
            &out,
        ],
        vec!["tune", s(dir), "--out", &tuned, "--eval", file],
    ]
    .into_iter()
    .map(|c| c.into_iter().map(String::from).collect())
    .collect()
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_not_waited_on() {
    let dir = tmp("fifo");
    let pipe = dir.join("fifo.epd");
    if fifo(&pipe).is_none() {
        return;
    }
    // Through a link, too: what the path names in the end is looked at.
    let link = dir.join("link.json");
    std::os::unix::fs::symlink("fifo.epd", &link).unwrap();
    for file in [&pipe, &link] {
        for args in cases(&dir, s(file)) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            refused_soon(&args, "is not a regular file (a named pipe)");
            refused_soon(&args, s(file));
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn a_device_is_refused_not_read_to_its_end() {
    let dir = tmp("device");
    for args in cases(&dir, "/dev/zero") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused_soon(&args, "/dev/zero");
        refused_soon(&args, "is not a regular file (a device)");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// An evaluation weights file is bounded as every other file is: 1 MiB.
#[test]
fn a_weights_file_over_a_mebibyte_is_refused() {
    let dir = tmp("large");
    let big = dir.join("big.json");
    // Valid JSON (the default weights), padded past the bound.
    std::fs::write(&big, format!("{}{{}}", " ".repeat(1 << 20))).unwrap();
    let big = s(&big).to_string();
    let suite = suite(&dir);
    let out = s(&dir.join("out")).to_string();
    let eval = format!("alphabeta:depth=1,eval={big}");
    let tuned = s(&dir.join("tuned.json")).to_string();
    for args in [
        vec![
            "solve",
            &suite,
            "--rules",
            "xiangqi",
            "--engine",
            &eval,
            "--no-progress",
            "--out",
            &out,
        ],
        vec!["tune", s(&dir), "--out", &tuned, "--eval", &big],
    ] {
        refused_soon(&args, "larger than 1048576 bytes");
        refused_soon(&args, &big);
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A leading UTF-8 byte order mark (some editors write one) is read past in every kind of text
/// file the arena reads, as it always was in EPD suites: a tournament config (read by
/// `tournament` and `leak`), a rules file, an engine file, an evaluation weights file.
#[test]
fn a_byte_order_mark_is_read_past_in_every_text_file() {
    let dir = tmp("bom");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bom = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, format!("\u{feff}{text}")).unwrap();
        s(&path).to_string()
    };
    let rules = bom(
        "rules.json",
        &std::fs::read_to_string(root.join("configs/rules/xiangqi.json")).unwrap(),
    );
    let engine = bom(
        "engine.json",
        r#"{"name": "noisy", "engine": "greedy", "params": {"noise": 0.3}}"#,
    );
    let weights = bom(
        "weights.json",
        &std::fs::read_to_string(root.join("configs/eval/default.json")).unwrap(),
    );
    let config = bom(
        "c.json",
        r#"{"engines": ["greedy", "random"], "pairs": 2, "leak": {"engines": ["greedy"]}}"#,
    );
    let eval = format!("alphabeta:depth=1,eval={weights}");
    let out = s(&dir.join("out")).to_string();
    for args in [
        vec!["perft", "--rules", &rules, "--depth", "1"],
        vec!["tournament", "--config", &config, "--out", &out, "--check"],
        vec!["leak", "--config", &config, "--out", &out, "--check"],
        vec![
            "match", "--engine", &engine, "--engine", &eval, "--rules", &rules, "--out", &out,
            "--check",
        ],
    ] {
        let o = Command::new(arena_bin())
            .args(&args)
            .output()
            .expect("the arena binary runs");
        assert!(o.status.success(), "arena {args:?}: {}", text(&o.stderr));
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The arena's own files in a results folder are read as a user's are: a named pipe put in
/// place of the journal is refused by every command that reads it, never waited on.
#[cfg(unix)]
#[test]
fn a_named_pipe_in_a_results_folder_is_refused_not_waited_on() {
    let dir = tmp("fifo-run");
    let run = dir.join("run");
    let played = Command::new(arena_bin())
        .args([
            "match", "--engine", "random", "--engine", "greedy", "--pairs", "2",
        ])
        .args(["--threads", "1", "--no-progress", "--out", s(&run)])
        .output()
        .unwrap();
    assert!(played.status.success(), "{}", text(&played.stderr));
    let journal = run.join("games.jsonl");
    std::fs::remove_file(&journal).unwrap();
    if fifo(&journal).is_none() {
        return;
    }
    let merged = s(&dir.join("merged")).to_string();
    for args in [
        vec!["match", "--out", s(&run), "--resume", "--no-progress"],
        vec!["merge", s(&run), "--out", &merged],
        vec!["replay", s(&run), "--game", "1"],
        vec!["export", s(&run)],
        vec!["analyze", s(&run), "--game", "1", "--nodes", "100"],
    ] {
        refused_soon(&args, "is not a regular file (a named pipe)");
    }
    let _ = std::fs::remove_dir_all(dir);
}
