//! The `jieqi-uci` binary driven the way JieqiBox and a Pikafish-style match runner drive an
//! engine: every answer is checked, including the moves' suffixes, a 6-field FEN, `stop` and
//! `isready` during a search, and malformed lines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use jieqi_core::{Color, Move, PlayedMove, Position, Rules, View, fen, perft};

/// The binary under test, with its output read on a thread.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jieqi-uci"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the jieqi-uci binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first one `last` accepts; fails after `within`.
    fn until(&mut self, within: Duration, last: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = last(&line);
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(e) => panic!("no expected line within {within:?} ({e}); got {got:#?}"),
            }
        }
    }

    fn bestmove(&mut self, within: Duration) -> (Vec<String>, String) {
        let lines = self.until(within, |l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (lines, best)
    }

    /// `isready` while a search must not have answered yet: `readyok` comes (the loop hears the
    /// command while the search runs) and no `bestmove` before it; `what` names the moment.
    fn ready_before_any_bestmove(&mut self, what: &str) {
        self.send("isready");
        let lines = self.until(Duration::from_secs(5), |l| l == "readyok");
        assert!(
            !lines.iter().any(|l| l.starts_with("bestmove")),
            "a bestmove {what}: {lines:#?}"
        );
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until(Duration::from_secs(5), |l| l == "readyok");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// The view of the side to move after `moves` from `fen`, built with the library.
fn view_after(fen_text: &str, moves: &[&str], rules: &Rules) -> View {
    let setup = fen::parse(fen_text).unwrap();
    let player = if moves.len() % 2 == 0 {
        setup.turn
    } else {
        !setup.turn
    };
    let mut view = View::from_setup_as(&setup, rules, player).unwrap();
    for m in moves {
        let pm = PlayedMove::from_text(m, view.position().turn()).unwrap();
        view.apply(pm).unwrap();
    }
    view
}

fn assert_legal(best: &str, view: &View) {
    let mv = Move::from_text(best).unwrap_or_else(|e| panic!("bestmove '{best}': {e}"));
    assert!(
        view.legal_moves().contains(&mv),
        "bestmove {best} is not legal in {}",
        view.position().fen()
    );
}

const START: &str =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1";

#[test]
fn jieqibox_session() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(Duration::from_secs(5), |l| l == "uciok");
    assert!(lines[0].starts_with("id name jieqi-uci"), "{lines:?}");
    for option in [
        "Engine",
        "Hash",
        "Threads",
        "UCI_Variant",
        "Seed",
        "Contempt",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "option {option} declared: {lines:#?}"
        );
    }
    // What JieqiBox sends after loading an engine.
    e.send("setoption name Threads value 1");
    e.send("setoption name Hash value 64");
    e.ready();
    e.send("ucinewgame");
    e.ready();
    // A 6-field FEN (captured-hidden field `-`) and moves with reveal suffixes; the red cannon-
    // square piece takes the black hidden horse-square piece and learns what it was (6 letters).
    let six = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 - 0 1";
    let moves = ["h2h9Rn", "i9h9r"];
    e.send(&format!("position fen {six} moves {}", moves.join(" ")));
    e.send("go movetime 300");
    let (lines, best) = e.bestmove(Duration::from_secs(5));
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("an info line: {lines:#?}"));
    for field in [" depth ", " score ", " nodes ", " nps ", " time ", " pv "] {
        assert!(info.contains(field), "'{field}' in {info}");
    }
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "no complaint: {lines:#?}"
    );
    let view = view_after(six, &moves, &Rules::standard());
    assert_eq!(view.player(), Color::Red);
    assert_eq!(view.learned().black.get(jieqi_core::Role::Horse), 1);
    assert_legal(&best, &view);
    // `bestmove` alone: no ponder move after a hidden-piece move (we never send one).
    assert_eq!(lines.last().unwrap().split_whitespace().count(), 2);
    // The same game as Black saw it: the captured identity is not sent to the side that lost it.
    e.send(&format!("position fen {START} moves h2h9R"));
    e.send("go nodes 2000");
    let (_, best) = e.bestmove(Duration::from_secs(10));
    assert_legal(&best, &view_after(START, &["h2h9R"], &Rules::standard()));
}

