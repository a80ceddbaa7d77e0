//! `--rules`: a preset name or a JSON file holding a serialized [`Rules`].

use std::path::{Path, PathBuf};

use jieqi_core::{Rules, RulesError};

/// The preset names `--rules` accepts, in the order help texts list them.
pub const PRESETS: [&str; 3] = ["standard", "xiangqi", "simple"];

/// Why a `--rules` argument gives no usable rule set.
#[derive(Debug)]
pub enum RulesArgError {
    /// Neither a preset name nor an existing file.
    NotFound {
        /// The argument as given.
        arg: String,
    },
    /// The file exists but cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a JSON rule set (bad syntax, an unknown or missing field, a bad value).
    Parse {
        /// The file.
        path: PathBuf,
        /// serde_json's message, with line and column.
        source: serde_json::Error,
    },
    /// The file reads, but its switches do not fit together.
    Invalid {
        /// The file.
        path: PathBuf,
        /// What [`Rules::validate`] objected to.
        source: RulesError,
    },
    /// The rule set's name (or the file name that names it) holds a control character or a
    /// bidi control, which every report would print as is.
    Name {
        /// The file.
        path: PathBuf,
        /// The name.
        name: String,
    },
}

impl core::fmt::Display for RulesArgError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RulesArgError::NotFound { arg } => write!(
                f,
                "--rules '{}': not a preset ({}) and no such file",
                crate::util::text::echo(arg),
                PRESETS.join(", ")
            ),
            RulesArgError::Read { path, source } => {
                write!(
                    f,
                    "rules file '{}': cannot read it: {source}",
                    path.display()
                )
            }
            RulesArgError::Parse { path, source } => {
                write!(f, "rules file '{}': {source}", path.display())
            }
            RulesArgError::Invalid { path, source } => {
                write!(f, "rules file '{}': {source}", path.display())
            }
            RulesArgError::Name { path, name } => write!(
                f,
                "rules file '{}': field `name`: '{}' holds a control character or a bidi \
                 control; give a plain name",
                path.display(),
                crate::util::text::echo(name)
            ),
        }
    }
}

impl std::error::Error for RulesArgError {}

impl From<RulesArgError> for crate::error::Error {
    fn from(e: RulesArgError) -> crate::error::Error {
        crate::error::Error::Rules(Box::new(e))
    }
}

/// Resolves a `--rules` argument: a preset name first (`standard`, `xiangqi`, `simple`), else a
/// path to a JSON rule-set file. Write `./standard` to read a file that shadows a preset name.
///
/// # Errors
/// The argument is neither a preset nor a file, or the file does not hold a valid rule set; the
/// error names the file and what is wrong.
pub fn resolve(arg: &str) -> Result<Rules, RulesArgError> {
    if let Some(rules) = Rules::preset(arg) {
        return Ok(rules);
    }
    let path = Path::new(arg);
    if !path.exists() {
        return Err(RulesArgError::NotFound {
            arg: arg.to_string(),
        });
    }
    load_file(path)
}

/// Reads and validates a JSON rule-set file (field names as in [`Rules`], enum values in
/// kebab-case, unknown fields refused).
///
/// # Errors
/// The file cannot be read, is not a rule set, or fails [`Rules::validate`].
pub fn load_file(path: &Path) -> Result<Rules, RulesArgError> {
    let text = crate::records::files::read_bounded(path, crate::records::files::MAX_SMALL_FILE)
        .map_err(|source| RulesArgError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    parse(&text, path)
}

/// Parses and validates the JSON text of a rule set; `path` only names it in errors.
///
/// # Errors
/// The text is not a rule set, or fails [`Rules::validate`].
pub fn parse(text: &str, path: &Path) -> Result<Rules, RulesArgError> {
    let mut rules: Rules = serde_json::from_str(text).map_err(|source| RulesArgError::Parse {
        path: path.to_path_buf(),
        source,
    })?;
    rules.validate().map_err(|source| RulesArgError::Invalid {
        path: path.to_path_buf(),
        source,
    })?;
    // A copy of a preset's file with other switches must not pass for that preset in reports:
    // it is named by its file instead.
    if Rules::preset(rules.name.as_str()).is_some_and(|preset| preset != rules) {
        let stem = path
            .file_stem()
            .map_or("custom".into(), |s| s.to_string_lossy().to_string());
        rules.name = jieqi_core::RuleName::new(&stem);
    }
    let name = rules.name.as_str();
    if name.chars().any(crate::util::text::rewrites_terminal) {
        return Err(RulesArgError::Name {
            path: path.to_path_buf(),
            name: name.to_string(),
        });
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_resolve_by_name() {
        assert_eq!(resolve("standard").unwrap(), Rules::standard());
        assert_eq!(resolve("xiangqi").unwrap(), Rules::xiangqi());
        assert_eq!(resolve("simple").unwrap(), Rules::simple());
    }

    #[test]
    fn unknown_name_lists_the_presets() {
        let e = resolve("no-such-rules-anywhere").unwrap_err().to_string();
        assert!(e.contains("no-such-rules-anywhere"), "{e}");
        assert!(e.contains("standard, xiangqi, simple"), "{e}");
    }

    #[test]
    fn unknown_field_names_file_and_field() {
        let json =
            serde_json::to_string(&Rules::standard())
                .unwrap()
                .replacen('{', "{\"colour\":1,", 1);
        let e = parse(&json, Path::new("my.json")).unwrap_err().to_string();
        assert!(e.contains("my.json") && e.contains("colour"), "{e}");
    }

    #[test]
    fn a_changed_preset_is_named_by_its_file() {
        let mut r = Rules::standard();
        r.no_capture_plies = Some(120);
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json.matches("\"standard\"").count(), 1);
        let loaded = parse(&json, Path::new("configs/rules/rule120.json")).unwrap();
        assert_eq!(loaded.name.as_str(), "rule120");
        assert_eq!(loaded.no_capture_plies, Some(120));
        // The preset itself, or a rule set with a name of its own, keeps its name.
        let same = serde_json::to_string(&Rules::standard()).unwrap();
        assert_eq!(
            parse(&same, Path::new("x.json")).unwrap().name.as_str(),
            "standard"
        );
        r.name = jieqi_core::RuleName::new("long-game");
        let own = serde_json::to_string(&r).unwrap();
        assert_eq!(
            parse(&own, Path::new("x.json")).unwrap().name.as_str(),
            "long-game"
        );
    }

    #[test]
    fn a_name_with_a_control_character_is_refused() {
        let mut r = Rules::standard();
        r.name = jieqi_core::RuleName::new("x\u{1b}[31m");
        let text = serde_json::to_string(&r).unwrap();
        let e = parse(&text, Path::new("x.json")).unwrap_err().to_string();
        assert!(e.contains("field `name`") && e.contains("\\u{1b}"), "{e}");
        assert!(!e.contains('\u{1b}'), "{e}");
        r.name = jieqi_core::RuleName::new("rtl\u{202e}");
        let text = serde_json::to_string(&r).unwrap();
        assert!(parse(&text, Path::new("x.json")).is_err());
    }

    #[test]
    fn inconsistent_switches_fail_validation() {
        let mut r = Rules::standard();
        r.repetition_count = 1;
        let json = serde_json::to_string(&r).unwrap();
        let e = parse(&json, Path::new("rep.json")).unwrap_err();
        assert!(matches!(e, RulesArgError::Invalid { .. }), "{e}");
        assert!(e.to_string().contains("repetition_count"), "{e}");
    }
}
