//! The engine boundary. Every Jieqi engine — baselines, searchers, external processes behind a
//! protocol adapter — implements [`Engine`]: it receives one player's [`View`] (never the hidden
//! truth), [`Limits`] and an explicit seed, and answers a [`Choice`] (a move plus [`SearchInfo`]).
//!
//! Engines are named by spec strings (`greedy:noise=0.3`), parsed here into a [`Spec`] whose
//! [`Params`] each engine reads with typed getters; [`Params::finish`] rejects keys the engine did
//! not read, so a misspelt key fails before any game runs. An engine with keys declares them
//! once as a table of [`Key`]s ([`keys`]), from which its defaults, parser and help come.
//!
//! This crate is separate from `jieqi-core` because limits, time and search info are engine
//! concepts that rules do not need, and separate from the engines so that baselines, searchers,
//! the arena and protocol adapters can share it without depending on each other.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod input;
pub mod keys;

pub use keys::{Key, KeyKind, Tune, Values};

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use jieqi_core::{ByColor, Color, Move, MoveList, View};

/// How much an engine may think about one move. `None` means "no limit of this kind"; an engine
/// with no limit at all uses its own default. Node and depth limits make play reproducible;
/// movetime and clock limits do not.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Nodes (alpha-beta) or iterations / simulations (MCTS).
    pub nodes: Option<u64>,
    /// Search depth in plies.
    pub depth: Option<u32>,
    /// Wall-clock time for this move.
    pub movetime: Option<Duration>,
    /// The game clocks, under a clock time control: the engine decides its own move time
    /// ([`Limits::budget`]).
    pub clock: Option<Clock>,
}

/// Both sides' clocks at the moment a move is asked for, as UCI's `go wtime btime winc binc
/// movestogo` states them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on each side's clock.
    pub remaining: ByColor<Duration>,
    /// What each side's clock gains after each of its moves.
    pub increment: ByColor<Duration>,
    /// Moves the side to move must still make before its clock is refilled (`None`: sudden
    /// death, with or without increment).
    pub moves_to_go: Option<u32>,
}

/// How long an engine should think about one move: it should not start new work (another
/// iteration) once `soft` has passed and must answer by `hard`. Both are measured from the
/// moment it was asked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The time it aims to use.
    pub soft: Duration,
    /// The time it must not exceed.
    pub hard: Duration,
}

/// Time kept on the clock for what happens outside the search (the protocol's round trips, the
/// harness), plus [`CLOCK_RESERVE_PERCENT`] of the time left.
pub const CLOCK_OVERHEAD: Duration = Duration::from_millis(20);

/// Share of the time left that a clock budget never touches, in per cent.
pub const CLOCK_RESERVE_PERCENT: u32 = 5;

/// Moves a sudden-death clock is spread over.
pub const CLOCK_HORIZON: u32 = 30;

impl Limits {
    /// Whether no limit is set.
    pub fn is_unlimited(&self) -> bool {
        self.nodes.is_none()
            && self.depth.is_none()
            && self.movetime.is_none()
            && self.clock.is_none()
    }

