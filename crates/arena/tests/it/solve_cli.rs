//! `arena suite` and `arena solve` end to end: suites made from real games hold up under an
//! independent check, the same folders give the same file at any thread count, engines solve
//! what they should, and malformed suite lines are reported with their numbers and skipped.

use std::path::Path;

use jieqi_core::{Move, PlayedMove, Position, Rules, View, fen};

use crate::common::{arena, json, s, text, tmp};

/// Plays a small match into `dir`.
fn games(dir: &Path, rules: &str, pairs: &str) {
    let run = arena(&[
        "match",
        "--rules",
        rules,
        "--engine",
        "alphabeta",
        "--engine",
        "random",
        "--nodes",
        "300",
        "--pairs",
        pairs,
        "--seed",
        "5",
        "--threads",
        "2",
        "--no-progress",
        "--out",
        s(dir),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
}

/// Whether the side to move mates within `n` moves: a brute force written apart from the
/// prover the generator uses.
fn mates_within(pos: &mut Position, n: u32) -> bool {
    let moves = pos.legal_moves();
    moves.as_slice().iter().any(|&m| {
        let pm = PlayedMove::plain(m);
        let undo = pos.make(pm);
        let ok = defender_lost(pos, n - 1);
        pos.unmake(pm, undo);
        ok
    })
}

fn defender_lost(pos: &mut Position, k: u32) -> bool {
    let moves = pos.legal_moves();
    if moves.as_slice().is_empty() {
        return true;
    }
    k > 0
        && moves.as_slice().iter().all(|&d| {
            let pm = PlayedMove::plain(d);
            let undo = pos.make(pm);
            let ok = mates_within(pos, k);
            pos.unmake(pm, undo);
            ok
        })
}

/// The suite's positions as (fen, bm moves, dm).
fn entries(suite: &str) -> Vec<(String, Vec<Move>, Option<u32>)> {
    suite
        .lines()
        .filter(|l| !l.starts_with(';') && !l.trim().is_empty())
        .map(|l| {
            let (fen_part, ops) = l.split_once(" bm ").expect("bm");
            let bm_text = ops.split(';').next().unwrap();
            let bm = bm_text
                .split_whitespace()
                .map(|m| Move::from_text(m).unwrap())
                .collect();
            let dm = ops
                .split(';')
                .find_map(|op| op.trim().strip_prefix("dm "))
                .map(|n| n.parse().unwrap());
            (fen_part.to_string(), bm, dm)
        })
        .collect()
}

#[test]
fn a_mate_suite_holds_up_and_engines_solve_it() {
    let dir = tmp("mates");
    let folder = dir.join("games");
    games(&folder, "xiangqi", "12");
    let suite = dir.join("mates.epd");
    let made = arena(&[
        "suite",
        "mates",
        s(&folder),
        "--max-moves",
        "2",
        "--threads",
        "2",
        "--out",
        s(&suite),
    ]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    assert!(
        text(&made.stdout).contains("mate in 1:"),
        "{}",
        text(&made.stdout)
    );
    let body = std::fs::read_to_string(&suite).unwrap();
    // The same folder at one thread gives the same file.
    let again = dir.join("again.epd");
    let one = arena(&[
        "suite",
        "mates",
        s(&folder),
        "--max-moves",
        "2",
        "--threads",
        "1",
        "--out",
        s(&again),
    ]);
    assert!(one.status.success(), "{}", text(&one.stderr));
    assert_eq!(body, std::fs::read_to_string(&again).unwrap());
    let list = entries(&body);
    assert!(list.len() >= 10, "{body}");
    let rules = Rules::xiangqi();
    for (fen_text, bm, dm) in &list {
        let n = dm.expect("dm");
        let mut pos = Position::from_fen(fen_text, &rules).unwrap();
        // Mate in n, and in no fewer moves.
        assert!(mates_within(&mut pos, n), "{fen_text}");
        assert!(n == 1 || !mates_within(&mut pos, n - 1), "{fen_text}");
        // Every bm move mates in n; for mates in one, bm is exactly the mating moves (checking
        // every other move of a longer mate is too slow for a test).
        for &m in pos.clone().legal_moves().as_slice() {
            if n > 1 && !bm.contains(&m) {
                continue;
            }
            let pm = PlayedMove::plain(m);
            let undo = pos.make(pm);
            let mates = defender_lost(&mut pos, n - 1);
            pos.unmake(pm, undo);
            assert_eq!(mates, bm.contains(&m), "{fen_text} {m}");
        }
    }
    let out = dir.join("solved");
    let solved = arena(&[
        "solve",
        s(&suite),
        "--rules",
        "xiangqi",
        "--engine",
        "alphabeta",
        "--engine",
        "mcts-solver",
        "--nodes",
        "20000",
        "--threads",
        "2",
        "--no-progress",
        "--out",
        s(&out),
    ]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    let report = text(&solved.stdout);
    let total = list.len();
    for engine in ["alphabeta", "mcts-solver"] {
        // Mates in one and two are within 20,000 nodes of both engines.
        assert!(
            report.contains(&format!("{engine}: solved {total} / {total}")),
            "{report}"
        );
    }
    let solve_json = json(&out.join("solve.json"));
    let positions = solve_json["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 2 * total);
    for p in positions {
        assert_eq!(p["solved"], true, "{p}");
        assert_eq!(p["mate_proved"], true, "{p}");
        let found = p["found_nodes"].as_u64().unwrap();
        assert!(found <= p["nodes"].as_u64().unwrap(), "{p}");
    }
    let csv = std::fs::read_to_string(out.join("solve.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 2 * total);
    assert!(csv.starts_with("engine,index,line,id,expected,move,score"));
}

#[test]
fn a_tactics_suite_has_one_right_move_whatever_the_hidden_pieces() {
    let dir = tmp("tactics");
    let folder = dir.join("games");
    games(&folder, "standard", "4");
    let suite = dir.join("tactics.epd");
    let made = arena(&[
        "suite",
        "tactics",
        s(&folder),
        // Games against a random mover are lopsided: no limit on the material lead.
        "--max-balance",
        "100000",
        "--max",
        "12",
        "--threads",
        "2",
        "--out",
        s(&suite),
    ]);
    assert!(made.status.success(), "{}", text(&made.stderr));
    let body = std::fs::read_to_string(&suite).unwrap();
    let list = entries(&body);
    assert!(!list.is_empty(), "{body}");
    let rules = Rules::standard();
    for (fen_text, bm, dm) in &list {
        assert_eq!(*dm, None);
        assert_eq!(bm.len(), 1, "{fen_text}");
        let setup = fen::parse(fen_text).unwrap();
        let view = View::from_setup(&setup, &rules).unwrap();
        let pos = view.position();
        assert!(pos.legal_moves().as_slice().contains(&bm[0]), "{fen_text}");
        assert!(!pos.in_check(), "{fen_text}");
        let hidden: u32 = jieqi_core::Color::ALL
            .iter()
            .map(|&c| pos.hidden_count(c))
            .sum();
        assert!(hidden >= 1, "{fen_text}");
        // The suite's view is the side to move's: a FEN with the captured field.
        assert!(setup.captured_hidden.is_some(), "{fen_text}");
    }
    let out = dir.join("solved");
    let solved = arena(&[
        "solve",
        s(&suite),
        "--engine",
        "alphabeta",
        "--depth",
        "4",
        "--no-progress",
        "--out",
        s(&out),
    ]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    assert!(
        text(&solved.stdout).contains(&format!("/ {}", list.len())),
        "{}",
        text(&solved.stdout)
    );
}

#[test]
fn malformed_suite_lines_are_reported_and_skipped() {
    let dir = tmp("bad");
    let suite = dir.join("bad.epd");
    let mate1 = "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    std::fs::write(
        &suite,
        format!(
            "; a suite with problems\n\
             {mate1} dm 1; id \"good\";\n\
             not a fen at all\n\
             {mate1} bm a7b6;\n\
             {mate1} dm x;\n\
             {mate1} id \"unclosed\n\
             4k4/1R7/R8/9/9/9/9/9/3K5 w - - 0 1 bm a7a9;\n\
             {mate1} id \"nothing asked\";\n"
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let run = arena(&[
        "solve",
        s(&suite),
        "--rules",
        "xiangqi",
        "--engine",
        "greedy",
        "--no-progress",
        "--out",
        s(&out),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let err = text(&run.stderr);
    for line in 3..=8 {
        assert!(
            err.contains(&format!("bad.epd:{line}: skipped:")),
            "line {line}: {err}"
        );
    }
    assert!(err.contains("not a legal move"), "{err}");
    assert!(err.contains("quoted"), "{err}");
    assert!(err.contains("nothing to check"), "{err}");
    assert!(
        text(&run.stdout).contains("greedy: solved 1 / 1"),
        "{}",
        text(&run.stdout)
    );
    let solve_json = json(&out.join("solve.json"));
    assert_eq!(solve_json["skipped_lines"].as_array().unwrap().len(), 6);

    // A suite with nothing usable, a missing file, a Jieqi FEN under Xiangqi rules, bad flags:
    // exit 2 with a message.
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "; nothing\nnot a fen\n").unwrap();
    let jieqi = dir.join("jieqi.epd");
    std::fs::write(&jieqi, "4k4/9/9/x8/R8/9/9/9/9/3K5 w c1 0 1 bm a5a6;\n").unwrap();
    for (args, says) in [
        (
            vec![s(&empty), "--engine", "greedy"],
            "no position to solve",
        ),
        (
            vec!["/no/such/suite.epd", "--engine", "greedy"],
            "/no/such/suite.epd",
        ),
        (
            vec![s(&jieqi), "--engine", "greedy", "--rules", "xiangqi"],
            "no position to solve",
        ),
        (vec![s(&suite), "--engine", "nosuchengine"], "nosuchengine"),
        (
            vec![s(&suite), "--engine", "greedy", "--threads", "0"],
            "--threads",
        ),
    ] {
        let mut all = vec!["solve", "--no-progress", "--out", s(&out)];
        all.extend(args);
        let run = arena(&all);
        assert_eq!(run.status.code(), Some(2), "{all:?}: {}", text(&run.stderr));
        assert!(
            text(&run.stderr).contains(says),
            "{all:?}: {}",
            text(&run.stderr)
        );
    }
    // An engine that answers an illegal move fails the position, even where any legal move
    // not in `am` would be right.
    let am_only = dir.join("am-only.epd");
    std::fs::write(
        &am_only,
        format!(
            "{mate1} am a7a8; id \"am only\";\n\
             3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 am e0e1 e0f0;\n"
        ),
    )
    .unwrap();
    let run = arena(&[
        "solve",
        s(&am_only),
        "--rules",
        "xiangqi",
        "--engine",
        "faulty:mode=illegal,after=0",
        "--no-progress",
        "--out",
        s(&out),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let report = text(&run.stdout);
    assert!(report.contains("failed: illegal move"), "{report}");
    assert!(report.contains("solved 0 / 1"), "{report}");
    assert!(
        text(&run.stderr).contains("am-only.epd:2: skipped: every legal move is an am move"),
        "{}",
        text(&run.stderr)
    );
    // Limits of zero are refused before anything runs.
    for flag in ["--nodes", "--depth", "--movetime", "--move-timeout"] {
        let run = arena(&["solve", s(&suite), "--engine", "greedy", flag, "0"]);
        assert_eq!(run.status.code(), Some(2), "{flag}");
        assert!(text(&run.stderr).contains(flag), "{}", text(&run.stderr));
    }
    // Mate suites need games without hidden pieces.
    let folder = dir.join("jieqi-games");
    games(&folder, "standard", "1");
    let run = arena(&["suite", "mates", s(&folder), "--out", s(&dir.join("m.epd"))]);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(
        text(&run.stderr).contains("hidden pieces"),
        "{}",
        text(&run.stderr)
    );
}
