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
//! At the exact plies, a move after the first is tested on one drawn outcome with a null window
//! and its chance node searched only when that test fails high (`late_sample`), as a late-move
//! reduction tests a move at a lower depth. `chance=N` with a large N and the pruning switches off
//! ([`Options::exact`]) is plain expectiminimax, which the reference tests compare with.
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
//! # Star1 / Star2
//! Each chance child i carries bounds [loᵢ, hiᵢ] (initially [−MATE, MATE], the Ballard bounds
//! L/U). Child i is searched with the window that can still change the parent's result:
//! `A = (αW − Σ_{j≠i} wⱼ hiⱼ) / wᵢ`, `B = (βW − Σ_{j≠i} wⱼ loⱼ) / wᵢ`; the node fails low as soon
//! as `Σ wⱼ hiⱼ ≤ αW` and high as soon as `Σ wⱼ loⱼ ≥ βW`. Because mate scores can occur in any
//! subtree, L/U must be ±MATE, which makes plain Star1 prune little; Star2 (`star2=true`) first
//! probes every child with one move (the TT or best-ordered move) to get per-child upper bounds
//! hiᵢ, which gives fail-low cutoffs before any full child search.
//!
//! # Pruning
//! Decision nodes use principal-variation search, null-move pruning (R = 3 + depth/6, not in
//! check, not twice in a row, not with five pieces or fewer), reverse futility pruning and
//! futility / move-count pruning of quiet moves within three plies of the leaves, late-move
//! reductions (about ln(depth)·ln(k)/2 plies for the k-th quiet move), a one-ply check extension,
//! and aspiration windows (±40, widened fourfold on a fail) from depth 4. Each has a spec switch.
//!
//! # Transposition table
//! Keyed on [`Position::hash`] (board with hidden markers, side, pools); entries are stored only
//! at decision nodes (depth, bound, score, best move), never for chance or quiescence nodes.
//! Fixed size (`hash` MB), one entry per slot, replaced when the slot holds another position or a
//! shallower/equal depth or an entry from an older search. A slot is two atomic words, the packed
//! entry and the entry XOR the key, so threads share the table without locks: a slot torn by two
//! writers fails the XOR check and reads as empty. `exact_tt=true` (a test switch) allows
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
//! legal move loses; deeper, check is ignored. Delta pruning (`delta=true`, margin [`QS_DELTA`])
//! skips captures whose victim cannot lift the stand-pat score to alpha; it makes quiescence values
//! depend on the window (the exact-table test turns it off).
//!
//! # Speed
//! Leaf evaluations go through a small per-search cache keyed on the position hash (it never
//! changes a value). Quiescence generates captures only ([`Position::pseudo_legal_captures`]) and
//! tests each with [`Position::is_pseudo_legal_move_legal`], asking whether the side is in check at
//! most once per node; pool means of hidden pieces are computed at most once per node.
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
//! in batches of 1024), so only a single thread is reproducible.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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

/// Help text.
pub const HELP: &str = "Negamax alpha-beta over the public game tree of the view: chance nodes at \
every hidden-piece move (expectiminimax, Star1 with Ballard bounds, optional Star2 probing), \
iterative deepening, transposition table (decision nodes only, kept between the moves of a game), quiescence on captures, TT / \
MVV-LVA / killer / history ordering, repetition detection with contempt. Nodes = make() calls. \
Keys: depth=N (default: none; with no limit at all the search stops after 1000000 nodes, about \
half a second), hash=MB (16), contempt=CP (20), \
star1=true|false (true), star2=true|false (false), qsearch=true|false (true), delta=true|false (true: delta pruning in \
quiescence, margin 200), eval=PATH (weights \
JSON, default built in = configs/eval/default.json), tt=true|false (true), exact_tt=true|false \
(false; test switch: TT cutoffs only at exactly the same depth), chance=N (0: hidden-piece moves \
are exact chance nodes in the first N plies, deeper one identity is sampled and priced at the \
expectation; a large N is exact everywhere), null=true|false (true: null-move pruning), \
lmr=true|false (true: late-move reductions), futility=true|false (true: reverse futility \
pruning), check_ext=true|false (true: check extension), aspiration=true|false (true: \
aspiration windows), late_sample=true|false (true: at the exact chance plies, moves after the \
first are tested on one sampled identity before their chance node is searched), threads=N (1: Lazy SMP search threads sharing the table, the deepest completed iteration \
answers, at most 256; 1 is reproducible under node limits)";

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
/// Delta-pruning margin: a capture whose victim cannot lift the stand-pat score above alpha by this
/// much is skipped.
pub const QS_DELTA: i32 = 200;
/// The node budget when no limit of any kind is given (no depth, nodes, movetime or clock, here
/// or in the spec): about half a second on one core, and reproducible. (A fixed depth could take
/// minutes: depth 5 does not finish at the Jieqi start position.)
pub const DEFAULT_NODES: u64 = 1_000_000;

pub use crate::MAX_THREADS;
/// Default of [`Options::chance_plies`].
pub const DEFAULT_CHANCE_PLIES: u32 = 0;
/// Reverse futility margin per ply of remaining depth.
const FUTILITY_MARGIN: i32 = 150;
/// First aspiration half-window (centipawns).
const ASPIRATION: i32 = 40;

const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// Search switches (the spec keys, plus what tests need).
#[derive(Clone, Debug)]
pub struct Options {
    /// Use a transposition table.
    pub tt: bool,
    /// Table size in MB.
    pub hash_mb: usize,
    /// Cut off only on table entries of exactly the remaining depth (test switch).
    pub exact_tt: bool,
    /// Star1 windows at chance nodes (false: every chance child gets the full window).
    pub star1: bool,
    /// Star2 probing before Star1.
    pub star2: bool,
    /// Quiescence search at the leaves (false: static evaluation).
    pub qsearch: bool,
    /// Delta pruning in quiescence (skips captures that cannot reach alpha; makes quiescence
    /// values depend on the window).
    pub delta: bool,
    /// Value of a draw to the engine's side, negated (centipawns).
    pub contempt: i32,
    /// Evaluation weights.
    pub eval: EvalWeights,
    /// Plies from the root at which hidden-piece moves are exact chance nodes; deeper, each is
    /// played as one sampled identity, priced at the expectation (see [`reveal_price`]).
    /// `u32::MAX`: exact everywhere (plain expectiminimax).
    pub chance_plies: u32,
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Reverse futility pruning near the leaves.
    pub futility: bool,
    /// One more ply for a side in check.
    pub check_extension: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// At the exact chance plies, a move after the first is tested first on one sampled identity
    /// (as below the horizon) with a null window, and searched exactly only if that fails high.
    pub late_sample: bool,
    /// Search threads (Lazy SMP: helpers share the table). 1 is deterministic under node limits.
    pub threads: usize,
}

impl Options {
    /// The exact search the reference tests compare with: chance nodes everywhere, no pruning
    /// that changes values (null move, reductions, futility, extensions, aspiration off).
    pub fn exact() -> Options {
        Options {
            chance_plies: u32::MAX,
            null_move: false,
            lmr: false,
            futility: false,
            check_extension: false,
            aspiration: false,
            late_sample: false,
            ..Options::default()
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            tt: true,
            hash_mb: 16,
            exact_tt: false,
            star1: true,
            star2: false,
            qsearch: true,
            delta: true,
            contempt: 20,
            eval: EvalWeights::default(),
            chance_plies: DEFAULT_CHANCE_PLIES,
            null_move: true,
            lmr: true,
            futility: true,
            check_extension: true,
            aspiration: true,
            late_sample: true,
            threads: 1,
        }
    }
}

/// One outcome of a move in the public tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    /// Weight (probability = weight / [`Branches::total`]).
    pub weight: u32,
    /// Revealed identity (hidden mover) or `None`.
    pub reveal: Option<Role>,
    /// The move captured the (hidden) enemy king: the game is won, no position follows.
    pub king_win: bool,
}

/// The outcomes of one move: a single plain branch for a face-up mover, one per pool identity for
/// a hidden mover, plus a king-capture outcome when a hidden piece that may be the king is taken.
#[derive(Copy, Clone, Debug)]
pub struct Branches {
    items: [Branch; 8],
    len: usize,
    /// Sum of the weights.
    pub total: u32,
}

impl Branches {
    /// The outcomes with positive weight.
    pub fn as_slice(&self) -> &[Branch] {
        &self.items[..self.len]
    }

    fn push(&mut self, b: Branch) {
        if b.weight > 0 {
            self.items[self.len] = b;
            self.len += 1;
            self.total += b.weight;
        }
    }

