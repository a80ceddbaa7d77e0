//! Statistics, pure functions of counts: pentanomial and trinomial Elo, nElo, LOS, SPRT and shard
//! homogeneity ([`elo`], re-exported here), many-engine ratings ([`ratings`]), and the result
//! block every report prints ([`block`]).

pub mod block;
pub mod bootstrap;
pub mod elo;
pub mod ratings;

pub use elo::*;