    /// The time budget of the side `side` for this move, `None` without a movetime or clock.
    ///
    /// A movetime gives `soft = hard = movetime`. A clock with `left` on it and increment `inc`
    /// gives `soft = left / moves + ¾ inc` with moves = the moves to go (at most 50) or
    /// [`CLOCK_HORIZON`] in sudden death, and `hard = 3 · soft`; both are capped at `left` less
    /// [`CLOCK_OVERHEAD`] and [`CLOCK_RESERVE_PERCENT`] % of `left`, so an engine that keeps to
    /// its budget runs out of time only when even its least work (one iteration) costs more than
    /// the clock has left. A budget of zero asks for that least work. With both, each bound is the
    /// smaller of the two.
    pub fn budget(&self, side: Color) -> Option<Budget> {
        let from_clock = self.clock.map(|c| {
            let left = c.remaining[side];
            let inc = c.increment[side];
            let moves = c.moves_to_go.map_or(CLOCK_HORIZON, |m| m.clamp(1, 50));
            let reserve = CLOCK_OVERHEAD + left * CLOCK_RESERVE_PERCENT / 100;
            let usable = left.saturating_sub(reserve);
            let soft = (left / moves + inc * 3 / 4).min(usable);
            Budget {
                soft,
                hard: (soft * 3).min(usable),
            }
        });
        match (self.movetime, from_clock) {
            (None, b) => b,
            (Some(t), None) => Some(Budget { soft: t, hard: t }),
            (Some(t), Some(b)) => Some(Budget {
                soft: b.soft.min(t),
                hard: b.hard.min(t),
            }),
        }
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime={}ms", t.as_millis()));
        }
        if self.clock.is_some() {
            parts.push("clock".to_string());
        }
        if parts.is_empty() {
            f.write_str("engine defaults")
        } else {
            f.write_str(&parts.join(","))
        }
    }
}

/// A search score from the mover's point of view.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Score {
    /// Centipawns (a pawn is 100).
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
    /// Expected game score in [0, 1] (MCTS win rate, draws counting half).
    WinRate(f64),
}

/// The win rates [`Score::win_rate_cp`] maps: 0.1 % to 99.9 %, so ±1200 centipawns at most.
const WIN_RATE_RANGE: (f64, f64) = (0.001, 0.999);

impl Score {
    /// The centipawns of an expected game score `w` (a win rate, draws counting half): the
    /// inverse of the logistic `w = 1 / (1 + 10^(−cp/400))` that the evaluation's
    /// `win_probability` and the arena's Elo use, `cp = 400 · log10(w / (1 − w))` (+400 cp ≈ 91 %,
    /// 66.7 % ≈ +121 cp), with `w` clamped to 0.1 %–99.9 % (±1200 cp) so that a certain win or loss
    /// stays finite, and NaN read as 50 %.
    pub fn win_rate_cp(w: f64) -> i32 {
        let w = if w.is_nan() {
            0.5
        } else {
            w.clamp(WIN_RATE_RANGE.0, WIN_RATE_RANGE.1)
        };
        (400.0 * (w / (1.0 - w)).log10()).round() as i32
    }

    /// Reads back the text [`Score`]'s `Display` writes (`+0.44`, `#3`, `#-2`, `66.7%`), as
    /// records keep it; `None` for any other text. A win rate comes back to the 0.1 % it was
    /// written with.
    pub fn parse(text: &str) -> Option<Score> {
        if let Some(n) = text.strip_prefix('#') {
            return n.parse().ok().map(Score::Mate);
        }
        if let Some(percent) = text.strip_suffix('%') {
            let w: f64 = percent.parse().ok()?;
            return (0.0..=100.0)
                .contains(&w)
                .then(|| Score::WinRate(w / 100.0));
        }
        let pawns: f64 = text.parse().ok()?;
        let cp = (pawns * 100.0).round();
        (pawns.is_finite() && cp.abs() <= f64::from(i32::MAX)).then_some(Score::Cp(cp as i32))
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "{:+.2}", *cp as f64 / 100.0),
            Score::Mate(n) => write!(f, "#{n}"),
            Score::WinRate(w) => write!(f, "{:.1}%", w * 100.0),
        }
    }
}

/// What an engine says about its search, where it has such things.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// Nodes, iterations or simulations spent.
    pub nodes: u64,
    /// Depth reached (plies), for engines that have one.
    pub depth: Option<u32>,
    /// Score of the chosen move.
    pub score: Option<Score>,
    /// Principal variation, starting with the chosen move (cut at a hidden-piece move).
    pub pv: Vec<Move>,
}

/// An engine's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move to play.
    pub mv: Move,
    /// Search info.
    pub info: SearchInfo,
}

