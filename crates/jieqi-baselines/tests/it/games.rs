//! Baselines over seeded random games: only legal moves, reproducible choices, and no dependence on
//! hidden identities.

use jieqi_baselines::from_spec;
use jieqi_core::{Color, Deal, Game, Rules};
use jieqi_engine::{Engine, Limits, Spec, mix};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

const SPECS: [&str; 6] = [
    "random",
    "greedy",
    "greedy:noise=0.3",
    "level:easy",
    "level:normal",
    "level:hard",
];

fn engine(text: &str) -> Box<dyn Engine> {
    from_spec(&Spec::parse(text).unwrap()).unwrap().unwrap()
}

/// Plays one game between two specs (at most `max_plies`), checking every choice.
fn play(rules: Rules, game_seed: u64, red: &str, black: &str, max_plies: usize) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed);
    let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
    let mut engines = [engine(red), engine(black)];
    let limits = Limits::default();
    while game.outcome().is_none() && game.ply() < max_plies {
        let mover = game.turn();
        let view = game.view(mover);
        let seed = mix(game_seed, game.ply() as u64);
        let e = &mut engines[mover.index()];
        let choice = e.go(&view, &limits, seed).unwrap();
        let legal = game.legal_moves();
        assert!(
            legal.contains(&choice.mv),
            "{} ({}) chose illegal {} in {} (seed {game_seed}, ply {})",
            [red, black][mover.index()],
            rules.name,
            choice.mv,
            game.position().fen(),
            game.ply()
        );
        assert_eq!(choice.info.pv, vec![choice.mv]);
        assert!(choice.info.nodes >= 1);
        // Same view, same seed: same answer.
        assert_eq!(e.go(&view, &limits, seed).unwrap(), choice);
        game.play(choice.mv).unwrap();
    }
    game
}

#[test]
fn every_baseline_plays_only_legal_moves() {
    let mut games = 0;
    let mut finished = 0;
    for rules in [Rules::standard(), Rules::xiangqi(), Rules::simple()] {
        for g in 0..36u64 {
            let red = SPECS[(g % 6) as usize];
            let black = SPECS[((g / 6) % 6) as usize];
            let game = play(rules, mix(0xBA5E, g), red, black, 400);
            games += 1;
            finished += game.outcome().is_some() as u32;
        }
    }
    assert_eq!(games, 108);
    assert!(
        finished > 90,
        "only {finished} of {games} games ended by the rules"
    );
}

#[test]
fn random_games_of_many_seeds_stay_legal() {
    // Short games over many deals, mixing every pairing, to reach varied positions quickly.
    for rules in [Rules::standard(), Rules::xiangqi(), Rules::simple()] {
        for g in 0..120u64 {
            let red = SPECS[(g % 6) as usize];
            let black = SPECS[((g * 7 + 3) % 6) as usize];
            play(rules, mix(0x5EED, g), red, black, 60);
        }
    }
}

#[test]
fn random_answers_differ_across_seeds() {
    let rules = Rules::standard();
    let game = Game::new(rules, Deal::unshuffled(&rules));
    let view = game.view(Color::Red);
    let mut e = engine("random");
    let moves: std::collections::HashSet<_> = (0..100)
        .map(|s| e.go(&view, &Limits::default(), s).unwrap().mv)
        .collect();
    assert!(moves.len() > 10, "{moves:?}");
}

#[test]
fn choices_do_not_depend_on_the_hidden_deal() {
    // Two different deals give the same public start: every engine must answer the same.
    for rules in [Rules::standard(), Rules::simple()] {
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        let a = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
        let b = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
        assert_ne!(a.deal(), b.deal());
        for spec in SPECS {
            for seed in 0..10 {
                let ca = engine(spec).go(&a.view(Color::Red), &Limits::default(), seed);
                let cb = engine(spec).go(&b.view(Color::Red), &Limits::default(), seed);
                assert_eq!(ca.unwrap(), cb.unwrap(), "{spec} seed {seed}");
            }
        }
    }
}
