//! What a run leaves on disk and reads back: the code that played it ([`build`]), the per-game formats and where a game's line is
//! ([`games`], re-exported here), how a game ended ([`termination`]) and when scores end it ([`adjudication`]), the journal `games.jsonl`
//! ([`journal`]) and a few of its games found without reading the others ([`lookup`]), every file written ([`files`]), a recorded game checked against its deal
//! ([`check`]), the canonical deal seed → deal mapping ([`deal_seed`]), a shard's share of the
//! pairs ([`shard`]), test-suite files ([`epd`]), opening books ([`openings`]) and the text
//! formats games are exchanged in, reader beside writer ([`formats`]: PGN, JieqiBox), and the
//! training data chunks of labelled positions ([`data`]).

pub mod adjudication;
pub mod build;
pub mod check;
pub mod data;
pub mod deal_seed;
pub mod epd;
pub mod files;
pub mod formats;
pub mod games;
pub mod journal;
pub mod lookup;
pub mod openings;
pub mod shard;
pub mod termination;

pub use games::*;
