//! Helpers every layer may use, one home each: text made printable or safe for a file name
//! ([`text`]), UTC time without a date crate ([`time`]), the Ctrl-C request ([`interrupt`]) and
//! input lines read on a thread ([`lines`]).

pub mod interrupt;
pub mod lines;
pub mod text;
pub mod time;
