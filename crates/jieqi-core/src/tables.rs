//! Precomputed move tables, built by `const fn` at compile time: the one source of the board's
//! geometry for move generation, attack detection, the evaluation's mobility and the playout
//! board's candidate moves.
//!
//! Each table is indexed by square index (`rank * 9 + file`). Step lists hold up to N targets with
//! an auxiliary square each (the horse's leg, the elephant's eye). Orthogonal directions are
//! numbered as in [`ORTHO_DIRS`]: up (towards rank 9), down, right, left.

/// Up to `N` target squares with one auxiliary square each.
#[derive(Copy, Clone, Debug)]
pub struct Steps<const N: usize> {
    /// Target squares; the first `len` are valid.
    pub to: [u8; N],
    /// The auxiliary square of each target (horse leg, elephant eye; 0 where there is none).
    pub aux: [u8; N],
    /// Number of targets.
    pub len: u8,
}

impl<const N: usize> Steps<N> {
    const EMPTY: Steps<N> = Steps {
        to: [0; N],
        aux: [0; N],
        len: 0,
    };

    const fn push(mut self, to: u8, aux: u8) -> Steps<N> {
        self.to[self.len as usize] = to;
        self.aux[self.len as usize] = aux;
        self.len += 1;
        self
    }

    /// The (target, auxiliary) pairs.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.len as usize).map(move |i| (self.to[i] as usize, self.aux[i] as usize))
    }
}

const fn sq(file: i32, rank: i32) -> i32 {
    if file >= 0 && file < 9 && rank >= 0 && rank < 10 {
        rank * 9 + file
    } else {
        -1
    }
}

/// Orthogonal directions (file step, rank step): up (towards rank 9), down, right, left.
pub const ORTHO_DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Squares along each orthogonal ray, nearest first.
#[derive(Copy, Clone, Debug)]
pub struct Rays {
    /// Per direction, the squares from the neighbour to the board edge; the first `len[d]` are
    /// valid.
    pub sq: [[u8; 9]; 4],
    /// Per direction, the number of squares on the ray.
    pub len: [u8; 4],
}

const fn build_rays() -> [Rays; 90] {
    let mut out = [Rays {
        sq: [[0; 9]; 4],
        len: [0; 4],
    }; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHO_DIRS[d];
            let (mut nf, mut nr) = (f + df, r + dr);
            while sq(nf, nr) >= 0 {
                let n = out[s].len[d] as usize;
                out[s].sq[d][n] = sq(nf, nr) as u8;
                out[s].len[d] += 1;
                nf += df;
                nr += dr;
            }
            d += 1;
        }
        s += 1;
    }
    out
}

/// Orthogonal rays from each square.
pub static RAYS: [Rays; 90] = build_rays();

/// Orthogonal ray masks per square, in the direction order of [`ORTHO_DIRS`]; bit `i` is square
/// `i`.
pub static RAY_MASKS: [[u128; 4]; 90] = {
    let mut out = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let mut d = 0;
        while d < 4 {
            let mut i = 0;
            while i < RAYS[s].len[d] as usize {
                out[s][d] |= 1u128 << RAYS[s].sq[d][i];
                i += 1;
            }
            d += 1;
        }
        s += 1;
    }
    out
};

/// The blocker nearest to the origin among `blockers` (a non-empty subset of one ray's mask) on a
/// ray of direction `d`: up and right run towards higher square indices, down and left towards
/// lower ones.
#[inline(always)]
pub fn nearest_on_ray(blockers: u128, d: usize) -> u32 {
    // Whether direction d runs towards higher indices, read from a table: the sum of the steps
    // would carry the core's overflow check into every caller's loop.
    const ASCENDING: [bool; 4] = {
        let mut out = [false; 4];
        let mut d = 0;
        while d < 4 {
            out[d] = ORTHO_DIRS[d].0 + ORTHO_DIRS[d].1 > 0;
            d += 1;
        }
        out
    };
    if ASCENDING[d] {
        blockers.trailing_zeros()
    } else {
        127 - blockers.leading_zeros()
    }
}

