//! Plays one game between two engines under the referee, from a deal seed, with clocks and hard
//! time limits.
//!
//! Seeds: the deal comes from [`crate::records::deal_seed::deal_for_seed`]`(deal_seed)`. The engine playing colour `c`
//! gets the stream seed [`engine_seed`]`(deal_seed, c)` and, for the move at ply `k`,
//! `mix(engine_seed, k)`. Both games of a pair share the deal seed, so each engine meets the same
//! deal and the same per-colour seeds with each colour.
//!
//! Time: under a clock ([`TimeControl`]) each side's clock runs while its engine thinks; a move
//! that takes longer than the time left plus the margin loses on time (`time-forfeit`). Every move
//! also has a hard limit ([`Player::hard_limit`]): at that instant the engine's stop flag is set
//! ([`Alarm`]), an engine that answers late loses (`timeout`, or `time-forfeit` under a clock), and
//! one that ignores the flag and never returns is not waited for, if it runs on a thread of its
//! own (engines that do not promise to stop, [`jieqi_engine::Engine::stops_on_request`]).

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use jieqi_core::{ByColor, Color, Game, Move, PlayedMove, Record, Rules, View};
use jieqi_engine::{Choice, Clock, Control, Engine, EngineError, Failure, Limits, SearchInfo, mix};

use crate::engines::EngineEntry;
use crate::engines::time_control::{GameClock, Punch, TimeControl};
use crate::records::termination::{ReasonKey, Termination};
use crate::records::{DealText, GameLine, GameResult, PlyInfo, Sides};
use crate::run::alarm::Alarm;

/// The seed of the random stream of the engine playing `color` in the game dealt by `deal_seed`.
pub const fn engine_seed(deal_seed: u64, color: Color) -> u64 {
    mix(deal_seed, 1 + color as u64)
}

pub use crate::engines::time_control::{MOVETIME_GRACE, NO_TIME_LIMIT_TIMEOUT};

/// How long a harness waits, past the hard limit, for an engine on its own thread to return
/// after its stop flag was set, before it gives the engine up.
pub const RUNAWAY_GRACE: Duration = Duration::from_millis(100);

/// One side of a game: its engine and everything that limits it.
#[derive(Clone, Debug)]
pub struct Player<'a> {
    /// The engine.
    pub engine: &'a EngineEntry,
    /// Node, depth and movetime limits for every move (the clock is added per move).
    pub limits: Limits,
    /// Its clock's time control, if it plays on a clock.
    pub tc: Option<TimeControl>,
    /// `--move-timeout`: a move taking longer loses (`timeout`).
    pub move_timeout: Option<Duration>,
    /// Whether it sees every hidden piece (leak measurement only).
    pub omniscient: bool,
}

impl Player<'_> {
    /// The limits it plays under — its own where its spec sets them, the run's otherwise — as a
    /// spec writes them: `tc=5+0.05,nodes=500`, or `engine defaults` when there are none.
    pub fn limits_text(&self) -> String {
        crate::engines::EngineLimits {
            tc: self.tc,
            movetime: self.limits.movetime,
            nodes: self.limits.nodes,
            depth: self.limits.depth,
        }
        .to_string()
    }

    /// The per-move hard limit outside the clock: an external engine's own `timeout=` if its
    /// spec sets one (longer or shorter than the run's); else `--move-timeout` if given; else,
    /// without a clock, the movetime plus [`MOVETIME_GRACE`], or [`NO_TIME_LIMIT_TIMEOUT`] with
    /// no time limit at all; under a clock, none (the clock is the limit). In-process and
    /// external engines get the same limits.
    pub fn hard_limit(&self) -> Option<Duration> {
        let run = self.move_timeout.or(match self.tc {
            Some(_) => None,
            None => Some(crate::engines::time_control::unclocked_limit(
                self.limits.movetime,
            )),
        });
        self.engine.own_timeout().or(run)
    }
}

