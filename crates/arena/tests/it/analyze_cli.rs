//! `arena analyze`: a recorded game judged ply by ply by a reference engine — the JSON it
//! writes, the same analysis at any thread count, and what it refuses.

use crate::common::{json, match_args, ok, refused, s, tmp};

/// A 1-pair match of `alphabeta` against `greedy` at 300 nodes, in `dir/run`.
fn played(dir: &std::path::Path) -> std::path::PathBuf {
    let run = dir.join("run");
    ok(&match_args(
        "alphabeta",
        "greedy",
        "1",
        &[
            "--nodes",
            "300",
            "--threads",
            "1",
            "--seed",
            "3",
            "--out",
            s(&run),
            "--no-progress",
        ],
    ));
    run
}

#[test]
fn analyze_writes_every_ply_and_is_the_same_at_any_thread_count() {
    let dir = tmp("every-ply");
    let run = played(&dir);
    let csv = std::fs::read_to_string(run.join("games.csv")).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let plies: usize = row[8].parse().unwrap();
    let out = ok(&[
        "analyze",
        s(&run),
        "--game",
        "1",
        "--nodes",
        "3000",
        "--threads",
        "1",
        "--no-progress",
    ]);
    assert!(out.contains("Reference: alphabeta (nodes=3000)"), "{out}");
    assert!(
        out.contains("red   alphabeta:") && out.contains("black greedy:"),
        "{out}"
    );
    assert!(
        out.contains("Chance: of what moved the evaluation"),
        "{out}"
    );
    let path = run.join("analysis/game-1.json");
    assert!(
        out.contains(&format!("Analysis: {}", path.display())),
        "{out}"
    );
    let doc = json(&path);
    assert_eq!(doc["format"], "arena-analysis");
    let game = &doc["games"][0];
    assert_eq!(game["number"], 1);
    assert_eq!(game["red"], "alphabeta");
    let a = &game["analysis"];
    let list = a["plies"].as_array().unwrap();
    assert_eq!(list.len(), plies, "one verdict per ply");
    for (i, p) in list.iter().enumerate() {
        assert_eq!(p["ply"], i + 1);
        assert_eq!(p["mover"], if i % 2 == 0 { "red" } else { "black" });
        let loss = p["loss"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&loss), "{p}");
        let (b, q) = (
            p["best_expected"].as_f64().unwrap(),
            p["played_expected"].as_f64().unwrap(),
        );
        assert!((loss - (b - q).max(0.0)).abs() < 1e-12, "{p}");
        // A chance on a reveal or hidden capture, noise on any other move: never both.
        assert!(
            p.get("chance").is_some() != p.get("noise").is_some() || i + 1 == plies,
            "{p}"
        );
        assert_eq!(
            p.get("chance").is_some(),
            p.get("chance_from").is_some(),
            "{p}"
        );
        // The deal is known: the omniscient contrast ran.
        assert!(p["omniscient"]["best"].is_string(), "{p}");
    }
    // Red's end score is the result: alphabeta won or lost by the rules.
    let end = a["end"].as_f64().unwrap();
    let result = game["result"].as_str().unwrap();
    assert_eq!(
        end,
        match result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        },
        "{result}"
    );

    // Two threads: the same analysis, byte for byte.
    let two = dir.join("two.json");
    ok(&[
        "analyze",
        s(&run),
        "--game",
        "1",
        "--nodes",
        "3000",
        "--threads",
        "2",
        "--no-progress",
        "--out",
        s(&two),
    ]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        std::fs::read_to_string(&two).unwrap()
    );

    // Both games of the pair, in one file.
    let both = dir.join("both.json");
    let out = ok(&[
        "analyze",
        s(&run),
        "--games",
        "all",
        "--nodes",
        "1000",
        "--no-omniscient",
        "--no-progress",
        "--out",
        s(&both),
    ]);
    assert!(out.contains("Analysis of 2 games"), "{out}");
    let doc = json(&both);
    assert_eq!(doc["games"].as_array().unwrap().len(), 2);
    assert!(
        doc["games"][1]["analysis"]["plies"][0]
            .get("omniscient")
            .is_none()
    );
}

