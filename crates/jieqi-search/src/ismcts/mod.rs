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
//! determinization, scored by the evaluation's win probability ([`crate::leaf`]; the learned
//! weights unless `eval=` names a file). At 20 ms a move the quiescence leaves with widening beat
//! the playout design (fa338b7) by +490 ± 55 Elo (docs/engines.md), and its `leaf=playout`,
//! `policy`, `cutoff` and `max_plies` keys are gone. Only a tree that is full plays out from where
//! it cannot grow: a capture-biased playout ([`crate::playout`]) cut off after 10 plies and
//! scored by the evaluation.
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
//!
//! **Files.** `tree` holds the node arena (nodes, children, re-rooting, the principal variation),
//! `policy` how a node chooses and values (availability-aware UCB, widening order, leaf values,
//! the discount, the end of the game), `search` one iteration, the threads, tree reuse and the
//! answer; this file the engine's settings.
use jieqi_core::{Move, RepetitionHistory, View};
use jieqi_engine::{Engine, Key, Spec, SpecError, Values};

use crate::eval::EvalWeights;
use crate::playout::{PlayoutConfig, PlayoutPolicy, spec_error};

mod policy;
mod search;
#[cfg(test)]
mod tests;
mod tree;

pub use policy::terminal_value;
use tree::Tree;

/// Spec name.
pub const NAME: &str = "ismcts";

/// What the engine is, the prose of its help text; [`help`] adds the keys.
pub const HELP: &str = "Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012): \
one determinization of the player's view per iteration, one tree over public moves for both sides \
with availability-aware UCB, reveals as chance nodes keyed by the revealed identity (sampled from \
the iteration's determinization), progressive widening (checks, then captures first), new nodes \
valued by a capture-only quiescence search on the evaluation, most visited move, tree reuse \
across moves. Repetitions on the tree's path (with the game's positions since the last capture \
or reveal) are scored as the rules score them: a perpetual checker loses, any other repetition \
is a draw.";

/// Every spec key of `ismcts` (see [`jieqi_engine::keys`]).
pub const KEYS: &[Key] = &[
    Key::int(
        "iters",
        "",
        (1, 1 << 40),
        "iterations per move (none: 20000; Limits.nodes overrides, and under a movetime or clock \
         limit without iters it runs until its time budget is spent)",
    ),
    Key::float(
        "c",
        "0.2",
        (0.0, 100.0),
        "UCB exploration constant (0.7 suits width=0)",
    )
    .tuned(0.05, 0.6),
    Key::float(
        "width",
        "1",
        (0.0, 1000.0),
        "progressive widening: a node with n visits has at most ceil(width * (n+1)^widen) \
         children, checks first, then the most valuable captures; 0 adds every move in random \
         order",
    )
    .tuned(0.5, 3.0),
    Key::float(
        "widen",
        "0.5",
        (0.0, 1.0),
        "progressive widening's exponent",
    )
    .tuned(0.3, 0.7),
    Key::float(
        "decay",
        "0.005",
        (0.0, 0.5),
        "per-ply discount of a result's distance from a draw, so shorter wins are preferred; 0: \
         off",
    )
    .tuned(0.0, 0.02),
    Key::switch("reuse", "true", "keep the tree between moves"),
    Key::int(
        "threads",
        "1",
        (1, crate::MAX_THREADS as i64),
        "root parallelism: one tree per thread, each with its share of the iterations and its own \
         seed, their root statistics added; node-limited play stays reproducible",
    ),
    Key::text(
        "eval",
        "",
        "evaluation weights file (none: the built-in learned weights)",
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

/// Default per-ply discount of results ([`Ismcts::decay`]).
pub const DEFAULT_DECAY: f64 = 0.005;

/// Default UCB exploration constant ([`Ismcts::c`]): small, since widening already makes the
/// tree look at new moves (0.7, the constant before widening, lost about 100 Elo with it).
pub const DEFAULT_C: f64 = 0.2;

/// Default progressive widening factor ([`Ismcts::width`]).
pub const DEFAULT_WIDTH: f64 = 1.0;

/// Default progressive widening exponent ([`Ismcts::widen`]).
pub const DEFAULT_WIDEN: f64 = 0.5;

/// The tree scores the first repetition of a position on its path (counting the game's positions
/// since the last irreversible move), as alpha-beta does: both sides could repeat it again.
pub const TREE_REPETITION_COUNT: u32 = 2;

/// The ISMCTS engine.
#[derive(Clone, Debug)]
pub struct Ismcts {
    /// Iterations per move, if the spec sets them (budget rules as `flat-uct`).
    pub iters: Option<u64>,
    /// UCB exploration constant.
    pub c: f64,
    /// Playout settings (the evaluation's weights; a full tree's playouts).
    pub playout: PlayoutConfig,
    /// Keep the tree between moves.
    pub reuse: bool,
    /// Per-ply discount of a result's distance from a draw (see [the module docs](self)): a win
    /// `n` plies below a node counts `0.5 + 0.5·(1 − decay)ⁿ` there, so shorter wins (and longer
    /// losses) are preferred. 0 turns it off.
    pub decay: f64,
    /// Search threads (root parallelism: one tree each).
    pub threads: usize,
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
    /// Reads `ismcts[:key=value,…]` (the keys of [`KEYS`]).
    ///
    /// # Errors
    /// An unknown key, a value out of range, or an unreadable `eval` file.
    pub fn from_spec(spec: &Spec) -> Result<Ismcts, SpecError> {
        let v = Values::read(spec, KEYS)?;
        let d = Ismcts::default();
        let weights = match v.text("eval") {
            "" => EvalWeights::learned().clone(),
            path => EvalWeights::from_json_file(path).map_err(|m| spec_error(spec, m))?,
        };
        Ok(Ismcts {
            iters: v.opt_int("iters").map(|n| n as u64),
            c: v.float("c"),
            playout: PlayoutConfig {
                weights,
                ..d.playout
            },
            reuse: v.bool("reuse"),
            decay: v.float("decay"),
            threads: v.int("threads") as usize,
            width: v.float("width"),
            widen: v.float("widen"),
            ..d
        })
    }

    /// Visits of the root of the tree kept from the last search (`None` without reuse): with reuse
    /// it counts the iterations carried over from earlier moves plus the last search's.
    pub fn kept_root_visits(&self) -> Option<u64> {
        self.kept.as_ref().map(|(_, t)| t.nodes[0].visits as u64)
    }
}
