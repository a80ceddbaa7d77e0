//! Tests of [`super`].

use super::*;
use crate::stats::SprtModel;
use serde_json::Value;

fn value(b: BlockJson) -> Value {
    serde_json::to_value(b).unwrap()
}

fn example_ptnml() -> Pentanomial {
    Pentanomial {
        ll: 43,
        ld: 61,
        wl: 119,
        dd: 25,
        wd: 55,
        ww: 37,
    }
}

fn sprt02() -> Sprt {
    Sprt {
        elo0: 0.0,
        elo1: 2.0,
        alpha: 0.05,
        beta: 0.05,
        model: SprtModel::Normalized,
    }
}

fn example(sprt: Option<Sprt>) -> BlockInput<'static> {
    BlockInput {
        a: "New",
        b: "Base",
        context: "nodes=20000, 2 threads, seed 42, rules standard",
        ptnml: Some(example_ptnml()),
        wdl: example_ptnml().wdl(),
        sprt,
    }
}

#[test]
fn fastchess_example_text() {
    let want = "\
Results of New vs Base (nodes=20000, 2 threads, seed 42, rules standard):
Elo: -9.20 +/- 20.93 [-30.16, 11.69], nElo: -11.50 +/- 26.11
LOS: 19.41 %, DrawRatio: 42.35 % (pairs 1–1), PairsRatio: 0.88
Games: 680, Wins: 248, Losses: 266, Draws: 166, Points: 331.0 (48.68 %)
Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: 4.76
LLR: -0.14 (4.8%) (-2.94, 2.94) [0.00, 2.00] normalized, alpha 0.05, beta 0.05
";
    assert_eq!(render_block(&example(Some(sprt02()))), want);
}

#[test]
fn without_sprt_there_is_no_llr_line() {
    let text = render_block(&example(None));
    assert_eq!(text.lines().count(), 5);
    assert!(!text.contains("LLR"));
    assert!(text.ends_with("WL/DD Ratio: 4.76\n"));
}

#[test]
fn verdict_lines() {
    let strong = Pentanomial {
        ll: 200,
        ld: 2000,
        wl: 2500,
        dd: 2500,
        wd: 2600,
        ww: 300,
    };
    let input = BlockInput {
        a: "New",
        b: "Base",
        context: "",
        ptnml: Some(strong),
        wdl: strong.wdl(),
        sprt: Some(sprt02()),
    };
    let text = render_block(&input);
    assert!(text.starts_with("Results of New vs Base:\n"), "{text}");
    assert!(text.ends_with("SPRT: H1 accepted\n"), "{text}");
    let weak = Pentanomial {
        ll: strong.ww,
        ld: strong.wd,
        wd: strong.ld,
        ww: strong.ll,
        ..strong
    };
    let text = render_block(&BlockInput {
        ptnml: Some(weak),
        wdl: weak.wdl(),
        ..input
    });
    assert!(text.ends_with("SPRT: H0 accepted\n"), "{text}");
    let v = value(block_json(&BlockInput {
        ptnml: Some(weak),
        wdl: weak.wdl(),
        ..input
    }));
    assert_eq!(v["verdict"], "H0");
}

#[test]
fn trinomial_block() {
    let w = Wdl {
        wins: 136,
        draws: 111,
        losses: 96,
    };
    let input = BlockInput {
        a: "A",
        b: "B",
        context: "",
        ptnml: None,
        wdl: w,
        sprt: Some(Sprt {
            elo0: 0.0,
            elo1: 5.0,
            model: SprtModel::Logistic,
            ..sprt02()
        }),
    };
    let text = render_block(&input);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Results of A vs B:");
    assert_eq!(
        lines[1],
        "Elo: 40.70 +/- 30.43 [10.59, 71.44], nElo: 49.77 +/- 36.77"
    );
    assert_eq!(lines[2], "LOS: 99.60 %, DrawRatio: 32.36 %");
    assert_eq!(
        lines[3],
        "Games: 343, Wins: 136, Losses: 96, Draws: 111, Points: 191.5 (55.83 %)"
    );
    assert!(lines[4].starts_with("LLR: "), "{text}");
    assert!(
        lines[4].ends_with(" (-2.94, 2.94) [0.00, 5.00] logistic, alpha 0.05, beta 0.05"),
        "{text}"
    );
    assert!(!text.contains("Ptnml"));
    assert!(!text.contains("PairsRatio"));
    assert_eq!(render_block_unsplit(&input), text);
    let v = value(block_json(&input));
    assert_eq!(v["statistic"], "trinomial");
    assert_eq!(v["ptnml"], Value::Null);
    assert_eq!(v["pairs_ratio"], Value::Null);
    assert_eq!(v["wins"], 136);
    assert_eq!(v["model"], "logistic");
}

