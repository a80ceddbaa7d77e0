//! Files in and out: every file the arena writes goes through this module, and every small file
//! it reads through [`read_bounded`].
//!
//! - The arena's own files (results, journals, reports): [`write_atomically`].
//! - A file the user named (`--out` of `export`, `tune`, `suite`, files in `solve`'s folder):
//!   [`check_output`] before any work, [`write_output`] at the end.
//! - Handles kept open (the journal, engine logs, the folder lock): [`append`], [`overwrite`],
//!   [`create_new`]; folders: [`create_dir`], a new folder whose name is claimed at once: [`create_unique_dir`]; copies: [`copy`]; a folder's writability:
//!   [`probe_folder`].
//!
//! The rules, whoever writes: links are followed first (every check is on what a path names in
//! the end); a regular file is replaced atomically (a temporary file beside it, synced, renamed
//! over it); a device, pipe or terminal is written through and never replaced (nothing is ever
//! renamed over a file that is not regular); a folder is refused. A file the user named is also
//! refused when it is one of a results folder's own files ([`run_file`]).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The files that record a run in its folder (one per kind of run): a folder holding one of
/// them, or a `games.jsonl`, is a results folder.
pub const RUN_RECORDS: [&str; 3] = ["tournament.json", "leak-run.json", "match.json"];

/// The journal of a results folder.
pub const JOURNAL: &str = "games.jsonl";

/// The most links followed from one path (as the kernel allows).
const MAX_LINKS: usize = 40;

/// What a path names once every link is followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Nothing yet: a regular file is made there.
    New(PathBuf),
    /// A regular file: replaced atomically.
    Regular(PathBuf),
    /// A device, pipe, terminal or socket: written through, never replaced.
    Special(PathBuf),
    /// A folder: not a file to write.
    Folder(PathBuf),
}

impl Target {
    /// The path the links lead to.
    pub fn path(&self) -> &Path {
        match self {
            Target::New(p) | Target::Regular(p) | Target::Special(p) | Target::Folder(p) => p,
        }
    }
}

/// The paths from `path` to what it names: `path`, then each link's target in turn, the last
/// one not a link; and what that last one is.
fn chain(path: &Path) -> io::Result<(Vec<PathBuf>, Target)> {
    let mut hops = vec![path.to_path_buf()];
    for _ in 0..=MAX_LINKS {
        let p = hops.last().expect("a path").clone();
        let target = match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                // A link to a device or pipe is written through as it is: `/dev/stdout` leads
                // to `/proc/self/fd/1`, whose own target (`pipe:[…]`) is no path.
                if std::fs::metadata(&p).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
                    return Ok((hops, Target::Special(p)));
                }
                let to = std::fs::read_link(&p)?;
                hops.push(match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                });
                continue;
            }
            Ok(m) if m.is_file() => Target::Regular(p),
            Ok(m) if m.is_dir() => Target::Folder(p),
            Ok(_) => Target::Special(p),
            // A path under a file (`games.csv/x`) names nothing either: making it will fail.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                Target::New(p)
            }
            Err(e) => return Err(e),
        };
        return Ok((hops, target));
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} links in a row"
    )))
}

/// What `path` names once every link is followed.
///
/// # Errors
/// A path that cannot be looked at, or a loop of links; the message names the path.
pub fn resolve(path: &Path) -> io::Result<Target> {
    chain(path).map(|(_, t)| t).map_err(|e| named(path, e))
}

/// `path` as a message names it: with where its links lead, when it is a link.
fn shown(path: &Path, target: &Path) -> String {
    if path != target {
        return format!("{} (a link to {})", path.display(), target.display());
    }
    // A link to a device is written as it is: say where it leads.
    match std::fs::read_link(path) {
        Ok(to) => format!("{} (a link to {})", path.display(), to.display()),
        Err(_) => path.display().to_string(),
    }
}

/// An I/O error with the file's name in front.
fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// What a file of this name is in a results folder, if it is one of the folder's own.
fn own_file(name: &str) -> Option<&'static str> {
    Some(match name {
        n if RUN_RECORDS.contains(&n) => "the record",
        JOURNAL => "the journal",
        "games.csv" => "the games table",
        "games.html" => "the games index",
        "summary.json" | "summary.txt" => "the summary",
        "merge.json" | "merge.txt" => "the merge report",
        ".arena.lock" => "the lock",
        n if n.starts_with("ratings.") => "the ratings",
        n if n.starts_with("report.") => "the report",
        n if n.starts_with("leak.") => "the leak report",
        _ => return None,
    })
}

