//! `Position::from_setup` (through FEN) refuses illegal positions with the right `PositionError`,
//! accepts the legal ones next to them, and infers an omitted pool.

use jieqi_core::fen::{self, FenError};
use jieqi_core::{
    CaptureReveal, Color, Move, PlayedMove, Pool, Position, PositionError, Role, Rules, Square,
};

const JIEQI_START_BOARD: &str = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX";

fn refused(text: &str, rules: &Rules) -> PositionError {
    match Position::from_fen(text, rules) {
        Ok(pos) => panic!("{text} accepted under {}: {}", rules.name, pos.fen()),
        Err(FenError::Position(e)) => {
            // The setup error surfaces unchanged through from_setup too.
            let setup = fen::parse(text).unwrap();
            assert_eq!(Position::from_setup(&setup, rules).err(), Some(e.clone()));
            assert!(!e.to_string().is_empty());
            e
        }
        Err(e) => panic!("{text}: expected a position error, got syntax error {e}"),
    }
}

fn accepted(text: &str, rules: &Rules) -> Position {
    Position::from_fen(text, rules)
        .unwrap_or_else(|e| panic!("{text} refused under {}: {e}", rules.name))
}

#[test]
fn hidden_piece_off_a_start_square() {
    let std = Rules::standard();
    assert_eq!(
        refused("3k5/9/9/9/9/4X4/9/9/9/4K4 w P1 0 1", &std),
        PositionError::HiddenOffStartSquare(Square::E4)
    );
    // A black hidden piece on a red start square, and a red one on a black start square.
    assert_eq!(
        refused("3k5/9/9/9/9/9/x8/9/9/4K4 w p1 0 1", &std),
        PositionError::HiddenOffStartSquare(Square::A3)
    );
    assert_eq!(
        refused("3k5/9/9/X8/9/9/9/9/9/4K4 w P1 0 1", &std),
        PositionError::HiddenOffStartSquare(Square::A6)
    );
    assert_eq!(
        refused("3k5/9/9/9/9/9/9/9/9/x3K4 w p1 0 1", &std),
        PositionError::HiddenOffStartSquare(Square::A0)
    );
    // The king's square holds a hidden piece only when kings start hidden.
    assert_eq!(
        refused("3k5/9/9/9/9/9/9/9/9/4X4 w P1 0 1", &std),
        PositionError::HiddenOffStartSquare(Square::E0)
    );
    // The same squares are fine for the right side.
    accepted("3k5/9/9/9/9/9/X8/9/9/X3K4 w R1P1 0 1", &std);
    accepted("3k1x3/9/9/9/9/9/9/9/9/4K4 w a1 0 1", &std);
}

#[test]
fn pool_too_small_for_the_hidden_pieces() {
    let std = Rules::standard();
    assert_eq!(
        refused("3k5/9/9/9/9/9/X8/9/9/X3K4 w - 0 1", &std),
        PositionError::PoolTooSmall {
            color: Color::Red,
            hidden: 2,
            pool: 0
        }
    );
    assert_eq!(
        refused("3k5/9/9/9/9/9/X8/9/9/X3K4 w P1 0 1", &std),
        PositionError::PoolTooSmall {
            color: Color::Red,
            hidden: 2,
            pool: 1
        }
    );
    assert_eq!(
        refused(
            &format!("{JIEQI_START_BOARD} w R2A2C2P5N2B2r2a2c2p5n2b1 0 1"),
            &std
        ),
        PositionError::PoolTooSmall {
            color: Color::Black,
            hidden: 15,
            pool: 14
        }
    );
    // A pool larger than the hidden pieces is fine: the rest were captured unseen.
    accepted("3k5/9/9/9/9/9/X8/9/9/X3K4 w R1N1P1 0 1", &std);
}

