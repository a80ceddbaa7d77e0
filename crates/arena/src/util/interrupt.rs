//! The process's one "stop, keep what finished" request (Ctrl-C or SIGTERM). The signal handler
//! (installed by `main`) only calls [`request`] and ends the engine process groups
//! (`crate::engines::interrupt`); a run, or any command that works for long, polls
//! [`requested`], stops starting work, keeps and reports what finished, and returns an
//! `Interrupted` outcome, which `main` maps to exit status 130. Nothing below `main` exits.

use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status after an interruption (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Asks everything running to stop; returns whether it had been asked before (a second Ctrl-C).
pub fn request() -> bool {
    REQUESTED.swap(true, Ordering::SeqCst)
}

/// Whether an interruption was asked for.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
