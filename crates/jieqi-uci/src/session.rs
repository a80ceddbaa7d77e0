//! One UCI session: the options, the position (as the view of the side to move), the engine, and
//! the running search.
//!
//! The search runs on its own thread so that the command loop keeps reading during it: `stop`,
//! `isready`, `ponderhit`, `d` and `quit` are answered at once, whatever the search. As in
//! Stockfish, a command that needs the engine or the position (`go`, `position`, `setoption`,
//! `ucinewgame`, `uci`, `go perft`) runs only after a running search has answered — so a script
//! can pipe `go depth 8` and more commands — but here it waits in a queue ([`MAX_WAITING`]
//! commands) instead of blocking the loop, so a `stop` or `quit` behind it is still heard at
//! once; an infinite or pondering search, which would never answer, is stopped by such a
//! command. `go ponder` searches with its node and depth limits only and holds its answer;
//! `ponderhit` starts its time limit (a timer stops it) and lets it answer, as in Stockfish.
//! `go perft` runs on the same thread, stoppable. The end of the input is `quit` once the queued
//! commands have run: the last search is stopped and answers, and the session ends.
//!
//! Every `go` gets a `bestmove` with a legal move of the current position — a `go` line that
//! does not parse (`go perft` included) gets a short search, an engine that fails gets the first
//! legal move — and `bestmove (none)` only when there is no legal move. A refused `position`
//! keeps the previous position.

use std::collections::VecDeque;
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jieqi_core::{ByColor, Color, Move, Occupant, PlayedMove, Position, Square, View, fen, perft};
use jieqi_engine::{Clock, Control, Engine, Limits, Score, SearchInfo};

use crate::command::{self, Command, Go, quoted};
use crate::options::{self, Options};

/// Where answers go: shared by the session and its search thread, one whole line at a time.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps a writer (standard output, or a buffer in tests).
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes it. A closed output is not an error worth dying for.
    pub fn say(&self, line: &str) {
        let mut w = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }

    /// Writes `info string TEXT`, with TEXT's control characters escaped and cut past
    /// [`MAX_INFO_CHARS`] characters: what it says may quote a GUI's input (a refused FEN, an
    /// unknown move), and a line of megabytes is never echoed whole.
    pub fn info(&self, text: &str) {
        let mut line = String::from("info string ");
        for (i, c) in text.chars().enumerate() {
            if i == MAX_INFO_CHARS {
                line.push_str(&format!("… ({} bytes)", text.len()));
                break;
            }
            if c.is_control() {
                line.extend(c.escape_default());
            } else {
                line.push(c);
            }
        }
        self.say(&line);
    }
}

/// The most characters of one `info string` message ([`Output::info`]): room for a few quotes of
/// the input, each cut at [`crate::command::MAX_ECHO_CHARS`].
pub const MAX_INFO_CHARS: usize = 1000;

/// The nodes of the search that answers a `go` line that does not parse.
pub const REFUSED_GO_NODES: u64 = 1000;

/// The most commands that wait for a running search to answer; past them a command is refused
/// with an `info string` (a GUI waits for the `bestmove` before it sends more than a few).
pub const MAX_WAITING: usize = 64;

/// Whether to keep reading commands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// `quit` was read.
    Quit,
}

/// A search in progress.
struct Running {
    stop: Arc<AtomicBool>,
    /// The answer waits for `stop` (`go infinite`, and `go ponder` until `ponderhit`): such a
    /// search never answers by itself.
    hold: Arc<AtomicBool>,
    /// `go ponder`: the time budget that `ponderhit` starts (`None`: no time limit), and the side
    /// it is for. Taken by the first `ponderhit`.
    ponder: Option<Ponder>,
    /// Gives the engine back (`None` if it panicked).
    handle: JoinHandle<Option<Box<dyn Engine>>>,
}

/// What a `go ponder` search does on `ponderhit`.
struct Ponder {
    /// The time it may still think, counted from `ponderhit` (the `go` line's movetime or clock
    /// budget); `None` when the line set no time limit.
    budget: Option<Duration>,
    /// After `ponderhit` it answers by itself (the line set some limit); a bare `go ponder`
    /// becomes `go infinite`.
    limited: bool,
}

