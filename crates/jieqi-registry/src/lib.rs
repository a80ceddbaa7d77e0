//! The engine registry: every in-process engine by name, with its help text and its factory, and
//! the names the rule presets have as UCI variants. The arena and `jieqi-uci` both read engines
//! from here, so a new engine is added once: its crate's `ENGINES` list and `factory`, and a line
//! in [`KINDS`].

#![deny(missing_docs)]
#![forbid(unsafe_code)]

use core::fmt;

use jieqi_core::Rules;
use jieqi_engine::{Factory, Spec, SpecError};

/// What the registry says of one engine kind besides its help: what a front end may offer for
/// it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    /// The spec name.
    pub name: &'static str,
    /// Whether it searches on several threads (its spec takes `threads=N`): `jieqi-uci` offers
    /// `Threads` for it.
    pub threads: bool,
}

/// Every engine kind with what it can do, strongest first (the order `jieqi-uci` offers them
/// in). A new engine is described here once.
pub const DESCRIPTIONS: [Kind; 8] = [
    Kind {
        name: "alphabeta",
        threads: true,
    },
    Kind {
        name: "ismcts",
        threads: true,
    },
    Kind {
        name: "mcts-solver",
        threads: false,
    },
    Kind {
        name: "flat-uct",
        threads: false,
    },
    Kind {
        name: "level",
        threads: false,
    },
    Kind {
        name: "greedy",
        threads: false,
    },
    Kind {
        name: "random",
        threads: false,
    },
    Kind {
        name: "peak",
        threads: false,
    },
];

/// Every engine kind's name, in [`DESCRIPTIONS`] order.
pub const KINDS: [&str; DESCRIPTIONS.len()] = {
    let mut names = [""; DESCRIPTIONS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = DESCRIPTIONS[i].name;
        i += 1;
    }
    names
};

/// The description of the engine kind `name`, if it is one.
pub fn kind(name: &str) -> Option<&'static Kind> {
    DESCRIPTIONS.iter().find(|k| k.name == name)
}

/// Whether the engine kind `name` searches on several threads (takes `threads=N`); `false` for
/// a name that is no kind.
pub fn takes_threads(name: &str) -> bool {
    kind(name).is_some_and(|k| k.threads)
}

/// Rule presets by their `UCI_Variant` name: `jieqi` is the mainstream rules (`standard`).
pub const UCI_VARIANTS: [(&str, &str); 3] = [
    ("jieqi", "standard"),
    ("xiangqi", "xiangqi"),
    ("simple", "simple"),
];

/// Rule presets by the `UCI_Variant` name Fairy-Stockfish gives the same rules: its `xiangqi`.
/// It has no Jieqi variant (11.1 offers none, and one defined in a variants file need not be our
/// rules), so no other rule set is sent to it.
pub const FAIRY_VARIANTS: [(&str, &str); 1] = [("xiangqi", "xiangqi")];

/// (name, help) of every engine kind, in [`KINDS`] order.
pub fn help() -> Vec<(&'static str, &'static str)> {
    let all: Vec<(&'static str, &'static str)> = jieqi_search::ENGINES
        .iter()
        .map(|(name, help)| (*name, help()))
        .chain(jieqi_baselines::ENGINES.iter().copied())
        .collect();
    KINDS
        .iter()
        .filter_map(|k| all.iter().find(|(n, _)| n == k).copied())
        .collect()
}

/// The key table of the engine kind `name` ([`jieqi_engine::keys`]): its keys with their
/// defaults, ranges, help and tuning ranges; `None` for a name that is no kind or a kind without
/// a table.
pub fn keys(name: &str) -> Option<&'static [jieqi_engine::Key]> {
    jieqi_search::keys(name)
}

