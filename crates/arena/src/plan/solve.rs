//! `arena solve`'s plan: the suite (read here: lines that do not hold up are said and skipped),
//! the engines, the limits and threads, and a results folder that is known to be writable.

use std::path::PathBuf;
use std::time::Duration;

use jieqi_engine::Limits;

use crate::cli::solve::SolveArgs;
use crate::engines::EngineEntry;
use crate::error::Error;
use crate::records::epd::Suite;

pub use crate::analysis::solve::{MinSolved, SolvePlan};

/// The journal of finished positions in a results folder of `arena solve`.
pub const JOURNAL: &str = "solve.jsonl";

impl MinSolved {
    /// Reads `N` (a count from 1 to `positions`) or `P%` (a percentage above 0 and at most 100,
    /// rounded up to whole positions).
    ///
    /// # Errors
    /// Neither form, or out of range; the message says which.
    pub fn parse(text: &str, positions: usize) -> Result<MinSolved, String> {
        let t = text.trim();
        let required = if let Some(p) = t.strip_suffix('%') {
            let p: f64 = p
                .trim()
                .parse()
                .ok()
                .filter(|p: &f64| p.is_finite())
                .ok_or_else(|| {
                    format!("'{text}': give a count N or a percentage P% (such as 40 or 87.5%)")
                })?;
            if !(p > 0.0 && p <= 100.0) {
                return Err(format!(
                    "'{text}': a percentage must be above 0 and at most 100"
                ));
            }
            // Rounded up, so that 87.5 % of 8 positions is 7; a hair of slack for 100/3 %.
            ((p * positions as f64 / 100.0) - 1e-9).ceil().max(1.0) as usize
        } else {
            let n: usize = t.parse().map_err(|_| {
                format!("'{text}': give a count N or a percentage P% (such as 40 or 87.5%)")
            })?;
            if n == 0 || n > positions {
                return Err(format!(
                    "'{text}': must be from 1 to the suite's {positions} valid positions"
                ));
            }
            n
        };
        Ok(MinSolved {
            given: t.to_string(),
            required,
        })
    }
}

impl SolvePlan {
    /// Validates `arena solve` arguments: reads the suite, and creates the results folder and
    /// makes sure it can be written.
    ///
    /// # Errors
    /// Bad rules, a zero limit, threads out of range, a bad engine or two with one label, a
    /// suite that cannot be read or has no valid position, an `--out` that cannot be written.
    pub fn new(args: SolveArgs) -> Result<SolvePlan, Error> {
        let rules = crate::plan::rules_arg::resolve(&args.rules.rules)?;
        let limits = Limits {
            nodes: args.limits.nodes,
            depth: args.limits.depth,
            movetime: args.limits.movetime.map(Duration::from_millis),
            clock: None,
        };
        for (flag, value) in [
            ("--movetime", args.limits.movetime),
            ("--nodes", args.limits.nodes),
            ("--depth", args.limits.depth.map(u64::from)),
            ("--move-timeout", args.move_timeout),
        ] {
            if value == Some(0) {
                return Err(Error::Input(format!("{flag} must be at least 1")));
            }
        }
        let threads = args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if !(1..=1024).contains(&threads) {
            return Err(Error::Input("--threads must be from 1 to 1024".into()));
        }
        let mut engines = Vec::new();
        for arg in &args.engines {
            let entry = crate::engines::parse_arg(arg)
                .map_err(|e| Error::Input(format!("--engine {arg}: {e}")))?;
            entry
                .check_rules(&rules)
                .map_err(|why| Error::Input(format!("--engine {arg}: {why}")))?;
            if engines.iter().any(|e: &EngineEntry| e.label == entry.label) {
                return Err(Error::Input(format!(
                    "two engines are labelled '{}': give one name=LABEL",
                    entry.label
                )));
            }
            engines.push(entry);
        }
        let suite: Suite = crate::records::epd::read(&args.suite, &rules).map_err(Error::from)?;
        let name = args.suite.display().to_string();
        for e in &suite.errors {
            eprintln!("{name}:{}: skipped: {}", e.line, e.message);
        }
        if suite.entries.is_empty() {
            return Err(Error::Input(format!(
                "{name}: no position to solve ({} lines skipped)",
                suite.errors.len()
            )));
        }
        let min_solved = args
            .min_solved
            .as_deref()
            .map(|text| MinSolved::parse(text, suite.entries.len()))
            .transpose()
            .map_err(|m| Error::arg("--min-solved", m))?;
        let out = match args.out {
            Some(d) => d,
            None => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs());
                let stem = args
                    .suite
                    .file_stem()
                    .map_or("suite".into(), |s| s.to_string_lossy().into_owned());
                PathBuf::from("results").join(format!(
                    "{}-solve-{stem}",
                    crate::util::time::utc_timestamp(now)
                ))
            }
        };
        // The folder must be usable before any work is done.
        crate::records::files::create_dir(&out)
            .and_then(|()| crate::records::files::probe_folder(&out))
            .map_err(|e| Error::Input(format!("--out: {e}")))?;
        for name in ["solve.json", "solve.csv", JOURNAL] {
            crate::records::files::check_output(&out.join(name))
                .map_err(|m| Error::Input(format!("--out {m}")))?;
        }
        Ok(SolvePlan {
            suite_path: args.suite,
            suite,
            rules_name: args.rules.rules,
            limits,
            threads,
            engines,
            seed: args.seed,
            move_timeout: args.move_timeout,
            out,
            resume: args.resume,
            min_solved,
            mate_check_nodes: args.mate_check_nodes,
            failed_only: args.failed_only,
            no_progress: args.no_progress,
        })
    }
}