#[test]
fn analyze_refuses_what_it_cannot_do() {
    let dir = tmp("refusals");
    let run = played(&dir);
    let err = refused(&["analyze", s(&run)]);
    assert!(err.contains("--game"), "{err}");
    let err = refused(&["analyze", s(&run), "--game", "9"]);
    assert!(
        err.contains("no game 9") || err.contains("there is no game 9"),
        "{err}"
    );
    let err = refused(&["analyze", s(&run), "--games", "2-1"]);
    assert!(err.contains("empty"), "{err}");
    for (twice, game) in [("1,1,1", 1), ("1-2,2", 2)] {
        let err = refused(&["analyze", s(&run), "--games", twice]);
        assert!(
            err.contains("--games")
                && err.contains(&format!("game {game} is listed more than once")),
            "{err}"
        );
    }
    let err = refused(&["analyze", s(&run), "--games", "1,x"]);
    assert!(err.contains("'x' is not a game number"), "{err}");
    let err = refused(&[
        "analyze",
        s(&run),
        "--games",
        "1,2",
        "--html",
        s(&dir.join("a.html")),
    ]);
    assert!(err.contains("names one page"), "{err}");
    let err = refused(&["analyze", s(&dir.join("nowhere")), "--game", "1"]);
    assert!(err.contains("no such results folder or game file"), "{err}");
    let err = refused(&["analyze", s(&run), "--game", "1", "--nodes", "0"]);
    assert!(
        err.contains("--nodes") && err.contains("at least 1"),
        "{err}"
    );
    // An engine that gives no score cannot judge.
    let err = refused(&[
        "analyze",
        s(&run),
        "--game",
        "1",
        "--engine",
        "random",
        "--no-progress",
    ]);
    assert!(err.contains("gave no score"), "{err}");
}

/// A Xiangqi game file of one move, `b2e2`, from the start.
fn xiangqi_file(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("one.pgn");
    std::fs::write(
        &path,
        "[Variant \"xiangqi\"]\n[Result \"*\"]\n\n1. b2e2 *\n",
    )
    .unwrap();
    path
}

/// A reference that answers `h2e2` whatever it is told, `searchmoves` or not, would score its
/// own best move as the move played: it is refused, naming the ply and the moves.
#[test]
fn a_reference_that_ignores_searchmoves_is_refused() {
    let dir = tmp("searchmoves");
    let game = xiangqi_file(&dir);
    let engine = crate::common::scripted_engine(
        &dir,
        "stubborn",
        &[],
        "echo 'info depth 1 score cp 10 pv h2e2'; echo 'bestmove h2e2'",
    );
    let spec = format!("uci:path={engine},name=stubborn");
    let err = refused(&[
        "analyze",
        s(&game),
        "--engine",
        &spec,
        "--threads",
        "1",
        "--no-progress",
    ]);
    assert!(
        err.contains("ply 1: the reference engine answered h2e2 when told to search only b2e2")
            && err.contains("ignores searchmoves"),
        "{err}"
    );
    assert!(!game.with_file_name("one.analysis.json").exists());
    // A reference that dies is said once, in plain words.
    let crashing = dir.join("crashing");
    std::fs::create_dir_all(&crashing).unwrap();
    let engine = crate::common::scripted_engine(&crashing, "crashing", &[], "exit 3");
    let err = refused(&[
        "analyze",
        s(&game),
        "--engine",
        &format!("uci:path={engine}"),
        "--threads",
        "1",
        "--no-progress",
    ]);
    assert!(
        err.contains("ply 1: the reference engine failed: ") && !err.contains("engine the engine"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs `arena ARGS`, sends it SIGINT once its stdout holds `after`, and returns its exit status,
/// stdout and stderr.
pub fn interrupted_after(args: &[&str], after: &str) -> (Option<i32>, String, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(crate::common::arena_bin())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains(after) {
        let n = stdout.read(&mut buf).unwrap();
        assert!(
            n > 0,
            "ended before '{after}': {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&buf[..n]);
    }
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    stdout.read_to_end(&mut seen).unwrap();
    let o = child.wait_with_output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&seen).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Ctrl-C during the second game of `--games all --out FILE` keeps the first game's analysis in
/// FILE (written only at the end otherwise) and says so; exit 130.
#[test]
fn an_interrupted_analysis_keeps_the_games_that_finished() {
    let dir = tmp("interrupted");
    let run = played(&dir);
    let out = dir.join("all.json");
    let (code, stdout, stderr) = interrupted_after(
        &[
            "analyze",
            s(&run),
            "--games",
            "all",
            // Game 2's 60 plies at 5,000 nodes take a second or more: a SIGINT sent when its
            // heading is read lands inside it by a margin of 100× (20,000 cost 12 s a run).
            "--nodes",
            "5000",
            "--threads",
            "1",
            "--no-progress",
            "--out",
            s(&out),
        ],
        // The second game's heading: the first is analysed and kept.
        "run game 2: red",
    );
    assert_eq!(code, Some(130), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!(
            "interrupted: the analyses of 1 finished game kept in {}",
            out.display()
        )),
        "{stderr}"
    );
    let doc = json(&out);
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{doc}");
    assert_eq!(games[0]["number"], 1);
    let _ = std::fs::remove_dir_all(dir);
}
