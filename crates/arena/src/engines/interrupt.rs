//! Ctrl-C and SIGTERM, for engines. External engines run in process groups of their own (so that
//! whatever they start ends with them), which the terminal's signal never reaches: on an
//! interruption `main`'s handler asks everything to stop ([`crate::util::interrupt::request`])
//! and then ends every engine group ([`end_engines`]); any engine started after that is ended at
//! once ([`engine_started`]). The runs themselves poll the request, stop, write and report what finished, and
//! return an interrupted outcome; nothing here exits or knows a run's folder.
//!
//! Until they poll the request too, a command that holds its results in memory until its end
//! (`analyze --out`, `tune --net`) leaves a keeper ([`keep_on_interrupt`]) and one that keeps a
//! journal of items (`solve`) names it ([`journal_started`]): [`keep_and_end`] writes and names
//! what they keep and tells the handler to exit with status 130.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Process ids (= process group ids) of the external engines alive now. Once the process is
/// interrupted, an engine started after the others were ended (by a worker going on to its next
/// game) is ended at once: [`engine_started`] looks at the request under this lock.
static ENGINES: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// The command writing an item journal now: its folder, subcommand and journal (one line per
/// item after a setup line).
static RUN: Mutex<Option<(PathBuf, String, &'static str)>> = Mutex::new(None);

/// What a command that holds its results in memory until its end keeps when it is interrupted:
/// what has finished, said in words, and the file it goes to (`None`: it is on disk already).
pub struct Kept {
    /// What is kept, for the message (`the analyses of 3 finished games`).
    pub what: String,
    /// The file to write and its bytes, written atomically as every output is.
    pub file: Option<(PathBuf, Vec<u8>)>,
}

/// Makes what a command keeps from what has finished at the moment of the interruption.
pub type Keeper = Box<dyn Fn() -> Kept + Send>;

/// The keeper of the command running now, if it holds results in memory.
static KEEPER: Mutex<Option<Keeper>> = Mutex::new(None);

/// Notes what to keep if the command is interrupted ([`Kept`]): on Ctrl-C or SIGTERM
/// [`keep_and_end`] writes it and says what was kept, and the handler exits with status 130.
pub fn keep_on_interrupt(keeper: Keeper) {
    *KEEPER.lock().unwrap_or_else(|e| e.into_inner()) = Some(keeper);
}

/// Runs the command's own last write (`finish`) with nothing left to keep after it: an
/// interruption during it waits for it, and then keeps nothing more.
pub fn finish_keeping<R>(finish: impl FnOnce() -> R) -> R {
    let mut keeper = KEEPER.lock().unwrap_or_else(|e| e.into_inner());
    let r = finish();
    *keeper = None;
    r
}

/// Writes what the keeper keeps, and says so.
fn keep(keeper: &Keeper) {
    let kept = keeper();
    match kept.file {
        None => eprintln!("\ninterrupted: {} kept", kept.what),
        Some((path, bytes)) => match crate::records::files::write_output(&path, &bytes) {
            Ok(()) => eprintln!("\ninterrupted: {} kept in {}", kept.what, path.display()),
            Err(e) => eprintln!("\ninterrupted: {} could not be kept: {e}", kept.what),
        },
    }
}

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

/// Notes the run that writes `out` (`command`: solve) and keeps its finished items in the
/// journal `out/journal` ([`crate::records::journal::ItemJournal`]), for the message.
pub fn journal_started(out: &Path, command: &str, journal: &'static str) {
    *RUN.lock().unwrap_or_else(|e| e.into_inner()) =
        Some((out.to_path_buf(), command.into(), journal));
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

/// What `main`'s handler does first on an interruption, for a command that keeps its results
/// the old way (a keeper, [`keep_on_interrupt`], or an item journal, [`journal_started`]): ends
/// every engine's process group, writes and names what the command keeps, and returns `true`;
/// the handler then exits with status 130. For any other command it does nothing and returns
/// `false`: the handler asks it to stop ([`crate::util::interrupt::request`]) and ends the
/// engines ([`end_engines`]).
pub fn keep_and_end() -> bool {
    let run = RUN.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if run.is_none() && KEEPER.lock().unwrap_or_else(|e| e.into_inner()).is_none() {
        return false;
    }
    // No item joins an item journal from now on (held until the process exits), so the count
    // below is what it keeps, and no search cut short by the engines' end is recorded.
    let appends = run
        .as_ref()
        .map(|_| crate::records::journal::hold_appends());
    end_engines();
    let keeper = KEEPER.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(keeper) = keeper {
        keep(&keeper);
        std::mem::forget(appends);
        return true;
    }
    let Some((out, command, name)) = run else {
        return false;
    };
    let journal = out.join(name);
    // Whole lines after the setup line.
    let items = crate::records::journal::complete_lines(&journal).saturating_sub(1);
    let _ = std::fs::remove_file(out.join(crate::records::journal::LOCK_FILE));
    eprintln!(
        "\ninterrupted: {items} finished {} kept in {}; continue with: arena {command} \
         … --out {} --resume",
        if items == 1 {
            "search is"
        } else {
            "searches are"
        },
        journal.display(),
        out.display()
    );
    std::mem::forget(appends);
    true
}
