//! Mobility: pseudo-legal move counts of face-up chariots, cannons and horses, read from the
//! occupancy bitboards with the rules' precomputed rays and horse jumps.

use jieqi_core::tables::{HORSE, RAY_MASKS, RAYS, nearest_on_ray as nearest};

/// The number of squares strictly between squares `s` and `b` on one orthogonal line (`b` lies
/// on the ray of direction `d` from `s`, directions as in
/// [`ORTHO_DIRS`](jieqi_core::tables::ORTHO_DIRS)). No popcount: the
/// default target has no `popcnt`.
#[inline(always)]
fn between(s: usize, b: u32, d: usize) -> u32 {
    let b = b as usize;
    let steps = match d {
        0 => (b - s) / 9,
        1 => (s - b) / 9,
        2 => b - s,
        _ => s - b,
    };
    steps as u32 - 1
}

/// Pseudo-legal move count of a face-up chariot (`cannon` false) or cannon of the side whose
/// pieces are `own` on square `s`, with `occ` all occupied squares: empty squares, plus a capture
/// of the first piece (chariot) or of the first piece beyond the screen (cannon) if it is not own.
#[inline]
pub(super) fn line_mobility(s: usize, cannon: bool, occ: u128, own: u128) -> i32 {
    let mut n = 0;
    let lens = &RAYS[s].len;
    for (d, &mask) in RAY_MASKS[s].iter().enumerate() {
        let blockers = mask & occ;
        if blockers == 0 {
            n += u32::from(lens[d]);
            continue;
        }
        let b = nearest(blockers, d);
        n += between(s, b, d);
        if cannon {
            let rest = blockers & !(1u128 << b);
            if rest != 0 {
                let t = nearest(rest, d);
                n += u32::from((own >> t) & 1 == 0);
            }
        } else {
            n += u32::from((own >> b) & 1 == 0);
        }
    }
    n as i32
}

/// Pseudo-legal move count of a face-up horse on `s` (legs respected): targets not holding an own
/// piece whose leg square is empty.
#[inline]
pub(super) fn horse_mobility(s: usize, occ: u128, own: u128) -> i32 {
    let mut n = 0;
    let jumps = &HORSE[s];
    for j in 0..jumps.len as usize {
        let (t, leg) = (jumps.to[j], jumps.aux[j]);
        n += u32::from((occ >> leg) & 1 == 0 && (own >> t) & 1 == 0);
    }
    n as i32
}
