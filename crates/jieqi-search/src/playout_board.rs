//! The playout board: a lean, make-only copy of a [`Determinization`] for random playouts.
//!
//! A playout never unmakes a move and never needs a hash, pool counts or move records, so instead
//! of [`Determinization::make`] (Zobrist keys, pools, an `Undo`) it plays on this board: 90 cells
//! in the core's cell encoding ([`jieqi_core::cell`]: colour, face-up role or hidden), each
//! hidden piece's identity in this determinization, the occupancy of every rank and file, each
//! side's piece list with the piece's candidate table, the face-up kings, the side to move and
//! the no-capture counter.
//!
//! Moves are drawn by rejection sampling over *candidates*: a uniformly random piece-and-target
//! pair from per-kind tables of the squares the piece could reach on an empty board (already
//! narrowed by the palace, river and pawn-direction rules), accepted when the move is legal.
//! Every legal move is exactly one candidate and all candidates are equally likely, so the
//! accepted move is uniform over the legal moves; after [`MAX_TRIALS`] rejections the board
//! enumerates its legal moves and draws one uniformly (a mixture of uniform draws is uniform).
//!
//! **Invariant:** the board's legal moves are exactly [`jieqi_core::Position::legal_moves`] of
//! the determinization kept in lockstep, under every rule set the position supports — movement
//! per kind (hidden pieces move as their start square's piece, or step / flip in the seed-000
//! variant), the confinement switches, and, when `rules.check` is on, the own king may not be
//! left attacked (flying general included). The geometry is the core's: the candidate tables are
//! built from [`jieqi_core::tables`], the attack test *is* the core's
//! ([`jieqi_core::attacks::is_attacked`] on the board's cells), and the "needs a safety test"
//! shortcut is the core's too. [`PlayoutBoard::make`] reports a king capture (face up, or a hidden piece whose identity
//! is the king), and [`PlayoutBoard::halfmoves`] follows the core's no-capture counter. The
//! property tests at the end of this file check all of this against the core ply by ply.

use jieqi_core::attacks::{is_attacked, mover_kind};
use jieqi_core::cell::{self, EMPTY, HIDDEN_KIND as HIDDEN, code_kind as kind_of};
use jieqi_core::tables::{DIAG, ELEPHANT, HORSE, ORTHO, ORTHO_DIRS, RAYS};
use jieqi_core::{Color, Determinization, Move, MoveList, Occupant, Role, Rules, Square};
use rand_core::Rng;

use crate::playout::below;

/// Proposals before a rejection-sampling ply falls back to full move generation.
pub const MAX_TRIALS: u32 = 32;

// Movement kinds: role indices, the core's `STEP` (a seed-000 hidden piece) and `NO_MOVE`.
const CHARIOT: u8 = Role::Chariot as u8;
const HORSE_K: u8 = Role::Horse as u8;
const ELEPHANT_K: u8 = Role::Elephant as u8;
const ADVISOR: u8 = Role::Advisor as u8;
const KING: u8 = Role::King as u8;
const CANNON: u8 = Role::Cannon as u8;
const PAWN: u8 = Role::Pawn as u8;

/// The colour of index `i` (0 Red, 1 Black), the board's side encoding.
#[inline(always)]
const fn color(i: usize) -> Color {
    if i == 0 { Color::Red } else { Color::Black }
}

/// The core's cell code ([`jieqi_core::cell`]) of a piece of side `i`.
#[inline(always)]
const fn code(i: usize, kind: u8) -> u8 {
    cell::code(color(i), kind)
}

/// The side index of an occupied cell's piece.
#[inline(always)]
const fn color_of(c: u8) -> usize {
    cell::code_color(c) as usize
}