    /// Whether the move is deterministic (one plain outcome).
    pub fn is_single(&self) -> bool {
        self.len == 1 && !self.items[0].king_win
    }
}

/// The chance outcomes of legal move `m` in `pos` for a player who knows `knowledge` (see the
/// module docs for the fair probabilities). Where the player knows a hidden piece, its move has
/// the one outcome of its identity, and its capture wins for sure if it is the king and never
/// otherwise.
pub fn branches(pos: &Position, knowledge: &Knowledge, m: Move) -> Branches {
    let mut out = Branches {
        items: [Branch {
            weight: 0,
            reveal: None,
            king_win: false,
        }; 8],
        len: 0,
        total: 0,
    };
    let us = pos.turn();
    let rules = pos.rules();
    // Whether the captured piece may be the hidden enemy king, and among how many hidden pieces
    // it is (fair: 1 / (its hidden pieces); known: for sure).
    let victim = if m.from != m.to {
        knowledge.belief(pos, m.to)
    } else {
        None
    };
    let (king_victim, victims) = match victim {
        Some(Belief::Known(r)) => (r == Role::King, 1),
        Some(Belief::Pool(pool)) if rules.hidden_king && pool.get(Role::King) > 0 => {
            (true, pos.hidden_count(!us))
        }
        _ => (false, 1),
    };
    if let Some(mover) = knowledge.belief(pos, m.from) {
        let pool = mover.weights();
        let total = pool.total();
        let h = if rules.hidden_king {
            pos.hidden_count(us)
        } else {
            0
        };
        // A fair player knows a hidden king is never among the captured identities: it is on the
        // board, each hidden piece being it with probability 1/h; the rest share the remaining
        // probability.
        let corrected = matches!(mover, Belief::Pool(_))
            && rules.hidden_king
            && pool.get(Role::King) > 0
            && total > h;
        let mut reveal_total = 0;
        let mut items = [(Role::King, 0u32); 7];
        for (i, r) in Role::ALL.into_iter().enumerate() {
            let c = pool.get(r) as u32;
            let w = if c == 0 {
                0
            } else if corrected {
                if r == Role::King {
                    total - 1
                } else {
                    c * (h - 1)
                }
            } else {
                c
            };
            items[i] = (r, w);
            reveal_total += w;
        }
        if king_victim {
            out.push(Branch {
                weight: reveal_total,
                reveal: None,
                king_win: true,
            });
        }
        let survive = if king_victim { victims - 1 } else { 1 };
        for (r, w) in items {
            out.push(Branch {
                weight: w * survive,
                reveal: Some(r),
                king_win: false,
            });
        }
    } else {
        if king_victim {
            out.push(Branch {
                weight: 1,
                reveal: None,
                king_win: true,
            });
        }
        out.push(Branch {
            weight: if king_victim { victims - 1 } else { 1 },
            reveal: None,
            king_win: false,
        });
    }
    out
}

/// The price of playing outcome `i` of a hidden-piece move with outcomes `br` as if it were
/// certain: the expected material of the mover's hidden pieces plus the revealed one over all
/// outcomes, minus that of outcome `i` (the mover's point of view, centipawns, as the evaluation
/// counts it: each hidden piece at its pool's mean, see [`EvalWeights::hidden`]). Added to the
/// value of outcome `i`, it prices the reveal at its expectation, so a lucky sample is not taken
/// for a gain of material (the revealed piece's moves and threats stay those of outcome `i`).
pub fn reveal_price(pos: &Position, w: &EvalWeights, br: &Branches, i: usize) -> i32 {
    let us = pos.turn();
    let pool = *pos.pool(us);
    let others = i64::from(pos.hidden_count(us).saturating_sub(1));
    let after = |b: &Branch| -> i64 {
        let Some(r) = b.reveal else { return 0 };
        let mut rest = pool;
        rest.0[r.index()] = rest.0[r.index()].saturating_sub(1);
        i64::from(w.identity(r)) + others * i64::from(w.hidden(&rest))
    };
    let items = br.as_slice();
    let expected: i64 = items.iter().map(|b| i64::from(b.weight) * after(b)).sum();
    round_div(
        expected - i64::from(br.total) * after(&items[i]),
        i64::from(br.total),
    )
}

/// `s / w` rounded to the nearest integer, halves up (monotone in `s`).
#[inline]
pub fn round_div(s: i64, w: i64) -> i32 {
    (2 * s + w).div_euclid(2 * w) as i32
}

