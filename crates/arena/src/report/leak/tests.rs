//! Tests of the leak report: its arms' statistics, the bootstrap and the report's text.

use super::*;
use crate::stats::Pentanomial;

/// An arm's pentanomial, for tests.
fn ptnml_of(points: &[u8]) -> Pentanomial {
    let mut p = Pentanomial::default();
    for &h in points {
        match h {
            0 => p.ll += 1,
            1 => p.ld += 1,
            2 => p.dd += 1,
            3 => p.wd += 1,
            _ => p.ww += 1,
        }
    }
    p
}

fn points(v: &[u8]) -> BTreeMap<u64, u8> {
    v.iter().enumerate().map(|(i, &h)| (i as u64, h)).collect()
}

#[test]
fn identical_arms_give_a_zero_width_delta() {
    // The same pairs in both arms: every resample has Δ = 0 exactly.
    let x = points(&[0, 1, 2, 3, 4, 2, 2, 3, 1, 4]);
    let (lo, hi, k) = paired_delta(&x, Some(&x), 500, 7);
    assert_eq!((lo, hi, k), (0.0, 0.0, 10));
}

#[test]
fn pairing_narrows_the_interval_of_correlated_arms() {
    // Arm Ω is arm F plus one half-point on a third of the pairs: strongly correlated arms.
    let f: Vec<u8> = (0..300).map(|i| [0, 1, 2, 2, 3, 4][i % 6]).collect();
    let w: Vec<u8> = f
        .iter()
        .enumerate()
        .map(|(i, &h)| if i % 3 == 0 { (h + 1).min(4) } else { h })
        .collect();
    let (lo, hi, _) = paired_delta(&points(&w), Some(&points(&f)), 2000, 1);
    let ef = stats::pentanomial(&ptnml_of(&f));
    let ew = stats::pentanomial(&ptnml_of(&w));
    let delta = ew.elo - ef.elo;
    let independent = (ef.elo_error.powi(2) + ew.elo_error.powi(2)).sqrt();
    assert!(lo > 0.0 && lo < delta && delta < hi, "{lo} {delta} {hi}");
    assert!(
        (hi - lo) / 2.0 < 0.6 * independent,
        "paired half-width {} vs independent {independent}",
        (hi - lo) / 2.0
    );
}

/// An arm that drew every pair against a fair self fixed at 0: Elo(½) is −0, and the
/// interval must not print `-0.0` (leak.json said `"lower": -0.0`).
#[test]
fn a_zero_delta_is_never_negative_zero() {
    let drawn: BTreeMap<u64, u8> = (0..12).map(|p| (p, 2)).collect();
    let (lower, upper, pairs) = paired_delta(&drawn, None, 200, 7);
    assert_eq!(pairs, 12);
    assert!(lower == 0.0 && lower.is_sign_positive(), "{lower:?}");
    assert!(upper == 0.0 && upper.is_sign_positive(), "{upper:?}");
    assert_eq!(interval(lower, upper), "[+0.0, +0.0]");
}

#[test]
fn the_bootstrap_is_seeded() {
    let w = points(&[4, 3, 2, 2, 1, 4, 3, 3, 2, 4]);
    let f = points(&[2, 2, 1, 2, 2, 3, 2, 1, 2, 2]);
    let a = paired_delta(&w, Some(&f), 300, 5);
    assert_eq!(a, paired_delta(&w, Some(&f), 300, 5));
    assert_ne!(a, paired_delta(&w, Some(&f), 300, 6));
    // Without a fair arm, Δ is arm Ω's Elo.
    let (lo, hi, _) = paired_delta(&w, None, 300, 5);
    let e = stats::pentanomial(&ptnml_of(&[4, 3, 2, 2, 1, 4, 3, 3, 2, 4]));
    assert!(lo < e.elo && e.elo < hi);
}

fn arm_with(score: f64, failures: [u64; 2]) -> ArmResult {
    ArmResult {
        pairs: 10,
        score,
        elo: stats::elo_from_score(score),
        elo_lower: 0.0,
        elo_upper: 0.0,
        ptnml: [0; 5],
        failures,
        folder: String::new(),
    }
}

/// A row's verdict with an opponent: arms Ω and F, and the head-to-head.
fn of(w: &ArmResult, f: &ArmResult, h: &ArmResult, pairs: u64, lo: f64, hi: f64) -> Verdict {
    let arms = Arms {
        omniscient: w,
        fair: Some(f),
        head_to_head: h,
    };
    Verdict::of(arms, pairs, lo, hi)
}

#[test]
fn verdicts_follow_the_interval() {
    let a = arm_with(0.6, [0, 0]);
    let v = |lo, hi| of(&a, &a, &a, 10, lo, hi);
    assert_eq!(v(10.0, 90.0), Verdict::Gains);
    assert_eq!(v(-90.0, -10.0), Verdict::Loses);
    assert_eq!(v(-20.0, 30.0), Verdict::NoGain);
    assert_eq!(v(-RESOLUTION, RESOLUTION), Verdict::NoGain);
    // Containing 0 but wide is not "no gain".
    assert_eq!(v(-20.0, 190.0), Verdict::Inconclusive);
    assert_eq!(v(f64::NEG_INFINITY, f64::INFINITY), Verdict::Inconclusive);
    assert_eq!(v(f64::NAN, f64::NAN), Verdict::Inconclusive);
    // An unbounded end does not hide a gain.
    assert_eq!(v(180.0, f64::INFINITY), Verdict::Gains);
    // Arms that played the same games pair by pair: Δ is 0 in every resample, and with
    // enough pairs that zero-width interval is a real "no gain".
    assert_eq!(v(0.0, 0.0), Verdict::NoGain);
    let all = arm_with(1.0, [0, 0]);
    assert_eq!(of(&all, &a, &a, 10, 10.0, 90.0), Verdict::Saturated);
    let broken = arm_with(0.6, [1, 0]);
    assert_eq!(
        of(&all, &a, &broken, 10, 10.0, 90.0),
        Verdict::EngineFailures
    );
}

