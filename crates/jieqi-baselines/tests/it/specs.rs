//! Engine specs: every baseline name builds, parameters are checked, other names are left alone.

use jieqi_baselines::{ENGINES, from_spec};
use jieqi_engine::Spec;

fn build(text: &str) -> Option<Result<(), String>> {
    let spec = Spec::parse(text).unwrap();
    from_spec(&spec).map(|r| r.map(|_| ()).map_err(|e| e.to_string()))
}

#[test]
fn every_listed_engine_builds_with_defaults() {
    for (name, help) in ENGINES {
        assert_eq!(build(name), Some(Ok(())), "{name}");
        assert!(help.len() > 20, "{name} has no help");
    }
}

#[test]
fn documented_examples_build() {
    for text in [
        "random",
        "greedy",
        "greedy:noise=0.3",
        "greedy:noise=0",
        "greedy:noise=1",
        "level",
        "level:easy",
        "level:normal",
        "level:hard",
        "level:normal,noise=0.5,flip=1.2,depth=1",
        "level:depth=2,noise=10,flip=0",
    ] {
        assert_eq!(build(text), Some(Ok(())), "{text}");
    }
}

#[test]
fn other_engine_names_are_not_ours() {
    for text in ["mcts", "alphabeta:depth=3", "randomish", "Greedy"] {
        assert!(build(text).is_none(), "{text}");
    }
}

#[test]
fn unknown_keys_are_rejected_with_their_name() {
    for (text, key) in [
        ("random:noise=0.1", "noise"),
        ("greedy:nosie=0.3", "nosie"),
        ("greedy:depth=2", "depth"),
        ("level:hard,temperature=2", "temperature"),
    ] {
        let e = build(text).unwrap().unwrap_err();
        assert!(
            e.contains(&format!("unknown parameter '{key}'")),
            "{text}: {e}"
        );
    }
    // A bare word is named as the value it is, not as a parameter called like the engine.
    let e = build("random:fast").unwrap().unwrap_err();
    assert!(e.contains("'fast' has no value"), "{e}");
}

#[test]
fn out_of_range_values_are_rejected() {
    for text in [
        "greedy:noise=-0.1",
        "greedy:noise=1.5",
        "greedy:noise=lots",
        "level:expert",
        "level:depth=3",
        "level:depth=0",
        "level:noise=-1",
        "level:noise=10.5",
        "level:flip=-0.5",
        "level:flip=4.5",
    ] {
        let r = build(text).unwrap();
        assert!(r.is_err(), "{text} was accepted");
    }
}
