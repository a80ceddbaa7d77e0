//! The validated position: board with hidden markers, side to move, pools, counters and hash.
//! Move generation lives in `movegen.rs`, attack detection in `attacks.rs`.

use crate::tables::{START_ROLE, ZOBRIST};
use crate::{
    ByColor, Color, Move, Occupant, Piece, PlayedMove, Pool, Role, Rules, RulesError, Setup, Square,
};

pub(crate) use crate::cell::{
    EMPTY, HIDDEN_KIND, code, code_color, code_kind, code_occupant, occupant_code,
};

/// Whether a hidden piece of `color` may stand on `sq`: one of that side's start squares, the king's
/// included only when kings start hidden.
pub fn is_hidden_square(sq: Square, color: Color, rules: &Rules) -> bool {
    let role = START_ROLE[sq.index()];
    role != 255
        && sq.is_own_half(color)
        && (role != Role::King as u8 || rules.hidden_king)
        && rules.has_hidden()
}

/// The role whose start square `sq` is, if any.
pub fn start_role(sq: Square) -> Option<Role> {
    Role::from_index(START_ROLE[sq.index()] as usize)
}

/// A legal position under a rule set. Fields are private: reach one through
/// [`Position::from_setup`] (or a FEN, or a game), so that every `Position` is valid.
///
/// The board shows hidden pieces as hidden; the pools say which identities each side has not yet
/// seen *from the point of view of whoever holds this position* (a player's information set, or the
/// referee's). Nothing here says which hidden piece is which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) rules: Rules,
    pub(crate) board: [u8; 90],
    pub(crate) occupied: [u128; 2],
    /// Square index of each face-up king, or 255 (hidden or captured).
    pub(crate) kings: [u8; 2],
    pub(crate) turn: Color,
    pub(crate) pools: ByColor<Pool>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
}

/// Why a setup is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The rule set itself is inconsistent.
    Rules(RulesError),
    /// A side has no king (neither face up nor possibly hidden).
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A king stands outside its palace under rules that confine it.
    KingOutsidePalace(Square),
    /// The kings face each other on an open file.
    KingsFacing,
    /// The side not to move is in check.
    OpponentInCheck(Color),
    /// A hidden piece under rules without hidden pieces.
    HiddenNotAllowed(Square),
    /// A hidden piece not on one of its side's start squares (hidden pieces never leave them).
    HiddenOffStartSquare(Square),
    /// A side's pool does not have enough identities for its hidden pieces.
    PoolTooSmall {
        /// The side.
        color: Color,
        /// Hidden pieces of that side on the board.
        hidden: u32,
        /// Identities in its pool.
        pool: u32,
    },
    /// More pieces of a role (face up plus in the pool) than a side starts with.
    TooManyPieces {
        /// The side.
        color: Color,
        /// The role.
        role: Role,
        /// How many the position implies.
        count: u32,
    },
    /// A king in the pool under rules where kings are never hidden.
    KingInPool(Color),
    /// An advisor off the palace under rules that confine advisors.
    AdvisorOffSquare(Square),
    /// An elephant off its own half under rules that confine elephants.
    ElephantOffSquare(Square),
    /// A hidden piece was given no identity, or a role the side does not have left.
    BadIdentity(Square),
    /// An identity was given for a square without a hidden piece.
    IdentityOffHidden(Square),
    /// A move counter too large to advance safely (more than [`MAX_COUNTER`]).
    CounterTooLarge {
        /// `halfmove` or `fullmove`.
        field: &'static str,
        /// The value given.
        value: u32,
    },
}

/// The largest halfmove or fullmove counter a position accepts: far beyond any real game, and far
/// enough below `u32::MAX` that no game or search can make it overflow.
pub const MAX_COUNTER: u32 = 1 << 30;

