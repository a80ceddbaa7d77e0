//! Which code played a run: the commit the arena was built from and whether the tree differed
//! from it (recorded at build time by `build.rs`), a SHA-256 of the arena binary that ran, and one
//! of each external engine's executable. Every run record, summary and report carries it, so a
//! number can be traced back to code; a resume or a merge that would mix builds is refused unless
//! the user allows it.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The commit the arena was built from (40 hex digits), or "unknown" (built without git).
pub const COMMIT: &str = env!("JIEQI_COMMIT");

/// Whether the sources the arena was built from (`crates/`, `Cargo.toml`, `Cargo.lock`) differed
/// from [`COMMIT`].
pub const DIRTY: bool = matches!(env!("JIEQI_DIRTY").as_bytes(), b"true");

/// The code that played a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// The arena's crate version.
    pub version: String,
    /// The commit the arena was built from (40 hex digits), or "unknown".
    pub commit: String,
    /// Whether the arena's sources differed from `commit`.
    pub dirty: bool,
    /// SHA-256 of the arena binary that ran (hex), or "unknown" if it could not be read.
    pub arena_sha256: String,
    /// External engines' executables, in the run's engine order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub engines: Vec<EngineBinary>,
}

/// An external engine's executable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineBinary {
    /// The engine's label in the run.
    pub label: String,
    /// The executable as the spec names it.
    pub path: String,
    /// SHA-256 of the file (hex), or "unknown" if it could not be read.
    pub sha256: String,
}

impl Build {
    /// This arena's build, with the executables of the external engines given as (label, path
    /// as the spec names it). A path without a `/` is looked up in `PATH`, as the process would
    /// be started.
    pub fn current(external: &[(String, String)]) -> Build {
        Build {
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: COMMIT.to_string(),
            dirty: DIRTY,
            arena_sha256: arena_sha256().to_string(),
            engines: external
                .iter()
                .map(|(label, path)| EngineBinary {
                    label: label.clone(),
                    path: path.clone(),
                    sha256: executable(path)
                        .and_then(|p| sha256_file(&p).ok())
                        .unwrap_or_else(|| "unknown".into()),
                })
                .collect(),
        }
    }

    /// The commit in short (12 digits), with "+dirty" if the tree differed: `1a2b3c4d5e6f+dirty`.
    pub fn short_commit(&self) -> String {
        let c: String = self.commit.chars().take(12).collect();
        if self.dirty { format!("{c}+dirty") } else { c }
    }

    /// One line for a summary: `commit 1a2b3c4d5e6f+dirty, arena sha256 9f8e7d6c5b4a, engine
    /// 'base' sha256 0123456789ab`.
    pub fn line(&self) -> String {
        let mut s = format!(
            "commit {}, arena {} sha256 {}",
            self.short_commit(),
            self.version,
            short_hash(&self.arena_sha256)
        );
        for e in &self.engines {
            s.push_str(&format!(
                ", engine '{}' sha256 {}",
                e.label,
                short_hash(&e.sha256)
            ));
        }
        s
    }

    /// Why a run started by `self` and continued by `other` would mix code, if it would: the
    /// arena differs (another binary, unless both are clean builds of one commit: the same code
    /// compiled elsewhere) or an external engine's executable differs.
    pub fn differs(&self, other: &Build) -> Option<String> {
        let same_commit_clean =
            self.commit == other.commit && self.commit != "unknown" && !self.dirty && !other.dirty;
        if self.arena_sha256 != other.arena_sha256 && !same_commit_clean {
            return Some(format!(
                "the arena differs: {} against {}",
                self.short_identity(),
                other.short_identity()
            ));
        }
        for (a, b) in self.engines.iter().zip(&other.engines) {
            if a.sha256 != b.sha256 {
                return Some(format!(
                    "engine '{}' ({}) differs: sha256 {} against {}",
                    a.label,
                    a.path,
                    short_hash(&a.sha256),
                    short_hash(&b.sha256)
                ));
            }
        }
        if self.engines.len() != other.engines.len() {
            return Some("the external engines differ".into());
        }
        None
    }

    fn short_identity(&self) -> String {
        format!(
            "commit {} (arena sha256 {})",
            self.short_commit(),
            short_hash(&self.arena_sha256)
        )
    }
}

/// Why [`Builds::join`] refuses a build (without `--allow-mixed-builds`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MixedBuilds {
    /// The build differs from the run's; the field says how.
    Differ(String),
    /// Part of the run was played by a build that was not recorded.
    Unrecorded,
}

impl std::fmt::Display for MixedBuilds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MixedBuilds::Differ(why) => write!(
                f,
                "{why}; games of two builds would be counted as one run (use the same \
                 binaries, or pass --allow-mixed-builds to mix them: the record then lists \
                 every build)"
            ),
            MixedBuilds::Unrecorded => f.write_str(
                "part of the run was played by a build that was not recorded (an older arena); \
                 pass --allow-mixed-builds to mix them",
            ),
        }
    }
}

impl std::error::Error for MixedBuilds {}

/// The builds that played a run: the one that started it and any that continued it (a resume or
/// a merge allowed to mix builds with `--allow-mixed-builds`). Stored in a run's record and its
/// summaries as the fields `build` and `later_builds`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Builds {
    /// The build that started the run; absent in records written before builds were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<Build>,
    /// Other builds that played part of it, in the order they joined.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub later_builds: Vec<Build>,
}

