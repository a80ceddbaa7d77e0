//! The referee's game: the true position, the deal, the full history and the outcome.

use crate::{
    ByColor, CaptureReveal, Color, Deal, Determinization, Move, MoveList, Occupant, PerpetualCheck,
    Piece, PlayError, PlayedMove, Pool, Position, PositionError, Role, Rules, View,
};

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Reason {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check and has no legal move: it loses (Xiangqi and Jieqi rule).
    Stalemate,
    /// A king was captured (rules without check).
    KingCaptured,
    /// The no-capture ply limit was reached: draw.
    NoCaptureLimit,
    /// The same position occurred the repetition count of times: draw.
    Repetition,
    /// A side gave check with every one of its moves through a repetition: it loses.
    PerpetualCheck,
}

impl Reason {
    /// Kebab-case name, as in records.
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::KingCaptured => "king-captured",
            Reason::NoCaptureLimit => "no-capture-limit",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual-check",
        }
    }
}

/// How a game ended: the winner (`None` for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// The winning side, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
}

/// One ply of a game as the referee saw it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Side that moved.
    pub mover: Color,
    /// The move with its true reveal identity and, for a captured hidden piece, its true identity.
    pub played: PlayedMove,
    /// The captured piece with its true identity.
    pub captured: Option<Piece>,
    /// Whether the captured piece was hidden.
    pub captured_hidden: bool,
    /// Whether the move left the opponent in check.
    pub check: bool,
}

impl Record {
    /// Whether `observer` learns the identity of a hidden piece this move captured.
    pub fn capture_known_to(&self, observer: Color, rule: CaptureReveal) -> bool {
        self.captured_hidden
            && match rule {
                CaptureReveal::Capturer => observer == self.mover,
                CaptureReveal::Both => true,
                CaptureReveal::Nobody => false,
            }
    }

    /// The move as `observer` is entitled to see it: the reveal always, the captured identity only
    /// when the rules tell `observer`.
    pub fn seen_by(&self, observer: Color, rule: CaptureReveal) -> PlayedMove {
        let mut pm = self.played;
        if !self.capture_known_to(observer, rule) {
            pm.capture = None;
        }
        pm
    }
}

/// An illegal request to the referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is already over.
    GameOver,
    /// The move is not legal.
    Illegal(PlayError),
}

impl core::fmt::Display for GameError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GameError::GameOver => write!(f, "the game is over"),
            GameError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GameError {}

