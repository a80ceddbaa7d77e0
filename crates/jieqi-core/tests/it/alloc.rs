//! Move generation and make/unmake do not allocate (ARCHITECTURE.md's invariant): the count of
//! the test's own thread ([`crate::counting_alloc`]) stays at zero while random games of every preset are generated, made and unmade move by move.

use jieqi_core::{Deal, Game, Rules, uniform_below};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::counting_alloc::allocations;

#[test]
fn move_generation_and_make_unmake_do_not_allocate() {
    for (rules, seed) in [
        (Rules::standard(), 1u64),
        (Rules::xiangqi(), 2),
        (Rules::simple(), 3),
    ] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for game_no in 0..20 {
            let deal = Deal::shuffled_for(&rules, &mut rng);
            let mut det = Game::new(rules, deal).start().clone();
            let before = allocations();
            let mut plies = 0;
            for _ in 0..150 {
                let moves = det.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let (pm, undo) = det.make(m);
                    std::hint::black_box(det.position().is_in_check(det.turn()));
                    std::hint::black_box(det.position().legal_moves().len());
                    det.unmake(pm, undo);
                }
                let m = moves[uniform_below(&mut rng, moves.len() as u32) as usize];
                let _ = det.make(m);
                plies += 1;
                if det.position().king_lost(det.turn()) {
                    break;
                }
            }
            let made = allocations() - before;
            assert_eq!(
                made, 0,
                "{} game {game_no}: {made} allocations in {plies} plies of move generation and make/unmake",
                rules.name
            );
        }
    }
}
