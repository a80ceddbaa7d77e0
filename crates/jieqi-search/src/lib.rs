//! Jieqi engines that search: `flat-uct` (the seed-000 algorithm done right), `ismcts`
//! (single-observer information-set MCTS) and `alphabeta` (negamax with chance nodes at reveals,
//! Star1/Star2). Every engine implements [`jieqi_engine::Engine`], sees only its player's
//! [`jieqi_core::View`], and is deterministic for a given seed and node limit.

#![deny(missing_docs)]

pub mod alphabeta;
pub mod eval;
pub mod flat_uct;
pub mod ismcts;
pub mod playout;
pub mod playout_board;

use jieqi_engine::{Engine, Spec, SpecError};

/// (name, help) of every engine in this crate, for `arena engines`.
pub const ENGINES: &[(&str, &str)] = &[
    (flat_uct::NAME, flat_uct::HELP),
    (ismcts::NAME, ismcts::HELP),
    (alphabeta::NAME, alphabeta::HELP),
];

/// Builds the engine a spec names, or `None` when the name is not one of this crate's.
pub fn from_spec(spec: &Spec) -> Option<Result<Box<dyn Engine>, SpecError>> {
    match spec.name.as_str() {
        flat_uct::NAME => Some(flat_uct::from_spec(spec)),
        ismcts::NAME => Some(ismcts::from_spec(spec)),
        alphabeta::NAME => Some(alphabeta::from_spec(spec)),
        _ => None,
    }
}
