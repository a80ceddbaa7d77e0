//! Time to depth: `cargo bench -p jieqi-search --bench depth [-- MAX_DEPTH SECONDS [SPEC]]`.
//!
//! Single-threaded unless the spec says `threads=N`. For the Jieqi start position and the six
//! middlegame positions of the `alphabeta` bench, searches to `MAX_DEPTH` (default 10) with a cap
//! of `SECONDS` per position (default 10) and prints, for every completed depth d, the nodes
//! (make calls) and the milliseconds the search had used when depth d completed. A `-` marks a
//! depth not completed within the cap.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use jieqi_core::{Deal, Game, Rules};
use jieqi_engine::{Control, Limits, SearchInfo};

mod common;
use common::positions::middlegames;

fn main() {
    let (args, spec) = common::args_and_spec();
    let numbers: Vec<f64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let max_depth = numbers.first().map_or(10, |&d| d as u32);
    let cap = Duration::from_secs_f64(numbers.get(1).copied().unwrap_or(10.0));
    let rules = Rules::standard();
    let start = Game::new(rules, Deal::unshuffled(&rules)).view(jieqi_core::Color::Red);
    let mut positions = vec![("standard start", start)];
    positions.extend(middlegames());
    println!(
        "spec {spec}, depth 1..{max_depth}, at most {:.1} s per position; cells: nodes / ms when depth d completed",
        cap.as_secs_f64()
    );
    print!("{:20}", "position");
    for d in 1..=max_depth {
        print!(" {:>16}", format!("d{d}"));
    }
    println!();
    for (name, view) in &positions {
        let mut engine = jieqi_search::alphabeta::from_spec(&spec).expect("spec");
        let rows: Mutex<Vec<(u32, u64, f64)>> = Mutex::new(Vec::new());
        let t = Instant::now();
        let report = |info: &SearchInfo| {
            if let Some(d) = info.depth {
                let ms = t.elapsed().as_secs_f64() * 1e3;
                rows.lock().expect("lock").push((d, info.nodes, ms));
            }
        };
        let limits = Limits {
            depth: Some(max_depth),
            movetime: Some(cap),
            ..Limits::default()
        };
        let control = Control::default().with_report(&report);
        engine.search(view, &limits, 1, &control).expect("a move");
        let rows = rows.into_inner().expect("lock");
        print!("{name:20}");
        for d in 1..=max_depth {
            match rows.iter().rev().find(|r| r.0 == d) {
                Some(&(_, nodes, ms)) => print!(" {:>16}", format!("{nodes}/{ms:.0}")),
                None => print!(" {:>16}", "-"),
            }
        }
        println!();
    }
}