/// How an engine failed to answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Failure {
    /// It reported an error (no legal move, a bad setting…).
    Error,
    /// Its process died or closed its output.
    Crash,
    /// It did not answer within the hard time limit.
    Timeout,
    /// It answered something the protocol does not allow (a malformed `bestmove`, say).
    Protocol,
}

/// An engine that could not answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    /// How it failed.
    pub failure: Failure,
    /// What happened, for people.
    pub message: String,
}

impl EngineError {
    /// An engine's own error ([`Failure::Error`]).
    pub fn new(message: impl Into<String>) -> EngineError {
        EngineError::of(Failure::Error, message)
    }

    /// A failure of the given kind.
    pub fn of(failure: Failure, message: impl Into<String>) -> EngineError {
        EngineError {
            failure,
            message: message.into(),
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EngineError {}

/// What a front end (a protocol adapter such as `jieqi-uci`) can do to a running search: stop it
/// from another thread, hear its progress, and restrict the moves it may answer (UCI's `go
/// searchmoves`). The default stops never, hears nothing and restricts nothing.
#[derive(Clone, Copy, Default)]
pub struct Control<'a> {
    stop: Option<&'a AtomicBool>,
    report: Option<&'a (dyn Fn(&SearchInfo) + Sync)>,
    searchmoves: &'a [Move],
}

impl<'a> Control<'a> {
    /// A control that ends the search once `stop` is set; the engine then answers the best move
    /// it has.
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Control<'a> {
        self.stop = Some(stop);
        self
    }

    /// A control that passes interim search info (after each completed depth, say) to `report`.
    pub fn with_report(mut self, report: &'a (dyn Fn(&SearchInfo) + Sync)) -> Control<'a> {
        self.report = Some(report);
        self
    }

    /// A control that lets the engine answer only one of `moves` (UCI's `go searchmoves`): every
    /// engine restricts its root to [`Control::root_moves`]. An empty slice restricts nothing.
    pub fn with_searchmoves(mut self, moves: &'a [Move]) -> Control<'a> {
        self.searchmoves = moves;
        self
    }

    /// The moves the front end restricted the root to (empty: no restriction).
    pub fn searchmoves(&self) -> &'a [Move] {
        self.searchmoves
    }

    /// The root moves an engine may choose among: the moves of `legal` that the front end allows
    /// ([`Control::with_searchmoves`]), in `legal`'s order; all of `legal` when there is no
    /// restriction or when none of the allowed moves is legal, so the answer is never empty
    /// while `legal` is not.
    pub fn root_moves(&self, legal: MoveList) -> MoveList {
        if self.searchmoves.is_empty() {
            return legal;
        }
        let mut allowed = MoveList::new();
        for &m in &legal {
            if self.searchmoves.contains(&m) {
                allowed.push(m);
            }
        }
        if allowed.is_empty() { legal } else { allowed }
    }

    /// Whether anyone can stop the search ([`Control::with_stop`]): without a stop flag, an
    /// engine that waits on something outside (a process) must bound the wait itself.
    pub fn can_stop(&self) -> bool {
        self.stop.is_some()
    }

    /// Whether the search has been told to stop.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Reports interim search info if anyone listens (`info` is only called then).
    pub fn report(&self, info: impl FnOnce() -> SearchInfo) {
        if let Some(r) = self.report {
            r(&info());
        }
    }
}

impl fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Control")
            .field("stopped", &self.stopped())
            .field("reports", &self.report.is_some())
            .field("searchmoves", &self.searchmoves)
            .finish()
    }
}

/// A player. The arena makes a fresh engine for every game (from a [`Factory`]) and calls
/// [`Engine::search`] once per move of its side. Object safe: the arena holds `Box<dyn Engine>`.
pub trait Engine: Send {
    /// Chooses a move for the side to move in `view` (which is this engine's player), within
    /// `limits` and until `control` says stop. All randomness must come from `seed`, so that the
    /// same view, limits and seed give the same move (unless a movetime limit or a stop cuts the
    /// search).
    ///
    /// # Errors
    /// The engine cannot answer (for example, an external process died).
    fn search(
        &mut self,
        view: &View,
        limits: &Limits,
        seed: u64,
        control: &Control<'_>,
    ) -> Result<Choice, EngineError>;

