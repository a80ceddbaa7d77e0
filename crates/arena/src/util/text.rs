//! Text made safe: for a terminal or a message (control characters escaped), for a file name,
//! and as one word of a shell command; a number as a message shows it.

/// Text from a record made safe for a terminal: control characters are escaped.
pub fn printable(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A label made safe for a folder name.
pub fn slug(label: &str) -> String {
    let s: String = label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    s.chars().take(40).collect()
}

/// Text as one word of a POSIX shell command: as it is when every character is plainly safe
/// (letters, digits, `_ @ % + = : , . / -`), else in single quotes (a `'` inside as `'\''`), so
/// a command printed for people to copy runs as printed.
pub fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// A number as a message shows it: as Rust prints it when that is short (`0.05`, `-300`,
/// `NaN`, `inf`), in scientific notation when that would be long (`-1e308`, `1e-12`), so a
/// number typed as `-1e308` does not come back as 309 digits.
pub fn number(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() <= 12 {
        plain
    } else {
        format!("{x:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_stay_short() {
        assert_eq!(number(0.05), "0.05");
        assert_eq!(number(-300.0), "-300");
        assert_eq!(number(-1e308), "-1e308");
        assert_eq!(number(1e-12), "1e-12");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(f64::INFINITY), "inf");
    }

    #[test]
    fn shell_words_quote_only_what_needs_it() {
        assert_eq!(shell_word("results/run-1"), "results/run-1");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("my runs/a"), "'my runs/a'");
        assert_eq!(shell_word("it's $x"), "'it'\\''s $x'");
    }
}
