//! `arena sprt`'s plan (the merge gate), and the one validation of the SPRT flags `arena stats`,
//! `arena match` and `arena sprt` share ([`test()`], [`flags()`]).

use crate::cli::sprt::SprtCmdArgs;
use crate::cli::sprt_args::{SprtArgs, SprtTestArgs};
use crate::error::Error;
use crate::plan::run::{recorded_run, two_engine_setup};
use crate::run::RunSetup;
use crate::run::kind::RunKind;
use crate::stats::{Sprt, SprtError, SprtModel};

/// Validates `arena sprt` arguments; `given` as in [`crate::plan::Plan::from_cli`].
///
/// # Errors
/// A bad flag, engine, test or `--resume`; `--shard` (a gate cannot be sharded).
pub fn plan(args: SprtCmdArgs, given: &dyn Fn(&str) -> bool) -> Result<RunSetup, Error> {
    if args.engines.is_empty() && args.run.resume {
        let pairs = given("max_pairs").then_some(args.max_pairs);
        let mut setup = recorded_run("sprt", &args.run, pairs, given)?;
        if let RunKind::Gate {
            recover,
            allow_repeats,
            ..
        } = &mut setup.spec.kind
        {
            *recover = args.recover;
            *allow_repeats = args.allow_repeats;
        }
        return Ok(setup);
    }
    let sprt = test(&args.test, args.elo0, args.elo1, "--elo0/--elo1")?;
    if args.run.shard.is_some() {
        return Err(Error::arg(
            "--shard",
            "a gate stops when its test decides, on the pairs in order: it cannot be cut into \
             shards (shard a fixed-length `arena match` instead)",
        ));
    }
    let mut setup = two_engine_setup(&args.engines, args.run, args.max_pairs, "--max-pairs")?;
    setup.spec.kind = RunKind::Gate {
        sprt,
        recover: args.recover,
        allow_repeats: args.allow_repeats,
    };
    Ok(setup)
}

/// The test of H0: Elo = `elo0` against H1: Elo = `elo1` with the settings of `args`, checked by
/// [`Sprt::validate`].
///
/// # Errors
/// The flag at fault (`elo_flag` for the bounds) and what is wrong.
pub fn test(
    args: &SprtTestArgs,
    elo0: f64,
    elo1: f64,
    elo_flag: &'static str,
) -> Result<Sprt, Error> {
    let s = Sprt {
        elo0,
        elo1,
        alpha: args.alpha.unwrap_or(0.05),
        beta: args.beta.unwrap_or(0.05),
        model: args.model.map_or(SprtModel::Normalized, SprtModel::from),
    };
    s.validate().map_err(|e| {
        let flag = match e {
            SprtError::EloRange { .. } | SprtError::EloOrder { .. } => elo_flag,
            SprtError::Alpha(_) | SprtError::AlphaBetaSum(..) => "--alpha",
            SprtError::Beta(_) => "--beta",
        };
        Error::arg(flag, e.to_string())
    })?;
    Ok(s)
}

/// The SPRT `--sprt ELO0,ELO1`, `--model`, `--alpha` and `--beta` ask for: `None` without
/// `--sprt`.
///
/// # Errors
/// `--sprt` is not two numbers, a bound or rate is out of range, or `--model`, `--alpha` or
/// `--beta` is given without `--sprt`.
pub fn flags(args: &SprtArgs) -> Result<Option<Sprt>, Error> {
    let Some(text) = &args.sprt else {
        for (given, flag) in [
            (args.test.model.is_some(), "--model"),
            (args.test.alpha.is_some(), "--alpha"),
            (args.test.beta.is_some(), "--beta"),
        ] {
            if given {
                return Err(Error::arg(
                    flag,
                    "only means something with --sprt ELO0,ELO1",
                ));
            }
        }
        return Ok(None);
    };
    let parts = crate::plan::items(text);
    let nums: Vec<f64> = parts.iter().filter_map(|p| p.parse().ok()).collect();
    if parts.len() != 2 || nums.len() != 2 {
        return Err(Error::arg(
            "--sprt",
            format!(
                "expected ELO0,ELO1 (two comma-separated numbers, e.g. 0,2), got '{}'",
                crate::util::text::echo(text)
            ),
        ));
    }
    test(&args.test, nums[0], nums[1], "--sprt").map(Some)
}
