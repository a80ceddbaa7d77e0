//! Mate scores that are proofs.
//!
//! A mate found below a *sampled* reveal (a hidden-piece move played as one drawn identity, see
//! "The exact horizon" in the module doc) holds for that identity only: another may escape. Such
//! values are compressed by [`through_sample`] into a band of their own, above every evaluation
//! (±[`EVAL_LIMIT`]) and below every mate score (±[`MATE_BOUND`]): a sampled mate still beats
//! any material, a shorter one still beats a longer one, but it is never taken for a proof. The
//! map is monotone, so alpha-beta windows pass through it exactly ([`sample_window`]).
//!
//! What is left in the mate band at the root is checked before it is reported: the root's best
//! move and its `mate N` go to the project's exhaustive prover ([`crate::mate::MateProver`]),
//! which branches over every identity a revealed piece may have, within a node budget
//! ([`proof_budget`]). Only a claim it proves is reported as [`Score::Mate`] (with the prover's
//! shortest N; for a win, the root moves are also tried for a shorter mate, and the shortest
//! found is played). Once the prover has settled the root — a loss proved, or a win proved with
//! no shorter mate among the root moves — the search stops: the root is decided. A claim the
//! budget could not settle is asked again when twice the budget is available. A claim it refutes or cannot
//! finish is reported as a bounded centipawn score ([`reported_cp`]): `cp 20000 − plies`, as
//! Stockfish reports a tablebase win it has not turned into a mate, never beyond ±[`WIN_CP`] (a
//! GUI reads only `score mate` as a mate: JieqiBox from ±29001, its mate base less 999). The
//! prover's positions count as nodes.

use super::*;
use crate::mate::{MateProver, Verdict};

/// The value `u` of a sampled outcome as its chance node takes it: unchanged within
/// ±[`EVAL_LIMIT`], beyond it the distance from ±[`EVAL_LIMIT`] halved (rounded towards it), so
/// every result lies strictly between the evaluations' and the mates' bands. Odd and monotone.
#[inline]
pub fn through_sample(u: i32) -> i32 {
    if u > EVAL_LIMIT {
        EVAL_LIMIT + (u - EVAL_LIMIT) / 2
    } else if u < -EVAL_LIMIT {
        -EVAL_LIMIT - (-EVAL_LIMIT - u) / 2
    } else {
        u
    }
}

/// The most centipawns a score is reported with: a win that is not proved, `plies` away, is
/// `cp WIN_CP − plies` (Stockfish's tablebase-win convention, `TB_CP − plies` with `TB_CP` =
/// 20000); only a proved mate is reported beyond, as `mate N`.
pub const WIN_CP: i32 = 20_000;
/// The most centipawns an evaluation is reported with: the band above it, up to [`WIN_CP`], is
/// the wins that are not proved.
pub const EVAL_CP_MAX: i32 = WIN_CP - 1_000;

/// A search value `v` as the centipawns it is reported with, within ±[`WIN_CP`]: an
/// evaluation as it is (at most ±[`EVAL_CP_MAX`]); a sampled mate (the band of
/// [`through_sample`]) within (`EVAL_CP_MAX`, `WIN_CP − MAX_PLY`), in order; a mate that is not
/// proved, `p` plies away, as `WIN_CP − p`. Odd and monotone, so a longer win never reads as
/// better than a shorter one.
pub fn reported_cp(v: i32) -> i32 {
    let a = v.abs();
    let r = if a > MATE_BOUND {
        WIN_CP - (MATE - a.min(MATE)).max(1)
    } else if a > EVAL_LIMIT {
        // (EVAL_LIMIT, MATE_BOUND] onto (EVAL_CP_MAX, WIN_CP − MAX_PLY − 1].
        let span = i64::from(WIN_CP - MAX_PLY as i32 - 1 - EVAL_CP_MAX);
        let at = i64::from(a - EVAL_LIMIT) * span / i64::from(MATE_BOUND - EVAL_LIMIT);
        EVAL_CP_MAX + (at as i32).max(1)
    } else {
        a.min(EVAL_CP_MAX)
    };
    r * v.signum()
}

/// The largest `u` with `through_sample(u) ≤ y`.
#[inline]
fn largest_at_most(y: i32) -> i32 {
    if y >= EVAL_LIMIT {
        2 * y - EVAL_LIMIT + 1
    } else if y < -EVAL_LIMIT {
        2 * y + EVAL_LIMIT
    } else {
        y
    }
}

/// The window `(a, b)` for a sampled outcome's search such that its value `u` satisfies
/// `through_sample(u) ≤ alpha` exactly when `u ≤ a`, and `through_sample(u) ≥ beta` exactly
/// when `u ≥ b`; clamped to ±[`INF`].
#[inline]
pub(super) fn sample_window(alpha: i32, beta: i32) -> (i32, i32) {
    let a = largest_at_most(alpha).clamp(-INF, INF);
    let b = (-largest_at_most(-beta)).clamp(-INF, INF);
    (a, b)
}