/// Everything that determines a game.
#[derive(Clone, Debug)]
pub struct GameSpec<'a> {
    /// Rules.
    pub rules: &'a Rules,
    /// The deal seed (see the module docs).
    pub deal_seed: u64,
    /// The opening the game starts from (a book position), `None` for the rules' start: its
    /// hidden pieces are dealt from the deal seed ([`crate::records::openings::start_game`]).
    pub opening: Option<&'a jieqi_core::Position>,
    /// Red and Black.
    pub players: ByColor<Player<'a>>,
    /// Plies after which the game is adjudicated a draw.
    pub max_plies: u32,
    /// `--resign` and `--draw`: when the engines' scores end the game.
    pub adjudication: crate::records::adjudication::Adjudication,
    /// `--timemargin`: how far past its clock a move may go before it loses on time.
    pub timemargin: Duration,
    /// Where each side's external engine logs its error output and traffic (see
    /// [`crate::engines::logs`]); the default drops them.
    pub logs: ByColor<jieqi_engine::Logs>,
    /// When this flag goes up the game is abandoned ([`PlayedGame::abandoned`]): before a move,
    /// or during one, which it stops at once (the answer is dropped, whatever it was).
    pub stop: Option<&'a Arc<AtomicBool>>,
}

/// One ply as recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    /// Who moved.
    pub mover: Color,
    /// The move with its true reveal and captured identities.
    pub played: PlayedMove,
    /// What the engine said about its search.
    pub info: SearchInfo,
    /// Milliseconds the engine took.
    pub ms: f64,
}

impl Ply {
    /// The move text with its identities (`h2h9Rn`).
    pub fn text(&self) -> String {
        self.played.to_text(self.mover)
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The deal, as records write it ([`crate::records::openings::deal_text`]).
    pub deal: DealText,
    /// The opening's FEN, for a game from a book position.
    pub opening: Option<String>,
    /// Every ply.
    pub plies: Vec<Ply>,
    /// Winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub termination: Termination,
    /// Detail for engine failures (the panic message, the illegal move…).
    pub detail: Option<String>,
    /// Captures made.
    pub captures: u32,
    /// Reveals made.
    pub reveals: u32,
    /// Nodes per side.
    pub nodes: ByColor<u64>,
    /// Milliseconds spent inside each side's engine.
    pub engine_ms: ByColor<f64>,
    /// Milliseconds for the whole game, harness included.
    pub total_ms: f64,
    /// The game was stopped from outside ([`GameSpec::stop`]) before it ended: not a result.
    pub abandoned: bool,
}

/// Called after every ply with the game, the record, the engine's choice and the milliseconds it
/// took.
pub type Observer<'o> = &'o mut dyn FnMut(&Game, &Record, &Choice, f64);

thread_local! {
    static IN_ENGINE: Cell<bool> = const { Cell::new(false) };
    static PANIC_MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once) a panic hook that keeps engine panics quiet and remembers their message; other
/// panics go to the previous hook.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_ENGINE.with(Cell::get) {
                let payload = info.payload();
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".to_string());
                let location = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                PANIC_MESSAGE.with(|m| *m.borrow_mut() = Some(format!("{msg}{location}")));
            } else {
                previous(info);
            }
        }));
    });
}

/// What one engine call came to.
enum Answer {
    /// It returned (late or not).
    Returned(Result<Choice, EngineError>),
    /// It panicked, with this message.
    Panicked(String),
    /// It ran on its own thread and did not return within the hard limit and the grace: it is
    /// given up.
    Abandoned,
}

