//! An engine's output, read in lines of bounded length: its standard output on the caller's
//! thread ([`Reader`], waiting with `poll(2)` up to a deadline), its error output drained by a
//! thread of its own ([`drain_stderr`]); and the bounds of what it may print for one answer.

use std::fs::File;
use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::os::fd::{AsFd, OwnedFd};
use std::process::ChildStderr;
use std::time::{Duration, Instant};

use crate::engines::fd::{set_nonblocking, wait_fd};
use jieqi_engine::{EngineError, Failure, LineSink};

/// The longest line kept from an engine, in bytes (a longer one is cut and fails the move).
pub const MAX_LINE: usize = 64 * 1024;

/// The most read from an engine's output at once, in bytes.
const READ_CHUNK: usize = 64 * 1024;

/// The most of an engine's output held unread, in bytes: a partial line (shorter than
/// [`MAX_LINE`], or it is cut) and one read. Past it the engine waits on its pipe.
pub const READ_BUFFER: usize = MAX_LINE + READ_CHUNK;

/// The most an engine may print for one move, in bytes: past it the move fails as a protocol
/// error (a flood of `info` lines is not an answer).
pub const MAX_MOVE_BYTES: u64 = 16 * 1024 * 1024;

/// The protocol error of a line too long, or of output past [`MAX_MOVE_BYTES`] (`bytes` so far
/// while waiting for one answer).
pub(super) fn flooded(line: &Line, bytes: u64) -> Option<EngineError> {
    if line.cut {
        Some(EngineError::of(
            Failure::Protocol,
            format!(
                "a line of {} bytes or more (more than {MAX_LINE})",
                line.bytes
            ),
        ))
    } else if bytes > MAX_MOVE_BYTES {
        Some(EngineError::of(
            Failure::Protocol,
            format!("more than {MAX_MOVE_BYTES} bytes of output without an answer"),
        ))
    } else {
        None
    }
}

/// The longest line of an engine's error output that is kept (the rest of it is dropped).
const MAX_STDERR_LINE: usize = 4096;

/// Reads the error output of the process `pid` on a thread of its own, to the end, passing each
/// line (cut at [`MAX_STDERR_LINE`] bytes) to `sink`, or dropping it without one.
pub(super) fn drain_stderr(stderr: ChildStderr, sink: Option<LineSink>, pid: u32) {
    std::thread::spawn(move || {
        let mut r = BufReader::new(stderr);
        let mut buf = Vec::new();
        while read_capped_line(&mut r, &mut buf, MAX_STDERR_LINE).is_some() {
            if let Some(sink) = &sink {
                sink(&format!(
                    "[pid {pid}] {}",
                    String::from_utf8_lossy(&buf).trim_end()
                ));
            }
        }
    });
}

