//! The UCI client's unit tests: option declarations, `info` lines, specs, `position` and `go`
//! commands, and the reader and writer of the pipes.

use super::info::{fold_info, read_info};
use super::options::OptionDecl;
use super::process::write_all_until;
use super::protocol::position_command;
use super::reader::{Reader, Recv, flooded};
use super::*;
use crate::engines::fd::set_nonblocking;
use jieqi_core::{Color, Move, Position};
use jieqi_engine::Score;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};

#[test]
fn option_declarations_check_values() {
    let spin =
        OptionDecl::parse("option name Hash type spin default 16 min 1 max 33554432").unwrap();
    assert_eq!((spin.min, spin.max), (Some(1), Some(33_554_432)));
    assert!(spin.check("64").is_ok());
    assert!(spin.check("0").unwrap_err().to_string().contains("outside"));
    assert!(spin.check("lots").is_err());
    let combo = OptionDecl::parse(
        "option name Engine type combo default alphabeta var alphabeta var ismcts var flat uct",
    )
    .unwrap();
    assert_eq!(combo.name, "Engine");
    assert_eq!(combo.vars, ["alphabeta", "ismcts", "flat uct"]);
    assert!(combo.check("ISMCTS").is_ok());
    assert!(combo.check("flat uct").is_ok());
    let e = combo.check("ismsct").unwrap_err().to_string();
    assert!(e.contains("not one of the engine's values"), "{e}");
    let check = OptionDecl::parse("option name Ponder type check default false").unwrap();
    assert!(check.check("true").is_ok() && check.check("yes").is_err());
    let text = OptionDecl::parse("option name Eval File type string default <empty>").unwrap();
    assert_eq!(text.name, "Eval File");
    assert!(text.check("any thing").is_ok());
    assert!(OptionDecl::parse("option name NoType").is_none());
}

/// A move records the most nodes any line reported and the depth, score and pv of the last
/// completed iteration, not of whatever line came last.
#[test]
fn a_search_records_its_last_completed_iteration_and_its_most_nodes() {
    let fold = |lines: &[&str]| {
        let (mut info, mut completed) = (SearchInfo::default(), false);
        for line in lines {
            fold_info(line, &mut info, &mut completed, Dialect::Pikafish);
        }
        info
    };
    let i = fold(&[
        "info depth 3 seldepth 5 score cp 10 nodes 500 pv h2e2 h9g7",
        "info depth 4 currmove b0c2 currmovenumber 1",
        "info depth 4 seldepth 6 score cp 40 lowerbound nodes 700 pv b0c2",
        "info nodes 650 string a helper's count",
    ]);
    assert_eq!(
        (i.depth, i.score, i.nodes, i.pv.len()),
        (Some(3), Some(Score::Cp(10)), 700, 2),
        "{i:?}"
    );
    // The next completed iteration replaces it.
    let i = fold(&[
        "info depth 3 score cp 10 nodes 500 pv h2e2 h9g7",
        "info depth 4 score cp 25 nodes 900 pv b0c2",
    ]);
    assert_eq!(
        (i.depth, i.score, i.nodes),
        (Some(4), Some(Score::Cp(25)), 900)
    );
    // An engine that never prints a pv: its last depth and score.
    let i = fold(&[
        "info depth 1 score cp 5 nodes 10",
        "info depth 2 score cp 7",
    ]);
    assert_eq!(
        (i.depth, i.score, i.nodes),
        (Some(2), Some(Score::Cp(7)), 10)
    );
}