/// Calls the engine with the alarm armed for `hard`. An engine that promises to stop runs
/// inline; any other runs on a thread of its own and is given up [`RUNAWAY_GRACE`] past the hard
/// limit. The engine slot is emptied when the engine is given up.
#[allow(clippy::too_many_arguments)]
fn call_engine(
    slot: &mut Option<Box<dyn Engine>>,
    view: &View,
    limits: &Limits,
    seed: u64,
    alarm: &Alarm,
    hard: Duration,
    report: Option<&Reporter>,
    searchmoves: &[Move],
) -> Answer {
    alarm.arm(Instant::now() + hard);
    let answer = match slot.take() {
        None => Answer::Abandoned,
        Some(mut engine) if engine.stops_on_request() => {
            let flag = alarm.stop_flag();
            let control = control_of(flag).with_searchmoves(searchmoves);
            let answer = answer(guarded(|| match report {
                Some(r) => engine.search(view, limits, seed, &control.with_report(&**r)),
                None => engine.search(view, limits, seed, &control),
            }));
            *slot = Some(engine);
            answer
        }
        Some(mut engine) => {
            let (tx, rx) = mpsc::channel();
            let view = view.clone();
            let limits = *limits;
            let flag = alarm.flag();
            let report = report.cloned();
            let searchmoves = searchmoves.to_vec();
            let spawned = std::thread::Builder::new()
                .name("arena-engine".into())
                .spawn(move || {
                    let control = control_of(&flag).with_searchmoves(&searchmoves);
                    let answer = answer(guarded(|| match &report {
                        Some(r) => engine.search(&view, &limits, seed, &control.with_report(&**r)),
                        None => engine.search(&view, &limits, seed, &control),
                    }));
                    let _ = tx.send((engine, answer));
                });
            match spawned {
                Err(e) => Answer::Returned(Err(EngineError::new(format!(
                    "cannot start a thread for the engine: {e}"
                )))),
                Ok(_) => match rx.recv_timeout(hard.saturating_add(RUNAWAY_GRACE)) {
                    Ok((engine, answer)) => {
                        *slot = Some(engine);
                        answer
                    }
                    Err(_) => Answer::Abandoned,
                },
            }
        }
    };
    alarm.disarm();
    answer
}

/// Where a search's interim info goes (after each completed depth, say), from any thread.
pub type Reporter = std::sync::Arc<dyn Fn(&SearchInfo) + Send + Sync>;

/// Asks a fresh engine of `entry` for one move in `view` under the hard limit `hard`, as a game
/// would (prepared for the view's rules first; run inline or on a thread of its own; given up
/// [`RUNAWAY_GRACE`] past the limit), passing its interim search info to `report`; with
/// `searchmoves`, only those root moves are searched (`go searchmoves`).
///
/// # Errors
/// What went wrong, for people: the engine could not be prepared, failed, panicked, or did not
/// answer in time.
pub fn search_once(
    entry: &EngineEntry,
    view: &View,
    limits: &Limits,
    seed: u64,
    hard: Duration,
    report: &Reporter,
    searchmoves: &[Move],
) -> Result<Choice, String> {
    let mut engine = entry.build();
    match guarded(|| engine.prepare(view.rules())) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(format!("{} ({:?})", e.message, e.failure)),
        Err(msg) => return Err(format!("panicked while preparing: {msg}")),
    }
    let alarm = Alarm::new();
    let mut slot = Some(engine);
    match call_engine(
        &mut slot,
        view,
        limits,
        seed,
        &alarm,
        hard,
        Some(report),
        searchmoves,
    ) {
        Answer::Returned(Ok(choice)) if alarm.rang() => Err(format!(
            "answered {} only after the hard limit of {} ms",
            choice.mv,
            hard.as_millis()
        )),
        Answer::Returned(Ok(choice)) => Ok(choice),
        Answer::Returned(Err(e)) => Err(format!("{} ({:?})", e.message, e.failure)),
        Answer::Panicked(msg) => Err(format!("panicked: {msg}")),
        Answer::Abandoned => Err(format!(
            "did not answer within the hard limit of {} ms",
            hard.as_millis()
        )),
    }
}

/// The termination of an engine failure.
fn termination_of(f: Failure) -> Termination {
    match f {
        Failure::Error => Termination::EngineError,
        Failure::Crash => Termination::EngineCrash,
        Failure::Timeout => Termination::Timeout,
        Failure::Protocol => Termination::ProtocolError,
    }
}

fn control_of(flag: &AtomicBool) -> Control<'_> {
    Control::default().with_stop(flag)
}

