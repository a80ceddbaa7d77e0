//! The exit status of each outcome, as docs/match.md lists them: one row per status, each a
//! cheap command (a pair or a few of quick engines) and the status it must give.

use std::path::Path;

use crate::common::{arena, gate_args, interrupted_after_lines, match_args, ok, s, text, tmp};

/// How a row's command is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum How {
    /// To its end.
    Plain,
    /// Sent SIGINT once its folder's journal holds a pair (the folder follows `--out`).
    Interrupted,
}

/// A match of `pairs` pairs of greedy against random into `out`, with more arguments.
fn a_match(pairs: &str, out: &Path, more: &[&str]) -> Vec<String> {
    let mut rest = vec!["--seed", "5", "--no-progress", "--out", s(out)];
    rest.extend_from_slice(more);
    owned(&match_args("greedy", "random", pairs, &rest))
}

/// A gate of `new` against `base` (`--elo0 0 --elo1 10`) into `out`, with more arguments.
fn a_gate(new: &str, base: &str, out: &Path, more: &[&str]) -> Vec<String> {
    let mut rest = vec!["--no-progress", "--out", s(out)];
    rest.extend_from_slice(more);
    owned(&gate_args(new, base, &rest))
}

/// The arguments as owned strings (a row keeps them beside paths made for it).
fn owned(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_string()).collect()
}

/// A recorded match whose first move was edited (in a journal without checksums, as an older
/// version wrote them), so that replaying its first game differs from the record.
fn edited_match(dir: &Path) {
    ok(&a_match("1", dir, &[])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    let journal = dir.join("games.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("check");
            if i == 0 {
                v["moves"][0] = serde_json::Value::String("a0a1R".into());
            }
            v.to_string() + "\n"
        })
        .collect();
    std::fs::write(&journal, lines.concat()).unwrap();
}

#[test]
fn each_outcome_exits_with_its_documented_status() {
    let root = tmp("codes");
    let file = root.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let edited = root.join("edited");
    edited_match(&edited);
    let (d, e) = (s(&edited), &root);
    #[rustfmt::skip]
    let rows: Vec<(i32, &str, How, Vec<String>)> = vec![
        (0, "a match played to its end", How::Plain, a_match("1", &e.join("ok"), &[])),
        (1, "a gate that accepts H0", How::Plain,
            a_gate("random", "greedy", &e.join("h0"), &["--threads", "2"])),
        (2, "bad usage: nothing played", How::Plain, a_match("0", &e.join("usage"), &[])),
        (3, "a gate inconclusive at its cap", How::Plain,
            a_gate("greedy", "random", &e.join("cap"), &["--max-pairs", "3"])),
        (3, "a replay that differs from its record", How::Plain,
            ["replay", d, "--pair", "0", "--game", "1"].map(String::from).to_vec()),
        (4, "--out under a regular file: results cannot be written", How::Plain,
            a_match("1", &file.join("out"), &[])),
        (5, "an engine that fails in every game", How::Plain, a_match("1", &e.join("fail"), &[])
            .into_iter()
            .map(|a| if a == "random" { "faulty:mode=panic,after=0".into() } else { a })
            .collect()),
        (130, "Ctrl-C", How::Interrupted, a_match("1000000", &e.join("cut"), &["--threads", "1"])),
    ];
    for (code, what, how, args) in rows {
        let o = match how {
            How::Plain => arena(&args.iter().map(String::as_str).collect::<Vec<_>>()),
            How::Interrupted => {
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                interrupted_after_lines(&args, &e.join("cut").join("games.jsonl"), 2)
            }
        };
        assert_eq!(
            o.status.code(),
            Some(code),
            "{what}: arena {args:?}\n{}{}",
            text(&o.stdout),
            text(&o.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(root);
}
