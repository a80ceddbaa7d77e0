//! Ratings of many engines from one tournament (round robin or gauntlet): Bradley–Terry ratings
//! by maximum likelihood, with confidence intervals and Ordo-style CFS from a seeded bootstrap over
//! pairs.
//!
//! **Model.** On the logistic Elo scale, engine i scores against engine j with probability
//! p_ij = 1 / (1 + 10^((r_j − r_i)/400)) per game, a draw counting as half a point. [`fit`]
//! maximizes the likelihood Π p_ij^{s_ij} (1 − p_ij)^{n_ij − s_ij} (s_ij = points of i against j,
//! n_ij = games between them). It works in natural units θ = r · ln 10 / 400 with the anchor held
//! at θ = 0, by Newton's method: the log-likelihood is concave, the Hessian (a weighted graph
//! Laplacian with the anchor's row and column removed) is solved by Cholesky, and a backtracking
//! line search keeps every step uphill, so the iteration converges from θ = 0. It stops when the
//! largest change is below 1e-10 Elo (or has reached the rounding floor once below 1e-6 Elo).
//! Should the Hessian ever be numerically singular, Hunter's (2004) MM iteration
//! θ_i ← θ_i + ln W_i − ln E_i (W_i points, E_i expected points) finishes the job instead. At the
//! fit every engine's expected points equal its points.
//!
//! **Separation.** The estimate exists only if, however the engines are split into two groups,
//! each group scored something against the other. Otherwise it is handled exactly, without a
//! prior: with an edge i → j whenever i scored more than 0 points against j (a draw gives edges
//! both ways), the engines fall into strongly connected components ([`components`]). The anchor's
//! component is fit on the games among its members only (games against a group that is infinitely
//! weaker or stronger carry no information about the ratings inside the component). Every other
//! component is −∞ if the anchor's component reaches it (the anchor's side scored against it, and
//! it never scored back along any path), +∞ if it reaches the anchor's component, and NaN
//! (unrated) if neither, e.g. an engine without games (unless it is the anchor).
//!
//! **Bootstrap.** A pair — one deal played twice with colours swapped — is the statistical unit,
//! and pair index p is the same deal in every pairing. [`rate`] therefore resamples pair *indices*:
//! each resample draws, with replacement, as many indices as there are distinct indices in the
//! data, and a drawn index brings the pair's two games from every pairing that has it. The two
//! games of a pair are never split (pentanomial-aware), and the correlation that a shared deal
//! induces across pairings is kept. The stream is `ChaCha8Rng::seed_from_u64(seed)` with an
//! unbiased Lemire draw on `next_u64`, so the result is the same on every machine.
//!
//! **Intervals and CFS.** The bounds are the 2.5 % and 97.5 % quantiles of each engine's
//! resampled ratings (see [`Ratings`] for the quantile rule); CFS, as in Ordo, is the fraction of
//! resamples in which an engine rates above the next one in the ranking, a resample in which the
//! two are tied counting half. Two ratings are tied when they differ by less than 1e-9 of the
//! largest rating's magnitude (at least 1e-9 Elo): refitting with another anchor moves ratings by
//! rounding noise (about 1e-14 Elo), and a tie must not be broken by it, so the ranking and CFS
//! are the same whichever engine is the anchor.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::stats::bootstrap::{LOWER_Q, UPPER_Q, quantile_sorted, uniform_below};

/// Elo per natural-log unit of strength: 400 / ln 10.
const ELO_PER_NAT: f64 = 400.0 / core::f64::consts::LN_10;

/// Newton stops once the largest change of a rating is below this (Elo).
const TOLERANCE_ELO: f64 = 1e-10;

/// Below this step (Elo), a step that fails to halve the previous one means rounding noise.
const ROUNDING_FLOOR_ELO: f64 = 1e-6;

/// Two ratings closer than this many Elo per Elo of the largest rating magnitude (and at least
/// this many Elo) are equal: refits that differ only in the anchor move the ratings by rounding
/// noise (about 1e-14 Elo), and CFS and the ranking must not depend on which way it falls.
const TIE_ELO: f64 = 1e-9;

