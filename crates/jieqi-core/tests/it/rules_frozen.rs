//! Rule sets survive new switches: the serialized text of every rule set of 2026-12 still loads and
//! serializes byte for byte (the arena hashes it into run fingerprints), and fields a record lacks
//! take their documented defaults.

use jieqi_core::{CaptureReveal, HiddenMoves, PerpetualCheck, RuleName, Rules};

/// One frozen rule set: its file under `tests/fixtures/rules-2026-12/`, its text, and the text the
/// arena's fingerprint hashes (`serde_json::to_value(&rules).to_string()`, keys sorted).
struct Frozen {
    file: &'static str,
    pretty: &'static str,
    sorted: &'static str,
}

macro_rules! frozen {
    ($file:literal, $sorted:literal) => {
        Frozen {
            file: $file,
            pretty: include_str!(concat!("../fixtures/rules-2026-12/", $file)),
            sorted: $sorted,
        }
    };
}

const FROZEN: [Frozen; 5] = [
    frozen!(
        "standard.json",
        r#"{"capture_reveal":"capturer","check":true,"confine_advisors":false,"confine_elephants":false,"confine_king":true,"flying_general":true,"hidden_king":false,"hidden_moves":"start-square","name":"standard","no_capture_plies":80,"perpetual_check":"loses","repetition_count":3}"#
    ),
    frozen!(
        "xiangqi.json",
        r#"{"capture_reveal":"both","check":true,"confine_advisors":true,"confine_elephants":true,"confine_king":true,"flying_general":true,"hidden_king":false,"hidden_moves":"none","name":"xiangqi","no_capture_plies":120,"perpetual_check":"loses","repetition_count":3}"#
    ),
    frozen!(
        "simple.json",
        r#"{"capture_reveal":"capturer","check":false,"confine_advisors":false,"confine_elephants":false,"confine_king":false,"flying_general":false,"hidden_king":true,"hidden_moves":"step","name":"simple","no_capture_plies":80,"perpetual_check":"draws","repetition_count":3}"#
    ),
    frozen!(
        "standard-both-learn.json",
        r#"{"capture_reveal":"both","check":true,"confine_advisors":false,"confine_elephants":false,"confine_king":true,"flying_general":true,"hidden_king":false,"hidden_moves":"start-square","name":"standard-both-learn","no_capture_plies":80,"perpetual_check":"loses","repetition_count":3}"#
    ),
    frozen!(
        "standard-rule60.json",
        r#"{"capture_reveal":"capturer","check":true,"confine_advisors":false,"confine_elephants":false,"confine_king":true,"flying_general":true,"hidden_king":false,"hidden_moves":"start-square","name":"standard-rule60","no_capture_plies":120,"perpetual_check":"loses","repetition_count":3}"#
    ),
];

/// What each frozen rule set must load as, built from today's presets.
fn expected(file: &str) -> Rules {
    match file {
        "standard.json" => Rules::standard(),
        "xiangqi.json" => Rules::xiangqi(),
        "simple.json" => Rules::simple(),
        "standard-both-learn.json" => Rules {
            name: RuleName::new("standard-both-learn"),
            capture_reveal: CaptureReveal::Both,
            ..Rules::standard()
        },
        "standard-rule60.json" => Rules {
            name: RuleName::new("standard-rule60"),
            no_capture_plies: Some(120),
            ..Rules::standard()
        },
        _ => panic!("no expectation for {file}"),
    }
}

fn load(text: &str) -> Rules {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// How `configs/rules/*.json` and the fixtures are written: pretty, fields in declaration order.
fn pretty(rules: &Rules) -> String {
    serde_json::to_string_pretty(rules).unwrap() + "\n"
}

/// The text the arena's fingerprint hashes for a rule set.
fn sorted(rules: &Rules) -> String {
    serde_json::to_value(rules).unwrap().to_string()
}

#[test]
fn frozen_rule_sets_load_and_reserialize_byte_for_byte() {
    for f in &FROZEN {
        let rules = load(f.pretty);
        assert_eq!(pretty(&rules), f.pretty, "{}", f.file);
        assert_eq!(sorted(&rules), f.sorted, "{}", f.file);
        // The sorted form is the same rule set, not just a second spelling frozen by accident.
        assert_eq!(load(f.sorted), rules, "{}", f.file);
        rules.validate().unwrap();
    }
}

#[test]
fn frozen_rule_sets_equal_todays_presets() {
    for f in &FROZEN {
        let want = expected(f.file);
        assert_eq!(load(f.pretty), want, "{}", f.file);
        assert_eq!(pretty(&want), f.pretty, "{}", f.file);
        assert_eq!(sorted(&want), f.sorted, "{}", f.file);
    }
    for name in ["standard", "xiangqi", "simple"] {
        let preset = Rules::preset(name).unwrap();
        let f = FROZEN
            .iter()
            .find(|f| f.file == format!("{name}.json"))
            .unwrap();
        assert_eq!(pretty(&preset), f.pretty, "{name}");
    }
}

#[test]
fn config_files_of_2026_12_still_mean_the_same_rules() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/rules");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let rules = load(&std::fs::read_to_string(&path).unwrap());
        rules.validate().unwrap();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if let Some(f) = FROZEN.iter().find(|f| f.file == file) {
            assert_eq!(pretty(&rules), f.pretty, "{file}");
            seen.push(file);
        }
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            "simple.json",
            "standard-both-learn.json",
            "standard-rule60.json",
            "standard.json",
            "xiangqi.json"
        ]
    );
}

