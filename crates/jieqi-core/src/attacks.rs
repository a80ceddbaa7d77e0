//! Attack detection: is a square attacked by a side? Used for check, legality and "gives check",
//! by the core and by the playout board, on a board of [`cell`](crate::cell) codes.
//!
//! A hidden piece attacks as the piece of its start square (mainstream rules) or as a one-step
//! orthogonal mover (seed-000 variant). From their start squares hidden pieces never reach the
//! enemy palace, but they block lines and serve as cannon screens, which this code handles because
//! it reads the board, not identities.

use crate::cell::{EMPTY, HIDDEN_KIND, code, code_color, code_kind};
use crate::tables::{DIAG, ELEPHANT, HORSE_ATTACKERS, ORTHO_DIRS, RAYS, START_ROLE};
use crate::{Color, HiddenMoves, Role, Rules, Square};

/// Movement kind of a piece for attack purposes: a role index, or `STEP` for a seed-000 hidden
/// piece.
pub const STEP: u8 = 8;

/// Movement kind of a piece that cannot move: a hidden piece off its start squares, or under rules
/// without hidden pieces (neither occurs in a legal position).
pub const NO_MOVE: u8 = 255;

/// What a piece with cell code `c` on square `s` moves as: its role, the role of its start square if
/// hidden, or [`STEP`] (or [`NO_MOVE`]).
#[inline]
pub fn mover_kind(c: u8, s: usize, rules: &Rules) -> u8 {
    let k = code_kind(c);
    if k != HIDDEN_KIND {
        return k;
    }
    match rules.hidden_moves {
        HiddenMoves::StartSquare => START_ROLE[s],
        HiddenMoves::Step => STEP,
        HiddenMoves::None => NO_MOVE,
    }
}

/// Whether square `s` (an index below 90) is attacked by side `by` on `board` (cell codes, see
/// [`crate::cell`]) under `rules`.
pub fn is_attacked(board: &[u8; 90], rules: &Rules, s: usize, by: Color) -> bool {
    let sq = Square::from_index(s);
    // Lines: chariot (first piece), cannon (second piece: exactly one screen), flying general
    // (enemy king first on the file), king / seed-000 hidden step (first piece, adjacent).
    let rays = &RAYS[s];
    for (d, (&len, squares)) in rays.len.iter().zip(&rays.sq).enumerate() {
        let ray = &squares[..len as usize];
        let mut i = 0;
        while i < ray.len() && board[ray[i] as usize] == EMPTY {
            i += 1;
        }
        if i == ray.len() {
            continue;
        }
        let t = ray[i] as usize;
        let c = board[t];
        if code_color(c) == by {
            match mover_kind(c, t, rules) {
                k if k == Role::Chariot as u8 => return true,
                k if k == Role::King as u8 => {
                    let vertical = ORTHO_DIRS[d].0 == 0;
                    let step_ok = i == 0 && (!rules.confine_king || sq.is_palace(by));
                    if step_ok || (vertical && rules.flying_general) {
                        return true;
                    }
                }
                STEP if i == 0 => return true,
                k if k == Role::Pawn as u8 && i == 0 && pawn_attacks(t, s, by) => return true,
                _ => {}
            }
        }
        // Cannon: jump the screen at i, the next piece is the one that captures.
        i += 1;
        while i < ray.len() && board[ray[i] as usize] == EMPTY {
            i += 1;
        }
        if i < ray.len() {
            let t = ray[i] as usize;
            let c = board[t];
            if code_color(c) == by && mover_kind(c, t, rules) == Role::Cannon as u8 {
                return true;
            }
        }
    }
    // Horse: attacks from a jump away, unless its leg (next to the horse) is blocked.
    for (t, leg) in HORSE_ATTACKERS[s].iter() {
        let c = board[t];
        if c != EMPTY
            && code_color(c) == by
            && board[leg] == EMPTY
            && mover_kind(c, t, rules) == Role::Horse as u8
        {
            return true;
        }
    }
    // Advisor: one diagonal step; a confined or hidden advisor only within its palace.
    let advisor = code(by, Role::Advisor as u8);
    let hidden = code(by, HIDDEN_KIND);
    for (t, _) in DIAG[s].iter() {
        let c = board[t];
        if c == advisor {
            if !rules.confine_advisors || sq.is_palace(by) {
                return true;
            }
        } else if c == hidden
            && rules.hidden_moves == HiddenMoves::StartSquare
            && START_ROLE[t] == Role::Advisor as u8
            && sq.is_palace(by)
        {
            return true;
        }
    }
    // Elephant: two diagonal steps, unless its eye is blocked; a confined or hidden elephant only on
    // its own half.
    let elephant = code(by, Role::Elephant as u8);
    for (t, eye) in ELEPHANT[s].iter() {
        let c = board[t];
        if board[eye] != EMPTY || c == EMPTY {
            continue;
        }
        if c == elephant {
            if !rules.confine_elephants || sq.is_own_half(by) {
                return true;
            }
        } else if c == hidden
            && rules.hidden_moves == HiddenMoves::StartSquare
            && START_ROLE[t] == Role::Elephant as u8
            && sq.is_own_half(by)
        {
            return true;
        }
    }
    false
}

/// Whether a pawn of `color` on `from` attacks the orthogonally adjacent square `to`.
#[inline]
pub fn pawn_attacks(from: usize, to: usize, color: Color) -> bool {
    let (f, t) = (Square::from_index(from), Square::from_index(to));
    let forward = if color == Color::Red { 1 } else { -1 };
    if t.file() == f.file() {
        t.rank() - f.rank() == forward
    } else {
        // Sideways only once across the river.
        t.rank() == f.rank() && !f.is_own_half(color)
    }
}