#[test]
fn one_or_two_pairs_are_inconclusive_not_no_gain() {
    // One pair, drawn in both arms: every resample is that pair, Δ = 0 with a zero-width
    // interval, which used to read "no gain".
    let (lo, hi, k) = paired_delta(&points(&[2]), Some(&points(&[2])), 500, 7);
    assert_eq!((lo, hi, k), (0.0, 0.0, 1));
    let a = arm_with(0.5, [0, 0]);
    assert_eq!(of(&a, &a, &a, k, lo, hi), Verdict::TooFewPairs);
    let (lo, hi, k) = paired_delta(&points(&[3, 2]), Some(&points(&[2, 2])), 500, 7);
    assert_eq!(of(&a, &a, &a, k, lo, hi), Verdict::TooFewPairs);
    assert_eq!(
        of(&a, &a, &a, MIN_PAIRS - 1, 10.0, 90.0),
        Verdict::TooFewPairs
    );
    assert_eq!(
        of(&a, &a, &a, MIN_PAIRS - 1, f64::NEG_INFINITY, f64::INFINITY),
        Verdict::TooFewPairs
    );
    assert_eq!(of(&a, &a, &a, 0, f64::NAN, f64::NAN), Verdict::TooFewPairs);
    // Few pairs at 100 % are few pairs, not a saturated arm.
    let all = arm_with(1.0, [0, 0]);
    assert_eq!(of(&all, &a, &a, 3, 10.0, 90.0), Verdict::TooFewPairs);
    assert!(Verdict::TooFewPairs.text().starts_with("inconclusive"));
}

fn row_of(omniscient: ArmResult, fair: Option<ArmResult>, head_to_head: ArmResult) -> LeakRow {
    let arms = Arms {
        omniscient: &omniscient,
        fair: fair.as_ref(),
        head_to_head: &head_to_head,
    };
    let verdict = Verdict::of(arms, 10, 10.0, 90.0);
    LeakRow {
        engine: "e".into(),
        spec: "e".into(),
        fair,
        omniscient,
        delta: Delta {
            elo: 50.0,
            lower: 10.0,
            upper: 90.0,
            independent_lower: 0.0,
            independent_upper: 100.0,
            pairs: 10,
        },
        head_to_head,
        verdict,
        control: false,
    }
}

#[test]
fn saturation_is_of_an_arm_of_delta_and_names_it() {
    let (a, all, none) = (
        arm_with(0.6, [0, 0]),
        arm_with(1.0, [0, 0]),
        arm_with(0.0, [0, 0]),
    );
    // The head-to-head at 100 % alone used to make the row "saturated"; Δ does not use it.
    let r = row_of(a.clone(), Some(a.clone()), all.clone());
    assert_eq!(r.verdict, Verdict::Gains);
    let note = r.head_to_head_note().expect("a note");
    assert!(
        note.contains("head-to-head (omniscient vs fair) scored 100 %"),
        "{note}"
    );
    // Arm Ω at 100 %, arm F at 0 %: saturated, and the sentence says which arm.
    let r = row_of(all.clone(), Some(a.clone()), a.clone());
    assert_eq!(r.verdict, Verdict::Saturated);
    assert!(r.head_to_head_note().is_none());
    let text = r.verdict_text();
    assert!(
        text.starts_with("saturated: arm Ω (omniscient vs O) scored 100 %,"),
        "{text}"
    );
    let r = row_of(a.clone(), Some(none.clone()), a.clone());
    assert!(
        r.verdict_text()
            .starts_with("saturated: arm F (fair vs O) scored 0 %,"),
        "{}",
        r.verdict_text()
    );
    // Without an opponent arm Ω is the head-to-head: saturated, no separate note.
    let r = row_of(all.clone(), None, all);
    assert_eq!(r.verdict, Verdict::Saturated);
    assert!(r.head_to_head_note().is_none());
    assert!(
        r.verdict_text()
            .starts_with("saturated: arm Ω (omniscient vs its own fair self) scored 100 %,"),
        "{}",
        r.verdict_text()
    );
    // Other verdicts keep their sentence.
    let r = row_of(a.clone(), Some(a.clone()), a);
    assert_eq!(r.verdict_text(), Verdict::Gains.text());
}

#[test]
fn only_common_pairs_are_drawn() {
    let w = points(&[4, 4, 4, 4]);
    let f: BTreeMap<u64, u8> = [(1, 2), (3, 2), (9, 0)].into_iter().collect();
    assert_eq!(paired_delta(&w, Some(&f), 10, 1).2, 2);
    assert!(paired_delta(&BTreeMap::new(), Some(&f), 10, 1).0.is_nan());
}
