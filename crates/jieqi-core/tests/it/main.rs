//! The jieqi-core integration tests, one binary (one link, and long tests overlap with short ones).

mod alloc;
mod captures;
mod counting_alloc;
mod fen;
mod fuzz;
mod game;
mod perft;
mod properties;
mod rules_frozen;
mod sampling;
mod validation;
