//! Arguments of `arena stats`.

use crate::cli::sprt_args::SprtArgs;

/// Arguments of `arena stats`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct StatsArgs {
    /// Pair counts from A's side in fastchess's `Ptnml(0-2)` order: LL,LD,WL+DD,WD,WW.
    ///
    /// A pair is one deal played twice with colours swapped; the five counts are the pairs A
    /// scored 0, ½, 1, 1½ and 2 points in (fishtest's pentanomial, LD also counting DL). Six counts
    /// LL,LD,WL,DD,WD,WW keep win+loss and draw+draw pairs apart; only then are the games' W/D/L
    /// and the WL/DD ratio known. Brackets and spaces are accepted, so fastchess's
    /// `[43, 61, 144, 55, 37]` can be pasted in quotes. Give this or --wdl.
    #[arg(long, value_name = "LL,LD,DW,WD,WW", conflicts_with = "wdl")]
    pub ptnml: Option<String>,
    /// Game counts from A's side: wins,draws,losses (cutechess/fastchess order W, D, L).
    ///
    /// Without pairs the estimates are trinomial: they ignore the correlation between the two
    /// games of a pair, so their error bars are wider than the pentanomial ones when games were
    /// paired. Give this or --ptnml.
    #[arg(long, value_name = "W,D,L")]
    pub wdl: Option<String>,
    /// The SPRT to compute: --sprt ELO0,ELO1, --model, --alpha, --beta.
    #[command(flatten)]
    pub sprt: SprtArgs,
    /// The two engines' names for the header, A first (the counts are A's) [default: A,B].
    #[arg(long, value_name = "A,B")]
    pub names: Option<String>,
    /// Print every number of the block as one JSON object instead (the `results` object of a
    /// match's summary.json; infinities as "inf"/"-inf", fractions rather than percentages).
    #[arg(long)]
    pub json: bool,
}
