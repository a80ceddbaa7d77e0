//! Alpha-beta speed: `cargo bench -p jieqi-search --bench alphabeta [-- NODES [SPEC]]`.
//!
//! Single-threaded. Searches fixed middlegame positions (the positions after 30 and 40 random
//! plies of seeded `standard` games, plus one `simple` and one `xiangqi` position) with a node
//! limit (default 2,000,000) and prints nodes, seconds, nodes per second, depth and score.
//! A node is one `Position::make` call.

use std::time::Instant;

use jieqi_engine::Limits;

mod common;
use common::positions::middlegames;

fn main() {
    let (args, spec) = common::args_and_spec();
    let nodes: u64 = args
        .iter()
        .find_map(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    let positions = middlegames();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let (mut total_nodes, mut total_secs) = (0u64, 0f64);
    println!("spec {spec}, {nodes} nodes per position");
    for (name, view) in &positions {
        let mut engine = jieqi_search::alphabeta::from_spec(&spec).expect("spec");
        let t = Instant::now();
        let c = engine.go(view, &limits, 1).expect("a move");
        let secs = t.elapsed().as_secs_f64();
        total_nodes += c.info.nodes;
        total_secs += secs;
        println!(
            "{name:20} {:>10} nodes {secs:7.3} s {:6.2} Mnps  depth {:>2}  score {}  move {}  fen {}",
            c.info.nodes,
            c.info.nodes as f64 / secs / 1e6,
            c.info.depth.unwrap_or(0),
            c.info.score.map(|s| s.to_string()).unwrap_or_default(),
            c.mv,
            view.position().fen()
        );
    }
    println!(
        "total {total_nodes} nodes {total_secs:.3} s {:.2} Mnps",
        total_nodes as f64 / total_secs / 1e6
    );
}
