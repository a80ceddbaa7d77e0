//! The games of PGN and JieqiBox files played through, and what each malformed file is told.

use jieqi_core::{Color, Role, Square};
use serde_json::Value;

use super::*;
use crate::records::GameResult;
use crate::records::deal_seed::deal_for_seed;
use crate::records::formats::pgn::{MAX_PGN_GAME, MAX_PGN_TAGS};

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-import-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let path = tmp(name).join("game");
    std::fs::write(&path, text).unwrap();
    path
}

/// A short legal Jieqi game: Red's hidden h2 piece, a cannon, takes the hidden black piece on
/// h9 (a horse), Black's hidden a6 piece steps forward revealed as a chariot, and Red's hidden
/// b2 piece, a cannon too, takes b9's hidden piece (an elephant).
const MOVES: [&str; 3] = ["h2h9Cn", "a6a5r", "b2b9Cb"];

fn jieqibox_text(comment: Option<&str>, result: &str) -> String {
    let moves: Vec<Value> = MOVES
        .iter()
        .enumerate()
        .map(|(i, m)| {
            serde_json::json!({"type": "move", "data": m, "engineScore": 30 - 20 * i as i64,
                               "engineTime": 12})
        })
        .collect();
    let mut meta = serde_json::json!({"white": "红方", "black": "黑方", "result": result,
        "flipMode": "random"});
    if let Some(c) = comment {
        meta["openingComment"] = Value::from(c);
    }
    serde_json::json!({"metadata": meta, "moves": moves}).to_string()
}

#[test]
fn a_jieqibox_file_without_a_seed_is_completed() {
    let path = write("no-seed", &jieqibox_text(None, "*"));
    let g = study_from_file(&path, None).unwrap();
    assert!(!g.truth_known);
    assert_eq!(g.seed, None);
    assert_eq!(g.moves.len(), 3);
    assert_eq!((g.red.as_str(), g.black.as_str()), ("红方", "黑方"));
    // What the game showed sits at its start squares.
    let truth = g.start.truth();
    assert_eq!(truth.identity(Square::H2), Some(Role::Cannon));
    assert_eq!(truth.identity(Square::H9), Some(Role::Horse));
    assert_eq!(truth.identity(Square::A6), Some(Role::Chariot));
    assert_eq!(truth.identity(Square::B9), Some(Role::Elephant));
    assert_eq!(truth.identity(Square::B2), Some(Role::Cannon));
    // The rest comes from the pool in role order: Red's a0 is a chariot, then another.
    assert_eq!(truth.identity(Square::A0), Some(Role::Chariot));
    assert_eq!(truth.identity(Square::B0), Some(Role::Chariot));
    // Every named identity is in the referee's records.
    let records = g.records();
    assert_eq!(records[0].played.reveal, Some(Role::Cannon));
    assert_eq!(records[2].captured.map(|p| p.role), Some(Role::Elephant));
    // Unfinished: a draw that says so.
    assert_eq!(g.result, GameResult::Draw);
    assert!(g.ending.starts_with("unfinished"), "{}", g.ending);
    let info = g.recorded[1].as_ref().unwrap();
    assert_eq!(info.score.as_deref(), Some("+0.10"));
    assert_eq!(info.ms, Some(12.0));
}

#[test]
fn a_seed_whose_deal_disagrees_gives_a_completion() {
    let text = jieqibox_text(Some("jieqi game 3 (pair 1, seed 12345): checkmate"), "1-0");
    let g = study_from_file(&write("bad-seed", &text), None).unwrap();
    // The moves name identities seed 12345's deal may not have there: no truth, no seed.
    if !g.truth_known {
        assert_eq!(g.seed, None);
    }
    assert_eq!(g.number, Some(3));
    assert_eq!(g.ending, "checkmate");
    assert_eq!(g.result, GameResult::RedWins);
    let err = study_from_file(&write("game-no", &text), Some(4))
        .unwrap_err()
        .to_string();
    assert!(err.contains("holds one game (number 3)"), "{err}");
}

fn pgn(extra_tags: &str, movetext: &str) -> String {
    format!(
        "[Event \"x\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[Variant \"jieqi\"]\n\
         {extra_tags}\n{movetext}\n"
    )
}

