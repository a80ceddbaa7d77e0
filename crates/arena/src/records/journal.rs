//! Results on disk: the append-only journal of finished pairs (`games.jsonl`), read back on
//! `--resume`, and the lock that keeps two runs out of one folder.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::records::check::{RunRecords, refusal};
use crate::records::files::{self, AtomicFile, read_bounded};
use crate::records::{self, GameLine, PairKey, RecordsError, Span};

/// An advisory lock on a results folder: `DIR/.arena.lock`, created exclusively and holding the
/// owner's process id, removed when the lock is dropped. Two runs never write one folder at once;
/// a lock left by a run that was killed (its process is gone) is taken over.
#[derive(Debug)]
pub struct FolderLock {
    path: PathBuf,
}

/// The lock file's name in a results folder.
pub const LOCK_FILE: &str = ".arena.lock";

/// Why a results folder cannot be locked ([`FolderLock::take`]).
#[derive(Debug)]
pub enum LockError {
    /// A live process holds it: nothing was played (exit 2, as bad usage).
    InUse {
        /// The folder.
        dir: PathBuf,
        /// Its lock file.
        path: PathBuf,
        /// The process that holds it.
        pid: u32,
    },
    /// Other runs kept taking it over while this one tried (exit 2).
    Contended {
        /// The lock file.
        path: PathBuf,
    },
    /// The lock file cannot be made (exit 4: results cannot be written).
    Create(std::io::Error),
    /// The lock file was made but its process id cannot be written (exit 4).
    Write {
        /// The lock file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
}

impl core::fmt::Display for LockError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LockError::InUse { dir, path, pid } => write!(
                f,
                "{} is in use by another arena run (process {pid}): wait for it to end, or \
                 choose another --out (if no arena is running, delete {})",
                dir.display(),
                path.display()
            ),
            LockError::Contended { path } => write!(
                f,
                "cannot lock {}: other runs keep taking it",
                path.display()
            ),
            LockError::Create(e) => write!(f, "cannot lock: {e}"),
            LockError::Write { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for LockError {}

/// A folder in use is a refusal before anything is played (exit 2); a lock file that cannot be
/// written is a folder where results cannot be written (exit 4).
impl From<LockError> for crate::error::Error {
    fn from(e: LockError) -> crate::error::Error {
        match e {
            LockError::InUse { .. } | LockError::Contended { .. } => {
                crate::error::Error::Input(e.to_string())
            }
            LockError::Create(_) | LockError::Write { .. } => {
                crate::error::Error::Write(e.to_string())
            }
        }
    }
}

impl FolderLock {
    /// Takes the lock of `dir` (which must exist).
    ///
    /// # Errors
    /// Another live process holds it, or the lock file cannot be written; the message says
    /// which, and how to clear a lock that is wrongly held.
    pub fn take(dir: &Path) -> Result<FolderLock, LockError> {
        let path = dir.join(LOCK_FILE);
        for _ in 0..3 {
            match files::create_new(&path) {
                Ok(mut f) => {
                    write!(f, "{}", std::process::id()).map_err(|source| LockError::Write {
                        path: path.clone(),
                        source,
                    })?;
                    return Ok(FolderLock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if let Some(pid) = live_owner(&path) {
                        return Err(in_use(dir, &path, pid));
                    }
                    // A lock of a process that is gone (or half written): take it over.
                    let _ = std::fs::remove_file(&path);
                }
                Err(e) => return Err(LockError::Create(e)),
            }
        }
        Err(LockError::Contended { path })
    }

    /// Checks that [`FolderLock::take`] would not find `dir` in use by a live run, writing
    /// nothing (`--check`). A folder that does not exist is locked by nobody.
    ///
    /// # Errors
    /// Another live process holds the lock; the error is `take`'s.
    pub fn check(dir: &Path) -> Result<(), LockError> {
        let path = dir.join(LOCK_FILE);
        match live_owner(&path) {
            Some(pid) if pid != std::process::id() => Err(in_use(dir, &path, pid)),
            _ => Ok(()),
        }
    }
}

/// The live process that holds the lock file `path`, if one does.
fn live_owner(path: &Path) -> Option<u32> {
    read_bounded(path, 64)
        .ok()
        .and_then(|t| t.trim().parse::<u32>().ok())
        .filter(|&pid| process_alive(pid))
}

/// The refusal of folder `dir`, whose lock `path` process `pid` holds.
fn in_use(dir: &Path, path: &Path, pid: u32) -> LockError {
    LockError::InUse {
        dir: dir.to_path_buf(),
        path: path.to_path_buf(),
        pid,
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether process `pid` exists. Where that cannot be known (no `/proc`), every owner counts as
/// alive, so a stale lock is reported rather than broken.
fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return true;
    }
    pid == std::process::id() || proc.join(pid.to_string()).exists()
}

/// The complete lines of a file (a line cut short is not counted), read in bounded memory; 0
/// when it cannot be read.
fn complete_lines(path: &Path) -> u64 {
    use std::io::BufRead;
    let Ok(file) = files::open_regular(path) else {
        return 0;
    };
    let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
    let mut lines = 0u64;
    while let Ok(buf) = reader.fill_buf() {
        if buf.is_empty() {
            break;
        }
        let n = buf.len();
        lines += buf.iter().filter(|&&c| c == b'\n').count() as u64;
        reader.consume(n);
    }
    lines
}

/// The finished pairs a journal holds: its complete lines ([`complete_lines`]), two to a pair.
pub fn kept_pairs(path: &Path) -> u64 {
    complete_lines(path) / 2
}

/// The journal of a run: finished pairs appended as they come (two lines each, flushed), so an
/// interrupted run keeps every finished pair. It remembers where each pair's lines are
/// ([`Span`]), never the games: a run reads a pair back when it needs it ([`Journal::read`]) and
/// rewrites the file in job order at the end by copying lines ([`Journal::finish`]).
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: BufWriter<File>,
    /// Bytes in the file (where the next line goes).
    len: u64,
    /// A read handle, opened at the first read.
    reader: Option<File>,
}

/// What a journal held when a run resumed.
#[derive(Debug, Default)]
pub struct Resumed {
    /// Complete pairs, with where their lines are in the (rewritten) journal.
    pub pairs: BTreeMap<PairKey, [Span; 2]>,
    /// Whether the last line had been cut short (it is dropped and its pair replayed).
    pub truncated: bool,
}

/// Why a journal cannot be used.
#[derive(Debug)]
pub enum JournalError {
    /// It exists but `--resume` was not given.
    Exists(PathBuf),
    /// It holds games of another run.
    OtherRun {
        /// The journal.
        path: PathBuf,
        /// The foreign fingerprint.
        found: String,
        /// The pair it was found at.
        pair: u64,
        /// This run's fingerprint.
        want: String,
    },
    /// A line is not a game record.
    Records(RecordsError),
    /// Reading or writing failed.
    Io(std::io::Error),
}

/// A journal's refusal as the run's error: input for what it holds (exit 2), results for I/O
/// (exit 4).
impl From<JournalError> for crate::error::Error {
    fn from(e: JournalError) -> crate::error::Error {
        match e {
            JournalError::Io(e) => crate::error::Error::Results(e),
            other => crate::error::Error::Input(other.to_string()),
        }
    }
}

impl core::fmt::Display for JournalError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            JournalError::Exists(p) => write!(
                f,
                "{} exists: add --resume to continue that run, or choose another --out",
                p.display()
            ),
            JournalError::OtherRun {
                path,
                found,
                pair,
                want,
            } => write!(
                f,
                "--resume: {} holds games of another run (fingerprint {found} at pair {pair}, \
                 this run is {want}); the engines, rules, seed, limits, cap, opening book or \
                 adjudication differ (compare its match.json)",
                path.display()
            ),
            JournalError::Records(e) => write!(f, "{e}"),
            JournalError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for JournalError {}

impl Journal {
    /// Opens `path` for a run with this fingerprint. Without `resume` the file must not exist.
    /// With it, an existing journal is read back (every line must carry the fingerprint and hold
    /// up as a game of `run`: [`RunRecords::problem`]), and rewritten with its complete pairs
    /// only, so half-played pairs are replayed whole.
    ///
    /// # Errors
    /// See [`JournalError`].
    pub fn open(
        path: &Path,
        resume: bool,
        fingerprint: &str,
        run: &RunRecords,
    ) -> Result<(Journal, Resumed), JournalError> {
        let mut resumed = Resumed::default();
        if let Some(Resumed { pairs, truncated }) =
            Journal::read_back(path, resume, fingerprint, run)?
        {
            resumed.truncated = truncated;
            if let Some(end) = clean_prefix(path, &pairs).map_err(JournalError::Io)? {
                // Only a torn tail or half-played pairs follow the complete pairs: cut them off
                // in place (a resume after a full disk needs no room for a copy).
                files::truncate(path, end).map_err(JournalError::Io)?;
                resumed.pairs = pairs;
                return Journal::append_to(path, resumed);
            }
            // The complete pairs, written into a new journal with their checksums; their spans
            // are the new file's. A checked line comes out byte for byte as it was (its checksum
            // is over exactly this text); a line of a journal from before checksums gets one, so
            // the lines this run appends never sit beside unchecked ones.
            let mut old = records::files::open_regular(path).map_err(JournalError::Io)?;
            let size = old.metadata().map_err(JournalError::Io)?.len();
            // Why a copy is needed, said when there is no room for it (a full disk).
            let copying = |e: std::io::Error| {
                JournalError::Io(std::io::Error::new(
                    e.kind(),
                    format!(
                        "{e} (--resume writes the journal's complete pairs again beside it, up \
                         to {size} bytes, because they are not its first lines one after the \
                         other, or have no checksums; free that much space, or resume in a \
                         copy of the folder on another disk)"
                    ),
                ))
            };
            let mut kept = AtomicFile::create(path).map_err(copying)?;
            let mut at = 0u64;
            for (key, spans) in pairs {
                let games = records::read_pair(&mut old, path, spans).map_err(JournalError::Io)?;
                let mut new = [Span::default(); 2];
                for (g, span) in games.iter().zip(&mut new) {
                    let line = records::checked_line(g).map_err(JournalError::Io)? + "\n";
                    kept.write_all(line.as_bytes()).map_err(copying)?;
                    *span = Span {
                        offset: at,
                        len: line.len() as u64,
                    };
                    at += line.len() as u64;
                }
                resumed.pairs.insert(key, new);
            }
            kept.commit().map_err(copying)?;
        }
        Journal::append_to(path, resumed)
    }

    /// The journal at `path` opened for appending, with what a resume found in it.
    fn append_to(path: &Path, resumed: Resumed) -> Result<(Journal, Resumed), JournalError> {
        let file = files::append(path).map_err(JournalError::Io)?;
        let len = file.metadata().map_err(JournalError::Io)?.len();
        Ok((
            Journal {
                path: path.to_path_buf(),
                file: BufWriter::new(file),
                len,
                reader: None,
            },
            resumed,
        ))
    }

    /// Checks that [`Journal::open`] would take `path` for this run, reading it and writing
    /// nothing (`--check`).
    ///
    /// # Errors
    /// `open`'s refusals: it exists without `resume`, it holds another run's games or a line
    /// that does not hold up.
    pub fn check(
        path: &Path,
        resume: bool,
        fingerprint: &str,
        run: &RunRecords,
    ) -> Result<(), JournalError> {
        Journal::read_back(path, resume, fingerprint, run).map(drop)
    }

    /// An existing journal read back and checked for a run with this fingerprint: its complete
    /// pairs (where they are in it as it stands) and whether its last line was cut short; None
    /// when there is none.
    fn read_back(
        path: &Path,
        resume: bool,
        fingerprint: &str,
        run: &RunRecords,
    ) -> Result<Option<Resumed>, JournalError> {
        if path.exists() {
            if !resume {
                return Err(JournalError::Exists(path.to_path_buf()));
            }
            let mut other = None;
            let (pairs, truncated) = records::pair_spans(path, |number, g| {
                if g.fingerprint != fingerprint {
                    // Another run's game: refused below as such, whatever it holds.
                    other.get_or_insert_with(|| (g.fingerprint.clone(), g.pair));
                    return Ok(());
                }
                match run.problem(g) {
                    None => Ok(()),
                    Some(problem) => Err(refusal(
                        path,
                        number,
                        g,
                        &problem,
                        "delete the line to replay that pair",
                    )),
                }
            })
            .map_err(JournalError::Records)?;
            if let Some((found, pair)) = other {
                return Err(JournalError::OtherRun {
                    path: path.to_path_buf(),
                    found,
                    pair,
                    want: fingerprint.to_string(),
                });
            }
            return Ok(Some(Resumed { pairs, truncated }));
        }
        Ok(None)
    }

    /// Appends a finished pair and flushes it; returns where its lines are. (An interrupted run
    /// appends no pair cut short: it stops taking pairs itself, [`crate::run::execute`].)
    ///
    /// # Errors
    /// I/O errors (a full disk…), naming the journal.
    pub fn append(&mut self, pair: &[GameLine; 2]) -> std::io::Result<[Span; 2]> {
        let first = records::checked_line(&pair[0])? + "\n";
        let second = records::checked_line(&pair[1])? + "\n";
        let mut bytes = String::with_capacity(first.len() + second.len());
        bytes.push_str(&first);
        bytes.push_str(&second);
        self.file
            .write_all(bytes.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!(
                        "{}: {e} (the pairs written before are kept)",
                        self.path.display()
                    ),
                )
            })?;
        let spans = [
            Span {
                offset: self.len,
                len: first.len() as u64,
            },
            Span {
                offset: self.len + first.len() as u64,
                len: second.len() as u64,
            },
        ];
        self.len += bytes.len() as u64;
        Ok(spans)
    }

