//! `ismcts`: single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012, "SO-ISMCTS").
//!
//! # Algorithm
//! Each iteration draws one determinization from the player's view ([`View::sample`], the exact
//! posterior) and walks one tree with it: select, expand one node, play out, back up. The tree is
//! the observer's: both sides' decisions live in it (the opponent's nodes are the same observer's
//! information sets, as in SO-ISMCTS), and an edge is a public move, so a node's statistics average
//! over every hidden assignment consistent with what the observer has seen on the way.
//!
//! **Availability-aware UCB.** Which moves exist at a node can depend on the determinization, so a
//! child counts how often it was *available* (legal when its parent was passed with some
//! determinization) and UCB uses that count in place of the parent's visits:
//! `mean + c·sqrt(ln(avail) / visits)`. Moves legal in this determinization but without a child are
//! expanded first (one new node per iteration, chosen uniformly). Availability is found without
//! search by marking the legal moves in a per-from-square bit table, so a node costs
//! O(moves + children).
//!
//! **Reveals are chance at the edge.** A move of a hidden piece reveals an identity. Its edge is a
//! *chance node*: its children are the revealed identities, one per outcome seen, and each
//! iteration descends into the outcome the *current* determinization gives (so outcomes are visited
//! with their posterior frequencies). The identity is never fixed for the whole tree, and the
//! decision nodes after a reveal are distinct per identity. This is the choice between the two
//! designs an ISMCTS for Jieqi can take (the other: one shared node after the reveal with the
//! identity carried by the determinization, relying on availability for the differing moves). We
//! take the chance-node design because after a reveal both players *know* the identity: a shared
//! node would fuse information sets that differ in public information, so a reply could not depend
//! on what was revealed (a revealed chariot and a revealed pawn would share one move statistic for
//! "what next"). Strategy fusion — a player acting as if it knew hidden identities — is avoided the
//! other way round: nodes are keyed only by public events (moves and reveals), never by a hidden
//! identity, so at a decision before a reveal every determinization shares the same statistics and
//! the search cannot pick a different move per unseen assignment. Because the public board after a
//! sequence of (move, reveal) events is fixed, the legal moves at a node rarely vary here; availability
//! counts still differ from parent visits for children added after the node's first visits and
//! where a king capture ends only some determinizations (the seed-000 variant's hidden king).
//! Identities of captured hidden pieces are not branched on (the board does not show them).
//!
//! **Progressive widening.** A node with `n` visits has at most `⌈width·(n+1)^widen⌉` children
//! (default √(n+1)); a new child is the untried legal move of highest prior
//! ([`crate::leaf::prior`]: checks, then captures, most valuable victim first, least valuable
//! attacker next; ties broken at random), so the tree looks at forcing moves before quiet moves and spends its visits
//! on few moves at the nodes it has seen little. `width=0` is the original design: every legal
//! move is added, in random order, before UCB chooses among them.
//!
//! **Leaves.** A new node is valued by a capture-only quiescence search on the iteration's
//! determinization, scored by the evaluation's win probability ([`crate::leaf`], `leaf=qsearch`,
//! the default; the learned weights unless `eval=` names a file), or by a playout
//! (`leaf=playout`): random or capture-biased ([`crate::playout`]), cut off after `cutoff` plies
//! and scored by the evaluation (early playout termination). At 20 ms a move the quiescence
//! leaves with widening beat the playout design (fa338b7) by +490 ± 55 Elo (docs/engines.md).
//!
//! **Threads** (`threads=N`): root parallelism. Each of N threads grows its own tree from its own
//! seed (thread 0 the call's seed, thread i a stream derived from it) and its own share of the
//! iterations (the first `total % N` threads take one more), so a node-limited search is still
//! reproducible at any thread count; under a time budget all stop together. The answer adds the
//! root children's visits and rewards over the trees. Each thread keeps its own tree for reuse.
//!
//! **Answer:** the most visited root child (ties: the better mean, then the first expanded).
//! Search info: nodes = iterations, depth = deepest decision ply the tree reached, score = the
//! chosen child's mean (`Mate(1)` when the move wins at once in every reveal outcome,
//! [`crate::mcts_solver::wins_at_once`]), pv = the most visited path, cut after the first hidden-piece move.
//! Every 1,000 iterations thread 0 reports its own tree's most visited legal root move, its mean
//! and variation to a listening front end (the reports read the tree and change no result).
//!
//! **Tree reuse.** The engine keeps its tree between `go` calls. When the new view is the old one
//! plus some plies (checked by replaying them onto the old view), it descends the tree along those
//! moves and reveals and keeps that subtree (compacted into a fresh arena); otherwise, or if a step
//! is missing from the tree, it starts afresh. With reuse a move depends on the engine's earlier
//! calls in the same game (still reproducible by replaying the game); `reuse=false` makes every
//! call depend only on view, limits and seed.
//!
//! **The end of the game** in the tree is the core's classifier's ([`terminal_value`], i.e.
//! [`jieqi_core::classify_before_moves`], then an empty move list, and a king taken as a move is
//! made). Each iteration keeps the positions since the last irreversible move — the game's, rebuilt
//! from the view ([`jieqi_core::RepetitionHistory::of_view`]), then its own path — and, below the
//! root, scores the first repetition of a position ([`TREE_REPETITION_COUNT`], as alpha-beta does)
//! as the rules would score the cycle: under `perpetual_check: loses` a side that gave check with
//! every one of its moves in it loses (a 0 or 1 for `us`), any other repetition is a draw (0.5).
//! So the tree neither walks into a perpetual check that loses nor fears one by the opponent, and
//! a losing side sees a repetition as the draw it is. Playouts keep no history (see
//! [`crate::playout`]).
//!
//! **Shorter wins.** A result reached `n` plies below a node (tree plies plus playout plies) counts
//! there with its distance from a draw shrunk by `(1 − decay)ⁿ`: `0.5 + (r − 0.5)(1 − decay)ⁿ`
//! (`decay` 0.005 by default: a mate 3 plies away counts 0.993, a win 20 plies away 0.952).
//! The tree therefore prefers the quicker of two wins and the slower of two losses, and
//! a forced mate to a merely winning evaluation, instead of wandering among moves that all look
//! won. Each node discounts by its own distance to the end, so the statistics stay valid when the
//! tree is reused from a deeper root; the reported score is the discounted mean.

