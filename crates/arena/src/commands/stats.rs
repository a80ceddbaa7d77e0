//! `arena stats`: the result block (Elo, nElo, LOS, SPRT LLR) from counts alone, e.g. to check a
//! fastchess or fishtest result, or to see what a planned SPRT would say.
//!
//! ```text
//! arena stats --ptnml 43,61,144,55,37 --sprt 0,2 --names New,Base
//! ```
//!
//! Everything is validated ([`plan`]) before anything is printed ([`run`]).

use core::fmt;
use std::io::Write;

use crate::cli::sprt_args::{SprtArgs, items};
use crate::stats::block::{
    BlockInput, block_json, block_json_unsplit, render_block, render_block_unsplit,
};
use crate::stats::{Pentanomial, Sprt, Wdl};

/// Arguments of `arena stats`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct StatsArgs {
    /// Pair counts from A's side in fastchess's `Ptnml(0-2)` order: LL,LD,WL+DD,WD,WW.
    ///
    /// A pair is one deal played twice with colours swapped; the five counts are the pairs A
    /// scored 0, ½, 1, 1½ and 2 points in (fishtest's pentanomial, LD also counting DL). Six counts
    /// LL,LD,WL,DD,WD,WW keep win+loss and draw+draw pairs apart; only then are the games' W/D/L
    /// and the WL/DD ratio known. Brackets and spaces are accepted, so fastchess's
    /// `[43, 61, 144, 55, 37]` can be pasted in quotes. Give this or --wdl.
    #[arg(long, value_name = "LL,LD,DW,WD,WW", conflicts_with = "wdl")]
    pub ptnml: Option<String>,
    /// Game counts from A's side: wins,draws,losses (cutechess/fastchess order W, D, L).
    ///
    /// Without pairs the estimates are trinomial: they ignore the correlation between the two
    /// games of a pair, so their error bars are wider than the pentanomial ones when games were
    /// paired. Give this or --ptnml.
    #[arg(long, value_name = "W,D,L")]
    pub wdl: Option<String>,
    /// The SPRT to compute: --sprt ELO0,ELO1, --model, --alpha, --beta.
    #[command(flatten)]
    pub sprt: SprtArgs,
    /// The two engines' names for the header, A first (the counts are A's) [default: A,B].
    #[arg(long, value_name = "A,B")]
    pub names: Option<String>,
    /// Print every number of the block as one JSON object instead (the `results` object of a
    /// match's summary.json; infinities as "inf"/"-inf", fractions rather than percentages).
    #[arg(long)]
    pub json: bool,
}

/// What went wrong in `arena stats`.
#[derive(Debug)]
pub enum StatsCmdError {
    /// A flag's value is unusable.
    Arg {
        /// The flag, e.g. `--ptnml`.
        flag: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// Writing the output failed.
    Io(std::io::Error),
}

impl fmt::Display for StatsCmdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StatsCmdError::Arg { flag, message } => write!(f, "{flag}: {message}"),
            StatsCmdError::Io(e) => write!(f, "writing output: {e}"),
        }
    }
}

impl std::error::Error for StatsCmdError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StatsCmdError::Io(e) => Some(e),
            StatsCmdError::Arg { .. } => None,
        }
    }
}

impl From<std::io::Error> for StatsCmdError {
    fn from(e: std::io::Error) -> StatsCmdError {
        StatsCmdError::Io(e)
    }
}

fn arg_err(flag: &'static str, message: impl Into<String>) -> StatsCmdError {
    StatsCmdError::Arg {
        flag,
        message: message.into(),
    }
}

/// The counts `arena stats` reports on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsCounts {
    /// Six pair counts: WL and DD apart.
    Pentanomial(Pentanomial),
    /// Five pair counts: the WL+DD cell is in `dd`, `wl` is 0.
    PentanomialUnsplit(Pentanomial),
    /// Game totals.
    Trinomial(Wdl),
}

