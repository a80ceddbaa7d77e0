//! Files in and out: every file the arena writes goes through [`write_atomically`] (its own
//! results) or [`write_output`] (a file the user named), and every small file it reads through
//! [`read_bounded`].

use std::fs::File;
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` so that a reader sees either the old file or the whole new one: a
/// temporary file beside it, synced, renamed over it, and the folder synced.
///
/// # Errors
/// I/O errors, naming the file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let named =
        |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(".tmp");
    let tmp = path.with_file_name(tmp_name);
    let written = File::create(&tmp)
        .map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "cannot create {} (to replace {} with): {e}",
                    tmp.display(),
                    path.display()
                ),
            )
        })
        .and_then(|mut f| {
            f.write_all(bytes).map_err(named)?;
            f.sync_all().map_err(named)
        });
    if let Err(e) = written {
        // Nothing half-written is left behind.
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(named(e));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Syncing a folder is not possible everywhere; the rename is done either way.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A results file written as a stream and replaced atomically when done: the bytes go to a
/// temporary file beside `path`; [`AtomicFile::commit`] syncs it, renames it over `path` and syncs
/// the folder. Dropped without a commit, it removes the temporary file and leaves `path` as it
/// was. What [`write_atomically`] does for bytes in memory, for files too large to hold.
#[derive(Debug)]
pub struct AtomicFile {
    path: std::path::PathBuf,
    tmp: std::path::PathBuf,
    file: Option<std::io::BufWriter<File>>,
}

impl AtomicFile {
    /// Starts the replacement of `path`.
    ///
    /// # Errors
    /// The temporary file cannot be created; the message names both files.
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
        tmp_name.push(".tmp");
        let tmp = path.with_file_name(tmp_name);
        let file = File::create(&tmp).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!(
                    "cannot create {} (to replace {} with): {e}",
                    tmp.display(),
                    path.display()
                ),
            )
        })?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            file: Some(std::io::BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Makes the new content the file's: synced, renamed over it, the folder synced.
    ///
    /// # Errors
    /// I/O errors, naming the file (the old file is then left as it was).
    pub fn commit(mut self) -> std::io::Result<()> {
        let path = self.path.clone();
        let named =
            |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let file = self.file.take().expect("committed once");
        let file = file.into_inner().map_err(|e| named(e.into_error()))?;
        file.sync_all().map_err(named)?;
        drop(file);
        std::fs::rename(&self.tmp, &self.path).map_err(named)?;
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        // Syncing a folder is not possible everywhere; the rename is done either way.
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let path = &self.path;
        self.file
            .as_mut()
            .expect("not committed")
            .write(buf)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            // Not committed: nothing half-written is left behind.
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Writes a file the user named (`arena export --out`): a regular file (new or existing) is
/// replaced atomically, a symbolic link's target is written the same way, and anything else
/// that exists (a device such as `/dev/stdout`, a pipe) is written through, never replaced.
/// Missing parent folders are made.
///
/// # Errors
/// I/O errors, naming the file (a folder is refused).
pub fn write_output(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let named =
        |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    // What the path names, through any link (a link to nothing yet names a new file).
    match std::fs::metadata(path) {
        Ok(m) if link && m.is_file() => {
            let target = std::fs::canonicalize(path).map_err(named)?;
            write_atomically(&target, bytes)
        }
        Ok(m) if m.is_dir() => Err(std::io::Error::other(format!(
            "{}: is a folder, not a file",
            path.display()
        ))),
        Err(e) if link && e.kind() == std::io::ErrorKind::NotFound => {
            // A link to a file not made yet: make it where the link points.
            let to = std::fs::read_link(path).map_err(named)?;
            let to = match path.parent() {
                Some(dir) if to.is_relative() => dir.join(to),
                _ => to,
            };
            write_output(&to, bytes)
        }
        Err(e) if link => Err(named(e)),
        Ok(m) if !m.is_file() => {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(named)?;
            f.write_all(bytes).and_then(|()| f.flush()).map_err(named)
        }
        _ => {
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| {
                    std::io::Error::new(
                        e.kind(),
                        format!("cannot create the folder {}: {e}", parent.display()),
                    )
                })?;
            }
            write_atomically(path, bytes)
        }
    }
}

/// The largest setup or config file the arena reads (`match.json`, configs, rules, engine
/// files): 1 MiB.
pub const MAX_SMALL_FILE: u64 = 1 << 20;

/// Reads a text file of at most `max` bytes. The bound is on what is read, not on what the file
/// claims (a device such as `/dev/zero` reports no size and never ends).
///
/// # Errors
/// The file cannot be read, is larger than `max`, or is not UTF-8; the message says which (the
/// caller names the file).
pub fn read_bounded(path: &Path, max: u64) -> std::io::Result<String> {
    use std::io::Read;
    let file = File::open(path)?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(std::io::Error::other("is a folder, not a file"));
    }
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!(
            "larger than {max} bytes: not a file of this kind"
        )));
    }
    String::from_utf8(bytes).map_err(|_| std::io::Error::other("not UTF-8 text"))
}
