//! The UCI options: which of our engines plays, its parameters, the rules, and the seed.
//!
//! Every option maps onto the engine spec strings the arena uses (`alphabeta:hash=64`), so an
//! engine behaves the same here as in-process, and a bad value is refused with the spec error.

use crate::command::quoted;
use jieqi_core::Rules;
use jieqi_engine::{Engine, Spec};
use jieqi_registry::{KINDS as ENGINES, UCI_VARIANTS as VARIANTS};

/// Most `Threads` the option takes (`jieqi_search::MAX_THREADS`, the searchers' own maximum).
pub const MAX_THREADS: usize = 256;

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Engine`: one of the registry's engines ([`jieqi_registry::KINDS`]).
    pub engine: String,
    /// `EngineOptions`: more spec parameters, `key=value,key=value` (or separated by `;`, which
    /// survives inside an arena engine spec: `option.EngineOptions=hash=32;contempt=0`).
    pub engine_options: String,
    /// `Hash` (MB), for `alphabeta`.
    pub hash: u32,
    /// `Contempt` (centipawns), for `alphabeta`.
    pub contempt: i32,
    /// `Threads`: search threads, for the engines the registry marks as threaded
    /// ([`jieqi_registry::takes_threads`]); the others search on one.
    pub threads: u32,
    /// `UCI_Variant`: one of [`jieqi_registry::UCI_VARIANTS`].
    pub variant: String,
    /// `Seed`: the seed of every following search (an arena sets it before each `go` to
    /// reproduce its in-process games).
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            engine: ENGINES[0].into(),
            engine_options: String::new(),
            hash: 16,
            contempt: 20,
            threads: 1,
            variant: VARIANTS[0].0.into(),
            seed: 0,
        }
    }
}

/// The largest `Hash` (MB) the option ever takes.
pub const HASH_CEILING: u32 = 65536;

/// The largest `Hash` (MB) this machine takes safely, at most [`HASH_CEILING`]: what `Hash`
/// declares as its maximum and the most `setoption` takes, so that a GUI's spinner (JieqiBox
/// saves and sends the value again on every load) offers no size the engine would refuse or
/// could not hold. The table's every slot is written when it is made, so a size that can only
/// be reserved (the system overcommits) is no safe maximum: it is half the physical memory,
/// rounded down to a power of two ([`memory_cap`]), and within that the largest size the
/// engine's own check ([`jieqi_registry::factory`]) accepts, found once by halving.
pub fn max_hash_mb() -> u32 {
    static MAX: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| {
        let fits = |mb: u32| {
            Spec::parse(&format!("alphabeta:hash={mb}"))
                .is_ok_and(|spec| jieqi_registry::factory(&spec).is_ok())
        };
        let cap = physical_mb().map_or(HASH_CEILING, memory_cap);
        if fits(cap) {
            return cap;
        }
        // fits(lo) holds (or lo is 1, the least any table takes), fits(hi) does not.
        let (mut lo, mut hi) = (1, cap);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    })
}

/// The largest `Hash` (MB) a machine of `physical_mb` MB of memory is offered: half of it,
/// rounded down to a power of two, from 1 to [`HASH_CEILING`].
pub fn memory_cap(physical_mb: u64) -> u32 {
    let half = (physical_mb / 2).max(1);
    let power = 1u64 << (63 - half.leading_zeros());
    power.min(u64::from(HASH_CEILING)) as u32
}

/// The machine's physical memory in MB, from `/proc/meminfo`'s `MemTotal` (its first 4 KiB
/// read); `None` where there is none or it does not say.
fn physical_mb() -> Option<u64> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open("/proc/meminfo")
        .ok()?
        .take(4096)
        .read_to_string(&mut text)
        .ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line
        .trim_start_matches("MemTotal:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024)
}

/// The steps of the `Contempt` combo, in centipawns: its values run from −1000 to 1000 by this.
pub const CONTEMPT_STEP: i32 = 10;

/// The `option` lines of the `uci` answer.
///
/// An empty string default is a bare `default`: JieqiBox's dialog (`/default (.+?)(?:\s|$)/`)
/// reads that as empty, and would show and send back Stockfish's `<empty>` literally (which
/// `setoption` still reads as empty). `Hash` declares the largest table this machine can hold
/// ([`max_hash_mb`]).
///
/// Each is written so that JieqiBox's options dialog reads it whole: it takes a spin's `default`,
/// `min` and `max` with `(\d+)`, so a negative bound is lost (`min -1000` would read as 0), and a
/// combo's default with `(\w+)`. `Contempt`, whose range is negative too, is therefore a combo of
/// the values −1000 to 1000 in steps of [`CONTEMPT_STEP`]; `setoption` still takes any whole
/// number in that range.
pub fn declarations() -> Vec<String> {
    let d = Options::default();
    let contempts: String = (-1000..=1000)
        .step_by(CONTEMPT_STEP as usize)
        .map(|c| format!(" var {c}"))
        .collect();
    let engines: String = ENGINES.iter().map(|e| format!(" var {e}")).collect();
    let variants: String = VARIANTS.iter().map(|(v, _)| format!(" var {v}")).collect();
    vec![
        format!(
            "option name Engine type combo default {}{engines}",
            d.engine
        ),
        "option name EngineOptions type string default".into(),
        format!(
            "option name Hash type spin default {} min 1 max {}",
            d.hash.min(max_hash_mb()),
            max_hash_mb()
        ),
        format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            d.threads
        ),
        format!(
            "option name Contempt type combo default {}{contempts}",
            d.contempt
        ),
        format!(
            "option name UCI_Variant type combo default {}{variants}",
            d.variant
        ),
        format!("option name Seed type string default {}", d.seed),
    ]
}

impl Options {
    /// Sets an option by its (case-insensitive) name. Returns whether the engine must be built
    /// anew (every option but `Seed`).
    ///
    /// # Errors
    /// An unknown option or a value it does not take, described for an `info string`.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<bool, String> {
        let value = value.unwrap_or("").trim();
        let mut next = self.clone();
        match name.to_ascii_lowercase().as_str() {
            "engine" => {
                let e = ENGINES
                    .iter()
                    .find(|e| e.eq_ignore_ascii_case(value))
                    .ok_or_else(|| {
                        format!(
                            "Engine: '{}' is not one of {}",
                            quoted(value),
                            ENGINES.join(", ")
                        )
                    })?;
                next.engine = (*e).into();
            }
            "engineoptions" => {
                next.engine_options = if value == "<empty>" { "" } else { value }.replace(';', ",");
            }
            "hash" => next.hash = spin(name, value, 1, i64::from(max_hash_mb()))? as u32,
            "threads" => next.threads = spin(name, value, 1, MAX_THREADS as i64)? as u32,
            "contempt" => next.contempt = spin(name, value, -1000, 1000)? as i32,
            "uci_variant" => {
                let v = VARIANTS
                    .iter()
                    .find(|(v, _)| v.eq_ignore_ascii_case(value))
                    .ok_or_else(|| {
                        let names: Vec<&str> = VARIANTS.iter().map(|(v, _)| *v).collect();
                        format!(
                            "UCI_Variant: '{}' is not one of {}",
                            quoted(value),
                            names.join(", ")
                        )
                    })?;
                next.variant = v.0.into();
            }
            "seed" => {
                next.seed = value.parse().map_err(|_| {
                    format!("Seed: '{}' is not a number in [0, 2^64)", quoted(value))
                })?;
                *self = next;
                return Ok(false);
            }
            _ => return Err(format!("no option named '{}'", quoted(name))),
        }
        // The engine must build: a `Hash` the machine cannot allocate is refused here, keeping
        // the previous value, rather than failing at the next `go`.
        jieqi_registry::factory(&next.spec()?).map_err(|e| e.to_string())?;
        *self = next;
        Ok(true)
    }

    /// The rules of the selected variant.
    pub fn rules(&self) -> Rules {
        jieqi_registry::rules_of_uci_variant(&self.variant).unwrap_or_else(Rules::standard)
    }

    /// The engine spec the options describe: the engine, `Hash` and `Contempt` where it takes
    /// them (unless `EngineOptions` sets them), then `EngineOptions`.
    ///
    /// # Errors
    /// `EngineOptions` does not parse, or the engine rejects a parameter.
    pub fn spec(&self) -> Result<Spec, String> {
        let mut text = self.engine.clone();
        if !self.engine_options.is_empty() {
            text = format!("{text}:{}", self.engine_options);
        }
        let mut spec = Spec::parse(&text).map_err(|e| e.to_string())?;
        if jieqi_registry::takes_threads(&spec.name)
            && self.threads > 1
            && !spec.params.iter().any(|(k, _)| k == "threads")
        {
            spec.params
                .push(("threads".into(), self.threads.to_string()));
        }
        if spec.name == "alphabeta" {
            for (key, value) in [
                ("hash", self.hash.to_string()),
                ("contempt", self.contempt.to_string()),
            ] {
                if !spec.params.iter().any(|(k, _)| k == key) {
                    spec.params.push((key.into(), value));
                }
            }
        }
        build(&spec)?;
        Ok(spec)
    }
}

/// Builds one of our engines from a spec, through the registry the arena uses too.
///
/// # Errors
/// An unknown engine, a bad parameter or an unreadable file.
pub fn build(spec: &Spec) -> Result<Box<dyn Engine>, String> {
    jieqi_registry::factory(spec)
        .map(|f| f.build())
        .map_err(|e| e.to_string())
}

fn spin(name: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    let v: i64 = value
        .parse()
        .map_err(|_| format!("{name}: '{}' is not a whole number", quoted(value)))?;
    if !(min..=max).contains(&v) {
        return Err(format!("{name}: {v} is outside [{min}, {max}]"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_become_specs() {
        let mut o = Options::default();
        assert_eq!(
            o.spec().unwrap().to_string(),
            "alphabeta:hash=16,contempt=20"
        );
        assert!(o.set("hash", Some("64")).unwrap());
        assert!(
            o.set("ENGINEOPTIONS", Some("contempt=0,null=false"))
                .unwrap()
        );
        assert_eq!(
            o.spec().unwrap().to_string(),
            "alphabeta:contempt=0,null=false,hash=64"
        );
        assert!(
            o.set("Engine", Some("ismcts")).is_err(),
            "null is not an ismcts key"
        );
        assert!(o.set("EngineOptions", Some("hash=8;contempt=5")).unwrap());
        assert_eq!(o.spec().unwrap().to_string(), "alphabeta:hash=8,contempt=5");
        assert!(o.set("EngineOptions", Some("<empty>")).unwrap());
        assert!(o.set("Engine", Some("ismcts")).unwrap());
        assert_eq!(o.spec().unwrap().to_string(), "ismcts");
        assert!(!o.set("Seed", Some("18446744073709551615")).unwrap());
        assert_eq!(o.seed, u64::MAX);
        assert!(o.set("Threads", Some("2")).unwrap());
        assert_eq!(o.spec().unwrap().to_string(), "ismcts:threads=2");
        assert!(o.set("Engine", Some("greedy")).unwrap());
        assert_eq!(o.spec().unwrap().to_string(), "greedy");
        assert!(o.set("Engine", Some("alphabeta")).unwrap());
        assert_eq!(
            o.spec().unwrap().to_string(),
            "alphabeta:threads=2,hash=64,contempt=20"
        );
        assert!(o.set("UCI_Variant", Some("simple")).unwrap());
        assert_eq!(o.rules(), Rules::simple());
    }

    /// `Threads` reaches exactly the engines the registry marks as threaded (and each of them
    /// builds with it); no list of its own here.
    #[test]
    fn threads_go_exactly_to_the_engines_the_registry_marks() {
        for kind in jieqi_registry::DESCRIPTIONS {
            let mut o = Options::default();
            o.set("Engine", Some(kind.name)).unwrap();
            o.set("Threads", Some("2")).unwrap();
            let spec = o.spec().unwrap();
            let threaded = spec.params.iter().any(|(k, v)| k == "threads" && v == "2");
            assert_eq!(threaded, kind.threads, "{}: {spec}", kind.name);
        }
    }

    /// Every declaration read as JieqiBox's options dialog reads it (UciOptionsDialog.vue:
    /// `default (\d+)`, `min (\d+)`, `max (\d+)` for a spin, `default (\w+)` and `var (.+)`
    /// split on ` var ` for a combo) gives the option's real default and range.
    #[test]
    fn jieqibox_reads_every_declaration_whole() {
        // The first `word (digits)` / `word (word chars)` match, as a JavaScript regex finds it.
        fn first(line: &str, word: &str, ok: fn(char) -> bool) -> Option<String> {
            let key = format!("{word} ");
            let mut from = 0;
            while let Some(i) = line[from..].find(&key) {
                let rest = &line[from + i + key.len()..];
                let taken: String = rest.chars().take_while(|&c| ok(c)).collect();
                if !taken.is_empty() {
                    return Some(taken);
                }
                from += i + key.len();
            }
            None
        }
        let digit = |c: char| c.is_ascii_digit();
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        for line in declarations() {
            let name = line["option name ".len()..line.find(" type ").unwrap()].to_string();
            let kind = first(&line, "type", word).unwrap();
            match kind.as_str() {
                "spin" => {
                    let default: i64 = first(&line, "default", digit).unwrap().parse().unwrap();
                    let min: i64 = first(&line, "min", digit).unwrap().parse().unwrap();
                    let max: i64 = first(&line, "max", digit).unwrap().parse().unwrap();
                    // What the line says, read by a full parser.
                    let says = |w: &str| -> i64 {
                        let words: Vec<&str> = line.split_whitespace().collect();
                        let i = words.iter().position(|x| *x == w).unwrap();
                        words[i + 1].parse().unwrap()
                    };
                    assert_eq!(
                        (default, min, max),
                        (says("default"), says("min"), says("max")),
                        "{line}"
                    );
                    let mut o = Options::default();
                    assert!(o.set(&name, Some(&min.to_string())).is_ok(), "{name}");
                    // Hash too: its maximum is what this machine can hold (the table is only
                    // reserved here, not touched). It used to declare 65536 MB on every
                    // machine, and JieqiBox sent a refused value again on every load.
                    assert!(
                        o.set(&name, Some(&max.to_string())).is_ok(),
                        "{name} = {max} refused"
                    );
                }
                "combo" => {
                    let default = first(&line, "default", word).unwrap();
                    let vars: Vec<&str> = line[line.find("var ").unwrap() + 4..]
                        .split(" var ")
                        .collect();
                    assert!(
                        vars.contains(&default.as_str()),
                        "{line}: default {default}"
                    );
                    for v in vars {
                        let mut o = Options::default();
                        assert!(o.set(&name, Some(v)).is_ok(), "{name} = {v}");
                    }
                }
                "string" => {
                    // `/default (.+?)(?:\s|$)/`: the first word after `default `, or empty.
                    let default = line
                        .find("default ")
                        .map(|i| line[i + 8..].split(' ').next().unwrap_or(""))
                        .unwrap_or("");
                    // JieqiBox shows (and sends back) what it reads: the value itself, so an
                    // empty one is no `<empty>`.
                    let d = Options::default();
                    let value = match name.as_str() {
                        "EngineOptions" => d.engine_options.clone(),
                        _ => d.seed.to_string(),
                    };
                    assert_eq!(default, value, "{line}");
                    let mut o = Options::default();
                    assert!(o.set(&name, Some(default)).is_ok(), "{name} = '{default}'");
                    assert_eq!(o, d, "{line}: JieqiBox reads '{default}'");
                }
                other => panic!("{line}: type {other}"),
            }
        }
        // Contempt: the whole range from the dialog, and any whole number by setoption.
        let contempt = declarations()
            .into_iter()
            .find(|l| l.contains("name Contempt "))
            .unwrap();
        assert!(
            contempt.contains(" var -1000 ") && contempt.ends_with(" var 1000"),
            "{contempt}"
        );
        let mut o = Options::default();
        o.set("Contempt", Some("-300")).unwrap();
        assert_eq!(o.contempt, -300);
        o.set("Contempt", Some("-7")).unwrap();
        assert_eq!(
            o.spec().unwrap().to_string(),
            "alphabeta:hash=16,contempt=-7"
        );
    }

    /// Half the physical memory, rounded down to a power of two, from 1 MB to 65536 MB: this
    /// machine's 24105 MB used to declare `max 24105`, every slot of which a table writes.
    #[test]
    fn hash_is_offered_up_to_half_the_memory_as_a_power_of_two() {
        assert_eq!(memory_cap(24105), 8192);
        assert_eq!(memory_cap(16384), 8192);
        assert_eq!(memory_cap(1_000_000), HASH_CEILING);
        assert_eq!(memory_cap(0), 1);
        if let Some(mb) = physical_mb() {
            assert!(u64::from(max_hash_mb()) <= (mb / 2).max(1), "{mb} MB");
        }
    }

    #[test]
    fn bad_values_are_refused_and_change_nothing() {
        let mut o = Options::default();
        let before = o.clone();
        // The range `Hash` declares, not the most it could ever take.
        let hash_range = format!("Hash: 0 is outside [1, {}]", max_hash_mb());
        for (name, value, says) in [
            ("Hash", "0", hash_range.as_str()),
            ("Threads", "257", "outside [1, 256]"),
            ("Threads", "0", "outside [1, 256]"),
            ("Engine", "stockfish", "not one of"),
            ("UCI_Variant", "chess", "not one of"),
            ("EngineOptions", "depth=deep", "'depth'"),
            ("Seed", "-1", "not a number"),
            ("Colour", "red", "no option named"),
        ] {
            let e = o.set(name, Some(value)).unwrap_err();
            assert!(e.contains(says), "{name}={value}: {e}");
        }
        assert_eq!(o, before);
    }
}
