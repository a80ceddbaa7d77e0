//! Static evaluation, in centipawns from the side to move's point of view.
//!
//! Hidden pieces are valued at the expected value of their owner's pool in the position (seed 004):
//! the mean value of the identities that side has not yet seen, which changes as pieces reveal.
//! Weights live in [`EvalWeights`] (loadable from `configs/eval/*.json`), not in scattered constants.
//!
//! Terms, each from one side's point of view and subtracted for the other:
//! - material: face-up pieces by role (a pawn is worth more across the river), hidden pieces at the
//!   mean value of their owner's pool;
//! - piece-square terms: for chariot, horse, cannon and pawn a centrality bonus per file step
//!   towards the centre file and an advancement bonus per rank towards the enemy (mirrored for
//!   Black); pawns only earn advancement once across the river;
//! - mobility: for face-up chariots, horses and cannons, a bonus per pseudo-legal move (empty
//!   squares plus captures; horse legs respected; cannon captures over a screen);
//! - king safety: enemy face-up chariots, horses, cannons on the king's half and crossed pawns
//!   near its palace are "attackers" (weighted by role); the penalty is
//!   `king_attack × attack + king_attack_open × attack × missing_guards`, where guards are own
//!   advisors and elephants (face up, or still hidden on their start squares) out of four;
//! - a small tempo bonus for the side to move.

use jieqi_core::{Color, Occupant, Pool, Position, Role, Square};
use serde::{Deserialize, Serialize};

/// Tunable evaluation weights (centipawns).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvalWeights {
    /// Value of a chariot.
    pub chariot: i32,
    /// Value of a horse.
    pub horse: i32,
    /// Value of an elephant.
    pub elephant: i32,
    /// Value of an advisor.
    pub advisor: i32,
    /// Weight of a king inside pool means (seed-000 variant, where the king can be hidden).
    pub king: i32,
    /// Value of a cannon.
    pub cannon: i32,
    /// Value of a pawn on its own half.
    pub pawn: i32,
    /// Value of a pawn across the river.
    pub crossed_pawn: i32,
    /// Chariot centrality bonus per file step towards the centre file (0..=4 steps).
    pub chariot_center: i32,
    /// Horse centrality bonus per file step towards the centre file.
    pub horse_center: i32,
    /// Cannon centrality bonus per file step towards the centre file.
    pub cannon_center: i32,
    /// Crossed-pawn centrality bonus per file step towards the centre file.
    pub pawn_center: i32,
    /// Chariot bonus per rank advanced from its own back rank (0..=9).
    pub chariot_advance: i32,
    /// Horse bonus per rank advanced from its own back rank.
    pub horse_advance: i32,
    /// Cannon bonus per rank advanced from its own back rank.
    pub cannon_advance: i32,
    /// Crossed-pawn bonus per rank beyond the river (the last rank is worth less: see
    /// `pawn_last_rank`).
    pub pawn_advance: i32,
    /// Penalty for a pawn on the enemy's back rank (it can only move sideways).
    pub pawn_last_rank: i32,
    /// Bonus per pseudo-legal move of a face-up chariot.
    pub mobility_chariot: i32,
    /// Bonus per pseudo-legal move of a face-up horse.
    pub mobility_horse: i32,
    /// Bonus per pseudo-legal move of a face-up cannon.
    pub mobility_cannon: i32,
    /// King safety: penalty per attack unit (chariot 3, horse 2, cannon 2, near pawn 1).
    pub king_attack: i32,
    /// King safety: extra penalty per attack unit and per missing guard (advisor or elephant).
    pub king_attack_open: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
}

impl Default for EvalWeights {
    fn default() -> EvalWeights {
        EvalWeights {
            chariot: 900,
            horse: 400,
            elephant: 200,
            advisor: 200,
            king: 2000,
            cannon: 450,
            pawn: 100,
            crossed_pawn: 200,
            chariot_center: 3,
            horse_center: 6,
            cannon_center: 4,
            pawn_center: 8,
            chariot_advance: 2,
            horse_advance: 6,
            cannon_advance: 1,
            pawn_advance: 10,
            pawn_last_rank: 60,
            mobility_chariot: 4,
            mobility_horse: 8,
            mobility_cannon: 2,
            king_attack: 8,
            king_attack_open: 6,
            tempo: 10,
        }
    }
}

