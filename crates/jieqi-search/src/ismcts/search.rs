//! One search: an iteration (select, expand, value, back up), the tree kept and re-rooted
//! between moves, the threads and their trees, the interim reports and the answer.

use jieqi_core::{Color, Determinization, HistoryEntry, MoveList, PerpetualCheck};
use jieqi_engine::{Choice, Control, EngineError, Limits, Score, SearchInfo};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use std::sync::atomic::{AtomicBool, Ordering};

use crate::mcts_solver::wins_at_once;
use crate::playout::{Budget, playout, took_king};

use super::policy::discounted;
use super::tree::{MAX_NODES, NONE, Node, principal_variation};
use super::*;

impl Ismcts {
    /// The kept tree re-rooted at `view`, if `view` continues the kept view and the tree has it.
    fn reused_tree(&mut self, view: &View) -> Option<Tree> {
        let (old, tree) = self.kept.take()?;
        let (h_old, h_new) = (old.history(), view.history());
        let old_len = h_old.len();
        if !self.reuse
            || old.player() != view.player()
            || old.rules() != view.rules()
            || h_new.len() <= h_old.len()
            || h_new[..h_old.len()] != *h_old
        {
            return None;
        }
        let mut replay = old;
        let mut node = 0u32;
        for &pm in &h_new[old_len..] {
            replay.apply(pm).ok()?;
            node = tree.child_for(node, pm.mv)?;
            if tree.nodes[node as usize].chance {
                let r = pm.reveal?;
                node = tree.outcome_for(node, r as u8 + 1)?;
            }
        }
        if replay != *view {
            return None;
        }
        Some(tree.extract(node))
    }

    /// One iteration on `det` (a fresh sample of the root view). Returns the decision depth reached.
    ///
    /// `self.history` holds the game's positions up to the root (`root_len` of them, from the
    /// view) and gets the iteration's positions pushed as it descends. The view's keys and the
    /// determinization's differ by the pools only, a constant `delta` (view root key ^ this
    /// determinization's root key) until the first irreversible move, after which the window
    /// restarts; so path positions are keyed `det key ^ delta`, which compares alike with the
    /// game's positions.
    fn iterate(
        &mut self,
        tree: &mut Tree,
        det: &mut Determinization,
        us: Color,
        delta: u64,
        root_len: usize,
        rng: &mut ChaCha8Rng,
    ) -> u32 {
        self.path.clear();
        self.path.push(0);
        self.plies.clear();
        self.plies.push(0);
        self.history.truncate(root_len);
        let track_checks = {
            let rules = det.position().rules();
            rules.check && rules.perpetual_check == PerpetualCheck::Loses
        };
        let mut node = 0u32;
        let mut depth = 0u32;
        // Score for `us`, and the plies from the root to the end it scores.
        let (score, end): (f64, u32) = loop {
            let pos = det.position();
            let to_move = pos.turn();
            // The root is not over (the engine was asked to move) and is not scored as a
            // repetition of the game's positions; the nodes below are classified on their path.
            let window = if depth == 0 {
                &[]
            } else {
                self.history.window()
            };
            if let Some(v) = terminal_value(pos, window, TREE_REPETITION_COUNT, us) {
                break (v, depth);
            }
            let mut moves = pos.legal_moves();
            if depth == 0 && !self.root_filter.is_empty() {
                // The root: only the moves the front end allows (`go searchmoves`).
                let mut allowed = MoveList::new();
                for &m in &moves {
                    if self.root_filter.contains(&m) {
                        allowed.push(m);
                    }
                }
                if !allowed.is_empty() {
                    moves = allowed;
                }
            }
            if moves.is_empty() {
                break (if to_move == us { 0.0 } else { 1.0 }, depth);
            }
            // Availability: mark the legal moves, then walk the children.
            let (best, tried) = self.select(tree, node, &moves);
            let untried = moves.len() - tried;
            // A new child if a legal move has none, the arena has room and (with widening) the
            // node's visits allow one more (the bound is only computed when it can matter).
            let grow = untried > 0
                && tree.nodes.len() < MAX_NODES
                && (self.width == 0.0
                    || (tried as f64) < self.room(tree.nodes[node as usize].visits));
            let (chosen, expanded) = if grow {
                let pick = self.next_child(det, &moves, untried, rng);
                let child = tree.add_child(node, Node::new(pick, to_move));
                tree.nodes[child as usize].avail = 1;
                (child, true)
            } else if best != NONE {
                (best, false)
            } else {
                // No room to grow and nothing tried: play out from here.
                for m in &moves {
                    self.marks[m.from.index()] = 0;
                }
                let p = playout(det, us, &self.playout, rng);
                break (p.score, depth + p.plies);
            };
            for m in &moves {
                self.marks[m.from.index()] = 0;
            }
            let mv = tree.nodes[chosen as usize].mv;
            let (pm, undo) = det.make(mv);
            depth += 1;
            self.path.push(chosen);
            self.plies.push(depth);
            let after = det.position();
            let irreversible = pm.reveal.is_some() || undo.captured().is_some();
            let entry = HistoryEntry {
                hash: after.hash() ^ delta,
                in_check: track_checks && after.in_check(),
            };
            self.history.push(entry, irreversible);
            let mut expanded = expanded;
            node = chosen;
            if let Some(r) = pm.reveal {
                tree.nodes[chosen as usize].chance = true;
                let key = r as u8 + 1;
                node = match tree.outcome_for(chosen, key) {
                    Some(o) => o,
                    None if tree.nodes.len() < MAX_NODES => {
                        let mut o = Node::new(mv, to_move);
                        o.reveal = key;
                        expanded = true;
                        tree.add_child(chosen, o)
                    }
                    None => {
                        let p = playout(det, us, &self.playout, rng);
                        break (p.score, depth + p.plies);
                    }
                };
                self.path.push(node);
                self.plies.push(depth);
            }
            if took_king(&pm, &undo) {
                break (if to_move == us { 1.0 } else { 0.0 }, depth);
            }
            if expanded {
                break (self.value_leaf(det, us), depth);
            }
        };
        // Back up, each node's result discounted by its distance from the end.
        let keep = 1.0 - self.decay;
        for (&n, &ply) in self.path.iter().zip(&self.plies) {
            let result = discounted(score, end - ply, keep);
            let node = &mut tree.nodes[n as usize];
            node.visits += 1;
            node.reward += if node.mover == us {
                result
            } else {
                1.0 - result
            };
        }
        depth
    }
}