/// The prover's budget for a root claim after `searched` nodes of search: a quarter of them,
/// at least [`PROOF_NODES_MIN`] and at most [`PROOF_NODES_MAX`], never past `left` (what is
/// left of a node limit).
pub fn proof_budget(searched: u64, left: u64) -> u64 {
    (searched / 4)
        .clamp(PROOF_NODES_MIN, PROOF_NODES_MAX)
        .min(left)
}

/// The least prover budget for a root claim.
pub const PROOF_NODES_MIN: u64 = 20_000;
/// The most prover nodes one root claim may take.
pub const PROOF_NODES_MAX: u64 = 4_000_000;

/// What the prover said of the root's last claim.
#[derive(Copy, Clone, Debug)]
pub(super) struct RootClaim {
    /// The move the search claimed a mate with, and its value.
    asked: (Move, i32),
    /// The verdict on the claim: for a proved win, on `answer`.
    verdict: Verdict,
    /// The move to play: `asked`, or a root move the prover found to mate sooner.
    answer: Move,
    /// Whether the verdict is final: a refutation, a proved loss, or a proved win whose search
    /// for a shorter mate among the root moves finished. Else (the budget ran out) the claim is
    /// asked again once twice the budget is available.
    settled: bool,
    /// The prover budget it was asked with.
    budget: u64,
}

