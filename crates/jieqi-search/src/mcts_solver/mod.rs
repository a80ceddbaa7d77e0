//! `mcts-solver`: Monte Carlo tree search with proven wins and losses (MCTS-Solver, Winands,
//! Björnsson & Saito 2008), an endgame and puzzle solver over the public game tree of the view.
//!
//! # The tree
//! As in [`crate::alphabeta`], the search runs on the view's own [`Position`] (the public board
//! and this player's pools), never on the truth. A move of a face-up piece is an edge to the
//! decision node of the position it reaches. A move of a hidden piece is a *chance node* with one
//! outcome per identity still in the mover's pool, weighted by its count (the outcomes and
//! weights of [`crate::alphabeta::branches`], so hidden-king captures of the `simple` rules and
//! omniscient views come out as there). Under `--rules xiangqi` there are no hidden pieces and
//! the search is plain MCTS-Solver.
//!
//! Decision nodes live in a transposition table keyed by [`Position::hash`] (a hash map to an
//! arena), so transpositions share one node and its statistics: the tree is a graph. Chance nodes
//! belong to the edge that made them.
//!
//! # One iteration
//! *Select* from the root: at a decision node with `n` visits only the first
//! `k(n) = ceil(width · n^widen)` edges in prior order are candidates (progressive widening);
//! edges proven lost for the mover are skipped and the window moves on past them at once. The
//! first candidate never tried is taken, else the best `q + c·sqrt(ln n / nₑ)`. At a chance node
//! the unproven outcome with the largest `weight / (visits + 1)` is followed, so outcomes are
//! visited in proportion to their probabilities without randomness. *Expand* the edge that was
//! never tried: one new decision node (or, for a hidden-piece move, a chance node and all of its
//! outcomes' nodes at once), whose legal moves become its edges, ordered by a cheap prior: checks,
//! then captures by MVV/LVA, then the rest in generation order (`prior=captures` drops the check
//! test, `prior=none` keeps generation order). *Evaluate* the new node by the static evaluation
//! ([`crate::eval::evaluate_known`], the view's knowledge) squashed to [0, 1] by the logistic
//! [`crate::eval::win_probability`]; there are no playouts. *Back up* the value along the path; a
//! chance node passes up the probability-weighted mean of its outcomes' values instead of the one
//! it saw.
//!
//! # Proofs
//! A node is a proven win for its side to move when one edge is a proven win, and a proven loss
//! when every legal move is a proven loss (checked over all edges, not only the widened ones, so a
//! proven child found through the table proves its parent at once). A position whose side to move
//! has no legal move (checkmate or stalemate) or has lost its king is a proven loss in 0 plies. A
//! chance edge is proven only when *every* outcome is proven the same way, at the largest of the
//! outcomes' distances. Distances are plies from the node to the end; the shortest win and the
//! longest loss are kept. Once proven, a node's value backs up as 1 or 0. The root's proof is
//! reported as [`Score::Mate`] with alpha-beta's convention (a win in `p` plies is mate in
//! `(p + 1) / 2`, a loss in `p` plies is mate in `−p / 2`), and the search stops as soon as the
//! root is proven. The proof found first is the shortest win among the root's proven moves, but
//! an unproven move may mate faster; so a proven win in `p > 1` plies is checked by the project's
//! one exhaustive prover, [`crate::mate::MateProver`] (every reveal outcome must mate, repetitions
//! are not looked at), on the shorter distances, bounded by [`VERIFY_NODES`] positions, and a
//! shorter mate it finds is the answer.
//!
//! # Files
//! `tree` holds the graph (nodes, edges, chance nodes, the table and its memory bound), `proof`
//! the proofs and their back-up, `search` one iteration and the answer; this file the engine.
//!
//! # Repetitions and draws by rule
//! Each iteration keeps the positions since the last irreversible move — the game's, from
//! [`RepetitionHistory::of_view`], then its own path — and asks the core's classifier
//! ([`jieqi_core::classify_before_moves`]) at every position below the root, the first recurrence
//! counting as alpha-beta does. A repetition (a draw, or a perpetual checker's loss) or the
//! no-capture limit ends the path there as an *unproven* leaf worth the rules' score (0.5 for a
//! draw), and the table is not consulted for that position on that path: such results depend on
//! the path, so they never become proofs. Proofs stored in the table are facts about positions
//! without their history, so (as in alpha-beta's table) a repetition draw available on one path may
//! be missed by a proof found on another.
//!
//! # Answer
//! A proven win with the shortest distance; else the most visited move (ties: the better mean,
//! then prior order), never a proven loss while a move not proven lost exists; with every move
//! lost, the longest loss. Score: the mate when the chosen move is proven, else its win rate.
//! The pv follows proven-shortest or most visited children and stops after a hidden-piece move.
//!
//! # Limits
//! `nodes` counts iterations and makes the search reproducible (it uses no randomness at all, so
//! the seed changes nothing); movetime and clocks go through [`Limits::budget`] (the soft budget);
//! `depth` is ignored. The stop flag is read after every iteration. Interim info is reported
//! whenever the best root move or its proof changes, and every [`REPORT_EVERY`] iterations.
//!
//! # Memory
//! The table's size is estimated from its arenas; once it passes `tt_mb` megabytes the tree stops
//! growing: iterations go on through the existing nodes and an edge never tried is valued by the
//! evaluation of the position it reaches (the mean over a chance edge's outcomes) without being
//! stored. The tree is built afresh at every search (no reuse between moves).
use jieqi_core::{Knowledge, Move, Occupant, PlayedMove, Position, Role, View};
use jieqi_engine::{Choice, Control, Engine, EngineError, Key, Limits, Spec, SpecError, Values};

