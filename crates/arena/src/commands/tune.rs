//! `arena tune`: Texel tuning of the evaluation weights from the arena's own games.
//!
//! The positions come from the `games.jsonl` of results folders: every recorded game is played
//! through from its seed's deal by the referee ([`crate::records::check::check_record`] first: a record
//! that does not hold up is skipped and counted), and each position after the first `--skip`
//! plies in which the side to move is not in check and the last move took nothing is kept as the
//! side to move sees it (its fair view: hidden pieces are its pools, as the search evaluates
//! them), labelled with the game's result from Red's side (1, ½, 0). Games that ended by an
//! engine failure are left out: their result says nothing about the position.
//!
//! The evaluation is linear in its weights (material, piece-square terms, mobility, king safety,
//! tempo), so each position becomes a feature vector: the change of its score (Red's side) per
//! unit of each weight, measured by [`evaluate`] with that weight raised, plus the part no tuned
//! weight explains. The fit minimises the mean squared error between results and the win
//! probability `1 / (1 + 10^(−K·score/400))` (Texel's method): first K with the starting
//! weights (golden-section search), then the weights by Adam. The games are split into a training
//! and a held-out share (`--holdout`, by game, seeded), and the held-out loss is computed with the
//! real evaluation of the rounded weights, so it measures what the engine will play with.

use std::io::Write;
use std::path::Path;

use jieqi_core::{Color, Position};
use jieqi_search::eval::{EvalWeights, PST_SQUARES, Pst, evaluate};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::error::Error;
use crate::plan::tune::{TunePlan, fixes, named, pst_name};
use crate::records::GameResult;
use crate::util::text::counted;

mod net;

/// Weights from names and (rounded) values ([`named`]'s).
fn weights_of(names: &[(String, f64)]) -> EvalWeights {
    let map: serde_json::Map<String, serde_json::Value> = names
        .iter()
        .filter(|(k, _)| pst_name(k).is_none())
        .map(|(k, v)| (k.clone(), serde_json::Value::from(v.round() as i64)))
        .collect();
    let mut w: EvalWeights =
        serde_json::from_value(serde_json::Value::Object(map)).expect("the same keys");
    let tables = w.pst.tables_mut();
    for (k, v) in names {
        if let Some((t, i)) = pst_name(k) {
            tables[t][i] = v.round() as i32;
        }
    }
    w
}

/// The piece-square features of `pos` (Red's side): for every piece, +1 (Red) or −1 (Black) at
/// its table entry, as `(weight number, value)` with weight numbers those of [`named`] (the
/// tables follow the `scalars` scalar weights).
fn pst_features(pos: &Position, scalars: usize) -> Vec<(u32, f32)> {
    let mut out: Vec<(u32, f32)> = Vec::with_capacity(32);
    for sq in jieqi_core::Square::all() {
        let (color, kind) = match pos.occupant(sq) {
            None => continue,
            Some(jieqi_core::Occupant::Hidden(c)) => (c, 7),
            Some(jieqi_core::Occupant::Revealed(p)) => (p.color, p.role.index()),
        };
        let j = (scalars + kind * PST_SQUARES + Pst::index(color, sq)) as u32;
        let v = if color == Color::Red { 1.0 } else { -1.0 };
        match out.iter_mut().find(|(k, _)| *k == j) {
            Some(e) => e.1 += v,
            None => out.push((j, v)),
        }
    }
    out.retain(|&(_, v)| v != 0.0);
    out
}

/// The evaluation of `pos` from Red's side.
fn red_score(pos: &Position, w: &EvalWeights) -> f64 {
    let s = f64::from(evaluate(pos, w));
    if pos.turn() == Color::Red { s } else { -s }
}

/// The expected score of a position scored `s` (Red's side), with scale `k`.
#[inline]
fn sigmoid(k: f64, s: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * s / 400.0))
}

/// One training position: result, the score part no tuned weight explains, and the features
/// that are not zero, as (tuned weight number, value).
struct Sample {
    result: f64,
    rest: f64,
    features: Vec<(u32, f32)>,
}

