//! Engines as a run names them: the registry's in-process engines ([`jieqi_registry`]), external
//! `uci:` processes and the `faulty` test engine. An `--engine` argument becomes an
//! [`EngineEntry`]: a label, the spec as written, the limits it sets for itself, and a factory
//! that builds a fresh engine for every game and cannot fail (files are read once, here).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use jieqi_engine::{Engine, Factory, Spec, SpecError};
use serde::Deserialize;

use crate::engines::dialect::VariantError;
use crate::engines::time_control::TimeControl;
use crate::engines::uci::ProbeError;
use crate::util::text::{echo, printable, rewrites_terminal};

/// Spec keys the arena reads itself, in any engine's spec: `name` (the label) and the limits one
/// engine gets instead of the run's.
pub const ARENA_KEYS: [&str; 5] = ["name", "tc", "movetime", "nodes", "depth"];

/// Limits an engine's spec sets for that engine alone (fastchess's per-engine `tc=`, `nodes=`…);
/// each replaces the run's limit of the same kind, the others still apply.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineLimits {
    /// `tc=`: a clock time control.
    pub tc: Option<TimeControl>,
    /// `movetime=MS`.
    pub movetime: Option<Duration>,
    /// `nodes=N`.
    pub nodes: Option<u64>,
    /// `depth=D`.
    pub depth: Option<u32>,
}

impl EngineLimits {
    /// Whether the spec sets no limit of its own.
    pub fn is_empty(&self) -> bool {
        *self == EngineLimits::default()
    }
}

impl core::fmt::Display for EngineLimits {
    /// `tc=5+0.05,nodes=500` (the run's limits' form, with the clock first).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let rest = jieqi_engine::Limits {
            nodes: self.nodes,
            depth: self.depth,
            movetime: self.movetime,
            clock: None,
        };
        match (self.tc, rest.is_unlimited()) {
            (Some(tc), true) => write!(f, "tc={tc}"),
            (Some(tc), false) => write!(f, "tc={tc},{rest}"),
            (None, _) => write!(f, "{rest}"),
        }
    }
}

/// An engine as a run names it.
#[derive(Clone, Debug)]
pub struct EngineEntry {
    /// Name in reports: `name=`, the `name` of a config file, or the spec as written.
    pub label: String,
    /// The spec as written, arena keys included: what records and fingerprints hold, and what
    /// [`parse_arg`] reads back.
    pub spec: Spec,
    /// The limits the spec sets for this engine alone.
    pub limits: EngineLimits,
    /// Builds a fresh engine for each game.
    pub factory: Factory,
    /// Whether it is an external process (which can never see more than its side's information).
    pub external: bool,
    /// What an external engine's handshake said of it when [`parse_arg`] started it (its
    /// dialect and `UCI_Variant`); `None` for an engine inside the arena or one not started.
    pub probe: Option<crate::engines::uci::Probe>,
    /// Whether it plays with an omniscient view (every hidden piece visible): set by a run that
    /// measures what hidden information is worth (`match --omniscient`, `arena leak`), never by a
    /// spec. Records say so.
    pub omniscient: bool,
    /// Whether the harness hands it the truth while records call it fair: only the `faulty:mode=peek`
    /// test engine, a deliberate leak that `arena leak` must catch.
    pub peeks: bool,
}

impl EngineEntry {
    /// A fresh engine.
    pub fn build(&self) -> Box<dyn Engine> {
        self.factory.build()
    }

    /// Whether this engine can play `rules`: an external engine that was started must offer
    /// their `UCI_Variant` ([`crate::engines::uci::Probe::check`]); any other engine can.
    ///
    /// # Errors
    /// The engine's label, the rules and what it offers.
    pub fn check_rules(&self, rules: &jieqi_core::Rules) -> Result<(), CannotPlay> {
        match &self.probe {
            Some(probe) => probe.check(rules).map_err(|why| CannotPlay {
                label: self.label.clone(),
                why,
            }),
            None => Ok(()),
        }
    }

    /// An external engine's own per-move hard limit, its spec's `timeout=` (ms): it replaces
    /// the run's (`--move-timeout`, or the movetime plus its grace), longer or shorter. `None`
    /// for an engine inside the arena or a spec without one.
    pub fn own_timeout(&self) -> Option<Duration> {
        if !self.external {
            return None;
        }
        self.spec
            .params
            .iter()
            .find(|(k, _)| k == "timeout")
            .and_then(|(_, v)| v.parse().ok())
            .map(Duration::from_millis)
    }

