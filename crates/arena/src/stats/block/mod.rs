//! The result block people read at a glance, fastchess style, and the same numbers as JSON.
//!
//! ```text
//! Results of New vs Base (nodes=20000, 2 threads, seed 42, rules standard):
//! Elo: -9.20 +/- 20.93 [-30.16, 11.69], nElo: -11.50 +/- 26.11
//! LOS: 19.41 %, DrawRatio: 42.35 % (pairs 1–1), PairsRatio: 0.88
//! Games: 680, Wins: 248, Losses: 266, Draws: 166, Points: 331.0 (48.68 %)
//! Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: 4.76
//! LLR: -0.14 (4.8%) (-2.94, 2.94) [0.00, 2.00] normalized, alpha 0.05, beta 0.05
//! ```
//!
//! Both are pure functions of a [`BlockInput`]; every float is computed from the integer counts
//! by [`crate::stats`], so merged shards print exactly what one run would.

use std::fmt::Write as _;

use serde::Serialize;

use crate::stats::{self, Estimate, Hypothesis, Pentanomial, Sprt, Wdl};

/// What a result block reports.
#[derive(Clone, Copy, Debug)]
pub struct BlockInput<'a> {
    /// Engine A's name (the counts are from A's side).
    pub a: &'a str,
    /// Engine B's name.
    pub b: &'a str,
    /// What the header adds in parentheses, e.g. `nodes=20000, 2 threads, seed 42, rules
    /// standard`; empty for none.
    pub context: &'a str,
    /// The pair counts, when games were played in pairs: the estimates are then pentanomial and
    /// the block has a `Ptnml(0-2)` line. `None` for game totals only (trinomial estimates).
    pub ptnml: Option<Pentanomial>,
    /// The game totals (with `ptnml` they should equal `ptnml.wdl()`).
    pub wdl: Wdl,
    /// The SPRT to report, if any: adds the `LLR` line and, once a bound is crossed, the verdict.
    pub sprt: Option<Sprt>,
}

/// Every number of a block, computed once.
struct Numbers {
    /// `Some` for pentanomial estimates.
    ptnml: Option<Pentanomial>,
    /// Whether WL and DD are known apart (false: the WL+DD cell is all in `dd`).
    split: bool,
    est: Estimate,
    draw_ratio: Option<f64>,
    pairs_ratio: Option<f64>,
    wl_dd_ratio: Option<f64>,
    games: u64,
    /// `None` when the pentanomial does not determine them (WL and DD not split).
    wdl: Option<Wdl>,
    points: f64,
    score: f64,
    sprt: Option<SprtNumbers>,
}

struct SprtNumbers {
    sprt: Sprt,
    llr: f64,
    bounds: (f64, f64),
    /// How far the LLR has gone towards the bound it is heading for (1 = reached).
    progress: f64,
    verdict: Option<Hypothesis>,
}

fn numbers(input: &BlockInput<'_>, split: bool) -> Numbers {
    match input.ptnml {
        Some(p) => {
            let est = stats::pentanomial(&p);
            // Points from the pairs: half-points LD + 2(WL+DD) + 3WD + 4WW.
            let c = p.counts();
            let half_points: f64 = c
                .iter()
                .enumerate()
                .map(|(k, &n)| k as f64 * n as f64)
                .sum();
            let (games, wdl, points, score) = if split {
                let w = input.wdl;
                (w.games(), Some(w), w.points(), w.score())
            } else {
                let games = p.pairs().saturating_mul(2);
                (games, None, half_points / 2.0, est.score)
            };
            Numbers {
                ptnml: Some(p),
                split,
                est,
                draw_ratio: p.draw_ratio(),
                pairs_ratio: p.pairs_ratio(),
                wl_dd_ratio: if split { p.wl_dd_ratio() } else { None },
                games,
                wdl,
                points,
                score,
                sprt: input.sprt.map(|s| sprt_numbers(s, s.llr_pentanomial(&p))),
            }
        }
        None => {
            let w = input.wdl;
            Numbers {
                ptnml: None,
                split: false,
                est: stats::trinomial(&w),
                draw_ratio: w.draw_ratio(),
                pairs_ratio: None,
                wl_dd_ratio: None,
                games: w.games(),
                wdl: Some(w),
                points: w.points(),
                score: w.score(),
                sprt: input.sprt.map(|s| sprt_numbers(s, s.llr_trinomial(&w))),
            }
        }
    }
}

fn sprt_numbers(sprt: Sprt, llr: f64) -> SprtNumbers {
    SprtNumbers {
        sprt,
        llr,
        bounds: sprt.bounds(),
        progress: sprt.progress(llr),
        verdict: sprt.verdict(llr),
    }
}

