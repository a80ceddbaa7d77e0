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
    jieqi_baselines::ENGINES.iter().map(|(n, _)| *n).collect()
}

/// (name, help) of every engine kind, for `arena engines`.
pub fn help() -> Vec<(&'static str, &'static str)> {
    jieqi_baselines::ENGINES.to_vec()
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
    match jieqi_baselines::from_spec(&entry.spec) {
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