#[test]
fn kings_facing_on_an_open_file() {
    for rules in [Rules::standard(), Rules::xiangqi()] {
        assert_eq!(
            refused("4k4/9/9/9/9/9/9/9/9/4K4 w - 0 1", &rules),
            PositionError::KingsFacing
        );
        // A piece between them, or different files, is fine.
        accepted("4k4/9/9/9/4p4/9/9/9/9/4K4 w - 0 1", &rules);
        accepted("3k5/9/9/9/9/9/9/9/9/4K4 w - 0 1", &rules);
    }
    // Without the flying-general rule the same position is legal.
    let free = Rules {
        flying_general: false,
        ..Rules::standard()
    };
    accepted("4k4/9/9/9/9/9/9/9/9/4K4 w - 0 1", &free);
}

#[test]
fn side_not_to_move_in_check() {
    for rules in [Rules::standard(), Rules::xiangqi()] {
        // The red chariot on e5 gives check to the black king on e9.
        assert_eq!(
            refused("4k4/9/9/9/4R4/9/9/9/9/3K5 w - 0 1", &rules),
            PositionError::OpponentInCheck(Color::Black)
        );
        // With Black to move it is just check.
        let pos = accepted("4k4/9/9/9/4R4/9/9/9/9/3K5 b - 0 1", &rules);
        assert!(pos.in_check());
        // A horse, a cannon over a screen, a pawn.
        assert_eq!(
            refused("4k4/9/3N5/9/9/9/9/9/9/3K5 w - 0 1", &rules),
            PositionError::OpponentInCheck(Color::Black)
        );
        assert_eq!(
            refused("3k5/9/9/9/9/9/9/9/3p5/3C1K3 w - 0 1", &rules),
            PositionError::OpponentInCheck(Color::Black)
        );
        // The black pawn on d2 attacks the red king on d1.
        assert_eq!(
            refused("4k4/9/9/9/9/9/9/3p5/3K5/9 b - 0 1", &rules),
            PositionError::OpponentInCheck(Color::Red)
        );
        assert!(accepted("4k4/9/9/9/9/9/9/3p5/3K5/9 w - 0 1", &rules).in_check());
    }
}

#[test]
fn missing_king() {
    for rules in [Rules::standard(), Rules::xiangqi()] {
        assert_eq!(
            refused("9/9/9/9/9/9/9/9/9/3K5 w - 0 1", &rules),
            PositionError::MissingKing(Color::Black)
        );
        assert_eq!(
            refused("4k4/9/9/9/9/9/9/9/9/9 b - 0 1", &rules),
            PositionError::MissingKing(Color::Red)
        );
    }
    // Under the seed-000 rules a king may be hidden, but then it must be in the pool.
    let simple = Rules::simple();
    accepted(
        "xxxxxxxxx/9/9/9/9/9/9/9/9/XXXXXXXXX w K1R2A2B2N2k1r2a2b2n2 0 1",
        &simple,
    );
    assert_eq!(
        refused(
            "xxxxxxxxx/9/9/9/9/9/9/9/9/XXXXXXXXX w C1R2A2B2N2k1r2a2b2n2 0 1",
            &simple
        ),
        PositionError::MissingKing(Color::Red)
    );
}

#[test]
fn two_red_kings() {
    for rules in [Rules::standard(), Rules::xiangqi()] {
        assert_eq!(
            refused("4k4/9/9/9/9/9/9/9/5K3/3K5 w - 0 1", &rules),
            PositionError::TooManyKings(Color::Red)
        );
    }
    // A face-up king plus one in the pool is two kings too (seed-000 rules).
    assert_eq!(
        refused(
            "xxxxkxxxx/9/9/9/9/9/9/9/9/XXXXKXXXX w K1P1 0 1",
            &Rules::simple()
        ),
        PositionError::TooManyKings(Color::Red)
    );
}

#[test]
fn hidden_pieces_under_xiangqi_rules() {
    let x = Rules::xiangqi();
    assert_eq!(
        refused(
            &format!("{JIEQI_START_BOARD} w R2A2C2P5N2B2r2a2c2p5n2b2 0 1"),
            &x
        ),
        PositionError::HiddenNotAllowed(Square::A0)
    );
    assert_eq!(
        refused("3k5/9/9/9/9/9/9/9/9/4K2X1 w N1 0 1", &x),
        PositionError::HiddenNotAllowed(Square::H0)
    );
}

