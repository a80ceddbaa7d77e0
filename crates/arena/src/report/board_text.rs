//! Boards drawn as text: rank numbers 9..0 down the left, files a..i along the bottom, the river
//! between ranks 5 and 4. Red is at the bottom, as Red sees the board.
//!
//! ASCII glyphs are the FEN letters (uppercase Red, lowercase Black, `X`/`x` hidden, `.` empty).
//! Unicode glyphs are the Chinese characters (Red 俥傌相仕帥炮兵, Black 車馬象士將砲卒, 暗 for a
//! hidden piece of either side, `．` empty); they are two terminal columns wide, and since 暗 does
//! not say whose piece it is, every Red piece is drawn in brackets, `[暗]`.
//!
//! A board drawn after a move marks it, as plain text without colour: the piece on its
//! destination in parentheses, `(R)` or `(俥)` (drawn over the spaces between files in ASCII, in
//! place of Red's brackets in Unicode, where the character says whose piece it is: a piece that
//! moved is revealed), and its origin, which the move left empty, as `*` (`＊`). Every glyph
//! stays over its file letter.

use jieqi_core::{Color, Determinization, Move, Occupant, Piece, Position, Role, Square};

/// Which characters draw the pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Glyphs {
    /// FEN letters.
    Ascii,
    /// Chinese characters, Red in brackets.
    Unicode,
}

/// How a board is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BoardStyle {
    /// The piece characters.
    pub glyphs: Glyphs,
    /// Colour Red pieces with ANSI escapes (only for a terminal; alignment is unchanged).
    pub ansi: bool,
}

impl BoardStyle {
    /// Plain FEN letters, no escapes.
    pub const ASCII: BoardStyle = BoardStyle {
        glyphs: Glyphs::Ascii,
        ansi: false,
    };
}

const ANSI_RED: &str = "\x1b[31m";
const ANSI_RESET: &str = "\x1b[0m";

/// The Chinese character of a piece: distinct per side for every role.
pub const fn chinese(piece: Piece) -> char {
    match (piece.color, piece.role) {
        (Color::Red, Role::Chariot) => '俥',
        (Color::Red, Role::Horse) => '傌',
        (Color::Red, Role::Elephant) => '相',
        (Color::Red, Role::Advisor) => '仕',
        (Color::Red, Role::King) => '帥',
        (Color::Red, Role::Cannon) => '炮',
        (Color::Red, Role::Pawn) => '兵',
        (Color::Black, Role::Chariot) => '車',
        (Color::Black, Role::Horse) => '馬',
        (Color::Black, Role::Elephant) => '象',
        (Color::Black, Role::Advisor) => '士',
        (Color::Black, Role::King) => '將',
        (Color::Black, Role::Cannon) => '砲',
        (Color::Black, Role::Pawn) => '卒',
    }
}

/// The Chinese character of a hidden piece, the same for both sides.
pub const HIDDEN_CHINESE: char = '暗';

/// How a square is marked on a board drawn after a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mark {
    /// Not part of the last move.
    None,
    /// The last move's origin, empty after it.
    From,
    /// The last move's destination.
    To,
}

/// The glyph of an empty square that the last move left.
const FROM_ASCII: char = '*';
/// The same in Unicode, two columns wide like the pieces.
const FROM_UNICODE: char = '＊';

/// The piece glyph of a square: one column (ASCII) or two (Unicode).
fn glyph(occupant: Option<Occupant>, glyphs: Glyphs, mark: Mark) -> char {
    match (glyphs, occupant) {
        (Glyphs::Ascii, None) if mark == Mark::From => FROM_ASCII,
        (Glyphs::Unicode, None) if mark == Mark::From => FROM_UNICODE,
        (Glyphs::Ascii, None) => '.',
        (Glyphs::Ascii, Some(o)) => o.char(),
        (Glyphs::Unicode, None) => '．',
        (Glyphs::Unicode, Some(Occupant::Hidden(_))) => HIDDEN_CHINESE,
        (Glyphs::Unicode, Some(Occupant::Revealed(p))) => chinese(p),
    }
}

/// One Unicode square: four columns, `[俥]` for Red, ` 車 ` otherwise, `(俥)` for the last
/// move's destination.
fn unicode_cell(occupant: Option<Occupant>, mark: Mark) -> String {
    let ch = glyph(occupant, Glyphs::Unicode, mark);
    match (mark, occupant.map(Occupant::color)) {
        (Mark::To, _) => format!("({ch})"),
        (_, Some(Color::Red)) => format!("[{ch}]"),
        _ => format!(" {ch} "),
    }
}