#[test]
fn match_runner_session() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(Duration::from_secs(5), |l| l == "uciok");
    e.send("setoption name Engine value ismcts");
    e.send("setoption name UCI_Variant value jieqi");
    e.send("setoption name Seed value 42");
    e.ready();
    e.send("ucinewgame");
    // Clock-based search from the start position, the way cutechess-style runners send it.
    e.send("position startpos");
    let t = Instant::now();
    e.send("go wtime 2000 btime 2000 winc 20 binc 20");
    // The clock gives a budget of about 80 ms (at most about 250 ms, `Limits::budget`, whose
    // numbers jieqi-engine's tests check): the engine answers by itself, without a `stop`, well
    // within 5 s however busy the machine; a search that ignored the clock would not answer.
    let (_, best) = e.bestmove(Duration::from_secs(5));
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_legal(&best, &view_after(START, &[], &Rules::standard()));
    // The same node-limited search twice from a new game: the same move (reproducible with a
    // seed).
    e.send("ucinewgame");
    e.send(&format!("position startpos moves {best}"));
    e.send("go nodes 300");
    let (_, first) = e.bestmove(Duration::from_secs(10));
    e.send("ucinewgame");
    e.send(&format!("position startpos moves {best}"));
    e.send("go nodes 300");
    let (_, second) = e.bestmove(Duration::from_secs(10));
    assert_eq!(first, second);
}

#[test]
fn stop_and_isready_are_heard_during_a_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    // An infinite search answers neither `isready` nor `stop` if the loop does not hear them
    // while it runs: each answer within 5 s (it takes milliseconds) shows they were heard.
    e.ready_before_any_bestmove("before stop in infinite mode");
    let t = Instant::now();
    e.send("stop");
    let (_, best) = e.bestmove(Duration::from_secs(5));
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_legal(&best, &view_after(START, &[], &Rules::standard()));
}

/// `go ponder` holds its answer whatever its limits; `ponderhit` starts the time limit (from then,
/// not from the `go`), a finished node-limited ponder answers at once, a bare one waits for `stop`,
/// and `stop` ends a ponder that missed.
#[test]
fn ponder_waits_for_ponderhit_or_stop() {
    let mut e = Engine::start();
    e.send("position startpos moves h2e2C");
    let view = view_after(START, &["h2e2C"], &Rules::standard());

    // Time-limited: nothing during 600 ms of pondering (movetime 200 is not counted yet), then an
    // answer about 200 ms after ponderhit.
    e.send("go ponder movetime 200");
    std::thread::sleep(Duration::from_millis(600));
    e.ready_before_any_bestmove("while pondering");
    let t = Instant::now();
    e.send("ponderhit");
    let (_, best) = e.bestmove(Duration::from_secs(5));
    let took = t.elapsed();
    // Not before the movetime counted from ponderhit (a clock started at `go` would have run
    // out 400 ms ago), and not unbounded: 3 s beyond it on a busy machine.
    assert!(
        took >= Duration::from_millis(150) && took < Duration::from_millis(3200),
        "ponderhit with movetime 200 answered after {took:?}"
    );
    assert_legal(&best, &view);

    // Node-limited: the search is done long before ponderhit, which then answers at once.
    e.send("go ponder nodes 200");
    std::thread::sleep(Duration::from_millis(300));
    e.ready();
    let t = Instant::now();
    e.send("ponderhit");
    // Answered at once, where a ponder that waited for `stop` would not answer at all.
    let (_, best) = e.bestmove(Duration::from_secs(5));
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_legal(&best, &view);

    // Bare `go ponder`: after ponderhit it is an infinite search, answered on stop.
    e.send("go ponder");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ponderhit");
    std::thread::sleep(Duration::from_millis(300));
    e.ready_before_any_bestmove("after ponderhit of a bare ponder, before stop");
    e.send("stop");
    let (_, best) = e.bestmove(Duration::from_secs(5));
    assert_legal(&best, &view);

    // A ponder miss: `stop`, then the real search.
    e.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.bestmove(Duration::from_secs(5));
    e.send("go nodes 100");
    let (_, best) = e.bestmove(Duration::from_secs(5));
    assert_legal(&best, &view);
}