#[test]
fn king_outside_its_palace() {
    let std = Rules::standard();
    assert_eq!(
        refused("4k4/9/9/9/9/9/3K5/9/9/9 w - 0 1", &std),
        PositionError::KingOutsidePalace(Square::D3)
    );
    assert_eq!(
        refused("9/9/9/9/9/9/9/9/9/2K1k4 w - 0 1", &std),
        PositionError::KingOutsidePalace(Square::C0)
    );
    // The black king in the red palace.
    assert_eq!(
        refused("9/9/9/9/9/9/9/9/5k3/3K5 w - 0 1", &std),
        PositionError::KingOutsidePalace(Square::F1)
    );
    assert_eq!(
        refused("4k4/9/9/9/9/9/3K5/9/9/9 w - 0 1", &Rules::xiangqi()),
        PositionError::KingOutsidePalace(Square::D3)
    );
    // The seed-000 rules do not confine the king.
    let simple = Rules::simple();
    accepted("4k4/9/9/9/9/9/3K5/9/9/9 w - 0 1", &simple);
}

#[test]
fn advisor_outside_its_palace() {
    let x = Rules::xiangqi();
    assert_eq!(
        refused("4k4/9/9/9/9/9/9/9/9/A2K5 w - 0 1", &x),
        PositionError::AdvisorOffSquare(Square::A0)
    );
    assert_eq!(
        refused("4k4/9/9/9/9/9/9/9/9/3K4a w - 0 1", &x),
        PositionError::AdvisorOffSquare(Square::I0)
    );
    // Revealed advisors roam freely in Jieqi.
    accepted("4k4/9/9/9/9/9/9/9/9/A2K5 w - 0 1", &Rules::standard());
    accepted("4k4/9/9/9/9/9/9/9/9/3K4a w - 0 1", &Rules::standard());
    // Inside the palace is fine under Xiangqi.
    accepted("4k4/9/9/9/9/9/9/9/4A4/3K5 w - 0 1", &x);
}

#[test]
fn elephant_across_the_river() {
    let x = Rules::xiangqi();
    assert_eq!(
        refused("4k4/9/9/9/2B6/9/9/9/9/3K5 w - 0 1", &x),
        PositionError::ElephantOffSquare(Square::C5)
    );
    accepted("4k4/9/9/9/9/2B6/9/9/9/3K5 w - 0 1", &x);
    accepted("4k4/9/9/9/2B6/9/9/9/9/3K5 w - 0 1", &Rules::standard());
}

#[test]
fn too_many_pieces_of_a_role() {
    let std = Rules::standard();
    // Two face-up chariots and one in the pool.
    assert_eq!(
        refused("3k5/9/9/9/9/9/X8/9/9/RR2K4 w R1 0 1", &std),
        PositionError::TooManyPieces {
            color: Color::Red,
            role: Role::Chariot,
            count: 3
        }
    );
    // Three face-up chariots.
    assert_eq!(
        refused("3k5/9/9/9/9/9/9/9/9/RRR1K4 w - 0 1", &std),
        PositionError::TooManyPieces {
            color: Color::Red,
            role: Role::Chariot,
            count: 3
        }
    );
    assert_eq!(
        refused("3k5/9/9/9/9/9/9/9/9/RRR1K4 w - 0 1", &Rules::xiangqi()),
        PositionError::TooManyPieces {
            color: Color::Red,
            role: Role::Chariot,
            count: 3
        }
    );
    // Six black pawns.
    assert_eq!(
        refused("3k5/9/9/pppppp3/9/9/9/9/9/4K4 w - 0 1", &std),
        PositionError::TooManyPieces {
            color: Color::Black,
            role: Role::Pawn,
            count: 6
        }
    );
    accepted("3k5/9/9/9/9/9/X8/9/9/R3K4 w R1 0 1", &std);
}

