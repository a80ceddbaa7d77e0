//! Match statistics, as fishtest and fastchess compute them: pentanomial and trinomial score,
//! Elo with its 95 % interval, normalized Elo, LOS, the GSPRT log-likelihood ratio (logistic and
//! normalized models) and a chi² homogeneity test across shards.
//!
//! Everything here is a pure function of integer counts: no I/O, no panics, no NaN. Degenerate
//! inputs (no games, a zero variance, a score of 0 or 1) give documented neutral or infinite
//! values instead. The formulas follow `shared/reference/arena-statistics.md`; each function's
//! documentation states the one it computes.
//!
//! Conventions: counts are from engine A's side. A *pair* is one deal played twice with colours
//! swapped; its pentanomial index is k = 2 × (pair score), so `LL` 0, `LD` 1, `WL`+`DD` 2, `WD` 3,
//! `WW` 4, and its value is a_k = k/4. A game's value is 0, ½, 1.

use core::fmt;
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

// ---------------------------------------------------------------------------------------------
// SPRT
// ---------------------------------------------------------------------------------------------

/// How an SPRT's elo0/elo1 are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Normalized Elo (fishtest's and fastchess's default): the hypotheses fix the t-value
    /// (μ − ½)/σ, so the bounds mean the same effort whatever the draw rate.
    Normalized,
    /// Logistic Elo: the hypotheses fix the expected score 1/(1 + 10^(−elo/400)).
    Logistic,
}

impl SprtModel {
    /// The lowercase name, as the command line and fastchess spell it.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        }
    }
}

impl fmt::Display for SprtModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A hypothesis an SPRT accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Hypothesis {
    /// The true Elo is elo0: the change is rejected.
    H0,
    /// The true Elo is elo1: the change is accepted.
    H1,
}

impl fmt::Display for Hypothesis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Hypothesis::H0 => "H0",
            Hypothesis::H1 => "H1",
        })
    }
}

/// The largest |elo0|, |elo1| [`Sprt::validate`] allows: the range over which the LLR fits are
/// tested; engine tests use single digits.
pub const SPRT_MAX_ELO: f64 = 200.0;

/// A generalized sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    /// Elo under H0 (in the model's unit).
    pub elo0: f64,
    /// Elo under H1 (in the model's unit); more than elo0.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds (false positive).
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds (false negative).
    pub beta: f64,
    /// How elo0 and elo1 are read.
    pub model: SprtModel,
}

/// Why an [`Sprt`] is unusable.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// elo0 or elo1 is not a finite number of at most [`SPRT_MAX_ELO`] in size.
    EloRange {
        /// elo0 as given.
        elo0: f64,
        /// elo1 as given.
        elo1: f64,
    },
    /// elo0 ≥ elo1.
    EloOrder {
        /// elo0 as given.
        elo0: f64,
        /// elo1 as given.
        elo1: f64,
    },
    /// alpha is not strictly between 0 and 1.
    Alpha(f64),
    /// beta is not strictly between 0 and 1.
    Beta(f64),
    /// alpha + beta ≥ 1.
    AlphaBetaSum(f64, f64),
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::util::text::number as n;
        match self {
            SprtError::EloRange { elo0, elo1 } => write!(
                f,
                "elo0 and elo1 must be finite and within ±{SPRT_MAX_ELO}, got [{}, {}]",
                n(*elo0),
                n(*elo1)
            ),
            SprtError::EloOrder { elo0, elo1 } => {
                write!(
                    f,
                    "elo0 must be less than elo1, got [{}, {}]",
                    n(*elo0),
                    n(*elo1)
                )
            }
            SprtError::Alpha(a) => write!(f, "alpha must be between 0 and 1, got {}", n(*a)),
            SprtError::Beta(b) => write!(f, "beta must be between 0 and 1, got {}", n(*b)),
            SprtError::AlphaBetaSum(a, b) => {
                write!(
                    f,
                    "alpha + beta must be less than 1, got {} + {}",
                    n(*a),
                    n(*b)
                )
            }
        }
    }
}

