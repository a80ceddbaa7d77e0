//! The jieqi-search integration tests, one binary (one link, and long tests overlap with short ones).

mod alphabeta;
mod common;
mod eval;
mod leaf;
mod mcts;
mod mcts_solver;
mod perpetual;
mod terminal;
