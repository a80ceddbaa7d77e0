//! `arena leak` end to end, and the promise it rests on: omniscience changes what every engine
//! does while fair play stays exactly what it was.
//!
//! - Fair games are unchanged: node-limited tournaments of every in-process engine replay the
//!   move lists recorded in `tests/fixtures/` (written by the harness before engines took their
//!   knowledge of hidden pieces from `View::knowledge`). An engine change that is meant to change
//!   play regenerates them (see [`fair_games_are_unchanged`]).
//! - The positive control: `faulty:mode=peek` (handed the truth while labelled fair) shows Δ ≈ 0
//!   and a head-to-head ≈ 0, while `alphabeta` and `ismcts` show Δ > 0 with intervals excluding 0.
//! - Arms are match folders `arena replay` reads; an opponent adds arms F and Ω; shards merge into
//!   the single run's report; bad input is refused.

use std::path::Path;

use serde_json::Value;

use crate::common::{json, ok, refused, s, text, tmp};

/// `pair game red black result moves…` per game of a journal, sorted.
fn move_lists(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let g: Value = serde_json::from_str(l).unwrap();
            let moves: Vec<&str> = g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            format!(
                "{} {} {} {} {} {}",
                g["pair"],
                g["game"],
                g["red"].as_str().unwrap(),
                g["black"].as_str().unwrap(),
                g["result"].as_str().unwrap(),
                moves.join(" ")
            )
        })
        .collect();
    out.sort();
    out
}

/// Every in-process engine plays exactly the games it played before knowledge of hidden pieces
/// went through `View::knowledge`, under the mainstream rules and the hidden-king variant.
///
/// To regenerate after a deliberate change of play: `UPDATE_FIXTURES=1 cargo test -p arena
/// --test it fair_games` (it runs the two tournaments below and writes `move_lists` of each
/// folder to the fixture files, one line per game), then look at the diff.
#[test]
fn fair_games_are_unchanged() {
    let runs: [(&str, &[&str]); 2] = [
        (
            "fair-games-standard.txt",
            &[
                "--engine",
                "alphabeta:nodes=400",
                "--engine",
                "ismcts:nodes=150",
                "--engine",
                "flat-uct:nodes=60",
                "--engine",
                "greedy",
                "--engine",
                "level",
                "--engine",
                "level:easy",
                "--engine",
                "random",
                "--pairs",
                "2",
                "--seed",
                "7",
            ],
        ),
        (
            "fair-games-simple.txt",
            &[
                "--engine",
                "alphabeta:nodes=300",
                "--engine",
                "ismcts:nodes=100",
                "--engine",
                "greedy",
                "--engine",
                "level:hard",
                "--rules",
                "simple",
                "--pairs",
                "2",
                "--seed",
                "9",
            ],
        ),
    ];
    // alphabeta with the hand-crafted weights these games were recorded with (its built-in
    // weights are the learned ones since).
    let hand = format!(
        "eval={}/../../configs/eval/default.json",
        env!("CARGO_MANIFEST_DIR")
    );
    for (fixture, args) in runs {
        let dir = tmp(fixture);
        let mut all: Vec<String> = ["tournament", "--out", s(&dir), "--threads", "2"]
            .map(String::from)
            .to_vec();
        all.extend(args.iter().map(|a| {
            if a.starts_with("alphabeta:") {
                format!("{a},{hand}")
            } else {
                a.to_string()
            }
        }));
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        ok(&all);
        let fixture_path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(fixture);
        if std::env::var_os("UPDATE_FIXTURES").is_some() {
            let mut text = move_lists(&dir)
                .into_iter()
                .map(|g| g.replace(&format!(",{hand}"), ""))
                .collect::<Vec<_>>()
                .join("\n");
            text.push('\n');
            std::fs::write(&fixture_path, text).unwrap();
        }
        let expected: Vec<String> = std::fs::read_to_string(&fixture_path)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let hand_label = format!(",{hand}");
        let got: Vec<String> = move_lists(&dir)
            .into_iter()
            .map(|g| g.replace(&hand_label, ""))
            .collect();
        assert_eq!(got.len(), expected.len(), "{fixture}");
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g, e, "{fixture}: a fair game changed");
        }
    }
}

