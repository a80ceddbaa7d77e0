//! The jieqi-search integration tests, one binary (one link, and long tests overlap with short ones).

mod alloc;
mod alphabeta;
mod common;
#[path = "../../../jieqi-core/tests/it/counting_alloc.rs"]
mod counting_alloc;
mod eval;
mod leaf;
mod mcts;
mod mcts_solver;
mod perpetual;
mod terminal;
