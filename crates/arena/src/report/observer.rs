//! The terminal's view of a run ([`Terminal`], the [`RunObserver`] every game-playing command
//! gives the run core): the indicatif bar, whose template and message depend on the run's kind, the
//! run's notes and its progress lines ([`crate::report::progress_line`]) on stderr.

use std::cell::OnceCell;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::run::RunSetup;
use crate::run::observer::{RunNote, RunObserver};
use crate::run::progress::Snapshot;
use crate::run::scoreboard::Scoreboard;

/// A run on the terminal: notes and progress lines on stderr, and a bar where the setup asks for
/// one (`setup.options.progress`, stderr a terminal).
pub struct Terminal<'a> {
    setup: &'a RunSetup,
    /// The bar, made when the run starts counting.
    bar: OnceCell<ProgressBar>,
}

impl<'a> Terminal<'a> {
    /// The terminal's view of the run `setup`.
    pub fn new(setup: &'a RunSetup) -> Terminal<'a> {
        Terminal {
            setup,
            bar: OnceCell::new(),
        }
    }

    /// The bar (a hidden one before the run starts).
    fn bar(&self) -> &ProgressBar {
        self.bar.get_or_init(ProgressBar::hidden)
    }
}

impl RunObserver for Terminal<'_> {
    fn note(&self, note: &RunNote) {
        eprintln!("{}", note_text(note));
    }

    fn started(&self, done: u64) {
        let _ = self.bar.set(progress_bar(self.setup, done));
    }

    fn tally(&self, board: &Scoreboard, status: Option<String>) {
        self.bar().set_message(live_message(board, status));
    }

    fn pair_played(&self) {
        self.bar().inc(2);
    }

    fn progress(&self, snapshot: &Snapshot<'_>) {
        // A line goes above the bar where there is one (indicatif's `println`), else to stderr.
        let text = crate::report::progress_line(self.setup, snapshot);
        let bar = self.bar();
        if bar.is_hidden() {
            eprintln!("{text}");
        } else {
            bar.println(text);
        }
    }

    fn ended(&self) {
        self.bar().finish_and_clear();
    }
}

/// A run's note as the terminal says it.
pub fn note_text(note: &RunNote) -> String {
    match note {
        RunNote::TruncatedLine { journal } => format!(
            "note: the last line of {} was cut short and is replayed",
            journal.display()
        ),
        RunNote::ShardLineCut { journal } => format!(
            "note: the last line of {} was cut short; that pair counts as missing",
            journal.display()
        ),
        RunNote::BeyondPairs {
            count,
            pairs,
            journal,
        } => format!(
            "note: {count} recorded pairs lie beyond --pairs {pairs}: they stay in {} but are not \
             counted",
            journal.display()
        ),
        RunNote::MixedBuilds { builds } => {
            format!("note: --allow-mixed-builds: this run now mixes builds: {builds}")
        }
        RunNote::FewPairsLeft {
            left,
            used,
            threads,
        } => format!(
            "note: {left} {} left to play: {used} of the {threads} threads used",
            if *left == 1 { "pair" } else { "pairs" },
        ),
        RunNote::SharedCores { used, cores } => format!(
            "note: {used} threads on {cores} {}: engines share cores, so these \
             time-limited games are played weaker than they would be alone",
            if *cores == 1 { "core" } else { "cores" }
        ),
        RunNote::NoGameLogs => "note: --log keeps the UCI traffic of external engines, and this \
                                run has none: no game logs are written"
            .to_string(),
    }
}

/// The bar of a run on a terminal (hidden without `setup.options.progress`), at `done_pairs` pairs.
fn progress_bar(setup: &RunSetup, done_pairs: u64) -> ProgressBar {
    if !setup.options.progress {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(setup.jobs().saturating_mul(2));
    // A gate stops when its test decides, long before its cap as a rule: no bar to the cap, no
    // ETA; its message shows the LLR against its bounds.
    let template = if setup.kind.is_gate() {
        "{spinner} {pos} games  {msg}  [{elapsed_precise}]"
    } else {
        "{bar:32.cyan/blue} {pos}/{len} games  {msg}  [{elapsed_precise} < {eta_precise}]"
    };
    bar.set_style(
        ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_position(done_pairs * 2);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// The bar's message: the counted prefix's W/D/L and Elo and the stop rule's status, or a
/// tournament's pairings and failures.
fn live_message(board: &Scoreboard, status: Option<String>) -> String {
    if board.pairings().len() > 1 {
        // A tournament: one pairing's Elo would say little; the failures say what matters.
        let failures: u64 = board
            .pairings()
            .iter()
            .map(|p| p.failures.iter().sum::<u64>())
            .sum();
        return format!(
            "{} pairings, {}",
            board.pairings().len(),
            crate::util::text::counted(failures, "engine failure")
        );
    }
    let p = &board.pairings()[0];
    let e = crate::stats::pentanomial(&p.ptnml);
    let mut s = format!(
        "W {} D {} L {}  Elo {} ± {}",
        p.wdl.wins,
        p.wdl.draws,
        p.wdl.losses,
        fmt_elo(e.elo),
        match e.no_interval {
            None => fmt_elo(e.elo_error),
            Some(_) => "n/a".to_string(),
        }
    );
    if let Some(status) = status {
        s.push_str("  ");
        s.push_str(&status);
    }
    s
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}
