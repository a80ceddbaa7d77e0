//! Fairy-Stockfish as an opponent: real games under `xiangqi` rules in its dialect (squares
//! ranked 1–10), Jieqi rules refused for it, and any engine refused rules whose `UCI_Variant` it
//! does not offer. The games need the `fairy-stockfish` package (`.ci/run` installs it); without
//! it they fail in CI and are skipped elsewhere.

#![cfg(unix)]

use std::path::{Path, PathBuf};

use crate::common::{arena, json, missing, ok, refused, s, scripted_engine, text, tmp};

/// The Fairy-Stockfish binary: `$FAIRY_STOCKFISH`, Debian's `/usr/games/fairy-stockfish`, or
/// `fairy-stockfish` on the PATH.
fn fairy_stockfish() -> Option<PathBuf> {
    let given = std::env::var_os("FAIRY_STOCKFISH").map(PathBuf::from);
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("fairy-stockfish"))
            .find(|p| p.is_file())
    });
    given
        .into_iter()
        .chain([PathBuf::from("/usr/games/fairy-stockfish")])
        .chain(on_path)
        .find(|p| p.is_file())
}

/// The binary, or `None` after [`missing`] said so (a failure in CI).
#[track_caller]
fn fairy_or_skip(test: &str) -> Option<PathBuf> {
    let found = fairy_stockfish();
    if found.is_none() {
        missing(
            test,
            "fairy-stockfish not found (apt-get install fairy-stockfish)",
        );
    }
    found
}

#[test]
fn fairy_stockfish_plays_xiangqi_without_a_protocol_failure() {
    let Some(fsf) = fairy_or_skip("fairy_stockfish_plays_xiangqi_without_a_protocol_failure")
    else {
        return;
    };
    let dir = tmp("games");
    let out = dir.join("out");
    // No dialect= given: it is detected from `id name Fairy-Stockfish …`.
    let spec = format!("uci:path={},name=fsf", fsf.display());
    ok(&[
        "match",
        "--rules",
        "xiangqi",
        "--engine",
        &spec,
        "--engine",
        "alphabeta",
        "--pairs",
        "2",
        "--nodes",
        "2000",
        "--max-plies",
        "160",
        "--threads",
        "1",
        "--log",
        "--out",
        s(&out),
    ]);
    let summary = json(&out.join("summary.json"));
    assert_eq!(summary["results"]["games"], 4, "{summary}");
    assert_eq!(summary["failures"]["fsf"], 0, "{summary}");
    assert_eq!(summary["failures"]["alphabeta"], 0, "{summary}");
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let rows: Vec<&str> = games.lines().skip(1).collect();
    assert_eq!(rows.len(), 4, "{games}");
    for row in &rows {
        for bad in ["illegal", "protocol", "crash", "timeout", "error"] {
            assert!(!row.contains(bad), "{row}");
        }
    }
    // Its traffic: told xiangqi, sent moves on ranks 1–10 (a rank-10 square in the first
    // games' moves: every Black piece starts there).
    let logs = traffic(&out.join("logs"));
    assert!(logs.contains("id name Fairy-Stockfish"), "{logs}");
    assert!(
        logs.contains("> setoption name UCI_Variant value xiangqi"),
        "{logs}"
    );
    let moves: Vec<&str> = logs
        .lines()
        .filter_map(|l| l.split(" moves ").nth(1))
        .flat_map(str::split_whitespace)
        .collect();
    assert!(!moves.is_empty(), "{logs}");
    assert!(moves.iter().any(|m| m.contains("10")), "{moves:?}");
    assert!(
        !moves.iter().any(|m| m
            .as_bytes()
            .windows(2)
            .any(|w| w[0].is_ascii_lowercase() && w[1] == b'0')),
        "a rank 0 sent: {moves:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every traffic log under `dir`, joined.
fn traffic(dir: &Path) -> String {
    let mut all = String::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                all.push_str(&std::fs::read_to_string(&p).unwrap_or_default());
            }
        }
    }
    all
}

#[test]
fn fairy_stockfish_is_refused_jieqi_rules_before_the_match() {
    let Some(fsf) = fairy_or_skip("fairy_stockfish_is_refused_jieqi_rules_before_the_match") else {
        return;
    };
    let spec = format!("uci:path={},name=fsf", fsf.display());
    let err = refused(&[
        "match", "--engine", &spec, "--engine", "random", "--pairs", "1",
    ]);
    assert!(
        err.contains("engine 'fsf' cannot play these rules")
            && err.contains("the rules 'standard' are none of Fairy-Stockfish's variants"),
        "{err}"
    );
}

/// A shell-script engine that declares `options` (whole `option name …` lines), calls itself
/// `id_name` and answers `go` with `bestmove`.
fn script(dir: &Path, id_name: &str, options: &[&str], bestmove: &str) -> String {
    scripted_engine(
        dir,
        id_name,
        options,
        &format!("echo 'bestmove {bestmove}'"),
    )
}

/// Regression: an engine whose `UCI_Variant` combo lists only `chess` was sent `jieqi` and
/// played.
#[test]
fn an_engine_is_refused_rules_whose_variant_it_does_not_offer() {
    let dir = tmp("chess-only");
    let chess = script(
        &dir,
        "chess engine",
        &["option name UCI_Variant type combo default chess var chess"],
        "e2e4",
    );
    let spec = format!("uci:path={chess},name=chessy");
    let err = refused(&[
        "match", "--engine", &spec, "--engine", "random", "--pairs", "1",
    ]);
    assert!(
        err.contains("engine 'chessy' cannot play these rules: the rules 'standard' need UCI_Variant 'jieqi', which the engine does not offer (its UCI_Variant values: chess)"),
        "{err}"
    );
    // A Fairy dialect asked of an engine without UCI_Variant: it could only play its default.
    let plain = script(&dir, "plain", &[], "a0a1");
    let spec = format!("uci:path={plain},dialect=fairy");
    let err = refused(&[
        "match", "--rules", "xiangqi", "--engine", &spec, "--engine", "random", "--pairs", "1",
    ]);
    assert!(err.contains("declares no UCI_Variant option"), "{err}");
    let spec = format!("uci:path={plain},dialect=winboard");
    let err = refused(&[
        "match", "--engine", &spec, "--engine", "random", "--pairs", "1",
    ]);
    assert!(err.contains("'winboard' is not a dialect"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that calls itself Fairy-Stockfish is read in its dialect without `dialect=`: its
/// `h1g3` is our `h0g2`, a legal first move (a Pikafish reading would be h1g3, illegal).
#[test]
fn the_fairy_dialect_is_detected_from_the_id_name() {
    let dir = tmp("detected");
    let fake = script(
        &dir,
        "Fairy-Stockfish 11.1 LB 64",
        &["option name UCI_Variant type combo default chess var chess var xiangqi"],
        "h1g3",
    );
    let out = dir.join("out");
    let spec = format!("uci:path={fake},name=fake");
    // One ply from the start position: its first move as Red is all it plays.
    let o = arena(&[
        "match",
        "--rules",
        "xiangqi",
        "--openings",
        "none",
        "--engine",
        &spec,
        "--engine",
        "random",
        "--pairs",
        "1",
        "--max-plies",
        "1",
        "--threads",
        "1",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let summary = json(&out.join("summary.json"));
    assert_eq!(summary["failures"]["fake"], 0, "{summary}");
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(!games.contains("illegal"), "{games}");
    let _ = std::fs::remove_dir_all(&dir);
}
