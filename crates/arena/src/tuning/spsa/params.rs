//! The parameters file of `arena spsa`: one parameter a line in the fishtest/OpenBench text
//! format `NAME, int|float, start, min, max, c_end, r_end` (`#` starts a comment; blank lines are
//! skipped).

use serde::{Deserialize, Serialize};

/// The most parameters one file may tune.
pub const MAX_PARAMS: usize = 64;
/// The largest parameters file read (1 MiB).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Whether a parameter is sent rounded to a whole number or as it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Rounded to the nearest integer (half away from zero) when put into the spec.
    Int,
    /// Sent as a number with up to 6 decimals.
    Float,
}

/// One tuned parameter, as its line gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The engine's key (in-process spec) or UCI option name.
    pub name: String,
    /// `int` or `float`.
    pub kind: Kind,
    /// Where θ starts.
    pub start: f64,
    /// The least value θ takes.
    pub min: f64,
    /// The most value θ takes.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration (fishtest's `r_end`: `a_end = r_end · c_end²`).
    pub r_end: f64,
}

impl Param {
    /// The text of `value` put into a spec or a UCI option: rounded for an `int`, at most six
    /// decimals (trailing zeros dropped) for a `float`.
    pub fn value_text(&self, value: f64) -> String {
        match self.kind {
            Kind::Int => format!("{}", value.round() as i64),
            Kind::Float => {
                let t = format!("{value:.6}");
                let t = t.trim_end_matches('0').trim_end_matches('.');
                if t == "-0" { "0".into() } else { t.to_string() }
            }
        }
    }
}

/// A parameters file that cannot be used: the file, the line (0: the file as a whole), the
/// field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamsError {
    /// The file as given.
    pub file: String,
    /// The line, from 1; 0 for the whole file.
    pub line: usize,
    /// The field at fault (`name`, `type`, `start`, …), if one.
    pub field: Option<&'static str>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ParamsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        if let Some(field) = self.field {
            write!(f, ": field {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ParamsError {}

/// The fields of a line, in order.
const FIELDS: [&str; 7] = ["name", "type", "start", "min", "max", "c_end", "r_end"];

/// Reads the parameters of `text`, the file `file` (named in errors).
///
/// # Errors
/// A line without its seven fields, a bad name or type, a number that does not parse or is not
/// finite, `min ≥ max`, `start` outside `[min, max]`, `c_end ≤ 0`, `r_end ≤ 0`, a name given
/// twice, more than [`MAX_PARAMS`] parameters, or none.
pub fn parse(text: &str, file: &str) -> Result<Vec<Param>, ParamsError> {
    let mut params: Vec<Param> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let err = |field: Option<&'static str>, message: String| ParamsError {
            file: file.to_string(),
            line: i + 1,
            field,
            message,
        };
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != FIELDS.len() {
            return Err(err(
                None,
                format!(
                    "expected 7 comma-separated fields (NAME, int|float, start, min, max, c_end, \
                     r_end), got {}",
                    fields.len()
                ),
            ));
        }
        let param = line_param(&fields).map_err(|(f, m)| err(Some(f), m))?;
        if params.iter().any(|p| p.name == param.name) {
            return Err(err(
                Some("name"),
                format!("'{}' is given twice", param.name),
            ));
        }
        if params.len() == MAX_PARAMS {
            return Err(err(
                None,
                format!("more than {MAX_PARAMS} parameters (SPSA tunes a few at a time)"),
            ));
        }
        params.push(param);
    }
    if params.is_empty() {
        return Err(ParamsError {
            file: file.to_string(),
            line: 0,
            field: None,
            message: "no parameter (one a line: NAME, int|float, start, min, max, c_end, r_end)"
                .into(),
        });
    }
    Ok(params)
}