use jieqi_core::{
    Color, Determinization, HistoryEntry, Move, MoveList, PerpetualCheck, Position,
    RepetitionHistory, View, classify_before_moves,
};
use jieqi_engine::{
    Choice, Control, Engine, EngineError, Limits, Score, SearchInfo, Spec, SpecError,
};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::eval::EvalWeights;
use crate::leaf::{leaf_score, prior};
use crate::mcts_solver::wins_at_once;
use crate::playout::{
    Budget, PlayoutConfig, PlayoutPolicy, below, outcome_score, playout, read_config, spec_error,
    took_king,
};

/// Spec name.
pub const NAME: &str = "ismcts";

/// Help text.
pub const HELP: &str = "Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012): \
one determinization of the player's view per iteration, one tree over public moves for both sides \
with availability-aware UCB, reveals as chance nodes keyed by the revealed identity (sampled from \
the iteration's determinization), progressive widening (checks, then captures first), new nodes valued by a \
capture-only quiescence search on the evaluation (or by playouts), most visited move, tree reuse \
across moves. Keys: iters (iterations, default 20000; \
Limits.nodes overrides, and under a movetime or clock limit without iters it runs until its time budget is spent), \
c (exploration, default 0.2; 0.7 suits width=0), leaf (qsearch|playout: how a new node is valued, default qsearch), \
width and widen (progressive widening: a node with n visits has at most ceil(width * (n+1)^widen) \
children, checks first, then the most valuable captures; defaults 1 and 0.5, width=0 adds every move in random \
order), eval (a weights file, default the built-in learned weights), policy (random|capture, \
default capture), cutoff (playout plies \
before the evaluation scores it, 0 = play to the end, default 10), max_plies (playout cap, default \
200; policy, cutoff and max_plies apply to leaf=playout), reuse (keep the tree between moves, default true), decay (per-ply discount of a result's \
distance from a draw, so shorter wins are preferred, default 0.005, 0 = off), threads (root \
parallelism: one tree per thread, each with its share of the iterations and its own seed, their \
root statistics added, default 1, at most 256; node-limited play stays reproducible). Repetitions on the \
tree's path (with the game's positions since the last capture or reveal) are scored as the rules \
score them: a perpetual checker loses, any other repetition is a draw.";

/// Default iterations per move.
pub const DEFAULT_ITERS: u64 = 20_000;

/// Default per-ply discount of results ([`Ismcts::decay`]).
pub const DEFAULT_DECAY: f64 = 0.005;

/// Default UCB exploration constant ([`Ismcts::c`]): small, since widening already makes the
/// tree look at new moves (0.7, the constant before widening, lost about 100 Elo with it).
pub const DEFAULT_C: f64 = 0.2;

/// Default progressive widening factor ([`Ismcts::width`]).
pub const DEFAULT_WIDTH: f64 = 1.0;

/// Default progressive widening exponent ([`Ismcts::widen`]).
pub const DEFAULT_WIDEN: f64 = 0.5;

/// How the tree values the node it has just added.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// A capture-only quiescence search scored by the evaluation ([`crate::leaf`]).
    Quiescence,
    /// A playout ([`crate::playout`]) with the engine's policy and cutoff.
    Playout,
}

/// The tree scores the first repetition of a position on its path (counting the game's positions
/// since the last irreversible move), as alpha-beta does: both sides could repeat it again.
pub const TREE_REPETITION_COUNT: u32 = 2;

/// Node arena cap: past it the tree stops growing and iterations play out from the leaf.
const MAX_NODES: usize = 2_000_000;

const NONE: u32 = u32::MAX;

