//! `mcts-solver`: exact mate distances on Xiangqi positions (checked by a brute-force mate search
//! and against alpha-beta), being mated, reproducibility, Jieqi positions with hidden pieces,
//! the stop flag, reports and spec errors.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use jieqi_core::{Color, Deal, Game, Move, PlayedMove, Position, Rules, View, fen};
use jieqi_engine::{Choice, Control, Limits, Score, SearchInfo, Spec};
use jieqi_search::alphabeta;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::common;
use common::{engine, nodes};

fn view_of(fen_text: &str, rules: &Rules) -> View {
    View::from_setup(&fen::parse(fen_text).unwrap(), rules).unwrap()
}

fn solve(view: &View) -> Choice {
    engine("mcts-solver").go(view, &nodes(200_000), 1).unwrap()
}

// --- A brute-force mate search on Xiangqi positions (no hidden pieces, no repetitions). ---

/// Whether the side to move has lost: no legal move (checkmate or stalemate) or no king.
fn lost(pos: &Position) -> bool {
    pos.king_lost(pos.turn()) || !pos.has_legal_move()
}

/// Whether move `m` of the side to move mates within `n` of its moves.
fn mates_with(pos: &mut Position, m: Move, n: u32) -> bool {
    let pm = PlayedMove::plain(m);
    let undo = pos.make(pm);
    let ok = lost(pos) || (n > 1 && mated_within(pos, n - 1));
    pos.unmake(pm, undo);
    ok
}

/// Whether every reply of the side to move allows a mate within `n` moves of the opponent.
fn mated_within(pos: &mut Position, n: u32) -> bool {
    let replies: Vec<Move> = pos.legal_moves().iter().copied().collect();
    replies.into_iter().all(|r| {
        let pr = PlayedMove::plain(r);
        let undo = pos.make(pr);
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let ok = moves.into_iter().any(|m| mates_with(pos, m, n));
        pos.unmake(pr, undo);
        ok
    })
}

/// The shortest forced mate of the side to move, in moves, up to `max`.
fn shortest_mate(pos: &Position, max: u32) -> Option<u32> {
    let mut pos = pos.clone();
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    (1..=max).find(|&n| moves.iter().any(|&m| mates_with(&mut pos, m, n)))
}

/// Mate-in-n Xiangqi positions (found by a seeded random search and checked by
/// [`shortest_mate`] below). The mate-in-2 at index 2 is one where the solver's first proof is a
/// mate in 3: the shorter mate is found by its verification search.
const MATES: [(&str, i32); 7] = [
    ("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", 1),
    ("9/5k1N1/9/5P3/9/9/9/9/4R4/3K5 w - - 0 1", 1),
    ("9/4k4/9/9/3P5/2R6/9/9/5K1C1/9 w - - 0 1", 2),
    ("3a3R1/3P1k3/9/9/9/9/9/4K4/9/9 w - - 0 1", 2),
    ("3k5/9/9/9/9/9/7N1/9/5K1R1/9 w - - 0 1", 3),
    ("9/3k5/5a3/2R6/9/9/9/N8/5K3/9 w - - 0 1", 3),
    ("9/4a4/3k5/6P2/9/8R/9/9/9/5K3 w - - 0 1", 3),
];

#[test]
fn xiangqi_mates_in_one_two_and_three_are_exact_and_agree_with_alphabeta() {
    let rules = Rules::xiangqi();
    for (fen_text, n) in MATES {
        let view = view_of(fen_text, &rules);
        let mut pos = view.position().clone();
        assert_eq!(shortest_mate(&pos, 3), Some(n as u32), "{fen_text}");
        let c = solve(&view);
        assert_eq!(
            c.info.score,
            Some(Score::Mate(n)),
            "{fen_text}: {:?}",
            c.info
        );
        assert!(
            mates_with(&mut pos, c.mv, n as u32),
            "{fen_text}: {} does not mate in {n}",
            c.mv
        );
        assert_eq!(c.info.pv.first(), Some(&c.mv));
        assert!(c.info.nodes < 200_000, "stopped once proven: {:?}", c.info);
        let ab = engine("alphabeta")
            .go(
                &view,
                // A selective search need not see a mate in n at depth 2n - 1 (pruning and the
                // evaluation order the moves); it stops once the prover confirms the mate.
                &Limits {
                    depth: Some(2 * n as u32 + 3),
                    ..Limits::default()
                },
                1,
            )
            .unwrap();
        assert_eq!(ab.info.score, c.info.score, "{fen_text}: alphabeta {ab:?}");
    }
}

#[test]
fn a_side_mated_whatever_it_does_reports_mate_minus_one_as_alphabeta_does() {
    let rules = Rules::xiangqi();
    // Black's only move is Kd8, and then Ra0-d0 mates (the kings may not face each other).
    let fen_text = "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1";
    let view = view_of(fen_text, &rules);
    let mut pos = view.position().clone();
    assert!(!lost(&pos) && mated_within(&mut pos, 1));
    let c = solve(&view);
    assert_eq!(c.info.score, Some(Score::Mate(-1)), "{:?}", c.info);
    assert!(view.legal_moves().contains(&c.mv));
    let ab = engine("alphabeta")
        .go(
            &view,
            &Limits {
                depth: Some(3),
                ..Limits::default()
            },
            1,
        )
        .unwrap();
    assert_eq!(ab.info.score, c.info.score, "alphabeta {ab:?}");
}

