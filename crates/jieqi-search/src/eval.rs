//! Static evaluation, in centipawns from the side to move's point of view.
//!
//! Hidden pieces are valued at the expected value of their owner's pool in the position (seed 004):
//! the mean value of the identities that side has not yet seen, which changes as pieces reveal.
//! A player who knows hidden pieces (an omniscient view, [`Knowledge`]) values those at their
//! identities instead: [`known_hidden`] is the difference, [`evaluate_known`] the sum.
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
//!
//! Three implementations give the same values (tests/eval.rs checks them against a plain 90-square
//! reference): [`evaluate`] (no setup; visits occupied squares only, bitboard mobility),
//! [`Evaluator::evaluate`] (weights tabulated per side, kind and square) and
//! [`Evaluator::evaluate_with`], which takes the per-piece terms as an [`Incremental`] kept along
//! make/unmake by the search, so that only mobility is computed per call.

use jieqi_core::tables::{HORSE, RAY_MASKS, RAYS, nearest_on_ray as nearest};
use jieqi_core::{Belief, Color, Knowledge, Occupant, PlayedMove, Pool, Position, Role, Square};
use serde::{Deserialize, Serialize};

use crate::nnue::Net;

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
    /// Piece-square tables learned from games (`arena tune --pst`), added to every term above:
    /// see [`Pst`]. Absent from a weights file: all zero.
    #[serde(skip_serializing_if = "Pst::is_zero")]
    pub pst: Pst,
    /// A network that corrects the evaluation ([`crate::nnue`]), if any (`arena tune --net`
    /// fits one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub net: Option<Box<Net>>,
    /// Where these weights came from (`arena tune` writes the command, the games, the seed and
    /// the build): read and written, never used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<serde_json::Value>,
}

/// Squares of one piece-square table: files a–e (f–i mirror them: the board is symmetric) by
/// ranks 0–9 counted from the owner's side, `rank * 5 + file`.
pub const PST_SQUARES: usize = 50;

/// Learned piece-square tables, one per kind of piece: the seven roles face up, and `hidden`
/// for a hidden piece (which stands on its start square; its material is its pool's mean, this
/// is what its square adds). Each table has [`PST_SQUARES`] values (see there), in centipawns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Pst {
    /// Face-up chariot.
    pub chariot: Vec<i32>,
    /// Face-up horse.
    pub horse: Vec<i32>,
    /// Face-up elephant.
    pub elephant: Vec<i32>,
    /// Face-up advisor.
    pub advisor: Vec<i32>,
    /// King.
    pub king: Vec<i32>,
    /// Face-up cannon.
    pub cannon: Vec<i32>,
    /// Face-up pawn.
    pub pawn: Vec<i32>,
    /// Hidden piece.
    pub hidden: Vec<i32>,
}

impl Default for Pst {
    fn default() -> Pst {
        let zero = || vec![0; PST_SQUARES];
        Pst {
            chariot: zero(),
            horse: zero(),
            elephant: zero(),
            advisor: zero(),
            king: zero(),
            cannon: zero(),
            pawn: zero(),
            hidden: zero(),
        }
    }
}

impl Pst {
    /// The tables by kind: the roles in [`Role::ALL`] order, then `hidden`.
    pub fn tables(&self) -> [&Vec<i32>; 8] {
        [
            &self.chariot,
            &self.horse,
            &self.elephant,
            &self.advisor,
            &self.king,
            &self.cannon,
            &self.pawn,
            &self.hidden,
        ]
    }

    /// The tables by kind, to change them (order of [`Pst::tables`]: role indices, then
    /// hidden).
    pub fn tables_mut(&mut self) -> [&mut Vec<i32>; 8] {
        let Pst {
            chariot,
            horse,
            elephant,
            advisor,
            king,
            cannon,
            pawn,
            hidden,
        } = self;
        [
            chariot, horse, elephant, advisor, king, cannon, pawn, hidden,
        ]
    }

    /// Whether every value is zero (the tables are then left out of a weights file).
    pub fn is_zero(&self) -> bool {
        self.tables().iter().all(|t| t.iter().all(|&v| v == 0))
    }