    /// Gets ready for a game under `rules` before its first move, outside any clock: an external
    /// process is started (or taken from a pool) here. The default does nothing.
    ///
    /// # Errors
    /// The engine cannot play (its process does not start, say).
    fn prepare(&mut self, _rules: &jieqi_core::Rules) -> Result<(), EngineError> {
        Ok(())
    }

    /// Tells an engine that talks to something outside the process (an external engine over a
    /// protocol) where its side channels go for the coming game; called before
    /// [`Engine::prepare`]. The default ignores them: an in-process engine has none.
    fn set_logs(&mut self, _logs: Logs) {}

    /// Whether the engine stops promptly once its [`Control`] says stop (or always answers
    /// within milliseconds). A harness runs such an engine inline and stops it by the flag at
    /// its hard time limit; an engine that says no (the default) is run on a thread of its own,
    /// so that a runaway search cannot hold the harness up.
    fn stops_on_request(&self) -> bool {
        false
    }

    /// [`Engine::search`] with nobody to stop it or listen.
    ///
    /// # Errors
    /// As [`Engine::search`].
    fn go(&mut self, view: &View, limits: &Limits, seed: u64) -> Result<Choice, EngineError> {
        self.search(view, limits, seed, &Control::default())
    }
}

/// A sink for lines of text, shared between threads.
pub type LineSink = Arc<dyn Fn(&str) + Send + Sync>;

/// Where an external engine's side channels go ([`Engine::set_logs`]). Each is a sink that may
/// be called from any thread; `None` means the lines are read and dropped.
#[derive(Clone, Default)]
pub struct Logs {
    /// The game's protocol traffic (`--log`): each line sent, prefixed `> `, and each line read,
    /// prefixed `< `.
    pub traffic: Option<LineSink>,
    /// What the engine's process prints on its error output, line by line.
    pub stderr: Option<LineSink>,
}

impl fmt::Debug for Logs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Logs")
            .field("traffic", &self.traffic.is_some())
            .field("stderr", &self.stderr.is_some())
            .finish()
    }
}

/// Makes fresh engines of one configuration. Whatever the configuration needed from outside
/// (an evaluation weights file, say) was read when the factory was made, so building an engine
/// cannot fail; the configuration is shared, not copied per engine. Cheap to clone.
#[derive(Clone)]
pub struct Factory(Arc<dyn Fn() -> Box<dyn Engine> + Send + Sync>);

impl Factory {
    /// A factory calling `make` for each engine.
    pub fn new(make: impl Fn() -> Box<dyn Engine> + Send + Sync + 'static) -> Factory {
        Factory(Arc::new(make))
    }

    /// A factory of clones of `engine` (for engines whose value is their configuration).
    pub fn of_clone<E: Engine + Clone + Sync + 'static>(engine: E) -> Factory {
        Factory::new(move || Box::new(engine.clone()))
    }

    /// A fresh engine.
    pub fn build(&self) -> Box<dyn Engine> {
        (self.0)()
    }
}

impl fmt::Debug for Factory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Factory")
    }
}

/// A parsed engine spec: `name` or `name:key=value,key=value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Engine kind (`random`, `greedy`, `level`, …).
    pub name: String,
    /// Parameters in the order written.
    pub params: Vec<(String, String)>,
}

/// A spec string that does not parse, or a parameter an engine rejects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// The spec as written.
    pub spec: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine spec '{}': {}", self.spec, self.message)
    }
}

impl std::error::Error for SpecError {}

