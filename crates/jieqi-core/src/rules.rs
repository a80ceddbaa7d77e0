//! Rule sets: mainstream Jieqi, plain Xiangqi, the seed-000 "simple" variant, and every switch
//! between them.

/// How face-down pieces exist and move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum HiddenMoves {
    /// No hidden pieces at all (plain Xiangqi).
    None,
    /// Mainstream Jieqi: a hidden piece moves as the piece of the start square it stands on; a hidden
    /// advisor-square piece only to the palace centre, a hidden pawn-square piece one step forward.
    StartSquare,
    /// The seed-000 variant: a hidden piece steps one square orthogonally or flips in place
    /// (a move whose from and to squares are equal).
    Step,
}

/// Who learns the identity of a hidden piece when it is captured.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum CaptureReveal {
    /// Only the capturing side (Pikafish, JieqiBox, pychess; the mainstream default).
    Capturer,
    /// Both sides.
    Both,
    /// Nobody: the captured identity stays unknown to both sides.
    Nobody,
}

/// What a repeated position means when one side gave check with every move of the cycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum PerpetualCheck {
    /// The perpetually checking side loses (mainstream).
    Loses,
    /// Perpetual check is an ordinary repetition draw.
    Draws,
}

/// A complete rule set. Build one from a preset ([`Rules::standard`], [`Rules::xiangqi`],
/// [`Rules::simple`]) or load it from JSON (`configs/rules/*.json`, with the `serde` feature).
///
/// Perpetual chase is not detected under any rule set: a chasing cycle ends as an ordinary
/// repetition draw.
///
/// Every field has a serde default, so a record written before a switch existed still loads;
/// unknown fields are refused, so a misspelt switch is an error. The serialized text of a rule set
/// is hashed into the arena's run fingerprint, and `tests/rules_frozen.rs` checks that every rule
/// set of 2026-12 (`tests/fixtures/rules-2026-12/`) still loads and serializes byte for byte as
/// then.
///
/// Adding a switch: its default when absent is the behaviour the rules had before the switch
/// existed (the legacy value, frozen as a literal in `absent`, not read from a preset), and it is
/// `#[serde(default = "absent::x", skip_serializing_if = "absent::is_x")]`, so it is omitted while
/// it holds the legacy value and old rule sets keep their text and fingerprints.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Rules {
    /// Preset name this rule set was derived from, for reports (`standard`, `xiangqi`, `simple`, or
    /// a name of your own). Default when absent: `custom`.
    #[cfg_attr(feature = "serde", serde(default = "absent::name"))]
    pub name: RuleName,
    /// How hidden pieces exist and move. Default when absent: `start-square` (mainstream Jieqi).
    #[cfg_attr(feature = "serde", serde(default = "absent::hidden_moves"))]
    pub hidden_moves: HiddenMoves,
    /// Whether the kings start hidden too (the seed-000 variant). Requires `hidden_moves: step`.
    /// Default when absent: `false`.
    #[cfg_attr(feature = "serde", serde(default = "absent::hidden_king"))]
    pub hidden_king: bool,
    /// Revealed advisors stay in their palace (Xiangqi) instead of moving anywhere (Jieqi).
    /// Default when absent: `false`.
    #[cfg_attr(feature = "serde", serde(default = "absent::confine_advisors"))]
    pub confine_advisors: bool,
    /// Revealed elephants stay on their own half (Xiangqi) instead of crossing the river (Jieqi).
    /// Default when absent: `false`.
    #[cfg_attr(feature = "serde", serde(default = "absent::confine_elephants"))]
    pub confine_elephants: bool,
    /// The king stays in its palace. Default when absent: `true`.
    #[cfg_attr(feature = "serde", serde(default = "absent::confine_king"))]
    pub confine_king: bool,
    /// Kings may not face each other on an open file. Default when absent: `true`.
    #[cfg_attr(feature = "serde", serde(default = "absent::flying_general"))]
    pub flying_general: bool,
    /// A move may not leave one's own king attacked. When false there is no check at all and the
    /// game is won by capturing the king. Default when absent: `true`.
    #[cfg_attr(feature = "serde", serde(default = "absent::check"))]
    pub check: bool,
    /// Who learns a captured hidden piece's identity. Default when absent: `capturer`.
    #[cfg_attr(feature = "serde", serde(default = "absent::capture_reveal"))]
    pub capture_reveal: CaptureReveal,
    /// Plies without a capture after which the game is drawn (`null`: no limit). Reveals do not
    /// reset the count. Default when absent: `null`, no limit (not the standard preset's 80): an
    /// absent `Option` field has always loaded as `null`, and a default must not change what an
    /// existing file means.
    #[cfg_attr(feature = "serde", serde(default = "absent::no_capture_plies"))]
    pub no_capture_plies: Option<u32>,
    /// Occurrences of the same position (same side to move) that end the game; 3 is threefold.
    /// Default when absent: `3`.
    #[cfg_attr(feature = "serde", serde(default = "absent::repetition_count"))]
    pub repetition_count: u32,
    /// What perpetual check means. Default when absent: `loses`.
    #[cfg_attr(feature = "serde", serde(default = "absent::perpetual_check"))]
    pub perpetual_check: PerpetualCheck,
}

/// The value each [`Rules`] field takes when a serialized rule set lacks it. These are literals on
/// purpose: they are what old records mean, so they must not follow a preset that changes later.
/// The switches present since the first rule set take the mainstream (`standard`) value, except
/// `name` and `no_capture_plies`, which keep what an absent field always loaded as.
#[cfg(feature = "serde")]
mod absent {
    use super::{CaptureReveal, HiddenMoves, PerpetualCheck, RuleName};