    /// The table index of `sq` for a piece of `color`.
    #[inline]
    pub fn index(color: Color, sq: Square) -> usize {
        let file = sq.file().min(8 - sq.file()) as usize;
        let rank = match color {
            Color::Red => sq.rank(),
            Color::Black => 9 - sq.rank(),
        } as usize;
        rank * 5 + file
    }

    /// The value of a piece of table `kind` (a role index, or 7 for hidden) of `color` on `sq`.
    #[inline]
    pub fn at(&self, kind: usize, color: Color, sq: Square) -> i32 {
        self.tables()[kind.min(7)]
            .get(Pst::index(color, sq))
            .copied()
            .unwrap_or(0)
    }

    /// A table that does not have [`PST_SQUARES`] values, by name.
    pub fn malformed(&self) -> Option<&'static str> {
        const NAMES: [&str; 8] = [
            "chariot", "horse", "elephant", "advisor", "king", "cannon", "pawn", "hidden",
        ];
        let tables = self.tables();
        (0..8)
            .find(|&i| tables[i].len() != PST_SQUARES)
            .map(|i| NAMES[i])
    }
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
            pst: Pst::default(),
            net: None,
            provenance: None,
        }
    }
}

impl EvalWeights {
    /// The weights `alphabeta` evaluates with unless told otherwise: learned from our own games
    /// by `scripts/train-eval.sh` (configs/eval/learned.json, built in; its `provenance` says
    /// from which games and how). [`EvalWeights::default`] is the hand-crafted set it started
    /// from (configs/eval/default.json), which the other engines still use.
    pub fn learned() -> &'static EvalWeights {
        static LEARNED: std::sync::OnceLock<EvalWeights> = std::sync::OnceLock::new();
        LEARNED.get_or_init(|| {
            serde_json::from_str(include_str!("../../../configs/eval/learned.json"))
                .expect("configs/eval/learned.json parses (tests/eval.rs checks it)")
        })
    }

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

    /// Reads weights from a JSON file (missing keys keep their defaults; unknown keys are errors;
    /// a leading UTF-8 byte order mark is read past) of at most [`MAX_WEIGHTS_FILE`] bytes. Only a regular file is read (links followed): a
    /// named pipe would block forever, a device such as `/dev/zero` never ends.
    ///
    /// # Errors
    /// The file cannot be read, is not a regular file, is too large, is not UTF-8 or is not a
    /// valid weights object; the message names the path.
    pub fn from_json_file(path: impl AsRef<std::path::Path>) -> Result<Self, String> {
        use std::io::Read;
        let path = path.as_ref();
        let named = |m: String| format!("eval weights '{}': {m}", path.display());
        let regular = |meta: std::io::Result<std::fs::Metadata>| match meta {
            Ok(m) if m.is_file() => Ok(()),
            Ok(m) if m.is_dir() => Err(named("is a folder, not a file".into())),
            Ok(m) => Err(named(format!(
                "is not a regular file ({}): give a weights file",
                special_kind(m.file_type())
            ))),
            Err(e) => Err(named(e.to_string())),
        };
        // Looked at before it is opened: opening a named pipe waits for a writer.
        regular(std::fs::metadata(path))?;
        let file = std::fs::File::open(path).map_err(|e| named(e.to_string()))?;
        regular(file.metadata())?;
        let mut bytes = Vec::new();
        file.take(MAX_WEIGHTS_FILE + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| named(e.to_string()))?;
        if bytes.len() as u64 > MAX_WEIGHTS_FILE {
            return Err(named(format!(
                "larger than {MAX_WEIGHTS_FILE} bytes (1 MiB): not a weights file"
            )));
        }
        let text = String::from_utf8(bytes).map_err(|_| named("not UTF-8 text".into()))?;
        // A UTF-8 byte order mark, which some editors write, is not JSON: read past it.
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let w: EvalWeights = serde_json::from_str(text).map_err(|e| named(e.to_string()))?;
        if let Some(table) = w.pst.malformed() {
            return Err(named(format!(
                "pst.{table} must have {PST_SQUARES} values (files a-e by ranks 0-9)"
            )));
        }
        if let Some(m) = w.net.as_ref().and_then(|n| n.malformed()) {
            return Err(named(m.into()));
        }
        Ok(w)
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
fn line_mobility(s: usize, cannon: bool, occ: u128, own: u128) -> i32 {
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
fn horse_mobility(s: usize, occ: u128, own: u128) -> i32 {
    let mut n = 0;
    let jumps = &HORSE[s];
    for j in 0..jumps.len as usize {
        let (t, leg) = (jumps.to[j], jumps.aux[j]);
        n += u32::from((occ >> leg) & 1 == 0 && (own >> t) & 1 == 0);
    }
    n as i32
}

/// Evaluates `pos` from the side to move's point of view.
///
/// Visits only occupied squares (through [`Position::occupied`]); mobility reads the occupancy
/// bitboards with precomputed ray masks and horse jump tables; each side's pool mean is computed
/// once, and only if that side has hidden pieces.
pub fn evaluate(pos: &Position, w: &EvalWeights) -> i32 {
    let occ_by = [pos.occupied(Color::Red), pos.occupied(Color::Black)];
    let occ = occ_by[0] | occ_by[1];
    let mut score = [0i32; 2];
    let mut n_hidden = [0i32; 2];
    // Attack units against each side's king, and that side's guards.
    let mut attack = [0i32; 2];
    let mut guards = [0i32; 2];
    for color in Color::ALL {
        let c = color.index();
        let them = 1 - c;
        let own = occ_by[c];
        let mut bits = own;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let sq = Square::from_index(s);
            let role = match pos.occupant(sq) {
                Some(Occupant::Revealed(p)) => p.role,
                _ => {
                    // Hidden (the bitboard says the square is occupied by `color`).
                    n_hidden[c] += 1;
                    score[c] += w.pst.at(HIDDEN_K, color, sq);
                    if matches!(
                        jieqi_core::start_role(sq),
                        Some(Role::Advisor | Role::Elephant)
                    ) {
                        guards[c] += 1;
                    }
                    continue;
                }
            };
            let on_their_half = !sq.is_own_half(color);
            score[c] += w.pst.at(role.index(), color, sq);
            match role {
                Role::King => continue,
                Role::Advisor => {
                    guards[c] += i32::from(sq.is_palace(color));
                    score[c] += w.advisor;
                }
                Role::Elephant => {
                    guards[c] += i32::from(!on_their_half);
                    score[c] += w.elephant;
                }
                Role::Chariot => {
                    score[c] += w.chariot
                        + w.pst(color, role, sq)
                        + w.mobility_chariot * line_mobility(s, false, occ, own);
                    attack[them] += if on_their_half { 3 } else { 0 };
                }
                Role::Cannon => {
                    score[c] += w.cannon
                        + w.pst(color, role, sq)
                        + w.mobility_cannon * line_mobility(s, true, occ, own);
                    attack[them] += if on_their_half { 2 } else { 0 };
                }
                Role::Horse => {
                    score[c] += w.horse
                        + w.pst(color, role, sq)
                        + w.mobility_horse * horse_mobility(s, occ, own);
                    attack[them] += if on_their_half { 2 } else { 0 };
                }
                Role::Pawn => {
                    score[c] += w.piece(color, role, sq) + w.pst(color, role, sq);
                    // Near the enemy palace: ranks 6..=9 from its own side, files c–g.
                    let adv = if color == Color::Red {
                        sq.rank()
                    } else {
                        9 - sq.rank()
                    };
                    if adv >= 6 && (2..=6).contains(&sq.file()) {
                        attack[them] += 1;
                    }
                }
            }
        }
    }
    finish(pos, w, score, n_hidden, attack, guards) + w.net.as_ref().map_or(0, |n| n.evaluate(pos))
}

/// The terms both evaluation paths end with: hidden pieces at their pool's mean, king safety, and
/// the difference from the side to move's point of view plus the tempo bonus.
#[inline]
fn finish(
    pos: &Position,
    w: &EvalWeights,
    mut score: [i32; 2],
    n_hidden: [i32; 2],
    attack: [i32; 2],
    guards: [i32; 2],
) -> i32 {
    for color in Color::ALL {
        let i = color.index();
        if n_hidden[i] > 0 {
            score[i] += n_hidden[i] * w.hidden(pos.pool(color));
        }
        if pos.king(color).is_some() {
            let missing = (4 - guards[i]).max(0);
            score[i] -= w.king_attack * attack[i] + w.king_attack_open * attack[i] * missing;
        }
    }
    let us = pos.turn().index();
    score[us] - score[1 - us] + w.tempo
}

/// The largest weights file [`EvalWeights::from_json_file`] reads: 1 MiB (a weights file is a
/// few hundred bytes).
pub const MAX_WEIGHTS_FILE: u64 = 1 << 20;

/// What a file that is not regular is, as a message says it (`a named pipe`).
fn special_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = kind;
    "not a file of data"
}