    /// An external engine's executable as its spec names it (`uci:path=…`); `None` for an
    /// engine inside the arena.
    pub fn executable(&self) -> Option<String> {
        if !self.external {
            return None;
        }
        self.spec
            .params
            .iter()
            .find(|(k, _)| k == "path")
            .map(|(_, v)| v.clone())
    }
}

/// An `--engine` argument that names no usable engine.
#[derive(Debug)]
pub enum EngineArgError {
    /// The spec string (or the spec a file holds) is malformed or has a bad parameter.
    Spec(SpecError),
    /// The config file cannot be read or parsed.
    File {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// An external engine that does not start or does not answer the UCI handshake.
    Start(ProbeError),
    /// No engine of this name exists.
    Unknown {
        /// The spec as given.
        spec: String,
    },
}

impl core::fmt::Display for EngineArgError {
    /// The spec or file quoted as given, escaped and cut to length ([`echo`]).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EngineArgError::Spec(e) => write!(
                f,
                "engine spec '{}': {}",
                echo(&e.spec),
                printable(&e.message)
            ),
            EngineArgError::File { path, message } => {
                write!(f, "engine file '{}': {}", echo(path), printable(message))
            }
            EngineArgError::Start(e) => write!(f, "{e}"),
            EngineArgError::Unknown { spec } => write!(
                f,
                "engine spec '{}': no engine of that name (known: {}; or a JSON file in configs/engines/)",
                echo(spec),
                names().join(", ")
            ),
        }
    }
}

impl std::error::Error for EngineArgError {}

/// An engine that cannot play a rule set ([`EngineEntry::check_rules`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CannotPlay {
    /// The engine's label.
    pub label: String,
    /// Why: the rules' variant it does not offer.
    pub why: VariantError,
}

impl core::fmt::Display for CannotPlay {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "engine '{}' cannot play these rules: {}",
            self.label, self.why
        )
    }
}

impl std::error::Error for CannotPlay {}

/// Names of every engine kind a run can use.
pub fn names() -> Vec<&'static str> {
    help().into_iter().map(|(n, _)| n).collect()
}

/// (name, help) of every engine kind, for `arena engines`: the registry's, then the arena's own.
pub fn help() -> Vec<(&'static str, &'static str)> {
    let mut all = jieqi_registry::help();
    all.push((crate::engines::uci::NAME, crate::engines::uci::HELP));
    all.push((FAULTY, FAULTY_HELP));
    all
}

const FAULTY: &str = "faulty";
const FAULTY_HELP: &str = "A deliberately broken engine for testing harnesses: plays seeded random \
legal moves, then from its move number `after` (default 5) on fails as `mode` says: `panic`, \
`illegal` (answers a move that is not legal), `error` (returns an error) or `slow` (sleeps `ms` \
milliseconds, default 200, before answering, deaf to any stop: a runaway). Example: \
faulty:mode=panic,after=3. `mode=peek` is a leak instead: the engine `engine` (default \
alphabeta, at its defaults) is handed every hidden piece while the records call it fair — the \
positive control of `arena leak`, which must find that it gains nothing from omniscience.";

/// The engine behind `faulty`.
#[derive(Clone)]
struct Faulty {
    mode: &'static str,
    after: u64,
    ms: u64,
    moves: u64,
}

impl Engine for Faulty {
    fn search(
        &mut self,
        view: &jieqi_core::View,
        _limits: &jieqi_engine::Limits,
        seed: u64,
        _control: &jieqi_engine::Control<'_>,
    ) -> Result<jieqi_engine::Choice, jieqi_engine::EngineError> {
        self.moves += 1;
        let moves = view.legal_moves();
        let mut pick = moves[(seed % moves.len() as u64) as usize];
        if self.moves > self.after {
            match self.mode {
                "panic" => panic!("faulty engine panics on purpose"),
                "error" => {
                    return Err(jieqi_engine::EngineError::new(
                        "faulty engine fails on purpose",
                    ));
                }
                "illegal" => {
                    // A move onto one's own king square is never legal.
                    let own = view.position().king(view.player()).unwrap_or(pick.from);
                    pick = jieqi_core::Move::new(pick.from, own);
                }
                _ => std::thread::sleep(Duration::from_millis(self.ms)),
            }
        }
        Ok(jieqi_engine::Choice {
            mv: pick,
            info: jieqi_engine::SearchInfo {
                nodes: 1,
                ..Default::default()
            },
        })
    }