/// A spec that names no usable engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegistryError {
    /// No engine of this name.
    Unknown {
        /// The spec as written.
        spec: String,
    },
    /// The engine refuses a parameter, or a file it names cannot be read.
    Spec(SpecError),
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::Unknown { spec } => write!(
                f,
                "engine spec '{spec}': no engine of that name (known: {})",
                KINDS.join(", ")
            ),
            RegistryError::Spec(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RegistryError {}

/// The factory of the engine a spec names. Everything the spec needs from outside (an `eval=`
/// weights file) is read here, once; building engines from the factory cannot fail.
///
/// # Errors
/// An unknown engine, a bad parameter or an unreadable file.
pub fn factory(spec: &Spec) -> Result<Factory, RegistryError> {
    jieqi_search::factory(spec)
        .or_else(|| jieqi_baselines::factory(spec))
        .ok_or_else(|| RegistryError::Unknown {
            spec: spec.to_string(),
        })?
        .map_err(RegistryError::Spec)
}

/// The `UCI_Variant` of a rule set, matched by its switches (not its name): the variant whose
/// preset has every switch of `rules`. `None` when no variant has them all — an engine told any
/// variant would then play other rules than the referee applies.
pub fn uci_variant_of(rules: &Rules) -> Option<&'static str> {
    variant_in(&UCI_VARIANTS, rules)
}

/// The Fairy-Stockfish `UCI_Variant` of a rule set, matched by its switches as in
/// [`uci_variant_of`]: `None` for every rule set but the `xiangqi` preset's ([`FAIRY_VARIANTS`]).
pub fn fairy_variant_of(rules: &Rules) -> Option<&'static str> {
    variant_in(&FAIRY_VARIANTS, rules)
}

