//! One game as a page a person steps through in a browser ([`page`]): the board in the
//! traditional style, the public and the true view of the hidden pieces, the move list, an
//! evaluation chart and what the engines (and, given one, a reference's [`Analysis`]) said of
//! each ply.
//!
//! The page is one self-contained file: inline CSS and JS (`viewer.css`, `viewer.js` beside this
//! file, pulled in with `include_str!`) and the font of its Chinese characters ([`font`]), no
//! network, no other file. Everything that is game logic
//! is computed here, in Rust, from the referee's [`Game`]s: per position the public board (one
//! 90-character string in square-index order, `a0 b0 … i0 a1 … i9`: FEN letters, `X`/`x` for a
//! hidden piece, `.` empty) and the true identities of its hidden pieces (one letter each, in the
//! same order), per ply the move and what it revealed and captured, and the chart's points. The
//! data is one JSON object in `<script type="application/json" id="game">` (see [`GameData`]);
//! the script only draws it, so the HTML holds no per-ply markup and stays small.
//!
//! Every text from a record (engine names, the title, notes) is untrusted: the header escapes it
//! for HTML, the JSON block cannot end early (`</` is written `<\/`, `<!--` as `\u003c!--`), and
//! the script puts text in the page with `textContent` only.

use std::path::{Path, PathBuf};

use jieqi_core::{Color, Game, Occupant, Role, Square};
use serde::Serialize;

use crate::analysis::{Analysis, StudyGame, expected};
use crate::records::GameResult;
use crate::util::text::printable;

pub mod font;

/// The page's style sheet.
const CSS: &str = include_str!("viewer.css");
/// The page's script: draws the board, the chart, the move list and the panel from the JSON.
const JS: &str = include_str!("viewer.js");

/// Where the viewer page of game `number` (its number in the folder's `games.csv`) of a match
/// folder goes: `<match folder>/games/game-<number>.html`.
pub fn game_page_path(match_folder: &Path, number: u64) -> PathBuf {
    match_folder
        .join("games")
        .join(format!("game-{number}.html"))
}