    /// Reads a pair back from where [`Journal::append`] (or the resume) put it.
    ///
    /// # Errors
    /// I/O errors, naming the journal.
    pub fn read(&mut self, spans: [Span; 2]) -> std::io::Result<[GameLine; 2]> {
        self.file.flush()?;
        if self.reader.is_none() {
            self.reader = Some(File::open(&self.path)?);
        }
        let reader = self.reader.as_mut().expect("opened");
        records::read_pair(reader, &self.path, spans)
    }

    /// Rewrites the journal atomically with the pairs at `spans`, in the order given (at the end
    /// of a run: job order), copying their lines.
    ///
    /// # Errors
    /// I/O errors.
    pub fn finish(mut self, spans: impl IntoIterator<Item = [Span; 2]>) -> std::io::Result<()> {
        self.file.flush()?;
        let mut old = File::open(&self.path)?;
        let mut new = AtomicFile::create(&self.path)?;
        records::copy_spans(&mut old, spans.into_iter().flatten(), &mut new)?;
        drop(self.reader.take());
        new.commit()
    }
}

/// Where the journal at `path` should be cut when its complete `pairs` are its first lines, one
/// after the other from its first byte, and carry checksums (as this version writes them): what
/// follows is only a torn last line or pairs with one game, which a resume drops. `None` when
/// the journal must be rewritten (gaps between the pairs, or lines without checksums, which
/// the rewrite gives them).
fn clean_prefix(path: &Path, pairs: &BTreeMap<PairKey, [Span; 2]>) -> std::io::Result<Option<u64>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut spans: Vec<Span> = pairs.values().flatten().copied().collect();
    spans.sort_by_key(|s| s.offset);
    let mut end = 0u64;
    for s in &spans {
        if s.offset != end {
            return Ok(None);
        }
        end += s.len;
    }
    // Every line of a journal has a checksum or none does (the read refuses a mix): the first
    // line says which.
    if let Some(first) = spans.first() {
        let mut bytes = vec![0; first.len as usize];
        let mut file = files::open_regular(path)?;
        file.seek(SeekFrom::Start(first.offset))?;
        file.read_exact(&mut bytes)?;
        let text = String::from_utf8_lossy(&bytes);
        if !(text.contains(",\"check\":\"") && text.ends_with("\"}\n")) {
            return Ok(None);
        }
    }
    Ok(Some(end))
}