impl core::fmt::Display for PositionError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use PositionError::*;
        match self {
            Rules(e) => write!(f, "{e}"),
            MissingKing(c) => write!(f, "{c} has no king"),
            TooManyKings(c) => write!(f, "{c} has more than one king"),
            KingOutsidePalace(s) => write!(f, "king on {s} is outside its palace"),
            KingsFacing => write!(f, "the kings face each other on an open file"),
            OpponentInCheck(c) => write!(f, "{c} is not to move but is in check"),
            CounterTooLarge { field, value } => write!(
                f,
                "{field} counter {value} is more than {MAX_COUNTER}, the most a position accepts"
            ),
            HiddenNotAllowed(s) => write!(
                f,
                "hidden piece on {s}, but these rules have no hidden pieces"
            ),
            HiddenOffStartSquare(s) => {
                write!(
                    f,
                    "hidden piece on {s}, which is not a start square of its side"
                )
            }
            PoolTooSmall {
                color,
                hidden,
                pool,
            } => write!(
                f,
                "{color} has {hidden} hidden piece{} but only {pool} identit{} in its pool",
                if *hidden == 1 { "" } else { "s" },
                if *pool == 1 { "y" } else { "ies" }
            ),
            TooManyPieces { color, role, count } => write!(
                f,
                "{color} would have {count} {}s (face up plus pool), more than the {} it starts with",
                role.name(),
                role.start_count()
            ),
            KingInPool(c) => write!(
                f,
                "{c}'s pool holds a king, but kings are never hidden under these rules"
            ),
            AdvisorOffSquare(s) => write!(f, "advisor on {s} is outside its palace"),
            ElephantOffSquare(s) => write!(f, "elephant on {s} is across the river"),
            BadIdentity(s) => write!(
                f,
                "hidden piece on {s} has no identity, or one its side has none left of"
            ),
            IdentityOffHidden(s) => write!(
                f,
                "an identity is given for {s}, which holds no hidden piece"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// What [`Position::make`] changed, for [`Position::unmake`].
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    captured: u8,
    kings: [u8; 2],
    halfmoves: u32,
    hash: u64,
}

impl Undo {
    /// What the move captured, as it stood on the board (face up, or hidden).
    pub fn captured(&self) -> Option<Occupant> {
        code_occupant(self.captured)
    }
}

/// Why a played move was refused by [`Position::play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The move is not legal here.
    IllegalMove(Move),
    /// A hidden piece moved without a reveal identity, or a face-up one with one.
    RevealMismatch(Move),
    /// The revealed identity is not in the mover's pool.
    RevealNotInPool(Move, Role),
    /// A captured identity was given for a capture of a face-up piece, or is not in the pool.
    BadCaptureIdentity(Move, Role),
}

impl core::fmt::Display for PlayError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PlayError::IllegalMove(m) => write!(f, "illegal move {m}"),
            PlayError::RevealMismatch(m) => {
                write!(
                    f,
                    "move {m}: a reveal identity is needed exactly when a hidden piece moves"
                )
            }
            PlayError::RevealNotInPool(m, r) => {
                write!(
                    f,
                    "move {m}: revealed {} is not in the mover's pool",
                    r.name()
                )
            }
            PlayError::BadCaptureIdentity(m, r) => write!(
                f,
                "move {m}: captured identity {} does not fit (no hidden piece captured, or not in its pool)",
                r.name()
            ),
        }
    }
}

impl std::error::Error for PlayError {}

impl Position {
    /// The rules' start position with every hidden piece hidden and full pools.
    pub fn start(rules: &Rules) -> Position {
        let mut setup = Setup::empty();
        for sq in Square::all() {
            let Some(role) = start_role(sq) else { continue };
            let color = if sq.is_own_half(Color::Red) {
                Color::Red
            } else {
                Color::Black
            };
            let occ = if is_hidden_square(sq, color, rules) {
                Occupant::Hidden(color)
            } else {
                Occupant::Revealed(Piece { color, role })
            };
            setup.set(sq, Some(occ));
        }
        Position::from_setup(&setup, rules).expect("the start position is legal")
    }

