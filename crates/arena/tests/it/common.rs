//! Helpers every module of the test binary shares: running the `arena` binary, fresh folders,
//! reading its results back without the parts no run can reproduce, and tools a test needs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The `arena` binary Cargo built for these tests.
pub fn arena_bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_arena"))
}

/// Runs `arena ARGS...` to the end, capturing its output.
pub fn arena(args: &[&str]) -> Output {
    Command::new(arena_bin())
        .args(args)
        .output()
        .expect("the arena binary runs")
}

/// Output bytes as text, for messages and searches (invalid UTF-8 replaced).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `arena ARGS...`, which must exit 0; its stdout.
#[track_caller]
pub fn ok(args: &[&str]) -> String {
    let o = arena(args);
    assert!(
        o.status.success(),
        "arena {args:?}: {}\n{}",
        o.status,
        text(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("utf-8 stdout")
}

/// Runs `arena ARGS...`, which must refuse it: exit 2 and an `error: ` message; its stderr.
#[track_caller]
pub fn refused(args: &[&str]) -> String {
    let o = arena(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "arena {args:?} should be refused: {}{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    let err = String::from_utf8(o.stderr).expect("utf-8 stderr");
    assert!(err.starts_with("error: "), "arena {args:?}: {err}");
    err
}

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// A fresh, empty folder for one test: `arena-MODULE-PID-NAME` in the temporary folder, where
/// MODULE is the calling file's name, so `name` need only be unique within a module.
#[track_caller]
pub fn tmp(name: &str) -> PathBuf {
    let caller = Path::new(std::panic::Location::caller().file());
    let module = caller.file_stem().and_then(|m| m.to_str()).unwrap_or("it");
    let dir = std::env::temp_dir().join(format!("arena-{module}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

/// A JSON file, parsed.
#[track_caller]
pub fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The header of games.csv.
const CSV_HEADER: &str = "number,pair,game,seed,red,black,result,reason,plies,captures,reveals,\
                          nodes_red,nodes_black,ms_red,ms_black";

/// DIR/games.csv without its last two columns (ms_red, ms_black: wall-clock times no run can
/// reproduce). The header must be the whole header and every row must end in two times.
#[track_caller]
pub fn csv_without_timing(dir: &Path) -> String {
    let path = dir.join("games.csv");
    let csv = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some(CSV_HEADER), "{}", path.display());
    let mut kept = vec![CSV_HEADER.rsplitn(3, ',').nth(2).unwrap()];
    for l in lines {
        // From the right: engine labels may hold quoted commas, the times never do.
        let mut cols = l.rsplitn(3, ',');
        let (ms_black, ms_red, rest) = (cols.next(), cols.next(), cols.next());
        for ms in [ms_red, ms_black] {
            assert!(
                ms.is_some_and(|ms| ms.parse::<f64>().is_ok_and(|t| t >= 0.0)),
                "{}: no times at the end of {l:?}",
                path.display()
            );
        }
        kept.push(rest.unwrap());
    }
    kept.join("\n")
}

/// Whether the `CI` variable says this is a CI run (set, and not empty, `0` or `false`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// Test `test` cannot run because `what` is missing (say "chromium not found (apt-get install
/// chromium)"). In CI that fails the test, so a missing tool is never a silent pass; elsewhere
/// it prints `SKIPPED: TEST: WHAT` on stderr and the caller returns. The line goes to the
/// process's stderr itself, past the test harness's capture, so a passing run shows it too.
#[track_caller]
pub fn missing(test: &str, what: &str) {
    assert!(
        !in_ci(),
        "{test}: {what}; CI must run this test (.ci/run installs what it needs)"
    );
    let _ = writeln!(std::io::stderr(), "SKIPPED: {test}: {what}");
}

/// Whether bash runs here; if not, [`missing`] says so for `test` (a failure in CI).
#[track_caller]
pub fn have_bash(test: &str) -> bool {
    let found = Command::new("bash")
        .args(["-c", "true"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        missing(test, "bash not found (apt-get install bash)");
    }
    found
}

/// Drops, at any depth, what differs between a merged and a single run without the games
/// differing: the command line, threads (also in the result block's `context` line: a merge
/// counts every shard's), timings (`timing`, any key with `wall` in its name, the per-move `ms`)
/// and the record of the shards.
pub fn strip_machine(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|k, _| {
                !matches!(
                    k.as_str(),
                    "command"
                        | "threads"
                        | "timing"
                        | "ms"
                        | "shard"
                        | "shards"
                        | "shard_runs"
                        | "homogeneity"
                ) && !k.contains("wall")
            });
            if let Some(Value::String(context)) = map.get_mut("context") {
                *context = context
                    .split(", ")
                    .filter(|part| {
                        !part.ends_with(" threads")
                            && !part.ends_with(" thread")
                            && !part.starts_with("merged from ")
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
            }
            map.values_mut().for_each(strip_machine);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_machine),
        _ => {}
    }
}

/// A JSON file without what [`strip_machine`] drops.
#[track_caller]
pub fn json_without_machine(path: &Path) -> Value {
    let mut v = json(path);
    strip_machine(&mut v);
    v
}

/// Writes `dir/engine.sh`, a shell-script UCI engine that calls itself `id_name`, declares
/// `options` (whole `option name …` lines) and runs the shell commands `on_go` for each `go`;
/// returns its path.
pub fn scripted_engine(dir: &Path, id_name: &str, options: &[&str], on_go: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("engine.sh");
    let declare: String = options.iter().map(|o| format!("echo '{o}'; ")).collect();
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\n\
             while read -r line; do\n\
               case \"$line\" in\n\
                 uci) echo 'id name {id_name}'; {declare}echo uciok ;;\n\
                 isready) echo readyok ;;\n\
                 go*) {on_go} ;;\n\
                 quit) exit 0 ;;\n\
               esac\n\
             done\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

/// Whether a run played to its end: exit 0, or 5 when an engine lost more than 5 % of its games
/// by a failure (what the tests of failing engines provoke on purpose).
pub fn played_to_the_end(o: &Output) -> bool {
    matches!(o.status.code(), Some(0 | 5))
}

/// Runs `arena ARGS...`, which must play to its end ([`played_to_the_end`]); its stdout.
#[track_caller]
pub fn played(args: &[&str]) -> String {
    let o = arena(args);
    assert!(
        played_to_the_end(&o),
        "arena {args:?}: {}\n{}",
        o.status,
        text(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("utf-8 stdout")
}

/// The arguments of `arena sprt --engine NEW --engine BASE --elo0 0 --elo1 10 --seed 3 REST...`:
/// the gate the tests play (REST in its order, usually ending in `--out DIR`).
pub fn gate_args<'a>(new: &'a str, base: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "sprt", "--engine", new, "--engine", base, "--elo0", "0", "--elo1", "10", "--seed", "3",
    ];
    args.extend_from_slice(rest);
    args
}

/// The arguments of `arena match --engine A --engine B --pairs PAIRS REST...` (REST in its
/// order, usually ending in `--out DIR`): the two-engine match most tests play.
pub fn match_args<'a>(a: &'a str, b: &'a str, pairs: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["match", "--engine", a, "--engine", b, "--pairs", pairs];
    args.extend_from_slice(rest);
    args
}

/// Runs `arena ARGS`, sends it SIGINT (as Ctrl-C does) once `journal` holds `lines` complete
/// lines (within two minutes, however loaded the machine), and returns its output.
pub fn interrupted_after_lines(args: &[&str], journal: &Path, lines: usize) -> Output {
    let child = std::process::Command::new(arena_bin())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while std::fs::read_to_string(journal)
        .unwrap_or_default()
        .matches('\n')
        .count()
        < lines
    {
        assert!(
            std::time::Instant::now() < deadline,
            "{} lines never reached {}",
            lines,
            journal.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    child.wait_with_output().unwrap()
}