fn row<'a>(leak: &'a Value, engine: &str) -> &'a Value {
    leak["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["engine"] == engine)
        .unwrap_or_else(|| panic!("no row for {engine}"))
}

fn f(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) if s == "inf" => f64::INFINITY,
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        other => panic!("not a number: {other}"),
    }
}

/// The positive control: a harness leak shows no gain from omniscience, real engines do.
#[test]
fn the_report_catches_a_leak() {
    let dir = tmp("control");
    let text = ok(&[
        "leak",
        "--engine",
        "faulty:mode=peek",
        "--engine",
        "alphabeta",
        "--engine",
        "ismcts",
        "--nodes",
        "300",
        // ismcts gains about 110 Elo from omniscience at 300 nodes (100 pairs: [63, 160]); 24
        // pairs left its interval's lower end at 0 once the tree knew repetitions, 32 clear it.
        "--pairs",
        "32",
        "--threads",
        "2",
        "--out",
        s(&dir),
    ]);
    assert!(text.contains("faulty:mode=peek (control)"), "{text}");
    assert!(
        text.contains("Positive control 'faulty:mode=peek'"),
        "{text}"
    );
    assert!(!text.contains("WARNING"), "{text}");
    let leak = json(&dir.join("leak.json"));
    let control = row(&leak, "faulty:mode=peek");
    assert_eq!(control["control"], true);
    assert_eq!(control["verdict"], "no-gain");
    let (lo, hi) = (f(&control["delta"]["lower"]), f(&control["delta"]["upper"]));
    assert!(lo <= 0.0 && 0.0 <= hi, "control Δ [{lo}, {hi}]");
    let h = &control["head_to_head"];
    assert!(f(&h["elo_lower"]) <= 0.0 && 0.0 <= f(&h["elo_upper"]));
    for engine in ["alphabeta", "ismcts"] {
        let r = row(&leak, engine);
        assert_eq!(r["control"], false);
        assert!(
            f(&r["delta"]["lower"]) > 0.0,
            "{engine}: Δ {} [{}, {}]",
            r["delta"]["elo"],
            r["delta"]["lower"],
            r["delta"]["upper"]
        );
        // Without an opponent arm F is not played and Ω is the head-to-head.
        assert!(r["fair"].is_null());
        assert_eq!(r["omniscient"], r["head_to_head"]);
    }
    // The arms are match folders: a game replays exactly, omniscience included.
    let arm = dir.join("arms/03-ismcts/head-to-head");
    let record = json(&arm.join("match.json"));
    assert_eq!(record["omniscient"], "a");
    assert_eq!(record["engines"][0][0], "ismcts (omniscient)");
    let out = ok(&["replay", s(&arm), "--pair", "5", "--game", "2"]);
    assert!(out.contains("identical"), "{out}");
    let peek = dir.join("arms/01-faulty_mode_peek/head-to-head");
    assert_eq!(json(&peek.join("match.json"))["omniscient"], "a");
    let out = ok(&["replay", s(&peek), "--pair", "3", "--game", "1"]);
    assert!(out.contains("identical"), "{out}");
    assert!(dir.join("leak.md").is_file());
}

