//! `arena stats` from its arguments to its output.

use super::*;
use crate::cli::stats::StatsArgs;
use crate::plan::stats::plan;
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

/// `arena stats` from its arguments to its output: the plan, then the run.
fn stats(args: &StatsArgs, out: &mut impl Write) -> Result<(), Error> {
    run(&plan(args)?, out)
}

fn output(argv: &[&str]) -> Result<String, Error> {
    let mut buf = Vec::new();
    stats(&parse(argv), &mut buf)?;
    Ok(String::from_utf8(buf).expect("utf-8 output"))
}

#[track_caller]
fn error(argv: &[&str]) -> String {
    let mut buf = Vec::new();
    let e = stats(&parse(argv), &mut buf).expect_err("bad input must be refused");
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
LOS: 19.41 %, DrawRatio: 42.35 % (pairs 1–1), PairsRatio: 0.88
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
LOS: 19.41 %, DrawRatio: 42.35 % (pairs 1–1), PairsRatio: 0.88
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
        serde_json::from_str(&output(&["--ptnml", "43,61,144,55,37", "--json"]).unwrap()).unwrap();
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
    // clap refuses both together; the plan refuses it too when built by hand.
    let both = StatsArgs {
        ptnml: Some("1,2,3,4,5".into()),
        wdl: Some("1,2,3".into()),
        ..StatsArgs::default()
    };
    let mut buf = Vec::new();
    let e = stats(&both, &mut buf).expect_err("both");
    assert_eq!(
        e.to_string(),
        "--ptnml: give either --ptnml or --wdl, not both"
    );
    assert!(buf.is_empty());
    assert!(TestCli::try_parse_from(["stats", "--ptnml", "1,2,3,4,5", "--wdl", "1,2,3"]).is_err());
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
    assert!(error(&["--wdl", "1,2,3", "--sprt", "0,1000"]).starts_with("--sprt: elo0 and elo1"));
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
    let e = stats(&parse(&["--wdl", "1,2,3"]), &mut Broken).expect_err("broken pipe");
    assert!(matches!(e, Error::Output(ref io) if io.kind() == std::io::ErrorKind::BrokenPipe));
    assert!(e.is_broken_pipe());
}