/// The static evaluation as the search uses it: clamped to ±[`EVAL_LIMIT`].
#[inline]
pub fn leaf_eval(pos: &Position, w: &EvalWeights) -> i32 {
    evaluate(pos, w).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// Whether the rules' no-capture limit is reached (a draw): the core's
/// [`jieqi_core::no_capture_limit`].
#[inline]
pub fn no_capture_draw(pos: &Position) -> bool {
    jieqi_core::no_capture_limit(pos)
}

// ---------------------------------------------------------------------------------------------
// Transposition table

const BOUND_EXACT: u8 = 0;
const BOUND_LOWER: u8 = 1;
const BOUND_UPPER: u8 = 2;

/// One table entry as the search reads it.
#[derive(Copy, Clone, Default)]
struct Entry {
    score: i32,
    mv: u16,
    depth: i8,
    bound: u8,
}

/// The transposition table, shared by every thread of a search without locks: each slot is two
/// atomic words, the entry packed into 64 bits (`data`) and `key ^ data` (`check`). A reader
/// accepts a slot only if the two words XOR to its key, so an entry torn by two threads writing
/// at once is never believed (Hyatt's lockless hashing); at worst it is lost.
struct Tt {
    slots: Vec<[AtomicU64; 2]>,
    age: u8,
}

impl Entry {
    /// Packs the entry with `age` into 64 bits: score 16, move 16, depth 8, bound 8, age 8.
    #[inline]
    fn pack(self, age: u8) -> u64 {
        u64::from(self.score as i16 as u16)
            | u64::from(self.mv) << 16
            | u64::from(self.depth as u8) << 32
            | u64::from(self.bound) << 40
            | u64::from(age) << 48
    }

    /// The entry and its age.
    #[inline]
    fn unpack(d: u64) -> (Entry, u8) {
        let e = Entry {
            score: i32::from(d as u16 as i16),
            mv: (d >> 16) as u16,
            depth: (d >> 32) as u8 as i8,
            bound: (d >> 40) as u8,
        };
        (e, (d >> 48) as u8)
    }
}

const _: () = assert!(INF <= i16::MAX as i32);

impl Tt {
    /// Slots in a table of `mb` MB.
    fn slots_of(mb: usize) -> usize {
        (mb.max(1) << 20) / std::mem::size_of::<[AtomicU64; 2]>()
    }

    /// Whether a table of `mb` MB can be allocated now: the memory is reserved (not touched) and
    /// given back. A `hash` the machine cannot hold is refused with the spec, before any game.
    fn check_allocation(mb: usize) -> Result<(), String> {
        Tt::reserve(Tt::slots_of(mb)).map(drop).map_err(|e| {
            format!("parameter 'hash' = {mb} MB: this machine cannot allocate the table ({e})")
        })
    }

    fn reserve(slots: usize) -> Result<Vec<[AtomicU64; 2]>, std::collections::TryReserveError> {
        let mut v = Vec::new();
        v.try_reserve_exact(slots)?;
        Ok(v)
    }

    fn new(mb: usize) -> Tt {
        let n = Tt::slots_of(mb);
        Tt {
            slots: (0..n)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            age: 0,
        }
    }

    /// Starts a new search: entries of earlier searches stay (a game's next move finds much of
    /// its tree there) but are replaced first.
    fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The slot's entry and age if it holds `key`.
    #[inline]
    fn read(&self, key: u64) -> Option<(Entry, u8)> {
        let slot = &self.slots[self.index(key)];
        let data = slot[0].load(Ordering::Relaxed);
        let check = slot[1].load(Ordering::Relaxed);
        (check ^ data == key && key != 0 && data != 0).then(|| Entry::unpack(data))
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        self.read(key).map(|(e, _)| e)
    }

    #[inline]
    fn store(&self, key: u64, depth: i32, bound: u8, score: i32, mv: Option<Move>) {
        let old = self.read(key);
        let replace = match old {
            None => true,
            Some((e, age)) => depth >= e.depth as i32 || age != self.age || bound == BOUND_EXACT,
        };
        if replace {
            let mv = match mv {
                Some(m) => encode(m),
                None => old.map_or(0, |(e, _)| e.mv),
            };
            let data = Entry {
                score,
                mv,
                depth: depth.clamp(0, 127) as i8,
                bound,
            }
            .pack(self.age);
            let slot = &self.slots[self.index(key)];
            slot[0].store(data, Ordering::Relaxed);
            slot[1].store(key ^ data, Ordering::Relaxed);
        }
    }
}

#[inline]
fn encode(m: Move) -> u16 {
    (m.from.index() * 90 + m.to.index() + 1) as u16
}

#[inline]
fn decode(v: u16) -> Option<Move> {
    (v != 0).then(|| {
        let v = v as usize - 1;
        Move::new(Square::from_index(v / 90), Square::from_index(v % 90))
    })
}

#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

// ---------------------------------------------------------------------------------------------
// The searcher

struct Searcher<'a> {
    pos: Position,
    opts: &'a Options,
    tt: Option<&'a Tt>,
    root_color: Color,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Under a clock: when the search started and the soft budget that, scaled by the root's
    /// stability ([`time_scale`]), decides whether another iteration starts.
    soft: Option<(Instant, Duration)>,
    /// Stop requests and progress reports from a front end.
    control: Control<'a>,
    stopped: bool,
    /// Whether the current iteration met its horizon: a leaf evaluated, or a subtree taken from
    /// the table (which may have met one). An iteration that met none searched the whole tree
    /// below the root: deeper ones would only repeat it ([`Searcher::iterate`]).
    horizon: bool,
    /// Whether [`Searcher::iterate`] stopped because an iteration searched the whole tree (every
    /// line ended the game): the move was decided, and no depth is reported.
    exhausted: bool,
    /// Game positions since the last irreversible move, then the search path.
    path: Vec<PathEntry>,
    /// Whether entries record check (`rules.check` and perpetual check loses).
    track_checks: bool,
    /// Index into `path` of the first position after the last irreversible move.
    rep_floor: usize,
    killers: [[u16; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    root_best: Option<Move>,
    root_score: i32,
    /// Cache of leaf evaluations (see [`EvalCache`]).
    eval_cache: EvalCache,
    /// What the player knows of the hidden pieces: the one source of the chance outcomes and of
    /// the values of hidden pieces.
    knowledge: Knowledge,
    /// The evaluation weights, tabulated.
    evaluator: Evaluator,
    /// The evaluation's per-piece terms of `pos`, updated along make and restored at unmake.
    inc: Incremental,
    /// Nodes of every thread of a multi-threaded search, added 1024 at a time; the node limit
    /// applies to this sum. `None` in a single-threaded search (the limit is exact).
    shared_nodes: Option<&'a AtomicU64>,
    /// The last depth [`Searcher::iterate`] completed.
    completed: u32,
    /// Plies added to every iteration's depth (Lazy SMP helpers search ahead of the main thread).
    depth_offset: u32,
    /// In a multi-threaded search, the deepest iteration any thread completed (see
    /// [`Published`]); `None` with one thread.
    published: Option<&'a Mutex<Published>>,
    /// Whether this searcher is a Lazy SMP helper (not the main thread).
    helper: bool,
    /// The next [`Searcher::move_value`] plays a hidden-piece move as one sampled outcome even
    /// at an exact chance ply (taken by that call).
    force_sample: bool,
    /// Whether the move into this node was a null move (no two passes in a row).
    after_null: bool,
    /// Seeds the identity drawn at sampled hidden-piece moves (see [`Searcher::sampled`]).
    seed: u64,
}

/// A direct-mapped cache of [`leaf_eval`] values keyed on [`Position::hash`] (which covers
/// everything the evaluation reads: board, side to move, pools). Each slot packs the key's upper
/// 48 bits with the 16-bit value (leaf values lie in ±[`EVAL_LIMIT`]); the slot index comes from
/// the key's low bits. It only saves work: a hit returns the value the evaluation would compute
/// (up to a 64-bit key collision, the same assumption the transposition table makes). Allocated
/// once per search, never per node.
struct EvalCache {
    slots: Vec<u64>,
}

const EVAL_CACHE_BITS: u32 = 17;
const EVAL_KEY_MASK: u64 = !0xFFFF;
const _: () = assert!(EVAL_LIMIT <= i16::MAX as i32);

impl EvalCache {
    fn new() -> EvalCache {
        EvalCache {
            slots: vec![0; 1 << EVAL_CACHE_BITS],
        }
    }

    /// The cached value for `key`, else `eval()` (stored).
    #[inline]
    fn get_or_eval(&mut self, key: u64, eval: impl FnOnce() -> i32) -> i32 {
        let slot = &mut self.slots[(key & ((1 << EVAL_CACHE_BITS) - 1)) as usize];
        let e = *slot;
        if e != 0 && (e ^ key) & EVAL_KEY_MASK == 0 {
            return e as u16 as i16 as i32;
        }
        let v = eval();
        *slot = (key & EVAL_KEY_MASK) | u64::from(v as i16 as u16);
        v
    }
}

const SCORE_TT: i32 = 1 << 30;
const SCORE_CAPTURE: i32 = 1 << 24;
const SCORE_KILLER: i32 = 1 << 22;

#[allow(clippy::too_many_arguments)]
impl<'a> Searcher<'a> {
    fn new(pos: Position, opts: &'a Options, tt: Option<&'a Tt>, past: Vec<PathEntry>) -> Self {
        let root_color = pos.turn();
        let track_checks = tracks_checks(pos.rules());
        let mut path = past;
        path.push(PathEntry {
            hash: pos.hash(),
            in_check: track_checks && pos.in_check(),
        });
        let evaluator = Evaluator::new(&opts.eval);
        Searcher {
            opts,
            tt,
            root_color,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            soft: None,
            control: Control::default(),
            stopped: false,
            horizon: false,
            exhausted: false,
            rep_floor: 0,
            path,
            track_checks,
            killers: [[0; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 90 * 90],
            root_best: None,
            root_score: 0,
            eval_cache: EvalCache::new(),
            knowledge: Knowledge::FAIR,
            inc: evaluator.incremental(&pos),
            evaluator,
            pos,
            seed: 0,
            after_null: false,
            force_sample: false,
            shared_nodes: None,
            depth_offset: 0,
            published: None,
            helper: false,
            completed: 0,
        }
    }

    /// [`leaf_eval`] of the current position, through the evaluation cache.
    #[inline]
    fn eval(&mut self) -> i32 {
        self.horizon = true;
        let (pos, evaluator, inc, knowledge) =
            (&self.pos, &self.evaluator, &self.inc, &self.knowledge);
        self.eval_cache.get_or_eval(pos.hash(), || {
            // The value of `leaf_eval`: the tabulated, incremental evaluation gives exactly the
            // values of `evaluate` (tests/eval.rs; checked here in unit tests).
            let v = evaluator.evaluate_with(pos, inc);
            #[cfg(test)]
            assert_eq!(v, evaluate(pos, evaluator.weights()), "{}", pos.fen());
            (v + known_hidden(pos, evaluator.weights(), knowledge)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
        })
    }

    #[inline]
    fn draw_score(&self) -> i32 {
        if self.pos.turn() == self.root_color {
            -self.opts.contempt
        } else {
            self.opts.contempt
        }
    }

    /// Pushes the position just made onto the path (`irreversible`: it follows a capture or a
    /// reveal, so no cycle reaches back across it and its check flag is never read).
    #[inline]
    fn push_path(&mut self, irreversible: bool) {
        self.path.push(PathEntry {
            hash: self.pos.hash(),
            in_check: self.track_checks && !irreversible && self.pos.in_check(),
        });
        if irreversible {
            self.rep_floor = self.path.len() - 1;
        }
    }

    #[inline]
    fn value_of(&self, role: Role) -> i32 {
        self.opts.eval.identity(role)
    }

    /// Value of what stands on `sq`: a hidden piece at the mean of the player's belief about it
    /// (its owner's pool, or its known identity).
    #[inline]
    fn occupant_value(&self, sq: Square) -> i32 {
        match self.pos.occupant(sq) {
            None => 0,
            Some(jieqi_core::Occupant::Hidden(_)) => self
                .knowledge
                .belief(&self.pos, sq)
                .map_or(0, |b| self.opts.eval.hidden(&b.weights())),
            Some(jieqi_core::Occupant::Revealed(p)) => self.value_of(p.role),
        }
    }

    /// [`Searcher::occupant_value`] with the pool means cached in `hv` (one slot per colour).
    #[inline]
    fn value_at(&self, sq: Square, hv: &mut [Option<i32>; 2]) -> i32 {
        match self.pos.occupant(sq) {
            None => 0,
            Some(jieqi_core::Occupant::Hidden(c)) => match self.knowledge.belief(&self.pos, sq) {
                Some(Belief::Known(r)) => self.value_of(r),
                _ => *hv[c.index()].get_or_insert_with(|| self.opts.eval.hidden(self.pos.pool(c))),
            },
            Some(jieqi_core::Occupant::Revealed(p)) => self.value_of(p.role),
        }
    }

    #[inline]
    fn is_capture(&self, m: Move) -> bool {
        m.from != m.to && self.pos.occupant(m.to).is_some()
    }

    /// Ordering scores for `moves`.
    fn score_moves(&self, moves: &MoveList, tt_move: Option<Move>, ply: usize, out: &mut [i32]) {
        let turn = self.pos.turn().index();
        let killers = self.killers[ply.min(MAX_PLY)];
        for (i, &m) in moves.iter().enumerate() {
            out[i] = if Some(m) == tt_move {
                SCORE_TT
            } else if self.is_capture(m) {
                SCORE_CAPTURE + self.occupant_value(m.to) * 16 - self.occupant_value(m.from) / 8
            } else {
                let e = encode(m);
                if e == killers[0] {
                    SCORE_KILLER + 1
                } else if e == killers[1] {
                    SCORE_KILLER
                } else {
                    self.history[turn * 8100 + m.from.index() * 90 + m.to.index()]
                }
            };
        }
    }

    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if self.nodes & 1023 == 0 {
            if let Some(total) = self.shared_nodes {
                if total.fetch_add(1024, Ordering::Relaxed) + 1024 >= self.node_limit {
                    self.stopped = true;
                }
            }
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
            if self.control.stopped() {
                self.stopped = true;
            }
        }
    }

    /// Makes one outcome, searches the child, takes it back. Value from the mover's side.
    fn child(
        &mut self,
        pm: PlayedMove,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiesce: bool,
        qply: u32,
    ) -> i32 {
        let irreversible = pm.reveal.is_some() || self.is_capture(pm.mv);
        let saved = self.inc;
        self.evaluator.update(&mut self.inc, &self.pos, pm);
        let undo = self.pos.make(pm);
        self.tick();
        let floor = self.rep_floor;
        self.push_path(irreversible);
        let after_null = std::mem::replace(&mut self.after_null, false);
        let v = if self.stopped {
            0
        } else if quiesce {
            -self.qsearch(ply + 1, -beta, -alpha, qply + 1)
        } else {
            -self.search(depth, ply + 1, -beta, -alpha)
        };
        self.after_null = after_null;
        self.rep_floor = floor;
        self.path.pop();
        self.pos.unmake(pm, undo);
        self.inc = saved;
        v
    }

    /// The value of move `m` (a chance node if it has several outcomes), from the mover's side.
    fn move_value(
        &mut self,
        m: Move,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiesce: bool,
        qply: u32,
    ) -> i32 {
        let force_sample = std::mem::take(&mut self.force_sample);
        let br = branches(&self.pos, &self.knowledge, m);
        if br.is_single() {
            let pm = PlayedMove {
                mv: m,
                reveal: br.items[0].reveal,
                capture: None,
            };
            return self.child(pm, depth, ply, alpha, beta, quiesce, qply);
        }
        if (force_sample || ply as u32 >= self.opts.chance_plies)
            && !br.as_slice().iter().any(|b| b.king_win)
        {
            return self.sampled(m, &br, depth, ply, alpha, beta, quiesce, qply);
        }
        self.chance(m, &br, depth, ply, alpha, beta, quiesce, qply)
    }

    /// A hidden-piece move below the exact horizon ([`Options::chance_plies`]): one outcome,
    /// drawn with the outcomes' probabilities from the position, the move and the search seed
    /// (so the same node always draws the same identity), its value shifted by
    /// [`reveal_price`]. Mate scores are not shifted.
    fn sampled(
        &mut self,
        m: Move,
        br: &Branches,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiesce: bool,
        qply: u32,
    ) -> i32 {
        let items = br.as_slice();
        let key = splitmix(self.pos.hash() ^ self.seed ^ (u64::from(encode(m)) << 40));
        let mut x = ((key >> 32) * u64::from(br.total)) >> 32;
        let mut i = 0;
        while x >= u64::from(items[i].weight) {
            x -= u64::from(items[i].weight);
            i += 1;
        }
        let price = reveal_price(&self.pos, &self.opts.eval, br, i);
        let pm = PlayedMove {
            mv: m,
            reveal: items[i].reveal,
            capture: None,
        };
        let a = (alpha - price).max(-INF);
        let b = (beta - price).min(INF);
        let v = self.child(pm, depth, ply, a, b, quiesce, qply);
        if v.abs() > MATE_BOUND { v } else { v + price }
    }

    /// Chance node: Star1 (and Star2 probing) over the outcomes of `m`.
    fn chance(
        &mut self,
        m: Move,
        br: &Branches,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiesce: bool,
        qply: u32,
    ) -> i32 {
        let n = br.len;
        let w_total = br.total as i64;
        let mut lo = [-MATE; 8];
        let mut hi = [MATE; 8];
        let win = MATE - (ply as i32 + 1);
        for i in 0..n {
            if br.items[i].king_win {
                lo[i] = win;
                hi[i] = win;
            }
        }
        let w = |i: usize| br.items[i].weight as i64;
        let pm = |i: usize| PlayedMove {
            mv: m,
            reveal: br.items[i].reveal,
            capture: None,
        };
        if !self.opts.star1 {
            let mut s = 0i64;
            for i in 0..n {
                let v = if br.items[i].king_win {
                    win
                } else {
                    self.child(pm(i), depth, ply, -INF, INF, quiesce, qply)
                };
                if self.stopped {
                    return 0;
                }
                s += w(i) * v as i64;
            }
            return round_div(s, w_total);
        }
        let mut s_lo: i64 = (0..n).map(|i| w(i) * lo[i] as i64).sum();
        let mut s_hi: i64 = (0..n).map(|i| w(i) * hi[i] as i64).sum();
        let aw = alpha as i64 * w_total;
        let bw = beta as i64 * w_total;
        if self.opts.star2 && !quiesce && depth > 0 {
            for i in 0..n {
                if br.items[i].king_win {
                    continue;
                }
                let (a, _) = star1_window(aw, bw, s_lo, s_hi, lo[i], hi[i], w(i));
                if let Some(p) = self.probe(pm(i), depth, ply, -a.min(MATE)) {
                    if self.stopped {
                        return 0;
                    }
                    // p is a lower bound of the child's value: ours is at most -p.
                    let new_hi = (-p).max(lo[i]);
                    if new_hi < hi[i] {
                        s_hi -= w(i) * (hi[i] - new_hi) as i64;
                        hi[i] = new_hi;
                    }
                    if s_hi <= aw {
                        return round_div(s_hi, w_total);
                    }
                }
                if self.stopped {
                    return 0;
                }
            }
        }
        for i in 0..n {
            if lo[i] == hi[i] {
                continue;
            }
            let (a, b) = star1_window(aw, bw, s_lo, s_hi, lo[i], hi[i], w(i));
            let x = self.child(pm(i), depth, ply, a, b, quiesce, qply);
            if self.stopped {
                return 0;
            }
            let (old_lo, old_hi) = (lo[i], hi[i]);
            if x <= a {
                hi[i] = x.max(lo[i]);
            } else if x >= b {
                lo[i] = x.min(hi[i]);
            } else {
                lo[i] = x.clamp(old_lo, old_hi);
                hi[i] = lo[i];
            }
            s_lo += w(i) * (lo[i] - old_lo) as i64;
            s_hi += w(i) * (hi[i] - old_hi) as i64;
            if s_hi <= aw {
                return round_div(s_hi, w_total);
            }
            if s_lo >= bw {
                return round_div(s_lo, w_total);
            }
        }
        if s_lo == s_hi {
            round_div(s_lo, w_total)
        } else {
            round_div(s_lo + s_hi, 2 * w_total)
        }
    }

    /// Star2 probe of one chance outcome: plays it and searches only the child's first move,
    /// with a null window at `beta_c` (the child's side). Returns a lower bound of the child's
    /// value, when the probe yields one.
    fn probe(&mut self, pm: PlayedMove, depth: i32, ply: usize, beta_c: i32) -> Option<i32> {
        let irreversible = pm.reveal.is_some() || self.is_capture(pm.mv);
        let saved = self.inc;
        self.evaluator.update(&mut self.inc, &self.pos, pm);
        let undo = self.pos.make(pm);
        self.tick();
        let floor = self.rep_floor;
        self.push_path(irreversible);
        let cply = ply + 1;
        let result = 'probe: {
            if self.stopped {
                break 'probe None;
            }
            if let Some(v) = self.terminal(cply) {
                break 'probe Some(v);
            }
            if depth <= 0 {
                break 'probe None;
            }
            let key = self.pos.hash();
            let mut tt_move = None;
            if let Some(tt) = self.tt {
                if let Some(e) = tt.probe(key) {
                    tt_move = decode(e.mv);
                    if self.tt_depth_ok(e.depth as i32, depth) && e.bound != BOUND_UPPER {
                        self.horizon = true;
                        break 'probe Some(from_tt(e.score, cply));
                    }
                }
            }
            let moves = self.pos.legal_moves();
            if moves.is_empty() {
                break 'probe Some(-(MATE - cply as i32));
            }
            let mut scores = [0i32; jieqi_core::MAX_MOVES];
            self.score_moves(&moves, tt_move, cply, &mut scores);
            let best = (0..moves.len())
                .max_by_key(|&i| (scores[i], std::cmp::Reverse(i)))
                .expect("moves");
            let v = self.move_value(moves[best], depth - 1, cply, beta_c - 1, beta_c, false, 0);
            if self.stopped || v < beta_c {
                None
            } else {
                Some(v)
            }
        };
        self.rep_floor = floor;
        self.path.pop();
        self.pos.unmake(pm, undo);
        self.inc = saved;
        result
    }

    /// Game-ending or drawn node at `ply > 0`: [`terminal_score`] with the path since the last
    /// irreversible move, the first repetition counting.
    #[inline]
    fn terminal(&self, ply: usize) -> Option<i32> {
        let window = &self.path[self.rep_floor..];
        terminal_score(
            &self.pos,
            window,
            PATH_REPETITION_COUNT,
            ply,
            self.draw_score(),
        )
    }

    /// Decision node: table cut-offs, then (outside principal-variation nodes and check) reverse
    /// futility and null-move pruning, then the moves in order with principal-variation search
    /// and late-move reductions; a side in check searches one ply deeper.
    fn search(&mut self, mut depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if ply > 0 {
            if let Some(v) = self.terminal(ply) {
                return v;
            }
        }
        if ply >= MAX_PLY {
            return self.eval();
        }
        let in_check = self.pos.rules().check && self.pos.in_check();
        if in_check && self.opts.check_extension && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return if self.opts.qsearch {
                self.qsearch(ply, alpha, beta, 0)
            } else {
                self.eval()
            };
        }
        let key = self.pos.hash();
        let mut tt_move = None;
        if let Some(tt) = self.tt {
            if let Some(e) = tt.probe(key) {
                tt_move = decode(e.mv);
                if ply > 0 && self.tt_depth_ok(e.depth as i32, depth) {
                    // A cut-off may stand for a subtree that met its horizon.
                    self.horizon = true;
                    let s = from_tt(e.score, ply);
                    match e.bound {
                        BOUND_EXACT => return s,
                        BOUND_LOWER if s >= beta => return s,
                        BOUND_UPPER if s <= alpha => return s,
                        _ => {}
                    }
                }
            }
        }
        if ply == 0 && tt_move.is_none() {
            tt_move = self.root_best;
        }
        let pv_node = beta - alpha > 1;
        // The static evaluation where pruning may use it.
        let mut static_eval = None;
        if ply > 0 && !pv_node && !in_check && beta.abs() < MATE_BOUND {
            let stand = self.eval();
            static_eval = Some(stand);
            // Reverse futility: far enough above beta near the leaves, the side to move keeps it.
            if self.opts.futility && depth <= 3 && stand - FUTILITY_MARGIN * depth >= beta {
                return stand;
            }
            // Null move: if passing still fails high at reduced depth, a move will too.
            if self.opts.null_move
                && depth >= 3
                && stand >= beta
                && !self.after_null
                && self.pos.occupied(self.pos.turn()).count_ones() > 5
            {
                let r = 3 + depth / 6;
                if let Some(v) = self.null_child(depth - 1 - r, ply, beta) {
                    if v >= beta {
                        return if v > MATE_BOUND { beta } else { v };
                    }
                }
                if self.stopped {
                    return 0;
                }
            }
        }
        let moves = if ply == 0 {
            // The root: only the moves the front end allows (`go searchmoves`).
            self.control.root_moves(self.pos.legal_moves())
        } else {
            self.pos.legal_moves()
        };
        if moves.is_empty() {
            return -(MATE - ply as i32);
        }
        let mut scores = [0i32; jieqi_core::MAX_MOVES];
        self.score_moves(&moves, tt_move, ply, &mut scores);
        let n = moves.len();
        let mut order = [0u8; jieqi_core::MAX_MOVES];
        for (i, o) in order.iter_mut().enumerate().take(n) {
            *o = i as u8;
        }
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for k in 0..n {
            // Selection sort step: bring the best remaining move to position k.
            let mut bi = k;
            for j in k + 1..n {
                if scores[order[j] as usize] > scores[order[bi] as usize] {
                    bi = j;
                }
            }
            order.swap(k, bi);
            let m = moves[order[k] as usize];
            let quiet = scores[order[k] as usize] < SCORE_KILLER && !self.is_capture(m);
            // Near the leaves, late quiet moves are not searched at all (move-count pruning), nor
            // quiet moves that cannot lift a low static evaluation to alpha (futility pruning).
            if let Some(stand) = static_eval {
                if self.opts.futility
                    && quiet
                    && k > 0
                    && best > -MATE_BOUND
                    && depth <= 3
                    && (k >= 3 + (depth * depth) as usize
                        || stand + FUTILITY_MARGIN * depth + 50 <= alpha)
                {
                    continue;
                }
            }
            let mut v;
            if k == 0 {
                v = self.move_value(m, depth - 1, ply, alpha, beta, false, 0);
            } else {
                // Late quiet moves are searched shallower first; a fail high is searched again.
                let r = if self.opts.lmr && quiet && !in_check && depth >= 3 && k >= 3 {
                    lmr_reduction(depth, k, pv_node)
                } else {
                    0
                };
                // At an exact chance ply, a hidden-piece move is tested on one sampled identity
                // first, and its chance node searched only if that fails high.
                let sample = self.opts.late_sample
                    && (ply as u32) < self.opts.chance_plies
                    && self.pos.is_hidden(m.from);
                self.force_sample = sample;
                v = self.move_value(m, depth - 1 - r, ply, alpha, alpha + 1, false, 0);
                if !self.stopped && r > 0 && v > alpha {
                    self.force_sample = sample;
                    v = self.move_value(m, depth - 1, ply, alpha, alpha + 1, false, 0);
                }
                if !self.stopped && sample && v > alpha {
                    v = self.move_value(m, depth - 1, ply, alpha, alpha + 1, false, 0);
                }
                if !self.stopped && v > alpha && v < beta {
                    v = self.move_value(m, depth - 1, ply, alpha, beta, false, 0);
                }
            }
            if self.stopped {
                return 0;
            }
            if ply == 0 && (k == 0 || v > alpha) {
                // The root's answer: its first move, or one proven better than the ones before.
                self.root_best = Some(m);
                self.root_score = v;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        if !self.is_capture(m) {
                            let e = encode(m);
                            let ks = &mut self.killers[ply];
                            if ks[0] != e {
                                ks[1] = ks[0];
                                ks[0] = e;
                            }
                            let h = &mut self.history[self.pos.turn().index() * 8100
                                + m.from.index() * 90
                                + m.to.index()];
                            *h = (*h + depth * depth).min(SCORE_KILLER - 1);
                        }
                        break;
                    }
                }
            }
        }
        if let Some(tt) = self.tt {
            let bound = if best >= beta {
                BOUND_LOWER
            } else if best > orig_alpha {
                BOUND_EXACT
            } else {
                BOUND_UPPER
            };
            tt.store(key, depth, bound, to_tt(best, ply), best_move);
        }
        best
    }

    /// Passes the turn and searches the opponent's reply with a null window at `beta` (our
    /// side's view) to `depth`; `None` when stopped.
    fn null_child(&mut self, depth: i32, ply: usize, beta: i32) -> Option<i32> {
        self.pos.make_null();
        self.tick();
        let floor = self.rep_floor;
        // No repetition reaches back across a pass.
        self.path.push(PathEntry {
            hash: self.pos.hash(),
            in_check: false,
        });
        self.rep_floor = self.path.len() - 1;
        self.after_null = true;
        let v = if self.stopped {
            None
        } else {
            Some(-self.search(depth, ply + 1, -beta, -beta + 1))
        };
        self.after_null = false;
        self.rep_floor = floor;
        self.path.pop();
        self.pos.unmake_null();
        v.filter(|_| !self.stopped)
    }

    /// Quiescence: stand pat, then captures (hidden capturers as chance nodes in the first
    /// [`QS_HIDDEN_PLIES`] plies); in check, all evasions.
    /// Whether a table entry searched to `entry_depth` may cut a search of `depth`: at least as
    /// deep, or exactly as deep under the `exact_tt` test switch.
    #[inline]
    fn tt_depth_ok(&self, entry_depth: i32, depth: i32) -> bool {
        if self.opts.exact_tt {
            entry_depth == depth
        } else {
            entry_depth >= depth
        }
    }

    fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        self.horizon = true;
        if self.pos.king_lost(self.pos.turn()) {
            return -(MATE - ply as i32);
        }
        if ply >= MAX_PLY {
            return self.eval();
        }
        let in_check = qply < QS_CHECK_PLIES && self.pos.in_check();
        let mut best;
        if in_check {
            best = -INF;
        } else {
            best = self.eval();
            if best >= beta {
                return best;
            }
            if best > alpha {
                alpha = best;
            }
        }
        let mut scores = [0i32; jieqi_core::MAX_MOVES];
        let mut pruned = -INF;
        // Pool means of hidden pieces, computed at most once per node.
        let mut hv = [None; 2];
        let mut moves;
        let n;
        if in_check {
            moves = self.pos.legal_moves();
            if moves.is_empty() {
                return -(MATE - ply as i32);
            }
            n = moves.len();
            for (i, &m) in moves.iter().enumerate() {
                scores[i] = if self.is_capture(m) {
                    SCORE_CAPTURE + self.value_at(m.to, &mut hv) * 16
                        - self.value_at(m.from, &mut hv) / 8
                } else {
                    0
                };
            }
        } else {
            // Captures only: pseudo-legal generation, legality tested per capture. The kept
            // captures are compacted to the front of the list, in generation order.
            let stand = best;
            moves = MoveList::new();
            self.pos.pseudo_legal_captures(&mut moves);
            // Known not in check when the check test above ran; else asked at most once.
            let mut check = (qply < QS_CHECK_PLIES).then_some(false);
            let mut k = 0;
            for i in 0..moves.len() {
                let m = moves[i];
                if qply >= QS_HIDDEN_PLIES && self.pos.is_hidden(m.from) {
                    continue;
                }
                let victim = self.value_at(m.to, &mut hv);
                let king = matches!(
                    self.pos.occupant(m.to),
                    Some(jieqi_core::Occupant::Revealed(p)) if p.role == Role::King
                );
                // Delta pruning (a king capture always counts). The optimistic value keeps the
                // fail-soft bound an upper bound.
                if self.opts.delta && stand + victim + QS_DELTA <= alpha && !king {
                    pruned = pruned.max(stand + victim + QS_DELTA);
                    continue;
                }
                let pos = &self.pos;
                if !pos
                    .is_pseudo_legal_move_legal(m, || *check.get_or_insert_with(|| pos.in_check()))
                {
                    continue;
                }
                scores[k] = victim * 16 - self.value_at(m.from, &mut hv) / 8;
                moves.as_mut_slice()[k] = m;
                k += 1;
            }
            n = k;
        }
        for k in 0..n {
            let mut bi = k;
            for j in k + 1..n {
                if scores[j] > scores[bi] {
                    bi = j;
                }
            }
            scores.swap(k, bi);
            moves.as_mut_slice().swap(k, bi);
            let m = moves[k];
            let v = self.move_value(m, 0, ply, alpha, beta, true, qply);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best.max(pruned)
    }

    /// The root searched to `depth`: first in a window around the previous iteration's score
    /// (from depth 4, [`Options::aspiration`]), widened on each side that fails.
    fn aspirate(&mut self, depth: i32) -> i32 {
        let prev = self.root_score;
        if !self.opts.aspiration || depth < 4 || prev.abs() >= MATE_BOUND {
            return self.search(depth, 0, -INF, INF);
        }
        let (mut delta_lo, mut delta_hi) = (ASPIRATION, ASPIRATION);
        loop {
            let alpha = if delta_lo >= 4 * EVAL_LIMIT {
                -INF
            } else {
                prev - delta_lo
            };
            let beta = if delta_hi >= 4 * EVAL_LIMIT {
                INF
            } else {
                prev + delta_hi
            };
            let v = self.search(depth, 0, alpha, beta);
            if self.stopped {
                return v;
            }
            if v <= alpha && alpha > -INF {
                delta_lo *= 4;
            } else if v >= beta && beta < INF {
                delta_hi *= 4;
            } else {
                return v;
            }
        }
    }

    /// Iterative deepening to `max_depth`; returns the last completed depth. An iteration that
    /// met no horizon searched every line to the game's end: the iterations stop there and
    /// [`Searcher::exhausted`] is set (without this, a decided position — every move ending the
    /// game, say by the no-capture rule — ran all 120 iterations in a millisecond and reported
    /// depth 120).
    fn iterate(&mut self, max_depth: u32) -> u32 {
        let mut completed = 0;
        // Root best-move changes (halved each iteration) and the previous iteration's score.
        let mut changes = 0.0f32;
        let mut last: Option<(Move, i32)> = None;
        for d in 1..=max_depth.max(1) {
            for h in self.history.iter_mut() {
                *h /= 4;
            }
            self.horizon = false;
            let v = self.aspirate((d + self.depth_offset) as i32);
            if self.stopped {
                break;
            }
            completed = d;
            self.exhausted = !self.horizon;
            self.root_score = v;
            changes /= 2.0;
            let mut drop = 0;
            if let (Some((m, prev)), Some(best)) = (last, self.root_best) {
                changes += f32::from(u8::from(m != best));
                drop = prev - v;
            }
            last = self.root_best.map(|m| (m, v));
            // The next iteration takes about as long as all before it: start it only while less
            // than half the (scaled) soft budget has passed.
            let out_of_time = self.soft.is_some_and(|(start, soft)| {
                start.elapsed().as_secs_f32()
                    >= soft.as_secs_f32() * time_scale(changes, drop) / 2.0
            });
            if let Some(mv) = self.root_best {
                self.publish(d + self.depth_offset, mv, v);
            }
            if out_of_time || self.exhausted {
                break;
            }
        }
        completed
    }

    /// Reports a completed iteration (`depth`, best move `mv`, score `v`). With several threads
    /// the iteration is also published, and reported only if it is deeper than every iteration
    /// published before, so the front end hears depths in increasing order from whichever
    /// thread completes them first.
    fn publish(&mut self, depth: u32, mv: Move, v: i32) {
        let control = self.control;
        let nodes = match self.shared_nodes {
            Some(total) => total.load(Ordering::Relaxed) + self.nodes % 1024,
            None => self.nodes,
        };
        let Some(published) = self.published else {
            control.report(|| SearchInfo {
                nodes,
                depth: Some(depth),
                score: Some(to_score(v)),
                pv: self.pv(mv, depth as usize),
            });
            return;
        };
        let mut p = published.lock().unwrap_or_else(|e| e.into_inner());
        if depth <= p.depth {
            return;
        }
        let pv = self.pv(mv, depth as usize);
        control.report(|| SearchInfo {
            nodes,
            depth: Some(depth),
            score: Some(to_score(v)),
            pv: pv.clone(),
        });
        *p = Published {
            depth,
            mv: Some(mv),
            score: v,
            pv,
            by_helper: self.helper,
        };
    }

    /// The principal variation from the table, cut after the first hidden-piece move.
    fn pv(&mut self, first: Move, max_len: usize) -> Vec<Move> {
        let mut pv = vec![first];
        if self.pos.is_hidden(first.from) {
            return pv;
        }
        let mut pos = self.pos.clone();
        pos.make(PlayedMove::plain(first));
        let mut seen = vec![pos.hash()];
        while pv.len() < max_len {
            let Some(tt) = self.tt else { break };
            let Some(m) = tt.probe(pos.hash()).and_then(|e| decode(e.mv)) else {
                break;
            };
            if !pos.legal_moves().contains(&m) {
                break;
            }
            pv.push(m);
            if pos.is_hidden(m.from) {
                break;
            }
            pos.make(PlayedMove::plain(m));
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
        }
        pv
    }
}

