//! `flat-uct`, `ismcts` and the playouts: determinism, legality over seeded games, mates in one,
//! playout termination and the uniformity of the rejection-sampled random policy.

use std::time::{Duration, Instant};

use jieqi_core::{Color, Deal, Game, Move, Rules, View, fen};
use jieqi_engine::{Engine, Limits, Score, Spec, mix};
use jieqi_search::ismcts::Ismcts;
use jieqi_search::playout::{PlayoutConfig, PlayoutPolicy, playout};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::common;
use common::{engine, nodes};

/// A game after `plies` uniformly random moves (fewer if it ends).
fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
    while game.outcome().is_none() && game.ply() < plies {
        let moves = game.legal_moves();
        let m = moves[jieqi_core::uniform_below(&mut rng, moves.len() as u32) as usize];
        game.play(m).unwrap();
    }
    game
}

fn view_of(fen_text: &str, rules: &Rules) -> View {
    View::from_setup(&fen::parse(fen_text).unwrap(), rules).unwrap()
}

#[test]
fn same_view_seed_and_budget_give_the_same_move() {
    for rules in [Rules::standard(), Rules::simple(), Rules::xiangqi()] {
        for g in 0..4u64 {
            let game = random_game(rules, 100 + g, 6 + 5 * g as usize);
            if game.outcome().is_some() {
                continue;
            }
            let view = game.view(game.turn());
            for (spec, n) in [
                ("flat-uct", 200),
                ("flat-uct:policy=capture,cutoff=30", 200),
                ("ismcts", 400),
                ("ismcts:width=0,c=0.7", 300),
            ] {
                let a = engine(spec).go(&view, &nodes(n), 77).unwrap();
                let b = engine(spec).go(&view, &nodes(n), 77).unwrap();
                assert_eq!(a, b, "{spec} ({})", rules.name);
                assert!(view.legal_moves().contains(&a.mv));
                assert!(a.info.nodes <= n);
                match a.info.score {
                    Some(Score::WinRate(w)) => assert!((0.0..=1.0).contains(&w)),
                    None => assert_eq!(view.legal_moves().len(), 1),
                    other => panic!("{spec}: unexpected score {other:?}"),
                }
                assert_eq!(a.info.pv.first(), Some(&a.mv));
            }
            // Without tree reuse the same engine answers the same view the same way twice.
            let mut e = engine("ismcts:reuse=false");
            let a = e.go(&view, &nodes(300), 5).unwrap();
            assert_eq!(e.go(&view, &nodes(300), 5).unwrap(), a);
        }
    }
}

/// Plays one game between two specs, each move checked against the referee.
fn play(rules: Rules, game_seed: u64, red: &str, black: &str, max_plies: usize) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed);
    let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
    let mut engines = [engine(red), engine(black)];
    let specs = [red, black];
    while game.outcome().is_none() && game.ply() < max_plies {
        let mover = game.turn();
        let view = game.view(mover);
        let seed = mix(game_seed, game.ply() as u64);
        let choice = engines[mover.index()]
            .go(&view, &Limits::default(), seed)
            .unwrap();
        assert!(
            game.legal_moves().contains(&choice.mv),
            "{} ({}) chose illegal {} in {} (seed {game_seed}, ply {})",
            specs[mover.index()],
            rules.name,
            choice.mv,
            game.position().fen(),
            game.ply()
        );
        game.play(choice.mv).unwrap();
    }
    game
}

#[test]
fn mcts_engines_play_only_legal_moves() {
    let pairs = [
        ("flat-uct:sims=12", "ismcts:iters=24"),
        (
            "ismcts:iters=24,width=0,c=0.7",
            "flat-uct:sims=12,policy=capture",
        ),
        ("ismcts:iters=24,reuse=false", "ismcts:iters=24,width=2"),
    ];
    let mut games = 0;
    let mut finished = 0;
    for rules in [Rules::standard(), Rules::simple(), Rules::xiangqi()] {
        for g in 0..72u64 {
            let (red, black) = pairs[(g % 3) as usize];
            let game = play(rules, 1000 + g, red, black, 160);
            games += 1;
            finished += game.outcome().is_some() as u32;
        }
    }
    assert_eq!(games, 216);
    assert!(finished > 20, "only {finished} of {games} games finished");
}

