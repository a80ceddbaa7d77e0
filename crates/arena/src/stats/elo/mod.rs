//! Match statistics, as fishtest and fastchess compute them: pentanomial and trinomial score,
//! Elo with its 95 % interval, normalized Elo, LOS, the GSPRT log-likelihood ratio (logistic and
//! normalized models; in `sprt.rs`, re-exported here) and a chi² homogeneity test across shards.
//!
//! Everything here is a pure function of integer counts: no I/O, no panics, no NaN. Degenerate
//! inputs (no games, a zero variance, a score of 0 or 1) give documented neutral or infinite
//! values instead. The formulas follow `shared/reference/arena-statistics.md`; each function's
//! documentation states the one it computes.
//!
//! Conventions: counts are from engine A's side. A *pair* is one deal played twice with colours
//! swapped; its pentanomial index is k = 2 × (pair score), so `LL` 0, `LD` 1, `WL`+`DD` 2, `WD` 3,
//! `WW` 4, and its value is a_k = k/4. A game's value is 0, ½, 1.

use core::iter::Sum;
use core::ops::AddAssign;

use statrs::distribution::{ChiSquared, ContinuousCDF};

/// The z-score of a two-sided 95 % interval, as fastchess and fishtest print it.
pub const Z95: f64 = 1.959964;

/// Normalized Elo per unit of t-value: 800 / ln 10 ≈ 347.4356 (fishtest `nelo_divided_by_nt`).
pub const NELO_SCALE: f64 = 800.0 / core::f64::consts::LN_10;

/// What fishtest's `regularize` puts in place of a zero count before an LLR computation.
pub const REGULARIZE_EPSILON: f64 = 1e-3;

// ---------------------------------------------------------------------------------------------
// Counts
// ---------------------------------------------------------------------------------------------

/// One game's result from engine A's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameScore {
    /// A lost (0 points).
    Loss,
    /// A draw (½ point).
    Draw,
    /// A won (1 point).
    Win,
}

impl GameScore {
    /// Half points: Loss 0, Draw 1, Win 2.
    pub fn half_points(self) -> u8 {
        match self {
            GameScore::Loss => 0,
            GameScore::Draw => 1,
            GameScore::Win => 2,
        }
    }

    /// Points: 0, 0.5 or 1.
    pub fn points(self) -> f64 {
        f64::from(self.half_points()) / 2.0
    }

    /// The same game from the other engine's side.
    pub fn flipped(self) -> GameScore {
        match self {
            GameScore::Loss => GameScore::Win,
            GameScore::Draw => GameScore::Draw,
            GameScore::Win => GameScore::Loss,
        }
    }
}

/// Game totals from engine A's side (the trinomial).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Wdl {
    /// Games A won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games A lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts one game.
    pub fn add(&mut self, game: GameScore) {
        let slot = match game {
            GameScore::Loss => &mut self.losses,
            GameScore::Draw => &mut self.draws,
            GameScore::Win => &mut self.wins,
        };
        *slot = slot.saturating_add(1);
    }

    /// Games played: W + D + L (saturating).
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// A's points: W + D/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// A's score, points / games, in [0, 1]; the neutral 0.5 when no game was played.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Draws / games; `None` when no game was played.
    pub fn draw_ratio(&self) -> Option<f64> {
        match self.games() {
            0 => None,
            n => Some(self.draws as f64 / n as f64),
        }
    }
}

// No `Add` impl: `w.add(game)` must find the inherent method (a by-value `Add::add` would be
// found first). Sum totals with `+=` or `.sum()`.
impl AddAssign for Wdl {
    /// Adds the other totals (saturating).
    fn add_assign(&mut self, o: Wdl) {
        self.wins = self.wins.saturating_add(o.wins);
        self.draws = self.draws.saturating_add(o.draws);
        self.losses = self.losses.saturating_add(o.losses);
    }
}

impl Sum for Wdl {
    fn sum<I: Iterator<Item = Wdl>>(iter: I) -> Wdl {
        let mut total = Wdl::default();
        for w in iter {
            total += w;
        }
        total
    }
}

