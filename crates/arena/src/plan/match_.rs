//! `arena match`'s plan: two engines, a fixed number of pairs, and optionally an omniscient side
//! and a reported SPRT.

use crate::cli::match_::MatchArgs;
use crate::error::Error;
use crate::plan::run::{recorded_run, two_engine_setup};
use crate::run::kind::RunKind;
use crate::run::{Omniscient, RunSetup};

/// Validates `arena match` arguments; `given` as in [`crate::plan::Plan::from_cli`].
///
/// # Errors
/// A bad flag, engine or `--resume`.
pub fn plan(args: MatchArgs, given: &dyn Fn(&str) -> bool) -> Result<RunSetup, Error> {
    if args.engines.is_empty() && args.run.resume {
        let pairs = given("pairs").then_some(args.pairs);
        return recorded_run("match", &args.run, pairs, given);
    }
    let sprt = crate::plan::sprt::flags(&args.sprt)?;
    let omniscient = match args.omniscient.as_deref() {
        None => Omniscient::None,
        Some("A" | "a") => Omniscient::A,
        Some("B" | "b") => Omniscient::B,
        Some("both") => Omniscient::Both,
        Some(other) => {
            return Err(Error::arg(
                "--omniscient",
                format!("'{}' is not A, B or both", crate::util::text::echo(other)),
            ));
        }
    };
    let mut setup = two_engine_setup(&args.engines, args.run, args.pairs, "--pairs")?;
    for (slot, entry) in setup.engines.iter().enumerate() {
        if omniscient.sees_all(slot) && entry.external {
            return Err(Error::arg(
                "--omniscient",
                format!(
                    "engine '{}' is an external process: it only ever gets its side's \
                     information over UCI, so it cannot play omniscient (measure leaks with an \
                     in-process engine)",
                    entry.label
                ),
            ));
        }
    }
    for (slot, entry) in setup.spec.engines.iter_mut().enumerate() {
        entry.omniscient = omniscient.sees_all(slot);
    }
    setup.spec.kind = RunKind::Match { sprt };
    Ok(setup)
}
