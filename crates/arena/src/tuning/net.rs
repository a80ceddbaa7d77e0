//! The correction network's fit (`arena tune --net`): fits the network ([`jieqi_search::nnue`]) on top of the
//! starting weights, which stay as they are.
//!
//! Each position's target is the one the linear fit uses (the result blended with the recorded
//! search score's win probability, `--lambda`), from the side to move's point of view; the
//! prediction is `sigmoid(K · (evaluation + network))` with K fitted at the starting weights.
//! The network is fitted in floats by Adam on shuffled mini-batches (`--iterations` passes over
//! the positions, `--rate` thousandths as the step, a tenth of it in the last quarter of the
//! passes, `--l2` as weight decay), the pass with the
//! lowest held-out loss is kept, and the weights are rounded to the network's integer units. The
//! gradient of a batch is summed in a fixed order, so the same games and seed give the same
//! network at any thread count. Without held-out positions (`--holdout 0`, or too few games) the
//! last pass is kept, and said to be. Interrupted (Ctrl-C), the fit stops and returns the pass it
//! would keep so far, its provenance marked `interrupted`.

use std::io::Write;

use jieqi_core::{Color, Position, Square};
use jieqi_search::eval::{EvalWeights, evaluate};
use jieqi_search::nnue::{HIDDEN, INPUTS, Net, QA, QB, feature, kind_of};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::positions::Kept;
use super::{TuneSettings, fit_k, provenance, sigmoid};
use crate::error::Error;

/// One position: the starting evaluation and target (side to move's view), the side to move, and
/// its active features per perspective (Red's, Black's).
struct Sample {
    base: f32,
    target: f32,
    stm: usize,
    feats: [Vec<u16>; 2],
}

/// Network parameters in floats: hidden units in [0, 1], the output in pawns (100 cp).
#[derive(Clone)]
struct Params {
    w0: Vec<f32>,
    b0: Vec<f32>,
    w1: Vec<f32>,
    b1: f32,
}

const BATCH: usize = 16_384;
const CHUNK: usize = 2048;

impl Params {
    fn len() -> usize {
        INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1
    }