/// A `Hash` above the declared maximum (at most half the physical memory) is refused at
/// `setoption`, naming the declared range and keeping the previous size, instead of aborting
/// the process at the next search. (On a machine with 128 GiB it is accepted, and not searched
/// with here.)
#[test]
fn a_hash_the_machine_cannot_hold_is_refused_not_fatal() {
    let mut e = Engine::start();
    e.send("setoption name Hash value 65536");
    e.send("isready");
    let lines = e.until(Duration::from_secs(10), |l| l == "readyok");
    if let Some(refusal) = lines.iter().find(|l| l.contains("setoption refused")) {
        assert!(refusal.contains("Hash: 65536 is outside [1, "), "{refusal}");
        e.send("position startpos");
        e.send("go nodes 200");
        let (_, best) = e.bestmove(Duration::from_secs(10));
        assert_legal(&best, &view_after(START, &[], &Rules::standard()));
    }
}

#[test]
fn malformed_lines_are_explained_and_ignored() {
    let mut e = Engine::start();
    for (line, says) in [
        ("hello", "unknown command 'hello'"),
        ("go depth deep", "is not a valid number"),
        ("setoption name Hash value -5", "setoption refused"),
        ("setoption name Engine value stockfish", "not one of"),
        // Every refused setoption is answered "setoption refused", whatever is wrong with it
        // (the arena stops an engine that says so, instead of playing with its defaults).
        (
            "setoption name Bogus value 1",
            "setoption refused: no option named 'Bogus'",
        ),
        ("setoption name Hash", "setoption refused: Hash"),
        (
            "setoption name Threads value 300",
            "setoption refused: Threads",
        ),
        (
            "setoption name Contempt value 5000",
            "setoption refused: Contempt",
        ),
        (
            "setoption name UCI_Variant value chess",
            "setoption refused: UCI_Variant",
        ),
        ("setoption name Seed value -1", "setoption refused: Seed"),
        (
            "setoption name EngineOptions value depth=x",
            "setoption refused: engine spec",
        ),
        ("setoption value 3", "setoption refused: expected"),
        (
            "setoption name",
            "setoption refused: the option name is missing",
        ),
        ("position fen 9/9/9 w", "position refused"),
        ("position startpos moves a0a5", "position refused"),
    ] {
        e.send(line);
        let got = e.until(Duration::from_secs(5), |l| l.starts_with("info string"));
        assert!(got.last().unwrap().contains(says), "{line}: {got:?}");
    }
    // A refused position keeps the one before (the start position): never `(none)`.
    e.send("go depth 1");
    let (lines, best) = e.bestmove(Duration::from_secs(5));
    assert_legal(&best, &view_after(START, &[], &Rules::standard()));
    assert!(!lines.iter().any(|l| l.contains("(none)")), "{lines:?}");
    // Still alive and well.
    e.ready();
    e.send("position startpos");
    e.send("go depth 2");
    let (_, best) = e.bestmove(Duration::from_secs(10));
    assert_legal(&best, &view_after(START, &[], &Rules::standard()));
}

/// Input quoted back in an `info string` is cut at 200 characters with its length, and its
/// control characters escaped: a 5 MB line is not echoed whole, nor a terminal escape sent raw.
#[test]
fn echoed_input_is_capped_and_escaped() {
    let mut e = Engine::start();
    let huge = "x".repeat(500_000);
    let huge_move = format!("a0a1{}", "y".repeat(500_000));
    for (line, says) in [
        (huge.clone(), "unknown command 'xxxx"),
        (format!("go {huge}"), "unknown argument 'xxxx"),
        (
            format!("setoption name {huge} value 1"),
            "no option named 'xxxx",
        ),
        (
            format!("setoption name Engine value {huge}"),
            "Engine: 'xxxx",
        ),
        (format!("position startpos {huge}"), "unexpected 'xxxx"),
        (
            format!("position startpos moves {huge_move}"),
            "position refused",
        ),
        (format!("position fen {huge}"), "position refused"),
    ] {
        e.send(&line);
        let got = e.until(Duration::from_secs(20), |l| l.starts_with("info string"));
        let last = got.last().unwrap();
        assert!(last.contains(says), "{}: {last:.300}", &line[..20]);
        assert!(
            last.len() < 1500,
            "{}: {} bytes echoed: {last:.300}",
            &line[..20],
            last.len()
        );
        assert!(
            last.contains(" bytes)") || !last.contains("xxxxxxxxxx"),
            "{}: {last:.300}",
            &line[..20]
        );
    }
    // A line longer than the bound (1 MiB) is refused whole, without being held.
    e.send(&"z".repeat(5_000_000));
    let got = e.until(Duration::from_secs(20), |l| l.starts_with("info string"));
    let last = got.last().unwrap();
    assert!(
        last.starts_with("info string a line of 5000000 bytes ignored: longer than 1048576 bytes"),
        "{last:.300}"
    );
    assert!(last.len() < 1500, "{last:.300}");
    e.send("hel\u{1b}[31mlo\u{7}");
    let got = e.until(Duration::from_secs(5), |l| l.starts_with("info string"));
    assert_eq!(
        got.last().unwrap(),
        "info string unknown command 'hel\\u{1b}[31mlo\\u{7}'"
    );
    e.ready();
}

