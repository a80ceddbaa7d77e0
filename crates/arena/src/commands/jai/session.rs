//! `arena jai`'s match on a thread of its own: started by `startmatch` ([`start`]), stopped by
//! `stop`, `quit` or Ctrl-C ([`halt`]), its end kept for `stop` to say again ([`Ended`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::plan::jai::JaiSettings;
use crate::report::jai::{JaiWatcher, Shared, more_kept, say};
use crate::run::watch::Watch;

/// A match being played: its thread, the watch that can stop it, whether it has ended
/// (raised before its last line is said, so that a command read after that line finds the
/// match over), and whether it is still being set up (its engines starting: a stop then ends
/// them, under this lock, so that the set-up never passes into play meanwhile).
pub(super) struct Running {
    thread: JoinHandle<()>,
    watch: Watch,
    pub(super) done: Arc<AtomicBool>,
    setting_up: Arc<Mutex<bool>>,
}

/// How often a stop during a match's set-up ends the engines started since.
const SETUP_STOP_TICK: Duration = Duration::from_millis(10);

/// Stops the match, if one runs, and waits for its thread (which says its end). A match still
/// being set up is abandoned: the engines it started (or starts until its set-up ends) are
/// ended, so that a handshake never holds the stop for its time limit.
pub(super) fn halt(running: &mut Option<Running>) {
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
pub(super) type Ended = Arc<Mutex<Vec<String>>>;

/// Records `lines` as the last match's end.
pub(super) fn ended(last: &Ended, lines: Vec<String>) {
    *last.lock().unwrap_or_else(PoisonError::into_inner) = lines;
}

/// Waits for the match's thread, if there is one (it prints its own end).
pub(super) fn finish(running: &mut Option<Running>) {
    if let Some(r) = running.take() {
        let _ = r.thread.join();
    }
}

/// Starts the match of `settings` on a thread of its own, reporting to `out` and recording its
/// end in `last`. The run is set up there too (its external engines are started and asked for
/// `uciok`, its folder claimed and checked), so that the command loop keeps answering
/// meanwhile; settings that make no run are refused from that thread, before "match started".
pub(super) fn start(settings: JaiSettings, out: &Shared, last: &Ended) -> Running {
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = Arc::new(JaiWatcher::new(
        Arc::clone(out),
        settings.pairs.saturating_mul(2),
        Duration::from_millis(settings.display_delay),
        Arc::clone(&stop),
    ));
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
                watcher.set_up(setup.pairs.saturating_mul(2), &setup.engines[0].label);
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
