//! The scripts' command lines: a bad argument is refused with a message and exit 2, as each
//! script's `--help` documents (`scripts/regression.sh`, `scripts/fuzz.sh`); `fuzz.sh` runs
//! here with a stand-in `cargo` first on `PATH`, so nothing is built.
#![cfg(unix)]

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{have_bash, text, tmp};

/// The repository's `scripts/NAME`.
fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts")
        .join(name)
}

/// `bash scripts/NAME ARGS...`, with `path_first` ahead of `PATH` when given.
fn run(name: &str, args: &[&str], path_first: Option<&Path>) -> Output {
    let mut c = Command::new("bash");
    c.arg(script(name)).args(args);
    if let Some(dir) = path_first {
        let path = std::env::var("PATH").unwrap_or_default();
        c.env("PATH", format!("{}:{path}", dir.display()));
    }
    c.output().expect("bash runs")
}

#[test]
fn regression_refuses_an_empty_or_missing_value_with_exit_2() {
    if !have_bash("scripts_usage") {
        return;
    }
    for args in [
        &["--engine", ""][..],
        &["--base", ""],
        &["--new", ""],
        &["--engine"],
        &["--no-build", "--base"],
    ] {
        let o = run("regression.sh", args, None);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("needs a"), "{args:?}: {err}");
    }
}

