//! External engines: a process speaking UCI as a player, in the Pikafish dialect (ranks 0–9) or
//! Fairy-Stockfish's (ranks 1–10; [`crate::engines::dialect`]), chosen by `dialect=` or by the
//! engine's `id name`.
//!
//! A process is started before a game's first move, outside the clock (`uci`, the `option.*`
//! settings — each must be one the engine declares, and a refusal it reports stops it —
//! `ucinewgame`, `isready`; then `UCI_Variant`, which must be one the engine offers) and kept for later games as fastchess does: when a game ends with the
//! process healthy, it goes back to its engine's pool, and the next game takes it with
//! `ucinewgame` and `isready`. A process that failed is never reused: it is told to quit (and
//! killed after 300 ms), and the next game starts a new one. Each move it gets `position fen START
//! moves …` with the moves as its side saw them — the reveal suffix on every hidden-piece move, a
//! captured hidden identity only when its side captured it (the view's history) — then `setoption
//! name Seed` if it declares such an option, then `go` with the limits (`wtime btime winc binc
//! [movestogo]` under a clock). At the hard time limit (its own `timeout=`, or the harness's stop
//! flag) it is sent `stop` and the move fails as a timeout; that, a dead process or a malformed
//! answer is an [`EngineError`] of the matching [`Failure`]; the referee also refuses an illegal
//! move. Every failure loses that game only.
//!
//! The I/O is built for a short move: the game thread reads the engine's output itself, from a
//! non-blocking pipe with `poll(2)` bounded by the move's deadline (a reader thread handing lines
//! over cost more than the rest of the harness's move), and a move's commands go out in one
//! write. Nothing grows without bound: a line is cut at [`MAX_LINE`] bytes, an answer at
//! [`MAX_MOVE_BYTES`], at most [`READ_BUFFER`] bytes are held unread (past that the engine waits
//! on its pipe), and a write the engine does not take is given up at the same deadline as a
//! read. The error output is drained by a thread of its own, off the move's path, so a chatty
//! engine never blocks on it.

use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::engines::dialect::{self, Declared, Dialect};
use crate::engines::fd::{set_nonblocking, wait_fd};
use crate::engines::time_control::{MAX_MOVE_MS, MOVETIME_GRACE, unclocked_limit};
use jieqi_core::{Color, PlayedMove, Position, Rules, View};
use jieqi_engine::{
    Choice, Control, Engine, EngineError, Factory, Failure, Limits, LineSink, Logs, Score,
    SearchInfo, Spec, SpecError,
};

/// The spec name.
pub const NAME: &str = "uci";

/// `arena engines` help.
pub const HELP: &str = "An external engine process speaking UCI (the Pikafish dialect: jieqi-uci, \
Pikafish's jieqi branch…; or Fairy-Stockfish's), a process kept across games while it is healthy. Keys: path (the executable, required), \
option.NAME=VALUE (sent as setoption after the handshake, e.g. option.Hash=64; not UCI_Variant \
or Seed, which the arena sets itself), timeout (ms, this \
engine's own hard limit for one move: it replaces the run's --move-timeout, or movetime + 1000, \
longer or shorter; a clock still flags), init_timeout (ms for \
the uci and isready handshake, default 10000), dialect (pikafish: squares ranked 0-9, e.g. h2e2; \
fairy: ranked 1-10, e.g. h3e3, as Fairy-Stockfish writes them, which plays xiangqi rules only; \
default: fairy when the engine's id name starts with Fairy-Stockfish, else pikafish). The rules' \
UCI_Variant must be one the engine offers. Without any limit it is sent `go movetime \
1000`; under --tc it gets `go wtime btime winc binc [movestogo]`. A process that dies, hangs or \
answers garbage loses the game (engine-crash, timeout, protocol-error; an illegal move is \
illegal-move) and is replaced for the next one. It only ever \
learns what its side may know, so omniscient mode is refused. Example: \
uci:path=target/release/jieqi-uci,option.Engine=alphabeta.";

/// The options the arena sets itself on every engine that declares them: `UCI_Variant` from the
/// rules ([`Dialect::variant_for`]) and `Seed` from each game's seed. A spec's `option.` for one
/// of them would be sent and then silently overridden, so it is refused.
const ARENA_OPTIONS: [&str; 2] = ["UCI_Variant", "Seed"];

/// Settings read from the spec.
#[derive(Clone, Debug)]
struct Settings {
    path: String,
    options: Vec<(String, String)>,
    timeout: Option<Duration>,
    init_timeout: Duration,
    /// `dialect=`; `None`: from the engine's `id name`.
    dialect: Option<Dialect>,
}

impl Settings {
    fn parse(spec: &Spec) -> Result<Settings, SpecError> {
        let err = |message: String| SpecError {
            spec: spec.to_string(),
            message,
        };
        let ms = |key: &str, v: &str| match v.parse::<u64>() {
            Ok(n) if (1..=MAX_MOVE_MS).contains(&n) => Ok(Duration::from_millis(n)),
            _ => Err(err(format!(
                "parameter '{key}': '{v}' is not a whole number of ms from 1 to {MAX_MOVE_MS}"
            ))),
        };
        let mut s = Settings {
            path: String::new(),
            options: Vec::new(),
            timeout: None,
            init_timeout: Duration::from_secs(10),
            dialect: None,
        };
        for (k, v) in &spec.params {
            match k.as_str() {
                "path" => s.path = v.clone(),
                "timeout" => s.timeout = Some(ms(k, v)?),
                "init_timeout" => s.init_timeout = ms(k, v)?,
                dialect::KEY => s.dialect = Some(Dialect::parse(v).map_err(err)?),
                _ => match k.strip_prefix("option.") {
                    Some(name) if ARENA_OPTIONS.iter().any(|o| o.eq_ignore_ascii_case(name)) => {
                        return Err(err(format!(
                            "option '{name}' is set by the arena itself (UCI_Variant from the \
                             rules, Seed from the game's seed): leave option.{name} out"
                        )));
                    }
                    Some(name) if !name.is_empty() => s.options.push((name.into(), v.clone())),
                    _ => {
                        return Err(err(format!(
                            "unknown parameter '{k}' for engine 'uci' (known: path, option.NAME, timeout, init_timeout, dialect)"
                        )));
                    }
                },
            }
        }
        if s.path.is_empty() {
            return Err(err(
                "the executable is missing: uci:path=/path/to/engine".into()
            ));
        }
        Ok(s)
    }
}