#[test]
fn king_in_the_pool_under_standard() {
    let std = Rules::standard();
    assert_eq!(
        refused("3k5/9/9/9/9/9/X8/9/9/4K4 w K1P1 0 1", &std),
        PositionError::KingInPool(Color::Red)
    );
    assert_eq!(
        refused("3k5/9/9/9/9/9/9/9/9/4K4 w k1 0 1", &std),
        PositionError::KingInPool(Color::Black)
    );
}

#[test]
fn inconsistent_rules_are_refused() {
    let rules = Rules {
        hidden_king: true,
        ..Rules::standard()
    };
    assert!(matches!(
        refused(&format!("{JIEQI_START_BOARD} w"), &rules),
        PositionError::Rules(_)
    ));
}

#[test]
fn omitted_pool_is_inferred() {
    let std = Rules::standard();
    for text in [
        JIEQI_START_BOARD.to_string(),
        format!("{JIEQI_START_BOARD} w"),
    ] {
        let setup = fen::parse(&text).unwrap();
        assert_eq!(setup.pools, None);
        let pos = accepted(&text, &std);
        assert_eq!(pos.pool(Color::Red), &Pool::STANDARD);
        assert_eq!(pos.pool(Color::Black), &Pool::STANDARD);
        assert_eq!(pos, Position::start(&std));
    }
    // Face-up pieces are taken out of the inferred pool.
    let pos = accepted("3k5/9/9/9/9/9/X8/9/9/RN2K4 w", &std);
    assert_eq!(pos.pool(Color::Red), &Pool([1, 1, 2, 2, 0, 2, 5]));
    assert_eq!(pos.pool(Color::Black), &Pool::STANDARD);
    // Under Xiangqi there is nothing to infer; under the seed-000 rules the king is in the pool.
    let pos = accepted(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        &Rules::xiangqi(),
    );
    assert_eq!(pos.pools().red, Pool::EMPTY);
    let simple = Rules::simple();
    let pos = accepted(
        "xxxxxxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXXXXXX w",
        &simple,
    );
    assert_eq!(pos, Position::start(&simple));
    assert_eq!(pos.pool(Color::Black), &Pool::FULL);
}

fn assert_reached_position_is_legal(pos: &Position, rules: &Rules) {
    let fen = pos.fen();
    match Position::from_fen(&fen, rules) {
        Ok(again) => assert_eq!(&again, pos, "{fen}"),
        Err(e) => panic!("{fen} was reached by a legal move from the start, but is refused: {e}"),
    }
}

/// Regression: with hidden pieces, a hidden piece may reveal as an advisor outside the palace (or
/// an elephant across the river, or under the seed-000 rules a king outside the palace) even when
/// revealed pieces of that role are confined; the position after such a legal move must itself be
/// a legal position.
#[test]
fn confined_roles_revealed_off_their_area_are_legal_positions() {
    let confined = Rules {
        confine_advisors: true,
        confine_elephants: true,
        ..Rules::standard()
    };
    let cases = [
        // Red's hidden b2 piece moves as a cannon to b3 and turns out to be an advisor.
        (
            "advisor off the palace",
            Rules {
                capture_reveal: CaptureReveal::Nobody,
                ..confined
            },
            Move::new(Square::B2, Square::B3),
            Role::Advisor,
        ),
        // Red's hidden h2 piece moves as a cannon across the river to h6 and turns out to be an
        // elephant.
        (
            "elephant across the river",
            confined,
            Move::new(Square::H2, Square::H6),
            Role::Elephant,
        ),
        // The seed-000 rules with the king confined: a hidden piece that flips into a king stays
        // where it stood.
        (
            "king off the palace",
            Rules {
                confine_king: true,
                ..Rules::simple()
            },
            Move::new(Square::A0, Square::A0),
            Role::King,
        ),
    ];
    for (case, rules, mv, role) in cases {
        rules.validate().unwrap();
        let mut pos = Position::start(&rules);
        assert!(pos.is_legal(mv), "{case}");
        pos.play(PlayedMove {
            mv,
            reveal: Some(role),
            capture: None,
        })
        .unwrap();
        assert_reached_position_is_legal(&pos, &rules);
    }
}
