//! `arena jai`'s plan: the match settings ([`JaiSettings`]), each one a JAI option that
//! `setoption` changes and a command-line flag, checked when set and turned into an ordinary
//! two-engine run ([`JaiSettings::setup`]) when the match starts. Each match gets a folder of its
//! own under `OutDir` ([`match_parent`]), or continues the last one there with `Resume`
//! ([`resume_target`]). A `setoption` line is answered by [`setoption`], a match made ready to
//! play by [`prepare`]; what is refused is a [`Refusal`], the sentence JieqiBox is told.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::cli::common::{LimitArgs, RulesArgs};
use crate::cli::jai::{DEFAULT_DISPLAY_DELAY, JaiArgs, MAX_DISPLAY_DELAY};
use crate::cli::run::{GameArgs, RunArgs};
use crate::error::Error;
use crate::plan::run::{MAX_PAIRS, MAX_THREADS, two_engine_setup};
use crate::report::jai;
use crate::run::RunSetup;
use crate::util::text::echo;

/// The engines when none are given.
pub const DEFAULT_ENGINES: [&str; 2] = ["alphabeta", "ismcts"];

/// The largest node limit the options offer.
const MAX_NODES: u64 = 1_000_000_000;
/// The deepest depth limit the options offer.
const MAX_DEPTH: u64 = 100;
/// The longest movetime the options offer: an hour.
const MAX_MOVETIME: u64 = 3_600_000;
/// The folder, under the runner's working directory, that holds the matches when `OutDir` is
/// empty.
pub const DEFAULT_PARENT: &str = "results";
/// The largest seed JieqiBox's dialog can hold exactly (2^53 − 1, a JavaScript number); the
/// command line takes any.
const MAX_DIALOG_SEED: u64 = (1 << 53) - 1;

/// A match's settings, as the command line gave them and `setoption` changed them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JaiSettings {
    /// Engine specs, first and second.
    pub engines: [String; 2],
    /// Pairs.
    pub pairs: u64,
    /// Nodes per move, 0: none.
    pub nodes: u64,
    /// Depth per move, 0: none.
    pub depth: u64,
    /// Milliseconds per move, 0: none.
    pub movetime: u64,
    /// Clock, empty: none.
    pub tc: String,
    /// Rule set.
    pub rules: String,
    /// Master seed.
    pub seed: u64,
    /// Worker threads.
    pub threads: u64,
    /// The folder under which each match gets a folder of its own (or, with `resume`, the
    /// match to continue); empty: `results/` in the working directory.
    pub out: String,
    /// Continue the last match under `out` (or the match `out` names) instead of a new one.
    pub resume: bool,
    /// Milliseconds at least between two moves shown, 0: as they are played.
    pub display_delay: u64,
    /// The options whose last `setoption` was refused, with the refusal: the match will not
    /// start until each is set to a value that is taken (the value before is not played in its
    /// place).
    pub refused: BTreeMap<&'static str, String>,
}

/// The kind of a JAI option, as declared (`type spin`, `type string`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A whole number from `min` to `max`.
    Spin { min: u64, max: u64 },
    /// Text.
    Text,
    /// `true` or `false`.
    Check,
}

