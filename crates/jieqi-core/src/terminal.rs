//! The end of a game: the one classifier of every rule that ends one — a king captured, no legal
//! move (checkmate or stalemate), a repetition (with perpetual check), the no-capture limit.
//!
//! The referee ([`crate::Game`]) and every engine ask [`classify`] (or [`classify_before_moves`],
//! the same answer for a caller that generates the moves itself), so that "is the game over, and
//! who won" has one answer everywhere. What differs between callers is said by the arguments:
//!
//! - **The history.** Repetition needs the positions since the last irreversible move (a capture
//!   or a reveal: no position before one can recur after it). They are a slice of
//!   [`HistoryEntry`] — each position's Zobrist key and whether its side to move is in check, that
//!   is whether the move into it gave check — oldest first, the position being classified last.
//!   [`RepetitionHistory`] keeps such a window along a game or a search path (push, pop,
//!   truncate) and [`RepetitionHistory::of_view`] rebuilds it from a player's view. A caller
//!   without a history (a playout) passes an empty slice and gets no repetitions.
//! - **The count.** The referee ends the game when a position occurs
//!   [`Rules::repetition_count`] times (threefold). A search usually scores the *first* return to a
//!   position (count 2), as both sides could repeat it again: alpha-beta and ISMCTS do.
//!
//! A repetition is classified on the cycle between the `count`-th last occurrence of the position
//! and now: under [`PerpetualCheck::Loses`], a side that gave check with every one of its moves in
//! it, while the other side did not, loses; otherwise it is a draw. Positions are the same when
//! their keys are ([`Position::hash`]: board, side to move, pools); within one window the pools do
//! not change, so keys taken from any one holder's positions (a player's view, the referee's truth
//! or a determinization) compare alike.

use crate::{Color, PerpetualCheck, Position, Rules, Setup, View};

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

impl Outcome {
    /// A win for `winner`.
    pub const fn win(winner: Color, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
}

/// One position of a game's reversible stretch, as the repetition rule sees it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HistoryEntry {
    /// The position's Zobrist key ([`Position::hash`]).
    pub hash: u64,
    /// Whether its side to move is in check, that is whether the move into it gave check. Only
    /// read under [`PerpetualCheck::Loses`]; a caller may leave it `false` otherwise.
    pub in_check: bool,
}

impl HistoryEntry {
    /// The entry of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> HistoryEntry {
        HistoryEntry {
            hash: pos.hash(),
            in_check: pos.in_check(),
        }
    }
}

/// The positions of a game (or of a game and a search path) since the last irreversible move,
/// oldest first: a stack whose [`window`](RepetitionHistory::window) is what [`classify`] reads.
/// Popping or truncating restores the window of the shorter stack, so a search can push a
/// position when it makes a move and pop it when it takes the move back. Pushing allocates only
/// when the stack outgrows its capacity.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RepetitionHistory {
    entries: Vec<HistoryEntry>,
    /// Per entry, the index of the first entry of its window.
    floors: Vec<u32>,
}

impl RepetitionHistory {
    /// An empty history.
    pub fn new() -> RepetitionHistory {
        RepetitionHistory::default()
    }

    /// An empty history with room for `n` positions.
    pub fn with_capacity(n: usize) -> RepetitionHistory {
        RepetitionHistory {
            entries: Vec::with_capacity(n),
            floors: Vec::with_capacity(n),
        }
    }

    /// A history holding only `pos`.
    pub fn starting_at(pos: &Position) -> RepetitionHistory {
        let mut h = RepetitionHistory::with_capacity(64);
        h.push(HistoryEntry::of(pos), true);
        h
    }