    /// Hidden inputs of both perspectives, then the output in centipawns.
    fn forward(&self, s: &Sample) -> ([[f32; HIDDEN]; 2], f32) {
        let mut a = [[0f32; HIDDEN]; 2];
        for (p, ap) in a.iter_mut().enumerate() {
            ap.copy_from_slice(&self.b0);
            for &f in &s.feats[p] {
                let row = &self.w0[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
                for (x, w) in ap.iter_mut().zip(row) {
                    *x += w;
                }
            }
        }
        let mut out = self.b1;
        for (half, p) in [s.stm, 1 - s.stm].into_iter().enumerate() {
            let w1 = &self.w1[half * HIDDEN..(half + 1) * HIDDEN];
            for (x, w) in a[p].iter().zip(w1) {
                out += x.clamp(0.0, 1.0) * w;
            }
        }
        (a, out * 100.0)
    }

    /// Adds this sample's gradient (of the squared error) into `g` (laid out as [`Params`]).
    fn backward(&self, s: &Sample, k: f64, g: &mut [f32]) -> f64 {
        let (a, out) = self.forward(s);
        let p = sigmoid(k, f64::from(s.base + out));
        let err = p - f64::from(s.target);
        let d = (2.0 * err * p * (1.0 - p) * std::f64::consts::LN_10 * k / 400.0 * 100.0) as f32;
        let (gw0, rest) = g.split_at_mut(INPUTS * HIDDEN);
        let (gb0, rest) = rest.split_at_mut(HIDDEN);
        let (gw1, gb1) = rest.split_at_mut(2 * HIDDEN);
        gb1[0] += d;
        for (half, pp) in [s.stm, 1 - s.stm].into_iter().enumerate() {
            let mut da = [0f32; HIDDEN];
            let range = half * HIDDEN..(half + 1) * HIDDEN;
            let units = a[pp].iter().zip(&mut da);
            for ((&x, da), (gw, &w)) in
                units.zip(gw1[range.clone()].iter_mut().zip(&self.w1[range]))
            {
                *gw += d * x.clamp(0.0, 1.0);
                if x > 0.0 && x < 1.0 {
                    *da = d * w;
                }
            }
            for (gb, da) in gb0.iter_mut().zip(&da) {
                *gb += da;
            }
            for &f in &s.feats[pp] {
                let row = &mut gw0[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
                for (x, d) in row.iter_mut().zip(&da) {
                    *x += d;
                }
            }
        }
        err * err
    }

    fn flat_mut(&mut self) -> [&mut [f32]; 4] {
        [
            &mut self.w0,
            &mut self.b0,
            &mut self.w1,
            std::slice::from_mut(&mut self.b1),
        ]
    }

    /// The rounded integer network.
    fn quantize(&self) -> Net {
        let qa = QA as f32;
        Net {
            w0: self.w0.iter().map(|&w| (w * qa).round() as i16).collect(),
            b0: self.b0.iter().map(|&w| (w * qa).round() as i16).collect(),
            w1: self
                .w1
                .iter()
                .map(|&w| (w * 100.0 * QB as f32).round() as i16)
                .collect(),
            b1: (self.b1 * 100.0 * (QA * QB) as f32).round() as i32,
        }
    }
}

fn features(pos: &Position) -> [Vec<u16>; 2] {
    let mut out = [Vec::with_capacity(32), Vec::with_capacity(32)];
    for sq in Square::all() {
        if let Some(o) = pos.occupant(sq) {
            let (c, k) = kind_of(o);
            for (p, v) in out.iter_mut().enumerate() {
                v.push(feature(p, c, k, sq.index()) as u16);
            }
        }
    }
    out
}

fn samples(kept: &[Kept], base: &EvalWeights, k: Option<f64>, lambda: f64) -> Vec<Sample> {
    use rayon::prelude::*;
    kept.par_iter()
        .map(|(result, score, pos)| {
            let red = pos.turn() == Color::Red;
            let r = if red { *result } else { 1.0 - result };
            let target = match (k, score) {
                (Some(k), Some(cp)) => {
                    let cp = if red { *cp } else { -cp };
                    lambda * r + (1.0 - lambda) * sigmoid(k, cp)
                }
                _ => r,
            };
            Sample {
                base: evaluate(pos, base) as f32,
                target: target as f32,
                stm: pos.turn().index(),
                feats: features(pos),
            }
        })
        .collect()
}

fn mean_loss(samples: &[Sample], p: &Params, k: f64) -> f64 {
    use rayon::prelude::*;
    let sum: f64 = samples
        .par_chunks(CHUNK)
        .map(|c| {
            c.iter()
                .map(|s| {
                    let out = p.forward(s).1;
                    (sigmoid(k, f64::from(s.base + out)) - f64::from(s.target)).powi(2)
                })
                .sum::<f64>()
        })
        .collect::<Vec<_>>()
        .into_iter()
        .sum();
    sum / samples.len().max(1) as f64
}

/// What the network's fit came to.
pub enum NetFit {
    /// Every pass ran: the weights file (compact, without its last newline).
    Done(String),
    /// Ctrl-C stopped the fit.
    Interrupted {
        /// The pass it would keep so far and its weights file (provenance marked `interrupted`,
        /// without its last newline), if one finished.
        kept: Option<(u32, String)>,
        /// Whether no position was held out (then the pass kept is the last finished).
        none_held: bool,
    },
}

/// The fit's state between passes: the parameters, Adam's moments and step, the best pass so
/// far (held-out loss, network, pass) and the weights file an interruption keeps.
struct Fit<'a> {
    args: &'a TuneSettings,
    base: EvalWeights,
    k: f64,
    params: Params,
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
    best: (f64, Params, u32),
    none_held: bool,
    kept: Option<(u32, String)>,
}

const ADAM: (f32, f32, f32) = (0.9, 0.999, 1e-8);

impl Fit<'_> {
    /// One pass over `train_s` (shuffled by `rng`); its fit loss, or `None` when Ctrl-C stopped
    /// it (the pass is not finished, nothing of it is kept).
    fn pass(&mut self, epoch: u32, train_s: &mut [Sample], rng: &mut ChaCha8Rng) -> Option<f64> {
        let (b1, b2, eps) = ADAM;
        let n = Params::len();
        let (args, k) = (self.args, self.k);
        let lr = (args.rate * 1e-3) as f32;
        let decay = args.l2 as f32;
        // A seeded shuffle (Fisher–Yates).
        for i in (1..train_s.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            train_s.swap(i, j);
        }
        let mut fit_sum = 0.0;
        // The last quarter of the passes at a tenth of the step.
        let lr = if epoch * 4 > args.iterations * 3 {
            lr * 0.1
        } else {
            lr
        };
        for batch in train_s.chunks(BATCH) {
            use rayon::prelude::*;
            if crate::util::interrupt::requested() {
                return None;
            }
            let params = &self.params;
            let parts: Vec<(Vec<f32>, f64)> = batch
                .par_chunks(CHUNK)
                .map(|c| {
                    let mut g = vec![0f32; n];
                    let l: f64 = c.iter().map(|s| params.backward(s, k, &mut g)).sum();
                    (g, l)
                })
                .collect();
            let mut g = vec![0f32; n];
            for (part, l) in parts {
                fit_sum += l;
                g.iter_mut().zip(&part).for_each(|(a, b)| *a += b);
            }
            self.t += 1;
            let scale = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - b1.powi(self.t), 1.0 - b2.powi(self.t));
            let (m, v) = (&mut self.m, &mut self.v);
            let mut j = 0;
            for slice in self.params.flat_mut() {
                for x in slice.iter_mut() {
                    let gj = g[j] * scale + decay * *x;
                    m[j] = b1 * m[j] + (1.0 - b1) * gj;
                    v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
                    *x -= lr * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
                    j += 1;
                }
            }
        }
        Some(fit_sum / train_s.len() as f64)
    }

    /// Makes the best pass the one an interruption keeps.
    fn keep_pass(&mut self) {
        let rest = serde_json::json!({
            "interrupted": true,
            "loss": { "held_out": (!self.none_held).then_some(self.best.0), "kept_pass": self.best.2 },
        });
        let text = weights_text(
            &self.base,
            &self.best.1,
            provenance(self.args, "arena tune --net", rest),
        );
        self.kept = Some((self.best.2, text));
    }

    /// The interrupted fit's outcome.
    fn interrupted(self) -> NetFit {
        NetFit::Interrupted {
            kept: self.kept,
            none_held: self.none_held,
        }
    }
}

