//! The page builder: hostile text stays text, games without hidden pieces or without moves draw,
//! and the data is the referee's.

use jieqi_core::{Color, Game, Move, Occupant, Rules, Square};
use serde_json::Value;

use super::*;
use crate::analysis::verdict::Omniscient;
use crate::analysis::{Class, PlyAnalysis, Summary};
use crate::records::{GameResult, PlyInfo};

/// A game of `plies` plies at most under `rules` from deal seed `seed`: a capture when there is
/// one (so hidden pieces get taken), else a move picked by the ply number.
fn study(rules: Rules, seed: u64, plies: usize) -> StudyGame {
    let deal = crate::records::deal_seed::deal_for_seed(seed, &rules);
    let start = Game::new(rules, deal);
    let mut game = start.clone();
    let mut moves = Vec::new();
    for i in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let legal: Vec<Move> = game.legal_moves().as_slice().to_vec();
        let capture = legal
            .iter()
            .copied()
            .find(|m| m.from != m.to && game.position().occupant(m.to).is_some());
        let mv = capture.unwrap_or(legal[(i * 7) % legal.len()]);
        game.play(mv).unwrap();
        moves.push(mv);
    }
    let recorded = (0..moves.len())
        .map(|i| {
            Some(PlyInfo {
                nodes: 100 + i as u64,
                ms: Some(1.5),
                depth: Some(3),
                score: Some(if i % 2 == 0 { "+0.35" } else { "#-3" }.to_string()),
                pv: vec!["a0a1".to_string()],
            })
        })
        .collect();
    StudyGame {
        title: "test game 1".to_string(),
        start,
        truth_known: true,
        moves,
        red: "alphabeta".to_string(),
        black: "greedy".to_string(),
        result: GameResult::RedWins,
        ending: "checkmate".to_string(),
        recorded,
        seed: Some(seed),
        number: Some(1),
    }
}

/// The JSON object of a page's `<script id="game">`, parsed.
fn data_of(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"game\">";
    let start = page.find(open).expect("the data block") + open.len();
    let end = start + page[start..].find("</script>").expect("its end");
    serde_json::from_str(&page[start..end]).expect("the data block is JSON")
}

#[test]
fn hostile_names_stay_text() {
    let mut game = study(Rules::standard(), 7, 6);
    game.red = "</script><b>red</b>".to_string();
    game.black = "<!--<script>alert(1)//".to_string();
    game.title = "\"'&<title></TITLE><script>x</script>".to_string();
    game.ending = "timeout: </SCRIPT><i>late</i>".to_string();
    let html = page(&game, None);
    // Only the page's own two script elements end; no markup from a record gets in.
    assert_eq!(html.matches("</script>").count(), 2, "{html}");
    assert_eq!(html.to_lowercase().matches("</script").count(), 2);
    assert_eq!(html.to_lowercase().matches("<title>").count(), 1);
    assert!(
        html.contains(r"<\/script><b>red<\/b>"),
        "`</` is written as `<\\/` in the data"
    );
    // Outside the data block (where it is JSON text), no markup from a record.
    let open = html.find("id=\"game\">").unwrap();
    let close = open + html[open..].find("</script>").unwrap();
    let markup = format!("{}{}", &html[..open], &html[close..]);
    assert!(
        !markup.contains("<b>red")
            && !markup.contains("<i>late")
            && !markup.contains("<script>alert")
    );
    assert!(
        !html.contains("<!--<script"),
        "a comment could hide the data's end"
    );
    assert!(html.contains("&lt;/script&gt;&lt;b&gt;red&lt;/b&gt;"));
    assert!(html.contains("&quot;&#39;&amp;&lt;title&gt;"));
    // The data reads back as the names themselves.
    let data = data_of(&html);
    assert_eq!(data["red"], "</script><b>red</b>");
    assert_eq!(data["black"], "<!--<script>alert(1)//");
    assert_eq!(data["ending"], "timeout: </SCRIPT><i>late</i>");
    // The script puts data in the page as text only.
    assert!(!JS.contains("innerHTML") && !JS.contains("insertAdjacentHTML"));
    assert!(!JS.contains("document.write") && !JS.contains("eval("));
}

