//! The charts' tests: each drawn as inline SVG, and how they mark what cannot be drawn.

use super::*;
use crate::report::html::HistoryPoint;
use crate::report::html::fixtures::page;
use crate::report::html::tournament_html;

#[test]
fn inline_svg_for_each_chart() {
    let labels = ["alphabeta", "ismcts", "greedy"];
    let without = tournament_html(&page(&labels, 1));
    assert_eq!(without.matches("<svg").count(), 2);
    let with = tournament_html(&page(&labels, 3));
    assert_eq!(with.matches("<svg").count(), 3);
    assert!(!with.contains("<script"));
    assert!(!with.contains("src=\"http"));
    for svg in [
        rating_chart(&page(&labels, 1).ratings),
        heat_map(&labels.map(String::from), &page(&labels, 1).pairwise),
        history_chart(&page(&labels, 3).nights, &page(&labels, 3).history),
    ] {
        let svg = svg.expect("chart drawn");
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}

#[test]
fn charts_scale_with_engines() {
    let size = |svg: &str| -> (u32, u32) {
        let w = svg
            .split("width=\"")
            .nth(1)
            .and_then(|s| s.split('"').next());
        let h = svg
            .split("height=\"")
            .nth(1)
            .and_then(|s| s.split('"').next());
        (
            w.and_then(|w| w.parse().ok()).unwrap_or(0),
            h.and_then(|h| h.parse().ok()).unwrap_or(0),
        )
    };
    let names: Vec<String> = (0..20).map(|i| format!("engine-{i}")).collect();
    let few = page(&["a", "b"], 1);
    let many_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let many = page(&many_refs, 1);
    let (_, h_few) = size(&rating_chart(&few.ratings).unwrap_or_default());
    let (_, h_many) = size(&rating_chart(&many.ratings).unwrap_or_default());
    assert!(h_many > h_few);
    let (w_many, _) = size(&heat_map(&names, &many.pairwise).unwrap_or_default());
    assert!((600..=1000).contains(&w_many), "{w_many}");
}

/// A history of `tracks` over nights 2026-11-28 … (one per entry of the longest track):
/// each track its (elo, lower, upper) per night, from its first night on.
/// A test track: its label, its first night's index and its (elo, lower, upper) per night.
type TestTrack<'a> = (&'a str, usize, &'a [(f64, f64, f64)]);

fn history(tracks: &[TestTrack]) -> (Vec<String>, Vec<(String, Vec<HistoryPoint>)>) {
    let m = tracks.iter().map(|t| t.1 + t.2.len()).max().unwrap_or(0);
    let nights: Vec<String> = (0..m).map(|k| format!("2026-11-{:02}", 28 + k)).collect();
    let history = tracks
        .iter()
        .map(|(label, first, pts)| {
            let points = pts
                .iter()
                .enumerate()
                .map(|(i, &(elo, lower, upper))| HistoryPoint {
                    night: nights[first + i].clone(),
                    elo,
                    lower,
                    upper,
                })
                .collect();
            (label.to_string(), points)
        })
        .collect();
    (nights, history)
}

fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[test]
fn a_dropped_engine_is_grey_and_the_others_keep_their_colours() {
    let steady: &[(f64, f64, f64)] = &[(0.0, -20.0, 20.0), (5.0, -15.0, 25.0), (3.0, -17.0, 23.0)];
    let gone: &[(f64, f64, f64)] = &[(100.0, 80.0, 120.0), (90.0, 70.0, 110.0)];
    let (nights, all_play) = history(&[("greedy", 0, steady), ("ab", 1, gone)]);
    let svg = history_chart(&nights[..3], &all_play).unwrap();
    // Night 3 is ab's last: both colours, no grey.
    assert!(svg.contains(&hex(series_color(0))) && svg.contains(&hex(series_color(1))));
    assert!(!svg.contains(&hex(DROPPED)));
    // A fourth night without ab: ab grey, its last night in the legend, greedy's colour
    // unchanged.
    let mut more = all_play.clone();
    more[0].1.push(HistoryPoint {
        night: "2026-12-01".into(),
        elo: 1.0,
        lower: -19.0,
        upper: 21.0,
    });
    let mut nights4 = nights.clone();
    nights4.push("2026-12-01".into());
    let svg = history_chart(&nights4, &more).unwrap();
    assert!(svg.contains(&hex(DROPPED)));
    assert!(!svg.contains(&hex(series_color(1))));
    assert!(svg.contains(&hex(series_color(0))));
    assert!(svg.contains("on 11-30"), "the dropped engine's last night");
}

#[test]
fn the_rating_chart_draws_unbounded_ends_as_arrows_not_caps() {
    // Polygons by their corners: a finite end's cap has 4, an unbounded end's arrow 3.
    let shapes = |svg: &str| -> (usize, usize) {
        let corners: Vec<usize> = svg
            .split("<polygon")
            .skip(1)
            .filter_map(|rest| rest.split_once("points=\"").map(|(_, p)| p))
            .map(|rest| {
                rest.split('"')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .count()
            })
            .collect();
        (
            corners.iter().filter(|&&n| n == 4).count(),
            corners.iter().filter(|&&n| n == 3).count(),
        )
    };
    let labels = ["alphabeta", "ismcts", "greedy"];
    let mut rows = page(&labels, 1).ratings;
    rows.iter_mut().for_each(|r| r.anchor = false);
    let (caps, arrows) = shapes(&rating_chart(&rows).unwrap());
    assert_eq!(arrows, 0);
    assert!(caps >= 2 * rows.len(), "{caps} caps");
    rows[0].elo_upper = f64::INFINITY;
    let (caps_inf, arrows_inf) = shapes(&rating_chart(&rows).unwrap());
    assert_eq!((caps_inf, arrows_inf), (caps - 1, 1));
}

#[test]
fn a_first_night_is_ringed_and_unbounded_ends_are_arrows() {
    let steady: &[(f64, f64, f64)] = &[(0.0, -20.0, 20.0), (5.0, -15.0, 25.0)];
    let new: &[(f64, f64, f64)] = &[(200.0, 150.0, 250.0)];
    let (nights, h) = history(&[("greedy", 0, steady), ("new", 1, new)]);
    let svg = history_chart(&nights, &h).unwrap();
    assert_eq!(
        svg.matches("r=\"9\"").count(),
        2,
        "one ring, white-filled and stroked"
    );
    let polygons = |svg: &str| svg.matches("<polygon").count();
    let bounded = polygons(&svg);
    // The same new engine with an unbounded upper end: one more polygon, the arrowhead.
    let unbounded: &[(f64, f64, f64)] = &[(200.0, 150.0, f64::INFINITY)];
    let (nights, h) = history(&[("greedy", 0, steady), ("new", 1, unbounded)]);
    let svg = history_chart(&nights, &h).unwrap();
    assert_eq!(polygons(&svg), bounded + 1);
    // An unbounded end in the middle of a line: the band stops there, the arrow marks it.
    let mid: &[(f64, f64, f64)] = &[
        (0.0, -20.0, 20.0),
        (5.0, f64::NEG_INFINITY, 25.0),
        (3.0, -17.0, 23.0),
    ];
    let (nights, h) = history(&[("greedy", 0, mid)]);
    assert!(history_chart(&nights, &h).is_ok());
}