/// The engine side of the protocol.
pub struct Session {
    out: Output,
    options: Options,
    /// Built at the first `go` after a new game or an option change.
    engine: Option<Box<dyn Engine>>,
    /// The position as the side to move knows it (a refused `position` keeps the one before).
    view: View,
    search: Option<Running>,
    /// Commands that wait for the running search to answer, in the order they came.
    waiting: VecDeque<Command>,
}

impl Session {
    /// A session at the start position of the default variant, answering on `out`.
    pub fn new(out: Output) -> Session {
        let options = Options::default();
        let view = start_view(&options);
        Session {
            out,
            options,
            engine: None,
            view,
            search: None,
            waiting: VecDeque::new(),
        }
    }

    /// Handles one command line. Malformed lines are answered with an `info string` saying what
    /// is wrong; nothing a GUI sends makes the session fail.
    pub fn handle(&mut self, line: &str) -> Flow {
        self.resume();
        let cmd = match command::parse(line) {
            Ok(Some(cmd)) => cmd,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.out.info(&e);
                return Flow::Continue;
            }
        };
        match cmd {
            Command::IsReady => self.out.say("readyok"),
            Command::PonderHit => self.ponderhit(),
            // Stops every search of a `go` read before it, the waiting ones too (each answers),
            // as when the commands ran one after the other.
            Command::Stop => {
                self.finish_search(true);
                while self.is_waiting() {
                    self.resume();
                    self.finish_search(true);
                }
            }
            Command::Quit => {
                self.finish_search(true);
                return Flow::Quit;
            }
            Command::Display => self.display(),
            _ if self.waiting.len() >= MAX_WAITING => self.out.info(&format!(
                "'{}' ignored: {MAX_WAITING} commands already wait for the running search to \
                 answer (send stop, or wait for its bestmove)",
                quoted(line.split_whitespace().next().unwrap_or_default())
            )),
            other => {
                self.waiting.push_back(other);
                self.resume();
            }
        }
        Flow::Continue
    }

    /// Whether commands wait for the running search to answer: the caller then calls
    /// [`Session::resume`] now and then, so that they run when it has.
    pub fn is_waiting(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// Runs the waiting commands, in order, as far as the running search allows: a finite search
    /// that has not answered yet keeps them waiting; an infinite or pondering one is stopped.
    pub fn resume(&mut self) {
        while !self.waiting.is_empty() {
            if let Some(run) = &self.search {
                let held = run.hold.load(Ordering::Relaxed);
                if !held && !run.handle.is_finished() {
                    return;
                }
                self.finish_search(false);
            }
            if let Some(cmd) = self.waiting.pop_front() {
                self.run(cmd);
            }
        }
    }

    /// The end of the input: the waiting commands run as they would have (each finite search
    /// they wait for ends by itself), then, as `quit` (Stockfish does the same), the running
    /// search is stopped and answers its `bestmove`, so that a closed pipe never leaves an
    /// orphan searching.
    pub fn end_of_input(&mut self) {
        while self.is_waiting() {
            self.finish_search(false);
            self.resume();
        }
        self.finish_search(true);
    }

    fn run(&mut self, cmd: Command) {
        match cmd {
            Command::Uci => {
                self.out.say(&format!(
                    "id name jieqi-uci {} ({})",
                    env!("CARGO_PKG_VERSION"),
                    self.options.engine
                ));
                self.out.say("id author the jieqi authors");
                for line in options::declarations() {
                    self.out.say(&line);
                }
                self.out.say("uciok");
            }
            Command::NewGame => {
                self.engine = None;
                self.view = start_view(&self.options);
            }
            Command::SetOption { name, value } => match self.options.set(&name, value.as_deref()) {
                Ok(rebuild) => {
                    if rebuild {
                        self.engine = None;
                    }
                    if name.eq_ignore_ascii_case("UCI_Variant") {
                        self.view = start_view(&self.options);
                    }
                }
                Err(e) => self.out.info(&format!("setoption refused: {e}")),
            },
            Command::Position { fen, moves } => {
                match set_position(&self.options, fen.as_deref(), &moves) {
                    Ok(view) => self.view = view,
                    Err(e) => self.out.info(&format!(
                        "position refused ({e}); keeping the previous position {}",
                        self.view.position().fen()
                    )),
                }
            }
            Command::Go(go) => self.go(&go),
            Command::RefusedGo(reason) => {
                self.out.info(&format!(
                    "{reason}; answering a search of {REFUSED_GO_NODES} nodes instead"
                ));
                self.go(&Go {
                    nodes: Some(REFUSED_GO_NODES),
                    ..Go::default()
                });
            }
            Command::Perft(depth) => self.perft(depth),
            Command::IsReady
            | Command::PonderHit
            | Command::Stop
            | Command::Quit
            | Command::Display => unreachable!("handled without stopping the search"),
        }
    }

    /// Waits for the running search, if any, to answer its `bestmove`; with `stop` (or when it
    /// would never answer by itself: infinite, or pondering) tells it to stop first.
    fn finish_search(&mut self, stop: bool) {
        if let Some(run) = self.search.take() {
            if stop || run.hold.load(Ordering::Relaxed) {
                run.stop.store(true, Ordering::Relaxed);
            }
            self.engine = run.handle.join().ok().flatten();
        }
    }

    /// `ponderhit`: the pondering search becomes a normal one. Its time limit (if the `go ponder`
    /// line had one) starts now, kept by a timer that stops it; with only node or depth limits it
    /// ends when they are reached (or at once, if it already has); a bare `go ponder` goes on
    /// until `stop`. Without a pondering search, `ponderhit` is ignored.
    fn ponderhit(&mut self) {
        let Some(run) = self.search.as_mut() else {
            return;
        };
        let Some(ponder) = run.ponder.take() else {
            return;
        };
        if !ponder.limited {
            return;
        }
        if let Some(budget) = ponder.budget {
            let stop = run.stop.clone();
            let started = Instant::now();
            // Sleeps in short steps so that it ends with the search, not after the budget.
            std::thread::spawn(move || {
                while started.elapsed() < budget && !stop.load(Ordering::Relaxed) {
                    let left = budget.saturating_sub(started.elapsed());
                    std::thread::sleep(left.min(Duration::from_millis(5)));
                }
                stop.store(true, Ordering::Relaxed);
            });
        }
        run.hold.store(false, Ordering::Relaxed);
    }

    fn go(&mut self, go: &Go) {
        let view = self.view.clone();
        let pos = view.position();
        if pos.king_lost(pos.turn()) || pos.legal_moves().is_empty() {
            self.out.say("info depth 0 score mate 0");
            self.out.say("bestmove (none)");
            return;
        }
        let searchmoves = self.searchmoves(&go.searchmoves);
        // The answer when the engine gives none: a move the GUI allowed.
        let fallback = Control::default()
            .with_searchmoves(&searchmoves)
            .root_moves(view.legal_moves())[0];
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => match self.options.spec().and_then(|s| options::build(&s)) {
                Ok(e) => e,
                Err(e) => {
                    self.out.info(&format!(
                        "cannot build the engine ({e}); answering the first legal move"
                    ));
                    self.out.say(&format!("bestmove {fallback}"));
                    return;
                }
            },
        };
        let turn = pos.turn();
        let mut limits = limits(go, turn);
        let ponder = (go.ponder && !go.infinite).then(|| {
            let ponder = Ponder {
                budget: limits.budget(turn).map(|b| b.soft),
                limited: !limits.is_unlimited(),
            };
            // While pondering, only node and depth limits hold (none: think until told).
            limits.movetime = None;
            limits.clock = None;
            if limits.is_unlimited() {
                limits.movetime = Some(INFINITE);
            }
            ponder
        });
        let hold = Arc::new(AtomicBool::new(go.infinite || go.ponder));
        let held = hold.clone();
        let seed = self.options.seed;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let out = self.out.clone();
        let handle = std::thread::spawn(move || {
            let started = Instant::now();
            let last = Mutex::new(None);
            let report = |info: &SearchInfo| {
                out.say(&info_line(info, started.elapsed(), &view));
                *last.lock().unwrap_or_else(|p| p.into_inner()) = Some(info.clone());
            };
            let control = Control::default()
                .with_stop(&flag)
                .with_report(&report)
                .with_searchmoves(&searchmoves);
            let answer = catch_unwind(AssertUnwindSafe(|| {
                engine.search(&view, &limits, seed, &control)
            }));
            let (engine, best) = match answer {
                Ok(Ok(choice)) => {
                    // The final info, unless the last interim report said it all.
                    if last.into_inner().ok().flatten().as_ref() != Some(&choice.info) {
                        out.say(&info_line(&choice.info, started.elapsed(), &view));
                    }
                    (Some(engine), choice.mv)
                }
                Ok(Err(e)) => {
                    out.info(&format!(
                        "the engine failed ({e}); answering the first legal move"
                    ));
                    (Some(engine), fallback)
                }
                Err(_) => {
                    out.info(
                        "the engine panicked; answering the first legal move, and it is rebuilt for the next search",
                    );
                    (None, fallback)
                }
            };
            // In infinite mode (and while pondering) the answer waits for `stop` or `ponderhit`.
            while held.load(Ordering::Relaxed) && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            // Ends a `ponderhit` timer that may still be waiting.
            flag.store(true, Ordering::Relaxed);
            out.say(&format!("bestmove {best}"));
            engine
        });
        self.search = Some(Running {
            stop,
            hold,
            ponder,
            handle,
        });
    }

    /// The legal moves among a `go searchmoves` list; each one that does not read or is not legal
    /// here is dropped with an `info string`, and when none is left every move is searched.
    fn searchmoves(&self, texts: &[String]) -> Vec<Move> {
        let pos = self.view.position();
        let legal = pos.legal_moves();
        let mut moves = Vec::new();
        for text in texts {
            match PlayedMove::from_text(text, pos.turn()) {
                Err(e) => self
                    .out
                    .info(&format!("searchmoves: '{}' ignored ({e})", quoted(text))),
                Ok(pm) if !legal.contains(&pm.mv) => self.out.info(&format!(
                    "searchmoves: '{}' ignored (not a legal move here)",
                    quoted(text)
                )),
                Ok(pm) => {
                    if !moves.contains(&pm.mv) {
                        moves.push(pm.mv);
                    }
                }
            }
        }
        if moves.is_empty() && !texts.is_empty() {
            self.out
                .info("searchmoves: no legal move among them; searching every move");
        }
        moves
    }

    /// `go perft D` runs like a search, on its own thread: `isready` is answered during it, and
    /// `stop` or `quit` stop it (it then says how far it got).
    fn perft(&mut self, depth: u32) {
        let view = self.view.clone();
        let engine = self.engine.take();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let out = self.out.clone();
        let handle = std::thread::spawn(move || {
            let mut pos = view.position().clone();
            let turn = pos.turn();
            let started = Instant::now();
            let mut total = 0;
            let mut children = 0;
            let finished = perft::divide_until(
                &mut pos,
                depth,
                &|| flag.load(Ordering::Relaxed),
                |pm, n| {
                    out.say(&format!("{}: {n}", pm.to_text(turn)));
                    total += n;
                    children += 1;
                },
            );
            if !finished {
                out.info(&format!(
                    "perft {depth} stopped after {children} root moves ({total} nodes)"
                ));
                return engine;
            }
            // perft(0) = 1: the position itself.
            if depth == 0 {
                total = 1;
            }
            out.say("");
            out.say(&format!("Nodes searched: {total}"));
            out.info(&format!(
                "perft {depth}: {total} nodes in {} ms (public tree; a hidden mover counts once per identity)",
                started.elapsed().as_millis()
            ));
            engine
        });
        self.search = Some(Running {
            stop,
            hold: Arc::new(AtomicBool::new(false)),
            ponder: None,
            handle,
        });
    }

    fn display(&self) {
        let pos = self.view.position();
        self.out.say(" +-------------------+");
        for rank in (0..10).rev() {
            let mut row = format!("{rank}|");
            for file in 0..9 {
                let sq = Square::from_index(rank * 9 + file);
                let c = match pos.occupant(sq) {
                    None => '.',
                    Some(Occupant::Hidden(Color::Red)) => 'X',
                    Some(Occupant::Hidden(Color::Black)) => 'x',
                    Some(Occupant::Revealed(p)) if p.color == Color::Red => p.role.upper_char(),
                    Some(Occupant::Revealed(p)) => p.role.char(),
                };
                row.push(' ');
                row.push(c);
            }
            row.push_str(" |");
            self.out.say(&row);
        }
        self.out.say(" +-------------------+");
        self.out.say("   a b c d e f g h i");
        self.out.say("");
        self.out.say(&format!("Fen: {}", pos.fen()));
        self.out.say(&format!(
            "Side to move: {}; {} legal moves; rules: {}",
            pos.turn(),
            pos.legal_moves().len(),
            self.options.variant
        ));
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.finish_search(true);
    }
}

