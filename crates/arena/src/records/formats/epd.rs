//! EPD lines, as opening books (`--openings format=epd`, [`crate::records::openings`]) and test
//! suites ([`crate::records::epd`]) write them: one position a line, a FEN (plain Xiangqi,
//! Pikafish 5-field or JieqiBox 6-field) and EPD operations after it, each an opcode with its
//! operands and ended by `;`. Blank lines and lines starting with `#` or `;` hold no position.
//!
//! Where the FEN ends is not written: a reader tries its candidate prefixes, the longest first
//! ([`fen_prefixes`]), and takes the first that parses and is followed by operations
//! ([`operations`]) as its kind of file allows them.

use super::FormatError;

/// One operation: its opcode and operands (quotes removed).
pub type Op = (String, Vec<String>);

/// The lines of an EPD text that hold a position, trimmed, with their 1-based numbers: a
/// byte-order mark, blank lines and comment lines (`#`, `;`) skipped.
pub fn position_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    // A byte-order mark is not part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .enumerate()
        .map(|(i, raw)| (i + 1, raw.trim()))
        .filter(|(_, line)| !(line.is_empty() || line.starts_with('#') || line.starts_with(';')))
}

/// The ways to split `line` into a FEN and what follows it, the longest FEN first: for `n` from
/// six fields (or fewer, as many as the line has) down to one, `(n, the text up to the n-th
/// field's end, the rest)`.
pub fn fen_prefixes(line: &str) -> impl Iterator<Item = (usize, &str, &str)> {
    let spans = token_spans(line);
    (1..=spans.len().min(6))
        .rev()
        .map(move |n| (n, &line[..spans[n - 1].1], &line[spans[n - 1].1..]))
}

/// Byte spans of the whitespace-separated tokens of `text`.
fn token_spans(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// The operations of the text after the FEN: `;`-ended, opcode then operands, `"…"` quoted.
pub fn operations(text: &str) -> Result<Vec<Op>, FormatError> {
    let mut ops = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    let mut finish = |words: &mut Vec<String>| -> Result<(), FormatError> {
        if words.is_empty() {
            return Ok(());
        }
        let op = words.remove(0);
        let valid = op.len() <= 15
            && op.starts_with(|c: char| c.is_ascii_lowercase())
            && op
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !valid {
            return Err(format!(
                "'{}' is not an opcode (bm, am, dm, id, c0…c9, …)",
                crate::util::text::printable(&op)
            )
            .into());
        }
        ops.push((op, std::mem::take(words)));
        Ok(())
    };
    while let Some(ch) = chars.next() {
        match ch {
            '"' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(c) => s.push(c),
                        None => return Err("a quoted string is not closed".into()),
                    }
                }
                if in_word {
                    word.push_str(&s);
                } else {
                    words.push(s);
                }
            }
            ';' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                finish(&mut words)?;
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    finish(&mut words)?;
    Ok(ops)
}