/// Runs an engine call; a panic becomes `Err` with its message.
/// Whether the game was asked to stop from outside: its watch's stop flag ([`GameSpec::stop`]),
/// or an interruption of the process ([`crate::util::interrupt::requested`]; its external
/// engines are ended then, so what they answered is no result either).
fn stop_asked(spec: &GameSpec<'_>) -> bool {
    crate::util::interrupt::requested()
        || spec
            .stop
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
}

fn guarded<T>(call: impl FnOnce() -> T) -> Result<T, String> {
    install_panic_hook();
    IN_ENGINE.with(|f| f.set(true));
    let result = catch_unwind(AssertUnwindSafe(call));
    IN_ENGINE.with(|f| f.set(false));
    result.map_err(|_| {
        PANIC_MESSAGE
            .with(|m| m.borrow_mut().take())
            .unwrap_or_default()
    })
}

/// A guarded search as an [`Answer`].
fn answer(result: Result<Result<Choice, EngineError>, String>) -> Answer {
    match result {
        Ok(r) => Answer::Returned(r),
        Err(msg) => Answer::Panicked(msg),
    }
}

/// Plays the game `spec` describes. Engine failures (panic, error, illegal move, timeout) and
/// running out of time lose the game for that side; they never stop the caller.
pub fn play_game(spec: &GameSpec<'_>, mut observer: Option<Observer<'_>>) -> PlayedGame {
    let started = Instant::now();
    let mut game = crate::records::openings::start_game(spec.deal_seed, spec.rules, spec.opening);
    let deal = crate::records::openings::deal_text(&game);
    let players = &spec.players;
    let mut engines: ByColor<Option<Box<dyn Engine>>> = ByColor::new_with(|c| {
        let mut engine = players[c].engine.build();
        engine.set_logs(spec.logs[c].clone());
        Some(engine)
    });
    let mut clocks: ByColor<Option<GameClock>> =
        ByColor::new_with(|c| players[c].tc.map(GameClock::new));
    let mut views: ByColor<View> = ByColor::new_with(|c| {
        if players[c].omniscient {
            game.omniscient_view(c)
        } else {
            game.view(c)
        }
    });
    let seeds = ByColor::new_with(|c| engine_seed(spec.deal_seed, c));
    let mut adjudicator = crate::records::adjudication::Tracker::new(spec.adjudication);
    let alarm = match spec.stop {
        Some(stop) => Alarm::with_abort(Arc::clone(stop)),
        None => Alarm::new(),
    };
    let mut out = PlayedGame {
        deal,
        opening: spec.opening.map(jieqi_core::Position::fen),
        plies: Vec::new(),
        winner: None,
        termination: Termination::MaxPlies,
        detail: None,
        captures: 0,
        reveals: 0,
        nodes: ByColor::default(),
        engine_ms: ByColor::default(),
        total_ms: 0.0,
        abandoned: false,
    };
    if !prepared(spec, &mut engines, &mut out) {
        out.total_ms = started.elapsed().as_secs_f64() * 1000.0;
        return out;
    }
    loop {
        if let Some(o) = game.outcome() {
            out.winner = o.winner;
            out.termination = Termination::Rules(ReasonKey::new(o.reason));
            break;
        }
        if game.ply() >= spec.max_plies as usize {
            out.termination = Termination::MaxPlies;
            break;
        }
        if stop_asked(spec) {
            out.abandoned = true;
            break;
        }
        let us = game.turn();
        let player = &players[us];
        let limits = move_limits(player, &clocks, us);
        let time_left = clocks[us].map(|c| c.remaining());
        let move_limit = player.hard_limit();
        // The clock (plus the margin) and the per-move limit; a player always has one of them.
        let hard = [time_left.map(|t| t + spec.timemargin), move_limit]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(NO_TIME_LIMIT_TIMEOUT);
        let seed = mix(seeds[us], game.ply() as u64);
        let t = Instant::now();
        let answer = call_engine(
            &mut engines[us],
            &views[us],
            &limits,
            seed,
            &alarm,
            hard,
            None,
            &[],
        );
        let elapsed = t.elapsed();
        // Stopped during the move: whatever the engine answered (perhaps cut short by the stop,
        // perhaps "late"), the game is not a result.
        if stop_asked(spec) {
            out.abandoned = true;
            break;
        }
        let ms = elapsed.as_secs_f64() * 1000.0;
        out.engine_ms[us] += ms;
        let flagged = match clocks[us].as_mut() {
            Some(c) => match c.punch(elapsed, spec.timemargin) {
                Punch::Flagged { left } => Some(left),
                Punch::InTime(_) => None,
            },
            None => None,
        };
        let Some(choice) = judged(&mut out, us, answer, ms, flagged, move_limit, elapsed) else {
            break;
        };
        let record = match game.play(choice.mv) {
            Ok(r) => *r,
            Err(e) => {
                out.winner = Some(!us);
                out.termination = Termination::IllegalMove;
                out.detail = Some(format!("{us}: {} ({e})", choice.mv));
                break;
            }
        };
        for c in Color::ALL {
            let seen = if players[c].omniscient {
                record.played
            } else {
                record.seen_by(c, spec.rules.capture_reveal)
            };
            views[c]
                .apply(seen)
                .expect("a referee-approved move fits every view");
        }
        out.captures += u32::from(record.captured.is_some());
        out.reveals += u32::from(record.played.reveal.is_some());
        if let Some(obs) = observer.as_mut() {
            obs(&game, &record, &choice, ms);
        }
        // Adjudication reads the score as the record keeps it, so a record gives the same verdict.
        let score = choice.info.score.map(|s| s.to_string());
        out.plies.push(Ply {
            mover: us,
            played: record.played,
            info: choice.info,
            ms,
        });
        if game.outcome().is_none()
            && adjudicated(&mut adjudicator, &game, us, &record, score, &mut out)
        {
            break;
        }
    }
    out.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    out
}