const CHARIOT: usize = Role::Chariot.index();
const HORSE_K: usize = Role::Horse.index();
const CANNON: usize = Role::Cannon.index();
/// Table index of a hidden piece (after the seven roles).
const HIDDEN_K: usize = 7;

/// [`evaluate`] with the weight-dependent parts tabulated once: per side, kind (role or hidden)
/// and square, the material plus piece-square value, the king-attack units and the guard count.
/// The per-piece work is then a few table reads, plus mobility for chariots, horses and cannons.
/// Build it once per search (not per node); it gives exactly the values of [`evaluate`].
#[derive(Clone, Debug)]
pub struct Evaluator {
    weights: EvalWeights,
    /// `[side][kind][square]`: material + piece-square value (kings and hidden pieces: the
    /// learned table's value only).
    base: [[[i32; 90]; 8]; 2],
    /// `[side][kind][square]`: attack units against the enemy king, plus 16 × guards.
    aux: [[[u8; 90]; 8]; 2],
}

impl Evaluator {
    /// Tabulates `weights`.
    pub fn new(weights: &EvalWeights) -> Evaluator {
        let mut e = Evaluator {
            weights: weights.clone(),
            base: [[[0; 90]; 8]; 2],
            aux: [[[0; 90]; 8]; 2],
        };
        for color in Color::ALL {
            let c = color.index();
            for sq in Square::all() {
                let s = sq.index();
                let on_their_half = !sq.is_own_half(color);
                for role in Role::ALL {
                    let k = role.index();
                    if role == Role::King {
                        e.base[c][k][s] = weights.pst.at(k, color, sq);
                        continue;
                    }
                    e.base[c][k][s] = weights.piece(color, role, sq)
                        + weights.pst(color, role, sq)
                        + weights.pst.at(k, color, sq);
                    let guard = match role {
                        Role::Advisor => sq.is_palace(color),
                        Role::Elephant => !on_their_half,
                        _ => false,
                    };
                    let attack = match role {
                        Role::Chariot if on_their_half => 3,
                        Role::Horse | Role::Cannon if on_their_half => 2,
                        Role::Pawn => {
                            // Near the enemy palace: ranks 6..=9 from its own side, files c–g.
                            let adv = if color == Color::Red {
                                sq.rank()
                            } else {
                                9 - sq.rank()
                            };
                            u8::from(adv >= 6 && (2..=6).contains(&sq.file()))
                        }
                        _ => 0,
                    };
                    e.aux[c][k][s] = attack + 16 * u8::from(guard);
                }
                let hidden_guard = matches!(
                    jieqi_core::start_role(sq),
                    Some(Role::Advisor | Role::Elephant)
                );
                e.aux[c][HIDDEN_K][s] = 16 * u8::from(hidden_guard);
                e.base[c][HIDDEN_K][s] = weights.pst.at(HIDDEN_K, color, sq);
            }
        }
        e
    }

