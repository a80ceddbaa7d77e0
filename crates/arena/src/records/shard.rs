//! `--shard K/N`: one machine's share of a run. Shard `K` of `N` plays exactly the pairs `p` with
//! `p ≡ K (mod N)` of every pairing, with the same fingerprint, deal seeds and engine seeds as the
//! whole run, so `arena merge` can put the shards back together into the single run's results.

use core::fmt;

use serde::{Deserialize, Serialize};

/// Shard `index` of `count`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which share: `0 ≤ index < count`.
    pub index: u64,
    /// Shares in all.
    pub count: u64,
}

/// The most shards a run may be cut into.
pub const MAX_SHARDS: u64 = 1_000_000;

/// Why a `K/N` value does not read; each names the value as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    /// No `/`.
    NotKOfN(String),
    /// `K` or `N` (the second field) is not a whole number (the third).
    NotANumber(String, &'static str, String),
    /// `N` is 0 or above [`MAX_SHARDS`].
    Count(String),
    /// `K` is not below `N` (the second field).
    Index(String, u64),
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::NotKOfN(s) => {
                write!(
                    f,
                    "'{s}' is not K/N (shard K of N, counted from 0), e.g. 0/4"
                )
            }
            ShardError::NotANumber(s, what, t) => {
                write!(f, "'{s}': {what} '{t}' is not a whole number")
            }
            ShardError::Count(s) => write!(f, "'{s}': N must be between 1 and {MAX_SHARDS}"),
            ShardError::Index(s, count) => write!(
                f,
                "'{s}': K counts from 0, so it must be below N (0 to {})",
                count - 1
            ),
        }
    }
}

impl std::error::Error for ShardError {}

impl Shard {
    /// Reads `K/N` (`0 ≤ K < N ≤` [`MAX_SHARDS`]).
    ///
    /// # Errors
    /// What is wrong, naming the value ([`ShardError`]).
    pub fn parse(s: &str) -> Result<Shard, ShardError> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| ShardError::NotKOfN(s.to_string()))?;
        let num = |t: &str, what: &'static str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| ShardError::NotANumber(s.to_string(), what, t.to_string()))
        };
        let (index, count) = (num(k, "K")?, num(n, "N")?);
        if count == 0 || count > MAX_SHARDS {
            return Err(ShardError::Count(s.to_string()));
        }
        if index >= count {
            return Err(ShardError::Index(s.to_string(), count));
        }
        Ok(Shard { index, count })
    }

    /// Whether pair `p` is this shard's.
    pub fn has(self, p: u64) -> bool {
        p % self.count == self.index
    }

    /// How many of the pairs `0..pairs` are this shard's.
    pub fn pairs_of(self, pairs: u64) -> u64 {
        if pairs <= self.index {
            0
        } else {
            (pairs - self.index - 1) / self.count + 1
        }
    }

    /// The pair index of this shard's `local`-th pair.
    pub fn pair(self, local: u64) -> u64 {
        self.index + local * self.count
    }

    /// The local number of pair `p` (which must be this shard's).
    pub fn local(self, p: u64) -> u64 {
        p / self.count
    }
}

impl core::fmt::Display for Shard {
    /// `K/N`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_pair_once() {
        for count in 1..6 {
            for pairs in 0..20 {
                let mut seen = vec![0; pairs as usize];
                for index in 0..count {
                    let s = Shard { index, count };
                    for local in 0..s.pairs_of(pairs) {
                        let p = s.pair(local);
                        assert!(s.has(p) && s.local(p) == local);
                        seen[p as usize] += 1;
                    }
                }
                assert!(
                    seen.iter().all(|&n| n == 1),
                    "{count} shards, {pairs} pairs"
                );
            }
        }
    }

    #[test]
    fn parse_names_the_problem() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        let error = |s: &str| Shard::parse(s).unwrap_err().to_string();
        assert_eq!(
            error("3/3"),
            "'3/3': K counts from 0, so it must be below N (0 to 2)"
        );
        assert_eq!(error("0/0"), "'0/0': N must be between 1 and 1000000");
        assert_eq!(
            error("1"),
            "'1' is not K/N (shard K of N, counted from 0), e.g. 0/4"
        );
        assert_eq!(error("a/2"), "'a/2': K 'a' is not a whole number");
    }
}
