//! `arena book`'s plan: what positions to make and how to choose and keep them.

use crate::cli::book::BookArgs;
use crate::error::Error;
use crate::plan::rules_arg;

pub use crate::analysis::book::{BookPlan, Choose};

/// The most positions a book command writes.
pub const MAX_POSITIONS: usize = 1_000_000;

/// Validates `arena book` arguments.
///
/// # Errors
/// A bad range, count, engine or rules.
pub fn plan(args: BookArgs) -> Result<BookPlan, Error> {
    let rules = rules_arg::resolve(&args.rules.rules)?;
    let bad_plies = || Error::arg("--plies", "N or MIN-MAX, whole numbers from 1 to 200");
    let parse = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=200).contains(n))
    };
    let plies = match args.plies.split_once('-') {
        Some((a, b)) => (
            parse(a).ok_or_else(bad_plies)?,
            parse(b).ok_or_else(bad_plies)?,
        ),
        None => {
            let n = parse(&args.plies).ok_or_else(bad_plies)?;
            (n, n)
        }
    };
    if plies.0 > plies.1 {
        return Err(Error::arg("--plies", "MIN is more than MAX"));
    }
    if args.positions == 0 || args.positions > MAX_POSITIONS {
        return Err(Error::arg(
            "--positions",
            format!("between 1 and {MAX_POSITIONS}"),
        ));
    }
    let choose = match args.choose.as_str() {
        "random" => Choose::Random,
        "engine" => {
            if args.choose_nodes == 0 {
                return Err(Error::arg("--choose-nodes", "must be at least 1"));
            }
            if args.margin < 0 {
                return Err(Error::arg("--margin", "must be 0 or more"));
            }
            Choose::Engine {
                nodes: args.choose_nodes,
                margin: args.margin,
            }
        }
        other => {
            return Err(Error::arg(
                "--choose",
                format!("'{}': random or engine", crate::util::text::echo(other)),
            ));
        }
    };
    if args.nodes == 0 {
        return Err(Error::arg("--nodes", "must be at least 1"));
    }
    if args.max_score < 0 {
        return Err(Error::arg("--max-score", "must be 0 or more"));
    }
    let engine = crate::plan::engine("--engine", &args.engine)?;
    if engine.external {
        return Err(Error::arg(
            "--engine",
            "the reference must be an in-process engine (see `arena engines`)",
        ));
    }
    engine
        .check_rules(&rules)
        .map_err(|why| Error::arg("--rules", why))?;
    let threads = match args.threads {
        Some(0) => return Err(Error::arg("--threads", "must be at least 1")),
        Some(t) => t.min(crate::plan::run::MAX_THREADS),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let max_candidates = args
        .max_candidates
        .unwrap_or((args.positions as u64).saturating_mul(50));
    if max_candidates < args.positions as u64 {
        return Err(Error::arg(
            "--max-candidates",
            "must be at least --positions",
        ));
    }
    Ok(BookPlan {
        rules,
        out: args.out,
        positions: args.positions,
        plies,
        choose,
        engine,
        nodes: args.nodes,
        max_score: args.max_score,
        seed: args.seed,
        max_candidates,
        threads,
        command: std::env::args().collect::<Vec<_>>().join(" "),
    })
}
