//! The fixed benchmark positions shared by the alpha-beta benches.

use jieqi_core::{Deal, Game, Rules, View, uniform_below};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// The view of the side to move after `plies` seeded random plies of a `rules` game (the seed is
/// stepped by 1000 until the game is still running there).
pub fn view_after(rules: Rules, seed: u64, plies: usize) -> View {
    let mut s = seed;
    loop {
        let mut rng = ChaCha8Rng::seed_from_u64(s);
        let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
        while game.outcome().is_none() && game.ply() < plies {
            let moves = game.legal_moves();
            let m = moves[uniform_below(&mut rng, moves.len() as u32) as usize];
            game.play(m).expect("legal");
        }
        if game.outcome().is_none() {
            return game.view(game.turn());
        }
        s += 1000;
    }
}

/// The six middlegame positions: four `standard` (after 30 and 40 random plies), one `simple`, one
/// `xiangqi`.
pub fn middlegames() -> Vec<(&'static str, View)> {
    vec![
        ("standard #1 ply 30", view_after(Rules::standard(), 1, 30)),
        ("standard #2 ply 30", view_after(Rules::standard(), 2, 30)),
        ("standard #3 ply 40", view_after(Rules::standard(), 3, 40)),
        ("standard #4 ply 40", view_after(Rules::standard(), 4, 40)),
        ("simple #5 ply 30", view_after(Rules::simple(), 5, 30)),
        ("xiangqi #6 ply 30", view_after(Rules::xiangqi(), 6, 30)),
    ]
}
