//! `arena jai`: the arena as JieqiBox's match runner. It speaks JieqiBox's JAI protocol on stdin
//! and stdout (its `useJaiEngine.ts`): `jai` → `id` lines, the `option` lines and `jaiok`;
//! `isready` → `readyok`; `setoption name X value Y`; `startmatch` plays the match through the
//! run core ([`crate::run::execute`], the same as `arena match`) on a thread of its own while
//! this loop keeps reading; `stop` ends it keeping the finished pairs; `quit` (or the end of the
//! input) stops and exits. Every game and move is reported live in JieqiBox's format by a
//! [`crate::report::jai::JaiWatcher`]; bad commands and values get an `info string` and never end the runner.
//!
//! JieqiBox hears no end of a match (it shows it running until Stop Match), so every `stop`
//! is answered with the last match's end, again if it has ended: its final `info wld` (from
//! the records) and its finished or stopped line with its folder.

use std::io::{BufRead, Write};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::error::Error;
use crate::plan::jai::JaiSettings;
use crate::report::jai::{JaiWatcher, Shared, more_kept, say};
use crate::run::watch::Watch;
use crate::util::text::echo;
use jieqi_engine::input::read_line;

/// A match being played: its thread, the watch that can stop it, whether it has ended
/// (raised before its last line is said, so that a command read after that line finds the
/// match over), and whether it is still being set up (its engines starting: a stop then ends
/// them, under this lock, so that the set-up never passes into play meanwhile).
struct Running {
    thread: JoinHandle<()>,
    watch: Watch,
    done: Arc<AtomicBool>,
    setting_up: Arc<Mutex<bool>>,
}

/// How often a stop during a match's set-up ends the engines started since.
const SETUP_STOP_TICK: Duration = Duration::from_millis(10);

/// Stops the match, if one runs, and waits for its thread (which says its end). A match still
/// being set up is abandoned: the engines it started (or starts until its set-up ends) are
/// ended, so that a handshake never holds the stop for its time limit.
fn halt(running: &mut Option<Running>) {
    let Some(r) = running.as_ref() else {
        return;
    };
    r.watch.stop.store(true, Ordering::Relaxed);
    while !r.done.load(Ordering::Acquire) {
        {
            let setting_up = r.setting_up.lock().unwrap_or_else(PoisonError::into_inner);
            if !*setting_up {
                break;
            }
            crate::engines::interrupt::end_engines();
        }
        std::thread::sleep(SETUP_STOP_TICK);
    }
    finish(running);
}

/// The last match's end, as its lines (its final `info wld` and its finished, stopped or
/// failed line; or why `startmatch` was refused): `stop` says them again once it has ended.
type Ended = Arc<Mutex<Vec<String>>>;

/// Records `lines` as the last match's end.
fn ended(last: &Ended, lines: Vec<String>) {
    *last.lock().unwrap_or_else(PoisonError::into_inner) = lines;
}

/// The longest command line read, in bytes: a longer one is refused whole, unread past that
/// (JAI's commands and values are short; an engine spec or a path is far shorter).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Speaks JAI on `input` and `output` from the settings `settings`, until `quit`, the end of
/// the input or an interruption (Ctrl-C: [`crate::util::interrupt::requested`]). A match still
/// running then is stopped as `stop` would, and waited for. Lines are
/// read at most [`MAX_LINE_BYTES`] long and decoded lossily (a byte that is not UTF-8 reads as
/// U+FFFD), as `jieqi-uci` reads them; what an `info string` quotes of them is made printable
/// and cut ([`echo`]). Returns [`crate::report::RunEnd::Interrupted`] after an interruption,
/// else [`crate::report::RunEnd::Sound`].
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
    let lines = read_lines(input);
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
            say(
                &out,
                &format!(
                    "info string a line of {} bytes ignored: longer than {MAX_LINE_BYTES} bytes \
                     ('{}')",
                    line.bytes,
                    echo(&line.text)
                ),
            );
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