/// What `path` is (`the journal`) if it is one of a results folder's own files: its name is a run's (the
/// record, `games.jsonl`, `games.csv`, `games.html`, `summary.*`, `ratings.*`, `report.*`, `leak.*`,
/// `merge.*`, the lock) and its folder holds a run record or a `games.jsonl`. The path is taken
/// as it is (see [`check_output`] for links).
pub fn run_file(path: &Path) -> Option<&'static str> {
    let what = own_file(path.file_name()?.to_str()?)?;
    let dir = folder_of(path);
    RUN_RECORDS
        .iter()
        .chain(&[JOURNAL])
        .any(|r| dir.join(r).is_file())
        .then_some(what)
}

/// Checks a file the user named for output, before any work is done, and says what it names:
/// refused when it is a folder, or when it (or any link on the way to what it names) is one of
/// a results folder's own files ([`run_file`]).
///
/// # Errors
/// The refusal, an error of kind [`io::ErrorKind::InvalidInput`] whose message names the file,
/// what it is and where a link leads (the caller puts the flag in front: `--out <message>`), or
/// why following the path failed.
pub fn check_output(path: &Path) -> io::Result<Target> {
    let refuse = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
    let (hops, target) = chain(path).map_err(|e| refuse(format!("{}: {e}", path.display())))?;
    let show = shown(path, target.path());
    for hop in &hops {
        if let (Some(what), Some(name)) = (run_file(hop), hop.file_name()) {
            let link = if hop == path {
                String::new()
            } else {
                format!("a link to {}, ", hop.display())
            };
            return Err(refuse(format!(
                "{} is {link}the results folder's own {} ({what} of the run in {}): an output \
                 never replaces it; write it elsewhere",
                path.display(),
                name.to_string_lossy(),
                folder_of(hop).display()
            )));
        }
    }
    match target {
        Target::Folder(_) => Err(refuse(format!("{show}: a folder; give a file name"))),
        t => Ok(t),
    }
}

/// Writes a file the user named (`arena export --out`, `tune --out`, `suite --out`, the files in
/// `solve --out`): checked by [`check_output`] (a refusal is an error of kind
/// [`io::ErrorKind::InvalidInput`]), missing parent folders made, then written as
/// [`write_atomically`] writes.
///
/// # Errors
/// The refusal, or I/O errors; the message names the file.
pub fn write_output(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = check_output(path)?;
    if let Target::New(p) = &target {
        let parent = folder_of(p);
        if !parent.is_dir() {
            create_dir(parent)?;
        }
    }
    write_target(path, &target, &mut |f| f.write_all(bytes))
}

/// Writes one of the arena's own files so that a reader sees either the old file or the whole
/// new one: links are followed within the file's folder (a link elsewhere is refused); a regular file (or none) is replaced by a temporary file beside
/// it, synced, renamed over it, and the folder synced; a device or pipe is written through; a
/// folder is refused. The parent folder must exist.
///
/// # Errors
/// I/O errors, naming the file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = resolve(path)?;
    stays_in_folder(path, &target)?;
    write_target(path, &target, &mut |f| f.write_all(bytes))
}

/// Writes a file that must not exist yet (a data chunk, never rewritten): a temporary file
/// beside it is written and synced, then linked to `path`, which fails if anything is there
/// (so two writers cannot both make it), and the folder synced. Nothing half-written is ever at
/// `path`. The parent folder must exist.
///
/// # Errors
/// `path` exists (kind [`io::ErrorKind::AlreadyExists`]), or I/O errors; the message names it.
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let show = path.display().to_string();
    let (tmp, mut f) = temporary(path, &show)?;
    let written = f
        .write_all(bytes)
        .and_then(|()| f.sync_all())
        .and_then(|()| std::fs::hard_link(&tmp, path));
    let _ = std::fs::remove_file(&tmp);
    written.map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists => io::Error::new(
            e.kind(),
            format!("{show} exists: a chunk is never rewritten (remove it by hand to remake it)"),
        ),
        _ => io::Error::new(e.kind(), format!("{show}: {e}")),
    })?;
    if let Ok(d) = File::open(folder_of(path)) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Refuses one of the arena's own files that is a link to a file in another folder: the arena
/// writes its folder's files, never a file a link (made by anyone) leads it to elsewhere. A link
/// to a file in the same folder, or to a device or pipe, is written through.
///
/// # Errors
/// The refusal (kind [`io::ErrorKind::InvalidInput`]), naming the link and where it leads.
fn stays_in_folder(path: &Path, target: &Target) -> io::Result<()> {
    let end = match target {
        Target::Regular(p) | Target::New(p) if p.as_path() != path => p,
        _ => return Ok(()),
    };
    let here = std::fs::canonicalize(folder_of(path)).map_err(|e| named(path, e))?;
    if std::fs::canonicalize(folder_of(end)).is_ok_and(|there| there == here) {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is a link to {}, outside its folder {}: not written through (remove the link)",
            path.display(),
            end.display(),
            here.display()
        ),
    ))
}

