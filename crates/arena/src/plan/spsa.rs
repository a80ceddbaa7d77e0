//! `arena spsa`'s plan: the base engine, the parameters (refused before any game when the engine
//! does not take them), the games' run and the tuner's settings.

use crate::cli::run::RunArgs;
use crate::cli::spsa::SpsaArgs;
use crate::error::Error;
use crate::run::RunSetup;
use crate::tuning::spsa::{Settings, params, spec_with};

/// A validated `arena spsa`.
#[derive(Debug)]
pub struct SpsaPlan {
    /// The games' run: the base engine twice (its fingerprint is the games'), rules, limits,
    /// book, adjudication, seed, threads and folder. Each iteration replaces the engines.
    pub setup: RunSetup,
    /// What is tuned and how.
    pub settings: Settings,
    /// A progress line after every this many batches (0: never).
    pub report_every: u64,
}

/// The most iterations a run may have.
pub const MAX_ITERATIONS: u64 = 10_000_000;

/// Validates `arena spsa`'s arguments.
///
/// # Errors
/// A bad flag, parameters file or engine; an engine that does not take every parameter at its
/// min and at its max (an unknown key, an undeclared UCI option, a spin range that does not
/// hold [min, max]).
pub fn plan(args: SpsaArgs) -> Result<SpsaPlan, Error> {
    if args.iterations == 0 || args.iterations > MAX_ITERATIONS {
        return Err(Error::arg(
            "--iterations",
            format!("must be 1 to {MAX_ITERATIONS}"),
        ));
    }
    if args.batch == 0 || args.batch > 4096 {
        return Err(Error::arg("--batch", "must be 1 to 4096"));
    }
    if !(args.a_ratio.is_finite() && (0.0..=10.0).contains(&args.a_ratio)) {
        return Err(Error::arg("--a-ratio", "must be a number from 0 to 10"));
    }
    let file = args.params.display().to_string();
    let text = crate::records::files::read_bounded(&args.params, params::MAX_FILE_BYTES)
        .map_err(|e| Error::arg("--params", format!("{file}: {e}")))?;
    let params = params::parse(&text, &file).map_err(|e| Error::arg("--params", e))?;
    let base = crate::plan::engine("--engine", &args.engine)?;
    let run = RunArgs {
        seed: args.seed,
        threads: args.threads,
        game: args.game,
        out: Some(args.out),
        resume: args.resume,
        allow_mixed_builds: args.allow_mixed_builds,
        no_progress: true,
        report_every: None,
        log: args.log,
        log_limit: None,
        shard: None,
        check: false,
    };
    let engines = vec![base.clone(), base.clone()];
    let setup = crate::plan::run::run_setup(
        engines,
        vec![(0, 1)],
        run,
        args.iterations,
        "--iterations",
        "spsa",
    )?;
    let settings = Settings {
        engine: base.spec.to_string(),
        uci: base.external,
        params,
        iterations: args.iterations,
        batch: args.batch,
        a_ratio: args.a_ratio,
        seed: args.seed,
        games: setup.spec.fingerprint(),
    };
    check_engine(&settings)?;
    Ok(SpsaPlan {
        setup,
        settings,
        report_every: args.report_every.unwrap_or(1),
    })
}

/// Builds the engine (an external one: starts it) with every parameter at its min, then at its
/// max: an engine that refuses either is refused now, before any game.
fn check_engine(settings: &Settings) -> Result<(), Error> {
    for (which, values) in [
        (
            "min",
            settings.params.iter().map(|p| p.min).collect::<Vec<_>>(),
        ),
        ("max", settings.params.iter().map(|p| p.max).collect()),
    ] {
        // Labelled (the spec of many parameters is longer than a label may be), as the games
        // label it.
        let spec = labelled(&spec_with(settings, &values), which);
        crate::engines::parse_arg(&spec).map_err(|e| {
            Error::arg(
                "--params",
                format!(
                    "the engine does not take the parameters at their {which} values \
                     ({}): {e}",
                    if settings.uci {
                        "sent as UCI spin options option.NAME=V"
                    } else {
                        "added to its spec as keys"
                    }
                ),
            )
        })?;
    }
    Ok(())
}

/// `spec` with its `name=` (a label) set to `label`; a spec that does not parse as it is.
fn labelled(spec: &str, label: &str) -> String {
    let Ok(mut parsed) = jieqi_engine::Spec::parse(spec) else {
        return spec.to_string();
    };
    parsed.params.retain(|(k, _)| k != "name");
    parsed.params.push(("name".into(), label.into()));
    parsed.to_string()
}