use crate::alphabeta::branches;
use crate::playout::Budget;

mod proof;
mod search;
mod tree;

pub use proof::Proof;
use search::Search;
use tree::*;

/// Spec name.
pub const NAME: &str = "mcts-solver";

/// What the engine is, the prose of its help text; [`help`] adds the keys.
pub const HELP: &str = "MCTS-Solver (Winands, Bjornsson & Saito 2008) for endgames and puzzles: \
MCTS over the view's public game tree with proven wins and losses backed up (a node is won if one \
move wins, lost if every move loses; a hidden-piece move is a chance node over the pool's \
identities, proven only when every outcome is), positions shared through a transposition table, \
progressive widening in prior order (checks, then captures by MVV/LVA, then the rest), leaves \
valued by the static evaluation through a logistic (no playouts). Reports Mate(n) as alphabeta does \
once the root is proven, and stops then; else the win rate of the most visited move. \
Deterministic: the seed is unused. Repetitions and the no-capture limit on the path are unproven \
leaves scored as the rules score them.";

/// Every spec key of `mcts-solver` (see [`jieqi_engine::keys`]).
pub const KEYS: &[Key] = &[
    Key::int(
        "iters",
        "",
        (1, 1 << 40),
        "iterations per move (none: 20000; Limits.nodes overrides, and under a movetime or clock \
         limit without iters it runs until its time budget is spent; a depth limit is ignored)",
    ),
    Key::float("c", "0.7", (0.0, 100.0), "UCB exploration constant").tuned(0.2, 1.5),
    Key::float(
        "widen",
        "0.5",
        (0.0, 1.0),
        "exponent a of the widening k(n) = ceil(width * n^a)",
    )
    .tuned(0.3, 0.7),
    Key::float("width", "2", (0.01, 1000.0), "the widening's factor").tuned(1.0, 4.0),
    Key::choice(
        "prior",
        "checks",
        &["checks", "captures", "none"],
        "the widening's move order",
    ),
    Key::int(
        "tt_mb",
        "256",
        (1, 1 << 20),
        "table size in MB; when full the tree stops growing and new edges are valued by the \
         evaluation",
    ),
];

/// The help text: [`HELP`] and every key of [`KEYS`] with its default.
pub fn help() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| format!("{HELP} Keys: {}.", jieqi_engine::keys::help_list(KEYS)))
}

/// The spec keys ([`KEYS`]).
pub fn keys() -> &'static [Key] {
    KEYS
}

/// Default iterations per move.
pub const DEFAULT_ITERS: u64 = 20_000;

/// Iterations between two routine reports (a change of the best move is reported at once).
pub const REPORT_EVERY: u64 = 1000;

/// The path counts the first recurrence of a position as a repetition, as alpha-beta and ismcts do.
const PATH_REPETITION_COUNT: u32 = 2;

/// Positions the mate prover may visit looking for a shorter mate than the proof found.
pub const VERIFY_NODES: u64 = 200_000;

/// Plies below the root past which a path ends at the evaluation.
const MAX_PLY: u32 = 256;

const NONE: u32 = u32::MAX;

/// Move prior of the widening order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Prior {
    /// Checks first, then captures by MVV/LVA, then the rest.
    Checks,
    /// Captures by MVV/LVA first, then the rest.
    Captures,
    /// Generation order.
    None,
}

/// The MCTS-Solver engine.
#[derive(Clone, Debug)]
pub struct MctsSolver {
    /// Iterations per move, if the spec sets them (budget rules as `ismcts`).
    pub iters: Option<u64>,
    /// UCB exploration constant.
    pub c: f64,
    /// Widening exponent: a node with `n` visits considers its first `ceil(width · n^widen)` moves.
    pub widen: f64,
    /// Widening factor.
    pub width: f64,
    /// The move order of the widening.
    pub prior: Prior,
    /// Table size in megabytes; past it the tree stops growing.
    pub tt_mb: usize,
}