/// The deepest iteration completed by any thread of a multi-threaded search. Lazy SMP's helpers
/// search one ply ahead of the main thread on the shared table and often complete a depth before
/// it: the search then answers with that deeper result (best-thread selection), and its progress
/// reports follow whichever thread is ahead.
#[derive(Clone, Debug, Default)]
struct Published {
    depth: u32,
    mv: Option<Move>,
    score: i32,
    pv: Vec<Move>,
    /// Whether a helper (not the main thread) completed it.
    by_helper: bool,
}

/// How much of a clock's soft budget to use, as a factor: 0.6 when the root's best move has not
/// changed lately, up to 1.6 for recent changes (`changes`: the changes of the past iterations,
/// each halved at every iteration since), times up to 1.5 when the score dropped from the
/// previous iteration (`drop` centipawns; 1.5 from a drop of 100). At most 2.
pub fn time_scale(changes: f32, drop: i32) -> f32 {
    let stability = 0.6 + 0.5 * changes.min(2.0);
    let falling = 1.0 + (drop.clamp(0, 100) as f32) / 200.0;
    (stability * falling).min(2.0)
}

/// Late-move reduction for the `k`-th move (from 0) at `depth`: about ln(depth)·ln(k)/2, one
/// ply less at principal-variation nodes, leaving at least one ply.
#[inline]
fn lmr_reduction(depth: i32, k: usize, pv_node: bool) -> i32 {
    let r = ((depth as f32).ln() * (k as f32).ln() / 2.0) as i32 + 1 - i32::from(pv_node);
    r.clamp(0, depth - 2)
}

