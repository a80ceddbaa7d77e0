//! The sequential probability ratio test (GSPRT) on pentanomial or trinomial counts, in the
//! logistic or normalized Elo model: its bounds, log-likelihood ratio and verdict, and the
//! maximum-likelihood tilts it computes them with.

use super::{NELO_SCALE, Pentanomial, REGULARIZE_EPSILON, Wdl, score_from_elo};
use core::fmt;

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
    pub(super) fn llr_approx(&self, a: &[f64], ph: &[f64], n: f64, t_factor: f64) -> f64 {
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
pub(super) fn regularized(counts: &[u64]) -> (Vec<f64>, Vec<f64>, f64) {
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
pub(super) fn mle_expected(a: &[f64], ph: &[f64], s: f64) -> Option<Vec<f64>> {
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
pub(super) fn mle_t_value(a: &[f64], ph: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
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