impl std::error::Error for SprtError {}

impl Sprt {
    /// Checks the parameters: finite elo0 < elo1 within ±[`SPRT_MAX_ELO`], 0 < α, β < 1 and
    /// α + β < 1 (fastchess's checks). The LLR functions never panic on an unchecked test, but
    /// only a valid one gives meaningful numbers.
    ///
    /// # Errors
    /// The first check that fails.
    pub fn validate(&self) -> Result<(), SprtError> {
        let (elo0, elo1) = (self.elo0, self.elo1);
        let ok = |e: f64| e.is_finite() && e.abs() <= SPRT_MAX_ELO;
        if !ok(elo0) || !ok(elo1) {
            return Err(SprtError::EloRange { elo0, elo1 });
        }
        if elo0 >= elo1 {
            return Err(SprtError::EloOrder { elo0, elo1 });
        }
        let unit = |x: f64| x > 0.0 && x < 1.0;
        if !unit(self.alpha) {
            return Err(SprtError::Alpha(self.alpha));
        }
        if !unit(self.beta) {
            return Err(SprtError::Beta(self.beta));
        }
        if self.alpha + self.beta >= 1.0 {
            return Err(SprtError::AlphaBetaSum(self.alpha, self.beta));
        }
        Ok(())
    }

    /// The stopping bounds (A, B) = (ln(β/(1 − α)), ln((1 − β)/α)); α = β = 0.05 gives
    /// (−2.944, 2.944).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for a log-likelihood ratio: LLR ≥ B accepts H1, LLR ≤ A accepts H0, `None`
    /// means keep playing (also for a NaN LLR).
    pub fn verdict(&self, llr: f64) -> Option<Hypothesis> {
        let (a, b) = self.bounds();
        if llr >= b {
            Some(Hypothesis::H1)
        } else if llr <= a {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }

    /// How far `llr` has gone towards the bound it heads for: LLR / B when positive, LLR / A
    /// when negative (1 = the bound is reached), as fastchess prints it in per cent; 0 for NaN.
    pub fn progress(&self, llr: f64) -> f64 {
        let (a, b) = self.bounds();
        if llr.is_nan() {
            0.0
        } else if llr < 0.0 {
            llr / a
        } else {
            llr / b
        }
    }

    /// The GSPRT log-likelihood ratio over pairs: the cells `[LL, LD, WL+DD, WD, WW]`, zero
    /// counts replaced by 1e-3, with values a_k = k/4 and N = the (regularized) number of pairs.
    ///
    /// LLR = N Σ p̂_k ln(p_k⁽¹⁾ / p_k⁽⁰⁾), where p⁽ʲ⁾ is the distribution closest to p̂ (maximum
    /// likelihood) under hypothesis j. Logistic: mean s_j = 1/(1 + 10^(−elo_j/400)), and
    /// p_k⁽ʲ⁾ = p̂_k / (1 + θ (a_k − s_j)) with θ solving Σ p̂_k (a_k − s_j)/(1 + θ (a_k − s_j)) = 0.
    /// θ is found by bisection on its whole valid interval, where every 1 + θ (a_k − s_j) > 0
    /// and the equation is strictly decreasing. Normalized: t-value (μ − ½)/σ = t_j = √2 · elo_j /
    /// (800/ln 10); the fit is the same θ-fit with φ_k = a_k − ½ − t_j σ (1 + ((μ − a_k)/σ)²)/2
    /// in place of a_k − s_j, for μ = ½ + t_j σ and the σ found by a scan and bisection over σ
    /// (see `mle_t_value`) rather than by fishtest's fixed-point iteration, which can fail to
    /// settle on lopsided samples.
    ///
    /// Should an exact fit fail, the approximations of fishtest's `LLR_alt` /
    /// `LLR_normalized_alt` are returned instead. That happens only where the fit is beyond
    /// double precision: a regularized cell share near 1e-16 or below (an empty cell beside some
    /// 10¹³ pairs or games, for either model), or hypotheses far beyond the ±200 that
    /// [`Sprt::validate`] allows (logistic: elo above about 6400, where s_j rounds to 1;
    /// normalized pentanomial: |elo| of order 10⁵). The result is always a finite number for
    /// finite parameters.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&p.counts(), core::f64::consts::SQRT_2)
    }

