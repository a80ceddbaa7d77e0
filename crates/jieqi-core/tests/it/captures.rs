//! The capture generator and the pseudo-legal legality test against their definitions:
//! `pseudo_legal_captures` is `pseudo_legal_moves` filtered to captures (same order), and
//! `is_pseudo_legal_move_legal` agrees with `is_legal` on every pseudo-legal move, along seeded
//! random games of all three rule presets (players' views and the referee's position); and
//! `is_recapturable` of every capture is whether the other side can capture on its square next.

use jieqi_core::{
    Color, Deal, Game, MoveList, Occupant, PlayedMove, Position, Role, Rules, uniform_below,
};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn check(pos: &Position) {
    let mut all = MoveList::new();
    pos.pseudo_legal_moves(&mut all);
    let expected: Vec<_> = all
        .iter()
        .copied()
        .filter(|m| m.from != m.to && pos.occupant(m.to).is_some())
        .collect();
    let mut caps = MoveList::new();
    pos.pseudo_legal_captures(&mut caps);
    assert_eq!(caps.as_slice(), &expected[..], "{}", pos.fen());
    for &m in all.iter() {
        let fast = pos.is_pseudo_legal_move_legal(m, || pos.in_check());
        assert_eq!(fast, pos.is_legal(m), "{} {m}", pos.fen());
    }
    for &m in caps.iter() {
        if matches!(pos.occupant(m.to), Some(Occupant::Revealed(p)) if p.role == Role::King) {
            continue;
        }
        // Any identity the mover may reveal: the other side's captures onto m.to do not depend
        // on it.
        let reveal = pos
            .is_hidden(m.from)
            .then(|| {
                Role::ALL
                    .into_iter()
                    .find(|&r| pos.pool(pos.turn()).get(r) > 0)
            })
            .flatten();
        let mut after = pos.clone();
        after.make(PlayedMove {
            mv: m,
            reveal,
            capture: None,
        });
        let mut replies = MoveList::new();
        after.pseudo_legal_captures(&mut replies);
        let expected = replies.iter().any(|r| r.to == m.to);
        assert_eq!(pos.is_recapturable(m), expected, "{} {m}", pos.fen());
    }
}

#[test]
fn captures_and_pseudo_legal_legality_match_their_definitions() {
    let mut checked = 0;
    for (k, rules) in [Rules::standard(), Rules::simple(), Rules::xiangqi()]
        .into_iter()
        .enumerate()
    {
        for game_no in 0..40u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(7000 + 100 * k as u64 + game_no);
            let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
            while game.outcome().is_none() && game.ply() < 200 {
                check(game.position());
                check(game.view(Color::Red).position());
                check(game.view(Color::Black).position());
                checked += 1;
                let moves = game.legal_moves();
                let m = moves[uniform_below(&mut rng, moves.len() as u32) as usize];
                game.play(m).unwrap();
            }
        }
    }
    assert!(checked > 2_000, "{checked}");
}