/// Newton iteration cap (it needs about ten on ordinary data).
const MAX_NEWTON: usize = 200;

/// MM iteration cap for the fallback.
const MAX_MM: usize = 200_000;

// ---------------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------------

/// One pairing's results: engine `a` against engine `b` (indices into the engine list),
/// with `a`'s points in each pair, in half-points 0..=4 (two games; a draw is 1 half-point), keyed
/// by pair index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PairingPairs {
    /// The first engine (whose half-points are recorded).
    pub a: usize,
    /// The second engine.
    pub b: usize,
    /// `a`'s half-points (0..=4) in each pair, keyed by pair index.
    pub half_points: BTreeMap<u64, u8>,
}

/// Points and games of one engine against another (aggregated input of a fit).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Duel {
    /// The first engine.
    pub a: usize,
    /// The second engine.
    pub b: usize,
    /// `a`'s points against `b` (0 ≤ `points_a` ≤ `games`; a draw is half a point).
    pub points_a: f64,
    /// Games played between them.
    pub games: f64,
}

/// A tournament's ratings with bootstrap intervals.
///
/// Quantile rule: an engine's resampled ratings, NaN ones left out, are sorted with
/// [`f64::total_cmp`] into x_0 ≤ … ≤ x_{m−1}; the q-quantile is numpy's default (type 7)
/// x_⌊h⌋ + (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋) with h = (m − 1) q, except that when either neighbour is
/// infinite (and they differ) it is the nearest order statistic x_round(h) (halves round up), so no
/// ∞ − ∞ arises. If every resample is NaN, the bound is NaN.
///
/// JSON note: serde_json writes ±∞ and NaN as `null`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Ratings {
    /// Rating per engine (index order), anchored.
    pub elo: Vec<f64>,
    /// 2.5 % quantile per engine over the bootstrap resamples (the anchor's is its own rating).
    pub lower: Vec<f64>,
    /// 97.5 % quantile per engine (the anchor's is its own rating).
    pub upper: Vec<f64>,
    /// Engine indices from best to worst. Within the anchor's component that is by rating; an
    /// engine (or group) that scored every point against another sorts above it, and the engines
    /// of a group separated from the anchor (±∞, or NaN when not connected to it at all) are
    /// ordered by their ratings among themselves; engines without games come last; ties (equal up
    /// to rounding noise) by index.
    pub order: Vec<usize>,
    /// For `order[k]`, k+1 < n: the fraction of resamples in which `order[k]` ranks above
    /// `order[k+1]` by the same rule (ties, ratings equal up to rounding noise, count half) —
    /// Ordo's CFS (likelihood of superiority of each engine over the next). It does not depend on
    /// the anchor. NaN without resamples.
    /// Length n−1 (empty for n ≤ 1).
    pub cfs_next: Vec<f64>,
    /// Resamples drawn.
    pub resamples: usize,
}

// ---------------------------------------------------------------------------------------------
// Aggregation and the comparison graph
// ---------------------------------------------------------------------------------------------

/// Aggregates every pairing into one [`Duel`]: `a`'s points are the sum of its half-points / 2,
/// and each pair is 2 games. A pairing without pairs gives a Duel with 0 games.
///
/// # Panics
/// Panics if a half-point count exceeds 4.
pub fn duels(pairings: &[PairingPairs]) -> Vec<Duel> {
    pairings
        .iter()
        .map(|p| {
            let mut half = 0u64;
            for &h in p.half_points.values() {
                assert!(h <= 4, "a pair's half-points must be 0..=4, got {h}");
                half += u64::from(h);
            }
            Duel {
                a: p.a,
                b: p.b,
                points_a: half as f64 / 2.0,
                games: 2.0 * p.half_points.len() as f64,
            }
        })
        .collect()
}

/// Points and games of every engine against every other, n×n row-major.
struct Tally {
    n: usize,
    /// `points[i * n + j]`: points of i against j.
    points: Vec<f64>,
    /// `games[i * n + j]`: games between i and j (symmetric).
    games: Vec<f64>,
}