    /// The history a player can know: the positions of its view's game since the last
    /// irreversible move, the view's current position last. They are rebuilt by taking back the
    /// view's trailing moves that neither revealed nor captured (at most
    /// [`Position::halfmoves`] of them), each earlier position through [`Setup`] and
    /// [`Position::from_setup`]; the rebuilding stops early where the history is shorter (a view
    /// set up from a FEN) or a move cannot be taken back.
    pub fn of_view(view: &View) -> RepetitionHistory {
        let pos = view.position();
        let history = view.history();
        let mut k = 0;
        while k < history.len()
            && (k as u32) < pos.halfmoves()
            && history[history.len() - 1 - k].reveal.is_none()
        {
            k += 1;
        }
        let mut setup: Setup = pos.to_setup();
        let mut earlier = Vec::with_capacity(k + 1);
        earlier.push(HistoryEntry::of(pos));
        for pm in history.iter().rev().take(k) {
            let m = pm.mv;
            if m.from == m.to || setup.get(m.from).is_some() {
                break;
            }
            let piece = setup.get(m.to);
            setup.set(m.from, piece);
            setup.set(m.to, None);
            setup.turn = !setup.turn;
            setup.halfmoves = setup.halfmoves.saturating_sub(1);
            if setup.turn == Color::Black {
                setup.fullmoves = setup.fullmoves.saturating_sub(1).max(1);
            }
            match Position::from_setup(&setup, pos.rules()) {
                Ok(p) => earlier.push(HistoryEntry::of(&p)),
                Err(_) => break,
            }
        }
        let mut h = RepetitionHistory::with_capacity(earlier.len() + 64);
        for (i, e) in earlier.into_iter().rev().enumerate() {
            h.push(e, i == 0);
        }
        h
    }

    /// Pushes the position after a move; `irreversible`: the move captured or revealed (or this
    /// is the first position), so no cycle reaches back across it.
    #[inline]
    pub fn push(&mut self, entry: HistoryEntry, irreversible: bool) {
        let floor = if irreversible {
            self.entries.len() as u32
        } else {
            self.floors.last().copied().unwrap_or(0)
        };
        self.entries.push(entry);
        self.floors.push(floor);
    }

    /// Pops the last position (when a search takes its move back).
    #[inline]
    pub fn pop(&mut self) -> Option<HistoryEntry> {
        self.floors.pop();
        self.entries.pop()
    }

    /// Keeps the first `len` positions.
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.entries.truncate(len);
        self.floors.truncate(len);
    }

    /// Number of positions held.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no position is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The last position.
    #[inline]
    pub fn last(&self) -> Option<&HistoryEntry> {
        self.entries.last()
    }

    /// The positions since the last irreversible move, the last position included (empty when the
    /// history is).
    #[inline]
    pub fn window(&self) -> &[HistoryEntry] {
        let floor = self.floors.last().map_or(0, |&f| f as usize);
        &self.entries[floor..]
    }
}

/// Whether the rules' no-capture limit is reached at `pos` (a draw, unless the side to move has no
/// legal move).
#[inline]
pub fn no_capture_limit(pos: &Position) -> bool {
    pos.rules()
        .no_capture_plies
        .is_some_and(|limit| pos.halfmoves() >= limit)
}

/// Whether the last position of `window` (positions since the last irreversible move, oldest
/// first; its side to move is `turn`) occurs for the `count`-th time in it (a `count` below 2
/// counts as 2), and what the repetition means: the cycle from the `count`-th last occurrence to
/// now is a loss for a side that gave check with every one of its moves in it while the other did
/// not, when `perpetual` is [`PerpetualCheck::Loses`]; otherwise a draw.
#[inline]
pub fn repetition(
    window: &[HistoryEntry],
    count: u32,
    turn: Color,
    perpetual: PerpetualCheck,
) -> Option<Outcome> {
    let n = window.len();
    let h = window.last()?.hash;
    let count = count.max(2);
    let mut seen = 1;
    // A position recurs with the same side to move, so an even number of plies later.
    let mut i = n - 1;
    while i >= 2 {
        i -= 2;
        if window[i].hash == h {
            seen += 1;
            if seen == count {
                return Some(cycle_outcome(&window[i + 1..], turn, perpetual));
            }
        }
    }
    None
}

