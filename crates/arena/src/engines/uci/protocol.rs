//! The UCI dialogue with a process: the handshake (`uci`, the spec's options, `ucinewgame`,
//! `isready`), a new game on a kept process, a move's `position` and `go` commands, and the wait
//! for its `bestmove`.

use std::time::{Duration, Instant};

use super::Settings;
use super::info::fold_info;
use super::options::OptionDecl;
use super::process::{Limit, POLL, Process, wait_failed};
use super::reader::{Recv, flooded};
use crate::engines::dialect::{Declared, Dialect};
use crate::engines::time_control::{MOVETIME_GRACE, unclocked_limit};
use jieqi_core::{Color, PlayedMove, Position, Rules, View};
use jieqi_engine::{Control, EngineError, Failure, Limits, Logs, SearchInfo};

impl Process {
    /// Starts the process and runs the handshake. Its error output goes to `logs.stderr` (read
    /// and dropped without one), the handshake to `logs.traffic`.
    pub(super) fn start(s: &Settings, logs: &Logs) -> Result<Process, EngineError> {
        let mut p = Process::spawn(s, logs)?;
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

    /// Starts a new game on a kept process: `ucinewgame`, then `isready` answered in time.
    pub(super) fn new_game(&mut self, s: &Settings) -> Result<(), EngineError> {
        let deadline = Instant::now() + s.init_timeout;
        self.send("ucinewgame\nisready\n", Limit::until(deadline))?;
        self.wait_for(deadline, "readyok", |line| line == "readyok")
            .map(drop)
    }
}

/// `position fen START moves …` for the view: the game's start position and the moves as this
/// side saw them, in the engine's dialect. A view without moves (a test position, `arena solve`)
/// is its own start: its FEN, with the JieqiBox captured field when its player has learned
/// hidden identities (never under Xiangqi rules, the only ones a Fairy engine is told).
pub(super) fn position_command(view: &View, dialect: Dialect) -> String {
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
pub(super) struct PositionText {
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
    pub(super) fn of(&mut self, view: &View, dialect: Dialect) -> &str {
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
pub(super) fn push_go(cmd: &mut String, limits: &Limits) {
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
pub(super) fn unstoppable_limit(limits: &Limits, mover: Color) -> Duration {
    match limits.clock {
        Some(c) => c.remaining[mover] + MOVETIME_GRACE,
        None => unclocked_limit(limits.movetime),
    }
}

impl Process {
    /// Waits for `bestmove`, folding `info` lines into `info` and passing each one with a `pv`
    /// to `control`'s reporter. At `deadline` (its own
    /// `timeout=`) or when `control` says stop (the harness's hard limit) it sends `stop` and
    /// fails with [`Failure::Timeout`]; the process is then of no further use.
    pub(super) fn wait_bestmove(
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
                Err(Recv::Failed(e)) => return Err(wait_failed("bestmove", &e)),
            }
        }
    }
}
