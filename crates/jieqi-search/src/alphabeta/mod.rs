//! `alphabeta`: negamax alpha-beta over the public game tree of the player's view, with chance
//! nodes at reveals (expectiminimax with Star1, optional Star2 probing).
//!
//! # The tree
//! The search runs on the view's [`Position`] itself — the public board with this player's pools —
//! so no determinization is needed. A move by a face-up piece is an ordinary edge. A move by a
//! hidden piece is a chance node over the distinct identities in the mover's pool, weighted by
//! their counts (the pool may include identities of captured pieces the player never saw: given
//! what the player knows, count / total is the exact reveal probability). A capture of a hidden
//! enemy piece does not branch and leaves the pools alone (`PlayedMove::capture = None`), as in
//! perft. Under rules with a hidden king (the `simple` variant) such a capture is a chance node
//! too: with probability 1 / (hidden pieces of the victim's side) it was the king and the game is
//! won; the reveal weights of a side whose pool holds its hidden king are corrected the same way
//! (the king is never among the captured pieces). See [`branches`].
//!
//! # The exact horizon
//! Exact chance nodes multiply the tree by up to 7 at every hidden-piece move. They are kept
//! where they are asked for, in the first [`Options::chance_plies`] plies (`chance=1`: the root's
//! own moves). The default, [`DEFAULT_CHANCE_PLIES`] = 0, won the arena's test at equal time
//! (+26 ± 32 Elo against `chance=1` over 200 pairs at 20 ms a move, with 7.3 plies against 6.5)
//! and reaches depth 10 at the start position in a third of a second. Wherever a captured hidden
//! piece may be the king (`simple`), outcomes stay exact at any ply. Elsewhere a hidden-piece move
//! is played as one outcome, drawn with the outcomes' probabilities by a hash of the position, the
//! move and the
//! search seed (the same node always draws the same identity), and its value is shifted by
//! [`reveal_price`], the expected material minus the drawn outcome's, so a lucky draw is no gain
//! of material. (When a side's pool is exactly its hidden pieces the price is zero up to
//! rounding: the evaluation's pool mean already keeps the material constant in expectation.)
//! `chance=N` with a large N and the pruning switches off ([`Options::exact`]) is plain
//! expectiminimax, which the reference tests compare with.
//!
//! Every fact about a hidden piece comes from the view's [`Knowledge`]: the chance outcomes above
//! (a fair player's beliefs are the pools) and the values of hidden pieces in move ordering,
//! pruning and the evaluation. An omniscient view knows every hidden piece, so its reveals and
//! captures have one outcome and its hidden pieces count at their identities
//! ([`crate::eval::known_hidden`]): the same search then plays as a player who sees everything.
//!
//! # Scores
//! Centipawns from the side to move's point of view; a lost game is `-(MATE - ply)` (no legal
//! move, or the king captured). Leaf evaluations are clamped to ±[`EVAL_LIMIT`], so every value
//! lies in [−MATE, MATE]. A chance node's value is `round(Σ wᵢ vᵢ / W)` in integers
//! ([`round_div`]), so that Star1 and the plain expectimax reference agree exactly.
//!
//! A mate found below a sampled reveal holds for one identity only: its value is compressed
//! into a band between the evaluations and the mates ([`through_sample`]). A root score still in
//! the mate band is reported as `mate N` only after the chance-aware prover
//! ([`crate::mate::MateProver`]) has proved it, and the search then stops (see `claim.rs`);
//! otherwise it is reported as a large finite score.
//!
//! # Star1 / Star2
//! Each chance child i carries bounds [loᵢ, hiᵢ] (initially [−MATE, MATE], the Ballard bounds
//! L/U). Child i is searched with the window that can still change the parent's result:
//! `A = (αW − Σ_{j≠i} wⱼ hiⱼ) / wᵢ`, `B = (βW − Σ_{j≠i} wⱼ loⱼ) / wᵢ`; the node fails low as soon
//! as `Σ wⱼ hiⱼ ≤ αW` and high as soon as `Σ wⱼ loⱼ ≥ βW`. Because mate scores can occur in any
//! subtree, L/U must be ±MATE, which makes plain Star1 prune little; Star2 ([`Options::star2`], a test-only switch) first
//! probes every child with one move (the TT or best-ordered move) to get per-child upper bounds
//! hiᵢ, which gives fail-low cutoffs before any full child search.
//!
//! # Pruning
//! Decision nodes use principal-variation search, null-move pruning (R = 3 + depth/6, not in
//! check, not twice in a row, not with five pieces or fewer), reverse futility pruning and
//! futility / move-count pruning of quiet moves within three plies of the leaves, late-move
//! reductions (about ln(depth)·ln(k)/2 + 1 plies for the k-th quiet move; a move that gives check
//! is neither reduced nor pruned), a one-ply check extension, and aspiration windows (±40,
//! widened fourfold on a fail) from depth 4. Each has a spec switch, and each of those numbers
//! is a spec key with its tuning range ([`KEYS`]: `null_base`, `null_div`, `rfp_margin`,
//! `lmr_div`, `asp_window`, …).
//! Moves are ordered: the table's move, winning and even captures (MVV-LVA), the two killers, the
//! counter-move (the quiet move that last refuted the opponent's previous move, `counter=true`),
//! the quiet moves by history, and last the captures that lose their capturer for less (as
//! quiescence's `see` tells them, `see_order=true`).
//!
//! # Transposition table
//! Keyed on [`Position::hash`] (board with hidden markers, side, pools); entries are stored only
//! at decision nodes (depth, bound, score, best move), never for chance or quiescence nodes.
//! Fixed size (`hash` MB), one entry per slot, replaced when the slot holds another position or a
//! shallower/equal depth or an entry from an older search. A slot is two atomic words, the packed
//! entry and the entry XOR the key, so threads share the table without locks: a slot torn by two
//! writers fails the XOR check and reads as empty. [`Options::exact_tt`] (a test-only switch) allows
//! cutoffs only from entries of exactly the remaining depth. Mate scores are stored relative to the
//! node. The table is kept from one `go` to the next (an engine plays one game: the arena builds
//! one per game, `jieqi-uci` a new one at `ucinewgame`), so a move finds much of its tree left by
//! the one before; each `go` starts a new age, whose entries replace older ones first. An answer
//! therefore depends on the view, the limits, the seed and the engine's earlier searches in the
//! game: reproducible by replaying the game, like `ismcts`'s tree reuse. Repetition draws are path dependent and may leak through the table (as in every
//! engine); the test positions are too shallow for that.
//!
//! # Repetition, draws, contempt
//! The search keeps a stack of hashes along the path, seeded with the positions of the game since
//! its last irreversible move (capture or reveal), rebuilt from the view by the core
//! ([`jieqi_core::RepetitionHistory::of_view`]: the view's trailing quiet moves taken back). Every
//! node below the root asks the core's classifier ([`jieqi_core::classify_before_moves`]) whether
//! the game is over there: a lost king, the rules' no-capture limit, or a repetition — counted at
//! the *first* recurrence of a position since the last irreversible move (the referee waits for
//! the rules' count, usually three). Under `perpetual_check: loses` (the mainstream rule) each
//! entry also records whether its side to move is in check, and a cycle in which one side gave
//! check with every one of its moves is scored as that side's loss (both checking: a draw) — the
//! referee's rule, applied to the cycle between two occurrences instead of three. A
//! draw is worth `−contempt` to the engine's own side and
//! `+contempt` to the opponent (seed 001): a leading engine avoids repetition; a losing one seeks
//! it.
//!
//! # Quiescence
//! At depth 0: stand pat on the evaluation, then captures only (MVV-LVA; pseudo-legal generation
//! with a legality test per capture). Captures by hidden pieces are searched as chance nodes (their
//! value is the expectation over the reveal) only in the first [`QS_HIDDEN_PLIES`] ply of
//! quiescence and skipped deeper, to bound the branching. A side in check in the first
//! [`QS_CHECK_PLIES`] plies of quiescence does not stand pat: all its evasions are searched and no
//! legal move loses; deeper, check is ignored. Delta pruning (`delta=true`, margin [`Options::qs_delta`])
//! skips captures whose victim cannot lift the stand-pat score to alpha; it makes quiescence values
//! depend on the window (the exact-table test turns it off). Losing captures are skipped too
//! (`see=true`, a static-exchange test reduced to one exchange): a capturer worth more than its
//! victim by over [`Options::see_margin`] onto a square the other side can take back on at once
//! ([`Position::is_recapturable`]); a king is always taken, and so is a capture that gives check
//! ([`Position::gives_check`]). [`Options::exact`] turns it off.
//!
//! # Speed
//! Leaf evaluations go through a small per-search cache keyed on the position hash (it never
//! changes a value). Quiescence generates captures only ([`Position::pseudo_legal_captures`]) and
//! tests each with [`Position::is_pseudo_legal_move_legal`], asking whether the side is in check at
//! most once per node; pool means of hidden pieces are computed at most once per node. Whether
//! the side to move is in check is asked once per position on the path (the answer found when
//! the position is pushed is kept for the node). A decision node picks its moves by selection
//! sort, one step per move tried ([`ordering::Picker`]), and a run of equal scores costs one scan.
//!
//! # Nodes and limits
//! A node is one [`Position::make`] call. A node limit stops the search exactly when the counter
//! reaches it (deterministic); a time limit (movetime, or the hard budget of a clock, see
//! [`Limits::budget`]) is checked every 1024 nodes. Under a clock no iteration starts after half
//! the soft budget scaled by [`time_scale`]: less while the root's best move stays the same, more
//! after it changed or the score dropped. The best move of the last completed iteration is kept,
//! updated by root moves that completed in the interrupted one and proved better than the first.
//!
//! # Threads
//! `threads=N` runs Lazy SMP: N − 1 helper threads search the same root on the shared table (half
//! of them one ply deeper, with the main thread's draw seed, so that they reach the same positions, and
//! their own move-ordering history) until the main
//! thread, which alone keeps the time, is done. Every thread publishes its completed iterations;
//! the front end hears each depth once, from the first thread to complete it, and the search
//! answers with the main thread's result unless a helper completed a deeper iteration
//! (best-thread selection). A node limit then applies to the sum of all threads' nodes (counted
//! in batches of 1024), so only a single thread is reproducible. The helpers are threads of a
//! pool the engine starts at its first search and keeps, idle between searches, until it is
//! dropped; each keeps its move-ordering history from one search to the next (see `smp`).
//!
//! # Files
//! This file is the engine's front end ([`AlphaBeta`], the spec). The search is one
//! `Searcher` per thread, its methods spread over files of one idea each: `searcher` (the
//! state, the evaluation cache, the node counter, the repetition path), `ordering` (MVV-LVA,
//! killers, history), `negamax` (the decision node and its pruning), `chance_node` (exact and
//! sampled chance nodes, Star2 probes), `qsearch`, `iterate` (iterative deepening, aspiration,
//! time management, the PV). Beside them: `options` (the spec's keys, [`KEYS`]), `chance` (a move's
//! outcomes and the Star1 window), `tt` (the shared table), `smp` (the helper threads' pool and what Lazy SMP threads publish).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jieqi_core::{
    Belief, Color, Knowledge, Move, MoveList, PlayedMove, Position, Role, Square, View,
};
use jieqi_engine::{
    Choice, Control, Engine, EngineError, Factory, Limits, Score, SearchInfo, Spec, SpecError,
};

