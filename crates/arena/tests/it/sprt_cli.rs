//! `arena sprt` end to end: it stops when the test decides, on the finished prefix of pairs (so
//! the verdict and the pairs counted do not depend on the thread count), exits with the verdict,
//! resumes, and refuses bad tests.

use std::path::Path;
use std::process::Output;

use crate::common::{arena, csv_without_timing, gate_args, json, tmp};

/// DIR/summary.json.
fn summary(dir: &Path) -> serde_json::Value {
    json(&dir.join("summary.json"))
}

fn gate(new: &str, base: &str, threads: &str, dir: &Path, extra: &[&str]) -> Output {
    let mut args = gate_args(
        new,
        base,
        &["--threads", threads, "--out", dir.to_str().unwrap()],
    );
    args.extend_from_slice(extra);
    arena(&args)
}

#[test]
fn the_verdict_and_its_pairs_do_not_depend_on_the_thread_count() {
    let (one, two) = (tmp("t1"), tmp("t2"));
    let a = gate("greedy", "random", "1", &one, &[]);
    let b = gate("greedy", "random", "2", &two, &[]);
    for o in [&a, &b] {
        assert_eq!(
            o.status.code(),
            Some(0),
            "H1 exits 0: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("SPRT: H1 accepted"), "{text}");
        assert!(text.contains("Gate: H1 accepted after "), "{text}");
    }
    let (s1, s2) = (summary(&one), summary(&two));
    assert_eq!(s1["gate"]["verdict"], "H1");
    assert_eq!(s1["results"]["verdict"], "H1");
    assert_eq!(s1["gate"]["pairs"], s2["gate"]["pairs"]);
    assert_eq!(s1["results"]["ptnml"], s2["results"]["ptnml"]);
    assert_eq!(s1["results"]["llr"], s2["results"]["llr"]);
    let pairs = s1["gate"]["pairs"].as_u64().unwrap();
    assert!(pairs > 10 && pairs < 20_000, "{pairs}");
    // games.csv holds the counted pairs only, the same at both thread counts; the journal also
    // keeps the pairs that finished past the stop.
    assert_eq!(csv_without_timing(&one), csv_without_timing(&two));
    assert_eq!(
        csv_without_timing(&one).lines().count() as u64,
        1 + 2 * pairs
    );
    for (dir, s) in [(&one, &s1), (&two, &s2)] {
        let journal = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
        let beyond = s["gate"]["pairs_beyond"].as_u64().unwrap();
        assert_eq!(journal.lines().count() as u64, 2 * (pairs + beyond));
    }
    // A gate's test cannot change when it is resumed.
    let other = gate(
        "greedy",
        "random",
        "2",
        &one,
        &["--resume", "--alpha", "0.2"],
    );
    assert_eq!(other.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("cannot change mid-test"),
        "{}",
        String::from_utf8_lossy(&other.stderr)
    );
    // Nor when it is resumed from its folder alone: every flag of the test is refused alike.
    for flag in [
        "--alpha=0.1",
        "--beta=0.1",
        "--elo0=1",
        "--elo1=20",
        "--model=logistic",
    ] {
        let o = arena(&["sprt", "--out", one.to_str().unwrap(), "--resume", flag]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flag}: {err}");
        let name = flag.split('=').next().unwrap();
        assert!(err.contains(&format!("{name} cannot change it")), "{err}");
    }
    // Resuming a decided gate plays nothing and says the same.
    let again = gate("greedy", "random", "2", &one, &["--resume"]);
    assert_eq!(again.status.code(), Some(0));
    let s3 = summary(&one);
    assert_eq!(s3["gate"]["pairs"], s1["gate"]["pairs"]);
    assert_eq!(s3["results"]["ptnml"], s1["results"]["ptnml"]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("no games played this run"));
    for d in [one, two] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn h0_exits_1_and_a_cap_without_a_verdict_exits_3() {
    let dir = tmp("h0");
    let o = gate("random", "greedy", "2", &dir, &[]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("Gate: H0 accepted after"));
    assert_eq!(summary(&dir)["gate"]["verdict"], "H0");
    let _ = std::fs::remove_dir_all(&dir);
    let o = gate("greedy", "random", "2", &dir, &["--max-pairs", "3"]);
    assert_eq!(o.status.code(), Some(3));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("Gate: inconclusive, no bound crossed in 3 pairs (the cap is 3)"),
        "{text}"
    );
    assert_eq!(summary(&dir)["gate"]["verdict"], serde_json::Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_tests_are_refused_before_any_game() {
    for (args, says) in [
        (
            vec!["--elo0", "2", "--elo1", "0"],
            "--elo0/--elo1: elo0 must be less than elo1",
        ),
        (vec!["--elo1", "500"], "--elo0/--elo1: elo0 and elo1"),
        // A huge number comes back as typed, not as 309 digits.
        (vec!["--elo0=-1e308"], "got [-1e308, "),
        (vec!["--beta", "1e300"], "got 1e300"),
        (
            vec!["--alpha", "0"],
            "--alpha: alpha must be between 0 and 1",
        ),
        (vec!["--max-pairs", "0"], "--max-pairs: must be at least 1"),
    ] {
        let mut all = vec!["sprt", "--engine", "greedy", "--engine", "random"];
        all.extend(args.iter());
        let o = arena(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{all:?}: {err}");
        assert!(err.len() < 400, "{all:?}: a long message: {err}");
    }
}

#[test]
fn an_engine_failure_stops_the_gate_unless_it_recovers() {
    // The base panics from its third move on: without --recover there is no verdict (exit 5);
    // with it the failures are losses and the new engine passes.
    let dir = tmp("failure");
    let o = gate("greedy", "faulty:mode=panic,after=2", "2", &dir, &[]);
    assert_eq!(
        o.status.code(),
        Some(5),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("Gate: stopped after 1 pair, no verdict"),
        "{text}"
    );
    let s = summary(&dir);
    assert_eq!(s["gate"]["outcome"], "engine-failure");
    assert_eq!(s["gate"]["verdict"], serde_json::Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
    let o = gate(
        "greedy",
        "faulty:mode=panic,after=2",
        "2",
        &dir,
        &["--recover"],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(summary(&dir)["gate"]["outcome"], "H1");
    let _ = std::fs::remove_dir_all(&dir);
}
