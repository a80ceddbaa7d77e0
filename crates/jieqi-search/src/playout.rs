//! Playouts: play a determinization to the end (or to a ply cutoff) with a cheap policy and score
//! the result for one player.
//!
//! A playout runs on a [`Determinization`] — every hidden identity fixed — so each move resolves its
//! reveal and capture at once. It never unmakes. A random playout draws and plays its moves on a
//! [`PlayoutBoard`] copied from the determinization (no hash,
//! pools or undo records; legal moves exactly the position's); only when it is cut off does `det`
//! follow it move by move, for the evaluation at the cutoff. The capture-biased policy, which
//! needs a full [`Position`] for capture values, plays with [`Determinization::make`]. Nothing is
//! allocated per ply: move lists are fixed-size stack arrays.
//!
//! Terminal rules: the core's classifier ([`jieqi_core::classify`]) without a history, on a fast
//! path that never builds a [`jieqi_core::Outcome`] (property-tested equal to the classifier over
//! seeded games of every rule preset, `tests/terminal.rs`):
//! 1. the move just played took a king (a face-up king, or a hidden piece whose identity in this
//!    determinization is the king — the seed-000 variant): the mover wins;
//! 2. the side to move has no legal move (mate or stalemate; a blocked side in the seed-000
//!    variant): it loses;
//! 3. [`Rules::no_capture_plies`](jieqi_core::Rules) plies without a capture: draw.
//!
//! Repetition is not detected inside playouts (it would need a hash history on the playout
//! board, and a random playout almost never repeats a position three times); a cycling playout
//! ends at the no-capture limit or at `max_plies`. At `max_plies` the playout is a draw (0.5), or,
//! when a `cutoff` is set, is scored by the evaluation like a cutoff. The trees above the
//! playouts (`ismcts`) do score repetitions.

use jieqi_core::{
    Color, Determinization, Move, MoveList, Occupant, Outcome, PlayedMove, Position, Role, Undo,
    classify,
};
use rand_core::Rng;

use crate::eval::{EvalWeights, evaluate, win_probability};
use crate::playout_board::PlayoutBoard;

/// How a playout picks its moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum PlayoutPolicy {
    /// Uniformly random over the legal moves (seed 000's playout).
    #[default]
    Random,
    /// Capture-biased, as seeds 000 ("prefer taking big pieces") and 002 ("capture > other")
    /// advise: when the side to move has captures, with probability [`CAPTURE_PROB`] it plays one,
    /// chosen with probability proportional to the captured piece's value (a face-up piece at its
    /// [`EvalWeights::piece`] value, so a face-up king at `king`; a hidden piece at the mean value of
    /// its owner's unrevealed identities, [`EvalWeights::hidden`] — what a player could know, not
    /// the identity this determinization gave it); otherwise it plays a uniformly random legal move
    /// (captures included).
    CaptureBiased,
}

/// Probability that a capture-biased playout plays a capture when it has one.
pub const CAPTURE_PROB: f64 = 0.75;

impl PlayoutPolicy {
    /// Parses a spec word: `random` or `capture`.
    pub fn parse(word: &str) -> Option<PlayoutPolicy> {
        match word {
            "random" => Some(PlayoutPolicy::Random),
            "capture" => Some(PlayoutPolicy::CaptureBiased),
            _ => None,
        }
    }

    /// The spec word.
    pub fn name(self) -> &'static str {
        match self {
            PlayoutPolicy::Random => "random",
            PlayoutPolicy::CaptureBiased => "capture",
        }
    }
}

/// Playout settings.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutConfig {
    /// Move policy.
    pub policy: PlayoutPolicy,
    /// Hard cap on the plies of one playout (default 200, seed 000's cap); reaching it is a draw,
    /// or an evaluation when `cutoff` is set.
    pub max_plies: u32,
    /// Early termination: after this many plies stop and score the position with
    /// `win_probability(evaluate(..))`. `None`: play to the end (or `max_plies`).
    pub cutoff: Option<u32>,
    /// Evaluation weights for the cutoff and for capture values.
    pub weights: EvalWeights,
}