/// One tree node: a decision edge (a move), or a chance outcome (a revealed identity) below one.
#[derive(Clone, Debug)]
struct Node {
    /// Move into this node (for an outcome node: its chance parent's move).
    mv: Move,
    /// Outcome nodes: revealed role index + 1; move nodes: 0.
    reveal: u8,
    /// Move nodes whose move reveals (a hidden mover): the children are outcomes.
    chance: bool,
    /// Side that made `mv`.
    mover: Color,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    avail: u32,
    /// Sum of rewards for `mover`.
    reward: f64,
}

impl Node {
    fn new(mv: Move, mover: Color) -> Node {
        Node {
            mv,
            reveal: 0,
            chance: false,
            mover,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            avail: 0,
            reward: 0.0,
        }
    }
}

/// A tree in a `Vec` arena; node 0 is the root.
#[derive(Clone, Debug, Default)]
struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    fn new(root_mover: Color) -> Tree {
        let mut nodes = Vec::with_capacity(1024);
        nodes.push(Node::new(
            Move::new(jieqi_core::Square::A0, jieqi_core::Square::A0),
            root_mover,
        ));
        Tree { nodes }
    }

    fn children(&self, n: u32) -> impl Iterator<Item = u32> + '_ {
        let mut c = self.nodes[n as usize].first_child;
        std::iter::from_fn(move || {
            if c == NONE {
                None
            } else {
                let r = c;
                c = self.nodes[c as usize].next_sibling;
                Some(r)
            }
        })
    }

    fn add_child(&mut self, parent: u32, node: Node) -> u32 {
        let i = self.nodes.len() as u32;
        let mut node = node;
        node.next_sibling = self.nodes[parent as usize].first_child;
        self.nodes.push(node);
        self.nodes[parent as usize].first_child = i;
        i
    }

    /// The child of decision node `n` for move `m`.
    fn child_for(&self, n: u32, m: Move) -> Option<u32> {
        self.children(n).find(|&c| self.nodes[c as usize].mv == m)
    }

    /// The outcome child of chance node `n` for reveal `r` (role index + 1).
    fn outcome_for(&self, n: u32, r: u8) -> Option<u32> {
        self.children(n)
            .find(|&c| self.nodes[c as usize].reveal == r)
    }

    /// The subtree under `root` copied into a fresh arena (root becomes node 0).
    fn extract(&self, root: u32) -> Tree {
        let mut out = Tree {
            nodes: Vec::with_capacity(self.nodes.len()),
        };
        let mut r = self.nodes[root as usize].clone();
        r.next_sibling = NONE;
        r.first_child = NONE;
        out.nodes.push(r);
        // (old node, new parent) pairs; children are re-linked in their old order.
        let mut stack = vec![(root, 0u32)];
        while let Some((old, new)) = stack.pop() {
            let kids: Vec<u32> = self.children(old).collect();
            for &k in kids.iter().rev() {
                let mut node = self.nodes[k as usize].clone();
                node.first_child = NONE;
                let ni = out.add_child(new, node);
                stack.push((k, ni));
            }
        }
        out
    }
}

/// The ISMCTS engine.
#[derive(Clone, Debug)]
pub struct Ismcts {
    /// Iterations per move, if the spec sets them (budget rules as `flat-uct`).
    pub iters: Option<u64>,
    /// UCB exploration constant.
    pub c: f64,
    /// Playout settings.
    pub playout: PlayoutConfig,
    /// Keep the tree between moves.
    pub reuse: bool,
    /// Per-ply discount of a result's distance from a draw (see [the module docs](self)): a win
    /// `n` plies below a node counts `0.5 + 0.5·(1 − decay)ⁿ` there, so shorter wins (and longer
    /// losses) are preferred. 0 turns it off.
    pub decay: f64,
    /// Search threads (root parallelism: one tree each).
    pub threads: usize,
    /// How a new node is valued: a quiescence search or a playout (see [`Leaf`]).
    pub leaf: Leaf,
    /// Progressive widening's factor: a node with `n` visits has at most
    /// `⌈width·(n+1)^widen⌉` children, added in the order of [`crate::leaf::prior`] (checks,
    /// then captures of the most valuable pieces). 0: no widening, every legal move is added (in random
    /// order) before UCB chooses among them.
    pub width: f64,
    /// Progressive widening's exponent (see [`Ismcts::width`]).
    pub widen: f64,
    /// The engines of threads 1.. (their own trees and scratch), made at the first threaded search.
    helpers: Vec<Ismcts>,
    /// The tree and the view it was searched for.
    kept: Option<(View, Tree)>,
    /// Scratch: per from-square bit set of the legal to-squares.
    marks: Box<[u128; 90]>,
    /// The root moves of the current search when the front end restricted them (`go
    /// searchmoves`, see [`Control::root_moves`]); empty: every legal move.
    root_filter: Vec<Move>,
    /// Scratch: the nodes of the current iteration's path.
    path: Vec<u32>,
    /// Scratch: the plies from the root to each node of `path`.
    plies: Vec<u32>,
    /// The positions since the last irreversible move: the game's (from the view) up to the
    /// root, then the current iteration's path (keys in the view's space, see [`Ismcts::iterate`]).
    history: RepetitionHistory,
}

