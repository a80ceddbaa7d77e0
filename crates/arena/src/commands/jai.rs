//! `arena jai`: the arena as JieqiBox's match runner. It speaks JieqiBox's JAI protocol on stdin
//! and stdout (its `useJaiEngine.ts`): `jai` → `id` lines, the `option` lines and `jaiok`;
//! `isready` → `readyok`; `setoption name X value Y`; `startmatch` plays the match through the
//! run core ([`crate::run::execute`], the same as `arena match`) on a thread of its own while
//! this loop keeps reading; `stop` ends it keeping the finished pairs; `quit` (or the end of the
//! input) stops and exits. Every game and move is reported live in JieqiBox's format by a
//! [`Watcher`]; bad commands and values get an `info string` and never end the runner.
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
use std::time::{Duration, Instant};

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
        let Some((name, value)) = parse_setoption(rest) else {
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
        let prepared = prepare(&settings);
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

/// Why a resumed match continues to `kept` pairs though TotalRounds is `asked`: it keeps that
/// many already, and a resume never counts fewer.
fn more_kept(kept: u64, asked: u64) -> String {
    format!(
        "info string option TotalRounds: {asked} is fewer than the {} the match keeps; it \
         continues to {kept} (a resume never counts fewer pairs than are kept)",
        counted(kept, "pair")
    )
}

/// The run of `settings`, ready to play: set up, a new match's folder claimed (a unique name
/// under OutDir), and everything the run core would refuse checked
/// ([`crate::run::execute::check_start`]).
///
/// # Errors
/// Why the match cannot start, naming the option.
fn prepare(settings: &JaiSettings) -> Result<crate::run::RunSetup, String> {
    // A relative OutDir is taken from here; with no working directory, as it is given.
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut setup = settings.setup(&cwd)?;
    if !setup.options.resume {
        setup.options.out = crate::records::files::create_unique_dir(&setup.options.out)
            .map_err(|e| format!("option OutDir: {e}"))?;
    }
    crate::run::execute::check_start(&setup).map_err(|e| format!("option OutDir: {e}"))?;
    Ok(setup)
}

/// Plays the match and prints its final W-L-D of the kept pairs and the summary. Returns the
/// lines `stop` says again afterwards, the last of them (the end line: where the folder is)
/// not yet said.
fn play(setup: &crate::run::RunSetup, out: &Shared) -> Vec<String> {
    let dir = printable(&setup.options.out.display().to_string());
    say(
        out,
        &format!(
            "info string match {}: {} vs {}, {} ({}), folder {dir}",
            if setup.options.resume {
                "resumed"
            } else {
                "started"
            },
            printable(&setup.engines[0].label),
            printable(&setup.engines[1].label),
            counted(setup.pairs, "pair"),
            setup.context(),
        ),
    );
    let outcome = match crate::run::execute(setup, &crate::report::observer::Terminal::new(setup)) {
        Ok(o) => o,
        Err(e) => return vec![format!("info string match failed: {e}")],
    };
    let wdl = outcome.board.pairings()[0].wdl;
    let wld = format!("info wld {}-{}-{}", wdl.wins, wdl.losses, wdl.draws);
    say(out, &wld);
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
    let stopped = outcome.interrupted || setup.options.watch.as_ref().is_some_and(Watch::stopping);
    let end = end_line(
        stopped,
        Kept {
            pairs: outcome.counted,
            beyond: outcome.beyond,
            total: setup.pairs,
            wld: [wdl.wins, wdl.losses, wdl.draws],
        },
        &printable(&setup.engines[0].label),
        &dir,
    );
    vec![wld, end]
}

/// What a match kept: the pairs counted, those finished beyond them, the pairs asked for, and
/// the first engine's wins, losses and draws in the counted pairs.
#[derive(Copy, Clone, Debug)]
struct Kept {
    pairs: u64,
    beyond: u64,
    total: u64,
    wld: [u64; 3],
}

/// The match's last line: the pairs kept, the first engine's W-L-D and where; for a match
/// stopped early, also the pairs that finished beyond the counted ones (kept in the journal,
/// counted by a resume that reaches them) and how to continue it, in JieqiBox's option names.
fn end_line(stopped: bool, kept: Kept, first: &str, dir: &str) -> String {
    let [w, l, d] = kept.wld;
    if !stopped || kept.pairs >= kept.total {
        return format!(
            "info string match finished: {}, {first} W-L-D {w}-{l}-{d}, in {dir}",
            counted(kept.pairs, "pair")
        );
    }
    let beyond = match kept.beyond {
        0 => String::new(),
        n => format!(
            "; {n} more {} finished beyond them, kept in its games.jsonl and not counted",
            if n == 1 { "pair" } else { "pairs" }
        ),
    };
    format!(
        "info string match stopped: {} of {} kept, {first} W-L-D {w}-{l}-{d}, in {dir}{beyond} \
         (to continue it, turn Resume on: it continues the newest match in OutDir, or the one \
         OutDir names)",
        kept.pairs,
        counted(kept.total, "pair")
    )
}

/// Reports the games to JieqiBox: one game move by move at a time (with several threads the
/// others play unseen), and the first engine's W-L-D after every game.
struct JaiWatcher {
    out: Shared,
    /// The games of the match (set again when the run is set up: a resume may count more).
    total: AtomicU64,
    /// The first engine's label: W-L-D are its (set when the run is set up, before any game).
    first: OnceLock<String>,
    /// The game shown move by move, if any.
    shown: Mutex<Option<u64>>,
    /// The first engine's wins, losses and draws in the games finished so far.
    wld: Mutex<[u64; 3]>,
    /// The least time between two moves shown (`DisplayDelayMs`).
    delay: Duration,
    /// When the last move was shown.
    last_move: Mutex<Option<Instant>>,
    /// The match's stop flag: a display delay ends at once when it is raised.
    stop: Arc<AtomicBool>,
}

/// How long a display delay sleeps at most before it looks at the stop flag again.
const DELAY_TICK: Duration = Duration::from_millis(10);

impl JaiWatcher {
    fn shows(&self, which: WatchedGame<'_>) -> bool {
        *self.shown.lock().unwrap_or_else(PoisonError::into_inner) == Some(which.number)
    }

    /// Waits until the display delay has passed since the last move shown (at once when the
    /// match is being stopped), and notes this move's time. It runs on the shown game's thread,
    /// after the move and outside the engines' clocks, so it slows what is shown only.
    fn pace(&self) {
        if self.delay.is_zero() {
            return;
        }
        let mut last = self
            .last_move
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(t) = *last {
            let due = t + self.delay;
            loop {
                let now = Instant::now();
                if now >= due || self.stop.load(Ordering::Relaxed) {
                    break;
                }
                std::thread::sleep((due - now).min(DELAY_TICK));
            }
        }
        *last = Some(Instant::now());
    }
}

/// A label as one word: JieqiBox splits `info engine RED BLACK` at spaces.
fn word(label: &str) -> String {
    label.replace(char::is_whitespace, "_")
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
            &format!(
                "info game {}/{}",
                which.number,
                self.total.load(Ordering::Relaxed)
            ),
        );
        say(
            &self.out,
            &format!("info engine {} {}", word(which.red), word(which.black)),
        );
        say(
            &self.out,
            &format!(
                "info fen {}",
                crate::records::formats::jieqibox::game_fen(game)
            ),
        );
    }

    fn ply(&self, which: WatchedGame<'_>, ply: WatchedPly<'_>) {
        if !self.shows(which) {
            return;
        }
        self.pace();
        if self.stop.load(Ordering::Relaxed) {
            // The game is being abandoned: its moves are not recorded, so not shown either.
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

    fn kept(pairs: u64, beyond: u64, total: u64) -> Kept {
        Kept {
            pairs,
            beyond,
            total,
            wld: [1, 2, 3],
        }
    }

    #[test]
    fn a_stopped_match_says_what_its_journal_keeps_beyond_the_counted_pairs() {
        assert_eq!(
            end_line(true, kept(27, 412, 100_000_000), "ab", "/r/x"),
            "info string match stopped: 27 of 100000000 pairs kept, ab W-L-D 1-2-3, in /r/x; 412 \
             more pairs finished beyond them, kept in its games.jsonl and not counted (to \
             continue it, turn Resume on: it continues the newest match in OutDir, or the one \
             OutDir names)"
        );
        let one = end_line(true, kept(1, 0, 5), "ab", "/d");
        assert!(
            one.starts_with(
                "info string match stopped: 1 of 5 pairs kept, ab W-L-D 1-2-3, in /d ("
            ) && !one.contains("--"),
            "{one}"
        );
        assert!(
            end_line(true, kept(0, 1, 5), "ab", "/d")
                .contains("; 1 more pair finished beyond them")
        );
        assert_eq!(
            end_line(false, kept(5, 0, 5), "ab", "/d"),
            "info string match finished: 5 pairs, ab W-L-D 1-2-3, in /d"
        );
    }
}