/// What the repetition whose cycle is `cycle` means: the positions after the first occurrence up
/// to the last one (whose side to move is `turn`), each flag saying whether the move into it gave
/// check.
#[inline]
fn cycle_outcome(cycle: &[HistoryEntry], turn: Color, perpetual: PerpetualCheck) -> Outcome {
    if perpetual == PerpetualCheck::Loses {
        // The move into the last position was the opponent's; movers alternate backwards.
        let (mut by_them, mut by_us) = (true, true);
        for (k, e) in cycle.iter().rev().enumerate() {
            if k % 2 == 0 {
                by_them &= e.in_check;
            } else {
                by_us &= e.in_check;
            }
        }
        match (by_them, by_us) {
            (true, false) => return Outcome::win(turn, Reason::PerpetualCheck),
            (false, true) => return Outcome::win(!turn, Reason::PerpetualCheck),
            _ => {}
        }
    }
    Outcome::draw(Reason::Repetition)
}

/// Whether the game is over at `pos`, reached by a move that took a king when `took_king` (a
/// face-up king, or a hidden piece whose identity is the king, which the public board may not
/// show), with `window` the positions since the last irreversible move ending at `pos` (see the
/// module documentation; empty: no repetition), a position ending the game at its `count`-th
/// occurrence.
///
/// The rules in the referee's order: a captured or lost king wins for its opponent; a side to move
/// without a legal move loses (checkmate, or stalemate); then a repetition (perpetual check, or a
/// draw); then the no-capture limit (a draw).
pub fn classify(
    pos: &Position,
    took_king: bool,
    window: &[HistoryEntry],
    count: u32,
) -> Option<Outcome> {
    let decided = classify_before_moves(pos, took_king, window, count);
    if decided.is_some() {
        return decided;
    }
    stuck(pos)
}

/// [`classify`] for a caller that generates the side to move's moves next and scores an empty
/// list as the mover's loss: the same answer, except that a position which no rule but the
/// missing legal move ends is not detected (`None`). It looks for a legal move only when a
/// repetition or the no-capture limit would end the game, where a mate or stalemate outranks
/// the draw.
#[inline]
pub fn classify_before_moves(
    pos: &Position,
    took_king: bool,
    window: &[HistoryEntry],
    count: u32,
) -> Option<Outcome> {
    let turn = pos.turn();
    if took_king || pos.king_lost(turn) {
        return Some(Outcome::win(!turn, Reason::KingCaptured));
    }
    let rules: &Rules = pos.rules();
    let drawn = match repetition(window, count, turn, rules.perpetual_check) {
        Some(o) => Some(o),
        None if no_capture_limit(pos) => Some(Outcome::draw(Reason::NoCaptureLimit)),
        None => None,
    };
    drawn.map(|o| stuck(pos).unwrap_or(o))
}

