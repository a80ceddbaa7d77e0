//! Plays one game between two engines under the referee, from a deal seed.
//!
//! Seeds: the deal comes from [`crate::deal_for_seed`]`(deal_seed)`. The engine playing colour `c`
//! gets the stream seed [`engine_seed`]`(deal_seed, c)` and, for the move at ply `k`,
//! `mix(engine_seed, k)`. Both games of a pair share the deal seed, so each engine meets the same
//! deal and the same per-colour seeds with each colour.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::time::{Duration, Instant};

use jieqi_core::{ByColor, Color, Deal, Game, PlayedMove, Reason, Record, Rules, View};
use jieqi_engine::{Choice, Failure, Limits, SearchInfo, mix};

use crate::engines::{EngineEntry, build};

/// The seed of the random stream of the engine playing `color` in the game dealt by `deal_seed`.
pub const fn engine_seed(deal_seed: u64, color: Color) -> u64 {
    mix(deal_seed, 1 + color as u64)
}

/// Everything that determines a game.
#[derive(Clone, Debug)]
pub struct GameSpec<'a> {
    /// Rules.
    pub rules: &'a Rules,
    /// The deal seed (see the module docs).
    pub deal_seed: u64,
    /// Engine playing Red.
    pub red: &'a EngineEntry,
    /// Engine playing Black.
    pub black: &'a EngineEntry,
    /// Limits given to both engines on every move.
    pub limits: Limits,
    /// Plies after which the game is adjudicated a draw.
    pub max_plies: u32,
    /// Which sides get an omniscient view (leak measurement only).
    pub omniscient: ByColor<bool>,
    /// A move taking longer than this loses the game (wall clock; `None`: no limit).
    pub move_timeout: Option<Duration>,
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// By the rules.
    Rules(ReasonKey),
    /// Draw by the `--max-plies` cap.
    MaxPlies,
    /// The loser answered an illegal move.
    IllegalMove,
    /// The loser's engine panicked.
    EnginePanic,
    /// The loser's engine returned an error.
    EngineError,
    /// The loser's engine exceeded the move timeout (or, an external engine, did not answer
    /// within its hard time limit).
    Timeout,
    /// The loser's external engine process died or closed its output.
    EngineCrash,
    /// The loser's external engine broke the protocol (a malformed answer).
    ProtocolError,
}

/// [`Reason`] with an order, for counting.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReasonKey(u8);

impl ReasonKey {
    const ALL: [Reason; 6] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::KingCaptured,
        Reason::NoCaptureLimit,
        Reason::Repetition,
        Reason::PerpetualCheck,
    ];

    fn new(r: Reason) -> ReasonKey {
        ReasonKey(Self::ALL.iter().position(|x| *x == r).expect("listed") as u8)
    }

    /// The rules' reason.
    pub fn reason(self) -> Reason {
        Self::ALL[self.0 as usize]
    }
}

impl Termination {
    /// Kebab-case name, as in `games.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Rules(r) => r.reason().name(),
            Termination::MaxPlies => "max-plies",
            Termination::IllegalMove => "illegal-move",
            Termination::EnginePanic => "engine-panic",
            Termination::EngineError => "engine-error",
            Termination::Timeout => "timeout",
            Termination::EngineCrash => "engine-crash",
            Termination::ProtocolError => "protocol-error",
        }
    }

    /// Parses [`Termination::name`].
    pub fn from_name(s: &str) -> Option<Termination> {
        ReasonKey::ALL
            .iter()
            .find(|r| r.name() == s)
            .map(|r| Termination::Rules(ReasonKey::new(*r)))
            .or(match s {
                "max-plies" => Some(Termination::MaxPlies),
                "illegal-move" => Some(Termination::IllegalMove),
                "engine-panic" => Some(Termination::EnginePanic),
                "engine-error" => Some(Termination::EngineError),
                "timeout" => Some(Termination::Timeout),
                "engine-crash" => Some(Termination::EngineCrash),
                "protocol-error" => Some(Termination::ProtocolError),
                _ => None,
            })
    }

    /// Whether an engine failed (as opposed to the game ending on the board).
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Termination::IllegalMove
                | Termination::EnginePanic
                | Termination::EngineError
                | Termination::Timeout
                | Termination::EngineCrash
                | Termination::ProtocolError
        )
    }
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
    /// The deal.
    pub deal: Deal,
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
}

