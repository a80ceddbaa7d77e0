//! Playout and MCTS speed, single-threaded:
//! `cargo bench -p jieqi-search --bench playouts [-- SECONDS] [FILTER]` (FILTER: run only the lines
//! whose name contains it, e.g. `simple random`).
//!
//! Prints plies/s and playouts/s of random (and capture-biased) playouts from the `simple` and
//! `standard` start positions (a fresh deal and a fresh determinization per playout, as the engines
//! do), then iterations/s of `flat-uct` and `ismcts` from the start position.

use std::time::{Duration, Instant};

use jieqi_core::{Color, Deal, Game, Rules};
use jieqi_engine::{Limits, Spec};
use jieqi_search::playout::{PlayoutConfig, PlayoutPolicy, playout};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn playouts(name: &str, rules: Rules, policy: PlayoutPolicy, seconds: f64, filter: &str) {
    if !name.contains(filter) {
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let cfg = PlayoutConfig {
        policy,
        ..PlayoutConfig::default()
    };
    // A few deals, each sampled from Red's view like an engine would.
    let views: Vec<_> = (0..16)
        .map(|_| Game::new(rules, Deal::shuffled_for(&rules, &mut rng)).view(Color::Red))
        .collect();
    let (mut n, mut plies, mut red, mut black) = (0u64, 0u64, 0u64, 0u64);
    let t = Instant::now();
    let budget = Duration::from_secs_f64(seconds);
    while t.elapsed() < budget {
        for _ in 0..64 {
            let mut det = views[(n % 16) as usize].sample(&mut rng);
            let p = playout(&mut det, Color::Red, &cfg, &mut rng);
            n += 1;
            plies += p.plies as u64;
            if p.score == 1.0 {
                red += 1;
            } else if p.score == 0.0 {
                black += 1;
            }
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{name:28} playouts={n:8} seconds={s:.3} playouts_per_sec={:10.1} avg_plies={:6.2} plies_per_sec={:12.0} red_wins={red} black_wins={black} draws={}",
        n as f64 / s,
        plies as f64 / n as f64,
        plies as f64 / s,
        n - red - black
    );
}

fn engine_speed(spec: &str, rules: Rules, iters: u64, filter: &str) {
    if !format!("{spec} ({})", rules.name).contains(filter) {
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
    let view = game.view(Color::Red);
    let Some(Ok(mut engine)) = jieqi_search::from_spec(&Spec::parse(spec).unwrap()) else {
        println!("{spec:28} unavailable");
        return;
    };
    let limits = Limits {
        nodes: Some(iters),
        ..Limits::default()
    };
    let t = Instant::now();
    let choice = engine.go(&view, &limits, 1).unwrap();
    let s = t.elapsed().as_secs_f64();
    println!(
        "{:28} iterations={:8} seconds={s:.3} iterations_per_sec={:10.1} move={} score={:?} depth={:?}",
        format!("{spec} ({})", rules.name),
        choice.info.nodes,
        choice.info.nodes as f64 / s,
        choice.mv,
        choice.info.score,
        choice.info.depth
    );
}

fn main() {
    let seconds: f64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(3.0);
    let filter = std::env::args()
        .skip(1)
        .filter(|a| a.parse::<f64>().is_err() && !a.starts_with('-'))
        .collect::<Vec<_>>()
        .join(" ");
    let filter = filter.as_str();
    playouts(
        "simple random",
        Rules::simple(),
        PlayoutPolicy::Random,
        seconds,
        filter,
    );
    playouts(
        "standard random",
        Rules::standard(),
        PlayoutPolicy::Random,
        seconds,
        filter,
    );
    playouts(
        "simple capture",
        Rules::simple(),
        PlayoutPolicy::CaptureBiased,
        seconds,
        filter,
    );
    playouts(
        "standard capture",
        Rules::standard(),
        PlayoutPolicy::CaptureBiased,
        seconds,
        filter,
    );
    for rules in [Rules::simple(), Rules::standard()] {
        engine_speed("flat-uct", rules, 20_000, filter);
        engine_speed("ismcts", rules, 20_000, filter);
    }
}
