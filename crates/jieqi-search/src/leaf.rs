//! Leaf values for the tree searches: a capture-only quiescence search on a determinization,
//! scored by the evaluation, and the move prior that orders a node's expansions (checks, then
//! captures by most valuable victim).
//!
//! A random playout is a noisy estimate of a position's value; in Jieqi most of its noise is
//! which of the hanging pieces gets taken first. A short quiescence search answers exactly that
//! question: stand pat on the evaluation, then try the captures (most valuable victim first, least
//! valuable attacker next), each side free to stop capturing, to [`LEAF_QPLIES`] plies; in check at
//! the leaf itself, every evasion (no evasion: mated). The determinization fixes every hidden
//! identity, so a capture by or of a hidden piece resolves at once (sampled from the player's view,
//! as every ISMCTS iteration is; the evaluation itself still prices hidden pieces by their pools).
//! Taking a king (the seed-000 variant's hidden king) wins. Nothing is allocated: move lists are
//! fixed-size stack arrays and the determinization is made and unmade in place.

use jieqi_core::{Color, Determinization, Move, MoveList, Occupant, Position, Square};

use crate::eval::{EvalWeights, evaluate, win_probability};
use crate::playout::took_king;

/// Most plies of captures a leaf's quiescence search plays.
pub const LEAF_QPLIES: u32 = 8;

/// The value of a won position in the quiescence search (beyond every evaluation).
const WIN: i32 = 30_000;

/// Margin of delta pruning: a capture that cannot lift the stand-pat score above alpha even with
/// this much to spare is not tried.
const DELTA: i32 = 200;

/// Win probability for `perspective` of `det`'s position after a quiescence search.
/// `det` is left as it was.
pub fn leaf_score(det: &mut Determinization, perspective: Color, w: &EvalWeights) -> f64 {
    let v = quiescence(det, w, -WIN, WIN, 0);
    let p = if v >= WIN {
        1.0
    } else if v <= -WIN {
        0.0
    } else {
        win_probability(v)
    };
    if det.turn() == perspective {
        p
    } else {
        1.0 - p
    }
}

/// Fail-soft quiescence search for the side to move of `det` (centipawns, ±[`WIN`] for a taken
/// king or no evasion).
pub fn quiescence(
    det: &mut Determinization,
    w: &EvalWeights,
    mut alpha: i32,
    beta: i32,
    qply: u32,
) -> i32 {
    let pos = det.position();
    let in_check = qply == 0 && pos.in_check();
    let mut moves;
    let mut best;
    let stand;
    if in_check {
        moves = pos.legal_moves();
        if moves.is_empty() {
            return -WIN;
        }
        best = -WIN;
        stand = -WIN;
    } else {
        stand = evaluate(pos, w);
        if stand >= beta || qply >= LEAF_QPLIES {
            return stand;
        }
        best = stand;
        alpha = alpha.max(stand);
        moves = MoveList::new();
        pos.pseudo_legal_captures(&mut moves);
    }
    let mut scores = [0i32; jieqi_core::MAX_MOVES];
    let mut n = 0;
    for i in 0..moves.len() {
        let m = moves[i];
        let capture = m.from != m.to && pos.occupant(m.to).is_some();
        let victim = if capture { value_on(det, m.to, w) } else { 0 };
        if !in_check {
            if stand + victim + DELTA <= alpha && !is_king(pos, m.to) {
                continue;
            }
            if !pos.is_pseudo_legal_move_legal(m, || pos.in_check()) {
                continue;
            }
        }
        scores[n] = if capture {
            victim * 16 - value_on(det, m.from, w) / 8
        } else {
            i32::MIN
        };
        moves.as_mut_slice()[n] = m;
        n += 1;
    }
    for k in 0..n {
        let m = crate::pick_best(&mut moves, &mut scores, k, n);
        let (pm, undo) = det.make(m);
        let v = if took_king(&pm, &undo) {
            WIN
        } else {
            -quiescence(det, w, -beta, -alpha, qply + 1)
        };
        det.unmake(pm, undo);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Whether a face-up king stands on `sq`.
fn is_king(pos: &Position, sq: Square) -> bool {
    matches!(pos.occupant(sq), Some(Occupant::Revealed(p)) if p.role == jieqi_core::Role::King)
}

/// The value of the piece on `sq` in `det` (a hidden piece at its sampled identity), 0 if empty.
fn value_on(det: &Determinization, sq: Square, w: &EvalWeights) -> i32 {
    match det.position().occupant(sq) {
        Some(Occupant::Revealed(p)) => w.identity(p.role),
        Some(Occupant::Hidden(_)) => det.identity(sq).map_or(0, |r| w.identity(r)),
        None => 0,
    }
}

/// Prior bonus of a checking move: checks come before every capture.
const CHECK_PRIOR: i32 = 1 << 24;

/// The prior of `m` in `det` for ordering a node's expansions (higher first): a check first (as
/// the mover's identity lands in this determinization), then a capture by its victim's value
/// (most valuable first) less a little of its attacker's, then the quiet moves (0).
pub fn prior(det: &Determinization, m: Move, w: &EvalWeights) -> i32 {
    let pos = det.position();
    let mut score = 0;
    if m.from != m.to && pos.occupant(m.to).is_some() {
        score += value_on(det, m.to, w) * 16 - value_on(det, m.from, w) / 8;
    }
    if pos.gives_check(m, det.identity(m.from)) {
        score += CHECK_PRIOR;
    }
    score
}