    /// The GSPRT log-likelihood ratio over games: the cells `[L, D, W]`, zero counts replaced by
    /// 1e-3, values 0, ½, 1, N = the (regularized) number of games; normalized t_j =
    /// elo_j / (800/ln 10). Otherwise as [`Sprt::llr_pentanomial`].
    pub fn llr_trinomial(&self, w: &Wdl) -> f64 {
        self.llr(&[w.losses, w.draws, w.wins], 1.0)
    }

    /// Shared body of the LLR functions; `t_factor` is √2 for pairs, 1 for games.
    fn llr(&self, counts: &[u64], t_factor: f64) -> f64 {
        let (a, ph, n) = regularized(counts);
        let fits = match self.model {
            SprtModel::Logistic => {
                let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
                mle_expected(&a, &ph, s0).zip(mle_expected(&a, &ph, s1))
            }
            SprtModel::Normalized => {
                let (t0, t1) = (
                    t_factor * self.elo0 / NELO_SCALE,
                    t_factor * self.elo1 / NELO_SCALE,
                );
                mle_t_value(&a, &ph, 0.5, t0).zip(mle_t_value(&a, &ph, 0.5, t1))
            }
        };
        match fits {
            Some((p0, p1)) => {
                n * ph
                    .iter()
                    .zip(p0.iter().zip(&p1))
                    .map(|(q, (u0, u1))| q * (u1.ln() - u0.ln()))
                    .sum::<f64>()
            }
            None => self.llr_approx(&a, &ph, n, t_factor),
        }
    }

    /// fishtest's closed-form approximations, the fallback of [`Sprt::llr`].
    fn llr_approx(&self, a: &[f64], ph: &[f64], n: f64, t_factor: f64) -> f64 {
        let mu: f64 = a.iter().zip(ph).map(|(x, p)| p * x).sum();
        let var: f64 = a.iter().zip(ph).map(|(x, p)| p * (x - mu).powi(2)).sum();
        let value = match self.model {
            SprtModel::Logistic => {
                // LLR_alt: N/2 · ln(r0/r1), r_j = Σ p̂ (a − s_j)².
                let r =
                    |s: f64| -> f64 { a.iter().zip(ph).map(|(x, p)| p * (x - s).powi(2)).sum() };
                let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
                n / 2.0 * (r(s0) / r(s1)).ln()
            }
            SprtModel::Normalized => {
                // LLR_normalized_alt: games/2 · ln((1 + (nt − nt0)²)/(1 + (nt − nt1)²)).
                let sigma_pg = t_factor * var.sqrt();
                let games = n * t_factor * t_factor;
                let nt = (mu - 0.5) / sigma_pg;
                let (nt0, nt1) = (self.elo0 / NELO_SCALE, self.elo1 / NELO_SCALE);
                games / 2.0 * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln()
            }
        };
        if value.is_finite() { value } else { 0.0 }
    }
}