/// A running engine process.
struct Process {
    child: Child,
    /// Its standard input, non-blocking (see [`write_all_until`]).
    stdin: File,
    /// Its standard output, read on the caller's thread.
    output: Reader,
    /// Option names it declared, lowercased.
    declared: Vec<String>,
    /// Its option declarations, for checking values.
    options: Vec<OptionDecl>,
    /// The `UCI_Variant` it was set to.
    variant: Option<String>,
    /// The rules its variant was chosen for (and checked against what it offers).
    variant_rules: Option<Rules>,
    /// How it writes moves.
    dialect: Dialect,
    /// Its `UCI_Variant` option, if it declares one.
    variant_option: Option<Declared>,
    /// Where the current game's traffic goes (`--log`).
    traffic: Option<LineSink>,
    /// Where its error output goes, and the arena's note of how it was ended after a failure.
    stderr: Option<LineSink>,
}

/// The longest line of an engine's error output that is kept (the rest of it is dropped).
const MAX_STDERR_LINE: usize = 4096;

impl Process {
    /// Starts the process and runs the handshake. Its error output goes to `logs.stderr` (read
    /// and dropped without one), the handshake to `logs.traffic`.
    fn start(s: &Settings, logs: &Logs) -> Result<Process, EngineError> {
        let mut cmd = Command::new(&s.path);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group: whatever it starts is ended with it (see `Drop`).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut tries = 0;
        let mut child = loop {
            match cmd.spawn() {
                Ok(child) => break child,
                // ETXTBSY: a script written a moment ago is still open for writing in a process
                // that was being forked then (it closes at that process's exec): try again.
                Err(e) if e.raw_os_error() == Some(26) && tries < 50 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => {
                    return Err(EngineError::of(
                        Failure::Crash,
                        format!("cannot start '{}': {e}", s.path),
                    ));
                }
            }
        };
        crate::engines::interrupt::engine_started(child.id());
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        // Always drained, so an engine that complains a lot never blocks on a full pipe.
        let sink = logs.stderr.clone();
        let pid = child.id();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stderr);
            let mut buf = Vec::new();
            while read_capped_line(&mut r, &mut buf, MAX_STDERR_LINE).is_some() {
                if let Some(sink) = &sink {
                    sink(&format!(
                        "[pid {pid}] {}",
                        String::from_utf8_lossy(&buf).trim_end()
                    ));
                }
            }
        });
        // Both pipes non-blocking: every wait on them is a `poll` with a deadline. (Until this
        // succeeds the child is not in a `Process`: kill it here.)
        let pipes = (|| {
            let stdin = OwnedFd::from(stdin);
            set_nonblocking(stdin.as_fd())?;
            Ok::<_, std::io::Error>((File::from(stdin), Reader::new(OwnedFd::from(stdout))?))
        })();
        let (stdin, output) = match pipes {
            Ok(pipes) => pipes,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                crate::engines::interrupt::end_group(pid);
                crate::engines::interrupt::engine_ended(pid);
                return Err(EngineError::of(
                    Failure::Crash,
                    format!("cannot set up the pipes of '{}': {e}", s.path),
                ));
            }
        };
        let mut p = Process {
            child,
            stdin,
            output,
            declared: Vec::new(),
            options: Vec::new(),
            variant: None,
            variant_rules: None,
            dialect: Dialect::Pikafish,
            variant_option: None,
            traffic: logs.traffic.clone(),
            stderr: logs.stderr.clone(),
        };
        let deadline = Instant::now() + s.init_timeout;
        let limit = Limit::until(deadline);
        p.send("uci\n", limit)?;
        let mut declared = Vec::new();
        let mut options = Vec::new();
        let mut id_name = None;
        p.wait_for(deadline, "uciok", |line| {
            if let Some(name) = line.strip_prefix("id name ") {
                id_name.get_or_insert_with(|| name.to_string());
            }
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest);
                declared.push(name.trim().to_ascii_lowercase());
                options.push(OptionDecl::parse(line));
            }
            line == "uciok"
        })?;
        p.declared = declared;
        p.options = options.into_iter().flatten().collect();
        p.dialect = s
            .dialect
            .unwrap_or_else(|| Dialect::detect(id_name.as_deref().unwrap_or("")));
        p.variant_option = p
            .options
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case("UCI_Variant"))
            .map(|d| {
                if d.kind == "combo" {
                    Declared::Combo(d.vars.clone())
                } else {
                    Declared::Free
                }
            })
            // Declared without a type this client reads: any name may be sent, as before.
            .or_else(|| p.declares("uci_variant").then_some(Declared::Free));
        let mut commands = String::new();
        for (name, value) in &s.options {
            if !p.declares(&name.to_ascii_lowercase()) {
                return Err(EngineError::of(
                    Failure::Protocol,
                    format!(
                        "option '{name}' is not one of the engine's options ({})",
                        p.declared.join(", ")
                    ),
                ));
            }
            if let Some(decl) = p.options.iter().find(|d| d.name.eq_ignore_ascii_case(name)) {
                decl.check(value).map_err(|why| {
                    EngineError::of(Failure::Protocol, format!("option '{name}': {why}"))
                })?;
            }
            commands.push_str(&format!("setoption name {name} value {value}\n"));
        }
        commands.push_str("ucinewgame\nisready\n");
        p.send(&commands, limit)?;
        // An engine that refuses a value says so before `readyok` (jieqi-uci: "setoption
        // refused", Stockfish: "No such option"); playing on would compare the wrong engines.
        let mut refused = None;
        p.wait_for(deadline, "readyok", |line| {
            let lower = line.to_ascii_lowercase();
            if refused.is_none()
                && lower.starts_with("info string")
                && (lower.contains("refused") || lower.contains("no such option"))
            {
                refused = Some(line.to_string());
            }
            line == "readyok"
        })?;
        if let Some(line) = refused {
            return Err(EngineError::of(
                Failure::Protocol,
                format!("the engine refused an option: {line}"),
            ));
        }
        Ok(p)
    }

    /// Sends `text` (whole lines, each ending in a newline) in one write, waiting while the
    /// pipe is full until `limit`.
    fn send(&mut self, text: &str, limit: Limit<'_>) -> Result<(), EngineError> {
        if let Some(t) = &self.traffic {
            for line in text.lines() {
                t(&format!("> {line}"));
            }
        }
        let child = &mut self.child;
        let written = write_all_until(&mut self.stdin, text.as_bytes(), || {
            limit.over() || matches!(child.try_wait(), Ok(Some(_)))
        });
        let first = text.lines().next().unwrap_or("");
        match written {
            Ok(true) => Ok(()),
            Ok(false) => Err(self
                .exited(&format!("exited before reading '{first}'"))
                .unwrap_or_else(|| {
                    EngineError::of(
                        Failure::Timeout,
                        format!("the engine did not read '{first}' within the time limit"),
                    )
                })),
            Err(e) => Err(self.died(&format!("writing '{first}' failed: {e}"))),
        }
    }

    /// The failure for a process that went away, with its exit status if known.
    fn died(&mut self, what: &str) -> EngineError {
        let status = match self.child.try_wait() {
            Ok(Some(st)) => format!(" ({st})"),
            _ => String::new(),
        };
        EngineError::of(
            Failure::Crash,
            format!("the engine process died{status}: {what}"),
        )
    }

    /// Reads lines until `done` accepts one (it sees every line), or the deadline passes.
    fn wait_for(
        &mut self,
        deadline: Instant,
        what: &str,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineError> {
        let mut bytes = 0u64;
        loop {
            // The deadline holds however fast the engine prints: a queued line never delays it.
            let left = deadline.saturating_duration_since(Instant::now());
            let got = if left.is_zero() {
                Err(Recv::Timeout)
            } else {
                match self.output.recv(left.min(EXIT_POLL)) {
                    Err(Recv::Timeout) if !left.saturating_sub(EXIT_POLL).is_zero() => {
                        if let Some(e) = self.exited(&format!("exited while waiting for '{what}'"))
                        {
                            return Err(e);
                        }
                        continue;
                    }
                    other => other,
                }
            };
            match got {
                Ok(line) => {
                    self.log_read(&line);
                    bytes += line.bytes;
                    if let Some(e) = flooded(&line, bytes) {
                        return Err(e);
                    }
                    if done(&line.text) {
                        return Ok(line.text);
                    }
                }
                Err(Recv::Timeout) => {
                    return Err(EngineError::of(
                        Failure::Timeout,
                        format!("no '{what}' within the time limit"),
                    ));
                }
                Err(Recv::Closed) => {
                    // Give the exit status a moment to be known.
                    std::thread::sleep(Duration::from_millis(5));
                    return Err(self.died(&format!("output closed while waiting for '{what}'")));
                }
            }
        }
    }

    /// Starts a new game on a kept process: `ucinewgame`, then `isready` answered in time.
    fn new_game(&mut self, s: &Settings) -> Result<(), EngineError> {
        let deadline = Instant::now() + s.init_timeout;
        self.send("ucinewgame\nisready\n", Limit::until(deadline))?;
        self.wait_for(deadline, "readyok", |line| line == "readyok")
            .map(drop)
    }

    /// Copies a line read to the traffic log.
    fn log_read(&self, line: &Line) {
        if let Some(t) = &self.traffic {
            if line.cut {
                t(&format!("< {} [… {} bytes or more]", line.text, line.bytes));
            } else {
                t(&format!("< {}", line.text));
            }
        }
    }

    fn declares(&self, option: &str) -> bool {
        self.declared.iter().any(|d| d == option)
    }
}