/// Iterations between two interim reports of a thread's search (only thread 0 has a listener).
const REPORT_EVERY: u64 = 1000;

/// What one tree says so far: its most visited legal root move (ties to the better mean), that
/// move's mean as the score, and its variation.
fn interim_info(tree: &Tree, legal: &[Move], done: u64, depth: u32) -> SearchInfo {
    let mean = |n: &Node| {
        if n.visits == 0 {
            0.5
        } else {
            n.reward / f64::from(n.visits)
        }
    };
    let best = tree
        .children(0)
        .map(|c| &tree.nodes[c as usize])
        .filter(|n| legal.contains(&n.mv))
        .max_by(|a, b| a.visits.cmp(&b.visits).then(mean(a).total_cmp(&mean(b))));
    SearchInfo {
        nodes: done,
        depth: Some(depth),
        score: best.map(|n| Score::WinRate(mean(n))),
        pv: best.map_or_else(Vec::new, |n| principal_variation(tree, n.mv)),
    }
}

/// One thread's search: its tree and how far it went.
struct Grown {
    tree: Tree,
    /// Iterations run.
    done: u64,
    /// The deepest decision ply reached.
    depth: u32,
}

impl Ismcts {
    /// One tree grown for `view` within `budget` from `seed` (the kept tree if it continues;
    /// no iteration when `search` is false, i.e. one legal move).
    fn grow(&mut self, view: &View, budget: Budget<'_>, seed: u64, search: bool) -> Grown {
        let us = view.position().turn();
        let mut tree = self.reused_tree(view).unwrap_or_else(|| Tree::new(!us));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        self.history = RepetitionHistory::of_view(view);
        let root_len = self.history.len();
        let root_key = view.position().hash();
        let mut done = 0u64;
        let mut depth = 0u32;
        let control = budget.control();
        let legal = control.root_moves(view.legal_moves());
        self.root_filter = if control.searchmoves().is_empty() {
            Vec::new()
        } else {
            legal.to_vec()
        };
        if search {
            while !budget.exhausted(done) {
                let mut det = view.sample(&mut rng);
                let delta = root_key ^ det.position().hash();
                depth = depth.max(self.iterate(&mut tree, &mut det, us, delta, root_len, &mut rng));
                done += 1;
                if done % REPORT_EVERY == 0 {
                    // Progress for a listening front end; it reads the tree and changes nothing.
                    control.report(|| interim_info(&tree, legal.as_slice(), done, depth));
                }
            }
        }
        Grown { tree, done, depth }
    }

