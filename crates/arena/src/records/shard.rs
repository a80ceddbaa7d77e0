//! `--shard K/N`: one machine's share of a run. Shard `K` of `N` plays exactly the pairs `p` with
//! `p ≡ K (mod N)` of every pairing, with the same fingerprint, deal seeds and engine seeds as the
//! whole run, so `arena merge` can put the shards back together into the single run's results.

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

impl Shard {
    /// Reads `K/N` (`0 ≤ K < N ≤` [`MAX_SHARDS`]).
    ///
    /// # Errors
    /// A message saying what is wrong.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("'{s}' is not K/N (shard K of N, counted from 0), e.g. 0/4"))?;
        let num = |t: &str, what: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| format!("'{s}': {what} '{t}' is not a whole number"))
        };
        let (index, count) = (num(k, "K")?, num(n, "N")?);
        if count == 0 || count > MAX_SHARDS {
            return Err(format!("'{s}': N must be between 1 and {MAX_SHARDS}"));
        }
        if index >= count {
            return Err(format!(
                "'{s}': K counts from 0, so it must be below N (0 to {})",
                count - 1
            ));
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
        assert!(Shard::parse("3/3").unwrap_err().contains("below N"));
        assert!(Shard::parse("0/0").unwrap_err().contains("between 1"));
        assert!(Shard::parse("1").unwrap_err().contains("K/N"));
        assert!(Shard::parse("a/2").unwrap_err().contains("'a'"));
    }
}