#[test]
fn pgn_games_are_chosen_by_number_or_place() {
    let one = pgn(
        "[Number \"7\"]",
        "1. h2h9Cn {+0.35/3 0.001s} a6a5r 2. b2b9Cb {checkmate} 1-0",
    );
    let two = pgn("[Number \"9\"]", "1. h2e2C 1-0");
    let path = write("two", &format!("{one}\n{two}"));
    let g = study_from_file(&path, Some(7)).unwrap();
    assert_eq!((g.number, g.moves.len()), (Some(7), 3));
    assert_eq!(g.ending, "checkmate");
    assert_eq!(g.recorded[0].as_ref().unwrap().depth, Some(3));
    assert_eq!(g.recorded[1], None);
    assert!(g.title.ends_with(" game 7"), "{}", g.title);
    assert_eq!(study_from_file(&path, Some(9)).unwrap().moves.len(), 1);
    let err = study_from_file(&path, None).unwrap_err().to_string();
    assert!(err.contains("holds several games"), "{err}");
    let err = study_from_file(&path, Some(2)).unwrap_err().to_string();
    assert!(err.contains("numbered 7 to 9"), "{err}");
    // Without Number tags, by place.
    let plain = format!("{}\n{}", pgn("", "1. h2e2C 1-0"), pgn("", "1. b2e2C 1-0"));
    let path = write("plain", &plain);
    let g = study_from_file(&path, Some(2)).unwrap();
    assert_eq!(g.moves[0].to_string(), "b2e2");
}

#[test]
fn a_deal_tag_that_disagrees_is_refused() {
    // The standard order's deal: h2 is a cannon's square... but here it is a horse.
    let deal = "[Deal \"red RNBAABNRCCPPPPP black rnbaabnrccppppp\"]";
    let ok = study_from_file(&write("deal-ok", &pgn(deal, "1. h2e2C 1-0")), None).unwrap();
    assert!(ok.truth_known);
    // A seed that deals another deal is refused, naming the game.
    let with_seed = format!("{deal}\n[Seed \"12345\"]");
    let err = study_from_file(&write("deal-seed", &pgn(&with_seed, "1. h2e2C 1-0")), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("game 1, tag Seed: seed 12345 deals another deal than the tag Deal"),
        "{err}"
    );
    // The seed's own deal is taken with it.
    let rules = Rules::standard();
    let dealt = deal_for_seed(12345, &rules);
    let own = format!(
        "[Deal \"red {} black {}\"]\n[Seed \"12345\"]",
        dealt.side_string(Color::Red),
        dealt.side_string(Color::Black)
    );
    let g = study_from_file(&write("deal-own-seed", &pgn(&own, "1-0")), None).unwrap();
    assert_eq!((g.seed, g.truth_known), (Some(12345), true));
    let err = study_from_file(&write("deal-bad", &pgn(deal, "1. h2e2N 1-0")), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("game 1, ply 1") && err.contains("tag Deal") && err.contains("horse"),
        "{err}"
    );
}

#[test]
fn malformed_files_name_the_file_the_place_and_the_field() {
    let cases: Vec<(&str, String, &str)> =
        vec![
        ("not-json", "{\"metadata\": ".into(), "not JieqiBox notation JSON"),
        ("no-meta", "{\"moves\": []}".into(), "metadata: missing"),
        (
            "bad-data",
            "{\"metadata\": {}, \"moves\": [{\"type\": \"move\", \"data\": 7}]}".into(),
            "moves[0] (ply 1).data: not a string",
        ),
        (
            "adjust",
            "{\"metadata\": {}, \"moves\": [{\"type\": \"adjust\", \"data\": \"x\"}]}".into(),
            "moves[0] (ply 1).type: 'adjust'",
        ),
        (
            "illegal",
            "{\"metadata\": {}, \"moves\": [{\"data\": \"h2h3C\"}, {\"data\": \"a9a0\"}]}"
                .into(),
            "moves[1] (ply 2).data 'a9a0'",
        ),
        (
            "no-reveal",
            "{\"metadata\": {}, \"moves\": [{\"data\": \"h2e2\"}]}".into(),
            "a reveal identity is needed",
        ),
        (
            "score",
            "{\"metadata\": {}, \"moves\": [{\"data\": \"h2e2C\", \"engineScore\": \"x\"}]}"
                .into(),
            "moves[0] (ply 1).engineScore: not a number",
        ),
        (
            "score-range",
            "{\"metadata\": {}, \"moves\": [{\"data\": \"h2e2C\", \"engineScore\": 1e308}]}"
                .into(),
            "moves[0] (ply 1).engineScore: 1e308 is out of range",
        ),
        (
            "depth-range",
            "{\"metadata\": {}, \"moves\": [{\"data\": \"h2e2C\", \"engineDepth\": 1000000000}]}"
                .into(),
            "moves[0] (ply 1).engineDepth: 1000000000 is more than 10000",
        ),
        (
            "fen",
            "{\"metadata\": {\"initialFen\": \"rnb/x\"}, \"moves\": []}".into(),
            "metadata.initialFen",
        ),
        (
            "result",
            "{\"metadata\": {\"result\": \"2-0\"}, \"moves\": []}".into(),
            "metadata.result: '2-0'",
        ),
        ("pgn-tag", "[White a]\n\n1. h2e2C 1-0\n".into(), "game 1, line 1"),
        ("pgn-move", pgn("", "1. Nf3 1-0"), "game 1, ply 1 ('Nf3'"),
        ("pgn-var", pgn("", "1. h2e2C (1. b2e2C) 1-0"), "variations"),
        ("pgn-comment", pgn("", "1. h2e2C {open 1-0"), "not closed"),
        (
            "pgn-variant",
            pgn("", "1-0").replace("jieqi", "chess"),
            "tag Variant: 'chess'",
        ),
        ("pgn-result", pgn("", "1. h2e2C 0-1"), "tag Result: 1-0 but the movetext ends 0-1"),
        ("pgn-seed", pgn("[Seed \"-1\"]", "1-0"), "tag Seed: '-1'"),
        ("pgn-deal", pgn("[Deal \"red X\"]", "1-0"), "tag Deal"),
        ("empty", "\n\n".into(), "holds no PGN game"),
    ];
    for (name, text, says) in cases {
        let path = write(name, &text);
        let err = study_from_file(&path, None).expect_err(name).to_string();
        assert!(
            err.starts_with(&path.display().to_string()) && err.contains(says),
            "{name}: {err}"
        );
    }
    let dir = tmp("folder");
    assert!(
        study_from_file(&dir, None)
            .unwrap_err()
            .to_string()
            .contains("is a folder")
    );
}