    pub(super) fn name() -> RuleName {
        RuleName::new("custom")
    }
    pub(super) fn hidden_moves() -> HiddenMoves {
        HiddenMoves::StartSquare
    }
    pub(super) fn hidden_king() -> bool {
        false
    }
    pub(super) fn confine_advisors() -> bool {
        false
    }
    pub(super) fn confine_elephants() -> bool {
        false
    }
    pub(super) fn confine_king() -> bool {
        true
    }
    pub(super) fn flying_general() -> bool {
        true
    }
    pub(super) fn check() -> bool {
        true
    }
    pub(super) fn capture_reveal() -> CaptureReveal {
        CaptureReveal::Capturer
    }
    pub(super) fn no_capture_plies() -> Option<u32> {
        None
    }
    pub(super) fn repetition_count() -> u32 {
        3
    }
    pub(super) fn perpetual_check() -> PerpetualCheck {
        PerpetualCheck::Loses
    }
}

/// A short rule-set name stored inline so that [`Rules`] stays `Copy`.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct RuleName {
    bytes: [u8; 24],
    len: u8,
}

impl RuleName {
    /// Makes a name; longer names are cut at 24 bytes (on a character boundary).
    pub fn new(s: &str) -> RuleName {
        let mut end = s.len().min(24);
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0; 24];
        bytes[..end].copy_from_slice(&s.as_bytes()[..end]);
        RuleName {
            bytes,
            len: end as u8,
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("")
    }
}

impl core::fmt::Debug for RuleName {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl core::fmt::Display for RuleName {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for RuleName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for RuleName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RuleName, D::Error> {
        let s = String::deserialize(d)?;
        if s.len() > 24 {
            return Err(serde::de::Error::custom(format!(
                "rule-set name '{s}' is longer than 24 bytes"
            )));
        }
        Ok(RuleName::new(&s))
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::standard()
    }
}

impl Rules {
    /// Mainstream Jieqi, as Pikafish's jieqi branch, JieqiBox and pychess play it: kings face up,
    /// 15 hidden pieces a side moving as their start square's piece, revealed advisors and elephants
    /// unconfined, flying general illegal, only the capturer learns a captured hidden identity,
    /// 80 plies without a capture draw, threefold repetition draws, perpetual check loses.
    pub fn standard() -> Rules {
        Rules {
            name: RuleName::new("standard"),
            hidden_moves: HiddenMoves::StartSquare,
            hidden_king: false,
            confine_advisors: false,
            confine_elephants: false,
            confine_king: true,
            flying_general: true,
            check: true,
            capture_reveal: CaptureReveal::Capturer,
            no_capture_plies: Some(80),
            repetition_count: 3,
            perpetual_check: PerpetualCheck::Loses,
        }
    }

    /// Plain Xiangqi: no hidden pieces, advisors in the palace, elephants on their own half,
    /// 120 plies (60 moves) without a capture draw.
    pub fn xiangqi() -> Rules {
        Rules {
            name: RuleName::new("xiangqi"),
            hidden_moves: HiddenMoves::None,
            hidden_king: false,
            confine_advisors: true,
            confine_elephants: true,
            confine_king: true,
            flying_general: true,
            check: true,
            capture_reveal: CaptureReveal::Both,
            no_capture_plies: Some(120),
            repetition_count: 3,
            perpetual_check: PerpetualCheck::Loses,
        }
    }

    /// The seed-000 variant, without that code's bugs: all 16 pieces (king included) hidden over the
    /// 16 home squares, hidden pieces step one square orthogonally or flip in place, no palace or
    /// river limits, no check and no flying general, capturing the king wins, a side with no move
    /// loses. The seed has no draw rule; this preset keeps the mainstream 80-ply and threefold
    /// repetition draws so that games end on their own.
    pub fn simple() -> Rules {
        Rules {
            name: RuleName::new("simple"),
            hidden_moves: HiddenMoves::Step,
            hidden_king: true,
            confine_advisors: false,
            confine_elephants: false,
            confine_king: false,
            flying_general: false,
            check: false,
            capture_reveal: CaptureReveal::Capturer,
            no_capture_plies: Some(80),
            repetition_count: 3,
            perpetual_check: PerpetualCheck::Draws,
        }
    }

    /// The preset with this name (`standard`, `xiangqi` or `simple`).
    pub fn preset(name: &str) -> Option<Rules> {
        match name {
            "standard" => Some(Rules::standard()),
            "xiangqi" => Some(Rules::xiangqi()),
            "simple" => Some(Rules::simple()),
            _ => None,
        }
    }

    /// Whether the rule set has hidden pieces.
    pub const fn has_hidden(&self) -> bool {
        !matches!(self.hidden_moves, HiddenMoves::None)
    }

    /// Checks that the switches fit together.
    ///
    /// # Errors
    /// Names the conflicting switches.
    pub fn validate(&self) -> Result<(), RulesError> {
        if self.hidden_king && self.hidden_moves != HiddenMoves::Step {
            return Err(RulesError(
                "hidden_king needs hidden_moves \"step\": a hidden king on e0 has no start-square move",
            ));
        }
        if self.hidden_king && self.check {
            return Err(RulesError(
                "hidden_king needs check = false: a hidden king cannot be protected from check",
            ));
        }
        if self.repetition_count < 2 {
            return Err(RulesError("repetition_count must be at least 2"));
        }
        if self.no_capture_plies == Some(0) {
            return Err(RulesError("no_capture_plies must be positive or null"));
        }
        Ok(())
    }
}

/// Switches that do not fit together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError(pub &'static str);

impl core::fmt::Display for RulesError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "invalid rules: {}", self.0)
    }
}

impl std::error::Error for RulesError {}