    fn stops_on_request(&self) -> bool {
        // A slow faulty engine plays a runaway: it ignores the stop flag.
        self.mode != "slow"
    }
}

/// The factory of a `faulty` spec, and whether it peeks (`mode=peek`).
fn faulty(spec: &Spec) -> Result<(Factory, bool), SpecError> {
    let mut p = spec.params();
    let mode = p.get_choice(
        "mode",
        "panic",
        &["panic", "illegal", "error", "slow", "peek"],
    )?;
    if mode == "peek" {
        let inner = p.get_choice("engine", "alphabeta", &jieqi_registry::KINDS)?;
        p.finish(&["mode", "engine"])?;
        let inner = Spec {
            name: inner.to_string(),
            params: Vec::new(),
        };
        let factory = jieqi_registry::factory(&inner).map_err(|e| SpecError {
            spec: spec.to_string(),
            message: e.to_string(),
        })?;
        return Ok((factory, true));
    }
    let after = p.get("after", 5u64)?;
    let ms = p.get("ms", 200u64)?;
    p.finish(&["mode", "after", "ms"])?;
    Ok((
        Factory::of_clone(Faulty {
            mode,
            after,
            ms,
            moves: 0,
        }),
        false,
    ))
}

/// A JSON engine config file (`configs/engines/*.json`):
/// `{"name": "greedy-noisy", "engine": "greedy", "params": {"noise": 0.3}}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineFile {
    /// The label in reports [default: the spec].
    pub name: Option<String>,
    /// The engine: a name, or a spec string with parameters.
    pub engine: String,
    /// More parameters, added to the spec (arena keys such as `tc` included).
    #[serde(default)]
    pub params: BTreeMap<String, ParamValue>,
}

/// A parameter value in an engine file.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// `"text"`.
    Text(String),
    /// `0.3`.
    Number(serde_json::Number),
    /// `true`.
    Bool(bool),
}

impl core::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ParamValue::Text(s) => f.write_str(s),
            ParamValue::Number(n) => write!(f, "{n}"),
            ParamValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// The largest engine file read.
const MAX_FILE_BYTES: u64 = 1 << 20;

fn from_file(path: &str) -> Result<(String, Spec), EngineArgError> {
    let file_err = |message: String| EngineArgError::File {
        path: path.to_string(),
        message,
    };
    let text = crate::records::files::read_bounded(Path::new(path), MAX_FILE_BYTES)
        .map_err(|e| file_err(format!("cannot read it: {e}")))?;
    let file: EngineFile = serde_json::from_str(&text).map_err(|e| file_err(e.to_string()))?;
    let mut spec = Spec::parse(&file.engine).map_err(EngineArgError::Spec)?;
    for (k, v) in file.params {
        if spec.params.iter().any(|(pk, _)| *pk == k) {
            return Err(file_err(format!(
                "params.{k}: the engine string sets it already"
            )));
        }
        spec.params.push((k, v.to_string()));
    }
    let label = file.name.unwrap_or_else(|| spec.to_string());
    Ok((label, spec))
}

/// Splits the arena's keys off a spec: the label (if `name=` is given), the engine's own limits,
/// and the spec the engine itself reads.
fn split_arena_keys(spec: &Spec) -> Result<(Option<String>, EngineLimits, Spec), SpecError> {
    let err = |message: String| SpecError {
        spec: spec.to_string(),
        message,
    };
    let mut limits = EngineLimits::default();
    let mut name = None;
    let mut engine = Spec {
        name: spec.name.clone(),
        params: Vec::new(),
    };
    let positive = |key: &str, v: &str| -> Result<u64, SpecError> {
        match v.parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(err(format!(
                "parameter '{key}': '{v}' is not a whole number of 1 or more"
            ))),
        }
    };
    for (k, v) in &spec.params {
        match k.as_str() {
            "name" if v.is_empty() => return Err(err("parameter 'name' is empty".into())),
            "name" => name = Some(v.clone()),
            "tc" => {
                limits.tc =
                    Some(TimeControl::parse(v).map_err(|e| err(format!("parameter 'tc': {e}")))?);
            }
            "movetime" => {
                let ms = positive(k, v)?;
                if ms > crate::engines::time_control::MAX_MOVE_MS {
                    return Err(err(format!(
                        "parameter 'movetime': {ms} ms is more than a day ({} ms)",
                        crate::engines::time_control::MAX_MOVE_MS
                    )));
                }
                limits.movetime = Some(Duration::from_millis(ms));
            }
            "nodes" => limits.nodes = Some(positive(k, v)?),
            "depth" => {
                let d = positive(k, v)?;
                limits.depth =
                    Some(u32::try_from(d).map_err(|_| {
                        err(format!("parameter 'depth': {d} is not a search depth"))
                    })?);
            }
            _ => engine.params.push((k.clone(), v.clone())),
        }
    }
    Ok((name, limits, engine))
}

