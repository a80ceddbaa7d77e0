//! Search options: the spec keys, their defaults and the spec parser.

use super::*;

/// Search switches (the spec keys, plus what tests need).
#[derive(Clone, Debug)]
pub struct Options {
    /// Use a transposition table.
    pub tt: bool,
    /// Table size in MB.
    pub hash_mb: usize,
    /// Cut off only on table entries of exactly the remaining depth (test switch).
    pub exact_tt: bool,
    /// Star1 windows at chance nodes (false: every chance child gets the full window).
    pub star1: bool,
    /// Star2 probing before Star1.
    pub star2: bool,
    /// Quiescence search at the leaves (false: static evaluation).
    pub qsearch: bool,
    /// Delta pruning in quiescence (skips captures that cannot reach alpha; makes quiescence
    /// values depend on the window).
    pub delta: bool,
    /// Value of a draw to the engine's side, negated (centipawns).
    pub contempt: i32,
    /// Evaluation weights.
    pub eval: EvalWeights,
    /// Plies from the root at which hidden-piece moves are exact chance nodes; deeper, each is
    /// played as one sampled identity, priced at the expectation (see [`reveal_price`]).
    /// `u32::MAX`: exact everywhere (plain expectiminimax).
    pub chance_plies: u32,
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Reverse futility pruning near the leaves.
    pub futility: bool,
    /// One more ply for a side in check.
    pub check_extension: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// At the exact chance plies, a move after the first is tested first on one sampled identity
    /// (as below the horizon) with a null window, and searched exactly only if that fails high.
    pub late_sample: bool,
    /// Search threads (Lazy SMP: helpers share the table). 1 is deterministic under node limits.
    pub threads: usize,
    /// Quiescence skips a capture by a piece worth more than its victim when the victim's
    /// square is defended ([`jieqi_core::Position::is_recapturable`]) and the capture does not
    /// give check.
    pub see: bool,
    /// Counter-move heuristic: the quiet move that last refuted the opponent's previous move is
    /// tried right after the killers.
    pub counter: bool,
    /// Captures that lose their capturer for less (as [`Options::see`] tells them) are tried
    /// after the quiet moves.
    pub see_order: bool,
    /// Root mate claims go to the prover (see [`super::claim`]); off, no claim is proved: every
    /// mate is reported as a finite score and the search never stops early on one.
    pub prove: bool,
    /// Quiet moves that give check are reduced (late-move reductions) and pruned (futility and
    /// move-count pruning) like the other quiet moves; false (the default): they are neither.
    pub prune_checks: bool,
}

impl Options {
    /// The exact search the reference tests compare with: chance nodes everywhere, no pruning
    /// that changes values (null move, reductions, futility, extensions, aspiration and the
    /// losing-capture skip off).
    pub fn exact() -> Options {
        Options {
            chance_plies: u32::MAX,
            null_move: false,
            lmr: false,
            futility: false,
            check_extension: false,
            aspiration: false,
            late_sample: false,
            see: false,
            ..Options::default()
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            tt: true,
            hash_mb: 16,
            exact_tt: false,
            star1: true,
            star2: false,
            qsearch: true,
            delta: true,
            contempt: 20,
            eval: EvalWeights::learned().clone(),
            chance_plies: DEFAULT_CHANCE_PLIES,
            null_move: true,
            lmr: true,
            futility: true,
            check_extension: true,
            aspiration: true,
            late_sample: true,
            threads: 1,
            see: true,
            counter: true,
            see_order: true,
            prove: true,
            prune_checks: false,
        }
    }
}

/// Reads a spec into search options and the default depth.
pub(super) fn options_from_spec(spec: &Spec) -> Result<(Options, Option<u32>), SpecError> {
    let mut p = spec.params();
    let depth: u32 = p.get("depth", 0)?;
    let hash_mb: usize = p.get("hash", 16)?;
    let contempt: i32 = p.get("contempt", 20)?;
    let star1: bool = p.get("star1", true)?;
    let star2: bool = p.get("star2", false)?;
    let qsearch: bool = p.get("qsearch", true)?;
    let delta: bool = p.get("delta", true)?;
    let tt: bool = p.get("tt", true)?;
    let exact_tt: bool = p.get("exact_tt", false)?;
    let eval_path: String = p.get("eval", String::new())?;
    let chance_plies: u32 = p.get("chance", DEFAULT_CHANCE_PLIES)?;
    let null_move: bool = p.get("null", true)?;
    let lmr: bool = p.get("lmr", true)?;
    let futility: bool = p.get("futility", true)?;
    let check_extension: bool = p.get("check_ext", true)?;
    let aspiration: bool = p.get("aspiration", true)?;
    let threads: usize = p.get("threads", 1)?;
    let late_sample: bool = p.get("late_sample", true)?;
    let see: bool = p.get("see", true)?;
    let counter: bool = p.get("counter", true)?;
    let see_order: bool = p.get("see_order", true)?;
    let prove: bool = p.get("prove", true)?;
    let prune_checks: bool = p.get("prune_checks", false)?;
    p.finish(&[
        "depth",
        "hash",
        "contempt",
        "star1",
        "star2",
        "qsearch",
        "delta",
        "tt",
        "exact_tt",
        "eval",
        "chance",
        "null",
        "lmr",
        "futility",
        "check_ext",
        "aspiration",
        "threads",
        "late_sample",
        "see",
        "counter",
        "see_order",
        "prove",
        "prune_checks",
    ])?;
    let err = |message: String| SpecError {
        spec: spec.to_string(),
        message,
    };
    if hash_mb == 0 || hash_mb > 65_536 {
        return Err(err(format!(
            "parameter 'hash' = {hash_mb} MB is outside [1, 65536]"
        )));
    }
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(err(format!(
            "parameter 'threads' = {threads} is outside [1, {MAX_THREADS}]"
        )));
    }
    if contempt.abs() > 10_000 {
        return Err(err(format!(
            "parameter 'contempt' = {contempt} is outside [-10000, 10000]"
        )));
    }
    let eval = if eval_path.is_empty() {
        EvalWeights::learned().clone()
    } else {
        EvalWeights::from_json_file(&eval_path).map_err(err)?
    };
    let opts = Options {
        tt,
        hash_mb,
        exact_tt,
        star1,
        star2,
        qsearch,
        delta,
        contempt,
        eval,
        chance_plies,
        null_move,
        lmr,
        futility,
        check_extension,
        aspiration,
        late_sample,
        threads,
        see,
        counter,
        see_order,
        prove,
        prune_checks,
    };
    Ok((opts, (depth > 0).then_some(depth)))
}
