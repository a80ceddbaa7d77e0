//! Search options: the spec keys as one table ([`KEYS`]), the options they fill, and the few
//! fields only tests set.

use jieqi_engine::{Key, Values};

use super::*;

/// Every spec key of `alphabeta`, with its default, range, help and tuning range: the one place a
/// key is declared (see [`jieqi_engine::keys`]). The numeric keys after `prove` are the search's
/// margins, reductions and depth limits; their defaults are the values the search was tuned with.
pub const KEYS: &[Key] = &[
    Key::int(
        "depth",
        "",
        (0, 1000),
        "search depth; with no limit at all the search stops after 1000000 nodes, about half a \
         second (0: none)",
    ),
    Key::int("hash", "16", (1, 65_536), "transposition table MB"),
    Key::int(
        "threads",
        "1",
        (1, MAX_THREADS as i64),
        "Lazy SMP search threads sharing the table, the deepest completed iteration answers; 1 \
         is reproducible under node limits",
    ),
    Key::switch("tt", "true", "transposition table"),
    Key::int(
        "contempt",
        "20",
        (-10_000, 10_000),
        "centipawns a draw costs the engine's side",
    )
    .tuned(0.0, 60.0),
    Key::text(
        "eval",
        "",
        "evaluation weights JSON (none: the built-in configs/eval/learned.json, learned from our \
         games by scripts/train-eval.sh; configs/eval/default.json is the hand-crafted set)",
    ),
    Key::int(
        "chance",
        "0",
        (0, u32::MAX as i64),
        "hidden-piece moves are exact chance nodes in the first N plies, deeper one identity is \
         sampled and priced at the expectation; a large N is exact everywhere",
    ),
    Key::switch(
        "qsearch",
        "true",
        "quiescence search on captures at the leaves",
    ),
    Key::switch(
        "delta",
        "true",
        "delta pruning in quiescence (margin qs_delta)",
    ),
    Key::switch(
        "see",
        "true",
        "quiescence skips a capture by a piece worth more than its victim (by see_margin) onto \
         a square the opponent can take back on, unless it gives check",
    ),
    Key::switch(
        "see_order",
        "true",
        "such captures are ordered after the quiet moves",
    ),
    Key::switch("counter", "true", "counter-move ordering"),
    Key::switch("null", "true", "null-move pruning"),
    Key::switch("lmr", "true", "late-move reductions"),
    Key::switch(
        "futility",
        "true",
        "reverse futility, futility and move-count pruning near the leaves (a quiet move that \
         gives check is never pruned or reduced)",
    ),
    Key::switch("check_ext", "true", "one more ply for a side in check"),
    Key::switch("aspiration", "true", "aspiration windows at the root"),
    Key::switch(
        "prove",
        "true",
        "root mate claims go to the exhaustive prover; false: no claim is proved, every mate is \
         reported as a finite score",
    ),
    Key::int(
        "rfp_margin",
        "150",
        (0, 5_000),
        "reverse futility: a node whose static evaluation exceeds beta by this much per ply of \
         depth fails high",
    )
    .tuned(75.0, 300.0),
    Key::int(
        "rfp_depth",
        "3",
        (0, 100),
        "reverse futility up to this depth",
    )
    .tuned(1.0, 6.0),
    Key::int(
        "fp_margin",
        "150",
        (0, 5_000),
        "futility: a quiet move is skipped when the static evaluation plus this much per ply of \
         depth plus fp_base stays at or below alpha",
    )
    .tuned(75.0, 300.0),
    Key::int("fp_base", "50", (0, 5_000), "futility's constant margin").tuned(0.0, 150.0),
    Key::int(
        "fp_depth",
        "3",
        (0, 100),
        "futility pruning up to this depth",
    )
    .tuned(1.0, 6.0),
    Key::int(
        "lmp_base",
        "3",
        (0, 500),
        "move-count pruning: quiet moves from number lmp_base + depth² on are skipped",
    )
    .tuned(1.0, 8.0),
    Key::int(
        "lmp_depth",
        "3",
        (0, 100),
        "move-count pruning up to this depth",
    )
    .tuned(1.0, 6.0),
    Key::int(
        "null_base",
        "3",
        (0, 100),
        "null-move reduction: null_base + depth / null_div plies",
    )
    .tuned(1.0, 5.0),
    Key::int(
        "null_div",
        "6",
        (1, 100),
        "null-move reduction's depth divisor",
    )
    .tuned(3.0, 12.0),
    Key::int("null_depth", "3", (0, 100), "null move from this depth on").tuned(2.0, 5.0),
    Key::int(
        "null_pieces",
        "5",
        (0, 16),
        "null move only when the side to move has more pieces than this (zugzwang guard)",
    )
    .tuned(2.0, 8.0),
    Key::int(
        "lmr_depth",
        "3",
        (1, 100),
        "late-move reductions from this depth on",
    )
    .tuned(2.0, 5.0),
    Key::int(
        "lmr_move",
        "3",
        (1, 200),
        "late-move reductions from this move number on (from 0)",
    )
    .tuned(1.0, 6.0),
    Key::int(
        "lmr_div",
        "200",
        (1, 10_000),
        "reduction ln(depth)·ln(move) / (lmr_div / 100) + lmr_add plies",
    )
    .tuned(100.0, 400.0),
    Key::int(
        "lmr_add",
        "1",
        (0, 10),
        "late-move reduction's constant plies",
    )
    .tuned(0.0, 2.0),
    Key::int(
        "asp_window",
        "40",
        (1, 5_000),
        "first aspiration half-window, centipawns",
    )
    .tuned(15.0, 100.0),
    Key::int(
        "asp_growth",
        "4",
        (2, 100),
        "an aspiration window's side is multiplied by this on a fail",
    )
    .tuned(2.0, 8.0),
    Key::int(
        "asp_depth",
        "4",
        (1, 100),
        "aspiration windows from this depth on",
    )
    .tuned(2.0, 7.0),
    Key::int(
        "qs_delta",
        "200",
        (0, 5_000),
        "delta-pruning margin in quiescence",
    )
    .tuned(100.0, 400.0),
    Key::int(
        "see_margin",
        "50",
        (0, 5_000),
        "how much more than its victim a capturer must be worth for a capture onto a defended \
         square to count as losing",
    )
    .tuned(0.0, 150.0),
    Key::int(
        "history_pct",
        "100",
        (0, 10_000),
        "history bonus of a quiet cut-off move: depth² × history_pct / 100",
    )
    .tuned(50.0, 200.0),
];