impl Default for MctsSolver {
    /// Every key at its default ([`KEYS`]).
    fn default() -> MctsSolver {
        MctsSolver::from_values(&Values::defaults(KEYS))
    }
}

/// Builds the engine from a spec.
///
/// # Errors
/// An unknown key or a value out of range.
pub fn from_spec(spec: &Spec) -> Result<Box<dyn Engine>, SpecError> {
    Ok(Box::new(MctsSolver::from_spec(spec)?))
}

impl MctsSolver {
    /// Reads `mcts-solver[:key=value,…]` (the keys of [`KEYS`]).
    ///
    /// # Errors
    /// An unknown key or a value out of range.
    pub fn from_spec(spec: &Spec) -> Result<MctsSolver, SpecError> {
        Ok(MctsSolver::from_values(&Values::read(spec, KEYS)?))
    }

    /// The engine the key values `v` (of [`KEYS`]) say.
    fn from_values(v: &Values) -> MctsSolver {
        MctsSolver {
            iters: v.opt_int("iters").map(|n| n as u64),
            c: v.float("c"),
            widen: v.float("widen"),
            width: v.float("width"),
            prior: match v.text("prior") {
                "checks" => Prior::Checks,
                "captures" => Prior::Captures,
                _ => Prior::None,
            },
            tt_mb: v.int("tt_mb") as usize,
        }
    }
}

/// A score in [0, 1] for one side seen from the other (the same map both ways).
#[inline]
fn flip(x: f64, keep: bool) -> f64 {
    if keep { x } else { 1.0 - x }
}

/// Rough MVV/LVA value of an occupant (a hidden piece counts as a middling one).
fn role_value(o: Option<Occupant>) -> i32 {
    match o {
        None => 0,
        Some(Occupant::Hidden(_)) => 3,
        Some(Occupant::Revealed(p)) => match p.role {
            Role::Chariot => 9,
            Role::Cannon => 5,
            Role::Horse => 4,
            Role::Elephant | Role::Advisor => 2,
            Role::Pawn => 1,
            Role::King => 100,
        },
    }
}

/// Whether legal move `mv` ends the game at once with its mover winning, in every reveal outcome
/// the player `knowledge` describes considers possible: the enemy king is taken, or the opponent
/// is left without a legal move (checkmate or stalemate). Used by the MCTS engines to report a
/// proven [`Score::Mate`]`(1)`.
pub fn wins_at_once(pos: &Position, knowledge: &Knowledge, mv: Move) -> bool {
    let br = branches(pos, knowledge, mv);
    let mut pos = pos.clone();
    br.as_slice().iter().all(|b| {
        if b.king_win {
            return true;
        }
        let pm = PlayedMove {
            mv,
            reveal: b.reveal,
            capture: None,
        };
        let undo = pos.make(pm);
        let won = pos.king_lost(pos.turn()) || !pos.has_legal_move();
        pos.unmake(pm, undo);
        won
    })
}

impl Engine for MctsSolver {
    /// It checks the stop flag after every iteration.
    fn stops_on_request(&self) -> bool {
        true
    }

    fn search(
        &mut self,
        view: &View,
        limits: &Limits,
        _seed: u64,
        control: &Control<'_>,
    ) -> Result<Choice, EngineError> {
        if view.legal_moves().is_empty() {
            return Err(EngineError::new("mcts-solver: no legal move"));
        }
        let us = view.position().turn();
        let budget = Budget::new(limits, us, self.iters, DEFAULT_ITERS, *control);
        let mut s = Search::new(self, view, control);
        let mut done = 0u64;
        let mut last: Option<(Move, Proof)> = None;
        while !budget.exhausted(done) {
            s.iterate();
            done += 1;
            let (j, proof, _) = s.best_edge(0).expect("the root has moves");
            let now = (s.edges[j].mv, proof);
            if last != Some(now) || done % REPORT_EVERY == 0 {
                last = Some(now);
                control.report(|| s.info(done).map(|(_, i, _)| i).unwrap_or_default());
            }
            if s.nodes[0].proof != Proof::Unknown {
                break;
            }
        }
        let (mut mv, mut info, proof) = s.info(done).expect("the root has moves");
        // The proof found first need not be the shortest: look for a shorter mate exhaustively.
        if let Proof::Win(d) = proof {
            if d > 1 {
                if let Some((m, k)) = s.shorter_mate(d) {
                    mv = m;
                    info.score = Proof::Win(k).score();
                    info.pv = vec![m];
                    control.report(|| info.clone());
                }
            }
        }
        Ok(Choice { mv, info })
    }
}
