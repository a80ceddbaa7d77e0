//! Helpers every layer may use, one home each: text made printable or safe for a file name
//! ([`text`]) and UTC time without a date crate ([`time`]).

pub mod text;
pub mod time;
