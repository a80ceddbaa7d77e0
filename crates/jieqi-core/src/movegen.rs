//! Move generation: pseudo-legal moves per piece, then the legality filter (no self-check).

use crate::attacks::{STEP, is_attacked, mover_kind, pawn_attacks};
use crate::position::{EMPTY, code_color, code_kind};
use crate::tables::{DIAG, ELEPHANT, HORSE, ORTHO, RAY_MASKS, RAYS, nearest_on_ray as nearest};
use crate::{Color, Move, MoveList, Position, Role, Square};

const CHARIOT: u8 = Role::Chariot as u8;
const HORSE_K: u8 = Role::Horse as u8;
const ELEPHANT_K: u8 = Role::Elephant as u8;
const ADVISOR: u8 = Role::Advisor as u8;
const KING: u8 = Role::King as u8;
const CANNON: u8 = Role::Cannon as u8;
const PAWN: u8 = Role::Pawn as u8;

/// Per square, every square a piece other than a chariot or cannon could reach from it in one move:
/// orthogonal and diagonal neighbours, elephant and horse targets.
static NEAR: [u128; 90] = {
    let mut out = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let mut i = 0;
        while i < ORTHO[s].len as usize {
            out[s] |= 1u128 << ORTHO[s].to[i];
            i += 1;
        }
        let mut i = 0;
        while i < DIAG[s].len as usize {
            out[s] |= 1u128 << DIAG[s].to[i];
            i += 1;
        }
        let mut i = 0;
        while i < ELEPHANT[s].len as usize {
            out[s] |= 1u128 << ELEPHANT[s].to[i];
            i += 1;
        }
        let mut i = 0;
        while i < HORSE[s].len as usize {
            out[s] |= 1u128 << HORSE[s].to[i];
            i += 1;
        }
        s += 1;
    }
    out
};

impl Position {
    /// Whether a piece of `us` may land on `t`: empty or an enemy piece.
    #[inline(always)]
    fn can_land(&self, t: usize, us: Color) -> bool {
        let c = self.board[t];
        c == EMPTY || code_color(c) != us
    }

    /// Appends the pseudo-legal moves (own king safety not checked) of the piece on `s`.
    #[inline]
    fn piece_moves(&self, s: usize, list: &mut MoveList) {
        let from = Square::from_index(s);
        self.piece_targets(s, |t| list.push(Move::new(from, Square::from_index(t))));
    }

    /// Calls `push` with every pseudo-legal target square of the piece on `s`.
    #[inline(always)]
    fn piece_targets(&self, s: usize, mut push: impl FnMut(usize)) {
        let c = self.board[s];
        let us = code_color(c);
        let hidden = code_kind(c) == crate::position::HIDDEN_KIND;
        let rules = &self.rules;
        match mover_kind(c, s, rules) {
            CHARIOT => {
                let rays = &RAYS[s];
                for d in 0..4 {
                    for &t in &rays.sq[d][..rays.len[d] as usize] {
                        let t = t as usize;
                        let tc = self.board[t];
                        if tc == EMPTY {
                            push(t);
                        } else {
                            if code_color(tc) != us {
                                push(t);
                            }
                            break;
                        }
                    }
                }
            }
            CANNON => {
                let rays = &RAYS[s];
                for d in 0..4 {
                    let ray = &rays.sq[d][..rays.len[d] as usize];
                    let mut i = 0;
                    while i < ray.len() && self.board[ray[i] as usize] == EMPTY {
                        push(ray[i] as usize);
                        i += 1;
                    }
                    // Cannon screen: capture the first piece beyond exactly one screen.
                    i += 1;
                    while i < ray.len() {
                        let t = ray[i] as usize;
                        let tc = self.board[t];
                        if tc != EMPTY {
                            if code_color(tc) != us {
                                push(t);
                            }
                            break;
                        }
                        i += 1;
                    }
                }
            }
            HORSE_K => {
                // Horse leg: the jump is blocked by a piece next to the horse.
                for (t, leg) in HORSE[s].iter() {
                    if self.board[leg] == EMPTY && self.can_land(t, us) {
                        push(t);
                    }
                }
            }
            ELEPHANT_K => {
                // Elephant eye: blocked by a piece between; confined elephants stay on their half
                // (a hidden elephant's targets are on its own half anyway).
                let confined = rules.confine_elephants;
                for (t, eye) in ELEPHANT[s].iter() {
                    if self.board[eye] == EMPTY
                        && self.can_land(t, us)
                        && (!confined || Square::from_index(t).is_own_half(us))
                    {
                        push(t);
                    }
                }
            }
            ADVISOR => {
                // Palace: confined advisors and every hidden advisor-square piece stay inside.
                let confined = rules.confine_advisors || hidden;
                for (t, _) in DIAG[s].iter() {
                    if self.can_land(t, us) && (!confined || Square::from_index(t).is_palace(us)) {
                        push(t);
                    }
                }
            }
            KING => {
                let confined = rules.confine_king;
                for (t, _) in ORTHO[s].iter() {
                    if self.can_land(t, us) && (!confined || Square::from_index(t).is_palace(us)) {
                        push(t);
                    }
                }
            }
            PAWN => {
                for (t, _) in ORTHO[s].iter() {
                    if pawn_attacks(s, t, us) && self.can_land(t, us) {
                        push(t);
                    }
                }
            }
            STEP => {
                // Seed-000 hidden piece: flip in place, or one orthogonal step.
                push(s);
                for (t, _) in ORTHO[s].iter() {
                    if self.can_land(t, us) {
                        push(t);
                    }
                }
            }
            _ => unreachable!("unknown mover kind"),
        }
    }

