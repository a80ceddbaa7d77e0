//! Test-suite files in the EPD style: one position a line, a FEN (plain Xiangqi, Pikafish
//! 5-field or JieqiBox 6-field), then operations, each an opcode with operands and ended by `;`:
//!
//! ```text
//! ; comment line (also `#`)
//! 3k5/9/... w - - 0 1 bm h2e2 b2e2; dm 2; id "mate2.017";
//! 4k4/... w r2c1 0 30 bm a5a6; am a5a4; id "tactic.003"; c0 "from pair 12, ply 40";
//! ```
//!
//! - `bm M…` best move(s): the answer must be one of them; `am M…` avoid move(s): it must be none
//!   of them. Moves are coordinates `h2e2` (a reveal or capture letter after them is allowed and
//!   ignored), and must be legal in the position.
//! - `dm N`: the side to move mates in N of its moves; an engine proves it by reporting
//!   `mate M` with 1 ≤ M ≤ N.
//! - `id "name"`; `c0`…`c9` comments are kept; any other opcode (`acd`, `ce`, `pv`…) is read and
//!   ignored, as EPD tools do.
//!
//! A line that does not hold up (its FEN, an operation, an illegal move, no `bm`/`am`/`dm`, a
//! position without a legal move) is reported with its line number and skipped; the rest of
//! the file still counts. The FEN's end is found as the longest prefix of at most six fields
//! after which the operations parse, so a pool field that looks like an opcode (`c1`) is read
//! right. The lines, the FEN's candidate ends and the operations are read by
//! [`crate::records::formats::epd`], as an opening book's are.

use std::path::Path;

use jieqi_core::{Move, PlayedMove, Rules, View, fen};

use crate::records::formats::{FormatError, epd};

/// Largest suite file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Most positions a suite may hold.
pub const MAX_POSITIONS: usize = 100_000;

/// One position of a suite and what is asked of it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Line number in the file, from 1.
    pub line: usize,
    /// Its name: `id`, else `line N`.
    pub id: String,
    /// The FEN as written.
    pub fen: String,
    /// The side to move's view of the position.
    pub view: View,
    /// Best moves (empty: any move not in `am`).
    pub bm: Vec<Move>,
    /// Moves to avoid.
    pub am: Vec<Move>,
    /// Mate in this many moves of the side to move.
    pub dm: Option<u32>,
    /// `c0`…`c9` comments, in order.
    pub comments: Vec<String>,
}

impl Entry {
    /// Whether `mv` is a right answer: one of `bm` (if any) and none of `am`.
    pub fn right_move(&self, mv: Move) -> bool {
        (self.bm.is_empty() || self.bm.contains(&mv)) && !self.am.contains(&mv)
    }

    /// What is asked, as text: `bm h2e2 b2e2`, `am a5a4`, `dm 2`.
    pub fn expected(&self) -> String {
        let mut parts = Vec::new();
        if !self.bm.is_empty() {
            parts.push(format!("bm {}", moves_text(&self.bm)));
        }
        if !self.am.is_empty() {
            parts.push(format!("am {}", moves_text(&self.am)));
        }
        if let Some(n) = self.dm {
            parts.push(format!("dm {n}"));
        }
        parts.join("; ")
    }
}

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A line that was skipped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// Line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// A parsed suite: the positions that hold up and the lines that do not.
#[derive(Clone, Debug, Default)]
pub struct Suite {
    /// The positions, in file order.
    pub entries: Vec<Entry>,
    /// The skipped lines, in file order.
    pub errors: Vec<LineError>,
    /// The FNV-1a hash of the file's text (0 for a text parsed by [`parse`]): a resumed
    /// `arena solve` checks that the suite did not change.
    pub digest: u64,
}

/// Reads a suite file (at most [`MAX_FILE_BYTES`]).
///
/// # Errors
/// The file cannot be read, is too large or not UTF-8, or holds more than [`MAX_POSITIONS`]
/// positions. Bad lines are not errors: they are in [`Suite::errors`].
pub fn read(path: &Path, rules: &Rules) -> Result<Suite, FormatError> {
    let text = crate::records::files::read_bounded(path, MAX_FILE_BYTES).map_err(|source| {
        FormatError::Read {
            path: path.to_path_buf(),
            source,
        }
    })?;
    let mut suite = parse(&text, rules);
    suite.digest = crate::records::fnv(&text);
    if suite.entries.len() > MAX_POSITIONS {
        return Err(format!("{}: more than {MAX_POSITIONS} positions", path.display()).into());
    }
    Ok(suite)
}

