//! Ctrl-C and SIGTERM. External engines run in process groups of their own (so that whatever they
//! start ends with them), which the terminal's signal never reaches: on an interruption the arena
//! ends every engine group itself, releases its results folder and says what was kept and how to
//! resume, then exits with status 130. Every finished pair is already in the journal
//! (`games.jsonl` is appended and flushed pair by pair); pairs still being played are replayed
//! by `--resume`. A command that holds its results in memory until its end (`analyze --out`,
//! `tune --net`) leaves a keeper instead ([`keep_on_interrupt`]): what had finished is written
//! and named before the exit.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The exit status after an interruption (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Process ids (= process group ids) of the external engines alive now, and whether the run was
/// interrupted (then an engine started after the interruption ended the others, by a worker
/// going on to its next game, is ended at once).
static ENGINES: Mutex<(BTreeSet<u32>, bool)> = Mutex::new((BTreeSet::new(), false));

/// The run writing now: its folder, subcommand and journal (`games.jsonl`, two lines a pair, or
/// another journal of one line per item after a setup line).
static RUN: Mutex<Option<(PathBuf, String, Option<&'static str>)>> = Mutex::new(None);

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

/// Notes what to keep if the command is interrupted ([`Kept`]): on Ctrl-C or SIGTERM the
/// handler writes it and says what was kept, then exits with status 130.
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

/// Installs the handler (once per process; later calls do nothing).
pub fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // A handler that cannot be installed leaves the default: the process dies silently.
        let _ = ctrlc::set_handler(on_interrupt);
    });
}

/// Notes an engine process started in its own group.
pub fn engine_started(pid: u32) {
    let mut engines = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
    if engines.1 {
        drop(engines);
        end_group(pid);
        return;
    }
    engines.0.insert(pid);
}

/// Notes an engine process ended.
pub fn engine_ended(pid: u32) {
    ENGINES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .0
        .remove(&pid);
}

/// Ends every external engine alive now (each one's process group), without marking the run
/// interrupted: `arena jai` abandons a match still being set up this way (its engines' handshake
/// then fails at once instead of at its time limit).
pub fn end_engines() {
    let engines: Vec<u32> = {
        let engines = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
        engines.0.iter().copied().collect()
    };
    for pid in engines {
        end_group(pid);
    }
}

/// Notes the run that writes `out` (`command`: match, sprt, tournament or leak), for the message.
pub fn run_started(out: &Path, command: &str) {
    *RUN.lock().unwrap_or_else(|e| e.into_inner()) =
        Some((out.to_path_buf(), command.into(), None));
}

/// Notes the run that writes `out` (`command`: solve) and keeps its finished items in the
/// journal `out/journal` ([`crate::records::journal::ItemJournal`]), for the message.
pub fn journal_started(out: &Path, command: &str, journal: &'static str) {
    *RUN.lock().unwrap_or_else(|e| e.into_inner()) =
        Some((out.to_path_buf(), command.into(), Some(journal)));
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

fn on_interrupt() {
    // No pair joins the journal from now on, so the count below is what it keeps, and no game
    // cut short by the engines' end below is recorded as their failure.
    let _appends = crate::records::journal::hold_appends();
    let engines: Vec<u32> = {
        let mut engines = ENGINES.lock().unwrap_or_else(|e| e.into_inner());
        engines.1 = true;
        engines.0.iter().copied().collect()
    };
    for pid in engines {
        end_group(pid);
    }
    let keeper = KEEPER.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(keeper) = keeper {
        keep(&keeper);
        std::process::exit(i32::from(EXIT_INTERRUPTED));
    }
    let run = RUN.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match run {
        Some((out, command, Some(name))) => {
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
        }
        Some((out, command, None)) => {
            let journal = out.join("games.jsonl");
            let pairs = crate::records::journal::kept_pairs(&journal);
            let _ = std::fs::remove_file(out.join(crate::records::journal::LOCK_FILE));
            eprintln!(
                "\ninterrupted: {pairs} finished {} kept in {}; continue with: arena {command} --out {} --resume",
                if pairs == 1 { "pair is" } else { "pairs are" },
                journal.display(),
                out.display()
            );
        }
        None => eprintln!("\ninterrupted"),
    }
    std::process::exit(i32::from(EXIT_INTERRUPTED));
}
