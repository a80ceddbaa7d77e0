//! An engine's process: started in a process group of its own with non-blocking pipes, written to
//! and read from within a [`Limit`], and ended (told to `quit`, killed if it does not) together
//! with whatever it started.

use std::fs::File;
use std::io::{ErrorKind, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::Settings;
use super::options::OptionDecl;
use super::reader::{Line, Reader, Recv, drain_stderr, flooded};
use crate::engines::dialect::{Declared, Dialect};
use crate::engines::fd::{set_nonblocking, wait_fd};
use jieqi_core::Rules;
use jieqi_engine::{Control, EngineError, Failure, LineSink, Logs};

/// A running engine process.
pub(super) struct Process {
    pub(super) child: Child,
    /// Its standard input, non-blocking (see [`write_all_until`]).
    pub(super) stdin: File,
    /// Its standard output, read on the caller's thread.
    pub(super) output: Reader,
    /// Option names it declared, lowercased.
    pub(super) declared: Vec<String>,
    /// Its option declarations, for checking values.
    pub(super) options: Vec<OptionDecl>,
    /// The `UCI_Variant` it was set to.
    pub(super) variant: Option<String>,
    /// The rules its variant was chosen for (and checked against what it offers).
    pub(super) variant_rules: Option<Rules>,
    /// How it writes moves.
    pub(super) dialect: Dialect,
    /// Its `UCI_Variant` option, if it declares one.
    pub(super) variant_option: Option<Declared>,
    /// Where the current game's traffic goes (`--log`).
    pub(super) traffic: Option<LineSink>,
    /// Where its error output goes, and the arena's note of how it was ended after a failure.
    pub(super) stderr: Option<LineSink>,
}

impl Process {
    /// Starts the process in a process group of its own, its error output drained to
    /// `logs.stderr` (read and dropped without one) and its other pipes made non-blocking; the
    /// handshake is [`Process::start`]'s.
    pub(super) fn spawn(s: &Settings, logs: &Logs) -> Result<Process, EngineError> {
        let mut cmd = Command::new(&s.path);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group: whatever it starts is ended with it (see `Drop`).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut tries = 0;
        let mut child = loop {
            match cmd.spawn() {
                Ok(child) => break child,
                // ETXTBSY: a script written a moment ago is still open for writing in a process
                // that was being forked then (it closes at that process's exec): try again.
                Err(e) if e.raw_os_error() == Some(26) && tries < 50 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => {
                    return Err(EngineError::of(
                        Failure::Crash,
                        format!("cannot start '{}': {e}", s.path),
                    ));
                }
            }
        };
        crate::engines::interrupt::engine_started(child.id());
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        // Always drained, so an engine that complains a lot never blocks on a full pipe.
        let pid = child.id();
        drain_stderr(stderr, logs.stderr.clone(), pid);
        // Both pipes non-blocking: every wait on them is a `poll` with a deadline. (Until this
        // succeeds the child is not in a `Process`: kill it here.)
        let pipes = (|| {
            let stdin = OwnedFd::from(stdin);
            set_nonblocking(stdin.as_fd())?;
            Ok::<_, std::io::Error>((File::from(stdin), Reader::new(OwnedFd::from(stdout))?))
        })();
        let (stdin, output) = match pipes {
            Ok(pipes) => pipes,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                crate::engines::interrupt::end_group(pid);
                crate::engines::interrupt::engine_ended(pid);
                return Err(EngineError::of(
                    Failure::Crash,
                    format!("cannot set up the pipes of '{}': {e}", s.path),
                ));
            }
        };
        Ok(Process {
            child,
            stdin,
            output,
            declared: Vec::new(),
            options: Vec::new(),
            variant: None,
            variant_rules: None,
            dialect: Dialect::Pikafish,
            variant_option: None,
            traffic: logs.traffic.clone(),
            stderr: logs.stderr.clone(),
        })
    }

    /// Sends `text` (whole lines, each ending in a newline) in one write, waiting while the
    /// pipe is full until `limit`.
    pub(super) fn send(&mut self, text: &str, limit: Limit<'_>) -> Result<(), EngineError> {
        if let Some(t) = &self.traffic {
            for line in text.lines() {
                t(&format!("> {line}"));
            }
        }
        let child = &mut self.child;
        let written = write_all_until(&mut self.stdin, text.as_bytes(), || {
            limit.over() || matches!(child.try_wait(), Ok(Some(_)))
        });
        let first = text.lines().next().unwrap_or("");
        match written {
            Ok(true) => Ok(()),
            Ok(false) => Err(self
                .exited(&format!("exited before reading '{first}'"))
                .unwrap_or_else(|| {
                    EngineError::of(
                        Failure::Timeout,
                        format!("the engine did not read '{first}' within the time limit"),
                    )
                })),
            Err(e) => Err(self.died(&format!("writing '{first}' failed: {e}"))),
        }
    }

    /// The failure for a process that went away, with its exit status if known.
    pub(super) fn died(&mut self, what: &str) -> EngineError {
        let status = match self.child.try_wait() {
            Ok(Some(st)) => format!(" ({st})"),
            _ => String::new(),
        };
        EngineError::of(
            Failure::Crash,
            format!("the engine process died{status}: {what}"),
        )
    }

    /// Reads lines until `done` accepts one (it sees every line), or the deadline passes.
    pub(super) fn wait_for(
        &mut self,
        deadline: Instant,
        what: &str,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineError> {
        let mut bytes = 0u64;
        loop {
            // The deadline holds however fast the engine prints: a queued line never delays it.
            let left = deadline.saturating_duration_since(Instant::now());
            let got = if left.is_zero() {
                Err(Recv::Timeout)
            } else {
                match self.output.recv(left.min(EXIT_POLL)) {
                    Err(Recv::Timeout) if !left.saturating_sub(EXIT_POLL).is_zero() => {
                        if let Some(e) = self.exited(&format!("exited while waiting for '{what}'"))
                        {
                            return Err(e);
                        }
                        continue;
                    }
                    other => other,
                }
            };
            match got {
                Ok(line) => {
                    self.log_read(&line);
                    bytes += line.bytes;
                    if let Some(e) = flooded(&line, bytes) {
                        return Err(e);
                    }
                    if done(&line.text) {
                        return Ok(line.text);
                    }
                }
                Err(Recv::Timeout) => {
                    return Err(EngineError::of(
                        Failure::Timeout,
                        format!("no '{what}' within the time limit"),
                    ));
                }
                Err(Recv::Closed) => {
                    // Give the exit status a moment to be known.
                    std::thread::sleep(Duration::from_millis(5));
                    return Err(self.died(&format!("output closed while waiting for '{what}'")));
                }
                Err(Recv::Failed(e)) => return Err(wait_failed(what, &e)),
            }
        }
    }

    /// Copies a line read to the traffic log.
    pub(super) fn log_read(&self, line: &Line) {
        if let Some(t) = &self.traffic {
            if line.cut {
                t(&format!("< {} [… {} bytes or more]", line.text, line.bytes));
            } else {
                t(&format!("< {}", line.text));
            }
        }
    }

    pub(super) fn declares(&self, option: &str) -> bool {
        self.declared.iter().any(|d| d == option)
    }
}

/// The failure of a wait for `what` that `poll(2)` broke off with `e`: the engine's answer
/// cannot be read (so it is no timeout).
pub(super) fn wait_failed(what: &str, e: &std::io::Error) -> EngineError {
    EngineError::of(Failure::Crash, format!("waiting for '{what}' failed: {e}"))
}

/// How long a process told to `quit` is given before it is killed.
pub(super) const QUIT_WAIT: Duration = Duration::from_millis(300);

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(t) = &self.traffic {
            t("> quit");
        }
        let started = Instant::now();
        // One try: an engine whose pipe is full is not reading, and is killed below.
        let _ = self.stdin.write(b"quit\n");
        let until = started + QUIT_WAIT;
        let mut killed = true;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                killed = false;
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if killed {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        self.end_group();
        // The clean-up's time, apart from any move's: after a failure it runs when the game is
        // over (see `UciEngine::retired`).
        let note = format!(
            "[pid {}] arena: {} in {} ms",
            self.child.id(),
            if killed {
                "did not quit, killed"
            } else {
                "quit"
            },
            started.elapsed().as_millis()
        );
        if let Some(t) = &self.traffic {
            t(&note);
        }
        if let Some(s) = &self.stderr {
            s(&note);
        }
    }
}

