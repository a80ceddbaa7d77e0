//! The referee: outcomes (mate, stalemate, king capture, no-capture limit, repetition, perpetual
//! check), deals, and what each player is told.

use jieqi_core::{
    CaptureReveal, Color, Deal, Determinization, Game, GameError, Move, Occupant, Outcome,
    PerpetualCheck, PlayedMove, Position, Reason, Role, Rules, Square,
};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn mv(s: &str) -> Move {
    Move::from_text(s).unwrap()
}

fn game_from(fen: &str, rules: Rules, ids: &[(Square, Role)]) -> Game {
    let pos = Position::from_fen(fen, &rules).unwrap();
    Game::from_determinization(Determinization::new(pos, ids.iter().copied()).unwrap())
}

/// The outcome of a game that ended: `winner` (`None`: a draw) for `reason`.
fn ended(winner: Option<Color>, reason: Reason) -> Option<Outcome> {
    Some(Outcome { winner, reason })
}

fn play_all(game: &mut Game, moves: &[&str]) {
    for m in moves {
        assert!(
            game.outcome().is_none(),
            "game ended before {m}: {:?}",
            game.outcome()
        );
        game.play(mv(m)).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

const CHECKING_CYCLE: [&str; 8] = [
    "a8a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9",
];

#[test]
fn perpetual_check_loses() {
    let mut game = game_from("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1", Rules::xiangqi(), &[]);
    play_all(&mut game, &CHECKING_CYCLE[..7]);
    assert_eq!(game.outcome(), None, "only two occurrences so far");
    play_all(&mut game, &CHECKING_CYCLE[7..]);
    assert!(
        game.records()
            .iter()
            .filter(|r| r.mover == Color::Red)
            .all(|r| r.check)
    );
    assert_eq!(
        game.outcome(),
        ended(Some(Color::Black), Reason::PerpetualCheck)
    );
}

#[test]
fn perpetual_check_draws_when_switched_off() {
    let rules = Rules {
        perpetual_check: PerpetualCheck::Draws,
        ..Rules::xiangqi()
    };
    let mut game = game_from("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1", rules, &[]);
    play_all(&mut game, &CHECKING_CYCLE);
    assert_eq!(game.outcome(), ended(None, Reason::Repetition));
}

#[test]
fn quiet_threefold_repetition_draws() {
    let mut game = game_from("3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1", Rules::standard(), &[]);
    play_all(
        &mut game,
        &["f0f1", "d9d8", "f1f0", "d8d9", "f0f1", "d9d8", "f1f0"],
    );
    assert_eq!(game.outcome(), None);
    play_all(&mut game, &["d8d9"]);
    assert_eq!(game.outcome(), ended(None, Reason::Repetition));
}

#[test]
fn no_capture_limit_draws_and_reveals_do_not_reset_it() {
    let mut game = game_from(
        "3k5/9/9/9/9/9/9/9/9/5K3 w - - 78 40",
        Rules::standard(),
        &[],
    );
    play_all(&mut game, &["f0f1"]);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, &["d9d8"]);
    assert_eq!(game.outcome(), ended(None, Reason::NoCaptureLimit));

    // A hidden pawn-square piece reveals as it moves; the count still reaches the limit.
    let mut game = game_from(
        "3k5/9/9/9/9/9/4X4/9/9/5K3 w P1 79 40",
        Rules::standard(),
        &[(Square::E3, Role::Pawn)],
    );
    play_all(&mut game, &["e3e4"]);
    assert_eq!(game.records()[0].played.reveal, Some(Role::Pawn));
    assert_eq!(game.outcome(), ended(None, Reason::NoCaptureLimit));
}

/// A game is classified from its first position by the same rules as after a move: one set up at
/// the no-capture limit is already drawn (a side without a move there still loses).
#[test]
fn a_game_set_up_at_the_no_capture_limit_is_over() {
    let game = game_from(
        "3k5/9/9/9/9/9/9/9/9/5K3 w - - 80 41",
        Rules::standard(),
        &[],
    );
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::NoCaptureLimit)));
    assert!(game.legal_moves().is_empty());
    let game = game_from(
        "3k5/9/9/9/9/9/9/9/9/5K3 w - - 79 40",
        Rules::standard(),
        &[],
    );
    assert_eq!(game.outcome(), None);
    assert_eq!(game.repetition_window().len(), 1);
}

