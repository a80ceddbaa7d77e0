//! Training data chunks end to end (`arena label`, `arena tune --data`, `records::data`): the
//! same games give the same chunk bytes at 1 and 2 threads, a chunk reads back as written, is
//! never rewritten, a corrupt or truncated one is refused naming the file and the record, and
//! the tuner fits chunks.

use std::path::{Path, PathBuf};

use arena::records::data::{
    DataError, RECORD_BYTES, from_bytes, read_chunk, to_bytes, write_chunk,
};

use crate::common::{arena, json, match_args, text, tmp};

/// Plays `pairs` pairs of two alphabeta players at a few hundred nodes into `dir`.
fn play(dir: &Path, pairs: &str) {
    let r = arena(&match_args(
        "alphabeta:nodes=300,name=a",
        "alphabeta:nodes=400,name=b",
        pairs,
        &[
            "--seed",
            "52",
            "--threads",
            "2",
            "--no-progress",
            "--out",
            dir.to_str().unwrap(),
        ],
    ));
    assert!(r.status.success(), "{}", text(&r.stderr));
}

/// `arena label GAMES --out OUT --positions N --nodes 1000 --threads T`.
fn label(games: &Path, out: &Path, positions: &str, threads: &str) -> std::process::Output {
    arena(&[
        "label",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--positions",
        positions,
        "--nodes",
        "1000",
        "--threads",
        threads,
    ])
}

/// Where the records of a chunk's bytes start.
fn records_start(bytes: &[u8]) -> usize {
    let h = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let g = u32::from_le_bytes(bytes[12 + h..16 + h].try_into().unwrap()) as usize;
    12 + h + 8 + 16 * g
}