/// The variant of `table` whose preset has every switch of `rules`.
fn variant_in(table: &[(&'static str, &str)], rules: &Rules) -> Option<&'static str> {
    table.iter().find_map(|(variant, preset)| {
        let mut p = Rules::preset(preset)?;
        p.name = rules.name;
        (p == *rules).then_some(*variant)
    })
}

/// The `UCI_Variant` name of a rule set: [`uci_variant_of`], else the rules' name.
pub fn uci_variant(rules: &Rules) -> &str {
    uci_variant_of(rules).unwrap_or(rules.name.as_str())
}

/// The rule preset of a `UCI_Variant` name (case-insensitive), if it is one of [`UCI_VARIANTS`].
pub fn rules_of_uci_variant(variant: &str) -> Option<Rules> {
    UCI_VARIANTS
        .iter()
        .find(|(v, _)| v.eq_ignore_ascii_case(variant))
        .and_then(|(_, preset)| Rules::preset(preset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_are_matched_by_switches() {
        assert_eq!(uci_variant_of(&Rules::standard()), Some("jieqi"));
        assert_eq!(uci_variant_of(&Rules::xiangqi()), Some("xiangqi"));
        let mut r = Rules::standard();
        r.name = jieqi_core::RuleName::new("my-copy");
        assert_eq!(
            uci_variant_of(&r),
            Some("jieqi"),
            "the name does not matter"
        );
        r.no_capture_plies = Some(120);
        assert_eq!(uci_variant_of(&r), None, "a switch does");
        r.name = jieqi_core::RuleName::new("standard");
        assert_eq!(uci_variant_of(&r), None);
    }

    #[test]
    fn every_kind_has_help_and_builds_with_defaults() {
        let help = help();
        assert_eq!(
            help.len(),
            KINDS.len(),
            "a kind without help, or help without a kind"
        );
        for (name, text) in help {
            assert!(!text.is_empty());
            let f = factory(&Spec::parse(name).unwrap()).unwrap_or_else(|e| panic!("{e}"));
            drop(f.build());
        }
        // Every engine the crates list is a kind.
        let search = jieqi_search::ENGINES.iter().map(|(n, _)| n);
        for name in search.chain(jieqi_baselines::ENGINES.iter().map(|(n, _)| n)) {
            assert!(KINDS.contains(name), "{name} is missing from KINDS");
        }
    }

    /// An engine with a key table lists every key in its help, and a tuned key's default lies
    /// inside its tuning range.
    #[test]
    fn key_tables_are_in_the_help() {
        let help = help();
        for name in ["alphabeta", "ismcts", "mcts-solver"] {
            let table = keys(name).unwrap_or_else(|| panic!("{name} has a key table"));
            let text = help.iter().find(|(n, _)| *n == name).unwrap().1;
            for k in table {
                assert!(text.contains(&format!("{}=", k.name)), "{}: {text}", k.name);
                if let Some(t) = k.tune {
                    let start: f64 = k.default.parse().unwrap();
                    assert!(
                        t.min < t.max && (t.min..=t.max).contains(&start),
                        "{name} {}",
                        k.name
                    );
                }
            }
        }
        assert!(keys("random").is_none() && keys("nosuch").is_none());
    }

    /// The `threads` flag is what the engines do: exactly the kinds it marks take `threads=2`.
    #[test]
    fn the_threads_flag_matches_the_engines() {
        for k in DESCRIPTIONS {
            let spec = Spec::parse(&format!("{}:threads=2", k.name)).unwrap();
            assert_eq!(
                factory(&spec).is_ok(),
                k.threads,
                "{}: threads={}",
                k.name,
                k.threads
            );
            assert_eq!(takes_threads(k.name), k.threads);
        }
        assert!(!takes_threads("stockfish"));
    }

    #[test]
    fn bad_specs_are_named() {
        let e = factory(&Spec::parse("stockfish").unwrap()).unwrap_err();
        assert!(e.to_string().contains("no engine of that name"), "{e}");
        let e = factory(&Spec::parse("alphabeta:eval=/nonexistent.json").unwrap()).unwrap_err();
        assert!(e.to_string().contains("/nonexistent.json"), "{e}");
    }

    #[test]
    fn fairy_stockfish_is_told_xiangqi_only() {
        assert_eq!(fairy_variant_of(&Rules::xiangqi()), Some("xiangqi"));
        assert_eq!(fairy_variant_of(&Rules::standard()), None);
        assert_eq!(fairy_variant_of(&Rules::simple()), None);
        let mut r = Rules::xiangqi();
        r.flying_general = !r.flying_general;
        assert_eq!(fairy_variant_of(&r), None, "a switch changed");
    }

    #[test]
    fn variants_round_trip() {
        for (variant, preset) in UCI_VARIANTS {
            let rules = rules_of_uci_variant(variant).unwrap();
            assert_eq!(rules.name.as_str(), preset);
            assert_eq!(uci_variant(&rules), variant);
        }
        assert_eq!(rules_of_uci_variant("JIEQI"), Rules::preset("standard"));
        assert_eq!(rules_of_uci_variant("chess"), None);
    }

    /// Every engine (and the threaded searches) answers one of the `go searchmoves` moves, even
    /// when the move it prefers otherwise is not among them.
    #[test]
    fn every_engine_keeps_to_searchmoves() {
        use jieqi_core::{Position, View, fen};
        use jieqi_engine::{Control, Limits};
        let positions = [
            (Rules::standard(), None),
            // Red's chariot takes a loose black chariot: what every engine plays unrestricted.
            (
                Rules::xiangqi(),
                Some("3akab2/9/9/9/r8/9/9/9/R8/3K5 w - - 0 1"),
            ),
        ];
        let specs = [
            "random",
            "greedy",
            "level",
            "alphabeta",
            "alphabeta:threads=2",
            "ismcts",
            "ismcts:threads=2",
            "flat-uct",
            "mcts-solver",
        ];
        let limits = Limits {
            nodes: Some(3000),
            ..Limits::default()
        };
        for (rules, text) in positions {
            let setup = match text {
                Some(t) => fen::parse(t).unwrap(),
                None => Position::start(&rules).to_setup(),
            };
            let view = View::from_setup(&setup, &rules).unwrap();
            let legal = view.legal_moves();
            for spec in specs {
                let factory = factory(&Spec::parse(spec).unwrap()).unwrap();
                for seed in 0..3 {
                    let free = factory.build().go(&view, &limits, seed).unwrap().mv;
                    // Two legal moves other than the one it prefers.
                    let wanted: Vec<_> = legal
                        .iter()
                        .copied()
                        .filter(|&m| m != free)
                        .take(2)
                        .collect();
                    let control = Control::default().with_searchmoves(&wanted);
                    let chosen = factory
                        .build()
                        .search(&view, &limits, seed, &control)
                        .unwrap();
                    assert!(
                        wanted.contains(&chosen.mv),
                        "{spec} seed {seed}: {} is not among {wanted:?}",
                        chosen.mv
                    );
                    if let Some(&first) = chosen.info.pv.first() {
                        assert_eq!(first, chosen.mv, "{spec}: the pv starts with the move");
                    }
                }
            }
        }
    }
}
