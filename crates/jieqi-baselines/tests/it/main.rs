//! The jieqi-baselines integration tests, one binary (one link, and long tests overlap with short ones).

mod games;
mod specs;
