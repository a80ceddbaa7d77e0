//! What external engines say besides their moves, kept in the results folder under `logs/`:
//! - each engine's error output, always, in `logs/<NN>-<engine>.stderr.log` (NN its slot from
//!   01), each line tagged with the process id, at most [`MAX_STDERR_BYTES`] per engine and run;
//! - with `--log`, each game's whole UCI traffic in `logs/game-<number>.log` (the number of
//!   `games.csv`), every line stamped with the time since the game started, the side and the
//!   engine, `>` sent and `<` read, at most [`MAX_GAME_LOG_BYTES`] per game. A game played again
//!   (a resumed run replays the pairs an interruption cut) starts its log afresh.
//!
//! Every line is flushed as it comes: the log of a game that hangs or is interrupted is there.
//!
//! In-process engines write nothing, and no file is made until a line comes.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use jieqi_core::{ByColor, Color};
use jieqi_engine::{LineSink, Logs};

/// The most of one engine's error output kept per run: 1 MiB.
pub const MAX_STDERR_BYTES: u64 = 1 << 20;

/// The most traffic kept per game: 16 MiB.
pub const MAX_GAME_LOG_BYTES: u64 = 16 << 20;

/// The folder of the logs in a results folder.
pub const LOG_DIR: &str = "logs";

/// A file that is opened (for appending) when its first line comes, and stops taking lines past
/// its cap, saying so once.
struct CappedFile {
    path: PathBuf,
    /// Whether an existing file is continued (error logs) or started afresh (game logs).
    append: bool,
    file: Option<BufWriter<File>>,
    written: u64,
    cap: u64,
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
            full: false,
            failed: false,
        }
    }

    /// Appends a line; errors (a full disk) stop the log, never the run: a log is not a result.
    fn line(&mut self, text: &str) {
        if self.full || self.failed {
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
        let n = text.len() as u64 + 1;
        let result = if self.written + n > self.cap {
            self.full = true;
            writeln!(
                f,
                "[log cut here: more than {} bytes; the rest is dropped]",
                self.cap
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

/// The logs of one run: the error-output log of every engine slot, and whether games keep their
/// traffic.
pub struct RunLogs {
    dir: PathBuf,
    traffic: bool,
    stderr: Vec<LineSink>,
}

impl RunLogs {
    /// The logs of a run writing into `out`, for engines labelled `labels` (slot order).
    ///
    /// # Errors
    /// `out/logs` exists and is not a folder.
    pub fn new(out: &Path, labels: &[&str], traffic: bool) -> Result<RunLogs, String> {
        let dir = out.join(LOG_DIR);
        if dir.exists() && !dir.is_dir() {
            return Err(format!(
                "{} is a file: the engines' logs go in a folder of that name (move the file)",
                dir.display()
            ));
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
        })
    }

    /// What the engines of one game get: their slots' error logs and, with `--log`, the game's
    /// traffic log `logs/game-<number>.log`.
    pub fn game(&self, number: u64, slots: ByColor<usize>, labels: ByColor<&str>) -> ByColor<Logs> {
        let transcript = self.traffic.then(|| {
            let path = self.dir.join(format!("game-{number}.log"));
            Arc::new(Mutex::new((
                CappedFile::new(path, MAX_GAME_LOG_BYTES, false),
                Instant::now(),
            )))
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
}