impl Default for PlayoutConfig {
    fn default() -> PlayoutConfig {
        PlayoutConfig {
            policy: PlayoutPolicy::Random,
            max_plies: 200,
            cutoff: None,
            weights: EvalWeights::default(),
        }
    }
}

/// The result of one playout.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Playout {
    /// Score for the perspective player: 1 win, 0 loss, 0.5 draw, or the evaluation's win
    /// probability in (0, 1) when cut off.
    pub score: f64,
    /// Plies played.
    pub plies: u32,
    /// The first move played, if any (for tests and diagnostics).
    pub first_move: Option<Move>,
}

/// Whether the move just made (with its resolved identities and undo record) took a king.
#[inline]
pub fn took_king(pm: &PlayedMove, undo: &Undo) -> bool {
    pm.capture == Some(Role::King)
        || matches!(undo.captured(), Some(Occupant::Revealed(p)) if p.role == Role::King)
}

/// Score for `perspective` of a game that `outcome` ended: 1 win, 0 loss, 0.5 draw.
#[inline]
pub fn outcome_score(outcome: Outcome, perspective: Color) -> f64 {
    result_for(outcome.winner, perspective)
}

/// Score for `perspective` when `winner` won (`None`: draw).
#[inline]
fn result_for(winner: Option<Color>, perspective: Color) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == perspective => 1.0,
        Some(_) => 0.0,
    }
}

/// Evaluation-based score for `perspective`.
#[inline]
pub fn eval_score(pos: &Position, perspective: Color, w: &EvalWeights) -> f64 {
    let p = win_probability(evaluate(pos, w));
    if pos.turn() == perspective {
        p
    } else {
        1.0 - p
    }
}

/// Unbiased integer in `[0, n)`; the same numbers as [`jieqi_core::uniform_below`] for the same
/// stream (Lemire's method, which only divides when the low word falls below `n`).
#[inline(always)]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

/// A float in `[0, 1)` with 53 random bits.
#[inline]
pub fn unit<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Value of capturing what stands on `to` (an enemy piece), for the capture-biased policy.
#[inline]
fn capture_value(pos: &Position, to: jieqi_core::Square, w: &EvalWeights) -> u32 {
    match pos.occupant(to) {
        Some(Occupant::Revealed(p)) => w.piece(p.color, p.role, to).max(1) as u32,
        Some(Occupant::Hidden(c)) => w.hidden(pos.pool(c)).max(1) as u32,
        None => 0,
    }
}

/// Picks a move by the policy. `moves` is non-empty.
#[inline]
fn pick<R: Rng + ?Sized>(
    pos: &Position,
    moves: &MoveList,
    cfg: &PlayoutConfig,
    rng: &mut R,
) -> Move {
    if cfg.policy == PlayoutPolicy::CaptureBiased {
        let mut total = 0u32;
        for m in moves {
            if m.from != m.to && pos.occupant(m.to).is_some() {
                total += capture_value(pos, m.to, &cfg.weights);
            }
        }
        if total > 0 && unit(rng) < CAPTURE_PROB {
            let mut r = below(rng, total);
            for &m in moves {
                if m.from != m.to && pos.occupant(m.to).is_some() {
                    let v = capture_value(pos, m.to, &cfg.weights);
                    if r < v {
                        return m;
                    }
                    r -= v;
                }
            }
            unreachable!("weights sum to total");
        }
    }
    moves[below(rng, moves.len() as u32) as usize]
}

/// The game-theoretic value of `pos` for the side to move if the game is over there, as a
/// playout sees it: the core's classifier without a history (so no repetition) and without a
/// king taken by the previous move (check that with [`took_king`]) — `Some(0.0)` for a lost
/// king or no legal move, `Some(0.5)` at the no-capture limit, else `None`.
pub fn terminal_value(pos: &Position) -> Option<f64> {
    classify(pos, false, &[], pos.rules().repetition_count).map(|o| outcome_score(o, pos.turn()))
}

