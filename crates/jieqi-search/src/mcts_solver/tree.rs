//! The search graph: decision nodes shared through a table keyed by position hash, their edges
//! in prior order, chance nodes and their outcomes, and the memory bound past which the tree
//! stops growing.

use jieqi_core::{Color, Move, MoveList, Occupant, PlayedMove, Role};

use crate::alphabeta::Branches;

use super::*;

/// A decision node: one position, shared through the table.
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub(super) visits: u32,
    /// Sum of values for the side to move.
    pub(super) sum: f64,
    pub(super) proof: Proof,
    /// The side to move is Red.
    pub(super) red: bool,
    pub(super) first_edge: u32,
    pub(super) len: u32,
}

pub(super) const UNSET: u8 = 0;
pub(super) const DECISION: u8 = 1;
pub(super) const CHANCE: u8 = 2;

/// A legal move of a decision node, in prior order.
#[derive(Copy, Clone, Debug)]
pub(super) struct Edge {
    pub(super) mv: Move,
    /// [`UNSET`] (never tried), [`DECISION`] (`child` is a node) or [`CHANCE`] (`child` is a
    /// chance node).
    pub(super) kind: u8,
    /// The identity a deterministic move reveals (an omniscient view's hidden mover).
    pub(super) reveal: Option<Role>,
    pub(super) child: u32,
}

/// A hidden-piece move's reveal: its outcomes are `outcomes[first..first + len]`.
#[derive(Clone, Debug)]
pub(super) struct Chance {
    pub(super) visits: u32,
    pub(super) first: u32,
    pub(super) len: u32,
    pub(super) total: u32,
}

/// One identity the hidden mover may reveal.
#[derive(Copy, Clone, Debug)]
pub(super) struct Outcome {
    pub(super) weight: u32,
    pub(super) reveal: Option<Role>,
    /// The move took the hidden enemy king in this outcome: an immediate win, no node.
    pub(super) king_win: bool,
    pub(super) child: u32,
}

/// One step of an iteration's path.
#[derive(Copy, Clone, Debug)]
pub(super) enum Step {
    Node(u32),
    Chance(u32),
}

/// How [`Search::best_edge`] ranks a move: class (win 2, open 1, lost 0), then keys within it.
pub(super) type Rank = (u8, i64, f64);

pub(super) type Table = crate::KeyMap<u32>;

impl Search<'_> {
    /// Approximate bytes in use.
    pub(super) fn used(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<Node>()
            + self.edges.capacity() * size_of::<Edge>()
            + self.chances.capacity() * size_of::<Chance>()
            + self.outcomes.capacity() * size_of::<Outcome>()
            + self.table.capacity() * (size_of::<(u64, u32)>() + 1)
    }

    pub(super) fn full(&self) -> bool {
        self.used() >= self.cap
    }

    /// Creates the node of the current position (its edges in prior order, one visit at its
    /// static value) and enters it in the table. Returns it and its value for its side to move.
    pub(super) fn create(&mut self) -> (u32, f64) {
        let pos = &self.pos;
        let red = pos.turn() == Color::Red;
        let idx = self.nodes.len() as u32;
        let first_edge = self.edges.len() as u32;
        let root = self.nodes.is_empty();
        let (proof, len, value) = if pos.king_lost(pos.turn()) {
            (Proof::Loss(0), 0, 0.0)
        } else {
            let mut moves = pos.legal_moves();
            if root && !self.root_filter.is_empty() {
                // The root: only the moves the front end allows (`go searchmoves`).
                moves = MoveList::new();
                for &m in &self.root_filter {
                    moves.push(m);
                }
            }
            if moves.is_empty() {
                (Proof::Loss(0), 0, 0.0)
            } else {
                let n = moves.len();
                let mut keyed = [(0i32, 0u16); jieqi_core::MAX_MOVES];
                for (i, &m) in moves.iter().enumerate() {
                    keyed[i] = (self.prior_of(m), i as u16);
                }
                keyed[..n].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                for &(_, i) in &keyed[..n] {
                    self.edges.push(Edge {
                        mv: moves[i as usize],
                        kind: UNSET,
                        reveal: None,
                        child: NONE,
                    });
                }
                (Proof::Unknown, n as u32, self.leaf())
            }
        };
        self.nodes.push(Node {
            visits: 1,
            sum: value,
            proof,
            red,
            first_edge,
            len,
        });
        // A restricted root is not the position's node for the paths that reach it again.
        if !root || self.root_filter.is_empty() {
            self.table.insert(self.pos.hash(), idx);
        }
        (idx, value)
    }

    /// The prior of legal move `m` in the current position (higher first).
    pub(super) fn prior_of(&mut self, m: Move) -> i32 {
        if self.cfg.prior == Prior::None {
            return 0;
        }
        let attacker = self.pos.occupant(m.from);
        let victim = if m.from == m.to {
            None
        } else {
            self.pos.occupant(m.to)
        };
        let mut score = 0;
        if victim.is_some() {
            score += (1 << 16) + 64 * role_value(victim) - role_value(attacker);
        }
        if self.cfg.prior == Prior::Checks
            && self.pos.rules().check
            && matches!(attacker, Some(Occupant::Revealed(_)))
        {
            let pm = PlayedMove::plain(m);
            let undo = self.pos.make(pm);
            let check = self.pos.in_check();
            self.pos.unmake(pm, undo);
            if check {
                score += 1 << 24;
            }
        }
        score
    }

    /// The node of the current position from the table, or a new one with its value (`None`
    /// when the table is full: then the value is not stored).
    pub(super) fn enter(&mut self) -> (Option<u32>, Option<f64>) {
        if let Some(&n) = self.table.get(&self.pos.hash()) {
            return (Some(n), None);
        }
        if self.full() {
            return (None, Some(self.loose_leaf()));
        }
        let (n, v) = self.create();
        (Some(n), Some(v))
    }

    /// Expands chance edge `e` of move `mv` with outcomes `br` (the mover is to move now): all
    /// its outcomes' nodes are entered. Returns the chance node.
    pub(super) fn expand_chance(&mut self, e: usize, br: &Branches) -> u32 {
        let mv = self.edges[e].mv;
        let ch = self.chances.len() as u32;
        let first = self.outcomes.len() as u32;
        for b in br.as_slice() {
            let mut child = NONE;
            if !b.king_win {
                let pm = PlayedMove {
                    mv,
                    reveal: b.reveal,
                    capture: None,
                };
                let undo = self.pos.make(pm);
                child = match self.table.get(&self.pos.hash()) {
                    Some(&n) => n,
                    None => self.create().0,
                };
                self.pos.unmake(pm, undo);
            }
            self.outcomes.push(Outcome {
                weight: b.weight,
                reveal: b.reveal,
                king_win: b.king_win,
                child,
            });
        }
        self.chances.push(Chance {
            visits: 0,
            first,
            len: br.as_slice().len() as u32,
            total: br.total,
        });
        self.edges[e].kind = CHANCE;
        self.edges[e].child = ch;
        ch
    }
}