/// Reads an `--engine` argument: a spec string (`greedy:noise=0.3`, `alphabeta:tc=5+0.05,name=half`)
/// or the path of a JSON config file ([`EngineFile`]); prepares its factory (reading any file
/// the spec names) and, for an external engine, starts it once to check the handshake, so that a
/// bad engine fails before any game runs.
///
/// # Errors
/// A malformed spec, an unknown engine or parameter, an unreadable file, or an external engine
/// that does not start.
pub fn parse_arg(arg: &str) -> Result<EngineEntry, EngineArgError> {
    let mut entry = entry_unprobed(arg)?;
    if entry.external {
        entry.probe = Some(
            crate::engines::uci::probe(
                &split_arena_keys(&entry.spec)
                    .map_err(EngineArgError::Spec)?
                    .2,
            )
            .map_err(EngineArgError::Start)?,
        );
    }
    Ok(entry)
}

/// [`parse_arg`] without starting an external engine.
///
/// # Errors
/// As [`parse_arg`], but for the handshake.
pub fn entry_unprobed(arg: &str) -> Result<EngineEntry, EngineArgError> {
    // A file if one is there; a missing `*.json` is reported as a file too, unless it reads as a
    // spec (`alphabeta:eval=weights.json`).
    let file = Path::new(arg).is_file()
        || (arg.ends_with(".json") && !arg.contains(':') && !arg.contains('='));
    if file {
        let (label, spec) = from_file(arg)?;
        return from_spec(label, spec);
    }
    // Errors quote the spec as typed, not as it reads back (`greedy:noise`, not
    // `greedy:greedy=noise`).
    let as_typed = |e: EngineArgError| match e {
        EngineArgError::Spec(e) => EngineArgError::Spec(SpecError {
            spec: arg.to_string(),
            message: e.message,
        }),
        EngineArgError::Unknown { .. } => EngineArgError::Unknown {
            spec: arg.to_string(),
        },
        other => other,
    };
    let spec = Spec::parse(arg)
        .map_err(EngineArgError::Spec)
        .map_err(as_typed)?;
    from_spec(arg.to_string(), spec).map_err(as_typed)
}

/// The most characters an engine's label may have: as many as a message quotes
/// ([`crate::util::text::MAX_ECHO`]), so that an error shows a label whole; every report,
/// table and summary line repeats it.
pub const MAX_LABEL: usize = crate::util::text::MAX_ECHO;

/// Checks an engine's label: not empty, at most [`MAX_LABEL`] characters, and free of control
/// characters and of bidi controls ([`crate::util::text::is_bidi_control`]), which would show one
/// label as another in every report.
///
/// # Errors
/// The label, escaped and cut to length, and what is wrong with it.
pub fn check_label(label: &str) -> Result<(), LabelError> {
    if label.is_empty() {
        return Err(LabelError::Empty);
    }
    let length = label.chars().count();
    if length > MAX_LABEL {
        return Err(LabelError::TooLong {
            label: label.to_string(),
            length,
        });
    }
    if label.chars().any(rewrites_terminal) {
        return Err(LabelError::Control(label.to_string()));
    }
    // Two labels must not look alike: `greedy` and `greedy ` or `x` and `x` + a zero-width space
    // would be two engines printed as one.
    if label.chars().any(crate::util::text::is_invisible) {
        return Err(LabelError::Invisible(label.to_string()));
    }
    if label.trim() != label {
        return Err(LabelError::Spaces(label.to_string()));
    }
    Ok(())
}

/// What is wrong with an engine's label ([`check_label`]); the message quotes the label,
/// escaped and cut to length ([`echo`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabelError {
    /// It is empty.
    Empty,
    /// It is longer than [`MAX_LABEL`] characters.
    TooLong {
        /// The label.
        label: String,
        /// Its length in characters.
        length: usize,
    },
    /// It has control characters or bidi controls.
    Control(String),
    /// It has an invisible character.
    Invisible(String),
    /// It begins or ends with a space.
    Spaces(String),
}