impl Searcher<'_> {
    /// The score to report for root move `mv` worth `v`: a mate only if the prover has proved
    /// it (asked here, once per move and value, by the main thread only: a helper thread reports
    /// a finite score), else a finite score. The proved N is that of the prover's answer (see
    /// [`Searcher::settle`]): for another move, even the one asked about, the score is finite.
    pub(super) fn claim_score(&mut self, mv: Move, v: i32) -> Score {
        if v.abs() <= MATE_BOUND {
            return to_score(v);
        }
        if self.helper {
            return Score::Cp(reported_cp(v));
        }
        match self
            .claim(mv, v)
            .filter(|c| c.answer == mv)
            .map(|c| c.verdict)
        {
            Some(Verdict::Proved { shortest }) => Score::Mate(if v > 0 {
                shortest as i32
            } else {
                -(shortest as i32)
            }),
            _ => Score::Cp(reported_cp(v)),
        }
    }

    /// The root move to answer with when `mv` is worth `v`, and whether the root is decided: its
    /// mate proved and, for a win, no shorter one among the root moves (always `(mv, false)` in
    /// a helper thread or below the mate band). A proved win answers with the shortest mate the
    /// prover found among the root moves.
    pub(super) fn settle(&mut self, mv: Move, v: i32) -> (Move, bool) {
        if self.helper || v.abs() <= MATE_BOUND {
            return (mv, false);
        }
        match self.claim(mv, v) {
            Some(c) if matches!(c.verdict, Verdict::Proved { .. }) => (c.answer, c.settled),
            _ => (mv, false),
        }
    }

    /// The prover's verdict on the mate claim `(mv, v)`, asked once (a later question about
    /// the same claim, or about the answer it gave, is answered from the last one unless it was
    /// not settled and twice its budget is now available); `None` when no budget is left. For a
    /// proved win in `k > 1`, the root moves are tried for a mate in fewer, with what is left of
    /// the budget.
    fn claim(&mut self, mv: Move, v: i32) -> Option<RootClaim> {
        if !self.opts.prove {
            return None;
        }
        let budget = proof_budget(self.nodes, self.node_limit.saturating_sub(self.nodes));
        if let Some(c) = self.claim {
            if c.asked.1 == v
                && (c.asked.0 == mv || c.answer == mv)
                && (c.settled || budget < 2 * c.budget)
            {
                return Some(c);
            }
        }
        let Score::Mate(n) = to_score(v) else {
            return None;
        };
        if budget == 0 {
            return None;
        }
        // The table's best moves guide the attacker (the proof itself is exhaustive).
        let tt = self.tt;
        let hint = move |p: &Position| {
            tt.and_then(|t| t.probe(p.hash()))
                .and_then(|e| decode(e.mv))
        };
        let mut prover = MateProver::with_knowledge(budget, self.knowledge);
        prover.set_deadline(self.deadline);
        prover.set_hint(&hint);
        let mut verdict = prover.verdict(&self.pos, mv, n);
        let mut answer = mv;
        let mut settled = !matches!(verdict, Verdict::Unknown(_));
        if let (Verdict::Proved { shortest }, true) = (verdict, n > 0) {
            let mut others = MoveList::new();
            for &m in self.control.root_moves(self.pos.legal_moves()).iter() {
                if m != mv {
                    others.push(m);
                }
            }
            match prover.first_mate_below(&self.pos, &others, shortest) {
                Ok(Some((m, k))) => (answer, verdict) = (m, Verdict::Proved { shortest: k }),
                Ok(None) => {}
                Err(_) => settled = false,
            }
        }
        self.add_nodes(prover.nodes());
        let c = RootClaim {
            asked: (mv, v),
            verdict,
            answer,
            settled,
            budget,
        };
        self.claim = Some(c);
        Some(c)
    }

    /// Adds `k` nodes done outside the search (the prover's) to the count, keeping a shared
    /// count's batches of 1024 whole.
    fn add_nodes(&mut self, k: u64) {
        let before = self.nodes / 1024;
        self.nodes += k;
        if let Some(total) = self.shared_nodes {
            total.fetch_add((self.nodes / 1024 - before) * 1024, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores are reported within ±20000 cp, Stockfish's tablebase-win range (an unproven win
    /// used to read `cp 24995`, which JieqiBox shows raw: it takes ±29001 on as mates), odd and
    /// monotone: evaluations as they are, sampled wins above them, unproven mates `20000 − p`.
    #[test]
    fn reported_scores_stay_in_the_tablebase_win_range() {
        let mut last = i32::MIN;
        for v in -MATE..=MATE {
            let r = reported_cp(v);
            assert!(r.abs() <= WIN_CP, "{v} -> {r}");
            assert!(r >= last, "not monotone at {v}: {last} then {r}");
            assert_eq!(reported_cp(-v), -r, "odd at {v}");
            last = r;
        }
        assert_eq!(reported_cp(35), 35);
        assert_eq!(reported_cp(MATE - 5), WIN_CP - 5);
        assert_eq!(reported_cp(-(MATE - 7)), -(WIN_CP - 7));
        let sampled = reported_cp(through_sample(MATE - 5));
        assert!(
            sampled > EVAL_CP_MAX && sampled < WIN_CP - MAX_PLY as i32,
            "{sampled}"
        );
    }

    #[test]
    fn the_sample_map_is_monotone_odd_and_between_the_bands() {
        let mut prev = i32::MIN;
        for u in -INF..=INF {
            let f = through_sample(u);
            assert!(f >= prev, "monotone at {u}");
            assert_eq!(through_sample(-u), -f, "odd at {u}");
            if u.abs() <= EVAL_LIMIT {
                assert_eq!(f, u);
            } else {
                assert!(
                    f.abs() > EVAL_LIMIT - 1 && f.abs() < MATE_BOUND,
                    "band at {u}"
                );
            }
            prev = f;
        }
    }

    #[test]
    fn sample_windows_are_exact_preimages() {
        let ys = [
            -INF,
            -MATE,
            -MATE_BOUND - 1,
            -25_000,
            -EVAL_LIMIT - 2,
            -EVAL_LIMIT - 1,
            -EVAL_LIMIT,
            -EVAL_LIMIT + 1,
            -35,
            0,
            17,
            EVAL_LIMIT - 1,
            EVAL_LIMIT,
            EVAL_LIMIT + 1,
            EVAL_LIMIT + 2,
            24_999,
            MATE_BOUND,
            MATE,
            INF,
        ];
        for &alpha in &ys {
            for &beta in &ys {
                let (a, b) = sample_window(alpha, beta);
                for u in (-INF..=INF)
                    .step_by(7)
                    .chain(EVAL_LIMIT - 5..EVAL_LIMIT + 5)
                {
                    let f = through_sample(u);
                    if a > -INF {
                        assert_eq!(f <= alpha, u <= a, "alpha {alpha} u {u}");
                    }
                    if b < INF {
                        assert_eq!(f >= beta, u >= b, "beta {beta} u {u}");
                    }
                }
            }
        }
    }

    /// `xiangqi-mates.epd` mate2.001: Black's e6e5 mates in 3, a0a1 in 2. A mate-in-3 claim on
    /// e6e5 is proved, and the prover answers with a0a1 in 2: the mate 2 belongs to a0a1, and
    /// e6e5 itself must not be reported as `mate 2` (an interrupted iteration's best move once
    /// was, through the final answer).
    #[test]
    fn a_shorter_mate_found_by_the_prover_is_reported_with_its_own_move() {
        let rules = jieqi_core::Rules::xiangqi();
        let pos = Position::from_fen(
            "3akab2/9/2n1b1n2/p1p1p1p1p/4C4/P8/4P3P/9/1c2K4/cN1r1Ar2 b - - 0 22",
            &rules,
        )
        .unwrap();
        let opts = Options::default();
        let mut s = Searcher::new(pos, &opts, None, Vec::new());
        let (slow, fast): (Move, Move) = ("e6e5".parse().unwrap(), "a0a1".parse().unwrap());
        let mate_in_3 = MATE - 5;
        assert_eq!(to_score(mate_in_3), Score::Mate(3));
        assert_eq!(s.claim_score(slow, mate_in_3), Score::Cp(WIN_CP - 5));
        assert_eq!(s.settle(slow, mate_in_3), (fast, true));
        assert_eq!(s.claim_score(fast, mate_in_3), Score::Mate(2));
    }

    #[test]
    fn proof_budgets_follow_the_search_and_the_limit() {
        assert_eq!(proof_budget(0, u64::MAX), PROOF_NODES_MIN);
        assert_eq!(proof_budget(4_000_000, u64::MAX), 1_000_000);
        assert_eq!(proof_budget(u64::MAX, u64::MAX), PROOF_NODES_MAX);
        assert_eq!(proof_budget(4_000_000, 10), 10);
    }
}