/// The viewer page of `game`, with the reference's verdicts when `analysis` is given: one
/// self-contained HTML document.
pub fn page(game: &StudyGame, analysis: Option<&Analysis>) -> String {
    let data = GameData::new(game, analysis);
    let json = script_json(&serde_json::to_string(&data).expect("plain data serializes"));
    let title = printable(&game.title);
    let (red, black) = (printable(&game.red), printable(&game.black));
    let mut head = String::new();
    head.push_str(&format!("<h1>{}</h1>\n", esc(&title)));
    head.push_str(&format!(
        "<p class=\"players\"><span class=\"side red\">Red</span> {} \
         <span class=\"vs\">vs</span> <span class=\"side black\">Black</span> {}</p>\n",
        esc(&red),
        esc(&black)
    ));
    let mut facts = vec![format!(
        "Result <b>{}</b> ({})",
        game.result.text(),
        esc(&printable(&game.ending))
    )];
    facts.push(format!(
        "{} pl{}",
        game.moves.len(),
        if game.moves.len() == 1 { "y" } else { "ies" }
    ));
    facts.push(format!("rules {}", esc(game.start.rules().name.as_str())));
    if let Some(seed) = game.seed {
        facts.push(format!("deal seed {seed}"));
    }
    head.push_str(&format!("<p class=\"facts\">{}</p>\n", facts.join(" · ")));
    if let Some(a) = analysis {
        head.push_str(&format!(
            "<div class=\"summary\"><p>Reference: {}</p>",
            esc(&printable(&a.reference))
        ));
        if !a.summary.lines.is_empty() {
            head.push_str("<ul>");
            for line in &a.summary.lines {
                head.push_str(&format!("<li>{}</li>", esc(&printable(line))));
            }
            head.push_str("</ul>");
        }
        head.push_str("</div>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>\n{font}{CSS}</style>\n</head>\n<body>\n\
         <header>\n{head}</header>\n{BODY}\
         <script type=\"application/json\" id=\"game\">{json}</script>\n\
         <script>\n{JS}</script>\n</body>\n</html>\n",
        title = esc(&title),
        font = font::font_face(),
    )
}

/// The page's fixed markup: the script fills it.
const BODY: &str = r#"<main>
<section class="left">
<div class="controls">
<button type="button" id="first" title="Start (Home)">|&lt;</button>
<button type="button" id="prev" title="Back one ply (&#8592;)">&lt;</button>
<span id="plyno" class="plyno">ply 0</span>
<button type="button" id="next" title="Forward one ply (&#8594;)">&gt;</button>
<button type="button" id="last" title="End (End)">&gt;|</button>
<span class="views">
<button type="button" id="view-public" class="on" title="What both players see (T switches)">Public view</button>
<button type="button" id="view-true" title="Every hidden piece with its true identity (T switches)">True view</button>
</span>
</div>
<p id="view-note" class="note"></p>
<svg id="board" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="the board"></svg>
<svg id="chart" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="evaluation chart"></svg>
<div id="legend" class="legend"></div>
<p class="keys">Keys: &#8592; &#8594; one ply, &#8593; &#8595; one move, Home / End, T the view. Click a move or a chart mark to go there; the address (<code>#ply=K</code>, <code>&amp;view=true</code>) keeps the ply and the view.</p>
</section>
<section class="right">
<div id="info" class="info"></div>
<div id="moves" class="moves"></div>
</section>
</main>
<noscript><p>This page draws the game with JavaScript.</p></noscript>
"#;

/// HTML-escapes text for element content and quoted attributes.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON made safe inside a `<script>` element: it cannot close the element (`</` becomes `<\/`,
/// the same string to a JSON reader) nor open a comment that would hide the element's end
/// (`<!--` becomes `\u003c!--`).
fn script_json(json: &str) -> String {
    json.replace("</", "<\\/").replace("<!--", "\\u003c!--")
}

/// Everything the page's script draws: the JSON object of `<script id="game">`.
#[derive(Serialize, Debug)]
pub struct GameData {
    /// Red's engine.
    pub red: String,
    /// Black's engine.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// How it ended.
    pub ending: String,
    /// `red` or `black`: who moves first.
    pub first: &'static str,
    /// The move number of the first move.
    pub fullmove: u32,
    /// Whether the start has hidden pieces.
    pub hidden: bool,
    /// Whether the true identities are known (`ids` is filled); see [`StudyGame::truth_known`].
    pub truth: bool,
    /// Why there is no true view, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_truth: Option<String>,
    /// The public board of every position, the start first: 90 characters in square-index order
    /// (`a0 … i0 a1 … i9`), FEN letters, `X`/`x` hidden, `.` empty.
    pub boards: Vec<String>,
    /// The true identity of every hidden piece of each position, in the order of its board's
    /// `X`/`x` (uppercase Red); empty strings when the truth is not known.
    pub ids: Vec<String>,
    /// Every ply.
    pub plies: Vec<PlyData>,
    /// The evaluation chart.
    pub chart: ChartData,
    /// The reference, when the page has an analysis.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// One ply, for the move list, the marks and the panel.
#[derive(Serialize, Debug)]
pub struct PlyData {
    /// The move with its reveal and capture letters (`h2h9Rn`).
    pub text: String,
    /// `red` or `black`.
    pub mover: &'static str,
    /// Where it came from (`h2`).
    pub from: String,
    /// Where it went.
    pub to: String,
    /// The piece it revealed (FEN letter), if it revealed one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reveal: Option<String>,
    /// The piece it captured (FEN letter; `X`/`x` for a hidden piece whose identity is not
    /// known), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captured: Option<String>,
    /// Whether the captured piece was hidden.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub captured_hidden: bool,
    /// Whether it gave check.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub check: bool,
    /// What the engine that moved said.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineData>,
    /// The reference's verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<VerdictData>,
}

/// What the engine that moved reported.
#[derive(Serialize, Debug)]
pub struct EngineData {
    /// Its score as printed, from its own view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// Depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Nodes.
    pub nodes: u64,
    /// Milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<f64>,
    /// Principal variation.
    pub pv: Vec<String>,
}

/// The reference's verdict on one ply, as the panel shows it.
#[derive(Serialize, Debug)]
pub struct VerdictData {
    /// Its best move.
    pub best: String,
    /// The best move's score, printed.
    pub best_score: String,
    /// The played move's score, printed.
    pub played_score: String,
    /// Expected-score points lost.
    pub loss: f64,
    /// The loss in centipawns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss_cp: Option<i32>,
    /// `inaccuracy`, `mistake`, `blunder`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<&'static str>,
    /// `?!`, `?`, `??`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<&'static str>,
    /// The mover's luck in what a reveal or capture turned out to be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<f64>,
    /// What the chance was: `reveal`, `hidden capture`, `reveal and hidden capture`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance_from: Option<&'static str>,
    /// A remark.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The reference's principal variation.
    pub pv: Vec<String>,
    /// The omniscient search's best move and score (only when the truth is known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omniscient: Option<(String, String)>,
}

/// The chart's series, each indexed by position (0 the start, `n` after the last ply), in Red's
/// expected score 0..1; `null` where there is no point.
#[derive(Serialize, Debug)]
pub struct ChartData {
    /// What Red's engine said of the positions it moved in.
    pub red_engine: Vec<Option<f64>>,
    /// What Black's engine said of the positions it moved in, turned to Red's view.
    pub black_engine: Vec<Option<f64>>,
    /// The reference's fair curve from Red's view throughout ([`Analysis::red_view_curve`]),
    /// ending at [`Analysis::end`] (the result when that is not known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<Vec<Option<f64>>>,
    /// The omniscient search's curve, when it ran and the truth is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omniscient: Option<Vec<Option<f64>>>,
    /// The classed moves: ply, the reference curve's point after the move (where the line it
    /// marks ends; the move's own score in Red's view where the curve has no point), class name.
    pub marks: Vec<(usize, f64, &'static str)>,
}

/// The name of a side, as the page's data spells it.
fn side(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// A mover's expected score `e` in Red's view.
fn red_view(mover: Color, e: f64) -> f64 {
    match mover {
        Color::Red => e,
        Color::Black => 1.0 - e,
    }
}

/// A FEN letter of `role` in `color`'s case.
fn letter(role: Role, color: Color) -> String {
    let c = match color {
        Color::Red => role.upper_char(),
        Color::Black => role.char(),
    };
    c.to_string()
}

/// The public board of a game's position and the true identities of its hidden pieces (empty
/// when `truth` is false), as [`GameData::boards`] and [`GameData::ids`] hold them.
fn board_strings(game: &Game, truth: bool) -> (String, String) {
    let pos = game.position();
    let mut board = String::with_capacity(90);
    let mut ids = String::new();
    for sq in Square::all() {
        match pos.occupant(sq) {
            None => board.push('.'),
            Some(occ) => {
                board.push(occ.char());
                if let (Occupant::Hidden(color), true) = (occ, truth) {
                    match game.truth().identity(sq) {
                        Some(role) => ids.push_str(&letter(role, color)),
                        None => ids.push('?'),
                    }
                }
            }
        }
    }
    (board, ids)
}

/// Red's score of a result: 1, 0 or ½.
fn result_score(result: GameResult) -> f64 {
    match result {
        GameResult::RedWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
    }
}

impl GameData {
    /// The page's data of `game` and, when given, `analysis`.
    pub fn new(game: &StudyGame, analysis: Option<&Analysis>) -> GameData {
        let games = game.games();
        let records = games
            .last()
            .map(|g| g.records().to_vec())
            .unwrap_or_default();
        let start = game.start.position();
        let hidden = Color::ALL.into_iter().any(|c| start.hidden_count(c) > 0);
        let truth = game.truth_known;
        let (boards, ids): (Vec<String>, Vec<String>) =
            games.iter().map(|g| board_strings(g, truth)).unzip();
        let n = records.len();
        let verdict_of = |ply: usize| analysis.and_then(|a| a.plies.iter().find(|p| p.ply == ply));
        let mut chart = ChartData {
            red_engine: vec![None; n + 1],
            black_engine: vec![None; n + 1],
            reference: None,
            omniscient: None,
            marks: Vec::new(),
        };
        let mut plies = Vec::with_capacity(n);
        for (i, r) in records.iter().enumerate() {
            let ply = i + 1;
            let mover = r.mover;
            let mut played = r.played;
            // A made-up identity is no record of what was captured.
            if r.captured_hidden && !truth {
                played.capture = None;
            }
            let captured = r.captured.map(|p| {
                if r.captured_hidden && !truth {
                    Occupant::Hidden(p.color).char().to_string()
                } else {
                    letter(p.role, p.color)
                }
            });
            let engine = game.recorded.get(i).and_then(Option::as_ref).map(|info| {
                let score = info.score.as_deref().map(printable);
                if let Some(e) = score
                    .as_deref()
                    .and_then(jieqi_engine::Score::parse)
                    .map(expected)
                {
                    // The engine's score is of the position it moved in: position i.
                    let series = match mover {
                        Color::Red => &mut chart.red_engine,
                        Color::Black => &mut chart.black_engine,
                    };
                    series[i] = Some(red_view(mover, e));
                }
                EngineData {
                    score,
                    depth: info.depth,
                    nodes: info.nodes,
                    ms: info.ms,
                    pv: info.pv.iter().map(|m| printable(m)).collect(),
                }
            });
            let verdict = verdict_of(ply).map(|v| {
                if let Some(class) = v.class {
                    // Placed on the curve below, once it is drawn.
                    chart
                        .marks
                        .push((ply, red_view(mover, v.played_expected), class.name()));
                }
                VerdictData {
                    best: printable(&v.best),
                    best_score: printable(&v.best_score),
                    played_score: printable(&v.played_score),
                    loss: v.loss,
                    loss_cp: v.loss_cp,
                    class: v.class.map(|c| c.name()),
                    mark: v.class.map(|c| c.mark()),
                    chance: v.chance,
                    chance_from: v.chance_from,
                    note: v.note.as_deref().map(printable),
                    pv: v.pv.iter().map(|m| printable(m)).collect(),
                    omniscient: v
                        .omniscient
                        .as_ref()
                        .filter(|_| truth)
                        .map(|o| (printable(&o.best), printable(&o.score))),
                }
            });
            plies.push(PlyData {
                text: played.to_text(mover),
                mover: side(mover),
                from: r.played.mv.from.to_string(),
                to: r.played.mv.to.to_string(),
                reveal: r.played.reveal.map(|role| letter(role, mover)),
                captured,
                captured_hidden: r.captured_hidden,
                check: r.check,
                engine,
                verdict,
            });
        }
        if let Some(a) = analysis {
            chart.add_analysis(a, result_score(game.result), n, truth);
        }
        let no_truth = if !hidden {
            Some("no hidden pieces in this game: the public view is the whole truth".to_string())
        } else if !truth {
            Some(
                "true view unavailable: the source does not give the deal, so the identities \
                 of pieces never revealed are not known"
                    .to_string(),
            )
        } else {
            None
        };
        GameData {
            red: printable(&game.red),
            black: printable(&game.black),
            result: game.result.text().to_string(),
            ending: printable(&game.ending),
            first: side(game.start.turn()),
            fullmove: start.fullmoves(),
            hidden,
            truth: truth && hidden,
            no_truth,
            boards,
            ids,
            plies,
            chart,
            reference: analysis.map(|a| printable(&a.reference)),
        }
    }
}

impl ChartData {
    /// Adds the analysis `a` of a game of `n` plies: the reference curve, from Red's view
    /// throughout, with every classed move's mark placed on it, and the omniscient curve when
    /// the truth is shown (`truth`) and was searched. `result` is Red's score of the result.
    fn add_analysis(&mut self, a: &Analysis, result: f64, n: usize, truth: bool) {
        // Red's score at the end: the analysis's (the result when the rules ended the game,
        // else the reference's score of the final position), or the result.
        let end = a.end.unwrap_or(result);
        // The curve has its end point only when the analysis covers every ply.
        let complete =
            a.plies.len() == n && a.plies.iter().enumerate().all(|(i, p)| p.ply == i + 1);
        let curve = a.red_view_curve(n, complete.then_some(end));
        for mark in &mut self.marks {
            if let Some(y) = curve[mark.0] {
                mark.1 = y;
            }
        }
        self.reference = Some(curve);
        if truth && a.plies.iter().any(|p| p.omniscient.is_some()) {
            let mut omni = vec![None; n + 1];
            for p in &a.plies {
                if let (Some(o), true) = (&p.omniscient, (1..=n).contains(&p.ply)) {
                    let mover = if p.mover == "red" {
                        Color::Red
                    } else {
                        Color::Black
                    };
                    omni[p.ply - 1] = Some(red_view(mover, o.expected));
                }
            }
            if complete {
                omni[n] = Some(end);
            }
            self.omniscient = Some(omni);
        }
    }
}

#[cfg(test)]
mod tests;
