//! One-ply tactics shared by the baselines: which identities a mover may reveal, and whether a move
//! ends the game at once.
//!
//! Everything here works on a player's public position (its view) and what it knows of the hidden
//! pieces ([`Knowledge`]), never on the truth: a hidden mover is tried as each identity it may be
//! (its side's pool for a fair player), and a captured hidden piece is taken without an identity
//! (`capture: None`), exactly as the player would record it.

use jieqi_core::{Knowledge, Move, MoveList, PlayedMove, Position, Role, Square};

/// The identities a move's mover may turn out to be, each with its probability: one entry
/// `(None, 1.0)` for a face-up mover, otherwise one per identity of the player's belief about it
/// (for a fair player each role of the mover's pool, weighted by its count).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Reveals {
    roles: [Option<Role>; 7],
    weights: [f64; 7],
    len: usize,
}

impl Reveals {
    /// The identities of the piece on `m.from` in `pos`, as a player who knows `knowledge`
    /// believes them.
    pub(crate) fn of(pos: &Position, knowledge: &Knowledge, m: Move) -> Reveals {
        let mut out = Reveals {
            roles: [None; 7],
            weights: [1.0; 7],
            len: 1,
        };
        if let Some(belief) = knowledge.belief(pos, m.from) {
            let pool = belief.weights();
            let total = pool.total() as f64;
            out.len = 0;
            for r in pool.roles() {
                out.roles[out.len] = Some(r);
                out.weights[out.len] = pool.get(r) as f64 / total;
                out.len += 1;
            }
        }
        out
    }

    /// `(identity, probability)` pairs.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Option<Role>, f64)> + '_ {
        (0..self.len).map(|i| (self.roles[i], self.weights[i]))
    }

    /// The move as the player would make it under one identity: nothing known about a captured
    /// hidden piece.
    pub(crate) fn played(m: Move, reveal: Option<Role>) -> PlayedMove {
        PlayedMove {
            mv: m,
            reveal,
            capture: None,
        }
    }
}

/// Whether the side to move has lost on the spot: its king is gone, or it has no legal move (a
/// loss under every rule set here: mate and stalemate alike).
pub(crate) fn side_to_move_lost(pos: &Position) -> bool {
    pos.king_lost(pos.turn()) || !pos.has_legal_move()
}

/// Whether `m` wins at once whatever the mover turns out to be: it takes the last possible king,
/// or leaves the opponent without a legal move, for every identity the mover may be.
/// `nodes` counts the positions looked at.
pub(crate) fn wins_for_sure(
    pos: &mut Position,
    knowledge: &Knowledge,
    m: Move,
    nodes: &mut u64,
) -> bool {
    Reveals::of(pos, knowledge, m).iter().all(|(reveal, _)| {
        let pm = Reveals::played(m, reveal);
        let undo = pos.make(pm);
        *nodes += 1;
        let won = side_to_move_lost(pos);
        pos.unmake(pm, undo);
        won
    })
}

/// Whether a move by the side to move could possibly give check to the opponent's king on `king`:
/// a cheap filter before [`Position::gives_check`]. Every attack on the king comes from its rank or
/// file (chariot, cannon, king, pawn), from a square within two files and ranks (horse, elephant,
/// advisor), or is opened by vacating a line square or a square diagonally next to the king (a
/// horse leg or elephant eye).
pub(crate) fn may_give_check(m: Move, king: Square) -> bool {
    let near = |s: Square, d: i32| {
        (s.file() - king.file()).abs() <= d && (s.rank() - king.rank()).abs() <= d
    };
    let on_line = |s: Square| s.file() == king.file() || s.rank() == king.rank();
    on_line(m.to) || near(m.to, 2) || on_line(m.from) || near(m.from, 1)
}

/// The probability that the side to move wins at once with its best reply: for each reply, the
/// share of its mover's identities for which it takes the king or leaves `defender` (the side not
/// to move) without a legal move, maximised over replies. Looks only where it is cheap: king
/// captures under rules without check, checking moves under rules with check (a stalemating reply
/// is not looked for).
pub(crate) fn best_reply_win(
    pos: &mut Position,
    knowledge: &Knowledge,
    replies: &MoveList,
    nodes: &mut u64,
) -> f64 {
    let defender = !pos.turn();
    let mut best = 0.0f64;
    if !pos.rules().check {
        for &r in replies {
            if r.from == r.to || pos.occupant(r.to).is_none() {
                continue;
            }
            // Whether the defender's king is lost does not depend on the capturer's identity.
            let reveal = Reveals::of(pos, knowledge, r)
                .iter()
                .next()
                .and_then(|(id, _)| id);
            let pm = Reveals::played(r, reveal);
            let undo = pos.make(pm);
            *nodes += 1;
            let lost = pos.king_lost(defender);
            pos.unmake(pm, undo);
            if lost {
                return 1.0;
            }
        }
        return 0.0;
    }
    let Some(king) = pos.king(defender) else {
        return 0.0;
    };
    for &r in replies {
        if !may_give_check(r, king) {
            continue;
        }
        let mut p = 0.0;
        for (reveal, w) in Reveals::of(pos, knowledge, r).iter() {
            if !pos.gives_check(r, reveal) {
                continue;
            }
            let pm = Reveals::played(r, reveal);
            let undo = pos.make(pm);
            *nodes += 1;
            if !pos.has_legal_move() {
                p += w;
            }
            pos.unmake(pm, undo);
        }
        best = best.max(p);
        if best >= 1.0 - 1e-12 {
            return 1.0;
        }
    }
    best
}