#[test]
fn the_page_is_self_contained() {
    let html = page(&study(Rules::standard(), 3, 10), None);
    // The only URL is the SVG namespace: no CDN, no network, no other file.
    let urls = html.matches("http").count();
    assert_eq!(urls, html.matches("http://www.w3.org/2000/svg").count());
    for attr in [
        " src=",
        " href=",
        "@import",
        "url(http",
        "fetch(",
        "XMLHttpRequest",
    ] {
        assert!(!html.contains(attr), "{attr}");
    }
    assert!(html.contains(CSS) && html.contains(JS));
}

#[test]
fn boards_and_identities_are_the_referees() {
    let game = study(Rules::standard(), 11, 30);
    let data = data_of(&page(&game, None));
    let games = game.games();
    let n = game.moves.len();
    assert!(n >= 10, "{n} plies");
    assert_eq!(data["boards"].as_array().unwrap().len(), n + 1);
    assert_eq!(data["ids"].as_array().unwrap().len(), n + 1);
    assert_eq!(data["plies"].as_array().unwrap().len(), n);
    assert_eq!(data["hidden"], true);
    assert_eq!(data["truth"], true);
    assert!(data.get("no_truth").is_none());
    for (k, g) in games.iter().enumerate() {
        let board = data["boards"][k].as_str().unwrap();
        let ids: Vec<char> = data["ids"][k].as_str().unwrap().chars().collect();
        assert_eq!(board.len(), 90);
        let mut h = 0;
        for (sq, c) in Square::all().zip(board.chars()) {
            match g.position().occupant(sq) {
                None => assert_eq!(c, '.'),
                Some(occ) => {
                    assert_eq!(c, occ.char(), "ply {k} {sq}");
                    if let Occupant::Hidden(color) = occ {
                        let role = g.truth().identity(sq).unwrap();
                        let want = jieqi_core::Piece { color, role }.char();
                        assert_eq!(ids[h], want, "ply {k} {sq}");
                        h += 1;
                    }
                }
            }
        }
        assert_eq!(h, ids.len());
    }
    let records = game.records();
    let mut reveals = 0;
    for (i, r) in records.iter().enumerate() {
        let p = &data["plies"][i];
        assert_eq!(p["text"], r.played.to_text(r.mover));
        assert_eq!(p["from"], r.played.mv.from.to_string());
        assert_eq!(p["to"], r.played.mv.to.to_string());
        assert_eq!(
            p["mover"],
            if r.mover == Color::Red {
                "red"
            } else {
                "black"
            }
        );
        assert_eq!(p["reveal"].is_string(), r.played.reveal.is_some());
        assert_eq!(p["captured"].is_string(), r.captured.is_some());
        assert_eq!(p["captured_hidden"] == true, r.captured_hidden);
        reveals += usize::from(r.played.reveal.is_some());
    }
    assert!(reveals > 0 && records.iter().any(|r| r.captured_hidden));
    // Scores in Red's view at the position each engine moved in: +0.35 for Red, and Black's
    // "#-3" (it gets mated) is 1 for Red.
    let red = data["chart"]["red_engine"].as_array().unwrap();
    let black = data["chart"]["black_engine"].as_array().unwrap();
    assert_eq!(red.len(), n + 1);
    assert!((red[0].as_f64().unwrap() - expected(jieqi_engine::Score::Cp(35))).abs() < 1e-12);
    assert!(red[1].is_null() && black[0].is_null());
    assert_eq!(black[1].as_f64(), Some(1.0));
    assert!(red[n].is_null() && black[n].is_null());
}

#[test]
fn a_game_without_the_truth_has_no_true_view() {
    let mut game = study(Rules::standard(), 11, 30);
    game.truth_known = false;
    let data = data_of(&page(&game, None));
    assert_eq!(data["truth"], false);
    assert!(
        data["no_truth"]
            .as_str()
            .unwrap()
            .contains("true view unavailable")
    );
    assert!(data["ids"].as_array().unwrap().iter().all(|s| s == ""));
    // A captured hidden identity would be made up: it is not shown.
    let records = game.records();
    let i = records.iter().position(|r| r.captured_hidden).unwrap();
    let p = &data["plies"][i];
    assert!(matches!(p["captured"].as_str(), Some("X" | "x")), "{p}");
    assert_eq!(
        p["text"].as_str().unwrap().len(),
        4 + usize::from(records[i].played.reveal.is_some())
    );
}