/// Plays `det` out with `cfg` and scores the end for `perspective`. A random playout without a
/// cutoff leaves `det` unchanged (it plays on a [`PlayoutBoard`]); otherwise `det` is left at the
/// final position. Callers should not rely on either: clone `det` first to keep it.
///
/// The random policy does not generate every legal move each ply: it proposes a uniformly random
/// *candidate* (from, to) pair — a piece of the side to move, and one of the squares its kind could
/// reach on an empty board — and accepts it if it is legal; otherwise it proposes again. Every
/// legal move is exactly one candidate and all candidates are equally likely, so an accepted move
/// is uniform over the legal moves (rejection sampling). After a bounded number of rejections it
/// falls back to full generation (which also detects "no legal move"), still uniform since a
/// mixture of uniform draws is uniform.
pub fn playout<R: Rng + ?Sized>(
    det: &mut Determinization,
    perspective: Color,
    cfg: &PlayoutConfig,
    rng: &mut R,
) -> Playout {
    let limit = det.position().rules().no_capture_plies.unwrap_or(u32::MAX);
    let stop = cfg.cutoff.map_or(cfg.max_plies, |c| c.min(cfg.max_plies));
    // A position handed over after a king capture is already decided.
    {
        let pos = det.position();
        if pos.king_lost(pos.turn()) {
            return Playout {
                score: result_for(Some(!pos.turn()), perspective),
                plies: 0,
                first_move: None,
            };
        }
    }
    if cfg.policy == PlayoutPolicy::Random {
        let cutoff = cfg.cutoff.map(|_| &cfg.weights);
        return random_playout(det, perspective, stop, limit, cutoff, rng);
    }
    let mut first_move = None;
    let mut plies = 0u32;
    loop {
        let pos = det.position();
        if plies >= stop || pos.halfmoves() >= limit {
            // Still a loss if the side to move has no move at all.
            if !pos.has_legal_move() {
                return Playout {
                    score: result_for(Some(!pos.turn()), perspective),
                    plies,
                    first_move,
                };
            }
            let score = if pos.halfmoves() >= limit || cfg.cutoff.is_none() {
                0.5
            } else {
                eval_score(pos, perspective, &cfg.weights)
            };
            return Playout {
                score,
                plies,
                first_move,
            };
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Playout {
                score: result_for(Some(!pos.turn()), perspective),
                plies,
                first_move,
            };
        }
        let m = pick(pos, &moves, cfg, rng);
        let mover = pos.turn();
        first_move.get_or_insert(m);
        let (pm, undo) = det.make(m);
        plies += 1;
        if took_king(&pm, &undo) {
            return Playout {
                score: result_for(Some(mover), perspective),
                plies,
                first_move,
            };
        }
    }
}

/// A uniformly random playout on a [`PlayoutBoard`] (same terminal rules as [`playout`]). With
/// `cutoff` (the evaluation weights) `det` follows every move and a playout stopped before the
/// no-capture limit is scored by the evaluation; without it `det` is not touched.
fn random_playout<R: Rng + ?Sized>(
    det: &mut Determinization,
    perspective: Color,
    stop: u32,
    limit: u32,
    cutoff: Option<&EvalWeights>,
    rng: &mut R,
) -> Playout {
    let mut board = PlayoutBoard::new(det);
    let mut first_move = None;
    let mut plies = 0u32;
    loop {
        if plies >= stop || board.halfmoves() >= limit {
            // Still a loss if the side to move has no move at all.
            let score = if board.legal_moves().is_empty() {
                result_for(Some(!board.turn()), perspective)
            } else if let Some(w) = cutoff.filter(|_| board.halfmoves() < limit) {
                eval_score(det.position(), perspective, w)
            } else {
                0.5
            };
            return Playout {
                score,
                plies,
                first_move,
            };
        }
        let mover = board.turn();
        let Some(m) = board.random_move(rng) else {
            return Playout {
                score: result_for(Some(!mover), perspective),
                plies,
                first_move,
            };
        };
        first_move.get_or_insert(m);
        plies += 1;
        if cutoff.is_some() {
            det.make(m);
        }
        if board.make(m) {
            return Playout {
                score: result_for(Some(mover), perspective),
                plies,
                first_move,
            };
        }
    }
}

