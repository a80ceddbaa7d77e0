//! `arena match`, `arena replay` and `arena stats` end to end: reproducibility across thread
//! counts, resuming an interrupted run, exact replay, and clear errors.

use std::path::Path;
use std::process::Command;

use crate::common::{arena, arena_bin, csv_without_timing, json, match_args, ok, s, tmp};

fn run_match(dir: &Path, threads: &str, pairs: &str, extra: &[&str]) -> String {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "match",
        "--engine",
        "greedy",
        "--engine",
        "level:easy",
        "--pairs",
        pairs,
        "--seed",
        "42",
        "--threads",
        threads,
        "--out",
        d,
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn same_games_at_any_thread_count() {
    let (one, two) = (tmp("t1"), tmp("t2"));
    let out = run_match(&one, "1", "30", &[]);
    run_match(&two, "2", "30", &[]);
    assert_eq!(csv_without_timing(&one), csv_without_timing(&two));
    assert!(out.contains("Results of greedy vs level:easy"), "{out}");
    assert!(out.contains("Ptnml(0-2):"), "{out}");
    let summary = json(&one.join("summary.json"));
    assert_eq!(summary["pairs"], 30);
    assert_eq!(summary["results"]["games"], 60);
    let jsonl = std::fs::read_to_string(one.join("games.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), 60);
    for d in [one, two] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn an_interrupted_match_resumes_to_the_same_result() {
    let (full, cut) = (tmp("full"), tmp("cut"));
    run_match(&full, "2", "12", &[]);
    run_match(&cut, "2", "12", &[]);
    // Simulate an interruption: keep 7 whole lines and half of the 8th (pair 3 is then incomplete).
    let journal = cut.join("games.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = lines[..7].join("\n");
    kept.push('\n');
    kept.push_str(&lines[7][..lines[7].len() / 2]);
    std::fs::write(&journal, kept).unwrap();
    std::fs::remove_file(cut.join("games.csv")).unwrap();
    // Without --resume the folder is refused; with it the match completes.
    let o = arena(&match_args(
        "greedy",
        "level:easy",
        "12",
        &["--seed", "42", "--out", cut.to_str().unwrap()],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    run_match(&cut, "1", "12", &["--resume"]);
    assert_eq!(csv_without_timing(&full), csv_without_timing(&cut));
    // Resuming with other engines is refused: the fingerprints differ.
    let o = arena(&match_args(
        "random",
        "level:easy",
        "12",
        &["--seed", "42", "--out", cut.to_str().unwrap(), "--resume"],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("fingerprint"));
    for d in [full, cut] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// `arena replay DIR --pair PAIR --game GAME`, to its end.
fn replay(dir: &Path, pair: &str, game: &str) -> std::process::Output {
    arena(&["replay", s(dir), "--pair", pair, "--game", game])
}

/// Rewrites `journal` as the lines of `text` with `edit` applied to line `i` (from 0); with
/// `unchecked`, every line without its checksum (as an older version wrote them), else the other
/// lines as they are.
fn rewrite_journal(
    journal: &Path,
    text: &str,
    unchecked: bool,
    i: usize,
    edit: impl Fn(&mut serde_json::Value),
) {
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(k, l)| {
            if k != i && !unchecked {
                return l.to_string();
            }
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if unchecked {
                v.as_object_mut().unwrap().remove("check");
            }
            if k == i {
                edit(&mut v);
            }
            v.to_string()
        })
        .collect();
    std::fs::write(journal, lines.join("\n") + "\n").unwrap();
}

/// A change to a journal line.
type Edit<'a> = &'a dyn Fn(&mut serde_json::Value);

/// The other decisive result.
fn flipped(result: &serde_json::Value) -> serde_json::Value {
    serde_json::Value::from(if result == "1-0" { "0-1" } else { "1-0" })
}

#[test]
fn replay_reproduces_recorded_games() {
    let dir = tmp("replay");
    run_match(&dir, "2", "3", &[]);
    for (pair, game) in [("0", "1"), ("2", "2")] {
        let out = ok(&["replay", s(&dir), "--pair", pair, "--game", game]);
        assert!(out.contains("identical"), "{out}");
    }
    // Tampering with a recorded move is caught by the line's checksum.
    let journal = dir.join("games.jsonl");
    let original = std::fs::read_to_string(&journal).unwrap();
    let change_move = |v: &mut serde_json::Value| v["moves"][0] = "a0a1R".into();
    rewrite_journal(&journal, &original, false, 0, change_move);
    let o = replay(&dir, "0", "1");
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("games.jsonl:1: its content does not match its checksum"),
        "{e}"
    );
    // Without checksums (a journal of an older version), replay itself finds a changed move,
    // the same moves with another recorded result, and an altered deal (not the deal of the
    // recorded seed).
    let flip = |v: &mut serde_json::Value| v["result"] = flipped(&v["result"]);
    let swap_deal = |v: &mut serde_json::Value| {
        let red = v["deal"]["red"].as_str().unwrap().to_string();
        let swapped: String = red.chars().rev().collect();
        assert_ne!(swapped, red);
        v["deal"]["red"] = swapped.into();
    };
    let cases: [(&str, usize, Edit, &str, &str, &str); 3] = [
        ("a move", 0, &change_move, "0", "1", "DIFFERENT at ply 1"),
        ("the result", 1, &flip, "0", "2", "but the record ends"),
        (
            "the deal",
            2,
            &swap_deal,
            "1",
            "1",
            "is not the deal of its seed",
        ),
    ];
    for (case, line, edit, pair, game, says) in cases {
        rewrite_journal(&journal, &original, true, line, edit);
        let o = replay(&dir, pair, game);
        assert_eq!(o.status.code(), Some(3), "{case}");
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains(says), "{case}: {out}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn replay_by_seed_shows_every_ply_and_stops_at_ply() {
    let out = ok(&[
        "replay", "--seed", "4711", "--red", "greedy", "--black", "random", "--ply", "6",
    ]);
    assert!(out.contains("Deal: red"), "{out}");
    assert!(out.contains("   6. black"), "{out}");
    assert!(!out.contains("   7. "), "{out}");
    assert!(out.contains("Position after ply 6"), "{out}");
}

#[test]
fn bad_match_arguments_fail_before_any_game() {
    for (args, needle) in [
        (vec!["match", "--engine", "greedy"], "exactly two"),
        (
            vec!["match", "--engine", "greedy:nosie=1", "--engine", "random"],
            "unknown parameter 'nosie'",
        ),
        (
            vec!["match", "--engine", "nosuch", "--engine", "random"],
            "no engine of that name",
        ),
        (
            vec![
                "match", "--engine", "greedy", "--engine", "random", "--pairs", "0",
            ],
            "--pairs",
        ),
        (
            vec![
                "match",
                "--engine",
                "greedy",
                "--engine",
                "random",
                "--omniscient",
                "C",
            ],
            "--omniscient",
        ),
        (
            vec![
                "match", "--engine", "greedy", "--engine", "random", "--sprt", "2,0",
            ],
            "--sprt",
        ),
        (
            vec!["match", "--engine", "missing.json", "--engine", "random"],
            "missing.json",
        ),
        (
            vec!["match", "--engine", "greedy", "--engine", "greedy"],
            "two engines are labelled 'greedy'",
        ),
        (
            vec![
                "match", "--engine", "greedy", "--engine", "random", "--alpha", "0.01",
            ],
            "--alpha: only means something with --sprt",
        ),
        (
            vec![
                "match", "--engine", "greedy", "--engine", "random", "--sprt", "0,500",
            ],
            "--sprt: elo0 and elo1",
        ),
        (
            vec![
                "match", "--engine", "greedy", "--engine", "random", "--tc", "10+x",
            ],
            "--tc: '10+x': the increment",
        ),
        (
            vec![
                "match",
                "--engine",
                "greedy",
                "--engine",
                "random",
                "--pairs",
                "18446744073709551615",
            ],
            "--pairs: 18446744073709551615 is more than",
        ),
        (
            vec![
                "match",
                "--engine",
                "greedy",
                "--engine",
                "random",
                "--threads",
                "100000",
            ],
            "--threads: 100000 is more than",
        ),
        (
            vec![
                "replay", "--seed", "1", "--red", "greedy", "--black", "nosuch",
            ],
            "--black: engine spec 'nosuch'",
        ),
        (
            vec![
                "match",
                "--engine",
                "uci:path=/bin/true,timeout=0",
                "--engine",
                "random",
            ],
            "'timeout': '0' is not a whole number of ms from 1 to 86400000",
        ),
    ] {
        let o = arena(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn engine_config_files_load() {
    let dir = tmp("cfg");
    let cfg = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/engines/greedy-noisy.json"
    );
    let out = ok(&match_args(
        cfg,
        "random",
        "2",
        &["--out", dir.to_str().unwrap()],
    ));
    assert!(out.contains("Results of greedy-noisy vs random"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs `arena ARGS...`, which must play to the end and exit 5 (an engine failed in more than
/// 5 % of its games); its stdout.
#[track_caller]
fn engines_failed(args: &[&str]) -> String {
    let o = arena(args);
    assert_eq!(
        o.status.code(),
        Some(5),
        "arena {args:?}: {}{}",
        crate::common::text(&o.stdout),
        crate::common::text(&o.stderr)
    );
    crate::common::text(&o.stdout)
}

/// An engine that fails every game makes the run's exit status 5 (match, tournament, leak,
/// and the merge of its shards). (The share's bound itself: scoreboard's unit test.)
#[test]
fn an_engine_failing_more_than_five_percent_of_its_games_exits_5() {
    let dir = tmp("exit-5");
    let d = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let illegal = "faulty:mode=illegal,after=3";
    let (m, t, l) = (d("match"), d("tournament"), d("leak"));
    engines_failed(&[
        "match", "--engine", illegal, "--engine", "greedy", "--pairs", "3", "--out", &m,
    ]);
    let out = engines_failed(&[
        "tournament",
        "--engine",
        illegal,
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--pairs",
        "1",
        "--out",
        &t,
    ]);
    assert!(
        out.contains(&format!(
            "Note: ENGINE FAILURES: {illegal} failed in 4 of its 4 games"
        )),
        "{out}"
    );
    let md = std::fs::read_to_string(dir.join("tournament/report.md")).unwrap();
    assert!(md.contains("ENGINE FAILURES"), "{md}");
    let out = engines_failed(&["leak", "--engine", illegal, "--pairs", "1", "--out", &l]);
    assert!(out.contains("ENGINE FAILURES: "), "{out}");
    // The shards of a match merge to the same verdict.
    for k in 0..2 {
        let shard = format!("{k}/2");
        engines_failed(&match_args(
            illegal,
            "greedy",
            "4",
            &["--shard", &shard, "--out", &d(&format!("shard-{k}"))],
        ));
    }
    engines_failed(&["merge", &d("shard-0"), &d("shard-1"), "--out", &d("merged")]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn engine_failures_lose_the_game_and_the_match_goes_on() {
    for (spec, reason) in [
        ("faulty:mode=panic,after=2", "engine-panic"),
        ("faulty:mode=illegal,after=2", "illegal-move"),
        ("faulty:mode=error,after=2", "engine-error"),
    ] {
        let dir = tmp(reason);
        let out = engines_failed(&match_args(
            spec,
            "random",
            "3",
            &["--out", dir.to_str().unwrap()],
        ));
        assert!(out.contains(&format!("{reason} 6")), "{spec}: {out}");
        assert!(
            out.contains(&format!(
                "ENGINE FAILURES: {spec} failed in 6 of its 6 games (100.0 %), more than the 5 %"
            )),
            "{out}"
        );
        assert!(
            out.contains(&format!("{spec} 6")),
            "failures counted against the engine: {out}"
        );
        assert!(out.contains("Ptnml(0-2): [3, 0, 0, 0, 0]"), "{out}");
        let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        assert_eq!(
            csv.lines().filter(|l| l.contains(reason)).count(),
            6,
            "{csv}"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
    // A move over the timeout loses too.
    let dir = tmp("timeout");
    let out = engines_failed(&match_args(
        "faulty:mode=slow,after=1,ms=60",
        "random",
        "1",
        &["--move-timeout", "20", "--out", dir.to_str().unwrap()],
    ));
    assert!(out.contains("timeout 2"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn omniscient_runs_are_labelled() {
    let dir = tmp("omni");
    let out = ok(&match_args(
        "greedy:name=seer",
        "greedy",
        "2",
        &["--omniscient", "A", "--out", dir.to_str().unwrap()],
    ));
    assert!(out.contains("Omniscient: A"), "{out}");
    let summary = json(&dir.join("summary.json"));
    assert_eq!(summary["omniscient"], "a");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_slow_engine_loses_on_time() {
    // One second on the clock and 400 ms a move from the second move on: at most two slow moves
    // fit (unloaded, the fourth move finds 200 ms left; a loaded machine may cut it sooner). The
    // faulty engine ignores its stop flag, so it is given up, not waited for.
    let dir = tmp("forfeit");
    let started = std::time::Instant::now();
    let out = ok(&match_args(
        "faulty:mode=slow,after=1,ms=400",
        "random",
        "1",
        &["--tc", "1", "--out", dir.to_str().unwrap()],
    ));
    // Two games of a one-second clock each: 8 s leaves a margin of over 5 s.
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(8), "took {took:?}");
    assert!(out.contains("Terminations: time-forfeit 2\n"), "{out}");
    // Losing on time is not an engine failure.
    assert!(
        out.contains("faulty:mode=slow,after=1,ms=400 0, random 0"),
        "{out}"
    );
    let jsonl = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    for line in jsonl.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(g["reason"], "time-forfeit", "{line}");
        // The faulty engine loses on its own move: as Red after an even number of plies.
        let faulty_red = g["red"] != "random";
        assert_eq!(
            g["result"],
            if faulty_red { "0-1" } else { "1-0" },
            "{line}"
        );
        let plies = g["plies"].as_u64().unwrap();
        assert_eq!(plies % 2 == 0, faulty_red, "{line}");
        // Its clock is charged: its first (quick) move stands, and 1 s holds at most two of
        // 400 ms (exactly two unless the machine is so loaded that a 400 ms move takes 600).
        let moves = plies / 2;
        assert!(
            (1..=3).contains(&moves),
            "{moves} moves of the faulty engine: {line}"
        );
        let detail = g["detail"].as_str().unwrap();
        assert!(detail.contains("on the clock"), "{detail}");
        assert!(detail.contains("given up"), "{detail}");
    }
    let summary = json(&dir.join("summary.json"));
    assert_eq!(summary["tc"], "1");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_move_timeout_stops_a_runaway_without_waiting_for_it() {
    // Each move would take 20 s; the hard limit gives it up after 150 ms (plus a short grace).
    let dir = tmp("runaway");
    let started = std::time::Instant::now();
    // Every game lost by the timeout, an engine failure: exit 5.
    let out = engines_failed(&match_args(
        "faulty:mode=slow,after=1,ms=20000",
        "random",
        "1",
        &["--move-timeout", "150", "--out", dir.to_str().unwrap()],
    ));
    // Waiting for the moves would take 40 s: 10 s leaves margins of 9 s and 30 s.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "waited {:?}",
        started.elapsed()
    );
    assert!(out.contains("Terminations: timeout 2\n"), "{out}");
    assert!(
        out.contains("faulty:mode=slow,after=1,ms=20000 2, random 0"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn clocks_that_are_kept_lose_nothing_and_are_recorded() {
    let dir = tmp("clock");
    let out = ok(&match_args(
        "greedy",
        "random:tc=5+0.05",
        "2",
        &["--tc", "10+0.1", "--out", dir.to_str().unwrap()],
    ));
    assert!(!out.contains("time-forfeit"), "{out}");
    assert!(
        out.contains("(tc=10+0.1 (random:tc=5+0.05: tc=5+0.05), "),
        "{out}"
    );
    assert!(out.contains("Per move: greedy "), "{out}");
    let first = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let g: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert!(g["search"][0]["ms"].is_f64(), "{g}");
    let setup = json(&dir.join("match.json"));
    assert_eq!(setup["tc"], "10+0.1");
    assert_eq!(setup["engines"][1][1], "random:tc=5+0.05");
    // The per-engine clock is in the spec: a replay finds it there. A clock game is shown as
    // recorded unless --recheck asks to play it again (these engines ignore the clock, so it
    // comes out the same).
    let shown = ok(&["replay", dir.to_str().unwrap(), "--game", "1"]);
    assert!(
        shown.starts_with("Not played again: the run played on a clock"),
        "{shown}"
    );
    let replayed = ok(&[
        "replay",
        dir.to_str().unwrap(),
        "--pair",
        "0",
        "--game",
        "1",
        "--recheck",
    ]);
    assert!(replayed.contains("identical"), "{replayed}");
    let _ = std::fs::remove_dir_all(dir);
}

/// One thread and one pair are said in the singular.
#[test]
fn singular_counts_read_as_such() {
    let dir = tmp("singular");
    let out = ok(&match_args(
        "greedy",
        "random",
        "1",
        &["--threads", "1", "--out", s(&dir)],
    ));
    assert!(
        out.contains(", 1 thread, seed 1, rules standard, 1 pair)"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Pairs whose two games are both in a journal: the finished pairs a resume must keep.
fn finished_pairs(dir: &Path) -> std::collections::BTreeSet<u64> {
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap_or_default();
    let mut games: std::collections::BTreeMap<u64, u32> = Default::default();
    for line in text.lines() {
        if let Ok(g) = serde_json::from_str::<serde_json::Value>(line) {
            *games.entry(g["pair"].as_u64().unwrap()).or_default() += 1;
        }
    }
    games
        .into_iter()
        .filter(|&(_, n)| n == 2)
        .map(|(p, _)| p)
        .collect()
}

/// SIGKILL at seeded random moments of a run and of its resumes (including the final rewrite of
/// `games.jsonl`) never loses a finished pair, and the run finally equals an uninterrupted one.
#[test]
fn killing_a_resume_loses_no_finished_pair() {
    let whole = tmp("kill-whole");
    run_match(&whole, "2", "1500", &[]);
    let dir = tmp("kill");
    let d = dir.to_str().unwrap().to_string();
    let mut kept = std::collections::BTreeSet::new();
    // A fixed pseudo-random schedule of kill times (ms), short and long.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut kills = 0;
    for round in 0..12 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut args = vec![
            "match",
            "--engine",
            "greedy",
            "--engine",
            "level:easy",
            "--pairs",
            "1500",
            "--seed",
            "42",
            "--threads",
            "2",
            "--out",
            &d,
        ];
        if round > 0 {
            args.push("--resume");
        }
        let mut child = Command::new(arena_bin())
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5 + x % 700));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        child.wait().unwrap();
        let now = finished_pairs(&dir);
        eprintln!(
            "round {round}: killed after {} ms: {} pairs kept",
            5 + x % 700,
            now.len()
        );
        assert!(
            kept.is_subset(&now),
            "round {round}: finished pairs lost: {:?}",
            kept.difference(&now).collect::<Vec<_>>()
        );
        kept = now;
    }
    eprintln!(
        "{kills} of 12 runs killed; {} pairs finished before the last resume",
        kept.len()
    );
    assert!(kills >= 3, "only {kills} runs were killed");
    run_match(&dir, "2", "1500", &["--resume"]);
    assert_eq!(finished_pairs(&dir).len(), 1500);
    assert_eq!(csv_without_timing(&dir), csv_without_timing(&whole));
}

/// Two runs never write one results folder at once; the lock of a killed run is taken over.
#[test]
fn a_second_writer_of_a_folder_is_refused() {
    let dir = tmp("lock");
    let d = dir.to_str().unwrap().to_string();
    let args = match_args(
        "greedy",
        "level:easy",
        "20000",
        &["--threads", "1", "--out", &d],
    );
    let mut first = Command::new(arena_bin())
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !dir.join("games.jsonl").is_file() {
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let o = arena(&match_args(
        "greedy",
        "level:easy",
        "20000",
        &["--threads", "1", "--out", &d, "--resume"],
    ));
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("is in use by another arena run") && e.contains(".arena.lock"),
        "{e}"
    );
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(
        dir.join(".arena.lock").is_file(),
        "the killed run left its lock"
    );
    // The killed run's lock is stale: a resume takes it over (to fewer pairs, to be quick).
    ok(&match_args(
        "greedy",
        "level:easy",
        "5",
        &["--threads", "1", "--out", &d, "--resume"],
    ));
    assert!(!dir.join(".arena.lock").exists());
}

/// `--resume` with only `--out` continues the recorded run (here to more pairs); flags that would
/// change its games are refused, and so is another command's folder.
#[test]
fn resume_needs_only_the_folder() {
    let (dir, whole) = (tmp("resume-alone"), tmp("resume-whole"));
    run_match(&dir, "1", "4", &[]);
    run_match(&whole, "2", "8", &[]);
    let d = dir.to_str().unwrap();
    let out = ok(&[
        "match",
        "--out",
        d,
        "--resume",
        "--pairs",
        "8",
        "--threads",
        "2",
    ]);
    assert!(out.contains("Games: 16"), "{out}");
    assert_eq!(csv_without_timing(&dir), csv_without_timing(&whole));
    let out = ok(&["match", "--out", d, "--resume"]);
    assert!(out.contains("no games played this run"), "{out}");
    let o = arena(&["match", "--out", d, "--resume", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("--seed cannot change it"), "{e}");
    let o = arena(&["tournament", "--out", d, "--resume"]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("records an `arena match` run"), "{e}");
    let empty = tmp("resume-empty").join("folder");
    let o = arena(&["leak", "--out", empty.to_str().unwrap(), "--resume"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such folder"));
    std::fs::create_dir_all(&empty).unwrap();
    let o = arena(&["leak", "--out", empty.to_str().unwrap(), "--resume"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("holds no recorded run"));
    let _ = std::fs::remove_dir_all(empty);
}

/// `--resume` refuses a journal line whose content was changed after it was written (a flipped
/// result), naming the line.
#[test]
fn resume_refuses_an_edited_journal_line() {
    let dir = tmp("resume-edited");
    run_match(&dir, "1", "3", &[]);
    let journal = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    rewrite_journal(&journal, &text, false, 3, |g| {
        g["result"] = flipped(&g["result"])
    });
    let d = dir.to_str().unwrap();
    let o = arena(&["match", "--out", d, "--resume", "--pairs", "4"]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("games.jsonl:4: its content does not match its checksum"),
        "{e}"
    );
}

/// A field of a games.csv row by column name.
fn csv_rows(dir: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

#[test]
fn recorded_games_are_found_by_number_shown_and_exported() {
    let dir = tmp("number");
    run_match(&dir, "2", "3", &[]);
    let d = dir.to_str().unwrap();
    // games.csv numbers the games 1.. in pair order; replay finds "game 4" by that number.
    let rows = csv_rows(&dir);
    let numbers: Vec<&str> = rows.iter().map(|r| r["number"].as_str()).collect();
    assert_eq!(numbers, ["1", "2", "3", "4", "5", "6"]);
    assert_eq!(
        (rows[3]["pair"].as_str(), rows[3]["game"].as_str()),
        ("1", "2")
    );
    let out = ok(&["replay", d, "--game", "4"]);
    assert!(
        out.contains("identical") && out.contains("(pair 1, game 2)"),
        "{out}"
    );
    // --show prints the record without running an engine: every ply with its search info, the
    // boards and the result, the same plies a replay prints.
    let shown = ok(&["replay", d, "--game", "4", "--show"]);
    let plies: usize = rows[3]["plies"].parse().unwrap();
    let ply_lines = |text: &str| {
        text.lines()
            .filter(|l| l.contains("  | nodes "))
            .map(|l| l.split("  | ").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(ply_lines(&shown).len(), plies, "{shown}");
    assert_eq!(ply_lines(&shown), ply_lines(&out));
    assert!(
        shown.contains(&format!("Result: {} (", rows[3]["result"])),
        "{shown}"
    );
    assert!(
        shown.contains("true board (every hidden identity shown; referee only)")
            && !shown.contains("identical")
    );
    // Bad numbers are named.
    for (args, says) in [
        (vec!["--game", "7"], "there is no game 7"),
        (vec!["--game", "0"], "game numbers start at 1"),
        (vec!["--pair", "1", "--game", "3"], "with --pair it is 1"),
    ] {
        let mut all = vec!["replay", d];
        all.extend(args);
        let o = arena(&all);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains(says), "{o:?}");
    }
    // PGN: one game per number, with the variant, the start FEN and moves that replay.
    let pgn = ok(&["export", d]);
    assert_eq!(pgn.matches("[Variant \"jieqi\"]").count(), 6, "{pgn}");
    assert!(
        pgn.contains("[SetUp \"1\"]\n[FEN \"xxxxkxxxx/9/1x5x1/"),
        "{pgn}"
    );
    assert!(pgn.contains("[Round \"4\"]"), "{pgn}");
    let one = ok(&["export", d, "--game", "4"]);
    assert!(one.contains(&format!("[PlyCount \"{plies}\"]")), "{one}");
    assert!(
        one.lines().all(|l| l.len() < 80 || l.starts_with('[')),
        "{one}"
    );
    // JieqiBox: its notation JSON, a FEN after every move, the last one the current position.
    let jb: serde_json::Value =
        serde_json::from_str(&ok(&["export", d, "--game", "4", "--format", "jieqibox"])).unwrap();
    let moves = jb["moves"].as_array().unwrap();
    assert_eq!(moves.len(), plies);
    assert_eq!(jb["metadata"]["currentFen"], moves[plies - 1]["fen"]);
    assert_eq!(jb["metadata"]["flipMode"], "random");
    for m in moves {
        assert!((4..=6).contains(&m["data"].as_str().unwrap().len()), "{m}");
        jieqi_core::Position::from_fen(m["fen"].as_str().unwrap(), &jieqi_core::Rules::standard())
            .unwrap();
    }
    let folder = dir.join("jieqibox");
    let o = arena(&["export", d, "--format", "jieqibox"]);
    assert_eq!(o.status.code(), Some(2), "several games need a folder");
    ok(&[
        "export",
        d,
        "--format",
        "jieqibox",
        "--out",
        folder.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 6);
    // An altered move is refused by export and flagged by --show (without checksums, as an
    // older journal holds them).
    let journal = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    rewrite_journal(&journal, &text, true, 3, |v| v["moves"][2] = "a0a9".into());
    let o = arena(&["replay", d, "--game", "4", "--show"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("INCONSISTENT: at ply 3: recorded a0a9"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = arena(&["export", d, "--game", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("game 4 (pair 1, game 2): at ply 3"),
        "{o:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn time_limited_games_are_shown_not_replayed() {
    let dir = tmp("movetime-show");
    let d = dir.to_str().unwrap();
    ok(&[
        "match",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--movetime",
        "5",
        "--pairs",
        "1",
        "--out",
        d,
    ]);
    let out = ok(&["replay", d, "--game", "2"]);
    assert!(
        out.starts_with("Not played again: the run limited moves by time (--movetime 5)"),
        "{out}"
    );
    assert!(out.contains("Recorded game: pair 0, game 2"), "{out}");
    let out = ok(&["replay", d, "--game", "2", "--recheck"]);
    assert!(out.starts_with("Replay: "), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn threads_beyond_the_pairs_are_said() {
    let dir = tmp("threads-note");
    let o = arena(&match_args(
        "greedy",
        "random",
        "1",
        &["--threads", "8", "--out", dir.to_str().unwrap()],
    ));
    assert!(o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("note: --threads 8: 1 used, one per pair to play (1 pair)"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn replay_and_export_refuse_what_does_not_hold_up() {
    let dir = tmp("hold-up");
    run_match(&dir, "1", "2", &[]);
    let d = dir.to_str().unwrap();
    // --ply K short of the end compares the first K plies only.
    let out = ok(&["replay", d, "--game", "1", "--ply", "4"]);
    assert!(out.contains("identical: the first 4 of its "), "{out}");
    // --ply past the end says so, and shows the end.
    let out = ok(&["replay", d, "--game", "1", "--ply", "99999"]);
    assert!(
        out.contains("note: --ply 99999 is past the game's end at ply "),
        "{out}"
    );
    assert!(out.contains("Result: "), "{out}");
    // Flags of a replay by seed are refused with a folder, and the other way round.
    let o = arena(&["replay", d, "--game", "1", "--nodes", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--nodes is for a replay by --seed"));
    let o = arena(&[
        "replay", "--seed", "3", "--red", "greedy", "--black", "random", "--show",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--show: is for a game recorded"));
    // Export: a symbolic link's target is written (the link stays), the folder's own records
    // are refused, and an output that cannot be written is exit status 4.
    let target = dir.join("target.pgn");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.pgn");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    ok(&["export", d, "--out", link.to_str().unwrap()]);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .contains("[Variant \"jieqi\"]")
    );
    // A link to a file not made yet makes it; a device is written through, never replaced.
    let fresh = dir.join("fresh.pgn");
    let pending = dir.join("pending.pgn");
    std::os::unix::fs::symlink(&fresh, &pending).unwrap();
    ok(&[
        "export",
        d,
        "--game",
        "1",
        "--out",
        pending.to_str().unwrap(),
    ]);
    assert!(
        std::fs::read_to_string(&fresh)
            .unwrap()
            .starts_with("[Event ")
    );
    let through = ok(&["export", d, "--game", "1", "--out", "/dev/stdout"]);
    assert!(through.starts_with("[Event "), "{through}");
    let o = arena(&[
        "export",
        d,
        "--out",
        dir.join("games.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the results folder's own games.jsonl"));
    let o = arena(&[
        "export",
        d,
        "--out",
        dir.join("games.csv/x.pgn").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(4), "{o:?}");
    // Records edited without their checksums (as an older journal holds them): a flipped result
    // and another run's fingerprint are caught; a cut last line is said, not silently dropped.
    let journal = dir.join("games.jsonl");
    let original = std::fs::read_to_string(&journal).unwrap();
    let edit = |i: usize, f: &dyn Fn(&mut serde_json::Value)| {
        rewrite_journal(&journal, &original, true, i, f);
    };
    edit(0, &|v| v["result"] = flipped(&v["result"]));
    let o = arena(&["export", d, "--game", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("after its"),
        "{o:?}"
    );
    let o = arena(&["replay", d, "--game", "1", "--show"]);
    assert_eq!(o.status.code(), Some(3));
    edit(1, &|v| {
        v["fingerprint"] = serde_json::Value::String("0123456789abcdef".into())
    });
    let o = arena(&["replay", d, "--game", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("belongs to another run"),
        "{o:?}"
    );
    let cut = &original[..original.len() - original.lines().last().unwrap().len() / 2 - 1];
    std::fs::write(&journal, cut).unwrap();
    let o = arena(&["export", d]);
    assert!(o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("was cut short"),
        "{o:?}"
    );
    let o = arena(&["replay", d, "--game", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("cut short by an interruption"),
        "{o:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Two identical matches without `--out`, started at once: each gets a folder of its own
/// (`results/<time>-greedy-vs-random`, then `-2`), and both finish. The second used to exit 2,
/// "… is in use by another arena run", when both started in the same second.
#[test]
fn two_runs_started_at_once_get_folders_of_their_own() {
    let dir = tmp("same-second");
    let start = || {
        Command::new(arena_bin())
            .args([
                "match", "--engine", "greedy", "--engine", "random", "--pairs", "50",
            ])
            .args(["--threads", "1", "--no-progress"])
            .current_dir(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("arena starts")
    };
    let runs = [start(), start()];
    let mut folders = Vec::new();
    for run in runs {
        let o = run.wait_with_output().unwrap();
        let out = crate::common::text(&o.stdout);
        assert!(
            o.status.success(),
            "{out}{}",
            crate::common::text(&o.stderr)
        );
        let folder = out
            .lines()
            .find_map(|l| l.strip_prefix("Results in "))
            .expect("a Results line")
            .to_string();
        assert!(dir.join(&folder).join("summary.json").is_file(), "{folder}");
        folders.push(folder);
    }
    assert_ne!(folders[0], folders[1]);
    folders.sort();
    if folders[0].get(..23) == folders[1].get(..23) {
        // The same second: one name, and the same with -2.
        assert_eq!(format!("{}-2", folders[0]), folders[1], "{folders:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A shard whose journal ends in a line cut short (a killed run) merges with `--partial`; the
/// merge says so (through its notes: the run layer prints nothing) and counts that pair missing.
#[test]
fn a_shard_line_cut_short_is_noted_and_its_pair_missing() {
    let root = tmp("merge-cut");
    let (a, b) = (root.join("s0"), root.join("s1"));
    for (dir, shard) in [(&a, "0/2"), (&b, "1/2")] {
        ok(&match_args(
            "greedy",
            "random",
            "4",
            &["--shard", shard, "--no-progress", "--out", s(dir)],
        ));
    }
    let journal = b.join("games.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let cut = text.trim_end().rfind('\n').unwrap() + 40;
    std::fs::write(&journal, &text[..cut]).unwrap();
    let merged = root.join("merged");
    let o = arena(&["merge", s(&a), s(&b), "--partial", "--out", s(&merged)]);
    let err = crate::common::text(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(&format!(
            "note: the last line of {} was cut short; that pair counts as missing",
            journal.display()
        )),
        "{err}"
    );
    assert_eq!(
        json(&merged.join("summary.json"))["results"]["games"],
        6,
        "{err}"
    );
}
