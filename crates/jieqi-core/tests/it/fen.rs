//! FEN and move text: round trips on every FEN in `reference/jieqi-rules.md`, the canonical
//! writer, the JieqiBox 6-field form, pool syntax, and malformed input.

use jieqi_core::fen::{self, FenError};
use jieqi_core::{
    ByColor, Color, Move, Occupant, PlayedMove, Pool, Position, Role, Rules, Square, View,
};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// The Pikafish Jieqi start position.
const JIEQI_START: &str =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1";

/// Pikafish's Jieqi benchmark positions.
const PIKAFISH_BENCH: [&str; 4] = [
    "x1xxkxxxx/9/c6x1/2x6/a3r1n1p/R1P3A2/4X3X/1X2B1AX1/4P4/1C2KXX1X w R1N1n1B1b2a1C1c1P3p4 1 8",
    "3xkx1xx/9/2a1p2ap/9/9/2r1P4/1R4p2/1CP1n3r/4N4/4K1CB1 w b2p2 0 25",
    "x2k5/9/2n3p2/6x2/9/6P2/9/4B2n1/9/4KC3 b p2 0 50",
    "9/5k1c1/2R1p4/7C1/p7p/4P4/X8/5r3/P3K4/2X4c1 w B1P1 3 51",
];

/// The same positions as our writer puts them: pool in R A C P N B (K) order, Red first.
const PIKAFISH_BENCH_CANONICAL: [&str; 4] = [
    "x1xxkxxxx/9/c6x1/2x6/a3r1n1p/R1P3A2/4X3X/1X2B1AX1/4P4/1C2KXX1X w R1C1P3N1B1a1c1p4n1b2 1 8",
    "3xkx1xx/9/2a1p2ap/9/9/2r1P4/1R4p2/1CP1n3r/4N4/4K1CB1 w p2b2 0 25",
    "x2k5/9/2n3p2/6x2/9/6P2/9/4B2n1/9/4KC3 b p2 0 50",
    "9/5k1c1/2R1p4/7C1/p7p/4P4/X8/5r3/P3K4/2X4c1 w P1B1 3 51",
];

/// The Xiangqi start position, as published (with Western-chess placeholder fields).
const XIANGQI_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Published Xiangqi perft positions (chessprogramming wiki), board only: Red to move.
const XIANGQI_PERFT: [&str; 10] = [
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3",
];

/// Fairy-Stockfish perft positions (with a side field).
const FAIRY_PERFT: [&str; 2] = [
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w",
];