    /// Validates a setup under a rule set.
    ///
    /// # Errors
    /// Names the first thing that makes the setup illegal.
    pub fn from_setup(setup: &Setup, rules: &Rules) -> Result<Position, PositionError> {
        rules.validate().map_err(PositionError::Rules)?;
        for (field, value) in [("halfmove", setup.halfmoves), ("fullmove", setup.fullmoves)] {
            if value > MAX_COUNTER {
                return Err(PositionError::CounterTooLarge { field, value });
            }
        }
        let mut board = [EMPTY; 90];
        let mut occupied = [0u128; 2];
        let mut kings = [255u8; 2];
        let mut hidden = [0u32; 2];
        let mut revealed = [[0u32; 7]; 2];
        for sq in Square::all() {
            let Some(o) = setup.get(sq) else { continue };
            let color = o.color();
            match o {
                Occupant::Hidden(_) => {
                    if !rules.has_hidden() {
                        return Err(PositionError::HiddenNotAllowed(sq));
                    }
                    if !is_hidden_square(sq, color, rules) {
                        return Err(PositionError::HiddenOffStartSquare(sq));
                    }
                    hidden[color.index()] += 1;
                }
                Occupant::Revealed(p) => {
                    revealed[color.index()][p.role.index()] += 1;
                    match p.role {
                        Role::King => {
                            if kings[color.index()] != 255 {
                                return Err(PositionError::TooManyKings(color));
                            }
                            // A hidden king can be revealed anywhere its home square reaches.
                            if rules.confine_king && !rules.hidden_king && !sq.is_palace(color) {
                                return Err(PositionError::KingOutsidePalace(sq));
                            }
                            kings[color.index()] = sq.index() as u8;
                        }
                        // With hidden pieces an advisor or elephant can be revealed wherever a
                        // hidden piece lands, so only plain Xiangqi restricts their squares.
                        Role::Advisor
                            if rules.confine_advisors
                                && !rules.has_hidden()
                                && !sq.is_palace(color) =>
                        {
                            return Err(PositionError::AdvisorOffSquare(sq));
                        }
                        Role::Elephant
                            if rules.confine_elephants
                                && !rules.has_hidden()
                                && !sq.is_own_half(color) =>
                        {
                            return Err(PositionError::ElephantOffSquare(sq));
                        }
                        _ => {}
                    }
                }
            }
            board[sq.index()] = occupant_code(Some(o));
            occupied[color.index()] |= 1u128 << sq.index();
        }
        let pools = match setup.pools {
            Some(p) => p,
            None => ByColor::new_with(|c| {
                if !rules.has_hidden() {
                    return Pool::EMPTY;
                }
                let full = if rules.hidden_king {
                    Pool::FULL
                } else {
                    Pool::STANDARD
                };
                let mut pool = full;
                for r in Role::ALL {
                    let seen = revealed[c.index()][r.index()].min(255) as u8;
                    pool.0[r.index()] = full.get(r).saturating_sub(seen);
                }
                pool
            }),
        };
        for c in Color::ALL {
            let pool = pools[c];
            if pool.get(Role::King) > 0 && !rules.hidden_king {
                return Err(PositionError::KingInPool(c));
            }
            for r in Role::ALL {
                let count = revealed[c.index()][r.index()] + pool.get(r) as u32;
                if count > r.start_count() as u32 {
                    if r == Role::King {
                        return Err(PositionError::TooManyKings(c));
                    }
                    return Err(PositionError::TooManyPieces {
                        color: c,
                        role: r,
                        count,
                    });
                }
            }
            if pool.total() < hidden[c.index()] {
                return Err(PositionError::PoolTooSmall {
                    color: c,
                    hidden: hidden[c.index()],
                    pool: pool.total(),
                });
            }
            let king_possible = kings[c.index()] != 255
                || (rules.hidden_king && pool.get(Role::King) > 0 && hidden[c.index()] > 0);
            if !king_possible {
                return Err(PositionError::MissingKing(c));
            }
            if rules.check && kings[c.index()] == 255 {
                return Err(PositionError::MissingKing(c));
            }
        }
        let mut pos = Position {
            rules: *rules,
            board,
            occupied,
            kings,
            turn: setup.turn,
            pools,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        if rules.flying_general && pos.kings_facing() {
            return Err(PositionError::KingsFacing);
        }
        if rules.check && pos.is_in_check(!pos.turn) {
            return Err(PositionError::OpponentInCheck(!pos.turn));
        }
        Ok(pos)
    }

    /// Back to a plain setup (pools always present; no captured-hidden field).
    pub fn to_setup(&self) -> Setup {
        let mut s = Setup::empty();
        for sq in Square::all() {
            s.set(sq, self.occupant(sq));
        }
        s.turn = self.turn;
        s.pools = Some(self.pools);
        s.halfmoves = self.halfmoves;
        s.fullmoves = self.fullmoves;
        s
    }

    /// The rule set.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// What stands on a square.
    #[inline]
    pub fn occupant(&self, sq: Square) -> Option<Occupant> {
        code_occupant(self.board[sq.index()])
    }

    /// Whether a hidden piece stands on `sq`.
    #[inline]
    pub fn is_hidden(&self, sq: Square) -> bool {
        let c = self.board[sq.index()];
        c != EMPTY && code_kind(c) == HIDDEN_KIND
    }

    /// Side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Identities `color` has not yet seen, from this position holder's point of view.
    #[inline]
    pub fn pool(&self, color: Color) -> &Pool {
        &self.pools[color]
    }

    /// Both pools.
    #[inline]
    pub fn pools(&self) -> &ByColor<Pool> {
        &self.pools
    }

    /// Plies since the last capture (reveals do not reset it).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// Move number (starts at 1, incremented after Black moves).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The face-up king of `color`, if it stands on the board.
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        Square::new(self.kings[color.index()] as usize)
    }

