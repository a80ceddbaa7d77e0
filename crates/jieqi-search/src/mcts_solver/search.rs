//! One search: its state, one iteration (select, expand, evaluate, back up) and the answer.

use jieqi_core::{
    HistoryEntry, Knowledge, Move, PerpetualCheck, PlayedMove, Position, Reason, RepetitionHistory,
    Undo, View, classify_before_moves,
};
use jieqi_engine::{Control, Score, SearchInfo};

use crate::alphabeta::Branches;
use crate::eval::{EvalWeights, evaluate_known, win_probability};

use super::*;

/// The search state of one `go`.
pub(super) struct Search<'a> {
    pub(super) cfg: &'a MctsSolver,
    pub(super) knowledge: Knowledge,
    pub(super) weights: EvalWeights,
    pub(super) pos: Position,
    pub(super) nodes: Vec<Node>,
    pub(super) edges: Vec<Edge>,
    pub(super) chances: Vec<Chance>,
    pub(super) outcomes: Vec<Outcome>,
    pub(super) table: Table,
    /// Approximate bytes the tree may use.
    pub(super) cap: usize,
    pub(super) history: RepetitionHistory,
    pub(super) root_len: usize,
    pub(super) track_checks: bool,
    pub(super) path: Vec<Step>,
    pub(super) made: Vec<(PlayedMove, Undo)>,
    /// The deepest ply an iteration reached.
    pub(super) max_ply: u32,
    /// The root moves when the front end restricted them (`go searchmoves`, see
    /// [`Control::root_moves`]); empty: every legal move.
    pub(super) root_filter: Vec<Move>,
}

