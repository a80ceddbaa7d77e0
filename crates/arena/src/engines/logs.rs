//! What external engines say besides their moves, kept in the results folder under `logs/`:
//! - each engine's error output, always, in `logs/<NN>-<engine>.stderr.log` (NN its slot from
//!   01), each line tagged with the process id, at most [`MAX_STDERR_BYTES`] per engine and run;
//! - with `--log`, each game's whole UCI traffic in `logs/game-<number>.log` (the number of
//!   `games.csv`), every line stamped with the time since the game started, the side and the
//!   engine, `>` sent and `<` read, at most [`MAX_GAME_LOG_BYTES`] per game, and at most
//!   [`MAX_RUN_LOG_BYTES`] for all the games of a run (each start or resume counts afresh): when
//!   that is reached a warning is said once on stderr, the game log that reached it ends with a
//!   note, no more traffic is written, and the games go on. A game played again (a resumed run
//!   replays the pairs an interruption cut) starts its log afresh.
//!
//! Every line is flushed as it comes: the log of a game that hangs or is interrupted is there.
//!
//! In-process engines write nothing, and no file is made until a line comes.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use jieqi_core::{ByColor, Color};
use jieqi_engine::{LineSink, Logs};

/// The most of one engine's error output kept per run: 1 MiB.
pub const MAX_STDERR_BYTES: u64 = 1 << 20;

/// The most traffic kept per game: 16 MiB.
pub const MAX_GAME_LOG_BYTES: u64 = 16 << 20;

/// The most traffic kept over all the games of one run (each start or resume): 1 GiB. Without a
/// cap, 1,000 pairs against an engine that floods its output would write some 32 GB.
pub const MAX_RUN_LOG_BYTES: u64 = 1 << 30;

/// The folder of the logs in a results folder.
pub const LOG_DIR: &str = "logs";

/// The bytes all the game logs of a run may take together, shared by them: a counter, not a
/// lock, so that games logging at once never wait for one another.
#[derive(Debug)]
struct RunBudget {
    /// Bytes the game logs have taken (or asked for, past the cap).
    written: AtomicU64,
    /// The cap.
    limit: u64,
    /// Whether the cap was reached (and said).
    reached: AtomicBool,
}

impl RunBudget {
    /// A budget of `limit` bytes, none taken.
    fn new(limit: u64) -> Arc<RunBudget> {
        Arc::new(RunBudget {
            written: AtomicU64::new(0),
            limit,
            reached: AtomicBool::new(false),
        })
    }

    /// Takes `n` bytes; whether they fit. The first line that does not fit says so on stderr.
    fn take(&self, n: u64) -> bool {
        let before = self.written.fetch_add(n, Ordering::Relaxed);
        if before.saturating_add(n) <= self.limit {
            return true;
        }
        // Keep the counter from creeping towards overflow once the cap is passed.
        self.written
            .store(self.limit.saturating_add(1), Ordering::Relaxed);
        if !self.reached.swap(true, Ordering::Relaxed) {
            eprintln!(
                "warning: the game logs of this run reached their limit of {} \
                 (--log-limit): no more UCI traffic is written; the games go on",
                crate::util::text::counted(self.limit, "byte")
            );
        }
        false
    }
}

/// A file that is opened (for appending) when its first line comes, and stops taking lines past
/// its cap (or its run's), saying so once.
struct CappedFile {
    path: PathBuf,
    /// Whether an existing file is continued (error logs) or started afresh (game logs).
    append: bool,
    file: Option<BufWriter<File>>,
    written: u64,
    cap: u64,
    /// The run's cap over all game logs, for a game log.
    budget: Option<Arc<RunBudget>>,
    full: bool,
    failed: bool,
}

impl CappedFile {
    fn new(path: PathBuf, cap: u64, append: bool) -> CappedFile {
        CappedFile {
            path,
            append,
            file: None,
            written: 0,
            cap,
            budget: None,
            full: false,
            failed: false,
        }
    }