impl Spec {
    /// Parses `name[:key=value[,key=value…]]`. A bare word after the colon (as in `level:hard`)
    /// is the parameter `level` = that word.
    ///
    /// # Errors
    /// An empty name, an empty key, or a key given twice.
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        let err = |m: String| SpecError {
            spec: text.to_string(),
            message: m,
        };
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (text.trim(), None),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(err(format!(
                "'{name}' is not an engine name (letters, digits, - and _)"
            )));
        }
        let mut params: Vec<(String, String)> = Vec::new();
        if let Some(rest) = rest {
            for item in rest.split(',') {
                let item = item.trim();
                if item.is_empty() {
                    return Err(err(
                        "an empty parameter (two commas, or a trailing one)".into()
                    ));
                }
                let (k, v) = match item.split_once('=') {
                    Some((k, v)) => (k.trim(), v.trim()),
                    None => (name, item),
                };
                if k.is_empty() {
                    return Err(err(format!("parameter '{item}' has no key")));
                }
                if params.iter().any(|(pk, _)| pk == k) {
                    return Err(err(format!("parameter '{k}' is given twice")));
                }
                params.push((k.to_string(), v.to_string()));
            }
        }
        Ok(Spec {
            name: name.to_string(),
            params,
        })
    }

    /// Reader for the parameters, for one engine's constructor.
    pub fn params(&self) -> Params<'_> {
        Params {
            spec: self,
            used: vec![false; self.params.len()],
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            f.write_str(if i == 0 { ":" } else { "," })?;
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

/// Typed access to a spec's parameters that remembers which keys were read.
pub struct Params<'a> {
    spec: &'a Spec,
    used: Vec<bool>,
}

impl<'a> Params<'a> {
    fn raw(&mut self, key: &str) -> Option<&'a str> {
        let i = self.spec.params.iter().position(|(k, _)| k == key)?;
        self.used[i] = true;
        let spec: &'a Spec = self.spec;
        Some(spec.params[i].1.as_str())
    }

    fn error(&self, message: String) -> SpecError {
        SpecError {
            spec: self.spec.to_string(),
            message,
        }
    }

    /// A parameter parsed as `T`, or `default` when absent.
    ///
    /// # Errors
    /// The value does not parse; the message names the key.
    pub fn get<T: std::str::FromStr>(&mut self, key: &str, default: T) -> Result<T, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| {
                self.error(format!(
                    "parameter '{key}': '{v}' is not a valid {}",
                    short_type::<T>()
                ))
            }),
        }
    }

    /// A float parameter that must lie in `[lo, hi]`.
    ///
    /// # Errors
    /// The value does not parse or is out of range.
    pub fn get_f64_in(
        &mut self,
        key: &str,
        default: f64,
        lo: f64,
        hi: f64,
    ) -> Result<f64, SpecError> {
        let v: f64 = self.get(key, default)?;
        if !(lo..=hi).contains(&v) {
            return Err(self.error(format!(
                "parameter '{key}' = {} is outside [{lo}, {hi}]",
                shown_f64(v)
            )));
        }
        Ok(v)
    }

    /// One of a fixed set of words.
    ///
    /// # Errors
    /// The value is not one of `choices`.
    pub fn get_choice(
        &mut self,
        key: &str,
        default: &'static str,
        choices: &[&'static str],
    ) -> Result<&'static str, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => choices.iter().copied().find(|c| *c == v).ok_or_else(|| {
                self.error(format!(
                    "parameter '{key}': '{v}' is not one of {}",
                    choices.join(", ")
                ))
            }),
        }
    }

    /// Ends parsing: any parameter not read is an error naming it and the known keys.
    ///
    /// # Errors
    /// An unknown key.
    pub fn finish(self, known: &[&str]) -> Result<(), SpecError> {
        for (i, used) in self.used.iter().enumerate() {
            if !used {
                let (key, value) = &self.spec.params[i];
                let list = if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                };
                if *key == self.spec.name {
                    // A bare word (`greedy:noise`) is read as a preset of the engine's own name.
                    return Err(self.error(format!(
                        "'{value}' has no value: write key=value (known keys: {list}); a bare \
                         word is only a preset, for engines that have them (level:hard)"
                    )));
                }
                return Err(self.error(format!(
                    "unknown parameter '{key}' for engine '{}' (known: {list})",
                    self.spec.name
                )));
            }
        }
        Ok(())
    }
}