/// Fits the network to `train` (held-out `held`) and writes a report to `w`; returns the weights
/// file, or what an interruption keeps. Polls [`crate::util::interrupt::requested`] between
/// batches.
///
/// # Errors
/// A failed write.
pub fn fit(
    args: &TuneSettings,
    train: &[Kept],
    held: &[Kept],
    w: &mut dyn Write,
) -> Result<NetFit, Error> {
    let io = |e: std::io::Error| Error::Write(e.to_string());
    let mut base = args.base.clone();
    base.net = None;
    // K at the starting weights, on results only.
    let plain = samples(train, &base, None, 1.0);
    let zero = Params {
        w0: vec![0.0; INPUTS * HIDDEN],
        b0: vec![0.0; HIDDEN],
        w1: vec![0.0; 2 * HIDDEN],
        b1: 0.0,
    };
    let k = fit_k(50, |k| mean_loss(&plain, &zero, k));
    drop(plain);
    let mut train_s = samples(train, &base, Some(k), args.lambda);
    let held_s = samples(held, &base, Some(k), args.lambda);
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed ^ 0x6e6e_7565);
    let params = Params {
        w0: (0..INPUTS * HIDDEN)
            .map(|_| (rng.next_u32() as f32 / u32::MAX as f32 - 0.5) * 0.2)
            .collect(),
        b0: vec![0.5; HIDDEN],
        w1: vec![0.0; 2 * HIDDEN],
        b1: 0.0,
    };
    let n = Params::len();
    let start_held = mean_loss(&held_s, &zero, k);
    let start_fit = mean_loss(&train_s, &zero, k);
    // Without held-out positions no pass can be chosen by them: the last pass is kept, and no
    // held-out loss is printed (it would be the 0 of an empty mean).
    let none_held = held_s.is_empty();
    if none_held {
        writeln!(
            w,
            "K = {k:.4}; loss without the network: fit {start_fit:.6}; no position is held out \
             (--holdout 0, or too few games): the last pass is kept"
        )
    } else {
        writeln!(
            w,
            "K = {k:.4}; loss without the network: fit {start_fit:.6}, held out {start_held:.6}"
        )
    }
    .map_err(io)?;
    let mut fit = Fit {
        args,
        base,
        k,
        best: (start_held, params.clone(), 0u32),
        params,
        m: vec![0f32; n],
        v: vec![0f32; n],
        t: 0,
        none_held,
        kept: None,
    };
    if !none_held {
        // Pass 0 (the network's output is 0) until a pass does better on the held-out games.
        fit.keep_pass();
    }
    for epoch in 1..=args.iterations {
        if crate::util::interrupt::requested() {
            return Ok(fit.interrupted());
        }
        let Some(fit_loss) = fit.pass(epoch, &mut train_s, &mut rng) else {
            return Ok(fit.interrupted());
        };
        let held_loss = mean_loss(&held_s, &fit.params, k);
        // Without held-out games, the last pass.
        if held_loss < fit.best.0 || none_held {
            fit.best = (held_loss, fit.params.clone(), epoch);
            fit.keep_pass();
        }
        // Said once the pass is kept for an interruption.
        if none_held {
            writeln!(w, "pass {epoch}: fit {fit_loss:.6}")
        } else {
            writeln!(
                w,
                "pass {epoch}: fit {fit_loss:.6}, held out {held_loss:.6}"
            )
        }
        .map_err(io)?;
    }
    finish(fit, held, &held_s, start_held, train.len(), w).map(NetFit::Done)
}

