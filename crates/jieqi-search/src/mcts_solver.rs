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
//! an unproven move may mate faster; so a proven win in `p > 1` plies is checked by an exhaustive
//! search of the shorter distances (every reveal outcome must mate, repetitions are not looked at),
//! bounded by [`VERIFY_NODES`] positions, and a shorter mate it finds is the answer.
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
use jieqi_core::{
    Color, HistoryEntry, Knowledge, Move, MoveList, Occupant, PerpetualCheck, PlayedMove, Position,
    Reason, RepetitionHistory, Role, Undo, View, classify_before_moves,
};
use jieqi_engine::{
    Choice, Control, Engine, EngineError, Limits, Score, SearchInfo, Spec, SpecError,
};

use crate::alphabeta::{Branches, branches};
use crate::eval::{EvalWeights, evaluate_known, win_probability};
use crate::playout::{Budget, spec_error};

/// Spec name.
pub const NAME: &str = "mcts-solver";

/// Help text.
pub const HELP: &str = "MCTS-Solver (Winands, Bjornsson & Saito 2008) for endgames and puzzles: \
MCTS over the view's public game tree with proven wins and losses backed up (a node is won if one \
move wins, lost if every move loses; a hidden-piece move is a chance node over the pool's \
identities, proven only when every outcome is), positions shared through a transposition table, \
progressive widening in prior order (checks, then captures by MVV/LVA, then the rest), leaves \
valued by the static evaluation through a logistic (no playouts). Reports Mate(n) as alphabeta does \
once the root is proven, and stops then; else the win rate of the most visited move. Keys: iters \
(iterations, default 20000; Limits.nodes overrides, and under a movetime or clock limit without \
iters it runs until its time budget is spent; a depth limit is ignored), c (exploration, default \
0.7), widen (exponent a of the widening k(n) = ceil(width * n^a), default 0.5, in [0, 1]), width \
(its factor, default 2), prior (checks|captures|none, default checks), tt_mb (table size in MB, \
default 256; when full the tree stops growing and new edges are valued by the evaluation). \
Deterministic: the seed is unused. Repetitions and the no-capture limit on the path are unproven \
leaves scored as the rules score them.";

/// Default iterations per move.
pub const DEFAULT_ITERS: u64 = 20_000;

/// Default table size in megabytes.
pub const DEFAULT_TT_MB: usize = 256;

/// Iterations between two routine reports (a change of the best move is reported at once).
pub const REPORT_EVERY: u64 = 1000;

/// The path counts the first recurrence of a position as a repetition, as alpha-beta and ismcts do.
const PATH_REPETITION_COUNT: u32 = 2;

/// Positions the exhaustive search for a shorter mate than the proof found may visit.
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

/// What is proven about a node for its side to move (or about an edge for its mover), with the
/// distance to the end in plies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Nothing.
    Unknown,
    /// A forced win in this many plies.
    Win(u32),
    /// A forced loss in this many plies (at most: the opponent wins within them).
    Loss(u32),
}

impl Proof {
    /// The proof one ply up, for the side that moved into this node.
    fn up(self) -> Proof {
        match self {
            Proof::Unknown => Proof::Unknown,
            Proof::Win(d) => Proof::Loss(d + 1),
            Proof::Loss(d) => Proof::Win(d + 1),
        }
    }

    /// The score of a proven move (alpha-beta's plies-to-moves mapping), if proven.
    pub fn score(self) -> Option<Score> {
        match self {
            Proof::Unknown => None,
            Proof::Win(d) => Some(Score::Mate((d as i32 + 1) / 2)),
            Proof::Loss(d) => Some(Score::Mate(-(d as i32 / 2))),
        }
    }
}

/// A decision node: one position, shared through the table.
#[derive(Clone, Debug)]
struct Node {
    visits: u32,
    /// Sum of values for the side to move.
    sum: f64,
    proof: Proof,
    /// The side to move is Red.
    red: bool,
    first_edge: u32,
    len: u32,
}

const UNSET: u8 = 0;
const DECISION: u8 = 1;
const CHANCE: u8 = 2;

/// A legal move of a decision node, in prior order.
#[derive(Copy, Clone, Debug)]
struct Edge {
    mv: Move,
    /// [`UNSET`] (never tried), [`DECISION`] (`child` is a node) or [`CHANCE`] (`child` is a
    /// chance node).
    kind: u8,
    /// The identity a deterministic move reveals (an omniscient view's hidden mover).
    reveal: Option<Role>,
    child: u32,
}

