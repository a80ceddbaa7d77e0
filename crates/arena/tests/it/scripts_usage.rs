//! The scripts' command lines: a bad argument is refused with a message and exit 2, as each
//! script's `--help` documents (`scripts/regression.sh`, `scripts/fuzz.sh`); `fuzz.sh` runs
//! here with a stand-in `cargo` first on `PATH`, so nothing is built.
#![cfg(unix)]

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