/// Pair totals from engine A's side (the pentanomial), with `WL` and `DD` kept apart.
///
/// The five pentanomial cells are `[LL, LD, WL + DD, WD, WW]` ([`Pentanomial::counts`]); a pair
/// counts only when both of its games finished. The order of the two games inside a pair does
/// not matter (`LD` also counts a draw then a loss).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Pentanomial {
    /// Pairs A lost twice (pair score 0).
    pub ll: u64,
    /// Pairs with a loss and a draw (pair score ½).
    pub ld: u64,
    /// Pairs with a win and a loss (pair score 1).
    pub wl: u64,
    /// Pairs with two draws (pair score 1).
    pub dd: u64,
    /// Pairs with a win and a draw (pair score 1½).
    pub wd: u64,
    /// Pairs A won twice (pair score 2).
    pub ww: u64,
}

impl Pentanomial {
    /// The five cells `[LL, LD, WL + DD, WD, WW]`, index k = 2 × pair score (saturating).
    pub fn counts(&self) -> [u64; 5] {
        [
            self.ll,
            self.ld,
            self.wl.saturating_add(self.dd),
            self.wd,
            self.ww,
        ]
    }

    /// Pairs counted (saturating).
    pub fn pairs(&self) -> u64 {
        self.counts()
            .iter()
            .fold(0u64, |acc, &c| acc.saturating_add(c))
    }

    /// Counts one finished pair from its two games' results (A's side, either order).
    pub fn add(&mut self, x1: GameScore, x2: GameScore) {
        use GameScore::{Draw, Loss, Win};
        let slot = match (x1, x2) {
            (Loss, Loss) => &mut self.ll,
            (Loss, Draw) | (Draw, Loss) => &mut self.ld,
            (Win, Loss) | (Loss, Win) => &mut self.wl,
            (Draw, Draw) => &mut self.dd,
            (Win, Draw) | (Draw, Win) => &mut self.wd,
            (Win, Win) => &mut self.ww,
        };
        *slot = slot.saturating_add(1);
    }

    /// The games' totals: wins = 2WW + WD + WL, draws = LD + WD + 2DD, losses = 2LL + LD + WL
    /// (saturating).
    pub fn wdl(&self) -> Wdl {
        let sum = |xs: &[u64]| xs.iter().fold(0u64, |acc, &c| acc.saturating_add(c));
        Wdl {
            wins: sum(&[self.ww, self.ww, self.wd, self.wl]),
            draws: sum(&[self.ld, self.wd, self.dd, self.dd]),
            losses: sum(&[self.ll, self.ll, self.ld, self.wl]),
        }
    }

    /// Pairs with score 1 (WL + DD) / pairs, as fastchess's `DrawRatio`; `None` without pairs.
    ///
    /// fastchess's example `Ptnml(0-2): [43, 61, 144, 55, 37]` gives 144/340 = 42.35 %.
    pub fn draw_ratio(&self) -> Option<f64> {
        match self.pairs() {
            0 => None,
            n => Some(self.counts()[2] as f64 / n as f64),
        }
    }

    /// Winning pairs over losing pairs, (WD + WW) / (LL + LD), as fastchess's `PairsRatio`
    /// (the example above gives 92/104 = 0.88). Infinite when only winning pairs occur,
    /// `None` when there is neither kind (0/0).
    pub fn pairs_ratio(&self) -> Option<f64> {
        ratio(
            self.wd.saturating_add(self.ww),
            self.ll.saturating_add(self.ld),
        )
    }

    /// WL / DD: how many of the score-1 pairs are a win and a loss rather than two draws (a high
    /// value means the deals decide games more than the engines). `None` when DD is 0.
    pub fn wl_dd_ratio(&self) -> Option<f64> {
        match self.dd {
            0 => None,
            dd => Some(self.wl as f64 / dd as f64),
        }
    }
}

/// num / den; infinite when only den is 0, `None` when both are.
fn ratio(num: u64, den: u64) -> Option<f64> {
    match (num, den) {
        (0, 0) => None,
        (_, 0) => Some(f64::INFINITY),
        (n, d) => Some(n as f64 / d as f64),
    }
}

// No `Add` impl: `p.add(x1, x2)` must find the inherent method (a by-value `Add::add` would be
// found first). Merge with `+=`, `.sum()` or [`merge`].
impl AddAssign for Pentanomial {
    /// Adds the other shard's counts (saturating).
    fn add_assign(&mut self, o: Pentanomial) {
        self.ll = self.ll.saturating_add(o.ll);
        self.ld = self.ld.saturating_add(o.ld);
        self.wl = self.wl.saturating_add(o.wl);
        self.dd = self.dd.saturating_add(o.dd);
        self.wd = self.wd.saturating_add(o.wd);
        self.ww = self.ww.saturating_add(o.ww);
    }
}