#[test]
fn a_xiangqi_game_has_no_hidden_pieces() {
    let mut game = study(Rules::xiangqi(), 5, 12);
    game.result = GameResult::Draw;
    let html = page(&game, None);
    let data = data_of(&html);
    assert_eq!(data["hidden"], false);
    assert_eq!(data["truth"], false);
    assert!(
        data["no_truth"]
            .as_str()
            .unwrap()
            .contains("no hidden pieces")
    );
    for b in data["boards"].as_array().unwrap() {
        let b = b.as_str().unwrap();
        assert!(!b.contains('X') && !b.contains('x'), "{b}");
        assert!(b.chars().filter(|&c| c != '.').count() <= 32);
    }
    assert!(
        data["plies"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p.get("reveal").is_none())
    );
    assert_eq!(data["boards"][0].as_str().unwrap(), {
        let pos = jieqi_core::Position::start(&Rules::xiangqi());
        Square::all()
            .map(|sq| pos.occupant(sq).map_or('.', |o| o.char()))
            .collect::<String>()
    });
    assert!(html.contains("1/2-1/2"));
}

#[test]
fn a_game_of_no_moves_draws() {
    let mut game = study(Rules::standard(), 9, 0);
    game.result = GameResult::Draw;
    game.ending = "max-plies".to_string();
    let analysis = Analysis {
        reference: "alphabeta (nodes=100)".to_string(),
        seed: 1,
        omniscient: false,
        plies: Vec::new(),
        summary: Summary::default(),
        end: None,
    };
    for a in [None, Some(&analysis)] {
        let html = page(&game, a);
        let data = data_of(&html);
        assert_eq!(data["boards"].as_array().unwrap().len(), 1);
        assert_eq!(data["plies"].as_array().unwrap().len(), 0);
        assert_eq!(data["chart"]["red_engine"].as_array().unwrap().len(), 1);
        assert!(html.contains("0 plies"));
    }
    let data = data_of(&page(&game, Some(&analysis)));
    assert_eq!(data["chart"]["reference"], serde_json::json!([0.5]));
}

/// A hand-made verdict on ply `ply` of `game`.
fn verdict(game: &StudyGame, ply: usize, loss: f64) -> PlyAnalysis {
    let r = &game.records()[ply - 1];
    PlyAnalysis {
        ply,
        mover: if r.mover == Color::Red {
            "red"
        } else {
            "black"
        },
        played: r.played.to_text(r.mover),
        best: "a0a1".to_string(),
        best_score: "+0.50".to_string(),
        played_score: "-0.80".to_string(),
        best_expected: 0.6,
        played_expected: 0.6 - loss,
        loss,
        loss_cp: Some(130),
        after_expected: None,
        chance: Some(0.02),
        chance_from: Some("reveal"),
        noise: None,
        class: Class::of(loss),
        note: Some("missed <mate> in 2".to_string()),
        pv: vec!["a0a1".to_string(), "a9a8".to_string()],
        depth: Some(4),
        nodes: 1000,
        omniscient: Some(Omniscient {
            best: "b0c2".to_string(),
            score: "#2".to_string(),
            expected: 1.0,
        }),
    }
}