#[test]
fn a_reveal_proves_a_mate_only_when_every_identity_mates() {
    let rules = Rules::standard();
    // The hidden piece on a0 can only be a chariot: a0d0 (or a0a8) wins at once.
    let view = view_of("3k5/9/9/9/9/9/9/9/9/X3K4 w R1 0 1", &rules);
    let c = solve(&view);
    assert_eq!(c.info.score, Some(Score::Mate(1)), "{:?}", c.info);
    assert!(["a0d0", "a0a8"].contains(&c.mv.to_string().as_str()));
    // A chariot or a horse: no move wins at once in both outcomes (a0d0 mates only as a
    // chariot), but a0a6 wins in two in both: a chariot mates, a horse goes to b8 and leaves the
    // king on d8 without a move (the e-file is the red king's). Alpha-beta with exact chance
    // nodes agrees.
    let view = view_of("3k5/9/9/9/9/9/9/9/9/X3K4 w R1N1 0 1", &rules);
    let c = solve(&view);
    assert_eq!(c.info.score, Some(Score::Mate(2)), "{:?}", c.info);
    // Plain expectiminimax: a win 3 plies away.
    let exact = alphabeta::search_value(view.position(), 5, &alphabeta::Options::exact());
    assert_eq!(exact, alphabeta::MATE - 3);
}

/// A Jieqi game after `plies` seeded random moves.
fn jieqi_game(seed: u64, plies: usize) -> Game {
    let rules = Rules::standard();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
    while game.outcome().is_none() && game.ply() < plies {
        let moves = game.legal_moves();
        let m = moves[jieqi_core::uniform_below(&mut rng, moves.len() as u32) as usize];
        game.play(m).unwrap();
    }
    game
}

#[test]
fn node_limited_search_is_reproducible() {
    let game = jieqi_game(7, 24);
    assert!(game.outcome().is_none());
    let views = [
        game.view(game.turn()),
        view_of(MATES[5].0, &Rules::xiangqi()),
        view_of("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1", &Rules::xiangqi()),
    ];
    for view in &views {
        let a = engine("mcts-solver").go(view, &nodes(2000), 5).unwrap();
        let b = engine("mcts-solver").go(view, &nodes(2000), 5).unwrap();
        let c = engine("mcts-solver").go(view, &nodes(2000), 6).unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c, "the search uses no randomness");
        assert!(view.legal_moves().contains(&a.mv));
    }
}

#[test]
fn jieqi_positions_with_hidden_pieces_get_a_legal_move() {
    for (seed, plies) in [(1, 0), (2, 10), (3, 30)] {
        let game = jieqi_game(seed, plies);
        assert!(game.outcome().is_none());
        let view = game.view(game.turn());
        for spec in [
            "mcts-solver",
            "mcts-solver:prior=none,widen=1",
            "mcts-solver:tt_mb=1",
        ] {
            let c = engine(spec).go(&view, &nodes(3000), 1).unwrap();
            assert!(view.legal_moves().contains(&c.mv), "{spec}: {}", c.mv);
            assert_eq!(c.info.nodes, 3000, "{spec}");
            assert!(matches!(c.info.score, Some(Score::WinRate(w)) if (0.0..=1.0).contains(&w)));
            assert_eq!(c.info.pv.first(), Some(&c.mv));
        }
    }
}

#[test]
fn the_stop_flag_stops_it() {
    let view = jieqi_game(4, 8).view(Color::Red);
    // Set before the search: one iteration.
    let stop = AtomicBool::new(true);
    let c = engine("mcts-solver")
        .search(
            &view,
            &Limits::default(),
            1,
            &Control::default().with_stop(&stop),
        )
        .unwrap();
    assert_eq!(c.info.nodes, 1);
    // Set from another thread during a long search.
    let stop = AtomicBool::new(false);
    let long = Limits {
        movetime: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    let start = Instant::now();
    let c = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        engine("mcts-solver").search(&view, &long, 1, &Control::default().with_stop(&stop))
    })
    .unwrap();
    assert!(start.elapsed() < Duration::from_secs(10));
    assert!(view.legal_moves().contains(&c.mv));
    assert!(engine("mcts-solver").stops_on_request());
}

#[test]
fn reports_follow_the_best_move_and_end_with_the_answer() {
    let view = view_of(MATES[4].0, &Rules::xiangqi());
    let seen: Mutex<Vec<SearchInfo>> = Mutex::new(Vec::new());
    let report = |i: &SearchInfo| seen.lock().unwrap().push(i.clone());
    let c = engine("mcts-solver")
        .search(
            &view,
            &nodes(200_000),
            1,
            &Control::default().with_report(&report),
        )
        .unwrap();
    let seen = seen.into_inner().unwrap();
    assert!(!seen.is_empty());
    let last = seen.last().unwrap();
    assert_eq!(last.pv.first(), Some(&c.mv));
    assert_eq!(last.score, c.info.score);
    assert!(seen.windows(2).all(|w| w[0].nodes <= w[1].nodes));
}

#[test]
fn bad_specs_are_refused() {
    for (text, word) in [
        ("mcts-solver:depth=3", "unknown parameter 'depth'"),
        ("mcts-solver:widen=2", "'widen'"),
        ("mcts-solver:c=abc", "'c'"),
        ("mcts-solver:iters=0", "iters"),
        ("mcts-solver:prior=best", "'prior'"),
        ("mcts-solver:tt_mb=0", "tt_mb"),
    ] {
        let e = jieqi_search::from_spec(&Spec::parse(text).unwrap())
            .unwrap()
            .err()
            .unwrap_or_else(|| panic!("{text} accepted"));
        assert!(e.to_string().contains(word), "{text}: {e}");
    }
    let ok = "mcts-solver:iters=10,c=1.2,widen=0.3,width=1.5,prior=captures,tt_mb=16";
    assert!(
        jieqi_search::from_spec(&Spec::parse(ok).unwrap())
            .unwrap()
            .is_ok()
    );
}
