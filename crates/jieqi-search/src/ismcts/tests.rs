//! Tests of the tree's growth: widening bounds and order.

use super::*;
use jieqi_core::{Color, Rules, fen};
use jieqi_engine::{Control, Limits};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn tree_of(spec: &str, view: &View, iters: u64) -> Tree {
    let mut e = Ismcts::from_spec(&Spec::parse(spec).unwrap()).unwrap();
    let limits = Limits {
        nodes: Some(iters),
        ..Limits::default()
    };
    e.search(view, &limits, 5, &Control::default()).unwrap();
    e.kept.take().expect("the tree is kept").1
}

fn searched(spec: &str, fen_text: &str, rules: &Rules, iters: u64) -> Tree {
    let view = View::from_setup(&fen::parse(fen_text).unwrap(), rules).unwrap();
    tree_of(spec, &view, iters)
}

/// The standard start with a shuffled deal, as Red sees it.
fn start() -> View {
    let rules = Rules::standard();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    jieqi_core::Game::new(rules, jieqi_core::Deal::shuffled_for(&rules, &mut rng)).view(Color::Red)
}

#[test]
fn widening_bounds_every_nodes_children_by_its_visits() {
    let start = start();
    let wide = tree_of("ismcts:width=0", &start, 400);
    assert_eq!(wide.children(0).count(), 44, "every root move is added");
    for (width, widen) in [(1.0, 0.5), (2.0, 0.5), (2.0, 0.3)] {
        let spec = format!("ismcts:width={width},widen={widen}");
        let tree = tree_of(&spec, &start, 400);
        let e = Ismcts {
            width,
            widen,
            ..Ismcts::default()
        };
        assert!(tree.children(0).count() < 44, "{spec}");
        for (i, n) in tree.nodes.iter().enumerate() {
            if !n.chance {
                let kids = tree.children(i as u32).count() as f64;
                assert!(kids <= e.room(n.visits), "{spec}: node {i}");
            }
        }
    }
}

#[test]
fn widening_adds_checks_then_the_most_valuable_captures_first() {
    // Red's chariot e5 can check on d5, take the black chariot e7 or take the pawn a5: the
    // root's first three children, in the order they were added, are those three.
    let tree = searched(
        "ismcts:width=1",
        "3k5/9/4r4/9/p3R4/9/9/9/9/5K3 w - - 0 1",
        &Rules::xiangqi(),
        50,
    );
    let mut kids: Vec<u32> = tree.children(0).collect();
    kids.sort_unstable();
    let first: Vec<String> = kids[..3]
        .iter()
        .map(|&k| tree.nodes[k as usize].mv.to_string())
        .collect();
    assert_eq!(first, ["e5d5", "e5e7", "e5a5"]);
}

/// The key table's defaults are the engine's: a spec without keys reads `Ismcts::default()`'s
/// settings, and `mcts-solver`'s likewise.
#[test]
fn the_key_tables_defaults_are_the_engines() {
    let d = Ismcts::default();
    let read = Ismcts::from_spec(&Spec::parse("ismcts").unwrap()).unwrap();
    assert_eq!(
        (read.iters, read.c, read.width, read.widen, read.decay),
        (d.iters, d.c, d.width, d.widen, d.decay)
    );
    assert_eq!((read.reuse, read.threads), (d.reuse, d.threads));
    assert_eq!(read.playout.cutoff, Some(10));
    let solver = crate::mcts_solver::MctsSolver::default();
    assert_eq!((solver.c, solver.width, solver.tt_mb), (0.7, 2.0, 256));
    let e = Ismcts::from_spec(&Spec::parse("ismcts:leaf=playout").unwrap()).unwrap_err();
    assert!(e.to_string().contains("unknown parameter 'leaf'"), "{e}");
}