/// How long a process told to `quit` is given before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(300);

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(t) = &self.traffic {
            t("> quit");
        }
        let started = Instant::now();
        // One try: an engine whose pipe is full is not reading, and is killed below.
        let _ = self.stdin.write(b"quit\n");
        let until = started + QUIT_WAIT;
        let mut killed = true;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                killed = false;
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if killed {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        self.end_group();
        // The clean-up's time, apart from any move's: after a failure it runs when the game is
        // over (see `UciEngine::retired`).
        let note = format!(
            "[pid {}] arena: {} in {} ms",
            self.child.id(),
            if killed {
                "did not quit, killed"
            } else {
                "quit"
            },
            started.elapsed().as_millis()
        );
        if let Some(t) = &self.traffic {
            t(&note);
        }
        if let Some(s) = &self.stderr {
            s(&note);
        }
    }
}

impl Process {
    /// Ends what the engine left running in its process group (children it started that
    /// outlive it would hold its pipes open and use the machine).
    fn end_group(&mut self) {
        crate::engines::interrupt::end_group(self.child.id());
        crate::engines::interrupt::engine_ended(self.child.id());
    }

    /// The crash of an engine whose process has exited, though its output may still be open
    /// (a child it started holds it): `None` while it runs.
    fn exited(&mut self, what: &str) -> Option<EngineError> {
        match self.child.try_wait() {
            Ok(Some(_)) => Some(self.died(what)),
            _ => None,
        }
    }
}

/// Healthy processes between games.
type Pool = Arc<Mutex<Vec<Process>>>;