/// `x` to two places, a value that rounds to zero as `0.00` (never `-0.00`); `inf` / `-inf`.
fn f2(x: f64) -> String {
    if x.abs() < 0.005 {
        "0.00".into()
    } else {
        format!("{x:.2}")
    }
}

/// `x` to two places (`inf` / `-inf` for infinities), or `n/a`.
fn opt2(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_string(), |x| format!("{x:.2}"))
}

/// Why nElo = (s − ½)/σ_pg and its interval mean nothing where the scores have no spread: σ is 0
/// (a division by zero, `inf` or 0/0) or there are no games.
fn nelo_undefined(why: stats::NoSpread) -> &'static str {
    match why {
        stats::NoSpread::NoGames => "no games",
        _ => "zero variance",
    }
}

/// A fraction as a percentage to two places, or `n/a`.
fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_string(), |x| format!("{:.2} %", 100.0 * x))
}

fn render(input: &BlockInput<'_>, split: bool) -> String {
    let n = numbers(input, split);
    let e = &n.est;
    let mut s = String::new();
    // Writing into a String cannot fail.
    let header_context = if input.context.is_empty() {
        String::new()
    } else {
        format!(" ({})", input.context)
    };
    let _ = writeln!(s, "Results of {} vs {}{header_context}:", input.a, input.b);
    let interval = match e.no_interval {
        None => format!(
            "+/- {:.2} [{}, {}]",
            e.elo_error,
            f2(e.elo_lower),
            f2(e.elo_upper)
        ),
        Some(why) => format!("(interval undefined: {})", why.reason()),
    };
    let nelo = match e.no_interval {
        None => format!("{} +/- {:.2}", f2(e.nelo), e.nelo_error),
        Some(why) => format!("undefined ({})", nelo_undefined(why)),
    };
    let _ = writeln!(s, "Elo: {} {interval}, nElo: {nelo}", f2(e.elo));
    let los = match e.no_interval {
        None => format!("{:.2} %", 100.0 * e.los),
        Some(_) => "n/a".to_string(),
    };
    if n.ptnml.is_some() {
        let _ = writeln!(
            s,
            "LOS: {los}, DrawRatio: {} (pairs 1–1), PairsRatio: {}",
            pct(n.draw_ratio),
            opt2(n.pairs_ratio)
        );
    } else {
        let _ = writeln!(s, "LOS: {los}, DrawRatio: {}", pct(n.draw_ratio));
    }
    let (wins, losses, draws) = match n.wdl {
        Some(w) => (
            w.wins.to_string(),
            w.losses.to_string(),
            w.draws.to_string(),
        ),
        None => ("n/a".into(), "n/a".into(), "n/a".into()),
    };
    let _ = writeln!(
        s,
        "Games: {}, Wins: {wins}, Losses: {losses}, Draws: {draws}, Points: {:.1} ({:.2} %)",
        n.games,
        n.points,
        100.0 * n.score
    );
    if let Some(p) = n.ptnml {
        let c = p.counts();
        let _ = writeln!(
            s,
            "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            opt2(n.wl_dd_ratio)
        );
    }
    if let Some(t) = &n.sprt {
        let _ = writeln!(
            s,
            "LLR: {} ({:.1}%) ({:.2}, {:.2}) [{:.2}, {:.2}] {}, alpha {}, beta {}",
            f2(t.llr),
            t.progress * 100.0,
            t.bounds.0,
            t.bounds.1,
            t.sprt.elo0,
            t.sprt.elo1,
            t.sprt.model,
            t.sprt.alpha,
            t.sprt.beta
        );
        if let Some(h) = t.verdict {
            let _ = writeln!(s, "SPRT: {h} accepted");
        }
    }
    s
}

/// The result block as text, every line ending in `\n`.
///
/// Lines: the header `Results of A vs B (context):` (no parentheses for an empty context);
/// `Elo: e +/- err [lower, upper], nElo: n +/- err` (the bracket is the asymmetric 95 %
/// interval; `Elo: e (interval undefined: REASON), nElo: undefined (zero variance)` and
/// `LOS: n/a` where the scores have no spread, see [`stats::NoSpread`]); `LOS: …, DrawRatio: … (pairs 1–1), PairsRatio: …`; `Games: …, Wins: …, Losses: …, Draws: …,
/// Points: p (score %)`; with pairs `Ptnml(0-2): [LL, LD, WL+DD, WD, WW], WL/DD Ratio: r`; with an
/// SPRT `LLR: llr (p%) (A, B) [elo0, elo1] model, alpha α, beta β` (p: how far the LLR has gone
/// towards the bound it heads for, as fastchess prints it) and, once a bound is crossed,
/// `SPRT: H1 accepted` or `SPRT: H0 accepted`.
///
/// With `ptnml` the estimates are pentanomial, DrawRatio is (WL+DD)/pairs and PairsRatio is
/// (WD+WW)/(LL+LD), as fastchess prints them; the DrawRatio is labelled `(pairs 1–1)`, as it
/// counts drawn pairs, not drawn games (every pair won and lost once is 100 % with no draw). Without it they are trinomial, DrawRatio is
/// draws/games and there is no PairsRatio and no Ptnml line. Infinite values print `inf` /
/// `-inf`; a ratio that does not exist (no pairs, DD = 0) prints `n/a`.
pub fn render_block(input: &BlockInput<'_>) -> String {
    render(input, true)
}

