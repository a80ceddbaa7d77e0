//! The warning a report gives when too many games were lost to the clock: time forfeits (a move
//! past the clock) and timeouts (a move past `--move-timeout`). Such games are decided by the
//! machine — its load, the threads sharing its cores — more than by the engines, so a result
//! resting on many of them says little, and a gate's verdict on them may be wrong.
//!
//! The threshold is [`MIN_TIME_LOSSES`] games and [`MIN_SHARE`] of the games, both. One loss is
//! a hiccup any run may have (a page fault, a scheduler pause). From two on, what matters is the
//! share: each lost game can move the first engine's score by up to a whole point, so losses in
//! 0.5 % of the games can move the score by up to 0.5 % — about 3.5 Elo near an even score,
//! comparable to a gate's whole [elo0, elo1] interval (`scripts/regression.sh` tests [0, 2]
//! normalized Elo). Far below that share (say 3 losses in 10 000 games: at most 0.03 %) the
//! effect is lost in the noise. Issue 25 saw a gate at `--tc 1+0.01` on a loaded 2-core machine
//! lose 7 of 60 games (11.7 %) on time, and a quiet rerun none.

use serde::Serialize;

use crate::run::RunSetup;

/// The fewest games lost to the clock that are warned of.
pub const MIN_TIME_LOSSES: u64 = 2;

/// The smallest share of the games lost to the clock that is warned of.
pub const MIN_SHARE: f64 = 0.005;

/// Too many games lost to the clock, and what to do about it (`time_loss_warning` in
/// `summary.json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimeLossWarning {
    /// Games lost on time (`time-forfeit`).
    pub time_forfeits: u64,
    /// Games lost by a move past the move timeout (`timeout`).
    pub timeouts: u64,
    /// Games counted.
    pub games: u64,
    /// (time_forfeits + timeouts) / games.
    pub share: f64,
    /// What to do: the flags that give the engines more time or the machine less load.
    pub advice: String,
}

impl TimeLossWarning {
    /// The summary's line: `Warning: 7 of 60 games (11.7 %) were lost to the clock (7 time
    /// forfeits, 0 timeouts): …`.
    pub fn text(&self) -> String {
        format!(
            "Warning: {} of {} games ({:.1} %) were lost to the clock ({} time forfeits, {} \
             timeouts): such results depend on the machine's load as much as on the engines; {}\n",
            self.time_forfeits + self.timeouts,
            self.games,
            100.0 * self.share,
            self.time_forfeits,
            self.timeouts,
            self.advice
        )
    }
}

/// The warning for a run whose counted games lost `time_forfeits` on time and `timeouts` to the
/// move timeout, of `games`, if they reach the threshold (see the module documentation).
pub fn time_loss_warning(
    setup: &RunSetup,
    time_forfeits: u64,
    timeouts: u64,
    games: u64,
) -> Option<TimeLossWarning> {
    let lost = time_forfeits + timeouts;
    if games == 0 || lost < MIN_TIME_LOSSES || (lost as f64) < MIN_SHARE * games as f64 {
        return None;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if setup.options.threads > 1 {
        format!(
            "fewer --threads (this run used {} on {cores} {}; other work on the machine counts \
             too)",
            setup.options.threads,
            if cores == 1 { "core" } else { "cores" }
        )
    } else {
        "a machine with less other work on it".to_string()
    };
    let advice = if setup.has_clock() {
        format!(
            "give a longer --tc{}, a --timemargin (now {} ms) or {threads}",
            setup.tc.map_or(String::new(), |tc| format!(" (now {tc})")),
            setup.timemargin.as_millis()
        )
    } else {
        format!(
            "give a longer --move-timeout{}{} or {threads}",
            setup
                .move_timeout
                .map_or(String::new(), |t| format!(" (now {} ms)", t.as_millis())),
            if setup.limits.movetime.is_some() {
                ", a shorter --movetime"
            } else {
                ""
            }
        )
    };
    Some(TimeLossWarning {
        time_forfeits,
        timeouts,
        games,
        share: lost as f64 / games as f64,
        advice,
    })
}