/// Every option: its name, kind and the command-line flag it mirrors.
const OPTIONS: [(&str, Kind, &str); 13] = [
    ("Engine1", Kind::Text, "--engine"),
    ("Engine2", Kind::Text, "--engine"),
    (
        "TotalRounds",
        Kind::Spin {
            min: 1,
            max: MAX_PAIRS,
        },
        "--pairs",
    ),
    (
        "Concurrency",
        Kind::Spin {
            min: 1,
            max: MAX_THREADS as u64,
        },
        "--threads",
    ),
    (
        "Nodes",
        Kind::Spin {
            min: 0,
            max: MAX_NODES,
        },
        "--nodes",
    ),
    (
        "Depth",
        Kind::Spin {
            min: 0,
            max: MAX_DEPTH,
        },
        "--depth",
    ),
    (
        "MoveTimeMs",
        Kind::Spin {
            min: 0,
            max: MAX_MOVETIME,
        },
        "--movetime",
    ),
    ("TimeControl", Kind::Text, "--tc"),
    ("Rules", Kind::Text, "--rules"),
    (
        "Seed",
        Kind::Spin {
            min: 0,
            max: MAX_DIALOG_SEED,
        },
        "--seed",
    ),
    ("OutDir", Kind::Text, "--out"),
    ("Resume", Kind::Check, "--resume"),
    (
        "DisplayDelayMs",
        Kind::Spin {
            min: 0,
            max: MAX_DISPLAY_DELAY,
        },
        "--display-delay",
    ),
];

impl JaiSettings {
    /// The settings of the command line, checked as `setoption` would check them (the engines
    /// also started, and `--rules` read, so that a bad one ends the runner at once).
    ///
    /// # Errors
    /// More than two engines, a value out of range (naming the flag), or `--rules` neither a
    /// preset nor a small regular file holding a rule set.
    pub fn from_args(args: JaiArgs) -> Result<JaiSettings, Error> {
        if args.engines.len() > 2 {
            return Err(Error::arg(
                "--engine",
                format!(
                    "give at most two engines (got {}); the rest are the defaults {} and {}",
                    args.engines.len(),
                    DEFAULT_ENGINES[0],
                    DEFAULT_ENGINES[1]
                ),
            ));
        }
        let mut settings = JaiSettings {
            engines: DEFAULT_ENGINES.map(String::from),
            pairs: args.pairs,
            nodes: args.nodes,
            depth: u64::from(args.depth),
            movetime: args.movetime,
            tc: args.tc,
            rules: args.rules,
            seed: args.seed,
            threads: args.threads as u64,
            out: args.out,
            resume: args.resume,
            display_delay: args.display_delay,
            refused: BTreeMap::new(),
        };
        for (slot, spec) in args.engines.into_iter().enumerate() {
            settings.engines[slot] = spec;
        }
        for (name, kind, flag) in OPTIONS {
            if let Kind::Spin { min, max } = kind {
                let v = settings.number(name);
                // The seed's range is the dialog's; the command line takes any seed.
                if name != "Seed" && !(min..=max).contains(&v) {
                    return Err(Error::arg(flag, format!("{v} is not from {min} to {max}")));
                }
            }
        }
        crate::plan::rules_arg::resolve(&settings.rules)?;
        for (slot, spec) in settings.engines.iter().enumerate() {
            crate::plan::engine("--engine", spec).map_err(|e| match e {
                Error::Arg { message, .. } => Error::arg(
                    "--engine",
                    format!(
                        "engine {} '{}': {message}",
                        slot + 1,
                        crate::util::text::echo(spec)
                    ),
                ),
                other => other,
            })?;
        }
        Ok(settings)
    }

    /// The `option name …` lines that declare every setting with its current value as default,
    /// in JieqiBox's syntax (`type spin default N min A max B`, `type string default TEXT`; an
    /// empty text is a bare `default`, which JieqiBox reads as empty).
    pub fn declarations(&self) -> Vec<String> {
        OPTIONS
            .iter()
            .map(|&(name, kind, _)| match kind {
                Kind::Spin { min, max } => format!(
                    "option name {name} type spin default {} min {min} max {max}",
                    self.number(name)
                ),
                Kind::Text => {
                    let v = self.text(name);
                    if v.is_empty() {
                        format!("option name {name} type string default")
                    } else {
                        format!("option name {name} type string default {v}")
                    }
                }
                Kind::Check => format!("option name {name} type check default {}", self.resume),
            })
            .collect()
    }

