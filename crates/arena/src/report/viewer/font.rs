//! The font the viewer draws its Chinese characters in (the pieces, the river, `?`), embedded in
//! every page as a `data:` URL: without it a machine with no Chinese font (a server, a
//! container, WSL, CI's Chromium) draws every revealed piece as an empty box.
//!
//! `fonts/jieqi-pieces.woff2` is a subset of Noto Serif CJK TC Bold (SIL Open Font License
//! 1.1, `fonts/LICENSE.txt`) with only those glyphs, 6.5 KB; `scripts/make-piece-font.sh` makes
//! it from Debian's `fonts-noto-cjk` (and checks the committed one). Its base64 text is
//! computed at compile time.

/// The subset font, as WOFF2.
const WOFF2: &[u8] = include_bytes!("fonts/jieqi-pieces.woff2");

/// The CSS family name the page's style sheet gives first wherever it draws a Chinese character.
pub const FAMILY: &str = "Jieqi Pieces";

/// The characters the font has: the page must draw no other Chinese character.
pub const CHARS: &str = "帥仕相傌俥炮兵將士象馬車砲卒楚河漢界?";

/// The length of the base64 text of `n` bytes (with padding).
const fn base64_len(n: usize) -> usize {
    n.div_ceil(3) * 4
}

/// Standard base64 (RFC 4648, with padding) of `bytes`, in a constant.
const fn base64<const N: usize>(bytes: &[u8]) -> [u8; N] {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = [b'='; N];
    let (mut i, mut o) = (0, 0);
    while i < bytes.len() {
        let b0 = bytes[i] as u32;
        let b1 = if i + 1 < bytes.len() {
            bytes[i + 1] as u32
        } else {
            0
        };
        let b2 = if i + 2 < bytes.len() {
            bytes[i + 2] as u32
        } else {
            0
        };
        let v = (b0 << 16) | (b1 << 8) | b2;
        out[o] = ALPHABET[(v >> 18) as usize & 63];
        out[o + 1] = ALPHABET[(v >> 12) as usize & 63];
        if i + 1 < bytes.len() {
            out[o + 2] = ALPHABET[(v >> 6) as usize & 63];
        }
        if i + 2 < bytes.len() {
            out[o + 3] = ALPHABET[v as usize & 63];
        }
        i += 3;
        o += 4;
    }
    out
}

/// The font's base64 text, as bytes.
const BASE64: [u8; base64_len(WOFF2.len())] = base64(WOFF2);

/// The `@font-face` rule of [`FAMILY`]: the font inline, good for every weight (it is bold
/// already, so the browser does not embolden it again).
pub fn font_face() -> String {
    let data = std::str::from_utf8(&BASE64).expect("base64 is ASCII");
    format!(
        "/* {FAMILY}: a subset of Noto Serif CJK TC Bold, \u{a9} 2017-2022 Adobe, under the SIL \
         Open Font License 1.1 (its text: crates/arena/src/report/viewer/fonts/LICENSE.txt in \
         the source of arena). */\n\
         @font-face {{ font-family: \"{FAMILY}\"; font-weight: 100 900; font-display: block; \
         src: url(data:font/woff2;base64,{data}) format(\"woff2\"); }}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_vectors() {
        // RFC 4648, section 10.
        assert_eq!(&base64::<0>(b""), b"");
        assert_eq!(&base64::<4>(b"f"), b"Zg==");
        assert_eq!(&base64::<4>(b"fo"), b"Zm8=");
        assert_eq!(&base64::<4>(b"foo"), b"Zm9v");
        assert_eq!(&base64::<8>(b"foob"), b"Zm9vYg==");
        assert_eq!(&base64::<8>(b"fooba"), b"Zm9vYmE=");
        assert_eq!(&base64::<8>(b"foobar"), b"Zm9vYmFy");
    }

    #[test]
    fn the_font_is_a_small_woff2() {
        assert!(WOFF2.starts_with(b"wOF2"));
        assert!(WOFF2.len() < 16 * 1024, "{} bytes", WOFF2.len());
        let rule = font_face();
        assert!(
            rule.contains("url(data:font/woff2;base64,d09GM"),
            "{rule:.200}"
        );
    }

    #[test]
    fn the_script_makes_the_font_of_these_characters() {
        let script = include_str!("../../../../../scripts/make-piece-font.sh");
        assert!(script.contains(&format!("CHARS='{CHARS}'")));
        let license = include_str!("fonts/LICENSE.txt");
        assert!(license.contains(CHARS) && license.contains("SIL OPEN FONT LICENSE"));
    }

    /// Every Chinese character the viewer's script or style sheet holds is in the font: a new
    /// one would be drawn as an empty box where no Chinese font is installed.
    #[test]
    fn the_viewer_draws_no_character_the_font_lacks() {
        let css = include_str!("viewer.css");
        // The river, the pieces and the capture badges.
        assert_eq!(css.matches(&format!("px \"{FAMILY}\", serif;")).count(), 3);
        let sources = [include_str!("viewer.js"), css];
        for c in sources.iter().flat_map(|s| s.chars()) {
            if !c.is_ascii() && ('\u{2e80}'..='\u{9fff}').contains(&c) {
                assert!(CHARS.contains(c), "{c} is drawn but not in the piece font");
            }
        }
    }
}