/// [`render_block`] for a pentanomial whose score-1 cell came as one number (WL+DD, e.g.
/// `arena stats --ptnml` with five counts), stored in `dd` with `wl` = 0. The games' wins,
/// losses and draws are then unknown and print `n/a` (`input.wdl` is ignored), as does the WL/DD
/// ratio; games and points come from the pairs. Without `ptnml` this is [`render_block`].
pub fn render_block_unsplit(input: &BlockInput<'_>) -> String {
    render(input, input.ptnml.is_none())
}

/// Serializes a float as JSON: a number, or the string `"inf"` / `"-inf"` for an infinity (`null`
/// for NaN, which the statistics never produce).
fn num<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.is_finite() {
        s.serialize_f64(*x)
    } else if x.is_nan() {
        s.serialize_none()
    } else if *x > 0.0 {
        s.serialize_str("inf")
    } else {
        s.serialize_str("-inf")
    }
}

/// A float in JSON that keeps infinities and NaN: a number, `"inf"`, `"-inf"`, or `null` for NaN
/// (use with `#[serde(with = "crate::stats::block::json_f64")]`). Reading accepts the same.
pub mod json_f64 {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `x`.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        super::num(x, s)
    }

    /// Reads a number, `"inf"`, `"-inf"` or `null` (NaN).
    ///
    /// # Errors
    /// Anything else.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Float {
            Number(f64),
            Text(String),
            Null(()),
        }
        match Float::deserialize(d)? {
            Float::Number(x) => Ok(x),
            Float::Text(t) if t == "inf" || t == "+inf" => Ok(f64::INFINITY),
            Float::Text(t) if t == "-inf" => Ok(f64::NEG_INFINITY),
            Float::Text(t) => Err(serde::de::Error::custom(format!(
                "'{t}' is not a number, \"inf\" or \"-inf\""
            ))),
            Float::Null(()) => Ok(f64::NAN),
        }
    }
}

/// [`num`] for an optional float (`null` when absent).
fn opt_num<S: serde::Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(x) => num(x, s),
        None => s.serialize_none(),
    }
}

/// Every number of a result block, for `summary.json` and `arena stats --json`.
///
/// The interval keys and `los` are `null` where `interval_undefined` gives the reason. Fractions (`los`, `draw_ratio`, `pairs_ratio`, `wl_dd_ratio`, `score`) are not percentages.
/// Floats are unrounded. An infinite value is the string `"inf"` or `"-inf"` (JSON has no
/// infinity, and `null` would lose the sign). A value that does not apply is `null`: the pair
/// keys without pairs, `pairs_ratio` without pairs or with neither winning nor losing pairs,
/// `wl_dd_ratio` when DD is 0, every SPRT key without an SPRT, `verdict` before a bound is
/// crossed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlockJson {
    /// Engine A's name.
    pub a: String,
    /// Engine B's name.
    pub b: String,
    /// The header's parenthesis.
    pub context: String,
    /// `"pentanomial"` or `"trinomial"`.
    pub statistic: &'static str,
    /// Logistic Elo.
    #[serde(serialize_with = "num")]
    pub elo: f64,
    /// Why the interval and the LOS are undefined (`null` when they are not): then `elo_error`,
    /// `elo_lower`, `elo_upper`, `los`, `nelo` and `nelo_error` are `null` (nElo divides by the
    /// spread, which is zero).
    pub interval_undefined: Option<String>,
    /// The `+/-` of the Elo.
    #[serde(serialize_with = "num")]
    pub elo_error: f64,
    /// Lower end of the 95 % interval.
    #[serde(serialize_with = "num")]
    pub elo_lower: f64,
    /// Upper end of the 95 % interval.
    #[serde(serialize_with = "num")]
    pub elo_upper: f64,
    /// Normalized Elo.
    #[serde(serialize_with = "num")]
    pub nelo: f64,
    /// The `+/-` of the normalized Elo.
    #[serde(serialize_with = "num")]
    pub nelo_error: f64,
    /// Likelihood of superiority.
    #[serde(serialize_with = "num")]
    pub los: f64,
    /// Draw ratio.
    #[serde(serialize_with = "opt_num")]
    pub draw_ratio: Option<f64>,
    /// Winning pairs over losing pairs.
    #[serde(serialize_with = "opt_num")]
    pub pairs_ratio: Option<f64>,
    /// WL over DD pairs.
    #[serde(serialize_with = "opt_num")]
    pub wl_dd_ratio: Option<f64>,
    /// Games.
    pub games: u64,
    /// A's wins (`null` when unknown).
    pub wins: Option<u64>,
    /// A's losses.
    pub losses: Option<u64>,
    /// Draws.
    pub draws: Option<u64>,
    /// A's points.
    #[serde(serialize_with = "num")]
    pub points: f64,
    /// A's score, points per game.
    #[serde(serialize_with = "num")]
    pub score: f64,
    /// Pairs.
    pub pairs: Option<u64>,
    /// `[LL, LD, WL+DD, WD, WW]`.
    pub ptnml: Option<[u64; 5]>,
    /// WL pairs.
    pub ptnml_wl: Option<u64>,
    /// DD pairs.
    pub ptnml_dd: Option<u64>,
    /// The SPRT's log-likelihood ratio.
    #[serde(serialize_with = "opt_num")]
    pub llr: Option<f64>,
    /// Its stopping bounds `[A, B]`.
    pub bounds: Option<[f64; 2]>,
    /// How far the LLR has gone towards the bound it heads for (1 = reached).
    #[serde(serialize_with = "opt_num")]
    pub llr_progress: Option<f64>,
    /// H0's Elo.
    #[serde(serialize_with = "opt_num")]
    pub elo0: Option<f64>,
    /// H1's Elo.
    #[serde(serialize_with = "opt_num")]
    pub elo1: Option<f64>,
    /// False-positive rate.
    #[serde(serialize_with = "opt_num")]
    pub alpha: Option<f64>,
    /// False-negative rate.
    #[serde(serialize_with = "opt_num")]
    pub beta: Option<f64>,
    /// `"normalized"` or `"logistic"`.
    pub model: Option<&'static str>,
    /// `"H0"`, `"H1"`, or `null` while no bound is crossed.
    pub verdict: Option<Hypothesis>,
}

