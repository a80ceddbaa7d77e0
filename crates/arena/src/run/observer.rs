//! What a run tells whoever watches it from outside — notes on how it starts, its progress, its
//! end — as calls on a [`RunObserver`] (fastchess's `IOutput`). The run core formats and prints
//! nothing itself: the report layer's implementation (`report::observer`) draws the bar and writes
//! the notes and progress lines.

use std::path::PathBuf;

use crate::run::progress::Snapshot;
use crate::run::scoreboard::Scoreboard;

/// Something a run notes as it starts, for the person running it: none stops the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunNote {
    /// The journal's last line was cut short (by an interruption) and its pair is played again.
    TruncatedLine {
        /// The journal.
        journal: PathBuf,
    },
    /// A resumed journal holds pairs beyond this run's `--pairs`: kept in it, never counted.
    BeyondPairs {
        /// How many.
        count: usize,
        /// This run's `--pairs`.
        pairs: u64,
        /// The journal.
        journal: PathBuf,
    },
    /// `--allow-mixed-builds`: the resumed run now mixes builds (their line).
    MixedBuilds {
        /// The builds, as one line.
        builds: String,
    },
    /// A resumed run has fewer pairs left than threads: only some threads are used.
    FewPairsLeft {
        /// Pairs left to play.
        left: u64,
        /// Threads used.
        used: usize,
        /// Threads asked for.
        threads: usize,
    },
    /// More threads than cores play time-limited games: engines share cores.
    SharedCores {
        /// Threads used.
        used: usize,
        /// Cores of the machine.
        cores: usize,
    },
    /// `--log` with no external engine: no game logs are written.
    NoGameLogs,
    /// `arena merge`: a shard's journal ends in a line cut short; its pair counts as missing.
    ShardLineCut {
        /// The shard's journal.
        journal: PathBuf,
    },
}

/// Hears a run as it goes, on the thread that runs it ([`crate::run::execute`]).
pub trait RunObserver {
    /// A note as the run starts ([`RunNote`]).
    fn note(&self, note: &RunNote);
    /// The run starts counting, with `done` pairs (jobs) already recorded by the runs it resumes.
    fn started(&self, done: u64);
    /// The counted prefix's board changed (or play starts); `status` is the stop rule's word on
    /// it ([`crate::run::StopRule::status`]), if it has one.
    fn tally(&self, board: &Scoreboard, status: Option<String>);
    /// A pair (two games) was played and journaled by this process.
    fn pair_played(&self);
    /// A progress line is due ([`crate::run::progress`]'s cadence) for this snapshot.
    fn progress(&self, snapshot: &Snapshot<'_>);
    /// Play is over (finished, stopped or interrupted); the files are written next.
    fn ended(&self);
}