/// Search options: what the spec keys ([`KEYS`]) set, plus the switches only tests set.
#[derive(Clone, Debug)]
pub struct Options {
    /// Use a transposition table (`tt`).
    pub tt: bool,
    /// Table size in MB (`hash`).
    pub hash_mb: usize,
    /// Cut off only on table entries of exactly the remaining depth (test-only; no key).
    pub exact_tt: bool,
    /// Star1 windows at chance nodes; false: every chance child gets the full window
    /// (test-only; no key).
    pub star1: bool,
    /// Star2 probing before Star1 (test-only; no key).
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
    /// Reverse futility, futility and move-count pruning near the leaves.
    pub futility: bool,
    /// One more ply for a side in check.
    pub check_extension: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Search threads (Lazy SMP: helpers share the table). 1 is deterministic under node limits.
    pub threads: usize,
    /// Quiescence skips a capture by a piece worth more than its victim (by
    /// [`Options::see_margin`]) when the victim's square is defended
    /// ([`jieqi_core::Position::is_recapturable`]) and the capture does not give check.
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
    /// Reverse futility margin per ply of remaining depth (`rfp_margin`).
    pub rfp_margin: i32,
    /// Deepest remaining depth of reverse futility pruning (`rfp_depth`).
    pub rfp_depth: i32,
    /// Futility margin of a quiet move per ply of remaining depth (`fp_margin`).
    pub fp_margin: i32,
    /// Futility's constant margin (`fp_base`).
    pub fp_base: i32,
    /// Deepest remaining depth of futility pruning (`fp_depth`).
    pub fp_depth: i32,
    /// Move-count pruning skips quiet moves from number `lmp_base + depth²` on (`lmp_base`).
    pub lmp_base: i32,
    /// Deepest remaining depth of move-count pruning (`lmp_depth`).
    pub lmp_depth: i32,
    /// Null-move reduction `null_base + depth / null_div` (`null_base`).
    pub null_base: i32,
    /// Null-move reduction's depth divisor (`null_div`, at least 1).
    pub null_div: i32,
    /// Least remaining depth of a null move (`null_depth`).
    pub null_depth: i32,
    /// A null move needs more pieces than this for the side to move (`null_pieces`).
    pub null_pieces: u32,
    /// Least remaining depth of a late-move reduction (`lmr_depth`).
    pub lmr_depth: i32,
    /// First move number (from 0) a late-move reduction applies to (`lmr_move`).
    pub lmr_move: usize,
    /// Late-move reduction `ln(depth)·ln(k) / (lmr_div / 100) + lmr_add` (`lmr_div`, at least 1).
    pub lmr_div: i32,
    /// Late-move reduction's constant plies (`lmr_add`).
    pub lmr_add: i32,
    /// First aspiration half-window, centipawns (`asp_window`, at least 1).
    pub asp_window: i32,
    /// Factor a failed aspiration window's side grows by (`asp_growth`, at least 2).
    pub asp_growth: i32,
    /// Least depth searched with an aspiration window (`asp_depth`).
    pub asp_depth: i32,
    /// Delta-pruning margin in quiescence (`qs_delta`).
    pub qs_delta: i32,
    /// How much more than its victim a capturer must be worth for a capture onto a defended
    /// square to count as losing ([`Options::see`], [`Options::see_order`]), centipawns.
    pub see_margin: i32,
    /// History bonus of a quiet cut-off move: `depth² × history_pct / 100`.
    pub history_pct: i32,
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
            see: false,
            ..Options::default()
        }
    }

    /// The options the key values `v` (of [`KEYS`]) say, with these evaluation weights.
    fn from_values(v: &Values, eval: EvalWeights) -> Options {
        let usize_of = |key| usize::try_from(v.int(key)).expect("a key of [0, 65536]");
        Options {
            tt: v.bool("tt"),
            hash_mb: usize_of("hash"),
            exact_tt: false,
            star1: true,
            star2: false,
            qsearch: v.bool("qsearch"),
            delta: v.bool("delta"),
            contempt: v.i32("contempt"),
            eval,
            chance_plies: u32::try_from(v.int("chance")).expect("a key of [0, u32::MAX]"),
            null_move: v.bool("null"),
            lmr: v.bool("lmr"),
            futility: v.bool("futility"),
            check_extension: v.bool("check_ext"),
            aspiration: v.bool("aspiration"),
            threads: usize_of("threads"),
            see: v.bool("see"),
            counter: v.bool("counter"),
            see_order: v.bool("see_order"),
            prove: v.bool("prove"),
            rfp_margin: v.i32("rfp_margin"),
            rfp_depth: v.i32("rfp_depth"),
            fp_margin: v.i32("fp_margin"),
            fp_base: v.i32("fp_base"),
            fp_depth: v.i32("fp_depth"),
            lmp_base: v.i32("lmp_base"),
            lmp_depth: v.i32("lmp_depth"),
            null_base: v.i32("null_base"),
            null_div: v.i32("null_div"),
            null_depth: v.i32("null_depth"),
            null_pieces: u32::try_from(v.int("null_pieces")).expect("a key of [0, 16]"),
            lmr_depth: v.i32("lmr_depth"),
            lmr_move: usize_of("lmr_move"),
            lmr_div: v.i32("lmr_div"),
            lmr_add: v.i32("lmr_add"),
            asp_window: v.i32("asp_window"),
            asp_growth: v.i32("asp_growth"),
            asp_depth: v.i32("asp_depth"),
            qs_delta: v.i32("qs_delta"),
            see_margin: v.i32("see_margin"),
            history_pct: v.i32("history_pct"),
        }
    }
}

