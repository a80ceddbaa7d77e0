//! Records that were tampered with: what `--resume` refuses, and what it upgrades.

use serde_json::Value;

use crate::common::{ok, refused, s, tmp};

/// The arguments of a `pairs`-pair match of `greedy` against `random` (seed 9, one thread) into
/// `run`, resumed there when `resume`.
fn the_match<'a>(run: &'a std::path::Path, pairs: &'a str, resume: bool) -> Vec<&'a str> {
    let mut args = vec![
        "match",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--pairs",
        pairs,
        "--threads",
        "1",
        "--seed",
        "9",
        "--out",
        s(run),
        "--no-progress",
    ];
    if resume {
        args.push("--resume");
    }
    args
}

/// A 3-pair match of `greedy` against `random` in `dir/run`.
fn played(dir: &std::path::Path) -> std::path::PathBuf {
    let run = dir.join("run");
    ok(&the_match(&run, "3", false));
    run
}

/// The journal's lines as JSON values.
fn lines(run: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(run.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn write(run: &std::path::Path, lines: &[Value]) {
    let text: String = lines.iter().map(|v| v.to_string() + "\n").collect();
    std::fs::write(run.join("games.jsonl"), text).unwrap();
}

#[test]
fn a_flipped_result_without_its_checksum_is_not_resumed() {
    let dir = tmp("flipped");
    let run = played(&dir);
    let mut all = lines(&run);
    let flipped = match all[2]["result"].as_str().unwrap() {
        "1-0" => "0-1",
        _ => "1-0",
    };
    all[2]["result"] = Value::from(flipped);
    all[2].as_object_mut().unwrap().remove("check");
    write(&run, &all);
    let err = refused(&the_match(&run, "4", true));
    assert!(
        err.contains("line 3 has no checksum while line 1 has one"),
        "{err}"
    );
}

#[test]
fn a_journal_from_before_checksums_resumes_into_a_checked_one() {
    let dir = tmp("upgrade");
    let run = played(&dir);
    // As a version before checksums wrote it, and interrupted after two pairs.
    let mut all = lines(&run);
    for v in &mut all {
        v.as_object_mut().unwrap().remove("check");
    }
    all.truncate(4);
    write(&run, &all);
    ok(&the_match(&run, "3", true));
    let resumed = lines(&run);
    assert_eq!(resumed.len(), 6);
    assert!(
        resumed.iter().all(|v| v["check"].is_string()),
        "every line checked"
    );
    // And it resumes again (no mixed journal).
    ok(&the_match(&run, "4", true));
    assert_eq!(lines(&run).len(), 8);
}

#[test]
fn times_in_milliseconds_are_bounded_by_a_day() {
    let dir = tmp("bounds");
    let out = dir.join("run");
    for args in [
        vec!["match", "--movetime", "18446744073709551615"],
        vec!["match", "--move-timeout", "86400001"],
        vec!["solve", "suite.epd", "--move-timeout", "99999999999"],
        vec!["analyze", "x", "--movetime", "86400001"],
        vec!["jai", "--movetime", "86400001"],
    ] {
        let mut all = args.clone();
        if args[0] == "match" {
            all.extend(["--engine", "greedy", "--engine", "random", "--out", s(&out)]);
        }
        let o = crate::common::arena(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        let err = crate::common::text(&o.stderr);
        assert!(
            err.contains("more than a day (86400000 ms)"),
            "{all:?}: {err}"
        );
    }
    let err = refused(&[
        "match",
        "--engine",
        "greedy:movetime=86400001",
        "--engine",
        "random",
        "--out",
        s(&out),
    ]);
    assert!(err.contains("more than a day"), "{err}");
    // A day itself is allowed (the plan goes on to its other checks).
    let o = crate::common::arena(&[
        "match",
        "--movetime",
        "86400000",
        "--check",
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--out",
        s(&out),
    ]);
    assert!(o.status.success(), "{}", crate::common::text(&o.stderr));
}

/// Line `number` (1-based) of the journal of `run` changed by `edit`, its checksum recomputed as
/// the arena computes it ([`arena::records::checked_line`]): the line is consistent with its
/// checksum, and only the record check can find it wrong.
fn tamper(run: &std::path::Path, number: usize, edit: impl FnOnce(&mut Value, &[Value])) {
    let all = lines(run);
    let mut edited = all.clone();
    edit(&mut edited[number - 1], &all);
    let text: String = edited
        .into_iter()
        .map(|mut v| {
            v.as_object_mut().unwrap().remove("check");
            let g: arena::records::GameLine = serde_json::from_value(v).unwrap();
            arena::records::checked_line(&g).unwrap() + "\n"
        })
        .collect();
    std::fs::write(run.join("games.jsonl"), text).unwrap();
}

/// A 3-pair match of greedy against random with line 3 (pair 1, game 1: greedy mates random in
/// 93 plies) edited by `edit` and its checksum recomputed; `--resume` and `arena merge` must
/// both refuse it, naming the file, the line, the game, `why` and the way on.
#[track_caller]
fn refused_everywhere(name: &str, why: &str, edit: impl FnOnce(&mut Value, &[Value])) {
    let dir = tmp(name);
    let run = played(&dir);
    assert_eq!(
        lines(&run)[2]["reason"],
        "checkmate",
        "the game the tests edit"
    );
    assert_eq!(lines(&run)[2]["plies"], 93, "the game the tests edit");
    tamper(&run, 3, edit);
    let journal = run.join("games.jsonl");
    let before = std::fs::read(&journal).unwrap();
    let at = format!(
        "{}:3: pair 1 game 1 (greedy vs random) does not hold up: ",
        journal.display()
    );
    let err = refused(&the_match(&run, "3", true));
    assert!(err.contains(&at), "{err}");
    assert!(err.contains(why), "{err}");
    assert!(err.contains("delete the line to replay that pair"), "{err}");
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        before,
        "the journal is left as it was"
    );
    let merged = dir.join("merged");
    let err = refused(&["merge", s(&run), "--out", s(&merged)]);
    assert!(err.contains(&at), "{err}");
    assert!(err.contains(why), "{err}");
    assert!(err.contains("--resume that shard"), "{err}");
    assert!(!merged.join("games.csv").exists(), "nothing merged");
}

#[test]
fn a_flipped_result_with_its_checksum_is_refused() {
    refused_everywhere(
        "recheck-result",
        "it ends 0-1 (checkmate) but after its 93 plies the rules say 1-0 (checkmate)",
        |v, _| v["result"] = Value::from("0-1"),
    );
}

#[test]
fn a_changed_termination_with_its_checksum_is_refused() {
    refused_everywhere(
        "recheck-reason",
        "it ends 1-0 (stalemate) but after its 93 plies the rules say 1-0 (checkmate)",
        |v, _| v["reason"] = Value::from("stalemate"),
    );
}

#[test]
fn a_game_of_another_pair_with_its_checksum_is_refused() {
    // Pair 0's first game, moves, deal and seed all consistent, passed off as pair 1's.
    refused_everywhere(
        "recheck-seed",
        "is not pair 1's: the run's master seed 9 deals pair 1 from seed",
        |v, all| {
            *v = all[0].clone();
            v["pair"] = Value::from(1);
        },
    );
}

#[test]
fn a_deal_that_is_not_the_seeds_with_its_checksum_is_refused() {
    refused_everywhere("recheck-deal", "is not the deal of its seed", |v, _| {
        let red = v["deal"]["red"].as_str().unwrap();
        let mut chars: Vec<char> = red.chars().collect();
        let other = chars.iter().position(|&c| c != chars[0]).unwrap();
        chars.swap(0, other);
        v["deal"]["red"] = Value::from(chars.into_iter().collect::<String>());
    });
}

#[test]
fn an_extra_move_with_its_checksum_is_refused() {
    refused_everywhere(
        "recheck-move",
        "at ply 94: recorded a0a1: the game was already over",
        |v, _| {
            v["moves"].as_array_mut().unwrap().push(Value::from("a0a1"));
            v["plies"] = Value::from(94);
        },
    );
}

/// Figures no game makes, with the checksum recomputed: resume and merge used to take them (a
/// depth of 4294967295 made the summary's mean depth 14128182.9).
#[test]
fn impossible_search_figures_with_their_checksum_are_refused() {
    refused_everywhere(
        "recheck-search",
        "field search holds 593 entries for its 93 moves",
        |v, _| {
            let entry = v["search"][0].clone();
            let search = v["search"].as_array_mut().unwrap();
            search.extend(std::iter::repeat_n(entry, 500));
        },
    );
    refused_everywhere(
        "recheck-depth",
        "field search[4].depth is 4294967295",
        |v, _| v["search"][4]["depth"] = Value::from(u32::MAX),
    );
    refused_everywhere("recheck-total", "field total_ms is -5 ms", |v, _| {
        v["total_ms"] = Value::from(-5.0)
    });
}

/// A line with red and black swapped used to be dropped on resume (its pair played again) and
/// its pair called missing by merge.
#[test]
fn swapped_colours_with_their_checksum_are_refused() {
    let dir = tmp("recheck-colours");
    let run = played(&dir);
    tamper(&run, 3, |v, _| {
        let red = v["red"].clone();
        v["red"] = v["black"].clone();
        v["black"] = red;
    });
    let journal = run.join("games.jsonl");
    let before = std::fs::read(&journal).unwrap();
    let at = format!(
        "{}:3: pair 1 game 1 (random vs greedy) does not hold up: fields red 'random' and black \
         'greedy' are no pairing of the run as game 1 has them",
        journal.display()
    );
    let err = refused(&the_match(&run, "3", true));
    assert!(err.contains(&at), "{err}");
    assert_eq!(std::fs::read(&journal).unwrap(), before);
    let err = refused(&["merge", s(&run), "--out", s(&dir.join("merged"))]);
    assert!(err.contains(&at), "{err}");
}

#[test]
fn a_wrong_ply_count_with_its_checksum_is_refused() {
    refused_everywhere(
        "recheck-plies",
        "it says 7 plies but holds 93 moves",
        |v, _| v["plies"] = Value::from(7),
    );
}

#[test]
fn a_wrong_capture_count_with_its_checksum_is_refused() {
    refused_everywhere("recheck-captures", "it says 99 captures", |v, _| {
        v["captures"] = Value::from(99)
    });
}

#[test]
fn replay_refuses_a_game_of_another_pair() {
    let dir = tmp("replay-seed");
    let run = played(&dir);
    tamper(&run, 3, |v, all| {
        *v = all[0].clone();
        v["pair"] = Value::from(1);
    });
    let err = refused(&["replay", s(&run), "--pair", "1", "--game", "1", "--show"]);
    assert!(err.contains("pair 1 game 1 names deal seed"), "{err}");
    assert!(err.contains("deals pair 1 from seed"), "{err}");
}
