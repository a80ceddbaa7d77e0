//! `info` lines: each token read by its arity ([`read_info`]), and a search's lines folded into
//! what its move records ([`fold_info`]).

use crate::engines::dialect::Dialect;
use jieqi_engine::{Score, SearchInfo};

/// Folds one `info` line into the search info, reading every token by its arity as the UCI
/// protocol defines it: flags without a value (`lowerbound`, `upperbound`), one value (`depth`,
/// `seldepth`, `time`, `nodes`, `nps`, `multipv`, `hashfull`, `tbhits`, `sbhits`, `cpuload`,
/// `currmove`, `currmovenumber`), `score cp|mate X`, `wdl W D L`, move lists (`pv`,
/// `refutation`, `currline`) and `string` to the end of the line. An unknown token is skipped
/// alone, so the reader finds the next known one. Moves are read in the engine's dialect.
pub(super) fn read_info(line: &str, info: &mut SearchInfo, dialect: Dialect) {
    let as_move = |w: &str| dialect.read_move(w).map(|(m, _)| m);
    let mut words = line.split_whitespace().skip(1).peekable();
    while let Some(word) = words.next() {
        match word {
            "depth" => {
                if let Some(d) = words.next().and_then(|v| v.parse().ok()) {
                    info.depth = Some(d);
                }
            }
            "nodes" => {
                if let Some(n) = words.next().and_then(|v| v.parse().ok()) {
                    info.nodes = n;
                }
            }
            "seldepth" | "time" | "nps" | "multipv" | "hashfull" | "tbhits" | "sbhits"
            | "cpuload" | "currmove" | "currmovenumber" => {
                words.next();
            }
            "score" => {
                let kind = words.next();
                match (kind, words.next().and_then(|v| v.parse::<i32>().ok())) {
                    (Some("cp"), Some(v)) => info.score = Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => info.score = Some(Score::Mate(v)),
                    _ => {}
                }
            }
            "wdl" => {
                words.nth(2);
            }
            "pv" => {
                info.pv.clear();
                while let Some(mv) = words.peek().and_then(|w| as_move(w)) {
                    info.pv.push(mv);
                    words.next();
                }
            }
            "refutation" | "currline" => {
                while words.peek().is_some_and(|w| as_move(w).is_some()) {
                    words.next();
                }
            }
            "string" => return,
            // Bound flags, and unknown tokens (skipped alone).
            _ => {}
        }
    }
}

/// Folds one `info` line of a search into what the move records: the nodes are the most any
/// line reported (the engine's running count: a last line without `nodes`, or a helper thread's
/// smaller count, does not lower it), and the depth, score and principal variation are those of
/// the last completed iteration — a line with a `pv` and no `lowerbound`/`upperbound` — once
/// there is one (before that, of the last line that has them). An iteration in progress
/// (`currmove` lines, aspiration fails) never replaces a completed one. `completed` says whether
/// a completed iteration was seen.
pub(super) fn fold_info(line: &str, info: &mut SearchInfo, completed: &mut bool, dialect: Dialect) {
    let mut this = SearchInfo::default();
    read_info(line, &mut this, dialect);
    info.nodes = info.nodes.max(this.nodes);
    let bound = line
        .split_whitespace()
        .take_while(|w| *w != "string")
        .any(|w| w == "lowerbound" || w == "upperbound");
    let iteration = !this.pv.is_empty() && !bound;
    if iteration || !*completed {
        if this.depth.is_some() {
            info.depth = this.depth;
        }
        if this.score.is_some() {
            info.score = this.score;
        }
        if !this.pv.is_empty() {
            info.pv = this.pv;
        }
    }
    *completed |= iteration;
}
