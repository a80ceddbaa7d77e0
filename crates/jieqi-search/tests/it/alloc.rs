//! Playouts do not allocate (ARCHITECTURE.md's invariant): the count of the test's own thread
//! ([`crate::counting_alloc`], jieqi-core's counting allocator) stays at zero over many playouts
//! of every policy, with and without a cutoff, from seeded deals of every preset.

use jieqi_core::{Color, Deal, Game, Rules};
use jieqi_search::playout::{PlayoutConfig, PlayoutPolicy, playout};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::counting_alloc::allocations;

#[test]
fn playouts_do_not_allocate() {
    for (rules, seed) in [
        (Rules::standard(), 1u64),
        (Rules::xiangqi(), 2),
        (Rules::simple(), 3),
    ] {
        for policy in [PlayoutPolicy::Random, PlayoutPolicy::CaptureBiased] {
            for cutoff in [None, Some(12)] {
                let cfg = PlayoutConfig {
                    policy,
                    cutoff,
                    ..PlayoutConfig::default()
                };
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let start = Game::new(rules, Deal::shuffled_for(&rules, &mut rng))
                    .start()
                    .clone();
                let mut det = start.clone();
                let before = allocations();
                let mut plies = 0;
                for _ in 0..100 {
                    det.clone_from(&start);
                    plies += playout(&mut det, Color::Red, &cfg, &mut rng).plies;
                }
                let made = allocations() - before;
                assert!(
                    plies > 100,
                    "{} {policy:?}: the playouts played {plies} plies",
                    rules.name
                );
                assert_eq!(
                    made, 0,
                    "{} {policy:?} cutoff {cutoff:?}: {made} allocations in 100 playouts ({plies} plies)",
                    rules.name
                );
            }
        }
    }
}