/// Lines as real engines print them: bound flags take no value, `wdl` three, `string` the
/// rest of the line, and unknown tokens are skipped alone.
#[test]
fn info_tokens_are_read_by_arity() {
    let read = |line: &str| {
        let mut info = SearchInfo::default();
        read_info(line, &mut info, Dialect::Pikafish);
        info
    };
    // Pikafish (the line): `upperbound` used to swallow `nodes`.
    let i = read(
        "info depth 3 seldepth 3 score cp 121 upperbound nodes 7155 nps 420882 time 17 pv e2e6",
    );
    assert_eq!(
        (i.depth, i.nodes, i.score),
        (Some(3), 7155, Some(Score::Cp(121)))
    );
    assert_eq!(i.pv.len(), 1);
    let i = read(
        "info depth 12 seldepth 17 multipv 1 score cp -48 lowerbound wdl 12 870 118 nodes \
         912345 nps 1200000 hashfull 31 tbhits 0 time 760 pv h2e2 h9g7 h0g2 i9h9",
    );
    assert_eq!(
        (i.depth, i.nodes, i.score),
        (Some(12), 912_345, Some(Score::Cp(-48)))
    );
    assert_eq!(i.pv.len(), 4);
    let i = read("info depth 5 score mate -3 nodes 88 currmove b0c2 currmovenumber 4 pv b0c2");
    assert_eq!(
        (i.nodes, i.score, i.pv.len()),
        (88, Some(Score::Mate(-3)), 1)
    );
    // An unknown token is skipped alone; `string` ends the line.
    let i = read("info depth 4 ebf 1.9 nodes 1000 string nodes 5 pv a0a1");
    assert_eq!((i.depth, i.nodes, i.pv.len()), (Some(4), 1000, 0));
    let i = read("info refutation e2e4 e7e5 nodes 77");
    assert_eq!(i.nodes, 77);
    let i = read("info currline 1 h2e2 h9g7 nodes 9 pv h2e2 h9g7");
    assert_eq!((i.nodes, i.pv.len()), (9, 2));
    // Truncated lines do not panic.
    for line in [
        "info score",
        "info score cp",
        "info wdl 1 2",
        "info pv",
        "info depth",
    ] {
        read(line);
    }
}

#[test]
fn info_lines_are_read() {
    let mut info = SearchInfo::default();
    read_info(
        "info depth 7 seldepth 9 score cp -35 nodes 12345 nps 100 time 5 pv b0c2 h9g7 c3c4",
        &mut info,
        Dialect::Pikafish,
    );
    assert_eq!(info.depth, Some(7));
    assert_eq!(info.nodes, 12345);
    assert_eq!(info.score, Some(Score::Cp(-35)));
    assert_eq!(info.pv.len(), 3);
    read_info(
        "info depth 8 score mate -3 nodes 20000",
        &mut info,
        Dialect::Pikafish,
    );
    assert_eq!(info.score, Some(Score::Mate(-3)));
    read_info("info string depth 99", &mut info, Dialect::Pikafish);
    assert_eq!(info.depth, Some(8));
}

#[test]
fn specs_are_checked() {
    let bad = |s: &str| {
        Settings::parse(&Spec::parse(s).unwrap())
            .unwrap_err()
            .message
    };
    assert!(bad("uci").contains("executable is missing"));
    assert!(bad("uci:path=x,timeout=soon").contains("'timeout'"));
    // Past a day a deadline would overflow the clock: refused, not a panic mid-match.
    for key in ["timeout", "init_timeout"] {
        let e = bad(&format!("uci:path=x,{key}=18446744073709551615"));
        assert!(e.contains("from 1 to 86400000"), "{e}");
    }
    assert!(bad("uci:path=x,hash=3").contains("unknown parameter 'hash'"));
    // What the arena sets itself would be overridden without a word: refused.
    for key in ["UCI_Variant", "uci_variant", "Seed"] {
        let spec = format!("uci:path=x,option.{key}=chess");
        let e = Settings::parse(&Spec::parse(&spec).unwrap())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(&format!("engine spec 'uci:path=x,option.{key}=chess'"))
                && e.contains("set by the arena itself"),
            "{e}"
        );
    }
    let s =
        Settings::parse(&Spec::parse("uci:path=x,option.Hash=64,timeout=500").unwrap()).unwrap();
    assert_eq!(s.options, vec![("Hash".to_string(), "64".to_string())]);
    assert_eq!(s.timeout, Some(Duration::from_millis(500)));
    assert_eq!(s.dialect, None, "detected from the engine's id name");
    assert!(bad("uci:path=x,dialect=xboard").contains("'xboard' is not a dialect"));
    let s = Settings::parse(&Spec::parse("uci:path=x,dialect=fairy").unwrap()).unwrap();
    assert_eq!(s.dialect, Some(Dialect::Fairy));
}