#[test]
fn a_capture_resets_the_no_capture_count() {
    let mut game = game_from(
        "3k5/9/9/9/9/9/9/9/r8/R4K3 w - - 79 40",
        Rules::standard(),
        &[],
    );
    play_all(&mut game, &["a0a1"]);
    assert_eq!(game.position().halfmoves(), 0);
    assert_eq!(game.outcome(), None);
}

#[test]
fn checkmate_and_stalemate_lose() {
    let fen = "3k5/9/9/9/9/9/9/9/9/X3K4 w R1 0 1";
    for (m, reason) in [("a0d0", Reason::Checkmate), ("a0a8", Reason::Stalemate)] {
        let mut game = game_from(fen, Rules::standard(), &[(Square::A0, Role::Chariot)]);
        play_all(&mut game, &[m]);
        assert_eq!(game.outcome(), ended(Some(Color::Red), reason), "{m}");
    }

    // The same moves by a piece that reveals as a horse threaten nothing.
    let mut game = game_from(fen, Rules::standard(), &[(Square::A0, Role::Horse)]);
    play_all(&mut game, &["a0d0"]);
    assert_eq!(game.outcome(), None);
    assert!(!game.records()[0].check);
}

#[test]
fn capturing_a_hidden_king_wins_in_simple() {
    let fen = "9/9/9/x8/R8/9/9/9/4K4/9 w k1 0 1";
    let mut game = game_from(fen, Rules::simple(), &[(Square::A6, Role::King)]);
    play_all(&mut game, &["a5a6"]);
    assert_eq!(
        game.outcome(),
        ended(Some(Color::Red), Reason::KingCaptured)
    );
    assert_eq!(game.records()[0].captured.map(|p| p.role), Some(Role::King));
}

#[test]
fn flipping_ones_own_hidden_king_does_not_win_in_simple() {
    // Seed-000 bug: a flip in place "captured" the flipping piece itself.
    let fen = "9/9/9/x8/R8/9/9/9/4K4/9 b k1 0 1";
    let mut game = game_from(fen, Rules::simple(), &[(Square::A6, Role::King)]);
    play_all(&mut game, &["a6a6"]);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.records()[0].captured, None);
    assert_eq!(
        game.position().occupant(Square::A6),
        Some(Occupant::Revealed(jieqi_core::Piece {
            color: Color::Black,
            role: Role::King
        }))
    );
}

#[test]
fn the_game_reveals_what_the_deal_says() {
    let mut rng = ChaCha8Rng::seed_from_u64(4711);
    let deal = Deal::shuffled(&mut rng);
    let mut game = Game::new(Rules::standard(), deal.clone());
    for (sq, role) in deal.assignments(Color::Red) {
        assert_eq!(game.truth().identity(sq), Some(role));
    }
    let first = game.legal_moves()[0];
    let expected = game.truth().identity(first.from);
    let record = *game.play(first).unwrap();
    assert_eq!(record.played.reveal, expected);
    // Both players see the reveal.
    for c in Color::ALL {
        assert_eq!(game.view(c).history()[0].reveal, expected);
    }
}

