//! Playouts: play a determinization to the end (or to a ply cutoff) with a cheap policy and score
//! the result for one player.
//!
//! A playout runs on a [`Determinization`] — every hidden identity fixed — so each move resolves its
//! reveal and capture at once. It never unmakes. A random playout that is not cut off plays on a
//! [`PlayoutBoard`](crate::playout_board::PlayoutBoard) copied from the determinization (no hash,
//! pools or undo records; legal moves exactly the position's) and leaves `det` unchanged; the
//! capture-biased policy and cut-off playouts, which need a full [`Position`] for capture values
//! and the evaluation, play with [`Determinization::make`] and leave `det` at the final position.
//! Nothing is allocated per ply: move lists are fixed-size stack arrays.
//!
//! Terminal rules, in the referee's order ([`jieqi_core::Game`]):
//! 1. the move just played took a king (a face-up king, or a hidden piece whose identity in this
//!    determinization is the king — the seed-000 variant): the mover wins;
//! 2. the side to move has no legal move (mate or stalemate; a blocked side in the seed-000
//!    variant): it loses;
//! 3. [`Rules::no_capture_plies`](jieqi_core::Rules) plies without a capture: draw.
//!
//! Repetition is not detected inside playouts (it would need a hash history); a cycling playout
//! ends at the no-capture limit or at `max_plies`. At `max_plies` the playout is a draw (0.5), or,
//! when a `cutoff` is set, is scored by the evaluation like a cutoff.

use jieqi_core::PlayedMove;
use jieqi_core::{Color, Determinization, Move, MoveList, Occupant, Position, Role, Undo};
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

/// The game-theoretic value of `pos` for the side to move if the game is over there, ignoring
/// repetition and assuming no king was taken by the previous move (check that with [`took_king`]):
/// `Some(0.0)` when it has no legal move, `Some(0.5)` at the no-capture limit, else `None`.
/// Also reports a lost king ([`Position::king_lost`]) as `Some(0.0)`.
pub fn terminal_value(pos: &Position) -> Option<f64> {
    if pos.king_lost(pos.turn()) {
        return Some(0.0);
    }
    if !pos.has_legal_move() {
        return Some(0.0);
    }
    if pos
        .rules()
        .no_capture_plies
        .is_some_and(|l| pos.halfmoves() >= l)
    {
        return Some(0.5);
    }
    None
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
    if cfg.policy == PlayoutPolicy::Random && cfg.cutoff.is_none() {
        return fast_random_playout(det, perspective, stop, limit, rng);
    }
    let rejection = cfg.policy == PlayoutPolicy::Random;
    let mut first_move = None;
    let mut pieces = if rejection {
        Pieces::new(det.position())
    } else {
        Pieces::EMPTY
    };
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
        let chosen = if rejection {
            pieces.propose(pos, rng)
        } else {
            None
        };
        let m = match chosen {
            Some(m) => m,
            None => {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    return Playout {
                        score: result_for(Some(!pos.turn()), perspective),
                        plies,
                        first_move,
                    };
                }
                pick(pos, &moves, cfg, rng)
            }
        };
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
        if rejection {
            pieces.update(mover, &pm, undo.captured().is_some());
        }
    }
}

/// A uniformly random playout without cutoff on a [`PlayoutBoard`] (same terminal rules as
/// [`playout`]); `det` is not touched.
fn fast_random_playout<R: Rng + ?Sized>(
    det: &Determinization,
    perspective: Color,
    stop: u32,
    limit: u32,
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
        if board.make(m) {
            return Playout {
                score: result_for(Some(mover), perspective),
                plies,
                first_move,
            };
        }
    }
}

/// Proposals before a rejection-sampling ply falls back to full move generation.
const MAX_TRIALS: u32 = 24;

/// Candidate-set kinds: where a piece could go on an empty board.
const LINE: u8 = 0; // chariot, cannon: the four rays
const HORSE: u8 = 1;
const ELEPHANT: u8 = 2;
const DIAG: u8 = 3; // advisor
const ORTHO: u8 = 4; // king, pawn
const STEP: u8 = 5; // seed-000 hidden piece: flip in place or one orthogonal step
const KINDS: usize = 6;

/// Candidate target squares per kind and square (a superset of the pseudo-legal targets).
struct Candidates {
    to: [[[u8; 17]; 90]; KINDS],
    len: [[u8; 90]; KINDS],
}

const fn build_candidates() -> Candidates {
    let mut c = Candidates {
        to: [[[0; 17]; 90]; KINDS],
        len: [[0; 90]; KINDS],
    };
    let line: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let horse: [(i32, i32); 8] = [
        (1, 2),
        (-1, 2),
        (1, -2),
        (-1, -2),
        (2, 1),
        (-2, 1),
        (2, -1),
        (-2, -1),
    ];
    let elephant: [(i32, i32); 4] = [(2, 2), (-2, 2), (2, -2), (-2, -2)];
    let diag: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut k = 0;
        while k < KINDS {
            let mut n = 0usize;
            if k == STEP as usize {
                c.to[k][s][n] = s as u8;
                n += 1;
            }
            let (dirs, count, slide): (&[(i32, i32)], usize, bool) = match k as u8 {
                LINE => (&line, 4, true),
                HORSE => (&horse, 8, false),
                ELEPHANT => (&elephant, 4, false),
                DIAG => (&diag, 4, false),
                _ => (&line, 4, false),
            };
            let mut d = 0;
            while d < count {
                let (df, dr) = dirs[d];
                let (mut tf, mut tr) = (f + df, r + dr);
                while tf >= 0 && tf < 9 && tr >= 0 && tr < 10 {
                    c.to[k][s][n] = (tr * 9 + tf) as u8;
                    n += 1;
                    if !slide {
                        break;
                    }
                    tf += df;
                    tr += dr;
                }
                d += 1;
            }
            c.len[k][s] = n as u8;
            k += 1;
        }
        s += 1;
    }
    c
}

