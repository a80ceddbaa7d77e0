//! `unsafe` code lives in one place: every crate root forbids it, except the arena's library,
//! which denies it and lets exactly one module (`engines/fd.rs`, two system calls) allow it.

use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn unsafe_code_is_forbidden_but_in_one_module() {
    let crates = workspace().join("crates");
    let mut roots = 0;
    for krate in std::fs::read_dir(&crates).unwrap() {
        let src = krate.unwrap().path().join("src");
        for root in ["lib.rs", "main.rs"] {
            let path = src.join(root);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            roots += 1;
            let arena_lib = path.ends_with("arena/src/lib.rs");
            let want = if arena_lib {
                "#![deny(unsafe_code)]"
            } else {
                "#![forbid(unsafe_code)]"
            };
            assert!(
                text.lines().any(|l| l.trim() == want),
                "{} lacks {want}",
                path.display()
            );
        }
        let mut files = Vec::new();
        sources(&src, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            if text.contains("allow(unsafe_code)") {
                assert!(
                    file.ends_with("arena/src/engines/fd.rs"),
                    "{} allows unsafe code; only engines/fd.rs may",
                    file.display()
                );
            }
        }
    }
    assert!(
        roots >= 8,
        "found only {roots} crate roots under {}",
        crates.display()
    );
}
