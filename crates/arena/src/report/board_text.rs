//! Boards drawn as text: rank numbers 9..0 down the left, files a..i along the bottom, the river
//! between ranks 5 and 4. Red is at the bottom, as Red sees the board.
//!
//! ASCII glyphs are the FEN letters (uppercase Red, lowercase Black, `X`/`x` hidden, `.` empty).
//! Unicode glyphs are the Chinese characters (Red 俥傌相仕帥炮兵, Black 車馬象士將砲卒, 暗 for a
//! hidden piece of either side, `．` empty); they are two terminal columns wide, and since 暗 does
//! not say whose piece it is, every Red piece is drawn in brackets, `[暗]`.

use jieqi_core::{Color, Determinization, Occupant, Piece, Position, Role, Square};

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

/// One square drawn in `style`, without ANSI escapes: one column plus a leading space (ASCII), or
/// four columns `[俥]` / ` 車 ` / ` ． ` (Unicode).
fn cell(occupant: Option<Occupant>, glyphs: Glyphs) -> String {
    match glyphs {
        Glyphs::Ascii => format!(" {}", occupant.map_or('.', Occupant::char)),
        Glyphs::Unicode => {
            let ch = match occupant {
                None => '．',
                Some(Occupant::Hidden(_)) => HIDDEN_CHINESE,
                Some(Occupant::Revealed(p)) => chinese(p),
            };
            match occupant.map(Occupant::color) {
                Some(Color::Red) => format!("[{ch}]"),
                _ => format!(" {ch} "),
            }
        }
    }
}

/// Draws a board whose squares hold what `occupant` says, one line per rank (each ending in
/// `'\n'`), then the river line between ranks 5 and 4, then the file letters.
pub fn render(style: BoardStyle, occupant: impl Fn(Square) -> Option<Occupant>) -> String {
    let mut out = String::new();
    for rank in (0..10).rev() {
        let mut line = format!("{rank} ");
        for file in 0..9 {
            let sq = Square::from_coords(file, rank).expect("file and rank are on the board");
            let occ = occupant(sq);
            let text = cell(occ, style.glyphs);
            if style.ansi && occ.is_some_and(|o| o.color() == Color::Red) {
                line.push_str(ANSI_RED);
                line.push_str(&text);
                line.push_str(ANSI_RESET);
            } else {
                line.push_str(&text);
            }
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

/// Draws a position as its holder sees it: hidden pieces as hidden.
pub fn position_board(pos: &Position, style: BoardStyle) -> String {
    render(style, |sq| pos.occupant(sq))
}

/// Draws the truth: every hidden piece as its true identity. For the referee only.
pub fn truth_board(truth: &Determinization, style: BoardStyle) -> String {
    render(style, |sq| match truth.position().occupant(sq) {
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

    /// The terminal column at which each non-blank, non-bracket character of `line` starts.
    fn glyph_columns(line: &str) -> Vec<usize> {
        let mut cols = Vec::new();
        let mut col = 0;
        for c in line.chars() {
            if !matches!(c, ' ' | '[' | ']') {
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
        let board = position_board(&Position::start(&Rules::standard()), BoardStyle::ASCII);
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
    fn unicode_glyphs_sit_over_their_file_letters() {
        for ansi in [false, true] {
            let style = BoardStyle {
                glyphs: Glyphs::Unicode,
                ansi,
            };
            for rules in [Rules::standard(), Rules::xiangqi()] {
                let board = strip_ansi(&position_board(&Position::start(&rules), style));
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
        let board = position_board(&Position::start(&Rules::xiangqi()), style);
        let top = board.lines().next().unwrap();
        assert!(!top.contains(ANSI_RED), "{top}");
        let bottom = board.lines().nth(10).unwrap();
        assert!(bottom.contains("\x1b[31m[俥]\x1b[0m"), "{bottom}");
    }
}