/// One line's seven fields as a parameter; the field at fault and why.
fn line_param(fields: &[&str]) -> Result<Param, (&'static str, String)> {
    let name = fields[0];
    let name_ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !name_ok {
        return Err((
            "name",
            format!(
                "'{}' is no key (letters, digits, _ - . only)",
                crate::util::text::echo(name)
            ),
        ));
    }
    let kind = match fields[1] {
        "int" => Kind::Int,
        "float" => Kind::Float,
        other => {
            return Err((
                "type",
                format!(
                    "'{}' is neither int nor float",
                    crate::util::text::echo(other)
                ),
            ));
        }
    };
    let mut nums = [0.0; 5];
    for (j, n) in nums.iter_mut().enumerate() {
        let field = FIELDS[j + 2];
        *n = fields[j + 2]
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| {
                (
                    field,
                    format!(
                        "'{}' is not a finite number",
                        crate::util::text::echo(fields[j + 2])
                    ),
                )
            })?;
    }
    let [start, min, max, c_end, r_end] = nums;
    if min >= max {
        return Err(("max", format!("max {max} is not above min {min}")));
    }
    if !(min..=max).contains(&start) {
        return Err(("start", format!("{start} is outside [{min}, {max}]")));
    }
    if c_end <= 0.0 {
        return Err(("c_end", format!("{c_end} is not above 0")));
    }
    if r_end <= 0.0 {
        return Err(("r_end", format!("{r_end} is not above 0")));
    }
    Ok(Param {
        name: name.to_string(),
        kind,
        start,
        min,
        max,
        c_end,
        r_end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_comments_and_blanks() {
        let text = "# tuned\n\nx, int, 10, 0, 100, 5, 0.002 # the x\ny,float,-1,-10,5,0.5,0.002\n";
        let p = parse(text, "p.txt").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].name, "x");
        assert_eq!(p[0].kind, Kind::Int);
        assert_eq!(p[1].min, -10.0);
        assert_eq!(p[1].r_end, 0.002);
    }

    #[test]
    fn bad_lines_name_line_and_field() {
        let cases = [
            ("x, int, 1, 0, 10, 1", None, "expected 7"),
            ("x y, int, 1, 0, 10, 1, 0.1", Some("name"), "no key"),
            ("x, double, 1, 0, 10, 1, 0.1", Some("type"), "neither"),
            ("x, int, one, 0, 10, 1, 0.1", Some("start"), "not a finite"),
            ("x, int, 1, 0, inf, 1, 0.1", Some("max"), "not a finite"),
            ("x, int, 11, 0, 10, 1, 0.1", Some("start"), "outside"),
            ("x, int, 1, 10, 10, 1, 0.1", Some("max"), "not above min"),
            ("x, int, 1, 0, 10, 0, 0.1", Some("c_end"), "not above 0"),
            ("x, int, 1, 0, 10, 1, -1", Some("r_end"), "not above 0"),
        ];
        for (line, field, says) in cases {
            let e = parse(&format!("# head\n{line}\n"), "p.txt").unwrap_err();
            assert_eq!((e.line, e.field), (2, field), "{line}: {e}");
            assert!(e.to_string().starts_with("p.txt:2"), "{e}");
            assert!(e.message.contains(says), "{line}: {e}");
        }
        let twice = parse("x,int,1,0,10,1,0.1\nx,int,1,0,10,1,0.1", "p").unwrap_err();
        assert_eq!((twice.line, twice.field), (2, Some("name")));
        let many: String = (0..65)
            .map(|i| format!("p{i},int,1,0,10,1,0.1\n"))
            .collect();
        assert_eq!(parse(&many, "p").unwrap_err().line, 65);
        assert_eq!(parse("# nothing\n", "p").unwrap_err().line, 0);
    }

    #[test]
    fn values_are_rounded_for_ints() {
        let mut p = parse("x,int,1,-10,10,1,0.1", "p").unwrap().remove(0);
        assert_eq!(p.value_text(2.5), "3");
        assert_eq!(p.value_text(-2.5), "-3");
        p.kind = Kind::Float;
        assert_eq!(p.value_text(-2.5), "-2.5");
        assert_eq!(p.value_text(1.0 / 3.0), "0.333333");
        assert_eq!(p.value_text(-0.0000001), "0");
    }
}

/// An engine's tunable keys, as its key table declares them ([`jieqi_registry::keys`]): the
/// source of a parameters file (`arena engines --spsa-params ENGINE`).
#[derive(Clone, Debug, PartialEq)]
pub struct EngineKeys {
    /// The engine's name.
    pub engine: String,
    /// One parameter a tunable key, starting at the key's default.
    pub params: Vec<Param>,
}

impl EngineKeys {
    /// The tunable keys of the in-process engine `name`.
    ///
    /// # Errors
    /// No in-process engine of that name has a key table, or its table tunes no key.
    pub fn of(name: &str) -> Result<EngineKeys, crate::error::Error> {
        let with_tables: Vec<&str> = jieqi_registry::KINDS
            .iter()
            .copied()
            .filter(|k| jieqi_registry::keys(k).is_some_and(|t| t.iter().any(|k| k.tune.is_some())))
            .collect();
        let refuse = || {
            crate::error::Error::Input(format!(
                "--spsa-params: '{name}' has no tunable keys (engines with them: {})",
                with_tables.join(", ")
            ))
        };
        let table = jieqi_registry::keys(name).ok_or_else(refuse)?;
        let params: Vec<Param> = table.iter().filter_map(param_of_key).collect();
        if params.is_empty() {
            return Err(refuse());
        }
        Ok(EngineKeys {
            engine: name.to_string(),
            params,
        })
    }

    /// The parameters file: a header saying where it came from, then one line a key.
    pub fn params_text(&self) -> String {
        let mut text = format!(
            "# arena spsa parameters of {}'s tunable keys (its key table: start = default, the \
             table's range, c_end and r_end)\n# NAME, int|float, start, min, max, c_end, r_end\n",
            self.engine
        );
        for p in &self.params {
            let kind = match p.kind {
                Kind::Int => "int",
                Kind::Float => "float",
            };
            text.push_str(&format!(
                "{}, {kind}, {}, {}, {}, {}, {}\n",
                p.name, p.start, p.min, p.max, p.c_end, p.r_end
            ));
        }
        text
    }
}

/// A tunable numeric key as a parameter starting at its default.
fn param_of_key(key: &jieqi_engine::Key) -> Option<Param> {
    let tune = key.tune?;
    let kind = match key.kind {
        jieqi_engine::KeyKind::Int { .. } => Kind::Int,
        jieqi_engine::KeyKind::Float { .. } => Kind::Float,
        _ => return None,
    };
    let start: f64 = key.default.parse().ok()?;
    Some(Param {
        name: key.name.to_string(),
        kind,
        start,
        min: tune.min,
        max: tune.max,
        c_end: tune.c_end,
        r_end: tune.r_end,
    })
}