/// SplitMix64's finaliser: a well-mixed 64-bit function of `x`.
#[inline]
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Star1 child window (a, b) from the mover's side for an outcome with bounds [lo, hi] and weight
/// `w`, given the scaled window `aw = αW`, `bw = βW` and the bound sums.
#[inline]
fn star1_window(aw: i64, bw: i64, s_lo: i64, s_hi: i64, lo: i32, hi: i32, w: i64) -> (i32, i32) {
    let rest_hi = s_hi - w * hi as i64;
    let rest_lo = s_lo - w * lo as i64;
    let a = (aw - rest_hi).div_euclid(w);
    let b = -((rest_lo - bw).div_euclid(w)); // ceil((bw - rest_lo) / w)
    let a = a.max(lo as i64 - 1).max(-INF as i64) as i32;
    let b = b.min(hi as i64 + 1).min(INF as i64) as i32;
    (a, b)
}

/// One position on the repetition path: the core's [`HistoryEntry`](jieqi_core::HistoryEntry) —
/// its hash, and whether its side to move is in check (recorded only when [`tracks_checks`]).
type PathEntry = jieqi_core::HistoryEntry;

/// Whether the search must know which moves gave check: the rules have check, and a perpetual
/// checker loses.
fn tracks_checks(rules: &jieqi_core::Rules) -> bool {
    rules.check && rules.perpetual_check == jieqi_core::PerpetualCheck::Loses
}