/// A recorded search score in centipawns, from the searching side's view: `+1.25` pawns, or a
/// mate (`#3`, `#-2`) as ±10 000; `None` for a win rate or anything else.
fn recorded_cp(text: &str) -> Option<f64> {
    if let Some(n) = text.strip_prefix('#') {
        let n: i64 = n.parse().ok()?;
        return Some(if n > 0 { 10_000.0 } else { -10_000.0 });
    }
    if text.ends_with('%') {
        return None;
    }
    text.parse::<f64>().ok().map(|p| p * 100.0)
}

/// One kept position: its result for Red, the recorded search score (Red's side), if any.
type Kept = (f64, Option<f64>, Position);

/// Positions of one folder's games, with their results; `skipped` counts records left out.
struct Collected {
    /// (game key, positions).
    games: Vec<(u64, Vec<Kept>)>,
    skipped: u64,
    read: u64,
}

/// `quiet_next`: also leave out positions whose played move captures (their search score is
/// mostly the capture's gain, which no static term can see).
fn collect(
    dir: &Path,
    skip: usize,
    quiet_next: bool,
    budget: &mut usize,
) -> Result<Collected, Error> {
    let mut games = Vec::new();
    let tally = crate::run::recorded_games::for_each(dir, |_rules, line, checked| {
        if *budget == 0 {
            return false;
        }
        let result = match line.result {
            GameResult::RedWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        };
        let mut game = checked.start.clone();
        let mut positions = Vec::new();
        for (i, (record, _)) in checked.plies.iter().enumerate() {
            if i >= skip
                && *budget > 0
                && game.outcome().is_none()
                && !game.position().in_check()
                && game.records().last().is_none_or(|r| r.captured.is_none())
                && !(quiet_next && game.position().occupant(record.played.mv.to).is_some())
            {
                let sign = if game.turn() == Color::Red { 1.0 } else { -1.0 };
                let score = line
                    .search
                    .get(i)
                    .and_then(|info| info.score.as_deref())
                    .and_then(recorded_cp)
                    .map(|cp| sign * cp);
                positions.push((result, score, game.view(game.turn()).position().clone()));
                *budget -= 1;
            }
            game.play(record.played.mv).expect("checked");
        }
        // The game key spreads pair and game over the split.
        games.push((line.seed ^ (u64::from(line.game) << 62), positions));
        true
    })?;
    Ok(Collected {
        games,
        skipped: tally.skipped,
        read: tally.read,
    })
}

