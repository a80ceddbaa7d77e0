//! `arena leak`'s plan: the engines to measure, the opponent, and the arms of fair and
//! omniscient play ([`crate::run::kind::arms`]).

use crate::cli::leak::LeakArgs;
use crate::engines;
use crate::error::Error;
use crate::plan::run::{engine_list, recorded_run, resamples_arg, run_setup};
use crate::plan::tournament::{TournamentConfig, check_leak, fill_run};
use crate::run::RunSetup;
use crate::run::kind::{self, RunKind};

/// Validates `arena leak` arguments; `given` as in [`crate::plan::Plan::from_cli`].
///
/// # Errors
/// A bad flag, engine, opponent, config or `--resume`; an external engine to measure.
pub fn plan(mut args: LeakArgs, given: &dyn Fn(&str) -> bool) -> Result<RunSetup, Error> {
    if args.engines.is_empty() && args.config.is_none() && args.run.resume {
        return recorded_run("leak", &args.run, args.pairs, given);
    }
    // An external engine cannot play omniscient: say so before starting it.
    for a in &args.engines {
        if engines::entry_unprobed(a).is_ok_and(|e| e.external) {
            return Err(Error::arg(
                "--engine",
                format!(
                    "'{}' is an external process: it only ever gets its side's information \
                     over UCI, so it cannot play omniscient (it can be the --opponent)",
                    crate::util::text::echo(a)
                ),
            ));
        }
    }
    let mut bootstrap_from_config = false;
    let (engines, opponent) = match &args.config {
        Some(path) => {
            let c = TournamentConfig::load(path).map_err(|m| Error::arg("--config", m))?;
            let Some(leak) = c.leak.clone() else {
                return Err(Error::arg(
                    "--config",
                    format!(
                        "{} has no \"leak\" section ({{\"engines\": [LABEL, …], \"opponent\": \
                         LABEL, \"pairs\": N}}) naming the engines to measure",
                        path.display()
                    ),
                ));
            };
            if !given("pairs") {
                args.pairs = args.pairs.or(leak.pairs).or(c.pairs);
            }
            if !given("bootstrap") && c.bootstrap.is_some() {
                args.bootstrap = c.bootstrap;
                bootstrap_from_config = true;
            }
            fill_run(&mut args.run, &c, given);
            let all = engine_list(&c.engines)?;
            leak.pick(&all, path)?
        }
        None => {
            let engines = engine_list(&args.engines)?;
            let opponent = args
                .opponent
                .as_deref()
                .map(|o| crate::plan::engine("--opponent", o))
                .transpose()?;
            check_leak(&engines, opponent.as_ref(), "--engine", "--opponent")?;
            (engines, opponent)
        }
    };
    let resamples = resamples_arg(args.bootstrap, bootstrap_from_config)?;
    let (slots, pairings, options) = kind::arms(engines, opponent, resamples);
    let pairs = args.pairs.unwrap_or(100);
    let mut setup = run_setup(slots, pairings, args.run, pairs, "--pairs", "leak")?;
    setup.spec.kind = RunKind::Leak(options);
    Ok(setup)
}