use crate::eval::{EvalWeights, Evaluator, Incremental, evaluate, known_hidden};

/// Spec name.
pub const NAME: &str = "alphabeta";

/// What the engine is, the prose of its help text; [`help`] adds the keys.
pub const HELP: &str = "Negamax alpha-beta over the public game tree of the view: chance nodes at \
every hidden-piece move (expectiminimax, Star1 with Ballard bounds), mate N reported only when \
the exhaustive prover proves it in every reveal outcome (the search then stops), iterative \
deepening, transposition table (decision nodes only, kept between the moves of a game), \
quiescence on captures, TT / MVV-LVA / killer / history ordering, repetition detection with \
contempt. Nodes = make() calls.";

/// The help text: [`HELP`] and every key of [`KEYS`] with its default.
pub fn help() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| format!("{HELP} Keys: {}.", jieqi_engine::keys::help_list(KEYS)))
}

/// The spec keys ([`KEYS`]).
pub fn keys() -> &'static [jieqi_engine::Key] {
    KEYS
}

/// The score of a won game at the root (a loss at ply p is `-(MATE - p)`).
pub const MATE: i32 = 30_000;
/// Larger than any score.
pub const INF: i32 = 31_000;
/// Static evaluations are clamped to ±this, below every mate score.
pub const EVAL_LIMIT: i32 = 20_000;
/// Maximum search ply.
pub const MAX_PLY: usize = 128;
/// Plies of quiescence in which captures by hidden pieces (chance nodes) are searched.
pub const QS_HIDDEN_PLIES: u32 = 1;
/// Plies of quiescence in which a side in check searches all its evasions (deeper: stand pat).
pub const QS_CHECK_PLIES: u32 = 2;
/// The node budget when no limit of any kind is given (no depth, nodes, movetime or clock, here
/// or in the spec): about half a second on one core, and reproducible. (A fixed depth could take
/// minutes: depth 5 does not finish at the Jieqi start position.)
pub const DEFAULT_NODES: u64 = 1_000_000;