impl Sum for Pentanomial {
    fn sum<I: Iterator<Item = Pentanomial>>(iter: I) -> Pentanomial {
        let mut total = Pentanomial::default();
        for p in iter {
            total += p;
        }
        total
    }
}

/// Merges shards by summing their integer counts, nothing else: every statistic computed from
/// the merged counts is then bit-identical to one computed from a single run with those pairs.
pub fn merge(shards: &[Pentanomial]) -> Pentanomial {
    shards.iter().copied().sum()
}

// ---------------------------------------------------------------------------------------------
// Special functions
// ---------------------------------------------------------------------------------------------

/// The standard normal CDF Φ(x), from statrs's chi² survival function with one degree of
/// freedom: Φ(−|x|) = ½ P(χ²₁ ≥ x²), Φ(|x|) = 1 − ½ P(χ²₁ ≥ x²). That incomplete-gamma route
/// keeps a relative error near 1e-14 also deep in the lower tail, where statrs's `erfc` (and so
/// `Normal::cdf`) is only good to about 1e-10. Φ(±∞) = 1 or 0; NaN gives 0.5.
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return 0.5;
    }
    let tail = 0.5 * chi2_sf(x * x, 1);
    if x < 0.0 { tail } else { 1.0 - tail }
}

/// The chi² survival function P(X ≥ x) for `dof` degrees of freedom, statrs's
/// [`ChiSquared`] survival function (the regularized upper incomplete gamma Q(dof/2, x/2)).
/// 1 for x ≤ 0, NaN or dof = 0 (no freedom, no evidence); 0 for x = +∞.
pub fn chi2_sf(x: f64, dof: u32) -> f64 {
    if dof == 0 || x.is_nan() || x <= 0.0 {
        return 1.0;
    }
    ChiSquared::new(f64::from(dof)).map_or(1.0, |chi2| chi2.sf(x))
}

// ---------------------------------------------------------------------------------------------
// Score, Elo, nElo, LOS
// ---------------------------------------------------------------------------------------------

/// Logistic Elo of a score: Elo(s) = −400 log₁₀(1/s − 1). −∞ for s ≤ 0, +∞ for s ≥ 1, 0 for NaN.
pub fn elo_from_score(s: f64) -> f64 {
    if s.is_nan() {
        0.0
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of a logistic Elo difference: s = 1 / (1 + 10^(−elo/400)).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// What a match says about A − B, from [`pentanomial`] or [`trinomial`].
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// A's mean score s in [0, 1] (0.5 without data).
    pub score: f64,
    /// Logistic Elo(s); ±∞ at a score of 1 or 0.
    pub elo: f64,
    /// Elo(s−), the lower end of the 95 % interval (s− = s − z σ/√n clamped to [0, 1]).
    pub elo_lower: f64,
    /// Elo(s+), the upper end of the 95 % interval (s+ = s + z σ/√n clamped to [0, 1]).
    pub elo_upper: f64,
    /// (Elo(s+) − Elo(s−)) / 2, the `+/-` fastchess prints; +∞ when either end is infinite.
    pub elo_error: f64,
    /// Normalized Elo (s − ½)/σ_pg · 800/ln 10.
    pub nelo: f64,
    /// The nElo 95 % half-width z · (800/ln 10) / √(games); +∞ without data.
    pub nelo_error: f64,
    /// Likelihood of superiority Φ((s − ½)/(σ/√n)), a probability in [0, 1].
    pub los: f64,
    /// Why the interval, its `+/-` and the LOS mean nothing, when they do not: σ is 0 (no games,
    /// one pair or game, or every one scored the same), so the interval has zero width (or is
    /// unbounded) and the LOS is 0, ½ or 1 whatever the engines' real difference. Reports print
    /// them as undefined with [`NoSpread::reason`]; `None` in the normal case.
    pub no_interval: Option<NoSpread>,
}

/// Why an [`Estimate`] has no interval: the scores it rests on have no spread to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoSpread {
    /// No pair or game was played.
    NoGames,
    /// One pair (`pairs`) or one game: a single score has no variance.
    One {
        /// Whether the unit is a pair (pentanomial) or a game (trinomial).
        pairs: bool,
    },
    /// Every pair (or game) scored the same, A's `half_points` in each (0–4 a pair, 0–2 a game).
    Constant {
        /// Whether the unit is a pair (pentanomial) or a game (trinomial).
        pairs: bool,
        /// A's half-points in each unit.
        half_points: u8,
    },
}