    /// Appends every pseudo-legal move of the side to move: moves that follow the pieces' movement
    /// rules but may leave the own king attacked.
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        let mut bits = self.occupied[self.turn.index()];
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.piece_moves(s, list);
        }
    }

    /// Appends the pseudo-legal captures of the side to move (moves onto an enemy piece, hidden or
    /// face up): the captures [`Position::pseudo_legal_moves`] lists, in the same order. Chariots
    /// and cannons find their victims on the occupancy bitboards (the nearest blocker of each ray,
    /// or the one beyond it); other pieces filter their targets, when an enemy piece is near.
    pub fn pseudo_legal_captures(&self, list: &mut MoveList) {
        let them = self.occupied[(!self.turn).index()];
        let occ = them | self.occupied[self.turn.index()];
        let mut bits = self.occupied[self.turn.index()];
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let from = Square::from_index(s);
            match mover_kind(self.board[s], s, &self.rules) {
                k @ (CHARIOT | CANNON) => {
                    for (d, &mask) in RAY_MASKS[s].iter().enumerate() {
                        let mut blockers = mask & occ;
                        if blockers == 0 {
                            continue;
                        }
                        if k == CANNON {
                            // Jump the screen: the victim is the next piece beyond it.
                            blockers &= !(1u128 << nearest(blockers, d));
                            if blockers == 0 {
                                continue;
                            }
                        }
                        let t = nearest(blockers, d) as usize;
                        if (them >> t) & 1 != 0 {
                            list.push(Move::new(from, Square::from_index(t)));
                        }
                    }
                }
                // Short-range pieces: nothing to do unless an enemy piece stands within reach.
                _ if NEAR[s] & them == 0 => {}
                _ => self.piece_targets(s, |t| {
                    if (them >> t) & 1 != 0 {
                        list.push(Move::new(from, Square::from_index(t)));
                    }
                }),
            }
        }
    }

    /// The legal moves of the side to move. Legality never depends on hidden identities: a move is
    /// legal when it follows the movement rules of what the board shows and, under rules with check,
    /// does not leave the own king attacked (flying general included).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_moves(&mut list);
        if !self.rules.check {
            return list;
        }
        let us = self.turn;
        let Some(king) = self.king(us) else {
            return list;
        };
        let ks = king.index();
        let in_check = is_attacked(&self.board, &self.rules, ks, !us);
        let mut i = 0;
        while i < list.len() {
            let m = list[i];
            if self.needs_safety_test(m, ks, in_check) && !self.leaves_king_safe(m, ks) {
                list.swap_remove(i);
            } else {
                i += 1;
            }
        }
        list
    }

    /// Whether a pseudo-legal move could expose the own king, so that it must be tested. When not in
    /// check, a non-king move can only do harm by leaving or entering the king's rank or file (lines
    /// of chariots, cannons and the flying general; entering can create a cannon screen) or by
    /// leaving a square diagonally next to the king (a horse leg or elephant eye).
    #[inline]
    fn needs_safety_test(&self, m: Move, ks: usize, in_check: bool) -> bool {
        if in_check || m.from.index() == ks {
            return true;
        }
        let k = Square::from_index(ks);
        let (f, t) = (m.from, m.to);
        f.file() == k.file()
            || f.rank() == k.rank()
            || t.file() == k.file()
            || t.rank() == k.rank()
            || ((f.file() - k.file()).abs() == 1 && (f.rank() - k.rank()).abs() == 1)
    }

    /// Whether the own king (on `ks` before the move) is safe after the pseudo-legal move `m`.
    #[inline]
    fn leaves_king_safe(&self, m: Move, ks: usize) -> bool {
        let mut board = self.board;
        let (from, to) = (m.from.index(), m.to.index());
        let piece = board[from];
        board[from] = EMPTY;
        board[to] = piece;
        let king = if from == ks { to } else { ks };
        !is_attacked(&board, &self.rules, king, !self.turn)
    }

    /// Whether the side to move has at least one legal move (stops at the first one found).
    pub fn has_legal_move(&self) -> bool {
        let us = self.turn;
        let king = if self.rules.check {
            self.king(us)
        } else {
            None
        };
        let in_check = king.is_some_and(|k| is_attacked(&self.board, &self.rules, k.index(), !us));
        let mut bits = self.occupied[us.index()];
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let from = Square::from_index(s);
            let mut any = false;
            self.piece_targets(s, |t| {
                if !any {
                    let m = Move::new(from, Square::from_index(t));
                    any = match king {
                        Some(k) => {
                            !self.needs_safety_test(m, k.index(), in_check)
                                || self.leaves_king_safe(m, k.index())
                        }
                        None => true,
                    };
                }
            });
            if any {
                return true;
            }
        }
        false
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        let c = self.board[m.from.index()];
        if c == EMPTY || code_color(c) != self.turn {
            return false;
        }
        let mut found = false;
        self.piece_targets(m.from.index(), |t| found |= t == m.to.index());
        if !found {
            return false;
        }
        match (self.rules.check, self.king(self.turn)) {
            (true, Some(k)) => {
                let ks = k.index();
                let in_check = is_attacked(&self.board, &self.rules, ks, !self.turn);
                !self.needs_safety_test(m, ks, in_check) || self.leaves_king_safe(m, ks)
            }
            _ => true,
        }
    }

    /// Whether `m`, which must be a pseudo-legal move of the side to move (one that
    /// [`Position::pseudo_legal_moves`] lists), is legal: the answer of [`Position::is_legal`]
    /// without regenerating the piece's moves. `in_check` must be [`Position::in_check`] of this
    /// position; it is only read when the move alone does not decide whether the king needs a
    /// safety test.
    pub fn is_pseudo_legal_move_legal(&self, m: Move, in_check: impl FnOnce() -> bool) -> bool {
        match (self.rules.check, self.king(self.turn)) {
            (true, Some(k)) => {
                let ks = k.index();
                if self.needs_safety_test(m, ks, false) || in_check() {
                    self.leaves_king_safe(m, ks)
                } else {
                    true
                }
            }
            _ => true,
        }
    }

    /// Whether the move gives check when the moving piece lands as `landed` (its revealed identity
    /// for a hidden mover; ignored otherwise). Under rules without check it is always false.
    pub fn gives_check(&self, m: Move, landed: Option<Role>) -> bool {
        if !self.rules.check {
            return false;
        }
        let them = !self.turn;
        let Some(k) = self.king(them) else {
            return false;
        };
        let mut board = self.board;
        let (from, to) = (m.from.index(), m.to.index());
        let mut piece = board[from];
        if code_kind(piece) == crate::position::HIDDEN_KIND {
            if let Some(r) = landed {
                piece = crate::position::code(self.turn, r as u8);
            }
        }
        board[from] = EMPTY;
        board[to] = piece;
        is_attacked(&board, &self.rules, k.index(), self.turn)
    }
}