impl EvalWeights {
    /// Value of a face-up piece of `role` standing on `sq` for `color`.
    #[inline]
    pub fn piece(&self, color: Color, role: Role, sq: Square) -> i32 {
        match role {
            Role::Chariot => self.chariot,
            Role::Horse => self.horse,
            Role::Elephant => self.elephant,
            Role::Advisor => self.advisor,
            Role::King => self.king,
            Role::Cannon => self.cannon,
            Role::Pawn if sq.is_own_half(color) => self.pawn,
            Role::Pawn => self.crossed_pawn,
        }
    }

    /// Value of an identity drawn from a pool (a pawn counts as not yet across the river).
    #[inline]
    pub fn identity(&self, role: Role) -> i32 {
        self.piece(Color::Red, role, Square::A0)
    }

    /// Expected value of a hidden piece whose owner's pool is `pool`: the pool's mean value.
    pub fn hidden(&self, pool: &Pool) -> i32 {
        let n = pool.total();
        if n == 0 {
            return 0;
        }
        let sum: i64 = Role::ALL
            .iter()
            .map(|&r| self.identity(r) as i64 * pool.get(r) as i64)
            .sum();
        (sum / n as i64) as i32
    }

    /// Reads weights from a JSON file (missing keys keep their defaults; unknown keys are errors).
    ///
    /// # Errors
    /// The file cannot be read or is not a valid weights object; the message names the path.
    pub fn from_json_file(path: impl AsRef<std::path::Path>) -> Result<Self, String> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("eval weights '{}': {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("eval weights '{}': {e}", path.display()))
    }

    /// Piece-square bonus of a face-up piece (no material).
    #[inline]
    fn pst(&self, color: Color, role: Role, sq: Square) -> i32 {
        let center = 4 - (sq.file() - 4).abs();
        let adv = match color {
            Color::Red => sq.rank(),
            Color::Black => 9 - sq.rank(),
        };
        match role {
            Role::Chariot => self.chariot_center * center + self.chariot_advance * adv,
            Role::Horse => self.horse_center * center + self.horse_advance * adv,
            Role::Cannon => self.cannon_center * center + self.cannon_advance * adv,
            Role::Pawn if adv >= 5 => {
                let last = if adv == 9 { self.pawn_last_rank } else { 0 };
                self.pawn_center * center + self.pawn_advance * (adv - 4) - last
            }
            _ => 0,
        }
    }
}

/// Compact board codes for the evaluation: 0 empty, else `1 + colour * 8 + kind` with kind a role
/// index or 7 for a hidden piece.
const HIDDEN: u8 = 7;

#[inline]
fn cell(o: Option<Occupant>) -> u8 {
    match o {
        None => 0,
        Some(Occupant::Hidden(c)) => 1 + c.index() as u8 * 8 + HIDDEN,
        Some(Occupant::Revealed(p)) => 1 + p.color.index() as u8 * 8 + p.role.index() as u8,
    }
}

#[inline]
fn cell_color(c: u8) -> usize {
    usize::from(c > 8)
}

const DIRS: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const HORSE_JUMPS: [(i32, i32, i32, i32); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

#[inline]
fn at(f: i32, r: i32) -> Option<usize> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Some((r * 9 + f) as usize)
    } else {
        None
    }
}