impl Default for Options {
    /// Every key at its default ([`KEYS`]), the built-in weights, and the test-only switches as
    /// the engine plays (Star1 on, Star2 and the exact table off).
    fn default() -> Options {
        Options::from_values(&Values::defaults(KEYS), EvalWeights::learned().clone())
    }
}

/// Reads a spec into search options and the default depth.
pub(super) fn options_from_spec(spec: &Spec) -> Result<(Options, Option<u32>), SpecError> {
    let v = Values::read(spec, KEYS)?;
    let eval = match v.text("eval") {
        "" => EvalWeights::learned().clone(),
        path => EvalWeights::from_json_file(path).map_err(|message| SpecError {
            spec: spec.to_string(),
            message,
        })?,
    };
    let depth = v
        .opt_int("depth")
        .and_then(|d| u32::try_from(d).ok())
        .filter(|d| *d > 0);
    Ok((Options::from_values(&v, eval), depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's defaults are the engine's: every default parses, and a spec that names no key
    /// reads the same options as `Options::default()`.
    #[test]
    fn the_table_defaults_are_the_options_defaults() {
        let d = Options::default();
        let (read, depth) = options_from_spec(&Spec::parse("alphabeta").unwrap()).unwrap();
        assert_eq!(format!("{d:?}"), format!("{read:?}"));
        assert_eq!(depth, None);
        assert_eq!(
            (
                d.rfp_margin,
                d.lmr_div,
                d.asp_window,
                d.qs_delta,
                d.see_margin
            ),
            (150, 200, 40, 200, 50)
        );
        for k in KEYS {
            if let Some(t) = k.tune {
                let start: f64 = k.default.parse().unwrap();
                assert!(t.min <= start && start <= t.max, "{}", k.name);
            }
        }
    }

    #[test]
    fn numeric_keys_are_read_and_checked() {
        let spec = Spec::parse("alphabeta:depth=4,rfp_margin=120,lmr_div=250,null_pieces=3");
        let (o, depth) = options_from_spec(&spec.unwrap()).unwrap();
        assert_eq!((o.rfp_margin, o.lmr_div, o.null_pieces), (120, 250, 3));
        assert_eq!(depth, Some(4));
        for (text, want) in [
            (
                "alphabeta:hash=0",
                "parameter 'hash' = 0 is outside [1, 65536]",
            ),
            (
                "alphabeta:threads=999",
                "parameter 'threads' = 999 is outside [1, 256]",
            ),
            (
                "alphabeta:asp_growth=1",
                "parameter 'asp_growth' = 1 is outside [2, 100]",
            ),
            (
                "alphabeta:prune_checks=true",
                "unknown parameter 'prune_checks'",
            ),
        ] {
            let e = options_from_spec(&Spec::parse(text).unwrap()).unwrap_err();
            assert!(e.to_string().contains(want), "{text}: {e}");
        }
    }
}
