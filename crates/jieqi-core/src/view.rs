//! A player's information set: what one side knows, and sampling of what it does not.

use rand_core::Rng;

use crate::deal::shuffle;
use crate::{
    Belief, ByColor, Color, Determinization, FenError, Knowledge, MoveList, PlayError, PlayedMove,
    Pool, Position, Role, Rules, Setup,
};

/// What one player knows: the public board, its pools (identities it has not seen, per side), the
/// hidden identities it learned by capturing, and the history it is entitled to.
///
/// A fair view holds nothing from which the hidden truth can be read: the only way to a full
/// position is [`View::sample`], which draws the unseen identities uniformly, and its
/// [`View::knowledge`] is [`Knowledge::FAIR`] (beliefs are the pools). An omniscient view (from
/// [`crate::Game::omniscient_view`]) returns the truth from `sample` instead, and its knowledge
/// holds every hidden identity; engines use the same code for both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    player: Color,
    pos: Position,
    learned: ByColor<Pool>,
    history: Vec<PlayedMove>,
    truth: Option<Determinization>,
    /// The public position `history` starts from, when it is not the rules' start position (a
    /// game from an opening or a study): both players' pools there, no hidden truth.
    start: Option<Box<Position>>,
}

impl View {
    pub(crate) fn new(
        player: Color,
        pos: Position,
        learned: ByColor<Pool>,
        history: Vec<PlayedMove>,
        truth: Option<Determinization>,
        start: Option<Box<Position>>,
    ) -> View {
        View {
            player,
            pos,
            learned,
            history,
            truth,
            start,
        }
    }

    /// A view from a FEN-level setup, as a GUI or protocol hands it over: the player is the side to
    /// move, the pools are its pools, and the JieqiBox captured field (if any) is what it learned.
    ///
    /// # Errors
    /// The setup is not a legal position.
    pub fn from_setup(setup: &Setup, rules: &Rules) -> Result<View, FenError> {
        let pos = Position::from_setup(setup, rules)?;
        let learned = setup.captured_hidden.unwrap_or_default();
        let start = non_standard_start(&pos);
        Ok(View {
            player: setup.turn,
            pos,
            learned,
            history: Vec::new(),
            truth: None,
            start,
        })
    }

    /// [`View::from_setup`] for `player`, who need not be the side to move: how a protocol front
    /// end builds the view of the side that moves after the game's moves (`position fen … moves
    /// …`, then [`View::apply`] for each). The captured field is taken as what `player` learned.
    ///
    /// # Errors
    /// The setup is not a legal position.
    pub fn from_setup_as(setup: &Setup, rules: &Rules, player: Color) -> Result<View, FenError> {
        let mut view = View::from_setup(setup, rules)?;
        view.player = player;
        Ok(view)
    }

    /// The player whose knowledge this is.
    pub fn player(&self) -> Color {
        self.player
    }

    /// The public position, with this player's pools.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The rule set.
    pub fn rules(&self) -> &Rules {
        self.pos.rules()
    }

    /// Legal moves of the side to move (they never depend on hidden identities).
    pub fn legal_moves(&self) -> MoveList {
        self.pos.legal_moves()
    }

    /// The public position the history starts from when it is not the rules' start position (a
    /// game from an opening, a view made from a FEN): what a protocol front end sends as
    /// `position fen START moves …`. `None`: the rules' start, [`Position::start`].
    pub fn start_position(&self) -> Option<&Position> {
        self.start.as_deref()
    }

    /// The moves so far, as this player saw them.
    pub fn history(&self) -> &[PlayedMove] {
        &self.history
    }

    /// Identities of captured hidden pieces this player learned, by owner.
    pub fn learned(&self) -> &ByColor<Pool> {
        &self.learned
    }

    /// How many captured hidden pieces of `owner` this player does not know the identity of: the
    /// pool identities not needed for the hidden pieces on the board.
    pub fn unknown_captured(&self, owner: Color) -> u32 {
        self.pos.pool(owner).total() - self.pos.hidden_count(owner)
    }