/// The start position of the selected variant, as Red (to move) knows it.
fn start_view(options: &Options) -> View {
    set_position(options, None, &[]).expect("the start position is legal")
}

/// The view of the side to move after `moves` from `fen` (or the start position).
fn set_position(options: &Options, fen: Option<&str>, moves: &[String]) -> Result<View, String> {
    let rules = options.rules();
    let setup = match fen {
        None => Position::start(&rules).to_setup(),
        Some(text) => fen::parse(text).map_err(|e| e.to_string())?,
    };
    let player = if moves.len() % 2 == 0 {
        setup.turn
    } else {
        !setup.turn
    };
    let mut view = View::from_setup_as(&setup, &rules, player).map_err(|e| e.to_string())?;
    for (i, text) in moves.iter().enumerate() {
        let mover = view.position().turn();
        let pm = PlayedMove::from_text(text, mover)
            .map_err(|e| format!("move {} '{}': {e}", i + 1, quoted(text)))?;
        view.apply(pm)
            .map_err(|e| format!("move {} '{}': {e}", i + 1, quoted(text)))?;
    }
    Ok(view)
}

/// The engine limits of a `go` for the side `turn`: node, depth and movetime limits as given;
/// `wtime`/`btime` (with `winc`/`binc`, `movestogo`) become the engine's clock, from which its own
/// time manager ([`Limits::budget`]) decides how long to think; `infinite` runs until `stop`.
/// (`ponder` is the session's business: these are the limits that apply after `ponderhit`.)
pub fn limits(go: &Go, turn: Color) -> Limits {
    let mut limits = Limits {
        nodes: go.nodes,
        depth: go.depth,
        movetime: go.movetime,
        clock: None,
    };
    if go.time[turn.index()].is_some() {
        limits.clock = Some(Clock {
            remaining: ByColor::new_with(|c| go.time[c.index()].unwrap_or(Duration::ZERO)),
            increment: ByColor::new_with(|c| go.inc[c.index()].unwrap_or(Duration::ZERO)),
            moves_to_go: go.movestogo,
        });
    }
    if go.infinite {
        limits = Limits {
            movetime: Some(INFINITE),
            ..Limits::default()
        };
    }
    limits
}

