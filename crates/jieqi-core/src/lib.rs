//! Rules of Jieqi (揭棋, "uncovering xiangqi") and its relatives: board, move generation,
//! make/unmake, Zobrist hashing, FEN and move text, deals, the referee's game, and per-player
//! information sets with exact sampling of the hidden pieces.
//!
//! No I/O and no entropy: randomness comes in as `&mut impl rand_core::Rng`.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod attacks;
mod belief;
pub mod cell;
mod color;
mod deal;
mod determinization;
pub mod fen;
mod game;
mod movegen;
mod moves;
pub mod perft;
mod position;
mod role;
mod rules;
mod setup;
mod square;
pub mod tables;
mod terminal;
mod view;

pub use belief::{Belief, Knowledge};
pub use color::{ByColor, Color};
pub use deal::{Deal, DealError, uniform_below};
pub use determinization::Determinization;
pub use fen::FenError;
pub use game::{Game, GameError, Record};
pub use moves::{MAX_MOVES, Move, MoveList, MoveTextError, PlayedMove};
pub use position::{
    MAX_COUNTER, PlayError, Position, PositionError, Undo, is_hidden_square, start_role,
};
pub use role::{Occupant, Piece, Pool, Role};
pub use rules::{CaptureReveal, HiddenMoves, PerpetualCheck, RuleName, Rules, RulesError};
pub use setup::Setup;
pub use square::{Square, SquareError};
pub use terminal::{
    HistoryEntry, Outcome, Reason, RepetitionHistory, classify, classify_before_moves,
    no_capture_limit, repetition,
};
pub use view::View;