#[test]
fn unsplit_pentanomial() {
    let p = Pentanomial {
        ll: 43,
        ld: 61,
        wl: 0,
        dd: 144,
        wd: 55,
        ww: 37,
    };
    let input = BlockInput {
        a: "New",
        b: "Base",
        context: "",
        ptnml: Some(p),
        wdl: Wdl::default(),
        sprt: None,
    };
    let text = render_block_unsplit(&input);
    let want = "\
Results of New vs Base:
Elo: -9.20 +/- 20.93 [-30.16, 11.69], nElo: -11.50 +/- 26.11
LOS: 19.41 %, DrawRatio: 42.35 % (pairs 1–1), PairsRatio: 0.88
Games: 680, Wins: n/a, Losses: n/a, Draws: n/a, Points: 331.0 (48.68 %)
Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: n/a
";
    assert_eq!(text, want);
    let v = value(block_json_unsplit(&input));
    assert_eq!(v["wins"], Value::Null);
    assert_eq!(v["wl_dd_ratio"], Value::Null);
    assert_eq!(v["ptnml_dd"], Value::Null);
    assert_eq!(v["games"], 680);
    assert_eq!(v["points"], 331.0);
}

#[test]
fn wl_dd_ratio_na_when_dd_is_zero() {
    let p = Pentanomial {
        ll: 1,
        ld: 2,
        wl: 3,
        dd: 0,
        wd: 2,
        ww: 1,
    };
    let text = render_block(&BlockInput {
        a: "A",
        b: "B",
        context: "",
        ptnml: Some(p),
        wdl: p.wdl(),
        sprt: None,
    });
    assert!(text.contains("WL/DD Ratio: n/a\n"), "{text}");
}

#[test]
fn example_json() {
    let v = value(block_json(&example(Some(sprt02()))));
    let f = |k: &str| v[k].as_f64().unwrap_or_else(|| panic!("{k}: {}", v[k]));
    let near = |k: &str, want: f64, tol: f64| {
        assert!((f(k) - want).abs() < tol, "{k}: {} vs {want}", f(k));
    };
    near("elo", -9.20, 0.005);
    near("elo_error", 20.93, 0.005);
    near("elo_lower", -30.16, 0.005);
    near("elo_upper", 11.69, 0.005);
    near("nelo", -11.50, 0.005);
    near("nelo_error", 26.11, 0.005);
    near("los", 0.1941, 0.00005);
    near("draw_ratio", 144.0 / 340.0, 1e-12);
    near("pairs_ratio", 92.0 / 104.0, 1e-12);
    near("wl_dd_ratio", 4.76, 1e-12);
    near("score", 331.0 / 680.0, 1e-12);
    near("llr", -0.14, 0.005);
    assert_eq!(v["games"], 680);
    assert_eq!(v["wins"], 248);
    assert_eq!(v["losses"], 266);
    assert_eq!(v["draws"], 166);
    assert_eq!(v["points"], 331.0);
    assert_eq!(v["pairs"], 340);
    assert_eq!(v["ptnml"], serde_json::json!([43, 61, 144, 55, 37]));
    assert_eq!(v["ptnml_wl"], 119);
    assert_eq!(v["ptnml_dd"], 25);
    assert_eq!(v["statistic"], "pentanomial");
    assert_eq!(v["elo0"], 0.0);
    assert_eq!(v["elo1"], 2.0);
    assert_eq!(v["model"], "normalized");
    assert_eq!(v["verdict"], Value::Null);
    let b = v["bounds"].as_array().expect("bounds array");
    assert!((b[0].as_f64().unwrap() + 2.944).abs() < 0.0005);
    assert!((b[1].as_f64().unwrap() - 2.944).abs() < 0.0005);
    let none = value(block_json(&example(None)));
    for k in [
        "llr",
        "bounds",
        "llr_progress",
        "elo0",
        "elo1",
        "alpha",
        "beta",
        "model",
        "verdict",
    ] {
        assert_eq!(none[k], Value::Null, "{k}");
    }
}