pub use crate::MAX_THREADS;
/// Default of [`Options::chance_plies`].
pub const DEFAULT_CHANCE_PLIES: u32 = 0;

const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

mod chance;
mod chance_node;
mod claim;
mod iterate;
mod negamax;
mod options;
mod ordering;
mod qsearch;
mod searcher;
mod smp;
mod tt;

pub use chance::*;
use claim::*;
pub use claim::{
    EVAL_CP_MAX, PROOF_NODES_MAX, PROOF_NODES_MIN, WIN_CP, proof_budget, reported_cp,
    through_sample,
};
pub use iterate::*;
pub use options::*;
use ordering::*;
pub use searcher::*;
pub use smp::PoolCounters;
use smp::*;
use tt::*;

/// The engine.
pub struct AlphaBeta {
    opts: Arc<Options>,
    depth: Option<u32>,
    /// The transposition table, shared with the helper threads.
    tt: Option<Arc<Tt>>,
    /// The Lazy SMP helper threads (`threads` > 1), started by the first search and kept until
    /// the engine is dropped.
    pool: Option<Pool>,
}

impl AlphaBeta {
    /// An engine with these options and an optional default depth.
    pub fn new(opts: Options, depth: Option<u32>) -> AlphaBeta {
        let tt = opts.tt.then(|| Arc::new(Tt::new(opts.hash_mb)));
        AlphaBeta {
            opts: Arc::new(opts),
            depth,
            tt,
            pool: None,
        }
    }

