//! Opening books (`--openings`, `arena book`), repeated pairs, and adjudication (`--resign`,
//! `--draw`) end to end: a gate from one start position is refused, a run from a book replays,
//! resumes and merges to one machine's run, adjudicated games replay and are checked.

use std::path::Path;

use crate::common::{arena, csv_without_timing, json, match_args, ok, refused, s, text, tmp};

/// Borrowed words of owned ones, for the helpers that take `&[&str]`.
fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The games of a folder's journal, parsed.
fn games(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A Xiangqi gate at fixed nodes from the one start position plays one pair over and over:
/// the summary says so and the gate takes no verdict (exit 3) unless told `--allow-repeats`.
/// From the built-in book (the default under Xiangqi rules) no pair repeats.
#[test]
fn a_gate_of_repeated_games_takes_no_verdict() {
    let dir = tmp("repeats");
    // A cap of `max_pairs`: the repeats are every pair after the first and the allowed gate
    // crosses no bound at any cap (its pairs are all alike); the book's pairs are 40 distinct.
    let gate = |max_pairs: &str, extra: &[&str]| {
        let mut args = vec![
            "sprt",
            "--rules",
            "xiangqi",
            "--engine",
            "alphabeta:nodes=400,name=new",
            "--engine",
            "alphabeta:nodes=200,name=base",
            "--elo0",
            "0",
            "--elo1",
            "5",
            "--threads",
            "2",
            "--max-pairs",
            max_pairs,
            "--out",
            s(&dir),
        ];
        args.extend_from_slice(extra);
        let _ = std::fs::remove_dir_all(&dir);
        arena(&args)
    };
    let o = gate("20", &["--openings", "none"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{out}{}", text(&o.stderr));
    assert!(out.contains("REPEATED: "), "{out}");
    assert!(out.contains("repeat earlier pairs move for move"), "{out}");
    let summary = json(&dir.join("summary.json"));
    assert_eq!(summary["gate"]["outcome"], "repeated-games");
    let pairs = summary["gate"]["pairs"].as_u64().unwrap();
    assert_eq!(summary["repeated_pairs"].as_u64().unwrap(), pairs - 1);
    let page = std::fs::read_to_string(dir.join("games.html")).unwrap();
    assert!(page.contains("REPEATED: "), "games.html says it too");
    // --allow-repeats takes the test's own result anyway (here every pair is a Red win and a
    // Black win: no bound is crossed by the cap).
    let o = gate("20", &["--openings", "none", "--allow-repeats"]);
    let out = text(&o.stdout);
    assert!(
        out.contains("Gate: inconclusive, no bound crossed"),
        "{out}"
    );
    assert_eq!(
        json(&dir.join("summary.json"))["gate"]["outcome"],
        "inconclusive"
    );
    // The default under Xiangqi rules: the built-in book, said in the header, no repeats.
    let o = gate("40", &[]);
    let out = text(&o.stdout);
    assert!(out.contains("openings builtin:xiangqi ("), "{out}");
    assert!(!out.contains("REPEATED"), "{out}");
    let summary = json(&dir.join("summary.json"));
    assert_eq!(summary["repeated_pairs"], 0, "{out}");
    assert_eq!(summary["openings"]["file"], "builtin:xiangqi");
    let g = games(&dir);
    assert!(g.iter().all(|g| g["opening"].is_string()));
    assert_ne!(
        g[0]["opening"], g[2]["opening"],
        "pairs start from other positions"
    );
    assert_eq!(
        g[0]["opening"], g[1]["opening"],
        "a pair shares its opening"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A Jieqi book made by `arena book`: its positions have pieces revealed, and pools without
/// them.
fn jieqi_book(dir: &Path) -> std::path::PathBuf {
    let make = |name: &str, threads: &str| {
        let path = dir.join(name);
        let out = ok(&[
            "book",
            "--rules",
            "standard",
            "--positions",
            "6",
            "--plies",
            "4-6",
            "--nodes",
            "300",
            "--max-score",
            "300",
            "--seed",
            "5",
            "--threads",
            threads,
            "--out",
            s(&path),
        ]);
        assert!(out.contains("Wrote 6 positions"), "{out}");
        path
    };
    let book = make("book.epd", "2");
    // The same seed writes the same book at another thread count.
    let again = make("again.epd", "1");
    let body = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("# arena book:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&book), body(&again));
    book
}

fn book_match(dir: &Path, book: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "match",
        "--engine",
        "greedy",
        "--engine",
        "level:easy",
        "--pairs",
        "8",
        "--seed",
        "9",
        "--threads",
        "2",
        "--out",
        s(dir),
        "--openings",
    ];
    let file = format!("file={}", s(book));
    args.push(&file);
    args.push("order=random");
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn a_run_from_a_book_replays_resumes_and_merges() {
    let root = tmp("book");
    let book = jieqi_book(&root);
    let full = root.join("full");
    let out = book_match(&full, &book, &[]);
    assert!(out.contains(", openings "), "{out}");
    assert!(full.join("openings.epd").is_file());
    let g = games(&full);
    for pair in g.chunks(2) {
        assert_eq!(pair[0]["opening"], pair[1]["opening"]);
        assert_eq!(pair[0]["deal"], pair[1]["deal"]);
        let fen = pair[0]["opening"].as_str().unwrap();
        // Some pieces are face up, and the pools are what nobody has seen.
        assert!(fen.contains('x') && fen.contains('X'), "{fen}");
    }
    // Every recorded game replays identically.
    for (pair, game) in [("0", "1"), ("5", "2")] {
        let o = ok(&["replay", s(&full), "--pair", pair, "--game", game]);
        assert!(o.contains("identical"), "{o}");
        assert!(o.contains("Opening: "), "{o}");
    }
    // Export starts each game from its opening.
    let pgn = root.join("games.pgn");
    ok(&["export", s(&full), "--out", s(&pgn)]);
    let text_pgn = std::fs::read_to_string(&pgn).unwrap();
    let first = g[0]["opening"].as_str().unwrap();
    assert!(
        text_pgn.contains(&format!("[FEN \"{first}\"]")),
        "{text_pgn}"
    );
    // An interrupted run resumes to the same games.
    let cut = root.join("cut");
    book_match(&cut, &book, &[]);
    let journal = cut.join("games.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    std::fs::write(&journal, lines[..5].join("\n") + "\n").unwrap();
    ok(&["match", "--out", s(&cut), "--resume"]);
    assert_eq!(csv_without_timing(&full), csv_without_timing(&cut));
    // Shards and their merge equal the one run.
    for k in ["0/2", "1/2"] {
        let shard = root.join(format!("shard{}", &k[..1]));
        book_match(&shard, &book, &["--shard", k]);
    }
    let merged = root.join("merged");
    ok(&[
        "merge",
        s(&root.join("shard0")),
        s(&root.join("shard1")),
        "--out",
        s(&merged),
    ]);
    assert_eq!(csv_without_timing(&full), csv_without_timing(&merged));
    assert!(merged.join("openings.epd").is_file());
    // Another book is another run: resume refuses it, and an edited copy is refused.
    let other = root.join("other.epd");
    std::fs::write(
        &other,
        std::fs::read_to_string(&book)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .take(3)
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .unwrap();
    let o = arena(&match_args(
        "greedy",
        "level:easy",
        "8",
        &[
            "--seed",
            "9",
            "--out",
            s(&full),
            "--resume",
            "--openings",
            s(&other),
        ],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stdout));
    assert!(
        text(&o.stderr).contains("fingerprint"),
        "{}",
        text(&o.stderr)
    );
    std::fs::write(cut.join("openings.epd"), std::fs::read(&other).unwrap()).unwrap();
    let err = refused(&["match", "--out", s(&cut), "--resume"]);
    assert!(err.contains("not the book the run played from"), "{err}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn bad_books_are_refused_with_their_line() {
    let dir = tmp("bad");
    let write = |name: &str, body: &str| {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        p
    };
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let args = |words: &[&str]| -> Vec<String> {
        let mut args = vec![
            "match",
            "--rules",
            "xiangqi",
            "--engine",
            "random",
            "--engine",
            "greedy",
            "--pairs",
            "2",
            "--check",
            "--openings",
        ];
        args.extend_from_slice(words);
        args.into_iter().map(String::from).collect()
    };
    let run = |words: &[&str]| refused(&strs(&args(words)));
    let bad_line = write(
        "bad.epd",
        &format!("# a comment\n{start}\nnot a fen at all\n"),
    );
    let err = run(&[s(&bad_line)]);
    assert!(err.contains("bad.epd:3: not a FEN"), "{err}");
    // A field that does not parse is never taken for an EPD operation.
    let board = start.split(' ').next().unwrap();
    for (i, fields) in ["z - - 0 1", "b - - abc def", "w - - 0 1 junk"]
        .iter()
        .enumerate()
    {
        let f = write(&format!("field{i}.epd"), &format!("{board} {fields}\n"));
        let err = run(&[s(&f)]);
        assert!(err.contains(":1: not a FEN"), "{fields}: {err}");
    }
    let ops = write(
        "ops.epd",
        &format!("{start} ; ce 12; id \"a;b\"; c0 \"x\";\n{board} b - - 0 1 bm h2e2;\n"),
    );
    let checked = ok(&strs(&args(&[s(&ops)])));
    assert!(checked.contains("(2 positions, sequential)"), "{checked}");
    let over = write(
        "over.epd",
        "3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1 ; id \"mated\";\n",
    );
    let err = run(&[s(&over)]);
    assert!(err.contains("over.epd:1: the game is over"), "{err}");
    let err = run(&[&format!("file={}", s(&bad_line)), "order=sideways"]);
    assert!(
        err.contains("order=sideways: sequential or random"),
        "{err}"
    );
    let err = run(&[&format!("file={}", s(&bad_line)), "plies=4"]);
    assert!(err.contains("plies= is for PGN"), "{err}");
    let err = run(&[&format!("file={},colour=red", s(&bad_line))]);
    assert!(err.contains("'colour' is no key"), "{err}");
    let err = run(&[s(&dir.join("missing.epd"))]);
    assert!(err.contains("missing.epd"), "{err}");
    let err = run(&["file=book.txt"]);
    assert!(err.contains("give format=epd, pgn or jieqibox"), "{err}");
    // A Jieqi position with a captured-hidden field is what one side alone knows.
    let private = write(
        "private.epd",
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - R1 0 1\n",
    );
    let err = refused(&[
        "match",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--check",
        "--openings",
        s(&private),
    ]);
    assert!(err.contains("captured-hidden field"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A PGN of games `arena export` wrote is a book: each game's position after plies=N.
#[test]
fn a_pgn_book_takes_each_games_first_plies() {
    let dir = tmp("pgn");
    let played = dir.join("played");
    ok(&match_args("greedy", "random", "3", &["--out", s(&played)]));
    let pgn = dir.join("games.pgn");
    ok(&["export", s(&played), "--out", s(&pgn)]);
    let run = dir.join("run");
    let out = ok(&match_args(
        "greedy",
        "level:easy",
        "6",
        &[
            "--out",
            s(&run),
            "--openings",
            &format!("file={}", s(&pgn)),
            "plies=3",
        ],
    ));
    assert!(out.contains("(6 positions, sequential)"), "{out}");
    let g = games(&run);
    // Black is to move after three plies, and pair p plays game p of the file.
    for pair in g.chunks(2) {
        let fen = pair[0]["opening"].as_str().unwrap();
        assert!(fen.split(' ').nth(1) == Some("b"), "{fen}");
    }
    let o = ok(&["replay", s(&run), "--pair", "4", "--game", "2"]);
    assert!(o.contains("identical"), "{o}");
    // Each engine's moves are counted from the side that moved first (Black here).
    let mut greedy_moves = 0;
    for g in &g {
        let plies = g["plies"].as_u64().unwrap();
        let (first, second) = (plies.div_ceil(2), plies / 2);
        greedy_moves += if g["black"] == "greedy" {
            first
        } else {
            second
        };
    }
    let summary = json(&run.join("summary.json"));
    assert_eq!(
        summary["per_move"]["greedy"]["moves"], greedy_moves,
        "{summary}"
    );
    // Its export numbers Black's first move `N...`.
    let pgn2 = dir.join("run.pgn");
    ok(&["export", s(&run), "--game", "1", "--out", s(&pgn2)]);
    let text2 = std::fs::read_to_string(&pgn2).unwrap();
    assert!(text2.contains("\n2... "), "{text2}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Adjudicated games end by their own termination with the scores that decided in the record;
/// they replay, and a resume of the run gives the same games.
#[test]
fn adjudicated_games_replay_and_resume() {
    let dir = tmp("adjudication");
    let run = |d: &Path, extra: &[&str]| {
        let mut args = vec![
            "match",
            "--engine",
            "alphabeta:nodes=300",
            "--engine",
            "alphabeta:nodes=30,name=weak",
            "--pairs",
            "6",
            "--seed",
            "3",
            "--threads",
            "2",
            "--out",
            s(d),
            "--resign",
            "movecount=2",
            "score=400",
            "--draw",
            "movenumber=30,movecount=4,score=5",
        ];
        args.extend_from_slice(extra);
        ok(&args)
    };
    let full = dir.join("full");
    let out = run(&full, &[]);
    assert!(
        out.contains("Adjudicated (resign movecount=2 score=400, draw"),
        "{out}"
    );
    let g = games(&full);
    let resigned: Vec<&serde_json::Value> = g
        .iter()
        .filter(|g| g["reason"] == "adjudication-resign")
        .collect();
    assert!(!resigned.is_empty(), "{out}");
    for r in &resigned {
        assert!(
            r["detail"].as_str().unwrap().contains("resigns (--resign"),
            "{r}"
        );
    }
    let record = json(&full.join("match.json"));
    assert_eq!(record["adjudication"]["resign"]["movecount"], 2);
    // The resigned games replay identically.
    let csv = std::fs::read_to_string(full.join("games.csv")).unwrap();
    let number = csv
        .lines()
        .find(|l| l.contains("adjudication-resign"))
        .and_then(|l| l.split(',').next())
        .unwrap()
        .to_string();
    let o = ok(&["replay", s(&full), "--game", &number]);
    assert!(o.contains("identical"), "{o}");
    assert!(o.contains("adjudication-resign"), "{o}");
    // A resume of a cut journal gives the same games.
    let cut = dir.join("cut");
    run(&cut, &[]);
    let journal = cut.join("games.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    std::fs::write(&journal, lines[..4].join("\n") + "\n").unwrap();
    ok(&["match", "--out", s(&cut), "--resume"]);
    assert_eq!(csv_without_timing(&full), csv_without_timing(&cut));
    // Without adjudication the same games run on: the fingerprint differs.
    let err = refused(&match_args(
        "alphabeta:nodes=300",
        "alphabeta:nodes=30,name=weak",
        "6",
        &["--seed", "3", "--out", s(&full), "--resume"],
    ));
    assert!(err.contains("fingerprint"), "{err}");
    // Bad words are refused with the flag.
    let err = refused(&[
        "match",
        "--engine",
        "random",
        "--engine",
        "greedy",
        "--check",
        "--resign",
        "movecount=2",
    ]);
    assert!(
        err.contains("--resign") && err.contains("give score="),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