impl Tally {
    /// Adds up the duels; duels of an engine with itself or without games are ignored.
    fn new(n: usize, duels: &[Duel]) -> Tally {
        let mut t = Tally {
            n,
            points: vec![0.0; n * n],
            games: vec![0.0; n * n],
        };
        for d in duels {
            assert!(
                d.a < n && d.b < n,
                "duel between engines {} and {} out of range for {n} engines",
                d.a,
                d.b
            );
            if d.a == d.b || d.games.is_nan() || d.games <= 0.0 {
                continue;
            }
            t.points[d.a * n + d.b] += d.points_a;
            t.points[d.b * n + d.a] += d.games - d.points_a;
            t.games[d.a * n + d.b] += d.games;
            t.games[d.b * n + d.a] += d.games;
        }
        t
    }

    /// Reflexive-transitive closure of "i scored more than 0 points against j", n×n row-major
    /// (Warshall's algorithm, O(n³)).
    fn reachability(&self) -> Vec<bool> {
        let n = self.n;
        let mut reach: Vec<bool> = self.points.iter().map(|&p| p > 0.0).collect();
        for i in 0..n {
            reach[i * n + i] = true;
        }
        for k in 0..n {
            let row_k = reach[k * n..(k + 1) * n].to_vec();
            for row in reach.chunks_mut(n) {
                if row[k] {
                    for (x, &y) in row.iter_mut().zip(&row_k) {
                        *x |= y;
                    }
                }
            }
        }
        reach
    }
}

/// Component id per engine from a reachability matrix: the smallest engine index of its
/// strongly connected component.
fn component_ids(n: usize, reach: &[bool]) -> Vec<usize> {
    (0..n)
        .map(|i| {
            (0..n)
                .find(|&j| reach[i * n + j] && reach[j * n + i])
                .unwrap_or(i)
        })
        .collect()
}

/// The strongly connected components of the "scored against" graph (an edge i → j when i scored
/// more than 0 points against j; a draw gives edges both ways). The id of an engine is the smallest
/// engine index in its component, so two engines share an id exactly when each reaches the other
/// along a path of scoring; an engine without games (or that never scored and was never scored
/// against) is alone in its component, with its own index as id. Ratings are finite within a
/// component only.
///
/// # Panics
/// Panics if a duel names an engine ≥ n.
pub fn components(n: usize, duels: &[Duel]) -> Vec<usize> {
    let tally = Tally::new(n, duels);
    component_ids(n, &tally.reachability())
}

// ---------------------------------------------------------------------------------------------
// The fit
// ---------------------------------------------------------------------------------------------

/// Fits ratings (logistic Elo, 400·log10 scale) by maximum likelihood of the Bradley–Terry model
/// with a draw counted as half a point (the likelihood Π p_ij^{s_ij} (1−p_ij)^{n_ij − s_ij},
/// p_ij = 1/(1+10^((r_j−r_i)/400))). `anchor` gets rating `anchor_elo`. Returns one rating per
/// engine (n engines).
///
/// Duels add up whatever their order (a Duel (b, a) with `points_a` = x is (a, b) with
/// `games` − x); duels of an engine with itself or with no games are ignored. Where the estimate
/// does not exist, engines outside the anchor's strongly connected component get −∞, +∞ or NaN as
/// the module documentation describes; an engine without games is NaN unless it is the anchor.
/// Returns an empty vector for n = 0.
///
/// # Panics
/// Panics if n > 0 and `anchor` ≥ n, or if a duel names an engine ≥ n.
pub fn fit(n: usize, duels: &[Duel], anchor: usize, anchor_elo: f64) -> Vec<f64> {
    fit_with_keys(n, duels, anchor, anchor_elo).0
}

/// An engine's strength key: what the ranking sorts by, best first. `level` is the number of
/// engines it reaches in the "scored against" graph (itself included; −1 without games): an
/// engine that dominates another (reaches it, is never reached back) reaches strictly more, so
/// a group that scored every point against another sorts above it. `within` is its rating in
/// natural units inside its own component, centred on the component's mean: it orders the
/// engines of one component, also one not connected to the anchor (whose ratings are ±∞).
#[derive(Copy, Clone, Debug, PartialEq)]
struct Key {
    level: f64,
    within: f64,
}