    /// Brings the view up to date with the next move, as this player was told it: the reveal always,
    /// the captured hidden identity only when the rules tell this player (see
    /// [`crate::Record::seen_by`]). Keeping a view this way costs O(1) per ply and gives the same
    /// view as [`crate::Game::view`]. An omniscient view advances its truth and resolves the
    /// identities itself; identities given in `pm` must then match the truth.
    ///
    /// # Errors
    /// The move does not fit the view (illegal, or identities not in the pools); the view is
    /// unchanged.
    pub fn apply(&mut self, pm: PlayedMove) -> Result<(), PlayError> {
        let mover = self.pos.turn();
        let captures_hidden = pm.mv.from != pm.mv.to && self.pos.is_hidden(pm.mv.to);
        if let Some(truth) = &mut self.truth {
            // Omniscient: the truth moves on; the public position is the truth's.
            let mut next = truth.clone();
            let (resolved, _) = next.make(pm.mv);
            if pm.reveal.is_some_and(|r| resolved.reveal != Some(r))
                || pm.capture.is_some_and(|r| resolved.capture != Some(r))
            {
                return Err(PlayError::RevealMismatch(pm.mv));
            }
            self.pos.play(resolved)?;
            *truth = next;
            if let (true, Some(r)) = (captures_hidden, resolved.capture) {
                self.learned[!mover].0[r.index()] += 1;
            }
            self.history.push(resolved);
            return Ok(());
        }
        self.pos.play(pm)?;
        if let (true, Some(r)) = (captures_hidden, pm.capture) {
            self.learned[!mover].0[r.index()] += 1;
        }
        self.history.push(pm);
        Ok(())
    }

    /// Whether this is an omniscient view.
    pub fn is_omniscient(&self) -> bool {
        self.truth.is_some()
    }

    /// What this player knows of the hidden identities, for its position and every position
    /// searched from it: fair, nothing but the pools; omniscient, every hidden piece. Engines take
    /// their beliefs about hidden pieces from here (see [`Knowledge::belief`]).
    pub fn knowledge(&self) -> Knowledge {
        match &self.truth {
            None => Knowledge::FAIR,
            Some(t) => Knowledge::omniscient(|sq| t.identity(sq)),
        }
    }

    /// The belief about the piece on `sq` of the view's position, or `None` when no hidden piece
    /// stands there: fair, its owner's pool (each identity in proportion to its count);
    /// omniscient, its identity.
    pub fn belief(&self, sq: crate::Square) -> Option<Belief> {
        self.knowledge().belief(&self.pos, sq)
    }

    /// Draws a full determinization from the exact posterior: every assignment of this player's
    /// unseen identities (per side, its pool) to that side's hidden squares and its unknown captured
    /// slots is equally likely, except that a hidden king (seed-000 variant) is never put among the
    /// captured pieces, since its capture would have ended the game. Because hidden pieces move by their square, not their identity,
    /// nothing a player observes favours one assignment over another, so this is exact Bayes.
    /// An omniscient view returns the truth.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Determinization {
        if let Some(t) = &self.truth {
            return t.clone();
        }
        let mut ids = [0u8; 90];
        let mut captured = ByColor {
            red: Pool::EMPTY,
            black: Pool::EMPTY,
        };
        let mut pos = self.pos.clone();
        for color in Color::ALL {
            let pool = *self.pos.pool(color);
            let mut bag = [Role::Chariot; 16];
            let mut n = 0;
            for r in Role::ALL {
                for _ in 0..pool.get(r) {
                    bag[n] = r;
                    n += 1;
                }
            }
            shuffle(&mut bag[..n], rng);
            // A hidden king cannot be among the captured pieces while the game goes on (its
            // capture would have ended it), so condition on it standing on the board: moving it
            // from a captured slot to a uniform board slot keeps every allowed assignment equally
            // likely.
            let on_board = self.pos.hidden_count(color) as usize;
            if on_board > 0 {
                if let Some(k) = bag[on_board..n].iter().position(|r| *r == Role::King) {
                    let j = crate::uniform_below(rng, on_board as u32) as usize;
                    bag.swap(on_board + k, j);
                }
            }
            let mut onboard = Pool::EMPTY;
            let mut i = 0;
            let mut bits = self.pos.occupied[color.index()];
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.pos.is_hidden(crate::Square::from_index(s)) {
                    ids[s] = bag[i] as u8 + 1;
                    onboard.0[bag[i].index()] += 1;
                    i += 1;
                }
            }
            for r in &bag[i..n] {
                captured[color].0[r.index()] += 1;
            }
            pos.pools[color] = onboard;
        }
        pos.hash = pos.compute_hash();
        Determinization::from_parts(pos, ids, captured)
    }
}

/// `pos` as a view's recorded start ([`View::start_position`]): `None` when it is its rules'
/// start position, which needs no recording.
pub(crate) fn non_standard_start(pos: &Position) -> Option<Box<Position>> {
    (pos.fen() != Position::start(pos.rules()).fen()).then(|| Box::new(pos.clone()))
}
