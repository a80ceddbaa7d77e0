//! One command line of a protocol's input (what a GUI sends to `jieqi-uci`, or to `arena jai`),
//! read with a bound: a line longer than the bound is handed out cut, its rest skipped without
//! being held, so no input makes the reader hold more than the bound; bytes that are not UTF-8
//! are decoded lossily (as U+FFFD), since a stray byte is no reason to stop reading.

use std::io::{self, BufRead};

/// A line read by [`read_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputLine {
    /// The line without its line break, its first `max` bytes if it was cut, decoded lossily.
    pub text: String,
    /// Its length in bytes, line break excluded (the whole line's, also when it was cut).
    pub bytes: u64,
    /// Whether it was longer than the bound (then `text` holds only its start).
    pub cut: bool,
}

/// Reads the next line of `input`, keeping at most `max` bytes of it; `None` at the end of the
/// input. A last line without a line break is a line.
///
/// # Errors
/// Reading `input` fails (an interrupted read is retried).
pub fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Option<InputLine>> {
    let mut kept = Vec::new();
    let mut bytes: u64 = 0;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, ended) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (&buf[..at], true),
            None => (buf, false),
        };
        let room = max.saturating_sub(kept.len()).min(chunk.len());
        kept.extend_from_slice(&chunk[..room]);
        bytes += chunk.len() as u64;
        let used = chunk.len() + usize::from(ended);
        input.consume(used);
        if ended {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if kept.last() == Some(&b'\r') && bytes as usize == kept.len() {
        kept.pop();
        bytes -= 1;
    }
    Ok(Some(InputLine {
        text: String::from_utf8_lossy(&kept).into_owned(),
        bytes,
        cut: bytes > max as u64,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<InputLine> {
        let mut r = io::BufReader::with_capacity(4, input);
        std::iter::from_fn(|| read_line(&mut r, max).unwrap()).collect()
    }

    #[test]
    fn lines_are_split_and_the_last_needs_no_break() {
        let got = lines(b"uci\r\nisready\n\nquit", 100);
        let texts: Vec<&str> = got.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["uci", "isready", "", "quit"]);
        assert!(got.iter().all(|l| !l.cut));
        assert!(lines(b"", 100).is_empty());
    }

    #[test]
    fn a_long_line_is_cut_and_its_rest_skipped() {
        let mut input = vec![b'x'; 1000];
        input.extend_from_slice(b"\nstop\n");
        let got = lines(&input, 10);
        assert_eq!(got[0].text, "xxxxxxxxxx");
        assert_eq!((got[0].bytes, got[0].cut), (1000, true));
        assert_eq!(got[1].text, "stop");
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_decoded_lossily() {
        let got = lines(b"is\xffready\nquit\n", 100);
        assert_eq!(got[0].text, "is\u{fffd}ready");
        assert_eq!(got[1].text, "quit");
    }
}
