//! `arena bench`: speed figures on fixed inputs, so a regression shows up as a number — perft
//! nodes/s, random playouts/s, and each engine's nodes/s and time per move on fixed positions.

use std::io::Write;
use std::time::Instant;

use jieqi_core::{Color, Game, Position, Rules, View, perft};
use jieqi_engine::{Engine, Limits, Spec};

use crate::error::Error;
use crate::plan::bench::BenchPlan;

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

/// Runs the benchmark.
///
/// # Errors
/// Writing fails ([`Error::Output`]).
pub fn run(plan: &BenchPlan, w: &mut dyn Write) -> Result<(), Error> {
    print(plan, w).map_err(Error::Output)
}

/// Times everything and writes the figures.
fn print(plan: &BenchPlan, w: &mut dyn Write) -> std::io::Result<()> {
    let mut json = serde_json::Map::new();
    let mut pos = Position::start(&Rules::xiangqi());
    let t = Instant::now();
    let nodes = perft::perft(&mut pos, plan.perft_depth);
    let secs = t.elapsed().as_secs_f64();
    writeln!(
        w,
        "perft xiangqi start depth {}: {nodes} nodes in {secs:.3} s, {:.1} M nodes/s",
        plan.perft_depth,
        nodes as f64 / secs / 1e6
    )?;
    json.insert(
        "perft_nps".into(),
        serde_json::json!((nodes as f64 / secs).round()),
    );
    // Random playouts (seed 000's 200-ply cap) from the start positions, single-threaded: a fresh
    // determinization per playout as the engines draw them, and the seed-000 peer's setup
    // (`seed000_peer.py playouts`: every playout from a copy of one fixed deal).
    let mut playouts = serde_json::Map::new();
    for (rules, fixed) in [
        (Rules::simple(), false),
        (Rules::standard(), false),
        (Rules::simple(), true),
    ] {
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
        while n < plan.playouts {
            let mut det = match &one {
                Some(det) => det.clone(),
                None => view.sample(&mut rng),
            };
            plies += u64::from(
                jieqi_search::playout::playout(&mut det, Color::Red, &cfg, &mut rng).plies,
            );
            n += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        writeln!(
            w,
            "random playouts, {label}: {n} playouts, {:.1} plies each, {:.0} playouts/s, {:.2} M plies/s",
            plies as f64 / n as f64,
            n as f64 / secs,
            plies as f64 / secs / 1e6
        )?;
        playouts.insert(
            key,
            serde_json::json!({"playouts_per_s": (n as f64 / secs).round(), "plies_per_s": (plies as f64 / secs).round()}),
        );
    }
    json.insert("playouts".into(), serde_json::Value::Object(playouts));
    let views = positions();
    writeln!(
        w,
        "engines on {} fixed positions ({}):",
        views.len(),
        plan.limits
    )?;
    let mut engines = serde_json::Map::new();
    for entry in &plan.engines {
        let mut engine = entry.build();
        let limits = crate::run::player(entry, &plan.limits, None, None, false).limits;
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
        let per_move_ms = secs * 1000.0 / views.len() as f64;
        let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
        writeln!(
            w,
            "  {:28} {nodes:>12} nodes {per_move_ms:9.3} ms/move {:10.3} M nodes/s",
            entry.label,
            nps / 1e6
        )?;
        if let Some(why) = &first_failure {
            writeln!(
                w,
                "    {failed} of {} moves failed (the first: {why})",
                views.len()
            )?;
        }
        engines.insert(
            entry.label.clone(),
            serde_json::json!({"nodes": nodes, "ms_per_move": per_move_ms, "nps": nps.round(), "failed": failed}),
        );
    }
    json.insert("engines".into(), serde_json::Value::Object(engines));
    if plan.json {
        writeln!(w, "{}", serde_json::Value::Object(json))?;
    }
    Ok(())
}