/// A game of endless tags is refused at the bound, naming the line, before it is held in
/// memory; so is one of endless movetext.
#[test]
fn pgn_games_are_bounded_in_tags_and_bytes() {
    let many = "[Foo \"bar\"]\n".repeat(MAX_PGN_TAGS + 1);
    let path = write("many-tags", &pgn(&many, "1. h2e2C 1-0"));
    let err = study_from_file(&path, None).unwrap_err().to_string();
    // A tag a line from the first: the tag past the bound is on line 1001.
    assert!(
        err.starts_with(&path.display().to_string())
            && err.contains("game 1, line 1001: more than 1000 tags"),
        "{err}"
    );
    let fewer = "[Foo \"bar\"]\n".repeat(MAX_PGN_TAGS - 5);
    study_from_file(&write("fewer-tags", &pgn(&fewer, "1. h2e2C 1-0")), None).unwrap();
    let line = format!("{}\n", ";".repeat(1000));
    let long = pgn("", &line.repeat(MAX_PGN_GAME / line.len() + 1));
    let err = study_from_file(&write("long-game", &long), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("game 1, line ") && err.contains(&format!("longer than {MAX_PGN_GAME} bytes")),
        "{err}"
    );
}

/// Red mates with `b1b9` (the a8 rook holds rank 8): a file that says Black won is refused,
/// a JieqiBox file as a PGN, naming the field.
#[test]
fn a_result_the_final_position_contradicts_is_refused() {
    let fen = "4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1";
    let jieqibox = |result: &str| {
        serde_json::json!({"metadata": {"initialFen": fen, "result": result},
                           "moves": [{"data": "b1b9"}]})
        .to_string()
    };
    let err = study_from_file(&write("jb-contradicts", &jieqibox("0-1")), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "metadata.result: 0-1, but the final position is checkmate by the \
                       rules: 1-0"
        ),
        "{err}"
    );
    let g = study_from_file(&write("jb-agrees", &jieqibox("1-0")), None).unwrap();
    assert_eq!(
        (g.result, g.ending.as_str()),
        (GameResult::RedWins, "checkmate")
    );
    let pgn = |result: &str| {
        format!(
            "[Variant \"xiangqi\"]\n[FEN \"{fen}\"]\n[Result \"{result}\"]\n\n1. b1b9 {result}\n"
        )
    };
    let err = study_from_file(&write("pgn-contradicts", &pgn("0-1")), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("game 1, tag Result: 0-1, but the final position is checkmate"),
        "{err}"
    );
    study_from_file(&write("pgn-agrees", &pgn("1-0")), None).unwrap();
}

#[test]
fn xiangqi_games_need_no_deal() {
    let path = write(
        "xiangqi",
        &pgn(
            "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]",
            "1. h2e2 h9g7 1-0",
        )
        .replace("[Variant \"jieqi\"]\n", ""),
    );
    let g = study_from_file(&path, None).unwrap();
    assert!(g.truth_known);
    assert_eq!(g.start.rules().name.as_str(), "xiangqi");
    assert_eq!(g.moves.len(), 2);
}