/// Called after every ply with the game, the record and the engine's choice.
pub type Observer<'o> = &'o mut dyn FnMut(&Game, &Record, &Choice);

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

/// Plays the game `spec` describes. Engine failures (panic, error, illegal move, timeout) lose the
/// game for that side; they never stop the caller.
///
/// # Panics
/// Panics if an engine entry cannot be built (entries are validated before a match starts).
pub fn play_game(spec: &GameSpec<'_>, mut observer: Option<Observer<'_>>) -> PlayedGame {
    install_panic_hook();
    let started = Instant::now();
    let deal = crate::deal_for_seed(spec.deal_seed, spec.rules);
    let mut game = Game::new(*spec.rules, deal.clone());
    let entries = ByColor {
        red: spec.red,
        black: spec.black,
    };
    let mut engines = ByColor::new_with(|c| build(entries[c]).expect("validated engine entry"));
    let mut views: ByColor<View> = ByColor::new_with(|c| {
        if spec.omniscient[c] {
            game.omniscient_view(c)
        } else {
            game.view(c)
        }
    });
    let seeds = ByColor::new_with(|c| engine_seed(spec.deal_seed, c));
    let mut out = PlayedGame {
        deal,
        plies: Vec::new(),
        winner: None,
        termination: Termination::MaxPlies,
        detail: None,
        captures: 0,
        reveals: 0,
        nodes: ByColor::default(),
        engine_ms: ByColor::default(),
        total_ms: 0.0,
    };
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
        let us = game.turn();
        let seed = mix(seeds[us], game.ply() as u64);
        let engine = &mut engines[us];
        let view = &views[us];
        let t = Instant::now();
        IN_ENGINE.with(|f| f.set(true));
        let answer = catch_unwind(AssertUnwindSafe(|| engine.go(view, &spec.limits, seed)));
        IN_ENGINE.with(|f| f.set(false));
        let elapsed = t.elapsed();
        out.engine_ms[us] += elapsed.as_secs_f64() * 1000.0;
        let failure = |out: &mut PlayedGame, t: Termination, detail: String| {
            out.winner = Some(!us);
            out.termination = t;
            out.detail = Some(format!("{}: {detail}", us));
        };
        let choice = match answer {
            Err(_) => {
                let msg = PANIC_MESSAGE
                    .with(|m| m.borrow_mut().take())
                    .unwrap_or_default();
                failure(&mut out, Termination::EnginePanic, msg);
                break;
            }
            Ok(Err(e)) => {
                let t = match e.failure {
                    Failure::Error => Termination::EngineError,
                    Failure::Crash => Termination::EngineCrash,
                    Failure::Timeout => Termination::Timeout,
                    Failure::Protocol => Termination::ProtocolError,
                };
                failure(&mut out, t, e.message);
                break;
            }
            Ok(Ok(choice)) => choice,
        };
        out.nodes[us] += choice.info.nodes;
        if spec.move_timeout.is_some_and(|limit| elapsed > limit) {
            failure(
                &mut out,
                Termination::Timeout,
                format!("{} ms for one move", elapsed.as_millis()),
            );
            break;
        }
        let record = match game.play(choice.mv) {
            Ok(r) => *r,
            Err(e) => {
                failure(
                    &mut out,
                    Termination::IllegalMove,
                    format!("{} ({e})", choice.mv),
                );
                break;
            }
        };
        for c in Color::ALL {
            let seen = if spec.omniscient[c] {
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
            obs(&game, &record, &choice);
        }
        out.plies.push(Ply {
            mover: us,
            played: record.played,
            info: choice.info,
        });
    }
    out.total_ms = started.elapsed().as_secs_f64() * 1000.0;
    out
}