impl NoSpread {
    /// Why, in words: `the pair scores have zero variance (every pair 1–1)`.
    pub fn reason(&self) -> String {
        let unit = |pairs: bool| if pairs { "pair" } else { "game" };
        match *self {
            NoSpread::NoGames => "no games were played".to_string(),
            NoSpread::One { pairs } => format!(
                "one {} is too few (a single score has no variance)",
                unit(pairs)
            ),
            NoSpread::Constant { pairs, half_points } => {
                let total = if pairs { 4 } else { 2 };
                format!(
                    "the {} scores have zero variance (every {} {}–{})",
                    unit(pairs),
                    unit(pairs),
                    half_point_text(half_points),
                    half_point_text(total - half_points.min(total))
                )
            }
        }
    }
}

/// Half-points as points: `1`, `1.5`, `0.5`.
fn half_point_text(half_points: u8) -> String {
    if half_points % 2 == 0 {
        (half_points / 2).to_string()
    } else {
        format!("{}.5", half_points / 2)
    }
}

/// Why counts of scores `k` (half-points, `counts[k]`) have no spread, or `None` when they have.
fn no_spread(counts: &[u64], n_units: u64) -> Option<NoSpread> {
    let pairs = counts.len() == 5;
    let mut used = counts.iter().enumerate().filter(|(_, c)| **c > 0);
    match (n_units, used.next(), used.next()) {
        (0, _, _) => Some(NoSpread::NoGames),
        (1, _, _) => Some(NoSpread::One { pairs }),
        (_, Some((k, _)), None) => Some(NoSpread::Constant {
            pairs,
            half_points: u8::try_from(k).unwrap_or(u8::MAX),
        }),
        _ => None,
    }
}

/// Shared body of [`pentanomial`] and [`trinomial`]: `counts[k]` of value k/(len−1).
/// `per_game_factor` is √2 for pairs (σ_pg = √2 σ) and 1 for games; `games_per_unit` 2 or 1.
fn estimate(counts: &[u64], per_game_factor: f64, games_per_unit: f64) -> Estimate {
    let n_units = counts.iter().fold(0u64, |acc, &c| acc.saturating_add(c));
    if n_units == 0 {
        return Estimate {
            score: 0.5,
            elo: 0.0,
            elo_lower: f64::NEG_INFINITY,
            elo_upper: f64::INFINITY,
            elo_error: f64::INFINITY,
            nelo: 0.0,
            nelo_error: f64::INFINITY,
            los: 0.5,
            no_interval: Some(NoSpread::NoGames),
        };
    }
    let n = n_units as f64;
    let top = (counts.len() - 1) as f64;
    let value = |k: usize| k as f64 / top;
    let s: f64 = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| c as f64 / n * value(k))
        .sum();
    let var: f64 = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| c as f64 / n * (value(k) - s).powi(2))
        .sum();
    let sd = (var / n).sqrt();
    let lower_s = (s - Z95 * sd).clamp(0.0, 1.0);
    let upper_s = (s + Z95 * sd).clamp(0.0, 1.0);
    let elo_lower = elo_from_score(lower_s);
    let elo_upper = elo_from_score(upper_s);
    let elo_error = if elo_lower.is_finite() && elo_upper.is_finite() {
        (elo_upper - elo_lower) / 2.0
    } else {
        f64::INFINITY
    };
    let sigma_pg = per_game_factor * var.sqrt();
    let nelo = signed_ratio(s - 0.5, sigma_pg) * NELO_SCALE;
    let nelo_error = Z95 * NELO_SCALE / (games_per_unit * n).sqrt();
    let los = if sd > 0.0 {
        normal_cdf((s - 0.5) / sd)
    } else if s > 0.5 {
        1.0
    } else if s < 0.5 {
        0.0
    } else {
        0.5
    };
    Estimate {
        score: s,
        elo: elo_from_score(s),
        elo_lower,
        elo_upper,
        elo_error,
        nelo,
        nelo_error,
        los,
        no_interval: no_spread(counts, n_units),
    }
}