/// What the mover's answer came to: its choice, or `None` when the game ended on it (an
/// engine failure, a move too late for the clock or the hard limit): `out` then says how.
fn judged(
    out: &mut PlayedGame,
    us: Color,
    answer: Answer,
    ms: f64,
    flagged: Option<Duration>,
    move_limit: Option<Duration>,
    elapsed: Duration,
) -> Option<Choice> {
    let over_limit = move_limit.is_some_and(|l| elapsed > l);
    let failure = |out: &mut PlayedGame, t: Termination, detail: String| {
        out.winner = Some(!us);
        out.termination = t;
        out.detail = Some(format!("{us}: {detail}"));
    };
    let late = |out: &mut PlayedGame| {
        if let Some(left) = flagged {
            failure(
                out,
                Termination::TimeForfeit,
                format!(
                    "{:.0} ms for a move with {} ms on the clock",
                    ms,
                    left.as_millis()
                ),
            );
            true
        } else if over_limit {
            failure(
                out,
                Termination::Timeout,
                format!(
                    "{:.0} ms for one move (hard limit {} ms)",
                    ms,
                    move_limit.unwrap_or_default().as_millis()
                ),
            );
            true
        } else {
            false
        }
    };
    let choice = match answer {
        Answer::Panicked(msg) => {
            failure(out, Termination::EnginePanic, msg);
            return None;
        }
        Answer::Abandoned => {
            if !late(out) {
                failure(
                    out,
                    Termination::Timeout,
                    "the engine did not return after its stop flag was set".into(),
                );
            }
            out.detail = out
                .detail
                .take()
                .map(|d| format!("{d}; the engine ignored its stop flag and was given up"));
            return None;
        }
        Answer::Returned(Err(e)) => {
            if !(e.failure == Failure::Timeout && late(out)) {
                failure(out, termination_of(e.failure), e.message);
            }
            return None;
        }
        Answer::Returned(Ok(choice)) => choice,
    };
    out.nodes[us] += choice.info.nodes;
    if late(out) {
        return None;
    }
    Some(choice)
}

