//! Jieqi engines that search: `flat-uct` (the seed-000 algorithm done right), `ismcts`
//! (single-observer information-set MCTS), `alphabeta` (negamax with chance nodes at reveals,
//! Star1/Star2) and `mcts-solver` (MCTS-Solver with proven wins and losses, for endgames). Every engine implements [`jieqi_engine::Engine`], sees only its player's
//! [`jieqi_core::View`], and is deterministic for a given seed and node limit.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod alphabeta;
pub mod eval;
pub mod flat_uct;
pub mod ismcts;
pub mod leaf;
pub mod mate;
pub mod mcts_solver;
pub mod playout;
pub mod playout_board;
pub mod tactic;

use jieqi_engine::{Engine, Factory, Spec, SpecError};

/// A hash map keyed by Zobrist position hashes, which are already uniform: its hasher passes a
/// `u64` key through (the tables of `mate` and `mcts_solver`).
pub(crate) type KeyMap<V> =
    std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// The hasher of [`KeyMap`].
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// One step of a selection sort over a move list and its scores: brings the best-scored of
/// `moves[k..n]` (the first of equals) to position `k`, its score with it, and returns it. The
/// quiescence searches order their captures this way, one pick per move tried, so a cut-off
/// leaves the rest unsorted.
#[inline]
pub(crate) fn pick_best(
    moves: &mut jieqi_core::MoveList,
    scores: &mut [i32],
    k: usize,
    n: usize,
) -> jieqi_core::Move {
    let mut bi = k;
    for j in k + 1..n {
        if scores[j] > scores[bi] {
            bi = j;
        }
    }
    scores.swap(k, bi);
    moves.as_mut_slice().swap(k, bi);
    moves[k]
}

/// Most search threads a spec may ask for (`threads=N` of `alphabeta` and `ismcts`).
pub const MAX_THREADS: usize = 256;

/// The help text of an engine, made once on first call.
pub type HelpFn = fn() -> &'static str;

/// (name, help) of every engine in this crate, for `arena engines`: the help of an engine with
/// a key table is made from it once, on first call.
pub const ENGINES: &[(&str, HelpFn)] = &[
    (flat_uct::NAME, || flat_uct::HELP),
    (ismcts::NAME, ismcts::help),
    (alphabeta::NAME, alphabeta::help),
    (mcts_solver::NAME, mcts_solver::help),
];

/// The key table of the engine `name` of this crate, if it declares its keys as one
/// ([`jieqi_engine::keys`]).
pub fn keys(name: &str) -> Option<&'static [jieqi_engine::Key]> {
    match name {
        alphabeta::NAME => Some(alphabeta::keys()),
        ismcts::NAME => Some(ismcts::keys()),
        mcts_solver::NAME => Some(mcts_solver::keys()),
        _ => None,
    }
}

/// The factory of the engine a spec names (files such as `alphabeta`'s `eval=` are read here,
/// once), or `None` when the name is not one of this crate's.
///
/// # Errors
/// Inside the `Some`: an unknown key, a bad value or an unreadable file.
pub fn factory(spec: &Spec) -> Option<Result<Factory, SpecError>> {
    match spec.name.as_str() {
        flat_uct::NAME => Some(flat_uct::FlatUct::from_spec(spec).map(Factory::of_clone)),
        ismcts::NAME => Some(ismcts::Ismcts::from_spec(spec).map(Factory::of_clone)),
        alphabeta::NAME => Some(alphabeta::factory(spec)),
        mcts_solver::NAME => Some(mcts_solver::MctsSolver::from_spec(spec).map(Factory::of_clone)),
        _ => None,
    }
}

/// Builds the engine a spec names: [`factory`], then one engine.
///
/// # Errors
/// As [`factory`].
pub fn from_spec(spec: &Spec) -> Option<Result<Box<dyn Engine>, SpecError>> {
    factory(spec).map(|r| r.map(|f| f.build()))
}