impl<'a> Search<'a> {
    pub(super) fn new(cfg: &'a MctsSolver, view: &View, control: &Control<'_>) -> Search<'a> {
        let pos = view.position().clone();
        let history = RepetitionHistory::of_view(view);
        let root_len = history.len();
        let track_checks = {
            let r = pos.rules();
            r.check && r.perpetual_check == PerpetualCheck::Loses
        };
        let mut s = Search {
            cfg,
            knowledge: view.knowledge(),
            weights: EvalWeights::default(),
            pos,
            nodes: Vec::with_capacity(1 << 12),
            edges: Vec::with_capacity(1 << 16),
            chances: Vec::new(),
            outcomes: Vec::new(),
            table: Table::default(),
            cap: cfg.tt_mb.saturating_mul(1 << 20),
            history,
            root_len,
            track_checks,
            path: Vec::with_capacity(MAX_PLY as usize * 2 + 4),
            made: Vec::with_capacity(MAX_PLY as usize + 2),
            max_ply: 0,
            root_filter: if control.searchmoves().is_empty() {
                Vec::new()
            } else {
                control.root_moves(view.legal_moves()).to_vec()
            },
        };
        let (root, _) = s.create();
        debug_assert_eq!(root, 0);
        s
    }

    /// The static value of the current position for its side to move, in [0, 1].
    pub(super) fn leaf(&self) -> f64 {
        win_probability(evaluate_known(&self.pos, &self.weights, &self.knowledge))
    }

    /// The value of the current position for its side to move without storing it: 0 if it is
    /// lost, else the evaluation.
    pub(super) fn loose_leaf(&self) -> f64 {
        if self.pos.king_lost(self.pos.turn()) || !self.pos.has_legal_move() {
            0.0
        } else {
            self.leaf()
        }
    }

    /// A chance node's value for the mover: the probability-weighted mean of its outcomes'
    /// values (proven ones exactly).
    pub(super) fn chance_value(&self, ch: u32) -> f64 {
        let c = &self.chances[ch as usize];
        let mut s = 0.0;
        for o in &self.outcomes[c.first as usize..(c.first + c.len) as usize] {
            let v = if o.king_win {
                1.0
            } else {
                self.node_value(o.child).map_or(0.5, |v| 1.0 - v)
            };
            s += f64::from(o.weight) * v;
        }
        s / f64::from(c.total)
    }

    /// A node's value for its side to move: 1 or 0 when proven, else its mean.
    pub(super) fn node_value(&self, n: u32) -> Option<f64> {
        let node = &self.nodes[n as usize];
        match node.proof {
            Proof::Win(_) => Some(1.0),
            Proof::Loss(_) => Some(0.0),
            Proof::Unknown if node.visits > 0 => Some(node.sum / f64::from(node.visits)),
            Proof::Unknown => None,
        }
    }

    /// An edge's (mean for its mover, visits), `None` if never tried.
    pub(super) fn edge_stats(&self, e: &Edge) -> Option<(f64, u32)> {
        match e.kind {
            DECISION => {
                let n = &self.nodes[e.child as usize];
                Some((self.node_value(e.child).map_or(0.5, |v| 1.0 - v), n.visits))
            }
            CHANCE => Some((
                self.chance_value(e.child),
                self.chances[e.child as usize].visits,
            )),
            _ => None,
        }
    }

    /// The edge to follow from unproven node `n` (progressive widening, then UCB).
    pub(super) fn select(&self, n: u32) -> usize {
        let node = &self.nodes[n as usize];
        let (first, len) = (node.first_edge as usize, node.len as usize);
        let visits = f64::from(node.visits.max(1));
        let k = ((self.cfg.width * visits.powf(self.cfg.widen)).ceil() as usize).clamp(1, len);
        let ln = visits.ln();
        let mut best = NONE as usize;
        let mut best_ucb = f64::NEG_INFINITY;
        for j in first..first + len {
            if j >= first + k && best != NONE as usize {
                break;
            }
            let e = &self.edges[j];
            if matches!(self.edge_proof(e), Proof::Loss(_)) {
                continue;
            }
            let Some((q, ne)) = self.edge_stats(e) else {
                return j;
            };
            let ucb = q + self.cfg.c * (ln / f64::from(ne.max(1))).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = j;
            }
        }
        debug_assert!(
            best != NONE as usize,
            "an unproven node has a move not lost"
        );
        best
    }

    /// Plays `pm` on the iteration's position and path history.
    pub(super) fn play(&mut self, pm: PlayedMove) {
        let undo = self.pos.make(pm);
        let irreversible = pm.reveal.is_some() || undo.captured().is_some();
        self.history.push(
            HistoryEntry {
                hash: self.pos.hash(),
                in_check: self.track_checks && self.pos.in_check(),
            },
            irreversible,
        );
        self.made.push((pm, undo));
    }

    /// The value for the side to move of a position that the path ends by a rule that depends
    /// on the path (a repetition, the no-capture limit); `None` otherwise.
    pub(super) fn path_end(&self) -> Option<f64> {
        let o = classify_before_moves(
            &self.pos,
            false,
            self.history.window(),
            PATH_REPETITION_COUNT,
        )?;
        match o.reason {
            Reason::Repetition | Reason::PerpetualCheck | Reason::NoCaptureLimit => {
                Some(match o.winner {
                    None => 0.5,
                    Some(w) => flip(1.0, w == self.pos.turn()),
                })
            }
            // A lost king or no legal move: a property of the position, found by its node.
            _ => None,
        }
    }

    /// The mean over `br`'s outcomes of the static values after `mv`, for the mover, without
    /// storing anything (the table is full).
    pub(super) fn loose_chance(&mut self, mv: Move, br: &Branches) -> f64 {
        let mut s = 0.0;
        for b in br.as_slice() {
            let v = if b.king_win {
                1.0
            } else {
                let pm = PlayedMove {
                    mv,
                    reveal: b.reveal,
                    capture: None,
                };
                let undo = self.pos.make(pm);
                let v = 1.0 - self.loose_leaf();
                self.pos.unmake(pm, undo);
                v
            };
            s += f64::from(b.weight) * v;
        }
        s / f64::from(br.total)
    }

    /// One iteration: select, expand, evaluate, back up.
    pub(super) fn iterate(&mut self) {
        self.path.clear();
        self.history.truncate(self.root_len);
        let mut node = 0u32;
        let mut ply = 0u32;
        // The value for Red of where the path ended.
        let value: f64 = loop {
            self.path.push(Step::Node(node));
            self.refresh(node);
            let red = self.nodes[node as usize].red;
            match self.nodes[node as usize].proof {
                Proof::Win(_) => break flip(1.0, red),
                Proof::Loss(_) => break flip(0.0, red),
                Proof::Unknown if ply >= MAX_PLY => break flip(self.leaf(), red),
                Proof::Unknown => {}
            }
            let e = self.select(node);
            let edge = self.edges[e];
            ply += 1;
            match edge.kind {
                UNSET => {
                    let br = branches(&self.pos, &self.knowledge, edge.mv);
                    if br.is_single() {
                        let reveal = br.as_slice()[0].reveal;
                        self.edges[e].reveal = reveal;
                        self.play(PlayedMove {
                            mv: edge.mv,
                            reveal,
                            capture: None,
                        });
                        if let Some(v) = self.path_end() {
                            break flip(v, !red);
                        }
                        match self.enter() {
                            (Some(c), None) => {
                                self.edges[e].kind = DECISION;
                                self.edges[e].child = c;
                                node = c;
                            }
                            (Some(c), Some(v)) => {
                                self.edges[e].kind = DECISION;
                                self.edges[e].child = c;
                                break flip(v, !red);
                            }
                            (None, v) => break flip(v.unwrap_or(0.5), !red),
                        }
                    } else if self.full() {
                        break flip(self.loose_chance(edge.mv, &br), red);
                    } else {
                        let ch = self.expand_chance(e, &br);
                        self.path.push(Step::Chance(ch));
                        break flip(self.chance_value(ch), red);
                    }
                }
                DECISION => {
                    self.play(PlayedMove {
                        mv: edge.mv,
                        reveal: edge.reveal,
                        capture: None,
                    });
                    if let Some(v) = self.path_end() {
                        break flip(v, !red);
                    }
                    node = edge.child;
                }
                _ => {
                    let ch = edge.child;
                    self.path.push(Step::Chance(ch));
                    let c = &self.chances[ch as usize];
                    let mut pick = None;
                    let mut best = f64::NEG_INFINITY;
                    for i in c.first..c.first + c.len {
                        let o = &self.outcomes[i as usize];
                        if o.king_win || self.nodes[o.child as usize].proof != Proof::Unknown {
                            continue;
                        }
                        let n = self.nodes[o.child as usize].visits;
                        let key = f64::from(o.weight) / f64::from(n + 1);
                        if key > best {
                            best = key;
                            pick = Some(i);
                        }
                    }
                    let Some(i) = pick else {
                        // Every outcome is proven (the parent's refresh will see it).
                        break flip(self.chance_value(ch), red);
                    };
                    let o = self.outcomes[i as usize];
                    self.play(PlayedMove {
                        mv: edge.mv,
                        reveal: o.reveal,
                        capture: None,
                    });
                    if let Some(v) = self.path_end() {
                        break flip(v, !red);
                    }
                    node = o.child;
                }
            }
        };
        self.max_ply = self.max_ply.max(ply);
        // Back up: a proven node passes up its proof, a chance node its weighted mean.
        let mut v = value;
        for i in (0..self.path.len()).rev() {
            match self.path[i] {
                Step::Node(n) => {
                    self.refresh(n);
                    let node = &mut self.nodes[n as usize];
                    node.visits += 1;
                    node.sum += flip(v, node.red);
                    match node.proof {
                        Proof::Win(_) => v = flip(1.0, node.red),
                        Proof::Loss(_) => v = flip(0.0, node.red),
                        Proof::Unknown => {}
                    }
                }
                Step::Chance(ch) => {
                    self.chances[ch as usize].visits += 1;
                    // The chance node's mover is the side to move at the node above it.
                    let mover_red = match self.path[i - 1] {
                        Step::Node(p) => self.nodes[p as usize].red,
                        Step::Chance(_) => unreachable!("a chance node hangs from a decision node"),
                    };
                    v = flip(self.chance_value(ch), mover_red);
                }
            }
        }
        while let Some((pm, undo)) = self.made.pop() {
            self.pos.unmake(pm, undo);
        }
    }

    /// The edge the search would answer at node `n` with its proof and mean (see the module
    /// docs: shortest proven win, else most visited not lost, else longest loss).
    pub(super) fn best_edge(&self, n: u32) -> Option<(usize, Proof, f64)> {
        let node = &self.nodes[n as usize];
        let (first, len) = (node.first_edge as usize, node.len as usize);
        // Rank: class (win 2, open 1, lost 0), then a key within the class.
        let mut best: Option<(usize, Proof, f64, Rank)> = None;
        for j in first..first + len {
            let e = &self.edges[j];
            let p = self.edge_proof(e);
            let (q, visits) = self.edge_stats(e).unwrap_or((0.5, 0));
            let rank = match p {
                Proof::Win(d) => (2, -i64::from(d), 0.0),
                Proof::Unknown => (1, i64::from(visits), q),
                Proof::Loss(d) => (0, i64::from(d), f64::from(visits)),
            };
            let better = match &best {
                None => true,
                Some((_, _, _, r)) => {
                    (rank.0, rank.1)
                        .cmp(&(r.0, r.1))
                        .then(rank.2.total_cmp(&r.2))
                        == std::cmp::Ordering::Greater
                }
            };
            if better {
                best = Some((j, p, q, rank));
            }
        }
        best.map(|(j, p, q, _)| (j, p, q))
    }

    /// The principal variation from the root: best edges, cut after a hidden-piece move.
    pub(super) fn pv(&self) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut node = 0u32;
        while pv.len() < 64 {
            let Some((j, _, _)) = self.best_edge(node) else {
                break;
            };
            let e = &self.edges[j];
            pv.push(e.mv);
            if e.kind != DECISION {
                break;
            }
            node = e.child;
        }
        pv
    }

    /// The search info of the current best root move.
    pub(super) fn info(&self, iterations: u64) -> Option<(Move, SearchInfo, Proof)> {
        let (j, proof, q) = self.best_edge(0)?;
        let score = proof.score().unwrap_or(Score::WinRate(q));
        Some((
            self.edges[j].mv,
            SearchInfo {
                nodes: iterations,
                depth: Some(self.max_ply),
                score: Some(score),
                pv: self.pv(),
            },
            proof,
        ))
    }
}