/// An external engine (see the module documentation).
pub struct UciEngine {
    settings: Arc<Settings>,
    pool: Pool,
    process: Option<Process>,
    /// The first failure: every later move of the game fails the same way.
    failed: Option<EngineError>,
    /// The process of a failed move, told to `quit` (and killed if it does not) only when this
    /// engine is dropped: the clean-up (up to [`QUIT_WAIT`] and a kill) is not part of the
    /// failed move's time. Its `stop` was sent at the limit.
    retired: Option<Process>,
    /// Where this game's traffic and the process's error output go.
    logs: Logs,
    /// The last `position` command, extended move by move.
    position: PositionText,
    /// The buffer a move's commands are written into.
    commands: String,
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if let Some(mut p) = self.process.take() {
            if self.failed.is_none() && matches!(p.child.try_wait(), Ok(None)) {
                p.traffic = None;
                self.pool.lock().unwrap_or_else(|e| e.into_inner()).push(p);
            }
        }
    }
}

/// The factory of an external engine: every engine it builds shares one pool of processes.
///
/// # Errors
/// A missing path or a bad key.
pub fn factory(spec: &Spec) -> Result<Factory, SpecError> {
    let settings = Arc::new(Settings::parse(spec)?);
    let pool: Pool = Arc::default();
    Ok(Factory::new(move || {
        Box::new(UciEngine {
            settings: Arc::clone(&settings),
            pool: Arc::clone(&pool),
            process: None,
            failed: None,
            retired: None,
            logs: Logs::default(),
            position: PositionText::default(),
            commands: String::new(),
        })
    }))
}

/// What the handshake of a probe learned about an engine: its dialect and its `UCI_Variant`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The dialect it is spoken to in (its `dialect=`, or detected from its `id name`).
    pub dialect: Dialect,
    /// Its `UCI_Variant` option, if it declares one.
    pub variant_option: Option<Declared>,
}

impl Probe {
    /// Whether the engine can be told `rules` ([`Dialect::variant_for`]).
    ///
    /// # Errors
    /// The rules it cannot play, with the variants it offers.
    pub fn check(&self, rules: &Rules) -> Result<(), String> {
        self.dialect
            .variant_for(self.variant_option.as_ref(), rules)
            .map(drop)
    }
}

/// Starts the engine once and runs the handshake, so that a wrong path or an engine that does
/// not speak UCI is reported before a match starts; what it says of itself is kept for checking
/// the rules ([`Probe::check`]).
///
/// # Errors
/// The spec is bad, or the process cannot start or does not answer `uciok` and `readyok`.
pub fn probe(spec: &Spec) -> Result<Probe, String> {
    let settings = Settings::parse(spec).map_err(|e| e.to_string())?;
    Process::start(&settings, &Logs::default())
        .map(|p| Probe {
            dialect: p.dialect,
            variant_option: p.variant_option.clone(),
        })
        .map_err(|e| format!("engine spec '{spec}': {e}"))
}

/// `position fen START moves …` for the view: the game's start position and the moves as this
/// side saw them, in the engine's dialect. A view without moves (a test position, `arena solve`)
/// is its own start: its FEN, with the JieqiBox captured field when its player has learned
/// hidden identities (never under Xiangqi rules, the only ones a Fairy engine is told).
fn position_command(view: &View, dialect: Dialect) -> String {
    let start = history_start(view);
    let start_fen = if view.history().is_empty() {
        let mut setup = view.position().to_setup();
        let learned = *view.learned();
        if Color::ALL.iter().any(|&c| learned[c].total() > 0) {
            setup.captured_hidden = Some(learned);
            jieqi_core::fen::write(&setup)
        } else {
            view.position().fen()
        }
    } else {
        start.fen()
    };
    let mut cmd = format!("position fen {start_fen}");
    if !view.history().is_empty() {
        cmd.push_str(" moves");
        push_moves(&mut cmd, view.history(), start.turn(), dialect);
    }
    cmd
}

/// The position a view's history starts from: the game's opening, or the rules' start.
fn history_start(view: &View) -> Position {
    view.start_position()
        .cloned()
        .unwrap_or_else(|| Position::start(view.rules()))
}

/// Appends ` MOVE` for each move in the dialect, the first one by `mover`.
fn push_moves(cmd: &mut String, moves: &[PlayedMove], mut mover: Color, dialect: Dialect) {
    for pm in moves {
        cmd.push(' ');
        dialect.push_move(cmd, pm, mover);
        mover = !mover;
    }
}

/// The [`position_command`] of a game's views, each made by extending the last one with the moves
/// played since (a game's history only grows), not by writing the whole game out again.
#[derive(Default)]
struct PositionText {
    /// The rules, first mover and dialect of the moves `text` holds (`None`: a view without
    /// moves, never extended).
    game: Option<(Rules, Color, Dialect)>,
    /// The position those moves start from, when it is not the rules' start (an opening).
    start: Option<Position>,
    history: Vec<PlayedMove>,
    text: String,
}

impl PositionText {
    /// The `position` command for `view` in `dialect`.
    fn of(&mut self, view: &View, dialect: Dialect) -> &str {
        let history = view.history();
        let extends = self
            .game
            .is_some_and(|(rules, _, d)| rules == *view.rules() && d == dialect)
            && self.start.as_ref() == view.start_position()
            && history.starts_with(&self.history);
        match self.game {
            Some((_, first, _)) if extends => {
                let done = self.history.len();
                let mover = if done % 2 == 0 { first } else { !first };
                push_moves(&mut self.text, &history[done..], mover, dialect);
            }
            _ => {
                self.text = position_command(view, dialect);
                self.game = (!history.is_empty())
                    .then(|| (*view.rules(), history_start(view).turn(), dialect));
                self.start = view.start_position().cloned();
            }
        }
        self.history.clear();
        if self.game.is_some() {
            self.history.extend_from_slice(history);
        }
        &self.text
    }
}

