//! External engines that fail: one that crashes, one that hangs, one that answers an illegal
//! move and one that answers garbage. Each failure loses its game with the reason recorded and
//! counted against the engine, the process is restarted for the next game, and the match
//! finishes.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use crate::common::{arena, arena_bin, match_args, scripted_engine, tmp};

/// A shell-script engine that handshakes properly and answers `go` with `on_go`.
fn script(dir: &Path, on_go: &str) -> String {
    scripted_engine(
        dir,
        "scripted",
        &["option name Hash type spin default 1 min 1 max 8"],
        on_go,
    )
}

#[test]
fn failing_external_engines_lose_their_games_and_the_match_goes_on() {
    for (name, on_go, reason) in [
        ("crash", "exit 3", "engine-crash"),
        // It exits, but a child it started keeps its output open: still a crash, at once.
        ("orphan", "sleep 30 & exit 3", "engine-crash"),
        ("hang", "exec sleep 30", "timeout"),
        (
            "illegal",
            "echo 'info depth 1 nodes 5'; echo 'bestmove a0a9'",
            "illegal-move",
        ),
        ("garbage", "echo 'bestmove (none)'", "protocol-error"),
        // A flood of output is cut off by the byte cap, not read into memory for ever.
        ("flood", "exec yes 'info string flood'", "protocol-error"),
        (
            "longline",
            "head -c 300000 /dev/zero | tr '\\0' x; echo; exec sleep 30",
            "protocol-error",
        ),
    ] {
        let dir = tmp(name);
        // Only the hang is to end by the timeout, so only its is short: every other script
        // answers at once and must not lose on time however loaded the machine is.
        let timeout = if name == "hang" { 300 } else { 60_000 };
        let spec = format!(
            "uci:path={},option.Hash=4,timeout={timeout}",
            script(&dir, on_go)
        );
        let out_dir = dir.join("out");
        let o = arena(&match_args(
            &spec,
            "random",
            "2",
            &[
                "--threads",
                "2",
                "--nodes",
                "10",
                "--out",
                out_dir.to_str().unwrap(),
            ],
        ));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            crate::common::played_to_the_end(&o),
            "{name}: {out}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        // Four games, four losses for the script: each game started a fresh process.
        assert!(out.contains(&format!("{reason} 4")), "{name}: {out}");
        assert!(
            out.contains(&format!("{spec} 4")),
            "{name}: failures counted: {out}"
        );
        assert!(out.contains("Ptnml(0-2): [2, 0, 0, 0, 0]"), "{name}: {out}");
        let csv = std::fs::read_to_string(out_dir.join("games.csv")).unwrap();
        assert_eq!(
            csv.lines().filter(|l| l.contains(reason)).count(),
            4,
            "{csv}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn engines_that_do_not_start_are_refused_before_the_match() {
    let dir = tmp("refused");
    // An executable that is not a UCI engine: no `uciok` within init_timeout.
    let silent = dir.join("silent.sh");
    std::fs::write(&silent, "#!/bin/sh\nexec sleep 30\n").unwrap();
    std::fs::set_permissions(&silent, std::fs::Permissions::from_mode(0o755)).unwrap();
    for (spec, says) in [
        (
            format!("uci:path={}", dir.join("missing").display()),
            "cannot start",
        ),
        (
            format!("uci:path={},init_timeout=200", silent.display()),
            "no 'uciok'",
        ),
        (
            format!(
                "uci:path={},option.Hsah=4",
                script(&dir, "echo 'bestmove a0a1'")
            ),
            "option 'Hsah' is not one of the engine's options (hash)",
        ),
        (
            format!(
                "uci:path={},option.Hash=99",
                script(&dir, "echo 'bestmove a0a1'")
            ),
            "option 'Hash': 99 is outside the engine's range 1..8",
        ),
        (
            format!(
                "uci:path={},option.Hash=big",
                script(&dir, "echo 'bestmove a0a1'")
            ),
            "'big' is not a whole number",
        ),
    ] {
        let o = arena(&match_args(&spec, "random", "1", &[]));
        assert_eq!(o.status.code(), Some(2), "{spec}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{spec}: {err}");
    }
    // Rules no UCI_Variant names are refused for an external engine (it would play others).
    let rules = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/rules/standard-rule60.json"
    );
    let spec = format!("uci:path={}", script(&dir, "echo 'bestmove a0a1'"));
    let o = arena(&match_args(&spec, "random", "1", &["--rules", rules]));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("are no UCI_Variant"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The script engine of [`script`], printing `complaint` on its error output when it starts.
fn complaining_script(dir: &Path, on_go: &str, complaint: &str) -> String {
    let path = script(dir, on_go);
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replacen(
        "#!/bin/sh\n",
        &format!("#!/bin/sh\necho '{complaint}' >&2\n"),
        1,
    );
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn engine_error_output_and_traffic_are_kept_in_the_results_folder() {
    let dir = tmp("logs");
    // It answers `go` with an illegal move, after saying so on stderr.
    let path = complaining_script(
        &dir,
        "echo 'about to blunder' >&2; echo 'info depth 1 nodes 5 pv a0a9'; echo 'bestmove a0a9'",
        "scripted engine starting",
    );
    let out_dir = dir.join("out");
    let run = |extra: &[&str]| {
        let _ = std::fs::remove_dir_all(&out_dir);
        let mut args = vec![
            "match".to_string(),
            "--engine".into(),
            format!("uci:path={path},name=blunderer"),
            "--engine".into(),
            "random".into(),
            "--pairs".into(),
            "1".into(),
            "--nodes".into(),
            "10".into(),
            "--out".into(),
            out_dir.to_str().unwrap().into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let o = Command::new(arena_bin()).args(&args).output().unwrap();
        assert!(
            crate::common::played_to_the_end(&o),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    // Without --log: the error output only, tagged with the process, from every process.
    run(&[]);
    let logs = out_dir.join("logs");
    let stderr = std::fs::read_to_string(logs.join("01-blunderer.stderr.log")).unwrap();
    assert!(stderr.contains("] scripted engine starting"), "{stderr}");
    assert!(stderr.contains("] about to blunder"), "{stderr}");
    assert!(stderr.lines().all(|l| l.starts_with("[pid ")), "{stderr}");
    let names: Vec<String> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["01-blunderer.stderr.log"],
        "no traffic without --log"
    );
    // With --log: each game's traffic, named by its number in games.csv.
    run(&["--log"]);
    for number in [1, 2] {
        let t = std::fs::read_to_string(logs.join(format!("game-{number}.log"))).unwrap();
        // Game 1 starts the process; game 2 takes it from the pool (the referee, not the
        // engine, refused its move, so it is healthy).
        let start = if number == 1 {
            ["blunderer > uci", "blunderer < uciok"]
        } else {
            ["blunderer > ucinewgame", "blunderer < readyok"]
        };
        for want in start.into_iter().chain(["blunderer > go nodes 10"]) {
            assert!(t.contains(want), "game {number}: {want}: {t}");
        }
        assert!(t.contains("blunderer < bestmove a0a9"), "{t}");
        assert!(t.lines().all(|l| l.starts_with('[')), "{t}");
    }
    // The run records --log, so `--resume` with only --out keeps logging.
    let record = std::fs::read_to_string(out_dir.join("match.json")).unwrap();
    assert!(record.contains("\"log\": true"), "{record}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether process `pid` is gone (or a zombie no one waits for any more), within ten seconds
/// (it was sent SIGKILL: under a loaded machine's I/O the kernel can take a while to end it); if
/// not, its `/proc` status line.
fn gone(pid: u32) -> Result<(), String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Field 3 is the state; Z is a zombie.
        if stat.is_empty() || stat.split(") ").nth(1).is_some_and(|s| s.starts_with('Z')) {
            return Ok(());
        }
        if std::time::Instant::now() > deadline {
            return Err(stat);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_ends_the_engines_and_says_how_to_resume() {
    let dir = tmp("sigint");
    let pids = dir.join("pids");
    // On `go` it starts a long child and never answers: both must end with the arena.
    let path = script(
        &dir,
        &format!("sleep 300 & echo $! >> {0}; echo $$ >> {0}", pids.display()),
    );
    let out_dir = dir.join("out");
    let child = Command::new(arena_bin())
        .args([
            "match",
            "--engine",
            &format!("uci:path={path},timeout=60000"),
            "--engine",
            "random",
            "--pairs",
            "3",
            "--threads",
            "2",
            "--log",
            "--out",
            out_dir.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for both workers' engines to be thinking.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::fs::read_to_string(&pids)
        .unwrap_or_default()
        .lines()
        .count()
        < 4
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the engines never got a go"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains(&format!(
            "interrupted: 0 finished pairs are kept in {}; continue with: arena match --out {} --resume",
            out_dir.join("games.jsonl").display(),
            out_dir.display()
        )),
        "{e}"
    );
    assert!(
        !out_dir.join(".arena.lock").exists(),
        "the folder is released"
    );
    // What it said is kept is what the journal holds: no game cut short by the engines' end was
    // recorded after the count.
    let journal = std::fs::read_to_string(out_dir.join("games.jsonl")).unwrap_or_default();
    assert_eq!(journal.lines().count(), 0, "{journal}");
    // The traffic of the games that hung is on disk, up to the `go` they never answered.
    for number in [1, 3] {
        let t = std::fs::read_to_string(out_dir.join(format!("logs/game-{number}.log")))
            .unwrap_or_default();
        assert!(t.contains("> go"), "game {number}: {t}");
    }
    for pid in std::fs::read_to_string(&pids).unwrap().lines() {
        if let Err(stat) = gone(pid.parse().unwrap()) {
            panic!("process {pid} outlived the arena: {stat}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that reads `go` and then never answers: `silent` says nothing, `chatty` prints
/// `info` lines for ever and does not read its input (so it never hears `stop` or `quit`).
fn never_answers(dir: &Path, chatty: bool) -> String {
    let on_go = if chatty {
        "while true; do echo 'info depth 1 nodes 5'; sleep 0.01; done"
    } else {
        ":"
    };
    script(dir, on_go)
}

/// The games of a results folder, as JSON values.
fn games(out_dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(out_dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The milliseconds recorded for the side that lost game `g`.
fn loser_ms(g: &serde_json::Value) -> f64 {
    let loser = if g["result"] == "1-0" { "black" } else { "red" };
    g["ms"][loser].as_f64().unwrap()
}

/// Without a `timeout=` of its own, an engine that never answers `go` loses on time at the
/// run's hard limit (the movetime plus 1 s; a clock), and the match ends normally. The move's
/// time is recorded at the limit: the arena's clean-up of the process (`quit`, 300 ms, a kill)
/// comes after the game and is noted in its error log (it used to be inside the move: 1,512 ms
/// for a 1,200 ms limit).
#[test]
fn engines_that_never_answer_lose_at_the_hard_limit() {
    for (name, chatty, limits, reason, says) in [
        (
            "silent",
            false,
            &["--movetime", "100"][..],
            "timeout",
            "hard limit 1100 ms",
        ),
        (
            "chatty",
            true,
            &["--movetime", "100"][..],
            "timeout",
            "hard limit 1100 ms",
        ),
        (
            "chatty-clock",
            true,
            &["--tc", "1+0"][..],
            "time-forfeit",
            "with 1000 ms on the clock",
        ),
    ] {
        let dir = tmp(name);
        let spec = format!("uci:path={},name=mute", never_answers(&dir, chatty));
        let out_dir = dir.join("out");
        let mut args = vec![
            "match",
            "--engine",
            &spec,
            "--engine",
            "random",
            "--pairs",
            "1",
            "--threads",
            "2",
            "--out",
            out_dir.to_str().unwrap(),
        ];
        args.extend_from_slice(limits);
        let o = Command::new(arena_bin()).args(&args).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            crate::common::played_to_the_end(&o),
            "{name}: {out}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let games = games(&out_dir);
        assert_eq!(games.len(), 2, "{name}: {out}");
        let limit = if name == "chatty-clock" {
            1000.0
        } else {
            1100.0
        };
        for g in &games {
            assert_eq!(g["reason"], reason, "{name}: {g}");
            let detail = g["detail"].as_str().unwrap();
            assert!(detail.contains(says), "{name}: {detail}");
            let ms = loser_ms(g);
            assert!(
                (limit..limit + 250.0).contains(&ms),
                "{name}: {ms} ms recorded for a limit of {limit} ms: {detail}"
            );
        }
        // The move's failure is counted, not its time: no move was made.
        assert!(
            out.contains("mute no moves (2 failed moves left out)"),
            "{name}: {out}"
        );
        if chatty {
            let log = std::fs::read_to_string(out_dir.join("logs/01-mute.stderr.log")).unwrap();
            assert_eq!(
                log.matches("arena: did not quit, killed in").count(),
                2,
                "{name}: {log}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// An engine's own `timeout=` is its hard limit, longer than the run's too: with `--movetime
/// 100` the run's would be 1,100 ms, and `timeout=1500` waits 1,500 ms (it used to give up at
/// the run's).
#[test]
fn an_engines_own_timeout_replaces_the_runs_hard_limit() {
    let dir = tmp("own-timeout");
    let spec = format!("uci:path={},timeout=1500", never_answers(&dir, false));
    let out_dir = dir.join("out");
    let o = arena(&match_args(
        &spec,
        "random",
        "1",
        &[
            "--threads",
            "2",
            "--movetime",
            "100",
            "--out",
            out_dir.to_str().unwrap(),
        ],
    ));
    assert!(
        crate::common::played_to_the_end(&o),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for g in games(&out_dir) {
        assert_eq!(g["reason"], "timeout", "{g}");
        let detail = g["detail"].as_str().unwrap();
        assert!(detail.contains("hard limit 1500 ms"), "{detail}");
        assert!(loser_ms(&g) >= 1500.0, "{g}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arena bench` has no match to stop an engine: an external one that never answers still
/// fails at the hard limit a game would give it (here the movetime plus 1 s), and bench says
/// so instead of waiting for ever.
#[test]
fn bench_gives_up_on_an_engine_that_never_answers() {
    let dir = tmp("bench");
    let spec = format!("uci:path={},name=mute", never_answers(&dir, false));
    let started = std::time::Instant::now();
    let mut child = Command::new(arena_bin())
        .args([
            "bench",
            "--engine",
            &spec,
            "--movetime",
            "100",
            "--perft-depth",
            "1",
            "--playouts",
            "1",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // It used to wait for ever: ended here, so that the test fails instead of hanging.
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("arena bench still waits for the engine after a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("moves failed (the first: no 'bestmove' within its timeout)"),
        "{out}"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_depth_past_the_records_bound_is_not_recorded_and_the_run_resumes() {
    let dir = tmp("deep");
    // It claims a depth no search reaches; h2e2 is legal for Red's first move only.
    let path = script(
        &dir,
        "echo 'info depth 4294967295 nodes 5 pv h2e2'; echo 'bestmove h2e2'",
    );
    let out = dir.join("run");
    let run = |resume: bool| {
        let mut args = vec![
            "match".to_string(),
            "--engine".into(),
            format!("uci:path={path},name=deep"),
            "--engine".into(),
            "random".into(),
            "--pairs".into(),
            "1".into(),
            "--no-progress".into(),
            "--out".into(),
            out.display().to_string(),
        ];
        if resume {
            args.push("--resume".into());
        }
        Command::new(arena_bin()).args(&args).output().unwrap()
    };
    let first = run(false);
    assert!(
        crate::common::played_to_the_end(&first),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let journal = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert!(journal.contains("h2e2"), "{journal}");
    assert!(!journal.contains("4294967295"), "{journal}");
    // The journal it wrote is one its resume accepts.
    let again = run(true);
    assert!(
        crate::common::played_to_the_end(&again),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
