//! Helpers every layer may use, one home each: text made printable or safe for a file name
//! ([`text`]), UTC time without a date crate ([`time`]) and the Ctrl-C request ([`interrupt`]).

pub mod interrupt;
pub mod text;
pub mod time;
