//! Engine keys as one table: each in-process engine with spec keys declares them once, as a
//! `&'static [Key]`, and from that one declaration come its defaults ([`Values::defaults`]), its
//! parser with range checks ([`Values::read`]), the known-keys list an unknown key is told
//! ([`Params::finish`]), the key list of its help text ([`help_list`]), and, for the numeric keys
//! a tuner may move, their range ([`Tune`]).
//!
//! A default is written as the text a spec would give (`"16"`, `"true"`, `"0.2"`), read by the
//! same parser as a spec's value; `""` means "no value" (a key such as `depth` whose absence
//! means something of its own, read with [`Values::opt_int`]).

use crate::{Params, Spec, SpecError};

/// One spec key of an engine.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Key {
    /// The key as written in a spec (`hash`).
    pub name: &'static str,
    /// Its type and range.
    pub kind: KeyKind,
    /// Its default, written as a spec value (`"16"`); `""`: none.
    pub default: &'static str,
    /// What it does, one clause for the help text.
    pub help: &'static str,
    /// The range a tuner may explore (numeric keys only); `None`: not tuned.
    pub tune: Option<Tune>,
}

impl Key {
    /// A switch key (`true`/`false`).
    pub const fn switch(name: &'static str, default: &'static str, help: &'static str) -> Key {
        Key {
            name,
            kind: KeyKind::Bool,
            default,
            help,
            tune: None,
        }
    }

    /// An integer key in `[min, max]`.
    pub const fn int(
        name: &'static str,
        default: &'static str,
        (min, max): (i64, i64),
        help: &'static str,
    ) -> Key {
        Key {
            name,
            kind: KeyKind::Int { min, max },
            default,
            help,
            tune: None,
        }
    }

    /// A number key in `[min, max]`.
    pub const fn float(
        name: &'static str,
        default: &'static str,
        (min, max): (f64, f64),
        help: &'static str,
    ) -> Key {
        Key {
            name,
            kind: KeyKind::Float { min, max },
            default,
            help,
            tune: None,
        }
    }

    /// A text key (a path).
    pub const fn text(name: &'static str, default: &'static str, help: &'static str) -> Key {
        Key {
            name,
            kind: KeyKind::Text,
            default,
            help,
            tune: None,
        }
    }

    /// A key whose value is one of `words`.
    pub const fn choice(
        name: &'static str,
        default: &'static str,
        words: &'static [&'static str],
        help: &'static str,
    ) -> Key {
        Key {
            name,
            kind: KeyKind::Choice(words),
            default,
            help,
            tune: None,
        }
    }

    /// The key, tuned in `[min, max]` ([`Tune::range`]). An integer key's `c_end` is at least
    /// 1: a smaller perturbation would round θ+ and θ− to the same value most of the time, and
    /// those pairs tell the tuner nothing.
    pub const fn tuned(self, min: f64, max: f64) -> Key {
        let mut tune = Tune::range(min, max);
        if matches!(self.kind, KeyKind::Int { .. }) && tune.c_end < 1.0 {
            tune.c_end = 1.0;
        }
        Key {
            tune: Some(tune),
            ..self
        }
    }
}

/// The type of a key's value, with its range.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum KeyKind {
    /// `true` or `false`.
    Bool,
    /// An integer in `[min, max]`.
    Int {
        /// Least value allowed.
        min: i64,
        /// Largest value allowed.
        max: i64,
    },
    /// A number in `[min, max]`.
    Float {
        /// Least value allowed.
        min: f64,
        /// Largest value allowed.
        max: f64,
    },
    /// Any text (a path).
    Text,
    /// One of these words.
    Choice(&'static [&'static str]),
}

/// The range an SPSA tuner explores for a numeric key, as an `arena spsa` parameters line
/// `NAME, int|float, start, min, max, c_end, r_end` wants it (start is the key's default).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tune {
    /// Least value tried.
    pub min: f64,
    /// Largest value tried.
    pub max: f64,
    /// The final perturbation size (SPSA's c at the last iteration).
    pub c_end: f64,
    /// The final learning rate (SPSA's r at the last iteration).
    pub r_end: f64,
}

impl Tune {
    /// A range `[min, max]` with `c_end` a tenth of its width and `r_end` 0.002, the usual
    /// starting choice for a tuner.
    pub const fn range(min: f64, max: f64) -> Tune {
        Tune {
            min,
            max,
            c_end: (max - min) / 10.0,
            r_end: 0.002,
        }
    }
}

