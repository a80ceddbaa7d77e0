//! `arena jai`: the arena as JieqiBox's match runner. It speaks JieqiBox's JAI protocol on stdin
//! and stdout (its `useJaiEngine.ts`): `jai` → `id` lines, the `option` lines and `jaiok`;
//! `isready` → `readyok`; `setoption name X value Y`; `startmatch` plays the match through the
//! run core ([`crate::run::execute`], the same as `arena match`) on a thread of its own while
//! this loop keeps reading; `stop` ends it keeping the finished pairs; `quit` (or the end of the
//! input) stops and exits. Every game and move is reported live in JieqiBox's format by a
//! [`Watcher`]; bad commands and values get an `info string` and never end the runner.

use std::io::{BufRead, Write};
use std::sync::OnceLock;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use jieqi_core::{Color, Game};
use jieqi_engine::{Score, SearchInfo};

use crate::error::Error;
use crate::plan::jai::JaiSettings;
use crate::records::{GameLine, GameResult};
use crate::run::watch::{Watch, WatchedGame, WatchedPly, Watcher};
use crate::util::text::{counted, echo, printable};
use jieqi_engine::input::read_line;

/// Where the runner's lines go: shared by the command loop and the match's threads, a line
/// written and flushed whole under the lock.
type Shared = Arc<Mutex<dyn Write + Send>>;

