//! Text made safe: for a terminal or a message (control characters and bidi controls escaped,
//! input quoted at most [`MAX_ECHO`] characters long), for a file name, and as one word of a
//! shell command; a number as a message shows it.

/// Whether `c` is a Unicode bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069): invisible, it reorders the text around it on a terminal, so that what is
/// shown is not what is there.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is an invisible format character that makes two labels look alike: a zero-width
/// space, joiner or non-joiner (U+200B–U+200D), a word joiner or invisible operator
/// (U+2060–U+2064), a byte order mark (U+FEFF), a soft hyphen (U+00AD), the Mongolian vowel
/// separator (U+180E).
pub fn is_invisible(c: char) -> bool {
    matches!(c, '\u{ad}' | '\u{180e}' | '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2064}' | '\u{feff}')
}

/// Whether `c` is shown escaped: a control character, a bidi control ([`is_bidi_control`]) or an
/// invisible format character ([`is_invisible`]).
fn unsafe_char(c: char) -> bool {
    rewrites_terminal(c) || is_invisible(c)
}

/// Whether `c` can make a terminal show something other than the text: a control character
/// (ESC starts an escape sequence, a line break starts a new line) or a bidi control
/// ([`is_bidi_control`]). Labels, engine specs, output paths and rule names refuse these.
pub fn rewrites_terminal(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

/// Text from outside (a record, a file, the command line) made safe for a terminal: control
/// characters and bidi controls ([`is_bidi_control`]) are escaped as Rust writes them (`\u{1b}`,
/// `\n`, `\u{202e}`); all else is kept.
pub fn printable(text: &str) -> String {
    if !text.chars().any(unsafe_char) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if unsafe_char(c) {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The most characters of input a message quotes ([`echo`]).
pub const MAX_ECHO: usize = 200;

/// Input as a message quotes it: [`printable`], and cut to [`MAX_ECHO`] characters with `…`
/// after them, so a huge argument does not come back whole.
pub fn echo(text: &str) -> String {
    capped(&printable(text), MAX_ECHO)
}

/// The most characters of one line of a message ([`message`]).
pub const MAX_MESSAGE_LINE: usize = 2000;

/// A whole message (an error, before it is printed) made safe for a terminal: control
/// characters but the line break and bidi controls escaped as in [`printable`], and each line
/// cut to [`MAX_MESSAGE_LINE`] characters (`…` after them). The net under every error: the
/// places that quote input use [`echo`] too.
pub fn message(text: &str) -> String {
    text.split('\n')
        .map(|line| capped(&printable(line), MAX_MESSAGE_LINE))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` cut to `max` characters, with `…` after them when it was longer.
fn capped(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{}…", &text[..at]),
    }
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

/// A count with its noun, plural unless the count is 1: `1 pair`, `2 pairs`, `0 games` (`noun`
/// is the singular; its plural adds `s`).
pub fn counted(n: impl Into<u64>, noun: &str) -> String {
    let n: u64 = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A noun with its indefinite article, `an` before a vowel letter: `an elephant`, `an
/// inaccuracy`, `a horse`, `a blunder`.
pub fn with_article(noun: &str) -> String {
    let vowel = noun
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {noun}", if vowel { "an" } else { "a" })
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_article_fits_its_noun() {
        assert_eq!(super::with_article("elephant"), "an elephant");
        assert_eq!(super::with_article("advisor"), "an advisor");
        assert_eq!(super::with_article("inaccuracy"), "an inaccuracy");
        assert_eq!(super::with_article("horse"), "a horse");
        assert_eq!(super::with_article("blunder"), "a blunder");
    }

    use super::*;

    #[test]
    fn counts_take_their_plural() {
        assert_eq!(counted(1u64, "pair"), "1 pair");
        assert_eq!(counted(2u64, "pair"), "2 pairs");
        assert_eq!(counted(0u32, "position"), "0 positions");
    }

    #[test]
    fn controls_and_bidi_controls_are_escaped() {
        assert_eq!(printable("plain 揭棋"), "plain 揭棋");
        assert_eq!(printable("a\u{1b}[31mb\u{7}"), "a\\u{1b}[31mb\\u{7}");
        assert_eq!(
            printable("x\u{202e}y\u{2066}\u{200f}"),
            "x\\u{202e}y\\u{2066}\\u{200f}"
        );
        assert_eq!(printable("\u{61c}"), "\\u{61c}");
        assert_eq!(printable("two\nlines"), "two\\nlines");
        // A whole message keeps its lines.
        assert_eq!(
            message("one\u{1b}\ntwo\u{202d}"),
            "one\\u{1b}\ntwo\\u{202d}"
        );
    }

    #[test]
    fn echoed_input_is_capped() {
        assert_eq!(echo("short"), "short");
        let huge = "é".repeat(100_000);
        let e = echo(&huge);
        assert_eq!(e.chars().count(), MAX_ECHO + 1);
        assert!(e.ends_with('…'));
        assert_eq!(echo(&"x".repeat(MAX_ECHO)), "x".repeat(MAX_ECHO));
        let m = message(&format!("a\n{}", "y".repeat(10 * MAX_MESSAGE_LINE)));
        assert_eq!(m.chars().count(), 2 + MAX_MESSAGE_LINE + 1);
    }

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