/// Copies `from` to `to` as [`write_atomically`] writes `to`.
///
/// # Errors
/// I/O errors, naming both files.
pub fn copy(from: &Path, to: &Path) -> io::Result<()> {
    let target = resolve(to)?;
    stays_in_folder(to, &target)?;
    write_target(to, &target, &mut |f| {
        let mut src = open_regular(from).map_err(|e| named(from, e))?;
        io::copy(&mut src, f).map(drop)
    })
    .map_err(|e| io::Error::new(e.kind(), format!("copying {}: {e}", from.display())))
}

/// Writes what `write` writes to `target` (what `path` names): a regular file or a new one is
/// replaced atomically, anything else but a folder written through.
fn write_target(
    path: &Path,
    target: &Target,
    write: &mut dyn FnMut(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    let show = shown(path, target.path());
    match target {
        Target::Folder(_) => Err(io::Error::other(format!("{show}: a folder, not a file"))),
        Target::Special(p) => {
            let mut f = OpenOptions::new()
                .write(true)
                .open(p)
                .map_err(|e| io::Error::new(e.kind(), format!("{show}: {e}")))?;
            write(&mut f)
                .and_then(|()| f.flush())
                .map_err(|e| io::Error::new(e.kind(), format!("{show}: {e}")))
        }
        Target::New(p) | Target::Regular(p) => replace(p, &show, write),
    }
}

/// Temporary files made by this process so far (for unique names).
static TEMPORARIES: AtomicU64 = AtomicU64::new(0);

/// A temporary file of this process's own beside `path`, to replace it with: `.NAME.PID-N.tmp`,
/// made with `create_new`, so it follows no link left at that name.
fn temporary(path: &Path, show: &str) -> io::Result<(PathBuf, File)> {
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(path.file_name().unwrap_or_default());
    tmp_name.push(format!(
        ".{}-{}.tmp",
        std::process::id(),
        TEMPORARIES.fetch_add(1, Ordering::Relaxed)
    ));
    let tmp = path.with_file_name(tmp_name);
    let f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "cannot create {} (to replace {show} with): {e}",
                    tmp.display()
                ),
            )
        })?;
    Ok((tmp, f))
}

/// Replaces the regular file `path` (or makes it) atomically with what `write` writes.
fn replace(
    path: &Path,
    show: &str,
    write: &mut dyn FnMut(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    let here = |e: io::Error| io::Error::new(e.kind(), format!("{show}: {e}"));
    let (tmp, mut f) = temporary(path, show)?;
    let written = (|| {
        // The file replaced keeps its permissions.
        if let Ok(m) = std::fs::metadata(path) {
            f.set_permissions(m.permissions())?;
        }
        write(&mut f)?;
        f.sync_all()?;
        // Never renamed over anything but a regular file, even one that changed since.
        match std::fs::symlink_metadata(path) {
            Ok(m) if !m.is_file() => {
                Err(io::Error::other("no longer a regular file: not replaced"))
            }
            _ => Ok(()),
        }
    })()
    .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        // Nothing half-written is left behind.
        let _ = std::fs::remove_file(&tmp);
        return Err(here(e));
    }
    // Syncing a folder is not possible everywhere; the rename is done either way.
    if let Ok(d) = File::open(folder_of(path)) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A results file written as a stream and replaced atomically when done: the bytes go to a
/// temporary file of its own beside `path`; [`AtomicFile::commit`] syncs it, renames it over `path` and syncs
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
        let (tmp, file) = temporary(path, &path.display().to_string())?;
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

/// Makes a folder and its missing parents.
///
/// # Errors
/// I/O errors, naming the folder.
pub fn create_dir(path: &Path) -> io::Result<()> {
    std::fs::create_dir_all(path).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot create the folder {}: {e}", path.display()),
        )
    })
}

/// The most names [`create_unique_dir`] tries.
pub const MAX_UNIQUE_TRIES: u32 = 1000;

/// Makes a new, empty folder at `path` (its missing parents too), or, if that name is taken,
/// at `path-2`, `path-3`…: the name is claimed atomically (no two runs get the same folder),
/// and returned. At most [`MAX_UNIQUE_TRIES`] names are tried.
///
/// # Errors
/// I/O errors, naming the folder; every name taken.
pub fn create_unique_dir(path: &Path) -> io::Result<PathBuf> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        create_dir(parent)?;
    }
    for n in 1..=MAX_UNIQUE_TRIES {
        let mut name = path.as_os_str().to_os_string();
        if n > 1 {
            name.push(format!("-{n}"));
        }
        let candidate = PathBuf::from(name);
        match std::fs::create_dir(&candidate) {
            Ok(()) => return Ok(candidate),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("cannot create the folder {}: {e}", candidate.display()),
                ));
            }
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!(
            "{} and {MAX_UNIQUE_TRIES} numbered names after it are taken",
            path.display()
        ),
    ))
}