/// Appends `go` with the limits to `cmd`: a clock as `wtime btime winc binc [movestogo]` (Red is
/// "white").
fn push_go(cmd: &mut String, limits: &Limits) {
    use std::fmt::Write as _;
    // Writing to a String cannot fail.
    cmd.push_str("go");
    if let Some(c) = limits.clock {
        let ms = |d: Duration| d.as_millis();
        let _ = write!(
            cmd,
            " wtime {} btime {} winc {} binc {}",
            ms(c.remaining[Color::Red]),
            ms(c.remaining[Color::Black]),
            ms(c.increment[Color::Red]),
            ms(c.increment[Color::Black])
        );
        if let Some(m) = c.moves_to_go {
            let _ = write!(cmd, " movestogo {m}");
        }
    }
    if let Some(n) = limits.nodes {
        let _ = write!(cmd, " nodes {n}");
    }
    if let Some(d) = limits.depth {
        let _ = write!(cmd, " depth {d}");
    }
    if let Some(t) = limits.movetime {
        let _ = write!(cmd, " movetime {}", t.as_millis());
    }
    if limits.is_unlimited() {
        cmd.push_str(" movetime 1000");
    }
}

/// The hard limit of a move nobody can stop ([`Control::can_stop`]) and without a `timeout=`:
/// as a game would give (`Player::hard_limit` in `run::game_runner`), the mover's clock or the
/// movetime plus its grace ([`unclocked_limit`]).
fn unstoppable_limit(limits: &Limits, mover: Color) -> Duration {
    match limits.clock {
        Some(c) => c.remaining[mover] + MOVETIME_GRACE,
        None => unclocked_limit(limits.movetime),
    }
}

/// Folds one `info` line into the search info, reading every token by its arity as the UCI
/// protocol defines it: flags without a value (`lowerbound`, `upperbound`), one value (`depth`,
/// `seldepth`, `time`, `nodes`, `nps`, `multipv`, `hashfull`, `tbhits`, `sbhits`, `cpuload`,
/// `currmove`, `currmovenumber`), `score cp|mate X`, `wdl W D L`, move lists (`pv`,
/// `refutation`, `currline`) and `string` to the end of the line. An unknown token is skipped
/// alone, so the reader finds the next known one. Moves are read in the engine's dialect.
fn read_info(line: &str, info: &mut SearchInfo, dialect: Dialect) {
    let as_move = |w: &str| dialect.read_move(w).map(|(m, _)| m);
    let mut words = line.split_whitespace().skip(1).peekable();
    while let Some(word) = words.next() {
        match word {
            "depth" => {
                if let Some(d) = words.next().and_then(|v| v.parse().ok()) {
                    info.depth = Some(d);
                }
            }
            "nodes" => {
                if let Some(n) = words.next().and_then(|v| v.parse().ok()) {
                    info.nodes = n;
                }
            }
            "seldepth" | "time" | "nps" | "multipv" | "hashfull" | "tbhits" | "sbhits"
            | "cpuload" | "currmove" | "currmovenumber" => {
                words.next();
            }
            "score" => {
                let kind = words.next();
                match (kind, words.next().and_then(|v| v.parse::<i32>().ok())) {
                    (Some("cp"), Some(v)) => info.score = Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => info.score = Some(Score::Mate(v)),
                    _ => {}
                }
            }
            "wdl" => {
                words.nth(2);
            }
            "pv" => {
                info.pv.clear();
                while let Some(mv) = words.peek().and_then(|w| as_move(w)) {
                    info.pv.push(mv);
                    words.next();
                }
            }
            "refutation" | "currline" => {
                while words.peek().is_some_and(|w| as_move(w).is_some()) {
                    words.next();
                }
            }
            "string" => return,
            // Bound flags, and unknown tokens (skipped alone).
            _ => {}
        }
    }
}

/// Folds one `info` line of a search into what the move records: the nodes are the most any
/// line reported (the engine's running count: a last line without `nodes`, or a helper thread's
/// smaller count, does not lower it), and the depth, score and principal variation are those of
/// the last completed iteration — a line with a `pv` and no `lowerbound`/`upperbound` — once
/// there is one (before that, of the last line that has them). An iteration in progress
/// (`currmove` lines, aspiration fails) never replaces a completed one. `completed` says whether
/// a completed iteration was seen.
fn fold_info(line: &str, info: &mut SearchInfo, completed: &mut bool, dialect: Dialect) {
    let mut this = SearchInfo::default();
    read_info(line, &mut this, dialect);
    info.nodes = info.nodes.max(this.nodes);
    let bound = line
        .split_whitespace()
        .take_while(|w| *w != "string")
        .any(|w| w == "lowerbound" || w == "upperbound");
    let iteration = !this.pv.is_empty() && !bound;
    if iteration || !*completed {
        if this.depth.is_some() {
            info.depth = this.depth;
        }
        if this.score.is_some() {
            info.score = this.score;
        }
        if !this.pv.is_empty() {
            info.pv = this.pv;
        }
    }
    *completed |= iteration;
}

impl UciEngine {
    /// A process for a new game: a healthy one from the pool (after `ucinewgame` and
    /// `isready`), else a new one.
    fn take_process(&self) -> Result<Process, EngineError> {
        loop {
            let kept = self.pool.lock().unwrap_or_else(|e| e.into_inner()).pop();
            match kept {
                Some(mut p) => {
                    p.traffic = self.logs.traffic.clone();
                    p.stderr = self.logs.stderr.clone();
                    if p.new_game(&self.settings).is_ok() {
                        return Ok(p);
                    }
                    // Dropping it tells it to quit, and kills it if it does not.
                }
                None => return Process::start(&self.settings, &self.logs),
            }
        }
    }

    /// Takes a process for the game if it has none, and sets its variant: the dialect's name
    /// for the rules, which must be one the engine offers ([`Dialect::variant_for`]).
    fn ready(&mut self, rules: &jieqi_core::Rules) -> Result<&mut Process, EngineError> {
        if self.process.is_none() {
            self.process = Some(self.take_process()?);
        }
        let p = self.process.as_mut().expect("taken");
        if p.variant_rules.as_ref() == Some(rules) {
            return Ok(p);
        }
        let variant = p
            .dialect
            .variant_for(p.variant_option.as_ref(), rules)
            .map_err(|why| EngineError::of(Failure::Protocol, why))?;
        if let Some(variant) = variant {
            if p.variant.as_deref() != Some(variant) {
                let limit = Limit::until(Instant::now() + self.settings.init_timeout);
                p.send(
                    &format!("setoption name UCI_Variant value {variant}\n"),
                    limit,
                )?;
                p.variant = Some(variant.to_string());
            }
        }
        p.variant_rules = Some(*rules);
        Ok(p)
    }