impl Key {
    /// Descending strength (NaN-free: levels are counts, `within` is finite).
    fn cmp_strength(&self, other: &Key) -> Ordering {
        other
            .level
            .total_cmp(&self.level)
            .then(other.within.total_cmp(&self.within))
    }
}

/// [`fit`] and every engine's strength [`Key`].
fn fit_with_keys(n: usize, duels: &[Duel], anchor: usize, anchor_elo: f64) -> (Vec<f64>, Vec<Key>) {
    if n == 0 {
        return (Vec::new(), Vec::new());
    }
    assert!(anchor < n, "anchor {anchor} out of range for {n} engines");
    let tally = Tally::new(n, duels);
    let reach = tally.reachability();
    let comp = component_ids(n, &reach);

    let mut elo = vec![f64::NAN; n];
    let mut keys = vec![
        Key {
            level: 0.0,
            within: 0.0
        };
        n
    ];
    for id in comp.iter().copied().collect::<BTreeSet<usize>>() {
        let members: Vec<usize> = (0..n).filter(|&i| comp[i] == id).collect();
        let reference = if id == comp[anchor] { anchor } else { id };
        let theta = fit_component(&tally, &members, reference);
        let mean = theta.iter().sum::<f64>() / theta.len() as f64;
        for (&i, &t) in members.iter().zip(&theta) {
            let played = (0..n).any(|j| tally.games[i * n + j] > 0.0);
            keys[i] = Key {
                level: if played {
                    (0..n).filter(|&j| reach[i * n + j]).count() as f64
                } else {
                    -1.0
                },
                within: t - mean,
            };
            if id == comp[anchor] {
                elo[i] = anchor_elo + ELO_PER_NAT * t;
            }
        }
    }
    merge_ties(&mut keys);
    for (i, r) in elo.iter_mut().enumerate() {
        if comp[i] == comp[anchor] {
            continue;
        }
        *r = if reach[anchor * n + i] {
            f64::NEG_INFINITY
        } else if reach[i * n + anchor] {
            f64::INFINITY
        } else {
            f64::NAN
        };
    }
    (elo, keys)
}

/// Makes keys that differ only by rounding noise exactly equal, so that comparing them does not
/// depend on the anchor the ratings were fit with. In sorted order, a key whose `within` lies at
/// most [`TIE_ELO`] × max(1, the largest |`within`| in Elo) above the first key of a run of one
/// level joins the run and takes its value. The keys keep a total order, so the ranking can sort
/// by them; only a genuine difference of about that size could fall either way.
fn merge_ties(keys: &mut [Key]) {
    let largest = keys
        .iter()
        .fold(0.0f64, |m, k| m.max(k.within.abs() * ELO_PER_NAT));
    let tolerance = TIE_ELO * largest.max(1.0) / ELO_PER_NAT;
    let mut sorted: Vec<usize> = (0..keys.len()).collect();
    sorted.sort_by(|&i, &j| {
        keys[i]
            .level
            .total_cmp(&keys[j].level)
            .then(keys[i].within.total_cmp(&keys[j].within))
    });
    for w in sorted.windows(2) {
        let (low, high) = (keys[w[0]], keys[w[1]]);
        if low.level == high.level && high.within - low.within <= tolerance {
            keys[w[1]].within = low.within;
        }
    }
}

/// The games among a strongly connected set of engines, m×m row-major.
struct Local {
    m: usize,
    /// The anchor's local index (held at θ = 0).
    fixed: usize,
    points: Vec<f64>,
    games: Vec<f64>,
}

/// Maximum-likelihood θ (natural units, anchor 0) of the members of the anchor's component, on
/// the games among them only.
fn fit_component(tally: &Tally, members: &[usize], anchor: usize) -> Vec<f64> {
    let m = members.len();
    let n = tally.n;
    let mut local = Local {
        m,
        fixed: members.iter().position(|&i| i == anchor).unwrap_or(0),
        points: vec![0.0; m * m],
        games: vec![0.0; m * m],
    };
    for (li, &i) in members.iter().enumerate() {
        for (lj, &j) in members.iter().enumerate() {
            local.points[li * m + lj] = tally.points[i * n + j];
            local.games[li * m + lj] = tally.games[i * n + j];
        }
    }
    if m <= 1 {
        return vec![0.0; m];
    }
    newton(&local).unwrap_or_else(|| mm(&local))
}