/// With an opponent every engine has arms F, Ω and the head-to-head; shards merge into the
/// single run's report.
#[test]
fn an_opponent_adds_arms_and_shards_merge() {
    let root = tmp("opponent");
    let args = |out: &Path, shard: Option<&str>| {
        let mut a = vec![
            "leak".to_string(),
            "--engine".into(),
            "greedy".into(),
            "--engine".into(),
            "level:hard".into(),
            "--opponent".into(),
            "level:easy".into(),
            "--pairs".into(),
            "12".into(),
            "--threads".into(),
            "2".into(),
            "--out".into(),
            out.to_str().unwrap().to_string(),
        ];
        if let Some(k) = shard {
            a.push("--shard".into());
            a.push(k.into());
        }
        a
    };
    let single = root.join("single");
    let a = args(&single, None);
    ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    for arm in ["fair", "omniscient", "head-to-head"] {
        assert!(
            single
                .join("arms/01-greedy")
                .join(arm)
                .join("games.csv")
                .is_file(),
            "{arm}"
        );
    }
    let leak = json(&single.join("leak.json"));
    assert_eq!(leak["opponent"], "level:easy");
    let r = row(&leak, "level:hard");
    assert!(r["fair"].is_object());
    let delta = f(&r["delta"]["elo"]);
    let expected = f(&r["omniscient"]["elo"]) - f(&r["fair"]["elo"]);
    assert!((delta - expected).abs() < 1e-9 || (delta.is_infinite() && expected.is_infinite()));
    // `--resume` with only the folder continues the recorded run (nothing is left to play).
    let again = ok(&["leak", "--out", s(&single), "--resume"]);
    assert!(again.contains("no games played this run"), "{again}");
    // F's folder holds the fair engine against the opponent.
    let fair = json(&single.join("arms/02-level_hard/fair/match.json"));
    assert_eq!(fair["omniscient"], "none");
    assert_eq!(fair["engines"][1][0], "level:easy");

    let mut shards = Vec::new();
    for k in ["0/2", "1/2"] {
        let d = root.join(format!("shard{}", &k[..1]));
        let a = args(&d, Some(k));
        ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
        shards.push(d);
    }
    let merged = root.join("merged");
    ok(&["merge", s(&shards[0]), s(&shards[1]), "--out", s(&merged)]);
    let strip = |v: Value| {
        let mut v = v;
        for k in ["command", "context"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    assert_eq!(
        strip(json(&merged.join("leak.json"))),
        strip(json(&single.join("leak.json")))
    );
    // An arm folder is not a shard, alone or beside the run's own shard.
    let e = refused(&[
        "merge",
        s(&single.join("arms/01-greedy/fair")),
        "--out",
        s(&root.join("bad")),
    ]);
    assert!(e.contains("arm of a leak run"), "{e}");
    let e = refused(&[
        "merge",
        s(&shards[0]),
        s(&shards[1].join("arms/01-greedy/fair")),
        "--out",
        s(&root.join("bad")),
    ]);
    assert!(
        e.contains("is a leak run but") && e.contains("is a match") && e.contains("top folders"),
        "{e}"
    );

    // --pairing: an arm's folder by its documented path, never a guess among several.
    let analyze = |pairing: &str| {
        crate::common::arena(&[
            "analyze",
            s(&single),
            "--games",
            "1",
            "--pairing",
            pairing,
            "--engine",
            "alphabeta",
            "--nodes",
            "50",
            "--no-omniscient",
            "--threads",
            "1",
        ])
    };
    for (pairing, says) in [
        ("head-to-head", "'head-to-head' names 2 pairing folders of"),
        (
            "head-to-head",
            "01-greedy/head-to-head, 02-level_hard/head-to-head",
        ),
        ("01-greedy", "'01-greedy' holds 3 pairing folders: give one"),
        ("01-greedy", "01-greedy/fair"),
        ("nosuch", "no pairing folder of"),
    ] {
        let o = analyze(pairing);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "--pairing {pairing}: {err}");
        assert!(err.contains(says), "--pairing {pairing}: {err}");
    }
    for pairing in ["01-greedy/head-to-head", "arms/02-level_hard/fair/", "3"] {
        let o = analyze(pairing);
        assert!(
            o.status.success(),
            "--pairing {pairing}: {}",
            text(&o.stderr)
        );
    }
}

/// A shard of a one-pair run with no pair of its own says "1 pair", in the leak report and in
/// each arm's summary.
#[test]
fn an_empty_shard_of_one_pair_says_pair() {
    let out = tmp("one-pair-shard");
    let said = ok(&[
        "leak",
        "--engine",
        "greedy",
        "--pairs",
        "1",
        "--shard",
        "1/2",
        "--threads",
        "1",
        "--out",
        s(&out),
    ]);
    assert!(
        said.contains("Shard 1/2 holds none of the run's 1 pair: it has nothing to play."),
        "{said}"
    );
    let arm = std::fs::read_to_string(out.join("arms/01-greedy/head-to-head/summary.txt")).unwrap();
    assert!(arm.contains("holds none of the 1 pair (pairs p"), "{arm}");
}

/// Labels that read alike as folder names (`a b`, `a_b`, `..`) still get folders of their own,
/// inside the run's folder; a broken engine's row says so instead of giving a verdict.
#[test]
fn folders_are_distinct_and_failures_are_named() {
    let dir = tmp("folders");
    crate::common::played(&[
        "leak",
        "--engine",
        "greedy:name=a b",
        "--engine",
        "random:name=a_b",
        "--engine",
        "faulty:mode=panic,after=0,name=..",
        "--pairs",
        "2",
        "--threads",
        "1",
        "--out",
        s(&dir),
    ]);
    for arm in ["01-a_b", "02-a_b", "03-.."] {
        let games = dir.join("arms").join(arm).join("head-to-head/games.csv");
        assert!(games.is_file(), "{}", games.display());
    }
    assert!(!dir.join("head-to-head").exists());
    let leak = json(&dir.join("leak.json"));
    let broken = row(&leak, "..");
    assert_eq!(broken["verdict"], "engine-failures");
    let notes = leak["notes"].as_array().unwrap();
    assert_eq!(
        notes
            .iter()
            .filter(|n| n.as_str().unwrap().contains("Engine failures"))
            .count(),
        1,
        "{notes:?}"
    );
}

/// One or two pairs gave `random` a zero-width interval [0, 0] and the verdict "no gain".
#[test]
fn too_few_pairs_are_inconclusive() {
    let dir = tmp("few");
    for pairs in ["1", "2"] {
        let out = dir.join(pairs);
        let text = ok(&[
            "leak",
            "--engine",
            "random",
            "--pairs",
            pairs,
            "--out",
            s(&out),
        ]);
        let leak = json(&out.join("leak.json"));
        let r = row(&leak, "random");
        assert_eq!(
            (f(&r["delta"]["lower"]), f(&r["delta"]["upper"])),
            (0.0, 0.0)
        );
        assert_eq!(r["verdict"], "too-few-pairs", "{text}");
        assert!(
            text.contains("random: inconclusive: too few pairs"),
            "{text}"
        );
        assert!(!text.contains("no gain"), "{text}");
    }
}

#[test]
fn bad_leak_input_is_refused() {
    let root = tmp("bad");
    let out = root.join("x");
    let o = s(&out);
    for (args, says) in [
        (
            vec!["leak", "--pairs", "2", "--out", o],
            "give an engine to measure",
        ),
        (
            vec![
                "leak",
                "--engine",
                "greedy",
                "--opponent",
                "greedy",
                "--out",
                o,
            ],
            "leave out --opponent",
        ),
        (
            vec![
                "leak", "--engine", "greedy", "--engine", "greedy", "--out", o,
            ],
            "labelled 'greedy'",
        ),
        (
            vec!["leak", "--engine", "greedy", "--bootstrap", "0", "--out", o],
            "--bootstrap",
        ),
        (
            vec![
                "leak",
                "--engine",
                "greedy",
                "--bootstrap",
                "99",
                "--out",
                o,
            ],
            "between 100 and",
        ),
        (
            // Refused as external before it is started (it would fail its handshake).
            vec!["leak", "--engine", "uci:path=/bin/false", "--out", o],
            "external process",
        ),
        (
            vec![
                "leak",
                "--engine",
                "faulty:mode=peek,engine=nosuch",
                "--out",
                o,
            ],
            "'nosuch' is not one of",
        ),
    ] {
        let e = refused(&args);
        assert!(e.contains(says), "{args:?}: {e}");
    }
    // A config without a leak section.
    let config = root.join("c.json");
    std::fs::write(&config, r#"{"engines": ["greedy", "random"]}"#).unwrap();
    let e = refused(&["leak", "--config", s(&config), "--out", o]);
    assert!(e.contains("no \"leak\" section"), "{e}");
    std::fs::write(
        &config,
        r#"{"engines": ["greedy", "random"], "leak": {"engines": ["greedy"], "opponent": "nosuch"}}"#,
    )
    .unwrap();
    let e = refused(&["leak", "--config", s(&config), "--out", o]);
    assert!(e.contains("no engine of") && e.contains("'nosuch'"), "{e}");
    std::fs::write(
        &config,
        r#"{"engines": ["greedy", "random"], "leak": {"engines": ["greedy"], "oponent": "random"}}"#,
    )
    .unwrap();
    let e = refused(&["leak", "--config", s(&config), "--out", o]);
    assert!(e.contains("unknown field `oponent`"), "{e}");
}