    /// Appends a line, its control characters escaped ([`escaped`]); errors (a full disk) stop
    /// the log, never the run: a log is not a result.
    fn line(&mut self, text: &str) {
        if self.full || self.failed {
            return;
        }
        let text = escaped(text);
        let text = text.as_ref();
        let n = text.len() as u64 + 1;
        let over_run =
            self.written + n <= self.cap && self.budget.as_ref().is_some_and(|b| !b.take(n));
        if over_run && self.file.is_none() {
            // The run's cap was reached before this log had a line: no file at all.
            self.full = true;
            return;
        }
        if self.file.is_none() {
            let opened = self
                .path
                .parent()
                .map_or(Ok(()), crate::records::files::create_dir)
                .and_then(|()| {
                    if self.append {
                        crate::records::files::append(&self.path)
                    } else {
                        crate::records::files::overwrite(&self.path)
                    }
                });
            match opened {
                Ok(f) => self.file = Some(BufWriter::new(f)),
                Err(e) => {
                    eprintln!("warning: cannot write a log: {e}");
                    self.failed = true;
                    return;
                }
            }
        }
        let f = self.file.as_mut().expect("opened");
        let result = if over_run {
            self.full = true;
            let limit = self.budget.as_ref().map_or(0, |b| b.limit);
            writeln!(
                f,
                "[log cut here: the game logs of this run reached {} (--log-limit); no more \
                 traffic is written]",
                crate::util::text::counted(limit, "byte")
            )
        } else if self.written + n > self.cap {
            self.full = true;
            writeln!(
                f,
                "[log cut here: more than {}; the rest is dropped]",
                crate::util::text::counted(self.cap, "byte")
            )
        } else {
            self.written += n;
            writeln!(f, "{text}")
        };
        if let Err(e) = result.and_then(|()| f.flush()) {
            eprintln!("warning: cannot write {}: {e}", self.path.display());
            self.failed = true;
        }
    }

    fn flush(&mut self) {
        if let Some(f) = &mut self.file {
            let _ = f.flush();
        }
    }
}

impl Drop for CappedFile {
    fn drop(&mut self) {
        self.flush();
    }
}

/// A line of what an engine said as a log keeps it: each control character but the tab, and
/// each bidi control, escaped (`\x1b`, `\x07`, `\x00`, `\u{202e}`), so that `cat` or `less` of a
/// log shows what the engine wrote instead of running its escape sequences.
fn escaped(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c != '\t' && crate::util::text::rewrites_terminal(c);
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !unsafe_char(c) => out.push(c),
            c if u32::from(c) < 0x100 => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => out.extend(c.escape_unicode()),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A run's logs folder (`DIR/logs`) is something else than a folder: nothing can be logged.
#[derive(Debug)]
pub struct LogsNotAFolder(pub PathBuf);

impl std::fmt::Display for LogsNotAFolder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is a file: the engines' logs go in a folder of that name (move the file)",
            self.0.display()
        )
    }
}

impl std::error::Error for LogsNotAFolder {}

impl From<LogsNotAFolder> for crate::error::Error {
    fn from(e: LogsNotAFolder) -> crate::error::Error {
        crate::error::Error::Input(e.to_string())
    }
}

/// The logs of one run: the error-output log of every engine slot, and whether games keep their
/// traffic.
pub struct RunLogs {
    dir: PathBuf,
    traffic: bool,
    stderr: Vec<LineSink>,
    /// What the game logs may take together.
    budget: Arc<RunBudget>,
}

impl RunLogs {
    /// The logs of a run writing into `out`, for engines labelled `labels` (slot order).
    ///
    /// # Errors
    /// `out/logs` exists and is not a folder ([`LogsNotAFolder`]).
    pub fn new(out: &Path, labels: &[&str], traffic: bool) -> Result<RunLogs, LogsNotAFolder> {
        let dir = out.join(LOG_DIR);
        if dir.exists() && !dir.is_dir() {
            return Err(LogsNotAFolder(dir));
        }
        let width = labels.len().to_string().len().max(2);
        let stderr = labels
            .iter()
            .enumerate()
            .map(|(i, label)| {
                let name = format!(
                    "{:0width$}-{}.stderr.log",
                    i + 1,
                    crate::util::text::slug(label)
                );
                let file = Mutex::new(CappedFile::new(dir.join(name), MAX_STDERR_BYTES, true));
                let sink: LineSink = Arc::new(move |line: &str| {
                    file.lock().unwrap_or_else(|e| e.into_inner()).line(line);
                });
                sink
            })
            .collect();
        Ok(RunLogs {
            dir,
            traffic,
            stderr,
            budget: RunBudget::new(MAX_RUN_LOG_BYTES),
        })
    }