#[test]
fn a_captured_hidden_identity_is_sent_to_the_capturer_only() {
    let rules = jieqi_core::Rules::standard();
    let mut game =
        jieqi_core::Game::new(rules, crate::records::deal_seed::deal_for_seed(7, &rules));
    // The hidden red piece on h2 moves as a cannon: over the screen on h7 it takes the
    // hidden black piece on h9.
    game.play(Move::from_text("h2h9").unwrap()).unwrap();
    let start = Position::start(&rules).fen();
    let red = position_command(&game.view(jieqi_core::Color::Red), Dialect::Pikafish);
    let black = position_command(&game.view(jieqi_core::Color::Black), Dialect::Pikafish);
    let red_move = red.rsplit(' ').next().unwrap();
    let black_move = black.rsplit(' ').next().unwrap();
    assert_eq!(red, format!("position fen {start} moves {red_move}"));
    assert_eq!(red_move.len(), 6, "reveal and captured identity: {red}");
    assert_eq!(black_move.len(), 5, "the reveal only: {black}");
    assert_eq!(red_move[..5], *black_move);
}

/// Every view of a game, from either side and in any order, gets the same command from the
/// extended text as written out whole, in either dialect.
#[test]
fn position_commands_are_extended_move_by_move() {
    for (rules, d) in [
        (jieqi_core::Rules::standard(), Dialect::Pikafish),
        (jieqi_core::Rules::xiangqi(), Dialect::Fairy),
    ] {
        extended_move_by_move(rules, d);
    }
}

fn extended_move_by_move(rules: jieqi_core::Rules, d: Dialect) {
    let mut game =
        jieqi_core::Game::new(rules, crate::records::deal_seed::deal_for_seed(3, &rules));
    let mut texts = [PositionText::default(), PositionText::default()];
    let mut rng = 12345u64;
    for ply in 0..300 {
        for (i, c) in Color::ALL.into_iter().enumerate() {
            let view = game.view(c);
            assert_eq!(
                texts[i].of(&view, d),
                position_command(&view, d),
                "ply {ply}"
            );
        }
        // Both sides' views through one text: rebuilt at every change of side.
        let mut mixed = PositionText::default();
        for c in [Color::Red, Color::Black, Color::Red] {
            let view = game.view(c);
            assert_eq!(mixed.of(&view, d), position_command(&view, d));
        }
        let moves = game.legal_moves();
        let moves = moves.as_slice();
        if moves.is_empty() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = moves[(rng >> 33) as usize % moves.len()];
        if game.play(mv).is_err() {
            break;
        }
    }
    assert!(game.view(Color::Red).history().len() > 20);
    // A change of dialect writes the text out whole.
    let view = game.view(Color::Red);
    let other = match d {
        Dialect::Pikafish => Dialect::Fairy,
        Dialect::Fairy => Dialect::Pikafish,
    };
    assert_eq!(texts[0].of(&view, other), position_command(&view, other));
    // A new game (or a test position) after a longer one is written out whole.
    let fresh = jieqi_core::Game::new(rules, crate::records::deal_seed::deal_for_seed(4, &rules));
    let view = fresh.view(Color::Red);
    assert_eq!(texts[0].of(&view, d), position_command(&view, d));
    let start = Position::start(&rules);
    let setup = View::from_setup(&start.to_setup(), &rules).unwrap();
    assert_eq!(texts[0].of(&setup, d), position_command(&setup, d));
    assert_eq!(texts[0].of(&view, d), position_command(&view, d));
}

