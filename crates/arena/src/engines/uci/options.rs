//! An engine's `option name … type …` declarations, read from its handshake, and the values
//! they take (a `setoption` the spec asks for is checked against them before it is sent).

/// An `option name … type …` declaration of an engine.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct OptionDecl {
    pub(super) name: String,
    pub(super) kind: String,
    pub(super) min: Option<i64>,
    pub(super) max: Option<i64>,
    pub(super) vars: Vec<String>,
}

impl OptionDecl {
    /// Reads `option name NAME type KIND [default D] [min X] [max Y] [var V]…` (names and values
    /// may hold spaces); `None` without a type.
    pub(super) fn parse(line: &str) -> Option<OptionDecl> {
        let rest = line.strip_prefix("option name ")?;
        let (name, tail) = rest.split_once(" type ")?;
        let words: Vec<&str> = tail.split_whitespace().collect();
        let kind = words.first()?.to_ascii_lowercase();
        let keys = ["default", "min", "max", "var"];
        let mut d = OptionDecl {
            name: name.trim().to_string(),
            kind,
            min: None,
            max: None,
            vars: Vec::new(),
        };
        let mut i = 1;
        while i < words.len() {
            let key = words[i];
            let mut j = i + 1;
            while j < words.len() && !keys.contains(&words[j]) {
                j += 1;
            }
            let value = words[i + 1..j].join(" ");
            match key {
                "min" => d.min = value.parse().ok(),
                "max" => d.max = value.parse().ok(),
                "var" => d.vars.push(value),
                _ => {}
            }
            i = j;
        }
        Some(d)
    }

    /// Whether `value` is one this option takes: a whole number in a spin's range, one of a
    /// combo's values, `true`/`false` for a check; anything for a string or button.
    pub(super) fn check(&self, value: &str) -> Result<(), OptionValueError> {
        match self.kind.as_str() {
            "spin" => {
                let v: i64 = value
                    .trim()
                    .parse()
                    .map_err(|_| OptionValueError::NotANumber(value.to_string()))?;
                let (lo, hi) = (self.min.unwrap_or(i64::MIN), self.max.unwrap_or(i64::MAX));
                if v < lo || v > hi {
                    return Err(OptionValueError::OutOfRange { value: v, lo, hi });
                }
                Ok(())
            }
            "combo"
                if !self
                    .vars
                    .iter()
                    .any(|v| v.eq_ignore_ascii_case(value.trim())) =>
            {
                Err(OptionValueError::NotOffered {
                    value: value.to_string(),
                    offered: self.vars.clone(),
                })
            }
            "check" if !matches!(value.trim(), "true" | "false") => {
                Err(OptionValueError::NotABool(value.to_string()))
            }
            _ => Ok(()),
        }
    }
}

/// A value an engine's option does not take ([`OptionDecl::check`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum OptionValueError {
    /// A spin's value that is not a whole number.
    NotANumber(String),
    /// A spin's value outside its range.
    OutOfRange {
        /// The value.
        value: i64,
        /// The least it takes.
        lo: i64,
        /// The most it takes.
        hi: i64,
    },
    /// A combo's value it does not offer.
    NotOffered {
        /// The value.
        value: String,
        /// The combo's values.
        offered: Vec<String>,
    },
    /// A check's value other than `true` and `false`.
    NotABool(String),
}

impl std::fmt::Display for OptionValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValueError::NotANumber(value) => {
                write!(f, "'{value}' is not a whole number (a spin option)")
            }
            OptionValueError::OutOfRange { value, lo, hi } => {
                write!(f, "{value} is outside the engine's range {lo}..{hi}")
            }
            OptionValueError::NotOffered { value, offered } => write!(
                f,
                "'{value}' is not one of the engine's values ({})",
                offered.join(", ")
            ),
            OptionValueError::NotABool(value) => {
                write!(f, "'{value}' is not true or false (a check option)")
            }
        }
    }
}