impl core::fmt::Display for LabelError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LabelError::Empty => f.write_str("the label is empty (give name=LABEL)"),
            LabelError::TooLong { label, length } => write!(
                f,
                "the label '{}' is {length} characters long: at most {MAX_LABEL} (give a shorter \
                 name=LABEL)",
                echo(label)
            ),
            LabelError::Control(label) => write!(
                f,
                "the label '{}' has control characters or bidi controls (give name=LABEL)",
                echo(label)
            ),
            LabelError::Invisible(label) => write!(
                f,
                "the label '{}' has an invisible character (a zero-width space, joiner or the \
                 like) (give name=LABEL)",
                echo(label)
            ),
            LabelError::Spaces(label) => write!(
                f,
                "the label '{}' begins or ends with a space (give name=LABEL)",
                echo(label)
            ),
        }
    }
}

impl std::error::Error for LabelError {}

/// An entry from a label and a spec as written (arena keys included), e.g. as a results
/// folder recorded them; a `name=` key overrides the label.
///
/// # Errors
/// As [`parse_arg`], but for the handshake.
pub fn from_spec(label: String, spec: Spec) -> Result<EngineEntry, EngineArgError> {
    // A line break in a value would reach a UCI engine as a command of its own (`setoption …`,
    // `quit`); no engine, path or option needs a control character.
    // (`name=` is a label, which [`check_label`] judges.)
    let params = spec.params.iter().filter(|(k, _)| k != "name");
    let words = std::iter::once(&spec.name).chain(params.flat_map(|(k, v)| [k, v]));
    for word in words {
        if word.chars().any(rewrites_terminal) {
            return Err(EngineArgError::Spec(SpecError {
                spec: spec.to_string(),
                message: format!(
                    "'{}' holds a control character or a bidi control (a line break would reach \
                     an engine as a command of its own)",
                    echo(word)
                ),
            }));
        }
    }
    let (name, limits, engine) = split_arena_keys(&spec).map_err(EngineArgError::Spec)?;
    let external = engine.name == crate::engines::uci::NAME;
    let mut peeks = false;
    let factory = if engine.name == FAULTY {
        let (factory, p) = faulty(&engine).map_err(EngineArgError::Spec)?;
        peeks = p;
        factory
    } else if external {
        crate::engines::uci::factory(&engine).map_err(EngineArgError::Spec)?
    } else {
        jieqi_registry::factory(&engine).map_err(|e| match e {
            jieqi_registry::RegistryError::Unknown { .. } => EngineArgError::Unknown {
                spec: spec.to_string(),
            },
            jieqi_registry::RegistryError::Spec(e) => EngineArgError::Spec(e),
        })?
    };
    let label = name.unwrap_or(label);
    check_label(&label).map_err(|e| {
        EngineArgError::Spec(SpecError {
            spec: spec.to_string(),
            message: e.to_string(),
        })
    })?;
    Ok(EngineEntry {
        label,
        spec,
        limits,
        factory,
        external,
        probe: None,
        omniscient: false,
        peeks,
    })
}

/// Writes the list of engines and their parameters (`arena engines`).
///
/// # Errors
/// Writing fails.
pub fn write_help(w: &mut dyn std::io::Write) -> std::io::Result<()> {
    writeln!(
        w,
        "Engines for --engine SPEC (SPEC = name or name:key=value,key=value):\n"
    )?;
    for (name, text) in help() {
        writeln!(w, "{name}\n    {}\n", text.replace('\n', "\n    "))?;
    }
    writeln!(
        w,
        "Keys every engine takes in a match: name=LABEL (its name in reports; labels must be \
         unique), and limits for that engine alone, replacing the run's limit of the same kind: \
         tc=10+0.1 (a clock), movetime=MS, nodes=N, depth=D. Example: \
         alphabeta:tc=5+0.05,name=half-time.\n"
    )?;
    writeln!(
        w,
        "Or a JSON file: {{\"name\": \"label\", \"engine\": \"greedy\", \"params\": {{\"noise\": 0.3}}}} (see configs/engines/)."
    )
}

