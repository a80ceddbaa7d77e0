//! Attack detection: is a square attacked by a side? Used for check, legality and "gives check",
//! by the core and by the playout board, on a board of [`cell`](crate::cell) codes.
//!
//! A hidden piece attacks as the piece of its start square (mainstream rules) or as a one-step
//! orthogonal mover (seed-000 variant). From their start squares hidden pieces never reach the
//! enemy palace, but they block lines and serve as cannon screens, which this code handles because
//! it reads the board, not identities.

use crate::cell::{EMPTY, HIDDEN_KIND, code, code_color, code_kind};
use crate::tables::{
    DIAG, ELEPHANT, HORSE_ATTACKERS, ORTHO_DIRS, RAY_MASKS, RAYS, START_ROLE, nearest_on_ray,
};
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
/// [`crate::cell`]) under `rules`. [`is_attacked_occ`] gives the same answer faster where the
/// board's occupancy is at hand.
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
        if line_attacker(board, rules, sq, d, t, i == 0, by) {
            return true;
        }
        // Cannon: jump the screen at i, the next piece is the one that captures.
        i += 1;
        while i < ray.len() && board[ray[i] as usize] == EMPTY {
            i += 1;
        }
        if i < ray.len() && cannon_at(board, rules, ray[i] as usize, by) {
            return true;
        }
    }
    near_attacker(board, rules, sq, by)
}

/// [`is_attacked`] on a board whose occupied squares are the bits of `occ` (bit `i`: square `i`;
/// it must agree with `board`): the same answer, the lines' first and second pieces found on the
/// bitboard instead of square by square. For the hot paths of legality and check.
#[inline]
pub fn is_attacked_occ(board: &[u8; 90], occ: u128, rules: &Rules, s: usize, by: Color) -> bool {
    let sq = Square::from_index(s);
    for (d, &mask) in RAY_MASKS[s].iter().enumerate() {
        let mut blockers = mask & occ;
        if blockers == 0 {
            continue;
        }
        let t = nearest_on_ray(blockers, d) as usize;
        if line_attacker(board, rules, sq, d, t, t == RAYS[s].sq[d][0] as usize, by) {
            return true;
        }
        blockers &= !(1u128 << t);
        if blockers != 0 && cannon_at(board, rules, nearest_on_ray(blockers, d) as usize, by) {
            return true;
        }
    }
    near_attacker(board, rules, sq, by)
}

/// Whether the first piece `t` on the ray of direction `d` from `sq` (`adjacent`: next to `sq`)
/// is one of `by`'s that attacks `sq` along it: a chariot, a king (a step, or the flying general
/// on a file), a seed-000 hidden step or a pawn next to it.
#[inline(always)]
fn line_attacker(
    board: &[u8; 90],
    rules: &Rules,
    sq: Square,
    d: usize,
    t: usize,
    adjacent: bool,
    by: Color,
) -> bool {
    let c = board[t];
    if code_color(c) != by {
        return false;
    }
    match mover_kind(c, t, rules) {
        k if k == Role::Chariot as u8 => true,
        k if k == Role::King as u8 => {
            let vertical = ORTHO_DIRS[d].0 == 0;
            let step_ok = adjacent && (!rules.confine_king || sq.is_palace(by));
            step_ok || (vertical && rules.flying_general)
        }
        STEP => adjacent,
        k if k == Role::Pawn as u8 => adjacent && pawn_attacks(t, sq.index(), by),
        _ => false,
    }
}

/// Whether the piece on `t` (the second on a ray) is a cannon of `by`'s.
#[inline(always)]
fn cannon_at(board: &[u8; 90], rules: &Rules, t: usize, by: Color) -> bool {
    let c = board[t];
    code_color(c) == by && mover_kind(c, t, rules) == Role::Cannon as u8
}

/// Whether a short-range piece of `by`'s attacks `sq`: a horse, an advisor or an elephant.
#[inline(always)]
fn near_attacker(board: &[u8; 90], rules: &Rules, sq: Square, by: Color) -> bool {
    let s = sq.index();
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
