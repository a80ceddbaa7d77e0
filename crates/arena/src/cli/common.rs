//! Arguments several commands share: per-move search limits (`--nodes`, `--depth`, `--movetime`)
//! and `--rules`.

use clap::Args;

/// Per-move search limits, shared by `match`, `sprt`, `replay` and `bench`.
#[derive(Debug, Args, Clone)]
pub struct LimitArgs {
    /// Nodes (alpha-beta) or iterations (MCTS) per move. Reproducible.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search depth per move, in plies. Reproducible.
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Milliseconds per move. Not reproducible: prefer --nodes for tests.
    #[arg(long, value_name = "MS", value_parser = crate::cli::common::milliseconds)]
    pub movetime: Option<u64>,
}

/// `--rules`, shared by every subcommand.
#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Rule set: a preset (standard, xiangqi, simple) or a JSON rules file.
    ///
    /// A file holds a serialized rule set: the fields of jieqi_core::Rules, enum values in
    /// kebab-case, unknown fields refused, an absent switch at its documented default
    /// (docs/rules.md; see configs/rules/*.json). A preset name wins over a file of the same name;
    /// write ./NAME for the file.
    #[arg(long, value_name = "R", default_value = "standard")]
    pub rules: String,
}

/// Reads a size in bytes (`--log-limit`): a whole number, or one with K, M or G (KiB, MiB, GiB;
/// `1G`, `512MiB`, `64k`).
///
/// # Errors
/// Not such a size, zero, or more than 2^64 bytes.
pub fn byte_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, shift) = match t
        .trim_end_matches(['B', 'b'])
        .trim_end_matches(['i', 'I'])
        .char_indices()
        .last()
    {
        Some((i, 'k' | 'K')) => (&t[..i], 10),
        Some((i, 'm' | 'M')) => (&t[..i], 20),
        Some((i, 'g' | 'G')) => (&t[..i], 30),
        _ => (t.strip_suffix(['B', 'b']).unwrap_or(t), 0),
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| "not a size: give bytes, or a whole number with K, M or G".to_string())?;
    if n == 0 {
        return Err("must be at least 1 byte".into());
    }
    n.checked_mul(1 << shift)
        .ok_or_else(|| "too large".to_string())
}

/// Reads an output path (`--out`, `--html`): any path but an empty one (which would be the
/// current folder) or one with a control character or a bidi control, which every "Results in
/// …" line would print to the terminal as is.
///
/// # Errors
/// The path is empty or holds such a character (the message shows it escaped).
pub fn out_path(text: &str) -> Result<std::path::PathBuf, String> {
    if text.trim().is_empty() {
        // An empty path would be taken as the current folder.
        return Err("an empty path; give a folder or file name".to_string());
    }
    if text.chars().any(crate::util::text::rewrites_terminal) {
        return Err(format!(
            "'{}' holds a control character or a bidi control; give a plain path",
            crate::util::text::echo(text)
        ));
    }
    Ok(std::path::PathBuf::from(text))
}

/// Reads a flag in milliseconds: a whole number up to [`crate::engines::time_control::MAX_MOVE_MS`] (a day). Zero reads
/// (the plans refuse it with their own message); a larger number would be a wait no run means.
///
/// # Errors
/// Not a whole number, or more than a day.
pub fn milliseconds(text: &str) -> Result<u64, String> {
    // No trimming: " 7" is refused as every other number flag refuses it.
    let ms: u64 = text
        .parse()
        .map_err(|_| "not a whole number of milliseconds".to_string())?;
    let max = crate::engines::time_control::MAX_MOVE_MS;
    if ms > max {
        return Err(format!(
            "more than a day ({max} ms), which is the longest a move may take"
        ));
    }
    Ok(ms)
}

#[cfg(test)]
mod size_tests {
    #[test]
    fn an_empty_output_path_is_refused() {
        for bad in ["", " ", "a\u{1b}b"] {
            assert!(super::out_path(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            super::out_path("results/x"),
            Ok(std::path::PathBuf::from("results/x"))
        );
    }

    #[test]
    fn sizes_read_with_their_units() {
        for (text, n) in [
            ("100", 100),
            ("100B", 100),
            ("64k", 64 << 10),
            ("512MiB", 512 << 20),
            ("1G", 1 << 30),
            (" 2 GiB ", 2 << 30),
        ] {
            assert_eq!(super::byte_size(text), Ok(n), "{text}");
        }
        for bad in ["", "0", "G", "1.5G", "-1", "1T", "10x", "99999999999G"] {
            assert!(super::byte_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn milliseconds_are_whole_numbers_as_typed() {
        assert_eq!(super::milliseconds("7"), Ok(7));
        assert_eq!(super::milliseconds("86400000"), Ok(86_400_000));
        for bad in [" 7", "7 ", "-1", "1.5", "", "86400001", "1e3"] {
            assert!(super::milliseconds(bad).is_err(), "{bad:?}");
        }
    }
}