/// The loss of a side to move without a legal move: checkmate or stalemate.
#[inline]
fn stuck(pos: &Position) -> Option<Outcome> {
    if pos.has_legal_move() {
        return None;
    }
    let reason = if pos.in_check() {
        Reason::Checkmate
    } else {
        Reason::Stalemate
    };
    Some(Outcome::win(!pos.turn(), reason))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window of positions with keys `hashes` and check flags `checks`.
    fn window(hashes: &[u64], checks: &[bool]) -> Vec<HistoryEntry> {
        hashes
            .iter()
            .zip(checks)
            .map(|(&hash, &in_check)| HistoryEntry { hash, in_check })
            .collect()
    }

    const LOSES: PerpetualCheck = PerpetualCheck::Loses;
    const RED: Color = Color::Red;
    const DRAW: Option<Outcome> = Some(Outcome::draw(Reason::Repetition));

    fn perpetual(winner: Color) -> Option<Outcome> {
        Some(Outcome::win(winner, Reason::PerpetualCheck))
    }

    #[test]
    fn repetition_classifies_perpetual_check() {
        // A four-ply cycle A B C D A; Red to move at the end (at A) moved into B and D, Black into
        // C and A.
        let h = [1, 2, 3, 4, 1];
        let none = [false; 5];
        assert_eq!(repetition(&window(&h, &none), 2, RED, LOSES), DRAW);
        // Black checked with both its moves (into C and A): it loses.
        let black = [false, false, true, false, true];
        assert_eq!(
            repetition(&window(&h, &black), 2, RED, LOSES),
            perpetual(Color::Red)
        );
        // The same cycle with Black to move at the end: the checker is Red.
        assert_eq!(
            repetition(&window(&h, &black), 2, Color::Black, LOSES),
            perpetual(Color::Black)
        );
        // Perpetual check as an ordinary repetition.
        assert_eq!(
            repetition(&window(&h, &black), 2, RED, PerpetualCheck::Draws),
            DRAW
        );
        // Only one of its moves checked: an ordinary repetition.
        let once = [false, false, true, false, false];
        assert_eq!(repetition(&window(&h, &once), 2, RED, LOSES), DRAW);
        // Red checked with both of its moves (into B and D): it loses.
        let red = [false, true, false, true, false];
        assert_eq!(
            repetition(&window(&h, &red), 2, RED, LOSES),
            perpetual(Color::Black)
        );
        // Both sides checked throughout: a draw.
        let both = [false, true, true, true, true];
        assert_eq!(repetition(&window(&h, &both), 2, RED, LOSES), DRAW);
        // The first occurrence's own flag (the move into it) is outside the cycle.
        let first = [true, false, true, false, true];
        assert_eq!(
            repetition(&window(&h, &first), 2, RED, LOSES),
            perpetual(Color::Red)
        );
        // No repetition: a different position, an odd distance, or the second occurrence when
        // three are needed.
        assert_eq!(
            repetition(&window(&[1, 2, 3, 4, 5], &none), 2, RED, LOSES),
            None
        );
        assert_eq!(
            repetition(&window(&[1, 2, 3, 1], &none), 2, RED, LOSES),
            None
        );
        assert_eq!(repetition(&window(&h, &none), 3, RED, LOSES), None);
        assert_eq!(repetition(&[], 2, RED, LOSES), None);
        // The nearest earlier occurrence decides at count 2: A B A C A, checks only into the last
        // cycle.
        let h2 = [1, 2, 1, 3, 1];
        let late = [false, false, false, true, false];
        assert_eq!(
            repetition(&window(&h2, &late), 2, RED, LOSES),
            perpetual(Color::Black)
        );
        // At count 3 the cycle runs from the first occurrence: Red's move into B did not check.
        assert_eq!(repetition(&window(&h2, &late), 3, RED, LOSES), DRAW);
        // A count below 2 counts as 2.
        assert_eq!(repetition(&window(&h, &none), 0, RED, LOSES), DRAW);
        assert_eq!(repetition(&window(&[1], &none), 1, RED, LOSES), None);
    }

    #[test]
    fn a_history_window_starts_after_the_last_irreversible_move() {
        let e = |hash| HistoryEntry {
            hash,
            in_check: false,
        };
        let mut h = RepetitionHistory::new();
        assert!(h.window().is_empty());
        h.push(e(1), true);
        h.push(e(2), false);
        h.push(e(3), false);
        assert_eq!(h.window().len(), 3);
        h.push(e(4), true);
        h.push(e(5), false);
        assert_eq!(h.window(), &[e(4), e(5)]);
        assert_eq!(h.pop(), Some(e(5)));
        assert_eq!(h.pop(), Some(e(4)));
        assert_eq!(h.window(), &[e(1), e(2), e(3)]);
        h.truncate(1);
        assert_eq!(h.window(), &[e(1)]);
        assert_eq!(h.len(), 1);
        h.truncate(0);
        assert!(h.is_empty() && h.window().is_empty() && h.pop().is_none());
    }
}
