//! `arena export --format jieqibox` against JieqiBox's own save format, field by field.
//!
//! The expected file is written out by hand from JieqiBox's rules (github.com/Velithia/JieqiBox:
//! `NOTATION_FORMAT.md`, `src/composables/useChessGame.ts`, `src/utils/constants.ts`), each rule
//! cited where it is used, for a game with every kind of move JieqiBox records differently.

use serde_json::{Value, json};

use crate::common::{match_args, ok, s, tmp};

/// One recorded ply: the move text, and its search info (nodes, ms, depth, score).
type Ply = (
    &'static str,
    u64,
    Option<f64>,
    Option<u32>,
    Option<&'static str>,
);

/// The game: ten plies from the deal of `--seed 7`'s first pair (Red's hidden pieces a0 R, b0 P,
/// b2 N, h2 P, i0 C; Black's a9 c, b9 p, h9 n, i9 a, a6 p), with the recorded search info of
/// each ply (nodes, ms, depth, score).
const PLIES: [Ply; 10] = [
    // A hidden cannon reveals as a pawn and takes the hidden horse on h9.
    ("h2h9Pn", 1200, Some(15.4), Some(7), Some("+0.35")),
    // A hidden piece reveals as an advisor and takes the face-up pawn.
    ("i9h9a", 900, Some(12.6), Some(6), Some("-0.20")),
    // Reveal as a horse, take a hidden pawn.
    ("b2b9Np", 5000, Some(40.0), Some(14), Some("66.7%")),
    // Reveal as a cannon, take the face-up horse; a ply with no depth and no score.
    ("a9b9c", 10, Some(0.4), None, None),
    // Reveal as a cannon without a capture; a record without a time.
    ("i0i1C", 3000, None, Some(9), Some("#2")),
    // A face-up cannon takes a hidden piece: only the captured letter, in its owner's case.
    ("b9b0P", 3100, Some(20.0), Some(9), Some("#-2")),
    // Face-up moves without a capture.
    ("i1h1", 3200, Some(21.0), Some(11), Some("#3")),
    ("e9e8", 3300, Some(22.0), Some(11), Some("#-4")),
    // A face-up cannon takes a face-up advisor: no letter at all.
    ("h1h9", 3400, Some(1234.5), Some(12), Some("#1")),
    // A hidden pawn reveals and steps forward.
    ("a6a5p", 3500, Some(3.0), Some(1), Some("+0.00")),
];

/// Replaces the first game of the folder's journal with [`PLIES`], a draw at the 10-ply limit.
fn write_game(dir: &std::path::Path) {
    let journal = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut game: Value = serde_json::from_str(&lines[0]).unwrap();
    // The checksum would refuse an edited line; journals from before checksums have none (on
    // any line: a journal never mixes the two).
    game.as_object_mut().unwrap().remove("check");
    game["moves"] = json!(PLIES.iter().map(|p| p.0).collect::<Vec<_>>());
    game["search"] = json!(
        PLIES
            .iter()
            .map(|&(mv, nodes, ms, depth, score)| {
                let mut info = json!({"nodes": nodes, "pv": [&mv[..4]]});
                if let Some(ms) = ms {
                    info["ms"] = json!(ms);
                }
                if let Some(d) = depth {
                    info["depth"] = json!(d);
                }
                if let Some(sc) = score {
                    info["score"] = json!(sc);
                }
                info
            })
            .collect::<Vec<_>>()
    );
    game["plies"] = json!(10);
    game["captures"] = json!(6);
    game["reveals"] = json!(6);
    game["result"] = json!("1/2-1/2");
    game["reason"] = json!("max-plies");
    game.as_object_mut().unwrap().remove("detail");
    lines[0] = game.to_string();
    for line in lines.iter_mut().skip(1) {
        let mut v: Value = serde_json::from_str(line).unwrap();
        v.as_object_mut().unwrap().remove("check");
        *line = v.to_string();
    }
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
}