/// Writes one line and flushes it. A reader that went away is no reason to panic or stop the
/// match: its lines are dropped (the input's end then ends the runner).
fn say(out: &Shared, line: &str) {
    let mut w = out.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// A match being played: its thread and the watch that can stop it.
struct Running {
    thread: JoinHandle<()>,
    watch: Watch,
}

/// The longest command line read, in bytes: a longer one is refused whole, unread past that
/// (JAI's commands and values are short; an engine spec or a path is far shorter).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Speaks JAI on `input` and `output` from the settings `settings`, until `quit` or the end of
/// the input. A match still running then is stopped as `stop` would, and waited for. Lines are
/// read at most [`MAX_LINE_BYTES`] long and decoded lossily (a byte that is not UTF-8 reads as
/// U+FFFD), as `jieqi-uci` reads them; what an `info string` quotes of them is made printable
/// and cut ([`echo`]).
///
/// # Errors
/// Reading the input fails.
pub fn run(
    settings: &JaiSettings,
    mut input: impl BufRead,
    output: Box<dyn Write + Send>,
) -> Result<(), Error> {
    let out: Shared = Arc::new(Mutex::new(output));
    let mut settings = settings.clone();
    let mut running: Option<Running> = None;
    while let Some(line) = read_line(&mut input, MAX_LINE_BYTES)
        .map_err(|e| Error::Input(format!("reading JAI commands: {e}")))?
    {
        if running.as_ref().is_some_and(|r| r.thread.is_finished()) {
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
        if command(&line.text, &mut settings, &mut running, &out) == Flow::Quit {
            break;
        }
    }
    if let Some(r) = &running {
        r.watch.stop.store(true, Ordering::Relaxed);
    }
    finish(&mut running);
    Ok(())
}

/// Whether to read on after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    /// Read the next command.
    Continue,
    /// `quit`.
    Quit,
}

/// Answers one command line.
fn command(
    line: &str,
    settings: &mut JaiSettings,
    running: &mut Option<Running>,
    out: &Shared,
) -> Flow {
    let line = line.trim();
    let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
    match command {
        "" => {}
        "jai" => {
            say(out, &format!("id name arena {}", env!("CARGO_PKG_VERSION")));
            say(out, "id author the jieqi arena");
            for option in settings.declarations() {
                say(out, &option);
            }
            say(out, "jaiok");
        }
        "isready" => say(out, "readyok"),
        "setoption" if running.is_some() => say(
            out,
            "info string setoption refused: a match is running (stop it first)",
        ),
        "setoption" => match parse_setoption(rest) {
            Some((name, value)) => {
                if let Err(e) = settings.set(name, value) {
                    say(out, &format!("info string {e}"));
                }
            }
            None => say(
                out,
                &format!(
                    "info string setoption: '{}' is not `setoption name NAME value VALUE`",
                    echo(line)
                ),
            ),
        },
        "startmatch" if running.is_some() => {
            say(out, "info string startmatch refused: a match is running");
        }
        "startmatch" => *running = Some(start(settings.clone(), out)),
        "stop" => match running {
            Some(r) => {
                r.watch.stop.store(true, Ordering::Relaxed);
                finish(running);
            }
            None => say(out, "info string stop: no match is running"),
        },
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

/// `name NAME value VALUE` (or `name NAME` alone, an empty value) into its name and value.
fn parse_setoption(rest: &str) -> Option<(&str, &str)> {
    let rest = rest.trim().strip_prefix("name ")?;
    match rest.split_once(" value") {
        Some((name, value)) => Some((name.trim(), value.trim())),
        None => Some((rest.trim(), "")),
    }
}

/// Waits for the match's thread, if there is one (it prints its own end).
fn finish(running: &mut Option<Running>) {
    if let Some(r) = running.take() {
        let _ = r.thread.join();
    }
}

/// Starts the match of `settings` on a thread of its own, reporting to `out`. The run is set up
/// there too (its external engines are started and asked for `uciok`), so that the command loop
/// keeps answering meanwhile; settings that make no run are refused from that thread.
fn start(settings: JaiSettings, out: &Shared) -> Running {
    let watcher = Arc::new(JaiWatcher {
        out: Arc::clone(out),
        total: settings.pairs.saturating_mul(2),
        first: OnceLock::new(),
        shown: Mutex::new(None),
        wld: Mutex::new([0; 3]),
    });
    let watch = Watch::new(watcher.clone());
    let stop = watch.clone();
    let out = Arc::clone(out);
    let thread = std::thread::spawn(move || {
        let mut setup = match settings.setup() {
            Ok(setup) => setup,
            Err(e) => return say(&out, &format!("info string startmatch refused: {e}")),
        };
        if stop.stopping() {
            return say(&out, "info string match stopped before it started");
        }
        let _ = watcher.first.set(setup.engines[0].label.clone());
        setup.watch = Some(stop);
        play(&setup, &out);
    });
    Running { thread, watch }
}

/// Plays the match and prints its end: the final W-L-D of the kept pairs, the summary and where
/// the folder is.
fn play(setup: &crate::run::RunSetup, out: &Shared) {
    say(
        out,
        &format!(
            "info string match started: {} vs {}, {} ({}), folder {}",
            printable(&setup.engines[0].label),
            printable(&setup.engines[1].label),
            counted(setup.pairs, "pair"),
            setup.context(),
            printable(&setup.out.display().to_string())
        ),
    );
    let outcome = match crate::run::execute(setup, &|_, _| String::new()) {
        Ok(o) => o,
        Err(e) => {
            say(out, &format!("info string match failed: {e}"));
            return;
        }
    };
    let wdl = outcome.board.pairings()[0].wdl;
    say(
        out,
        &format!("info wld {}-{}-{}", wdl.wins, wdl.losses, wdl.draws),
    );
    let mut summary = Vec::new();
    if let Err(e) = crate::report::write_reports(setup, &outcome, &mut summary) {
        say(
            out,
            &format!("info string the reports could not be written: {e}"),
        );
    }
    for line in String::from_utf8_lossy(&summary).lines() {
        if !line.trim().is_empty() {
            say(out, &format!("info string {line}"));
        }
    }
    let stopped = setup.watch.as_ref().is_some_and(Watch::stopping);
    let dir = printable(&setup.out.display().to_string());
    say(
        out,
        &end_line(stopped, outcome.counted, outcome.beyond, setup.pairs, &dir),
    );
}

/// The match's last line: the pairs kept and where; for a match stopped early, also the pairs
/// that finished beyond the counted ones (kept in the journal, counted by a resume that reaches
/// them) and how to continue it.
fn end_line(stopped: bool, kept: u64, beyond: u64, total: u64, dir: &str) -> String {
    if !stopped || kept >= total {
        return format!(
            "info string match finished: {} in {dir}",
            counted(kept, "pair")
        );
    }
    let beyond = match beyond {
        0 => String::new(),
        n => format!(
            "; {n} more {} finished beyond them, kept in its games.jsonl and not counted",
            if n == 1 { "pair" } else { "pairs" }
        ),
    };
    format!(
        "info string match stopped: {kept} of {} kept in {dir}{beyond} (continue it \
         with arena match --out {dir} --resume, which counts every pair kept)",
        counted(total, "pair")
    )
}

/// Reports the games to JieqiBox: one game move by move at a time (with several threads the
/// others play unseen), and the first engine's W-L-D after every game.
struct JaiWatcher {
    out: Shared,
    total: u64,
    /// The first engine's label: W-L-D are its (set when the run is set up, before any game).
    first: OnceLock<String>,
    /// The game shown move by move, if any.
    shown: Mutex<Option<u64>>,
    /// The first engine's wins, losses and draws in the games finished so far.
    wld: Mutex<[u64; 3]>,
}

impl JaiWatcher {
    fn shows(&self, which: WatchedGame<'_>) -> bool {
        *self.shown.lock().unwrap_or_else(PoisonError::into_inner) == Some(which.number)
    }
}

/// A label as one word: JieqiBox splits `info engine RED BLACK` at spaces.
fn word(label: &str) -> String {
    label.replace(char::is_whitespace, "_")
}

/// The position's FEN in JieqiBox's 6-field form (board, side, pools, captured hidden pieces,
/// half-moves, move number).
pub fn jieqibox_fen(game: &Game) -> String {
    let mut setup = game.position().to_setup();
    if setup.captured_hidden.is_none() {
        setup.captured_hidden = Some(Default::default());
    }
    jieqi_core::fen::write(&setup)
}

/// A score as UCI writes it (`cp 35`, `mate 3`); a win rate as its centipawns.
fn uci_score(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
        Score::WinRate(w) => format!("cp {}", Score::win_rate_cp(w)),
    }
}

/// The `info depth` line JieqiBox records for the move: depth (0 for engines without one),
/// score, nodes, time, pv; none when the engine said neither depth nor score.
fn depth_line(info: &SearchInfo, ms: u64) -> Option<String> {
    if info.depth.is_none() && info.score.is_none() {
        return None;
    }
    let mut s = format!("info depth {}", info.depth.unwrap_or(0));
    if let Some(score) = info.score {
        s.push_str(&format!(" score {}", uci_score(score)));
    }
    s.push_str(&format!(" nodes {} time {ms}", info.nodes));
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            s.push_str(&format!(" {m}"));
        }
    }
    Some(s)
}