#[test]
fn mate_in_one_is_found() {
    // Standard rules: the hidden a0 piece moves as a chariot and can only be the chariot (pool R1);
    // a0d0 mates (e9/e8 face the red king, d8 is on the d-file) and a0a8 stalemates (d8 and e9
    // covered; also a win). Either ends the game at once; no other move does.
    let rules = Rules::standard();
    let view = view_of("3k5/9/9/9/9/9/9/9/9/X3K4 w R1 0 1", &rules);
    let winning = ["a0d0", "a0a8"].map(|m| Move::from_text(m).unwrap());
    for &m in &view.legal_moves() {
        let mut after = view.sample(&mut ChaCha8Rng::seed_from_u64(0));
        after.make(m);
        assert_eq!(
            after.legal_moves().is_empty(),
            winning.contains(&m),
            "{m} ends the game exactly when it is a0d0 or a0a8"
        );
    }
    for spec in ["flat-uct", "ismcts", "ismcts:width=0,c=0.7"] {
        let c = engine(spec).go(&view, &nodes(3000), 3).unwrap();
        assert!(winning.contains(&c.mv), "{spec}: {:?}", c.info);
    }
    // Simple rules: take the king.
    let rules = Rules::simple();
    let view = view_of("4k4/9/9/9/4R4/9/9/9/9/3K5 w - 0 1", &rules);
    for spec in ["flat-uct", "ismcts"] {
        let c = engine(spec).go(&view, &nodes(2000), 3).unwrap();
        assert_eq!(
            c.mv,
            Move::from_text("e5e9").unwrap(),
            "{spec}: {:?}",
            c.info
        );
    }
    // Xiangqi: a0d0 mates and a0a8 stalemates (also a win); either ends the game at once.
    let rules = Rules::xiangqi();
    let view = view_of("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", &rules);
    for spec in ["flat-uct", "ismcts"] {
        let c = engine(spec).go(&view, &nodes(2000), 3).unwrap();
        let mut after = view.sample(&mut ChaCha8Rng::seed_from_u64(0));
        after.make(c.mv);
        assert!(
            after.legal_moves().is_empty(),
            "{spec}: {} does not end the game",
            c.mv
        );
        // Ending the game at once is reported as the proof it is.
        assert_eq!(c.info.score, Some(Score::Mate(1)), "{spec}");
    }
}

#[test]
fn playouts_terminate_with_scores_in_range() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for rules in [Rules::standard(), Rules::simple(), Rules::xiangqi()] {
        for g in 0..30u64 {
            let game = random_game(rules, 500 + g, (g * 7) as usize);
            let view = game.view(game.turn());
            for (policy, cutoff, max_plies) in [
                (PlayoutPolicy::Random, None, 200),
                (PlayoutPolicy::CaptureBiased, None, 200),
                (PlayoutPolicy::Random, Some(20), 200),
                (PlayoutPolicy::CaptureBiased, Some(40), 30),
                (PlayoutPolicy::Random, None, 5),
            ] {
                let cfg = PlayoutConfig {
                    policy,
                    cutoff,
                    max_plies,
                    ..PlayoutConfig::default()
                };
                let mut det = view.sample(&mut rng);
                let p = playout(&mut det, Color::Red, &cfg, &mut rng);
                assert!((0.0..=1.0).contains(&p.score), "{p:?}");
                assert!(p.plies <= cutoff.unwrap_or(max_plies).min(max_plies));
                if cutoff.is_none() {
                    assert!([0.0, 0.5, 1.0].contains(&p.score), "{p:?}");
                }
            }
        }
    }
}

#[test]
fn finished_games_score_exactly() {
    // Red to move, mated: a loss for Red, a win for Black, whatever the policy.
    let rules = Rules::xiangqi();
    let view = view_of("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1", &rules);
    assert!(view.legal_moves().is_empty());
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut det = view.sample(&mut rng);
    let p = playout(&mut det, Color::Black, &PlayoutConfig::default(), &mut rng);
    assert_eq!((p.score, p.plies), (0.0, 0));
    // No-capture limit reached: a draw.
    let view = view_of("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 120 80", &rules);
    let mut det = view.sample(&mut rng);
    let p = playout(&mut det, Color::Red, &PlayoutConfig::default(), &mut rng);
    assert_eq!((p.score, p.plies), (0.5, 0));
}

/// The index in `view`'s legal moves of the move a one-ply playout played: the one it reports,
/// which must also be the move that turns `before` into `after` when the playout played on `det`
/// (the capture-biased path) — on the random fast path `det` is left unchanged.
fn played_move(
    view: &View,
    before: &jieqi_core::Determinization,
    after: &jieqi_core::Determinization,
    p: &jieqi_search::playout::Playout,
) -> usize {
    let moves = view.legal_moves();
    let m = p.first_move.expect("a one-ply playout plays a move");
    if after != before {
        let mut d = before.clone();
        d.make(m);
        assert_eq!(d, *after, "the reported move is the one played");
    }
    moves
        .iter()
        .position(|&x| x == m)
        .expect("the playout played a legal move")
}