/// Bisects (lo, hi) down to adjacent floats for where `positive` turns from true to false (it
/// must be true just above lo and false just below hi); `None` if `positive` gives `None`.
fn bisect(mut lo: f64, mut hi: f64, positive: impl Fn(f64) -> Option<bool>) -> Option<f64> {
    for _ in 0..4096 {
        let mid = 0.5 * (lo + hi);
        if !(mid > lo && mid < hi) {
            break;
        }
        if positive(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The values a_k = k/(cells − 1), the observed frequencies with zero counts replaced by
/// [`REGULARIZE_EPSILON`], and their (regularized) total: what every LLR starts from.
fn regularized(counts: &[u64]) -> (Vec<f64>, Vec<f64>, f64) {
    let reg: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { REGULARIZE_EPSILON } else { c as f64 })
        .collect();
    let n: f64 = reg.iter().sum();
    let ph: Vec<f64> = reg.iter().map(|c| c / n).collect();
    let top = (counts.len() - 1) as f64;
    let a: Vec<f64> = (0..counts.len()).map(|k| k as f64 / top).collect();
    (a, ph, n)
}

/// Solves the secular equation Σ p̂_i φ_i / (1 + θ φ_i) = 0 for θ in (−1/max φ, −1/min φ), the
/// interval where every 1 + θ φ_i > 0. The left side falls strictly from +∞ to −∞ there, so
/// bisection finds the root. `None` unless φ has both signs.
fn secular(phi: &[f64], ph: &[f64]) -> Option<f64> {
    let v = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let w = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(v < 0.0 && w > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 {
        phi.iter()
            .zip(ph)
            .map(|(fi, pi)| pi * fi / (1.0 + x * fi))
            .sum()
    };
    bisect(-1.0 / w, -1.0 / v, |x| Some(f(x) > 0.0)).filter(|root| root.is_finite())
}

/// The distribution p_i = p̂_i / (1 + θ φ_i) for the θ solving the secular equation: the
/// maximum likelihood distribution under the one linear constraint Σ p_i φ_i = 0. `None` if it
/// has no solution or gives a non-positive probability.
fn tilt(phi: &[f64], ph: &[f64]) -> Option<Vec<f64>> {
    let theta = secular(phi, ph)?;
    let p: Vec<f64> = ph
        .iter()
        .zip(phi)
        .map(|(q, f)| q / (1.0 + theta * f))
        .collect();
    p.iter().all(|x| x.is_finite() && *x > 0.0).then_some(p)
}

/// Maximum likelihood distribution on values `a` with mean `s`, given the observed `ph`
/// (van den Bergh, "support_MLE_multinomial", Proposition 1.1).
fn mle_expected(a: &[f64], ph: &[f64], s: f64) -> Option<Vec<f64>> {
    let phi: Vec<f64> = a.iter().map(|x| x - s).collect();
    tilt(&phi, ph)
}

/// Geometric step of the σ scan in [`mle_t_value`]. In a random search over lopsided samples,
/// adjacent roots of G were never closer than 4 %; a pair of roots inside one 1 % step would go
/// unseen.
const SIGMA_STEP: f64 = 1.01;

/// Maximum likelihood distribution on values `a` with t-value (μ − ref)/σ = `t`, given the
/// observed `ph` (fishtest's `MLE_tvalue`, solved without its fixed-point iteration).
///
/// With centred values x = a − ref and t > 0 (t < 0 is the mirror image x ↦ −x; t = 0 is the
/// mean constraint μ = ref), the optimum p is stationary for Σ p̂ ln p under Σ p = 1 and the
/// constraint, so p = [`tilt`] of φ_k(σ) = x_k − t (σ² + (x_k − tσ)²)/(2σ) for its own σ (van
/// den Bergh, "normalized_elo_practical", Section 4.1). Conversely, for any σ the tilt p(σ) has
/// mean tσ exactly when its second moment about tσ is σ², so the candidates are the roots of the
/// one-dimensional G(σ) = Σ p_k(σ) (x_k − tσ)² − σ². [`sigma_bracket`] gives an interval with
/// G > 0 near its low end and G < 0 near its high end; the non-convex problem can have several
/// local optima there (data piled on one cell), so G is scanned in steps of 1 %, every fall from
/// positive to negative is bisected, and the root of highest likelihood wins.
fn mle_t_value(a: &[f64], ph: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    let mirror = if t < 0.0 { -1.0 } else { 1.0 };
    let x: Vec<f64> = a.iter().map(|v| mirror * (v - reference)).collect();
    let t = t.abs();
    if t == 0.0 {
        return tilt(&x, ph);
    }
    let (lo, hi) = sigma_bracket(&x, ph, t)?;
    let g_positive = |sigma: f64| sigma_fit(&x, ph, t, sigma).map(|(_, g)| g > 0.0);
    let steps = ((hi / lo).ln() / SIGMA_STEP.ln())
        .ceil()
        .clamp(1.0, 10_000.0) as usize;
    let mut best: Option<(f64, Vec<f64>)> = None;
    let (mut left, mut left_positive) = (lo, true);
    for i in 1..=steps {
        let (sigma, positive) = if i == steps {
            (hi, false)
        } else {
            let sigma = lo * (hi / lo).powf(i as f64 / steps as f64);
            match g_positive(sigma) {
                Some(positive) => (sigma, positive),
                None => continue,
            }
        };
        if left_positive && !positive {
            let fit = bisect(left, sigma, g_positive).and_then(|r| sigma_fit(&x, ph, t, r));
            if let Some((p, _)) = fit {
                let ll: f64 = ph.iter().zip(&p).map(|(q, u)| q * u.ln()).sum();
                if best.as_ref().is_none_or(|(b, _)| ll > *b) {
                    best = Some((ll, p));
                }
            }
        }
        (left, left_positive) = (sigma, positive);
    }
    best.map(|(_, p)| p)
}

/// The tilt p(σ) of [`mle_t_value`] for centred values `x` and t > 0, with G(σ) = Σ p_k (x_k −
/// tσ)² − σ²; `None` where the tilt does not exist.
fn sigma_fit(x: &[f64], ph: &[f64], t: f64, sigma: f64) -> Option<(Vec<f64>, f64)> {
    let m = t * sigma;
    let phi: Vec<f64> = x
        .iter()
        .map(|xk| xk - t * (sigma * sigma + (xk - m).powi(2)) / (2.0 * sigma))
        .collect();
    let p = tilt(&phi, ph)?;
    let g = p
        .iter()
        .zip(x)
        .map(|(q, xk)| q * (xk - m).powi(2))
        .sum::<f64>()
        - sigma * sigma;
    Some((p, g))
}

/// The σ interval [`mle_t_value`] scans, for centred values `x` and t > 0: G > 0 near its low end
/// and G < 0 near its high end, with every root inside.
///
/// With d = Σ p̂ x, v = Σ p̂ x² and h(σ) = Σ p̂ φ_k(σ), the multiplier θ of the tilt has the sign
/// of h, and dL/dσ ∝ −θ G for L(σ) = Σ p̂ ln p(σ). If p̂'s own t-value is above t (d² > t² v /
/// (1 + t²), d > 0), θ > 0 exactly between the roots of σ h(σ), a quadratic, where L falls from
/// and climbs back to L(p̂); any root there is the global optimum (the optimum over the convex set
/// t-value ≤ t, which each slice Σ p φ_k(σ) = 0 bounds from outside). Otherwise θ < 0 wherever the tilt exists, that is where some
/// φ_k > 0, σ ∈ (x_k/t)(1 ∓ 1/√(1 + t²)) for an x_k > 0, and L falls to −∞ at both ends. The
/// high end is capped at half the range of x, which no feasible σ reaches.
fn sigma_bracket(x: &[f64], ph: &[f64], t: f64) -> Option<(f64, f64)> {
    let d: f64 = x.iter().zip(ph).map(|(xk, q)| q * xk).sum();
    let v: f64 = x.iter().zip(ph).map(|(xk, q)| q * xk * xk).sum();
    let u2 = 1.0 + t * t;
    let disc = d * d - t * t * v / u2;
    let (lo, hi) = if d > 0.0 && disc > 0.0 {
        let hi = (d + disc.sqrt()) / t;
        // The product of the two roots is v / (1 + t²): no cancellation for small t.
        (v / (u2 * hi), hi)
    } else {
        let u = u2.sqrt();
        let positive = x.iter().copied().filter(|&xk| xk > 0.0);
        let smallest = positive.clone().fold(f64::INFINITY, f64::min);
        let largest = positive.fold(0.0, f64::max);
        // (x/t)(1 − 1/u) written without cancellation.
        (
            smallest * t / (u * (u + 1.0)),
            largest * (1.0 + 1.0 / u) / t,
        )
    };
    let max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = x.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = hi.min((max - min) / 2.0);
    (lo > 0.0 && lo < hi && hi.is_finite()).then_some((lo, hi))
}

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