impl Watcher for JaiWatcher {
    fn game_started(&self, which: WatchedGame<'_>, game: &Game) {
        let mut shown = self.shown.lock().unwrap_or_else(PoisonError::into_inner);
        if shown.is_some() {
            return;
        }
        *shown = Some(which.number);
        say(
            &self.out,
            &format!("info game {}/{}", which.number, self.total),
        );
        say(
            &self.out,
            &format!("info engine {} {}", word(which.red), word(which.black)),
        );
        say(&self.out, &format!("info fen {}", jieqibox_fen(game)));
    }

    fn ply(&self, which: WatchedGame<'_>, ply: WatchedPly<'_>) {
        if !self.shows(which) {
            return;
        }
        let ms = ply.ms.round() as u64;
        if let Some(line) = depth_line(ply.info, ms) {
            say(&self.out, &line);
        }
        let text = ply.record.played.to_text(ply.record.mover);
        say(&self.out, &format!("info move {text} time {ms}"));
    }

    fn game_ended(&self, which: WatchedGame<'_>, line: &GameLine) {
        {
            let mut shown = self.shown.lock().unwrap_or_else(PoisonError::into_inner);
            if *shown == Some(which.number) {
                let (score, says) = match line.result {
                    GameResult::RedWins => ("1-0", format!("{} wins", word(&line.red))),
                    GameResult::BlackWins => ("0-1", format!("{} wins", word(&line.black))),
                    GameResult::Draw => ("1/2-1/2", "draw".to_string()),
                };
                say(
                    &self.out,
                    &format!("info result {score} {} ({says})", line.reason.name()),
                );
                *shown = None;
            }
        }
        let mut wld = self.wld.lock().unwrap_or_else(PoisonError::into_inner);
        let first = if self.first.get() == Some(&line.red) {
            Color::Red
        } else {
            Color::Black
        };
        match line.result.winner() {
            Some(c) if c == first => wld[0] += 1,
            Some(_) => wld[1] += 1,
            None => wld[2] += 1,
        }
        say(
            &self.out,
            &format!("info wld {}-{}-{}", wld[0], wld[1], wld[2]),
        );
    }

    fn game_abandoned(&self, which: WatchedGame<'_>) {
        let mut shown = self.shown.lock().unwrap_or_else(PoisonError::into_inner);
        if *shown == Some(which.number) {
            say(
                &self.out,
                &format!(
                    "info string game {} abandoned: the match was stopped",
                    which.number
                ),
            );
            *shown = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_match_says_what_its_journal_keeps_beyond_the_counted_pairs() {
        assert_eq!(
            end_line(true, 27, 412, 100_000_000, "results/x"),
            "info string match stopped: 27 of 100000000 pairs kept in results/x; 412 more pairs \
             finished beyond them, kept in its games.jsonl and not counted (continue it with \
             arena match --out results/x --resume, which counts every pair kept)"
        );
        assert_eq!(
            end_line(true, 1, 0, 5, "d"),
            "info string match stopped: 1 of 5 pairs kept in d (continue it with arena match \
             --out d --resume, which counts every pair kept)"
        );
        assert!(end_line(true, 0, 1, 5, "d").contains("; 1 more pair finished beyond them"));
        assert_eq!(
            end_line(false, 5, 0, 5, "d"),
            "info string match finished: 5 pairs in d"
        );
    }
}