/// Parses a suite's text under `rules`.
pub fn parse(text: &str, rules: &Rules) -> Suite {
    let mut suite = Suite::default();
    for (line, trimmed) in epd::position_lines(text) {
        match parse_line(trimmed, line, rules) {
            Ok(entry) => suite.entries.push(entry),
            Err(e) => suite.errors.push(LineError {
                line,
                message: e.to_string(),
            }),
        }
        if suite.entries.len() > MAX_POSITIONS {
            break;
        }
    }
    suite
}

/// Opcodes that start the operations when the FEN cannot be told apart otherwise.
const OPCODES: [&str; 4] = ["bm", "am", "dm", "id"];

fn parse_line(text: &str, line: usize, rules: &Rules) -> Result<Entry, FormatError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Err("empty line".into());
    };
    if !first.contains('/') {
        return Err(format!(
            "'{}' is not a FEN board (ranks separated by '/')",
            crate::util::text::printable(first)
        )
        .into());
    }
    // The natural end of the FEN: before the first token that is a known opcode.
    let natural = words
        .iter()
        .skip(2)
        .position(|w| OPCODES.contains(w))
        .map_or(words.len(), |p| p + 2)
        .min(6);
    let mut first_error = None;
    // A suite's FEN has its side at least; its last operation may do without its `;`.
    for (k, fen_text, rest) in epd::fen_prefixes(text).filter(|&(k, ..)| k >= 2) {
        let setup = match fen::parse(fen_text) {
            Ok(s) => s,
            Err(e) => {
                if k == natural {
                    first_error.get_or_insert(format!("FEN: {e}"));
                }
                continue;
            }
        };
        let ops = match epd::operations(rest) {
            Ok(ops) => ops,
            Err(e) => {
                if k == natural {
                    first_error.get_or_insert(e.to_string());
                }
                continue;
            }
        };
        return entry(line, fen_text, &setup, ops, rules);
    }
    Err(first_error
        .unwrap_or_else(|| "no FEN followed by operations".into())
        .into())
}

