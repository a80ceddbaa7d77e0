//! `arena tune` end to end: it fits weights to a real match's games, the held-out loss is
//! measured with the real evaluation, and bad input is refused with a message and exit 2.

use std::path::Path;

use crate::common::{arena, json, match_args, text, tmp};

/// The "a -> b" pair of numbers after `label` in the report.
fn losses(report: &str, label: &str) -> (f64, f64) {
    let at = report
        .find(label)
        .unwrap_or_else(|| panic!("{label} in {report}"));
    let mut nums = report[at + label.len()..]
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<f64>().unwrap());
    (nums.next().unwrap(), nums.next().unwrap())
}

/// A pair of alphabeta with the evaluation `eval` against greedy, at 300 nodes, into `out`.
fn play_with(eval: &Path, out: &Path) -> std::process::Output {
    arena(&match_args(
        &format!("alphabeta:eval={}", eval.display()),
        "greedy",
        "1",
        &[
            "--nodes",
            "300",
            "--no-progress",
            "--out",
            out.to_str().unwrap(),
        ],
    ))
}

#[test]
fn tuning_fits_the_games_and_refuses_bad_input() {
    let dir = tmp("fit");
    let games = dir.join("games");
    let run = arena(&match_args(
        "greedy",
        "level:easy",
        "40",
        &[
            "--threads",
            "2",
            "--no-progress",
            "--out",
            games.to_str().unwrap(),
        ],
    ));
    assert!(run.status.success(), "{}", text(&run.stderr));
    let out = dir.join("tuned.json");
    let tuned = arena(&[
        "tune",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--iterations",
        "300",
        "--rate",
        "2",
        "--fix",
        "tempo",
        "--holdout",
        "0.25",
    ]);
    let report = text(&tuned.stdout);
    assert!(tuned.status.success(), "{report}{}", text(&tuned.stderr));
    assert!(report.contains("80 games read, 0 left out"), "{report}");
    // The fit can only lower the loss it minimises (up to the rounding of the weights).
    let (before, after) = losses(&report, "fit ");
    assert!(after < before, "{report}");
    let (held_before, held_after) = losses(&report, "held out ");
    assert!(held_before > 0.0 && held_after > 0.0, "{report}");
    assert!(
        report.contains("tempo                    10       10  (same)"),
        "{report}"
    );
    assert!(
        report.contains("king                   2000     2000  (same)"),
        "{report}"
    );
    // The weights load as an engine's evaluation.
    let weights = json(&out);
    assert_eq!(weights["tempo"], 10);
    let again = play_with(&out, &dir.join("check"));
    assert!(again.status.success(), "{}", text(&again.stderr));

    // With nothing held out the report says so: no loss of an empty mean, null in the provenance.
    let none_out = dir.join("none-held.json");
    let none = arena(&[
        "tune",
        games.to_str().unwrap(),
        "--out",
        none_out.to_str().unwrap(),
        "--iterations",
        "20",
        "--holdout",
        "0",
    ]);
    let report = text(&none.stdout);
    assert!(none.status.success(), "{report}{}", text(&none.stderr));
    assert!(
        report.contains("no position held out") && !report.contains("held out -"),
        "{report}"
    );
    assert!(json(&none_out)["provenance"]["loss"]["held_out"].is_null());
    bad_input_is_refused_and_writes_nothing(&dir, &games, &out);
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

/// Bad flags and inputs to `arena tune` of the run `games` are refused, exit 2, in a short
/// message, leaving the weights `out` as they are.
fn bad_input_is_refused_and_writes_nothing(dir: &Path, games: &Path, out: &Path) {
    let g = games.to_str().unwrap();
    let o = out.to_str().unwrap();
    // A copy of the run (its files, not its path) and the same folder by another path.
    let copy = dir.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(games).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), copy.join(entry.file_name())).unwrap();
        }
    }
    let c = copy.to_str().unwrap();
    let dotted = games.join(".");
    let d = dotted.to_str().unwrap();
    // Starting weights that still carry the correction network, which left the engine.
    let with_net = dir.join("with-net.json");
    std::fs::write(&with_net, r#"{"tempo": 10, "net": {"b1": 0}}"#).unwrap();
    let n = with_net.to_str().unwrap();
    for (args, says) in [
        (vec!["tune", g, "--out", o, "--rate", "NaN"], "--rate NaN"),
        (
            vec!["tune", g, "--out", o, "--rate", "1e308"],
            "--rate 1e308",
        ),
        (vec!["tune", g, "--out", o, "--rate", "0"], "--rate 0"),
        (vec!["tune", g, "--out", o, "--rate", "inf"], "--rate inf"),
        (
            vec!["tune", g, "--out", o, "--lambda", "NaN"],
            "--lambda NaN",
        ),
        (
            vec!["tune", g, "--out", o, "--holdout=-1e300"],
            "--holdout -1e300",
        ),
        (
            vec!["tune", g, "--out", o, "--iterations", "0"],
            "--iterations 0",
        ),
        (
            vec!["tune", g, "--out", o, "--max-positions", "0"],
            "--max-positions 0",
        ),
        (vec!["tune", g, g, "--out", o], "are the same folder"),
        (vec!["tune", g, d, "--out", o], "are the same folder"),
        (vec!["tune", g, c, "--out", o], "hold the same run"),
        (
            vec!["tune", g, "--out", o, "--holdout", "0.95"],
            "--holdout 0.95",
        ),
        (
            vec!["tune", g, "--out", o, "--fix", "queen"],
            "--fix queen: no such weight",
        ),
        (
            vec!["tune", "/nonexistent/folder", "--out", o],
            "/nonexistent/folder: no such folder",
        ),
        (
            vec!["tune", g, "--out", o, "--eval", n],
            "with-net.json': field \"net\": the correction network was removed",
        ),
        (
            vec!["tune", g, "--out", o, "--net"],
            "unexpected argument '--net'",
        ),
        (
            vec!["tune", g, "--out", o, "--skip", "1000"],
            "too few to fit",
        ),
        (
            vec![
                "tune",
                g,
                "--out",
                o,
                "--eval",
                out.parent().unwrap().to_str().unwrap(),
            ],
            "eval weights",
        ),
    ] {
        let before = std::fs::read(out).unwrap();
        let r = arena(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", text(&r.stderr));
        assert!(text(&r.stderr).len() < 400, "{args:?}: {}", text(&r.stderr));
        assert_eq!(
            std::fs::read(out).unwrap(),
            before,
            "{args:?} wrote weights"
        );
        assert!(
            text(&r.stderr).contains(says),
            "{args:?}: {}",
            text(&r.stderr)
        );
    }
}