/// Builds an engine entry from a recorded (label, spec) pair.
///
/// # Errors
/// The spec no longer parses or names an unknown engine.
pub fn recorded(label: &str, spec: &str) -> Result<EngineEntry, String> {
    let spec = Spec::parse(spec).map_err(|e| e.to_string())?;
    let mut entry = from_spec(label.to_string(), spec).map_err(|e| e.to_string())?;
    // The recorded label wins over a `name=` in the spec: a leak run's omniscient copy of an
    // engine carries the engine's spec under another label.
    check_label(label).map_err(|e| e.to_string())?;
    entry.label = label.to_string();
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arena_keys_are_split_off() {
        let e = entry_unprobed("alphabeta:hash=8,tc=10+0.1,nodes=500,name=fast").unwrap();
        assert_eq!(e.label, "fast");
        assert_eq!(e.limits.tc, TimeControl::parse("10+0.1").ok());
        assert_eq!(e.limits.nodes, Some(500));
        assert_eq!(
            e.spec.to_string(),
            "alphabeta:hash=8,tc=10+0.1,nodes=500,name=fast"
        );
        drop(e.build());
        // A spec naming a .json file is a spec, not a file.
        let e = entry_unprobed(&format!(
            "alphabeta:eval={}/../../configs/eval/default.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        assert!(e.label.starts_with("alphabeta:eval="));
        let e = entry_unprobed("greedy:depth=2,movetime=50").unwrap();
        assert_eq!(e.label, "greedy:depth=2,movetime=50");
        assert_eq!(e.limits.depth, Some(2));
        assert_eq!(e.limits.movetime, Some(Duration::from_millis(50)));
    }

    #[test]
    fn bad_arena_keys_are_named() {
        for (arg, says) in [
            ("greedy:tc=fast", "parameter 'tc'"),
            ("greedy:nodes=0", "parameter 'nodes'"),
            ("greedy:movetime=-5", "parameter 'movetime'"),
            ("greedy:movetime=86400001", "more than a day"),
            ("greedy:depth=99999999999", "parameter 'depth'"),
            ("greedy:name=", "'name' is empty"),
            ("greedy:nosie=1", "unknown parameter 'nosie'"),
            ("nosuch", "no engine of that name"),
            ("greedy:name=a\u{7}b", "control characters"),
            ("greedy:name=a\u{202e}b", "bidi controls"),
            ("greedy:name=\u{2067}b", "bidi controls"),
        ] {
            let e = entry_unprobed(arg).unwrap_err().to_string();
            assert!(e.contains(says), "{arg}: {e}");
        }
    }

    #[test]
    fn errors_quote_the_spec_as_typed_escaped_and_capped() {
        // A bare word reads back as `greedy:greedy=noise`; the error quotes what was typed.
        let e = entry_unprobed("greedy:noise").unwrap_err().to_string();
        assert!(e.starts_with("engine spec 'greedy:noise': "), "{e}");
        let e = entry_unprobed("greedy: noise = x").unwrap_err().to_string();
        assert!(e.starts_with("engine spec 'greedy: noise = x': "), "{e}");
        let e = entry_unprobed("nosuch:a").unwrap_err().to_string();
        assert!(e.starts_with("engine spec 'nosuch:a': no engine"), "{e}");
        // Control characters and bidi controls escaped, in the spec and in the label.
        let e = entry_unprobed("greedy:name=a\u{1b}[31mb")
            .unwrap_err()
            .to_string();
        assert!(!e.contains('\u{1b}') && e.contains("a\\u{1b}[31mb"), "{e}");
        let e = entry_unprobed("greedy:name=a\u{202e}b")
            .unwrap_err()
            .to_string();
        assert!(!e.contains('\u{202e}') && e.contains("a\\u{202e}b"), "{e}");
        // A huge label is quoted cut short.
        let e = entry_unprobed(&format!("greedy:name={}\u{7}", "x".repeat(100_000)))
            .unwrap_err()
            .to_string();
        assert!(e.len() < 1000 && e.contains('…'), "{} bytes", e.len());
        // A long label is refused, saying the bound; one at the bound is taken.
        let e = entry_unprobed(&format!("greedy:name={}", "x".repeat(100_000)))
            .unwrap_err()
            .to_string();
        assert!(
            e.len() < 1000 && e.contains("is 100000 characters long: at most 200"),
            "{e}"
        );
        let longest = "x".repeat(MAX_LABEL);
        let entry = entry_unprobed(&format!("greedy:name={longest}")).unwrap();
        assert_eq!(entry.label, longest);
        // A recorded label is checked as a typed one.
        let e = recorded("a\u{202e}b", "greedy").unwrap_err();
        assert!(e.contains("bidi controls"), "{e}");
    }
}