fn entry(
    line: usize,
    fen_text: &str,
    setup: &jieqi_core::Setup,
    ops: Vec<epd::Op>,
    rules: &Rules,
) -> Result<Entry, FormatError> {
    let view = View::from_setup(setup, rules).map_err(|e| format!("position: {e}"))?;
    let legal = view.legal_moves();
    if legal.as_slice().is_empty() {
        return Err("the side to move has no legal move".into());
    }
    let mut e = Entry {
        line,
        id: format!("line {line}"),
        fen: fen_text.to_string(),
        view: view.clone(),
        bm: Vec::new(),
        am: Vec::new(),
        dm: None,
        comments: Vec::new(),
    };
    let mut seen_id = false;
    for (op, args) in ops {
        match op.as_str() {
            "bm" | "am" => {
                if args.is_empty() {
                    return Err(format!("{op}: no move given").into());
                }
                for a in &args {
                    let pm = PlayedMove::from_text(a, view.position().turn())
                        .map_err(|err| format!("{op}: {err}"))?;
                    if !legal.as_slice().contains(&pm.mv) {
                        return Err(format!("{op}: {a} is not a legal move here").into());
                    }
                    let list = if op == "bm" { &mut e.bm } else { &mut e.am };
                    if !list.contains(&pm.mv) {
                        list.push(pm.mv);
                    }
                }
            }
            "dm" => {
                if e.dm.is_some() {
                    return Err("dm given twice".into());
                }
                let [n] = args.as_slice() else {
                    return Err("dm: one number expected".into());
                };
                match n.parse::<u32>() {
                    Ok(n @ 1..=100) => e.dm = Some(n),
                    _ => {
                        return Err(format!(
                            "dm: '{}' is not a number from 1 to 100",
                            crate::util::text::printable(n)
                        )
                        .into());
                    }
                }
            }
            "id" => {
                let [name] = args.as_slice() else {
                    return Err("id: one name expected (quote it if it has spaces)".into());
                };
                if seen_id {
                    return Err("id given twice".into());
                }
                seen_id = true;
                e.id = name.clone();
            }
            c if c.len() == 2 && c.starts_with('c') && c.as_bytes()[1].is_ascii_digit() => {
                e.comments.push(args.join(" "));
            }
            _ => {}
        }
    }
    if e.bm.is_empty() && e.am.is_empty() && e.dm.is_none() {
        return Err("nothing to check: no bm, am or dm".into());
    }
    if !e.bm.is_empty() && e.bm.iter().all(|m| e.am.contains(m)) {
        return Err("every bm move is also an am move".into());
    }
    if legal.as_slice().iter().all(|m| e.am.contains(m)) {
        return Err("every legal move is an am move: nothing can be right".into());
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MATE1: &str = "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1";

    #[test]
    fn lines_parse_with_their_operations_and_bad_lines_are_reported() {
        let text = format!(
            "; a comment\n\
             # another\n\
             \n\
             {MATE1} bm a7a9; dm 1; id \"mate one\"; c0 \"from a test\"; acd 12;\n\
             {MATE1} am a7a8\n\
             {MATE1} bm a7a9 dm 1\n\
             {MATE1} bm z9z9;\n\
             {MATE1} bm a7a6 a7a9; am a7a6;\n\
             {MATE1} id \"nothing\";\n\
             4k4/1R7/R8 w - - 0 1 bm a7a9;\n\
             {MATE1} bm a0a1;\n\
             {MATE1} dm 0;\n\
             {MATE1} id \"open\n\
             {MATE1} BM a7a9;\n\
             {MATE1} bm a7a9; id \"one\"; id \"two\";\n"
        );
        let suite = parse(&text, &Rules::xiangqi());
        let ids: Vec<_> = suite.entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["mate one", "line 5", "line 8"]);
        let first = &suite.entries[0];
        assert_eq!(first.line, 4);
        assert_eq!(first.dm, Some(1));
        assert_eq!(first.comments, ["from a test"]);
        assert_eq!(first.expected(), "bm a7a9; dm 1");
        let a7a9 = Move::from_text("a7a9").unwrap();
        assert!(first.right_move(a7a9));
        assert!(!first.right_move(Move::from_text("a7a8").unwrap()));
        assert!(suite.entries[1].right_move(a7a9));
        assert!(!suite.entries[1].right_move(Move::from_text("a7a8").unwrap()));
        let lines: Vec<_> = suite.errors.iter().map(|e| e.line).collect();
        assert_eq!(
            lines,
            [6, 7, 9, 10, 11, 12, 13, 14, 15],
            "{:#?}",
            suite.errors
        );
        let message = |line: usize| {
            suite
                .errors
                .iter()
                .find(|e| e.line == line)
                .map(|e| e.message.clone())
                .unwrap()
        };
        // "bm a7a9 dm 1" without a ';' reads dm and 1 as moves.
        assert!(message(6).contains("bm"), "{}", message(6));
        assert!(message(7).contains("z9z9"), "{}", message(7));
        assert!(message(9).contains("nothing to check"), "{}", message(9));
        assert!(message(10).contains("FEN"), "{}", message(10));
        assert!(message(11).contains("not a legal move"), "{}", message(11));
        assert!(message(12).contains("dm"), "{}", message(12));
        assert!(message(13).contains("quoted"), "{}", message(13));
        assert!(message(14).contains("opcode"), "{}", message(14));
        assert!(message(15).contains("twice"), "{}", message(15));
    }

    #[test]
    fn a_pool_field_that_looks_like_an_opcode_stays_in_the_fen() {
        // Black's pool is one cannon: "c1", which is also a comment opcode's name.
        let fen = "4k4/9/9/x8/R8/9/9/9/9/3K5 w c1 0 1";
        let suite = parse(&format!("{fen} bm a5a6; id \"t\";"), &Rules::standard());
        assert_eq!(suite.errors, []);
        assert_eq!(suite.entries[0].fen, fen);
        // Hidden pieces under rules without them are refused with the line.
        let bad = parse(&format!("{fen} bm a5a6;"), &Rules::xiangqi());
        assert_eq!(bad.entries.len(), 0);
        assert_eq!(bad.errors[0].line, 1);
    }
}