static CANDIDATES: Candidates = build_candidates();

/// Candidate kind of a face-up role.
#[inline]
fn role_kind(role: Role) -> u8 {
    match role {
        Role::Chariot | Role::Cannon => LINE,
        Role::Horse => HORSE,
        Role::Elephant => ELEPHANT,
        Role::Advisor => DIAG,
        Role::King | Role::Pawn => ORTHO,
    }
}

/// Each side's pieces (square and candidate kind), kept up to date move by move so that a
/// rejection-sampling ply never scans the board.
struct Pieces {
    sq: [[u8; 16]; 2],
    kind: [[u8; 16]; 2],
    n: [usize; 2],
    /// Index of the piece on a square in its side's list.
    idx: [u8; 90],
}

impl Pieces {
    const EMPTY: Pieces = Pieces {
        sq: [[0; 16]; 2],
        kind: [[0; 16]; 2],
        n: [0; 2],
        idx: [0; 90],
    };

    fn new(pos: &Position) -> Pieces {
        let mut p = Pieces::EMPTY;
        let step = pos.has_flips();
        for s in jieqi_core::Square::all() {
            let (color, kind) = match pos.occupant(s) {
                None => continue,
                Some(Occupant::Revealed(pc)) => (pc.color, role_kind(pc.role)),
                Some(Occupant::Hidden(c)) if step => (c, STEP),
                Some(Occupant::Hidden(c)) => {
                    // Hidden pieces move as their start square's piece.
                    let role =
                        jieqi_core::start_role(s).expect("hidden pieces stand on start squares");
                    (c, role_kind(role))
                }
            };
            let ci = color.index();
            let i = p.n[ci];
            p.sq[ci][i] = s.index() as u8;
            p.kind[ci][i] = kind;
            p.idx[s.index()] = i as u8;
            p.n[ci] += 1;
        }
        p
    }

    /// Follows a move made by `mover`.
    #[inline]
    fn update(&mut self, mover: Color, pm: &PlayedMove, captured: bool) {
        let (from, to) = (pm.mv.from.index(), pm.mv.to.index());
        let us = mover.index();
        if captured {
            let them = 1 - us;
            let i = self.idx[to] as usize;
            let last = self.n[them] - 1;
            self.sq[them][i] = self.sq[them][last];
            self.kind[them][i] = self.kind[them][last];
            self.idx[self.sq[them][i] as usize] = i as u8;
            self.n[them] = last;
        }
        let i = self.idx[from] as usize;
        self.sq[us][i] = to as u8;
        self.idx[to] = i as u8;
        if let Some(r) = pm.reveal {
            self.kind[us][i] = role_kind(r);
        }
    }

    /// A uniformly random legal move of the side to move by rejection, or `None` after
    /// [`MAX_TRIALS`] rejections.
    #[inline]
    fn propose<R: Rng + ?Sized>(&self, pos: &Position, rng: &mut R) -> Option<Move> {
        let us = pos.turn().index();
        let n = self.n[us];
        let mut cum = [0u32; 16];
        let mut total = 0u32;
        for (c, (&k, &s)) in cum
            .iter_mut()
            .zip(self.kind[us][..n].iter().zip(&self.sq[us][..n]))
        {
            total += CANDIDATES.len[k as usize][s as usize] as u32;
            *c = total;
        }
        if total == 0 {
            return None;
        }
        for _ in 0..MAX_TRIALS {
            let r = below(rng, total);
            let mut i = 0;
            while cum[i] <= r {
                i += 1;
            }
            let start = if i == 0 { 0 } else { cum[i - 1] };
            let s = self.sq[us][i] as usize;
            let to = CANDIDATES.to[self.kind[us][i] as usize][s][(r - start) as usize];
            let m = Move::new(
                jieqi_core::Square::from_index(s),
                jieqi_core::Square::from_index(to as usize),
            );
            if pos.is_legal(m) {
                return Some(m);
            }
        }
        None
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
/// else the spec's own budget if written, else — under a movetime limit — as many as fit, else the
/// engine's default. A movetime limit always applies on top.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Budget {
    iterations: Option<u64>,
    deadline: Option<std::time::Instant>,
}

impl Budget {
    pub(crate) fn new(
        limits: &jieqi_engine::Limits,
        spec_budget: Option<u64>,
        default: u64,
    ) -> Budget {
        let start = std::time::Instant::now();
        let iterations = limits
            .nodes
            .or(spec_budget)
            .or(if limits.movetime.is_some() {
                None
            } else {
                Some(default)
            });
        Budget {
            iterations,
            deadline: limits.movetime.map(|t| start + t),
        }
    }

    /// Whether the search must stop after `done` iterations (always runs at least one).
    #[inline]
    pub(crate) fn exhausted(&self, done: u64) -> bool {
        if done == 0 {
            return false;
        }
        if self.iterations.is_some_and(|n| done >= n) {
            return true;
        }
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
    }
}