    /// The weights this evaluator was built from.
    pub fn weights(&self) -> &EvalWeights {
        &self.weights
    }

    /// Evaluates `pos` from the side to move's point of view (the value of [`evaluate`]).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let w = &self.weights;
        let occ_by = [pos.occupied(Color::Red), pos.occupied(Color::Black)];
        let occ = occ_by[0] | occ_by[1];
        let mut score = [0i32; 2];
        let mut n_hidden = [0i32; 2];
        let mut attack = [0i32; 2];
        let mut guards = [0i32; 2];
        for c in 0..2 {
            let them = 1 - c;
            let own = occ_by[c];
            let (base, aux) = (&self.base[c], &self.aux[c]);
            let mut bits = own;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let kind = match pos.occupant(Square::from_index(s)) {
                    Some(Occupant::Revealed(p)) => p.role.index(),
                    _ => HIDDEN_K,
                };
                score[c] += base[kind][s];
                let a = aux[kind][s];
                attack[them] += i32::from(a & 15);
                guards[c] += i32::from(a >> 4);
                n_hidden[c] += i32::from(kind == HIDDEN_K);
                score[c] += match kind {
                    CHARIOT => w.mobility_chariot * line_mobility(s, false, occ, own),
                    CANNON => w.mobility_cannon * line_mobility(s, true, occ, own),
                    HORSE_K => w.mobility_horse * horse_mobility(s, occ, own),
                    _ => 0,
                };
            }
        }
        finish(pos, w, score, n_hidden, attack, guards)
            + w.net.as_ref().map_or(0, |n| n.evaluate(pos))
    }
}

