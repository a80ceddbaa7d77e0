//! `arena leak`'s plan: the engines to measure, the opponent, and the arms of fair and
//! omniscient play ([`crate::run::kind::arms`]).

use crate::cli::leak::LeakArgs;
use crate::engines;
use crate::error::Error;
use crate::plan::run::{engine_list, recorded_run, resamples_arg, run_setup};
use crate::plan::tournament::{TournamentConfig, fill_run};
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
                    "'{a}' is an external process: it only ever gets its side's information \
                     over UCI, so it cannot play omniscient (it can be the --opponent)"
                ),
            ));
        }
    }
    let mut bootstrap_from_config = false;
    let flag = if args.config.is_some() {
        "--config: leak"
    } else {
        "--engine"
    };
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
            let pick = |label: &str| {
                all.iter()
                    .find(|e| e.label == label)
                    .cloned()
                    .ok_or_else(|| {
                        let labels: Vec<&str> = all.iter().map(|e| e.label.as_str()).collect();
                        Error::arg(
                            "--config: leak",
                            format!(
                                "no engine of {} is labelled '{label}' (they are {})",
                                path.display(),
                                labels.join(", ")
                            ),
                        )
                    })
            };
            let engines = leak
                .engines
                .iter()
                .map(|l| pick(l))
                .collect::<Result<Vec<_>, _>>()?;
            let opponent = leak.opponent.as_deref().map(pick).transpose()?;
            (engines, opponent)
        }
        None => (
            engine_list(&args.engines)?,
            args.opponent
                .as_deref()
                .map(|o| crate::plan::engine("--opponent", o))
                .transpose()?,
        ),
    };
    if engines.is_empty() {
        return Err(Error::arg(
            flag,
            "give an engine to measure (--engine SPEC, one or more)",
        ));
    }
    for (i, e) in engines.iter().enumerate() {
        if e.external {
            return Err(Error::arg(
                flag,
                format!(
                    "engine '{}' is an external process: it only ever gets its side's \
                     information over UCI, so it cannot play omniscient (it can be the \
                     --opponent)",
                    e.label
                ),
            ));
        }
        if engines[..i].iter().any(|x| x.label == e.label) {
            return Err(Error::arg(flag, format!("'{}' is given twice", e.label)));
        }
    }
    if let Some(o) = &opponent {
        if let Some(e) = engines
            .iter()
            .find(|e| e.label == o.label || kind::omniscient_label(&e.label) == o.label)
        {
            return Err(Error::arg(
                "--opponent",
                format!(
                    "the opponent is labelled '{}' like engine '{}': leave out --opponent to \
                     measure an engine against its own fair self, or give the opponent a \
                     name=LABEL",
                    o.label, e.label
                ),
            ));
        }
    }
    let resamples = resamples_arg(args.bootstrap, bootstrap_from_config)?;
    let (slots, pairings, options) = kind::arms(engines, opponent, resamples);
    let pairs = args.pairs.unwrap_or(100);
    let mut setup = run_setup(slots, pairings, args.run, pairs, "--pairs", "leak")?;
    setup.kind = RunKind::Leak(options);
    Ok(setup)
}