// Candidate tables.
const T_LINE: u8 = 0;
const T_HORSE: u8 = 1;
const T_ELEPHANT: u8 = 2;
const T_ELEPHANT_OWN: u8 = 3; // + colour: 3 red half, 4 black half
const T_ADVISOR: u8 = 5;
const T_ADVISOR_PALACE: u8 = 6; // + colour
const T_KING: u8 = 8;
const T_KING_PALACE: u8 = 9; // + colour
const T_PAWN: u8 = 11; // + colour
const T_STEP: u8 = 13;
/// The line table with the cannon's capture rule (a capture needs exactly one screen).
const T_CANNON: u8 = 14;
const NT: usize = 15;
const MAXC: usize = 17;
/// The off-board cell (index 90), always empty: the auxiliary square of candidates without one.
const OFF: u8 = 90;

/// The empty line: [`PlayoutBoard::lines`]'s always-empty entry, the line of candidates that
/// pass over no square.
const NO_LINE: u32 = 19;

/// A candidate packed in one word, so a proposal reads one table entry: bits 0–7 the target,
/// 8–15 the auxiliary square (horse leg, elephant eye; [`OFF`] for the other kinds), 16–20 the
/// line the piece slides along (rank `r` is line `r`, file `f` is line `10 + f`; [`NO_LINE`] for
/// pieces that do not slide), 21–30 the squares strictly between as bits of that line (by file
/// on a rank, by rank on a file), bit 31 set for a cannon (a capture needs exactly one screen).
const fn pack(to: u8, aux: u8, line: u32, between: u32, cannon: bool) -> u32 {
    to as u32 | (aux as u32) << 8 | line << 16 | between << 21 | (cannon as u32) << 31
}

#[inline(always)]
const fn target(e: u32) -> usize {
    (e & 0xff) as usize
}

#[inline(always)]
const fn aux(e: u32) -> usize {
    ((e >> 8) & 0xff) as usize
}

/// Candidate targets per table and square (see [`pack`]).
struct Tables {
    /// `[table][square][i]`: a packed candidate.
    cand: [[[u32; MAXC]; 90]; NT],
    len: [[u8; 90]; NT],
}

impl Tables {
    /// Appends a candidate to table `k` of square `s`.
    const fn push(&mut self, k: u8, s: usize, e: u32) {
        let k = k as usize;
        let n = self.len[k][s] as usize;
        self.cand[k][s][n] = e;
        self.len[k][s] += 1;
    }
}

/// The candidate tables, built from the core's move tables ([`jieqi_core::tables`]) and square
/// predicates, in the core's target order; a table per kind narrows them by the palace, river
/// and pawn-direction rules.
const fn build() -> Tables {
    let mut t = Tables {
        cand: [[[0; MAXC]; 90]; NT],
        len: [[0; 90]; NT],
    };
    let mut s = 0;
    while s < 90 {
        let from = Square::from_index(s);
        // Lines: the core's rays, nearest square first.
        let mut d = 0;
        while d < 4 {
            let along_file = ORTHO_DIRS[d].0 == 0;
            let line = if along_file {
                10 + from.file() as u32
            } else {
                from.rank() as u32
            };
            let mut between = 0u32;
            let mut i = 0;
            while i < RAYS[s].len[d] as usize {
                let to = RAYS[s].sq[d][i];
                t.push(T_LINE, s, pack(to, OFF, line, between, false));
                t.push(T_CANNON, s, pack(to, OFF, line, between, true));
                let sq = Square::from_index(to as usize);
                between |= 1 << if along_file { sq.rank() } else { sq.file() };
                i += 1;
            }
            d += 1;
        }
        // Horse moves with the leg next to the horse.
        let mut i = 0;
        while i < HORSE[s].len as usize {
            t.push(
                T_HORSE,
                s,
                pack(HORSE[s].to[i], HORSE[s].aux[i], NO_LINE, 0, false),
            );
            i += 1;
        }
        // Diagonal steps: advisors, anywhere or in a palace.
        let mut i = 0;
        while i < DIAG[s].len as usize {
            let to = DIAG[s].to[i];
            let e = pack(to, OFF, NO_LINE, 0, false);
            t.push(T_ADVISOR, s, e);
            let mut c = 0;
            while c < 2 {
                if Square::from_index(to as usize).is_palace(color(c)) {
                    t.push(T_ADVISOR_PALACE + c as u8, s, e);
                }
                c += 1;
            }
            i += 1;
        }
        // Elephant jumps with the eye, anywhere or on the own half.
        let mut i = 0;
        while i < ELEPHANT[s].len as usize {
            let to = ELEPHANT[s].to[i];
            let e = pack(to, ELEPHANT[s].aux[i], NO_LINE, 0, false);
            t.push(T_ELEPHANT, s, e);
            let mut c = 0;
            while c < 2 {
                if Square::from_index(to as usize).is_own_half(color(c)) {
                    t.push(T_ELEPHANT_OWN + c as u8, s, e);
                }
                c += 1;
            }
            i += 1;
        }
        // Orthogonal steps: king, pawns, the seed-000 hidden step (which may also flip in place).
        t.push(T_STEP, s, pack(s as u8, OFF, NO_LINE, 0, false));
        let mut i = 0;
        while i < ORTHO[s].len as usize {
            let to = ORTHO[s].to[i];
            let sq = Square::from_index(to as usize);
            let e = pack(to, OFF, NO_LINE, 0, false);
            t.push(T_KING, s, e);
            t.push(T_STEP, s, e);
            let mut c = 0;
            while c < 2 {
                if sq.is_palace(color(c)) {
                    t.push(T_KING_PALACE + c as u8, s, e);
                }
                // Pawns: forward, or sideways once across the river.
                let forward = if c == 0 { 1 } else { -1 };
                let ahead = sq.file() == from.file() && sq.rank() - from.rank() == forward;
                let sideways = sq.rank() == from.rank() && !from.is_own_half(color(c));
                if ahead || sideways {
                    t.push(T_PAWN + c as u8, s, e);
                }
                c += 1;
            }
            i += 1;
        }
        s += 1;
    }
    t
}