/// The engines get ready outside the clock; one that cannot loses before its first move (`out`
/// says how; `false`). An engine ended by an interruption while it got ready is no failure: the
/// game is abandoned.
fn prepared(
    spec: &GameSpec<'_>,
    engines: &mut ByColor<Option<Box<dyn Engine>>>,
    out: &mut PlayedGame,
) -> bool {
    for c in Color::ALL {
        let Some(engine) = engines[c].as_mut() else {
            continue;
        };
        let (t, detail) = match guarded(|| engine.prepare(spec.rules)) {
            Ok(Ok(())) => continue,
            Ok(Err(e)) => (termination_of(e.failure), e.message),
            Err(msg) => (Termination::EnginePanic, msg),
        };
        out.abandoned = stop_asked(spec);
        out.winner = Some(!c);
        out.termination = t;
        out.detail = Some(format!("{c}: {detail}"));
        return false;
    }
    true
}

/// The limits of the mover `us`: its player's, with the clocks where the game has them.
fn move_limits(player: &Player<'_>, clocks: &ByColor<Option<GameClock>>, us: Color) -> Limits {
    let mut limits = player.limits;
    if let Some(own) = clocks[us] {
        let other = clocks[!us].unwrap_or(own);
        let (red, black) = match us {
            Color::Red => (own, other),
            Color::Black => (other, own),
        };
        limits.clock = Some(Clock {
            remaining: ByColor {
                red: red.remaining(),
                black: black.remaining(),
            },
            increment: ByColor {
                red: red.increment(),
                black: black.increment(),
            },
            moves_to_go: own.moves_to_go(),
        });
    }
    limits
}

/// Whether the adjudicator ends the game after `us` played `record` with `score` (the score as
/// the record keeps it, so a record gives the same verdict); `out` then says how.
fn adjudicated(
    adjudicator: &mut crate::records::adjudication::Tracker,
    game: &Game,
    us: Color,
    record: &Record,
    score: Option<String>,
    out: &mut PlayedGame,
) -> bool {
    let irreversible = record.captured.is_some() || record.played.reveal.is_some();
    let Some(v) = adjudicator.ply(
        us,
        score.as_deref(),
        irreversible,
        game.position().fullmoves(),
    ) else {
        return false;
    };
    out.winner = v.winner;
    out.termination = if v.winner.is_some() {
        Termination::AdjudicationResign
    } else {
        Termination::AdjudicationDraw
    };
    out.detail = Some(v.detail);
    true
}

impl GameLine {
    /// Builds the line for a played game.
    pub fn new(
        fingerprint: &str,
        pair: u64,
        game: u8,
        seed: u64,
        red: &str,
        black: &str,
        g: &PlayedGame,
    ) -> GameLine {
        GameLine {
            fingerprint: fingerprint.to_string(),
            pair,
            game,
            seed,
            red: red.to_string(),
            black: black.to_string(),
            deal: g.deal.clone(),
            opening: g.opening.clone(),
            result: GameResult::of(g.winner),
            reason: g.termination,
            detail: g.detail.clone(),
            plies: g.plies.len() as u32,
            captures: g.captures,
            reveals: g.reveals,
            nodes: Sides {
                red: g.nodes.red,
                black: g.nodes.black,
            },
            ms: Sides {
                red: round3(g.engine_ms.red),
                black: round3(g.engine_ms.black),
            },
            total_ms: round3(g.total_ms),
            moves: g.plies.iter().map(|p| p.text()).collect(),
            search: g
                .plies
                .iter()
                .map(|p| PlyInfo {
                    nodes: p.info.nodes,
                    ms: Some(round3(p.ms)),
                    // A depth past what a record may hold is an engine's nonsense, not a
                    // depth: kept, it would make the run's own journal refused at resume.
                    depth: p
                        .info
                        .depth
                        .filter(|&d| d <= crate::records::check::MAX_RECORDED_DEPTH),
                    score: p.info.score.map(|s| s.to_string()),
                    pv: p.info.pv.iter().map(|m| m.to_string()).collect(),
                })
                .collect(),
        }
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}
