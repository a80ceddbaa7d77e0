//! The evaluation's weights ([`EvalWeights`], with the learned piece-square tables [`Pst`]) and
//! the weights files they are read from.

use jieqi_core::{Color, Pool, Role, Square};
use serde::{Deserialize, Serialize};

/// What a weights file with a `net` field is told: the correction network left the library
/// (docs/history.md says where it was), and its weights without it would play another engine.
const REMOVED_NET: &str = "field \"net\": the correction network was removed from the engine \
     (docs/history.md); without it these weights would evaluate differently than they were \
     fitted to: remove the field to use the other weights as they are";

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
        // A match, not `tables()[kind]`: the evaluation reads this for every piece it meets.
        let table = match kind {
            0 => &self.chariot,
            1 => &self.horse,
            2 => &self.elephant,
            3 => &self.advisor,
            4 => &self.king,
            5 => &self.cannon,
            6 => &self.pawn,
            _ => &self.hidden,
        };
        table.get(Pst::index(color, sq)).copied().unwrap_or(0)
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
            serde_json::from_str(include_str!("../../../../configs/eval/learned.json"))
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
        if let Ok(serde_json::Value::Object(fields)) = serde_json::from_str(text) {
            if fields.contains_key("net") {
                return Err(named(REMOVED_NET.into()));
            }
        }
        let w: EvalWeights = serde_json::from_str(text).map_err(|e| named(e.to_string()))?;
        if let Some(table) = w.pst.malformed() {
            return Err(named(format!(
                "pst.{table} must have {PST_SQUARES} values (files a-e by ranks 0-9)"
            )));
        }
        Ok(w)
    }

    /// Piece-square bonus of a face-up piece (no material).
    #[inline]
    pub(super) fn pst(&self, color: Color, role: Role, sq: Square) -> i32 {
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