#[test]
fn fuzz_says_what_is_wrong_and_exits_2_on_bad_usage() {
    if !have_bash("scripts_usage") {
        return;
    }
    for (args, says) in [
        (&["abc"][..], "INPUTS 'abc'"),
        (&["0"], "INPUTS '0'"),
        (&["-5"], "INPUTS '-5'"),
        (&["10", "x"], "SEEDS 'x'"),
        (&["10", "1", "3"], "at most INPUTS and SEEDS"),
    ] {
        let o = run("fuzz.sh", args, None);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let o = run("fuzz.sh", &["--help"], None);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        text(&o.stdout).contains("2 = bad usage"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn fuzz_exits_1_when_an_input_panics() {
    if !have_bash("scripts_usage") {
        return;
    }
    let dir = tmp("fuzz-cargo");
    std::fs::create_dir_all(&dir).unwrap();
    let cargo = dir.join("cargo");
    for (body, status, says) in [
        (
            "echo \"inputs: $JIEQI_FUZZ_INPUTS\"; echo 'test result: ok'",
            0,
            "seed 2: inputs: 7",
        ),
        (
            "echo \"thread 'x' panicked at fuzz.rs\"; exit 101",
            1,
            "seed 1: thread 'x' panicked",
        ),
    ] {
        std::fs::write(&cargo, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
        let o = run("fuzz.sh", &["7", "2"], Some(&dir));
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(status), "{out}{}", text(&o.stderr));
        assert!(out.contains(says), "{out}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `bash SCRIPT ARGS...` run from `cwd`, with the environment `env` changed: a variable with a
/// value is set, one without it removed.
fn bash(script: &Path, args: &[&str], cwd: &Path, env: &[(&str, Option<&OsStr>)]) -> Output {
    let mut c = Command::new("bash");
    c.arg(script).args(args).current_dir(cwd);
    for (k, v) in env {
        match v {
            Some(v) => c.env(k, v),
            None => c.env_remove(k),
        };
    }
    c.output().expect("bash runs")
}

/// `bash scripts/NAME ARGS...` run from `cwd`, with the environment `env` added.
fn run_in(name: &str, args: &[&str], cwd: &Path, env: &[(&str, &Path)]) -> Output {
    let env: Vec<_> = env.iter().map(|(k, v)| (*k, Some(v.as_os_str()))).collect();
    bash(&script(name), args, cwd, &env)
}

/// Whether git runs here; if not, [`crate::common::missing`] says so for `test`.
fn have_git(test: &str) -> bool {
    let found = Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        crate::common::missing(test, "git not found (apt-get install git)");
    }
    found
}

/// Makes `origin` a git repository whose first commit holds a copy of the repository's scripts/
/// (and whatever `origin` holds already).
fn repository_of_the_scripts(origin: &Path) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cp = Command::new("cp")
        .arg("-r")
        .arg(repo.join("scripts"))
        .arg(origin)
        .status()
        .unwrap();
    assert!(cp.success());
    git(origin, &["init", "--quiet"]);
    git(origin, &["add", "."]);
    git(origin, &["commit", "--quiet", "-m", "first"]);
}

/// An executable shell script at `path` with `body`.
fn executable(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A stand-in arena: writes a summary.json into its `--out` folder (alphabeta even at the first
/// rung) and exits with `FAKE_ARENA_STATUS` (default 0).
const FAKE_ARENA: &str = r#"out=""
while [ $# -gt 0 ]; do [ "$1" = --out ] && out="$2"; shift; done
[ "${FAKE_ARENA_STATUS:-0}" = 0 ] || { echo "fake arena: refused" >&2; exit "$FAKE_ARENA_STATUS"; }
if [ -n "$out" ]; then
  mkdir -p "$out"
  echo '{"per_move": {"fsf": {"ms": 1, "depth": 1}, "alphabeta": {"ms": 1, "depth": 1}},
    "results": {"games": 2, "wins": 1, "draws": 1, "losses": 0, "score": 0.75, "elo": 190,
    "elo_lower": -100, "elo_upper": 400}, "failures": {"fsf": 0, "alphabeta": 0}}' >"$out/summary.json"
fi"#;

#[test]
fn every_script_names_the_flag_of_a_missing_empty_or_bad_value_and_exits_2() {
    if !have_bash("scripts_usage") {
        return;
    }
    let cases: &[(&str, &[&str], &str)] = &[
        ("strength.sh", &["--movetime"], "--movetime needs a value"),
        ("strength.sh", &["--out", ""], "--out needs a value"),
        ("strength.sh", &["--pairs", "-1"], "--pairs '-1'"),
        ("strength.sh", &["--seed", "x"], "--seed 'x'"),
        ("strength.sh", &["--bogus"], "unknown argument '--bogus'"),
        ("fairy-ladder.sh", &["--seed"], "--seed needs a value"),
        ("fairy-ladder.sh", &["--out", ""], "--out needs a value"),
        ("fairy-ladder.sh", &["--pairs", "0"], "--pairs '0'"),
        ("fairy-ladder.sh", &["--threads"], "--threads needs a value"),
        ("nightly.sh", &["--root"], "--root needs a value"),
        ("nightly.sh", &["--threads", "0"], "--threads '0'"),
        ("nightly.sh", &["--threads", ""], "--threads needs a value"),
        (
            "make-suites.sh",
            &["--no-build", "--keep"],
            "--keep needs a value",
        ),
        ("make-suites.sh", &["--threads", "x"], "--threads 'x'"),
        ("make-suites.sh", &["--bogus"], "unknown argument '--bogus'"),
        ("jieqibox-check.sh", &["--bin"], "--bin needs a value"),
        ("jieqibox-check.sh", &["--out", ""], "--out needs a value"),
        ("bench-uci-overhead.sh", &["abc"], "ROUNDS 'abc'"),
        ("bench-uci-overhead.sh", &["1", "0"], "PAIRS '0'"),
        (
            "bench-uci-overhead.sh",
            &["1", "2", "3"],
            "at most ROUNDS and PAIRS",
        ),
        ("bench-memory.sh", &["abc"], "pairs 'abc'"),
        ("bench-memory.sh", &["0"], "pairs '0'"),
        ("bench-memory.sh", &["-5"], "pairs '-5'"),
        ("fuzz.sh", &[""], "INPUTS ''"),
        ("perft-deep.sh", &["--only"], "--only needs a value"),
        (
            "perft-deep.sh",
            &["--min-nodes", ""],
            "--min-nodes needs a value",
        ),
    ];
    for (name, args, says) in cases {
        let o = run(name, args, None);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name} {args:?}: {err}");
        assert!(err.contains(says), "{name} {args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{name} {args:?}: {err}");
    }
}

#[test]
fn jieqibox_check_ends_with_its_verdict_when_the_engine_exits() {
    if !have_bash("scripts_usage") {
        return;
    }
    let o = run("jieqibox-check.sh", &["--bin", "/bin/true"], None);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(err.contains("FAIL [analysis]"), "{err}");
    assert!(!err.contains("unbound variable"), "{err}");
    assert!(out.contains("jieqi-uci: 2 failure(s)"), "{out}");
}

#[test]
fn fairy_ladder_and_nightly_take_their_folders_from_the_callers_directory() {
    if !have_bash("scripts_usage") {
        return;
    }
    let dir = tmp("cwd");
    let arena = dir.join("fake-arena");
    executable(&arena, FAKE_ARENA);
    let o = run_in(
        "fairy-ladder.sh",
        &["--no-build", "--pairs", "1", "--out", "fl2"],
        &dir,
        &[
            ("ARENA", &arena),
            ("FAIRY_STOCKFISH", Path::new("/bin/true")),
        ],
    );
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(dir.join("fl2/odds-1x/summary.json").is_file(), "{out}{err}");
    assert!(out.contains("from odds 1x on"), "{out}");

    std::fs::write(dir.join("cfg.json"), "{}").unwrap();
    let night = ["--no-build", "--config", "cfg.json", "--root", "n1"];
    let o = run_in(
        "nightly.sh",
        &[&night[..], &["--date", "2026-12-02", "--threads", "1"]].concat(),
        &dir,
        &[("ARENA", &arena)],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{}{err}", text(&o.stdout));
    assert!(dir.join("n1/2026-12-02/night.json").is_file(), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_refused_night_leaves_no_night_record() {
    if !have_bash("scripts_usage") {
        return;
    }
    let dir = tmp("refused");
    let arena = dir.join("fake-arena");
    executable(&arena, FAKE_ARENA);
    let config = dir.join("cfg.json");
    std::fs::write(&config, "{}").unwrap();
    let root = dir.join("n");
    let night = [
        "--no-build",
        "--config",
        config.to_str().unwrap(),
        "--root",
        root.to_str().unwrap(),
    ];
    // Refused by the script, then by the arena.
    let o = run_in(
        "nightly.sh",
        &[&night[..], &["--date", "2026-12-02", "--threads", "0"]].concat(),
        &dir,
        &[("ARENA", &arena)],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(!dir.join("n/2026-12-02").exists());
    let o = bash(
        &script("nightly.sh"),
        &[&night[..], &["--date", "2026-12-03", "--threads", "1"]].concat(),
        &dir,
        &[
            ("ARENA", Some(arena.as_os_str())),
            ("FAKE_ARENA_STATUS", Some("2".as_ref())),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(!dir.join("n/2026-12-03/night.json").exists());
    assert!(!dir.join("n/2026-12-03").exists());
    let _ = std::fs::remove_dir_all(dir);
}

/// A quick try (arguments after `--`) never goes into the real nightly root, however `--root`
/// spells it: with a trailing slash, through `./`, absolute, through a link. The arena named does
/// not exist, so the script stops there at the latest and nothing is written anywhere.
#[test]
fn a_quick_try_is_refused_in_the_real_root_however_it_is_spelt() {
    if !have_bash("scripts_usage") {
        return;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap();
    let dir = tmp("try-root");
    std::os::unix::fs::symlink(repo.join("results/nightly"), dir.join("link")).unwrap();
    let no_arena = dir.join("no-arena");
    let real = format!("{}/results/nightly/", repo.display());
    for (cwd, root) in [
        (&repo, "results/nightly/"),
        (&repo, "./results/nightly"),
        (&repo, "results//nightly"),
        (&dir, real.as_str()),
        (&dir, "link"),
        (&dir, "link/"),
    ] {
        let o = run_in(
            "nightly.sh",
            &["--no-build", "--root", root, "--", "--seed", "7"],
            cwd,
            &[("ARENA", &no_arena)],
        );
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "--root {root}: {err}");
        assert!(
            err.contains("a quick try goes in a root of its own"),
            "--root {root}: {err}"
        );
    }
    // Another root takes the try (and then finds no arena).
    let o = run_in(
        "nightly.sh",
        &[
            "--no-build",
            "--root",
            "results/nightly-try",
            "--",
            "--seed",
            "7",
        ],
        &dir,
        &[("ARENA", &no_arena)],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is no executable file"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn ttd_refuses_bad_arguments_before_building_anything() {
    if !have_bash("scripts_usage") {
        return;
    }
    for (args, says) in [
        (
            &["--threads", "1"][..],
            "--threads '1' is not a whole number of 2 or more",
        ),
        (&["--runs", "x"], "--runs 'x' is not a whole number"),
        (&["--depth"], "--depth needs a value"),
        (
            &["--spec", "ismcts"],
            "--spec 'ismcts' is not an alphabeta spec",
        ),
        (
            &["--spec", "alphabeta:threads=4"],
            "sets threads: use --threads",
        ),
        (&["--bogus"], "unknown argument '--bogus'"),
    ] {
        let o = run("ttd.sh", args, None);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `git ARGS...` in `dir`, which must succeed (commits by a fixed author, whatever the machine's
/// configuration).
fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args(["-c", "user.name=test", "-c", "user.email=test@example.org"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(o.status.success(), "git {args:?}: {}", text(&o.stderr));
}

/// The README's cron line, taken from README.md as written, runs a night on a fresh clone under
/// cron's environment (`env -i PATH=/usr/bin:/bin HOME=…`): the log's folder does not exist yet,
/// cargo is only in ~/.cargo/bin (a stand-in that "builds" by copying this build's arena), and
/// `--pull` brings the clone to the commit its origin got after the clone was made. The line
/// used to fail before the script started (no results/nightly/), then on "cargo: command not
/// found".
#[test]
fn the_readme_cron_line_runs_a_night_on_a_fresh_clone_under_crons_environment() {
    let test =
        "scripts_usage::the_readme_cron_line_runs_a_night_on_a_fresh_clone_under_crons_environment";
    if !have_bash(test) || !have_git(test) {
        return;
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let block = readme
        .split("```cron\n")
        .nth(1)
        .expect("a ```cron block in README.md");
    let line = block.lines().next().unwrap();
    // Minute, hour, day, month, weekday, then the command cron gives to /bin/sh.
    let command = line.splitn(6, ' ').nth(5).expect("a cron line");
    assert!(command.contains("cd /srv/jieqi && "), "{command}");

    let dir = tmp("cron");
    let origin = dir.join("origin");
    std::fs::create_dir_all(origin.join("configs")).unwrap();
    let config = origin.join("configs/nightly.json");
    std::fs::write(
        &config,
        r#"{"engines": ["greedy", "random"], "pairs": 1, "bootstrap": 100}"#,
    )
    .unwrap();
    repository_of_the_scripts(&origin);
    git(&dir, &["clone", "--quiet", "origin", "clone"]);
    // New code on the branch after the clone: tonight must play it.
    std::fs::write(
        &config,
        r#"{"engines": ["greedy", "random"], "pairs": 2, "bootstrap": 100}"#,
    )
    .unwrap();
    git(&origin, &["commit", "--quiet", "-am", "second"]);
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(&origin)
        .output()
        .unwrap();
    let head = text(&head.stdout).trim().to_string();

    let home = dir.join("home");
    std::fs::create_dir_all(home.join(".cargo/bin")).unwrap();
    executable(
        &home.join(".cargo/bin/cargo"),
        &format!(
            "[ \"$1\" = build ] || exit 1\nmkdir -p target/release && cp '{}' target/release/arena",
            crate::common::arena_bin().display()
        ),
    );
    let clone = dir.join("clone");
    let command = command.replace("/srv/jieqi", clone.to_str().unwrap());
    let o = Command::new("/usr/bin/env")
        .args(["-i", "PATH=/usr/bin:/bin"])
        .arg(format!("HOME={}", home.display()))
        .args(["/bin/sh", "-c", &command])
        .output()
        .expect("env runs");
    let nights = clone.join("results/nightly");
    let log = std::fs::read_to_string(nights.join("cron.log")).unwrap_or_default();
    assert!(
        o.status.success(),
        "{command}: {}\n{}{log}",
        o.status,
        text(&o.stderr)
    );
    assert!(log.contains("== nightly "), "{log}");
    assert!(
        log.contains("Wrote ") && log.contains("index.html"),
        "{log}"
    );
    let night = std::fs::read_dir(&nights)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("night.json").is_file())
        .unwrap_or_else(|| panic!("no night in {}: {log}", nights.display()));
    let marker = std::fs::read_to_string(night.join("night.json")).unwrap();
    assert!(marker.contains(&head), "pulled {head}? {marker}");
    assert!(night.join("report.html").is_file(), "{log}");
    assert!(log.contains("2 pairs"), "the pulled config: {log}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A night whose engine fails every game is played and rated (the index is rebuilt), and the
/// script ends with a line that says so and exit 5; it used to report success.
#[test]
fn a_night_with_a_failing_engine_says_so_and_exits_5() {
    if !have_bash("scripts_usage::a_night_with_a_failing_engine_says_so_and_exits_5") {
        return;
    }
    let dir = tmp("night-5");
    std::fs::write(
        dir.join("cfg.json"),
        r#"{"engines": ["faulty:mode=illegal,after=3", "greedy"], "pairs": 1, "bootstrap": 100}"#,
    )
    .unwrap();
    let o = run_in(
        "nightly.sh",
        &[
            "--no-build",
            "--config",
            "cfg.json",
            "--root",
            "n",
            "--date",
            "2026-12-02",
        ],
        &dir,
        &[("ARENA", crate::common::arena_bin())],
    );
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(5), "{out}{err}");
    assert!(
        out.contains("ENGINE FAILURES: faulty:mode=illegal,after=3"),
        "{out}"
    );
    assert!(
        err.contains("the night 2026-12-02 is complete, but an engine failed"),
        "{err}"
    );
    assert!(dir.join("n/index.html").is_file(), "{out}{err}");
    let report = std::fs::read_to_string(dir.join("n/2026-12-02/report.html")).unwrap();
    assert!(report.contains("ENGINE FAILURES"), "the report says it too");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--pull` plays, and records, the pulled code, so it needs a build: with `ARENA` set or
/// `--no-build` it is refused before anything is pulled. The night used to record the pulled
/// commit in night.json while the given, older arena played.
#[test]
fn pull_is_refused_when_the_pulled_code_would_not_be_built() {
    if !have_bash("scripts_usage::pull_is_refused_when_the_pulled_code_would_not_be_built") {
        return;
    }
    let dir = tmp("pull-arena");
    let arena = dir.join("fake-arena");
    executable(&arena, "exit 0");
    for (args, says) in [
        (&["--pull"][..], "--pull with ARENA="),
        (&["--pull", "--no-build"][..], "--pull with ARENA="),
    ] {
        let o = run_in(
            "nightly.sh",
            &[args, &["--root", "n"]].concat(),
            &dir,
            &[("ARENA", &arena)],
        );
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(says) && err.contains("would not be built"),
            "{err}"
        );
        assert!(!text(&o.stdout).contains("git pull"), "nothing is pulled");
    }
    let o = bash(
        &script("nightly.sh"),
        &["--pull", "--no-build", "--root", "n"],
        &dir,
        &[("ARENA", None)],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--pull with --no-build"), "{err}");
    assert!(!dir.join("n").exists());
    let _ = std::fs::remove_dir_all(dir);
}

/// A night begun with one config is refused, exit 2, when rerun with another (or other
/// arguments after --), before the arena plays anything; it used to play the other config's leak
/// run into <night>/leak first, then stop at the tournament's --resume check, leaving a mixed
/// folder. The `== nightly` command lines end without a trailing space.
#[test]
fn a_night_begun_with_another_config_is_refused_before_anything_is_played() {
    let test =
        "scripts_usage::a_night_begun_with_another_config_is_refused_before_anything_is_played";
    if !have_bash(test) {
        return;
    }
    let dir = tmp("night-setup");
    let arena = dir.join("fake-arena");
    let calls = dir.join("calls.txt");
    executable(&arena, &format!("echo \"$1\" >> '{}'", calls.display()));
    std::fs::write(
        dir.join("small.json"),
        r#"{"engines": ["greedy", "random"]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("big.json"),
        r#"{"engines": ["greedy", "random"], "leak": {"engines": ["greedy"]}}"#,
    )
    .unwrap();
    let night = |config: &str, extra: &[&str]| {
        let args = [
            &["--config", config, "--root", "n", "--date", "2026-12-02"][..],
            extra,
        ]
        .concat();
        run_in("nightly.sh", &args, &dir, &[("ARENA", &arena)])
    };
    let o = night("small.json", &[]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(out.contains("== nightly 2026-12-02: "), "{out}");
    assert!(
        out.lines().all(|l| !l.ends_with(' ')),
        "no trailing space: {out:?}"
    );
    let played = std::fs::read_to_string(&calls).unwrap();
    // The same setup resumes; another config, or other arguments after --, is refused unplayed.
    let o = night("small.json", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let played = std::fs::read_to_string(&calls).unwrap().len() - played.len();
    assert!(played > 0, "the rerun plays");
    for (config, extra) in [
        ("big.json", &[][..]),
        ("small.json", &["--", "--pairs", "2"][..]),
    ] {
        let before = std::fs::read_to_string(&calls).unwrap();
        let o = night(config, extra);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{config} {extra:?}: {err}");
        assert!(
            err.contains("the night 2026-12-02") && err.contains("was begun with another config"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(&calls).unwrap(),
            before,
            "nothing is run"
        );
        assert!(!dir.join("n/2026-12-02/leak").exists());
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// bench-memory.sh takes the arena as every script does (scripts/lib/arena.sh): `ARENA` may name
/// a command on PATH, and a missing one is named. It used to take `ARENA` for a path only (a
/// command name became ./NAME) and never looked on PATH.
#[test]
fn bench_memory_finds_the_arena_as_every_script_does() {
    if !have_bash("scripts_usage::bench_memory_finds_the_arena_as_every_script_does") {
        return;
    }
    if !Path::new("/usr/bin/time").exists() {
        crate::common::missing(
            "scripts_usage::bench_memory_finds_the_arena_as_every_script_does",
            "GNU time not found at /usr/bin/time (apt-get install time)",
        );
        return;
    }
    let dir = tmp("bench-memory-arena");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let calls = dir.join("calls.txt");
    executable(
        &bin.join("my-arena"),
        &format!("echo \"$1\" >> '{}'", calls.display()),
    );
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let bench = script("bench-memory.sh");
    let o = bash(
        &bench,
        &["3"],
        &dir,
        &[
            ("PATH", Some(path.as_ref())),
            ("ARENA", Some("my-arena".as_ref())),
        ],
    );
    let played = std::fs::read_to_string(&calls).unwrap_or_default();
    assert!(
        played.starts_with("match\n"),
        "{played:?}: {}",
        text(&o.stderr)
    );
    let o = bash(
        &bench,
        &["3"],
        &dir,
        &[("ARENA", Some("no-such-arena".as_ref()))],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("ARENA='no-such-arena' is no executable file"),
        "{}",
        text(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `--pull` on a detached HEAD stops the night with exit 1 and says what to do (check out a
/// branch); it used to guess "local commits or changes in the way?".
#[test]
fn pull_on_a_detached_head_says_to_check_out_a_branch() {
    let test = "scripts_usage::pull_on_a_detached_head_says_to_check_out_a_branch";
    if !have_bash(test) || !have_git(test) {
        return;
    }
    let dir = tmp("detached");
    let origin = dir.join("origin");
    std::fs::create_dir_all(&origin).unwrap();
    repository_of_the_scripts(&origin);
    git(
        &origin,
        &["commit", "--quiet", "--allow-empty", "-m", "second"],
    );
    git(&dir, &["clone", "--quiet", "origin", "clone"]);
    let clone = dir.join("clone");
    git(&clone, &["checkout", "--quiet", "--detach", "HEAD~1"]);
    let o = bash(
        &clone.join("scripts/nightly.sh"),
        &["--pull"],
        &clone,
        &[("ARENA", None)],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("(detached HEAD: check out a branch)"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}