/// Reads the playout keys shared by the MCTS engines: `policy` (`random` | `capture`),
/// `cutoff` (plies, `0` = none, at most 10,000) and `max_plies` (1..=100,000).
pub(crate) fn read_config(
    p: &mut jieqi_engine::Params<'_>,
    spec: &jieqi_engine::Spec,
    default_policy: PlayoutPolicy,
    default_cutoff: u32,
) -> Result<PlayoutConfig, jieqi_engine::SpecError> {
    let policy = p.get_choice("policy", default_policy.name(), &["random", "capture"])?;
    let policy = PlayoutPolicy::parse(policy).expect("a listed choice");
    let cutoff: u32 = p.get("cutoff", default_cutoff)?;
    let max_plies: u32 = p.get("max_plies", 200)?;
    if cutoff > 10_000 || !(1..=100_000).contains(&max_plies) {
        return Err(spec_error(
            spec,
            format!(
                "cutoff = {cutoff} must be in [0, 10000] and max_plies = {max_plies} in [1, 100000]"
            ),
        ));
    }
    Ok(PlayoutConfig {
        policy,
        max_plies,
        cutoff: (cutoff > 0).then_some(cutoff),
        weights: EvalWeights::default(),
    })
}

/// A spec error with a message.
pub(crate) fn spec_error(spec: &jieqi_engine::Spec, message: String) -> jieqi_engine::SpecError {
    jieqi_engine::SpecError {
        spec: spec.to_string(),
        message,
    }
}

/// How many simulations / iterations a search may run and until when: `Limits.nodes` if given,
/// else the spec's own budget if written, else — under a movetime or clock limit — as many as fit
/// in the soft time budget ([`jieqi_engine::Limits::budget`]), else the engine's default. A time
/// budget always applies on top.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Budget<'a> {
    iterations: Option<u64>,
    deadline: Option<std::time::Instant>,
    control: jieqi_engine::Control<'a>,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(
        limits: &jieqi_engine::Limits,
        side: jieqi_core::Color,
        spec_budget: Option<u64>,
        default: u64,
        control: jieqi_engine::Control<'a>,
    ) -> Budget<'a> {
        let start = std::time::Instant::now();
        let time = limits.budget(side);
        let iterations =
            limits
                .nodes
                .or(spec_budget)
                .or(if time.is_some() { None } else { Some(default) });
        Budget {
            iterations,
            deadline: time.map(|b| start + b.soft),
            control,
        }
    }

    /// Thread `i`'s part of `n` threads searching side by side: the iterations split as evenly as
    /// they go (the first `total % n` threads take one more; a share may be 0, see
    /// [`Budget::is_empty`]), the same deadline, and `control` for stop requests.
    pub(crate) fn share(
        self,
        i: usize,
        n: usize,
        control: jieqi_engine::Control<'a>,
    ) -> Budget<'a> {
        let n = n.max(1) as u64;
        Budget {
            iterations: self
                .iterations
                .map(|t| t / n + u64::from((i as u64) < t % n)),
            control,
            ..self
        }
    }

    /// The stop requests and reports this budget answers to.
    pub(crate) fn control(&self) -> jieqi_engine::Control<'a> {
        self.control
    }

    /// Whether this budget allows no iteration at all (a thread's share of fewer iterations than
    /// threads).
    pub(crate) fn is_empty(&self) -> bool {
        self.iterations == Some(0)
    }

    /// Whether an iteration count bounds the search (else only time or a stop request ends it).
    pub(crate) fn counts_iterations(&self) -> bool {
        self.iterations.is_some()
    }

    /// Whether the search must stop after `done` iterations (always runs at least one): the
    /// iterations are spent, the time is up or the front end said stop.
    #[inline]
    pub(crate) fn exhausted(&self, done: u64) -> bool {
        if done == 0 {
            return false;
        }
        if self.control.stopped() {
            return true;
        }
        if self.iterations.is_some_and(|n| done >= n) {
            return true;
        }
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
    }
}
