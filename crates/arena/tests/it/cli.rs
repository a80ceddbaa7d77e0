//! The `arena` binary end to end: outputs, exit codes and error messages.

use crate::common::{ok, refused};

/// The `--json` summary, which must be the last line.
fn json_summary(out: &str) -> serde_json::Value {
    let last = out.lines().last().expect("some output");
    serde_json::from_str(last).unwrap_or_else(|e| panic!("last line {last:?}: {e}"))
}

/// The `move: count` lines of `--divide`.
fn divide_lines(out: &str) -> Vec<(String, u64)> {
    out.lines()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let (mv, n) = l.split_once(": ").unwrap_or_else(|| panic!("{l:?}"));
            (mv.to_string(), n.parse().unwrap())
        })
        .collect()
}

#[test]
fn perft_xiangqi_start_depth_3() {
    let out = ok(&["perft", "--rules", "xiangqi", "--depth", "3", "--json"]);
    assert!(out.contains("nodes: 79666"), "{out}");
    let json = json_summary(&out);
    assert_eq!(json["depth"], 3);
    assert_eq!(json["nodes"], 79666);
    assert!(json["seconds"].is_f64(), "{json}");
    assert!(json["nps"].is_u64(), "{json}");
    assert_eq!(json.as_object().unwrap().len(), 4, "{json}");
}

#[test]
fn perft_standard_start_depth_1() {
    let out = ok(&["perft", "--rules", "standard", "--depth", "1", "--json"]);
    assert_eq!(json_summary(&out)["nodes"], 259);
}

#[test]
fn divide_sums_to_the_total() {
    for (rules, depth, children) in [("xiangqi", "3", 44), ("standard", "2", 259)] {
        let out = ok(&[
            "perft", "--rules", rules, "--depth", depth, "--divide", "--json",
        ]);
        let lines = divide_lines(&out);
        assert_eq!(lines.len(), children, "{out}");
        let sum: u64 = lines.iter().map(|(_, n)| n).sum();
        assert_eq!(json_summary(&out)["nodes"], sum, "{out}");
    }
}

#[test]
fn divide_names_hidden_moves_with_their_reveal() {
    let out = ok(&["perft", "--depth", "1", "--divide"]);
    let lines = divide_lines(&out);
    assert!(lines.contains(&("b0c2N".to_string(), 1)), "{out}");
    assert!(lines.contains(&("e0e1".to_string(), 1)), "{out}");
}

#[test]
fn perft_from_a_fen() {
    // cpw-8 of the published Xiangqi perft numbers, depth 2.
    let fen = "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5";
    let out = ok(&[
        "perft", "--rules", "xiangqi", "--fen", fen, "-d", "2", "--json",
    ]);
    assert_eq!(json_summary(&out)["nodes"], 195);
}

#[test]
fn malformed_fen_names_the_field() {
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let err = refused(&["perft", "--depth", "1", "--fen", &format!("{board} q")]);
    assert!(err.contains("field 2 (side)"), "{err}");
    let err = refused(&["show", "--fen", "rnbakabnr/9/9"]);
    assert!(err.contains("field 1 (board)"), "{err}");
}

#[test]
fn illegal_position_is_bad_input() {
    // Both kings on the open e-file.
    let err = refused(&[
        "show",
        "--rules",
        "xiangqi",
        "--fen",
        "4k4/9/9/9/9/9/9/9/9/4K4",
    ]);
    assert!(err.contains("illegal position"), "{err}");
}

#[test]
fn show_seed_prints_the_deal_reproducibly() {
    let first = ok(&["show", "--seed", "1"]);
    let second = ok(&["show", "--seed", "1"]);
    assert_eq!(first, second);
    assert!(first.contains("deal for seed 1"), "{first}");
    assert!(first.contains("truth (referee only)"), "{first}");
    let red = first
        .lines()
        .find(|l| l.trim_start().starts_with("red ") && l.contains("a0="))
        .unwrap_or_else(|| panic!("no red deal line in {first}"));
    assert_eq!(red.matches('=').count(), 15, "{red}");
    // Two boards: the public one and the truth.
    assert_eq!(first.matches("a b c d e f g h i").count(), 2, "{first}");
    assert!(!first.contains('\x1b'), "no ANSI escapes into a pipe");
}

#[test]
fn show_seeds_differ() {
    let deal_line = |seed: &str| {
        let out = ok(&["show", "--seed", seed]);
        out.lines()
            .find(|l| l.contains("deal string:"))
            .unwrap_or_else(|| panic!("{out}"))
            .to_string()
    };
    assert_ne!(deal_line("1"), deal_line("2"));
}

#[test]
fn show_unicode_draws_chinese_pieces() {
    let out = ok(&["show", "--rules", "xiangqi", "--unicode"]);
    assert!(out.contains("[俥]") && out.contains("將"), "{out}");
}

#[test]
fn show_seed_needs_hidden_pieces() {
    let err = refused(&["show", "--rules", "xiangqi", "--seed", "1"]);
    assert!(err.contains("no hidden pieces"), "{err}");
}

#[test]
fn show_fen_and_seed_conflict() {
    refused(&["show", "--seed", "1", "--fen", "4k4/9/9/9/9/9/9/9/9/3K5"]);
}

#[test]
fn rules_from_a_config_file() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/rules/standard-both-learn.json"
    );
    let out = ok(&["show", "--rules", path, "--seed", "3"]);
    assert!(out.contains("rules: standard-both-learn"), "{out}");
}

#[test]
fn unknown_rules_name_is_bad_input() {
    let err = refused(&["perft", "--rules", "no-such-rules", "--depth", "1"]);
    assert!(
        err.contains("no-such-rules") && err.contains("not a preset"),
        "{err}"
    );
}

#[test]
fn rules_file_with_unknown_field_names_the_file() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("unknown-field-rules.json");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/rules/standard.json"
    ))
    .unwrap()
    .replacen('{', "{\n  \"colour_blind\": true,", 1);
    std::fs::write(&path, text).unwrap();
    let err = refused(&["perft", "--rules", path.to_str().unwrap(), "--depth", "1"]);
    assert!(err.contains("unknown-field-rules.json"), "{err}");
    assert!(err.contains("colour_blind"), "{err}");
}

#[test]
fn rules_file_with_conflicting_switches_fails_validation() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hidden-king-rules.json");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/rules/standard.json"
    ))
    .unwrap()
    .replace("\"hidden_king\": false", "\"hidden_king\": true");
    std::fs::write(&path, text).unwrap();
    let err = refused(&["show", "--rules", path.to_str().unwrap()]);
    assert!(
        err.contains("hidden-king-rules.json") && err.contains("hidden_king"),
        "{err}"
    );
}
