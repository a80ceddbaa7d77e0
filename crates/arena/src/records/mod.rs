//! What a run leaves on disk and reads back: the per-game formats ([`games`], re-exported here),
//! the journal `games.jsonl` ([`journal`]), the canonical deal seed → deal mapping
//! ([`deal_seed`]), a shard's share of the pairs ([`shard`]), the one reader of a folder's games
//! ([`recorded_games`]) and test-suite files ([`epd`]).

pub mod check;
pub mod deal_seed;
pub mod epd;
pub mod files;
pub mod games;
pub mod journal;
pub mod shard;
pub mod termination;

pub use games::*;
