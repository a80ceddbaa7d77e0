//! `arena stats`'s plan: the counts, the SPRT and the names, every one checked before anything
//! is printed.

use crate::cli::stats::StatsArgs;
use crate::error::Error;
use crate::stats::{Pentanomial, Wdl};

pub use crate::report::stats_text::{StatsCounts, StatsPlan};

/// Validates `arena stats` arguments.
///
/// # Errors
/// Not exactly one of --ptnml and --wdl; a count list of the wrong length, with a non-count, all
/// zero or too large; a bad --sprt, --alpha or --beta (or one of --model, --alpha, --beta
/// without --sprt); --names not two non-empty names.
pub fn plan(args: &StatsArgs) -> Result<StatsPlan, Error> {
    let counts = match (&args.ptnml, &args.wdl) {
        (Some(_), Some(_)) => {
            return Err(Error::arg(
                "--ptnml",
                "give either --ptnml or --wdl, not both",
            ));
        }
        (None, None) => {
            return Err(Error::arg(
                "--ptnml",
                "give the counts: --ptnml LL,LD,WL+DD,WD,WW (pairs) or --wdl W,D,L (games)",
            ));
        }
        (Some(text), None) => ptnml_counts(text)?,
        (None, Some(text)) => wdl_counts(text)?,
    };
    let sprt = crate::plan::sprt::flags(&args.sprt)?;
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
fn counts(flag: &'static str, text: &str, lens: &[usize], what: &str) -> Result<Vec<u64>, Error> {
    let parts = crate::plan::items(text);
    if !lens.contains(&parts.len()) {
        return Err(Error::arg(
            flag,
            format!("expected {what}, got {}", parts.len()),
        ));
    }
    let mut out = Vec::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        let c: u64 = p.parse().map_err(|_| {
            Error::arg(
                flag,
                format!(
                    "count {} is '{}', not a whole number of 0 or more",
                    i + 1,
                    crate::util::text::echo(p)
                ),
            )
        })?;
        out.push(c);
    }
    let total = out
        .iter()
        .try_fold(0u64, |acc, &c| acc.checked_add(c))
        .and_then(|t| t.checked_mul(2));
    match total {
        None => Err(Error::arg(
            flag,
            "the counts are too large (their total overflows 64 bits)",
        )),
        Some(0) => Err(Error::arg(
            flag,
            "all counts are 0: there is nothing to estimate",
        )),
        Some(_) => Ok(out),
    }
}

fn ptnml_counts(text: &str) -> Result<StatsCounts, Error> {
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
        _ => Err(Error::arg(
            "--ptnml",
            format!("expected 5 or 6 counts, got {}", c.len()),
        )),
    }
}

fn wdl_counts(text: &str) -> Result<StatsCounts, Error> {
    let c = counts("--wdl", text, &[3], "3 comma-separated counts (W,D,L)")?;
    Ok(StatsCounts::Trinomial(Wdl {
        wins: c[0],
        draws: c[1],
        losses: c[2],
    }))
}

fn names(text: &str) -> Result<(String, String), Error> {
    match text.split(',').map(str::trim).collect::<Vec<_>>()[..] {
        [a, b] if !a.is_empty() && !b.is_empty() => {
            for name in [a, b] {
                crate::engines::check_label(name).map_err(|e| Error::arg("--names", e))?;
            }
            Ok((a.to_string(), b.to_string()))
        }
        _ => Err(Error::arg(
            "--names",
            format!(
                "expected two comma-separated names like New,Base, got '{}'",
                crate::util::text::echo(text)
            ),
        )),
    }
}