/// The first repetition on the path counts: a position that occurred once since the last
/// irreversible move is scored when it recurs (the referee waits for
/// [`Rules::repetition_count`](jieqi_core::Rules)).
const PATH_REPETITION_COUNT: u32 = 2;

/// Positions of the game since its last irreversible move (capture or reveal), oldest first,
/// excluding the current one, with their check flags: the core's
/// [`RepetitionHistory::of_view`](jieqi_core::RepetitionHistory::of_view) without its last entry.
fn past_hashes(view: &View) -> Vec<PathEntry> {
    let history = jieqi_core::RepetitionHistory::of_view(view);
    let window = history.window();
    window[..window.len().saturating_sub(1)].to_vec()
}

/// The search's value of `pos` at `ply` if the game is over there, from the side to move's point
/// of view, by the core's classifier ([`jieqi_core::classify_before_moves`] over `window`, the
/// positions since the last irreversible move ending at `pos`, a position ending the game at its
/// `count`-th occurrence): a win `MATE − ply`, a loss `−(MATE − ply)`, a draw `draw`. Like the
/// classifier it leaves a position that only a missing legal move ends to the caller, which
/// scores an empty move list as a loss. The search asks it at every node below the root with
/// count 2 (the first repetition on the path) and its contempt draw score.
#[inline]
pub fn terminal_score(
    pos: &Position,
    window: &[jieqi_core::HistoryEntry],
    count: u32,
    ply: usize,
    draw: i32,
) -> Option<i32> {
    let outcome = jieqi_core::classify_before_moves(pos, false, window, count)?;
    Some(match outcome.winner {
        None => draw,
        Some(w) if w == pos.turn() => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    })
}

