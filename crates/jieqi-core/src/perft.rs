//! Perft: counting the leaves of the public game tree, the standard check of move generation.
//!
//! Convention for hidden pieces (the "public game tree"): a move by a hidden piece branches into one
//! child per distinct identity still in the mover's pool (that identity's count drops by one in the
//! child); a capture of a hidden piece neither branches nor changes a pool; perft(0) = 1. A position
//! whose side to move has lost its king (seed-000 variant) is terminal: it has no children.

use crate::{Move, PlayedMove, Position, Role};

/// Counts the leaves of the public game tree `depth` plies below `pos` (restored on return).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.king_lost(pos.turn()) {
        return 0;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        // Bulk counting: a hidden mover's move has one leaf per distinct identity in its pool.
        let branches = pos.pool(pos.turn()).distinct() as u64;
        return moves
            .iter()
            .map(|m| if pos.is_hidden(m.from) { branches } else { 1 })
            .sum();
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        for_each_child(pos, m, |pos| nodes += perft(pos, depth - 1));
    }
    nodes
}

/// Plays every public-tree child of move `m` (one per pool identity for a hidden mover), calls `f`
/// on the child position, and takes the move back.
pub fn for_each_child(pos: &mut Position, m: Move, mut f: impl FnMut(&mut Position)) {
    if pos.is_hidden(m.from) {
        let pool = *pos.pool(pos.turn());
        for role in Role::ALL.into_iter().filter(|r| pool.get(*r) > 0) {
            let pm = PlayedMove {
                mv: m,
                reveal: Some(role),
                capture: None,
            };
            let undo = pos.make(pm);
            f(pos);
            pos.unmake(pm, undo);
        }
    } else {
        let pm = PlayedMove::plain(m);
        let undo = pos.make(pm);
        f(pos);
        pos.unmake(pm, undo);
    }
}

/// [`perft`] that gives up as soon as `stop()` says so (asked at every node more than two plies
/// above the leaves, so a few thousand nodes apart at most): `None` if it gave up.
pub fn perft_until(pos: &mut Position, depth: u32, stop: &dyn Fn() -> bool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(pos, depth));
    }
    if stop() {
        return None;
    }
    if pos.king_lost(pos.turn()) {
        return Some(0);
    }
    let mut nodes = 0;
    let mut stopped = false;
    for &m in pos.legal_moves().iter() {
        for_each_child(pos, m, |pos| {
            if !stopped {
                match perft_until(pos, depth - 1, stop) {
                    Some(n) => nodes += n,
                    None => stopped = true,
                }
            }
        });
        if stopped {
            return None;
        }
    }
    Some(nodes)
}

/// [`divide`] that hands each root child's count to `each` as soon as it is known and gives up
/// when `stop()` says so ([`perft_until`]). Returns whether it finished.
pub fn divide_until(
    pos: &mut Position,
    depth: u32,
    stop: &dyn Fn() -> bool,
    mut each: impl FnMut(PlayedMove, u64),
) -> bool {
    if depth == 0 || pos.king_lost(pos.turn()) {
        return true;
    }
    for &m in pos.legal_moves().iter() {
        let reveals: Vec<Option<Role>> = if pos.is_hidden(m.from) {
            pos.pool(pos.turn()).roles().map(Some).collect()
        } else {
            vec![None]
        };
        for reveal in reveals {
            let pm = PlayedMove {
                mv: m,
                reveal,
                capture: None,
            };
            let undo = pos.make(pm);
            let n = perft_until(pos, depth - 1, stop);
            pos.unmake(pm, undo);
            match n {
                Some(n) => each(pm, n),
                None => return false,
            }
        }
    }
    true
}

/// Leaf counts per root child, in move-generation order: each hidden mover's move once per
/// identity, named with its reveal suffix (`b0c2N`).
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(PlayedMove, u64)> {
    let mut out = Vec::new();
    divide_until(pos, depth, &|| false, |pm, n| out.push((pm, n)));
    out
}