/// Reads one line of at most `max` bytes into `buf` (cleared first), skipping the rest of a
/// longer line up to its newline. Returns the bytes skipped, or `None` at the end of the output.
fn read_capped_line(r: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> Option<u64> {
    buf.clear();
    match r.take(max as u64).read_until(b'\n', buf) {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    let mut cut = 0u64;
    if buf.last() != Some(&b'\n') && buf.len() >= max {
        let mut rest = Vec::new();
        loop {
            rest.clear();
            match r.take(max as u64).read_until(b'\n', &mut rest) {
                Ok(0) | Err(_) => break,
                Ok(n) => cut += n as u64,
            }
            if rest.last() == Some(&b'\n') {
                break;
            }
        }
    }
    Some(cut)
}

/// One line of an engine's output.
pub(super) struct Line {
    /// The line, trimmed (its first [`MAX_LINE`] bytes).
    pub(super) text: String,
    /// Bytes it took on the pipe, newline included; for a cut line, the bytes of it seen when it
    /// was cut.
    pub(super) bytes: u64,
    /// Whether it was longer than [`MAX_LINE`].
    pub(super) cut: bool,
}

impl Line {
    fn new(bytes: &[u8], cut: bool, seen: usize) -> Line {
        Line {
            text: String::from_utf8_lossy(bytes).trim().to_string(),
            bytes: seen as u64,
            cut,
        }
    }
}

/// Why [`Reader::recv`] has no line.
#[derive(Debug)]
pub(super) enum Recv {
    /// None came in time.
    Timeout,
    /// The output is closed and every line of it was handed out.
    Closed,
    /// Waiting for it failed: `poll(2)` reported an error (not a signal).
    Failed(std::io::Error),
}

/// An engine's output, read on the caller's thread: `poll(2)` waits for it up to a deadline. It
/// holds at most [`READ_BUFFER`] bytes: what is left of the last read, of which the unfinished
/// line is shorter than [`MAX_LINE`] (a longer one is handed out cut and the rest of it skipped).
pub(super) struct Reader {
    pipe: File,
    pub(super) buf: Box<[u8]>,
    /// The bytes read and not handed out are `buf[start..end]`.
    start: usize,
    end: usize,
    /// `buf[start..start + scanned]` holds no newline.
    scanned: usize,
    /// The rest of a cut line is being skipped.
    skipping: bool,
    /// The pipe reached its end (or failed).
    closed: bool,
}

impl Reader {
    /// Reads `pipe`, which it makes non-blocking.
    pub(super) fn new(pipe: OwnedFd) -> std::io::Result<Reader> {
        set_nonblocking(pipe.as_fd())?;
        Ok(Reader {
            pipe: File::from(pipe),
            buf: vec![0; READ_BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            scanned: 0,
            skipping: false,
            closed: false,
        })
    }

    /// The next line, waiting at most `timeout` for it.
    pub(super) fn recv(&mut self, timeout: Duration) -> Result<Line, Recv> {
        let mut until = None;
        loop {
            if let Some(line) = self.take_line() {
                return Ok(line);
            }
            if self.closed {
                return Err(Recv::Closed);
            }
            let left = match until {
                None => {
                    until = Some(Instant::now() + timeout);
                    timeout
                }
                Some(until) => until.saturating_duration_since(Instant::now()),
            };
            match wait_fd(self.pipe.as_fd(), libc::POLLIN, left) {
                Ok(true) => {}
                Ok(false) => return Err(Recv::Timeout),
                Err(e) => return Err(Recv::Failed(e)),
            }
            self.fill();
        }
    }

    /// A whole line from the bytes read, if there is one (or a cut one, or the last one at the
    /// end of the output).
    fn take_line(&mut self) -> Option<Line> {
        loop {
            let pending = &self.buf[self.start..self.end];
            let newline = pending[self.scanned..]
                .iter()
                .position(|&b| b == b'\n')
                .map(|i| self.scanned + i);
            if self.skipping {
                match newline {
                    Some(i) => {
                        self.consume(i + 1);
                        self.skipping = false;
                        continue;
                    }
                    None => {
                        self.consume(pending.len());
                        return None;
                    }
                }
            }
            let line = match newline {
                // Cut, as a line that reaches MAX_LINE before its newline is.
                Some(i) if i >= MAX_LINE => Line::new(&pending[..MAX_LINE], true, i + 1),
                Some(i) => Line::new(&pending[..i + 1], false, i + 1),
                None if pending.len() >= MAX_LINE => {
                    let line = Line::new(&pending[..MAX_LINE], true, pending.len());
                    self.skipping = true;
                    self.consume(pending.len());
                    return Some(line);
                }
                None if self.closed && !pending.is_empty() => {
                    Line::new(pending, false, pending.len())
                }
                None => {
                    self.scanned = pending.len();
                    return None;
                }
            };
            self.consume(line.bytes as usize);
            return Some(line);
        }
    }

    /// Drops `n` bytes from the front of what was read.
    fn consume(&mut self, n: usize) {
        self.start += n;
        self.scanned = 0;
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
        }
    }

    /// One read of what the pipe holds (nothing if it holds nothing yet).
    fn fill(&mut self) {
        if self.buf.len() - self.end < READ_CHUNK {
            // What is left is an unfinished line shorter than MAX_LINE: move it to the front.
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        loop {
            match self.pipe.read(&mut self.buf[self.end..]) {
                Ok(0) => self.closed = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => self.closed = true,
            }
            return;
        }
    }
}