/// Value of `pos` (side to move's view) searched to exactly `depth` plies with `opts`: iterative
/// deepening with a fresh table when `opts.tt`, else one fixed-depth search. No game history, so
/// repetitions count only along the search path. For tests and analysis.
pub fn search_value(pos: &Position, depth: u32, opts: &Options) -> i32 {
    search_value_nodes(pos, depth, opts).0
}

/// [`search_value`] with the number of nodes (make calls) it took.
pub fn search_value_nodes(pos: &Position, depth: u32, opts: &Options) -> (i32, u64) {
    let table = opts.tt.then(|| Tt::new(opts.hash_mb));
    let mut s = Searcher::new(pos.clone(), opts, table.as_ref(), Vec::new());
    let v = if opts.tt {
        s.iterate(depth);
        s.root_score
    } else {
        s.search(depth as i32, 0, -INF, INF)
    };
    (v, s.nodes)
}

/// The engine.
pub struct AlphaBeta {
    opts: Options,
    depth: Option<u32>,
    tt: Option<Tt>,
}

impl AlphaBeta {
    /// An engine with these options and an optional default depth.
    pub fn new(opts: Options, depth: Option<u32>) -> AlphaBeta {
        let tt = opts.tt.then(|| Tt::new(opts.hash_mb));
        AlphaBeta { opts, depth, tt }
    }
}

fn to_score(v: i32) -> Score {
    if v > MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v < -MATE_BOUND {
        Score::Mate(-((MATE + v) / 2))
    } else {
        Score::Cp(v)
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
        if let Some(tt) = self.tt.as_mut() {
            tt.new_search();
        }
        let past = past_hashes(view);
        let threads = self.opts.threads.max(1);
        let tt = self.tt.as_ref();
        let opts = &self.opts;
        let knowledge = view.knowledge();
        let shared_nodes = AtomicU64::new(0);
        let published = Mutex::new(Published::default());
        let helpers_stop = AtomicBool::new(false);
        // Helpers report to the front end too (deeper iterations only, see `Published`), and
        // stop when the main thread is done.
        let helper_control = control.with_stop(&helpers_stop);
        let node_limit = node_limit.unwrap_or(u64::MAX).max(1);
        fn searcher<'a>(
            pos: &Position,
            opts: &'a Options,
            tt: Option<&'a Tt>,
            past: &[PathEntry],
            knowledge: Knowledge,
            control: Control<'a>,
            node_limit: u64,
        ) -> Searcher<'a> {
            let mut s = Searcher::new(pos.clone(), opts, tt, past.to_vec());
            s.knowledge = knowledge;
            s.control = control;
            s.node_limit = node_limit;
            s
        }
        let (s, helper_nodes) = std::thread::scope(|scope| {
            // Lazy SMP: helpers search the same root on the shared table, half of them one ply
            // ahead, each with its own move-ordering history, until the main thread is done.
            let helpers: Vec<_> = (1..threads)
                .map(|i| {
                    let mut h =
                        searcher(pos, opts, tt, &past, knowledge, helper_control, node_limit);
                    // The same draws as the main thread: a different seed would reveal other
                    // identities, and no position below a reveal would be shared.
                    h.seed = seed;
                    h.depth_offset = (i % 2) as u32;
                    h.shared_nodes = Some(&shared_nodes);
                    h.published = Some(&published);
                    h.helper = true;
                    let depth = max_depth.saturating_sub(h.depth_offset).max(1);
                    scope.spawn(move || {
                        h.iterate(depth);
                        h.nodes % 1024
                    })
                })
                .collect();
            let mut s = searcher(pos, opts, tt, &past, knowledge, *control, node_limit);
            s.seed = seed;
            if threads > 1 {
                s.shared_nodes = Some(&shared_nodes);
                s.published = Some(&published);
            }
            s.deadline = budget.map(|b| start + b.hard.saturating_sub(Duration::from_millis(1)));
            // Under a clock, an iteration that would end past the soft budget (scaled by the
            // root's stability) is not started. A fixed movetime is searched in full.
            s.soft = budget.filter(|b| b.soft < b.hard).map(|b| (start, b.soft));
            s.completed = s.iterate(max_depth);
            helpers_stop.store(true, Ordering::Relaxed);
            let rest: u64 = helpers.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            (s, rest)
        });
        let mut s = s;
        // Best-thread selection: a helper's iteration deeper than the main thread's last
        // completed one answers (it searched every root move to that depth on the same table).
        let deeper = std::mem::take(&mut *published.lock().unwrap_or_else(|e| e.into_inner()));
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
        // Every thread's nodes: the shared count holds the helpers' and the main thread's
        // thousands, the rest is added here.
        let nodes = if threads > 1 {
            shared_nodes.load(Ordering::Relaxed) + helper_nodes + s.nodes % 1024
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
                score: Some(to_score(score)),
                pv,
            },
        })
    }
}