#[test]
fn jieqibox_export_is_what_jieqibox_saves() {
    let dir = tmp("game");
    ok(&match_args(
        "random:name=a",
        "random:name=b",
        "1",
        &[
            "--max-plies",
            "10",
            "--seed",
            "7",
            "--threads",
            "1",
            "--out",
            s(&dir),
        ],
    ));
    write_game(&dir);
    let mut got: Value = serde_json::from_str(&ok(&[
        "export",
        s(&dir),
        "--game",
        "1",
        "--format",
        "jieqibox",
    ]))
    .unwrap();
    // The date is the run's: YYYY-MM-DD (NOTATION_FORMAT.md, `date`).
    let date = got["metadata"]["date"].as_str().unwrap().to_string();
    assert!(
        date.len() == 10
            && date.chars().enumerate().all(|(i, c)| if i == 4 || i == 7 {
                c == '-'
            } else {
                c.is_ascii_digit()
            }),
        "{date}"
    );
    got["metadata"]["date"] = json!("DATE");

    // Every position is written by JieqiBox's `generateFen` (useChessGame.ts), "new FEN format":
    // `board side pool captured halfmove fullmove`, the pool being the identities still hidden on
    // the board and the captured field those of the hidden pieces taken (`unrevealedPieceCounts`
    // and `capturedUnrevealedPieceCounts`: in random flip mode a capture of a hidden piece moves
    // its identity from the first to the second, `movePiece`), both written role by role in
    // `RNBAKCP` order with Red's letter first, `-` when empty. The halfmove clock is reset by a
    // capture only, not by a reveal, and the fullmove number grows when Black has moved
    // (`movePiece`).
    let fens = [
        "xxxxkxxPx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X7/9/XXXXKXXXX \
         b R2r2N2n1B2b2A2a2C2c2P4p5 n1 0 1",
        "xxxxkxxa1/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X7/9/XXXXKXXXX \
         w R2r2N2n1B2b2A2a1C2c2P4p5 n1 0 2",
        "xNxxkxxa1/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/9/9/XXXXKXXXX \
         b R2r2N1n1B2b2A2a1C2c2P4p4 n1p1 0 2",
        "1cxxkxxa1/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/9/9/XXXXKXXXX \
         w R2r2N1n1B2b2A2a1C2c1P4p4 n1p1 0 3",
        // A reveal without a capture: the halfmove clock counts on.
        "1cxxkxxa1/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/9/8C/XXXXKXXX1 \
         b R2r2N1n1B2b2A2a1C1c1P4p4 n1p1 1 3",
        // Red's hidden b0 pawn taken: `P1` between the horse and Black's pawn.
        "2xxkxxa1/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/9/8C/XcXXKXXX1 \
         w R2r2N1n1B2b2A2a1C1c1P3p4 n1P1p1 0 4",
        "2xxkxxa1/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/9/7C1/XcXXKXXX1 \
         b R2r2N1n1B2b2A2a1C1c1P3p4 n1P1p1 1 4",
        "2xx1xxa1/4k4/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/9/7C1/XcXXKXXX1 \
         w R2r2N1n1B2b2A2a1C1c1P3p4 n1P1p1 2 5",
        "2xx1xxC1/4k4/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/9/9/XcXXKXXX1 \
         b R2r2N1n1B2b2A2a1C1c1P3p4 n1P1p1 0 5",
        "2xx1xxC1/4k4/1x5x1/2x1x1x1x/p8/9/X1X1X1X1X/9/9/XcXXKXXX1 \
         w R2r2N1n1B2b2A2a1C1c1P3p3 n1P1p1 1 6",
    ];
    // `engineScore` (recordAndFinalize in useChessGame.ts, NOTATION_FORMAT.md "Engine score (mate)
    // encoding"): `score cp X` is X; `score mate N` is sign(N) · (MATE_SCORE_BASE − |N|) with
    // MATE_SCORE_BASE = 30000 (constants.ts) and N as the engine said it, in moves. The arena's
    // `#N` is the engine's `score mate N`; a win rate is the `score cp` jieqi-uci reports for it
    // (66.7 % → 121). No score: no `engineScore` (JSON.stringify drops undefined).
    let scores = [
        Some(35),
        Some(-20),
        Some(121),
        None,
        Some(29_998),
        Some(-29_998),
        Some(29_997),
        Some(-29_996),
        Some(29_999),
        Some(0),
    ];
    // `engineTime`: milliseconds, 0 when there is none (NOTATION_FORMAT.md; recordAndFinalize
    // always sets it on a move).
    let times = [15, 13, 40, 0, 0, 20, 21, 22, 1235, 3];
    let moves: Vec<Value> = PLIES
        .iter()
        .enumerate()
        .map(|(i, &(mv, nodes, _, depth, _))| {
            // `data` (movePiece, completeFlipAfterMove): the squares, the revealed identity in
            // the mover's case, then a captured hidden piece's identity in its owner's case; a
            // captured face-up piece adds nothing (the move list's 翻/吃 come from these letters,
            // src/utils/chineseNotation.ts).
            let mut m = json!({"type": "move", "data": mv, "fen": fens[i], "engineTime": times[i]});
            if let Some(score) = scores[i] {
                m["engineScore"] = json!(score);
            }
            // engineDepth and engineNodes: fields of JieqiBox's HistoryEntry (its evaluation
            // chart reads them), which its own save leaves out; the export keeps them.
            if let Some(d) = depth {
                m["engineDepth"] = json!(d);
            }
            m["engineNodes"] = json!(nodes);
            m
        })
        .collect();
    let want = json!({
        "metadata": {
            "event": "arena match",
            "site": "jieqi arena",
            "date": "DATE",
            "round": "1",
            "white": "a",
            "black": "b",
            "result": "1/2-1/2",
            // A game from the standard start begins from JieqiBox's START_FEN (constants.ts), the
            // text a new game there has, pool in its own order.
            "initialFen": "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX \
                           w A2B2N2R2C2P5a2b2n2r2c2p5 - 0 1",
            // The identities came from a random deal, JieqiBox's random flip mode: the mode in
            // which it writes captured-hidden letters and keeps the captured pool.
            "flipMode": "random",
            "currentFen": fens[9],
            "openingComment": got["metadata"]["openingComment"].clone(),
        },
        "moves": moves,
    });
    for (i, (g, w)) in got["moves"]
        .as_array()
        .unwrap()
        .iter()
        .zip(want["moves"].as_array().unwrap())
        .enumerate()
    {
        assert_eq!(g, w, "ply {}", i + 1);
    }
    assert_eq!(got, want);
    let comment = got["metadata"]["openingComment"].as_str().unwrap();
    assert!(
        comment.starts_with("jieqi game 1 (pair 0, seed ") && comment.ends_with("): max-plies"),
        "{comment}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Whether a pool field is written as JieqiBox's `generateFen` writes it (useChessGame.ts): role
/// by role in `RNBAKCP` order, Red's letter before Black's, each with its count; `-` when empty.
fn in_jieqibox_order(field: &str) -> bool {
    let order = "RrNnBbAaKkCcPp";
    let letters: Vec<usize> = field
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| order.find(c).expect("a piece letter"))
        .collect();
    field == "-" || (!letters.is_empty() && letters.windows(2).all(|w| w[0] < w[1]))
}

/// `arena jai`'s `info fen` and export's `fen` fields are one writer's, JieqiBox's: pools in its
/// `generateFen` order. Regression: jai wrote Pikafish's order (`R2A2C2P5N2B2r2a2c2p5n2b2`).
#[test]
fn jai_and_export_write_fens_in_jieqiboxs_order() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let dir = tmp("jai-fen");
    let mut child = Command::new(crate::common::arena_bin())
        .args(["jai", "--engine", "greedy", "--engine", "random"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("arena jai starts");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    for command in [
        "jai".to_string(),
        "setoption name TotalRounds value 1".to_string(),
        "setoption name MoveTimeMs value 0".to_string(),
        "setoption name DisplayDelayMs value 0".to_string(),
        format!("setoption name OutDir value {}", s(&dir)),
        "startmatch".to_string(),
    ] {
        writeln!(stdin, "{command}").unwrap();
    }
    let mut fens = Vec::new();
    let end = loop {
        let line = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("the match ends");
        if let Some(fen) = line.strip_prefix("info fen ") {
            fens.push(fen.to_string());
        }
        if line.starts_with("info string match finished") {
            break line;
        }
    };
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
    // Game 1 starts from the rules' start: every identity in the pool, nothing captured.
    assert_eq!(
        fens[0],
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w \
         R2r2N2n2B2b2A2a2C2c2P5p5 - 0 1"
    );
    // Export's positions of the games jai played, pools and captured fields, in the same order.
    let folder = end[end.find(", in ").unwrap() + 5..]
        .split([' ', ';'])
        .next()
        .unwrap()
        .to_string();
    let out = dir.join("game-1.json");
    ok(&[
        "export",
        &folder,
        "--game",
        "1",
        "--format",
        "jieqibox",
        "--out",
        s(&out),
    ]);
    let game: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let written = game["moves"].as_array().unwrap().iter();
    let written: Vec<&str> = written.map(|m| m["fen"].as_str().unwrap()).collect();
    assert!(!written.is_empty());
    for fen in fens.iter().map(String::as_str).chain(written) {
        let fields: Vec<&str> = fen.split(' ').collect();
        assert_eq!(fields.len(), 6, "{fen}");
        assert!(in_jieqibox_order(fields[2]), "{fen}");
        assert!(in_jieqibox_order(fields[3]), "{fen}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
