//! The referee's game: the true position, the deal, the full history and the outcome.

use crate::{
    ByColor, CaptureReveal, Color, Deal, Determinization, HistoryEntry, Move, MoveList, Occupant,
    Outcome, Piece, PlayError, PlayedMove, Pool, Position, PositionError, RepetitionHistory, Role,
    Rules, View, classify,
};

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
    /// The public start position (both players' pools there) when it is not the rules' start:
    /// the start of every view's history.
    public_start: Option<Box<Position>>,
    truth: Determinization,
    records: Vec<Record>,
    /// The true position before the first ply and after every ply, for the repetition rule.
    history: RepetitionHistory,
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
            public_start: crate::view::non_standard_start(truth.position()),
            start: truth.clone(),
            history: RepetitionHistory::starting_at(truth.position()),
            truth,
            records: Vec::new(),
            unknown: ByColor::default(),
            learned: ByColor::default(),
            outcome: None,
        };
        game.outcome = classify(
            game.truth.position(),
            false,
            game.history.window(),
            rules.repetition_count,
        );
        game
    }

    /// A game from a public position — an opening — whose hidden identities were drawn from its
    /// pools ([`View::sample`] of a view made from the position): the identities the draw gave to
    /// captured hidden pieces (pools holding more identities than hidden pieces stand on the
    /// board) stay unknown to both players, as the position said. Every view's history starts
    /// at the public position ([`View::start_position`]).
    pub fn from_opening(truth: Determinization) -> Game {
        let captured = *truth.captured_unknown();
        let mut public = truth.position().clone();
        for owner in Color::ALL {
            for r in Role::ALL {
                public.pools[owner].0[r.index()] += captured[owner].get(r);
            }
        }
        public.hash = public.compute_hash();
        let mut game = Game::from_determinization(truth);
        game.unknown = ByColor::new_with(|_| captured);
        game.public_start = crate::view::non_standard_start(&public);
        game
    }

    /// The public start position when it is not the rules' start (see [`View::start_position`]).
    pub fn public_start(&self) -> Option<&Position> {
        self.public_start.as_deref()
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
        let pos = self.truth.position();
        let irreversible = captured.is_some() || played.reveal.is_some();
        let entry = HistoryEntry {
            hash: pos.hash(),
            in_check: check,
        };
        self.history.push(entry, irreversible);
        let took_king = captured.is_some_and(|p| p.role == Role::King);
        self.outcome = classify(
            pos,
            took_king,
            self.history.window(),
            self.rules.repetition_count,
        );
        Ok(self.records.last().expect("just pushed"))
    }

    /// The positions since the last irreversible ply (capture or reveal), the current one last:
    /// what the repetition rule reads.
    pub fn repetition_window(&self) -> &[HistoryEntry] {
        self.history.window()
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
        View::new(
            player,
            pos,
            self.learned[player],
            history,
            None,
            self.public_start.clone(),
        )
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
        View::new(
            player,
            pos,
            learned,
            history,
            Some(self.truth.clone()),
            self.public_start.clone(),
        )
    }
}
