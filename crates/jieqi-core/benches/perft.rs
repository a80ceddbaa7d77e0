//! Perft speed: `cargo bench -p jieqi-core --bench perft [-- DEPTH]`.
//!
//! Single-threaded, bulk counting at the last ply. Prints nodes, seconds and millions of nodes per
//! second for the Xiangqi start position (published counts) and the Jieqi start position.

use std::time::Instant;

use jieqi_core::{Position, Rules, perft::perft};

fn main() {
    let depth: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(5);
    for (name, rules, d) in [
        ("xiangqi start", Rules::xiangqi(), depth),
        (
            "jieqi start",
            Rules::standard(),
            depth.saturating_sub(1).max(1),
        ),
    ] {
        let mut pos = Position::start(&rules);
        let t = Instant::now();
        let nodes = perft(&mut pos, d);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name:14} depth {d}: {nodes:>14} nodes {secs:8.3} s {:8.2} Mnps",
            nodes as f64 / secs / 1e6
        );
    }
}