    /// The same logs with `limit` bytes for all the game logs of the run (`--log-limit`) instead
    /// of [`MAX_RUN_LOG_BYTES`].
    #[must_use]
    pub fn with_limit(mut self, limit: u64) -> RunLogs {
        self.budget = RunBudget::new(limit);
        self
    }

    /// Whether the game logs reached the run's limit (and stopped).
    pub fn limit_reached(&self) -> bool {
        self.budget.reached.load(Ordering::Relaxed)
    }

    /// What the engines of one game get: their slots' error logs and, with `--log`, the game's
    /// traffic log `logs/game-<number>.log`.
    pub fn game(&self, number: u64, slots: ByColor<usize>, labels: ByColor<&str>) -> ByColor<Logs> {
        let transcript = self.traffic.then(|| {
            let path = self.dir.join(format!("game-{number}.log"));
            let mut file = CappedFile::new(path, MAX_GAME_LOG_BYTES, false);
            file.budget = Some(Arc::clone(&self.budget));
            Arc::new(Mutex::new((file, Instant::now())))
        });
        ByColor::new_with(|c: Color| Logs {
            stderr: self.stderr.get(slots[c]).cloned(),
            traffic: transcript.as_ref().map(|t| {
                let t = Arc::clone(t);
                let who = format!("{:5} {}", c.name(), labels[c]);
                let sink: LineSink = Arc::new(move |line: &str| {
                    let mut g = t.lock().unwrap_or_else(|e| e.into_inner());
                    let at = g.1.elapsed().as_secs_f64();
                    g.0.line(&format!("[{at:9.3}s] {who} {line}"));
                });
                sink
            }),
        })
    }
}

