//! `arena tournament`, `arena merge` and `arena history` end to end: the reports and the
//! per-pairing match folders, resuming, shards merged into exactly one machine's results, the
//! refusals of `merge`, the homogeneity check flagging a tampered shard, and the report page as
//! headless Chromium draws it (without Chromium: a failure in CI, skipped elsewhere).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{
    csv_without_timing, have_bash, json, json_without_machine, match_args, missing, ok, refused, s,
    text, tmp,
};

const ENGINES: [&str; 6] = [
    "--engine",
    "greedy",
    "--engine",
    "level:easy",
    "--engine",
    "random",
];

fn tournament(out: &Path, pairs: &str, seed: &str, extra: &[&str]) -> String {
    let mut args = vec!["tournament"];
    args.extend_from_slice(&ENGINES);
    args.extend_from_slice(&[
        "--pairs",
        pairs,
        "--seed",
        seed,
        "--bootstrap",
        "200",
        "--out",
    ]);
    args.push(s(out));
    args.extend_from_slice(extra);
    ok(&args)
}

#[test]
fn a_tournament_writes_ratings_reports_and_replayable_pairings() {
    let dir = tmp("basic");
    let out = dir.join("t");
    let text = tournament(
        &out,
        "6",
        "5",
        &["--threads", "2", "--anchor", "random=-100"],
    );
    assert!(
        text.contains("Tournament of 3 engines, round robin"),
        "{text}"
    );
    assert!(text.contains("anchor random = -100"), "{text}");
    for f in [
        "ratings.csv",
        "ratings.json",
        "report.md",
        "report.html",
        "summary.txt",
        "tournament.json",
        "games.jsonl",
        "games.csv",
    ] {
        assert!(out.join(f).is_file(), "{f} is missing");
    }
    // One row per engine, the anchor at its rating.
    let csv = std::fs::read_to_string(out.join("ratings.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    let anchor = csv.lines().find(|l| l.contains(",random,")).unwrap();
    assert!(anchor.contains(",-100.00,"), "{anchor}");
    let ratings = json_without_machine(&out.join("ratings.json"));
    assert_eq!(ratings["engines"].as_array().unwrap().len(), 3);
    assert_eq!(ratings["pairings"].as_array().unwrap().len(), 3);
    // 3 pairings × 6 pairs × 2 games.
    assert_eq!(
        std::fs::read_to_string(out.join("games.csv"))
            .unwrap()
            .lines()
            .count(),
        1 + 36
    );
    // Each pairing is a match folder `arena replay` reads.
    let pairing = out.join("pairings/02-greedy-vs-random");
    assert!(pairing.join("summary.json").is_file());
    let replay = ok(&["replay", s(&pairing), "--pair", "4", "--game", "2"]);
    assert!(replay.contains("identical"), "{replay}");
    // The tournament's own numbers reach the same game: job 4 × 3 + 1 = 13 (pairing 02), game 2
    // is number 2 × 13 + 2 = 28.
    let row = std::fs::read_to_string(out.join("games.csv"))
        .unwrap()
        .lines()
        .find(|l| l.starts_with("28,"))
        .unwrap()
        .to_string();
    assert!(row.starts_with("28,4,2,"), "{row}");
    let by_number = ok(&["replay", s(&out), "--game", "28"]);
    assert!(
        by_number.contains("is pair 4, game 2 of")
            && by_number.contains("02-greedy-vs-random")
            && by_number.contains("identical"),
        "{by_number}"
    );
    // The same tournament at one thread: the same games.
    let one = dir.join("one");
    tournament(
        &one,
        "6",
        "5",
        &["--threads", "1", "--anchor", "random=-100"],
    );
    assert_eq!(csv_without_timing(&out), csv_without_timing(&one));
    assert_eq!(
        json_without_machine(&out.join("ratings.json"))["engines"],
        json_without_machine(&one.join("ratings.json"))["engines"]
    );
}

#[test]
fn cfs_is_the_same_for_every_anchor() {
    // Issue 25: with four anchors the same games gave four CFS tables, because a resample in
    // which two ratings tie was broken by the rounding noise of the refit.
    let dir = tmp("cfs-anchors");
    let labels = ["greedy", "level:easy", "level:normal", "gn"];
    let mut tables = Vec::new();
    for anchor in labels {
        let out = dir.join(anchor.replace(':', "-"));
        let anchor_flag = format!("{anchor}=0");
        let text = ok(&[
            "tournament",
            "--engine",
            "greedy",
            "--engine",
            "level:easy",
            "--engine",
            "level:normal",
            "--engine",
            "greedy:noise=0.5,name=gn",
            "--pairs",
            "6",
            "--seed",
            "3",
            "--bootstrap",
            "2000",
            "--anchor",
            &anchor_flag,
            "--out",
            s(&out),
        ]);
        let ratings = json(&out.join("ratings.json"));
        let cfs: Vec<(String, String)> = ratings["engines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["label"].to_string(), e["cfs_next"].to_string()))
            .collect();
        // The text's rating list: rank, label and CFS (the last engine has none).
        let rows: Vec<String> = text
            .lines()
            .skip_while(|l| !l.contains("ENGINE"))
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .map(|l| {
                let t: Vec<&str> = l.split_whitespace().collect();
                let cfs = t.get(5).filter(|c| c.ends_with('%')).unwrap_or(&"-");
                format!("{} {} {cfs}", t[0], t[1])
            })
            .collect();
        assert_eq!(rows.len(), 4, "{text}");
        tables.push((cfs, rows, ratings["pairwise"].clone()));
    }
    for t in &tables[1..] {
        assert_eq!(t, &tables[0]);
    }
}

#[test]
fn a_gauntlet_and_a_resumed_tournament() {
    let dir = tmp("gauntlet");
    let out = dir.join("g");
    let text = tournament(&out, "3", "5", &["--gauntlet", "level:easy"]);
    assert!(text.contains("gauntlet"), "{text}");
    let r = json_without_machine(&out.join("ratings.json"));
    let pairings = r["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 2);
    assert!(pairings.iter().all(|p| p["a"] == "level:easy"));
    // Resuming with more pairs plays only the new ones and equals a run of that many at once.
    tournament(&out, "6", "5", &["--gauntlet", "level:easy", "--resume"]);
    let whole = dir.join("whole");
    tournament(&whole, "6", "5", &["--gauntlet", "level:easy"]);
    assert_eq!(csv_without_timing(&out), csv_without_timing(&whole));
    // Another seed is another run: refused.
    let mut args = vec!["tournament"];
    args.extend_from_slice(&ENGINES);
    args.extend_from_slice(&[
        "--gauntlet",
        "level:easy",
        "--seed",
        "6",
        "--resume",
        "--out",
    ]);
    args.push(s(&out));
    let err = refused(&args);
    assert!(err.contains("another run"), "{err}");
}

#[test]
fn config_files_fill_what_the_command_line_does_not_give() {
    let dir = tmp("config");
    let config = dir.join("c.json");
    std::fs::write(
        &config,
        r#"{"engines": ["greedy", "random:name=rnd"], "pairs": 2, "seed": 9, "anchor": "rnd=5",
            "nodes": 100}"#,
    )
    .unwrap();
    let out = dir.join("t");
    let text = ok(&[
        "tournament",
        "--config",
        s(&config),
        "--pairs",
        "3",
        "--out",
        s(&out),
    ]);
    assert!(text.contains("seed 9"), "{text}");
    assert!(text.contains("nodes=100"), "{text}");
    assert!(text.contains("3 pairs"), "{text}");
    assert!(text.contains("anchor rnd = 5"), "{text}");
    // Bad files name the problem.
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        "{\"engines\": [\"greedy\", \"random\"],\n \"pair\": 3}",
    )
    .unwrap();
    let err = refused(&["tournament", "--config", s(&bad)]);
    assert!(
        err.contains("bad.json") && err.contains("unknown field `pair`"),
        "{err}"
    );
    assert!(err.contains("line 2"), "{err}");
    std::fs::write(
        &bad,
        r#"{"engines": ["greedy", "random"], "anchor": "nobody=0"}"#,
    )
    .unwrap();
    let err = refused(&["tournament", "--config", s(&bad)]);
    assert!(err.contains("--anchor") && err.contains("nobody"), "{err}");
    let err = refused(&["tournament", "--engine", "greedy"]);
    assert!(err.contains("two engines or more"), "{err}");
    let err = refused(&[
        "tournament",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--gauntlet",
        "x",
    ]);
    assert!(err.contains("--gauntlet") && err.contains("'x'"), "{err}");
}

/// `--bootstrap 1` was accepted by `tournament` while `leak` wanted 100 to 100000: every
/// bootstrap count, flag or config field, now has that one range, and the error names its source.
#[test]
fn every_bootstrap_count_has_one_range() {
    let dir = tmp("bootstrap-range");
    let out = dir.join("t");
    let o = s(&out);
    let two = ["--engine", "greedy", "--engine", "random"];
    for n in ["0", "1", "99", "100001"] {
        let mut args = vec!["tournament"];
        args.extend_from_slice(&two);
        args.extend_from_slice(&["--bootstrap", n, "--out", o]);
        let err = refused(&args);
        assert!(
            err.contains("--bootstrap") && err.contains("between 100 and 100000"),
            "{n}: {err}"
        );
        let err = refused(&["leak", "--engine", "greedy", "--bootstrap", n, "--out", o]);
        assert!(
            err.contains("--bootstrap") && err.contains("between 100 and 100000"),
            "{n}: {err}"
        );
    }
    let config = dir.join("c.json");
    std::fs::write(
        &config,
        r#"{"engines": ["greedy", "random"], "pairs": 1, "bootstrap": 1,
            "leak": {"engines": ["greedy"]}}"#,
    )
    .unwrap();
    for command in ["tournament", "leak"] {
        let err = refused(&[command, "--config", s(&config), "--out", o]);
        assert!(
            err.contains("--config: bootstrap") && err.contains("between 100 and 100000"),
            "{command}: {err}"
        );
    }
    // A flag on the command line wins over the file's value.
    let text = ok(&[
        "tournament",
        "--config",
        s(&config),
        "--bootstrap",
        "100",
        "--out",
        o,
    ]);
    assert!(text.contains("100 bootstrap resamples"), "{text}");
    for command in ["tournament", "leak"] {
        let help = ok(&[command, "--help"]);
        assert!(help.contains("100 to 100000"), "{command}: {help}");
    }
}

/// Runs a match or tournament as `n` shards, each at one thread.
fn shards(dir: &Path, base: &[&str], n: u64) -> Vec<PathBuf> {
    (0..n)
        .map(|k| {
            let out = dir.join(format!("shard-{k}"));
            let shard = format!("{k}/{n}");
            let mut args = base.to_vec();
            args.extend_from_slice(&["--threads", "1", "--shard", &shard, "--out", s(&out)]);
            ok(&args);
            out
        })
        .collect()
}

#[test]
fn merged_shards_equal_one_machines_run() {
    let dir = tmp("merge");
    // A match: 3 shards at one thread each against one run at three threads.
    let base = match_args("greedy", "level:easy", "10", &["--seed", "3"]);
    let parts = shards(&dir.join("m"), &base, 3);
    let record = std::fs::read_to_string(parts[1].join("match.json")).unwrap();
    assert!(record.contains("\"shard\""), "{record}");
    let single = dir.join("m-single");
    let mut args = base.to_vec();
    args.extend_from_slice(&["--threads", "3", "--out", s(&single)]);
    ok(&args);
    let merged = dir.join("m-merged");
    let text = ok(&[
        "merge",
        s(&parts[0]),
        s(&parts[2]),
        s(&parts[1]),
        "--out",
        s(&merged),
    ]);
    assert!(text.contains("Merged 3 of 3 shards"), "{text}");
    assert!(!text.contains("FLAGGED"), "{text}");
    assert_eq!(csv_without_timing(&single), csv_without_timing(&merged));
    assert_eq!(
        json_without_machine(&single.join("summary.json")),
        json_without_machine(&merged.join("summary.json"))
    );

    // A tournament likewise, pairing folders included.
    let mut base = vec!["tournament"];
    base.extend_from_slice(&ENGINES);
    base.extend_from_slice(&["--pairs", "5", "--seed", "2", "--bootstrap", "100"]);
    let parts = shards(&dir.join("t"), &base, 2);
    let single = dir.join("t-single");
    let mut args = base.clone();
    args.extend_from_slice(&["--threads", "2", "--out", s(&single)]);
    ok(&args);
    let merged = dir.join("t-merged");
    ok(&["merge", s(&parts[0]), s(&parts[1]), "--out", s(&merged)]);
    assert_eq!(csv_without_timing(&single), csv_without_timing(&merged));
    assert_eq!(
        json_without_machine(&single.join("ratings.json")),
        json_without_machine(&merged.join("ratings.json"))
    );
    let folder = "pairings/03-level_easy-vs-random/summary.json";
    assert_eq!(
        json_without_machine(&single.join(folder)),
        json_without_machine(&merged.join(folder))
    );
}

#[test]
fn merge_refuses_what_does_not_belong_together() {
    let dir = tmp("refuse");
    let base = [
        "match", "--engine", "greedy", "--engine", "random", "--pairs", "6",
    ];
    let parts = shards(&dir, &base, 3);
    let out = dir.join("merged");
    // A missing shard: refused, then reported with --partial.
    let err = refused(&["merge", s(&parts[0]), s(&parts[1]), "--out", s(&out)]);
    assert!(
        err.contains("2 of 6 pairs are missing") && err.contains("2/3"),
        "{err}"
    );
    let text = ok(&[
        "merge",
        s(&parts[0]),
        s(&parts[1]),
        "--partial",
        "--out",
        s(&out),
    ]);
    assert!(text.contains("PARTIAL") && text.contains("2, 5"), "{text}");
    // The same shard twice.
    let err = refused(&["merge", s(&parts[0]), s(&parts[0]), "--out", s(&out)]);
    assert!(err.contains("given twice"), "{err}");
    // A shard of another run (another seed) is named with what differs.
    let other = dir.join("other");
    let mut args = base.to_vec();
    args.extend_from_slice(&["--seed", "77", "--shard", "2/3", "--out", s(&other)]);
    ok(&args);
    let err = refused(&[
        "merge",
        s(&parts[0]),
        s(&parts[1]),
        s(&other),
        "--out",
        s(&out),
    ]);
    assert!(
        err.contains("not shards of one run") && err.contains("seed"),
        "{err}"
    );
    // Another N.
    let four = dir.join("four");
    let mut args = base.to_vec();
    args.extend_from_slice(&["--shard", "3/4", "--out", s(&four)]);
    ok(&args);
    let err = refused(&["merge", s(&parts[0]), s(&four), "--out", s(&out)]);
    assert!(err.contains("same N"), "{err}");
    // Not a results folder.
    let err = refused(&["merge", s(&dir), "--out", s(&out)]);
    assert!(err.contains("not a results folder"), "{err}");
}

#[test]
fn the_homogeneity_check_flags_a_broken_shard() {
    let dir = tmp("tamper");
    let base = match_args("greedy", "level:easy", "90", &["--seed", "4"]);
    let parts = shards(&dir, &base, 3);
    let out = dir.join("honest");
    let text = ok(&[
        "merge",
        s(&parts[0]),
        s(&parts[1]),
        s(&parts[2]),
        "--out",
        s(&out),
    ]);
    assert!(!text.contains("FLAGGED"), "{text}");
    // A broken worker: shard 1 was played by a wrong build of the first engine (random in
    // greedy's place). Its games are real games of their pairs' deals, so every record holds up
    // (an edited result would be refused); only their results tell.
    let broken = dir.join("broken");
    let mut args = base.to_vec();
    args[2] = "random";
    args.extend_from_slice(&["--threads", "1", "--shard", "1/3", "--out", s(&broken)]);
    ok(&args);
    let fingerprint = crate::common::json(&parts[1].join("match.json"))["fingerprint"].clone();
    let journal = parts[1].join("games.jsonl");
    let tampered: String = std::fs::read_to_string(broken.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let mut g: serde_json::Value = serde_json::from_str(l).unwrap();
            g["fingerprint"] = fingerprint.clone();
            for side in ["red", "black"] {
                if g[side] == "random" {
                    g[side] = "greedy".into();
                }
            }
            g.as_object_mut().unwrap().remove("check");
            let g: arena::records::GameLine = serde_json::from_value(g).unwrap();
            arena::records::checked_line(&g).unwrap() + "\n"
        })
        .collect();
    std::fs::write(&journal, tampered).unwrap();
    let out = dir.join("tampered");
    let text = ok(&[
        "merge",
        s(&parts[0]),
        s(&parts[1]),
        s(&parts[2]),
        "--out",
        s(&out),
    ]);
    let flagged: Vec<&str> = text.lines().filter(|l| l.contains("FLAGGED")).collect();
    assert_eq!(flagged.len(), 1, "{text}");
    assert!(flagged[0].contains("1/3"), "{text}");
    assert!(text.contains("WARNING"), "{text}");
    let report = json_without_machine(&out.join("merge.json"));
    assert_eq!(report["checks"][1]["flagged"], true);
}