#[test]
fn perft_display_and_finished_games() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.until(Duration::from_secs(30), |l| l.starts_with("Nodes searched"));
    let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..]
        .parse()
        .unwrap();
    let mut pos = Position::start(&Rules::standard());
    assert_eq!(total, perft::perft(&mut pos, 2));
    let divided = lines
        .iter()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .count();
    assert_eq!(divided, perft::divide(&mut pos, 2).len());
    e.send("d");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("Fen: "));
    assert_eq!(
        lines.last().unwrap(),
        &format!("Fen: {}", Position::start(&Rules::standard()).fen())
    );
    assert!(
        lines.iter().any(|l| l == "0| X X X X K X X X X |"),
        "{lines:#?}"
    );
    // Mated (plain Xiangqi): no move to give.
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1");
    e.send("go depth 3");
    let (lines, best) = e.bestmove(Duration::from_secs(5));
    assert_eq!(best, "(none)");
    assert!(
        lines.iter().any(|l| l == "info depth 0 score mate 0"),
        "{lines:?}"
    );
}

#[test]
fn commands_during_a_finite_search_wait_for_its_answer() {
    let mut e = Engine::start();
    e.send("position startpos moves h2e2N");
    e.send("go depth 2");
    // Sent at once, as a script pipes them: the depth-2 search still completes first.
    e.send("position startpos");
    e.send("go depth 1");
    let (first, _) = e.bestmove(Duration::from_secs(20));
    assert!(
        first.iter().any(|l| l.starts_with("info depth 2 ")),
        "{first:#?}"
    );
    let (_, best) = e.bestmove(Duration::from_secs(20));
    assert_legal(&best, &view_after(START, &[], &Rules::standard()));
}

/// A command that must wait for a finite search (a `setoption` during `go movetime`, `go depth`,
/// `go nodes`) waits in a queue: the `isready`, `stop` and `quit` sent after it are answered at
/// once, and it runs when the search has answered.
#[test]
fn stop_isready_and_quit_are_heard_behind_a_waiting_command() {
    // Each search runs far longer than the bounds below unless `stop` or `quit` ends it (the
    // movetime is a minute), so answers within them (they take milliseconds) show the commands
    // were heard behind the waiting one.
    for go in ["go movetime 60000", "go depth 30", "go nodes 2000000000"] {
        let mut e = Engine::start();
        e.send("position startpos");
        e.send(go);
        std::thread::sleep(Duration::from_millis(200));
        let t = Instant::now();
        e.send("setoption name Hash value 16");
        e.ready();
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{go}: readyok after {:?}",
            t.elapsed()
        );
        e.send("stop");
        let (_, best) = e.bestmove(Duration::from_secs(5));
        assert_legal(&best, &view_after(START, &[], &Rules::standard()));
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{go}: bestmove after {:?}",
            t.elapsed()
        );
        // The waiting setoption ran after the answer: a bad one behind a search says so then.
        e.send(go);
        e.send("setoption name Hash value -5");
        e.send("quit");
        let t = Instant::now();
        let got = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
        assert!(
            !got.iter().any(|l| l.contains("setoption refused")),
            "{got:?}"
        );
        loop {
            if e.child.try_wait().unwrap().is_some() {
                break;
            }
            assert!(
                t.elapsed() < Duration::from_secs(5),
                "{go}: still running after quit"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    // Without a stop, the waiting command runs as soon as the search answers by itself.
    let mut e = Engine::start();
    e.send("go depth 2");
    e.send("setoption name Hash value -5");
    let got = e.until(Duration::from_secs(20), |l| l.starts_with("info string"));
    assert!(got.iter().any(|l| l.starts_with("bestmove")), "{got:?}");
    assert!(got.last().unwrap().contains("setoption refused"), "{got:?}");
}

/// `go perft` runs like a search: `isready` is answered during it and `stop` ends it; perft 0
/// counts the position itself, as `arena perft --depth 0` does.
#[test]
fn perft_is_stoppable() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 0");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1");
    e.send("go perft 9");
    let started = Instant::now();
    e.ready();
    e.send("stop");
    let lines = e.until(Duration::from_secs(5), |l| l.contains("stopped after"));
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("info string perft 9 stopped after"),
        "{lines:#?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    e.ready();
}

