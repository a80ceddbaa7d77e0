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
//!
//! Here: the spec's keys, the engine and its pool of processes, and the probe of `--engine`. The
//! process (start, writes, waits, quit and kill) is `process`'s, its output `reader`'s, the
//! UCI dialogue `protocol`'s, `info` lines `info`'s and option declarations `options`'s.

mod info;
mod options;
mod process;
mod protocol;
mod reader;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::engines::dialect::{self, Declared, Dialect, VariantError};
use crate::engines::time_control::MAX_MOVE_MS;
use jieqi_core::{Rules, View};
use jieqi_engine::{
    Choice, Control, Engine, EngineError, Factory, Failure, Limits, Logs, SearchInfo, Spec,
    SpecError,
};
use process::{Limit, Process};
use protocol::{PositionText, push_go, unstoppable_limit};
pub use reader::{MAX_LINE, MAX_MOVE_BYTES, READ_BUFFER};

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
                dialect::KEY => {
                    s.dialect = Some(Dialect::parse(v).map_err(|e| err(e.to_string()))?)
                }
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
    /// engine is dropped: the clean-up (up to [`process::QUIT_WAIT`] and a kill) is not part of the
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
    pub fn check(&self, rules: &Rules) -> Result<(), VariantError> {
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
pub fn probe(spec: &Spec) -> Result<Probe, ProbeError> {
    let settings = Settings::parse(spec).map_err(ProbeError::Spec)?;
    Process::start(&settings, &Logs::default())
        .map(|p| Probe {
            dialect: p.dialect,
            variant_option: p.variant_option.clone(),
        })
        .map_err(|error| ProbeError::Start {
            spec: spec.to_string(),
            error,
        })
}

/// Why a [`probe`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// The spec is bad.
    Spec(SpecError),
    /// The process did not start, or failed its handshake.
    Start {
        /// The spec, as it reads back.
        spec: String,
        /// How it failed.
        error: EngineError,
    },
}

impl std::fmt::Display for ProbeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProbeError::Spec(e) => write!(f, "{e}"),
            ProbeError::Start { spec, error } => write!(f, "engine spec '{spec}': {error}"),
        }
    }
}

impl std::error::Error for ProbeError {}

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
            .map_err(|why| EngineError::of(Failure::Protocol, why.to_string()))?;
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
mod tests;