#[test]
fn an_analysis_marks_the_moves_and_draws_its_curves() {
    let game = study(Rules::standard(), 11, 8);
    let n = game.moves.len();
    let plies: Vec<PlyAnalysis> = (1..=n)
        .map(|p| verdict(&game, p, if p == 3 { 0.3 } else { 0.0 }))
        .collect();
    let analysis = Analysis {
        reference: "alphabeta <ref>".to_string(),
        seed: 1,
        omniscient: true,
        plies,
        summary: Summary {
            lines: vec!["Black's <worst> move: ply 3".to_string()],
            ..Summary::default()
        },
        end: Some(0.9),
    };
    let html = page(&game, Some(&analysis));
    assert!(html.contains("Reference: alphabeta &lt;ref&gt;"));
    assert!(html.contains("<li>Black&#39;s &lt;worst&gt; move: ply 3</li>"));
    let data = data_of(&html);
    let v = &data["plies"][2]["verdict"];
    assert_eq!(v["class"], "blunder");
    assert_eq!(v["mark"], "??");
    assert_eq!(v["note"], "missed <mate> in 2");
    assert_eq!(v["omniscient"], serde_json::json!(["b0c2", "#2"]));
    assert!(data["plies"][1]["verdict"].get("class").is_none());
    // Ply 3 is Red's (Red moved first): its mark is at the played move's 0.3, the reference
    // line's point after it.
    let marks = data["chart"]["marks"].as_array().unwrap();
    assert_eq!(marks.len(), 1);
    assert_eq!(
        (&marks[0][0], &marks[0][2]),
        (&serde_json::json!(3), &serde_json::json!("blunder"))
    );
    assert!((marks[0][1].as_f64().unwrap() - 0.3).abs() < 1e-12);
    let reference = data["chart"]["reference"].as_array().unwrap();
    assert_eq!(reference.len(), n + 1);
    assert_eq!(reference[n], 0.9, "the analysis's end ends the curve");
    assert!((reference[0].as_f64().unwrap() - 0.6).abs() < 1e-12);
    assert_eq!(
        reference[3], marks[0][1],
        "the mark is on the reference line"
    );
    let omni = data["chart"]["omniscient"].as_array().unwrap();
    assert_eq!((omni[0].as_f64(), omni[1].as_f64()), (Some(1.0), Some(0.0)));
    // Without the truth, the omniscient search is not shown.
    let mut unknown = game.clone();
    unknown.truth_known = false;
    let data = data_of(&page(&unknown, Some(&analysis)));
    assert!(data["chart"].get("omniscient").is_none());
    assert!(data["plies"][2]["verdict"].get("omniscient").is_none());
    // An analysis of only the first plies draws no result at the end.
    let partial = Analysis {
        plies: analysis.plies[..3].to_vec(),
        ..analysis.clone()
    };
    let data = data_of(&page(&game, Some(&partial)));
    let reference = data["chart"]["reference"].as_array().unwrap();
    assert_eq!(reference.len(), n + 1);
    // The position after ply 3 (Red's) is Red's score of its move; the rest is not known.
    assert!((reference[3].as_f64().unwrap() - 0.3).abs() < 1e-12);
    assert!(reference[4..].iter().all(Value::is_null));
}

/// The reference line is Red's view at every position (issue 50: it swung between the two
/// movers' views, and the marks sat on no line): before Red's moves Red's best, after them
/// Red's score of the move played or of the position once its reveal was known, never Black's
/// view turned over; every mark is on it.
#[test]
fn the_reference_line_is_reds_view_and_the_marks_are_on_it() {
    let game = study(Rules::standard(), 11, 8);
    let n = game.moves.len();
    let plies: Vec<PlyAnalysis> = (1..=n)
        .map(|p| {
            let mut v = verdict(&game, p, if p % 3 == 0 { 0.2 } else { 0.0 });
            // Each mover thinks itself ahead: the movers' views disagree.
            v.best_expected = 0.7;
            v.played_expected = 0.7 - v.loss;
            v.chance = (p == 5).then_some(0.05);
            v.after_expected = Some(v.played_expected + v.chance.unwrap_or(0.0));
            v
        })
        .collect();
    let analysis = Analysis {
        reference: "alphabeta".to_string(),
        seed: 1,
        omniscient: false,
        plies,
        summary: Summary::default(),
        end: Some(1.0),
    };
    let data = data_of(&page(&game, Some(&analysis)));
    let reference: Vec<f64> = data["chart"]["reference"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    // Red moves at plies 1, 3, 5, 7: positions 0, 2, 4, 6 are before them (Red's best, 0.7);
    // 1, 3, 5, 7 after them (Red's played move; ply 5 revealed, its known outcome).
    let want = [0.7, 0.7, 0.7, 0.5, 0.7, 0.75, 0.7, 0.7, 1.0];
    assert_eq!(reference.len(), want.len());
    for (k, (got, want)) in reference.iter().zip(want).enumerate() {
        assert!((got - want).abs() < 1e-12, "position {k}: {got} for {want}");
    }
    let marks = data["chart"]["marks"].as_array().unwrap();
    assert_eq!(marks.len(), 2, "plies 3 and 6");
    for m in marks {
        let ply = m[0].as_u64().unwrap() as usize;
        assert_eq!(m[1].as_f64(), Some(reference[ply]), "mark of ply {ply}");
    }
}

#[test]
fn game_pages_go_under_games() {
    assert_eq!(
        game_page_path(Path::new("results/x/pairings/01-a-vs-b"), 12),
        Path::new("results/x/pairings/01-a-vs-b/games/game-12.html")
    );
}
