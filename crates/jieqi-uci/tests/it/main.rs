//! The jieqi-uci integration tests, one binary (one link, and long tests overlap with short ones).

mod arena_e2e;
mod jieqibox_check;
mod protocol;