/// A hidden-piece move's reveal: its outcomes are `outcomes[first..first + len]`.
#[derive(Clone, Debug)]
struct Chance {
    visits: u32,
    first: u32,
    len: u32,
    total: u32,
}

/// One identity the hidden mover may reveal.
#[derive(Copy, Clone, Debug)]
struct Outcome {
    weight: u32,
    reveal: Option<Role>,
    /// The move took the hidden enemy king in this outcome: an immediate win, no node.
    king_win: bool,
    child: u32,
}

/// One step of an iteration's path.
#[derive(Copy, Clone, Debug)]
enum Step {
    Node(u32),
    Chance(u32),
}

/// How [`Search::best_edge`] ranks a move: class (win 2, open 1, lost 0), then keys within it.
type Rank = (u8, i64, f64);

type Table = crate::KeyMap<u32>;

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
    fn default() -> MctsSolver {
        MctsSolver {
            iters: None,
            c: 0.7,
            widen: 0.5,
            width: 2.0,
            prior: Prior::Checks,
            tt_mb: DEFAULT_TT_MB,
        }
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
    /// Reads `mcts-solver[:iters=N,c=X,widen=A,width=W,prior=checks|captures|none,tt_mb=M]`.
    ///
    /// # Errors
    /// An unknown key or a value out of range.
    pub fn from_spec(spec: &Spec) -> Result<MctsSolver, SpecError> {
        let d = MctsSolver::default();
        let mut p = spec.params();
        let iters: Option<u64> = match p.get::<u64>("iters", 0)? {
            0 if spec.params.iter().any(|(k, _)| k == "iters") => {
                return Err(spec_error(spec, "iters must be at least 1".into()));
            }
            0 => None,
            n => Some(n),
        };
        let c = p.get_f64_in("c", d.c, 0.0, 100.0)?;
        let widen = p.get_f64_in("widen", d.widen, 0.0, 1.0)?;
        let width = p.get_f64_in("width", d.width, 0.01, 1000.0)?;
        let prior = match p.get_choice("prior", "checks", &["checks", "captures", "none"])? {
            "checks" => Prior::Checks,
            "captures" => Prior::Captures,
            _ => Prior::None,
        };
        let tt_mb: usize = p.get("tt_mb", d.tt_mb)?;
        if !(1..=1 << 20).contains(&tt_mb) {
            return Err(spec_error(
                spec,
                format!("tt_mb = {tt_mb} must be in [1, 1048576]"),
            ));
        }
        p.finish(&["iters", "c", "widen", "width", "prior", "tt_mb"])?;
        Ok(MctsSolver {
            iters,
            c,
            widen,
            width,
            prior,
            tt_mb,
        })
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

/// The search state of one `go`.
struct Search<'a> {
    cfg: &'a MctsSolver,
    knowledge: Knowledge,
    weights: EvalWeights,
    pos: Position,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    chances: Vec<Chance>,
    outcomes: Vec<Outcome>,
    table: Table,
    /// Approximate bytes the tree may use.
    cap: usize,
    history: RepetitionHistory,
    root_len: usize,
    track_checks: bool,
    path: Vec<Step>,
    made: Vec<(PlayedMove, Undo)>,
    /// The deepest ply an iteration reached.
    max_ply: u32,
    /// The root moves when the front end restricted them (`go searchmoves`, see
    /// [`Control::root_moves`]); empty: every legal move.
    root_filter: Vec<Move>,
}

impl<'a> Search<'a> {
    fn new(cfg: &'a MctsSolver, view: &View, control: &Control<'_>) -> Search<'a> {
        let pos = view.position().clone();
        let history = RepetitionHistory::of_view(view);
        let root_len = history.len();
        let track_checks = {
            let r = pos.rules();
            r.check && r.perpetual_check == PerpetualCheck::Loses
        };
        let mut s = Search {
            cfg,
            knowledge: view.knowledge(),
            weights: EvalWeights::default(),
            pos,
            nodes: Vec::with_capacity(1 << 12),
            edges: Vec::with_capacity(1 << 16),
            chances: Vec::new(),
            outcomes: Vec::new(),
            table: Table::default(),
            cap: cfg.tt_mb.saturating_mul(1 << 20),
            history,
            root_len,
            track_checks,
            path: Vec::with_capacity(MAX_PLY as usize * 2 + 4),
            made: Vec::with_capacity(MAX_PLY as usize + 2),
            max_ply: 0,
            root_filter: if control.searchmoves().is_empty() {
                Vec::new()
            } else {
                control.root_moves(view.legal_moves()).to_vec()
            },
        };
        let (root, _) = s.create();
        debug_assert_eq!(root, 0);
        s
    }

    /// Approximate bytes in use.
    fn used(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<Node>()
            + self.edges.capacity() * size_of::<Edge>()
            + self.chances.capacity() * size_of::<Chance>()
            + self.outcomes.capacity() * size_of::<Outcome>()
            + self.table.capacity() * (size_of::<(u64, u32)>() + 1)
    }

    fn full(&self) -> bool {
        self.used() >= self.cap
    }

    /// The static value of the current position for its side to move, in [0, 1].
    fn leaf(&self) -> f64 {
        win_probability(evaluate_known(&self.pos, &self.weights, &self.knowledge))
    }

    /// The value of the current position for its side to move without storing it: 0 if it is
    /// lost, else the evaluation.
    fn loose_leaf(&self) -> f64 {
        if self.pos.king_lost(self.pos.turn()) || !self.pos.has_legal_move() {
            0.0
        } else {
            self.leaf()
        }
    }

    /// Creates the node of the current position (its edges in prior order, one visit at its
    /// static value) and enters it in the table. Returns it and its value for its side to move.
    fn create(&mut self) -> (u32, f64) {
        let pos = &self.pos;
        let red = pos.turn() == Color::Red;
        let idx = self.nodes.len() as u32;
        let first_edge = self.edges.len() as u32;
        let root = self.nodes.is_empty();
        let (proof, len, value) = if pos.king_lost(pos.turn()) {
            (Proof::Loss(0), 0, 0.0)
        } else {
            let mut moves = pos.legal_moves();
            if root && !self.root_filter.is_empty() {
                // The root: only the moves the front end allows (`go searchmoves`).
                moves = MoveList::new();
                for &m in &self.root_filter {
                    moves.push(m);
                }
            }
            if moves.is_empty() {
                (Proof::Loss(0), 0, 0.0)
            } else {
                let n = moves.len();
                let mut keyed = [(0i32, 0u16); jieqi_core::MAX_MOVES];
                for (i, &m) in moves.iter().enumerate() {
                    keyed[i] = (self.prior_of(m), i as u16);
                }
                keyed[..n].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                for &(_, i) in &keyed[..n] {
                    self.edges.push(Edge {
                        mv: moves[i as usize],
                        kind: UNSET,
                        reveal: None,
                        child: NONE,
                    });
                }
                (Proof::Unknown, n as u32, self.leaf())
            }
        };
        self.nodes.push(Node {
            visits: 1,
            sum: value,
            proof,
            red,
            first_edge,
            len,
        });
        // A restricted root is not the position's node for the paths that reach it again.
        if !root || self.root_filter.is_empty() {
            self.table.insert(self.pos.hash(), idx);
        }
        (idx, value)
    }

    /// The prior of legal move `m` in the current position (higher first).
    fn prior_of(&mut self, m: Move) -> i32 {
        if self.cfg.prior == Prior::None {
            return 0;
        }
        let attacker = self.pos.occupant(m.from);
        let victim = if m.from == m.to {
            None
        } else {
            self.pos.occupant(m.to)
        };
        let mut score = 0;
        if victim.is_some() {
            score += (1 << 16) + 64 * role_value(victim) - role_value(attacker);
        }
        if self.cfg.prior == Prior::Checks
            && self.pos.rules().check
            && matches!(attacker, Some(Occupant::Revealed(_)))
        {
            let pm = PlayedMove::plain(m);
            let undo = self.pos.make(pm);
            let check = self.pos.in_check();
            self.pos.unmake(pm, undo);
            if check {
                score += 1 << 24;
            }
        }
        score
    }

    /// The proof of edge `e` for its mover.
    fn edge_proof(&self, e: &Edge) -> Proof {
        match e.kind {
            DECISION => self.nodes[e.child as usize].proof.up(),
            CHANCE => self.chance_proof(e.child),
            _ => Proof::Unknown,
        }
    }

    /// A chance node's proof for the mover: every outcome proven the same way, at the largest
    /// distance.
    fn chance_proof(&self, ch: u32) -> Proof {
        let c = &self.chances[ch as usize];
        let (mut wins, mut losses, mut far) = (0, 0, 0);
        for o in &self.outcomes[c.first as usize..(c.first + c.len) as usize] {
            let p = if o.king_win {
                Proof::Win(1)
            } else {
                self.nodes[o.child as usize].proof.up()
            };
            match p {
                Proof::Unknown => return Proof::Unknown,
                Proof::Win(d) => {
                    wins += 1;
                    far = far.max(d);
                }
                Proof::Loss(d) => {
                    losses += 1;
                    far = far.max(d);
                }
            }
            if wins > 0 && losses > 0 {
                return Proof::Unknown;
            }
        }
        if losses == 0 {
            Proof::Win(far)
        } else {
            Proof::Loss(far)
        }
    }

    /// A chance node's value for the mover: the probability-weighted mean of its outcomes'
    /// values (proven ones exactly).
    fn chance_value(&self, ch: u32) -> f64 {
        let c = &self.chances[ch as usize];
        let mut s = 0.0;
        for o in &self.outcomes[c.first as usize..(c.first + c.len) as usize] {
            let v = if o.king_win {
                1.0
            } else {
                self.node_value(o.child).map_or(0.5, |v| 1.0 - v)
            };
            s += f64::from(o.weight) * v;
        }
        s / f64::from(c.total)
    }

    /// A node's value for its side to move: 1 or 0 when proven, else its mean.
    fn node_value(&self, n: u32) -> Option<f64> {
        let node = &self.nodes[n as usize];
        match node.proof {
            Proof::Win(_) => Some(1.0),
            Proof::Loss(_) => Some(0.0),
            Proof::Unknown if node.visits > 0 => Some(node.sum / f64::from(node.visits)),
            Proof::Unknown => None,
        }
    }

    /// An edge's (mean for its mover, visits), `None` if never tried.
    fn edge_stats(&self, e: &Edge) -> Option<(f64, u32)> {
        match e.kind {
            DECISION => {
                let n = &self.nodes[e.child as usize];
                Some((self.node_value(e.child).map_or(0.5, |v| 1.0 - v), n.visits))
            }
            CHANCE => Some((
                self.chance_value(e.child),
                self.chances[e.child as usize].visits,
            )),
            _ => None,
        }
    }

    /// Recomputes an unproven node's proof from all its edges.
    fn refresh(&mut self, n: u32) {
        let node = &self.nodes[n as usize];
        if node.proof != Proof::Unknown {
            return;
        }
        let (first, len) = (node.first_edge as usize, node.len as usize);
        let mut best_win = u32::MAX;
        let mut all_lost = true;
        let mut longest = 0;
        for e in &self.edges[first..first + len] {
            match self.edge_proof(e) {
                Proof::Win(d) => best_win = best_win.min(d),
                Proof::Loss(d) => longest = longest.max(d),
                Proof::Unknown => all_lost = false,
            }
        }
        let proof = if best_win != u32::MAX {
            Proof::Win(best_win)
        } else if all_lost && len > 0 {
            Proof::Loss(longest)
        } else {
            Proof::Unknown
        };
        self.nodes[n as usize].proof = proof;
    }

    /// The edge to follow from unproven node `n` (progressive widening, then UCB).
    fn select(&self, n: u32) -> usize {
        let node = &self.nodes[n as usize];
        let (first, len) = (node.first_edge as usize, node.len as usize);
        let visits = f64::from(node.visits.max(1));
        let k = ((self.cfg.width * visits.powf(self.cfg.widen)).ceil() as usize).clamp(1, len);
        let ln = visits.ln();
        let mut best = NONE as usize;
        let mut best_ucb = f64::NEG_INFINITY;
        for j in first..first + len {
            if j >= first + k && best != NONE as usize {
                break;
            }
            let e = &self.edges[j];
            if matches!(self.edge_proof(e), Proof::Loss(_)) {
                continue;
            }
            let Some((q, ne)) = self.edge_stats(e) else {
                return j;
            };
            let ucb = q + self.cfg.c * (ln / f64::from(ne.max(1))).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = j;
            }
        }
        debug_assert!(
            best != NONE as usize,
            "an unproven node has a move not lost"
        );
        best
    }

    /// Plays `pm` on the iteration's position and path history.
    fn play(&mut self, pm: PlayedMove) {
        let undo = self.pos.make(pm);
        let irreversible = pm.reveal.is_some() || undo.captured().is_some();
        self.history.push(
            HistoryEntry {
                hash: self.pos.hash(),
                in_check: self.track_checks && self.pos.in_check(),
            },
            irreversible,
        );
        self.made.push((pm, undo));
    }

    /// The value for the side to move of a position that the path ends by a rule that depends
    /// on the path (a repetition, the no-capture limit); `None` otherwise.
    fn path_end(&self) -> Option<f64> {
        let o = classify_before_moves(
            &self.pos,
            false,
            self.history.window(),
            PATH_REPETITION_COUNT,
        )?;
        match o.reason {
            Reason::Repetition | Reason::PerpetualCheck | Reason::NoCaptureLimit => {
                Some(match o.winner {
                    None => 0.5,
                    Some(w) => flip(1.0, w == self.pos.turn()),
                })
            }
            // A lost king or no legal move: a property of the position, found by its node.
            _ => None,
        }
    }

    /// The node of the current position from the table, or a new one with its value (`None`
    /// when the table is full: then the value is not stored).
    fn enter(&mut self) -> (Option<u32>, Option<f64>) {
        if let Some(&n) = self.table.get(&self.pos.hash()) {
            return (Some(n), None);
        }
        if self.full() {
            return (None, Some(self.loose_leaf()));
        }
        let (n, v) = self.create();
        (Some(n), Some(v))
    }

    /// Expands chance edge `e` of move `mv` with outcomes `br` (the mover is to move now): all
    /// its outcomes' nodes are entered. Returns the chance node.
    fn expand_chance(&mut self, e: usize, br: &Branches) -> u32 {
        let mv = self.edges[e].mv;
        let ch = self.chances.len() as u32;
        let first = self.outcomes.len() as u32;
        for b in br.as_slice() {
            let mut child = NONE;
            if !b.king_win {
                let pm = PlayedMove {
                    mv,
                    reveal: b.reveal,
                    capture: None,
                };
                let undo = self.pos.make(pm);
                child = match self.table.get(&self.pos.hash()) {
                    Some(&n) => n,
                    None => self.create().0,
                };
                self.pos.unmake(pm, undo);
            }
            self.outcomes.push(Outcome {
                weight: b.weight,
                reveal: b.reveal,
                king_win: b.king_win,
                child,
            });
        }
        self.chances.push(Chance {
            visits: 0,
            first,
            len: br.as_slice().len() as u32,
            total: br.total,
        });
        self.edges[e].kind = CHANCE;
        self.edges[e].child = ch;
        ch
    }

    /// The mean over `br`'s outcomes of the static values after `mv`, for the mover, without
    /// storing anything (the table is full).
    fn loose_chance(&mut self, mv: Move, br: &Branches) -> f64 {
        let mut s = 0.0;
        for b in br.as_slice() {
            let v = if b.king_win {
                1.0
            } else {
                let pm = PlayedMove {
                    mv,
                    reveal: b.reveal,
                    capture: None,
                };
                let undo = self.pos.make(pm);
                let v = 1.0 - self.loose_leaf();
                self.pos.unmake(pm, undo);
                v
            };
            s += f64::from(b.weight) * v;
        }
        s / f64::from(br.total)
    }

    /// One iteration: select, expand, evaluate, back up.
    fn iterate(&mut self) {
        self.path.clear();
        self.history.truncate(self.root_len);
        let mut node = 0u32;
        let mut ply = 0u32;
        // The value for Red of where the path ended.
        let value: f64 = loop {
            self.path.push(Step::Node(node));
            self.refresh(node);
            let red = self.nodes[node as usize].red;
            match self.nodes[node as usize].proof {
                Proof::Win(_) => break flip(1.0, red),
                Proof::Loss(_) => break flip(0.0, red),
                Proof::Unknown if ply >= MAX_PLY => break flip(self.leaf(), red),
                Proof::Unknown => {}
            }
            let e = self.select(node);
            let edge = self.edges[e];
            ply += 1;
            match edge.kind {
                UNSET => {
                    let br = branches(&self.pos, &self.knowledge, edge.mv);
                    if br.is_single() {
                        let reveal = br.as_slice()[0].reveal;
                        self.edges[e].reveal = reveal;
                        self.play(PlayedMove {
                            mv: edge.mv,
                            reveal,
                            capture: None,
                        });
                        if let Some(v) = self.path_end() {
                            break flip(v, !red);
                        }
                        match self.enter() {
                            (Some(c), None) => {
                                self.edges[e].kind = DECISION;
                                self.edges[e].child = c;
                                node = c;
                            }
                            (Some(c), Some(v)) => {
                                self.edges[e].kind = DECISION;
                                self.edges[e].child = c;
                                break flip(v, !red);
                            }
                            (None, v) => break flip(v.unwrap_or(0.5), !red),
                        }
                    } else if self.full() {
                        break flip(self.loose_chance(edge.mv, &br), red);
                    } else {
                        let ch = self.expand_chance(e, &br);
                        self.path.push(Step::Chance(ch));
                        break flip(self.chance_value(ch), red);
                    }
                }
                DECISION => {
                    self.play(PlayedMove {
                        mv: edge.mv,
                        reveal: edge.reveal,
                        capture: None,
                    });
                    if let Some(v) = self.path_end() {
                        break flip(v, !red);
                    }
                    node = edge.child;
                }
                _ => {
                    let ch = edge.child;
                    self.path.push(Step::Chance(ch));
                    let c = &self.chances[ch as usize];
                    let mut pick = None;
                    let mut best = f64::NEG_INFINITY;
                    for i in c.first..c.first + c.len {
                        let o = &self.outcomes[i as usize];
                        if o.king_win || self.nodes[o.child as usize].proof != Proof::Unknown {
                            continue;
                        }
                        let n = self.nodes[o.child as usize].visits;
                        let key = f64::from(o.weight) / f64::from(n + 1);
                        if key > best {
                            best = key;
                            pick = Some(i);
                        }
                    }
                    let Some(i) = pick else {
                        // Every outcome is proven (the parent's refresh will see it).
                        break flip(self.chance_value(ch), red);
                    };
                    let o = self.outcomes[i as usize];
                    self.play(PlayedMove {
                        mv: edge.mv,
                        reveal: o.reveal,
                        capture: None,
                    });
                    if let Some(v) = self.path_end() {
                        break flip(v, !red);
                    }
                    node = o.child;
                }
            }
        };
        self.max_ply = self.max_ply.max(ply);
        // Back up: a proven node passes up its proof, a chance node its weighted mean.
        let mut v = value;
        for i in (0..self.path.len()).rev() {
            match self.path[i] {
                Step::Node(n) => {
                    self.refresh(n);
                    let node = &mut self.nodes[n as usize];
                    node.visits += 1;
                    node.sum += flip(v, node.red);
                    match node.proof {
                        Proof::Win(_) => v = flip(1.0, node.red),
                        Proof::Loss(_) => v = flip(0.0, node.red),
                        Proof::Unknown => {}
                    }
                }
                Step::Chance(ch) => {
                    self.chances[ch as usize].visits += 1;
                    // The chance node's mover is the side to move at the node above it.
                    let mover_red = match self.path[i - 1] {
                        Step::Node(p) => self.nodes[p as usize].red,
                        Step::Chance(_) => unreachable!("a chance node hangs from a decision node"),
                    };
                    v = flip(self.chance_value(ch), mover_red);
                }
            }
        }
        while let Some((pm, undo)) = self.made.pop() {
            self.pos.unmake(pm, undo);
        }
    }

    /// The edge the search would answer at node `n` with its proof and mean (see the module
    /// docs: shortest proven win, else most visited not lost, else longest loss).
    fn best_edge(&self, n: u32) -> Option<(usize, Proof, f64)> {
        let node = &self.nodes[n as usize];
        let (first, len) = (node.first_edge as usize, node.len as usize);
        // Rank: class (win 2, open 1, lost 0), then a key within the class.
        let mut best: Option<(usize, Proof, f64, Rank)> = None;
        for j in first..first + len {
            let e = &self.edges[j];
            let p = self.edge_proof(e);
            let (q, visits) = self.edge_stats(e).unwrap_or((0.5, 0));
            let rank = match p {
                Proof::Win(d) => (2, -i64::from(d), 0.0),
                Proof::Unknown => (1, i64::from(visits), q),
                Proof::Loss(d) => (0, i64::from(d), f64::from(visits)),
            };
            let better = match &best {
                None => true,
                Some((_, _, _, r)) => {
                    (rank.0, rank.1)
                        .cmp(&(r.0, r.1))
                        .then(rank.2.total_cmp(&r.2))
                        == std::cmp::Ordering::Greater
                }
            };
            if better {
                best = Some((j, p, q, rank));
            }
        }
        best.map(|(j, p, q, _)| (j, p, q))
    }

    /// The principal variation from the root: best edges, cut after a hidden-piece move.
    fn pv(&self) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut node = 0u32;
        while pv.len() < 64 {
            let Some((j, _, _)) = self.best_edge(node) else {
                break;
            };
            let e = &self.edges[j];
            pv.push(e.mv);
            if e.kind != DECISION {
                break;
            }
            node = e.child;
        }
        pv
    }

    /// A root move that mates in fewer plies than `plies` (the root's proven win), found by an
    /// exhaustive search of the shorter distances (every outcome of a hidden-piece move must
    /// mate), with the distance; `None` if there is none or [`VERIFY_NODES`] run out first.
    fn shorter_mate(&mut self, plies: u32) -> Option<(Move, u32)> {
        let mut budget = VERIFY_NODES;
        let moves = if self.root_filter.is_empty() {
            self.pos.legal_moves().to_vec()
        } else {
            self.root_filter.clone()
        };
        for k in (1..plies).step_by(2) {
            for &m in moves.iter() {
                match self.mates_by(m, k, &mut budget) {
                    Some(true) => return Some((m, k)),
                    Some(false) => {}
                    None => return None,
                }
            }
        }
        None
    }

    /// Whether move `m` of the side to move mates within `plies` plies in every outcome
    /// (`None`: the budget ran out).
    fn mates_by(&mut self, m: Move, plies: u32, budget: &mut u64) -> Option<bool> {
        let br = branches(&self.pos, &self.knowledge, m);
        for b in br.as_slice() {
            if b.king_win {
                continue;
            }
            let pm = PlayedMove {
                mv: m,
                reveal: b.reveal,
                capture: None,
            };
            *budget = budget.checked_sub(1)?;
            let undo = self.pos.make(pm);
            let mated = self.is_mated_within(plies - 1, budget);
            self.pos.unmake(pm, undo);
            if mated != Some(true) {
                return mated;
            }
        }
        Some(true)
    }

    /// Whether the side to move is lost now or, with `plies` left to the opponent, whatever it
    /// plays (`None`: the budget ran out).
    fn is_mated_within(&mut self, plies: u32, budget: &mut u64) -> Option<bool> {
        if self.pos.king_lost(self.pos.turn()) || !self.pos.has_legal_move() {
            return Some(true);
        }
        if plies == 0 {
            return Some(false);
        }
        let replies = self.pos.legal_moves();
        for &r in replies.iter() {
            for b in branches(&self.pos, &self.knowledge, r).as_slice() {
                if b.king_win {
                    return Some(false);
                }
                let pm = PlayedMove {
                    mv: r,
                    reveal: b.reveal,
                    capture: None,
                };
                *budget = budget.checked_sub(1)?;
                let undo = self.pos.make(pm);
                let moves = self.pos.legal_moves();
                let mut mates = Some(false);
                for &m in moves.iter() {
                    mates = self.mates_by(m, plies - 1, budget);
                    if mates != Some(false) {
                        break;
                    }
                }
                self.pos.unmake(pm, undo);
                if mates != Some(true) {
                    return mates;
                }
            }
        }
        Some(true)
    }

    /// The search info of the current best root move.
    fn info(&self, iterations: u64) -> Option<(Move, SearchInfo, Proof)> {
        let (j, proof, q) = self.best_edge(0)?;
        let score = proof.score().unwrap_or(Score::WinRate(q));
        Some((
            self.edges[j].mv,
            SearchInfo {
                nodes: iterations,
                depth: Some(self.max_ply),
                score: Some(score),
                pv: self.pv(),
            },
            proof,
        ))
    }
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
