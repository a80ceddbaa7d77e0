//! The run samples of README.md and docs/ cannot drift from the programs. A sample is the output
//! of a command, quoted between markers, as the `--help` blocks are (see [`crate::docs`]):
//!
//! ````text
//! <!-- setup: arena match --engine greedy --engine random --pairs 2 --out results/m -->
//! <!-- sample: arena replay results/m --game 3 | keep 1-4,-2 -->
//! ```text
//! $ arena replay results/m --game 3
//! …lines 1–4 of the output, a line "…", its last 2 lines…
//! ```
//! <!-- end sample -->
//! ````
//!
//! The commands of a page run in order in one fresh folder (holding a link to `configs/`), so a
//! sample may read what an earlier one wrote; `setup:` lines just before a sample run first and
//! are not shown (the prose says what they are). Only `arena …` commands, split at spaces, may be
//! quoted: nothing runs through a shell. What a terminal shows is quoted: stdout, then stderr.
//! `| keep A-B,C-,-N` shows only those lines (1-based; `C-` to the end, `-N` the last N), each
//! gap as one `…` line; without it the whole output is quoted.
//!
//! The games are the same on every machine (seeds, node limits), their timing is not, so the
//! comparison masks it: the `Build:` line (the commit and the binary's hash change with every
//! commit), the `Time:` line, and every number followed by `ms`. A regenerated page keeps the
//! real values of the run that wrote it.
//!
//! `UPDATE_DOCS=1 cargo test -p arena --profile ci --test it docs` (the command that regenerates
//! the help blocks) reruns every sample and rewrites the stale ones.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{arena_bin, tmp};
use crate::docs::{doc_pages, fenced, marked_blocks, root, shown, updating};

/// The line that opens a sample; the command follows it, then ` -->`.
const OPEN: &str = "<!-- sample: ";
/// The line that closes a sample.
const CLOSE: &str = "<!-- end sample -->";
/// A command run before the sample that follows it, its output not shown.
const SETUP: &str = "<!-- setup: ";
/// What a failure tells the reader to run.
const REGENERATE: &str = "UPDATE_DOCS=1 cargo test -p arena --profile ci --test it docs";
/// The longest a sample's command may run: a sample is meant to take seconds.
const MAX_RUN: Duration = Duration::from_secs(120);
/// The exit statuses a sample may end with: success and the verdicts (`sprt`'s 1, 3 and 5,
/// `replay`'s 3). A refusal (2), a write failure (4) or a panic is a broken sample.
const ACCEPTED_EXITS: [i32; 4] = [0, 1, 3, 5];

/// A sample as its markers give it: the commands run before it, its own, and the lines kept.
#[derive(Debug, PartialEq)]
struct Sample {
    setup: Vec<String>,
    command: String,
    keep: Option<Vec<Span>>,
}

/// Lines of an output a sample keeps, 1-based and inclusive; `FromEnd(n)` is the last `n`.
#[derive(Debug, PartialEq, Clone, Copy)]
enum Span {
    Lines(usize, Option<usize>),
    FromEnd(usize),
}

/// Reads a `keep` list: `A-B`, `A-` or `-N`, separated by commas.
fn parse_keep(spec: &str) -> Result<Vec<Span>, String> {
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("keep `{spec}`: `{s}` is not a line number (1 or more)"))
    };
    spec.split(',')
        .map(|part| match part.trim().split_once('-') {
            Some(("", last)) => Ok(Span::FromEnd(number(last)?)),
            Some((first, "")) => Ok(Span::Lines(number(first)?, None)),
            Some((first, last)) => {
                let (a, b) = (number(first)?, number(last)?);
                if a > b {
                    return Err(format!("keep `{spec}`: `{part}` ends before it starts"));
                }
                Ok(Span::Lines(a, Some(b)))
            }
            None => {
                let n = number(part)?;
                Ok(Span::Lines(n, Some(n)))
            }
        })
        .collect()
}

/// Reads a sample marker's text: `COMMAND` or `COMMAND | keep SPANS`.
fn parse_command(text: &str) -> Result<(String, Option<Vec<Span>>), String> {
    match text.split_once('|') {
        None => Ok((text.trim().to_owned(), None)),
        Some((command, rest)) => {
            let spec = rest
                .trim()
                .strip_prefix("keep ")
                .ok_or_else(|| format!("`{text}`: after `|` only `keep A-B,C-,-N` may follow"))?;
            Ok((command.trim().to_owned(), Some(parse_keep(spec)?)))
        }
    }
}