/// Reads a line [`records::checked_json`] wrote: the value, if the line's checksum is that of the text
/// before it (the text itself, not the value written again: a float read back may differ in its
/// last digit).
fn read_checked<T: serde::de::DeserializeOwned>(line: &str) -> Result<T, String> {
    let value: T = serde_json::from_str(line).map_err(|e| format!("not a journal line: {e}"))?;
    // `…,"check":"<16 hex digits>"}`, or `{"check":"…"}` for an empty object.
    let cut = line
        .len()
        .checked_sub(28)
        .filter(|&c| line.is_char_boundary(c));
    let (body, check) = match cut.map(|c| line.split_at(c)) {
        Some((body, tail)) if tail.starts_with(",\"check\":\"") && tail.ends_with("\"}") => {
            (format!("{body}}}"), &tail[10..26])
        }
        _ if line.starts_with("{\"check\":\"") && line.len() == 28 => {
            ("{}".to_string(), &line[10..26])
        }
        _ => {
            return Err(
                "it has no checksum as its last field (the line was edited; delete it to do \
                 that item again)"
                    .into(),
            );
        }
    };
    if check == format!("{:016x}", records::fnv(&body)) {
        Ok(value)
    } else {
        Err(format!(
            "its content does not match its checksum {check} (the line was edited or damaged; \
             delete the line to do that item again)"
        ))
    }
}

