//! `arena jai` driven through a pipe with the lines JieqiBox's Match mode sends, its output read
//! the way JieqiBox reads it. The parser is JieqiBox's `src/composables/useJaiEngine.ts`
//! (github.com/Velithia/JieqiBox): each check below names the line of that file it ports.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use crate::common::{arena_bin, ok, refused, s, tmp};

/// A running `arena jai` and its output, line by line.
struct Jai {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far.
    seen: Vec<String>,
}

impl Jai {
    fn start(args: &[&str]) -> Jai {
        Jai::start_in(&std::env::temp_dir(), args)
    }

    /// `arena jai ARGS` started in the working directory `cwd` (JieqiBox starts it in the
    /// binary's folder).
    fn start_in(cwd: &std::path::Path, args: &[&str]) -> Jai {
        let mut child = Command::new(arena_bin())
            .current_dir(cwd)
            .arg("jai")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("arena jai starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Jai {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// Sends a command as JieqiBox's `send` does: the text and a newline.
    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").expect("arena jai reads its input");
    }

    /// Reads lines until one satisfies `done` (which it returns), failing after a minute.
    #[track_caller]
    fn until(&mut self, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).unwrap_or_else(|_| {
                panic!(
                    "no expected line; the output so far:\n{}",
                    self.seen.join("\n")
                )
            });
            self.seen.push(line.clone());
            if done(line.trim()) {
                return line;
            }
        }
    }

    /// Sends `isready` and returns the lines read until `readyok`: what the commands sent
    /// before it were answered with.
    fn sync(&mut self) -> Vec<String> {
        let from = self.seen.len();
        self.send("isready");
        self.until(|l| l == "readyok");
        self.seen[from..self.seen.len() - 1].to_vec()
    }

    /// Sends `quit`, waits for the exit and reads the rest of the output.
    fn quit(mut self) -> Vec<String> {
        self.send("quit");
        let status = self.child.wait().expect("arena jai exits");
        assert!(status.success(), "arena jai: {status}");
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(line);
        }
        self.seen
    }
}

