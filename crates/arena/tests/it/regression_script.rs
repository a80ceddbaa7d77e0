//! `scripts/regression.sh`, the merge gate across git revisions, in a scratch git repository of
//! its own (a copy of the script, one commit on `main`) with a stand-in arena: it must refuse to
//! play a clean commit against itself, and play HEAD against a dirty working tree, saying so.
//!
//! The tests need bash and git: without them a test fails in CI and says it is skipped
//! elsewhere.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{have_bash, missing, text, tmp};

fn have_git(test: &str) -> bool {
    let found = Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        missing(test, "git not found (apt-get install git)");
    }
    found
}

/// `git ARGS...` in `repo`, which must succeed; its stdout.
fn git(repo: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["-c", "user.name=test", "-c", "user.email=test@example.com"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(o.status.success(), "git {args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

fn executable(path: &Path, body: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, body).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A repository holding the script and one file, committed on `main`, with a stand-in arena
/// (it writes its arguments to `arena-args.txt` and exits 0) and engine binaries where the
/// script looks for them, so that `--no-build` builds nothing.
fn repo(dir: &Path) -> PathBuf {
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("scripts")).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/regression.sh");
    std::fs::copy(&script, repo.join("scripts/regression.sh")).unwrap();
    // The arena finder every script shares.
    std::fs::create_dir_all(repo.join("scripts/lib")).unwrap();
    let finder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/lib/arena.sh");
    std::fs::copy(&finder, repo.join("scripts/lib/arena.sh")).unwrap();
    std::fs::write(repo.join("engine.txt"), "first\n").unwrap();
    std::fs::write(repo.join(".gitignore"), "target/\n").unwrap();
    git(&repo, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "the engine as it was"]);
    let head = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    executable(
        &repo.join("target/release/arena"),
        "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/arena-args.txt\"\n",
    );
    executable(&repo.join("target/release/jieqi-uci"), "#!/bin/sh\n");
    executable(
        &repo.join(format!("target/regression/{head}/jieqi-uci")),
        "#!/bin/sh\n",
    );
    repo
}

fn regression(repo: &Path, args: &[&str]) -> Output {
    Command::new("bash")
        .arg(repo.join("scripts/regression.sh"))
        .args(args)
        .current_dir(repo)
        .output()
        .expect("bash runs")
}

#[test]
fn a_clean_head_against_itself_is_refused_before_any_build() {
    if !have_bash("regression_script") || !have_git("regression_script") {
        return;
    }
    let dir = tmp("clean");
    let repo = repo(&dir);
    // Without --no-build too: the refusal comes before cargo would be run.
    let o = regression(&repo, &[]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("new:  ") && err.contains("the engine as it was (working tree, clean)"),
        "{err}"
    );
    assert!(err.contains("base: "), "{err}");
    assert!(err.contains("would play HEAD against itself"), "{err}");
    assert!(!err.contains("building"), "{err}");
    assert!(!repo.join("target/release/arena-args.txt").exists());
    // The same commit named twice is refused as well.
    let o = regression(&repo, &["--no-build", "--base", "HEAD", "--new", "main"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("the same commit"),
        "{}",
        text(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_dirty_working_tree_is_played_against_head_and_said_so() {
    if !have_bash("regression_script") || !have_git("regression_script") {
        return;
    }
    let dir = tmp("dirty");
    let repo = repo(&dir);
    std::fs::write(repo.join("engine.txt"), "changed\n").unwrap();
    let o = regression(&repo, &["--no-build"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("the engine as it was (working tree, dirty)"),
        "{err}"
    );
    assert!(
        err.contains("playing HEAD") && err.contains("against the working tree"),
        "{err}"
    );
    let args = std::fs::read_to_string(repo.join("target/release/arena-args.txt")).unwrap();
    assert!(args.starts_with("sprt\n"), "{args}");
    assert!(args.contains("name=new-worktree+dirty-"), "{args}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_out_after_the_dashes_is_taken_from_the_callers_directory() {
    if !have_bash("regression_script") || !have_git("regression_script") {
        return;
    }
    let dir = tmp("out");
    let repo = repo(&dir);
    std::fs::write(repo.join("engine.txt"), "changed\n").unwrap();
    let here = dir.join("here");
    std::fs::create_dir_all(&here).unwrap();
    for (extra, want) in [
        (
            &["--", "--out", "gate"][..],
            format!("\n{}\n", here.join("gate").display()),
        ),
        (
            &["--", "--out=g2"],
            format!("\n--out={}\n", here.join("g2").display()),
        ),
    ] {
        let o = Command::new("bash")
            .arg(repo.join("scripts/regression.sh"))
            .arg("--no-build")
            .args(extra)
            .current_dir(&here)
            .output()
            .expect("bash runs");
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let args = std::fs::read_to_string(repo.join("target/release/arena-args.txt")).unwrap();
        assert!(args.contains(&want), "{extra:?}: {args}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
