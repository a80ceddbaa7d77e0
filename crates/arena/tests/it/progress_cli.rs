//! What a run says while it plays where no terminal shows a progress bar (the tests' stderr is a
//! pipe, as in CI, cron and cluster logs): `--report-every N` lines with the figures the summary
//! ends with, and the warning of a run that lost too many games to the clock.

use crate::common::{arena, json, match_args, s, text, tmp};

/// The fields of a two-engine progress line: `progress: P/Q pairs[ (cap)], G games, T s: A vs B
/// W w D d L l, score x %, Elo e +/- err[, LLR llr (lo, hi)]`.
#[derive(Debug, PartialEq)]
struct Line {
    pairs: u64,
    planned: u64,
    games: u64,
    wdl: [u64; 3],
    score: String,
    elo: String,
    error: String,
    llr: Option<String>,
}

fn parse(line: &str) -> Line {
    let rest = line.strip_prefix("progress: ").expect("a progress line");
    let (pairs, rest) = rest.split_once(" pairs").unwrap();
    let (done, planned) = pairs.split_once('/').unwrap();
    let games = rest.split(", ").nth(1).unwrap();
    let word_after = |w: &str| -> String {
        let i = rest.find(w).unwrap_or_else(|| panic!("{w} in {line}")) + w.len();
        rest[i..]
            .split([' ', ','])
            .next()
            .unwrap()
            .trim_end_matches(',')
            .to_string()
    };
    let n = |w: &str| word_after(w).parse::<u64>().unwrap();
    Line {
        pairs: done.parse().unwrap(),
        planned: planned.parse().unwrap(),
        games: games.strip_suffix(" games").unwrap().parse().unwrap(),
        wdl: [n(" W "), n(" D "), n(" L ")],
        score: word_after("score "),
        elo: word_after("Elo "),
        error: word_after("+/- "),
        llr: rest.contains("LLR ").then(|| word_after("LLR ")),
    }
}

/// The progress lines of a run's stderr.
fn lines(stderr: &[u8]) -> Vec<String> {
    text(stderr)
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_gate_reports_every_pair_with_the_figures_of_its_summary() {
    let dir = tmp("gate");
    let o = arena(&[
        "sprt",
        "--engine",
        "greedy",
        "--engine",
        "level:easy",
        "--max-pairs",
        "5",
        "--threads",
        "2",
        "--no-progress",
        "--report-every",
        "1",
        "--out",
        s(&dir),
    ]);
    assert!(o.status.code().is_some(), "{}", text(&o.stderr));
    let summary = json(&dir.join("summary.json"));
    let pairs = summary["gate"]["pairs"].as_u64().unwrap();
    let lines = lines(&o.stderr);
    // One line per counted pair, in order, whatever the finishing order of the two threads.
    assert_eq!(lines.len() as u64, pairs, "{}", text(&o.stderr));
    for (k, l) in lines.iter().enumerate() {
        let p = parse(l);
        assert_eq!(
            (p.pairs, p.planned, p.games),
            (k as u64 + 1, 5, 2 * (k as u64 + 1)),
            "{l}"
        );
        assert!(l.contains("pairs (cap)") && p.llr.is_some(), "{l}");
    }
    // The last line is the summary's figures.
    let last = parse(lines.last().unwrap());
    let r = &summary["results"];
    assert_eq!(
        last.wdl,
        [
            r["wins"].as_u64().unwrap(),
            r["draws"].as_u64().unwrap(),
            r["losses"].as_u64().unwrap()
        ],
        "{r}"
    );
    // JSON writes an infinite Elo as null.
    let same = |shown: &str, v: &serde_json::Value| match v.as_f64() {
        Some(x) => assert_eq!(shown, format!("{x:.2}"), "{r}"),
        None => assert!(shown.ends_with("inf"), "{shown} {r}"),
    };
    assert_eq!(
        last.score,
        format!("{:.2}", 100.0 * r["score"].as_f64().unwrap())
    );
    same(&last.elo, &r["elo"]);
    same(&last.error, &r["elo_error"]);
    assert_eq!(
        last.llr.unwrap(),
        format!("{:.2}", r["llr"].as_f64().unwrap())
    );
    let (lo, hi) = (
        r["bounds"][0].as_f64().unwrap(),
        r["bounds"][1].as_f64().unwrap(),
    );
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with(&format!("({lo:.2}, {hi:.2})")),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn report_every_zero_is_silent_and_n_reports_every_n_pairs() {
    let dir = tmp("every");
    let run = |every: &str, out: &str| {
        let o = arena(&match_args(
            "greedy",
            "random",
            "6",
            &["--report-every", every, "--out", s(&dir.join(out))],
        ));
        assert!(o.status.success(), "{}", text(&o.stderr));
        lines(&o.stderr)
    };
    assert_eq!(run("0", "zero"), Vec::<String>::new());
    let three = run("3", "three");
    let done: Vec<u64> = three.iter().map(|l| parse(l).pairs).collect();
    assert_eq!(done, [3, 6], "{three:?}");
    assert!(three.iter().all(|l| !l.contains("LLR")), "{three:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn tournaments_and_leak_runs_report_their_own_figures() {
    let dir = tmp("kinds");
    let o = arena(&[
        "tournament",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--engine",
        "level:easy",
        "--pairs",
        "2",
        "--report-every",
        "3",
        "--out",
        s(&dir.join("t")),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let t = lines(&o.stderr);
    assert_eq!(t.len(), 2, "{t:?}");
    assert!(t[1].starts_with("progress: 6/6 pairs, 12 games,"), "{t:?}");
    assert!(t[1].contains("3 engines, leader"), "{t:?}");
    let o = arena(&[
        "leak",
        "--engine",
        "greedy",
        "--pairs",
        "2",
        "--report-every",
        "2",
        "--out",
        s(&dir.join("l")),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let l = lines(&o.stderr);
    assert_eq!(l.len(), 1, "{l:?}");
    assert!(l[0].contains(": Elo greedy Ω-F "), "{l:?}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_run_that_loses_games_on_time_warns_and_says_what_to_do() {
    // As in match_cli's a_slow_engine_loses_on_time: both games are lost on the clock.
    let dir = tmp("forfeits");
    let o = arena(&match_args(
        "faulty:mode=slow,after=1,ms=400",
        "random",
        "1",
        &["--tc", "1", "--out", s(&dir.join("clock"))],
    ));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("Warning: 2 of 2 games (100.0 %) were lost to the clock (2 time forfeits"),
        "{out}"
    );
    assert!(
        out.contains("longer --tc (now 1), a --timemargin (now 0 ms)"),
        "{out}"
    );
    let w = &json(&dir.join("clock/summary.json"))["time_loss_warning"];
    assert_eq!(w["time_forfeits"], 2, "{w}");
    assert_eq!(w["games"], 2, "{w}");
    assert!(
        w["advice"].as_str().unwrap().contains("--timemargin"),
        "{w}"
    );
    // A node-limited run has nothing to warn of.
    let o = arena(&match_args(
        "greedy",
        "random",
        "2",
        &["--nodes", "100", "--out", s(&dir.join("nodes"))],
    ));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(!text(&o.stdout).contains("Warning:"), "{}", text(&o.stdout));
    let summary = json(&dir.join("nodes/summary.json"));
    assert!(summary.get("time_loss_warning").is_none(), "{summary}");
    let _ = std::fs::remove_dir_all(dir);
}