static T: Tables = build();

/// The board's first 90 cells, in the core's layout (the 91st is [`OFF`]).
#[inline(always)]
fn cells(board: &[u8; 91]) -> &[u8; 90] {
    let (head, _) = board.split_first_chunk::<90>().expect("91 cells hold 90");
    head
}

/// A make-only playout board built from a [`Determinization`]; see the module documentation.
#[derive(Clone, Debug)]
pub struct PlayoutBoard {
    /// Cells 0..90, and the always-empty [`OFF`] cell.
    cell: [u8; 91],
    /// Identity (role index) of the hidden piece on each square; stale elsewhere.
    ids: [u8; 90],
    /// Occupancy of each rank (`lines[r]`, a bit per file) and file (`lines[10 + f]`, a bit per
    /// rank); `lines[NO_LINE]` stays empty.
    lines: [u16; 20],
    /// Face-up king squares, 255 when none.
    kings: [u8; 2],
    turn: usize,
    halfmoves: u32,
    /// The rule set (the switches the movement rules and the core's attack test read).
    rules: Rules,
    /// Each side's pieces: square, candidate table, candidate count (0 past the end of the
    /// list).
    sq: [[u8; 16]; 2],
    table: [[u8; 16]; 2],
    cnt: [[u32; 16]; 2],
    n: [usize; 2],
    /// Index of the piece on a square in its side's list.
    idx: [u8; 90],
}