impl Default for Ismcts {
    fn default() -> Ismcts {
        Ismcts {
            iters: None,
            c: DEFAULT_C,
            playout: PlayoutConfig {
                policy: PlayoutPolicy::CaptureBiased,
                cutoff: Some(10),
                ..PlayoutConfig::default()
            },
            reuse: true,
            decay: DEFAULT_DECAY,
            threads: 1,
            leaf: Leaf::Quiescence,
            width: DEFAULT_WIDTH,
            widen: DEFAULT_WIDEN,
            helpers: Vec::new(),
            kept: None,
            marks: Box::new([0; 90]),
            root_filter: Vec::new(),
            path: Vec::with_capacity(256),
            plies: Vec::with_capacity(256),
            history: RepetitionHistory::with_capacity(256),
        }
    }
}

/// Builds the engine from a spec.
///
/// # Errors
/// An unknown key or a value out of range.
pub fn from_spec(spec: &Spec) -> Result<Box<dyn Engine>, SpecError> {
    Ok(Box::new(Ismcts::from_spec(spec)?))
}

impl Ismcts {
    /// Reads `ismcts[:iters=N,c=X,leaf=qsearch|playout,width=W,widen=A,eval=PATH,policy=random|capture,cutoff=P,max_plies=P,reuse=B,decay=X,threads=T]`.
    ///
    /// # Errors
    /// An unknown key or a value out of range.
    pub fn from_spec(spec: &Spec) -> Result<Ismcts, SpecError> {
        let mut p = spec.params();
        let iters: Option<u64> = match p.get::<u64>("iters", 0)? {
            0 if spec.params.iter().any(|(k, _)| k == "iters") => {
                return Err(spec_error(spec, "iters must be at least 1".into()));
            }
            0 => None,
            n => Some(n),
        };
        let c = p.get_f64_in("c", DEFAULT_C, 0.0, 100.0)?;
        let playout = read_config(&mut p, spec, PlayoutPolicy::CaptureBiased, 10)?;
        let reuse: bool = p.get("reuse", true)?;
        let decay = p.get_f64_in("decay", DEFAULT_DECAY, 0.0, 0.5)?;
        let threads: usize = p.get("threads", 1)?;
        let leaf = match p.get_choice("leaf", "qsearch", &["qsearch", "playout"])? {
            "playout" => Leaf::Playout,
            _ => Leaf::Quiescence,
        };
        let width = p.get_f64_in("width", DEFAULT_WIDTH, 0.0, 1000.0)?;
        let widen = p.get_f64_in("widen", DEFAULT_WIDEN, 0.0, 1.0)?;
        let eval_path: String = p.get("eval", String::new())?;
        if !(1..=crate::MAX_THREADS).contains(&threads) {
            return Err(spec_error(
                spec,
                format!(
                    "parameter 'threads' = {threads} is outside [1, {}]",
                    crate::MAX_THREADS
                ),
            ));
        }
        p.finish(&[
            "iters",
            "c",
            "policy",
            "cutoff",
            "max_plies",
            "reuse",
            "decay",
            "threads",
            "leaf",
            "width",
            "widen",
            "eval",
        ])?;
        let mut playout = playout;
        playout.weights = if eval_path.is_empty() {
            EvalWeights::learned().clone()
        } else {
            EvalWeights::from_json_file(&eval_path).map_err(|m| spec_error(spec, m))?
        };
        Ok(Ismcts {
            iters,
            c,
            playout,
            reuse,
            decay,
            threads,
            leaf,
            width,
            widen,
            ..Ismcts::default()
        })
    }

    /// Visits of the root of the tree kept from the last search (`None` without reuse): with reuse
    /// it counts the iterations carried over from earlier moves plus the last search's.
    pub fn kept_root_visits(&self) -> Option<u64> {
        self.kept.as_ref().map(|(_, t)| t.nodes[0].visits as u64)
    }

    /// The kept tree re-rooted at `view`, if `view` continues the kept view and the tree has it.
    fn reused_tree(&mut self, view: &View) -> Option<Tree> {
        let (old, tree) = self.kept.take()?;
        let (h_old, h_new) = (old.history(), view.history());
        let old_len = h_old.len();
        if !self.reuse
            || old.player() != view.player()
            || old.rules() != view.rules()
            || h_new.len() <= h_old.len()
            || h_new[..h_old.len()] != *h_old
        {
            return None;
        }
        let mut replay = old;
        let mut node = 0u32;
        for &pm in &h_new[old_len..] {
            replay.apply(pm).ok()?;
            node = tree.child_for(node, pm.mv)?;
            if tree.nodes[node as usize].chance {
                let r = pm.reveal?;
                node = tree.outcome_for(node, r as u8 + 1)?;
            }
        }
        if replay != *view {
            return None;
        }
        Some(tree.extract(node))
    }

    /// How many children a node with `visits` visits may have under progressive widening.
    fn room(&self, visits: u32) -> f64 {
        (self.width * (f64::from(visits) + 1.0).powf(self.widen)).ceil()
    }