    /// [`Ismcts::grow`] on `threads` threads (this engine is thread 0, [`Ismcts::helpers`] the
    /// others), each with its share of the budget and its own seed.
    fn grow_threaded(
        &mut self,
        view: &View,
        budget: Budget<'_>,
        seed: u64,
        threads: usize,
        search: bool,
    ) -> Vec<Grown> {
        let mut helpers = std::mem::take(&mut self.helpers);
        helpers.truncate(threads - 1);
        while helpers.len() < threads - 1 {
            helpers.push(self.clone_config());
        }
        let stop = AtomicBool::new(false);
        // Helpers report nothing, but keep the front end's root restriction.
        let helper_control = Control::default()
            .with_stop(&stop)
            .with_searchmoves(budget.control().searchmoves());
        let grown = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(k, h)| {
                    let b = budget.share(k + 1, threads, helper_control);
                    let s = thread_seed(seed, k + 1);
                    // A helper whose share is empty (fewer iterations than threads) only
                    // re-roots its kept tree.
                    let run = search && !b.is_empty();
                    scope.spawn(move || h.grow(view, b, s, run))
                })
                .collect();
            let main = self.grow(
                view,
                budget.share(0, threads, budget.control()),
                seed,
                search,
            );
            // Under a node limit each thread runs its share (reproducible); under a time budget,
            // or when the front end said stop, the others stop with this one.
            if !budget.counts_iterations() || budget.control().stopped() {
                stop.store(true, Ordering::Relaxed);
            }
            let mut grown = vec![main];
            for h in handles {
                match h.join() {
                    Ok(g) => grown.push(g),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            grown
        });
        self.helpers = helpers;
        grown
    }

    /// A helper thread's engine: this engine's settings on one thread, without its tree,
    /// scratch or helpers.
    fn clone_config(&self) -> Ismcts {
        Ismcts {
            iters: self.iters,
            c: self.c,
            playout: self.playout.clone(),
            reuse: self.reuse,
            decay: self.decay,
            width: self.width,
            widen: self.widen,
            ..Ismcts::default()
        }
    }

    /// Keeps `tree` (searched for `view`) for the next search, if trees are reused.
    fn keep(&mut self, view: &View, tree: Tree) {
        self.kept = self.reuse.then(|| (view.clone(), tree));
    }
}

/// The seed of helper thread `i` ≥ 1 (thread 0 searches with the call's seed); ChaCha's seeding
/// spreads it into an independent stream.
fn thread_seed(seed: u64, i: usize) -> u64 {
    seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Engine for Ismcts {
    /// It checks the stop flag as it searches.
    fn stops_on_request(&self) -> bool {
        true
    }

    fn search(
        &mut self,
        view: &View,
        limits: &Limits,
        seed: u64,
        control: &Control<'_>,
    ) -> Result<Choice, EngineError> {
        let root_moves = control.root_moves(view.legal_moves());
        if root_moves.is_empty() {
            return Err(EngineError::new("ismcts: no legal move"));
        }
        let us = view.position().turn();
        let budget = Budget::new(limits, us, self.iters, DEFAULT_ITERS, *control);
        let threads = self.threads.max(1);
        let grown = if threads == 1 {
            vec![self.grow(view, budget, seed, root_moves.len() > 1)]
        } else {
            self.grow_threaded(view, budget, seed, threads, root_moves.len() > 1)
        };
        // Answer: the most visited root move among the legal ones, visits and rewards added over
        // the trees; ties go to the better mean, then to the move expanded first (main tree first).
        let mut totals: Vec<(Move, u64, f64)> = Vec::new();
        for g in &grown {
            let mut kids: Vec<u32> = g.tree.children(0).collect();
            kids.sort_unstable();
            for c in kids {
                let n = &g.tree.nodes[c as usize];
                if !root_moves.contains(&n.mv) {
                    continue;
                }
                match totals.iter_mut().find(|t| t.0 == n.mv) {
                    Some(t) => {
                        t.1 += u64::from(n.visits);
                        t.2 += n.reward;
                    }
                    None => totals.push((n.mv, u64::from(n.visits), n.reward)),
                }
            }
        }
        let mean = |t: &(Move, u64, f64)| if t.1 == 0 { 0.5 } else { t.2 / t.1 as f64 };
        let best = totals.iter().enumerate().max_by(|(ia, a), (ib, b)| {
            a.1.cmp(&b.1)
                .then(mean(a).total_cmp(&mean(b)))
                .then(ib.cmp(ia))
        });
        let (mv, score) = match best {
            // A move that ends the game with a win in every outcome is a proof, not a rate.
            Some((_, t)) if wins_at_once(view.position(), &view.knowledge(), t.0) => {
                (t.0, Some(Score::Mate(1)))
            }
            Some((_, t)) => (t.0, Some(Score::WinRate(mean(t)))),
            None => (root_moves[0], None),
        };
        // The variation of the tree that visited the move most.
        let pv_tree = grown
            .iter()
            .max_by_key(|g| {
                g.tree
                    .child_for(0, mv)
                    .map_or(0, |c| g.tree.nodes[c as usize].visits)
            })
            .map(|g| &g.tree);
        let pv = pv_tree.map_or_else(|| vec![mv], |t| principal_variation(t, mv));
        let nodes = grown.iter().map(|g| g.done).sum();
        let max_depth = grown.iter().map(|g| g.depth).max().unwrap_or(0);
        let mut trees = grown.into_iter().map(|g| g.tree);
        if let Some(t) = trees.next() {
            self.keep(view, t);
        }
        for (h, t) in self.helpers.iter_mut().zip(trees) {
            h.keep(view, t);
        }
        Ok(Choice {
            mv,
            info: SearchInfo {
                nodes,
                depth: Some(max_depth),
                score,
                pv,
            },
        })
    }
}