/// Closing the input during a long search stops it: the engine answers its move and exits, as
/// after `quit`, instead of searching on as an orphan.
#[test]
fn end_of_input_stops_the_search_and_exits() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 40");
    e.send("isready");
    e.until(Duration::from_secs(5), |l| l == "readyok");
    let started = Instant::now();
    // Close standard input: replace it with a closed pipe end.
    let stdin = std::mem::replace(
        &mut e.stdin,
        Command::new("true")
            .stdin(Stdio::piped())
            .spawn()
            .unwrap()
            .stdin
            .take()
            .unwrap(),
    );
    drop(stdin);
    let (_, best) = e.bestmove(Duration::from_secs(10));
    assert!(!best.is_empty());
    loop {
        if let Some(status) = e.child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "still running after its input closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every `go` that is refused is still answered with a legal `bestmove` (a GUI waits for one).
#[test]
fn refused_go_lines_are_answered() {
    let mut e = Engine::start();
    let moves = ["h2e2C", "h9g7n"];
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let view = view_after(START, &moves, &Rules::standard());
    for (line, says) in [
        ("go movetime 18446744073709551615", "is not a valid number"),
        ("go depth deep", "is not a valid number"),
        ("go nodes", "needs a number"),
        ("go sideways 3", "unknown argument 'sideways'"),
        ("go wtime -", "is not a valid number"),
        // `go perft` that cannot run is a refused `go` too: a GUI would wait for its answer.
        ("go perft abc", "'perft abc' is not a valid number"),
        ("go perft", "'perft' needs a number"),
    ] {
        e.send(line);
        let (lines, best) = e.bestmove(Duration::from_secs(10));
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string") && l.contains(says)),
            "{line}: {lines:?}"
        );
        assert_legal(&best, &view);
    }
    e.ready();
}

/// `go infinite searchmoves …` as JieqiBox's Variation button and arrow analysis send it: the
/// search runs, `stop` gets a `bestmove`, and the move is one of those asked for; illegal and
/// unreadable ones are dropped with an `info string`; with none left, every move is searched.
#[test]
fn searchmoves_restrict_the_answer() {
    for engine in ["alphabeta", "ismcts", "greedy"] {
        let mut e = Engine::start();
        e.send(&format!("setoption name Engine value {engine}"));
        e.send("position startpos");
        let view = view_after(START, &[], &Rules::standard());
        e.send("go infinite searchmoves a0a1 i3i4 e9e8 zz");
        std::thread::sleep(Duration::from_millis(300));
        e.send("stop");
        let (lines, best) = e.bestmove(Duration::from_secs(10));
        assert!(
            ["a0a1", "i3i4"].contains(&best.as_str()),
            "{engine}: {best} {lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("'e9e8' ignored (not a legal move here)")),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.contains("'zz' ignored")),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{engine}: it searched {lines:?}"
        );
        e.send("go depth 2 searchmoves e9e8");
        let (lines, best) = e.bestmove(Duration::from_secs(10));
        assert!(
            lines
                .iter()
                .any(|l| l.contains("no legal move among them; searching every move")),
            "{lines:?}"
        );
        assert_legal(&best, &view);
    }
}