#[test]
fn random_policy_is_uniform_over_legal_moves() {
    let cfg = PlayoutConfig {
        max_plies: 1,
        ..PlayoutConfig::default()
    };
    for (rules, seed, plies) in [
        (Rules::simple(), 3u64, 0usize),
        (Rules::simple(), 4, 30),
        (Rules::standard(), 5, 0),
        (Rules::standard(), 6, 40),
        (Rules::xiangqi(), 7, 20),
    ] {
        let game = random_game(rules, seed, plies);
        assert!(game.outcome().is_none());
        let view = game.view(game.turn());
        let n = view.legal_moves().len();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let base = view.sample(&mut rng);
        let draws = 400 * n;
        let mut counts = vec![0usize; n];
        for _ in 0..draws {
            let mut det = base.clone();
            let p = playout(&mut det, Color::Red, &cfg, &mut rng);
            assert_eq!(p.plies, 1);
            counts[played_move(&view, &base, &det, &p)] += 1;
        }
        // Each count ~ Binomial(draws, 1/n): mean 400, sd < 20. Allow 5 sd.
        for (i, &c) in counts.iter().enumerate() {
            assert!(
                (300..=500).contains(&c),
                "{}: move {} drawn {c} times of {draws} ({n} moves)",
                rules.name,
                view.legal_moves()[i]
            );
        }
        // Chi-square over all moves stays far below its 99.9 % quantile (about n + 4.5 sqrt(2n)).
        let chi: f64 = counts
            .iter()
            .map(|&c| (c as f64 - 400.0).powi(2) / 400.0)
            .sum();
        let bound = n as f64 + 4.5 * (2.0 * n as f64).sqrt() + 10.0;
        assert!(
            chi < bound,
            "{}: chi-square {chi:.1} over {n} moves",
            rules.name
        );
    }
}

#[test]
fn movetime_is_honoured() {
    let game = random_game(Rules::standard(), 42, 10);
    let view = game.view(game.turn());
    for spec in ["flat-uct", "ismcts"] {
        let limits = Limits {
            movetime: Some(Duration::from_millis(60)),
            ..Limits::default()
        };
        let t = Instant::now();
        let c = engine(spec).go(&view, &limits, 1).unwrap();
        let took = t.elapsed();
        // Ten times the budget and more: a machine busy with other work stretches it, an
        // ignored movetime would not stop at all.
        assert!(took < Duration::from_millis(3000), "{spec} took {took:?}");
        assert!(c.info.nodes >= 1);
        // An explicit budget still caps a movetime search.
        let c = engine(&format!(
            "{spec}:{}=50",
            if spec == "flat-uct" { "sims" } else { "iters" }
        ))
        .go(&view, &limits, 1)
        .unwrap();
        assert!(c.info.nodes <= 50);
    }
}

#[test]
fn specs_are_validated() {
    for bad in [
        "flat-uct:sims=0",
        "flat-uct:c=-1",
        "flat-uct:policy=greedy",
        "flat-uct:iters=10",
        "ismcts:iters=0",
        "ismcts:leaf=playout",
        "ismcts:policy=random",
        "ismcts:c=-1",
        "ismcts:reuse=maybe",
        "ismcts:sims=5",
        "ismcts:threads=0",
        "ismcts:threads=257",
    ] {
        let r = jieqi_search::from_spec(&Spec::parse(bad).unwrap()).unwrap();
        assert!(r.is_err(), "{bad} should be rejected");
    }
    for good in [
        "flat-uct:sims=300,c=0.8,policy=random,cutoff=0,max_plies=200",
        "ismcts:iters=100,c=0.7,width=2,widen=0.4,decay=0,reuse=true",
        "ismcts:threads=256",
    ] {
        assert!(
            jieqi_search::from_spec(&Spec::parse(good).unwrap())
                .unwrap()
                .is_ok(),
            "{good}"
        );
    }
}

#[test]
fn ismcts_reuses_its_tree_within_a_game() {
    // Xiangqi (no reveals, so the principal variation is not cut): Red searches, Black answers
    // with the reply Red's tree expected, and Red's second search of one iteration starts from the
    // kept subtree, whose root already has the visits that went through those two moves.
    let rules = Rules::xiangqi();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
    let mut keep = Ismcts::from_spec(&Spec::parse("ismcts").unwrap()).unwrap();
    let first = keep.go(&game.view(Color::Red), &nodes(5000), 1).unwrap();
    assert!(first.info.pv.len() >= 2, "{:?}", first.info);
    assert_eq!(keep.kept_root_visits(), Some(5000));
    game.play(first.info.pv[0]).unwrap();
    game.play(first.info.pv[1]).unwrap();
    let red = game.view(Color::Red);
    let reused = keep.go(&red, &nodes(1), 3).unwrap();
    assert!(game.legal_moves().contains(&reused.mv));
    let carried = keep.kept_root_visits().unwrap();
    assert!(carried > 2, "only {carried} visits at the reused root");
    // A view that does not continue the kept one (here: the same view again) starts afresh.
    keep.go(&red, &nodes(1), 3).unwrap();
    assert_eq!(keep.kept_root_visits(), Some(1));
    // Without reuse nothing is kept, and answers depend on view, limits and seed only.
    let mut nokeep = Ismcts::from_spec(&Spec::parse("ismcts:reuse=false").unwrap()).unwrap();
    let a = nokeep.go(&red, &nodes(200), 1).unwrap();
    assert_eq!(nokeep.kept_root_visits(), None);
    assert_eq!(nokeep.go(&red, &nodes(200), 1).unwrap(), a);
}