/// One step in each of four directions, where it stays on the board.
const fn build_steps(dirs: [(i32, i32); 4]) -> [Steps<4>; 90] {
    let mut out = [Steps::<4>::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let t = sq(f + dirs[d].0, r + dirs[d].1);
            if t >= 0 {
                out[s] = out[s].push(t as u8, 0);
            }
            d += 1;
        }
        s += 1;
    }
    out
}

/// One orthogonal step (king, hidden step, pawn sideways).
pub static ORTHO: [Steps<4>; 90] = build_steps(ORTHO_DIRS);

/// One diagonal step (advisor).
pub static DIAG: [Steps<4>; 90] = build_steps(DIAG_DIRS);

const fn build_elephant() -> [Steps<4>; 90] {
    let mut out = [Steps::<4>::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG_DIRS[d];
            let t = sq(f + 2 * df, r + 2 * dr);
            if t >= 0 {
                // Elephant eye: the diagonal square between, which must be empty.
                out[s] = out[s].push(t as u8, sq(f + df, r + dr) as u8);
            }
            d += 1;
        }
        s += 1;
    }
    out
}

/// Two diagonal steps with the eye square (elephant). The relation is symmetric, so the same table
/// lists the squares an elephant attacks a square from.
pub static ELEPHANT: [Steps<4>; 90] = build_elephant();

const HORSE_JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
];

const fn build_horse(attacks: bool) -> [Steps<8>; 90] {
    let mut out = [Steps::<8>::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut j = 0;
        while j < 8 {
            let (df, dr) = HORSE_JUMPS[j];
            let t = sq(f + df, r + dr);
            if t >= 0 {
                // Horse leg: the orthogonal neighbour of the horse in the direction of the long
                // side of the jump. For a move from s it is next to s; for an attack on s from t it
                // is next to t.
                let (lf, lr) = if df == 2 || df == -2 {
                    (df / 2, 0)
                } else {
                    (0, dr / 2)
                };
                let leg = if attacks {
                    sq(f + df - lf, r + dr - lr)
                } else {
                    sq(f + lf, r + lr)
                };
                out[s] = out[s].push(t as u8, leg as u8);
            }
            j += 1;
        }
        s += 1;
    }
    out
}

/// Horse moves from each square: (target, leg).
pub static HORSE: [Steps<8>; 90] = build_horse(false);
/// Horse attacks on each square: (the horse's square, its leg).
pub static HORSE_ATTACKERS: [Steps<8>; 90] = build_horse(true);

/// Role index of the piece that starts on each square (kings included), or 255.
pub static START_ROLE: [u8; 90] = {
    let back: [u8; 9] = [0, 1, 2, 3, 4, 3, 2, 1, 0];
    let mut t = [255u8; 90];
    let mut f = 0;
    while f < 9 {
        t[f] = back[f];
        t[81 + f] = back[f];
        if f % 2 == 0 {
            t[27 + f] = 6;
            t[54 + f] = 6;
        }
        f += 1;
    }
    t[18 + 1] = 5;
    t[18 + 7] = 5;
    t[63 + 1] = 5;
    t[63 + 7] = 5;
    t
};

/// Fixed pseudo-random keys from splitmix64 with a fixed seed: stable across builds and machines.
pub(crate) struct ZobristKeys {
    /// Indexed by board cell code (1..=16) and square.
    pub piece: [[u64; 90]; 17],
    /// XORed in when Black is to move.
    pub black_to_move: u64,
    /// Indexed by colour, role and pool count (0..=5).
    pub pool: [[[u64; 6]; 7]; 2],
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub(crate) static ZOBRIST: ZobristKeys = {
    let mut state = 0x4A49_4551_4920_2024u64; // "JIEQI 2024"
    let mut keys = ZobristKeys {
        piece: [[0; 90]; 17],
        black_to_move: 0,
        pool: [[[0; 6]; 7]; 2],
    };
    let mut c = 1;
    while c < 17 {
        let mut s = 0;
        while s < 90 {
            keys.piece[c][s] = splitmix(&mut state);
            s += 1;
        }
        c += 1;
    }
    keys.black_to_move = splitmix(&mut state);
    let mut col = 0;
    while col < 2 {
        let mut r = 0;
        while r < 7 {
            let mut n = 0;
            while n < 6 {
                keys.pool[col][r][n] = splitmix(&mut state);
                n += 1;
            }
            r += 1;
        }
        col += 1;
    }
    keys
};
