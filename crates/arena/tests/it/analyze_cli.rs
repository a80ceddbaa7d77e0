//! `arena analyze`: a recorded game judged ply by ply by a reference engine — the JSON it
//! writes, the same analysis at any thread count, and what it refuses.

use crate::common::{json, ok, refused, s, tmp};

/// A 1-pair match of `alphabeta` against `greedy` at 300 nodes, in `dir/run`.
fn played(dir: &std::path::Path) -> std::path::PathBuf {
    let run = dir.join("run");
    ok(&[
        "match",
        "--engine",
        "alphabeta",
        "--engine",
        "greedy",
        "--pairs",
        "1",
        "--nodes",
        "300",
        "--threads",
        "1",
        "--seed",
        "3",
        "--out",
        s(&run),
        "--no-progress",
    ]);
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