/// The per-piece terms of the evaluation, kept up to date along a search's make/unmake (see
/// [`Evaluator::update`]): per side, the sum of the tabulated material + piece-square values,
/// the king-attack units against it, its guards, its hidden pieces, and bitboards of its face-up
/// chariots, cannons and horses (for mobility); and per pool the sum of its identities' values,
/// its size and its mean (the value of a hidden piece, recomputed only when the pool changes).
/// Mobility is computed at evaluation time ([`Evaluator::evaluate_with`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Incremental {
    base: [i32; 2],
    attack: [i32; 2],
    guards: [i32; 2],
    hidden: [i32; 2],
    /// `[side][0 chariots, 1 cannons, 2 horses]`.
    mobile: [[u128; 3]; 2],
    pool_sum: [i64; 2],
    pool_len: [i64; 2],
    /// [`EvalWeights::hidden`] of each pool.
    pool_mean: [i32; 2],
}

impl Incremental {
    /// Sets the pool mean of side `c` from its sum and size (as [`EvalWeights::hidden`] does).
    #[inline]
    fn set_mean(&mut self, c: usize) {
        self.pool_mean[c] = if self.pool_len[c] == 0 {
            0
        } else {
            (self.pool_sum[c] / self.pool_len[c]) as i32
        };
    }
}

/// Table kind of what stands on square `s` (a role index, or [`HIDDEN_K`]), if anything.
#[inline]
fn kind_at(pos: &Position, s: usize) -> Option<usize> {
    match pos.occupant(Square::from_index(s)) {
        None => None,
        Some(Occupant::Revealed(p)) => Some(p.role.index()),
        Some(Occupant::Hidden(_)) => Some(HIDDEN_K),
    }
}

impl Evaluator {
    #[inline]
    fn add(&self, inc: &mut Incremental, c: usize, kind: usize, s: usize, sign: i32) {
        inc.base[c] += sign * self.base[c][kind][s];
        let a = self.aux[c][kind][s];
        inc.attack[1 - c] += sign * i32::from(a & 15);
        inc.guards[c] += sign * i32::from(a >> 4);
        inc.hidden[c] += sign * i32::from(kind == HIDDEN_K);
        let slot = match kind {
            CHARIOT => 0,
            CANNON => 1,
            HORSE_K => 2,
            _ => return,
        };
        // Toggle: a piece is added where none stands and removed where it stands.
        inc.mobile[c][slot] ^= 1u128 << s;
    }

