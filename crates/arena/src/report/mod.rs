//! What a person reads: a two-engine run's summary ([`summary`], re-exported here), a
//! tournament's standings ([`standings`]) and HTML page ([`html`]), the nightly index
//! ([`history`]) and boards as text ([`board_text`]).

pub mod board_text;
pub mod history;
pub mod html;
pub mod standings;
pub mod summary;

pub use summary::*;
