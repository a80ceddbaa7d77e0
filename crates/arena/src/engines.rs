//! The engine registry: the one place where engine spec strings and engine config files become
//! engines.

use std::path::Path;

use jieqi_engine::{Engine, Spec, SpecError};

/// An engine as a match names it: a label for reports and the spec that builds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineEntry {
    /// Name in reports: the spec string, or the `name` of a config file.
    pub label: String,
    /// How to build it.
    pub spec: Spec,
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
    Start(String),
    /// No engine of this name exists.
    Unknown {
        /// The spec as given.
        spec: String,
    },
}

impl core::fmt::Display for EngineArgError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EngineArgError::Spec(e) => write!(f, "{e}"),
            EngineArgError::File { path, message } => write!(f, "engine file '{path}': {message}"),
            EngineArgError::Start(message) => f.write_str(message),
            EngineArgError::Unknown { spec } => write!(
                f,
                "engine spec '{spec}': no engine of that name (known: {}; or a JSON file in configs/engines/)",
                names().join(", ")
            ),
        }
    }
}

impl std::error::Error for EngineArgError {}

/// Names of every engine kind the registry can build.
pub fn names() -> Vec<&'static str> {
    help().into_iter().map(|(n, _)| n).collect()
}

/// (name, help) of every engine kind, for `arena engines`.
pub fn help() -> Vec<(&'static str, &'static str)> {
    let mut all = jieqi_baselines::ENGINES.to_vec();
    all.extend_from_slice(jieqi_search::ENGINES);
    all.push((crate::uci_engine::NAME, crate::uci_engine::HELP));
    all.push((FAULTY, FAULTY_HELP));
    all
}

/// Whether the entry is an external process (which can never get an omniscient view).
pub fn is_external(entry: &EngineEntry) -> bool {
    entry.spec.name == crate::uci_engine::NAME
}

const FAULTY: &str = "faulty";
const FAULTY_HELP: &str = "A deliberately broken engine for testing harnesses: plays seeded random \
legal moves, then from its move number `after` (default 5) on fails as `mode` says: `panic`, \
`illegal` (answers a move that is not legal), `error` (returns an error) or `slow` (sleeps `ms` \
milliseconds, default 200, before answering). Example: faulty:mode=panic,after=3.";

/// The engine behind `faulty`.
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
                _ => std::thread::sleep(std::time::Duration::from_millis(self.ms)),
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
}

fn faulty(spec: &Spec) -> Result<Box<dyn Engine>, SpecError> {
    let mut p = spec.params();
    let mode = p.get_choice("mode", "panic", &["panic", "illegal", "error", "slow"])?;
    let after = p.get("after", 5u64)?;
    let ms = p.get("ms", 200u64)?;
    p.finish(&["mode", "after", "ms"])?;
    Ok(Box::new(Faulty {
        mode,
        after,
        ms,
        moves: 0,
    }))
}

/// Reads an `--engine` argument: a spec string (`greedy:noise=0.3`) or the path of a JSON config
/// file (`configs/engines/greedy-noisy.json`:
/// `{"name": "greedy-noisy", "engine": "greedy", "params": {"noise": 0.3}}`), then builds the
/// engine once so that a bad parameter fails before any game runs.
///
/// # Errors
/// A malformed spec, an unknown engine or parameter, or an unreadable file.
pub fn parse_arg(arg: &str) -> Result<EngineEntry, EngineArgError> {
    let entry = if arg.ends_with(".json") || Path::new(arg).is_file() {
        from_file(arg)?
    } else {
        EngineEntry {
            label: arg.to_string(),
            spec: Spec::parse(arg).map_err(EngineArgError::Spec)?,
        }
    };
    build(&entry)?;
    if is_external(&entry) {
        crate::uci_engine::probe(&entry.spec).map_err(EngineArgError::Start)?;
    }
    Ok(entry)
}

fn from_file(path: &str) -> Result<EngineEntry, EngineArgError> {
    let file_err = |message: String| EngineArgError::File {
        path: path.to_string(),
        message,
    };
    let text =
        std::fs::read_to_string(path).map_err(|e| file_err(format!("cannot read it: {e}")))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| file_err(e.to_string()))?;
    let obj = value
        .as_object()
        .ok_or_else(|| file_err("expected a JSON object".into()))?;
    for key in obj.keys() {
        if !["name", "engine", "params"].contains(&key.as_str()) {
            return Err(file_err(format!(
                "unknown field '{key}' (expected name, engine, params)"
            )));
        }
    }
    let engine = obj.get("engine").and_then(|v| v.as_str()).ok_or_else(|| {
        file_err("field 'engine' (a string such as \"greedy\") is missing".into())
    })?;
    let mut spec = Spec::parse(engine).map_err(EngineArgError::Spec)?;
    if let Some(params) = obj.get("params") {
        let params = params
            .as_object()
            .ok_or_else(|| file_err("field 'params' must be an object".into()))?;
        for (k, v) in params {
            let text = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                _ => {
                    return Err(file_err(format!(
                        "params.{k}: expected a string, number or boolean"
                    )));
                }
            };
            spec.params.push((k.clone(), text));
        }
    }
    let label = match obj.get("name") {
        Some(v) => v
            .as_str()
            .ok_or_else(|| file_err("field 'name' must be a string".into()))?
            .to_string(),
        None => spec.to_string(),
    };
    Ok(EngineEntry { label, spec })
}

/// Builds a fresh engine.
///
/// # Errors
/// An unknown engine name or a bad parameter.
pub fn build(entry: &EngineEntry) -> Result<Box<dyn Engine>, EngineArgError> {
    if entry.spec.name == FAULTY {
        return faulty(&entry.spec).map_err(EngineArgError::Spec);
    }
    if is_external(entry) {
        return crate::uci_engine::from_spec(&entry.spec).map_err(EngineArgError::Spec);
    }
    match jieqi_baselines::from_spec(&entry.spec).or_else(|| jieqi_search::from_spec(&entry.spec)) {
        Some(result) => result.map_err(EngineArgError::Spec),
        None => Err(EngineArgError::Unknown {
            spec: entry.spec.to_string(),
        }),
    }
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
        "Or a JSON file: {{\"name\": \"label\", \"engine\": \"greedy\", \"params\": {{\"noise\": 0.3}}}} (see configs/engines/)."
    )
}