    /// The per-piece terms of `pos`, from scratch.
    pub fn incremental(&self, pos: &Position) -> Incremental {
        let mut inc = Incremental::default();
        for color in Color::ALL {
            let c = color.index();
            let mut bits = pos.occupied(color);
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(kind) = kind_at(pos, s) {
                    self.add(&mut inc, c, kind, s, 1);
                }
            }
            let pool = pos.pool(color);
            inc.pool_sum[c] = Role::ALL
                .iter()
                .map(|&r| self.weights.identity(r) as i64 * pool.get(r) as i64)
                .sum();
            inc.pool_len[c] = i64::from(pool.total());
            inc.set_mean(c);
        }
        inc
    }

    /// Updates `inc`, the terms of `pos`, to those of the position after `pos.make(pm)`. Call it
    /// *before* making the move; to take the move back, restore the saved copy.
    #[inline]
    pub fn update(&self, inc: &mut Incremental, pos: &Position, pm: PlayedMove) {
        let (from, to) = (pm.mv.from.index(), pm.mv.to.index());
        let us = pos.turn().index();
        let Some(moving) = kind_at(pos, from) else {
            return;
        };
        if from != to {
            if let Some(captured) = kind_at(pos, to) {
                self.add(inc, 1 - us, captured, to, -1);
            }
        }
        if let Some(r) = pm.capture {
            let them = 1 - us;
            inc.pool_sum[them] -= i64::from(self.weights.identity(r));
            inc.pool_len[them] -= 1;
            inc.set_mean(them);
        }
        if let Some(r) = pm.reveal {
            inc.pool_sum[us] -= i64::from(self.weights.identity(r));
            inc.pool_len[us] -= 1;
            inc.set_mean(us);
        }
        let landed = pm.reveal.map_or(moving, Role::index);
        self.add(inc, us, moving, from, -1);
        self.add(inc, us, landed, to, 1);
    }

    /// Evaluates `pos` given its per-piece terms `inc` (the value of [`evaluate`]).
    pub fn evaluate_with(&self, pos: &Position, inc: &Incremental) -> i32 {
        let w = &self.weights;
        let occ_by = [pos.occupied(Color::Red), pos.occupied(Color::Black)];
        let occ = occ_by[0] | occ_by[1];
        let mut score = inc.base;
        for color in Color::ALL {
            let c = color.index();
            let own = occ_by[c];
            let [chariots, cannons, horses] = inc.mobile[c];
            let mut m = 0;
            let mut bits = chariots;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                m += w.mobility_chariot * line_mobility(s, false, occ, own);
            }
            let mut bits = cannons;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                m += w.mobility_cannon * line_mobility(s, true, occ, own);
            }
            let mut bits = horses;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                m += w.mobility_horse * horse_mobility(s, occ, own);
            }
            score[c] += m;
            score[c] += inc.hidden[c] * inc.pool_mean[c];
            if pos.king(color).is_some() {
                let missing = (4 - inc.guards[c]).max(0);
                score[c] -=
                    w.king_attack * inc.attack[c] + w.king_attack_open * inc.attack[c] * missing;
            }
        }
        let us = pos.turn().index();
        score[us] - score[1 - us] + w.tempo + w.net.as_ref().map_or(0, |n| n.evaluate(pos))
    }
}

/// What knowing hidden pieces changes in the evaluation of `pos`, from the side to move's point
/// of view: every hidden piece whose identity `knowledge` holds counts at its
/// [`EvalWeights::identity`] instead of its pool's mean. 0 for fair knowledge (computed only for
/// an omniscient one).
pub fn known_hidden(pos: &Position, w: &EvalWeights, knowledge: &Knowledge) -> i32 {
    if !knowledge.is_omniscient() {
        return 0;
    }
    let mut score = [0i32; 2];
    for color in Color::ALL {
        let c = color.index();
        let mean = w.hidden(pos.pool(color));
        let mut bits = pos.occupied(color);
        while bits != 0 {
            let sq = Square::from_index(bits.trailing_zeros() as usize);
            bits &= bits - 1;
            if let Some(Belief::Known(r)) = knowledge.belief(pos, sq) {
                score[c] += w.identity(r) - mean;
            }
        }
    }
    let us = pos.turn().index();
    score[us] - score[1 - us]
}

/// [`evaluate`] for a player who knows `knowledge`: plus [`known_hidden`].
pub fn evaluate_known(pos: &Position, w: &EvalWeights, knowledge: &Knowledge) -> i32 {
    evaluate(pos, w) + known_hidden(pos, w, knowledge)
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