/// Validated `arena stats` arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct StatsPlan {
    /// Engine A's name.
    pub a: String,
    /// Engine B's name.
    pub b: String,
    /// The counts.
    pub counts: StatsCounts,
    /// The SPRT, checked by [`Sprt::validate`].
    pub sprt: Option<Sprt>,
    /// Print JSON instead of the block.
    pub json: bool,
}

/// Validates `arena stats` arguments.
///
/// # Errors
/// Not exactly one of --ptnml and --wdl; a count list of the wrong length, with a non-count, all
/// zero or too large; a bad --sprt, --alpha or --beta (or one of --model, --alpha, --beta
/// without --sprt); --names not two non-empty names.
pub fn plan(args: &StatsArgs) -> Result<StatsPlan, StatsCmdError> {
    let counts = match (&args.ptnml, &args.wdl) {
        (Some(_), Some(_)) => {
            return Err(arg_err("--ptnml", "give either --ptnml or --wdl, not both"));
        }
        (None, None) => {
            return Err(arg_err(
                "--ptnml",
                "give the counts: --ptnml LL,LD,WL+DD,WD,WW (pairs) or --wdl W,D,L (games)",
            ));
        }
        (Some(text), None) => ptnml_counts(text)?,
        (None, Some(text)) => wdl_counts(text)?,
    };
    let sprt = args
        .sprt
        .validate()
        .map_err(|(flag, message)| arg_err(flag, message))?;
    let (a, b) = names(args.names.as_deref().unwrap_or("A,B"))?;
    Ok(StatsPlan {
        a,
        b,
        counts,
        sprt,
        json: args.json,
    })
}

/// Parses a count list of an allowed length; the total (and twice it, the games of that many
/// pairs) must fit in 64 bits and must not be 0.
fn counts(
    flag: &'static str,
    text: &str,
    lens: &[usize],
    what: &str,
) -> Result<Vec<u64>, StatsCmdError> {
    let parts = items(text);
    if !lens.contains(&parts.len()) {
        return Err(arg_err(
            flag,
            format!("expected {what}, got {}", parts.len()),
        ));
    }
    let mut out = Vec::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        let c: u64 = p.parse().map_err(|_| {
            arg_err(
                flag,
                format!("count {} is '{p}', not a whole number of 0 or more", i + 1),
            )
        })?;
        out.push(c);
    }
    let total = out
        .iter()
        .try_fold(0u64, |acc, &c| acc.checked_add(c))
        .and_then(|t| t.checked_mul(2));
    match total {
        None => Err(arg_err(
            flag,
            "the counts are too large (their total overflows 64 bits)",
        )),
        Some(0) => Err(arg_err(
            flag,
            "all counts are 0: there is nothing to estimate",
        )),
        Some(_) => Ok(out),
    }
}

fn ptnml_counts(text: &str) -> Result<StatsCounts, StatsCmdError> {
    let c = counts(
        "--ptnml",
        text,
        &[5, 6],
        "5 or 6 comma-separated counts (LL,LD,WL+DD,WD,WW or LL,LD,WL,DD,WD,WW)",
    )?;
    // Twice the total fits, so the games' totals (at most twice the pairs) fit too.
    match c[..] {
        [ll, ld, dw, wd, ww] => Ok(StatsCounts::PentanomialUnsplit(Pentanomial {
            ll,
            ld,
            wl: 0,
            dd: dw,
            wd,
            ww,
        })),
        [ll, ld, wl, dd, wd, ww] => Ok(StatsCounts::Pentanomial(Pentanomial {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
        })),
        // counts() allows only 5 or 6.
        _ => Err(arg_err(
            "--ptnml",
            format!("expected 5 or 6 counts, got {}", c.len()),
        )),
    }
}

fn wdl_counts(text: &str) -> Result<StatsCounts, StatsCmdError> {
    let c = counts("--wdl", text, &[3], "3 comma-separated counts (W,D,L)")?;
    Ok(StatsCounts::Trinomial(Wdl {
        wins: c[0],
        draws: c[1],
        losses: c[2],
    }))
}