    fn number(&self, name: &str) -> u64 {
        match name {
            "TotalRounds" => self.pairs,
            "Concurrency" => self.threads,
            "Nodes" => self.nodes,
            "Depth" => self.depth,
            "MoveTimeMs" => self.movetime,
            "DisplayDelayMs" => self.display_delay,
            _ => self.seed,
        }
    }

    fn text(&self, name: &str) -> &str {
        match name {
            "Engine1" => &self.engines[0],
            "Engine2" => &self.engines[1],
            "TimeControl" => &self.tc,
            "Rules" => &self.rules,
            _ => &self.out,
        }
    }

    /// Sets option `name` (as JieqiBox sends it: names match case-insensitively; `<empty>` or
    /// nothing is empty text) to `value`, checked: a number in its range, an engine spec the
    /// arena reads (an external engine is not started here: it is, when the match starts),
    /// rules that resolve, a clock that reads. The other settings are only checked together, when
    /// the match starts.
    ///
    /// # Errors
    /// An unknown option or a bad value, in a sentence that names the option and quotes the
    /// value safely ([`crate::util::text::echo`]).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), Refusal> {
        let Some(&(name, _, _)) = OPTIONS
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
        else {
            return self.set_value(name, value);
        };
        let set = self.set_value(name, value);
        match &set {
            Ok(()) => self.refused.remove(name),
            Err(e) => self.refused.insert(name, e.to_string()),
        };
        set
    }

    /// Whether `value` is what option `name` holds now (read as [`JaiSettings::set`] reads it):
    /// JieqiBox sends every option again when its dialog opens, also during a match.
    pub fn holds(&self, name: &str, value: &str) -> bool {
        let Some(&(name, kind, _)) = OPTIONS
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
        else {
            return false;
        };
        let value = value.trim();
        match kind {
            Kind::Spin { .. } => value.parse::<u64>().ok() == Some(self.number(name)),
            Kind::Check => value.parse::<bool>().ok() == Some(self.resume),
            Kind::Text => {
                let value = if value == "<empty>" { "" } else { value };
                value == self.text(name)
            }
        }
    }

    /// Why the match cannot start while some options hold a refused value: each such option, its
    /// value and why it was refused, in one sentence; `None` when every option was taken.
    pub fn refusals(&self) -> Option<String> {
        if self.refused.is_empty() {
            return None;
        }
        let each: Vec<&str> = self.refused.values().map(String::as_str).collect();
        Some(format!(
            "{} (set a value that is taken first: the one before is not played in its place)",
            each.join("; ")
        ))
    }

    /// Whether `name` is an option (matched case-insensitively).
    ///
    /// # Errors
    /// It is none: the message quotes it and lists the options.
    pub fn known(name: &str) -> Result<(), Refusal> {
        if OPTIONS.iter().any(|(n, _, _)| n.eq_ignore_ascii_case(name)) {
            return Ok(());
        }
        Err(Refusal(format!(
            "no option '{}' (options: {})",
            echo(name),
            OPTIONS.map(|(n, _, _)| n).join(", ")
        )))
    }

    fn set_value(&mut self, name: &str, value: &str) -> Result<(), Refusal> {
        JaiSettings::known(name)?;
        let Some(&(name, kind, _)) = OPTIONS
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
        else {
            return Ok(());
        };
        let value = value.trim();
        let value = if value == "<empty>" { "" } else { value };
        match kind {
            Kind::Spin { min, max } => {
                let n = value
                    .parse::<u64>()
                    .ok()
                    // A seed above the dialog's range only as the command line gave it (the
                    // dialog sends its value again).
                    .filter(|n| (min..=max).contains(n) || (name == "Seed" && *n == self.seed))
                    .ok_or_else(|| {
                        format!(
                            "option {name}: '{}' is not a whole number from {min} to {max}",
                            echo(value)
                        )
                    })?;
                match name {
                    "TotalRounds" => self.pairs = n,
                    "Concurrency" => self.threads = n,
                    "Nodes" => self.nodes = n,
                    "Depth" => self.depth = n,
                    "MoveTimeMs" => self.movetime = n,
                    "DisplayDelayMs" => self.display_delay = n,
                    _ => self.seed = n,
                }
            }
            Kind::Check => {
                self.resume = value.to_ascii_lowercase().parse().map_err(|_| {
                    format!("option {name}: '{}' is not true or false", echo(value))
                })?;
            }
            Kind::Text => {
                match name {
                    "Engine1" | "Engine2" => {
                        if value.is_empty() {
                            return Err(Refusal(format!(
                                "option {name}: an engine spec is needed"
                            )));
                        }
                        crate::engines::entry_unprobed(value)
                            // The reader's words quote the spec again: cut as well.
                            .map_err(|e| {
                                format!(
                                    "option {name}: '{}': {}",
                                    echo(value),
                                    echo(&e.to_string())
                                )
                            })?;
                    }
                    "Rules" => {
                        crate::plan::rules_arg::resolve(value)
                            .map_err(|e| rules_refusal(value, &e))?;
                    }
                    "TimeControl" if !value.is_empty() => {
                        crate::engines::time_control::TimeControl::parse(value)
                            .map_err(|e| format!("option TimeControl: '{}': {e}", echo(value)))?;
                    }
                    // As `--out` reads it (empty is the default folder here).
                    "OutDir" if !value.is_empty() => {
                        crate::cli::common::out_path(value)
                            .map_err(|e| format!("option OutDir: {e}"))?;
                    }
                    _ => {}
                }
                let v = value.to_string();
                match name {
                    "Engine1" => self.engines[0] = v,
                    "Engine2" => self.engines[1] = v,
                    "TimeControl" => self.tc = v,
                    "Rules" => self.rules = v,
                    _ => self.out = v,
                }
            }
        }
        Ok(())
    }

    /// The run these settings describe. A new match is an ordinary two-engine run (`arena match`
    /// with the same flags) in the folder `<OutDir>/<UTC timestamp>-<A>-vs-<B>` (see
    /// [`match_parent`]; the folder is claimed, and made unique, when the match starts:
    /// [`crate::records::files::create_unique_dir`]). With `Resume`, it is the match
    /// [`resume_target`] finds, as its record describes it, with `TotalRounds` pairs in all and
    /// `Concurrency` threads. Without progress output. Its errors name the JAI option.
    ///
    /// # Errors
    /// The settings do not make a run (two engines with one label, a bad clock, rules an
    /// external engine cannot be told…), OutDir is a match's own folder and `Resume` is off, or
    /// `Resume` finds no match to continue.
    pub fn setup(&self, cwd: &Path) -> Result<RunSetup, Refusal> {
        let parent = match_parent(&self.out, cwd);
        if self.resume {
            return self.resumed(&parent);
        }
        if let Some(record) = crate::records::files::RUN_RECORDS
            .iter()
            .find(|r| parent.join(r).is_file())
        {
            return Err(Refusal(format!(
                "option OutDir: {} is a match's folder (it holds {record}), not a folder of \
                 matches: turn Resume on to continue that match, or set OutDir to the folder \
                 that holds it to start a new one",
                crate::util::text::printable(&parent.display().to_string())
            )));
        }
        let run = RunArgs {
            seed: self.seed,
            threads: Some(self.threads as usize),
            game: GameArgs {
                rules: RulesArgs {
                    rules: self.rules.clone(),
                },
                max_plies: 400,
                // JieqiBox shows every game from the rules' start.
                openings: vec!["none".into()],
                resign: Vec::new(),
                draw: Vec::new(),
                limits: LimitArgs {
                    nodes: (self.nodes > 0).then_some(self.nodes),
                    depth: (self.depth > 0).then_some(self.depth as u32),
                    movetime: (self.movetime > 0).then_some(self.movetime),
                },
                tc: (!self.tc.is_empty()).then(|| self.tc.clone()),
                timemargin: 0,
                move_timeout: None,
            },
            out: None,
            resume: false,
            allow_mixed_builds: false,
            no_progress: true,
            report_every: Some(0),
            log: false,
            log_limit: None,
            shard: None,
            check: false,
        };
        self.check_labels()?;
        let mut setup =
            two_engine_setup(&self.engines, run, self.pairs, "--pairs").map_err(|e| match e {
                Error::Arg { flag, message } => {
                    let option = OPTIONS
                        .iter()
                        .find(|(_, _, f)| *f == flag)
                        .map_or("", |(n, _, _)| *n);
                    let option = match option {
                        "Engine1" => "Engine1/Engine2",
                        o => o,
                    };
                    format!("option {option}: {message}")
                }
                other => other.to_string(),
            })?;
        // The default folder's name (its start time and engines), under OutDir.
        let name = setup
            .options
            .out
            .file_name()
            .map_or_else(|| "match".into(), |n| n.to_os_string());
        setup.options.out = parent.join(name);
        setup.options.command = format!("arena jai {}", self.command_line());
        Ok(setup)
    }

    /// Both engines' labels differ (they name the engines in every report), said in option
    /// names; read without starting an engine (a spec that does not read is refused later).
    fn check_labels(&self) -> Result<(), Refusal> {
        let [Ok(a), Ok(b)] = self
            .engines
            .each_ref()
            .map(|e| crate::engines::entry_unprobed(e))
        else {
            return Ok(());
        };
        if a.label != b.label {
            return Ok(());
        }
        let hint = if b.spec.params.iter().any(|(k, _)| k == "name") {
            "give them different name= labels".to_string()
        } else {
            format!(
                "give one a name, e.g. Engine2 {}{}name={}-2",
                b.spec,
                if b.spec.params.is_empty() { ":" } else { "," },
                b.spec.name
            )
        };
        Err(Refusal(format!(
            "options Engine1 and Engine2: both engines are labelled '{}': labels name engines in \
             every report, so they must differ; {hint}",
            echo(&b.label)
        )))
    }

    /// The match `Resume` continues, as its folder recorded it, to `TotalRounds` pairs (or the
    /// pairs its journal keeps, when more) on `Concurrency` threads.
    fn resumed(&self, parent: &Path) -> Result<RunSetup, Refusal> {
        let dir = resume_target(parent)?;
        let (_, record, mut setup) =
            crate::run::folder::recorded_run(&dir).map_err(|e| format!("option Resume: {e}"))?;
        if record.command_name() != "match" || setup.pairings.len() != 1 {
            return Err(Refusal(format!(
                "option Resume: {} holds an `arena {}` run, not a match",
                dir.display(),
                record.command_name()
            )));
        }
        // A resume never counts fewer pairs than the folder keeps: JieqiBox sends TotalRounds
        // again on every load, so a smaller one is no request to shrink the match (`arena
        // match --resume --pairs N` below the kept pairs leaves them uncounted: there it is
        // asked for).
        let kept = crate::records::journal::kept_pairs(&dir.join("games.jsonl"));
        setup.spec.pairs = self.pairs.max(kept);
        setup.options.threads = (self.threads as usize).max(1);
        setup.options.resume = true;
        setup.options.command = record.command;
        Ok(setup)
    }
    /// The flags that give these settings on the command line (what a JieqiBox engine entry can
    /// carry as its arguments).
    pub fn command_line(&self) -> String {
        let mut s = format!(
            "--engine {} --engine {} --pairs {} --threads {} --nodes {} --depth {} --movetime {} \
             --rules {} --seed {}",
            self.engines[0],
            self.engines[1],
            self.pairs,
            self.threads,
            self.nodes,
            self.depth,
            self.movetime,
            self.rules,
            self.seed
        );
        if !self.tc.is_empty() {
            s.push_str(&format!(" --tc {}", self.tc));
        }
        if !self.out.is_empty() {
            s.push_str(&format!(" --out {}", self.out));
        }
        if self.resume {
            s.push_str(" --resume");
        }
        if self.display_delay != DEFAULT_DISPLAY_DELAY {
            s.push_str(&format!(" --display-delay {}", self.display_delay));
        }
        s
    }
}

