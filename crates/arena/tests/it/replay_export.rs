//! `arena replay` and `arena export` details: the limits each side played under, labelled boards
//! with the last move marked, cutechess-style move comments, and the pairs a gate did not count.

use std::path::Path;

use crate::common::{ok, s, tmp};

/// A two-pair match of `a` against `b` in `dir`, with `extra` run flags.
fn play(dir: &Path, a: &str, b: &str, extra: &[&str]) {
    let mut args = vec![
        "match",
        "--engine",
        a,
        "--engine",
        b,
        "--pairs",
        "1",
        "--seed",
        "5",
        "--out",
        s(dir),
    ];
    args.extend_from_slice(extra);
    ok(&args);
}

#[test]
fn replay_header_names_the_limits_each_side_played_under() {
    let dir = tmp("limits");
    // The first engine sets a depth of its own; the run's node limit applies to both.
    play(&dir, "alphabeta:depth=1", "greedy", &["--nodes", "50"]);
    let own = "red alphabeta:depth=1 (nodes=50,depth=1) vs black greedy (nodes=50)";
    let replayed = ok(&["replay", s(&dir), "--game", "1"]);
    assert!(
        replayed.lines().next().unwrap().ends_with(own),
        "{replayed}"
    );
    assert!(replayed.contains("identical"), "{replayed}");
    let shown = ok(&["replay", s(&dir), "--game", "1", "--show"]);
    assert!(shown.lines().next().unwrap().ends_with(own), "{shown}");
    // Game 2 swaps the colours, and the limits go with the engines.
    let swapped = ok(&["replay", s(&dir), "--game", "2", "--show"]);
    assert!(
        swapped
            .lines()
            .next()
            .unwrap()
            .ends_with("red greedy (nodes=50) vs black alphabeta:depth=1 (nodes=50,depth=1)"),
        "{swapped}"
    );
    // The same limits on both sides are said once; none at all are the engines' defaults.
    let _ = std::fs::remove_dir_all(dir);
    let dir = tmp("defaults");
    play(&dir, "greedy", "random", &[]);
    let shown = ok(&["replay", s(&dir), "--game", "1", "--show"]);
    assert!(
        shown
            .lines()
            .next()
            .unwrap()
            .ends_with("red greedy vs black random (engine defaults)"),
        "{shown}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