#[test]
fn only_the_capturer_learns_a_captured_hidden_identity() {
    // Red's revealed chariot captures Black's hidden a6 piece (a pawn).
    let fen = "4k4/9/9/x8/9/9/9/9/9/R2K5 w p1 0 1";
    for (rule, red_knows, black_knows) in [
        (CaptureReveal::Capturer, true, false),
        (CaptureReveal::Both, true, true),
        (CaptureReveal::Nobody, false, false),
    ] {
        let rules = Rules {
            capture_reveal: rule,
            ..Rules::standard()
        };
        let mut game = game_from(fen, rules, &[(Square::A6, Role::Pawn)]);
        play_all(&mut game, &["a0a6"]);
        assert_eq!(
            game.records()[0].played.capture,
            Some(Role::Pawn),
            "the referee knows"
        );
        for (color, knows) in [(Color::Red, red_knows), (Color::Black, black_knows)] {
            let view = game.view(color);
            let seen = view.history()[0].capture;
            assert_eq!(seen.is_some(), knows, "{rule:?} {color}: history");
            assert_eq!(
                view.position().pool(Color::Black).get(Role::Pawn),
                u8::from(!knows)
            );
            assert_eq!(view.unknown_captured(Color::Black), u32::from(!knows));
            assert_eq!(
                view.learned()[Color::Black].get(Role::Pawn),
                u8::from(knows)
            );
        }
    }
}

#[test]
fn illegal_moves_and_moves_after_the_end_are_refused() {
    let mut game = game_from(
        "3k5/9/9/9/9/9/9/9/9/X3K4 w R1 0 1",
        Rules::standard(),
        &[(Square::A0, Role::Chariot)],
    );
    let before = game.position().clone();
    assert!(game.play(mv("e0d0")).is_err(), "flying general");
    assert!(game.play(mv("a0b1")).is_err(), "not a chariot move");
    assert!(game.play(mv("d9d8")).is_err(), "not Red's piece");
    assert_eq!(game.position(), &before);
    play_all(&mut game, &["a0d0"]);
    // The error type is named at the crate's root, so callers can match on it.
    assert_eq!(game.play(mv("d9d8")).unwrap_err(), GameError::GameOver);
}

#[test]
fn deal_strings_round_trip_and_are_validated() {
    let unshuffled = Deal::unshuffled(&Rules::standard());
    assert_eq!(unshuffled.side_string(Color::Red), "RNBAABNRCCPPPPP");
    assert_eq!(unshuffled.side_string(Color::Black), "rnbaabnrccppppp");
    assert_eq!(
        Deal::unshuffled(&Rules::simple()).side_string(Color::Red),
        "RNBAKABNRCCPPPPP"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let deal = Deal::shuffled(&mut rng);
    let back = Deal::from_strings(
        &deal.side_string(Color::Red),
        &deal.side_string(Color::Black),
    )
    .unwrap();
    assert_eq!(back, deal);
    assert!(
        Deal::from_strings("RNBAABNRCCPPPP", "rnbaabnrccppppp").is_err(),
        "too short"
    );
    assert!(
        Deal::from_strings("RRBAABNRCCPPPPP", "rnbaabnrccppppp").is_err(),
        "wrong multiset"
    );
    assert!(
        Deal::from_strings("RNBAABNRCCPPPPQ", "rnbaabnrccppppp").is_err(),
        "bad letter"
    );
    let squares: Vec<String> = Deal::squares(Color::Black, false)
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        squares.join(" "),
        "a9 b9 c9 d9 f9 g9 h9 i9 b7 h7 a6 c6 e6 g6 i6"
    );
}

#[test]
fn deals_are_seeded_and_uniform() {
    let a = Deal::shuffled(&mut ChaCha8Rng::seed_from_u64(9));
    let b = Deal::shuffled(&mut ChaCha8Rng::seed_from_u64(9));
    assert_eq!(a, b);
    // The identity on a0 follows the material: 2/15 for each of R N B A C, 5/15 for P.
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let n = 30_000;
    let mut counts = [0u32; 7];
    for _ in 0..n {
        counts[Deal::shuffled(&mut rng).identities(Color::Red)[0].index()] += 1;
    }
    let mut chi2 = 0.0;
    for r in Role::ALL {
        let expected = n as f64 * jieqi_core::Pool::STANDARD.get(r) as f64 / 15.0;
        if expected > 0.0 {
            chi2 += (counts[r.index()] as f64 - expected).powi(2) / expected;
        } else {
            assert_eq!(counts[r.index()], 0);
        }
    }
    // 5 degrees of freedom: the 0.999 quantile is 20.52.
    assert!(chi2 < 20.52, "chi2 {chi2} counts {counts:?}");
}