/// The lines of `input`, read on a thread of their own (so that the command loop can see an
/// interruption while no line comes), one at a time: the thread reads the next line once the
/// loop has taken this one, and ends after the end of the input or an error.
fn read_lines(
    mut input: impl BufRead + Send + 'static,
) -> mpsc::Receiver<std::io::Result<Option<jieqi_engine::input::InputLine>>> {
    let (tx, rx) = mpsc::sync_channel(0);
    std::thread::spawn(move || {
        loop {
            let line = read_line(&mut input, MAX_LINE_BYTES);
            let more = matches!(line, Ok(Some(_)));
            if tx.send(line).is_err() || !more {
                break;
            }
        }
    });
    rx
}

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
                say(out, &format!("id name arena {}", env!("CARGO_PKG_VERSION")));
                say(out, "id author the jieqi arena");
                for option in self.settings.declarations() {
                    say(out, &option);
                }
                say(out, "jaiok");
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
            other => say(
                out,
                &format!(
                    "info string unknown command '{}' (JAI commands: jai, isready, setoption, \
                     startmatch, stop, quit)",
                    echo(other)
                ),
            ),
        }
        Flow::Continue
    }

    /// `setoption`: checked and taken; during a match, a value the option already holds is
    /// taken silently (JieqiBox's dialog sends every option again when it opens) and a change
    /// refused, naming the option.
    fn setoption(&mut self, line: &str, rest: &str) {
        let Some((name, value)) = crate::plan::jai::parse_setoption(rest) else {
            return say(
                self.out,
                &format!(
                    "info string setoption: '{}' is not `setoption name NAME value VALUE`",
                    echo(line)
                ),
            );
        };
        if self.running.is_some() {
            if let Err(e) = JaiSettings::known(name) {
                say(self.out, &format!("info string {e}"));
            } else if !self.settings.holds(name, value) {
                say(
                    self.out,
                    &format!(
                        "info string setoption refused: a match is running, so option {} keeps \
                         its value (stop the match first)",
                        echo(name)
                    ),
                );
            }
            return;
        }
        if let Err(e) = self.settings.set(name, value) {
            say(self.out, &format!("info string {e}"));
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

/// Waits for the match's thread, if there is one (it prints its own end).
fn finish(running: &mut Option<Running>) {
    if let Some(r) = running.take() {
        let _ = r.thread.join();
    }
}

/// Starts the match of `settings` on a thread of its own, reporting to `out` and recording its
/// end in `last`. The run is set up there too (its external engines are started and asked for
/// `uciok`, its folder claimed and checked), so that the command loop keeps answering
/// meanwhile; settings that make no run are refused from that thread, before "match started".
fn start(settings: JaiSettings, out: &Shared, last: &Ended) -> Running {
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = Arc::new(JaiWatcher {
        out: Arc::clone(out),
        total: AtomicU64::new(settings.pairs.saturating_mul(2)),
        first: OnceLock::new(),
        shown: Mutex::new(None),
        wld: Mutex::new([0; 3]),
        delay: Duration::from_millis(settings.display_delay),
        last_move: Mutex::new(None),
        stop: Arc::clone(&stop),
    });
    let watch = Watch {
        watcher: watcher.clone(),
        stop,
    };
    let stopping = watch.clone();
    let out = Arc::clone(out);
    let last = Arc::clone(last);
    let done = Arc::new(AtomicBool::new(false));
    let finished = Arc::clone(&done);
    let setting_up = Arc::new(Mutex::new(true));
    let set_up = Arc::clone(&setting_up);
    let thread = std::thread::spawn(move || {
        let prepared = crate::plan::jai::prepare(&settings);
        *set_up.lock().unwrap_or_else(PoisonError::into_inner) = false;
        let end = match prepared {
            // A stop during the set-up ended its engines: that is why it failed.
            _ if stopping.stopping() => {
                vec!["info string match stopped before it started".to_string()]
            }
            Err(e) => vec![format!("info string startmatch refused: {e}")],
            Ok(mut setup) => {
                if setup.pairs > settings.pairs {
                    say(&out, &more_kept(setup.pairs, settings.pairs));
                }
                watcher
                    .total
                    .store(setup.pairs.saturating_mul(2), Ordering::Relaxed);
                let _ = watcher.first.set(setup.engines[0].label.clone());
                setup.options.watch = Some(stopping);
                play(&setup, &out)
            }
        };
        ended(&last, end.clone());
        finished.store(true, Ordering::Release);
        if let Some(line) = end.last() {
            say(&out, line);
        }
    });
    Running {
        thread,
        watch,
        done,
        setting_up,
    }
}

/// Plays the match and prints its final W-L-D of the kept pairs and the summary. Returns the
/// lines `stop` says again afterwards, the last of them (the end line: where the folder is)
/// not yet said.
fn play(setup: &crate::run::RunSetup, out: &Shared) -> Vec<String> {
    crate::report::jai::started(setup, out);
    let outcome = match crate::run::execute(setup, &crate::report::observer::Terminal::new(setup)) {
        Ok(o) => o,
        Err(e) => return vec![format!("info string match failed: {e}")],
    };
    crate::report::jai::played(setup, &outcome, out)
}