/// Why JAI refuses an option's value, a match's start or a resume: the sentence JieqiBox is
/// told after `info string`, naming the option (and quoting the value safely).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(String);

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal(message)
    }
}

/// Why option Rules refuses `value`, in option names (the resolver's own words name `--rules`).
fn rules_refusal(value: &str, e: &crate::plan::rules_arg::RulesArgError) -> String {
    match e {
        crate::plan::rules_arg::RulesArgError::NotFound { .. } => format!(
            "option Rules: '{}' is not a preset ({}) and no such file",
            echo(value),
            crate::plan::rules_arg::PRESETS.join(", ")
        ),
        other => format!("option Rules: {other}"),
    }
}

/// The folder that holds the matches: `out` (`OutDir`), or `results` when it is empty, taken
/// from `cwd` (the runner's working directory) when relative, so that every path the runner
/// prints is absolute (JieqiBox starts it in its binary's folder).
pub fn match_parent(out: &str, cwd: &Path) -> PathBuf {
    let dir = if out.is_empty() { DEFAULT_PARENT } else { out };
    cwd.join(dir)
}

/// The most folders of `dir` that [`resume_target`] looks at: it reads no further.
pub const MAX_RESUME_ENTRIES: usize = 100_000;

/// The match `Resume` continues: `dir` itself when it holds a run record, else the folder
/// directly in it that holds a match `arena jai` started and was played last (its record,
/// `match.json`, written last; the name breaks ties). At most [`MAX_RESUME_ENTRIES`] entries
/// are read.
///
/// # Errors
/// `dir` cannot be read, or holds no such match; the message names the option and the folder.
pub fn resume_target(dir: &Path) -> Result<PathBuf, Refusal> {
    if crate::records::files::RUN_RECORDS
        .iter()
        .any(|r| dir.join(r).is_file())
    {
        return Ok(dir.to_path_buf());
    }
    let entries = std::fs::read_dir(dir).map_err(|e| {
        format!(
            "option Resume: no match to continue in {}: {e}",
            dir.display()
        )
    })?;
    entries
        .take(MAX_RESUME_ENTRIES)
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .filter_map(|d| Some((jai_record_time(&d)?, d)))
        .max()
        .map(|(_, d)| d)
        .ok_or_else(|| {
            Refusal(format!(
                "option Resume: no match to continue in {} (it holds no match started from \
                 JieqiBox; turn Resume off to start a new one)",
                dir.display()
            ))
        })
}