impl Builds {
    /// A run started by `build`.
    pub fn started_by(build: Build) -> Builds {
        Builds {
            build: Some(build),
            later_builds: Vec::new(),
        }
    }

    /// Every build, the first one first.
    pub fn all(&self) -> impl Iterator<Item = &Build> {
        self.build.iter().chain(&self.later_builds)
    }

    /// Whether more than one build played the run (or an unrecorded one and another).
    pub fn is_mixed(&self) -> bool {
        !self.later_builds.is_empty()
    }

    /// Adds the build that plays the next part of the run (a resume, or another shard's builds
    /// for a merge), unless it is one already there. With `allow` false a build that differs is
    /// refused: the message says how.
    ///
    /// # Errors
    /// `next` differs from the run's builds and mixing is not allowed ([`MixedBuilds`]).
    pub fn join(&mut self, next: &Builds, allow: bool) -> Result<(), MixedBuilds> {
        for b in next.all() {
            if self.all().any(|have| have.differs(b).is_none()) {
                continue;
            }
            let why = match &self.build {
                Some(first) => first.differs(b).unwrap_or_default(),
                None => format!(
                    "the run was started by an arena that did not record its build (older \
                     than build records); this is {}",
                    b.short_identity()
                ),
            };
            if !allow {
                return Err(MixedBuilds::Differ(why));
            }
            self.later_builds.push(b.clone());
        }
        if next.build.is_none() && self.build.is_some() && !allow {
            return Err(MixedBuilds::Unrecorded);
        }
        Ok(())
    }

    /// One line for a summary: the build, and any others that played part of the run.
    pub fn line(&self) -> String {
        let first = self
            .build
            .as_ref()
            .map_or("not recorded (an older arena)".to_string(), Build::line);
        if self.later_builds.is_empty() {
            first
        } else {
            let later: Vec<String> = self.later_builds.iter().map(Build::line).collect();
            format!("{first}; MIXED: also played by {}", later.join("; "))
        }
    }
}

/// The first 12 digits of a hash ("unknown" stays whole).
pub fn short_hash(h: &str) -> String {
    h.chars().take(12).collect()
}

/// SHA-256 of the running arena binary, computed once.
pub fn arena_sha256() -> &'static str {
    static HASH: OnceLock<String> = OnceLock::new();
    HASH.get_or_init(|| {
        std::env::current_exe()
            .ok()
            .and_then(|p| sha256_file(&p).ok())
            .unwrap_or_else(|| "unknown".into())
    })
}

/// The file a command names: itself if it has a `/`, else the first executable of that name in
/// `PATH`.
fn executable(command: &str) -> Option<PathBuf> {
    if command.contains('/') {
        return Some(PathBuf::from(command));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(command))
        .find(|p| p.is_file())
}

/// SHA-256 of a file's bytes, in hex. Executables can be large: read in blocks, never whole.
///
/// # Errors
/// The file cannot be opened or read.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = crate::records::files::open_regular(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(commit: &str, dirty: bool, arena: &str) -> Build {
        Build {
            version: "0.1.0".into(),
            commit: commit.into(),
            dirty,
            arena_sha256: arena.into(),
            engines: vec![],
        }
    }

    #[test]
    fn sha256_of_a_known_text() {
        let dir = std::env::temp_dir().join(format!("arena-build-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("abc");
        std::fs::write(&f, b"abc").unwrap();
        assert_eq!(
            sha256_file(&f).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_commit_is_recorded_at_build_time() {
        assert!(
            COMMIT == "unknown"
                || (COMMIT.len() == 40 && COMMIT.chars().all(|c| c.is_ascii_hexdigit()))
        );
        assert_eq!(arena_sha256().len(), 64);
    }

    #[test]
    fn same_binary_or_same_clean_commit_is_one_build() {
        let c = "a".repeat(40);
        let d = "b".repeat(40);
        assert_eq!(build(&c, false, "x").differs(&build(&c, false, "x")), None);
        // Recompiled elsewhere from the same clean commit: the same code.
        assert_eq!(build(&c, false, "x").differs(&build(&c, false, "y")), None);
        // A dirty tree, or another commit, with another binary: different code.
        assert!(
            build(&c, true, "x")
                .differs(&build(&c, true, "y"))
                .is_some()
        );
        assert!(
            build(&c, false, "x")
                .differs(&build(&d, false, "y"))
                .is_some()
        );
        // The same binary reports the same commit: one build even if dirty.
        assert_eq!(build(&c, true, "x").differs(&build(&c, true, "x")), None);
        let mut e = build(&c, false, "x");
        e.engines.push(EngineBinary {
            label: "base".into(),
            path: "p".into(),
            sha256: "1".into(),
        });
        let mut f = e.clone();
        f.engines[0].sha256 = "2".into();
        assert!(e.differs(&f).unwrap().contains("engine 'base'"));
    }

    #[test]
    fn a_bare_command_is_looked_up_in_path() {
        assert!(executable("sh").is_some_and(|p| p.is_file()));
        assert_eq!(executable("./x"), Some(PathBuf::from("./x")));
    }
}