    /// The untried move (marked in `self.marks`; `untried` of them) a node adds next: with
    /// widening the one of highest [`prior`] (ties: uniformly at random), else any at random.
    fn next_child(
        &self,
        det: &Determinization,
        moves: &MoveList,
        untried: usize,
        rng: &mut ChaCha8Rng,
    ) -> Move {
        let marked = |m: &&Move| self.marks[m.from.index()] & (1u128 << m.to.index()) != 0;
        if self.width == 0.0 {
            let k = below(rng, untried as u32) as usize;
            return *moves.iter().filter(marked).nth(k).expect("k < untried");
        }
        let mut best = (i32::MIN, moves[0]);
        let mut ties = 0u32;
        for m in moves.iter().filter(marked) {
            let p = prior(det, *m, &self.playout.weights);
            if p > best.0 {
                best = (p, *m);
                ties = 1;
            } else if p == best.0 {
                // Reservoir sampling: each of the tied moves is kept with equal probability.
                ties += 1;
                if below(rng, ties) == 0 {
                    best.1 = *m;
                }
            }
        }
        best.1
    }

    /// The value for `us` of the node just added (`det` at its position), and the plies it looked
    /// ahead beyond it (a playout's length; 0 for a quiescence search).
    fn value_leaf(&self, det: &mut Determinization, us: Color, rng: &mut ChaCha8Rng) -> (f64, u32) {
        match self.leaf {
            Leaf::Quiescence => (leaf_score(det, us, &self.playout.weights), 0),
            Leaf::Playout => {
                let p = playout(det, us, &self.playout, rng);
                (p.score, p.plies)
            }
        }
    }

    /// One iteration on `det` (a fresh sample of the root view). Returns the decision depth reached.
    ///
    /// `self.history` holds the game's positions up to the root (`root_len` of them, from the
    /// view) and gets the iteration's positions pushed as it descends. The view's keys and the
    /// determinization's differ by the pools only, a constant `delta` (view root key ^ this
    /// determinization's root key) until the first irreversible move, after which the window
    /// restarts; so path positions are keyed `det key ^ delta`, which compares alike with the
    /// game's positions.
    fn iterate(
        &mut self,
        tree: &mut Tree,
        det: &mut Determinization,
        us: Color,
        delta: u64,
        root_len: usize,
        rng: &mut ChaCha8Rng,
    ) -> u32 {
        self.path.clear();
        self.path.push(0);
        self.plies.clear();
        self.plies.push(0);
        self.history.truncate(root_len);
        let track_checks = {
            let rules = det.position().rules();
            rules.check && rules.perpetual_check == PerpetualCheck::Loses
        };
        let mut node = 0u32;
        let mut depth = 0u32;
        // Score for `us`, and the plies from the root to the end it scores.
        let (score, end): (f64, u32) = loop {
            let pos = det.position();
            let to_move = pos.turn();
            // The root is not over (the engine was asked to move) and is not scored as a
            // repetition of the game's positions; the nodes below are classified on their path.
            let window = if depth == 0 {
                &[]
            } else {
                self.history.window()
            };
            if let Some(v) = terminal_value(pos, window, TREE_REPETITION_COUNT, us) {
                break (v, depth);
            }
            let mut moves = pos.legal_moves();
            if depth == 0 && !self.root_filter.is_empty() {
                // The root: only the moves the front end allows (`go searchmoves`).
                let mut allowed = MoveList::new();
                for &m in &moves {
                    if self.root_filter.contains(&m) {
                        allowed.push(m);
                    }
                }
                if !allowed.is_empty() {
                    moves = allowed;
                }
            }
            if moves.is_empty() {
                break (if to_move == us { 0.0 } else { 1.0 }, depth);
            }
            // Availability: mark the legal moves, then walk the children.
            for m in &moves {
                self.marks[m.from.index()] |= 1u128 << m.to.index();
            }
            let ln_c = self.c;
            let mut tried = 0usize;
            let mut best = NONE;
            let mut best_ucb = f64::NEG_INFINITY;
            let mut c = tree.nodes[node as usize].first_child;
            while c != NONE {
                let child = &mut tree.nodes[c as usize];
                let (f, t) = (child.mv.from.index(), child.mv.to.index());
                let bit = 1u128 << t;
                if self.marks[f] & bit != 0 {
                    self.marks[f] &= !bit;
                    tried += 1;
                    child.avail += 1;
                    let v = child.visits.max(1) as f64;
                    let ucb = child.reward / v + ln_c * ((child.avail as f64).ln() / v).sqrt();
                    if ucb > best_ucb {
                        best_ucb = ucb;
                        best = c;
                    }
                }
                c = child.next_sibling;
            }
            let untried = moves.len() - tried;
            // A new child if a legal move has none, the arena has room and (with widening) the
            // node's visits allow one more (the bound is only computed when it can matter).
            let grow = untried > 0
                && tree.nodes.len() < MAX_NODES
                && (self.width == 0.0
                    || (tried as f64) < self.room(tree.nodes[node as usize].visits));
            let (chosen, expanded) = if grow {
                let pick = self.next_child(det, &moves, untried, rng);
                let child = tree.add_child(node, Node::new(pick, to_move));
                tree.nodes[child as usize].avail = 1;
                (child, true)
            } else if best != NONE {
                (best, false)
            } else {
                // No room to grow and nothing tried: play out from here.
                for m in &moves {
                    self.marks[m.from.index()] = 0;
                }
                let p = playout(det, us, &self.playout, rng);
                break (p.score, depth + p.plies);
            };
            for m in &moves {
                self.marks[m.from.index()] = 0;
            }
            let mv = tree.nodes[chosen as usize].mv;
            let (pm, undo) = det.make(mv);
            depth += 1;
            self.path.push(chosen);
            self.plies.push(depth);
            let after = det.position();
            let irreversible = pm.reveal.is_some() || undo.captured().is_some();
            let entry = HistoryEntry {
                hash: after.hash() ^ delta,
                in_check: track_checks && after.in_check(),
            };
            self.history.push(entry, irreversible);
            let mut expanded = expanded;
            node = chosen;
            if let Some(r) = pm.reveal {
                tree.nodes[chosen as usize].chance = true;
                let key = r as u8 + 1;
                node = match tree.outcome_for(chosen, key) {
                    Some(o) => o,
                    None if tree.nodes.len() < MAX_NODES => {
                        let mut o = Node::new(mv, to_move);
                        o.reveal = key;
                        expanded = true;
                        tree.add_child(chosen, o)
                    }
                    None => {
                        let p = playout(det, us, &self.playout, rng);
                        break (p.score, depth + p.plies);
                    }
                };
                self.path.push(node);
                self.plies.push(depth);
            }
            if took_king(&pm, &undo) {
                break (if to_move == us { 1.0 } else { 0.0 }, depth);
            }
            if expanded {
                let (v, plies) = self.value_leaf(det, us, rng);
                break (v, depth + plies);
            }
        };
        // Back up, each node's result discounted by its distance from the end.
        let keep = 1.0 - self.decay;
        for (&n, &ply) in self.path.iter().zip(&self.plies) {
            let result = discounted(score, end - ply, keep);
            let node = &mut tree.nodes[n as usize];
            node.visits += 1;
            node.reward += if node.mover == us {
                result
            } else {
                1.0 - result
            };
        }
        depth
    }
}