/// The referee: holds the truth (every hidden identity), the history with reveal and capture
/// identities, each player's knowledge, and decides the outcome. Engines never see a `Game`; they
/// get a [`View`] from [`Game::view`].
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    deal: Option<Deal>,
    start: Determinization,
    truth: Determinization,
    records: Vec<Record>,
    /// Hash of the true position before the first ply and after every ply.
    hashes: Vec<u64>,
    /// Index into `hashes` of the position after the last irreversible ply (capture or reveal).
    irreversible: usize,
    /// Per observer, per owner: identities of captured hidden pieces the observer does not know.
    unknown: ByColor<ByColor<Pool>>,
    /// Per observer, per owner: identities of captured hidden pieces the observer learned.
    learned: ByColor<ByColor<Pool>>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from the rules' start position and a deal.
    ///
    /// # Panics
    /// Panics if the deal does not fit the rules (16 identities a side exactly when kings are
    /// hidden), or if the rules are inconsistent.
    pub fn new(rules: Rules, deal: Deal) -> Game {
        assert_eq!(
            deal.hidden_king(),
            rules.hidden_king,
            "deal does not fit the rules"
        );
        let pos = Position::start(&rules);
        let assignment: Vec<_> = if rules.has_hidden() {
            Color::ALL
                .into_iter()
                .flat_map(|c| deal.assignments(c).collect::<Vec<_>>())
                .collect()
        } else {
            Vec::new()
        };
        let truth = Determinization::new(pos, assignment).expect("a deal fits the start position");
        let mut game = Game::from_determinization(truth);
        game.deal = Some(deal);
        game
    }

    /// A game from any position whose hidden identities are fixed.
    pub fn from_determinization(truth: Determinization) -> Game {
        let rules = *truth.position().rules();
        let mut game = Game {
            rules,
            deal: None,
            start: truth.clone(),
            hashes: vec![truth.position().hash()],
            truth,
            records: Vec::new(),
            irreversible: 0,
            unknown: ByColor::default(),
            learned: ByColor::default(),
            outcome: None,
        };
        game.outcome = game.terminal_outcome();
        game
    }

    /// A game from a position without hidden pieces (a Xiangqi FEN, an endgame study).
    ///
    /// # Errors
    /// The position has hidden pieces: use [`Game::from_determinization`] to give their identities.
    pub fn from_position(pos: Position) -> Result<Game, PositionError> {
        Ok(Game::from_determinization(Determinization::new(pos, [])?))
    }

    /// The rule set.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The deal, for games started with one.
    pub fn deal(&self) -> Option<&Deal> {
        self.deal.as_ref()
    }

    /// The true current position (public board; pools are the identities still hidden on board).
    pub fn position(&self) -> &Position {
        self.truth.position()
    }

    /// The truth: every hidden identity. For the referee, replays and omniscient analysis only.
    pub fn truth(&self) -> &Determinization {
        &self.truth
    }

    /// The starting truth.
    pub fn start(&self) -> &Determinization {
        &self.start
    }

    /// Side to move.
    pub fn turn(&self) -> Color {
        self.truth.turn()
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        self.records.len()
    }

    /// Every ply so far.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Legal moves of the side to move (none once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome.is_some() {
            MoveList::new()
        } else {
            self.truth.legal_moves()
        }
    }

    /// Plays a move for the side to move, resolving its reveal and capture from the truth, and
    /// decides whether the game is over.
    ///
    /// # Errors
    /// The game is over or the move is illegal; nothing changes.
    pub fn play(&mut self, m: Move) -> Result<&Record, GameError> {
        if self.outcome.is_some() {
            return Err(GameError::GameOver);
        }
        if !self.truth.position().is_legal(m) {
            return Err(GameError::Illegal(PlayError::IllegalMove(m)));
        }
        let mover = self.turn();
        let before = self.truth.position();
        let captured_occ = if m.from == m.to {
            None
        } else {
            before.occupant(m.to)
        };
        let (played, _) = self.truth.make(m);
        let captured = match captured_occ {
            None => None,
            Some(Occupant::Revealed(p)) => Some(p),
            Some(Occupant::Hidden(c)) => Some(Piece {
                color: c,
                role: played.capture.expect("the truth knows every identity"),
            }),
        };
        let captured_hidden = matches!(captured_occ, Some(Occupant::Hidden(_)));
        let check = self.truth.position().in_check();
        let record = Record {
            mover,
            played,
            captured,
            captured_hidden,
            check,
        };
        if captured_hidden {
            let role = played.capture.expect("known");
            for observer in Color::ALL {
                let book = if record.capture_known_to(observer, self.rules.capture_reveal) {
                    &mut self.learned
                } else {
                    &mut self.unknown
                };
                book[observer][!mover].0[role.index()] += 1;
            }
        }
        self.records.push(record);
        self.hashes.push(self.truth.position().hash());
        if captured.is_some() || played.reveal.is_some() {
            self.irreversible = self.hashes.len() - 1;
        }
        self.outcome = self.decide(&record);
        Ok(self.records.last().expect("just pushed"))
    }

    /// The outcome of a position with no history: no legal move, or a lost king.
    fn terminal_outcome(&self) -> Option<Outcome> {
        let pos = self.truth.position();
        let to_move = pos.turn();
        if pos.king_lost(to_move) {
            return Some(Outcome {
                winner: Some(!to_move),
                reason: Reason::KingCaptured,
            });
        }
        if !pos.has_legal_move() {
            let reason = if pos.in_check() {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Some(Outcome {
                winner: Some(!to_move),
                reason,
            });
        }
        None
    }

    fn decide(&self, last: &Record) -> Option<Outcome> {
        if last.captured.is_some_and(|p| p.role == Role::King) {
            return Some(Outcome {
                winner: Some(last.mover),
                reason: Reason::KingCaptured,
            });
        }
        if let Some(o) = self.terminal_outcome() {
            return Some(o);
        }
        if let Some(o) = self.repetition() {
            return Some(o);
        }
        let pos = self.truth.position();
        if self
            .rules
            .no_capture_plies
            .is_some_and(|limit| pos.halfmoves() >= limit)
        {
            return Some(Outcome {
                winner: None,
                reason: Reason::NoCaptureLimit,
            });
        }
        None
    }

    /// Threefold (or n-fold) repetition since the last irreversible ply, with perpetual check.
    fn repetition(&self) -> Option<Outcome> {
        let now = self.hashes.len() - 1;
        let h = self.hashes[now];
        let window = &self.hashes[self.irreversible..=now];
        let count = window.iter().filter(|&&x| x == h).count() as u32;
        if count < self.rules.repetition_count {
            return None;
        }
        let first = self.irreversible + window.iter().position(|&x| x == h).expect("present");
        // The cycle: every ply from the first occurrence to now. A side "checks perpetually" when
        // every one of its moves in it gave check.
        let cycle = &self.records[first..now];
        let perpetual = |c: Color| {
            let mut moves = cycle.iter().filter(|r| r.mover == c).peekable();
            moves.peek().is_some() && moves.all(|r| r.check)
        };
        let (red, black) = (perpetual(Color::Red), perpetual(Color::Black));
        let winner = match (self.rules.perpetual_check, red, black) {
            (PerpetualCheck::Loses, true, false) => Some(Color::Black),
            (PerpetualCheck::Loses, false, true) => Some(Color::Red),
            _ => None,
        };
        Some(match winner {
            Some(w) => Outcome {
                winner: Some(w),
                reason: Reason::PerpetualCheck,
            },
            None => Outcome {
                winner: None,
                reason: Reason::Repetition,
            },
        })
    }

    /// What `player` knows: its information set. It has no way to reach the hidden truth.
    pub fn view(&self, player: Color) -> View {
        let mut pos = self.truth.position().clone();
        for owner in Color::ALL {
            let unknown = self.unknown[player][owner];
            for r in Role::ALL {
                pos.pools[owner].0[r.index()] += unknown.get(r);
            }
        }
        pos.hash = pos.compute_hash();
        let history = self
            .records
            .iter()
            .map(|r| r.seen_by(player, self.rules.capture_reveal))
            .collect();
        View::new(player, pos, self.learned[player], history, None)
    }

    /// An omniscient view for `player`: complete knowledge, and sampling returns the truth. For
    /// measuring how much hidden information is worth, never for fair play.
    pub fn omniscient_view(&self, player: Color) -> View {
        let pos = self.truth.position().clone();
        let learned = ByColor::new_with(|owner| {
            let mut p = self.learned[player][owner];
            for r in Role::ALL {
                p.0[r.index()] += self.unknown[player][owner].get(r);
            }
            p
        });
        let history = self.records.iter().map(|r| r.played).collect();
        View::new(player, pos, learned, history, Some(self.truth.clone()))
    }
}