fn names(text: &str) -> Result<(String, String), StatsCmdError> {
    match text.split(',').map(str::trim).collect::<Vec<_>>()[..] {
        [a, b] if !a.is_empty() && !b.is_empty() => Ok((a.to_string(), b.to_string())),
        _ => Err(arg_err(
            "--names",
            format!("expected two comma-separated names like New,Base, got '{text}'"),
        )),
    }
}

impl StatsPlan {
    /// The output: the result block, or with `json` the block's JSON object on one line; ends
    /// in a newline.
    pub fn render(&self) -> String {
        let (ptnml, wdl, split) = match self.counts {
            StatsCounts::Pentanomial(p) => (Some(p), p.wdl(), true),
            StatsCounts::PentanomialUnsplit(p) => (Some(p), Wdl::default(), false),
            StatsCounts::Trinomial(w) => (None, w, true),
        };
        let input = BlockInput {
            a: &self.a,
            b: &self.b,
            context: "",
            ptnml,
            wdl,
            sprt: self.sprt,
        };
        match (self.json, split) {
            (false, true) => render_block(&input),
            (false, false) => render_block_unsplit(&input),
            (true, true) => json_line(&block_json(&input)),
            (true, false) => json_line(&block_json_unsplit(&input)),
        }
    }
}

/// One JSON object on one line.
fn json_line(b: &crate::stats::block::BlockJson) -> String {
    let mut s = serde_json::to_string(b).unwrap_or_default();
    s.push('\n');
    s
}