/// The `setup:` commands that end the text before a sample's marker (blank lines between them
/// allowed), or what is wrong: a setup line that some other text separates from its sample.
fn setups_before(text: &str) -> Result<Vec<String>, String> {
    let mut setups = Vec::new();
    for line in text.lines().rev().map(str::trim) {
        if line.is_empty() {
            continue;
        }
        let Some(rest) = line.strip_prefix(SETUP) else {
            break;
        };
        let command = rest
            .strip_suffix(" -->")
            .ok_or_else(|| format!("marker `{line}` does not end with ` -->`"))?;
        setups.push(command.trim().to_owned());
    }
    setups.reverse();
    let all = text.lines().filter(|l| l.trim().starts_with(SETUP)).count();
    if all != setups.len() {
        return Err(format!(
            "a `{SETUP}…` line is not directly before a `{OPEN}…` marker"
        ));
    }
    Ok(setups)
}

/// The samples of a page with the byte range of each one's quoted text, or what is malformed.
fn samples(page: &str) -> Result<Vec<(Sample, std::ops::Range<usize>)>, String> {
    let mut found = Vec::new();
    let mut from = 0;
    for block in marked_blocks(page, OPEN, CLOSE)? {
        let setup = setups_before(&page[from..block.marker])?;
        let (command, keep) = parse_command(&block.command)?;
        from = block.body.end;
        found.push((
            Sample {
                setup,
                command,
                keep,
            },
            block.body,
        ));
    }
    setups_before(&page[from..])
        .ok()
        .filter(Vec::is_empty)
        .ok_or_else(|| format!("a `{SETUP}…` line has no `{OPEN}…` marker after it"))?;
    Ok(found)
}

