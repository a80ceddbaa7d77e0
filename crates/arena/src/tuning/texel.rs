//! The linear fit (Texel's method): each position becomes a feature vector (the change of its
//! score per unit of each tuned weight, plus the part no tuned weight explains), K is fitted at
//! the starting weights, then the weights by Adam; the held-out loss is that of the real
//! evaluation with the rounded weights.

use std::io::Write;

use jieqi_core::Position;
use jieqi_search::eval::{EvalWeights, PST_SQUARES};

use super::positions::{Kept, Split};
use super::weights::{fixes, named, pst_features, pst_name, red_score, weights_of};
use super::{TuneSettings, fit_k, provenance, sigmoid};
use crate::error::Error;

/// One training position: result, the score part no tuned weight explains, and the features
/// that are not zero, as (tuned weight number, value).
struct Sample {
    result: f64,
    rest: f64,
    features: Vec<(u32, f32)>,
}

/// The weights by name, and which of them are fitted.
pub struct Tuned {
    /// Every weight by name and starting value ([`named`]'s).
    names: Vec<(String, f64)>,
    /// How many of them are scalar weights (the tables' values follow).
    scalars: usize,
    /// The numbers of the fitted weights among `names`.
    idx: Vec<usize>,
    /// The fitted number of every weight (`usize::MAX`: not fitted).
    of: Vec<usize>,
}

impl Tuned {
    /// The weights of `args.base` and those fitted: not `king`, not `--fix`ed, and the tables'
    /// values only with `--pst`.
    pub fn new(args: &TuneSettings) -> Tuned {
        let names = named(&args.base);
        let scalars = names.iter().filter(|(k, _)| pst_name(k).is_none()).count();
        let tuned_idx: Vec<usize> = (0..names.len())
            .filter(|&i| {
                names[i].0 != "king"
                    && !args.fix.iter().any(|f| fixes(f, &names[i].0))
                    && (i < scalars || args.pst)
            })
            .collect();
        // The tuned number of every weight (usize::MAX: not tuned).
        let mut tuned_of = vec![usize::MAX; names.len()];
        for (j, &i) in tuned_idx.iter().enumerate() {
            tuned_of[i] = j;
        }
        Tuned {
            names,
            scalars,
            idx: tuned_idx,
            of: tuned_of,
        }
    }

    /// How many weights are fitted.
    pub fn count(&self) -> usize {
        self.idx.len()
    }
}

/// Mean squared error of `samples` under weights `w` (the linear model) and scale `k`.
fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let score = s.rest + dot(&s.features, w);
            (s.result - sigmoid(k, score)).powi(2)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

#[inline]
fn dot(f: &[(u32, f32)], w: &[f64]) -> f64 {
    f.iter().map(|&(j, a)| f64::from(a) * w[j as usize]).sum()
}

/// Mean squared error of `positions` with their results under the real evaluation.
fn true_loss(held: &[(f64, Position)], w: &EvalWeights, k: f64) -> f64 {
    let sum: f64 = held
        .iter()
        .map(|(r, p)| (r - sigmoid(k, red_score(p, w))).powi(2))
        .sum();
    sum / held.len().max(1) as f64
}

/// The training positions as samples of the linear model (features at the starting weights
/// `w0`).
fn samples(args: &TuneSettings, tuned: &Tuned, train_pos: &[Kept], w0: &[f64]) -> Vec<Sample> {
    let (names, scalars, tuned_idx, tuned_of) =
        (&tuned.names, tuned.scalars, &tuned.idx, &tuned.of);
    let base = &args.base;
    // Features: the score's change per unit of each tuned scalar weight (a step of DELTA), and
    // the piece counts of the tables' squares (the tables are linear by construction).
    const DELTA: f64 = 100.0;
    let scalar_idx: Vec<usize> = tuned_idx.iter().copied().filter(|&i| i < scalars).collect();
    let bumped: Vec<EvalWeights> = scalar_idx
        .iter()
        .map(|&i| {
            let mut n = names.clone();
            n[i].1 += DELTA;
            weights_of(&n)
        })
        .collect();
    {
        use rayon::prelude::*;
        train_pos
            .par_iter()
            .map(|(result, _, pos)| {
                let s0 = red_score(pos, base);
                let mut features: Vec<(u32, f32)> = bumped
                    .iter()
                    .zip(&scalar_idx)
                    .map(|(b, &i)| {
                        (
                            tuned_of[i] as u32,
                            ((red_score(pos, b) - s0) / DELTA) as f32,
                        )
                    })
                    .filter(|&(_, f)| f != 0.0)
                    .collect();
                if args.pst {
                    features.extend(pst_features(pos, scalars).into_iter().filter_map(|(i, f)| {
                        let j = tuned_of[i as usize];
                        (j != usize::MAX).then_some((j as u32, f))
                    }));
                }
                let rest = s0 - dot(&features, w0);
                Sample {
                    result: *result,
                    rest,
                    features,
                }
            })
            .collect()
    }
}

