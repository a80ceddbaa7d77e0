//! The formulas against hand-computed values, Δ's stream, and a batch's update.

use super::*;

fn param(c_end: f64, r_end: f64) -> Param {
    Param {
        name: "x".into(),
        kind: Kind::Int,
        start: 50.0,
        min: 0.0,
        max: 100.0,
        c_end,
        r_end,
    }
}

fn settings(params: Vec<Param>, n: u64, batch: u64) -> Settings {
    Settings {
        engine: "peak:y=-2.5".into(),
        uci: false,
        params,
        iterations: n,
        batch,
        a_ratio: 0.1,
        seed: 7,
        games: "g".into(),
    }
}

#[test]
fn gains_match_hand_computed_values() {
    // N = 1000, A = 100: c_0 = 4·1000^0.101 = 8.0364, a_0 = 0.002·16·(1100/101)^0.602 = 0.13473.
    let s = Schedule {
        n: 1000,
        a_big: 100.0,
    };
    let p = param(4.0, 0.002);
    let close = |x: f64, y: f64| (x - y).abs() < 1e-3 * y.abs();
    assert!(close(s.c_k(&p, 0), 4.0 * 1000f64.powf(0.101)));
    assert!(close(s.c_k(&p, 0), 8.0364), "{}", s.c_k(&p, 0));
    assert!(close(s.a_k(&p, 0), 0.032 * (1100f64 / 101.0).powf(0.602)));
    assert!(close(s.a_k(&p, 0), 0.134_73), "{}", s.a_k(&p, 0));
    // At the last iteration they reach c_end and a_end = r_end·c_end².
    assert!(close(s.c_k(&p, 999), 4.0));
    assert!(close(s.a_k(&p, 999), 0.032));
}

#[test]
fn delta_is_a_stream_of_signs_per_iteration() {
    let a = delta(1, 5, 10);
    assert_eq!(a, delta(1, 5, 10));
    assert!(a.iter().all(|d| *d == 1.0 || *d == -1.0));
    let all: Vec<Vec<f64>> = (0..64).map(|k| delta(1, k, 4)).collect();
    assert!(all.iter().any(|d| d != &all[0]), "Δ varies with k");
    assert_ne!(
        (0..64).map(|k| delta(1, k, 4)).collect::<Vec<_>>(),
        (0..64).map(|k| delta(2, k, 4)).collect::<Vec<_>>()
    );
}

#[test]
fn a_batch_moves_theta_along_delta_by_the_result() {
    let s = settings(vec![param(4.0, 0.002)], 1000, 2);
    let mut r = Record::new(s.clone());
    let won = Wdl {
        wins: 2,
        draws: 0,
        losses: 0,
    };
    let drawn = Wdl {
        wins: 0,
        draws: 2,
        losses: 0,
    };
    r.apply_batch(&[won, drawn]);
    let sch = s.schedule();
    let p = &s.params[0];
    let want = 50.0 + sch.a_k(p, 0) / sch.c_k(p, 0) * 2.0 * delta(7, 0, 1)[0];
    assert_eq!(r.exact_theta().unwrap(), vec![want]);
    assert_eq!(r.iteration, 2);
    assert_eq!(r.wdl.games(), 4);
    assert_eq!(r.history.len(), 1);
    assert_eq!(r.next_batch(), 2..4);
    // θ is clamped to its range.
    let mut edge = Record::new(settings(vec![param(4.0, 100.0)], 10, 1));
    for _ in 0..10 {
        edge.apply_batch(&[won]);
    }
    assert!(edge.theta.iter().all(|t| (0.0..=100.0).contains(t)));
    assert!(edge.next_batch().is_empty());
}

#[test]
fn perturbed_values_are_clamped_and_put_into_the_spec() {
    let s = settings(vec![param(400.0, 0.002)], 10, 1);
    let plus = perturbed(&s, &[50.0], 0, 1.0);
    let minus = perturbed(&s, &[50.0], 0, -1.0);
    let mut both = [plus[0], minus[0]];
    both.sort_by(f64::total_cmp);
    assert_eq!(both, [0.0, 100.0]);
    assert_eq!(spec_with(&s, &[12.6]), "peak:y=-2.5,x=13");
    let mut y = s.clone();
    y.params[0].name = "y".into();
    y.params[0].kind = Kind::Float;
    assert_eq!(spec_with(&y, &[-1.25]), "peak:y=-1.25");
}

#[test]
fn the_record_reads_back_exactly() {
    let mut r = Record::new(settings(vec![param(4.0, 0.002)], 100, 8));
    r.apply_batch(&[Wdl {
        wins: 1,
        draws: 1,
        losses: 0,
    }]);
    let text = serde_json::to_string(&r).unwrap();
    let back: Record = serde_json::from_str(&text).unwrap();
    assert_eq!(back.exact_theta(), r.exact_theta());
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}

#[test]
fn the_record_of_20000_games_of_10_parameters_is_small() {
    let params: Vec<Param> = (0..10)
        .map(|i| Param {
            name: format!("parameter_{i}"),
            ..param(4.0, 0.002)
        })
        .collect();
    let mut r = Record::new(settings(params, 10_000, 8));
    // θ+ wins every pair: θ moves and its values take all their decimals.
    let won = Wdl {
        wins: 2,
        draws: 0,
        losses: 0,
    };
    while !r.next_batch().is_empty() {
        let n = r.next_batch().count();
        r.apply_batch(&vec![won; n]);
    }
    assert_eq!(r.wdl.games(), 20_000);
    let bytes = serde_json::to_string_pretty(&r).unwrap().len();
    eprintln!("spsa.json of 20000 games of 10 parameters: {bytes} bytes");
    assert!(bytes < 1 << 20, "{bytes} bytes");
}

#[test]
fn an_engines_key_table_makes_a_parameters_file_that_reads_back() {
    let keys = super::EngineKeys::of("alphabeta").unwrap();
    assert!(
        keys.params
            .iter()
            .any(|p| p.name == "rfp_margin" && p.start == 150.0)
    );
    let back = super::params::parse(&keys.params_text(), "table").unwrap();
    assert_eq!(back, keys.params);
    // Integer keys move by at least 1 at the end, or θ+ and θ− would round to one value.
    assert!(
        keys.params
            .iter()
            .all(|p| p.kind == Kind::Float || p.c_end >= 1.0)
    );
    for refused in ["greedy", "nosuch"] {
        let e = super::EngineKeys::of(refused).unwrap_err().to_string();
        assert!(
            e.contains("has no tunable keys") && e.contains("alphabeta"),
            "{e}"
        );
    }
}