/// When the record of a match `arena jai` started in `dir` was last written; `None` when
/// `dir` holds no such match.
fn jai_record_time(dir: &Path) -> Option<std::time::SystemTime> {
    let record = dir.join("match.json");
    let text =
        crate::records::files::read_bounded(&record, crate::records::files::MAX_SMALL_FILE).ok()?;
    let r: crate::run::MatchSetup = serde_json::from_str(&text).ok()?;
    if !r.command.starts_with("arena jai") {
        return None;
    }
    std::fs::metadata(&record).and_then(|m| m.modified()).ok()
}

/// `setoption`: checked and taken; during a match, a value the option already holds is
/// taken silently (JieqiBox's dialog sends every option again when it opens) and a change
/// refused, naming the option (`running`). Returns the line to answer, if any.
pub fn setoption(
    settings: &mut JaiSettings,
    line: &str,
    rest: &str,
    running: bool,
) -> Option<String> {
    let Some((name, value)) = parse_setoption(rest) else {
        return Some(jai::not_setoption(line));
    };
    if running {
        if let Err(e) = JaiSettings::known(name) {
            return Some(format!("info string {e}"));
        } else if !settings.holds(name, value) {
            return Some(jai::option_kept(name));
        }
        return None;
    }
    if let Err(e) = settings.set(name, value) {
        return Some(format!("info string {e}"));
    }
    None
}

