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

/// The comments of a PGN's moves: every `{…}` but the termination comment that ends each game.
fn move_comments(pgn: &str) -> Vec<String> {
    let mut comments = Vec::new();
    for game in pgn.split("[Event ").skip(1) {
        let found: Vec<String> = game
            .split('{')
            .skip(1)
            .map(|c| c.split('}').next().unwrap().to_string())
            .collect();
        comments.extend_from_slice(&found[..found.len() - 1]);
    }
    comments
}

/// Whether `c` is cutechess's `score/depth time` or `time` (`+0.35/12 0.007s`, `-M4/9 1.2s`,
/// `0s`), as its `evalString` writes them and tools that read its PGN expect.
fn cutechess_comment(c: &str) -> bool {
    let time = |t: &str| {
        t.strip_suffix('s').is_some_and(|n| {
            !n.is_empty() && n.parse::<f64>().is_ok() && !n.starts_with(['+', '-'])
        })
    };
    let score = |s: &str| {
        let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit());
        if let Some(m) = s.strip_prefix("+M").or_else(|| s.strip_prefix("-M")) {
            return digits(m);
        }
        let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
        let signed_right = s.starts_with('+') != (s == "0.00");
        let two_decimals = unsigned
            .split_once('.')
            .is_some_and(|(i, f)| digits(i) && f.len() == 2 && digits(f));
        two_decimals && (s.starts_with('-') || signed_right)
    };
    match c.split_once(' ') {
        None => time(c),
        Some((sd, t)) => {
            let Some((s, d)) = sd.split_once('/') else {
                return false;
            };
            score(s) && !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) && time(t)
        }
    }
}

#[test]
fn mcts_moves_are_commented_as_cutechess_writes_scores() {
    let dir = tmp("mcts");
    play(
        &dir,
        "ismcts",
        "flat-uct",
        &["--nodes", "60", "--max-plies", "40"],
    );
    let pgn = ok(&["export", s(&dir)]);
    let comments = move_comments(&pgn);
    assert!(comments.len() >= 2, "{pgn}");
    for c in &comments {
        assert!(cutechess_comment(c), "{c:?} in\n{pgn}");
    }
    // Win rates became pawns with a depth; no percentages are left.
    assert!(!pgn.contains('%'), "{pgn}");
    assert!(
        comments.iter().filter(|c| c.contains('/')).count() >= 2,
        "{pgn}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The `Round` (the game's number) of every game of a PGN, and whether it carries
/// `[Counted "no"]`.
fn rounds(pgn: &str) -> Vec<(u64, bool)> {
    pgn.split("[Event ")
        .skip(1)
        .map(|g| {
            let round = g
                .split("[Round \"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            (round.parse().unwrap(), g.contains("[Counted \"no\"]"))
        })
        .collect()
}

#[test]
fn export_leaves_out_the_pairs_a_gate_played_beyond_its_stop() {
    let (gate, full) = (tmp("gate"), tmp("full"));
    let common = [
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--seed",
        "3",
        "--threads",
        "1",
    ];
    let mut args = vec!["sprt", "--elo0", "0", "--elo1", "10", "--out", s(&gate)];
    args.extend_from_slice(&common);
    ok(&args);
    let summary = crate::common::json(&gate.join("summary.json"));
    let pairs = summary["gate"]["pairs"].as_u64().unwrap();
    assert_eq!(summary["gate"]["verdict"], "H1");
    // The same games as a match of two more pairs (the kind of run is not in the fingerprint):
    // its last two pairs are what a gate on more threads finishes past its stop.
    let more = (pairs + 2).to_string();
    let mut args = vec!["match", "--pairs", &more, "--out", s(&full)];
    args.extend_from_slice(&common);
    ok(&args);
    let fingerprint = |d: &Path| crate::common::json(&d.join("match.json"))["fingerprint"].clone();
    assert_eq!(fingerprint(&gate), fingerprint(&full));
    let extra: String = std::fs::read_to_string(full.join("games.jsonl"))
        .unwrap()
        .lines()
        .skip(2 * pairs as usize)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(extra.lines().count(), 4);
    let mut journal = std::fs::read_to_string(gate.join("games.jsonl")).unwrap();
    journal.push_str(&extra);
    std::fs::write(gate.join("games.jsonl"), journal).unwrap();
    let counted = 2 * pairs;

    // By default: the counted games only, the same numbers as games.csv, and the summary says
    // how many were left out and why.
    let out = gate.join("counted.pgn");
    let said = ok(&["export", s(&gate), "--out", s(&out)]);
    assert!(
        said.starts_with(&format!(
            "{counted} games written to {}; 4 games left out that the run did not count (the \
             gate stopped after {pairs} pairs): --beyond-stop exports them, marked [Counted \
             \"no\"]",
            out.display()
        )),
        "{said}"
    );
    let pgn = std::fs::read_to_string(&out).unwrap();
    let csv: Vec<u64> = std::fs::read_to_string(gate.join("games.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    let got: Vec<u64> = rounds(&pgn).iter().map(|&(n, _)| n).collect();
    assert_eq!(got, csv);
    assert!(!pgn.contains("[Counted"), "nothing to mark");
    // To standard output, the PGN alone; the note goes to standard error.
    let o = crate::common::arena(&["export", s(&gate)]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        rounds(&crate::common::text(&o.stdout)).len() as u64,
        counted
    );
    assert!(
        crate::common::text(&o.stderr).contains("note: 4 games left out that the run did not"),
        "{o:?}"
    );

    // --beyond-stop: every game, the four beyond the stop marked.
    let out = gate.join("all.pgn");
    let said = ok(&["export", s(&gate), "--beyond-stop", "--out", s(&out)]);
    assert!(
        said.contains(&format!(
            "{} games written to {}; 4 of them not counted by the run (the gate stopped after \
             {pairs} pairs), marked [Counted \"no\"]",
            counted + 4,
            out.display()
        )),
        "{said}"
    );
    let all = rounds(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(all.len() as u64, counted + 4);
    for (n, marked) in all {
        assert_eq!(marked, n > counted, "game {n}");
    }
    // One game beyond the stop is refused by number unless asked for.
    let beyond = (counted + 1).to_string();
    let err = crate::common::refused(&["export", s(&gate), "--game", &beyond]);
    assert!(
        err.contains("did not count it") && err.contains("--beyond-stop"),
        "{err}"
    );
    let one = ok(&["export", s(&gate), "--game", &beyond, "--beyond-stop"]);
    assert_eq!(rounds(&one), [(counted + 1, true)]);
    // JieqiBox marks it in the metadata.
    let folder = gate.join("jieqibox");
    ok(&[
        "export",
        s(&gate),
        "--beyond-stop",
        "--format",
        "jieqibox",
        "--out",
        s(&folder),
    ]);
    let width = (counted + 4).to_string().len();
    let meta = |n: u64| {
        crate::common::json(&folder.join(format!("game-{n:0width$}.json")))["metadata"].clone()
    };
    assert_eq!(meta(counted + 1)["counted"], false);
    assert_eq!(meta(counted)["counted"], serde_json::Value::Null);
    for d in [gate, full] {
        let _ = std::fs::remove_dir_all(d);
    }
}