/// Builds the engine from a spec (keys in [`HELP`]).
///
/// # Errors
/// A malformed value, an unreadable eval file or an unknown key.
pub fn from_spec(spec: &Spec) -> Result<Box<dyn Engine>, SpecError> {
    factory(spec).map(|f| f.build())
}

/// The factory of engines of a spec (keys in [`HELP`]): the spec, and the eval file it names,
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

/// Reads a spec into search options and the default depth.
fn options_from_spec(spec: &Spec) -> Result<(Options, Option<u32>), SpecError> {
    let mut p = spec.params();
    let depth: u32 = p.get("depth", 0)?;
    let hash_mb: usize = p.get("hash", 16)?;
    let contempt: i32 = p.get("contempt", 20)?;
    let star1: bool = p.get("star1", true)?;
    let star2: bool = p.get("star2", false)?;
    let qsearch: bool = p.get("qsearch", true)?;
    let delta: bool = p.get("delta", true)?;
    let tt: bool = p.get("tt", true)?;
    let exact_tt: bool = p.get("exact_tt", false)?;
    let eval_path: String = p.get("eval", String::new())?;
    let chance_plies: u32 = p.get("chance", DEFAULT_CHANCE_PLIES)?;
    let null_move: bool = p.get("null", true)?;
    let lmr: bool = p.get("lmr", true)?;
    let futility: bool = p.get("futility", true)?;
    let check_extension: bool = p.get("check_ext", true)?;
    let aspiration: bool = p.get("aspiration", true)?;
    let threads: usize = p.get("threads", 1)?;
    let late_sample: bool = p.get("late_sample", true)?;
    p.finish(&[
        "depth",
        "hash",
        "contempt",
        "star1",
        "star2",
        "qsearch",
        "delta",
        "tt",
        "exact_tt",
        "eval",
        "chance",
        "null",
        "lmr",
        "futility",
        "check_ext",
        "aspiration",
        "threads",
        "late_sample",
    ])?;
    let err = |message: String| SpecError {
        spec: spec.to_string(),
        message,
    };
    if hash_mb == 0 || hash_mb > 65_536 {
        return Err(err(format!(
            "parameter 'hash' = {hash_mb} MB is outside [1, 65536]"
        )));
    }
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(err(format!(
            "parameter 'threads' = {threads} is outside [1, {MAX_THREADS}]"
        )));
    }
    if contempt.abs() > 10_000 {
        return Err(err(format!(
            "parameter 'contempt' = {contempt} is outside [-10000, 10000]"
        )));
    }
    let eval = if eval_path.is_empty() {
        EvalWeights::default()
    } else {
        EvalWeights::from_json_file(&eval_path).map_err(err)?
    };
    let opts = Options {
        tt,
        hash_mb,
        exact_tt,
        star1,
        star2,
        qsearch,
        delta,
        contempt,
        eval,
        chance_plies,
        null_move,
        lmr,
        futility,
        check_extension,
        aspiration,
        late_sample,
        threads,
    };
    Ok((opts, (depth > 0).then_some(depth)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::{Deal, Game, Rules, uniform_below};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn a_table_the_machine_cannot_hold_is_refused_with_the_spec() {
        // No machine reserves half the address space.
        assert!(Tt::reserve(usize::MAX / 64).is_err());
        assert!(Tt::check_allocation(16).is_ok());
        // The largest `hash` either fits or is refused naming the parameter, never an abort.
        if let Err(e) = factory(&Spec::parse("alphabeta:hash=65536").unwrap()) {
            assert!(e.to_string().contains("'hash' = 65536 MB"), "{e}");
        }
        // Without a table, nothing is allocated.
        assert!(factory(&Spec::parse("alphabeta:hash=65536,tt=false").unwrap()).is_ok());
    }

    #[test]
    fn table_entries_round_trip_and_torn_slots_are_refused() {
        for (score, mv, depth, bound, age) in [
            (0, 1, 1, BOUND_EXACT, 0),
            (-INF, 8100, 127, BOUND_LOWER, 255),
            (INF, 17, 0, BOUND_UPPER, 3),
            (-(MATE - 5), 4000, 64, BOUND_EXACT, 1),
        ] {
            let e = Entry {
                score,
                mv,
                depth,
                bound,
            };
            let (back, a) = Entry::unpack(e.pack(age));
            assert_eq!(
                (back.score, back.mv, back.depth, back.bound, a),
                (score, mv, depth, bound, age)
            );
        }
        let tt = Tt::new(1);
        let m = Move::new(Square::from_index(3), Square::from_index(12));
        tt.store(0xDEAD_BEEF, 5, BOUND_LOWER, -123, Some(m));
        let e = tt.probe(0xDEAD_BEEF).expect("stored");
        assert_eq!(
            (e.score, decode(e.mv), e.depth, e.bound),
            (-123, Some(m), 5, BOUND_LOWER)
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        // A shallower bound does not replace a deeper entry of the same position; a new one does.
        tt.store(0xDEAD_BEEF, 3, BOUND_UPPER, 50, None);
        assert_eq!(tt.probe(0xDEAD_BEEF).unwrap().depth, 5);
        tt.store(0xDEAD_BEEF, 6, BOUND_UPPER, 50, None);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((e.depth, decode(e.mv)), (6, Some(m)), "the move is kept");
        // A slot whose two words come from different writes is not believed.
        let slot = &tt.slots[tt.index(0xDEAD_BEEF)];
        let other = Entry {
            score: 9,
            mv: 2,
            depth: 9,
            bound: BOUND_EXACT,
        }
        .pack(0);
        slot[0].store(other, Ordering::Relaxed);
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }

    #[test]
    fn time_scale_follows_stability_and_falling_scores() {
        assert!((time_scale(0.0, 0) - 0.6).abs() < 1e-6);
        assert!(time_scale(1.0, 0) > time_scale(0.5, 0));
        assert!(time_scale(0.0, 50) > time_scale(0.0, 0));
        assert_eq!(
            time_scale(0.0, -300),
            time_scale(0.0, 0),
            "a rising score is no reason"
        );
        assert!((time_scale(10.0, 1000) - 2.0).abs() < 1e-6, "capped");
    }

    #[test]
    fn only_check_rules_with_perpetual_loss_track_checks() {
        assert!(tracks_checks(&Rules::standard()));
        assert!(tracks_checks(&Rules::xiangqi()));
        assert!(!tracks_checks(&Rules::simple()));
        let draws = Rules {
            perpetual_check: jieqi_core::PerpetualCheck::Draws,
            ..Rules::standard()
        };
        assert!(!tracks_checks(&draws));
    }

    /// Searches positions along seeded random games of every preset (star2 on and off, so that
    /// probes make moves too); in test builds `Searcher::eval` asserts that the incremental
    /// evaluation equals `evaluate` at every leaf it computes.
    #[test]
    fn incremental_evaluation_matches_along_searches() {
        for rules in [Rules::standard(), Rules::simple(), Rules::xiangqi()] {
            for seed in 0..8u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(500 + seed);
                let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
                let plies = 4 + 9 * seed as usize;
                while game.outcome().is_none() && game.ply() < plies {
                    let moves = game.legal_moves();
                    let m = moves[uniform_below(&mut rng, moves.len() as u32) as usize];
                    game.play(m).unwrap();
                }
                if game.outcome().is_some() {
                    continue;
                }
                let view = game.view(game.turn());
                let opts = Options {
                    star2: seed % 2 == 1,
                    ..Options::default()
                };
                let (_, nodes) = search_value_nodes(view.position(), 2, &opts);
                assert!(nodes > 0);
            }
        }
    }
}