/// The fit's last report (values clipped, the pass kept and the rounded network's held-out
/// loss) and the weights file.
fn finish(
    fit: Fit<'_>,
    held: &[Kept],
    held_s: &[Sample],
    start_held: f64,
    fitted: usize,
    w: &mut dyn Write,
) -> Result<String, Error> {
    let io = |e: std::io::Error| Error::Write(e.to_string());
    let Fit {
        args,
        base,
        k,
        best,
        none_held,
        ..
    } = fit;
    let net = best.1.quantize();
    // Values beyond the integer types are clipped (`as` saturates): say how many.
    let clipped = best
        .1
        .w0
        .iter()
        .chain(&best.1.b0)
        .filter(|&&x| (x * QA as f32).abs() > f32::from(i16::MAX))
        .count()
        + best
            .1
            .w1
            .iter()
            .filter(|&&x| (x * 100.0 * QB as f32).abs() > f32::from(i16::MAX))
            .count();
    if clipped > 0 {
        writeln!(
            w,
            "{} beyond the integer range and clipped",
            if clipped == 1 {
                "1 weight was".to_string()
            } else {
                format!("{clipped} weights were")
            }
        )
        .map_err(io)?;
    }
    let mut tuned = base.clone();
    tuned.net = Some(Box::new(net));
    // The held-out loss of what the engine will play with: the integer network.
    let real: f64 = held
        .iter()
        .zip(held_s)
        .map(|((_, _, pos), s)| {
            (sigmoid(k, f64::from(evaluate(pos, &tuned))) - f64::from(s.target)).powi(2)
        })
        .sum::<f64>()
        / held.len().max(1) as f64;
    let mean_abs = held_s
        .iter()
        .map(|s| f64::from(best.1.forward(s).1.abs()))
        .sum::<f64>()
        / held_s.len().max(1) as f64;
    if none_held {
        writeln!(
            w,
            "kept the last pass, {} (no position held out to choose a pass by)",
            best.2
        )
    } else {
        writeln!(
            w,
            "kept pass {} (held out {:.6}); rounded to integers: held out {real:.6}; mean \
             |correction| {mean_abs:.1} cp",
            best.2, best.0
        )
    }
    .map_err(io)?;
    tuned.provenance = Some(provenance(
        args,
        "arena tune --net",
        serde_json::json!({
            "positions": { "fit": fitted, "held_out": held.len() },
            "settings": {
                "eval": args.eval_path.as_ref().map(|p| p.display().to_string()),
                "holdout": args.holdout, "skip": args.skip, "passes": args.iterations,
                "rate": args.rate, "max_positions": args.max_positions,
                "lambda": args.lambda, "l2": args.l2, "seed": args.seed,
            },
            "k": k,
            "loss": {
                "held_out": (!none_held).then_some([start_held, best.0, real]),
                "kept_pass": best.2,
            },
        }),
    ));
    // Compact: the network's 46,000 values would take a line each.
    Ok(serde_json::to_string(&tuned).expect("weights serialize"))
}

/// The weights file of `base` with the network `params` (rounded) and `provenance`, compact.
fn weights_text(base: &EvalWeights, params: &Params, provenance: serde_json::Value) -> String {
    let mut tuned = base.clone();
    tuned.net = Some(Box::new(params.quantize()));
    tuned.provenance = Some(provenance);
    serde_json::to_string(&tuned).expect("weights serialize")
}