/// The documented defaults of fields a record lacks, field by field.
fn absent(name: &str) -> Rules {
    Rules {
        name: RuleName::new(name),
        hidden_moves: HiddenMoves::StartSquare,
        hidden_king: false,
        confine_advisors: false,
        confine_elephants: false,
        confine_king: true,
        flying_general: true,
        check: true,
        capture_reveal: CaptureReveal::Capturer,
        no_capture_plies: None,
        repetition_count: 3,
        perpetual_check: PerpetualCheck::Loses,
    }
}

#[test]
fn absent_fields_take_the_documented_defaults() {
    // An object missing every field.
    assert_eq!(load("{}"), absent("custom"));
    assert_eq!(load(r#"{"name":"old"}"#), absent("old"));
    // The switches default to mainstream Jieqi, except the no-capture limit, which an absent
    // field has always loaded as: none.
    assert_eq!(
        load(r#"{"no_capture_plies":80}"#),
        Rules {
            name: RuleName::new("custom"),
            ..Rules::standard()
        }
    );
    assert_eq!(load(r#"{"no_capture_plies":null}"#).no_capture_plies, None);
    // A partial object keeps what it says and defaults the rest.
    let partial = load(
        r#"{"name":"half-xiangqi","hidden_moves":"none","confine_advisors":true,"capture_reveal":"both","repetition_count":4}"#,
    );
    assert_eq!(
        partial,
        Rules {
            hidden_moves: HiddenMoves::None,
            confine_advisors: true,
            capture_reveal: CaptureReveal::Both,
            repetition_count: 4,
            ..absent("half-xiangqi")
        }
    );
    // Each field on its own: removing it from a rule set with the opposite values yields the
    // default of that field alone.
    let opposite = Rules {
        name: RuleName::new("opposite"),
        hidden_moves: HiddenMoves::Step,
        hidden_king: true,
        confine_advisors: true,
        confine_elephants: true,
        confine_king: false,
        flying_general: false,
        check: false,
        capture_reveal: CaptureReveal::Nobody,
        no_capture_plies: Some(7),
        repetition_count: 5,
        perpetual_check: PerpetualCheck::Draws,
    };
    let full = serde_json::to_value(opposite).unwrap();
    let defaults = serde_json::to_value(absent("custom")).unwrap();
    for key in full.as_object().unwrap().keys() {
        let mut v = full.clone();
        v.as_object_mut().unwrap().remove(key);
        let loaded = serde_json::to_value(serde_json::from_value::<Rules>(v).unwrap()).unwrap();
        for (k, value) in loaded.as_object().unwrap() {
            let want = if k == key { &defaults[k] } else { &full[k] };
            assert_eq!(value, want, "removed {key}, field {k}");
        }
    }
}

#[test]
fn defaults_do_not_skip_serialization_of_todays_fields() {
    // Today's fields are always written, even at their default, so their text never changes.
    let text = serde_json::to_string(&absent("custom")).unwrap();
    assert_eq!(
        text,
        r#"{"name":"custom","hidden_moves":"start-square","hidden_king":false,"confine_advisors":false,"confine_elephants":false,"confine_king":true,"flying_general":true,"check":true,"capture_reveal":"capturer","no_capture_plies":null,"repetition_count":3,"perpetual_check":"loses"}"#
    );
}

#[test]
fn unknown_fields_are_still_refused() {
    let e = serde_json::from_str::<Rules>(r#"{"confine_advisor":true}"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("confine_advisor"), "{e}");
    let mut v = serde_json::to_value(Rules::standard()).unwrap();
    v.as_object_mut()
        .unwrap()
        .insert("colour".into(), serde_json::Value::from(1));
    assert!(serde_json::from_value::<Rules>(v).is_err());
}

#[test]
fn loaded_rules_are_still_validated_by_the_caller() {
    // Defaults fill the gaps, and validate still judges the result.
    let r = load(r#"{"hidden_king":true}"#);
    assert_eq!(r.hidden_moves, HiddenMoves::StartSquare);
    assert!(r.validate().unwrap_err().0.contains("hidden_king"));
    let r = load(r#"{"repetition_count":1}"#);
    assert!(r.validate().unwrap_err().0.contains("repetition_count"));
    let r = load(r#"{"no_capture_plies":0}"#);
    assert!(r.validate().unwrap_err().0.contains("no_capture_plies"));
    load("{}").validate().unwrap();
    // A name longer than 24 bytes is refused while loading, as before.
    assert!(serde_json::from_str::<Rules>(r#"{"name":"abcdefghijklmnopqrstuvwxyz"}"#).is_err());
}
