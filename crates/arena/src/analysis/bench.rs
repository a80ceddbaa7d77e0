//! `arena bench`'s work: the fixed positions, and the timings (perft, random playouts, each
//! engine on the positions). The printed figures are `report::bench`'s.

use std::time::Instant;

use jieqi_core::{Color, Game, Position, Rules, View, perft};
use jieqi_engine::{Engine, Limits, Spec};

use crate::engines::EngineEntry;

/// The fixed benchmark positions: the standard start and the position after 20, 40 and 60 plies of
/// seeded greedy-vs-level:normal games on deals 1..=4 (computed, so no FEN can go stale), as seen by
/// the side to move.
pub fn positions() -> Vec<View> {
    let rules = Rules::standard();
    let mut out = vec![
        Game::new(rules, crate::records::deal_seed::deal_for_seed(0, &rules)).view(Color::Red),
    ];
    let players = ["greedy", "level:normal"];
    for deal in 1..=4u64 {
        let mut game = Game::new(
            rules,
            crate::records::deal_seed::deal_for_seed(deal, &rules),
        );
        let mut engines: Vec<Box<dyn Engine>> = players
            .iter()
            .map(|s| {
                jieqi_registry::factory(&Spec::parse(s).expect("a valid spec"))
                    .expect("a baseline")
                    .build()
            })
            .collect();
        while game.outcome().is_none() && game.ply() < 60 {
            let us = game.turn();
            let view = game.view(us);
            let choice = engines[us.index()]
                .go(
                    &view,
                    &Limits::default(),
                    jieqi_engine::mix(deal, game.ply() as u64),
                )
                .expect("baselines answer");
            game.play(choice.mv).expect("baselines play legal moves");
            if game.ply() % 20 == 0 && game.outcome().is_none() {
                out.push(game.view(game.turn()));
            }
        }
    }
    out
}

/// Perft of the Xiangqi start to `depth`: its nodes and the seconds it took.
pub fn perft_speed(depth: u32) -> (u64, f64) {
    let mut pos = Position::start(&Rules::xiangqi());
    let t = Instant::now();
    let nodes = perft::perft(&mut pos, depth);
    let secs = t.elapsed().as_secs_f64();
    (nodes, secs)
}

/// Random playouts timed from one start.
pub struct Playouts {
    /// What they started from, for people.
    pub label: String,
    /// Its key in the JSON.
    pub key: String,
    /// Playouts.
    pub n: u64,
    /// Their plies in all.
    pub plies: u64,
    /// Seconds.
    pub secs: f64,
}

/// `count` random playouts (seed 000's 200-ply cap) from the start of `rules`, single-threaded:
/// a fresh determinization per playout as the engines draw them, or with `fixed` the seed-000
/// peer's setup (`seed000_peer.py playouts`: every playout from a copy of one fixed deal).
pub fn playouts(rules: Rules, fixed: bool, count: u64) -> Playouts {
    let (label, key) = if fixed {
        (
            format!("{} start, one fixed deal (as seed000_peer.py)", rules.name),
            format!("{}_fixed_deal", rules.name),
        )
    } else {
        (format!("{} start", rules.name), rules.name.to_string())
    };
    let view =
        Game::new(rules, crate::records::deal_seed::deal_for_seed(0, &rules)).view(Color::Red);
    let cfg = jieqi_search::playout::PlayoutConfig::default();
    let mut rng = <rand_chacha::ChaCha8Rng as rand_core::SeedableRng>::seed_from_u64(1);
    let one = fixed.then(|| view.sample(&mut rng));
    let (mut n, mut plies) = (0u64, 0u64);
    let t = Instant::now();
    while n < count {
        let mut det = match &one {
            Some(det) => det.clone(),
            None => view.sample(&mut rng),
        };
        plies +=
            u64::from(jieqi_search::playout::playout(&mut det, Color::Red, &cfg, &mut rng).plies);
        n += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    Playouts {
        label,
        key,
        n,
        plies,
        secs,
    }
}

/// One engine's moves on the fixed positions, timed.
pub struct EngineSpeed {
    /// Nodes in all.
    pub nodes: u64,
    /// Seconds in all.
    pub secs: f64,
    /// Moves that failed (an external engine that never answers fails at its hard limit).
    pub failed: usize,
    /// The first failure.
    pub first_failure: Option<String>,
}

/// `entry`'s move on each of `views` under `limits` (its own where its spec sets them), timed.
pub fn engine_speed(entry: &EngineEntry, limits: &Limits, views: &[View]) -> EngineSpeed {
    let mut engine = entry.build();
    let limits = crate::run::player(entry, limits, None, None, false).limits;
    let (mut nodes, mut secs) = (0u64, 0f64);
    // Moves that failed (an external engine that never answers fails at its hard limit),
    // and the first failure.
    let (mut failed, mut first_failure) = (0usize, None);
    for (i, view) in views.iter().enumerate() {
        let t = Instant::now();
        let choice = engine.go(view, &limits, i as u64);
        secs += t.elapsed().as_secs_f64();
        match choice {
            Ok(c) => nodes += c.info.nodes,
            Err(e) => {
                failed += 1;
                first_failure.get_or_insert(e.message);
            }
        }
    }
    EngineSpeed {
        nodes,
        secs,
        failed,
        first_failure,
    }
}