#[test]
fn incrementally_kept_views_equal_fresh_ones() {
    for (i, rules) in [Rules::standard(), Rules::simple(), Rules::xiangqi()]
        .into_iter()
        .enumerate()
    {
        for rule in [
            CaptureReveal::Capturer,
            CaptureReveal::Both,
            CaptureReveal::Nobody,
        ] {
            let rules = Rules {
                capture_reveal: rule,
                ..rules
            };
            let mut rng = ChaCha8Rng::seed_from_u64(77 + i as u64);
            for _ in 0..20 {
                let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
                let mut views = [game.view(Color::Red), game.view(Color::Black)];
                let mut omni = game.omniscient_view(Color::Red);
                while game.outcome().is_none() && game.ply() < 200 {
                    let moves = game.legal_moves();
                    let m = moves[jieqi_core::uniform_below(&mut rng, moves.len() as u32) as usize];
                    let record = *game.play(m).unwrap();
                    let pos = game.position();
                    assert_eq!(pos.has_legal_move(), !pos.legal_moves().is_empty());
                    for (c, view) in Color::ALL.into_iter().zip(views.iter_mut()) {
                        view.apply(record.seen_by(c, rules.capture_reveal)).unwrap();
                        assert_eq!(*view, game.view(c), "{} ply {}", rules.name, game.ply());
                    }
                    omni.apply(PlayedMove::plain(m)).unwrap();
                    assert_eq!(omni, game.omniscient_view(Color::Red));
                }
            }
        }
    }
}

/// A game from a public position (an opening): the views see the position's pools (captured
/// identities nobody saw included), start their history there, and kept up with `View::apply`
/// equal `Game::view` ply by ply.
#[test]
fn a_game_from_an_opening_keeps_its_public_start() {
    use rand_chacha::ChaCha20Rng;
    use rand_chacha::rand_core::SeedableRng;
    let rules = jieqi_core::Rules::standard();
    // Black's i9 hidden piece was captured unseen: 14 hidden black pieces, a pool of 15.
    let fen = "xxxxkxxx1/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w \
               R2A2C2P5N2B2r2a2c2p5n2b2 2 2";
    let public = jieqi_core::Position::from_fen(fen, &rules).unwrap();
    let view = jieqi_core::View::from_setup(&public.to_setup(), &rules).unwrap();
    for seed in 0..20u64 {
        let truth = view.sample(&mut ChaCha20Rng::seed_from_u64(seed));
        let mut game = jieqi_core::Game::from_opening(truth);
        assert_eq!(game.public_start().map(|p| p.fen()), Some(public.fen()));
        let mut views = jieqi_core::ByColor::new_with(|c| game.view(c));
        for c in jieqi_core::Color::ALL {
            assert_eq!(views[c].position().fen(), public.fen());
            assert_eq!(views[c].start_position(), Some(&public));
            assert_eq!(views[c].unknown_captured(jieqi_core::Color::Black), 1);
        }
        let mut rng = ChaCha20Rng::seed_from_u64(seed + 100);
        for _ in 0..30 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[jieqi_core::uniform_below(&mut rng, moves.len() as u32) as usize];
            let record = *game.play(mv).unwrap();
            for c in jieqi_core::Color::ALL {
                views[c]
                    .apply(record.seen_by(c, rules.capture_reveal))
                    .unwrap();
                assert_eq!(views[c], game.view(c), "seed {seed}");
            }
        }
    }
}
