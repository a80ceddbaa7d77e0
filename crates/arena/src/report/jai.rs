//! `arena jai`'s answers in JieqiBox's JAI protocol (docs/jai.md): the lines said to JieqiBox
//! ([`say`]), the answers to `jai` and to bad lines ([`identify`], [`unknown_command`], …), a match's start and end ([`started`], [`played`], [`end_line`]), and the live
//! report of its games ([`JaiWatcher`]: `info game`, `info move`, `info result`, `info wld`).

use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use jieqi_core::{Color, Game};
use jieqi_engine::{Score, SearchInfo};

use crate::records::{GameLine, GameResult};
use crate::run::watch::{Watch, WatchedGame, WatchedPly, Watcher};
use crate::run::{RunOutcome, RunSetup};
use crate::util::text::{counted, echo, printable};

/// Where the runner's lines go: shared by the command loop and the match's threads, a line
/// written and flushed whole under the lock.
pub type Shared = Arc<Mutex<dyn Write + Send>>;

/// Writes one line and flushes it. A reader that went away is no reason to panic or stop the
/// match: its lines are dropped (the input's end then ends the runner).
pub fn say(out: &Shared, line: &str) {
    let mut w = out.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// Why a resumed match continues to `kept` pairs though TotalRounds is `asked`: it keeps that
/// many already, and a resume never counts fewer.
pub fn more_kept(kept: u64, asked: u64) -> String {
    format!(
        "info string option TotalRounds: {asked} is fewer than the {} the match keeps; it \
         continues to {kept} (a resume never counts fewer pairs than are kept)",
        counted(kept, "pair")
    )
}

/// What a match kept: the pairs counted, those finished beyond them, the pairs asked for, and
/// the first engine's wins, losses and draws in the counted pairs.
#[derive(Copy, Clone, Debug)]
pub struct Kept {
    /// The pairs counted.
    pub pairs: u64,
    /// The pairs finished beyond them.
    pub beyond: u64,
    /// The pairs asked for.
    pub total: u64,
    /// The first engine's wins, losses and draws in the counted pairs.
    pub wld: [u64; 3],
}

/// The match's last line: the pairs kept, the first engine's W-L-D and where; for a match
/// stopped early, also the pairs that finished beyond the counted ones (kept in the journal,
/// counted by a resume that reaches them) and how to continue it, in JieqiBox's option names.
pub fn end_line(stopped: bool, kept: Kept, first: &str, dir: &str) -> String {
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
pub struct JaiWatcher {
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
    /// A watcher saying its lines to `out`, of a match of `games` games, showing moves at least
    /// `delay` apart unless `stop` is raised.
    pub fn new(out: Shared, games: u64, delay: Duration, stop: Arc<AtomicBool>) -> JaiWatcher {
        JaiWatcher {
            out,
            total: AtomicU64::new(games),
            first: OnceLock::new(),
            shown: Mutex::new(None),
            wld: Mutex::new([0; 3]),
            delay,
            last_move: Mutex::new(None),
            stop,
        }
    }

    /// Notes the run as set up: its `games` (a resume may count more) and its first engine's
    /// label (W-L-D are its), before any game.
    pub fn set_up(&self, games: u64, first: &str) {
        self.total.store(games, Ordering::Relaxed);
        let _ = self.first.set(first.to_string());
    }

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

/// Answers `jai`: the runner's `id` lines, its `option` lines (`options`) and `jaiok`.
pub fn identify(out: &Shared, options: Vec<String>) {
    say(out, &format!("id name arena {}", env!("CARGO_PKG_VERSION")));
    say(out, "id author the jieqi arena");
    for option in options {
        say(out, &option);
    }
    say(out, "jaiok");
}

/// Why a command line of `bytes` bytes (`text` its start) was ignored: longer than `max`.
pub fn too_long(bytes: u64, text: &str, max: usize) -> String {
    format!(
        "info string a line of {} bytes ignored: longer than {max} bytes \
         ('{}')",
        bytes,
        echo(text)
    )
}

/// The answer to a command JAI does not have.
pub fn unknown_command(command: &str) -> String {
    format!(
        "info string unknown command '{}' (JAI commands: jai, isready, setoption, \
         startmatch, stop, quit)",
        echo(command)
    )
}

/// The answer to a `setoption` line that names no option.
pub fn not_setoption(line: &str) -> String {
    format!(
        "info string setoption: '{}' is not `setoption name NAME value VALUE`",
        echo(line)
    )
}

/// The answer to a change of option `name` during a match.
pub fn option_kept(name: &str) -> String {
    format!(
        "info string setoption refused: a match is running, so option {} keeps \
         its value (stop the match first)",
        echo(name)
    )
}

/// Says that the match of `setup` starts (or resumes): its engines, pairs, conditions and folder.
pub fn started(setup: &RunSetup, out: &Shared) {
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
}

/// Says the played match's final W-L-D of the kept pairs and the summary. Returns the lines
/// `stop` says again afterwards, the last of them (the end line: where the folder is) not yet
/// said.
pub fn played(setup: &RunSetup, outcome: &RunOutcome, out: &Shared) -> Vec<String> {
    let dir = printable(&setup.options.out.display().to_string());
    let wdl = outcome.board.pairings()[0].wdl;
    let wld = format!("info wld {}-{}-{}", wdl.wins, wdl.losses, wdl.draws);
    say(out, &wld);
    let mut summary = Vec::new();
    if let Err(e) = crate::report::write_reports(setup, outcome, &mut summary) {
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