/// The journal of a run whose results are not games (`arena solve`'s `solve.jsonl`): a first
/// line holding the run's setup, then one line per finished item, each checked ([`records::checked_json`])
/// and appended and flushed as the item finishes, so an interrupted run keeps every finished item.
/// Read back on `--resume`: a last line cut short by an interruption is dropped (its item is done
/// again), any other bad line is an error naming it, and a setup other than this run's is refused.
#[derive(Debug)]
pub struct ItemJournal {
    path: PathBuf,
    file: BufWriter<File>,
}

/// What an [`ItemJournal`] held when a run resumed.
#[derive(Debug)]
pub struct ResumedItems<T> {
    /// The finished items, in the order they were written.
    pub items: Vec<T>,
    /// Whether the last line had been cut short (it is dropped).
    pub truncated: bool,
}

/// The most bytes one line of an [`ItemJournal`] may take: 1 MiB.
pub const MAX_ITEM_LINE: u64 = 1 << 20;

/// The most bytes an [`ItemJournal`] may take: 1 GiB.
pub const MAX_ITEM_JOURNAL: u64 = 1 << 30;

/// Reads a whole file of at most `max` bytes, as bytes (a journal's last line may be cut in the
/// middle of a character).
fn read_all(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    files::open_regular(path)?
        .take(max + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!(
            "larger than {max} bytes: not a journal"
        )));
    }
    Ok(bytes)
}

