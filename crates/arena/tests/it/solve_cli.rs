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

/// `arena suite mates` of the games in `folder`, mates in at most 2, at `threads`, into `out`.
fn mate_suite(folder: &Path, threads: &str, out: &Path) -> std::process::Output {
    arena(&[
        "suite",
        "mates",
        s(folder),
        "--max-moves",
        "2",
        "--threads",
        threads,
        "--out",
        s(out),
    ])
}

#[test]
fn a_mate_suite_holds_up_and_engines_solve_it() {
    let dir = tmp("mates");
    let folder = dir.join("games");
    games(&folder, "xiangqi", "12");
    let suite = dir.join("mates.epd");
    let made = mate_suite(&folder, "2", &suite);
    assert!(made.status.success(), "{}", text(&made.stderr));
    assert!(
        text(&made.stdout).contains("mate in 1:"),
        "{}",
        text(&made.stdout)
    );
    let body = std::fs::read_to_string(&suite).unwrap();
    // The same folder at one thread gives the same file.
    let again = dir.join("again.epd");
    let one = mate_suite(&folder, "1", &again);
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
    // One pair's games give a few positions (two), each checked below as four pairs' six were:
    // the search behind each costs seconds, so more pairs only repeat the checks.
    games(&folder, "standard", "1");
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
    let run = solve(&suite, &out, &[]);
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
    let run = solve_with(
        "faulty:mode=illegal,after=0",
        &am_only,
        &dir.join("out-am"),
        &[],
    );
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

/// A suite of five positions: three mates in one (which `greedy` solves) and two asking for a
/// quiet rook move (which it does not), in a folder of its own.
fn five_positions(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = tmp(name);
    let suite = dir.join("five.epd");
    let mate1 = "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    std::fs::write(
        &suite,
        format!(
            "{mate1} dm 1; id \"m1\";\n\
             {mate1} bm a7a8; id \"w1\";\n\
             {mate1} dm 1; id \"m2\";\n\
             {mate1} bm a7a8; id \"w2\";\n\
             {mate1} dm 1; id \"m3\";\n"
        ),
    )
    .unwrap();
    (dir, suite)
}

/// `arena solve` with `extra` flags on `suite` into `out`, with greedy, xiangqi rules.
fn solve(suite: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    solve_with("greedy", suite, out, extra)
}

/// `arena solve` with `extra` flags on `suite` into `out`, with `engine`, xiangqi rules.
fn solve_with(engine: &str, suite: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "solve",
        s(suite),
        "--rules",
        "xiangqi",
        "--engine",
        engine,
        "--no-progress",
        "--out",
        s(out),
    ];
    args.extend(extra);
    arena(&args)
}