/// `score` (for either side) with its distance from a draw shrunk by `keep` per ply of `plies`.
#[inline]
fn discounted(score: f64, plies: u32, keep: f64) -> f64 {
    if keep == 1.0 {
        score
    } else {
        0.5 + (score - 0.5) * keep.powi(plies.min(i32::MAX as u32) as i32)
    }
}

/// The tree's value for `perspective` of `pos` if the game is over there: the core's classifier
/// ([`jieqi_core::classify_before_moves`] over `window`, the positions since the last irreversible
/// move ending at `pos`, a position ending the game at its `count`-th occurrence) as a score, 1
/// win, 0 loss, 0.5 draw. As with the classifier, a side without a legal move is left to the
/// caller (the tree generates the moves next and scores an empty list as the mover's loss), and
/// so is a king taken by the move into `pos` (the tree checks it as it makes the move).
pub fn terminal_value(
    pos: &Position,
    window: &[HistoryEntry],
    count: u32,
    perspective: Color,
) -> Option<f64> {
    classify_before_moves(pos, false, window, count).map(|o| outcome_score(o, perspective))
}

/// The most visited path from the root starting with `first`, through the most visited reveal
/// outcome, cut after the first hidden-piece move.
fn principal_variation(tree: &Tree, first: Move) -> Vec<Move> {
    let mut pv = vec![first];
    let Some(mut node) = tree.child_for(0, first) else {
        return pv;
    };
    loop {
        if tree.nodes[node as usize].chance {
            return pv;
        }
        let next = tree
            .children(node)
            .max_by_key(|&c| (tree.nodes[c as usize].visits, std::cmp::Reverse(c)));
        match next {
            Some(n) if tree.nodes[n as usize].visits > 0 => {
                pv.push(tree.nodes[n as usize].mv);
                node = n;
            }
            _ => return pv,
        }
    }
}

/// Iterations between two interim reports of a thread's search (only thread 0 has a listener).
const REPORT_EVERY: u64 = 1000;

/// What one tree says so far: its most visited legal root move (ties to the better mean), that
/// move's mean as the score, and its variation.
fn interim_info(tree: &Tree, legal: &[Move], done: u64, depth: u32) -> SearchInfo {
    let mean = |n: &Node| {
        if n.visits == 0 {
            0.5
        } else {
            n.reward / f64::from(n.visits)
        }
    };
    let best = tree
        .children(0)
        .map(|c| &tree.nodes[c as usize])
        .filter(|n| legal.contains(&n.mv))
        .max_by(|a, b| a.visits.cmp(&b.visits).then(mean(a).total_cmp(&mean(b))));
    SearchInfo {
        nodes: done,
        depth: Some(depth),
        score: best.map(|n| Score::WinRate(mean(n))),
        pv: best.map_or_else(Vec::new, |n| principal_variation(tree, n.mv)),
    }
}