/// σ(x) = 1 / (1 + e^−x).
fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// σ(x) σ(−x), without overflow.
fn sigmoid_variance(x: f64) -> f64 {
    let e = (-x.abs()).exp();
    e / ((1.0 + e) * (1.0 + e))
}

/// ln σ(x) = −ln(1 + e^−x), without overflow.
fn ln_sigmoid(x: f64) -> f64 {
    -((-x).max(0.0) + (-x.abs()).exp().ln_1p())
}

/// The log-likelihood of θ.
fn log_likelihood(local: &Local, theta: &[f64]) -> f64 {
    let m = local.m;
    let mut ll = 0.0;
    for i in 0..m {
        for j in i + 1..m {
            if local.games[i * m + j] > 0.0 {
                let x = theta[i] - theta[j];
                ll += local.points[i * m + j] * ln_sigmoid(x)
                    + local.points[j * m + i] * ln_sigmoid(-x);
            }
        }
    }
    ll
}

/// Damped Newton's method from θ = 0. `None` if the Hessian is numerically singular or the
/// iteration cap is reached.
fn newton(local: &Local) -> Option<Vec<f64>> {
    let m = local.m;
    // Position of each engine among the free variables (all but the anchor).
    let pos: Vec<Option<usize>> = (0..m)
        .map(|i| match i.cmp(&local.fixed) {
            Ordering::Less => Some(i),
            Ordering::Equal => None,
            Ordering::Greater => Some(i - 1),
        })
        .collect();
    let k = m - 1;
    let total_games: f64 = local.games.iter().sum::<f64>() / 2.0;
    // Rounding slack of the line search's comparison of log-likelihoods.
    let ll_slack = 1e-12 * (1.0 + total_games);

    let mut theta = vec![0.0; m];
    let mut ll = log_likelihood(local, &theta);
    let mut grad = vec![0.0; k];
    let mut info = vec![0.0; k * k];
    let mut candidate = vec![0.0; m];
    let mut previous_step = f64::INFINITY;
    for _ in 0..MAX_NEWTON {
        // Gradient and information matrix (minus the Hessian) over the free variables.
        grad.fill(0.0);
        info.fill(0.0);
        for i in 0..m {
            for j in i + 1..m {
                let nij = local.games[i * m + j];
                if nij <= 0.0 {
                    continue;
                }
                let x = theta[i] - theta[j];
                let w = nij * sigmoid_variance(x);
                if let Some(fi) = pos[i] {
                    grad[fi] += local.points[i * m + j] - nij * sigmoid(x);
                    info[fi * k + fi] += w;
                }
                if let Some(fj) = pos[j] {
                    grad[fj] += local.points[j * m + i] - nij * sigmoid(-x);
                    info[fj * k + fj] += w;
                }
                if let (Some(fi), Some(fj)) = (pos[i], pos[j]) {
                    info[fi * k + fj] -= w;
                    info[fj * k + fi] -= w;
                }
            }
        }
        let direction = cholesky_solve(&mut info, &grad, k)?;

        // Backtracking line search: halve the step until the log-likelihood does not drop.
        let mut t = 1.0;
        loop {
            for i in 0..m {
                candidate[i] = theta[i] + pos[i].map_or(0.0, |f| t * direction[f]);
            }
            let candidate_ll = log_likelihood(local, &candidate);
            if candidate_ll >= ll - ll_slack {
                ll = candidate_ll;
                break;
            }
            t *= 0.5;
            if t < 1e-30 {
                // Not even a tiny ascent step gains: θ is at the maximum to rounding.
                return Some(theta);
            }
        }
        std::mem::swap(&mut theta, &mut candidate);

        let step = t * direction.iter().fold(0.0f64, |a, d| a.max(d.abs())) * ELO_PER_NAT;
        if step < TOLERANCE_ELO || (step < ROUNDING_FLOOR_ELO && step >= 0.5 * previous_step) {
            return Some(theta);
        }
        previous_step = step;
    }
    None
}

