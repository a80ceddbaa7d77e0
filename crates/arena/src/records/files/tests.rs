//! Tests of [`super`].

use super::*;

/// A fresh folder of the test's own.
fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_byte_order_mark_is_dropped() {
    let dir = tmp("bom");
    let path = dir.join("c.json");
    std::fs::write(&path, "\u{feff}{\"a\": 1}").unwrap();
    assert_eq!(read_bounded(&path, MAX_SMALL_FILE).unwrap(), "{\"a\": 1}");
    // Only the first: one inside is text.
    std::fs::write(&path, "\u{feff}\u{feff}x").unwrap();
    assert_eq!(read_bounded(&path, MAX_SMALL_FILE).unwrap(), "\u{feff}x");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_regular_file_is_replaced_atomically() {
    let dir = tmp("regular");
    let path = dir.join("out.txt");
    std::fs::write(&path, b"old, and longer than the new").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    }
    let before = std::fs::metadata(&path).unwrap();
    write_output(&path, b"new").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
    // A new file (a rename), no temporary left, the permissions kept.
    let after = std::fs::metadata(&path).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        assert_ne!(before.ino(), after.ino());
        assert_eq!(after.permissions().mode() & 0o777, 0o640);
    }
    let _ = (before, after);
    write_atomically(&dir.join("own.json"), b"{}").unwrap();
    assert_eq!(names(&dir), ["out.txt", "own.json"]);
    // A folder is refused, and so is a path in a missing folder for the arena's own files.
    assert!(
        write_output(&dir, b"x")
            .unwrap_err()
            .to_string()
            .contains("a folder")
    );
    assert!(write_atomically(&dir.join("no/x"), b"x").is_err());
    // A user's file in a new folder: the folder is made.
    write_output(&dir.join("new/sub/x.txt"), b"x").unwrap();
    assert_eq!(names(&dir.join("new/sub")), ["x.txt"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn a_link_is_followed_and_kept() {
    let dir = tmp("link");
    let real = dir.join("real.txt");
    std::fs::write(&real, b"old").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    // A link to a link, relative.
    let link2 = dir.join("link2.txt");
    std::os::unix::fs::symlink("link.txt", &link2).unwrap();
    write_output(&link2, b"new").unwrap();
    assert_eq!(std::fs::read(&real).unwrap(), b"new");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::symlink_metadata(&link2)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    write_atomically(&link, b"own").unwrap();
    assert_eq!(std::fs::read(&real).unwrap(), b"own");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A link to nothing yet: the file is made where it points, in a folder made for it.
    let dangling = dir.join("dangling.txt");
    std::os::unix::fs::symlink("made/there.txt", &dangling).unwrap();
    write_output(&dangling, b"made").unwrap();
    assert_eq!(std::fs::read(dir.join("made/there.txt")).unwrap(), b"made");
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        names(&dir),
        ["dangling.txt", "link.txt", "link2.txt", "made", "real.txt"]
    );
    // A loop of links is an error, not a hang.
    std::os::unix::fs::symlink("loop-b", dir.join("loop-a")).unwrap();
    std::os::unix::fs::symlink("loop-a", dir.join("loop-b")).unwrap();
    let e = write_output(&dir.join("loop-a"), b"x")
        .unwrap_err()
        .to_string();
    assert!(e.contains("loop-a") && e.contains("links"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_written_through() {
    use std::io::Read;
    let dir = tmp("fifo");
    let fifo = dir.join("pipe");
    match std::process::Command::new("mkfifo").arg(&fifo).status() {
        Ok(s) if s.success() => {}
        other => {
            eprintln!("SKIPPED: a_fifo_is_written_through: mkfifo failed: {other:?}");
            return;
        }
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut text = String::new();
            File::open(&fifo)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    };
    // Through a link, too.
    let link = dir.join("link");
    std::os::unix::fs::symlink("pipe", &link).unwrap();
    assert_eq!(resolve(&link).unwrap(), Target::Special(link.clone()));
    write_output(&link, b"through the pipe").unwrap();
    assert_eq!(reader.join().unwrap(), "through the pipe");
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert_eq!(names(&dir), ["link", "pipe"]);
    let _ = std::fs::remove_dir_all(dir);
}

/// No module but this one writes a file by itself (tests aside).
#[test]
fn every_write_goes_through_this_module() {
    fn walk(dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
                continue;
            }
            // A module's `tests.rs` is its `#[cfg(test)] mod tests` moved beside it: test code,
            // as everything after a `#[cfg(test)]` line below.
            if path.extension().is_none_or(|e| e != "rs")
                || path.file_name().is_some_and(|n| n == "tests.rs")
                || path.starts_with(concat!(env!("CARGO_MANIFEST_DIR"), "/src/records/files"))
            {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let calls = [
                "fs::write(",
                "File::create",
                "OpenOptions",
                "create_dir_all",
                "fs::copy(",
                "fs::rename(",
                "File::options",
            ];
            for (n, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("#[cfg(test)]") {
                    break;
                }
                let code = line.split("//").next().unwrap_or("");
                // `File::create` itself, not `AtomicFile::create` or `CsvFile::create`.
                let is_call = |c: &&&str| {
                    code.match_indices(**c).any(|(i, _)| {
                        !code[..i]
                            .chars()
                            .next_back()
                            .is_some_and(|p| p.is_alphanumeric() || p == '_')
                    })
                };
                if let Some(call) = calls.iter().find(is_call) {
                    found.push(format!("{}:{}: {call}", path.display(), n + 1));
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut found,
    );
    assert!(
        found.is_empty(),
        "writes outside records::files:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_results_folders_own_files_are_refused() {
    let dir = tmp("run");
    let run = dir.join("run");
    std::fs::create_dir_all(run.join("pairings/01-a-vs-b")).unwrap();
    std::fs::write(run.join("match.json"), b"{}").unwrap();
    std::fs::write(run.join("games.jsonl"), b"journal\n").unwrap();
    std::fs::write(run.join("pairings/01-a-vs-b/games.jsonl"), b"j\n").unwrap();
    for name in [
        "games.jsonl",
        "match.json",
        "tournament.json",
        "summary.txt",
        "ratings.csv",
        "report.html",
        "leak.md",
        "merge.json",
        ".arena.lock",
        "pairings/01-a-vs-b/summary.json",
    ] {
        let e = write_output(&run.join(name), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{name}");
        let e = e.to_string();
        assert!(
            e.contains(name) && e.contains("the results folder's own"),
            "{e}"
        );
    }
    let e = check_output(&run.join("games.jsonl"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("games.jsonl is the results folder's own games.jsonl (the journal of"),
        "{e}"
    );
    assert_eq!(
        std::fs::read(run.join("games.jsonl")).unwrap(),
        b"journal\n"
    );
    #[cfg(unix)]
    {
        // Through a link, which is named.
        let link = dir.join("out.pgn");
        std::os::unix::fs::symlink("run/games.jsonl", &link).unwrap();
        let e = write_output(&link, b"x").unwrap_err().to_string();
        assert!(
            e.contains("out.pgn is a link to") && e.contains("own games.jsonl (the journal"),
            "{e}"
        );
        assert_eq!(
            std::fs::read(run.join("games.jsonl")).unwrap(),
            b"journal\n"
        );
    }
    // Other names in a results folder, and run names elsewhere, are outputs like any.
    write_output(&run.join("export.pgn"), b"x").unwrap();
    write_output(&dir.join("games.jsonl"), b"x").unwrap();
    let _ = std::fs::remove_dir_all(dir);
}