/// Copies a shard's logs into the merged folder `out`: game logs as they are (a game has the same
/// number in the shard and the merge), engine error logs under the shard's name
/// (`01-x.stderr.log` → `01-x.shard-1-of-4.stderr.log`), since every shard has its own.
///
/// # Errors
/// A log cannot be copied; the message names it.
pub fn merge_logs(
    shard_dir: &Path,
    out: &Path,
    shard: Option<crate::records::shard::Shard>,
) -> std::io::Result<()> {
    let from = shard_dir.join(LOG_DIR);
    let Ok(entries) = std::fs::read_dir(&from) else {
        return Ok(());
    };
    let to = out.join(LOG_DIR);
    if std::fs::canonicalize(&from).ok() == std::fs::canonicalize(&to).ok() {
        return Ok(());
    }
    crate::records::files::create_dir(&to)?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let target = match (name.strip_suffix(".stderr.log"), shard) {
            (Some(stem), Some(s)) => format!("{stem}.shard-{}-of-{}.stderr.log", s.index, s.count),
            _ => name.clone(),
        };
        crate::records::files::copy(&entry.path(), &to.join(&target))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_are_made_on_the_first_line_and_capped() {
        let dir = std::env::temp_dir().join(format!("engine-logs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let logs = RunLogs::new(&dir, &["uci:path=x", "greedy"], true).unwrap();
        let game = logs.game(
            37,
            ByColor { red: 1, black: 0 },
            ByColor {
                red: "greedy",
                black: "ext",
            },
        );
        assert!(!dir.join(LOG_DIR).exists(), "nothing before a line");
        (game.black.stderr.as_ref().unwrap())("[pid 1] warning: hash too small");
        (game.black.traffic.as_ref().unwrap())("> isready");
        (game.black.traffic.as_ref().unwrap())("< readyok");
        drop(game);
        let stderr =
            std::fs::read_to_string(dir.join(LOG_DIR).join("01-uci_path_x.stderr.log")).unwrap();
        assert_eq!(stderr, "[pid 1] warning: hash too small\n");
        let traffic = std::fs::read_to_string(dir.join(LOG_DIR).join("game-37.log")).unwrap();
        let lines: Vec<&str> = traffic.lines().collect();
        assert_eq!(lines.len(), 2, "{traffic}");
        assert!(lines[0].ends_with("s] black ext > isready"), "{traffic}");
        assert!(lines[1].ends_with("s] black ext < readyok"), "{traffic}");
        // Past the cap one note is written, then nothing.
        let mut f = CappedFile::new(dir.join("small.log"), 10, true);
        for _ in 0..5 {
            f.line("12345");
        }
        drop(f);
        let small = std::fs::read_to_string(dir.join("small.log")).unwrap();
        assert_eq!(small.lines().count(), 2, "{small}");
        assert!(small.contains("log cut here"), "{small}");
        let _ = std::fs::remove_dir_all(dir);
    }

    /// An engine's escape sequences, bells and NULs reach a log escaped, not raw: `cat` of a
    /// log runs nothing.
    #[test]
    fn control_characters_are_escaped_in_logs() {
        let dir = std::env::temp_dir().join(format!("engine-logs-esc-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let logs = RunLogs::new(&dir, &["a", "b"], true).unwrap();
        let game = logs.game(
            1,
            ByColor { red: 0, black: 1 },
            ByColor {
                red: "a",
                black: "b",
            },
        );
        (game.red.traffic.as_ref().unwrap())("< info string \u{1b}[2J\u{7}\u{0}x\ty\u{202e}z");
        (game.red.stderr.as_ref().unwrap())("[pid 1] \u{1b}]0;title\u{7}");
        drop(game);
        let traffic = std::fs::read_to_string(dir.join(LOG_DIR).join("game-1.log")).unwrap();
        assert!(
            traffic.ends_with("< info string \\x1b[2J\\x07\\x00x\ty\\u{202e}z\n"),
            "{traffic:?}"
        );
        let stderr = std::fs::read_to_string(dir.join(LOG_DIR).join("01-a.stderr.log")).unwrap();
        assert_eq!(stderr, "[pid 1] \\x1b]0;title\\x07\n");
        let _ = std::fs::remove_dir_all(dir);
    }

    /// All the game logs of a run together stop at the run's cap: the log that reaches it ends
    /// with a note (as does every log still open that gets a line), later games write nothing, and
    /// logging goes on without failing.
    #[test]
    fn game_logs_stop_at_the_run_cap() {
        let dir = std::env::temp_dir().join(format!("engine-logs-cap-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // Lines are 26 to 33 bytes with their stamps: 100 bytes hold three of them.
        let logs = RunLogs::new(&dir, &["a", "b"], true)
            .unwrap()
            .with_limit(100);
        let labels = ByColor {
            red: "a",
            black: "b",
        };
        let slots = ByColor { red: 0, black: 1 };
        let first = logs.game(1, slots, labels);
        let second = logs.game(2, slots, labels);
        (first.red.traffic.as_ref().unwrap())("> go");
        (second.black.traffic.as_ref().unwrap())("< bestmove");
        assert!(!logs.limit_reached());
        for _ in 0..100 {
            (first.black.traffic.as_ref().unwrap())("< info");
        }
        assert!(logs.limit_reached());
        let third = logs.game(3, slots, labels);
        (third.red.traffic.as_ref().unwrap())("> go");
        (second.red.traffic.as_ref().unwrap())("> go");
        drop((first, second, third));
        let read =
            |n: u32| std::fs::read_to_string(dir.join(LOG_DIR).join(format!("game-{n}.log")));
        let one = read(1).unwrap();
        let two = read(2).unwrap();
        // Three lines fit; each log still open says where it was cut.
        assert_eq!(one.lines().count(), 3, "{one}");
        assert_eq!(two.lines().count(), 2, "{two}");
        for log in [&one, &two] {
            assert!(
                log.lines().last().unwrap().contains("reached 100 bytes"),
                "{log}"
            );
        }
        assert!(read(3).is_err(), "a game after the cap makes no log");
        let _ = std::fs::remove_dir_all(dir);
    }
}