#[test]
fn threaded_ismcts_splits_its_iterations_and_stays_reproducible() {
    // Root parallelism: each thread runs its share of a node limit from its own seed, so two
    // engines given the same views, limits and seeds answer alike, move after move (each thread
    // reusing its own tree), and the iterations add up to the limit exactly.
    for rules in [Rules::standard(), Rules::xiangqi()] {
        let mut game = random_game(rules, 7, 8);
        let mut a = engine("ismcts:threads=3");
        let mut b = engine("ismcts:threads=3");
        let mut helpers_count = false;
        for ply in 0..6u64 {
            if game.outcome().is_some() {
                break;
            }
            let view = game.view(game.turn());
            let limit = 1000 + ply;
            let ca = a.go(&view, &nodes(limit), ply).unwrap();
            assert_eq!(ca, b.go(&view, &nodes(limit), ply).unwrap(), "ply {ply}");
            assert!(view.legal_moves().contains(&ca.mv));
            assert_eq!(ca.info.nodes, limit);
            assert_eq!(ca.info.pv.first(), Some(&ca.mv));
            // Thread 0 alone: the call's seed and its share (the first of three, rounded up).
            let fresh = engine("ismcts:threads=3,reuse=false")
                .go(&view, &nodes(limit), ply)
                .unwrap();
            let main_only = engine("ismcts:reuse=false")
                .go(&view, &nodes(limit.div_ceil(3)), ply)
                .unwrap();
            helpers_count |= main_only.info.score != fresh.info.score;
            game.play(ca.mv).unwrap();
        }
        // The helpers' trees count: the answer is not the main thread's tree alone.
        assert!(helpers_count);
    }
    // Fewer iterations than threads: the limit still holds.
    let game = random_game(Rules::standard(), 3, 6);
    let c = engine("ismcts:threads=4")
        .go(&game.view(game.turn()), &nodes(2), 9)
        .unwrap();
    assert_eq!(c.info.nodes, 2);
    // Under a movetime every thread stops with the main one.
    let game = random_game(Rules::standard(), 42, 10);
    let view = game.view(game.turn());
    let t = Instant::now();
    let c = engine("ismcts:threads=2")
        .go(
            &view,
            &Limits {
                movetime: Some(Duration::from_millis(60)),
                ..Limits::default()
            },
            1,
        )
        .unwrap();
    // 50 times the budget: a machine busy with other work stretches it, a helper that did not
    // stop would run its tree on and the search would not answer.
    assert!(
        t.elapsed() < Duration::from_millis(3000),
        "{:?}",
        t.elapsed()
    );
    assert!(view.legal_moves().contains(&c.mv) && c.info.nodes >= 2);
}

#[test]
fn ismcts_reports_progress_without_changing_its_answer() {
    use std::sync::Mutex;
    let rules = Rules::standard();
    let game = random_game(rules, 11, 20);
    let view = game.view(game.turn());
    let quiet = engine("ismcts").go(&view, &nodes(4500), 3).unwrap();
    let heard: Mutex<Vec<jieqi_engine::SearchInfo>> = Mutex::new(Vec::new());
    let listen = |info: &jieqi_engine::SearchInfo| heard.lock().unwrap().push(info.clone());
    let control = jieqi_engine::Control::default().with_report(&listen);
    let loud = engine("ismcts")
        .search(&view, &nodes(4500), 3, &control)
        .unwrap();
    assert_eq!(quiet, loud);
    let heard = heard.into_inner().unwrap();
    let counts: Vec<u64> = heard.iter().map(|i| i.nodes).collect();
    assert_eq!(counts, [1000, 2000, 3000, 4000]);
    let legal = view.legal_moves();
    for info in &heard {
        assert!(legal.contains(&info.pv[0]), "{info:?}");
        assert!(matches!(info.score, Some(Score::WinRate(w)) if (0.0..=1.0).contains(&w)));
    }
}