/// A key's value once read.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Not given and no default.
    Unset,
    /// A switch.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A number.
    Float(f64),
    /// Text, or one of a choice's words.
    Text(String),
}

/// The values of every key of one table, in table order.
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    keys: &'static [Key],
    values: Vec<Value>,
}

impl Values {
    /// Reads every key of `keys` from `spec` (the default where absent) and rejects any other.
    ///
    /// # Errors
    /// A value that does not parse or lies outside its key's range, or a key not in the table.
    pub fn read(spec: &Spec, keys: &'static [Key]) -> Result<Values, SpecError> {
        let mut p = spec.params();
        let values = keys
            .iter()
            .map(|k| read_one(&mut p, k))
            .collect::<Result<Vec<_>, _>>()?;
        p.finish(&names(keys))?;
        Ok(Values { keys, values })
    }

    /// Every key at its default.
    ///
    /// # Panics
    /// A default that its own key refuses (a mistake in the table, which each engine's tests
    /// catch by calling this).
    pub fn defaults(keys: &'static [Key]) -> Values {
        let spec = Spec {
            name: "defaults".into(),
            params: Vec::new(),
        };
        match Values::read(&spec, keys) {
            Ok(v) => v,
            Err(e) => panic!("a key table's default is refused: {e}"),
        }
    }

    fn get(&self, name: &str) -> &Value {
        match self.keys.iter().position(|k| k.name == name) {
            Some(i) => &self.values[i],
            None => panic!("'{name}' is not a key of this table"),
        }
    }

    /// The switch `name`.
    ///
    /// # Panics
    /// `name` is not a `Bool` key of the table (a mistake in the engine's code).
    pub fn bool(&self, name: &str) -> bool {
        match self.get(name) {
            Value::Bool(b) => *b,
            other => panic!("key '{name}' is {other:?}, not a switch"),
        }
    }

    /// The integer `name`, `None` when it has no value.
    ///
    /// # Panics
    /// `name` is not an `Int` key of the table.
    pub fn opt_int(&self, name: &str) -> Option<i64> {
        match self.get(name) {
            Value::Int(n) => Some(*n),
            Value::Unset => None,
            other => panic!("key '{name}' is {other:?}, not an integer"),
        }
    }

    /// The integer `name`.
    ///
    /// # Panics
    /// `name` is not an `Int` key of the table with a value.
    pub fn int(&self, name: &str) -> i64 {
        self.opt_int(name)
            .unwrap_or_else(|| panic!("key '{name}' has no value"))
    }

    /// The integer `name` as an `i32` (the table's range keeps it in one).
    ///
    /// # Panics
    /// As [`Values::int`], or a range wider than `i32`.
    pub fn i32(&self, name: &str) -> i32 {
        i32::try_from(self.int(name)).expect("the key's range fits an i32")
    }

    /// The number `name`.
    ///
    /// # Panics
    /// `name` is not a `Float` key of the table with a value.
    pub fn float(&self, name: &str) -> f64 {
        match self.get(name) {
            Value::Float(x) => *x,
            other => panic!("key '{name}' is {other:?}, not a number"),
        }
    }

    /// The text (or choice) `name`; `""` when it has no value.
    ///
    /// # Panics
    /// `name` is not a `Text` or `Choice` key of the table.
    pub fn text(&self, name: &str) -> &str {
        match self.get(name) {
            Value::Text(s) => s,
            Value::Unset => "",
            other => panic!("key '{name}' is {other:?}, not text"),
        }
    }
}

/// The names of a table's keys, in order.
pub fn names(keys: &[Key]) -> Vec<&'static str> {
    keys.iter().map(|k| k.name).collect()
}

/// The key list of a help text: `name=TYPE (default): help` for each key, separated by `; `.
pub fn help_list(keys: &[Key]) -> String {
    let one = |k: &Key| {
        let kind = match k.kind {
            KeyKind::Bool => "true|false".to_string(),
            KeyKind::Int { min, max } => format!("N in [{min}, {max}]"),
            KeyKind::Float { min, max } => format!("X in [{min}, {max}]"),
            KeyKind::Text => "TEXT".to_string(),
            KeyKind::Choice(words) => words.join("|"),
        };
        let default = if k.default.is_empty() {
            "none"
        } else {
            k.default
        };
        format!("{}={kind} ({default}): {}", k.name, k.help)
    };
    keys.iter().map(one).collect::<Vec<_>>().join("; ")
}

