//! The text of the pages: HTML escaping ([`esc`], and [`esc_label`] for engine labels), signed numbers with a true minus sign
//! ([`signed`]), Elo values and intervals ([`fmt_elo`], [`fmt_interval`]), percentages and plain
//! numbers ([`fmt_pct`], [`fmt_num`]), labels cut to a length ([`truncate`]) and link targets
//! that are safe in `href` ([`safe_href`]). It uses nothing of the other files.

/// The true minus sign, in numbers and "−inf".
pub(super) const MINUS: char = '\u{2212}';
/// Narrow no-break space, between a number and its `%`.
const NNBSP: char = '\u{202f}';

/// HTML-escapes text for element content and quoted attributes.
pub(super) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An engine label HTML-escaped, with a line-break opportunity (`<wbr>`) after each `:` and
/// `,`: a narrow column breaks `level:normal` as `level:` / `normal`, never inside a word
/// (`level:nor` / `mal`).
pub(super) fn esc_label(s: &str) -> String {
    esc(s).replace(':', ":<wbr>").replace(',', ",<wbr>")
}

/// A signed number with `decimals` decimals, a true minus sign, no "-0.0".
pub(super) fn signed(x: f64, decimals: usize) -> String {
    let body = format!("{:.*}", decimals, x.abs());
    if body.bytes().all(|b| b == b'0' || b == b'.') {
        body
    } else if x > 0.0 {
        format!("+{body}")
    } else {
        format!("{MINUS}{body}")
    }
}

/// An Elo value: 1 decimal, "+inf"/"−inf", NaN as "unrated".
pub(super) fn fmt_elo(x: f64) -> String {
    if x.is_nan() {
        "unrated".to_string()
    } else if x == f64::INFINITY {
        "+inf".to_string()
    } else if x == f64::NEG_INFINITY {
        format!("{MINUS}inf")
    } else if x.abs() >= 1e6 {
        let s = format!("{:.2e}", x.abs());
        if x > 0.0 {
            format!("+{s}")
        } else {
            format!("{MINUS}{s}")
        }
    } else {
        signed(x, 1)
    }
}

/// A 95 % interval as "[lo, hi]".
pub(super) fn fmt_interval(lo: f64, hi: f64) -> String {
    if lo.is_nan() && hi.is_nan() {
        "\u{2014}".to_string()
    } else {
        format!("[{}, {}]", fmt_elo(lo), fmt_elo(hi))
    }
}

/// A fraction as a percentage with 1 decimal; "—" when not finite.
pub(super) fn fmt_pct(frac: f64) -> String {
    if frac.is_finite() {
        format!("{:.1}{NNBSP}%", frac * 100.0)
    } else {
        "\u{2014}".to_string()
    }
}

/// A plain number with `decimals` decimals; "—" when not finite.
pub(super) fn fmt_num(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "\u{2014}".to_string()
    }
}

/// At most `max` characters, control characters as spaces, an ellipsis when cut.
pub(super) fn truncate(s: &str, max: usize) -> String {
    let clean: Vec<char> = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if clean.len() <= max {
        clean.into_iter().collect()
    } else {
        let mut out: String = clean.into_iter().take(max.saturating_sub(1)).collect();
        out.push('\u{2026}');
        out
    }
}

/// A link target that is safe to put in `href`: relative or http(s), never a script.
pub(super) fn safe_href(href: &str) -> Option<String> {
    let h = href.trim();
    if h.is_empty() {
        return None;
    }
    // A scheme is whatever precedes a ':' that comes before any '/', '?' or '#'.
    let scheme = match h.find([':', '/', '?', '#']) {
        Some(i) if h[i..].starts_with(':') => Some(h[..i].to_ascii_lowercase()),
        _ => None,
    };
    match scheme.as_deref() {
        None | Some("http" | "https") => Some(esc(h)),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_formatted() {
        assert_eq!(fmt_elo(312.04), "+312.0");
        assert_eq!(fmt_elo(-600.0), "\u{2212}600.0");
        assert_eq!(fmt_elo(-0.01), "0.0");
        assert_eq!(fmt_elo(f64::INFINITY), "+inf");
        assert_eq!(fmt_elo(f64::NEG_INFINITY), "\u{2212}inf");
        assert_eq!(fmt_elo(f64::NAN), "unrated");
        assert_eq!(fmt_pct(0.5234), "52.3\u{202f}%");
        assert_eq!(fmt_interval(-12.34, 25.06), "[\u{2212}12.3, +25.1]");
        assert_eq!(safe_href("javascript:x"), None);
        assert_eq!(safe_href("pairings/a:b/").as_deref(), Some("pairings/a:b/"));
    }
}