/// One thread's search: its tree and how far it went.
struct Grown {
    tree: Tree,
    /// Iterations run.
    done: u64,
    /// The deepest decision ply reached.
    depth: u32,
}

impl Ismcts {
    /// One tree grown for `view` within `budget` from `seed` (the kept tree if it continues;
    /// no iteration when `search` is false, i.e. one legal move).
    fn grow(&mut self, view: &View, budget: Budget<'_>, seed: u64, search: bool) -> Grown {
        let us = view.position().turn();
        let mut tree = self.reused_tree(view).unwrap_or_else(|| Tree::new(!us));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        self.history = RepetitionHistory::of_view(view);
        let root_len = self.history.len();
        let root_key = view.position().hash();
        let mut done = 0u64;
        let mut depth = 0u32;
        let control = budget.control();
        let legal = control.root_moves(view.legal_moves());
        self.root_filter = if control.searchmoves().is_empty() {
            Vec::new()
        } else {
            legal.to_vec()
        };
        if search {
            while !budget.exhausted(done) {
                let mut det = view.sample(&mut rng);
                let delta = root_key ^ det.position().hash();
                depth = depth.max(self.iterate(&mut tree, &mut det, us, delta, root_len, &mut rng));
                done += 1;
                if done % REPORT_EVERY == 0 {
                    // Progress for a listening front end; it reads the tree and changes nothing.
                    control.report(|| interim_info(&tree, legal.as_slice(), done, depth));
                }
            }
        }
        Grown { tree, done, depth }
    }

    /// [`Ismcts::grow`] on `threads` threads (this engine is thread 0, [`Ismcts::helpers`] the
    /// others), each with its share of the budget and its own seed.
    fn grow_threaded(
        &mut self,
        view: &View,
        budget: Budget<'_>,
        seed: u64,
        threads: usize,
        search: bool,
    ) -> Vec<Grown> {
        let mut helpers = std::mem::take(&mut self.helpers);
        helpers.truncate(threads - 1);
        while helpers.len() < threads - 1 {
            helpers.push(self.clone_config());
        }
        let stop = AtomicBool::new(false);
        // Helpers report nothing, but keep the front end's root restriction.
        let helper_control = Control::default()
            .with_stop(&stop)
            .with_searchmoves(budget.control().searchmoves());
        let grown = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(k, h)| {
                    let b = budget.share(k + 1, threads, helper_control);
                    let s = thread_seed(seed, k + 1);
                    // A helper whose share is empty (fewer iterations than threads) only
                    // re-roots its kept tree.
                    let run = search && !b.is_empty();
                    scope.spawn(move || h.grow(view, b, s, run))
                })
                .collect();
            let main = self.grow(
                view,
                budget.share(0, threads, budget.control()),
                seed,
                search,
            );
            // Under a node limit each thread runs its share (reproducible); under a time budget,
            // or when the front end said stop, the others stop with this one.
            if !budget.counts_iterations() || budget.control().stopped() {
                stop.store(true, Ordering::Relaxed);
            }
            let mut grown = vec![main];
            for h in handles {
                match h.join() {
                    Ok(g) => grown.push(g),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            grown
        });
        self.helpers = helpers;
        grown
    }

    /// A helper thread's engine: this engine's settings on one thread, without its tree,
    /// scratch or helpers.
    fn clone_config(&self) -> Ismcts {
        Ismcts {
            iters: self.iters,
            c: self.c,
            playout: self.playout.clone(),
            reuse: self.reuse,
            decay: self.decay,
            leaf: self.leaf,
            width: self.width,
            widen: self.widen,
            ..Ismcts::default()
        }
    }

    /// Keeps `tree` (searched for `view`) for the next search, if trees are reused.
    fn keep(&mut self, view: &View, tree: Tree) {
        self.kept = self.reuse.then(|| (view.clone(), tree));
    }
}

