//! `scripts/jieqibox-check.sh`: JieqiBox's command sequences (analysis, variation and arrow
//! analysis, human vs AI) pass against the real binary, and the script fails on an engine that
//! answers wrongly.

use std::path::{Path, PathBuf};
use std::process::Command;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/jieqibox-check.sh")
}

#[test]
fn jieqibox_sequences_pass() {
    let out = std::env::temp_dir().join(format!("jieqibox-check-{}", std::process::id()));
    let run = Command::new("bash")
        .arg(script())
        .args(["--bin", env!("CARGO_BIN_EXE_jieqi-uci"), "--out"])
        .arg(&out)
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("jieqi-uci: 0 failure(s)"), "{stdout}");
    for mode in ["analysis", "variation", "human-ai"] {
        let t = std::fs::read_to_string(out.join(format!("{mode}.txt"))).unwrap();
        assert!(
            t.contains("< uciok") && t.contains("< readyok"),
            "{mode}: {t}"
        );
        assert!(t.contains("< bestmove "), "{mode}: {t}");
        assert!(!t.contains("!! FAIL"), "{mode}: {t}");
    }
    let variation = std::fs::read_to_string(out.join("variation.txt")).unwrap();
    assert!(
        variation.contains("go infinite searchmoves "),
        "{variation}"
    );
    let analysis = std::fs::read_to_string(out.join("analysis.txt")).unwrap();
    assert!(
        analysis.contains(" w - - 0 1\n"),
        "the legacy FEN is sent: {analysis}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_wrong_engine_fails_the_check() {
    // Answers the handshake, then an info line JieqiBox cannot read and an illegal bestmove.
    let fake = std::env::temp_dir().join(format!("fake-engine-{}.sh", std::process::id()));
    std::fs::write(
        &fake,
        "#!/usr/bin/env bash\nwhile read -r l; do case \"$l\" in\n\
         uci) echo uciok ;; isready) echo readyok ;; quit) exit 0 ;;\n\
         go\\ perft*) echo 'a0a1: 1'; echo 'Nodes searched: 1'; echo 'info string perft' ;;\n\
         go*) echo 'info depth 1 score x'; echo 'bestmove e4e5' ;;\n\
         d) echo 'Fen: x'; echo 'Side to move: Red' ;;\nesac; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let run = Command::new("bash")
        .arg(script())
        .arg("--bin")
        .arg(&fake)
        .output()
        .expect("bash runs");
    let _ = std::fs::remove_file(&fake);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(
        stderr.contains("info line without 'score cp|mate N'"),
        "{stderr}"
    );
    assert!(stderr.contains("bestmove e4e5 is not legal"), "{stderr}");
}