/// Runs an `arena …` command in `dir`: what a terminal shows (stdout, then stderr), or why it
/// cannot be quoted.
fn run(command: &str, dir: &Path) -> Result<String, String> {
    if let Some(c) = command.chars().find(|c| "'\"`$;&|<>\\*?~".contains(*c)) {
        return Err(format!(
            "`{command}`: `{c}` would need a shell; a sample's words are split at spaces only"
        ));
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    let Some((&"arena", args)) = words.split_first() else {
        return Err(format!(
            "`{command}`: only `arena …` commands may be quoted"
        ));
    };
    let out_file = |name: &str| {
        std::fs::File::create(dir.join(name)).map_err(|e| format!("{}: {e}", dir.display()))
    };
    let mut child = Command::new(arena_bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(out_file(".sample-stdout")?)
        .stderr(out_file(".sample-stderr")?)
        .spawn()
        .map_err(|e| format!("`{command}` did not start: {e}"))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| format!("`{command}`: {e}"))? {
            break status;
        }
        if started.elapsed() > MAX_RUN {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "`{command}` ran over {} s: a sample must take seconds",
                MAX_RUN.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |name: &str| {
        std::fs::read(dir.join(name))
            .map_err(|e| format!("{name}: {e}"))
            .and_then(|b| {
                String::from_utf8(b).map_err(|_| format!("`{command}` printed invalid UTF-8"))
            })
    };
    let (stdout, stderr) = (read(".sample-stdout")?, read(".sample-stderr")?);
    if !status.code().is_some_and(|c| ACCEPTED_EXITS.contains(&c)) {
        return Err(format!("`{command}` failed ({status}): {stderr}"));
    }
    Ok(stdout + &stderr)
}

/// The lines of `output` a `keep` list selects, each gap between them one `…` line.
fn kept(output: &str, keep: &[Span]) -> Result<String, String> {
    let lines: Vec<&str> = output.lines().collect();
    let n = lines.len();
    let mut shown_lines = Vec::new();
    let mut next = 1;
    for span in keep {
        let (a, b) = match *span {
            Span::Lines(a, b) => (a, b.unwrap_or(n)),
            Span::FromEnd(k) => (n.saturating_sub(k) + 1, n),
        };
        if b > n || a < next {
            return Err(format!(
                "keep {span:?} does not fit an output of {n} lines after line {}",
                next - 1
            ));
        }
        if a > next {
            shown_lines.push("…");
        }
        shown_lines.extend(&lines[a - 1..b]);
        next = b + 1;
    }
    if next <= n {
        shown_lines.push("…");
    }
    Ok(shown_lines.iter().map(|l| format!("{l}\n")).collect())
}

/// The quoted text a sample must have, from a fresh run in `dir`.
fn quoted(sample: &Sample, dir: &Path) -> Result<String, String> {
    for setup in &sample.setup {
        run(setup, dir)?;
    }
    let output = run(&sample.command, dir)?;
    let output = match &sample.keep {
        Some(keep) => kept(&output, keep).map_err(|e| format!("`{}`: {e}", sample.command))?,
        None => output,
    };
    Ok(fenced(&format!("$ {}\n{output}", sample.command)))
}

/// A line without what differs from run to run: the build, the time, milliseconds.
fn masked_line(line: &str) -> String {
    for volatile in ["Build:", "Time:"] {
        if line.trim_start().starts_with(volatile) {
            return format!("{volatile} …");
        }
    }
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find(|c: char| c.is_ascii_digit()) {
        out.push_str(&rest[..i]);
        let len = rest[i..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len() - i);
        let after = &rest[i + len..];
        let is_ms = after.strip_prefix(' ').unwrap_or(after).starts_with("ms");
        out.push_str(if is_ms { "#" } else { &rest[i..i + len] });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A quoted text with every line masked.
fn masked(text: &str) -> String {
    text.lines().map(|l| masked_line(l) + "\n").collect()
}

/// What checking (or rewriting) one page found.
#[derive(Default)]
struct Checked {
    rewritten: String,
    stale: Vec<String>,
    broken: Vec<String>,
    commands: usize,
}

/// Checks a page's samples by running them in `dir`; the page as it should be.
fn check_text(page: &str, dir: &Path) -> Checked {
    let mut checked = Checked::default();
    let found = match samples(page) {
        Ok(found) => found,
        Err(e) => {
            checked.broken.push(e);
            checked.rewritten = page.to_owned();
            return checked;
        }
    };
    let mut copied = 0;
    for (sample, body) in found {
        checked.commands += sample.setup.len() + 1;
        let now = &page[body.clone()];
        let text = match quoted(&sample, dir) {
            Ok(want) if masked(&want) != masked(now) => {
                checked.stale.push(format!(
                    "the `{}` sample differs from the command's output (timing aside)",
                    sample.command
                ));
                want
            }
            Ok(_) => now.to_owned(),
            Err(e) => {
                checked.broken.push(e);
                now.to_owned()
            }
        };
        checked.rewritten.push_str(&page[copied..body.start]);
        checked.rewritten.push_str(&text);
        copied = body.end;
    }
    checked.rewritten.push_str(&page[copied..]);
    checked
}

#[test]
fn docs_show_every_run_sample_as_it_runs() {
    let root = root();
    let mut pages = vec![root.join("README.md")];
    pages.extend(doc_pages());
    let (mut stale, mut broken) = (Vec::new(), Vec::new());
    let mut commands = 0;
    for (n, path) in pages.iter().enumerate() {
        let page =
            std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if !page.contains(OPEN) {
            continue;
        }
        let dir = tmp(&format!("page-{n}"));
        std::os::unix::fs::symlink(root.join("configs"), dir.join("configs"))
            .expect("a link to configs/ can be made");
        let checked = check_text(&page, &dir);
        commands += checked.commands;
        let name = shown(path);
        stale.extend(checked.stale.iter().map(|e| format!("{name}: {e}")));
        broken.extend(checked.broken.iter().map(|e| format!("{name}: {e}")));
        if !checked.stale.is_empty() && updating() {
            std::fs::write(path, &checked.rewritten)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            eprintln!("rewrote the samples of {name}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        commands >= 5,
        "only {commands} sample commands found: are the markers gone?"
    );
    let mut left = broken;
    if !updating() {
        left.extend(stale);
    }
    assert!(
        left.is_empty(),
        "the run samples have drifted from the programs:\n  {}\nregenerate them with:\n  {REGENERATE}\n\
         (a sample whose command fails or whose markers are malformed needs editing by hand)",
        left.join("\n  ")
    );
}

#[test]
fn docs_sample_markers_are_read_with_their_setup_and_kept_lines() {
    let page = "x\n<!-- setup: arena a -->\n\n<!-- setup: arena b -->\n<!-- sample: arena c | keep 1-2,4-,-1 -->\nBODY\n<!-- end sample -->\n";
    let found = samples(page).expect("well formed");
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].0,
        Sample {
            setup: vec!["arena a".into(), "arena b".into()],
            command: "arena c".into(),
            keep: Some(vec![
                Span::Lines(1, Some(2)),
                Span::Lines(4, None),
                Span::FromEnd(1)
            ]),
        }
    );
    assert_eq!(&page[found[0].1.clone()], "BODY\n");
    let astray =
        "<!-- setup: arena a -->\ntext\n<!-- sample: arena c -->\nB\n<!-- end sample -->\n";
    assert!(
        samples(astray).is_err(),
        "a setup line apart from its sample is refused"
    );
    assert!(
        samples("<!-- setup: arena a -->\n").is_err(),
        "a setup with no sample is refused"
    );
    assert!(parse_keep("3-1").is_err() && parse_keep("0-2").is_err() && parse_keep("x").is_err());
}

#[test]
fn docs_sample_kept_lines_mark_each_gap() {
    let out = "1\n2\n3\n4\n5\n6\n";
    let keep = parse_keep("1-2,4,-1").expect("valid");
    assert_eq!(kept(out, &keep).expect("fits"), "1\n2\n…\n4\n…\n6\n");
    assert_eq!(
        kept(out, &parse_keep("2-").expect("valid")).expect("fits"),
        "…\n2\n3\n4\n5\n6\n"
    );
    assert!(
        kept(out, &parse_keep("5-9").expect("valid")).is_err(),
        "past the end is refused"
    );
    assert!(
        kept(out, &parse_keep("3-4,2").expect("valid")).is_err(),
        "out of order is refused"
    );
}

#[test]
fn docs_sample_comparison_masks_timing_only() {
    assert_eq!(
        masked_line("Per move: a 0.1 ms, 79 nodes, depth 2.0; b 12ms"),
        "Per move: a # ms, 79 nodes, depth 2.0; b #ms"
    );
    assert_eq!(
        masked_line("Time: 0.3 s wall this run, 168.9 games/s"),
        "Time: …"
    );
    assert_eq!(
        masked_line("Build: commit 0b0a62dbfd9b, arena 0.1.0"),
        "Build: …"
    );
    assert_eq!(
        masked_line("Elo: 199.87 +/- 112.85"),
        "Elo: 199.87 +/- 112.85"
    );
}

#[test]
fn docs_a_stale_sample_is_found_and_rewritten_but_timing_is_not_stale() {
    let dir = tmp("stale");
    let command = "arena stats --ptnml 1,2,3,2,1";
    let real = quoted(
        &Sample {
            setup: vec![],
            command: command.into(),
            keep: None,
        },
        &dir,
    )
    .expect("arena stats runs");
    let page = |body: &str| format!("Intro\n{OPEN}{command} -->\n{body}{CLOSE}\nEnd\n");
    let fresh = check_text(&page(&real), &dir);
    assert!(
        fresh.stale.is_empty() && fresh.broken.is_empty(),
        "{:?}",
        fresh.broken
    );
    let wrong = real.replacen("Elo", "Elo: 1.00", 1);
    let stale = check_text(&page(&wrong), &dir);
    assert_eq!(stale.stale.len(), 1, "a changed result is stale");
    assert_eq!(
        stale.rewritten,
        page(&real),
        "and is rewritten with the run's output"
    );
    let refused = check_text(&page_with("arena stats --ptnml 1"), &dir);
    assert_eq!(
        refused.broken.len(),
        1,
        "a command that fails is broken, not stale"
    );
    let shell = check_text(&page_with("arena stats > x"), &dir);
    assert!(shell.broken[0].contains("shell"), "{:?}", shell.broken);
}

/// A page with one sample of `command` and an empty body.
fn page_with(command: &str) -> String {
    format!("{OPEN}{command} -->\n{CLOSE}\n")
}
