//! Tests of [`super`].

use super::*;

fn duel(a: usize, b: usize, points_a: f64, games: f64) -> Duel {
    Duel {
        a,
        b,
        points_a,
        games,
    }
}

fn assert_close(x: &[f64], y: &[f64], tol: f64) {
    assert_eq!(x.len(), y.len(), "{x:?} vs {y:?}");
    for (a, b) in x.iter().zip(y) {
        let same = (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= tol;
        assert!(same, "{x:?} vs {y:?} (tolerance {tol})");
    }
}

/// Expected points of every engine at ratings `elo`, from the duels.
fn expected_points(n: usize, duels: &[Duel], elo: &[f64]) -> Vec<f64> {
    let mut e = vec![0.0; n];
    for d in duels {
        let p = 1.0 / (1.0 + 10f64.powf((elo[d.b] - elo[d.a]) / 400.0));
        e[d.a] += d.games * p;
        e[d.b] += d.games * (1.0 - p);
    }
    e
}

fn pairing(a: usize, b: usize, halves: impl IntoIterator<Item = (u64, u8)>) -> PairingPairs {
    PairingPairs {
        a,
        b,
        half_points: halves.into_iter().collect(),
    }
}

/// A pairing whose pair p has half-points `pattern[p % len]`, p in 0..pairs.
fn patterned(a: usize, b: usize, pairs: u64, pattern: &[u8]) -> PairingPairs {
    pairing(
        a,
        b,
        (0..pairs).map(|p| (p, pattern[p as usize % pattern.len()])),
    )
}

fn round_robin_3() -> Vec<Duel> {
    vec![
        duel(0, 1, 60.0, 100.0),
        duel(1, 2, 55.0, 100.0),
        duel(0, 2, 70.0, 100.0),
    ]
}

#[test]
fn two_engines_sixty_percent_is_70_44_elo() {
    let elo = fit(2, &[duel(0, 1, 60.0, 100.0)], 1, 0.0);
    let diff = elo[0] - elo[1];
    assert_eq!(format!("{diff:.2}"), "70.44");
    let closed_form = -400.0 * (1.0 / 0.6 - 1.0f64).log10();
    assert!((diff - closed_form).abs() < 1e-9, "{diff} vs {closed_form}");
    assert_eq!(elo[1], 0.0);
}

#[test]
fn round_robin_of_three_matches_reference_and_score_equations() {
    let duels = round_robin_3();
    let elo = fit(3, &duels, 0, 0.0);
    let printed: Vec<String> = elo.iter().map(|r| format!("{r:.2}")).collect();
    assert_eq!(printed, ["0.00", "-84.04", "-132.03"]);
    let expected = expected_points(3, &duels, &elo);
    assert_close(&expected, &[130.0, 95.0, 75.0], 1e-6);
}

#[test]
fn mm_fallback_agrees_with_newton() {
    let duels = round_robin_3();
    let tally = Tally::new(3, &duels);
    let local_fit = |use_mm: bool| {
        let local = Local {
            m: 3,
            fixed: 1,
            points: tally.points.clone(),
            games: tally.games.clone(),
        };
        if use_mm {
            mm(&local)
        } else {
            newton(&local).expect("newton converges")
        }
    };
    let newton_theta = local_fit(false);
    let mm_theta = local_fit(true);
    let to_elo = |t: &[f64]| t.iter().map(|x| x * ELO_PER_NAT).collect::<Vec<_>>();
    assert_close(&to_elo(&newton_theta), &to_elo(&mm_theta), 1e-6);
    assert_eq!(newton_theta[1], 0.0);
}

#[test]
fn fit_converges_on_lopsided_and_large_data() {
    // A long chain with near-separation and large counts: still the exact MLE.
    let duels = vec![
        duel(0, 1, 9_999.5, 10_000.0),
        duel(1, 2, 9_990.0, 10_000.0),
        duel(2, 3, 5_000.0, 10_000.0),
        duel(3, 4, 1.0, 10_000.0),
        duel(0, 4, 123_456.0, 200_000.0),
    ];
    let elo = fit(5, &duels, 2, 0.0);
    assert!(elo.iter().all(|r| r.is_finite()), "{elo:?}");
    let expected = expected_points(5, &duels, &elo);
    let mut points = vec![0.0; 5];
    for d in &duels {
        points[d.a] += d.points_a;
        points[d.b] += d.games - d.points_a;
    }
    assert_close(&expected, &points, 1e-6);
}

#[test]
fn duel_order_and_splitting_do_not_change_the_fit() {
    let base = fit(3, &round_robin_3(), 0, 0.0);
    let swapped = [
        duel(1, 0, 40.0, 100.0),
        duel(2, 1, 45.0, 100.0),
        duel(0, 2, 70.0, 100.0),
    ];
    assert_close(&fit(3, &swapped, 0, 0.0), &base, 1e-9);
    let split = [
        duel(0, 1, 25.0, 40.0),
        duel(1, 0, 25.0, 60.0),
        duel(1, 2, 55.0, 100.0),
        duel(2, 0, 10.0, 30.0),
        duel(0, 2, 50.0, 70.0),
        duel(2, 2, 3.0, 7.0), // an engine against itself: ignored
        duel(1, 2, 0.0, 0.0), // no games: ignored
    ];
    assert_close(&fit(3, &split, 0, 0.0), &base, 1e-9);
}

#[test]
fn separated_engines_are_infinite_or_unrated() {
    // 0, 1, 2: the round robin. 3 lost every game (to 0 and 1); 4 won every game (against 2);
    // 5 played nobody; 6 and 7 played only each other; 8 lost everything to 3 (below −∞ too).
    let mut duels = round_robin_3();
    duels.extend([
        duel(3, 0, 0.0, 50.0),
        duel(1, 3, 20.0, 20.0),
        duel(4, 2, 30.0, 30.0),
        duel(6, 7, 12.0, 20.0),
        duel(8, 3, 0.0, 10.0),
    ]);
    let elo = fit(9, &duels, 0, 0.0);
    let alone = fit(3, &round_robin_3(), 0, 0.0);
    assert_close(&elo[..3], &alone, 1e-9);
    assert_eq!(elo[3], f64::NEG_INFINITY);
    assert_eq!(elo[4], f64::INFINITY);
    assert!(elo[5].is_nan() && elo[6].is_nan() && elo[7].is_nan());
    assert_eq!(elo[8], f64::NEG_INFINITY);
    assert_eq!(
        components(9, &duels),
        [0, 0, 0, 3, 4, 5, 6, 6, 8],
        "component ids are the smallest member"
    );

    // The anchor in a separated group: the others are rated relative to it.
    let elo = fit(9, &duels, 3, 0.0);
    assert_eq!(elo[3], 0.0);
    assert!(elo[..3].iter().all(|&r| r == f64::INFINITY), "{elo:?}");
    assert_eq!(elo[4], f64::INFINITY);
    assert_eq!(elo[8], f64::NEG_INFINITY);
    assert!(elo[5].is_nan() && elo[6].is_nan());

    // An engine without games is NaN unless it is the anchor.
    let elo = fit(9, &duels, 5, 100.0);
    assert_eq!(elo[5], 100.0);
    assert!(elo.iter().enumerate().all(|(i, r)| i == 5 || r.is_nan()));

    // One draw is enough to join the component: finite again.
    duels.push(duel(3, 1, 0.5, 1.0));
    let elo = fit(9, &duels, 0, 0.0);
    assert!(elo[3].is_finite() && elo[3] < elo[1], "{elo:?}");
    assert_eq!(elo[8], f64::NEG_INFINITY);
}

#[test]
fn anchor_elo_shifts_every_rating() {
    let base = fit(3, &round_robin_3(), 0, 0.0);
    let shifted = fit(3, &round_robin_3(), 0, 1500.0);
    let expected: Vec<f64> = base.iter().map(|r| r + 1500.0).collect();
    assert_close(&shifted, &expected, 1e-9);
    // Another anchor: the same differences.
    let other = fit(3, &round_robin_3(), 2, 0.0);
    let expected: Vec<f64> = base.iter().map(|r| r - base[2]).collect();
    assert_close(&other, &expected, 1e-9);

    let pairings = three_engine_pairings();
    let a = rate(3, &pairings, 0, 0.0, 200, 7);
    let b = rate(3, &pairings, 0, 2000.0, 200, 7);
    for (x, y) in [(&a.elo, &b.elo), (&a.lower, &b.lower), (&a.upper, &b.upper)] {
        let expected: Vec<f64> = x.iter().map(|r| r + 2000.0).collect();
        assert_close(y, &expected, 1e-6);
    }
    assert_eq!(a.order, b.order);
    assert_eq!(a.cfs_next, b.cfs_next);
}

/// Engines 1 and 2 have the same results, pair by pair, against 0 and 3, and draw each
/// other: in every resample their ratings are equal.
fn tied_pairings() -> Vec<PairingPairs> {
    vec![
        patterned(0, 1, 8, &[2, 3, 1, 4, 2, 3, 3]),
        patterned(0, 2, 8, &[2, 3, 1, 4, 2, 3, 3]),
        patterned(1, 2, 8, &[2]),
        patterned(3, 1, 8, &[1, 0, 2, 1, 3]),
        patterned(3, 2, 8, &[1, 0, 2, 1, 3]),
        patterned(0, 3, 8, &[4, 3, 4, 2, 3, 1, 4, 4]),
    ]
}

#[test]
fn cfs_counts_ties_as_half_whatever_the_anchor() {
    // Anchored at 1 or 2, the fit put the other 3e-14 Elo off, and CFS of 1 over 2 came out
    // 0.541 or 0.540 (and the order 2 before 1) instead of 0.5.
    let pairings = tied_pairings();
    let by_anchor: Vec<Ratings> = (0..4)
        .map(|anchor| rate(4, &pairings, anchor, 0.0, 2000, 11))
        .collect();
    for r in &by_anchor {
        assert_eq!(r.order, [0, 1, 2, 3], "ties by index");
        assert_eq!(r.cfs_next[1], 0.5, "1 and 2 tie in every resample");
        assert_eq!(r.cfs_next, by_anchor[0].cfs_next);
    }
    // Ties by chance, in some resamples only: a small random tournament of five engines.
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let pairings: Vec<PairingPairs> = round_robin_pairs(5)
        .into_iter()
        .map(|(a, b)| {
            let halves: Vec<(u64, u8)> = (0..4)
                .map(|p| (p, 1 + uniform_below(&mut rng, 3) as u8))
                .collect();
            pairing(a, b, halves)
        })
        .collect();
    let first = rate(5, &pairings, 0, 0.0, 2000, 3);
    for anchor in 1..5 {
        let r = rate(5, &pairings, anchor, 100.0, 2000, 3);
        assert_eq!((&r.order, &r.cfs_next), (&first.order, &first.cfs_next));
    }
}

/// Every pairing (i, j), i < j, of n engines.
fn round_robin_pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

#[test]
fn merge_ties_joins_only_noise() {
    let key = |level: f64, within: f64| Key { level, within };
    let mut keys = [
        key(3.0, 0.5),
        key(3.0, 0.5 + 1e-15),
        key(3.0, 0.5 - 1e-15),
        key(3.0, 0.5 + 1e-6),
        key(2.0, 0.5),
        key(3.0, -0.7),
    ];
    merge_ties(&mut keys);
    let within: Vec<f64> = keys.iter().map(|k| k.within).collect();
    assert_eq!(
        within,
        [0.5 - 1e-15, 0.5 - 1e-15, 0.5 - 1e-15, 0.5 + 1e-6, 0.5, -0.7]
    );
}

#[test]
fn duels_aggregate_pairs() {
    let p = [pairing(2, 0, [(0, 4), (3, 1), (9, 2)]), pairing(1, 2, [])];
    assert_eq!(
        duels(&p),
        [duel(2, 0, 3.5, 6.0), duel(1, 2, 0.0, 0.0)],
        "points = half-points / 2, 2 games per pair"
    );
}

#[test]
fn ranking_orders_separated_groups_by_their_own_results() {
    // Engine 0 lost every game; 3 > 1 > 2 among themselves; 4 has no games. Anchored at the
    // loser, the others are all +inf, yet they rank by their results against each other,
    // above the loser; the engine without games comes last.
    let d = |a, b, points_a| Duel {
        a,
        b,
        points_a,
        games: 100.0,
    };
    let duels = [
        d(0, 1, 0.0),
        d(0, 2, 0.0),
        d(0, 3, 0.0),
        d(3, 1, 70.0),
        d(1, 2, 65.0),
        d(3, 2, 80.0),
    ];
    let (elo, keys) = fit_with_keys(5, &duels, 0, 0.0);
    assert_eq!(elo[0], 0.0);
    assert!(elo[1..4].iter().all(|&e| e == f64::INFINITY), "{elo:?}");
    assert!(elo[4].is_nan());
    assert_eq!(ranking(&keys), [3, 1, 2, 0, 4]);
    // Anchored inside the group, the same order with finite ratings.
    let (elo, keys) = fit_with_keys(5, &duels, 1, 0.0);
    assert!(elo[3] > 0.0 && elo[2] < 0.0 && elo[0] == f64::NEG_INFINITY);
    assert_eq!(ranking(&keys), [3, 1, 2, 0, 4]);
}

/// 0 is clearly stronger; 1 and 2 are identical in strength and their data are symmetric:
/// swapping 1 and 2 and mapping pair index p to one with p % 5 replaced by 4 − p % 5 gives the
/// same data back, so the bootstrap distribution of r1 − r2 is symmetric about 0.
fn three_engine_pairings() -> Vec<PairingPairs> {
    let strong = [2, 3, 4, 3, 4];
    let mut mirrored = strong;
    mirrored.reverse();
    vec![
        patterned(0, 1, 1000, &strong),
        patterned(0, 2, 1000, &mirrored),
        patterned(1, 2, 1000, &[0, 1, 2, 3, 4]),
    ]
}

#[test]
fn bootstrap_is_seeded_ordered_and_gives_cfs() {
    let pairings = three_engine_pairings();
    let r = rate(3, &pairings, 0, 0.0, 1000, 42);
    assert_eq!(r, rate(3, &pairings, 0, 0.0, 1000, 42), "same seed");
    let other = rate(3, &pairings, 0, 0.0, 1000, 43);
    assert_eq!(other.elo, r.elo);
    assert_ne!(other.lower, r.lower, "another seed, other bounds");
    assert_ne!(other.upper, r.upper, "another seed, other bounds");

    assert_eq!(r.resamples, 1000);
    assert_eq!(r.elo, fit(3, &duels(&pairings), 0, 0.0));
    assert_eq!(r.elo[1], r.elo[2], "symmetric data, tied ratings");
    assert_eq!(r.order, [0, 1, 2]);
    assert_eq!((r.lower[0], r.upper[0]), (0.0, 0.0), "the anchor's bounds");
    for i in 1..3 {
        assert!(
            r.lower[i] < r.elo[i] && r.elo[i] < r.upper[i],
            "engine {i}: {} {} {}",
            r.lower[i],
            r.elo[i],
            r.upper[i]
        );
    }
    assert_eq!(r.cfs_next.len(), 2);
    assert!(r.cfs_next[0] > 0.99, "{:?}", r.cfs_next);
    assert!((r.cfs_next[1] - 0.5).abs() < 0.06, "{:?}", r.cfs_next);
}

#[test]
fn bootstrap_interval_matches_normal_approximation() {
    // Seeded pentanomial data for A (0) against B (1).
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let cumulative = [5, 25, 65, 90, 100]; // P = 5 %, 20 %, 40 %, 25 %, 10 %
    let pairs = 4000u64;
    let halves: Vec<(u64, u8)> = (0..pairs)
        .map(|p| {
            let u = uniform_below(&mut rng, 100);
            (p, cumulative.iter().position(|&c| u < c).unwrap() as u8)
        })
        .collect();
    let pairings = [pairing(0, 1, halves.iter().copied())];
    let r = rate(2, &pairings, 0, 0.0, 2000, 5);

    // Reference: the delta method on the mean pair score s̄ (A's score per game).
    let scores: Vec<f64> = halves.iter().map(|&(_, h)| f64::from(h) / 4.0).collect();
    let k = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / k;
    let variance = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (k - 1.0);
    let sd_mean = (variance / k).sqrt();
    let slope = 400.0 / (std::f64::consts::LN_10 * mean * (1.0 - mean));
    let reference_width = 2.0 * 1.959964 * sd_mean * slope;
    let reference_elo = -400.0 * (1.0 / mean - 1.0).log10();

    assert!((r.elo[0] - r.elo[1] - reference_elo).abs() < 1e-9);
    let width = r.upper[1] - r.lower[1];
    assert!(
        (width / reference_width - 1.0).abs() < 0.15,
        "bootstrap width {width} vs normal {reference_width}"
    );
    assert!(r.lower[1] <= r.elo[1] && r.elo[1] <= r.upper[1]);
    assert!(r.cfs_next[0] > 0.99, "{:?}", r.cfs_next);
}

#[test]
fn a_resample_draws_the_same_index_across_pairings() {
    // Pairings with overlapping but different pair indices; one resample, replayed by hand.
    let pairings = [
        pairing(0, 1, (0..10).map(|p| (p, (p % 5) as u8))),
        pairing(1, 2, (5..15).map(|p| (p, ((p * 3) % 5) as u8))),
        pairing(0, 2, [(2, 3), (20, 1), (21, 4), (22, 2)]),
    ];
    let keys: Vec<u64> = pairings
        .iter()
        .flat_map(|p| p.half_points.keys().copied())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(keys.len(), 18);
    let seed = 99;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut by_hand: Vec<Duel> = pairings.iter().map(|p| duel(p.a, p.b, 0.0, 0.0)).collect();
    for _ in 0..keys.len() {
        let key = keys[uniform_below(&mut rng, keys.len() as u64) as usize];
        for (d, p) in by_hand.iter_mut().zip(&pairings) {
            if let Some(&h) = p.half_points.get(&key) {
                d.points_a += f64::from(h) / 2.0;
                d.games += 2.0;
            }
        }
    }
    let expected = fit(3, &by_hand, 1, 0.0);
    let r = rate(3, &pairings, 1, 0.0, 1, seed);
    assert_close(&r.lower, &expected, 0.0);
    assert_close(&r.upper, &expected, 0.0);
    assert_close(&r.elo, &fit(3, &duels(&pairings), 1, 0.0), 0.0);
}

#[test]
fn bootstrap_with_separation_and_unrated_engines() {
    // 2 and 4 lost every pair to 0 (tied at −∞ in every resample); 3 never played.
    let pairings = [
        patterned(0, 1, 200, &[1, 2, 3, 2]),
        patterned(0, 2, 200, &[4]),
        patterned(0, 4, 200, &[4]),
    ];
    let r = rate(5, &pairings, 0, 0.0, 100, 3);
    for i in [2, 4] {
        assert_eq!(r.elo[i], f64::NEG_INFINITY);
        assert_eq!(
            (r.lower[i], r.upper[i]),
            (f64::NEG_INFINITY, f64::NEG_INFINITY)
        );
    }
    assert!(r.elo[3].is_nan() && r.lower[3].is_nan() && r.upper[3].is_nan());
    assert_eq!(r.order, [0, 1, 2, 4, 3]);
    assert_eq!(r.cfs_next[1], 1.0, "finite over −∞");
    assert_eq!(r.cfs_next[2], 0.5, "a tie counts half");
    assert_eq!(
        r.cfs_next[3], 1.0,
        "an engine with games ranks above one without"
    );
}

#[test]
fn degenerate_sizes() {
    assert!(fit(0, &[], 0, 0.0).is_empty());
    let r = rate(0, &[], 0, 0.0, 10, 1);
    assert!(r.elo.is_empty() && r.order.is_empty() && r.cfs_next.is_empty());
    let r = rate(1, &[], 0, 25.0, 10, 1);
    assert_eq!(
        (r.elo, r.lower, r.upper),
        (vec![25.0], vec![25.0], vec![25.0])
    );
    assert!(r.cfs_next.is_empty());
    let r = rate(2, &[], 0, 0.0, 0, 1);
    assert!(r.elo[1].is_nan() && r.lower[1].is_nan());
    assert!(r.cfs_next[0].is_nan());
}