    fn play(
        &mut self,
        view: &View,
        limits: &Limits,
        seed: u64,
        control: &Control<'_>,
    ) -> Result<Choice, EngineError> {
        let timeout = self.settings.timeout;
        let p = self.ready(view.rules())?;
        let (seeded, dialect) = (p.declares("seed"), p.dialect);
        // The move's commands in one write: the engine wakes once. (The buffer is kept for its
        // capacity.)
        let mut commands = std::mem::take(&mut self.commands);
        commands.clear();
        if seeded {
            let _ = std::fmt::Write::write_fmt(
                &mut commands,
                format_args!("setoption name Seed value {seed}\n"),
            );
        }
        commands.push_str(self.position.of(view, dialect));
        commands.push('\n');
        push_go(&mut commands, limits);
        // A restricted root (`arena analyze` scoring the move played): `searchmoves` last, as
        // UCI has it, in the engine's square dialect.
        if !control.searchmoves().is_empty() {
            commands.push_str(" searchmoves");
            for &mv in control.searchmoves() {
                commands.push(' ');
                dialect.push_square(&mut commands, mv.from);
                dialect.push_square(&mut commands, mv.to);
            }
        }
        commands.push('\n');
        let p = self.process.as_mut().expect("made ready above");
        let started = Instant::now();
        // Its own `timeout=`; without one, a caller that cannot stop it (`Engine::go`, `arena
        // bench`) gets the limit a game would have given, so no wait is unbounded.
        let timeout = timeout.or_else(|| {
            (!control.can_stop()).then(|| unstoppable_limit(limits, view.position().turn()))
        });
        let deadline = timeout.map(|t| started + t);
        let sent = p.send(
            &commands,
            Limit {
                deadline,
                control: Some(control),
            },
        );
        self.commands = commands;
        sent?;
        let mut info = SearchInfo::default();
        let line = p.wait_bestmove(deadline, control, &mut info)?;
        let word = line.split_whitespace().nth(1).unwrap_or("");
        // The squares in the engine's dialect, then at most the two letters of a reveal and a
        // capture.
        let mv = dialect
            .read_move(word)
            .filter(|(_, rest)| rest.len() <= 2)
            .map(|(mv, _)| mv)
            .ok_or_else(|| {
                EngineError::of(Failure::Protocol, format!("malformed answer '{line}'"))
            })?;
        if info.pv.first() != Some(&mv) {
            info.pv = vec![mv];
        }
        Ok(Choice { mv, info })
    }
}

/// How often a process waiting for `bestmove` looks at its stop flag.
const POLL: Duration = Duration::from_millis(5);

/// How often a wait for an answer checks that the engine's process is still alive.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// The longest line kept from an engine, in bytes (a longer one is cut and fails the move).
pub const MAX_LINE: usize = 64 * 1024;

/// The most read from an engine's output at once, in bytes.
const READ_CHUNK: usize = 64 * 1024;

/// The most of an engine's output held unread, in bytes: a partial line (shorter than
/// [`MAX_LINE`], or it is cut) and one read. Past it the engine waits on its pipe.
pub const READ_BUFFER: usize = MAX_LINE + READ_CHUNK;

/// The most an engine may print for one move, in bytes: past it the move fails as a protocol
/// error (a flood of `info` lines is not an answer).
pub const MAX_MOVE_BYTES: u64 = 16 * 1024 * 1024;

/// The protocol error of a line too long, or of output past [`MAX_MOVE_BYTES`] (`bytes` so far
/// while waiting for one answer).
fn flooded(line: &Line, bytes: u64) -> Option<EngineError> {
    if line.cut {
        Some(EngineError::of(
            Failure::Protocol,
            format!(
                "a line of {} bytes or more (more than {MAX_LINE})",
                line.bytes
            ),
        ))
    } else if bytes > MAX_MOVE_BYTES {
        Some(EngineError::of(
            Failure::Protocol,
            format!("more than {MAX_MOVE_BYTES} bytes of output without an answer"),
        ))
    } else {
        None
    }
}

/// An `option name … type …` declaration of an engine.
#[derive(Clone, Debug, PartialEq)]
struct OptionDecl {
    name: String,
    kind: String,
    min: Option<i64>,
    max: Option<i64>,
    vars: Vec<String>,
}

impl OptionDecl {
    /// Reads `option name NAME type KIND [default D] [min X] [max Y] [var V]…` (names and values
    /// may hold spaces); `None` without a type.
    fn parse(line: &str) -> Option<OptionDecl> {
        let rest = line.strip_prefix("option name ")?;
        let (name, tail) = rest.split_once(" type ")?;
        let words: Vec<&str> = tail.split_whitespace().collect();
        let kind = words.first()?.to_ascii_lowercase();
        let keys = ["default", "min", "max", "var"];
        let mut d = OptionDecl {
            name: name.trim().to_string(),
            kind,
            min: None,
            max: None,
            vars: Vec::new(),
        };
        let mut i = 1;
        while i < words.len() {
            let key = words[i];
            let mut j = i + 1;
            while j < words.len() && !keys.contains(&words[j]) {
                j += 1;
            }
            let value = words[i + 1..j].join(" ");
            match key {
                "min" => d.min = value.parse().ok(),
                "max" => d.max = value.parse().ok(),
                "var" => d.vars.push(value),
                _ => {}
            }
            i = j;
        }
        Some(d)
    }