#[test]
fn chunks_are_the_same_at_any_threads_read_back_and_are_never_rewritten() {
    let dir = tmp("chunks");
    let games = dir.join("games");
    play(&games, "3");
    let one = dir.join("one/chunk-0000.jqd");
    let two = dir.join("two/chunk-0000.jqd");
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        let r = label(&games, out, "150", threads);
        assert!(r.status.success(), "{}", text(&r.stderr));
        assert!(
            text(&r.stdout).contains("150 positions of"),
            "{}",
            text(&r.stdout)
        );
    }
    let bytes = std::fs::read(&one).unwrap();
    assert_eq!(
        bytes,
        std::fs::read(&two).unwrap(),
        "1 and 2 threads differ"
    );
    // Round trip: what is read writes back the same bytes.
    let chunk = read_chunk(&one).unwrap();
    assert_eq!(chunk.records.len(), 150);
    assert_eq!(to_bytes(&chunk).unwrap(), bytes);
    assert!(
        chunk
            .records
            .iter()
            .all(|r| r.ply >= 10 && !r.position.in_check())
    );
    assert!(chunk.records.iter().any(|r| r.score != 0 && r.depth > 0));
    assert!(
        chunk
            .records
            .iter()
            .any(|r| r.position.hidden_count(jieqi_core::Color::Red) > 0)
    );
    // The provenance names the bytes.
    let prov = json(&one.with_extension("json"));
    assert_eq!(prov["positions"], 150);
    assert_eq!(prov["bytes"], bytes.len());
    assert_eq!(prov["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(prov["label"]["nodes"], 1000);
    // Never rewritten: refused by the command (exit 2) and by the writer.
    let again = label(&games, &one, "150", "2");
    assert_eq!(again.status.code(), Some(2));
    assert!(
        text(&again.stderr).contains("never rewritten"),
        "{}",
        text(&again.stderr)
    );
    match write_chunk(&one, &chunk) {
        Err(DataError::Io { source, .. }) => {
            assert_eq!(source.kind(), std::io::ErrorKind::AlreadyExists);
        }
        other => panic!("overwrote a chunk: {other:?}"),
    }
    assert_eq!(std::fs::read(&one).unwrap(), bytes);
    let fresh = dir.join("fresh.jqd");
    write_chunk(&fresh, &chunk).unwrap();
    assert_eq!(std::fs::read(&fresh).unwrap(), bytes);
    // Too few positions in the games is said, and nothing is written.
    let short = label(&games, &dir.join("short.jqd"), "100000", "2");
    assert_eq!(short.status.code(), Some(2));
    assert!(
        text(&short.stderr).contains("play more games"),
        "{}",
        text(&short.stderr)
    );
    assert!(!dir.join("short.jqd").exists());
    corrupt_chunks_are_named(&dir, &bytes);
    interrupted_writes_nothing(&dir, &games);
}

/// Ctrl-C during the labelling: exit 130, and neither the chunk nor its provenance is written.
#[cfg(unix)]
fn interrupted_writes_nothing(dir: &Path, games: &Path) {
    let out = dir.join("stopped.jqd");
    let child = std::process::Command::new(crate::common::arena_bin())
        .args([
            "label",
            games.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--positions", "150", "--nodes", "5000000", "--threads", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("nothing written"),
        "{}",
        text(&o.stderr)
    );
    assert!(!out.exists() && !out.with_extension("json").exists());
}

/// Ctrl-C is a Unix signal here.
#[cfg(not(unix))]
fn interrupted_writes_nothing(_: &Path, _: &Path) {}

/// Each fault of a chunk is an error naming the file (and the record where one is at fault).
fn corrupt_chunks_are_named(dir: &Path, bytes: &[u8]) {
    let path = PathBuf::from("bad.jqd");
    let start = records_start(bytes);
    let mut reserved = bytes.to_vec();
    reserved[start + 4 * RECORD_BYTES + 31] |= 0x80;
    let mut stray = bytes.to_vec();
    stray[start + 2 * RECORD_BYTES + 11] |= 0x40;
    let mut magic = bytes.to_vec();
    magic[0] = b'X';
    let mut header = bytes.to_vec();
    header[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let mut long = bytes.to_vec();
    long.push(0);
    let cases: [(&[u8], &str); 6] = [
        (&bytes[..bytes.len() - 20], "bad.jqd: record 150: truncated"),
        (&reserved, "bad.jqd: record 5: reserved bits"),
        (&stray, "bad.jqd: record 3: occupancy bits"),
        (&magic, "bad.jqd: not a .jqd chunk"),
        (&header, "bad.jqd: header of"),
        (&long, "bad.jqd: 1 bytes after the last"),
    ];
    for (b, says) in cases {
        let e = from_bytes(&path, b).unwrap_err().to_string();
        assert!(e.starts_with(says), "{says:?}: {e}");
    }
    // The tuner says the same, exit 2.
    let bad = dir.join("bad.jqd");
    std::fs::write(&bad, &reserved).unwrap();
    let r = arena(&[
        "tune",
        "--data",
        bad.to_str().unwrap(),
        "--out",
        dir.join("w.json").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("bad.jqd: record 5: reserved bits"),
        "{}",
        text(&r.stderr)
    );
}

/// The positions fitted, from the tuner's report ("… (N positions) to fit").
fn to_fit(report: &str) -> usize {
    report
        .split(" positions) to fit")
        .next()
        .and_then(|s| s.rsplit('(').next())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("{report}"))
}

#[test]
fn tune_fits_chunks_and_folders_together() {
    let dir = tmp("tune");
    let games = dir.join("games");
    play(&games, "30");
    let data = dir.join("data");
    let r = label(&games, &data.join("chunk-0000.jqd"), "1500", "2");
    assert!(r.status.success(), "{}", text(&r.stderr));
    let out = dir.join("tuned.json");
    let tuned = arena(&[
        "tune",
        "--data",
        data.to_str().unwrap(),
        "--lambda",
        "0",
        "--iterations",
        "50",
        "--out",
        out.to_str().unwrap(),
    ]);
    let report = text(&tuned.stdout);
    assert!(tuned.status.success(), "{report}{}", text(&tuned.stderr));
    let fit = to_fit(&report);
    assert!(fit > 1000 && fit < 1500, "{report}");
    assert!(out.exists());
    // A folder and a chunk together: more positions than the chunk alone.
    let both = arena(&[
        "tune",
        games.to_str().unwrap(),
        "--data",
        data.join("chunk-0000.jqd").to_str().unwrap(),
        "--iterations",
        "50",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(both.status.success(), "{}", text(&both.stderr));
    assert!(
        to_fit(&text(&both.stdout)) > fit + 1000,
        "{}",
        text(&both.stdout)
    );
    // A chunk is never the tuner's output.
    let r = arena(&[
        "tune",
        "--data",
        data.to_str().unwrap(),
        "--out",
        data.join("chunk-0000.jqd").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("never rewritten"),
        "{}",
        text(&r.stderr)
    );
    // A folder without chunks is refused.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let r = arena(&[
        "tune",
        "--data",
        empty.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("no .jqd chunk"),
        "{}",
        text(&r.stderr)
    );
}