/// A number as an error shows it: a huge or tiny value as 1e308, not as 309 digits.
fn shown_f64(v: f64) -> String {
    if v.is_finite() && v != 0.0 && !(1e-4..1e9).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

fn short_type<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    match full {
        "f64" | "f32" => "number",
        "u64" | "u32" | "usize" | "i32" | "i64" => "integer",
        "bool" => "boolean (true/false)",
        _ => full.rsplit("::").next().unwrap_or(full),
    }
}

/// Mixes a seed with a counter into a new, well-spread seed (splitmix64 finaliser over
/// `seed + (counter + 1) × golden ratio`). Counter-based: `mix(s, i)` never depends on any other
/// `mix` call, so work can be split in any order.
pub const fn mix(seed: u64, counter: u64) -> u64 {
    let mut z = seed.wrapping_add(counter.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_back_what_they_print() {
        for score in [
            Score::Cp(44),
            Score::Cp(-191),
            Score::Cp(0),
            Score::Mate(3),
            Score::Mate(-2),
        ] {
            assert_eq!(Score::parse(&score.to_string()), Some(score));
        }
        assert_eq!(Score::WinRate(2.0 / 3.0).to_string(), "66.7%");
        assert_eq!(Score::parse("66.7%"), Some(Score::WinRate(0.667)));
        for bad in [
            "", "#", "#x", "66.7 %", "x%", "101%", "-1%", "inf", "NaN", "1e300", "+",
        ] {
            assert_eq!(Score::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn win_rates_map_to_centipawns_on_the_elo_logistic() {
        assert_eq!(Score::win_rate_cp(0.5), 0);
        // 400 · log10(0.667 / 0.333) = 120.7; 10^(400/400) = 10 to 1 is 90.9 %.
        assert_eq!(Score::win_rate_cp(0.667), 121);
        assert_eq!(Score::win_rate_cp(0.333), -121);
        assert_eq!(Score::win_rate_cp(10.0 / 11.0), 400);
        // Certain results stay finite: clamped to 0.1 % and 99.9 %.
        assert_eq!(Score::win_rate_cp(1.0), 1200);
        assert_eq!(Score::win_rate_cp(0.0), -1200);
        assert_eq!(Score::win_rate_cp(f64::NAN), 0);
    }

    #[test]
    fn specs_parse_and_print() {
        let s = Spec::parse("greedy:noise=0.3").unwrap();
        assert_eq!(s.name, "greedy");
        assert_eq!(s.params, vec![("noise".into(), "0.3".into())]);
        assert_eq!(s.to_string(), "greedy:noise=0.3");
        assert_eq!(Spec::parse("random").unwrap().params, vec![]);
        assert_eq!(
            Spec::parse("level:hard").unwrap().params,
            vec![("level".into(), "hard".into())]
        );
        assert!(Spec::parse("").is_err());
        assert!(Spec::parse("greedy:noise=1,noise=2").is_err());
        assert!(Spec::parse("greedy:noise=1,").is_err());
        assert!(Spec::parse("gr eedy").is_err());
    }

    #[test]
    fn unknown_and_malformed_parameters_are_named() {
        let s = Spec::parse("greedy:noise=abc").unwrap();
        let e = s.params().get::<f64>("noise", 0.0).unwrap_err();
        assert!(e.to_string().contains("'noise'"), "{e}");
        let s = Spec::parse("greedy:nosie=0.1").unwrap();
        let mut p = s.params();
        assert_eq!(p.get::<f64>("noise", 0.5).unwrap(), 0.5);
        let e = p.finish(&["noise"]).unwrap_err();
        assert!(e.to_string().contains("unknown parameter 'nosie'"), "{e}");
        let s = Spec::parse("greedy:noise=2").unwrap();
        assert!(s.params().get_f64_in("noise", 0.0, 0.0, 1.0).is_err());
        // An absurd value is shown short, not as 309 digits.
        let s = Spec::parse("greedy:noise=1e308").unwrap();
        let e = s.params().get_f64_in("noise", 0.0, 0.0, 1.0).unwrap_err();
        assert!(e.to_string().contains("= 1e308 is outside"), "{e}");
        // A bare word where key=value was meant names the word, not the engine.
        let s = Spec::parse("greedy:noise").unwrap();
        let mut p = s.params();
        assert_eq!(p.get::<f64>("noise", 0.0).unwrap(), 0.0);
        let e = p.finish(&["noise"]).unwrap_err().to_string();
        assert!(
            e.contains("'noise' has no value") && !e.contains("parameter 'greedy'"),
            "{e}"
        );
    }

    #[test]
    fn budgets_from_movetime_and_clock() {
        let ms = Duration::from_millis;
        assert_eq!(Limits::default().budget(Color::Red), None);
        let fixed = Limits {
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        assert_eq!(
            fixed.budget(Color::Black),
            Some(Budget {
                soft: ms(100),
                hard: ms(100)
            })
        );
        // 10+0.1: 10 s / 30 + 75 ms, three times that at most.
        let clock = Clock {
            remaining: ByColor {
                red: ms(10_000),
                black: ms(1_000),
            },
            increment: ByColor {
                red: ms(100),
                black: ms(100),
            },
            moves_to_go: None,
        };
        let tc = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        let b = tc.budget(Color::Red).unwrap();
        assert_eq!(b.soft, ms(333) + ms(75) + Duration::from_nanos(333_333));
        assert_eq!(b.hard, b.soft * 3);
        // The last move before a refill may use the clock, less the reserve, never all of it.
        let last = Limits {
            clock: Some(Clock {
                moves_to_go: Some(1),
                ..clock
            }),
            ..Limits::default()
        };
        let b = last.budget(Color::Black).unwrap();
        assert_eq!(b.hard, ms(1_000 - 20 - 50));
        assert_eq!(b.soft, b.hard);
        // Nothing left: the least work.
        let empty = Limits {
            clock: Some(Clock::default()),
            ..Limits::default()
        };
        assert_eq!(empty.budget(Color::Red).unwrap().hard, Duration::ZERO);
        // A movetime below the clock's budget wins.
        let both = Limits {
            movetime: Some(ms(50)),
            ..tc
        };
        assert_eq!(both.budget(Color::Red).unwrap().hard, ms(50));
    }

    #[test]
    fn mix_is_counter_based_and_spreads() {
        assert_eq!(mix(42, 7), mix(42, 7));
        assert_ne!(mix(42, 7), mix(42, 8));
        assert_ne!(mix(42, 7), mix(43, 7));
        // Pinned: recorded seeds depend on it.
        assert_eq!(mix(0, 0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn searchmoves_restrict_the_root_but_never_empty_it() {
        let m = |t: &str| Move::from_text(t).unwrap();
        let mut legal = MoveList::new();
        for t in ["a0a1", "b0c2", "h2e2"] {
            legal.push(m(t));
        }
        let none = Control::default();
        assert_eq!(none.root_moves(legal.clone()).as_slice(), legal.as_slice());
        let wanted = [m("h2e2"), m("a0a1"), m("e9e8")];
        let some = Control::default().with_searchmoves(&wanted);
        assert_eq!(
            some.root_moves(legal.clone()).as_slice(),
            &[m("a0a1"), m("h2e2")]
        );
        // Only moves that are not legal: the whole root.
        let illegal = [m("e9e8")];
        let all = Control::default().with_searchmoves(&illegal);
        assert_eq!(all.root_moves(legal.clone()).as_slice(), legal.as_slice());
    }
}