impl ItemJournal {
    /// Opens `path` for a run with this `setup`. Without `resume` the file must not exist. With
    /// it, an existing journal is read back: its setup must be this one (`differs` says how two
    /// setups differ, `None` if they do not), and it is rewritten with its whole lines only.
    ///
    /// # Errors
    /// The message names the journal: it exists without `--resume`, it was written by another
    /// setup, a line other than the last is bad, or reading or writing fails.
    pub fn open<S, T>(
        path: &Path,
        resume: bool,
        setup: &S,
        differs: impl Fn(&S, &S) -> Option<String>,
    ) -> Result<(ItemJournal, ResumedItems<T>), String>
    where
        S: serde::Serialize + serde::de::DeserializeOwned,
        T: serde::Serialize + serde::de::DeserializeOwned,
    {
        let shown = path.display();
        let mut resumed = ResumedItems {
            items: Vec::new(),
            truncated: false,
        };
        if path.exists() && !resume {
            return Err(JournalError::Exists(path.to_path_buf()).to_string());
        }
        if path.exists() {
            let bytes =
                read_all(path, MAX_ITEM_JOURNAL).map_err(|e| format!("--resume: {shown}: {e}"))?;
            let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
            let mut found: Option<S> = None;
            for (i, raw) in lines.iter().enumerate() {
                let number = i + 1;
                if raw.trim_ascii().is_empty() {
                    continue;
                }
                let last = i + 1 == lines.len() && !raw.ends_with(b"\n");
                if raw.len() as u64 > MAX_ITEM_LINE {
                    return Err(format!(
                        "--resume: {shown}:{number}: longer than {MAX_ITEM_LINE} bytes: not a \
                         line of this journal"
                    ));
                }
                let text = std::str::from_utf8(raw).map_err(|_| {
                    "not UTF-8 text (the line was damaged; delete it to do that item again)"
                        .to_string()
                });
                let parsed = text.and_then(|text| {
                    if found.is_none() {
                        read_checked::<S>(text.trim_end()).map(|s| found = Some(s))
                    } else {
                        read_checked::<T>(text.trim_end()).map(|t| resumed.items.push(t))
                    }
                });
                match parsed {
                    Ok(()) => {}
                    // Cut short by an interruption: the item is done again.
                    Err(_) if last => resumed.truncated = true,
                    Err(e) => return Err(format!("--resume: {shown}:{number}: {e}")),
                }
            }
            if let Some(found) = &found
                && let Some(why) = differs(found, setup)
            {
                return Err(format!(
                    "--resume: {shown} was written by another run ({why}): resume with the \
                     run's own suite, engines and flags, or choose another --out"
                ));
            }
        }
        // The journal as it stands, whole lines only, replaces what was there.
        let mut kept = AtomicFile::create(path).map_err(|e| e.to_string())?;
        let mut put = |line: std::io::Result<String>| {
            line.and_then(|l| kept.write_all(format!("{l}\n").as_bytes()))
                .map_err(|e| format!("{shown}: {e}"))
        };
        put(records::checked_json(setup))?;
        for item in &resumed.items {
            put(records::checked_json(item))?;
        }
        kept.commit().map_err(|e| e.to_string())?;
        let file = files::append(path).map_err(|e| e.to_string())?;
        Ok((
            ItemJournal {
                path: path.to_path_buf(),
                file: BufWriter::new(file),
            },
            resumed,
        ))
    }