/// Fairy-Stockfish is sent the plain Xiangqi FEN it prints itself (`d`) and moves ranked
/// 1–10.
#[test]
fn fairy_stockfish_gets_its_own_squares() {
    let xq = jieqi_core::Rules::xiangqi();
    let mut game = jieqi_core::Game::new(xq, crate::records::deal_seed::deal_for_seed(1, &xq));
    for m in ["h0g2", "b9c7", "a0a1"] {
        game.play(Move::from_text(m).unwrap()).unwrap();
    }
    assert_eq!(
        position_command(&game.view(Color::Black), Dialect::Fairy),
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 \
         moves h1g3 b10c8 a1a2"
    );
    let mut info = SearchInfo::default();
    read_info(
        "info depth 2 seldepth 2 multipv 1 score cp 231 nodes 99 nps 49500 tbhits 0 time 2 \
         pv h1g3 a10a9 b3b10",
        &mut info,
        Dialect::Fairy,
    );
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    assert_eq!(pv, ["h0g2", "a9a8", "b2b9"]);
    assert_eq!(info.nodes, 99);
}

#[test]
fn a_view_without_moves_is_sent_as_its_own_position() {
    let rules = jieqi_core::Rules::standard();
    let start = Position::start(&rules);
    let from_start = View::from_setup(&start.to_setup(), &rules).unwrap();
    assert_eq!(
        position_command(&from_start, Dialect::Pikafish),
        format!("position fen {}", start.fen())
    );
    // A test position, with the hidden pieces its player captured (JieqiBox 6-field).
    let fen = "4k4/9/9/x8/R8/9/9/9/9/3K5 w c1 r1 0 30";
    let setup = jieqi_core::fen::parse(fen).unwrap();
    let view = View::from_setup(&setup, &rules).unwrap();
    assert_eq!(
        position_command(&view, Dialect::Pikafish),
        format!("position fen {fen}")
    );
    let xq = jieqi_core::Rules::xiangqi();
    let mate = "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1";
    let view = View::from_setup(&jieqi_core::fen::parse(mate).unwrap(), &xq).unwrap();
    assert_eq!(
        position_command(&view, Dialect::Pikafish),
        format!("position fen {mate}")
    );
}

/// A reader on one end of a socket pair, and the other end to write to.
fn reader() -> (Reader, std::os::unix::net::UnixStream) {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
    (Reader::new(OwnedFd::from(ours)).unwrap(), theirs)
}

#[test]
fn output_is_read_line_by_line_within_the_time_given() {
    let (mut r, mut w) = reader();
    let t = Instant::now();
    assert!(matches!(
        r.recv(Duration::from_millis(20)),
        Err(Recv::Timeout)
    ));
    assert!(t.elapsed() >= Duration::from_millis(20));
    w.write_all(b"info depth 1\nbest").unwrap();
    let line = r.recv(Duration::from_secs(5)).unwrap();
    assert_eq!(
        (line.text.as_str(), line.bytes, line.cut),
        ("info depth 1", 13, false)
    );
    // Half a line is not a line.
    assert!(matches!(
        r.recv(Duration::from_millis(5)),
        Err(Recv::Timeout)
    ));
    w.write_all(b"move a0a1\r\n\n  uciok \n").unwrap();
    assert_eq!(
        r.recv(Duration::from_secs(5)).unwrap().text,
        "bestmove a0a1"
    );
    assert_eq!(r.recv(Duration::from_secs(5)).unwrap().text, "");
    assert_eq!(r.recv(Duration::from_secs(5)).unwrap().text, "uciok");
    // The last line needs no newline; then the output is closed.
    w.write_all(b"readyok").unwrap();
    drop(w);
    assert_eq!(r.recv(Duration::from_secs(5)).unwrap().text, "readyok");
    assert!(matches!(r.recv(Duration::from_secs(5)), Err(Recv::Closed)));
    assert!(matches!(r.recv(Duration::ZERO), Err(Recv::Closed)));
}

