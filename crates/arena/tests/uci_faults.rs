//! External engines that fail: one that crashes, one that hangs, one that answers an illegal
//! move and one that answers garbage. Each failure loses its game with the reason recorded and
//! counted against the engine, the process is restarted for the next game, and the match
//! finishes.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-uci-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A shell-script engine that handshakes properly and answers `go` with `on_go`.
fn script(dir: &Path, on_go: &str) -> String {
    let path = dir.join("engine.sh");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\n\
             while read -r line; do\n\
               case \"$line\" in\n\
                 uci) echo 'id name scripted'; echo 'option name Hash type spin default 1 min 1 max 8'; echo uciok ;;\n\
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

#[test]
fn failing_external_engines_lose_their_games_and_the_match_goes_on() {
    for (name, on_go, reason) in [
        ("crash", "exit 3", "engine-crash"),
        // It exits, but a child it started keeps its output open: still a crash, at once.
        ("orphan", "sleep 30 & exit 3", "engine-crash"),
        ("hang", "exec sleep 30", "timeout"),
        (
            "illegal",
            "echo 'info depth 1 nodes 5'; echo 'bestmove a0a9'",
            "illegal-move",
        ),
        ("garbage", "echo 'bestmove (none)'", "protocol-error"),
        // A flood of output is cut off by the byte cap (its timeout is raised to a minute
        // below), not read into memory for ever.
        ("flood", "exec yes 'info string flood'", "protocol-error"),
        (
            "longline",
            "head -c 300000 /dev/zero | tr '\\0' x; echo; exec sleep 30",
            "protocol-error",
        ),
    ] {
        let dir = tmp(name);
        let timeout = if name == "flood" { 60_000 } else { 300 };
        let spec = format!(
            "uci:path={},option.Hash=4,timeout={timeout}",
            script(&dir, on_go)
        );
        let out_dir = dir.join("out");
        let o = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args([
                "match",
                "--engine",
                &spec,
                "--engine",
                "random",
                "--pairs",
                "2",
                "--threads",
                "2",
                "--nodes",
                "10",
                "--out",
                out_dir.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{name}: {out}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        // Four games, four losses for the script: each game started a fresh process.
        assert!(out.contains(&format!("{reason} 4")), "{name}: {out}");
        assert!(
            out.contains(&format!("{spec} 4")),
            "{name}: failures counted: {out}"
        );
        assert!(out.contains("Ptnml(0-2): [2, 0, 0, 0, 0]"), "{name}: {out}");
        let csv = std::fs::read_to_string(out_dir.join("games.csv")).unwrap();
        assert_eq!(
            csv.lines().filter(|l| l.contains(reason)).count(),
            4,
            "{csv}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn engines_that_do_not_start_are_refused_before_the_match() {
    let dir = tmp("refused");
    // An executable that is not a UCI engine: no `uciok` within init_timeout.
    let silent = dir.join("silent.sh");
    std::fs::write(&silent, "#!/bin/sh\nexec sleep 30\n").unwrap();
    std::fs::set_permissions(&silent, std::fs::Permissions::from_mode(0o755)).unwrap();
    for (spec, says) in [
        (
            format!("uci:path={}", dir.join("missing").display()),
            "cannot start",
        ),
        (
            format!("uci:path={},init_timeout=200", silent.display()),
            "no 'uciok'",
        ),
        (
            format!(
                "uci:path={},option.Hsah=4",
                script(&dir, "echo 'bestmove a0a1'")
            ),
            "option 'Hsah' is not one of the engine's options (hash)",
        ),
        (
            format!(
                "uci:path={},option.Hash=99",
                script(&dir, "echo 'bestmove a0a1'")
            ),
            "option 'Hash': 99 is outside the engine's range 1..8",
        ),
        (
            format!(
                "uci:path={},option.Hash=big",
                script(&dir, "echo 'bestmove a0a1'")
            ),
            "'big' is not a whole number",
        ),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args([
                "match", "--engine", &spec, "--engine", "random", "--pairs", "1",
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{spec}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{spec}: {err}");
    }
    // Rules no UCI_Variant names are refused for an external engine (it would play others).
    let rules = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/rules/standard-rule60.json"
    );
    let spec = format!("uci:path={}", script(&dir, "echo 'bestmove a0a1'"));
    let o = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "match", "--engine", &spec, "--engine", "random", "--pairs", "1", "--rules", rules,
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("are no UCI_Variant"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
