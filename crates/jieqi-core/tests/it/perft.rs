//! Perft against data files: published Xiangqi numbers (tests/perft/xiangqi.perft) and hand-derived
//! Jieqi numbers (tests/perft/jieqi.perft).
//!
//! Counts above `JIEQI_PERFT_MAX_NODES` (default 20,000,000) are skipped here to keep the suite
//! fast; `scripts/perft-deep.sh` checks the deep ones with the release binary.
//!
//! Hand derivations for tests/perft/jieqi.perft (standard rules):
//! - standard-start, depth 1: 43 hidden-piece moves (a0/i0 2 each, b0/h0 2 each, c0/g0 2 each,
//!   d0/f0 1 each, b2/h2 12 each including the capture over the b7/h7 screen, 5 pawns 1 each)
//!   × 6 identities + 1 king move (e0-e1) = 259.
//! - lone-hidden-chariot (`3k5/…/X3K4 w R1`): the hidden a0 piece moves as a chariot: a1–a9 and
//!   b0–d0 = 12 moves × 1 identity; the king: e1, f0 (d0 would face the d9 king) = 14. Depth 2:
//!   Black's king has d8 and e9, but e9 faces the e0 king. After Ra1–Ra7, Rb0, Rc0, Ra9 (check
//!   along rank 9) Black has only d8: 10 × 1; after Ra8 (covers d8) and Rd0 (check, mate) none;
//!   after Ke1 only d8 (e9 faces it): 1; after Kf0 both d8 and e9: 2. Total 10 + 1 + 2 = 13.
//! - lone-hidden-two-identities (pool R1N1, one unknown captured slot): depth 1 = 12 × 2 + 2 = 26.
//!   Depth 2: the chariot children give 10 as above; as a horse none of the 12 landing squares
//!   touches d8, d9 or e9, so 12 × 1; the king moves give 1 + 2. Total 25.
//! - capture-hidden-pawn (`4k4/9/9/x8/…/R2K5 w p1`): Ra1–Ra5, Rxa6 (no branching), Rb0, Rc0 = 8,
//!   Kd1 = 1 (e0 faces e9): 9. Depth 2: Black has the hidden a6 pawn step (1 identity) and king
//!   e8, f9 (d9 faces the red king): 3 after each move except Rxa6 (2): 8 × 3 + 2 = 26.
//! - simple-start: each of 16 hidden pieces flips or steps: rank-0 pieces 2 moves each (18),
//!   b2/h2 5 each (10), a3/i3 4, c3/e3/g3 5 (23): 51 moves × 7 distinct identities = 357; Black is
//!   symmetric and independent at depth 2: 357² = 127449.

use jieqi_core::{Position, Rules, perft};

struct Case {
    id: String,
    rules: Rules,
    fen: Option<String>,
    counts: Vec<(u32, u64)>,
}

fn load(text: &str, file: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let ctx = format!("{file}:{}", n + 1);
        match key {
            "id" => cases.push(Case {
                id: value.to_string(),
                rules: Rules::standard(),
                fen: None,
                counts: Vec::new(),
            }),
            "rules" => {
                cases.last_mut().expect(&ctx).rules =
                    Rules::preset(value).unwrap_or_else(|| panic!("{ctx}: unknown rules {value}"))
            }
            "fen" => cases.last_mut().expect(&ctx).fen = Some(value.to_string()),
            "perft" => {
                let (d, nodes) = value.split_once(' ').expect(&ctx);
                cases
                    .last_mut()
                    .expect(&ctx)
                    .counts
                    .push((d.parse().expect(&ctx), nodes.parse().expect(&ctx)));
            }
            other => panic!("{ctx}: unknown key {other}"),
        }
    }
    cases
}

fn run(text: &str, file: &str) {
    let max: u64 = std::env::var("JIEQI_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000_000);
    let mut checked = 0;
    for case in load(text, file) {
        let mut pos = match &case.fen {
            Some(f) => {
                Position::from_fen(f, &case.rules).unwrap_or_else(|e| panic!("{}: {e}", case.id))
            }
            None => Position::start(&case.rules),
        };
        let before = pos.clone();
        for &(depth, expected) in &case.counts {
            if expected > max {
                continue;
            }
            let got = perft::perft(&mut pos, depth);
            assert_eq!(got, expected, "{} perft {depth}", case.id);
            assert_eq!(pos, before, "{}: perft must restore the position", case.id);
            checked += 1;
        }
    }
    assert!(checked > 0, "no perft line was checked in {file}");
}

#[test]
fn xiangqi_published_numbers() {
    run(include_str!("../perft/xiangqi.perft"), "xiangqi.perft");
}

#[test]
fn jieqi_hand_derived_numbers() {
    run(include_str!("../perft/jieqi.perft"), "jieqi.perft");
}

#[test]
fn divide_sums_to_perft() {
    for rules in [Rules::standard(), Rules::xiangqi(), Rules::simple()] {
        let mut pos = Position::start(&rules);
        let total: u64 = perft::divide(&mut pos, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(total, perft::perft(&mut pos, 3), "{}", rules.name);
    }
}