impl PlayoutBoard {
    /// Copies `det`'s board, hidden identities, side to move and no-capture counter.
    pub fn new(det: &Determinization) -> PlayoutBoard {
        let pos = det.position();
        let mut b = PlayoutBoard {
            cell: [EMPTY; 91],
            ids: [0; 90],
            lines: [0; 20],
            kings: [255; 2],
            turn: pos.turn().index(),
            halfmoves: pos.halfmoves(),
            rules: *pos.rules(),
            sq: [[0; 16]; 2],
            table: [[0; 16]; 2],
            cnt: [[0; 16]; 2],
            n: [0; 2],
            idx: [0; 90],
        };
        for s in Square::all() {
            let si = s.index();
            let (color, c) = match pos.occupant(s) {
                None => continue,
                Some(Occupant::Revealed(p)) => {
                    (p.color.index(), code(p.color.index(), p.role as u8))
                }
                Some(Occupant::Hidden(c)) => {
                    b.ids[si] = det
                        .identity(s)
                        .expect("a determinization fixes every identity")
                        as u8;
                    (c.index(), code(c.index(), HIDDEN))
                }
            };
            b.cell[si] = c;
            b.set(si);
            if kind_of(c) == KING {
                b.kings[color] = si as u8;
            }
            let mover = b.mover_kind(c, si);
            let i = b.n[color];
            b.sq[color][i] = si as u8;
            let table = b.table_for(mover, color, kind_of(c) == HIDDEN);
            b.table[color][i] = table;
            b.cnt[color][i] = T.len[table as usize][si] as u32;
            b.idx[si] = i as u8;
            b.n[color] += 1;
        }
        b
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        if self.turn == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Plies since the last capture (reveals do not reset it), as [`jieqi_core::Position::halfmoves`].
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// What a piece with cell code `c` on `s` moves as (the core's [`mover_kind`]).
    #[inline(always)]
    fn mover_kind(&self, c: u8, s: usize) -> u8 {
        mover_kind(c, s, &self.rules)
    }

    /// The candidate table of a piece.
    #[inline]
    fn table_for(&self, mover: u8, color: usize, hidden: bool) -> u8 {
        let rules = &self.rules;
        let c = color as u8;
        match mover {
            CHARIOT => T_LINE,
            CANNON => T_CANNON,
            HORSE_K => T_HORSE,
            ELEPHANT_K if rules.confine_elephants => T_ELEPHANT_OWN + c,
            ELEPHANT_K => T_ELEPHANT,
            ADVISOR if rules.confine_advisors || hidden => T_ADVISOR_PALACE + c,
            ADVISOR => T_ADVISOR,
            KING if rules.confine_king => T_KING_PALACE + c,
            KING => T_KING,
            PAWN => T_PAWN + c,
            // The seed-000 step; `NO_MOVE` never stands on a legal board.
            _ => T_STEP,
        }
    }

    /// Whether candidate `i` of the piece at list index `p` of the side to move is pseudo-legal
    /// (follows the movement rules); returns its target too. Branch-free: one test covers every
    /// kind — the target holds no own piece (a flip's target is the piece itself), the auxiliary
    /// square is empty, and the squares between (line pieces only) hold no piece, or exactly one
    /// (the screen) for a cannon capture.
    #[inline(always)]
    fn pseudo(&self, p: usize, i: usize) -> (bool, usize) {
        let us = self.turn;
        let s = self.sq[us][p] as usize;
        let e = T.cand[self.table[us][p] as usize][s][i];
        let to = target(e);
        let tc = self.cell[to];
        let own = (tc != EMPTY) & (color_of(tc) == us) & (to != s);
        let between = self.lines[((e >> 16) & 31) as usize] & ((e >> 21) & 0x3ff) as u16;
        let none = between == 0;
        let one = !none & (between & between.wrapping_sub(1) == 0);
        let screen = (e >> 31 != 0) & (tc != EMPTY);
        let count_ok = if screen { one } else { none };
        (!own & count_ok & (self.cell[aux(e)] == EMPTY), to)
    }

    /// Marks square `s` occupied in its rank and file.
    #[inline(always)]
    fn set(&mut self, s: usize) {
        let (f, r) = (s % 9, s / 9);
        self.lines[r] |= 1 << f;
        self.lines[10 + f] |= 1 << r;
    }

    /// Marks square `s` empty in its rank and file.
    #[inline(always)]
    fn clear(&mut self, s: usize) {
        let (f, r) = (s % 9, s / 9);
        self.lines[r] &= !(1 << f);
        self.lines[10 + f] &= !(1 << r);
    }

    /// Whether the pseudo-legal move `from`→`to` keeps the own king safe (always under rules
    /// without check, or without a face-up king). `in_check` caches the side to move's check
    /// status for the ply (`None`: not computed yet).
    #[inline]
    fn king_safe(&self, from: usize, to: usize, in_check: &mut Option<bool>) -> bool {
        if !self.rules.check {
            return true;
        }
        let us = self.turn;
        let ks = self.kings[us];
        if ks == 255 {
            return true;
        }
        let ks = ks as usize;
        let check = *in_check.get_or_insert_with(|| self.attacked(&self.cell, ks, 1 - us));
        // The core's shortcut: when not in check, a non-king move can only expose the king by
        // leaving or entering its rank or file or by leaving a square diagonally next to it.
        let needs = check || from == ks || {
            let (kf, kr) = (ks % 9, ks / 9);
            let (ff, fr, tf, tr) = (from % 9, from / 9, to % 9, to / 9);
            ff == kf
                || fr == kr
                || tf == kf
                || tr == kr
                || (ff.abs_diff(kf) == 1 && fr.abs_diff(kr) == 1)
        };
        if !needs {
            return true;
        }
        let mut board = self.cell;
        let piece = board[from];
        board[from] = EMPTY;
        board[to] = piece;
        let king = if from == ks { to } else { ks };
        !self.attacked(&board, king, 1 - us)
    }

    /// Whether square `s` is attacked by side `by` on `board`: the core's attack test
    /// ([`is_attacked`]) on the board's cells, which use the core's encoding.
    #[inline(always)]
    fn attacked(&self, board: &[u8; 91], s: usize, by: usize) -> bool {
        is_attacked(cells(board), &self.rules, s, color(by))
    }

    /// A uniformly random legal move of the side to move, or `None` when it has none.
    #[inline]
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        let us = self.turn;
        // Prefix sums of the candidate counts; past the list's end they stay at `total`.
        let mut cum = [0u32; 16];
        let mut total = 0u32;
        for (c, &k) in cum.iter_mut().zip(&self.cnt[us]) {
            total += k;
            *c = total;
        }
        let mut in_check = None;
        if total > 0 {
            for _ in 0..MAX_TRIALS {
                let r = below(rng, total);
                // Branch-free binary search: the piece is the number of prefix sums not above
                // `r` (they never decrease, and the last one, `total`, is above it).
                let mut p = 0;
                for step in [8, 4, 2, 1] {
                    p += if cum[p + step - 1] <= r { step } else { 0 };
                }
                let i = (r + self.cnt[us][p] - cum[p]) as usize;
                let (ok, to) = self.pseudo(p, i);
                if ok {
                    let from = self.sq[us][p] as usize;
                    if self.king_safe(from, to, &mut in_check) {
                        return Some(Move::new(Square::from_index(from), Square::from_index(to)));
                    }
                }
            }
        }
        let moves = self.legal_moves();
        if moves.is_empty() {
            return None;
        }
        Some(moves[below(rng, moves.len() as u32) as usize])
    }