#[test]
fn min_solved_passes_fails_and_refuses_bad_values() {
    let (dir, suite) = five_positions("min-solved");
    for (n, (flag, status, says)) in [
        ("3", 0, "greedy passed (3 solved, 3 needed)"),
        ("4", 1, "greedy FAILED (3 solved, 4 needed)"),
        ("60%", 0, "greedy passed (3 solved, 3 needed)"),
        ("61%", 1, "greedy FAILED (3 solved, 4 needed)"),
        ("100%", 1, "greedy FAILED (3 solved, 5 needed)"),
    ]
    .into_iter()
    .enumerate()
    {
        let out = dir.join(format!("run-{n}"));
        let run = solve(&suite, &out, &["--min-solved", flag]);
        assert_eq!(
            run.status.code(),
            Some(status),
            "{flag}: {}",
            text(&run.stderr)
        );
        let report = text(&run.stdout);
        assert!(
            report.contains(&format!("--min-solved {flag}: {says}")),
            "{report}"
        );
        // The table and the files are there either way.
        assert!(report.contains("greedy: solved 3 / 5"), "{report}");
        let record = json(&out.join("solve.json"));
        assert_eq!(record["min_solved"]["passed"], status == 0, "{record}");
    }
    // Without the flag the run passes whatever it solved.
    let run = solve(&suite, &dir.join("no-flag"), &[]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    for bad in ["0", "6", "0%", "101%", "abc", "-1", "nan%", "3.5", ""] {
        let flag = format!("--min-solved={bad}");
        let run = solve(&suite, &dir.join("bad"), &[&flag]);
        assert_eq!(run.status.code(), Some(2), "{bad}: {}", text(&run.stderr));
        assert!(
            text(&run.stderr).contains("--min-solved"),
            "{bad}: {}",
            text(&run.stderr)
        );
        assert!(!dir.join("bad").join("solve.json").exists(), "{bad}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// solve.csv without its timing columns (ms, first_ms, found_ms).
fn csv_without_timing(dir: &Path) -> Vec<String> {
    let body = std::fs::read_to_string(dir.join("solve.csv")).unwrap();
    let header: Vec<&str> = body.lines().next().unwrap().split(',').collect();
    let timing: Vec<usize> = ["ms", "first_ms", "found_ms"]
        .iter()
        .map(|c| header.iter().position(|h| h == c).unwrap())
        .collect();
    body.lines()
        .map(|l| {
            l.split(',')
                .enumerate()
                .filter(|(i, _)| !timing.contains(i))
                .map(|(_, f)| f)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[test]
fn an_interrupted_solve_resumes_to_the_same_results() {
    let (dir, suite) = five_positions("solve-resume");
    let (whole, cut) = (dir.join("whole"), dir.join("cut"));
    let run = solve(&suite, &whole, &["--threads", "2"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let run = solve(&suite, &cut, &["--threads", "2"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    // The journal: the setup, then one line per position.
    let journal = cut.join("solve.jsonl");
    let body = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(lines.len(), 6, "{body}");
    // Interrupted after two positions, while the third was being written.
    let mut kept = lines[..3].join("\n");
    kept.push('\n');
    kept.push_str(&lines[3][..lines[3].len() / 2]);
    std::fs::write(&journal, kept).unwrap();
    for f in ["solve.csv", "solve.json"] {
        std::fs::remove_file(cut.join(f)).unwrap();
    }
    // Without --resume the folder is refused.
    let run = solve(&suite, &cut, &[]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("--resume"),
        "{}",
        text(&run.stderr)
    );
    let run = solve(&suite, &cut, &["--threads", "1", "--resume"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(
        text(&run.stdout).contains("resumed: 2 of 5 searches kept"),
        "{}",
        text(&run.stdout)
    );
    assert!(
        text(&run.stderr).contains("cut short"),
        "{}",
        text(&run.stderr)
    );
    assert_eq!(csv_without_timing(&whole), csv_without_timing(&cut));
    assert!(text(&run.stdout).contains("greedy: solved 3 / 5"));
    assert_eq!(
        std::fs::read_to_string(&journal).unwrap().lines().count(),
        6,
        "the journal is whole again"
    );
    // A resume of another setup is refused, naming what differs.
    let other = dir.join("other.epd");
    let mut text_of = std::fs::read_to_string(&suite).unwrap();
    text_of.push_str("; one more comment\n");
    std::fs::write(&other, text_of).unwrap();
    for (suite, extra, says) in [
        (&other, vec![], "suite's content"),
        (&suite, vec!["--nodes", "100"], "limits"),
        (&suite, vec!["--seed", "2"], "--seed"),
    ] {
        let mut flags = extra.clone();
        flags.push("--resume");
        let run = solve(suite, &cut, &flags);
        assert_eq!(run.status.code(), Some(2), "{extra:?}");
        assert!(
            text(&run.stderr).contains(says) && text(&run.stderr).contains("another run"),
            "{extra:?}: {}",
            text(&run.stderr)
        );
    }
    let run = arena(&[
        "solve",
        s(&suite),
        "--rules",
        "xiangqi",
        "--engine",
        "random",
        "--out",
        s(&cut),
        "--resume",
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("engines greedy there, random here"),
        "{}",
        text(&run.stderr)
    );
    // A damaged line other than the last is named.
    let body = std::fs::read_to_string(&journal).unwrap();
    std::fs::write(
        &journal,
        body.replacen("\"solved\":true", "\"solved\":false", 1),
    )
    .unwrap();
    let run = solve(&suite, &cut, &["--resume"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        text(&run.stderr).contains("checksum"),
        "{}",
        text(&run.stderr)
    );
    // A finished search's line given twice is refused, as a match's pair given twice is.
    let mut lines: Vec<&str> = body.lines().collect();
    lines.insert(2, lines[1]);
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    let run = solve(&suite, &cut, &["--resume"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("twice"), "{}", text(&run.stderr));
    let _ = std::fs::remove_dir_all(dir);
}

/// Every `mate N` an engine reports goes to the exhaustive prover: a false claim is shown as
/// refuted and does not solve a `dm` position, even with a right move; `--mate-check-nodes 0`
/// turns the check off.
#[test]
fn a_false_mate_claim_is_refuted_and_solves_nothing() {
    let dir = tmp("solve-false-mate");
    let suite = dir.join("one.epd");
    // a7a8 is no mate: the king has f9.
    std::fs::write(
        &suite,
        "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1 bm a7a8; dm 1; id \"liar\";\n",
    )
    .unwrap();
    let engine = crate::common::scripted_engine(
        &dir,
        "liar",
        &[],
        "echo 'info depth 1 score mate 1 pv a7a8'; echo 'bestmove a7a8'",
    );
    let spec = format!("uci:path={engine},name=liar");
    let run_with = |out: &str, extra: &[&str]| {
        let out = dir.join(out);
        let run = solve_with(&spec, &suite, &out, extra);
        assert!(run.status.success(), "{}", text(&run.stderr));
        (
            text(&run.stdout),
            std::fs::read_to_string(out.join("solve.csv")).unwrap(),
        )
    };
    let (stdout, csv) = run_with("checked", &[]);
    assert!(stdout.contains("mate claim refuted"), "{stdout}");
    assert!(
        stdout.contains("liar: solved 0 / 1")
            && stdout.contains("mate claims 1: 0 proved, 1 refuted"),
        "{stdout}"
    );
    assert!(csv.contains(",refuted,false,"), "{csv}");
    let (stdout, csv) = run_with("unchecked", &["--mate-check-nodes", "0"]);
    assert!(stdout.contains("liar: solved 1 / 1"), "{stdout}");
    assert!(!stdout.contains("mate claim"), "{stdout}");
    assert!(!csv.contains("refuted"), "{csv}");
    let _ = std::fs::remove_dir_all(dir);
}