    /// Appends a finished item and flushes it.
    ///
    /// # Errors
    /// I/O errors (a full disk…), naming the journal.
    pub fn append<T: serde::Serialize>(&mut self, item: &T) -> std::io::Result<()> {
        let line = records::checked_json(item)? + "\n";
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!(
                        "{}: {e} (the items written before are kept)",
                        self.path.display()
                    ),
                )
            })
    }

    /// Rewrites the journal atomically with `setup` and `items` in the order given (at the end of
    /// a run: job order, so that a resumed run's journal reads as an uninterrupted one's).
    ///
    /// # Errors
    /// I/O errors, naming the journal.
    pub fn finish<S: serde::Serialize, T: serde::Serialize>(
        mut self,
        setup: &S,
        items: impl IntoIterator<Item = T>,
    ) -> std::io::Result<()> {
        self.file.flush()?;
        let mut new = AtomicFile::create(&self.path)?;
        new.write_all((records::checked_json(setup)? + "\n").as_bytes())?;
        for item in items {
            new.write_all((records::checked_json(&item)? + "\n").as_bytes())?;
        }
        new.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pair: u64, n: u8) -> GameLine {
        serde_json::from_str(&format!(
            r#"{{"fingerprint":"f","pair":{pair},"game":{n},"seed":1,"red":"a","black":"b",
            "deal":{{"red":"","black":""}},"result":"1/2-1/2","reason":"max-plies","plies":0,
            "captures":0,"reveals":0,"nodes":{{"red":0,"black":0}},"ms":{{"red":0.0,"black":0.0}},
            "total_ms":0.0,"moves":[],"search":[]}}"#
        ))
        .unwrap()
    }

    /// Game `n` of pair `p` of a run of master seed 1, engines a and b, ended at a cap of 0
    /// plies: a record that holds up.
    fn valid(pair: u64, n: u8) -> GameLine {
        use crate::records::openings::{deal_text, start_game};
        let mut g = game(pair, n);
        g.seed = crate::records::deal_seed::pair_seed(1, pair);
        g.deal = deal_text(&start_game(g.seed, &jieqi_core::Rules::standard(), None));
        if n == 2 {
            (g.red, g.black) = ("b".into(), "a".into());
        }
        g
    }

    /// A resume whose journal is its complete pairs and then a torn tail cuts the tail off in
    /// place: it used to write the whole journal again (and, after a full disk, to need the
    /// journal's size free).
    #[test]
    #[cfg(unix)]
    fn a_resume_cuts_a_torn_tail_in_place() {
        use std::os::unix::fs::MetadataExt;
        let dir = std::env::temp_dir().join(format!("journal-cut-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        let run = RunRecords {
            rules: jieqi_core::Rules::standard(),
            max_plies: 0,
            seed: 1,
            openings: None,
            adjudication: Default::default(),
            pairings: vec![("a".into(), "b".into())],
        };
        let text = |g: &GameLine| records::checked_line(g).unwrap() + "\n";
        let mut kept = String::new();
        for pair in 0..2 {
            kept += &text(&valid(pair, 1));
            kept += &text(&valid(pair, 2));
        }
        let half = text(&valid(2, 2));
        let bytes = kept.clone() + &text(&valid(2, 1)) + &half[..half.len() / 2];
        std::fs::write(&path, &bytes).unwrap();
        let inode = std::fs::metadata(&path).unwrap().ino();
        let (_, resumed) = Journal::open(&path, true, "f", &run).unwrap();
        assert_eq!((resumed.pairs.len(), resumed.truncated), (2, true));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), kept);
        assert_eq!(std::fs::metadata(&path).unwrap().ino(), inode, "rewritten");
        // A half-played pair between complete ones: the journal is rewritten, its pairs kept.
        let gap = text(&valid(0, 1)) + &text(&valid(1, 1)) + &text(&valid(0, 2));
        std::fs::write(&path, &gap).unwrap();
        let (mut journal, resumed) = Journal::open(&path, true, "f", &run).unwrap();
        let spans = resumed.pairs.values().next().copied().unwrap();
        assert_eq!(journal.read(spans).unwrap(), [valid(0, 1), valid(0, 2)]);
        assert_eq!(kept_pairs(&path), 1);
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A full disk is named: `/dev/full` fails every write with ENOSPC.
    #[test]
    fn a_full_disk_names_the_file() {
        let full = Path::new("/dev/full");
        let Ok(file) = std::fs::OpenOptions::new().append(true).open(full) else {
            eprintln!("no /dev/full here: skipped");
            return;
        };
        let mut journal = Journal {
            path: full.to_path_buf(),
            file: BufWriter::new(file),
            len: 0,
            reader: None,
        };
        let g: GameLine = serde_json::from_str(
            r#"{"fingerprint":"f","pair":0,"game":1,"seed":1,"red":"a","black":"b",
            "deal":{"red":"","black":""},"result":"1/2-1/2","reason":"max-plies","plies":0,
            "captures":0,"reveals":0,"nodes":{"red":0,"black":0},"ms":{"red":0.0,"black":0.0},
            "total_ms":0.0,"moves":[],"search":[]}"#,
        )
        .unwrap();
        let e = journal.append(&[g.clone(), g]).unwrap_err().to_string();
        assert!(e.starts_with("/dev/full: "), "{e}");
        assert!(e.contains("No space left"), "{e}");
        let tmp = std::env::temp_dir().join(format!("full-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        let target = tmp.join("summary.json");
        #[cfg(unix)]
        {
            // A device is written through, never replaced.
            let _ = std::fs::remove_file(&target);
            std::os::unix::fs::symlink(full, &target).unwrap();
            let e = crate::records::files::write_atomically(&target, b"{}")
                .unwrap_err()
                .to_string();
            assert!(e.contains("summary.json"), "{e}");
            assert!(e.contains("No space left"), "{e}");
        }
        let _ = std::fs::remove_dir_all(tmp);
    }
}