/// The weights fitted by Adam from `w0`, `--iterations` steps.
fn adam(args: &TuneSettings, samples: &[Sample], w0: &[f64], k: f64) -> Vec<f64> {
    // Adam on the weights.
    let n = w0.len();
    let mut wt = w0.to_vec();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
    let scale = std::f64::consts::LN_10 * k / 400.0;
    for t in 1..=args.iterations {
        let grad = {
            use rayon::prelude::*;
            samples
                .par_chunks(4096)
                .map(|chunk| {
                    let mut g = vec![0.0; n];
                    for s in chunk {
                        let p = sigmoid(k, s.rest + dot(&s.features, &wt));
                        let d = 2.0 * (p - s.result) * p * (1.0 - p) * scale;
                        for &(j, f) in &s.features {
                            g[j as usize] += d * f64::from(f);
                        }
                    }
                    g
                })
                .collect::<Vec<_>>()
                // Summed in chunk order, not as the threads finish: the same sums, to the last
                // bit, at any thread count.
                .into_iter()
                .fold(vec![0.0; n], |mut a, b| {
                    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                    a
                })
        };
        for j in 0..n {
            // The pull towards the start: l2 · (w − w0)², per position as the loss is a mean.
            let g = grad[j] / samples.len() as f64 + 2.0 * args.l2 * (wt[j] - w0[j]);
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let mh = m[j] / (1.0 - b1.powi(t as i32));
            let vh = v[j] / (1.0 - b2.powi(t as i32));
            wt[j] -= args.rate * mh / (vh.sqrt() + eps);
        }
    }
    wt
}

/// Fits the weights to `split` and writes a report to `w`; returns the weights file (without its
/// last newline).
///
/// # Errors
/// A failed write.
pub fn fit(
    args: &TuneSettings,
    tuned: &Tuned,
    split: Split,
    w: &mut dyn Write,
) -> Result<String, Error> {
    let io = |e: std::io::Error| Error::Write(e.to_string());
    let base = &args.base;
    let Split {
        train: train_pos,
        held,
        train_games,
        held_games,
        ..
    } = split;
    let (names, scalars, tuned_idx) = (&tuned.names, tuned.scalars, &tuned.idx);
    let held: Vec<(f64, Position)> = held.into_iter().map(|(r, _, p)| (r, p)).collect();
    let w0: Vec<f64> = tuned_idx.iter().map(|&i| names[i].1).collect();
    let samples = samples(args, tuned, &train_pos, &w0);
    // K: the loss at the starting weights, minimised.
    let k = fit_k(60, |k| loss(&samples, &w0, k));
    // The targets: results blended with the recorded search scores' win probabilities.
    let mut samples = samples;
    if args.lambda < 1.0 {
        for (s, (_, score, _)) in samples.iter_mut().zip(&train_pos) {
            if let Some(cp) = score {
                s.result = args.lambda * s.result + (1.0 - args.lambda) * sigmoid(k, *cp);
            }
        }
    }
    let before_train = loss(&samples, &w0, k);
    let before_held = true_loss(&held, base, k);
    let wt = adam(args, &samples, &w0, k);
    let mut out_names = names.clone();
    for (j, &i) in tuned_idx.iter().enumerate() {
        out_names[i].1 = wt[j].round();
    }
    let tuned = weights_of(&out_names);
    let rounded: Vec<f64> = tuned_idx.iter().map(|&i| out_names[i].1).collect();
    let after_train = loss(&samples, &rounded, k);
    let after_held = true_loss(&held, &tuned, k);
    writeln!(w, "K = {k:.4} (fitted at the starting weights)").map_err(io)?;
    // An empty held-out set has no loss: said so, not printed as the 0 of an empty mean.
    let held_text = if held.is_empty() {
        "no position held out (--holdout 0, or too few games)".to_string()
    } else {
        format!("held out {before_held:.6} -> {after_held:.6}")
    };
    writeln!(
        w,
        "loss (mean squared error): fit {before_train:.6} -> {after_train:.6}, {held_text}"
    )
    .map_err(io)?;
    writeln!(w, "{:<18} {:>8} {:>8}", "weight", "before", "after").map_err(io)?;
    for ((name, old), (_, new)) in names.iter().zip(&out_names).take(scalars) {
        let mark = if (old - new).abs() > 0.0 {
            ""
        } else {
            "  (same)"
        };
        writeln!(w, "{name:<18} {old:>8} {new:>8}{mark}").map_err(io)?;
    }
    if args.pst {
        // The tables, one line each: how far their values moved.
        for (t, table) in super::weights::PST_NAMES.iter().enumerate() {
            let at = scalars + t * PST_SQUARES;
            let d: Vec<f64> = (at..at + PST_SQUARES)
                .map(|i| out_names[i].1 - names[i].1)
                .collect();
            let (lo, hi) = d
                .iter()
                .fold((0f64, 0f64), |(a, b), &x| (a.min(x), b.max(x)));
            let mean = d.iter().map(|x| x.abs()).sum::<f64>() / d.len() as f64;
            writeln!(
                w,
                "pst.{table:<13} changed by {lo:+} to {hi:+} (mean |change| {mean:.1})"
            )
            .map_err(io)?;
        }
    }
    let mut tuned = tuned;
    tuned.provenance = Some(provenance(
        args,
        "arena tune",
        serde_json::json!({
            "games": { "fit": train_games, "held_out": held_games },
            "positions": { "fit": samples.len(), "held_out": held.len() },
            "settings": {
                "eval": args.eval_path.as_ref().map(|p| p.display().to_string()),
                "holdout": args.holdout, "skip": args.skip, "iterations": args.iterations,
                "rate": args.rate, "fix": args.fix, "max_positions": args.max_positions,
                "lambda": args.lambda, "pst": args.pst, "l2": args.l2, "seed": args.seed,
            },
            "k": k,
            "loss": {
                "fit": [before_train, after_train],
                "held_out": (!held.is_empty()).then_some([before_held, after_held]),
            },
        }),
    ));
    Ok(serde_json::to_string_pretty(&tuned).expect("weights serialize"))
}
