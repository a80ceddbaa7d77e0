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

/// The boards of `text`: each label line with the board lines under it (up to the file letters).
fn labelled_boards(text: &str) -> Vec<(String, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut boards = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.ends_with(" board (what both players see; X/x hidden):")
            || line.ends_with(" board (every hidden identity shown; referee only):")
        {
            let board: Vec<String> = lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("   a b c"))
                .map(|l| l.to_string())
                .collect();
            boards.push((line.to_string(), board));
        }
    }
    boards
}

#[test]
fn boards_are_labelled_and_mark_the_last_move() {
    let dir = tmp("boards");
    play(&dir, "greedy", "random", &["--max-plies", "12"]);
    let shown = ok(&["replay", s(&dir), "--game", "1", "--show", "--boards"]);
    let replayed = ok(&["replay", s(&dir), "--game", "1", "--boards"]);
    let plies = shown.lines().filter(|l| l.contains("  | nodes ")).count();
    assert!(plies > 0, "{shown}");
    for text in [&shown, &replayed] {
        // Said before the plies and with the final position.
        assert_eq!(
            text.matches("Boards mark the last move").count(),
            2,
            "{text}"
        );
        // After every ply and at the end: the public board, then the true one, each labelled.
        let boards = labelled_boards(text);
        assert_eq!(boards.len(), 2 * (plies + 1), "{text}");
        for (i, (label, board)) in boards.iter().enumerate() {
            let public = i % 2 == 0;
            assert_eq!(label.starts_with("public board"), public, "{label}");
            assert_eq!(label.starts_with("true board"), !public, "{label}");
            assert_eq!(board.len(), 11, "{label}: {board:?}");
            // The move's destination in parentheses; its origin, now empty, as *.
            let all = board.concat();
            assert_eq!(
                (all.matches('(').count(), all.matches(')').count()),
                (1, 1),
                "{label}: {board:#?}"
            );
            assert_eq!(all.matches('*').count(), 1, "{label}: {board:#?}");
            // Hidden pieces show on the public board only (12 plies reveal at most 12 of 30).
            assert_eq!(all.contains(['X', 'x']), public, "{label}: {board:#?}");
        }
    }
    // What replay prints ply by ply is what --show prints from the record, search info aside.
    let plies_of = |text: &str| {
        text.lines()
            .skip(1)
            .map(|l| l.split("  | ").next().unwrap().to_string())
            .filter(|l| !l.starts_with("identical"))
            .collect::<Vec<_>>()
    };
    assert_eq!(plies_of(&shown), plies_of(&replayed));
    let _ = std::fs::remove_dir_all(dir);
}