#[test]
fn infinities_print_and_serialize() {
    let w = Wdl {
        wins: 4,
        draws: 0,
        losses: 0,
    };
    let input = BlockInput {
        a: "A",
        b: "B",
        context: "",
        ptnml: None,
        wdl: w,
        sprt: None,
    };
    let text = render_block(&input);
    assert!(
        text.contains("Elo: inf (interval undefined: the game scores have zero variance (every game 1–0)), nElo: undefined (zero variance)\n"),
        "{text}"
    );
    assert!(text.contains("LOS: n/a"), "{text}");
    let v = value(block_json(&input));
    assert_eq!(v["elo"], "inf");
    assert_eq!(v["elo_error"], Value::Null);
    let spread = value(block_json(&BlockInput {
        wdl: Wdl {
            wins: 4,
            draws: 0,
            losses: 1,
        },
        ..input
    }));
    assert_eq!(spread["elo_upper"], "inf", "s+ clamped at 1");
    assert_eq!(spread["interval_undefined"], Value::Null);
    let lost = value(block_json(&BlockInput {
        wdl: Wdl {
            wins: 0,
            draws: 0,
            losses: 4,
        },
        ..input
    }));
    assert_eq!(lost["elo"], "-inf");
    assert_eq!(lost["nelo"], Value::Null, "nElo divides by a zero spread");
}

#[test]
fn empty_input_has_no_nan() {
    for ptnml in [None, Some(Pentanomial::default())] {
        let input = BlockInput {
            a: "A",
            b: "B",
            context: "",
            ptnml,
            wdl: Wdl::default(),
            sprt: Some(sprt02()),
        };
        let text = render_block(&input);
        assert!(!text.to_lowercase().contains("nan"), "{text}");
        assert!(
            text.contains("Elo: 0.00 (interval undefined: no games were played)"),
            "{text}"
        );
        assert!(text.contains("LOS: n/a"), "{text}");
        assert!(text.contains("DrawRatio: n/a"), "{text}");
        let v = value(block_json(&input));
        assert!(!v.to_string().contains("NaN"));
        assert_eq!(v["draw_ratio"], Value::Null);
    }
}

#[test]
fn a_zero_width_interval_is_printed_as_undefined_with_its_reason() {
    // 3–3–0 with every pair split: six games, three pairs of 1–1. The formula's σ is 0, so
    // it would print `Elo: 0.00 +/- 0.00 [0.00, 0.00]` and claim certainty it does not have.
    let split = Pentanomial {
        wl: 3,
        ..Pentanomial::default()
    };
    let input = BlockInput {
        a: "A",
        b: "B",
        context: "",
        ptnml: Some(split),
        wdl: split.wdl(),
        sprt: None,
    };
    let text = render_block(&input);
    assert!(
        text.contains(
            "Elo: 0.00 (interval undefined: the pair scores have zero variance (every pair 1–1)), nElo: undefined (zero variance)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("LOS: n/a, DrawRatio: 100.00 % (pairs 1–1)"),
        "{text}"
    );
    assert!(
        text.contains("Draws: 0"),
        "no game drawn, every pair 1–1: {text}"
    );
    let v = value(block_json(&input));
    for k in [
        "elo_error",
        "elo_lower",
        "elo_upper",
        "los",
        "nelo",
        "nelo_error",
    ] {
        assert_eq!(v[k], Value::Null, "{k}");
    }
    assert_eq!(
        v["interval_undefined"],
        "the pair scores have zero variance (every pair 1–1)"
    );
    let one = Pentanomial {
        ww: 1,
        ..Pentanomial::default()
    };
    let text = render_block(&BlockInput {
        ptnml: Some(one),
        wdl: one.wdl(),
        ..input
    });
    assert!(
        text.contains("(interval undefined: one pair is too few (a single score has no variance))"),
        "{text}"
    );
    assert!(text.contains("LOS: n/a"), "one pair claims no LOS: {text}");
    assert!(
        text.contains("nElo: undefined (zero variance)\n"),
        "one pair has no nElo error bar: {text}"
    );
    let three_one = Pentanomial {
        wd: 3,
        ..Pentanomial::default()
    };
    let text = render_block_unsplit(&BlockInput {
        ptnml: Some(three_one),
        wdl: three_one.wdl(),
        ..input
    });
    assert!(
        text.contains("Elo: 190.85 (interval undefined: the pair scores have zero variance (every pair 1.5–0.5)), nElo: undefined (zero variance)\n"),
        "a finite Elo beside an infinite nElo: {text}"
    );
    let draws = Wdl {
        wins: 0,
        draws: 5,
        losses: 0,
    };
    let text = render_block(&BlockInput {
        ptnml: None,
        wdl: draws,
        ..input
    });
    assert!(text.contains("(every game 0.5–0.5)"), "{text}");
}

#[test]
fn a_normal_block_keeps_its_interval() {
    let v = value(block_json(&BlockInput {
        a: "A",
        b: "B",
        context: "",
        ptnml: Some(example_ptnml()),
        wdl: example_ptnml().wdl(),
        sprt: None,
    }));
    assert_eq!(v["interval_undefined"], Value::Null);
    assert!(v["elo_lower"].is_number() && v["los"].is_number());
    assert!(v["nelo"].is_number() && v["nelo_error"].is_number());
}