/// The movetime of a search that ends only when stopped.
const INFINITE: Duration = Duration::from_secs(24 * 3600);

/// An `info` line: depth, score, nodes, nps, time and the pv, cut after its first hidden-piece
/// move (what follows depends on an identity nobody knows yet).
pub fn info_line(info: &SearchInfo, elapsed: Duration, view: &View) -> String {
    let ms = elapsed.as_millis().max(1) as u64;
    let mut s = format!("info depth {}", info.depth.unwrap_or(1).max(1));
    match info.score {
        Some(Score::Cp(cp)) => s.push_str(&format!(" score cp {cp}")),
        Some(Score::Mate(m)) => s.push_str(&format!(" score mate {m}")),
        Some(Score::WinRate(w)) => {
            // The inverse of the evaluation's logistic curve (+400 cp ≈ 91 %).
            s.push_str(&format!(" score cp {}", Score::win_rate_cp(w)));
        }
        None => {}
    }
    s.push_str(&format!(
        " nodes {} nps {} time {ms}",
        info.nodes,
        info.nodes * 1000 / ms
    ));
    let pv = public_pv(view.position(), &info.pv);
    if !pv.is_empty() {
        s.push_str(" pv");
        for m in pv {
            s.push_str(&format!(" {m}"));
        }
    }
    s
}

/// The legal prefix of `pv` from `pos`, ending at (and including) its first hidden-piece move.
fn public_pv(pos: &Position, pv: &[jieqi_core::Move]) -> Vec<jieqi_core::Move> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &m in pv {
        if !pos.legal_moves().contains(&m) {
            break;
        }
        out.push(m);
        if pos.is_hidden(m.from) {
            break;
        }
        pos.make(PlayedMove::plain(m));
    }
    out
}