/// Pseudo-legal move count of a face-up chariot, horse or cannon of side `us` on `s`.
fn mobility(board: &[u8; 90], s: usize, role: Role, us: usize) -> i32 {
    let (f0, r0) = ((s % 9) as i32, (s / 9) as i32);
    let mut n = 0;
    match role {
        Role::Chariot => {
            for (df, dr) in DIRS {
                let (mut f, mut r) = (f0 + df, r0 + dr);
                while let Some(t) = at(f, r) {
                    let c = board[t];
                    if c == 0 {
                        n += 1;
                    } else {
                        n += i32::from(cell_color(c) != us);
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
        Role::Cannon => {
            for (df, dr) in DIRS {
                let (mut f, mut r) = (f0 + df, r0 + dr);
                let mut screened = false;
                while let Some(t) = at(f, r) {
                    let c = board[t];
                    if !screened {
                        if c == 0 {
                            n += 1;
                        } else {
                            screened = true;
                        }
                    } else if c != 0 {
                        n += i32::from(cell_color(c) != us);
                        break;
                    }
                    f += df;
                    r += dr;
                }
            }
        }
        Role::Horse => {
            for (df, dr, lf, lr) in HORSE_JUMPS {
                if let (Some(t), Some(leg)) = (at(f0 + df, r0 + dr), at(f0 + lf, r0 + lr)) {
                    let c = board[t];
                    if board[leg] == 0 && (c == 0 || cell_color(c) != us) {
                        n += 1;
                    }
                }
            }
        }
        _ => {}
    }
    n
}

/// Evaluates `pos` from the side to move's point of view.
pub fn evaluate(pos: &Position, w: &EvalWeights) -> i32 {
    let hidden = [
        w.hidden(pos.pool(Color::Red)),
        w.hidden(pos.pool(Color::Black)),
    ];
    let mut board = [0u8; 90];
    let mut score = [0i32; 2];
    // Attack units against each side's king, and that side's guards.
    let mut attack = [0i32; 2];
    let mut guards = [0i32; 2];
    let want_mobility = w.mobility_chariot != 0 || w.mobility_horse != 0 || w.mobility_cannon != 0;
    // Face-up chariots, horses and cannons (at most 6 a side): (square, role, side).
    let mut mobile = [(0u8, Role::King, 0u8); 12];
    let mut n_mobile = 0;
    for sq in Square::all() {
        let o = pos.occupant(sq);
        board[sq.index()] = cell(o);
        match o {
            None => {}
            Some(Occupant::Hidden(c)) => {
                score[c.index()] += hidden[c.index()];
                if matches!(
                    jieqi_core::start_role(sq),
                    Some(Role::Advisor | Role::Elephant)
                ) {
                    guards[c.index()] += 1;
                }
            }
            Some(Occupant::Revealed(p)) => {
                let c = p.color.index();
                match p.role {
                    Role::King => continue,
                    Role::Advisor if sq.is_palace(p.color) => guards[c] += 1,
                    Role::Elephant if sq.is_own_half(p.color) => guards[c] += 1,
                    _ => {}
                }
                score[c] += w.piece(p.color, p.role, sq) + w.pst(p.color, p.role, sq);
                let them = 1 - c;
                let on_their_half = !sq.is_own_half(p.color);
                match p.role {
                    Role::Chariot if on_their_half => attack[them] += 3,
                    Role::Horse | Role::Cannon if on_their_half => attack[them] += 2,
                    Role::Pawn => {
                        // Near the enemy palace: ranks 6..=9 from its own side, files c–g.
                        let adv = if p.color == Color::Red {
                            sq.rank()
                        } else {
                            9 - sq.rank()
                        };
                        if adv >= 6 && (2..=6).contains(&sq.file()) {
                            attack[them] += 1;
                        }
                    }
                    _ => {}
                }
                if matches!(p.role, Role::Chariot | Role::Horse | Role::Cannon) && n_mobile < 12 {
                    mobile[n_mobile] = (sq.index() as u8, p.role, c as u8);
                    n_mobile += 1;
                }
            }
        }
    }
    if want_mobility {
        for &(s, role, us) in &mobile[..n_mobile] {
            let weight = match role {
                Role::Chariot => w.mobility_chariot,
                Role::Horse => w.mobility_horse,
                _ => w.mobility_cannon,
            };
            score[us as usize] += weight * mobility(&board, s as usize, role, us as usize);
        }
    }
    for c in Color::ALL {
        if pos.king(c).is_some() {
            let i = c.index();
            let missing = (4 - guards[i]).max(0);
            score[i] -= w.king_attack * attack[i] + w.king_attack_open * attack[i] * missing;
        }
    }
    let us = pos.turn().index();
    score[us] - score[1 - us] + w.tempo
}

/// Material only (face-up pieces by role, hidden pieces at their pool mean), from the side to
/// move's point of view. Used where a cheap, position-independent value is wanted.
pub fn material(pos: &Position, w: &EvalWeights) -> i32 {
    let hidden = [
        w.hidden(pos.pool(Color::Red)),
        w.hidden(pos.pool(Color::Black)),
    ];
    let mut score = [0i32; 2];
    for sq in Square::all() {
        match pos.occupant(sq) {
            None => {}
            Some(Occupant::Hidden(c)) => score[c.index()] += hidden[c.index()],
            Some(Occupant::Revealed(p)) if p.role == Role::King => {}
            Some(Occupant::Revealed(p)) => score[p.color.index()] += w.piece(p.color, p.role, sq),
        }
    }
    let us = pos.turn().index();
    score[us] - score[1 - us]
}

/// Maps a centipawn score to an expected game score in (0, 1) with the logistic curve
/// 1 / (1 + 10^(−cp/400)) (Elo scale: +400 cp ≈ 91 %).
#[inline]
pub fn win_probability(cp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-(cp as f64) / 400.0))
}