/// The scale K in [0.05, 5] that minimises `loss`, by `steps` steps of golden-section search.
fn fit_k(steps: u32, loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..steps {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// A weights file's `provenance`: what made it (`made_by`), the build, the runs by fingerprint
/// (their folders' names are the machine's), then `rest`'s fields.
fn provenance(args: &TunePlan, made_by: &str, rest: serde_json::Value) -> serde_json::Value {
    let build = crate::records::build::Build::current(&[]);
    let mut p = serde_json::json!({
        "made_by": made_by,
        "arena": build.version,
        "commit": build.commit,
        "dirty": build.dirty,
        "runs": args
            .dirs
            .iter()
            .map(|d| {
                crate::run::folder::recorded_run(d).map_or_else(|_| "?".into(), |r| r.1.fingerprint)
            })
            .collect::<Vec<_>>(),
    });
    if let (Some(p), serde_json::Value::Object(rest)) = (p.as_object_mut(), rest) {
        p.extend(rest);
    }
    p
}

/// Writes `json` (a weights file, without its last newline) to `--out`, atomically, and says so.
fn write_weights(args: &TunePlan, mut json: String, w: &mut dyn Write) -> Result<(), Error> {
    json.push('\n');
    crate::records::files::write_output(&args.out, json.as_bytes())
        .map_err(|e| Error::Write(format!("cannot write {e}")))?;
    writeln!(w, "tuned weights written to {}", args.out.display())
        .map_err(|e| Error::Write(e.to_string()))
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

/// Runs the tuning and writes a report to `w`.
///
/// # Errors
/// A folder that cannot be read, too few positions, or a failed write.
pub fn run(args: &TunePlan, w: &mut dyn Write) -> Result<(), Error> {
    let base = &args.base;
    let names = named(base);
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
    let io = |e: std::io::Error| Error::Write(e.to_string());
    let mut budget = args.max_positions;
    let mut all_games = Vec::new();
    let (mut read, mut skipped) = (0, 0);
    for dir in &args.dirs {
        let c = collect(dir, args.skip, args.net, &mut budget)?;
        read += c.read;
        skipped += c.skipped;
        all_games.extend(c.games);
    }
    // The split, by game: a seeded draw per game key.
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let threshold = (args.holdout * f64::from(u32::MAX)) as u32;
    let mut train_pos = Vec::new();
    let mut held = Vec::new();
    let (mut train_games, mut held_games) = (0, 0);
    for (key, positions) in all_games {
        // Drawn in both cases, so that the linear fit's split is what it always was.
        let draw = rand_core::Rng::next_u32(&mut rng);
        // The network is split by deal: both games of a pair on the same side of the split, so
        // that what one game says about its deal is not measured on the other.
        let hold = if args.net {
            let deal = key & !(3 << 62);
            rand_core::Rng::next_u32(&mut ChaCha8Rng::seed_from_u64(args.seed ^ deal)) < threshold
        } else {
            draw < threshold
        };
        if hold {
            held_games += 1;
            held.extend(positions);
        } else {
            train_games += 1;
            train_pos.extend(positions);
        }
    }
    writeln!(
        w,
        "{} read, {skipped} left out (engine failures or records that do not hold up); {} ({}) \
         to fit, {} ({}) held out",
        counted(read, "game"),
        counted(train_games as u64, "game"),
        counted(train_pos.len() as u64, "position"),
        counted(held_games as u64, "game"),
        counted(held.len() as u64, "position"),
    )
    .map_err(io)?;
    if train_pos.len() < 1000 {
        return Err(Error::Input(format!(
            "{} {} too few to fit {}: give more games",
            counted(train_pos.len() as u64, "position"),
            if train_pos.len() == 1 { "is" } else { "are" },
            if args.net {
                "a network".to_string()
            } else {
                counted(tuned_idx.len() as u64, "weight")
            }
        )));
    }
    if args.net {
        return net::fit(args, &train_pos, &held, w);
    }
    let held: Vec<(f64, Position)> = held.into_iter().map(|(r, _, p)| (r, p)).collect();
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
    let w0: Vec<f64> = tuned_idx.iter().map(|&i| names[i].1).collect();
    let samples: Vec<Sample> = {
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
                let rest = s0 - dot(&features, &w0);
                Sample {
                    result: *result,
                    rest,
                    features,
                }
            })
            .collect()
    };
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
    // Adam on the weights.
    let n = w0.len();
    let mut wt = w0.clone();
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
        for (t, table) in crate::plan::tune::PST_NAMES.iter().enumerate() {
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
    write_weights(
        args,
        serde_json::to_string_pretty(&tuned).expect("weights serialize"),
        w,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::{Deal, Game, Rules};

    /// The tables' features are the score's exact change per unit of each table weight, as the
    /// evaluation computes it (checked by raising every table weight along a game).
    #[test]
    fn table_features_are_the_evaluations_own_changes() {
        let rules = Rules::standard();
        let mut game = Game::new(rules, Deal::unshuffled(&rules));
        let base = EvalWeights::default();
        let names = named(&base);
        let scalars = names.iter().filter(|(k, _)| pst_name(k).is_none()).count();
        for ply in 0..30 {
            let pos = game.view(game.turn()).position().clone();
            let features = pst_features(&pos, scalars);
            let s0 = red_score(&pos, &base);
            for i in scalars..names.len() {
                let mut n = names.clone();
                n[i].1 += 10.0;
                let change = (red_score(&pos, &weights_of(&n)) - s0) / 10.0;
                let f = features
                    .iter()
                    .find(|(j, _)| *j as usize == i)
                    .map_or(0.0, |&(_, f)| f64::from(f));
                assert_eq!(change, f, "ply {ply}: {}", names[i].0);
            }
            let moves = pos.legal_moves();
            let m = moves[(ply * 7) % moves.len()];
            game.play(m).unwrap();
            if game.outcome().is_some() {
                break;
            }
        }
    }

    #[test]
    fn weights_round_trip_through_their_names() {
        let mut w = EvalWeights::default();
        w.pst.horse[12] = 7;
        w.pst.hidden[3] = -4;
        w.tempo = 13;
        assert_eq!(weights_of(&named(&w)), w);
        assert_eq!(pst_name("pst.horse[12]"), Some((1, 12)));
        assert_eq!(pst_name("horse"), None);
    }
}