/// Draws a board whose squares hold what `occupant` says, one line per rank (each ending in
/// `'\n'`), then the river line between ranks 5 and 4, then the file letters; with `last`, that
/// move marked (see the module's documentation).
pub fn render(
    style: BoardStyle,
    last: Option<Move>,
    occupant: impl Fn(Square) -> Option<Occupant>,
) -> String {
    let mark = |sq: Square, occ: Option<Occupant>| match last {
        Some(m) if m.to == sq => Mark::To,
        Some(m) if m.from == sq && occ.is_none() => Mark::From,
        _ => Mark::None,
    };
    let paint = |line: &mut String, text: &str, occ: Option<Occupant>| {
        if style.ansi && occ.is_some_and(|o| o.color() == Color::Red) {
            line.push_str(ANSI_RED);
            line.push_str(text);
            line.push_str(ANSI_RESET);
        } else {
            line.push_str(text);
        }
    };
    let mut out = String::new();
    for rank in (0..10).rev() {
        let mut line = format!("{rank} ");
        // In ASCII the destination's parentheses take the spaces either side of its glyph.
        let mut close = false;
        for file in 0..9 {
            let sq = Square::from_coords(file, rank).expect("file and rank are on the board");
            let occ = occupant(sq);
            let mark = mark(sq, occ);
            match style.glyphs {
                Glyphs::Ascii => {
                    line.push(match (close, mark) {
                        (true, _) => ')',
                        (false, Mark::To) => '(',
                        (false, _) => ' ',
                    });
                    close = mark == Mark::To;
                    paint(&mut line, &glyph(occ, Glyphs::Ascii, mark).to_string(), occ);
                }
                Glyphs::Unicode => paint(&mut line, &unicode_cell(occ, mark), occ),
            }
        }
        if close {
            line.push(')');
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if rank == 5 {
            out.push_str(match style.glyphs {
                Glyphs::Ascii => "   ~~~~~ river ~~~~~\n",
                Glyphs::Unicode => "  ~~~~~~~~~~~~ 楚河  漢界 ~~~~~~~~~~~~\n",
            });
        }
    }
    out.push_str(match style.glyphs {
        Glyphs::Ascii => "   a b c d e f g h i\n",
        Glyphs::Unicode => "   a   b   c   d   e   f   g   h   i\n",
    });
    out
}

/// Draws a position as its holder sees it: hidden pieces as hidden; with `last`, the move that
/// led to it marked.
pub fn position_board(pos: &Position, style: BoardStyle, last: Option<Move>) -> String {
    render(style, last, |sq| pos.occupant(sq))
}

/// Draws the truth: every hidden piece as its true identity; with `last`, the move that led to it
/// marked. For the referee only.
pub fn truth_board(truth: &Determinization, style: BoardStyle, last: Option<Move>) -> String {
    render(style, last, |sq| match truth.position().occupant(sq) {
        Some(Occupant::Hidden(color)) => Some(match truth.identity(sq) {
            Some(role) => Occupant::Revealed(Piece { color, role }),
            None => Occupant::Hidden(color),
        }),
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jieqi_core::Rules;

    /// Terminal columns of `s`: two for the CJK and fullwidth characters this module prints.
    fn width(s: &str) -> usize {
        s.chars()
            .map(|c| match c as u32 {
                0x3000..=0x9FFF | 0xFF01..=0xFF60 => 2,
                _ => 1,
            })
            .sum()
    }

    /// The terminal column at which each character of `line` starts that is not blank, a bracket
    /// or a parenthesis.
    fn glyph_columns(line: &str) -> Vec<usize> {
        let mut cols = Vec::new();
        let mut col = 0;
        for c in line.chars() {
            if !matches!(c, ' ' | '[' | ']' | '(' | ')') {
                cols.push(col);
            }
            col += width(&c.to_string());
        }
        cols
    }

    fn strip_ansi(s: &str) -> String {
        s.replace(ANSI_RED, "").replace(ANSI_RESET, "")
    }

    #[test]
    fn ascii_start_position() {
        let board = position_board(
            &Position::start(&Rules::standard()),
            BoardStyle::ASCII,
            None,
        );
        let expected = "\
9  x x x x k x x x x
8  . . . . . . . . .
7  . x . . . . . x .
6  x . x . x . x . x
5  . . . . . . . . .
   ~~~~~ river ~~~~~
4  . . . . . . . . .
3  X . X . X . X . X
2  . X . . . . . X .
1  . . . . . . . . .
0  X X X X K X X X X
   a b c d e f g h i
";
        assert_eq!(board, expected);
    }

    #[test]
    fn the_last_move_is_marked_in_plain_text() {
        let rules = Rules::xiangqi();
        let mut pos = Position::start(&rules);
        let mv = Move::from_text("h2e2").unwrap();
        pos.play(jieqi_core::PlayedMove::plain(mv)).unwrap();
        let board = position_board(&pos, BoardStyle::ASCII, Some(mv));
        let expected = "\
9  r n b a k a b n r
8  . . . . . . . . .
7  . c . . . . . c .
6  p . p . p . p . p
5  . . . . . . . . .
   ~~~~~ river ~~~~~
4  . . . . . . . . .
3  P . P . P . P . P
2  . C . .(C). . * .
1  . . . . . . . . .
0  R N B A K A B N R
   a b c d e f g h i
";
        assert_eq!(board, expected);
        // Without a move, nothing is marked.
        assert!(!position_board(&pos, BoardStyle::ASCII, None).contains(['(', '*']));
    }

    #[test]
    fn marks_keep_every_glyph_over_its_file_letter() {
        let start = Position::start(&Rules::xiangqi());
        // Origin and destination side by side, either way round, and at the board's edges.
        let moves = ["h0i0", "b0a0", "a9a8", "i3i4", "e1e1"];
        for style in [
            BoardStyle::ASCII,
            BoardStyle {
                glyphs: Glyphs::Unicode,
                ansi: false,
            },
            BoardStyle {
                glyphs: Glyphs::Unicode,
                ansi: true,
            },
        ] {
            for text in moves {
                let mv = Move::from_text(text).unwrap();
                // The origin emptied, the destination holding what stood on the origin.
                let board = strip_ansi(&render(style, Some(mv), |sq| {
                    if sq == mv.to {
                        start.occupant(mv.from)
                    } else if sq == mv.from {
                        None
                    } else {
                        start.occupant(sq)
                    }
                }));
                let lines: Vec<&str> = board.lines().collect();
                let files = glyph_columns(lines[11]);
                for line in lines.iter().take(11).filter(|l| !l.contains('~')) {
                    let cols = glyph_columns(line);
                    // A rank whose end is empty is trimmed: its glyphs are a prefix.
                    assert!(cols.len() <= 10, "{text}: {line}");
                    assert_eq!(cols[1..], files[..cols.len() - 1], "{text}: {line}");
                }
                let marked = board.matches(['(', '*', '＊']).count();
                let expected = if mv.from == mv.to { 1 } else { 2 };
                assert_eq!(marked, expected, "{text}:\n{board}");
                assert_eq!(board.matches(')').count(), 1, "{text}:\n{board}");
            }
        }
    }

    #[test]
    fn unicode_glyphs_sit_over_their_file_letters() {
        for ansi in [false, true] {
            let style = BoardStyle {
                glyphs: Glyphs::Unicode,
                ansi,
            };
            for rules in [Rules::standard(), Rules::xiangqi()] {
                let board = strip_ansi(&position_board(&Position::start(&rules), style, None));
                let lines: Vec<&str> = board.lines().collect();
                assert_eq!(lines.len(), 12);
                let files = glyph_columns(lines[11]);
                assert_eq!(files.len(), 9);
                for line in lines.iter().take(11).filter(|l| !l.contains('~')) {
                    // The rank number, then one glyph per file.
                    assert_eq!(glyph_columns(line)[1..], files[..], "{line}");
                }
                // Rank 0 ends in a bracketed Red piece, so it is not shortened by trimming.
                let river = lines[5];
                assert_eq!(width(river), width(lines[10]), "{river}");
            }
        }
    }

    #[test]
    fn ansi_colours_only_red() {
        let style = BoardStyle {
            glyphs: Glyphs::Unicode,
            ansi: true,
        };
        let board = position_board(&Position::start(&Rules::xiangqi()), style, None);
        let top = board.lines().next().unwrap();
        assert!(!top.contains(ANSI_RED), "{top}");
        let bottom = board.lines().nth(10).unwrap();
        assert!(bottom.contains("\x1b[31m[俥]\x1b[0m"), "{bottom}");
    }
}