/// Checks that [`create_dir`] can make `path`, leaving nothing behind (`--check`): a folder
/// that exists is only looked at; folders that do not are made as a run would make them, then
/// removed again, deepest first (only while empty: nothing of anyone else's goes).
///
/// # Errors
/// [`create_dir`]'s, naming the folder.
pub fn try_create_dir(path: &Path) -> io::Result<()> {
    let mut missing = Vec::new();
    let mut p = path;
    while std::fs::symlink_metadata(p).is_err() {
        missing.push(p.to_path_buf());
        match p.parent() {
            Some(up) if !up.as_os_str().is_empty() => p = up,
            _ => break,
        }
    }
    let made = create_dir(path);
    for m in &missing {
        let _ = std::fs::remove_dir(m);
    }
    made
}

/// Opens a file for appending (the journal, an engine's error log), made if missing.
///
/// # Errors
/// I/O errors, naming the file.
pub fn append(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| named(path, e))
}

/// Cuts a regular file (the journal) to its first `len` bytes in place and syncs it: what is cut
/// is lost, what is kept is never rewritten, so no second copy of the file is needed.
///
/// # Errors
/// I/O errors, naming the file.
pub fn truncate(path: &Path, len: u64) -> io::Result<()> {
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| named(path, e))?;
    regular(&file.metadata()?).map_err(|e| named(path, e))?;
    file.set_len(len)
        .and_then(|()| file.sync_all())
        .map_err(|e| named(path, e))
}

/// Opens a file to write afresh (a game's log), made if missing, emptied if not.
///
/// # Errors
/// I/O errors, naming the file.
pub fn overwrite(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(path)
        .map_err(|e| named(path, e))
}

/// Makes a file that must not exist yet (a lock): [`io::ErrorKind::AlreadyExists`] if it does.
///
/// # Errors
/// I/O errors, naming the file.
pub fn create_new(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| named(path, e))
}

/// Checks that files can be made in `dir` (before long work whose results go there), by making
/// and removing an empty one.
///
/// # Errors
/// They cannot; the message names the folder.
pub fn probe_folder(dir: &Path) -> io::Result<()> {
    let probe = dir.join(format!(".arena-probe-{}", std::process::id()));
    let _ = std::fs::remove_file(&probe);
    create_new(&probe)
        .map(drop)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot write in {}: {e}", dir.display())))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// The largest setup or config file the arena reads (`match.json`, configs, rules, engine
/// files): 1 MiB.
pub const MAX_SMALL_FILE: u64 = 1 << 20;

/// What a file that is not regular is, as a message says it (`a named pipe`).
pub fn special_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = kind;
    "not a file of data"
}

/// The refusal of what `meta` describes, unless it is a regular file.
fn regular(meta: &std::fs::Metadata) -> io::Result<()> {
    if meta.is_file() {
        Ok(())
    } else if meta.is_dir() {
        Err(io::Error::other("is a folder, not a file"))
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "is not a regular file ({}): give a file to read",
                special_kind(meta.file_type())
            ),
        ))
    }
}

/// Opens a file the user named for reading, refusing anything but a regular file (links
/// followed): a folder, a named pipe (whose opening would wait for a writer forever), a device
/// such as `/dev/zero` (which never ends), a socket. What the path names is looked at before it
/// is opened, and it is opened without blocking (on Unix), so a pipe put there in between is
/// refused too, never waited on.
///
/// # Errors
/// The file cannot be opened or is not regular; the message says which (the caller names the
/// file).
pub fn open_regular(path: &Path) -> io::Result<File> {
    regular(&std::fs::metadata(path)?)?;
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    regular(&file.metadata()?)?;
    Ok(file)
}

/// Reads a text file of at most `max` bytes. The bound is on what is read, not on what the file
/// claims. Only a regular file is read ([`open_regular`]): a named pipe would block, a device
/// such as `/dev/zero` never ends. A leading UTF-8 byte order mark (which some editors write) is
/// dropped, so every kind of text file reads the same with one or without.
///
/// # Errors
/// The file cannot be read, is not a regular file, is larger than `max`, or is not UTF-8; the message says which (the
/// caller names the file).
pub fn read_bounded(path: &Path, max: u64) -> io::Result<String> {
    use std::io::Read;
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(io::Error::other(format!(
            "larger than {max} bytes: not a file of this kind"
        )));
    }
    let mut text = String::from_utf8(bytes).map_err(|_| io::Error::other("not UTF-8 text"))?;
    if text.starts_with(BOM) {
        text.drain(..BOM.len_utf8());
    }
    Ok(text)
}

/// The UTF-8 byte order mark, U+FEFF.
const BOM: char = '\u{feff}';

#[cfg(test)]
mod tests;