#[test]
fn a_line_too_long_is_cut_and_the_reader_holds_a_bounded_amount() {
    let (mut r, mut w) = reader();
    let writer = std::thread::spawn(move || {
        // Exactly the longest line, one byte more, then a line three times too long.
        let mut out = vec![b'a'; MAX_LINE - 1];
        out.push(b'\n');
        out.extend(vec![b'b'; MAX_LINE]);
        out.push(b'\n');
        out.extend(vec![b'c'; 3 * MAX_LINE + 17]);
        out.extend(b"\nbestmove a0a1\n");
        w.write_all(&out).unwrap();
    });
    let mut next = || r.recv(Duration::from_secs(10)).unwrap();
    let a = next();
    assert_eq!(
        (a.text.len(), a.bytes, a.cut),
        (MAX_LINE - 1, MAX_LINE as u64, false)
    );
    let b = next();
    // Its newline may not have come yet when it is cut: the bytes seen by then.
    assert!(b.cut && b.text.len() == MAX_LINE && b.bytes >= MAX_LINE as u64);
    assert!(flooded(&b, b.bytes).is_some());
    let c = next();
    assert!(c.cut && c.text.len() == MAX_LINE && c.bytes >= MAX_LINE as u64);
    // The rest of the cut line is skipped.
    assert_eq!(next().text, "bestmove a0a1");
    writer.join().unwrap();
    assert_eq!(r.buf.len(), READ_BUFFER);
}

#[test]
fn a_write_the_engine_does_not_take_is_given_up() {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
    let ours = OwnedFd::from(ours);
    set_nonblocking(ours.as_fd()).unwrap();
    let mut pipe = File::from(ours);
    // Nobody reads: far more than the socket holds is given up at the deadline.
    let big = vec![b'x'; 16 << 20];
    let t = Instant::now();
    let until = t + Duration::from_millis(30);
    assert!(!write_all_until(&mut pipe, &big, || Instant::now() >= until).unwrap());
    assert!(t.elapsed() < Duration::from_secs(5));
    // A reader that takes it all lets the write finish.
    let reader = std::thread::spawn(move || {
        let mut theirs = theirs;
        let mut sink = Vec::new();
        theirs.read_to_end(&mut sink).map(|_| sink.len())
    });
    let small = vec![b'y'; 1 << 20];
    assert!(write_all_until(&mut pipe, &small, || false).unwrap());
    drop(pipe);
    assert!(reader.join().unwrap().unwrap() >= small.len());
}

#[test]
fn a_write_to_a_closed_pipe_fails() {
    let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
    let ours = OwnedFd::from(ours);
    set_nonblocking(ours.as_fd()).unwrap();
    drop(theirs);
    assert!(write_all_until(&mut File::from(ours), b"go\n", || false).is_err());
}

#[test]
fn go_commands_carry_the_limits() {
    let l = Limits {
        nodes: Some(500),
        ..Limits::default()
    };
    let go_command = |l: &Limits| {
        let mut cmd = String::new();
        push_go(&mut cmd, l);
        cmd
    };
    assert_eq!(go_command(&l), "go nodes 500");
    assert_eq!(go_command(&Limits::default()), "go movetime 1000");
}

/// A wait that `poll(2)` broke off fails the engine with the error named, not as a timeout.
#[test]
fn a_failed_wait_is_no_timeout_and_names_the_error() {
    let e = super::process::wait_failed("bestmove", &std::io::Error::from_raw_os_error(22));
    assert_eq!(e.failure, jieqi_engine::Failure::Crash);
    assert!(
        e.message
            .starts_with("waiting for 'bestmove' failed: Invalid argument"),
        "{e}"
    );
}
