//! Records which commit the arena is built from, and whether the code it was built from differed
//! from that commit, as `JIEQI_COMMIT` and `JIEQI_DIRTY` (read by `records::build`). Without git
//! (a source tarball) the commit is `JIEQI_BUILD_COMMIT` if set, else "unknown".

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim_end().to_string())
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let workspace = manifest
        .parent()
        .and_then(Path::parent)
        .unwrap_or(&manifest)
        .to_path_buf();
    println!("cargo:rerun-if-env-changed=JIEQI_BUILD_COMMIT");
    // What the binary is built from: any change there may change the code.
    for p in ["crates", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", workspace.join(p).display());
    }
    let commit = git(&workspace, &["rev-parse", "HEAD"]).filter(|c| c.len() == 40);
    let (commit, dirty) = match commit {
        Some(commit) => {
            // A new commit moves the branch's ref (or HEAD itself when detached); `git add`
            // and `git commit` rewrite the index.
            for args in [
                &["rev-parse", "--git-path", "HEAD"][..],
                &["rev-parse", "--git-path", "index"],
                &["rev-parse", "--git-path", "packed-refs"],
            ] {
                if let Some(p) = git(&workspace, args) {
                    println!("cargo:rerun-if-changed={}", workspace.join(p).display());
                }
            }
            if let Some(r) = git(&workspace, &["symbolic-ref", "-q", "HEAD"]) {
                if let Some(p) = git(&workspace, &["rev-parse", "--git-path", &r]) {
                    println!("cargo:rerun-if-changed={}", workspace.join(p).display());
                }
            }
            // Only the files the binary is built from: an edited README changes no code.
            let status = git(
                &workspace,
                &[
                    "status",
                    "--porcelain",
                    "--",
                    "crates",
                    "Cargo.toml",
                    "Cargo.lock",
                ],
            );
            let dirty = status.map(|s| !s.is_empty()).unwrap_or(true);
            (commit, dirty)
        }
        None => (
            std::env::var("JIEQI_BUILD_COMMIT").unwrap_or_else(|_| "unknown".into()),
            false,
        ),
    };
    println!("cargo:rustc-env=JIEQI_COMMIT={commit}");
    println!("cargo:rustc-env=JIEQI_DIRTY={dirty}");
}