    /// Whether `value` is one this option takes: a whole number in a spin's range, one of a
    /// combo's values, `true`/`false` for a check; anything for a string or button.
    fn check(&self, value: &str) -> Result<(), String> {
        match self.kind.as_str() {
            "spin" => {
                let v: i64 = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("'{value}' is not a whole number (a spin option)"))?;
                let (lo, hi) = (self.min.unwrap_or(i64::MIN), self.max.unwrap_or(i64::MAX));
                if v < lo || v > hi {
                    return Err(format!("{v} is outside the engine's range {lo}..{hi}"));
                }
                Ok(())
            }
            "combo"
                if !self
                    .vars
                    .iter()
                    .any(|v| v.eq_ignore_ascii_case(value.trim())) =>
            {
                Err(format!(
                    "'{value}' is not one of the engine's values ({})",
                    self.vars.join(", ")
                ))
            }
            "check" if !matches!(value.trim(), "true" | "false") => {
                Err(format!("'{value}' is not true or false (a check option)"))
            }
            _ => Ok(()),
        }
    }
}

/// Reads one line of at most `max` bytes into `buf` (cleared first), skipping the rest of a
/// longer line up to its newline. Returns the bytes skipped, or `None` at the end of the output.
fn read_capped_line(r: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> Option<u64> {
    buf.clear();
    match r.take(max as u64).read_until(b'\n', buf) {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    let mut cut = 0u64;
    if buf.last() != Some(&b'\n') && buf.len() >= max {
        let mut rest = Vec::new();
        loop {
            rest.clear();
            match r.take(max as u64).read_until(b'\n', &mut rest) {
                Ok(0) | Err(_) => break,
                Ok(n) => cut += n as u64,
            }
            if rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    Some(cut)
}

/// One line of an engine's output.
struct Line {
    /// The line, trimmed (its first [`MAX_LINE`] bytes).
    text: String,
    /// Bytes it took on the pipe, newline included; for a cut line, the bytes of it seen when it
    /// was cut.
    bytes: u64,
    /// Whether it was longer than [`MAX_LINE`].
    cut: bool,
}

impl Line {
    fn new(bytes: &[u8], cut: bool, seen: usize) -> Line {
        Line {
            text: String::from_utf8_lossy(bytes).trim().to_string(),
            bytes: seen as u64,
            cut,
        }
    }
}

/// Why [`Reader::recv`] has no line.
#[derive(Debug, PartialEq)]
enum Recv {
    /// None came in time.
    Timeout,
    /// The output is closed and every line of it was handed out.
    Closed,
}

/// An engine's output, read on the caller's thread: `poll(2)` waits for it up to a deadline. It
/// holds at most [`READ_BUFFER`] bytes: what is left of the last read, of which the unfinished
/// line is shorter than [`MAX_LINE`] (a longer one is handed out cut and the rest of it skipped).
struct Reader {
    pipe: File,
    buf: Box<[u8]>,
    /// The bytes read and not handed out are `buf[start..end]`.
    start: usize,
    end: usize,
    /// `buf[start..start + scanned]` holds no newline.
    scanned: usize,
    /// The rest of a cut line is being skipped.
    skipping: bool,
    /// The pipe reached its end (or failed).
    closed: bool,
}

impl Reader {
    /// Reads `pipe`, which it makes non-blocking.
    fn new(pipe: OwnedFd) -> std::io::Result<Reader> {
        set_nonblocking(pipe.as_fd())?;
        Ok(Reader {
            pipe: File::from(pipe),
            buf: vec![0; READ_BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            scanned: 0,
            skipping: false,
            closed: false,
        })
    }

    /// The next line, waiting at most `timeout` for it.
    fn recv(&mut self, timeout: Duration) -> Result<Line, Recv> {
        let mut until = None;
        loop {
            if let Some(line) = self.take_line() {
                return Ok(line);
            }
            if self.closed {
                return Err(Recv::Closed);
            }
            let left = match until {
                None => {
                    until = Some(Instant::now() + timeout);
                    timeout
                }
                Some(until) => until.saturating_duration_since(Instant::now()),
            };
            if !wait_fd(self.pipe.as_fd(), libc::POLLIN, left) {
                return Err(Recv::Timeout);
            }
            self.fill();
        }
    }

    /// A whole line from the bytes read, if there is one (or a cut one, or the last one at the
    /// end of the output).
    fn take_line(&mut self) -> Option<Line> {
        loop {
            let pending = &self.buf[self.start..self.end];
            let newline = pending[self.scanned..]
                .iter()
                .position(|&b| b == b'\n')
                .map(|i| self.scanned + i);
            if self.skipping {
                match newline {
                    Some(i) => {
                        self.consume(i + 1);
                        self.skipping = false;
                        continue;
                    }
                    None => {
                        self.consume(pending.len());
                        return None;
                    }
                }
            }
            let line = match newline {
                // Cut, as a line that reaches MAX_LINE before its newline is.
                Some(i) if i >= MAX_LINE => Line::new(&pending[..MAX_LINE], true, i + 1),
                Some(i) => Line::new(&pending[..i + 1], false, i + 1),
                None if pending.len() >= MAX_LINE => {
                    let line = Line::new(&pending[..MAX_LINE], true, pending.len());
                    self.skipping = true;
                    self.consume(pending.len());
                    return Some(line);
                }
                None if self.closed && !pending.is_empty() => {
                    Line::new(pending, false, pending.len())
                }
                None => {
                    self.scanned = pending.len();
                    return None;
                }
            };
            self.consume(line.bytes as usize);
            return Some(line);
        }
    }

    /// Drops `n` bytes from the front of what was read.
    fn consume(&mut self, n: usize) {
        self.start += n;
        self.scanned = 0;
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        }
    }

    /// One read of what the pipe holds (nothing if it holds nothing yet).
    fn fill(&mut self) {
        if self.buf.len() - self.end < READ_CHUNK {
            // What is left is an unfinished line shorter than MAX_LINE: move it to the front.
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        loop {
            match self.pipe.read(&mut self.buf[self.end..]) {
                Ok(0) => self.closed = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => self.closed = true,
            }
            return;
        }
    }
}

/// When a write or a wait gives up: at a deadline, or when the harness's stop flag is set.
#[derive(Clone, Copy)]
struct Limit<'a> {
    deadline: Option<Instant>,
    control: Option<&'a Control<'a>>,
}

impl Limit<'_> {
    fn until(deadline: Instant) -> Limit<'static> {
        Limit {
            deadline: Some(deadline),
            control: None,
        }
    }

    fn over(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.control.is_some_and(Control::stopped)
    }
}

/// Writes all of `bytes` to the non-blocking `pipe`; while it is full, waits for room in
/// [`POLL`] slices and gives up when `give_up` says so. `Ok(false)`: given up.
fn write_all_until(
    pipe: &mut File,
    bytes: &[u8],
    mut give_up: impl FnMut() -> bool,
) -> std::io::Result<bool> {
    let mut done = 0;
    while done < bytes.len() {
        match pipe.write(&bytes[done..]) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => done += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                if give_up() {
                    return Ok(false);
                }
                wait_fd(pipe.as_fd(), libc::POLLOUT, POLL);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

impl Process {
    /// Waits for `bestmove`, folding `info` lines into `info` and passing each one with a `pv`
    /// to `control`'s reporter. At `deadline` (its own
    /// `timeout=`) or when `control` says stop (the harness's hard limit) it sends `stop` and
    /// fails with [`Failure::Timeout`]; the process is then of no further use.
    fn wait_bestmove(
        &mut self,
        deadline: Option<Instant>,
        control: &Control<'_>,
        info: &mut SearchInfo,
    ) -> Result<String, EngineError> {
        let mut bytes = 0u64;
        let mut completed = false;
        loop {
            let late = deadline.is_some_and(|d| Instant::now() >= d);
            if late || control.stopped() {
                // One try: an engine that does not read is given up all the same.
                let _ = self.send("stop\n", Limit::until(Instant::now()));
                return Err(EngineError::of(
                    Failure::Timeout,
                    if late {
                        "no 'bestmove' within its timeout".to_string()
                    } else {
                        "no 'bestmove' within the hard time limit".to_string()
                    },
                ));
            }
            // Woken by the output at once, else every POLL (or at the deadline) to look at the
            // stop flag and the process.
            let slice = deadline.map_or(POLL, |d| {
                d.saturating_duration_since(Instant::now()).min(POLL)
            });
            match self.output.recv(slice) {
                Ok(line) => {
                    self.log_read(&line);
                    bytes += line.bytes;
                    if let Some(e) = flooded(&line, bytes) {
                        let _ = self.send("stop\n", Limit::until(Instant::now()));
                        return Err(e);
                    }
                    if line.text.starts_with("bestmove") {
                        return Ok(line.text);
                    }
                    if line.text.starts_with("info ") {
                        fold_info(&line.text, info, &mut completed, self.dialect);
                        // A line with a principal variation is a progress report (`arena
                        // solve` times answers by them).
                        if line.text.contains(" pv ") {
                            control.report(|| info.clone());
                        }
                    }
                }
                Err(Recv::Timeout) => {
                    if let Some(e) = self.exited("exited while waiting for 'bestmove'") {
                        return Err(e);
                    }
                }
                Err(Recv::Closed) => {
                    // Give the exit status a moment to be known.
                    std::thread::sleep(Duration::from_millis(5));
                    return Err(self.died("output closed while waiting for 'bestmove'"));
                }
            }
        }
    }
}

impl Engine for UciEngine {
    fn search(
        &mut self,
        view: &View,
        limits: &Limits,
        seed: u64,
        control: &Control<'_>,
    ) -> Result<Choice, EngineError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        debug_assert!(
            !view.is_omniscient(),
            "omniscient views are refused at planning"
        );
        let result = self.play(view, limits, seed, control);
        if let Err(e) = &result {
            // The process is of no further use; it is ended when this engine is dropped, after
            // the move's time was taken.
            self.failed = Some(e.clone());
            self.retired = self.process.take();
        }
        result
    }

    fn set_logs(&mut self, logs: Logs) {
        self.logs = logs;
    }

    /// It waits for the process in slices and gives up when told to stop.
    fn stops_on_request(&self) -> bool {
        true
    }

    /// Starts the process (or takes one from the pool) before the game's clock runs.
    fn prepare(&mut self, rules: &jieqi_core::Rules) -> Result<(), EngineError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let result = self.ready(rules).map(drop);
        if let Err(e) = &result {
            self.failed = Some(e.clone());
            self.process = None;
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::Move;

    #[test]
    fn option_declarations_check_values() {
        let spin =
            OptionDecl::parse("option name Hash type spin default 16 min 1 max 33554432").unwrap();
        assert_eq!((spin.min, spin.max), (Some(1), Some(33_554_432)));
        assert!(spin.check("64").is_ok());
        assert!(spin.check("0").unwrap_err().contains("outside"));
        assert!(spin.check("lots").is_err());
        let combo = OptionDecl::parse(
            "option name Engine type combo default alphabeta var alphabeta var ismcts var flat uct",
        )
        .unwrap();
        assert_eq!(combo.name, "Engine");
        assert_eq!(combo.vars, ["alphabeta", "ismcts", "flat uct"]);
        assert!(combo.check("ISMCTS").is_ok());
        assert!(combo.check("flat uct").is_ok());
        let e = combo.check("ismsct").unwrap_err();
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
        let s = Settings::parse(&Spec::parse("uci:path=x,option.Hash=64,timeout=500").unwrap())
            .unwrap();
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
        let fresh =
            jieqi_core::Game::new(rules, crate::records::deal_seed::deal_for_seed(4, &rules));
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
        assert_eq!(r.recv(Duration::from_millis(20)).err(), Some(Recv::Timeout));
        assert!(t.elapsed() >= Duration::from_millis(20));
        w.write_all(b"info depth 1\nbest").unwrap();
        let line = r.recv(Duration::from_secs(5)).unwrap();
        assert_eq!(
            (line.text.as_str(), line.bytes, line.cut),
            ("info depth 1", 13, false)
        );
        // Half a line is not a line.
        assert_eq!(r.recv(Duration::from_millis(5)).err(), Some(Recv::Timeout));
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
        assert_eq!(r.recv(Duration::from_secs(5)).err(), Some(Recv::Closed));
        assert_eq!(r.recv(Duration::ZERO).err(), Some(Recv::Closed));
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
}