/// The folder a `match finished` or `match stopped` line names (`…, in DIR`, then the end, ` (`
/// or `; `).
fn folder_of(line: &str) -> std::path::PathBuf {
    let i = line.find(", in ").expect("the line names its folder") + ", in ".len();
    let rest = &line[i..];
    let end = [rest.find(" ("), rest.find("; ")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(rest.len());
    std::path::PathBuf::from(&rest[..end])
}

/// An option as JieqiBox's `parseJaiOptionLine` reads it (useJaiEngine.ts lines 290–351): the
/// name by /option name (.+?) type (.+)/, the type by /type (\w+)/, a spin's default, min and
/// max by /default (\d+)/, /min (\d+)/, /max (\d+)/, a string's default by
/// /default (.+?)(?:\s|$)/ (its first word; nothing after `default` is empty).
#[derive(Debug, PartialEq)]
struct JaiOption {
    name: String,
    kind: String,
    default: String,
    min: Option<u64>,
    max: Option<u64>,
}

fn parse_option(line: &str) -> Option<JaiOption> {
    let rest = line.strip_prefix("option name ")?;
    let i = rest.find(" type ")?;
    let name = rest[..i].to_string();
    let after = &rest[i + " type ".len()..];
    let kind: String = after
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let digits_after = |key: &str| -> Option<u64> {
        let j = line.find(key)?;
        let d: String = line[j + key.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        d.parse().ok()
    };
    let default = match kind.as_str() {
        "spin" => digits_after("default ").unwrap_or(0).to_string(),
        _ => line
            .find("default ")
            .map(|j| {
                line[j + "default ".len()..]
                    .split(char::is_whitespace)
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .unwrap_or_default(),
    };
    Some(JaiOption {
        name,
        default,
        min: (kind == "spin").then(|| digits_after("min ").unwrap_or(0)),
        max: (kind == "spin").then(|| digits_after("max ").unwrap_or(100)),
        kind,
    })
}

/// `info move <MoveString> time <TimeMs>` by /^(.+?)\s+time\s+(\d+)$/ (useJaiEngine.ts line 181)
/// after `info move ` is cut off (line 177).
fn parse_move(line: &str) -> Option<(String, u64)> {
    let rest = line.strip_prefix("info move ")?;
    let (mv, ms) = rest.rsplit_once(" time ")?;
    let ms = ms.trim();
    if mv.trim().is_empty() || ms.is_empty() || !ms.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((mv.trim().to_string(), ms.parse().ok()?))
}

/// `info game i/N` split at '/' and parseInt'd (lines 141–146).
fn parse_game(line: &str) -> Option<(u64, u64)> {
    let (i, n) = line.strip_prefix("info game ")?.split_once('/')?;
    Some((i.parse().ok()?, n.parse().ok()?))
}

/// `info wld W-L-D` split at '-' (lines 220–227).
fn parse_wld(line: &str) -> Option<[u64; 3]> {
    let parts: Vec<u64> = line
        .strip_prefix("info wld ")?
        .split('-')
        .map(|p| p.parse().unwrap_or(0))
        .collect();
    (parts.len() == 3).then(|| [parts[0], parts[1], parts[2]])
}

/// `info engine RED BLACK` split at ' ', two or more parts (lines 236–246).
fn parse_engines(line: &str) -> Option<(String, String)> {
    let parts: Vec<&str> = line.strip_prefix("info engine ")?.split(' ').collect();
    (parts.len() >= 2).then(|| (parts[0].to_string(), parts[1].to_string()))
}

/// A move as JieqiBox's `playMoveFromUci` takes it (useChessGame.ts): four square characters,
/// then the reveal letter in the mover's case and a captured hidden piece's letter in the other.
fn check_move_text(mv: &str, red_moves: bool) {
    let b = mv.as_bytes();
    assert!(b.len() >= 4 && b.len() <= 6, "move '{mv}'");
    for (k, &c) in b[..4].iter().enumerate() {
        let okc = if k % 2 == 0 {
            (b'a'..=b'i').contains(&c)
        } else {
            c.is_ascii_digit()
        };
        assert!(okc, "move '{mv}': square character {k}");
    }
    let letters = &mv[4..];
    for (k, c) in letters.chars().enumerate() {
        assert!("rnbakcpRNBAKCP".contains(c), "move '{mv}': letter '{c}'");
        if k == 1 {
            // A second letter is always the captured one, in the opponent's case.
            assert_eq!(c.is_ascii_uppercase(), !red_moves, "move '{mv}'");
        }
    }
}

#[test]
fn jai_match_is_reported_as_jieqibox_reads_it_and_leaves_a_results_folder() {
    let dir = tmp("jai-match");
    let mut jai = Jai::start(&["--engine", "greedy", "--engine", "alphabeta:depth=1"]);
    // loadEngine (useJaiEngine.ts lines 416–420): `jai`, then `jaiok` answers `isready`.
    jai.send("jai");
    jai.until(|l| l == "jaiok");
    let options: Vec<JaiOption> = jai.seen.iter().filter_map(|l| parse_option(l)).collect();
    let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Engine1",
            "Engine2",
            "TotalRounds",
            "Concurrency",
            "Nodes",
            "Depth",
            "MoveTimeMs",
            "TimeControl",
            "Rules",
            "Seed",
            "OutDir",
            "Resume",
            "DisplayDelayMs"
        ]
    );
    let engine1 = options.iter().find(|o| o.name == "Engine1").unwrap();
    assert_eq!(
        (engine1.kind.as_str(), engine1.default.as_str()),
        ("string", "greedy")
    );
    let rounds = options.iter().find(|o| o.name == "TotalRounds").unwrap();
    assert_eq!(
        (
            rounds.kind.as_str(),
            rounds.default.as_str(),
            rounds.min,
            rounds.max
        ),
        ("spin", "10", Some(1), Some(100_000_000))
    );
    let out = options.iter().find(|o| o.name == "OutDir").unwrap();
    assert_eq!(out.default, "", "an empty default reads as empty");
    jai.send("isready");
    jai.until(|l| l == "readyok");
    // setJaiOption (line 524): `setoption name X value Y`; a bad value is named and changes
    // nothing, a bad command is answered and the runner goes on.
    jai.send("setoption name TotalRounds value many");
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(e.contains("TotalRounds") && e.contains("'many'"), "{e}");
    jai.send("position startpos");
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(e.contains("unknown command 'position'"), "{e}");
    jai.send("setoption name TotalRounds value 1");
    jai.send("setoption name MoveTimeMs value 0");
    jai.send("setoption name DisplayDelayMs value 0");
    jai.send(&format!("setoption name OutDir value {}", s(&dir)));
    jai.send("startmatch");
    let end = jai.until(|l| l.starts_with("info string match finished"));
    let folder = folder_of(&end);
    assert_eq!(folder.parent(), Some(dir.as_path()), "{end}");
    let lines = jai.quit();

    // Walk the output as JieqiBox does: a game is `info game`, `info engine`, `info fen`, its
    // moves, `info result`; `info wld` after each game.
    let mut games = Vec::new();
    let mut current: Option<(u64, Vec<String>, bool)> = None;
    let mut wlds = Vec::new();
    for line in &lines {
        if let Some((i, n)) = parse_game(line) {
            assert_eq!(n, 2);
            assert!(current.is_none(), "a game starts before the last one ended");
            current = Some((i, Vec::new(), true));
        } else if let Some((red, black)) = parse_engines(line) {
            let i = current.as_ref().expect("info engine inside a game").0;
            let want = if i == 1 {
                ("greedy", "alphabeta:depth=1")
            } else {
                ("alphabeta:depth=1", "greedy")
            };
            assert_eq!((red.as_str(), black.as_str()), want);
        } else if let Some(fen) = line.strip_prefix("info fen ") {
            // JieqiBox's loadFen takes the new form when field 2 is the side (useChessGame.ts).
            let fields: Vec<&str> = fen.split(' ').collect();
            assert_eq!(fields.len(), 6, "{fen}");
            assert_eq!(fields[1], "w");
        } else if let Some((mv, _ms)) = parse_move(line) {
            let (_, moves, red) = current.as_mut().expect("info move inside a game");
            check_move_text(&mv, *red);
            moves.push(mv);
            *red = !*red;
        } else if let Some(result) = line.strip_prefix("info result ") {
            let (i, moves, _) = current.take().expect("info result ends a game");
            games.push((i, moves, result.to_string()));
        } else if let Some(wld) = parse_wld(line) {
            wlds.push(wld);
        }
    }
    assert_eq!(games.len(), 2, "{}", lines.join("\n"));
    assert_eq!(games[0].0, 1);
    assert_eq!(games[1].0, 2);
    let last = *wlds.last().expect("info wld");
    assert_eq!(last.iter().sum::<u64>(), 2);

    // The folder is an ordinary results folder: its games are the moves shown, and replay
    // reproduces them.
    let journal = std::fs::read_to_string(folder.join("games.jsonl")).unwrap();
    for (line, (_, moves, result)) in journal.lines().zip(&games) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let recorded: Vec<String> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert_eq!(&recorded, moves);
        let reason = v["reason"].as_str().unwrap();
        assert!(result.contains(reason), "{result} vs {reason}");
    }
    let replay = ok(&["replay", s(&folder), "--game", "1"]);
    assert!(replay.contains("identical"), "{replay}");
}

/// `arena jai` between two alphabeta engines (the second labelled ab2), its matches in `out`,
/// with `extra` flags, after the `jai` handshake (`jaiok`).
fn alphabetas(out: &std::path::Path, extra: &[&str]) -> Jai {
    let mut args = vec!["--engine", "alphabeta", "--engine", "alphabeta:name=ab2"];
    args.extend_from_slice(extra);
    args.extend(["--out", s(out)]);
    let mut jai = Jai::start(&args);
    jai.send("jai");
    jai.until(|l| l == "jaiok");
    jai
}

#[test]
fn jai_stop_keeps_the_finished_pairs_and_the_folder_resumes() {
    let dir = tmp("jai-stop");
    let mut jai = alphabetas(
        &dir,
        &["--pairs", "5", "--movetime", "20", "--display-delay", "0"],
    );
    jai.send("startmatch");
    jai.until(|l| parse_game(l) == Some((3, 10)));
    jai.send("setoption name TotalRounds value 2");
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(e.contains("a match is running"), "{e}");
    jai.send("stop");
    let end = jai.until(|l| l.starts_with("info string match stopped"));
    assert!(end.contains("1 of 5 pairs kept"), "{end}");
    let folder = folder_of(&end);
    jai.send("isready");
    jai.until(|l| l == "readyok");
    let lines = jai.quit();
    let wlds: Vec<[u64; 3]> = lines.iter().filter_map(|l| parse_wld(l)).collect();
    assert_eq!(
        wlds.last().unwrap().iter().sum::<u64>(),
        2,
        "the final W-L-D counts the kept pair"
    );
    let journal = std::fs::read_to_string(folder.join("games.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 2, "one pair kept");
    // `arena match --resume` continues the folder (a cap of 2 pairs: one more is played).
    let text = ok(&["match", "--out", s(&folder), "--resume", "--pairs", "2"]);
    assert!(text.contains("Games: 4"), "{text}");
}

/// `stop` does not wait for the move in progress: JieqiBox's unload sends `quit` and kills the
/// runner 100 ms later (useJaiEngine.ts `unloadEngine`), so a 30-second move must end at once.
#[test]
fn jai_stop_ends_a_long_move_at_once() {
    let dir = tmp("jai-stop-now");
    let mut jai = alphabetas(&dir, &["--pairs", "1", "--movetime", "30000"]);
    jai.send("startmatch");
    jai.until(|l| l.starts_with("info fen "));
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    jai.send("stop");
    let end = jai.until(|l| l.starts_with("info string match stopped"));
    let took = t.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "stop took {took:?} with a 30 s move in progress"
    );
    assert!(end.contains("0 of 1 pair kept"), "{end}");
    let folder = folder_of(&end);
    let lines = jai.quit();
    assert!(
        !lines.iter().any(|l| l.starts_with("info move ")),
        "no move of the stopped game is reported: {lines:#?}"
    );
    let journal = std::fs::read_to_string(folder.join("games.jsonl")).unwrap_or_default();
    assert_eq!(
        journal.lines().count(),
        0,
        "nothing of the stopped pair is recorded"
    );
}

#[test]
fn jai_flags_are_checked_before_anything_runs() {
    let e = refused(&["jai", "--engine", "nosuch"]);
    assert!(e.contains("--engine") && e.contains("nosuch"), "{e}");
    let e = refused(&["jai", "--pairs", "0"]);
    assert!(e.contains("--pairs"), "{e}");
    let e = refused(&[
        "jai", "--engine", "greedy", "--engine", "random", "--engine", "level",
    ]);
    assert!(e.contains("at most two"), "{e}");
    // A device is no rules file: refused at start, not read forever when the match starts.
    let e = refused(&["jai", "--rules", "/dev/zero"]);
    assert!(
        e.contains("/dev/zero") && e.contains("not a regular file"),
        "{e}"
    );
}

/// Bad input never ends the runner nor comes back raw: a line past 64 KiB is refused unread
/// (a 200 MB one no longer fills the memory), a long unknown command is quoted cut, control
/// bytes escaped, a byte that is not UTF-8 read as U+FFFD (it used to end the runner, exit 2).
#[test]
fn jai_bad_lines_are_bounded_escaped_and_never_end_it() {
    let mut jai = Jai::start(&[]);
    jai.stdin.write_all(&vec![b'x'; 300_000]).unwrap();
    jai.send("");
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(
        e.starts_with("info string a line of 300000 bytes ignored: longer than 65536 bytes"),
        "{e:.300}"
    );
    assert!(e.len() < 1000, "{} bytes: {e:.300}", e.len());
    jai.send(&"y".repeat(20_000));
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(
        e.contains("unknown command 'yyy") && e.len() < 1000,
        "{e:.300}"
    );
    jai.send("foo\u{1b}]0;pwned\u{7}bar");
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(e.contains("'foo\\u{1b}]0;pwned\\u{7}bar'"), "{e}");
    jai.send("setoption name Seed value 1\u{1b}[2J");
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(e.contains("'1\\u{1b}[2J'") && !e.contains('\u{1b}'), "{e}");
    jai.stdin.write_all(b"\xffisready\nisready\n").unwrap();
    let e = jai.until(|l| l.starts_with("info string") || l == "readyok");
    assert!(e.contains("unknown command '\u{fffd}isready'"), "{e}");
    jai.until(|l| l == "readyok");
    jai.quit();
}

/// An external engine that never answers holds neither `setoption` (its spec is only read
/// then) nor the command loop while `startmatch` waits for its handshake.
#[test]
fn jai_an_engine_that_never_answers_does_not_block_the_runner() {
    // A handshake that blocked would hold the loop for the 8 s of init_timeout: answers within
    // 5 s leave 3 s either side. The second answer also comes before the refusal, which a
    // blocked loop could only print first.
    let mut jai = Jai::start(&[]);
    let t = Instant::now();
    jai.send("setoption name Engine1 value uci:path=/bin/cat,init_timeout=8000");
    jai.send("isready");
    let l = jai.until(|l| l.starts_with("info string") || l == "readyok");
    assert_eq!(l, "readyok");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    jai.send("startmatch");
    jai.send("isready");
    let l = jai.until(|l| l.starts_with("info string") || l == "readyok");
    assert_eq!(l, "readyok");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(
        e.starts_with("info string startmatch refused:") && e.contains("uciok"),
        "{e}"
    );
    jai.quit();
}

/// `stop` and `quit` while an engine is still starting (`/bin/cat` never says `uciok`; its
/// time limit is 10 s) are answered at once: the match being set up is abandoned, its engine
/// ended, and no match folder is left.
#[test]
fn jai_stop_and_quit_during_an_engines_start_are_answered_at_once() {
    let dir = tmp("jai-stop-setup");
    let mut jai = Jai::start(&["--engine", "greedy"]);
    jai.send(&format!("setoption name OutDir value {}", s(&dir)));
    jai.send("setoption name Engine2 value uci:path=/bin/cat");
    assert_eq!(jai.sync(), Vec::<String>::new());
    jai.send("startmatch");
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    jai.send("stop");
    let l = jai.until(|l| l.starts_with("info string"));
    assert_eq!(l, "info string match stopped before it started");
    // Waiting for the start would take 9.5 s more; 5 s leaves 4.5 s either side.
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    jai.send("startmatch");
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    jai.quit();
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[test]
fn jai_refuses_a_folder_name_with_control_characters_as_out_does() {
    let dir = tmp("jai-ctl");
    let out = dir.join("a\u{1b}]0;x\u{7}b");
    let mut jai = Jai::start(&["--engine", "random", "--engine", "greedy"]);
    jai.send(&format!("setoption name OutDir value {}", s(&out)));
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(
        e.contains("option OutDir") && e.contains("control character") && !e.contains('\u{1b}'),
        "{e}"
    );
    let lines = jai.quit();
    assert!(lines.iter().all(|l| !l.contains('\u{7}')), "{lines:?}");
    assert!(!out.exists());
}

/// `arena jai` (started in `cwd`) set for a fast match: greedy against random, `pairs` pairs, no
/// display delay, its matches in `out` (unless empty).
fn fast_in(cwd: &std::path::Path, pairs: &str, out: &std::path::Path) -> Jai {
    let mut args = vec![
        "--engine",
        "greedy",
        "--engine",
        "random",
        "--pairs",
        pairs,
        "--display-delay",
        "0",
    ];
    if !out.as_os_str().is_empty() {
        args.extend(["--out", s(out)]);
    }
    Jai::start_in(cwd, &args)
}

/// [`fast_in`] started in the temporary folder.
fn fast(pairs: &str, out: &std::path::Path) -> Jai {
    fast_in(&std::env::temp_dir(), pairs, out)
}

/// A refused value is not replaced silently by the one before: `startmatch` is refused, naming
/// the option and its value, until the option is set to a value that is taken (it used to
/// play ismcts after `Engine2 foo` was refused).
#[test]
fn jai_a_refused_option_blocks_startmatch_until_it_is_set_again() {
    let dir = tmp("jai-refused");
    let mut jai = fast("1", &dir);
    jai.send("setoption name Engine2 value foo");
    jai.send("setoption name TotalRounds value 0");
    let said = jai.sync();
    assert_eq!(said.len(), 2, "{said:?}");
    jai.send("startmatch");
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(
        e.starts_with("info string startmatch refused: option Engine2: 'foo'")
            && e.contains("option TotalRounds: '0'"),
        "{e}"
    );
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "nothing was played"
    );
    jai.send("setoption name Engine2 value random");
    jai.send("setoption name TotalRounds value 1");
    jai.send("startmatch");
    let end = jai.until(|l| l.starts_with("info string match"));
    assert!(
        end.starts_with("info string match started: greedy vs random"),
        "{end}"
    );
    jai.until(|l| l.starts_with("info string match finished"));
    jai.quit();
}

/// Values are checked when set, and every refusal speaks in option names: TimeControl `abc` got
/// no answer until startmatch, a Seed above the declared max was taken, and Rules and two
/// engines of one label were refused naming `--rules` and `--engine`.
#[test]
fn jai_values_are_checked_when_set_in_option_names() {
    let dir = tmp("jai-checked");
    let mut jai = fast("1", &dir);
    jai.send("setoption name TimeControl value abc");
    jai.send("setoption name Seed value 18446744073709551615");
    jai.send("setoption name Seed value 9007199254740992");
    jai.send("setoption name Rules value nosuch");
    let said = jai.sync();
    assert_eq!(said.len(), 4, "{said:?}");
    assert!(
        said[0].starts_with("info string option TimeControl: 'abc': "),
        "{said:?}"
    );
    for (line, seed) in said[1..3]
        .iter()
        .zip(["18446744073709551615", "9007199254740992"])
    {
        assert_eq!(
            line,
            &format!(
                "info string option Seed: '{seed}' is not a whole number from 0 to \
                 9007199254740991"
            )
        );
    }
    assert!(
        said[3].starts_with("info string option Rules: 'nosuch' is not a preset (standard"),
        "{said:?}"
    );
    for name in ["TimeControl", "Seed", "Rules"] {
        jai.send(&format!("setoption name {name} value <empty>"));
    }
    jai.send("setoption name Rules value standard");
    jai.send("setoption name Seed value 7");
    jai.send("setoption name Engine2 value greedy");
    jai.sync();
    jai.send("startmatch");
    let e = jai.until(|l| l.starts_with("info string"));
    assert_eq!(
        e,
        "info string startmatch refused: options Engine1 and Engine2: both engines are labelled \
         'greedy': labels name engines in every report, so they must differ; give one a name, \
         e.g. Engine2 greedy:name=greedy-2"
    );
    // A garbage spec is quoted cut, also where the reader's words quote it (1361 bytes before).
    jai.send(&format!(
        "setoption name Engine1 value {}",
        "x".repeat(1000)
    ));
    let said = jai.sync();
    assert!(
        said.len() == 1
            && said[0].starts_with("info string option Engine1: 'xxx")
            && said[0].len() < 600,
        "{} bytes: {said:?}",
        said[0].len()
    );
    let lines = jai.quit();
    let flags: Vec<&String> = lines.iter().filter(|l| l.contains("--")).collect();
    assert!(flags.is_empty(), "messages name flags: {flags:#?}");
}

/// OutDir is the folder that holds the matches: each match gets a new folder in it, so a saved
/// OutDir (JieqiBox sends it on every load) no longer refuses the next match ("games.jsonl
/// exists: add --resume"), nor does a stop with no pair kept; Resume continues the newest one.
/// Everything is checked before "match started", and no message names a command-line flag.
#[test]
fn jai_out_dir_holds_a_new_folder_per_match_and_resume_continues_the_last() {
    let dir = tmp("jai-outdir");
    let mut jai = fast("2", &dir);
    jai.send("startmatch");
    let first = folder_of(&jai.until(|l| l.starts_with("info string match finished")));
    jai.send("startmatch");
    let second = folder_of(&jai.until(|l| l.starts_with("info string match finished")));
    assert_ne!(first, second);
    for f in [&first, &second] {
        assert_eq!(f.parent(), Some(dir.as_path()));
        assert!(f.join("games.jsonl").is_file());
    }
    // A match stopped before any pair is kept (its moves shown slowly), then continued with
    // Resume, as its record describes it (the display delay is no part of it).
    jai.send("setoption name DisplayDelayMs value 10000");
    jai.send("setoption name Engine1 value alphabeta:depth=1");
    jai.send("setoption name Engine2 value alphabeta:depth=1,name=ab2");
    jai.send("startmatch");
    jai.until(|l| l.starts_with("info move "));
    jai.send("stop");
    let stopped = jai.until(|l| l.starts_with("info string match stopped"));
    assert!(stopped.contains("0 of 2 pairs kept"), "{stopped}");
    let third = folder_of(&stopped);
    jai.send("setoption name DisplayDelayMs value 0");
    jai.send("setoption name Resume value true");
    jai.send("startmatch");
    let resumed = jai.until(|l| l.starts_with("info string match"));
    assert!(
        resumed.starts_with("info string match resumed: alphabeta:depth=1 vs ab2")
            && resumed.ends_with(&format!("folder {}", third.display())),
        "{resumed}"
    );
    jai.until(|l| l.starts_with("info string match finished"));
    // A folder that cannot be made is refused before anything is said started.
    let file = dir.join("a-file");
    std::fs::write(&file, "x").unwrap();
    jai.send("setoption name Resume value false");
    jai.send(&format!("setoption name OutDir value {}", s(&file)));
    jai.send("startmatch");
    let e = jai.until(|l| l.starts_with("info string"));
    assert!(
        e.starts_with("info string startmatch refused: option OutDir: "),
        "{e}"
    );
    let lines = jai.quit();
    assert_eq!(
        lines.iter().filter(|l| l.contains("match started")).count(),
        3,
        "{lines:#?}"
    );
    let flags: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string") && l.contains(" --"))
        .collect();
    assert!(flags.is_empty(), "messages name flags: {flags:#?}");
    let journal = std::fs::read_to_string(third.join("games.jsonl")).unwrap();
    assert_eq!(
        journal.lines().count(),
        4,
        "the resumed match played both pairs"
    );
}

/// Resume with a TotalRounds below the pairs the folder keeps (JieqiBox sends TotalRounds again
/// on every load) continues to the kept pairs and says so: it used to answer "match finished:
/// 2 pairs" and rewrite the records to 2 pairs of the 3 kept.
#[test]
fn jai_resume_never_counts_fewer_pairs_than_are_kept() {
    let dir = tmp("jai-resume-fewer");
    let mut jai = fast("3", &dir);
    jai.send("startmatch");
    let folder = folder_of(&jai.until(|l| l.starts_with("info string match finished")));
    jai.send("setoption name Resume value true");
    jai.send("setoption name TotalRounds value 2");
    jai.send("startmatch");
    let note = jai.until(|l| l.starts_with("info string"));
    assert_eq!(
        note,
        "info string option TotalRounds: 2 is fewer than the 3 pairs the match keeps; it \
         continues to 3 (a resume never counts fewer pairs than are kept)"
    );
    let resumed = jai.until(|l| l.starts_with("info string match"));
    assert!(resumed.contains(", 3 pairs ("), "{resumed}");
    let end = jai.until(|l| l.starts_with("info string match finished"));
    assert!(
        end.starts_with("info string match finished: 3 pairs"),
        "{end}"
    );
    assert_eq!(folder_of(&end), folder);
    jai.quit();
    let record = std::fs::read_to_string(folder.join("match.json")).unwrap();
    assert!(record.contains("\"pairs\": 3"), "{record}");
}

/// OutDir naming a match's own folder with Resume off is refused, naming OutDir and both ways
/// on: it used to start a new match in a folder inside that match's folder.
#[test]
fn jai_out_dir_naming_a_matchs_folder_is_refused_without_resume() {
    let dir = tmp("jai-outdir-match");
    let mut jai = fast("1", &dir);
    jai.send("startmatch");
    let folder = folder_of(&jai.until(|l| l.starts_with("info string match finished")));
    let before = dirs(&folder);
    jai.send(&format!("setoption name OutDir value {}", s(&folder)));
    jai.send("startmatch");
    let e = jai.until(|l| l.starts_with("info string"));
    assert_eq!(
        e,
        format!(
            "info string startmatch refused: option OutDir: {} is a match's folder (it holds \
             match.json), not a folder of matches: turn Resume on to continue that match, or \
             set OutDir to the folder that holds it to start a new one",
            folder.display()
        )
    );
    jai.quit();
    assert_eq!(dirs(&folder), before, "no match folder made inside it");
}

/// The folders directly in `dir`.
fn dirs(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut d: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    d.sort();
    d
}

/// JieqiBox hears no end of a match and shows it running until Stop: every `stop` is answered
/// with the last match's final W-L-D (from its records) and its end line and folder, also long
/// after it ended (it used to say "stop: no match is running").
#[test]
fn jai_every_stop_is_answered_with_the_last_matchs_end() {
    let dir = tmp("jai-stop-after");
    let mut jai = fast("3", &dir);
    jai.send("stop");
    let e = jai.until(|l| l.starts_with("info string"));
    assert_eq!(e, "info string stop: no match has been started");
    jai.send("startmatch");
    let end = jai.until(|l| l.starts_with("info string match finished"));
    let folder = folder_of(&end);
    jai.sync();
    for _ in 0..2 {
        jai.send("stop");
        let said = jai.sync();
        assert_eq!(said.len(), 2, "{said:?}");
        assert_eq!(said[1], end);
        // The counts of the folder's records.
        let journal = std::fs::read_to_string(folder.join("games.jsonl")).unwrap();
        let mut wld = [0u64; 3];
        for line in journal.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let greedy_red = v["red"] == "greedy";
            match v["result"].as_str().unwrap() {
                "1-0" if greedy_red => wld[0] += 1,
                "0-1" if !greedy_red => wld[0] += 1,
                "1/2-1/2" => wld[2] += 1,
                _ => wld[1] += 1,
            }
        }
        assert_eq!(parse_wld(&said[0]), Some(wld), "{said:?}");
        assert_eq!(wld.iter().sum::<u64>(), 6);
    }
    jai.quit();
}

/// Moves are shown at most one per DisplayDelayMs (a greedy match used to print 100 games in
/// 0.2 s, more than JieqiBox can draw); the default is declared, and 0 shows them as played.
#[test]
fn jai_display_delay_paces_the_moves_shown() {
    let dir = tmp("jai-delay");
    let mut jai = Jai::start(&["--engine", "greedy", "--engine", "random", "--pairs", "1"]);
    jai.send("jai");
    jai.until(|l| l == "jaiok");
    let decl = jai
        .seen
        .iter()
        .find_map(|l| parse_option(l).filter(|o| o.name == "DisplayDelayMs"))
        .expect("DisplayDelayMs declared");
    assert_eq!((decl.default.as_str(), decl.max), ("500", Some(10_000)));
    jai.send("setoption name DisplayDelayMs value 40");
    jai.send(&format!("setoption name OutDir value {}", s(&dir)));
    let started = Instant::now();
    jai.send("startmatch");
    let mut moves = 0u32;
    let mut last = started;
    loop {
        let l = jai.until(|l| l.starts_with("info move ") || l.starts_with("info string match"));
        if l.starts_with("info string match finished") {
            break;
        }
        if l.starts_with("info move ") {
            moves += 1;
            last = Instant::now();
        }
    }
    assert!(moves > 20, "{moves} moves");
    // N moves at least 40 ms apart cannot all be shown sooner than (N - 1) × 40 ms after
    // `startmatch` (unpaced, the whole match takes a few ms). Measured from `startmatch`, not
    // between lines, a loaded machine can only lengthen it: no bound on the reader's scheduling.
    let paced = Duration::from_millis(40) * (moves - 1);
    assert!(
        last - started >= paced,
        "{moves} moves shown in {:?}, less than {paced:?}",
        last - started
    );
    jai.quit();
}

/// JieqiBox's Match Options dialog sends every option again when it opens, also during a
/// match: a value equal to the option's is taken silently; a change is refused, naming it.
#[test]
fn jai_options_sent_again_during_a_match_are_taken_silently() {
    let dir = tmp("jai-resend");
    let mut jai = alphabetas(&dir, &["--movetime", "30000"]);
    let options: Vec<JaiOption> = jai.seen.iter().filter_map(|l| parse_option(l)).collect();
    jai.send("startmatch");
    jai.until(|l| l.starts_with("info fen "));
    for o in &options {
        jai.send(&format!("setoption name {} value {}", o.name, o.default));
    }
    let said = jai.sync();
    assert!(
        said.iter().all(|l| !l.contains("refused")),
        "the same values are refused: {said:#?}"
    );
    jai.send("setoption name TotalRounds value 3");
    let said = jai.sync();
    assert!(
        said.len() == 1
            && said[0].starts_with(
                "info string setoption refused: a match is running, so option TotalRounds"
            ),
        "{said:?}"
    );
    // An unknown option is no option that keeps its value.
    jai.send("setoption name Bogus value 1");
    let said = jai.sync();
    assert!(
        said.len() == 1 && said[0].starts_with("info string no option 'Bogus' (options: "),
        "{said:?}"
    );
    jai.send("stop");
    jai.until(|l| l.starts_with("info string match stopped"));
    jai.quit();
}

/// JieqiBox starts the runner in its binary's folder: with OutDir empty the matches go to
/// results/ there, and every path printed is absolute (it used to print `results/…`).
#[test]
fn jai_prints_absolute_folders() {
    let cwd = tmp("jai-cwd");
    let mut jai = fast_in(&cwd, "1", std::path::Path::new(""));
    jai.send("startmatch");
    let started = jai.until(|l| l.starts_with("info string match started"));
    let end = jai.until(|l| l.starts_with("info string match finished"));
    let folder = folder_of(&end);
    assert!(folder.is_absolute(), "{end}");
    assert_eq!(
        folder.parent(),
        Some(cwd.join("results").as_path()),
        "{end}"
    );
    assert!(
        started.ends_with(&format!("folder {}", folder.display())),
        "{started}"
    );
    let lines = jai.quit();
    let results = lines
        .iter()
        .find(|l| l.starts_with("info string Results in "))
        .expect("the summary says where");
    assert_eq!(
        results,
        &format!("info string Results in {}", folder.display())
    );
}
