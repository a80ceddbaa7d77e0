//! Move generation: pseudo-legal moves per piece, then the legality filter (no self-check).

use crate::attacks::{STEP, is_attacked_occ, mover_kind, pawn_attacks};
use crate::position::{EMPTY, code_color, code_kind};
use crate::tables::{
    DIAG, ELEPHANT, HORSE, HORSE_ATTACKERS, ORTHO, RAY_MASKS, RAYS, nearest_on_ray as nearest,
};
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
        self.legal_moves_in_check(self.in_check())
    }

    /// [`Position::legal_moves`] for a caller that knows whether the side to move is in check:
    /// `in_check` must be [`Position::in_check`] (a wrong value gives wrong moves); saves the
    /// attack test on the king.
    pub fn legal_moves_in_check(&self, in_check: bool) -> MoveList {
        debug_assert_eq!(in_check, self.in_check(), "in_check given wrongly");
        let mut list = MoveList::new();
        self.pseudo_legal_moves(&mut list);
        if let (true, Some(king)) = (self.rules.check, self.king(self.turn)) {
            self.keep_legal(&mut list, king.index(), in_check);
        }
        list
    }

    /// Removes from the pseudo-legal `list` the moves that leave the side to move's king (on
    /// `ks`; `in_check`: attacked now) attacked. The order left depends only on which moves go.
    #[inline]
    fn keep_legal(&self, list: &mut MoveList, ks: usize, in_check: bool) {
        // The moves the guard does not flag keep the king as it was: safe when it was not in
        // check, attacked when it was. The flagged ones and the king's own are tested.
        let guard = if in_check {
            self.evasion_guard(ks)
        } else {
            self.king_guard(ks)
        };
        let mut i = 0;
        while i < list.len() {
            let m = list[i];
            let legal = if m.from.index() == ks || guard.flags(m) {
                self.leaves_king_safe(m, ks)
            } else {
                !in_check
            };
            if legal {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
    }

    /// Whether a pseudo-legal move could expose the own king (on `ks`), so that it must be tested:
    /// in check, a king move, or a move [`Guard::all`] flags.
    #[inline]
    fn needs_safety_test(&self, m: Move, ks: usize, in_check: bool) -> bool {
        in_check || m.from.index() == ks || Guard::all(ks).flags(m)
    }

    /// The squares where a move of a piece other than the king may take the side to move's king
    /// (on `ks`, in check) out of check: every attack on it needs the move to capture the
    /// attacker or fill an empty square between them (a line, a horse leg, an elephant eye), or,
    /// for a cannon, to move its screen away or add a second one. Flagged, for each piece that
    /// may attack the king (a superset does no harm): entering the ray squares up to and
    /// including the first piece on each ray when it is an enemy one; up to and including the
    /// second when that is an enemy cannon, and leaving the first; entering the square and leg
    /// of an enemy horse, the square and eye of an enemy elephant, or an enemy-held diagonal
    /// neighbour (an advisor). A move that does none of this leaves every attack standing.
    #[inline]
    fn evasion_guard(&self, ks: usize) -> Guard {
        let them = self.occupied[(!self.turn).index()];
        let occ = self.occ();
        let kind = |t: usize| mover_kind(self.board[t], t, &self.rules);
        let mut guard = Guard { from: 0, to: 0 };
        for (d, &mask) in RAY_MASKS[ks].iter().enumerate() {
            let mut blockers = mask & occ;
            if blockers == 0 {
                continue;
            }
            let p1 = nearest(blockers, d) as usize;
            if (them >> p1) & 1 != 0 {
                guard.to |= mask & !RAY_MASKS[p1][d];
            }
            blockers &= !(1u128 << p1);
            if blockers == 0 {
                continue;
            }
            let p2 = nearest(blockers, d) as usize;
            if (them >> p2) & 1 != 0 && kind(p2) == CANNON {
                guard.to |= mask & !RAY_MASKS[p2][d];
                guard.from |= 1u128 << p1;
            }
        }
        for (t, leg) in HORSE_ATTACKERS[ks].iter() {
            if (them >> t) & 1 != 0 && kind(t) == HORSE_K {
                guard.to |= (1u128 << t) | (1u128 << leg);
            }
        }
        for (t, eye) in ELEPHANT[ks].iter() {
            if (them >> t) & 1 != 0 && kind(t) == ELEPHANT_K {
                guard.to |= (1u128 << t) | (1u128 << eye);
            }
        }
        for (t, _) in DIAG[ks].iter() {
            guard.to |= ((them >> t) & 1) << t;
        }
        guard
    }

    /// The squares around the side to move's king (on `ks`, not in check) where a move of one of
    /// its pieces other than the king may expose it, read off the board as it stands (the enemy
    /// pieces do not move meanwhile, and a capture leaves its square occupied):
    /// - on each ray from the king, with `p1`, `p2`, `p3` its first pieces: leaving `p1` when `p2`
    ///   is an enemy chariot (or the enemy king on the file, under the flying general); leaving
    ///   `p1` or `p2` when `p3` is an enemy cannon (one screen would be left); entering the squares
    ///   before `p1` when `p1` is an enemy cannon (a new screen);
    /// - leaving a diagonal neighbour that is the leg of an enemy horse's or the eye of an enemy
    ///   elephant's way to the king (whatever the confinement rules: a superset does no harm).
    ///
    /// A move within one ray (both squares on it) leaves a guarded square whenever it matters.
    #[inline]
    fn king_guard(&self, ks: usize) -> Guard {
        let them = self.occupied[(!self.turn).index()];
        let occ = self.occ();
        let kind = |t: usize| mover_kind(self.board[t], t, &self.rules);
        let line = |t: usize, d: usize| {
            let k = kind(t);
            k == CHARIOT || (k == KING && d < 2 && self.rules.flying_general)
        };
        let mut guard = Guard { from: 0, to: 0 };
        for (d, &mask) in RAY_MASKS[ks].iter().enumerate() {
            let mut blockers = mask & occ;
            if blockers & them == 0 {
                continue;
            }
            let p1 = nearest(blockers, d) as usize;
            if (them >> p1) & 1 != 0 && kind(p1) == CANNON {
                guard.to |= mask & !RAY_MASKS[p1][d] & !(1u128 << p1);
            }
            blockers &= !(1u128 << p1);
            if blockers == 0 {
                continue;
            }
            let p2 = nearest(blockers, d) as usize;
            if (them >> p2) & 1 != 0 && line(p2, d) {
                guard.from |= 1u128 << p1;
            }
            blockers &= !(1u128 << p2);
            if blockers == 0 {
                continue;
            }
            let p3 = nearest(blockers, d) as usize;
            if (them >> p3) & 1 != 0 && kind(p3) == CANNON {
                guard.from |= (1u128 << p1) | (1u128 << p2);
            }
        }
        for (t, leg) in HORSE_ATTACKERS[ks].iter() {
            if (them >> t) & 1 != 0 && kind(t) == HORSE_K {
                guard.from |= 1u128 << leg;
            }
        }
        for (t, eye) in ELEPHANT[ks].iter() {
            if (them >> t) & 1 != 0 && kind(t) == ELEPHANT_K {
                guard.from |= 1u128 << eye;
            }
        }
        guard
    }

    /// Both sides' occupied squares, as bits.
    #[inline(always)]
    fn occ(&self) -> u128 {
        self.occupied[0] | self.occupied[1]
    }

    /// The occupied squares after a piece moves from `from` to `to` (a capture or not).
    #[inline(always)]
    pub(crate) fn occ_after(&self, from: usize, to: usize) -> u128 {
        (self.occ() & !(1u128 << from)) | (1u128 << to)
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
        !is_attacked_occ(
            &board,
            self.occ_after(from, to),
            &self.rules,
            king,
            !self.turn,
        )
    }

    /// Whether the side to move has at least one legal move (stops at the first one found).
    pub fn has_legal_move(&self) -> bool {
        let us = self.turn;
        let king = if self.rules.check {
            self.king(us)
        } else {
            None
        };
        let in_check = king
            .is_some_and(|k| is_attacked_occ(&self.board, self.occ(), &self.rules, k.index(), !us));
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
                let in_check =
                    is_attacked_occ(&self.board, self.occ(), &self.rules, ks, !self.turn);
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
        let (from, to) = (m.from.index(), m.to.index());
        // Before the move the enemy king is not attacked (it would have been the enemy's illegal
        // move), so only the piece landing on `to` can attack it, or a line the move opens or
        // closes: `from` or `to` on the king's rank or file or diagonally next to it (where horse
        // legs and elephant eyes are). The landing piece reaches the king otherwise only as a
        // horse or an elephant.
        let ks = k.index();
        let near = Guard::all(ks).from;
        if ((near >> from) | (near >> to)) & 1 == 0
            && !HORSE_ATTACKERS[ks].iter().any(|(t, _)| t == to)
            && !ELEPHANT[ks].iter().any(|(t, _)| t == to)
        {
            return false;
        }
        let board = self.board_after(m, landed);
        is_attacked_occ(&board, self.occ_after(from, to), &self.rules, ks, self.turn)
    }

    /// The board after move `m` of the side to move, the moving piece landing as `landed` (its
    /// revealed identity for a hidden mover; ignored otherwise, and a hidden mover stays hidden).
    #[inline]
    fn board_after(&self, m: Move, landed: Option<Role>) -> [u8; 90] {
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
        board
    }
}

/// Where a move of a piece other than the king may change whether its own king is attacked:
/// leaving a square of `from` or entering one of `to` ([`Position::king_guard`] when not in check,
/// [`Position::evasion_guard`] in check).
#[derive(Copy, Clone)]
struct Guard {
    from: u128,
    to: u128,
}

impl Guard {
    /// Whether move `m` leaves a square of `from` or enters one of `to`.
    #[inline(always)]
    fn flags(self, m: Move) -> bool {
        ((self.from >> m.from.index()) | (self.to >> m.to.index())) & 1 != 0
    }

    /// Every square that can matter without looking at the board: the king's rank and file both
    /// ways, and its diagonal neighbours when left.
    #[inline(always)]
    fn all(ks: usize) -> Guard {
        let m = &RAY_MASKS[ks];
        let lines = m[0] | m[1] | m[2] | m[3];
        let diag = DIAG[ks].iter().fold(0u128, |b, (t, _)| b | (1u128 << t));
        Guard {
            from: lines | diag,
            to: lines,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::is_attacked;
    use crate::{Deal, Game, HiddenMoves, Rules};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    /// `gives_check` as it was before its shortcut: the attack test on the board after the move.
    fn gives_check_full(pos: &Position, m: Move, landed: Option<Role>) -> bool {
        if !pos.rules.check {
            return false;
        }
        let Some(k) = pos.king(!pos.turn) else {
            return false;
        };
        is_attacked(&pos.board_after(m, landed), &pos.rules, k.index(), pos.turn)
    }

    /// Calls `f` on every position of `games` random games under `rules` (at most 150 plies each,
    /// seeds from `seed`), where every other move is a checking one when there is one, so that
    /// many positions are in check.
    fn random_positions(rules: Rules, seed: u64, games: u64, mut f: impl FnMut(&Position)) {
        for g in 0..games {
            let mut rng = ChaCha8Rng::seed_from_u64(seed + g);
            let mut game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
            for _ in 0..150 {
                if game.outcome().is_some() {
                    break;
                }
                let pos = game.position();
                f(pos);
                let legal = pos.legal_moves();
                let checking: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| pos.gives_check(m, None))
                    .collect();
                let m = if !checking.is_empty() && crate::uniform_below(&mut rng, 2) == 0 {
                    checking[crate::uniform_below(&mut rng, checking.len() as u32) as usize]
                } else {
                    legal[crate::uniform_below(&mut rng, legal.len() as u32) as usize]
                };
                game.play(m).expect("a legal move");
            }
        }
    }

    /// Over random games: the bitboard attack test answers as the square-by-square one for every
    /// square, side and rule variant, on the position and after each pseudo-legal move; and
    /// `gives_check`'s shortcut answers as the full test for every move and landing identity.
    #[test]
    fn attack_shortcuts_agree_with_the_full_tests() {
        let variants = [
            Rules::standard(),
            Rules::xiangqi(),
            Rules {
                hidden_moves: HiddenMoves::Step,
                ..Rules::standard()
            },
            Rules {
                flying_general: false,
                confine_king: false,
                ..Rules::xiangqi()
            },
        ];
        let (mut checks, mut tested) = (0u32, 0u32);
        for rules in [Rules::standard(), Rules::xiangqi()] {
            random_positions(rules, 0, 4, |pos| {
                let mut pseudo = MoveList::new();
                pos.pseudo_legal_moves(&mut pseudo);
                let mut boards = vec![(pos.board, pos.occ())];
                for &m in pseudo.iter() {
                    let (from, to) = (m.from.index(), m.to.index());
                    let mut b = pos.board;
                    b[to] = b[from];
                    b[from] = EMPTY;
                    boards.push((b, pos.occ_after(from, to)));
                    for landed in [None].into_iter().chain(Role::ALL.map(Some)) {
                        let full = gives_check_full(pos, m, landed);
                        assert_eq!(pos.gives_check(m, landed), full, "{} {m}", pos.fen());
                        checks += u32::from(full);
                    }
                }
                for (b, occ) in &boards {
                    for r in &variants {
                        for s in 0..90 {
                            for by in Color::ALL {
                                assert_eq!(
                                    is_attacked_occ(b, *occ, r, s, by),
                                    is_attacked(b, r, s, by),
                                    "square {s} by {by:?} on a board from {}",
                                    pos.fen()
                                );
                                tested += 1;
                            }
                        }
                    }
                }
            });
        }
        // The games must have exercised both answers.
        assert!(checks > 50, "only {checks} checking moves");
        assert!(tested > 100_000, "only {tested} attack tests");
    }

    /// Over random games: the legal moves, which skip the safety test where the king's guard (in
    /// check: the evasion guard) allows, are the pseudo-legal moves that pass it.
    #[test]
    fn legal_moves_agree_with_the_full_safety_test() {
        let (mut positions, mut in_check) = (0u32, 0u32);
        for rules in [Rules::standard(), Rules::xiangqi()] {
            random_positions(rules, 100, 60, |pos| {
                let mut pseudo = MoveList::new();
                pos.pseudo_legal_moves(&mut pseudo);
                let ks = pos.king(pos.turn).expect("a king").index();
                let mut want: Vec<Move> = pseudo
                    .iter()
                    .copied()
                    .filter(|&m| pos.leaves_king_safe(m, ks))
                    .collect();
                let mut got: Vec<Move> = pos.legal_moves().iter().copied().collect();
                got.sort();
                want.sort();
                assert_eq!(got, want, "legal moves in {}", pos.fen());
                positions += 1;
                in_check += u32::from(pos.in_check());
            });
        }
        assert!(
            in_check > 1_000,
            "only {in_check} of {positions} positions in check"
        );
    }
}