/// Runs `bash scripts/nightly.sh ARGS...` with this build's arena, one thread; its output.
fn nightly(args: &[&str]) -> std::process::Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/nightly.sh");
    Command::new("bash")
        .arg(script)
        .args(args)
        .args(["--threads", "1"])
        .env("ARENA", crate::common::arena_bin())
        .output()
        .expect("bash runs")
}

#[test]
fn history_takes_only_nights_by_series_and_date_and_the_report_page_renders() {
    let test =
        "tournament_cli::history_takes_only_nights_by_series_and_date_and_the_report_page_renders";
    if !have_bash(test) {
        return;
    }
    let dir = tmp("nights");
    let config = dir.join("nightly.json");
    std::fs::write(
        &config,
        r#"{"engines": ["greedy", "level:easy", "random"], "pairs": 4, "bootstrap": 200}"#,
    )
    .unwrap();
    let nights = dir.join("nights");
    let night = |date: &str, extra: &[&str]| {
        let mut args = vec!["--config", s(&config), "--root", s(&nights), "--date", date];
        args.extend_from_slice(extra);
        nightly(&args)
    };
    // Only real dates are nights' dates, and a quick try stays out of the nightly root.
    for bad in ["2026-13-45", "try", "2026-02-29"] {
        let o = night(bad, &[]);
        assert_eq!(o.status.code(), Some(2), "--date {bad}");
        assert!(
            text(&o.stderr).contains("not a real date"),
            "{}",
            text(&o.stderr)
        );
    }
    let o = nightly(&["--date", "2026-11-30", "--", "--pairs", "20"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--root results/nightly-try"),
        "{}",
        text(&o.stderr)
    );

    for date in ["2026-11-29", "2026-11-30"] {
        let o = night(date, &[]);
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    // Not nights: a tournament copied in under any name, a night copied under another date.
    tournament(&nights.join("quick-try"), "2", "1", &[]);
    let copy = Command::new("cp")
        .args([
            "-r",
            s(&nights.join("2026-11-29")),
            s(&nights.join("2026-12-05")),
        ])
        .status()
        .expect("cp runs");
    assert!(copy.success());
    // A try with other pairs in the same root is a series of its own.
    let o = night("2026-12-01", &["--", "--pairs", "2"]);
    assert!(o.status.success(), "{}", text(&o.stderr));

    let o = crate::common::arena(&["history", s(&nights)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (stdout, stderr) = (text(&o.stdout), text(&o.stderr));
    assert!(
        stderr.contains("skipped quick-try: no night.json"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skipped 2026-12-05: night.json records the night 2026-11-29"),
        "{stderr}"
    );
    // The newest night's series is the index; the 4-pair series has its own page.
    assert!(
        stdout.contains("1 night of series nightly: 2 pairs"),
        "{stdout}"
    );
    assert!(
        stdout.contains("nightly: 4 pairs") && stdout.contains("(2 nights)"),
        "{stdout}"
    );
    let pages: Vec<String> = std::fs::read_dir(&nights)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with("series-"))
        .collect();
    assert_eq!(pages.len(), 2, "{pages:?}");
    let series = pages
        .iter()
        .map(|p| std::fs::read_to_string(nights.join(p)).unwrap())
        .find(|html| html.contains("2026-11-29/report.html"))
        .expect("the 4-pair series' page");
    assert!(series.contains("2026-11-30/report.html"));
    assert!(
        !series.contains("quick-try/report.html") && !series.contains("2026-12-05/report.html")
    );
    assert!(
        !series.contains("2026-12-01/report.html"),
        "another series' night"
    );
    assert!(series.contains("Skipped folders") && series.contains("quick-try"));
    assert!(
        series.contains("\u{394} since 11-29"),
        "the latest night's change"
    );

    // The second night's report: its series' history, Δ, links back; the first one's report
    // links forward once the second has run.
    let second = std::fs::read_to_string(nights.join("2026-11-30/report.html")).unwrap();
    assert!(second.contains("2026-11-29") && second.contains("id=\"history\""));
    assert!(second.contains("\u{394} since 11-29"));
    assert!(second.contains("href=\"../2026-11-29/report.html\""));
    assert!(!second.contains("quick-try") && !second.contains("2026-12-01"));
    let first = std::fs::read_to_string(nights.join("2026-11-29/report.html")).unwrap();
    assert!(
        first.contains("href=\"../2026-11-30/report.html\""),
        "next link added"
    );
    assert!(
        !first.contains("\u{394} since"),
        "no night before the first"
    );
    // Both pages say what code played: the build the tournament recorded.
    assert!(first.contains("<p class=\"identity\">code ") && first.contains("arena sha256 "));
    assert!(
        series.contains("arena sha256 "),
        "the index names each night's code"
    );

    let err = refused(&["history", s(&nights.join("2026-11-29"))]);
    assert!(err.contains("one night's folder"), "{err}");
    let err = refused(&["history", s(&nights.join("quick-try"))]);
    assert!(err.contains("no nights in it"), "{err}");
    let err = refused(&["history", s(&dir.join("nowhere"))]);
    assert!(err.contains("no such folder"), "{err}");
    let dir = nights;

    // Headless Chromium draws the page. Without bash or Chromium that fails in CI and is said
    // to be skipped elsewhere.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/screenshot.sh");
    let png = dir.join("report.png");
    let o = Command::new("bash")
        .arg(&script)
        .arg(dir.join("2026-11-30/report.html"))
        .arg(&png)
        .arg("1280x2000")
        .output()
        .expect("bash runs");
    // screenshot.sh's "skipped" status: no chromium, chromium-browser or google-chrome on PATH.
    if o.status.code() == Some(77) {
        missing(test, "chromium not found (apt-get install chromium)");
        return;
    }
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "not a PNG");
    assert!(bytes.len() > 20_000, "a blank page? {} bytes", bytes.len());
}

/// A night as scripts/nightly.sh makes one, without the script: the marker first, then a
/// tournament into the folder.
fn night_folder(root: &Path, date: &str, seed: &str, pairs: &str) -> PathBuf {
    let folder = root.join(date);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("night.json"),
        format!(r#"{{"night": "{date}", "commit": "unknown", "made_by": "scripts/nightly.sh"}}"#),
    )
    .unwrap();
    tournament(&folder, pairs, seed, &["--threads", "1"]);
    folder
}

/// `arena history` reads and writes only the root's own files: a night folder that is a link
/// out of the root is skipped, a night's report.html that is a link out of it is not rewritten,
/// an index page that is one is refused; each is said. A night.json that is no file is named as
/// what it is (a pipe is never opened to wait), and a rating list of more engines than a night
/// has is skipped with the bound.
#[test]
fn history_leaves_what_lies_outside_the_root_alone() {
    let dir = tmp("history-links");
    let (root, outside) = (dir.join("nights"), dir.join("outside"));
    std::fs::create_dir_all(&outside).unwrap();
    let first = night_folder(&root, "2026-11-29", "1", "2");
    night_folder(&root, "2026-11-30", "1", "2");
    // An older series of one night, of one pair.
    night_folder(&root, "2026-11-01", "2", "1");
    // The first night's report lives outside the root, reached through a link; the second
    // night's run added a next night, so history would rewrite it.
    let victim = outside.join("victim.html");
    std::fs::rename(first.join("report.html"), &victim).unwrap();
    std::os::unix::fs::symlink(&victim, first.join("report.html")).unwrap();
    // A whole night outside, linked in.
    let far = outside.join("2026-12-01");
    Command::new("cp")
        .args(["-r", s(&first), s(&far)])
        .status()
        .unwrap();
    std::fs::remove_file(far.join("report.html")).unwrap();
    std::fs::copy(&victim, far.join("report.html")).unwrap();
    std::fs::write(
        far.join("night.json"),
        r#"{"night": "2026-12-01", "commit": "unknown"}"#,
    )
    .unwrap();
    std::os::unix::fs::symlink(&far, root.join("2026-12-01")).unwrap();
    let before = (
        std::fs::read(&victim).unwrap(),
        std::fs::read(far.join("report.html")).unwrap(),
    );
    let o = crate::common::arena(&["history", s(&root)]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(o.status.success(), "{err}");
    assert!(out.contains("skipped 1 folder, not nights"), "{out}");
    assert!(
        out.contains("1 other series")
            && out.contains("1 pair, seed 2")
            && out.contains("(1 night)"),
        "{out}"
    );
    assert!(
        err.contains("skipped 2026-12-01: a link to") && err.contains("outside"),
        "{err}"
    );
    assert!(
        err.contains("report.html: a link to") && err.contains("not rewritten"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&victim).unwrap(),
        before.0,
        "rewritten through a link"
    );
    assert_eq!(std::fs::read(far.join("report.html")).unwrap(), before.1);

    // An index page that leads outside is refused, its target untouched.
    std::fs::remove_file(root.join("index.html")).unwrap();
    std::os::unix::fs::symlink(outside.join("index.html"), root.join("index.html")).unwrap();
    let o = crate::common::arena(&["history", s(&root)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("index.html: a link to") && err.contains("; not written"),
        "{err}"
    );
    assert!(!outside.join("index.html").exists());
    std::fs::remove_file(root.join("index.html")).unwrap();

    // night.json as a folder, a pipe: named as what they are.
    let odd = root.join("2026-12-02");
    std::fs::create_dir_all(odd.join("night.json")).unwrap();
    let pipe = root.join("2026-12-03");
    std::fs::create_dir_all(&pipe).unwrap();
    let made = Command::new("mkfifo").arg(pipe.join("night.json")).status();
    let piped = made.is_ok_and(|s| s.success());
    // More engines than a night has: the list of the second night, its first engine repeated.
    let big = root.join("2026-12-04");
    Command::new("cp")
        .args(["-r", s(&root.join("2026-11-30")), s(&big)])
        .status()
        .unwrap();
    std::fs::write(big.join("night.json"), r#"{"night": "2026-12-04"}"#).unwrap();
    let mut ratings = crate::common::json(&big.join("ratings.json"));
    let one = ratings["engines"][0].clone();
    ratings["engines"] = serde_json::Value::Array(vec![one; 1001]);
    std::fs::write(big.join("ratings.json"), ratings.to_string()).unwrap();
    let o = crate::common::arena(&["history", s(&root)]);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("skipped 2026-12-02: night.json: is a folder"),
        "{err}"
    );
    if piped {
        assert!(
            err.contains("skipped 2026-12-03: night.json: is not a regular file (a named pipe)"),
            "{err}"
        );
    }
    assert!(
        err.contains(
            "skipped 2026-12-04: ratings.json rates 1001 engines, and a night has at most 1000"
        ),
        "{err}"
    );
    assert!(out.contains("2 nights of series"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A config's `leak` section is checked by `arena tournament --config` as `arena leak --config`
/// checks it (one check), though only `leak` plays it.
#[test]
fn a_configs_leak_section_is_checked_wherever_it_is_read() {
    let dir = tmp("leak-section");
    let config = dir.join("c.json");
    let out = dir.join("out");
    for (leak, says) in [
        (r#"{"engines": ["nosuch"]}"#, "'nosuch'"),
        (
            r#"{"engines": ["greedy"], "opponent": "nobody"}"#,
            "'nobody'",
        ),
        (r#"{"engines": []}"#, "give an engine to measure"),
        (r#"{"engines": ["greedy", "greedy"]}"#, "given twice"),
        (
            r#"{"engines": ["greedy"], "opponent": "greedy"}"#,
            "leave out --opponent",
        ),
        (r#"{"engines": ["greedy"], "pairs": 0}"#, "leak.pairs"),
    ] {
        std::fs::write(
            &config,
            format!(r#"{{"engines": ["greedy", "random"], "pairs": 2, "leak": {leak}}}"#),
        )
        .unwrap();
        for command in ["tournament", "leak"] {
            let e = refused(&[command, "--config", s(&config), "--out", s(&out), "--check"]);
            assert!(
                e.contains("--config: leak") && e.contains(says),
                "{command} {leak}: {e}"
            );
        }
    }
    assert!(!out.exists());
    // A good section passes both.
    std::fs::write(
        &config,
        r#"{"engines": ["greedy", "random"], "pairs": 2, "leak": {"engines": ["greedy"], "opponent": "random"}}"#,
    )
    .unwrap();
    for command in ["tournament", "leak"] {
        ok(&[command, "--config", s(&config), "--out", s(&out), "--check"]);
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// The terminal's pairwise table cut names to 14 characters: `level:easy,name=very-long-one`
/// read as another engine. A name that does not fit is never cut: the columns are numbered by
/// the rating list's `#` and the rows carry the number and the whole name. A pairing whose
/// every pair split 1–1 (or a single pair) has no interval, and says so.
#[test]
fn the_pairwise_table_never_cuts_a_name_and_a_single_pair_has_no_interval() {
    let dir = tmp("long-names");
    let out = ok(&[
        "tournament",
        "--engine",
        "greedy:name=greedy-with-a-long-name",
        "--engine",
        "random",
        "--pairs",
        "1",
        "--bootstrap",
        "100",
        "--out",
        s(&dir.join("t")),
    ]);
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Pairwise:"))
        .take(4)
        .collect();
    assert!(table[0].contains("columns by # in the list above"), "{out}");
    assert!(table[1].contains("#1") && table[1].contains("#2"), "{out}");
    assert!(
        table
            .iter()
            .any(|l| l.starts_with("#1 greedy-with-a-long-name ")),
        "the whole name with its number: {out}"
    );
    assert!(
        !out.contains("greedy-with-a-\n") && !out.contains("greedy-with-a- "),
        "{out}"
    );
    let pairing = out
        .lines()
        .find(|l| l.contains(" vs ") && l.contains("W-D-L"))
        .expect("a pairing line");
    assert!(
        pairing.contains("1 pair,")
            && pairing.contains("(interval undefined: one pair is too few")
            && pairing.contains("LOS n/a"),
        "{pairing}"
    );
    let ratings = json(&dir.join("t/ratings.json"));
    assert_eq!(ratings["pairings"][0]["los"], serde_json::Value::Null);
    assert!(ratings["pairings"][0]["interval_undefined"].is_string());
}