/// The seed of helper thread `i` ≥ 1 (thread 0 searches with the call's seed); ChaCha's seeding
/// spreads it into an independent stream.
fn thread_seed(seed: u64, i: usize) -> u64 {
    seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Engine for Ismcts {
    /// It checks the stop flag as it searches.
    fn stops_on_request(&self) -> bool {
        true
    }

    fn search(
        &mut self,
        view: &View,
        limits: &Limits,
        seed: u64,
        control: &Control<'_>,
    ) -> Result<Choice, EngineError> {
        let root_moves = control.root_moves(view.legal_moves());
        if root_moves.is_empty() {
            return Err(EngineError::new("ismcts: no legal move"));
        }
        let us = view.position().turn();
        let budget = Budget::new(limits, us, self.iters, DEFAULT_ITERS, *control);
        let threads = self.threads.max(1);
        let grown = if threads == 1 {
            vec![self.grow(view, budget, seed, root_moves.len() > 1)]
        } else {
            self.grow_threaded(view, budget, seed, threads, root_moves.len() > 1)
        };
        // Answer: the most visited root move among the legal ones, visits and rewards added over
        // the trees; ties go to the better mean, then to the move expanded first (main tree first).
        let mut totals: Vec<(Move, u64, f64)> = Vec::new();
        for g in &grown {
            let mut kids: Vec<u32> = g.tree.children(0).collect();
            kids.sort_unstable();
            for c in kids {
                let n = &g.tree.nodes[c as usize];
                if !root_moves.contains(&n.mv) {
                    continue;
                }
                match totals.iter_mut().find(|t| t.0 == n.mv) {
                    Some(t) => {
                        t.1 += u64::from(n.visits);
                        t.2 += n.reward;
                    }
                    None => totals.push((n.mv, u64::from(n.visits), n.reward)),
                }
            }
        }
        let mean = |t: &(Move, u64, f64)| if t.1 == 0 { 0.5 } else { t.2 / t.1 as f64 };
        let best = totals.iter().enumerate().max_by(|(ia, a), (ib, b)| {
            a.1.cmp(&b.1)
                .then(mean(a).total_cmp(&mean(b)))
                .then(ib.cmp(ia))
        });
        let (mv, score) = match best {
            // A move that ends the game with a win in every outcome is a proof, not a rate.
            Some((_, t)) if wins_at_once(view.position(), &view.knowledge(), t.0) => {
                (t.0, Some(Score::Mate(1)))
            }
            Some((_, t)) => (t.0, Some(Score::WinRate(mean(t)))),
            None => (root_moves[0], None),
        };
        // The variation of the tree that visited the move most.
        let pv_tree = grown
            .iter()
            .max_by_key(|g| {
                g.tree
                    .child_for(0, mv)
                    .map_or(0, |c| g.tree.nodes[c as usize].visits)
            })
            .map(|g| &g.tree);
        let pv = pv_tree.map_or_else(|| vec![mv], |t| principal_variation(t, mv));
        let nodes = grown.iter().map(|g| g.done).sum();
        let max_depth = grown.iter().map(|g| g.depth).max().unwrap_or(0);
        let mut trees = grown.into_iter().map(|g| g.tree);
        if let Some(t) = trees.next() {
            self.keep(view, t);
        }
        for (h, t) in self.helpers.iter_mut().zip(trees) {
            h.keep(view, t);
        }
        Ok(Choice {
            mv,
            info: SearchInfo {
                nodes,
                depth: Some(max_depth),
                score,
                pv,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::{Rules, fen};

    fn tree_of(spec: &str, view: &View, iters: u64) -> Tree {
        let mut e = Ismcts::from_spec(&Spec::parse(spec).unwrap()).unwrap();
        let limits = Limits {
            nodes: Some(iters),
            ..Limits::default()
        };
        e.search(view, &limits, 5, &Control::default()).unwrap();
        e.kept.take().expect("the tree is kept").1
    }

    fn searched(spec: &str, fen_text: &str, rules: &Rules, iters: u64) -> Tree {
        let view = View::from_setup(&fen::parse(fen_text).unwrap(), rules).unwrap();
        tree_of(spec, &view, iters)
    }

    /// The standard start with a shuffled deal, as Red sees it.
    fn start() -> View {
        let rules = Rules::standard();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        jieqi_core::Game::new(rules, jieqi_core::Deal::shuffled_for(&rules, &mut rng))
            .view(Color::Red)
    }

    #[test]
    fn widening_bounds_every_nodes_children_by_its_visits() {
        let start = start();
        let wide = tree_of("ismcts:width=0", &start, 400);
        assert_eq!(wide.children(0).count(), 44, "every root move is added");
        for (width, widen) in [(1.0, 0.5), (2.0, 0.5), (2.0, 0.3)] {
            let spec = format!("ismcts:width={width},widen={widen}");
            let tree = tree_of(&spec, &start, 400);
            let e = Ismcts {
                width,
                widen,
                ..Ismcts::default()
            };
            assert!(tree.children(0).count() < 44, "{spec}");
            for (i, n) in tree.nodes.iter().enumerate() {
                if !n.chance {
                    let kids = tree.children(i as u32).count() as f64;
                    assert!(kids <= e.room(n.visits), "{spec}: node {i}");
                }
            }
        }
    }

    #[test]
    fn widening_adds_checks_then_the_most_valuable_captures_first() {
        // Red's chariot e5 can check on d5, take the black chariot e7 or take the pawn a5: the
        // root's first three children, in the order they were added, are those three.
        let tree = searched(
            "ismcts:width=1",
            "3k5/9/4r4/9/p3R4/9/9/9/9/5K3 w - - 0 1",
            &Rules::xiangqi(),
            50,
        );
        let mut kids: Vec<u32> = tree.children(0).collect();
        kids.sort_unstable();
        let first: Vec<String> = kids[..3]
            .iter()
            .map(|&k| tree.nodes[k as usize].mv.to_string())
            .collect();
        assert_eq!(first, ["e5d5", "e5e7", "e5a5"]);
    }
}