/// JieqiBox's legacy FEN ("new FEN format" off): `board pool side - - half full`.
#[test]
fn jieqibox_legacy_fen_is_accepted() {
    let mut e = Engine::start();
    let board = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX";
    let pool = "R2r2N2n2B2b2A2a2C2c2P5p5";
    e.send(&format!(
        "position fen {board} {pool} w - - 0 1 moves h2e2C h9g7n"
    ));
    e.send("d");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("Fen: "));
    assert!(!lines.iter().any(|l| l.contains("refused")), "{lines:?}");
    e.send("go depth 2");
    let (lines, best) = e.bestmove(Duration::from_secs(10));
    assert!(!lines.iter().any(|l| l.contains("refused")), "{lines:?}");
    assert_legal(
        &best,
        &view_after(START, &["h2e2C", "h9g7n"], &Rules::standard()),
    );
}

/// The answer to `line` (the first `info string` line after it), or the engine killed and the
/// test failed when none comes within 30 s (it would otherwise hang on the file).
fn answer_or_kill(e: &mut Engine, line: &str) -> String {
    e.send(line);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match e.lines.recv_timeout(left) {
            Ok(got) if got.starts_with("info string") => return got,
            Ok(_) => {}
            Err(err) => {
                let _ = e.child.kill();
                panic!("{line}: no answer within 30 s ({err}): the file accepted, or blocked on?");
            }
        }
    }
}

/// An `eval=` weights file in `EngineOptions` is read only if it is a regular file of at most
/// 1 MiB: a named pipe is refused, not waited on; `/dev/zero` is refused, not read to its end;
/// a larger file is refused. The engine stays usable.
#[test]
fn eval_files_that_are_no_regular_small_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("jieqi-uci-eval-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.json");
    std::fs::write(&big, format!("{}{{}}", " ".repeat(1 << 20))).unwrap();
    let mut cases = vec![(big.display().to_string(), "larger than 1048576 bytes")];
    let pipe = dir.join("fifo.json");
    match Command::new("mkfifo").arg(&pipe).status() {
        Ok(s) if s.success() => cases.push((
            pipe.display().to_string(),
            "is not a regular file (a named pipe)",
        )),
        other => eprintln!("SKIPPED the named pipe: mkfifo failed: {other:?}"),
    }
    // Last: without a bound, it would be read until memory runs out.
    cases.push(("/dev/zero".to_string(), "is not a regular file (a device)"));
    let mut e = Engine::start();
    for (file, says) in &cases {
        let line = format!("setoption name EngineOptions value eval={file}");
        let got = answer_or_kill(&mut e, &line);
        assert!(got.contains("setoption refused"), "{line}: {got}");
        assert!(
            got.contains(file.as_str()) && got.contains(says),
            "{line}: {got}"
        );
    }
    e.ready();
    e.send("position startpos");
    e.send("go depth 1");
    let (_, best) = e.bestmove(Duration::from_secs(10));
    assert_legal(&best, &view_after(START, &[], &Rules::standard()));
    drop(e);
    let _ = std::fs::remove_dir_all(dir);
}

/// What JieqiBox's options dialog offers is what the engine takes: `Hash` declares the largest
/// table this machine can hold (it declared 65536 MB everywhere, and JieqiBox sent a refused
/// value again on every load), and an empty string default is a bare `default`, which JieqiBox
/// reads as empty (it showed and sent back Stockfish's `<empty>`).
#[test]
fn the_declared_maxima_and_defaults_are_taken() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(Duration::from_secs(10), |l| l == "uciok");
    let hash = lines
        .iter()
        .find(|l| l.starts_with("option name Hash "))
        .expect("Hash declared");
    let max: u64 = hash
        .rsplit_once(" max ")
        .and_then(|(_, m)| m.parse().ok())
        .expect("a max");
    assert!((1..=65536).contains(&max), "{hash}");
    let text = lines
        .iter()
        .find(|l| l.starts_with("option name EngineOptions "))
        .expect("EngineOptions declared");
    assert_eq!(text, "option name EngineOptions type string default");
    e.send(&format!("setoption name Hash value {max}"));
    e.send("setoption name EngineOptions value");
    e.send("isready");
    let lines = e.until(Duration::from_secs(10), |l| l == "readyok");
    assert!(
        lines.iter().all(|l| !l.contains("refused")),
        "{hash}: {lines:?}"
    );
}