impl Process {
    /// Ends what the engine left running in its process group (children it started that
    /// outlive it would hold its pipes open and use the machine).
    pub(super) fn end_group(&mut self) {
        crate::engines::interrupt::end_group(self.child.id());
        crate::engines::interrupt::engine_ended(self.child.id());
    }

    /// The crash of an engine whose process has exited, though its output may still be open
    /// (a child it started holds it): `None` while it runs.
    pub(super) fn exited(&mut self, what: &str) -> Option<EngineError> {
        match self.child.try_wait() {
            Ok(Some(_)) => Some(self.died(what)),
            _ => None,
        }
    }
}

/// How often a process waiting for `bestmove` looks at its stop flag.
pub(super) const POLL: Duration = Duration::from_millis(5);

/// How often a wait for an answer checks that the engine's process is still alive.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// When a write or a wait gives up: at a deadline, or when the harness's stop flag is set.
#[derive(Clone, Copy)]
pub(super) struct Limit<'a> {
    pub(super) deadline: Option<Instant>,
    pub(super) control: Option<&'a Control<'a>>,
}

impl Limit<'_> {
    pub(super) fn until(deadline: Instant) -> Limit<'static> {
        Limit {
            deadline: Some(deadline),
            control: None,
        }
    }

    pub(super) fn over(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.control.is_some_and(Control::stopped)
    }
}

/// Writes all of `bytes` to the non-blocking `pipe`; while it is full, waits for room in
/// [`POLL`] slices and gives up when `give_up` says so. `Ok(false)`: given up.
pub(super) fn write_all_until(
    pipe: &mut File,
    bytes: &[u8],
    mut give_up: impl FnMut() -> bool,
) -> std::io::Result<bool> {
    let mut done = 0;
    while done < bytes.len() {
        match pipe.write(&bytes[done..]) {
            Ok(0) => return Err(ErrorKind::WriteZero.into()),
            Ok(n) => done += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                if give_up() {
                    return Ok(false);
                }
                wait_fd(pipe.as_fd(), libc::POLLOUT, POLL)?;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}