    /// The counters of the engine's helper threads (threads started, running, searching), once
    /// a search with several threads has started them. For tests and diagnostics.
    pub fn pool_counters(&self) -> Option<Arc<PoolCounters>> {
        self.pool.as_ref().map(Pool::counters)
    }

    /// The engine's helper threads, started now if they are not yet.
    fn pool(&mut self, helpers: usize) -> Result<&Pool, EngineError> {
        if self.pool.as_ref().is_none_or(|p| p.helpers() != helpers) {
            // (The thread count is fixed per engine; a stale pool would be dropped and joined.)
            self.pool = None;
            let pool = Pool::new(helpers).map_err(|e| {
                EngineError::new(format!("alphabeta: cannot start a helper thread: {e}"))
            })?;
            self.pool = Some(pool);
        }
        Ok(self.pool.as_ref().expect("just made"))
    }
}

fn to_score(v: i32) -> Score {
    if v > MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v < -MATE_BOUND {
        Score::Mate(-((MATE + v) / 2))
    } else {
        Score::Cp(reported_cp(v))
    }
}

impl Engine for AlphaBeta {
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
        let start = Instant::now();
        let pos = view.position();
        let legal = control.root_moves(pos.legal_moves());
        if legal.is_empty() {
            return Err(EngineError::new("alphabeta: no legal move"));
        }
        let budget = limits.budget(view.player());
        let max_depth = match (limits.depth, self.depth) {
            (Some(d), _) | (None, Some(d)) => d.max(1),
            (None, None) => MAX_PLY as u32 - 8,
        };
        let no_limit = limits.depth.is_none()
            && self.depth.is_none()
            && limits.nodes.is_none()
            && budget.is_none();
        let node_limit = if no_limit {
            Some(DEFAULT_NODES)
        } else {
            limits.nodes
        };
        if let Some(tt) = &self.tt {
            tt.new_search();
        }
        let past = past_hashes(view);
        let threads = self.opts.threads.max(1);
        let node_limit = node_limit.unwrap_or(u64::MAX).max(1);
        // What the helpers search; the main thread shares its counters and reads their results.
        let job = Arc::new(Job {
            pos: pos.clone(),
            past,
            knowledge: view.knowledge(),
            searchmoves: control.searchmoves().to_vec(),
            opts: Arc::clone(&self.opts),
            tt: self.tt.clone(),
            seed,
            max_depth,
            node_limit,
            shared: SmpSearch::default(),
        });
        // Lazy SMP: helpers search the same root on the shared table, half of them one ply
        // ahead, each with its own move-ordering history, until the main thread is done.
        let pool = if threads > 1 {
            let pool = self.pool(threads - 1)?;
            pool.start(&job);
            Some(pool)
        } else {
            None
        };
        let mut s = Searcher::new(
            job.pos.clone(),
            &job.opts,
            job.tt.as_deref(),
            job.past.clone(),
        );
        s.knowledge = job.knowledge;
        s.control = *control;
        s.node_limit = node_limit;
        s.seed = seed;
        if threads > 1 {
            s.shared_nodes = Some(&job.shared.nodes);
            s.published = Some(&job.shared);
        }
        s.deadline = budget.map(|b| start + b.hard.saturating_sub(Duration::from_millis(1)));
        // Under a clock, an iteration that would end past the soft budget (scaled by the
        // root's stability) is not started. A fixed movetime is searched in full.
        s.soft = budget.filter(|b| b.soft < b.hard).map(|b| (start, b.soft));
        s.completed = s.iterate(max_depth);
        if let Some(pool) = pool {
            pool.stop();
            // A deeper iteration a helper completed before it stopped.
            s.relay();
        }
        let helper_nodes = job.shared.rest.load(Ordering::Relaxed);
        // Best-thread selection: a helper's iteration deeper than the main thread's last
        // completed one answers (it searched every root move to that depth on the same table).
        let deeper = std::mem::take(
            &mut *job
                .shared
                .published
                .lock()
                .unwrap_or_else(|e| e.into_inner()),
        );
        let (completed, mv, score, pv) = match deeper.mv {
            Some(mv) if deeper.by_helper && deeper.depth > s.completed && !s.exhausted => {
                (deeper.depth, mv, deeper.score, deeper.pv)
            }
            _ => {
                let mv = s.root_best.unwrap_or(legal[0]);
                (
                    s.completed,
                    mv,
                    s.root_score,
                    s.pv(mv, s.completed.max(1) as usize),
                )
            }
        };
        // A claimed mate is played with the prover's answer, the shortest mate it found among
        // the root moves, as a completed iteration's is (`settle`): the move of an interrupted
        // iteration, or a helper's, may be a longer mate than the one the claim proves.
        let (settled, _) = s.settle(mv, score);
        let (mv, pv) = if settled == mv {
            (mv, pv)
        } else {
            (settled, s.pv(settled, completed.max(1) as usize))
        };
        // Every thread's nodes: the shared count holds the helpers' and the main thread's
        // thousands, the rest is added here.
        let nodes = if threads > 1 {
            job.shared.nodes.load(Ordering::Relaxed) + helper_nodes + s.nodes % 1024
        } else {
            s.nodes
        };
        Ok(Choice {
            mv,
            info: SearchInfo {
                nodes,
                // A decided move (the whole tree searched) has no depth: it would be the
                // iterations' maximum, not how far the search saw.
                depth: (!s.exhausted).then_some(completed),
                score: Some(s.claim_score(mv, score)),
                pv,
            },
        })
    }
}

/// Builds the engine from a spec (keys in [`KEYS`]).
///
/// # Errors
/// A malformed value, an unreadable eval file or an unknown key.
pub fn from_spec(spec: &Spec) -> Result<Box<dyn Engine>, SpecError> {
    factory(spec).map(|f| f.build())
}

/// The factory of engines of a spec (keys in [`KEYS`]): the spec, and the eval file it names,
/// are read once here; each engine built gets its own transposition table.
///
/// # Errors
/// A malformed value, an unreadable eval file, an unknown key, or a `hash` table this machine
/// cannot allocate.
pub fn factory(spec: &Spec) -> Result<Factory, SpecError> {
    let (opts, depth) = options_from_spec(spec)?;
    if opts.tt {
        Tt::check_allocation(opts.hash_mb).map_err(|message| SpecError {
            spec: spec.to_string(),
            message,
        })?;
    }
    let opts = std::sync::Arc::new(opts);
    Ok(Factory::new(move || {
        Box::new(AlphaBeta::new(Options::clone(&opts), depth))
    }))
}