/// num / den for den ≥ 0 without NaN: 0 when num is 0, ±∞ when only den is 0.
fn signed_ratio(num: f64, den: f64) -> f64 {
    if num == 0.0 {
        0.0
    } else if den > 0.0 {
        num / den
    } else {
        num.signum() * f64::INFINITY
    }
}

/// Pentanomial estimate (preferred: it accounts for the correlation inside a pair).
///
/// With n = pairs, p_k = count_k / n and a_k = k/4 for `[LL, LD, WL+DD, WD, WW]`:
/// s = Σ p_k a_k, σ² = Σ p_k (a_k − s)²; s± = s ± z σ/√n (z = 1.959964, clamped to [0, 1]);
/// Elo = Elo(s), error = (Elo(s+) − Elo(s−))/2; nElo = (s − ½)/(√2 σ) · 800/ln 10 with error
/// z · (800/ln 10)/√(2n); LOS = Φ((s − ½)/(σ/√n)).
///
/// Degenerate input: no pairs gives s = ½, Elo 0 and nElo 0 with infinite errors, LOS ½;
/// σ = 0 gives a zero-width interval (nElo ±∞ unless s = ½, LOS 0, ½ or 1); s of 0 or 1 gives
/// Elo ∓∞/±∞ and an infinite error.
pub fn pentanomial(p: &Pentanomial) -> Estimate {
    estimate(&p.counts(), core::f64::consts::SQRT_2, 2.0)
}

/// Trinomial estimate, from game totals only (it ignores the pairing, so its error is larger when
/// pairs are correlated).
///
/// With n = games and W, D, L as fractions of games: s = W + D/2,
/// σ² = W(1 − s)² + D(½ − s)² + L s²; s± = s ± z σ/√n (z = 1.959964, clamped to [0, 1]);
/// Elo = Elo(s), error = (Elo(s+) − Elo(s−))/2; nElo = (s − ½)/σ · 800/ln 10 with error
/// z · (800/ln 10)/√n; LOS = Φ((s − ½)/(σ/√n)). Degenerate input as in [`pentanomial`].
pub fn trinomial(w: &Wdl) -> Estimate {
    estimate(&[w.losses, w.draws, w.wins], 1.0, 1.0)
}

mod sprt;
pub use sprt::*;

// ---------------------------------------------------------------------------------------------
// Shards
// ---------------------------------------------------------------------------------------------

/// Pearson's chi² test that shards (hosts, workers) drew their pairs from one distribution, in
/// the spirit of fishtest's `get_chi2`: the table shards × `[LL, LD, WL+DD, WD, WW]`, without
/// shards that have no pairs and cells no shard has, expected count E = row total × column total
/// / grand total, chi² = Σ (O − E)²/E, dof = (rows − 1)(columns − 1), p-value = P(χ²_dof ≥ chi²).
///
/// Returns `(chi2, dof, p_value)`; a small p-value (say below 0.001) flags a shard whose results
/// differ from the rest by more than chance — a broken host. With fewer than two non-empty shards
/// or one cell in use, dof is 0 and the result is `(0.0, 0, 1.0)`.
pub fn homogeneity(shards: &[Pentanomial]) -> (f64, u32, f64) {
    let rows: Vec<[u64; 5]> = shards
        .iter()
        .filter(|s| s.pairs() > 0)
        .map(Pentanomial::counts)
        .collect();
    let col_totals: Vec<f64> = (0..5)
        .map(|k| rows.iter().map(|r| r[k] as f64).sum())
        .collect();
    let cols: Vec<usize> = (0..5).filter(|&k| col_totals[k] > 0.0).collect();
    if rows.len() < 2 || cols.len() < 2 {
        return (0.0, 0, 1.0);
    }
    let grand: f64 = col_totals.iter().sum();
    let mut chi2 = 0.0;
    for r in &rows {
        let row_total: f64 = r.iter().map(|&c| c as f64).sum();
        for &k in &cols {
            let expected = row_total * col_totals[k] / grand;
            chi2 += (r[k] as f64 - expected).powi(2) / expected;
        }
    }
    let dof = u32::try_from((rows.len() - 1) * (cols.len() - 1)).unwrap_or(u32::MAX);
    (chi2, dof, chi2_sf(chi2, dof))
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests;
