//! `arena jai`: the arena as JieqiBox's match runner. It speaks JieqiBox's JAI protocol on stdin
//! and stdout (its `useJaiEngine.ts`): `jai` → `id` lines, the `option` lines and `jaiok`;
//! `isready` → `readyok`; `setoption name X value Y`; `startmatch` plays the match through the
//! run core ([`crate::run::execute()`], the same as `arena match`) on a thread of its own while
//! this loop keeps reading; `stop` ends it keeping the finished pairs; `quit` (or the end of the
//! input) stops and exits. Every game and move is reported live in JieqiBox's format by a
//! [`crate::report::jai::JaiWatcher`]; bad commands and values get an `info string` and never
//! end the runner. The answers' text is in [`crate::report::jai`], the options in
//! [`crate::plan::jai`], the match's thread in `session`.
//!
//! JieqiBox hears no end of a match (it shows it running until Stop Match), so every `stop`
//! is answered with the last match's end, again if it has ended: its final `info wld` (from
//! the records) and its finished or stopped line with its folder.

mod session;

use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::error::Error;
use crate::plan::jai::JaiSettings;
use crate::report::jai::{self, Shared, say};
use session::{Ended, Running, ended, finish, halt, start};

/// The longest command line read, in bytes: a longer one is refused whole, unread past that
/// (JAI's commands and values are short; an engine spec or a path is far shorter).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Speaks JAI on `input` and `output` from the settings `settings`, until `quit`, the end of
/// the input or an interruption (Ctrl-C: [`crate::util::interrupt::requested`]). A match still
/// running then is stopped as `stop` would, and waited for. Lines are read at most
/// [`MAX_LINE_BYTES`] long and decoded lossily (a byte that is not UTF-8 reads as U+FFFD), as
/// `jieqi-uci` reads them; what an `info string` quotes of them is made printable and cut
/// ([`crate::util::text::echo`]). Returns [`crate::report::RunEnd::Interrupted`] after an
/// interruption, else [`crate::report::RunEnd::Sound`].
///
/// # Errors
/// Reading the input fails.
pub fn run(
    settings: &JaiSettings,
    input: impl BufRead + Send + 'static,
    output: Box<dyn Write + Send>,
) -> Result<crate::report::RunEnd, Error> {
    let out: Shared = Arc::new(Mutex::new(output));
    let mut settings = settings.clone();
    let mut running: Option<Running> = None;
    let last: Ended = Arc::default();
    let lines = crate::util::lines::read_lines(input, MAX_LINE_BYTES);
    loop {
        let line = match lines.recv_timeout(INTERRUPT_POLL) {
            Ok(Ok(Some(line))) => line,
            Ok(Ok(None)) | Err(RecvTimeoutError::Disconnected) => break,
            Ok(Err(e)) => return Err(Error::Input(format!("reading JAI commands: {e}"))),
            Err(RecvTimeoutError::Timeout) if crate::util::interrupt::requested() => break,
            Err(RecvTimeoutError::Timeout) => continue,
        };
        if running
            .as_ref()
            .is_some_and(|r| r.done.load(Ordering::Acquire))
        {
            finish(&mut running);
        }
        if line.cut {
            say(&out, &jai::too_long(line.bytes, &line.text, MAX_LINE_BYTES));
            continue;
        }
        let mut state = Loop {
            settings: &mut settings,
            running: &mut running,
            last: &last,
            out: &out,
        };
        if state.command(&line.text) == Flow::Quit {
            break;
        }
    }
    halt(&mut running);
    Ok(if crate::util::interrupt::requested() {
        crate::report::RunEnd::Interrupted
    } else {
        crate::report::RunEnd::Sound
    })
}

/// How often the command loop, waiting for a line, looks for an interruption.
const INTERRUPT_POLL: Duration = Duration::from_millis(100);

/// Whether to read on after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    /// Read the next command.
    Continue,
    /// `quit`.
    Quit,
}

/// What the command loop keeps between lines.
struct Loop<'a> {
    settings: &'a mut JaiSettings,
    running: &'a mut Option<Running>,
    last: &'a Ended,
    out: &'a Shared,
}

impl Loop<'_> {
    /// Answers one command line.
    fn command(&mut self, line: &str) -> Flow {
        let out = self.out;
        let line = line.trim();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        match command {
            "" => {}
            "jai" => {
                jai::identify(out, self.settings.declarations());
            }
            "isready" => say(out, "readyok"),
            "setoption" => self.setoption(line, rest),
            "startmatch" if self.running.is_some() => {
                say(out, "info string startmatch refused: a match is running");
            }
            "startmatch" => match self.settings.refusals() {
                Some(why) => {
                    let line = format!("info string startmatch refused: {why}");
                    say(out, &line);
                    ended(self.last, vec![line]);
                }
                None => *self.running = Some(start(self.settings.clone(), out, self.last)),
            },
            "stop" => self.stop(),
            "quit" => return Flow::Quit,
            other => say(out, &jai::unknown_command(other)),
        }
        Flow::Continue
    }

    /// `setoption`: answered by [`crate::plan::jai::setoption`].
    fn setoption(&mut self, line: &str, rest: &str) {
        if let Some(answer) =
            crate::plan::jai::setoption(self.settings, line, rest, self.running.is_some())
        {
            say(self.out, &answer);
        }
    }

    /// `stop`: a running match is stopped and its end said by its thread; else the last
    /// match's end is said again.
    fn stop(&mut self) {
        if self.running.is_some() {
            halt(self.running);
            return;
        }
        let last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if last.is_empty() {
            say(self.out, "info string stop: no match has been started");
        }
        for line in last.iter() {
            say(self.out, line);
        }
    }
}
