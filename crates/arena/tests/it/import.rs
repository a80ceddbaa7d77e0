//! Games read back from the files `arena export` writes (`analysis::import::study_from_file`):
//! every game of real small matches, exported as PGN and as JieqiBox notation, reads back into
//! the game `StudyGame::from_record` makes of its record — the same start with the same deal,
//! moves, players, result, ending, seed and number, and what each engine said at each ply as far
//! as the format keeps it.

use std::path::Path;

use arena::analysis::StudyGame;
use arena::analysis::import::study_from_file;
use arena::records::PlyInfo;

use crate::common::{ok, s, tmp};

/// The expected game score of a recorded score text (a win rate and its centipawns agree).
fn expected(score: &str) -> f64 {
    arena::analysis::expected(jieqi_engine::Score::parse(score).expect("a score"))
}

/// What the format keeps of a ply's search info: the score (as an expected score, to the
/// rounding of its text), the depth with it, the time to its rounding, and (JieqiBox) the nodes.
#[track_caller]
fn same_info(what: &str, ply: usize, a: &Option<PlyInfo>, b: &Option<PlyInfo>, jieqibox: bool) {
    let (Some(a), Some(b)) = (a, b) else {
        assert_eq!(a.is_some(), b.is_some(), "{what} ply {ply}: {a:?} / {b:?}");
        return;
    };
    let context = format!("{what} ply {ply}: {a:?} / {b:?}");
    if let Some(score) = a
        .score
        .as_deref()
        .filter(|s| jieqi_engine::Score::parse(s).is_some())
    {
        // PGN keeps a score only with a depth (the engine's, or its variation's length).
        if jieqibox || a.depth.is_some() || !a.pv.is_empty() {
            let back = b.score.as_deref().unwrap_or_else(|| panic!("{context}"));
            assert!(
                (expected(score) - expected(back)).abs() < 0.003,
                "{context}"
            );
        }
    }
    // PGN writes no depth 0 (it gives the variation's length instead).
    if jieqibox || (a.depth.is_some_and(|d| d > 0) && a.score.is_some()) {
        assert_eq!(a.depth, b.depth, "{context}");
    }
    let (ta, tb) = (a.ms.unwrap_or(0.0), b.ms.unwrap_or(0.0));
    let tolerance = if jieqibox { 0.51 } else { 0.51 + 0.01 * ta };
    assert!((ta - tb).abs() <= tolerance, "{context}");
    if jieqibox {
        assert_eq!(a.nodes, b.nodes, "{context}");
    }
}

/// `b` (read from a file) is the game `a` (from the record), as far as the format keeps it.
#[track_caller]
fn same_game(what: &str, a: &StudyGame, b: &StudyGame, jieqibox: bool) {
    assert!(a.truth_known && b.truth_known, "{what}");
    assert_eq!(a.start.deal(), b.start.deal(), "{what}");
    assert_eq!(a.start.position().fen(), b.start.position().fen(), "{what}");
    assert_eq!(a.start.rules(), b.start.rules(), "{what}");
    assert_eq!(a.moves, b.moves, "{what}");
    assert_eq!((&a.red, &a.black), (&b.red, &b.black), "{what}");
    assert_eq!(a.result, b.result, "{what}");
    assert_eq!(a.ending, b.ending, "{what}");
    assert_eq!((a.seed, a.number), (b.seed, b.number), "{what}");
    assert_eq!(a.recorded.len(), b.recorded.len(), "{what}");
    for (ply, (x, y)) in a.recorded.iter().zip(&b.recorded).enumerate() {
        same_info(what, ply + 1, x, y, jieqibox);
    }
    assert_eq!(a.records(), b.records(), "{what}");
}

/// Plays a match into DIR/NAME, exports it both ways and reads every game back.
fn round_trip(dir: &Path, name: &str, engines: &[&str], pairs: &str) {
    let out = dir.join(name);
    let mut args = vec!["match"];
    for e in engines {
        args.extend_from_slice(&["--engine", e]);
    }
    args.extend_from_slice(&["--pairs", pairs, "--seed", "5", "--out", s(&out)]);
    crate::common::played(&args);
    let exported = dir.join(format!("{name}-export"));
    std::fs::create_dir_all(&exported).unwrap();
    let pgn = exported.join("all.pgn");
    ok(&["export", s(&out), "--out", s(&pgn)]);
    let jb = exported.join("jieqibox");
    ok(&["export", s(&out), "--format", "jieqibox", "--out", s(&jb)]);
    let games = 2 * pairs.parse::<u64>().unwrap();
    let width = games.to_string().len();
    for number in 1..=games {
        let (pair, game) = ((number - 1) / 2, ((number - 1) % 2 + 1) as u8);
        let (setup, line, _) = arena::run::folder::load_recorded(&out, pair, game).unwrap();
        let record = StudyGame::from_record(
            &setup.rules,
            &line,
            setup.max_plies,
            format!("game {number}"),
            Some(number),
        )
        .unwrap();
        let from_pgn = study_from_file(&pgn, Some(number)).unwrap();
        same_game(
            &format!("{name} game {number} (PGN)"),
            &record,
            &from_pgn,
            false,
        );
        let file = jb.join(format!("game-{number:0width$}.json"));
        let from_jb = study_from_file(&file, None).unwrap();
        same_game(
            &format!("{name} game {number} (JieqiBox)"),
            &record,
            &from_jb,
            true,
        );
        assert_eq!(
            study_from_file(&file, Some(number)).unwrap().moves,
            record.moves
        );
    }
}

#[test]
fn exported_games_read_back_as_their_records() {
    let dir = tmp("round-trip");
    // Searchers: centipawns, depths and mates; an MCTS engine's win rates.
    round_trip(
        &dir,
        "search",
        &["alphabeta:nodes=400", "ismcts:nodes=200"],
        "3",
    );
    // Engine failures: the ending carries the failure's detail.
    round_trip(
        &dir,
        "failures",
        &["greedy", "faulty:mode=error,after=6"],
        "2",
    );
    // `arena analyze` reads both files.
    let export = dir.join("search-export");
    let pgn = export.join("all.pgn");
    let text = ok(&["analyze", s(&pgn), "--game", "3", "--nodes", "100"]);
    assert!(text.contains("all-game-3.analysis.html"), "{text}");
    assert!(export.join("all-game-3.analysis.json").is_file());
    let jb = export.join("jieqibox/game-1.json");
    ok(&["analyze", s(&jb), "--nodes", "100"]);
    assert!(export.join("jieqibox/game-1.analysis.html").is_file());
}