fn json_of(input: &BlockInput<'_>, split: bool) -> BlockJson {
    let n = numbers(input, split);
    let e = &n.est;
    let (wl, dd) = match n.ptnml {
        Some(p) if n.split => (Some(p.wl), Some(p.dd)),
        _ => (None, None),
    };
    let sprt = n.sprt.as_ref();
    // An undefined value is NaN, which `num` writes as `null`.
    let defined = |x: f64| if e.no_interval.is_some() { f64::NAN } else { x };
    BlockJson {
        a: input.a.to_string(),
        b: input.b.to_string(),
        context: input.context.to_string(),
        statistic: if n.ptnml.is_some() {
            "pentanomial"
        } else {
            "trinomial"
        },
        elo: e.elo,
        interval_undefined: e.no_interval.map(|why| why.reason()),
        elo_error: defined(e.elo_error),
        elo_lower: defined(e.elo_lower),
        elo_upper: defined(e.elo_upper),
        nelo: defined(e.nelo),
        nelo_error: defined(e.nelo_error),
        los: defined(e.los),
        draw_ratio: n.draw_ratio,
        pairs_ratio: n.pairs_ratio,
        wl_dd_ratio: n.wl_dd_ratio,
        games: n.games,
        wins: n.wdl.map(|w| w.wins),
        losses: n.wdl.map(|w| w.losses),
        draws: n.wdl.map(|w| w.draws),
        points: n.points,
        score: n.score,
        pairs: n.ptnml.map(|p| p.pairs()),
        ptnml: n.ptnml.map(|p| p.counts()),
        ptnml_wl: wl,
        ptnml_dd: dd,
        llr: sprt.map(|t| t.llr),
        bounds: sprt.map(|t| [t.bounds.0, t.bounds.1]),
        llr_progress: sprt.map(|t| t.progress),
        elo0: sprt.map(|t| t.sprt.elo0),
        elo1: sprt.map(|t| t.sprt.elo1),
        alpha: sprt.map(|t| t.sprt.alpha),
        beta: sprt.map(|t| t.sprt.beta),
        model: sprt.map(|t| t.sprt.model.name()),
        verdict: sprt.and_then(|t| t.verdict),
    }
}

/// Every number of the block ([`BlockJson`]), for `summary.json` and `arena stats --json`.
pub fn block_json(input: &BlockInput<'_>) -> BlockJson {
    json_of(input, true)
}

/// [`block_json`] for an unsplit pentanomial, as [`render_block_unsplit`]: `wins`, `losses`,
/// `draws`, `wl_dd_ratio`, `ptnml_wl` and `ptnml_dd` are `null`.
pub fn block_json_unsplit(input: &BlockInput<'_>) -> BlockJson {
    json_of(input, input.ptnml.is_none())
}

#[cfg(test)]
mod tests;
