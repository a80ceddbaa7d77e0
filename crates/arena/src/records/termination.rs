//! How a game ended, as records name it: the rules' reasons and the harness's own (caps, engine
//! failures, time).

use jieqi_core::Reason;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// By the rules.
    Rules(ReasonKey),
    /// Draw by the `--max-plies` cap.
    MaxPlies,
    /// The loser answered an illegal move.
    IllegalMove,
    /// The loser's engine panicked.
    EnginePanic,
    /// The loser's engine returned an error.
    EngineError,
    /// The loser's engine exceeded its hard time limit for one move (`--move-timeout`, or an
    /// external engine's own `timeout=`).
    Timeout,
    /// The loser's clock ran out (its move took longer than its time left plus the margin).
    TimeForfeit,
    /// The loser's external engine process died or closed its output.
    EngineCrash,
    /// The loser's external engine broke the protocol (a malformed answer).
    ProtocolError,
    /// The loser resigned by `--resign`: its engine's scores said it was lost.
    AdjudicationResign,
    /// Drawn by `--draw`: both engines' scores said it was even.
    AdjudicationDraw,
}

/// [`Reason`] with an order, for counting.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReasonKey(u8);

impl ReasonKey {
    const ALL: [Reason; 6] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::KingCaptured,
        Reason::NoCaptureLimit,
        Reason::Repetition,
        Reason::PerpetualCheck,
    ];

    pub(crate) fn new(r: Reason) -> ReasonKey {
        ReasonKey(Self::ALL.iter().position(|x| *x == r).expect("listed") as u8)
    }

    /// The rules' reason.
    pub fn reason(self) -> Reason {
        Self::ALL[self.0 as usize]
    }
}

impl Termination {
    /// Kebab-case name, as in `games.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Rules(r) => r.reason().name(),
            Termination::MaxPlies => "max-plies",
            Termination::IllegalMove => "illegal-move",
            Termination::EnginePanic => "engine-panic",
            Termination::EngineError => "engine-error",
            Termination::Timeout => "timeout",
            Termination::TimeForfeit => "time-forfeit",
            Termination::EngineCrash => "engine-crash",
            Termination::ProtocolError => "protocol-error",
            Termination::AdjudicationResign => "adjudication-resign",
            Termination::AdjudicationDraw => "adjudication-draw",
        }
    }

    /// Parses [`Termination::name`].
    pub fn from_name(s: &str) -> Option<Termination> {
        ReasonKey::ALL
            .iter()
            .find(|r| r.name() == s)
            .map(|r| Termination::Rules(ReasonKey::new(*r)))
            .or(match s {
                "max-plies" => Some(Termination::MaxPlies),
                "illegal-move" => Some(Termination::IllegalMove),
                "engine-panic" => Some(Termination::EnginePanic),
                "engine-error" => Some(Termination::EngineError),
                "timeout" => Some(Termination::Timeout),
                "time-forfeit" => Some(Termination::TimeForfeit),
                "engine-crash" => Some(Termination::EngineCrash),
                "protocol-error" => Some(Termination::ProtocolError),
                "adjudication-resign" => Some(Termination::AdjudicationResign),
                "adjudication-draw" => Some(Termination::AdjudicationDraw),
                _ => None,
            })
    }

    /// Whether the arena's adjudication ended the game (`--resign`, `--draw`).
    pub fn is_adjudication(self) -> bool {
        matches!(
            self,
            Termination::AdjudicationResign | Termination::AdjudicationDraw
        )
    }

    /// Whether an engine failed (as opposed to the game ending on the board). Losing on time is
    /// not a failure of the engine: it is how clock games end.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Termination::IllegalMove
                | Termination::EnginePanic
                | Termination::EngineError
                | Termination::Timeout
                | Termination::EngineCrash
                | Termination::ProtocolError
        )
    }
}

impl serde::Serialize for Termination {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Termination {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Termination, D::Error> {
        let text = String::deserialize(d)?;
        Termination::from_name(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown termination '{text}'")))
    }
}