/// `name NAME value VALUE` (or `name NAME` alone, an empty value) into its name and value.
pub fn parse_setoption(rest: &str) -> Option<(&str, &str)> {
    let rest = rest.trim().strip_prefix("name ")?;
    match rest.split_once(" value") {
        Some((name, value)) => Some((name.trim(), value.trim())),
        None => Some((rest.trim(), "")),
    }
}

/// The run of `settings`, ready to play: set up, a new match's folder claimed (a unique name
/// under OutDir), and everything the run core would refuse checked
/// ([`crate::run::execute::check_start`]).
///
/// # Errors
/// Why the match cannot start, naming the option.
pub fn prepare(settings: &JaiSettings) -> Result<crate::run::RunSetup, Refusal> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> JaiSettings {
        JaiSettings {
            engines: ["greedy".into(), "random".into()],
            pairs: 2,
            nodes: 0,
            depth: 0,
            movetime: 1000,
            tc: String::new(),
            rules: "standard".into(),
            seed: 1,
            threads: 1,
            out: String::new(),
            resume: false,
            display_delay: DEFAULT_DISPLAY_DELAY,
            refused: BTreeMap::new(),
        }
    }

    #[test]
    fn declarations_read_as_jieqibox_reads_them() {
        let lines = defaults().declarations();
        assert_eq!(lines.len(), OPTIONS.len());
        assert!(lines.contains(
            &"option name TotalRounds type spin default 2 min 1 max 100000000".to_string()
        ));
        assert!(lines.contains(&"option name Engine1 type string default greedy".to_string()));
        // An empty text ends in a bare `default`: JieqiBox's /default (.+?)(?:\s|$)/ finds
        // nothing there and takes the empty string.
        assert!(lines.contains(&"option name OutDir type string default".to_string()));
    }

    #[test]
    fn set_checks_and_names_the_option() {
        let mut s = defaults();
        s.set("totalrounds", "7").unwrap();
        assert_eq!(s.pairs, 7);
        s.set("OutDir", "<empty>").unwrap();
        assert_eq!(s.out, "");
        let e = s.set("TotalRounds", "0").unwrap_err().to_string();
        assert!(e.contains("TotalRounds") && e.contains("'0'"), "{e}");
        let e = s.set("MoveTimeMs", "-5").unwrap_err().to_string();
        assert!(e.contains("MoveTimeMs"), "{e}");
        let e = s.set("Engine1", "nosuchengine").unwrap_err().to_string();
        assert!(e.contains("Engine1") && e.contains("nosuchengine"), "{e}");
        let e = s.set("Rules", "nosuchrules").unwrap_err().to_string();
        assert!(e.contains("Rules"), "{e}");
        let e = s.set("Colour", "red").unwrap_err().to_string();
        assert!(e.contains("no option 'Colour'"), "{e}");
        assert_eq!(s.pairs, 7, "a refused value changes nothing");
    }

    #[test]
    fn setup_errors_name_the_option() {
        let mut s = defaults();
        s.set("Engine2", "greedy").unwrap();
        let e = s.setup(Path::new("/")).unwrap_err().to_string();
        assert!(e.starts_with("options Engine1 and Engine2: "), "{e}");
        let mut s = defaults();
        let e = s.set("TimeControl", "ten minutes").unwrap_err().to_string();
        assert!(e.starts_with("option TimeControl: 'ten minutes': "), "{e}");
        // As the command line gave it (`--tc` is read when the match starts).
        s.tc = "ten minutes".into();
        let e = s.setup(Path::new("/")).unwrap_err().to_string();
        assert!(e.starts_with("option TimeControl: "), "{e}");
    }
}
