//! Iterations per second of `mcts-solver` on a few positions, and the work it and `alphabeta`
//! need to prove the mate-in-3 test positions. Run with
//! `cargo run --release -p jieqi-search --example mcts_solver_speed`.

use std::time::Instant;

use jieqi_core::{Deal, Game, Rules, View, fen};
use jieqi_engine::{Engine, Limits, Score, Spec};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn engine(text: &str) -> Box<dyn Engine> {
    jieqi_search::from_spec(&Spec::parse(text).unwrap())
        .unwrap()
        .unwrap()
}

fn jieqi_view(seed: u64, plies: usize) -> View {
    let rules = Rules::standard();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
    while game.ply() < plies {
        let moves = game.legal_moves();
        let m = moves[jieqi_core::uniform_below(&mut rng, moves.len() as u32) as usize];
        game.play(m).unwrap();
    }
    game.view(game.turn())
}

fn xiangqi_view(text: &str) -> View {
    View::from_setup(&fen::parse(text).unwrap(), &Rules::xiangqi()).unwrap()
}

fn main() {
    let n = 50_000;
    let limits = Limits {
        nodes: Some(n),
        ..Limits::default()
    };
    for (name, view) in [
        ("jieqi start", jieqi_view(1, 0)),
        ("jieqi after 30 random plies (seed 3)", jieqi_view(3, 30)),
        (
            "xiangqi 4k4/9/9/9/9/9/9/9/4A4/3AK4 (no mate)",
            xiangqi_view("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"),
        ),
    ] {
        let t = Instant::now();
        let c = engine("mcts-solver").go(&view, &limits, 1).unwrap();
        let s = t.elapsed().as_secs_f64();
        println!(
            "{name}: {} iterations in {:.3} s = {:.0} it/s, depth {:?}, {} {}",
            c.info.nodes,
            s,
            c.info.nodes as f64 / s,
            c.info.depth,
            c.mv,
            c.info.score.unwrap()
        );
    }
    for text in [
        "3k5/9/9/9/9/9/7N1/9/5K1R1/9 w - - 0 1",
        "9/3k5/5a3/2R6/9/9/9/N8/5K3/9 w - - 0 1",
        "9/4a4/3k5/6P2/9/8R/9/9/9/5K3 w - - 0 1",
    ] {
        let view = xiangqi_view(text);
        let t = Instant::now();
        let c = engine("mcts-solver")
            .go(
                &view,
                &Limits {
                    nodes: Some(1_000_000),
                    ..Limits::default()
                },
                1,
            )
            .unwrap();
        let solver_ms = t.elapsed().as_secs_f64() * 1e3;
        // alphabeta: the first depth whose search reports the mate.
        let mut ab = String::from("not found by depth 9");
        for d in 1..=9 {
            let t = Instant::now();
            let a = engine("alphabeta")
                .go(
                    &view,
                    &Limits {
                        depth: Some(d),
                        ..Limits::default()
                    },
                    1,
                )
                .unwrap();
            if a.info.score == Some(Score::Mate(3)) {
                ab = format!(
                    "depth {d}, {} nodes, {:.2} ms ({})",
                    a.info.nodes,
                    t.elapsed().as_secs_f64() * 1e3,
                    a.mv
                );
                break;
            }
        }
        println!(
            "{text}: mcts-solver {} {} in {} iterations, depth {:?}, {:.2} ms | alphabeta {ab}",
            c.mv,
            c.info.score.unwrap(),
            c.info.nodes,
            c.info.depth,
            solver_ms
        );
    }
}
