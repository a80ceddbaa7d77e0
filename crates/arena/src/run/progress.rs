//! Progress lines: when a run says how far it has come in one line on stderr, for logs that no
//! progress bar reaches (CI, cron, cluster shards). The core decides when ([`Cadence`],
//! [`Timer`]) and hands a [`Snapshot`] of the counted prefix to its
//! [`RunObserver`](crate::run::observer::RunObserver), which the report layer implements
//! (`report::progress_line` formats the line), so the core formats no report.
//!
//! A line is due each time a job joins the counted prefix and the cadence says so: every N
//! counted pairs (`--report-every N`, the same lines at any thread count), or, by default when
//! stderr is no terminal, at the first pair that joins [`DEFAULT_INTERVAL`] or more after the
//! last line (or the start of play).

use std::time::{Duration, Instant};

use crate::run::scoreboard::Scoreboard;

/// How often a run without `--report-every` prints a line when stderr is no terminal.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(60);

/// When a run prints progress lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cadence {
    /// Never (`--report-every 0`, or a terminal with its progress bar and no `--report-every`).
    Never,
    /// Each time the counted pairs reach a multiple of this many (`--report-every N`).
    EveryPairs(u64),
    /// At the first counted pair at least this long after the last line.
    Every(Duration),
}

impl Cadence {
    /// The cadence of `--report-every` (`given`) on a stderr that is a terminal or not: `N`
    /// pairs (0: never) if given; else a line every [`DEFAULT_INTERVAL`] when stderr is no
    /// terminal, and none on a terminal (its progress bar says it all).
    pub fn of(given: Option<u64>, terminal: bool) -> Cadence {
        match given {
            Some(0) => Cadence::Never,
            Some(n) => Cadence::EveryPairs(n),
            None if terminal => Cadence::Never,
            None => Cadence::Every(DEFAULT_INTERVAL),
        }
    }
}

/// Where a run stands when a line is due: the counted prefix's board.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot<'a> {
    /// The counted pairs' tally.
    pub board: &'a Scoreboard,
    /// Pairs (jobs) counted so far.
    pub pairs: u64,
    /// Pairs this process plays in all (for a gate, its cap).
    pub planned: u64,
    /// Time since this process started playing.
    pub elapsed: Duration,
}

/// Decides when a line is due, on a clock passed in (so it can be tested without waiting).
#[derive(Clone, Debug)]
pub struct Timer {
    cadence: Cadence,
    last: Instant,
}

impl Timer {
    /// A timer whose first interval starts at `start`.
    pub fn new(cadence: Cadence, start: Instant) -> Timer {
        Timer {
            cadence,
            last: start,
        }
    }

    /// Whether a line is due now that `pairs` pairs are counted at time `now` (and if so, the
    /// next interval starts at `now`).
    pub fn due(&mut self, pairs: u64, now: Instant) -> bool {
        let due = match self.cadence {
            Cadence::Never => false,
            Cadence::EveryPairs(n) => n > 0 && pairs % n == 0,
            Cadence::Every(d) => now.saturating_duration_since(self.last) >= d,
        };
        if due {
            self.last = now;
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cadence_of_the_flag_and_the_terminal() {
        assert_eq!(Cadence::of(Some(0), false), Cadence::Never);
        assert_eq!(Cadence::of(Some(0), true), Cadence::Never);
        assert_eq!(Cadence::of(Some(5), true), Cadence::EveryPairs(5));
        assert_eq!(Cadence::of(Some(5), false), Cadence::EveryPairs(5));
        assert_eq!(Cadence::of(None, true), Cadence::Never);
        assert_eq!(
            Cadence::of(None, false),
            Cadence::Every(Duration::from_secs(60))
        );
    }

    #[test]
    fn every_n_pairs_is_due_at_multiples_only() {
        let t0 = Instant::now();
        let mut t = Timer::new(Cadence::EveryPairs(3), t0);
        let due: Vec<u64> = (1..=10).filter(|&p| t.due(p, t0)).collect();
        assert_eq!(due, [3, 6, 9]);
        let mut never = Timer::new(Cadence::Never, t0);
        assert!((1..=10).all(|p| !never.due(p, t0 + Duration::from_secs(3600))));
    }

    /// A fake clock: pairs joining at 0, 20, …, 200 s with a 60 s interval give lines at the
    /// first pair 60 s or more after the last line: 60, 120, 180 s.
    #[test]
    fn timed_lines_come_at_the_first_pair_past_each_interval() {
        let t0 = Instant::now();
        let mut t = Timer::new(Cadence::Every(Duration::from_secs(60)), t0);
        let due: Vec<u64> = (0..=10u64)
            .filter(|&k| t.due(k, t0 + Duration::from_secs(20 * k)))
            .map(|k| 20 * k)
            .collect();
        assert_eq!(due, [60, 120, 180]);
        // A slow pair: the interval restarts at the line, not at a multiple of 60 s.
        let mut t = Timer::new(Cadence::Every(Duration::from_secs(60)), t0);
        assert!(!t.due(1, t0 + Duration::from_secs(59)));
        assert!(t.due(2, t0 + Duration::from_secs(95)));
        assert!(!t.due(3, t0 + Duration::from_secs(150)));
        assert!(t.due(4, t0 + Duration::from_secs(155)));
    }
}