/// Parses, validates, writes and reads back; the two positions must be equal. Returns the written
/// FEN.
fn round_trip(text: &str, rules: &Rules) -> String {
    let setup = fen::parse(text).unwrap_or_else(|e| panic!("parse({text}): {e}"));
    let pos = Position::from_setup(&setup, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(
        Position::from_fen(text, rules).as_ref(),
        Ok(&pos),
        "from_fen vs parse + from_setup for {text}"
    );
    let written = pos.fen();
    let again = Position::from_fen(&written, rules)
        .unwrap_or_else(|e| panic!("{written} (written from {text}): {e}"));
    assert_eq!(again, pos, "{text} -> {written}");
    assert_eq!(
        again.fen(),
        written,
        "the writer is not stable on {written}"
    );
    assert_eq!(again.hash(), pos.hash());
    // The board as parsed is the board as validated.
    for i in 0..90 {
        let sq = Square::new(i).unwrap();
        assert_eq!(pos.occupant(sq), setup.get(sq), "{sq} in {text}");
    }
    written
}

#[test]
fn jieqi_start_fen_is_canonical() {
    let rules = Rules::standard();
    assert_eq!(round_trip(JIEQI_START, &rules), JIEQI_START);
    assert_eq!(Position::start(&rules).fen(), JIEQI_START);
    assert_eq!(
        Position::from_fen(JIEQI_START, &rules).unwrap(),
        Position::start(&rules)
    );
}

#[test]
fn other_start_positions_write_canonically() {
    // Without hidden pieces the writer uses the plain Xiangqi form `board side - - half full`.
    assert_eq!(Position::start(&Rules::xiangqi()).fen(), XIANGQI_START);
    let simple = "xxxxxxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXXXXXX \
                  w R2A2C2P5N2B2K1r2a2c2p5n2b2k1 0 1";
    assert_eq!(Position::start(&Rules::simple()).fen(), simple);
    assert_eq!(round_trip(simple, &Rules::simple()), simple);
}

#[test]
fn pikafish_benchmark_fens_round_trip() {
    for (text, canonical) in PIKAFISH_BENCH.iter().zip(PIKAFISH_BENCH_CANONICAL) {
        assert_eq!(round_trip(text, &Rules::standard()), canonical, "{text}");
        // The canonical form is a fixed point of the writer.
        assert_eq!(round_trip(canonical, &Rules::standard()), canonical);
    }
}

#[test]
fn pikafish_benchmark_pools_are_read_in_any_order() {
    let setup = fen::parse(PIKAFISH_BENCH[0]).unwrap();
    let pools = setup.pools.expect("a pool field");
    // R1 N1 n1 B1 b2 a1 C1 c1 P3 p4, indexed R N B A K C P.
    assert_eq!(pools.red, Pool([1, 1, 1, 0, 0, 1, 3]));
    assert_eq!(pools.black, Pool([0, 1, 2, 1, 0, 1, 4]));
    assert_eq!(setup.turn, Color::Red);
    assert_eq!((setup.halfmoves, setup.fullmoves), (1, 8));
    let pos = Position::from_setup(&setup, &Rules::standard()).unwrap();
    assert_eq!(pos.hidden_count(Color::Red), 7);
    assert_eq!(pos.hidden_count(Color::Black), 9);
    assert_eq!(pos.king(Color::Red), Some(Square::E0));
    assert_eq!(pos.king(Color::Black), Some(Square::E9));
    let third = Position::from_fen(PIKAFISH_BENCH[2], &Rules::standard()).unwrap();
    assert_eq!(third.turn(), Color::Black);
    assert_eq!((third.halfmoves(), third.fullmoves()), (0, 50));
}

#[test]
fn xiangqi_start_and_perft_fens_round_trip() {
    let rules = Rules::xiangqi();
    assert_eq!(round_trip(XIANGQI_START, &rules), XIANGQI_START);
    assert_eq!(
        Position::from_fen(XIANGQI_START, &rules).unwrap(),
        Position::start(&rules)
    );
    for board in XIANGQI_PERFT {
        let written = round_trip(board, &rules);
        assert_eq!(written, format!("{board} w - - 0 1"));
        let pos = Position::from_fen(board, &rules).unwrap();
        assert_eq!(pos.turn(), Color::Red, "{board}: no side field means Red");
        assert_eq!(pos.pools(), &ByColor::default());
    }
    for text in FAIRY_PERFT {
        assert_eq!(round_trip(text, &rules), format!("{text} - - 0 1"));
    }
}

#[test]
fn jieqibox_six_field_form() {
    // Red's hidden b2 piece was a cannon and took the hidden horse on b9; Red knows it.
    let text = "xCxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/7X1/9/XXXXKXXXX \
                w R2A2C1P5N2B2r2a2c2p5n1b2 n1 0 2";
    let setup = fen::parse(text).unwrap();
    let horse = Pool([0, 1, 0, 0, 0, 0, 0]);
    assert_eq!(
        setup.captured_hidden,
        Some(ByColor {
            red: Pool::EMPTY,
            black: horse,
        })
    );
    assert_eq!(setup.halfmoves, 0);
    assert_eq!(setup.fullmoves, 2);
    assert_eq!(fen::write(&setup), text, "6-field writer");
    let rules = Rules::standard();
    let view = View::from_setup(&setup, &rules).unwrap();
    assert_eq!(view.player(), Color::Red);
    assert_eq!(
        view.learned(),
        &ByColor {
            red: Pool::EMPTY,
            black: horse,
        }
    );
    assert_eq!(view.unknown_captured(Color::Black), 0);
    assert_eq!(view.unknown_captured(Color::Red), 0);
    // The position writer drops the captured field (Pikafish 5-field form).
    let pos = Position::from_setup(&setup, &rules).unwrap();
    assert_eq!(
        pos.fen(),
        "xCxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/7X1/9/XXXXKXXXX \
         w R2A2C1P5N2B2r2a2c2p5n1b2 0 2"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for _ in 0..20 {
        let s = view.sample(&mut rng);
        assert_eq!(s.captured_unknown(), &ByColor::default());
        assert_eq!(s.identity(Square::B9), None);
        assert_eq!(s.identity(Square::A9).map(|_| ()), Some(()));
    }
    // `-` is an empty captured field; four fields with a non-number fourth are also captured.
    let dash = fen::parse(&text.replace(" n1 ", " - ")).unwrap();
    assert_eq!(dash.captured_hidden, Some(ByColor::default()));
    let four = "xCxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/7X1/9/XXXXKXXXX \
                w R2A2C1P5N2B2r2a2c2p5n1b2 n1";
    let four = fen::parse(four).unwrap();
    assert_eq!(four.captured_hidden, setup.captured_hidden);
    assert_eq!((four.halfmoves, four.fullmoves), (0, 1));
    // Five fields: no captured field.
    assert_eq!(fen::parse(JIEQI_START).unwrap().captured_hidden, None);
}

#[test]
fn jieqibox_writer_orders_pools_as_jieqibox_does() {
    // JieqiBox's `generateFen` (src/composables/useChessGame.ts) writes six fields always and
    // both pools role by role in `RNBAKCP` order, Red's letter before Black's.
    let text = "xCxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/7X1/9/XXXXKXXXX \
                w R2A2C1P5N2B2r2a2c2p5n1b2 n1 0 2";
    let setup = fen::parse(text).unwrap();
    let written = fen::write_jieqibox(&setup);
    assert_eq!(
        written,
        "xCxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/7X1/9/XXXXKXXXX \
         w R2r2N2n1B2b2A2a2C1c2P5p5 n1 0 2"
    );
    // It reads back as the same setup.
    assert_eq!(fen::parse(&written).unwrap(), setup);
    // A five-field FEN has no captured field: JieqiBox writes `-` for it.
    assert_eq!(
        fen::write_jieqibox(&fen::parse(JIEQI_START).unwrap()),
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX \
         w R2r2N2n2B2b2A2a2C2c2P5p5 - 0 1"
    );
}

#[test]
fn pool_field_syntax() {
    let board = "4k4/9/9/9/9/9/9/9/9/4K4";
    let pools = |field: &str| {
        fen::parse(&format!("{board} w {field} 0 1"))
            .unwrap_or_else(|e| panic!("pool {field}: {e}"))
            .pools
            .expect("a pool field")
    };
    assert_eq!(pools("-"), ByColor::default());
    for (field, red, black) in [
        // A letter without a count means one.
        ("RNrn", [1, 1, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0]),
        ("p5R2c1A2", [2, 0, 0, 2, 0, 0, 0], [0, 0, 0, 0, 0, 1, 5]),
    ] {
        let (red, black) = (Pool(red), Pool(black));
        assert_eq!(pools(field), ByColor { red, black }, "{field}");
    }
    // Any order.
    assert_eq!(pools("p5R2c1A2"), pools("R2A2c1p5"));
    assert_eq!(pools("P5N2B2R2A2C2"), pools("R2A2C2P5N2B2"));
    assert_eq!(pools("R2A2C2P5N2B2").red, Pool::STANDARD);
    assert_eq!(fen::pool_field(&ByColor::default()), "-");
}

#[test]
fn pool_writer_order() {
    let all = ByColor {
        red: Pool::FULL,
        black: Pool::FULL,
    };
    assert_eq!(fen::pool_field(&all), "R2A2C2P5N2B2K1r2a2c2p5n2b2k1");
    let some = ByColor {
        red: Pool([1, 1, 0, 0, 0, 0, 0]),
        black: Pool([0, 0, 2, 0, 0, 0, 5]),
    };
    assert_eq!(fen::pool_field(&some), "R1N1p5b2");
}

#[test]
fn missing_fields_take_defaults() {
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let setup = fen::parse(board).unwrap();
    assert_eq!(setup.turn, Color::Red);
    assert_eq!(setup.pools, None);
    assert_eq!(setup.captured_hidden, None);
    assert_eq!((setup.halfmoves, setup.fullmoves), (0, 1));
    let black = fen::parse(&format!("{board} b")).unwrap();
    assert_eq!(black.turn, Color::Black);
    let red = fen::parse(&format!("{board} r")).unwrap();
    assert_eq!(red.turn, Color::Red);
}

#[test]
fn move_text() {
    let m = Move::from_text("b0c2").unwrap();
    assert_eq!(m, Move::new(Square::B0, Square::C2));
    assert_eq!(m.to_string(), "b0c2");
    assert_eq!(
        "i9a0".parse::<Move>(),
        Ok(Move::new(Square::I9, Square::A0))
    );

    let pm = PlayedMove::from_text("h2h9Rn", Color::Red).unwrap();
    assert_eq!(pm.mv, Move::new(Square::H2, Square::H9));
    assert_eq!(pm.reveal, Some(Role::Chariot));
    assert_eq!(pm.capture, Some(Role::Horse));
    assert_eq!(pm.to_text(Color::Red), "h2h9Rn");

    let pm = PlayedMove::from_text("b0c2N", Color::Red).unwrap();
    assert_eq!((pm.reveal, pm.capture), (Some(Role::Horse), None));
    assert_eq!(pm.to_text(Color::Red), "b0c2N");

    // A revealed mover capturing a hidden piece: only the captured letter.
    let pm = PlayedMove::from_text("h2h9n", Color::Red).unwrap();
    assert_eq!((pm.reveal, pm.capture), (None, Some(Role::Horse)));
    assert_eq!(pm.to_text(Color::Red), "h2h9n");

    // Black's letters are lowercase, Red's captured piece uppercase.
    let pm = PlayedMove::from_text("h7h0rN", Color::Black).unwrap();
    assert_eq!(pm.mv, Move::new(Square::H7, Square::H0));
    assert_eq!(
        (pm.reveal, pm.capture),
        (Some(Role::Chariot), Some(Role::Horse))
    );
    assert_eq!(pm.to_text(Color::Black), "h7h0rN");

    let plain = PlayedMove::from_text("e0e1", Color::Red).unwrap();
    assert_eq!(plain, PlayedMove::plain(Move::new(Square::E0, Square::E1)));
    assert_eq!(plain.to_text(Color::Red), "e0e1");
}

#[test]
fn move_text_errors() {
    for bad in ["b0c", "j0c2", "b0c2Q", "", "b0c22", "b-c2", "a0a"] {
        let e = Move::from_text(bad).expect_err(bad);
        assert!(e.to_string().contains(&format!("'{bad}'")), "{e}");
    }
    for bad in [
        "b0c", "j0c2", "b0c2Q", "b0c2x", "h2h9RnN", "h2h9nR", "h2h9nn", "b0c2NN",
    ] {
        let e = PlayedMove::from_text(bad, Color::Red).expect_err(bad);
        assert_eq!(e.text, bad);
        assert!(e.to_string().contains(&format!("'{bad}'")), "{e}");
    }
}

/// Asserts a syntax error in `field` named `name`, also through `Position::from_fen`.
fn assert_syntax(text: &str, field: usize, name: &str) {
    let err = fen::parse(text).expect_err(text);
    match &err {
        FenError::Syntax {
            field: f, name: n, ..
        } => {
            assert_eq!((*f, *n), (field, name), "{text}: {err}");
        }
        other => panic!("{text}: expected a syntax error, got {other}"),
    }
    let shown = err.to_string();
    assert!(
        shown.contains(&format!("fen field {field} ({name})")),
        "{text}: '{shown}' does not name field {field} ({name})"
    );
    for rules in [Rules::standard(), Rules::xiangqi(), Rules::simple()] {
        assert_eq!(Position::from_fen(text, &rules).err(), Some(err.clone()));
    }
}

#[test]
fn malformed_fens_name_the_field() {
    let pool = "R2A2C2P5N2B2r2a2c2p5n2b2";
    // Wrong number of ranks.
    assert_syntax(
        &format!("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w {pool} 0 1"),
        1,
        "board",
    );
    assert_syntax(
        &format!("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w {pool} 0 1"),
        1,
        "board",
    );
    // A rank with 10 files: ten letters, or a count running past the edge.
    assert_syntax(
        &format!("xxxxkxxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w {pool} 0 1"),
        1,
        "board",
    );
    assert_syntax(
        &format!("xxxxkxxxx/91/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w {pool} 0 1"),
        1,
        "board",
    );
    assert_syntax(
        &format!("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X6X1/9/XXXXKXXXX w {pool} 0 1"),
        1,
        "board",
    );
    // A rank with 8 files, and a zero count.
    assert_syntax(
        &format!("xxxxkxxxx/8/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w {pool} 0 1"),
        1,
        "board",
    );
    assert_syntax(
        &format!("xxxxkxxxx/09/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w {pool} 0 1"),
        1,
        "board",
    );
    // A bad piece letter.
    assert_syntax(
        &format!("xxxxkxxxQ/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w {pool} 0 1"),
        1,
        "board",
    );
    let board = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX";
    // A bad side.
    assert_syntax(&format!("{board} x {pool} 0 1"), 2, "side");
    assert_syntax(&format!("{board} red {pool} 0 1"), 2, "side");
    // A bad pool letter, a count too large, a stray digit.
    assert_syntax(&format!("{board} w R2Q1 0 1"), 3, "pool");
    assert_syntax(&format!("{board} w X2 0 1"), 3, "pool");
    assert_syntax(&format!("{board} w R3 0 1"), 3, "pool");
    assert_syntax(&format!("{board} w P6 0 1"), 3, "pool");
    assert_syntax(&format!("{board} w K2 0 1"), 3, "pool");
    assert_syntax(&format!("{board} w R99999999999 0 1"), 3, "pool");
    // A count that fits in 32 bits but overflows what came before it (found by scripts/fuzz.sh
    // at 5 × 10^6 inputs: "attempt to add with overflow").
    assert_syntax(&format!("{board} w R1R4294967295 0 1"), 3, "pool");
    assert_syntax(&format!("{board} w {pool} p4294967295 0 1"), 4, "captured");
    assert_syntax(&format!("{board} w 2R 0 1"), 3, "pool");
    // Non-numeric or negative counters.
    assert_syntax(&format!("{board} w {pool} x 1"), 4, "halfmove");
    assert_syntax(&format!("{board} w {pool} -1 1"), 4, "halfmove");
    assert_syntax(&format!("{board} w {pool} 0 y"), 5, "fullmove");
    assert_syntax(&format!("{board} w {pool} - x 1"), 5, "halfmove");
    assert_syntax(&format!("{board} w {pool} - 0 1.5"), 6, "fullmove");
    // A bad captured field.
    assert_syntax(&format!("{board} w {pool} Q1 0 1"), 4, "captured");
    // Seven fields.
    let err = fen::parse(&format!("{board} w {pool} - 0 1 extra")).unwrap_err();
    match &err {
        FenError::Syntax { field, .. } => assert_eq!(*field, 7, "{err}"),
        other => panic!("expected a syntax error, got {other}"),
    }
    assert!(err.to_string().starts_with("fen field 7"), "{err}");
    // Empty.
    assert_syntax("", 1, "board");
    assert_syntax("   ", 1, "board");
}

/// Every one-character corruption of a few FENs parses or fails cleanly, and whatever is accepted
/// round-trips.
#[test]
fn corrupted_fens_never_panic() {
    let subjects = [JIEQI_START, PIKAFISH_BENCH[0], XIANGQI_START];
    let alphabet = "xX0129/ -kKrRqQaAbBpP";
    let mut accepted = 0;
    for subject in subjects {
        let chars: Vec<char> = subject.chars().collect();
        for i in 0..=chars.len() {
            for c in alphabet.chars().map(Some).chain([None]) {
                let mut v = chars.clone();
                match c {
                    Some(c) if i < v.len() => v[i] = c,
                    Some(c) => v.push(c),
                    None if i < v.len() => {
                        v.remove(i);
                    }
                    None => continue,
                }
                let text: String = v.into_iter().collect();
                for rules in [Rules::standard(), Rules::xiangqi(), Rules::simple()] {
                    if let Ok(pos) = Position::from_fen(&text, &rules) {
                        accepted += 1;
                        assert_eq!(
                            Position::from_fen(&pos.fen(), &rules).as_ref(),
                            Ok(&pos),
                            "{text}"
                        );
                    }
                }
            }
        }
    }
    assert!(accepted > 0);
}

/// The board letters: `X`/`x` hidden, piece letters by case.
#[test]
fn board_letters() {
    let pos = Position::from_fen(JIEQI_START, &Rules::standard()).unwrap();
    assert_eq!(pos.occupant(Square::A0), Some(Occupant::Hidden(Color::Red)));
    assert_eq!(
        pos.occupant(Square::I9),
        Some(Occupant::Hidden(Color::Black))
    );
    assert_eq!(
        pos.occupant(Square::B7),
        Some(Occupant::Hidden(Color::Black))
    );
    assert_eq!(pos.occupant(Square::E4), None);
    let x = Position::from_fen(XIANGQI_START, &Rules::xiangqi()).unwrap();
    let expect = [
        (Square::A0, Color::Red, Role::Chariot),
        (Square::B0, Color::Red, Role::Horse),
        (Square::C0, Color::Red, Role::Elephant),
        (Square::D0, Color::Red, Role::Advisor),
        (Square::E0, Color::Red, Role::King),
        (Square::B2, Color::Red, Role::Cannon),
        (Square::C3, Color::Red, Role::Pawn),
        (Square::H7, Color::Black, Role::Cannon),
        (Square::E9, Color::Black, Role::King),
        (Square::G6, Color::Black, Role::Pawn),
    ];
    for (sq, color, role) in expect {
        assert_eq!(
            x.occupant(sq),
            Some(Occupant::Revealed(jieqi_core::Piece { color, role })),
            "{sq}"
        );
    }
}

/// Counts in messages agree with their nouns: "1 hidden piece", "2 hidden pieces".
#[test]
fn hidden_piece_counts_read_as_such() {
    let rules = jieqi_core::Rules::standard();
    let one = jieqi_core::Position::from_fen("4k4/9/9/9/9/9/9/9/9/X3K4 w - 0 1", &rules)
        .unwrap_err()
        .to_string();
    assert!(one.contains("has 1 hidden piece but"), "{one}");
    let two = jieqi_core::Position::from_fen("4k4/9/9/9/9/9/9/9/9/X1X1K4 w R1 0 1", &rules)
        .unwrap_err()
        .to_string();
    assert!(two.contains("has 2 hidden pieces but"), "{two}");
}

/// One position in every form a GUI sends: Pikafish's 5 fields, JieqiBox's 6 (with the captured
/// field), JieqiBox's legacy 7 (`board pool side - - half full`, its "new FEN format" off) and the
/// legacy 3 (`board pool side`), all read alike; and a plain Xiangqi FEN.
#[test]
fn every_form_a_gui_sends() {
    let board = "xCxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/7X1/9/XXXXKXXXX";
    let pool = "R2A2C1P5N2B2r2a2c2p5n1b2";
    let five = fen::parse(&format!("{board} b {pool} 10 29")).unwrap();
    let six = fen::parse(&format!("{board} b {pool} n1 10 29")).unwrap();
    let seven = fen::parse(&format!("{board} {pool} b - - 10 29")).unwrap();
    let three = fen::parse(&format!("{board} {pool} b")).unwrap();
    for (name, s) in [("6-field", &six), ("7-field legacy", &seven)] {
        assert_eq!(fen::board_field(s), board, "{name}");
        assert_eq!(s.turn, Color::Black, "{name}");
        assert_eq!(s.pools, five.pools, "{name}");
        assert_eq!((s.halfmoves, s.fullmoves), (10, 29), "{name}");
    }
    assert_eq!(seven, five, "the legacy form has no captured field");
    assert_eq!(six.captured_hidden.unwrap().black.get(Role::Horse), 1);
    assert_eq!(three.pools, five.pools);
    assert_eq!(
        (three.turn, three.halfmoves, three.fullmoves),
        (Color::Black, 0, 1)
    );
    // Red to move, and an empty pool written `-`.
    let red = fen::parse(&format!("{board} - w - - 0 1")).unwrap();
    assert_eq!(red.turn, Color::Red);
    assert_eq!(red.pools, Some(ByColor::default()));
    // The legacy form of the start position is the start position.
    let start = Position::start(&Rules::standard());
    let legacy = format!(
        "{} {} w - - 0 1",
        fen::board_field(&start.to_setup()),
        fen::pool_field(&start.to_setup().pools.unwrap())
    );
    assert_eq!(
        Position::from_fen(&legacy, &Rules::standard()).unwrap(),
        start
    );
    // Plain Xiangqi.
    let x = Position::from_fen(XIANGQI_START, &Rules::xiangqi()).unwrap();
    assert_eq!(x, Position::start(&Rules::xiangqi()));
    // Malformed legacy FENs name the field.
    assert_syntax(&format!("{board} {pool} b K - 10 29"), 4, "castling");
    assert_syntax(&format!("{board} {pool} b - e3 10 29"), 5, "en passant");
    assert_syntax(&format!("{board} {pool} b - - x 29"), 6, "halfmove");
    assert_syntax(&format!("{board} {pool} b - - 10 -2"), 7, "fullmove");
    assert_syntax(&format!("{board} R2Q1 b - - 0 1"), 2, "pool");
    assert_syntax(&format!("{board} {pool} b - -"), 5, "end");
}
