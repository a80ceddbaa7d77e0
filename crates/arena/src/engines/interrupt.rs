//! Ctrl-C and SIGTERM, for engines. External engines run in process groups of their own (so that
//! whatever they start ends with them), which the terminal's signal never reaches: on an
//! interruption `main`'s handler asks everything to stop ([`crate::util::interrupt::request`])
//! and then ends every engine group ([`end_engines`]); any engine started after that is ended at
//! once ([`engine_started`]). The commands themselves poll the request, stop, write and report
//! what finished, and return an interrupted outcome; nothing here exits or knows a run's folder.

use std::collections::BTreeSet;
use std::sync::Mutex;

/// Process ids (= process group ids) of the external engines alive now. Once the process is
/// interrupted, an engine started after the others were ended (by a worker going on to its next
/// game) is ended at once: [`engine_started`] looks at the request under this lock.
static ENGINES: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// Notes an engine process started in its own group.
pub fn engine_started(pid: u32) {
    let mut engines = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
    if crate::util::interrupt::requested() {
        drop(engines);
        end_group(pid);
        return;
    }
    engines.insert(pid);
}

/// Notes an engine process ended.
pub fn engine_ended(pid: u32) {
    ENGINES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&pid);
}

/// Ends every external engine alive now (each one's process group): on an interruption (after
/// [`crate::util::interrupt::request`]), and when `arena jai` abandons a match still being set
/// up (its engines' handshake then fails at once instead of at its time limit).
pub fn end_engines() {
    let engines: Vec<u32> = {
        let engines = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
        engines.iter().copied().collect()
    };
    for pid in engines {
        end_group(pid);
    }
}

/// Ends the process group of `pid` (the engine and whatever it started).
pub fn end_group(pid: u32) {
    #[cfg(unix)]
    {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", "--", &format!("-{pid}")])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
    }
    #[cfg(not(unix))]
    let _ = pid;
}