    /// Occupancy bitboard of `color`: bit `i` is set when a piece of that side (face up or hidden)
    /// stands on the square with index `i`.
    #[inline]
    pub fn occupied(&self, color: Color) -> u128 {
        self.occupied[color.index()]
    }

    /// Squares holding hidden pieces of `color`, in square order.
    pub fn hidden_squares(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        Square::all().filter(move |&s| self.occupant(s) == Some(Occupant::Hidden(color)))
    }

    /// Number of hidden pieces of `color` on the board.
    pub fn hidden_count(&self, color: Color) -> u32 {
        self.hidden_squares(color).count() as u32
    }

    /// Zobrist key of the position: every board cell (face-up pieces by colour and role, hidden
    /// pieces by colour only), the side to move, and each side's pool counts. It does not cover the
    /// move counters, the rule set or anybody's private knowledge.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Computes the Zobrist key from scratch (see [`Position::hash`]).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (s, &c) in self.board.iter().enumerate() {
            if c != EMPTY {
                h ^= ZOBRIST.piece[c as usize][s];
            }
        }
        if self.turn == Color::Black {
            h ^= ZOBRIST.black_to_move;
        }
        for c in Color::ALL {
            for r in Role::ALL {
                h ^= ZOBRIST.pool[c.index()][r.index()][self.pools[c].get(r) as usize];
            }
        }
        h
    }

    /// Whether `color`'s face-up king is attacked. Always false when the king is not on the board.
    pub fn is_in_check(&self, color: Color) -> bool {
        match self.king(color) {
            Some(k) => crate::attacks::is_attacked_occ(
                &self.board,
                self.occupied[0] | self.occupied[1],
                &self.rules,
                k.index(),
                !color,
            ),
            None => false,
        }
    }

    /// Whether the piece that makes move `m` (of the side to move) may be taken back on
    /// `m.to` at once: the other side has a pseudo-legal capture onto `m.to` after the move,
    /// whatever the mover turns out to be (pins and checks are not considered). For pruning
    /// captures that lose material.
    pub fn is_recapturable(&self, m: Move) -> bool {
        let mut board = self.board;
        board[m.to.index()] = board[m.from.index()];
        board[m.from.index()] = crate::cell::EMPTY;
        // Facing kings make a position illegal; they capture nothing across the board.
        let rules = Rules {
            flying_general: false,
            ..self.rules
        };
        let occ = self.occ_after(m.from.index(), m.to.index());
        crate::attacks::is_attacked_occ(&board, occ, &rules, m.to.index(), !self.turn)
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.rules.check && self.is_in_check(self.turn)
    }

    /// Whether the two face-up kings stand on one file with nothing between them.
    pub fn kings_facing(&self) -> bool {
        let (Some(r), Some(b)) = (self.king(Color::Red), self.king(Color::Black)) else {
            return false;
        };
        if r.file() != b.file() {
            return false;
        }
        let (lo, hi) = (r.rank().min(b.rank()), r.rank().max(b.rank()));
        ((lo + 1)..hi).all(|rank| self.board[(rank * 9 + r.file()) as usize] == EMPTY)
    }

    /// Plays a move with its reveal/capture identities after checking it fully.
    ///
    /// # Errors
    /// Refuses an illegal move, a missing or impossible reveal, or an impossible captured identity,
    /// and leaves the position unchanged.
    pub fn play(&mut self, pm: PlayedMove) -> Result<Undo, PlayError> {
        let m = pm.mv;
        if !self.is_legal(m) {
            return Err(PlayError::IllegalMove(m));
        }
        let us = self.turn;
        match (self.is_hidden(m.from), pm.reveal) {
            (true, Some(r)) if self.pools[us].get(r) == 0 => {
                return Err(PlayError::RevealNotInPool(m, r));
            }
            (true, Some(_)) | (false, None) => {}
            _ => return Err(PlayError::RevealMismatch(m)),
        }
        if let Some(r) = pm.capture {
            let capture_hidden = m.from != m.to && self.is_hidden(m.to);
            if !capture_hidden || self.pools[!us].get(r) == 0 {
                return Err(PlayError::BadCaptureIdentity(m, r));
            }
        }
        Ok(self.make(pm))
    }

    /// Plays a move without checking it. `pm.reveal` must be given exactly when the mover is hidden
    /// and `pm.capture`, if given, must be an identity in the captured side's pool.
    ///
    /// # Panics
    /// May panic, or corrupt the position, if the move is not legal or the identities do not fit;
    /// use [`Position::play`] for untrusted input.
    #[inline]
    pub fn make(&mut self, pm: PlayedMove) -> Undo {
        let (from, to) = (pm.mv.from.index(), pm.mv.to.index());
        let us = self.turn;
        let moving = self.board[from];
        let captured = if from == to { EMPTY } else { self.board[to] };
        let undo = Undo {
            captured,
            kings: self.kings,
            halfmoves: self.halfmoves,
            hash: self.hash,
        };
        let z = &ZOBRIST;
        let mut h = self.hash ^ z.black_to_move;

        let landed = if code_kind(moving) == HIDDEN_KIND {
            let role = pm.reveal.expect("a hidden mover needs a reveal identity");
            let pool = &mut self.pools[us].0[role.index()];
            h ^= z.pool[us.index()][role.index()][*pool as usize];
            *pool -= 1;
            h ^= z.pool[us.index()][role.index()][*pool as usize];
            code(us, role as u8)
        } else {
            moving
        };
        if captured != EMPTY {
            let them = !us;
            h ^= z.piece[captured as usize][to];
            self.occupied[them.index()] &= !(1u128 << to);
            if code_kind(captured) == Role::King as u8 {
                self.kings[them.index()] = 255;
            }
            if let Some(role) = pm.capture {
                let pool = &mut self.pools[them].0[role.index()];
                h ^= z.pool[them.index()][role.index()][*pool as usize];
                *pool -= 1;
                h ^= z.pool[them.index()][role.index()][*pool as usize];
            }
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        h ^= z.piece[moving as usize][from] ^ z.piece[landed as usize][to];
        self.board[from] = EMPTY;
        self.board[to] = landed;
        self.occupied[us.index()] = (self.occupied[us.index()] & !(1u128 << from)) | (1u128 << to);
        if code_kind(landed) == Role::King as u8 {
            self.kings[us.index()] = to as u8;
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !us;
        self.hash = h;
        undo
    }

    /// Takes back `pm`, which must be the last move made, with the [`Undo`] that made it.
    #[inline]
    pub fn unmake(&mut self, pm: PlayedMove, undo: Undo) {
        let (from, to) = (pm.mv.from.index(), pm.mv.to.index());
        let us = !self.turn;
        self.turn = us;
        if us == Color::Black {
            self.fullmoves -= 1;
        }
        let landed = self.board[to];
        let moving = if let Some(role) = pm.reveal {
            self.pools[us].0[role.index()] += 1;
            code(us, HIDDEN_KIND)
        } else {
            landed
        };
        self.board[to] = undo.captured;
        self.board[from] = moving;
        self.occupied[us.index()] = (self.occupied[us.index()] & !(1u128 << to)) | (1u128 << from);
        if undo.captured != EMPTY {
            self.occupied[(!us).index()] |= 1u128 << to;
            if let Some(role) = pm.capture {
                self.pools[!us].0[role.index()] += 1;
            }
        }
        self.kings = undo.kings;
        self.halfmoves = undo.halfmoves;
        self.hash = undo.hash;
    }

    /// Passes the turn without moving (a null move, for search pruning). Take it back with
    /// [`Position::unmake_null`]. Only the side to move and the hash change; the result is not
    /// a position the rules can reach, so never hand it to a referee.
    #[inline]
    pub fn make_null(&mut self) {
        self.turn = !self.turn;
        self.hash ^= ZOBRIST.black_to_move;
    }

    /// Takes back [`Position::make_null`].
    #[inline]
    pub fn unmake_null(&mut self) {
        self.make_null();
    }

    /// Whether `color` has lost its king (captured; only possible when `rules.check` is off): no
    /// face-up king, and no hidden piece of its that could still be the king.
    #[inline]
    pub fn king_lost(&self, color: Color) -> bool {
        self.kings[color.index()] == 255
            && !(self.rules.hidden_king
                && self.pools[color].get(Role::King) > 0
                && self.has_hidden(color))
    }

    /// Whether `color` has a hidden piece on the board (stops at the first one).
    #[inline]
    fn has_hidden(&self, color: Color) -> bool {
        let mut bits = self.occupied[color.index()];
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            if code_kind(self.board[s]) == HIDDEN_KIND {
                return true;
            }
            bits &= bits - 1;
        }
        false
    }
}