/// Solves `a x = b` for a symmetric positive definite k×k `a` (row-major, overwritten by its
/// Cholesky factor). `None` if `a` is not numerically positive definite.
fn cholesky_solve(a: &mut [f64], b: &[f64], k: usize) -> Option<Vec<f64>> {
    for j in 0..k {
        let original = a[j * k + j];
        let mut d = original;
        for p in 0..j {
            d -= a[j * k + p] * a[j * k + p];
        }
        if !(d.is_finite() && d > original * 1e-14 && d > 0.0) {
            return None;
        }
        let l = d.sqrt();
        a[j * k + j] = l;
        for i in j + 1..k {
            let mut v = a[i * k + j];
            for p in 0..j {
                v -= a[i * k + p] * a[j * k + p];
            }
            a[i * k + j] = v / l;
        }
    }
    // L y = b, then Lᵀ x = y.
    let mut x = b.to_vec();
    for i in 0..k {
        let mut v = x[i];
        for p in 0..i {
            v -= a[i * k + p] * x[p];
        }
        x[i] = v / a[i * k + i];
    }
    for i in (0..k).rev() {
        let mut v = x[i];
        for p in i + 1..k {
            v -= a[p * k + i] * x[p];
        }
        x[i] = v / a[i * k + i];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// Hunter's (2004) MM iteration in log form, θ_i ← θ_i + ln W_i − ln E_i (all at once), then
/// shifted so the anchor is 0; from θ = 0 until the largest change is below the tolerance or the
/// cap is reached. Every member of a strongly connected set of two or more engines has W_i > 0.
fn mm(local: &Local) -> Vec<f64> {
    let m = local.m;
    let wins: Vec<f64> = (0..m)
        .map(|i| local.points[i * m..(i + 1) * m].iter().sum())
        .collect();
    let mut theta = vec![0.0; m];
    let mut next = vec![0.0; m];
    for _ in 0..MAX_MM {
        for i in 0..m {
            let mut expected = 0.0;
            for j in 0..m {
                let nij = local.games[i * m + j];
                if nij > 0.0 {
                    expected += nij * sigmoid(theta[i] - theta[j]);
                }
            }
            next[i] = theta[i] + wins[i].ln() - expected.ln();
        }
        let shift = next[local.fixed];
        let mut change = 0.0f64;
        for (t, &x) in theta.iter_mut().zip(&next) {
            let x = x - shift;
            change = change.max((x - *t).abs());
            *t = x;
        }
        if change * ELO_PER_NAT < TOLERANCE_ELO {
            break;
        }
    }
    theta
}

// ---------------------------------------------------------------------------------------------
// The bootstrap
// ---------------------------------------------------------------------------------------------

/// Per distinct pair index (in increasing order), the pairings that have it with their
/// half-points, as one flat list with offsets.
struct PairTable {
    /// Entries of index k are `entries[offsets[k]..offsets[k + 1]]`.
    offsets: Vec<usize>,
    /// (pairing, half-points).
    entries: Vec<(u32, u8)>,
}

impl PairTable {
    fn new(pairings: &[PairingPairs]) -> PairTable {
        let keys: Vec<u64> = pairings
            .iter()
            .flat_map(|p| p.half_points.keys().copied())
            .collect::<BTreeSet<u64>>()
            .into_iter()
            .collect();
        let slot = |key: u64| keys.binary_search(&key).expect("key from the union");
        let mut offsets = vec![0usize; keys.len() + 1];
        for p in pairings {
            for &key in p.half_points.keys() {
                offsets[slot(key) + 1] += 1;
            }
        }
        for k in 0..keys.len() {
            offsets[k + 1] += offsets[k];
        }
        let mut fill = offsets.clone();
        let mut entries = vec![(0u32, 0u8); offsets[keys.len()]];
        for (pi, p) in pairings.iter().enumerate() {
            let pi = u32::try_from(pi).expect("fewer than 2^32 pairings");
            for (&key, &h) in &p.half_points {
                let k = slot(key);
                entries[fill[k]] = (pi, h);
                fill[k] += 1;
            }
        }
        PairTable { offsets, entries }
    }

    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    fn pair(&self, k: usize) -> &[(u32, u8)] {
        &self.entries[self.offsets[k]..self.offsets[k + 1]]
    }
}

/// Fits the ratings on all pairs, then `resamples` bootstrap resamples: each draws, with
/// replacement, as many pair indices as there are distinct pair indices in the data (the union
/// over pairings), from that set; a drawn index contributes, for every pairing that has that pair,
/// its half-points (and 2 games) — the same index is drawn across all pairings at once, because
/// pair p shares its deal across pairings (pentanomial-aware: the two games of a pair are never
/// split). Each resample is refit with [`fit`]. Randomness:
/// `rand_chacha::ChaCha8Rng::seed_from_u64(seed)`, one stream, indices drawn by Lemire's unbiased
/// method on `next_u64` (resample by resample, in order), so the result is the same on every
/// machine.
///
/// # Panics
/// Panics if n > 0 and `anchor` ≥ n, if a pairing names an engine ≥ n, or if a half-point count
/// exceeds 4.
pub fn rate(
    n: usize,
    pairings: &[PairingPairs],
    anchor: usize,
    anchor_elo: f64,
    resamples: usize,
    seed: u64,
) -> Ratings {
    let all = duels(pairings);
    let (elo, keys) = fit_with_keys(n, &all, anchor, anchor_elo);
    if n == 0 {
        return Ratings {
            elo,
            lower: Vec::new(),
            upper: Vec::new(),
            order: Vec::new(),
            cfs_next: Vec::new(),
            resamples,
        };
    }

    let table = PairTable::new(pairings);
    let draws = table.len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut half = vec![0u64; pairings.len()];
    let mut pairs = vec![0u64; pairings.len()];
    let mut resample_duels = all.clone();
    // Row r: the ratings of resample r, and the strength keys.
    let mut sampled = Vec::with_capacity(resamples * n);
    let mut sampled_keys = Vec::with_capacity(resamples * n);
    for _ in 0..resamples {
        half.fill(0);
        pairs.fill(0);
        for _ in 0..draws {
            let k = uniform_below(&mut rng, draws as u64) as usize;
            for &(p, h) in table.pair(k) {
                half[p as usize] += u64::from(h);
                pairs[p as usize] += 1;
            }
        }
        for ((d, &h), &c) in resample_duels.iter_mut().zip(&half).zip(&pairs) {
            d.points_a = h as f64 / 2.0;
            d.games = 2.0 * c as f64;
        }
        let (e, k) = fit_with_keys(n, &resample_duels, anchor, anchor_elo);
        sampled.extend(e);
        sampled_keys.extend(k);
    }

    let mut lower = Vec::with_capacity(n);
    let mut upper = Vec::with_capacity(n);
    let mut column = Vec::with_capacity(resamples);
    for i in 0..n {
        if i == anchor {
            lower.push(elo[i]);
            upper.push(elo[i]);
            continue;
        }
        column.clear();
        column.extend(
            sampled
                .chunks_exact(n)
                .map(|row| row[i])
                .filter(|x| !x.is_nan()),
        );
        column.sort_by(f64::total_cmp);
        lower.push(quantile_sorted(&column, LOWER_Q));
        upper.push(quantile_sorted(&column, UPPER_Q));
    }

    let order = ranking(&keys);
    let cfs_next = order
        .windows(2)
        .map(|w| {
            let mut score = 0.0;
            for row in sampled_keys.chunks_exact(n) {
                score += match row[w[0]].cmp_strength(&row[w[1]]) {
                    Ordering::Less => 1.0,
                    Ordering::Equal => 0.5,
                    Ordering::Greater => 0.0,
                };
            }
            if resamples == 0 {
                f64::NAN
            } else {
                score / resamples as f64
            }
        })
        .collect();

    Ratings {
        elo,
        lower,
        upper,
        order,
        cfs_next,
        resamples,
    }
}

/// Engine indices from best to worst by strength [`Key`], ties by index.
fn ranking(keys: &[Key]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&i, &j| keys[i].cmp_strength(&keys[j]).then(i.cmp(&j)));
    order
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests;