/// Reads one key: its default text where the spec does not give it, checked like a given value.
fn read_one(p: &mut Params<'_>, k: &Key) -> Result<Value, SpecError> {
    let given = p.raw(k.name);
    let text = given.unwrap_or(k.default);
    if text.is_empty() && given.is_none() {
        return Ok(Value::Unset);
    }
    let name = k.name;
    let bad = |what: &str| {
        p.error(format!(
            "parameter '{name}': '{text}' is not a valid {what}"
        ))
    };
    match k.kind {
        KeyKind::Bool => text
            .parse()
            .map(Value::Bool)
            .map_err(|_| bad("boolean (true/false)")),
        KeyKind::Int { min, max } => {
            let n: i64 = text.parse().map_err(|_| bad("integer"))?;
            if !(min..=max).contains(&n) {
                return Err(p.error(format!(
                    "parameter '{name}' = {n} is outside [{min}, {max}]"
                )));
            }
            Ok(Value::Int(n))
        }
        KeyKind::Float { min, max } => {
            let x: f64 = text.parse().map_err(|_| bad("number"))?;
            if !(min..=max).contains(&x) {
                return Err(p.error(format!(
                    "parameter '{name}' = {} is outside [{min}, {max}]",
                    crate::shown_f64(x)
                )));
            }
            Ok(Value::Float(x))
        }
        KeyKind::Text => Ok(Value::Text(text.to_string())),
        KeyKind::Choice(words) => match words.iter().find(|w| **w == text) {
            Some(w) => Ok(Value::Text((*w).to_string())),
            None => Err(p.error(format!(
                "parameter '{name}': '{text}' is not one of {}",
                words.join(", ")
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: &[Key] = &[
        Key {
            name: "depth",
            kind: KeyKind::Int { min: 0, max: 100 },
            default: "",
            help: "search depth",
            tune: None,
        },
        Key {
            name: "hash",
            kind: KeyKind::Int { min: 1, max: 65536 },
            default: "16",
            help: "table MB",
            tune: Some(Tune::range(1.0, 64.0)),
        },
        Key {
            name: "tt",
            kind: KeyKind::Bool,
            default: "true",
            help: "table",
            tune: None,
        },
        Key {
            name: "c",
            kind: KeyKind::Float { min: 0.0, max: 1.0 },
            default: "0.2",
            help: "exploration",
            tune: None,
        },
        Key {
            name: "leaf",
            kind: KeyKind::Choice(&["qsearch", "eval"]),
            default: "qsearch",
            help: "leaf value",
            tune: None,
        },
    ];

    fn read(text: &str) -> Result<Values, String> {
        Values::read(&Spec::parse(text).unwrap(), KEYS).map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_and_given_values() {
        let d = Values::defaults(KEYS);
        assert_eq!(d.opt_int("depth"), None);
        assert_eq!(d.int("hash"), 16);
        assert!(d.bool("tt"));
        assert_eq!(d.float("c"), 0.2);
        assert_eq!(d.text("leaf"), "qsearch");
        let v = read("x:depth=3,hash=64,tt=false,c=0.5,leaf=eval").unwrap();
        assert_eq!(
            (v.opt_int("depth"), v.i32("hash"), v.bool("tt")),
            (Some(3), 64, false)
        );
        assert_eq!((v.float("c"), v.text("leaf")), (0.5, "eval"));
    }

    #[test]
    fn bad_values_are_named() {
        for (spec, want) in [
            ("x:hash=0", "parameter 'hash' = 0 is outside [1, 65536]"),
            (
                "x:hash=big",
                "parameter 'hash': 'big' is not a valid integer",
            ),
            ("x:tt=yes", "parameter 'tt': 'yes' is not a valid boolean"),
            ("x:c=2", "parameter 'c' = 2 is outside [0, 1]"),
            (
                "x:leaf=mc",
                "parameter 'leaf': 'mc' is not one of qsearch, eval",
            ),
            (
                "x:hsah=1",
                "unknown parameter 'hsah' for engine 'x' (known: depth, hash",
            ),
        ] {
            let e = read(spec).unwrap_err();
            assert!(e.contains(want), "{spec}: {e}");
        }
    }

    #[test]
    fn help_lists_every_key_with_its_default() {
        let h = help_list(KEYS);
        assert!(
            h.starts_with("depth=N in [0, 100] (none): search depth; hash="),
            "{h}"
        );
        assert!(h.contains("leaf=qsearch|eval (qsearch): leaf value"), "{h}");
        assert_eq!(Tune::range(1.0, 64.0).c_end, 6.3);
    }
}
