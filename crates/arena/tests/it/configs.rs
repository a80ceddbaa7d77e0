//! The files in configs/: the preset rule files are exactly the presets, every rules file
//! loads and validates, and the test suites of configs/suites/ hold up.

use std::path::{Path, PathBuf};

use arena::plan::rules_arg::load_file;
use jieqi_core::{CaptureReveal, RuleName, Rules};

fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/rules")
}

#[test]
fn preset_files_are_the_presets() {
    for preset in [Rules::standard(), Rules::xiangqi(), Rules::simple()] {
        let path = rules_dir().join(format!("{}.json", preset.name));
        let loaded = load_file(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(loaded, preset, "{}", path.display());
        // Byte for byte the pretty-printed serialization, so the files never drift in form either.
        let text = std::fs::read_to_string(&path).unwrap();
        let expected = serde_json::to_string_pretty(&preset).unwrap() + "\n";
        assert_eq!(text, expected, "{}", path.display());
    }
}

#[test]
fn variant_files_change_one_switch_of_standard() {
    let both = load_file(&rules_dir().join("standard-both-learn.json")).unwrap();
    assert_eq!(
        both,
        Rules {
            name: RuleName::new("standard-both-learn"),
            capture_reveal: CaptureReveal::Both,
            ..Rules::standard()
        }
    );
    let rule60 = load_file(&rules_dir().join("standard-rule60.json")).unwrap();
    assert_eq!(
        rule60,
        Rules {
            name: RuleName::new("standard-rule60"),
            no_capture_plies: Some(120),
            ..Rules::standard()
        }
    );
}

#[test]
fn every_rules_file_loads_validates_and_is_named_after_itself() {
    let mut seen = 0;
    for entry in std::fs::read_dir(rules_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let rules = load_file(&path).unwrap_or_else(|e| panic!("{e}"));
        rules.validate().unwrap();
        let stem = path.file_stem().unwrap().to_str().unwrap();
        assert_eq!(rules.name.as_str(), stem, "{}", path.display());
        seen += 1;
    }
    assert!(
        seen >= 5,
        "only {seen} rule files in {}",
        rules_dir().display()
    );
}

/// The suites in configs/suites/: every line holds up under its rules, the counts are the
/// issue's (at least 100 each, mates of every length 1–5), every mate in one mates, and every
/// tactic is one move from a position with hidden pieces.
#[test]
fn shipped_suites_hold_up() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/suites");
    let mates =
        arena::records::epd::read(&dir.join("xiangqi-mates.epd"), &Rules::xiangqi()).unwrap();
    assert_eq!(mates.errors, []);
    assert!(mates.entries.len() >= 100);
    for n in 1..=5 {
        assert!(
            mates.entries.iter().any(|e| e.dm == Some(n)),
            "no mate in {n}"
        );
    }
    for e in &mates.entries {
        assert!(e.dm.is_some() && !e.bm.is_empty(), "line {}", e.line);
        if e.dm == Some(1) {
            for &m in &e.bm {
                let mut pos = e.view.position().clone();
                pos.make(jieqi_core::PlayedMove::plain(m));
                assert!(!pos.has_legal_move(), "line {}: {m}", e.line);
            }
        }
    }
    let tactics =
        arena::records::epd::read(&dir.join("jieqi-tactics.epd"), &Rules::standard()).unwrap();
    assert_eq!(tactics.errors, []);
    assert!(tactics.entries.len() >= 100);
    for e in &tactics.entries {
        assert_eq!(e.bm.len(), 1, "line {}", e.line);
        let pos = e.view.position();
        let hidden =
            pos.hidden_count(jieqi_core::Color::Red) + pos.hidden_count(jieqi_core::Color::Black);
        assert!(hidden >= 1, "line {}", e.line);
    }
}