    /// Every legal move of the side to move (in piece-list order, not the core's order).
    pub fn legal_moves(&self) -> MoveList {
        let us = self.turn;
        let mut list = MoveList::new();
        let mut in_check = None;
        for p in 0..self.n[us] {
            let s = self.sq[us][p] as usize;
            for i in 0..T.len[self.table[us][p] as usize][s] as usize {
                let (ok, to) = self.pseudo(p, i);
                if ok && self.king_safe(s, to, &mut in_check) {
                    list.push(Move::new(Square::from_index(s), Square::from_index(to)));
                }
            }
        }
        list
    }

    /// Plays a legal move (unchecked), revealing a hidden mover as its identity. Returns whether
    /// it took a king (a face-up king, or a hidden piece whose identity is the king).
    ///
    /// # Panics
    /// May panic or corrupt the board if `m` is not legal.
    #[inline]
    pub fn make(&mut self, m: Move) -> bool {
        let (from, to) = (m.from.index(), m.to.index());
        let us = self.turn;
        let them = 1 - us;
        let c = self.cell[from];
        let p = self.idx[from] as usize;
        let mut took_king = false;
        let captured = if from == to { EMPTY } else { self.cell[to] };
        if captured != EMPTY {
            let k = kind_of(captured);
            took_king = k == KING || (k == HIDDEN && self.ids[to] == KING);
            if k == KING {
                self.kings[them] = 255;
            }
            let j = self.idx[to] as usize;
            let last = self.n[them] - 1;
            self.sq[them][j] = self.sq[them][last];
            self.table[them][j] = self.table[them][last];
            self.cnt[them][j] = self.cnt[them][last];
            self.cnt[them][last] = 0;
            self.idx[self.sq[them][j] as usize] = j as u8;
            self.n[them] = last;
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        let landed = if kind_of(c) == HIDDEN {
            let role = self.ids[from];
            self.table[us][p] = self.table_for(role, us, false);
            code(us, role)
        } else {
            c
        };
        self.cnt[us][p] = T.len[self.table[us][p] as usize][to] as u32;
        if kind_of(landed) == KING {
            self.kings[us] = to as u8;
        }
        self.cell[from] = EMPTY;
        self.cell[to] = landed;
        if from != to {
            self.clear(from);
            self.set(to);
        }
        self.sq[us][p] = to as u8;
        self.idx[to] = p as u8;
        self.turn = them;
        took_king
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::took_king;
    use jieqi_core::{CaptureReveal, Deal, Game, PerpetualCheck, RuleName};
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    fn variants() -> Vec<Rules> {
        let standard = Rules::standard();
        let simple = Rules::simple();
        vec![
            standard,
            simple,
            Rules::xiangqi(),
            // Mainstream Jieqi with Xiangqi's confinement, and without king rules.
            Rules {
                name: RuleName::new("confined"),
                confine_advisors: true,
                confine_elephants: true,
                ..standard
            },
            Rules {
                name: RuleName::new("free-king"),
                confine_king: false,
                flying_general: false,
                ..standard
            },
            // The seed-000 step with face-up kings and check.
            Rules {
                name: RuleName::new("step-check"),
                hidden_king: false,
                check: true,
                confine_king: true,
                flying_general: true,
                capture_reveal: CaptureReveal::Both,
                perpetual_check: PerpetualCheck::Loses,
                ..simple
            },
            // Mainstream hidden pieces without check (king capture wins).
            Rules {
                name: RuleName::new("no-check"),
                check: false,
                ..standard
            },
        ]
    }

    fn sorted(moves: &MoveList) -> Vec<(usize, usize)> {
        let mut v: Vec<_> = moves
            .iter()
            .map(|m| (m.from.index(), m.to.index()))
            .collect();
        v.sort_unstable();
        v
    }

    /// Plays seeded random games on the board and a determinization in lockstep: at every ply the
    /// legal move sets, the side to move, the no-capture counter and king captures agree.
    #[test]
    fn board_agrees_with_position_ply_by_ply() {
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let mut plies = 0u64;
        for rules in variants() {
            rules.validate().expect("valid variant");
            for g in 0..60u32 {
                let game = Game::new(rules, Deal::shuffled_for(&rules, &mut rng));
                let mut det = game.view(Color::Red).sample(&mut rng);
                let mut board = PlayoutBoard::new(&det);
                for _ in 0..300 {
                    let pos = det.position();
                    let want = sorted(&pos.legal_moves());
                    let got = sorted(&board.legal_moves());
                    assert_eq!(want, got, "{} game {g}: {:?}", rules.name, pos.to_setup());
                    assert_eq!(board.turn(), pos.turn());
                    assert_eq!(board.halfmoves(), pos.halfmoves());
                    if want.is_empty() {
                        assert!(board.random_move(&mut rng).is_none());
                        break;
                    }
                    // Alternate the board's own draw and the core's list to cover both paths.
                    let m = if g % 2 == 0 {
                        board.random_move(&mut rng).expect("a legal move")
                    } else {
                        let list = pos.legal_moves();
                        list[below(&mut rng, list.len() as u32) as usize]
                    };
                    assert!(pos.is_legal(m), "{} drew illegal {m}", rules.name);
                    let took = board.make(m);
                    let (pm, undo) = det.make(m);
                    plies += 1;
                    assert_eq!(took, took_king(&pm, &undo), "{}", rules.name);
                    if took {
                        break;
                    }
                    if rules
                        .no_capture_plies
                        .is_some_and(|l| board.halfmoves() >= l)
                    {
                        break;
                    }
                }
            }
        }
        assert!(plies > 20_000, "only {plies} plies checked");
    }
}