/// Runs `arena stats`: validates everything, then writes the block (or JSON) to `out`.
///
/// # Errors
/// [`StatsCmdError::Arg`] for bad arguments (nothing is written then), [`StatsCmdError::Io`]
/// when writing fails.
pub fn run(args: &StatsArgs, out: &mut impl Write) -> Result<(), StatsCmdError> {
    let plan = plan(args)?;
    out.write_all(plan.render().as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `arena stats` as clap would parse it.
    #[derive(Parser, Debug)]
    struct TestCli {
        #[command(flatten)]
        args: StatsArgs,
    }

    fn parse(argv: &[&str]) -> StatsArgs {
        let mut full = vec!["stats"];
        full.extend_from_slice(argv);
        TestCli::try_parse_from(full)
            .unwrap_or_else(|e| panic!("{argv:?}: {e}"))
            .args
    }

    fn output(argv: &[&str]) -> Result<String, StatsCmdError> {
        let mut buf = Vec::new();
        run(&parse(argv), &mut buf)?;
        Ok(String::from_utf8(buf).expect("utf-8 output"))
    }

    #[track_caller]
    fn error(argv: &[&str]) -> String {
        let mut buf = Vec::new();
        let e = run(&parse(argv), &mut buf).expect_err("bad input must be refused");
        assert!(buf.is_empty(), "nothing may be printed before validation");
        e.to_string()
    }

    #[test]
    fn clap_definition_is_valid() {
        use clap::CommandFactory;
        TestCli::command().debug_assert();
    }

    #[test]
    fn fastchess_example_six_counts() {
        let text = output(&[
            "--ptnml",
            "43,61,119,25,55,37",
            "--sprt",
            "0,2",
            "--names",
            "New,Base",
        ])
        .expect("valid");
        let want = "\
Results of New vs Base:
Elo: -9.20 +/- 20.93 [-30.16, 11.69], nElo: -11.50 +/- 26.11
LOS: 19.41 %, DrawRatio: 42.35 %, PairsRatio: 0.88
Games: 680, Wins: 248, Losses: 266, Draws: 166, Points: 331.0 (48.68 %)
Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: 4.76
LLR: -0.14 (4.8%) (-2.94, 2.94) [0.00, 2.00] normalized, alpha 0.05, beta 0.05
";
        assert_eq!(text, want);
    }

    #[test]
    fn fastchess_example_five_counts_pasted() {
        let text = output(&["--ptnml", "[43, 61, 144, 55, 37]"]).expect("valid");
        let want = "\
Results of A vs B:
Elo: -9.20 +/- 20.93 [-30.16, 11.69], nElo: -11.50 +/- 26.11
LOS: 19.41 %, DrawRatio: 42.35 %, PairsRatio: 0.88
Games: 680, Wins: n/a, Losses: n/a, Draws: n/a, Points: 331.0 (48.68 %)
Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: n/a
";
        assert_eq!(text, want);
    }

    #[test]
    fn wdl_and_logistic() {
        let text = output(&[
            "--wdl",
            "880,1863,759",
            "--sprt",
            "0,5",
            "--model",
            "logistic",
        ])
        .expect("valid");
        assert!(
            text.contains(
                "\nLLR: 2.95 (100.1%) (-2.94, 2.94) [0.00, 5.00] logistic, alpha 0.05, beta 0.05\n"
            ),
            "{text}"
        );
        assert!(text.ends_with("SPRT: H1 accepted\n"), "{text}");
        assert!(!text.contains("Ptnml"));
    }

    #[test]
    fn negative_elo0_and_custom_error_rates() {
        let text = output(&[
            "--ptnml",
            "379,10170,21828,10640,343",
            "--sprt",
            "-1.75,0.25",
            "--alpha",
            "0.01",
            "--beta",
            "0.1",
        ])
        .expect("valid");
        // ln(0.1/0.99) = −2.29, ln(0.9/0.01) = 4.50.
        assert!(
            text.contains(" (-2.29, 4.50) [-1.75, 0.25] normalized, alpha 0.01, beta 0.1\n"),
            "{text}"
        );
    }

    #[test]
    fn json_output() {
        let text =
            output(&["--ptnml", "43,61,119,25,55,37", "--sprt", "0,2", "--json"]).expect("valid");
        assert!(text.ends_with('\n'));
        assert_eq!(text.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(v["wins"], 248);
        assert_eq!(v["ptnml"], serde_json::json!([43, 61, 144, 55, 37]));
        assert_eq!(v["model"], "normalized");
        let v: serde_json::Value =
            serde_json::from_str(&output(&["--ptnml", "43,61,144,55,37", "--json"]).unwrap())
                .unwrap();
        assert_eq!(v["wins"], serde_json::Value::Null);
        assert_eq!(v["games"], 680);
    }

    #[test]
    fn malformed_counts() {
        assert_eq!(
            error(&["--ptnml", "1,2,3,4"]),
            "--ptnml: expected 5 or 6 comma-separated counts (LL,LD,WL+DD,WD,WW or \
             LL,LD,WL,DD,WD,WW), got 4"
        );
        assert_eq!(
            error(&["--ptnml", ""]),
            "--ptnml: expected 5 or 6 comma-separated counts (LL,LD,WL+DD,WD,WW or \
             LL,LD,WL,DD,WD,WW), got 0"
        );
        assert_eq!(
            error(&["--ptnml", "1,2,x,4,5"]),
            "--ptnml: count 3 is 'x', not a whole number of 0 or more"
        );
        assert_eq!(
            error(&["--ptnml", "1,2,-3,4,5"]),
            "--ptnml: count 3 is '-3', not a whole number of 0 or more"
        );
        assert_eq!(
            error(&["--ptnml", "0,0,0,0,0"]),
            "--ptnml: all counts are 0: there is nothing to estimate"
        );
        assert_eq!(
            error(&["--ptnml", "18446744073709551615,1,0,0,0"]),
            "--ptnml: the counts are too large (their total overflows 64 bits)"
        );
        assert_eq!(
            error(&["--ptnml", "9223372036854775807,1,0,0,0"]),
            "--ptnml: the counts are too large (their total overflows 64 bits)"
        );
        assert_eq!(
            error(&["--wdl", "1,2"]),
            "--wdl: expected 3 comma-separated counts (W,D,L), got 2"
        );
        assert_eq!(
            error(&["--wdl", "1,2,3.5"]),
            "--wdl: count 3 is '3.5', not a whole number of 0 or more"
        );
    }

    #[test]
    fn exactly_one_source_of_counts() {
        assert!(error(&[]).starts_with("--ptnml: give the counts"));
        // clap refuses both together; run() refuses it too when built by hand.
        let both = StatsArgs {
            ptnml: Some("1,2,3,4,5".into()),
            wdl: Some("1,2,3".into()),
            ..StatsArgs::default()
        };
        let mut buf = Vec::new();
        let e = run(&both, &mut buf).expect_err("both");
        assert_eq!(
            e.to_string(),
            "--ptnml: give either --ptnml or --wdl, not both"
        );
        assert!(buf.is_empty());
        assert!(
            TestCli::try_parse_from(["stats", "--ptnml", "1,2,3,4,5", "--wdl", "1,2,3"]).is_err()
        );
    }

    #[test]
    fn malformed_sprt() {
        assert_eq!(
            error(&["--wdl", "1,2,3", "--sprt", "2"]),
            "--sprt: expected ELO0,ELO1 (two comma-separated numbers, e.g. 0,2), got '2'"
        );
        assert_eq!(
            error(&["--wdl", "1,2,3", "--sprt", "a,b"]),
            "--sprt: expected ELO0,ELO1 (two comma-separated numbers, e.g. 0,2), got 'a,b'"
        );
        assert_eq!(
            error(&["--wdl", "1,2,3", "--sprt", "2,0"]),
            "--sprt: elo0 must be less than elo1, got [2, 0]"
        );
        assert!(
            error(&["--wdl", "1,2,3", "--sprt", "0,1000"]).starts_with("--sprt: elo0 and elo1")
        );
        assert!(error(&["--wdl", "1,2,3", "--sprt", "0,inf"]).starts_with("--sprt: elo0 and elo1"));
        assert_eq!(
            error(&["--wdl", "1,2,3", "--sprt", "0,2", "--alpha", "0"]),
            "--alpha: alpha must be between 0 and 1, got 0"
        );
        assert_eq!(
            error(&["--wdl", "1,2,3", "--sprt", "0,2", "--beta", "1.5"]),
            "--beta: beta must be between 0 and 1, got 1.5"
        );
        assert_eq!(
            error(&[
                "--wdl", "1,2,3", "--sprt", "0,2", "--alpha", "0.5", "--beta", "0.5"
            ]),
            "--alpha: alpha + beta must be less than 1, got 0.5 + 0.5"
        );
        assert_eq!(
            error(&["--wdl", "1,2,3", "--alpha", "0.01"]),
            "--alpha: only means something with --sprt ELO0,ELO1"
        );
        assert_eq!(
            error(&["--wdl", "1,2,3", "--model", "logistic"]),
            "--model: only means something with --sprt ELO0,ELO1"
        );
        assert!(TestCli::try_parse_from(["stats", "--wdl", "1,2,3", "--model", "bayes"]).is_err());
    }

    #[test]
    fn malformed_names() {
        for bad in ["New", "New,", ",Base", "a,b,c"] {
            assert_eq!(
                error(&["--wdl", "1,2,3", "--names", bad]),
                format!("--names: expected two comma-separated names like New,Base, got '{bad}'")
            );
        }
        let text = output(&["--wdl", "1,2,3", "--names", " New , Base "]).unwrap();
        assert!(text.starts_with("Results of New vs Base:\n"));
    }

    #[test]
    fn write_errors_are_io_errors() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::new(
                    std::io::ErrorKind::BrokenPipe,
                    "closed",
                ))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let e = run(&parse(&["--wdl", "1,2,3"]), &mut Broken).expect_err("broken pipe");
        assert!(
            matches!(e, StatsCmdError::Io(ref io) if io.kind() == std::io::ErrorKind::BrokenPipe)
        );
    }
}
