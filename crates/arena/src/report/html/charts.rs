//! The three SVG charts the pages inline, drawn with plotters' SVG backend: the rating list
//! ([`rating_chart`]), the head-to-head heat map ([`heat_map`]) and the ratings over the nights
//! ([`history_chart`]), and their helpers: colours, fonts, text widths, finite axis ranges, an
//! axis with one tick per engine or night ([`KeyAxis`]), one engine's line ([`Track`]), a guard
//! that turns a panic inside plotters into an error, and the note drawn for a chart without data.

use std::collections::HashMap;
use std::fmt;
use std::iter::once;

use crate::report::html::HistoryPoint;
use crate::report::html::format::{MINUS, fmt_elo, signed, truncate};
use crate::report::ratings_json::{PairwiseCell, RatedEngine};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::{
    ChartBuilder, Circle, Color, DashedLineSeries, EmptyElement, FontDesc, FontTransform,
    IntoDrawingArea, IntoFont, LineSeries, Palette, Palette99, PathElement, Polygon, RGBColor,
    Rectangle, SVGBackend, Text, TextStyle, WHITE,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Charts draw ratings beyond this magnitude at this value.
const ELO_CLAMP: f64 = 1e5;

/// The charts' font family, the pages' own.
const FONT: &str = "system-ui, -apple-system, Segoe UI, Roboto, Helvetica Neue, Arial, sans-serif";
const INK: RGBColor = RGBColor(36, 41, 47);
const MUTED: RGBColor = RGBColor(101, 109, 118);
const GRID: RGBColor = RGBColor(232, 236, 240);
const GRID_LIGHT: RGBColor = RGBColor(245, 247, 249);
const AXIS: RGBColor = RGBColor(160, 168, 176);
const ACCENT: RGBColor = RGBColor(9, 105, 218);
const ANCHOR: RGBColor = RGBColor(191, 110, 0);
const ALERT: RGBColor = RGBColor(207, 34, 46);
/// An engine that no longer plays, on the history chart.
const DROPPED: RGBColor = RGBColor(175, 184, 193);

/// Distinct line colours (category10, then darker companions); Palette99 beyond.
const SERIES: [RGBColor; 20] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 63, 125),
    RGBColor(166, 77, 0),
    RGBColor(0, 105, 62),
    RGBColor(140, 0, 30),
    RGBColor(84, 39, 143),
    RGBColor(90, 56, 30),
    RGBColor(170, 0, 120),
    RGBColor(60, 60, 60),
    RGBColor(120, 120, 0),
    RGBColor(0, 120, 140),
];

/// The `k`th line colour.
fn series_color(k: usize) -> RGBColor {
    SERIES.get(k).copied().unwrap_or_else(|| {
        let (r, g, b) = Palette99::pick(k).rgb();
        RGBColor(r, g, b)
    })
}

/// A night as the legend writes it: `MM-DD` for a date of this year's kind, else cut short.
fn short_night(night: &str) -> String {
    if crate::util::time::is_date(night) {
        night[5..].to_string()
    } else {
        truncate(night, 10)
    }
}

/// A font of `px` CSS pixels (plotters' SVG backend writes size / 1.24).
fn font(px: f64) -> FontDesc<'static> {
    (FONT, px * 1.24).into_font()
}

/// A text style: font size, colour and anchor.
fn style(px: f64, color: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    font(px).color(&color).pos(Pos::new(h, v))
}

/// Rough rendered width of `s` at `px` pixels.
fn text_width(s: &str, px: f64) -> f64 {
    s.chars().count() as f64 * px * 0.6
}

/// Rough rendered width of the widest of `texts`.
fn widest(texts: &[String], px: f64) -> f64 {
    texts.iter().map(|t| text_width(t, px)).fold(0.0, f64::max)
}

/// A plotters error as the message the pages show.
fn err<E: fmt::Display>(e: E) -> String {
    e.to_string()
}

/// A finite rating clamped to what a chart can draw.
fn clamp_elo(x: f64) -> f64 {
    x.clamp(-ELO_CLAMP, ELO_CLAMP)
}

/// An interval end inside `[lo, hi]`: infinities at the edges, NaN: none.
fn bound(x: f64, lo: f64, hi: f64) -> Option<f64> {
    if x.is_nan() {
        None
    } else {
        Some(x.clamp(lo, hi))
    }
}

/// A finite axis range covering `values` (and `extra`), at least `min_span` wide.
fn axis_range(values: impl Iterator<Item = f64>, extra: Option<f64>, min_span: f64) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for v in values.chain(extra) {
        if v.is_finite() {
            let v = clamp_elo(v);
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if !(lo.is_finite() && hi.is_finite()) {
        lo = -min_span / 2.0;
        hi = min_span / 2.0;
    }
    if hi - lo < min_span {
        let mid = (lo + hi) / 2.0;
        lo = mid - min_span / 2.0;
        hi = mid + min_span / 2.0;
    }
    (lo, hi)
}

/// An Elo axis tick label: whole numbers with a sign.
fn axis_elo(v: f64) -> String {
    if v.is_finite() {
        signed(v.round(), 0)
    } else {
        String::new()
    }
}

/// A linear axis whose ticks are exactly the given values (one per engine or per night).
struct KeyAxis {
    lo: f64,
    hi: f64,
    keys: Vec<f64>,
}

impl KeyAxis {
    fn new(lo: f64, hi: f64, keys: Vec<f64>) -> Self {
        KeyAxis { lo, hi, keys }
    }
}

impl Ranged for KeyAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.hi - self.lo;
        let frac = (*value - self.lo) / span;
        if !frac.is_finite() || span <= 0.0 {
            return limit.0 + (limit.1 - limit.0) / 2;
        }
        let pixels = f64::from(limit.1) - f64::from(limit.0);
        (f64::from(limit.0) + pixels * frac.clamp(-1.0, 2.0)).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.keys.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// Runs a chart drawing and turns a panic inside plotters into an error.
fn guarded(
    draw: impl FnOnce() -> Result<String, String> + std::panic::UnwindSafe,
) -> Result<String, String> {
    std::panic::catch_unwind(draw)
        .unwrap_or_else(|_| Err("the chart drawing failed unexpectedly".to_string()))
}

/// A small SVG that only says `msg` (a chart without data).
fn message_svg(msg: &str, w: u32, h: u32) -> Result<String, String> {
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        root.draw(&Text::new(
            msg.to_string(),
            (w as i32 / 2, h as i32 / 2),
            style(14.0, MUTED, HPos::Center, VPos::Center),
        ))
        .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(buf)
}

// ---------------------------------------------------------------------------------------------
// Charts

/// The rating list as a chart: one point per engine with its 95 % error bar, engines top to
/// bottom in rank order, a dashed line at the anchor's rating (or 0). Engines rated ±inf or NaN
/// are marked at the axis edge with "+inf", "−inf" or "unrated". The height grows with the
/// number of engines.
///
/// # Errors
///
/// A message when plotters fails to draw; the pages then show it in place of the chart.
pub fn rating_chart(rows: &[RatedEngine]) -> Result<String, String> {
    guarded(|| draw_rating_chart(rows))
}

fn draw_rating_chart(rows: &[RatedEngine]) -> Result<String, String> {
    if rows.is_empty() {
        return message_svg("No engines to chart.", 820, 100);
    }
    let n = rows.len();
    let labels: Vec<String> = rows
        .iter()
        .map(|r| {
            let name = truncate(&r.label, 24);
            if r.anchor {
                format!("{}. {name} (anchor)", r.rank)
            } else {
                format!("{}. {name}", r.rank)
            }
        })
        .collect();
    let left = (widest(&labels, 13.0) + 20.0).clamp(80.0, 300.0) as u32;
    let row_h: u32 = if n <= 12 { 40 } else { 30 };
    let width = 820u32;
    let height = (row_h.saturating_mul(n.min(1000) as u32) + 84).max(180);

    let anchor = rows.iter().find(|r| r.anchor && r.elo.is_finite());
    let reference = anchor.map_or(0.0, |r| clamp_elo(r.elo));
    let (lo, hi) = axis_range(
        rows.iter().flat_map(|r| [r.elo, r.elo_lower, r.elo_upper]),
        Some(reference),
        40.0,
    );
    let span = hi - lo;
    let left_edge = rows
        .iter()
        .any(|r| r.elo.is_nan() || r.elo == f64::NEG_INFINITY);
    let right_edge = rows.iter().any(|r| r.elo == f64::INFINITY);
    let x0 = lo - span * if left_edge { 0.2 } else { 0.07 };
    let x1 = hi + span * if right_edge { 0.2 } else { 0.07 };
    let edge = (x1 - x0) * 0.015;
    let y_top = n as f64 - 0.5;
    let y_bottom = -0.7;
    let ys: Vec<f64> = (0..n).map(|i| (n - 1 - i) as f64).collect();
    let label_of = |v: &f64| -> String {
        let k = v.round();
        if k >= 0.0 && k < n as f64 {
            labels[n - 1 - k as usize].clone()
        } else {
            String::new()
        }
    };

    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin_top(12)
            .margin_bottom(6)
            .margin_left(8)
            .margin_right(28)
            .x_label_area_size(48)
            .y_label_area_size(left)
            .build_cartesian_2d(x0..x1, KeyAxis::new(y_bottom, y_top, ys.clone()))
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_labels(10)
            .x_label_formatter(&|v| axis_elo(*v))
            .y_label_formatter(&label_of)
            .x_desc("Elo (dot: rating, bar: 95 % interval)")
            .label_style(font(13.0).color(&INK))
            .axis_desc_style(font(13.0).color(&MUTED))
            .bold_line_style(GRID)
            .light_line_style(GRID_LIGHT)
            .axis_style(AXIS)
            .draw()
            .map_err(err)?;

        chart
            .draw_series(DashedLineSeries::new(
                [(reference, y_bottom), (reference, y_top)],
                6,
                4,
                ANCHOR.stroke_width(1),
            ))
            .map_err(err)?;
        let ref_text = if anchor.is_some() { "anchor" } else { "0" };
        chart
            .draw_series(once(
                EmptyElement::at((reference, y_bottom))
                    + Text::new(
                        ref_text,
                        (4, -4),
                        style(11.0, ANCHOR, HPos::Left, VPos::Bottom),
                    ),
            ))
            .map_err(err)?;

        for (r, &y) in rows.iter().zip(&ys) {
            let color = if r.anchor { ANCHOR } else { ACCENT };
            if r.elo.is_finite() {
                let e = clamp_elo(r.elo);
                if let (Some(a), Some(b)) = (bound(r.elo_lower, x0, x1), bound(r.elo_upper, x0, x1))
                {
                    let (a, b) = (a.min(b).min(e), a.max(b).max(e));
                    chart
                        .draw_series(once(PathElement::new(
                            vec![(a, y), (b, y)],
                            color.stroke_width(2),
                        )))
                        .map_err(err)?;
                    // A finite end gets a cap; an unbounded one an arrow off the chart's edge,
                    // never a cap that would read as a finite bound.
                    for (end, at, outward) in [(r.elo_lower, a, -1), (r.elo_upper, b, 1)] {
                        let mark: Vec<(i32, i32)> = if end.is_finite() {
                            vec![(-1, -5), (1, -5), (1, 5), (-1, 5)]
                        } else {
                            vec![(outward * 7, 0), (0, -5), (0, 5)]
                        };
                        chart
                            .draw_series(once(
                                EmptyElement::at((at, y)) + Polygon::new(mark, color.filled()),
                            ))
                            .map_err(err)?;
                    }
                }
                // On the reference line the value goes beside the dot, not across the line.
                let value_label = if e == reference {
                    Text::new(
                        fmt_elo(r.elo),
                        (7, -5),
                        style(11.5, INK, HPos::Left, VPos::Bottom),
                    )
                } else {
                    Text::new(
                        fmt_elo(r.elo),
                        (0, -9),
                        style(11.5, INK, HPos::Center, VPos::Bottom),
                    )
                };
                chart
                    .draw_series(once(
                        EmptyElement::at((e, y))
                            + Circle::new((0, 0), 5, color.filled())
                            + Circle::new((0, 0), 5, WHITE.stroke_width(1))
                            + value_label,
                    ))
                    .map_err(err)?;
            } else {
                let (x, text, on_left) = if r.elo == f64::INFINITY {
                    (x1 - edge, "+inf".to_string(), false)
                } else if r.elo == f64::NEG_INFINITY {
                    (x0 + edge, format!("{MINUS}inf"), true)
                } else {
                    (x0 + edge, "unrated".to_string(), true)
                };
                let text_el = if on_left {
                    Text::new(text, (11, 0), style(12.0, ALERT, HPos::Left, VPos::Center))
                } else {
                    Text::new(
                        text,
                        (-11, 0),
                        style(12.0, ALERT, HPos::Right, VPos::Center),
                    )
                };
                if r.elo.is_nan() {
                    chart
                        .draw_series(once(
                            EmptyElement::at((x, y))
                                + Circle::new((0, 0), 5, ALERT.stroke_width(2))
                                + text_el,
                        ))
                        .map_err(err)?;
                } else {
                    let tip = if on_left { -7 } else { 7 };
                    chart
                        .draw_series(once(
                            EmptyElement::at((x, y))
                                + Polygon::new(
                                    vec![(tip, 0), (-tip, -6), (-tip, 6)],
                                    ALERT.filled(),
                                )
                                + text_el,
                        ))
                        .map_err(err)?;
                }
            }
        }
        root.present().map_err(err)?;
    }
    Ok(buf)
}

/// Diverging colour of a score: red at 0, near-white at ½, blue at 1 (ColorBrewer RdBu).
fn score_color(score: f64) -> RGBColor {
    const STOPS: [(f64, (f64, f64, f64)); 5] = [
        (0.0, (202.0, 0.0, 32.0)),
        (0.25, (244.0, 165.0, 130.0)),
        (0.5, (247.0, 247.0, 247.0)),
        (0.75, (146.0, 197.0, 222.0)),
        (1.0, (5.0, 113.0, 176.0)),
    ];
    let s = if score.is_finite() {
        score.clamp(0.0, 1.0)
    } else {
        0.5
    };
    let mut k = 0;
    while k + 2 < STOPS.len() && s > STOPS[k + 1].0 {
        k += 1;
    }
    let (s0, c0) = STOPS[k];
    let (s1, c1) = STOPS[k + 1];
    let t = ((s - s0) / (s1 - s0)).clamp(0.0, 1.0);
    let mix = |a: f64, b: f64| (a + (b - a) * t).round().clamp(0.0, 255.0) as u8;
    RGBColor(mix(c0.0, c1.0), mix(c0.1, c1.1), mix(c0.2, c1.2))
}

/// The pairwise results as a matrix of coloured cells: the row engine's score against the
/// column engine (red below 50 %, white at 50 %, blue above), the score % and the number of
/// games written in each cell, row and column labels, an empty diagonal and a colour legend.
/// `cells` is `[row][col]` in the order of `labels`; missing rows or cells count as no games.
///
/// # Errors
///
/// A message when plotters fails to draw; the pages then show it in place of the chart.
pub fn heat_map(labels: &[String], cells: &[Vec<Option<PairwiseCell>>]) -> Result<String, String> {
    guarded(|| draw_heat_map(labels, cells))
}

/// The most engines the heat map draws a matrix for; beyond, it says there are too many.
pub const MAX_HEAT_MAP: usize = 200;

fn draw_heat_map(labels: &[String], cells: &[Vec<Option<PairwiseCell>>]) -> Result<String, String> {
    let n = labels.len();
    if n == 0 {
        return message_svg("No engines to compare.", 480, 100);
    }
    if n > MAX_HEAT_MAP {
        return message_svg("Too many engines for a matrix.", 480, 100);
    }
    let cell = ((560.0 / n as f64).round() as i32).clamp(34, 76);
    let row_labels: Vec<String> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{}. {}", i + 1, truncate(l, 22)))
        .collect();
    let left = (widest(&row_labels, 13.0) + 18.0).clamp(70.0, 260.0) as i32;
    let col_labels: Vec<String> = labels.iter().map(|l| truncate(l, 18)).collect();
    let col_w = widest(&col_labels, 12.0);
    let rotate = col_w > f64::from(cell - 8);
    let top = if rotate {
        (col_w + 18.0).clamp(40.0, 150.0) as i32
    } else {
        30
    };
    let grid = cell * n as i32;
    let legend_w = 240;
    let width = (left + grid + 20).max(left + 380);
    let height = top + grid + 88;

    let mut buf = String::new();
    {
        let root =
            SVGBackend::with_string(&mut buf, (width as u32, height as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let main_px = if cell >= 60 {
            14.0
        } else if cell >= 44 {
            12.5
        } else {
            11.0
        };
        for (i, row_label) in row_labels.iter().enumerate() {
            let y = top + i as i32 * cell;
            root.draw(&Text::new(
                row_label.clone(),
                (left - 8, y + cell / 2),
                style(13.0, INK, HPos::Right, VPos::Center),
            ))
            .map_err(err)?;
            for j in 0..n {
                let x = left + j as i32 * cell;
                let rect = [(x + 1, y + 1), (x + cell - 1, y + cell - 1)];
                let (cx, cy) = (x + cell / 2, y + cell / 2);
                if i == j {
                    root.draw(&Rectangle::new(rect, RGBColor(238, 240, 243).filled()))
                        .map_err(err)?;
                    continue;
                }
                let found = cells
                    .get(i)
                    .and_then(|r| r.get(j))
                    .and_then(Option::as_ref)
                    .filter(|c| c.games > 0 && c.score.is_finite());
                let Some(c) = found else {
                    root.draw(&Rectangle::new(rect, RGBColor(250, 250, 251).filled()))
                        .map_err(err)?;
                    root.draw(&Rectangle::new(
                        rect,
                        RGBColor(225, 228, 232).stroke_width(1),
                    ))
                    .map_err(err)?;
                    root.draw(&Text::new(
                        "\u{2013}",
                        (cx, cy),
                        style(12.0, MUTED, HPos::Center, VPos::Center),
                    ))
                    .map_err(err)?;
                    continue;
                };
                let s = c.score.clamp(0.0, 1.0);
                root.draw(&Rectangle::new(rect, score_color(s).filled()))
                    .map_err(err)?;
                let dark = (s - 0.5).abs() > 0.3;
                let (fg, sub_fg) = if dark {
                    (WHITE, RGBColor(240, 240, 240))
                } else {
                    (INK, MUTED)
                };
                let main = if cell >= 48 {
                    format!("{:.1}", s * 100.0)
                } else {
                    format!("{:.0}", s * 100.0)
                };
                let with_games = cell >= 54;
                let main_y = if with_games { cy - 6 } else { cy };
                root.draw(&Text::new(
                    main,
                    (cx, main_y),
                    style(main_px, fg, HPos::Center, VPos::Center),
                ))
                .map_err(err)?;
                if with_games {
                    root.draw(&Text::new(
                        format!("n={}", c.games),
                        (cx, cy + 11),
                        style(10.0, sub_fg, HPos::Center, VPos::Center),
                    ))
                    .map_err(err)?;
                }
            }
        }
        for (j, l) in col_labels.iter().enumerate() {
            let cx = left + j as i32 * cell + cell / 2;
            let text = if rotate {
                Text::new(
                    l.clone(),
                    (cx, top - 8),
                    font(12.0)
                        .transform(FontTransform::Rotate270)
                        .color(&INK)
                        .pos(Pos::new(HPos::Left, VPos::Center)),
                )
            } else {
                Text::new(
                    l.clone(),
                    (cx, top - 8),
                    style(12.0, INK, HPos::Center, VPos::Bottom),
                )
            };
            root.draw(&text).map_err(err)?;
        }
        // Legend: the colour scale.
        let ly = top + grid + 18;
        let steps = 60;
        for k in 0..steps {
            let x = left + k * legend_w / steps;
            let x_next = left + (k + 1) * legend_w / steps;
            let s = (f64::from(k) + 0.5) / f64::from(steps);
            root.draw(&Rectangle::new(
                [(x, ly), (x_next, ly + 12)],
                score_color(s).filled(),
            ))
            .map_err(err)?;
        }
        root.draw(&Rectangle::new(
            [(left, ly), (left + legend_w, ly + 12)],
            AXIS.stroke_width(1),
        ))
        .map_err(err)?;
        for (frac, text, h) in [
            (0, "0 %", HPos::Left),
            (1, "50 %", HPos::Center),
            (2, "100 %", HPos::Right),
        ] {
            root.draw(&Text::new(
                text,
                (left + frac * legend_w / 2, ly + 16),
                style(11.0, MUTED, h, VPos::Top),
            ))
            .map_err(err)?;
        }
        root.draw(&Text::new(
            "score of the row engine against the column engine; n = games",
            (left, ly + 44),
            style(12.0, MUTED, HPos::Left, VPos::Center),
        ))
        .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(buf)
}

/// One engine's points on the history chart's x axis.
struct Track {
    label: String,
    color: RGBColor,
    /// The last night it played (short), when that is not the chart's last night: it no longer
    /// plays, and is drawn grey.
    last_night: Option<String>,
    /// (night index, elo, lower, upper), by night.
    points: Vec<(usize, f64, f64, f64)>,
}

impl Track {
    fn last_elo(&self) -> f64 {
        self.points
            .iter()
            .rev()
            .map(|p| p.1)
            .find(|e| !e.is_nan())
            .unwrap_or(f64::NAN)
    }
}

/// A track's value in the legend: its last rating, and for an engine that no longer plays the
/// night of it.
fn legend_value(t: &Track) -> String {
    let value = if t.points.is_empty() {
        "\u{2014}".to_string()
    } else {
        fmt_elo(t.last_elo())
    };
    match &t.last_night {
        Some(night) => format!("{value} on {night}"),
        None => value,
    }
}

/// The ratings over the nights: one line per engine (x = night, labelled with the night
/// string), a translucent band between the interval ends, points marked, engines rated ±inf
/// marked at the top or bottom edge, and a legend with each engine's label and latest rating.
/// An engine's colour is its place in `history` (give engines in the order they first
/// appeared, and each keeps its colour as nights are added); one that did not play the last
/// night is grey, its last night in the legend. A point alone (no neighbour to draw a line or
/// band to) is ringed and has its interval bar; an unbounded interval end is an arrow to the
/// chart's edge. Points whose night is not in `nights` are left out.
///
/// # Errors
///
/// A message when plotters fails to draw; the pages then show it in place of the chart.
pub fn history_chart(
    nights: &[String],
    history: &[(String, Vec<HistoryPoint>)],
) -> Result<String, String> {
    guarded(|| draw_history_chart(nights, history))
}

fn draw_history_chart(
    nights: &[String],
    history: &[(String, Vec<HistoryPoint>)],
) -> Result<String, String> {
    let m = nights.len();
    if m == 0 || history.is_empty() {
        return message_svg("No history yet.", 820, 100);
    }
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, night) in nights.iter().enumerate() {
        index.entry(night.as_str()).or_insert(i);
    }
    let tracks: Vec<Track> = history
        .iter()
        .enumerate()
        .map(|(k, (label, points))| {
            let mut pts: Vec<(usize, f64, f64, f64)> = points
                .iter()
                .filter_map(|p| {
                    index
                        .get(p.night.as_str())
                        .map(|&i| (i, p.elo, p.lower, p.upper))
                })
                .collect();
            pts.sort_by_key(|p| p.0);
            pts.dedup_by_key(|p| p.0);
            // Colours go by the track's place in `history` (the order engines first appeared),
            // so an engine keeps its colour as nights are added and others join or leave.
            let last_night = pts
                .last()
                .filter(|p| p.0 + 1 < m)
                .map(|p| short_night(&nights[p.0]));
            Track {
                label: truncate(label, 18),
                color: if last_night.is_some() {
                    DROPPED
                } else {
                    series_color(k)
                },
                last_night,
                points: pts,
            }
        })
        .collect();

    let (lo, hi) = axis_range(
        tracks
            .iter()
            .flat_map(|t| t.points.iter().flat_map(|p| [p.1, p.2, p.3])),
        None,
        40.0,
    );
    let span = hi - lo;
    let any_inf = |sign: f64| {
        tracks
            .iter()
            .any(|t| t.points.iter().any(|p| p.1 == sign * f64::INFINITY))
    };
    let y0 = lo - span * if any_inf(-1.0) { 0.12 } else { 0.06 };
    let y1 = hi + span * if any_inf(1.0) { 0.12 } else { 0.06 };
    let edge = (y1 - y0) * 0.025;

    let legend_labels: Vec<String> = tracks.iter().map(|t| t.label.clone()).collect();
    let legend_values: Vec<String> = tracks.iter().map(legend_value).collect();
    // Room for the line sample, the widest label, a gap and the widest value.
    let legend_w = (widest(&legend_labels, 13.0) + widest(&legend_values, 12.0) + 64.0)
        .clamp(160.0, 330.0) as u32;
    let entries = tracks.len().min(200) as u32;
    let width = 820u32;
    let height = (entries * 22 + 60).max(420);
    let chart_w = width - legend_w;
    let night_labels: Vec<String> = nights.iter().map(|s| truncate(s, 12)).collect();
    let plot_w = f64::from(chart_w) - 120.0;
    let per_label = widest(&night_labels, 12.0) + 18.0;
    let max_labels = ((plot_w / per_label).floor() as usize).max(1);
    let step = m.div_ceil(max_labels).max(1);
    let mut keys: Vec<f64> = (0..m).rev().step_by(step).map(|i| i as f64).collect();
    keys.reverse();
    let night_of = |v: &f64| -> String {
        let k = v.round();
        if k >= 0.0 && k < m as f64 {
            night_labels[k as usize].clone()
        } else {
            String::new()
        }
    };

    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot_area, legend_area) = root.split_horizontally(chart_w);
        let mut chart = ChartBuilder::on(&plot_area)
            .margin_top(16)
            .margin_bottom(6)
            .margin_left(8)
            .margin_right(36)
            .x_label_area_size(40)
            .y_label_area_size(62)
            .build_cartesian_2d(KeyAxis::new(-0.4, (m - 1) as f64 + 0.4, keys), y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .y_labels(8)
            .x_label_formatter(&night_of)
            .y_label_formatter(&|v| axis_elo(*v))
            .y_desc("Elo")
            .max_light_lines(1)
            .label_style(font(12.0).color(&INK))
            .axis_desc_style(font(13.0).color(&MUTED))
            .bold_line_style(GRID)
            .light_line_style(GRID_LIGHT)
            .axis_style(AXIS)
            .draw()
            .map_err(err)?;

        // Bands first, so every line stays visible on top of them: a band over each run of
        // nights with both interval ends finite.
        let finite =
            |p: &(usize, f64, f64, f64)| p.1.is_finite() && p.2.is_finite() && p.3.is_finite();
        for t in &tracks {
            for run in t.points.split(|p| !finite(p)).filter(|r| r.len() >= 2) {
                let ends: Vec<(f64, f64, f64)> = run
                    .iter()
                    .map(|p| {
                        let e = clamp_elo(p.1);
                        let (a, b) = (clamp_elo(p.2), clamp_elo(p.3));
                        (p.0 as f64, a.min(b).min(e), a.max(b).max(e))
                    })
                    .collect();
                let mut poly: Vec<(f64, f64)> = ends.iter().map(|p| (p.0, p.2)).collect();
                poly.extend(ends.iter().rev().map(|p| (p.0, p.1)));
                chart
                    .draw_series(once(Polygon::new(poly, t.color.mix(0.13).filled())))
                    .map_err(err)?;
            }
        }
        // Interval bars where there is no band: an engine's only night in a run, or an end
        // that is unbounded, drawn as an arrow to the chart's edge.
        for t in &tracks {
            let lonely: Vec<bool> = (0..t.points.len())
                .map(|i| {
                    let ok =
                        |j: Option<usize>| j.and_then(|j| t.points.get(j)).is_some_and(&finite);
                    !ok(i.checked_sub(1)) && !ok(Some(i + 1))
                })
                .collect();
            for (p, &alone) in t.points.iter().zip(&lonely) {
                if !p.1.is_finite() || p.2.is_nan() || p.3.is_nan() || (finite(p) && !alone) {
                    continue;
                }
                let x = p.0 as f64;
                let e = clamp_elo(p.1);
                for end in [p.2, p.3] {
                    let up = end > e;
                    if end.is_finite() {
                        let v = clamp_elo(end);
                        chart
                            .draw_series(once(PathElement::new(
                                vec![(x, e), (x, v)],
                                t.color.stroke_width(2),
                            )))
                            .map_err(err)?;
                        chart
                            .draw_series(once(
                                EmptyElement::at((x, v))
                                    + PathElement::new(
                                        vec![(-6, 0), (6, 0)],
                                        t.color.stroke_width(2),
                                    ),
                            ))
                            .map_err(err)?;
                    } else {
                        let (edge_y, tip) = if up { (y1 - edge, -7) } else { (y0 + edge, 7) };
                        chart
                            .draw_series(once(PathElement::new(
                                vec![(x, e), (x, edge_y)],
                                t.color.stroke_width(2),
                            )))
                            .map_err(err)?;
                        chart
                            .draw_series(once(
                                EmptyElement::at((x, edge_y))
                                    + Polygon::new(
                                        vec![(0, tip), (-5, 0), (5, 0)],
                                        t.color.filled(),
                                    ),
                            ))
                            .map_err(err)?;
                    }
                }
            }
        }
        let dot = if m > 24 { 3 } else { 4 };
        for t in &tracks {
            for run in t
                .points
                .split(|p| !p.1.is_finite())
                .filter(|r| !r.is_empty())
            {
                let pts: Vec<(f64, f64)> =
                    run.iter().map(|p| (p.0 as f64, clamp_elo(p.1))).collect();
                if pts.len() == 1 {
                    // One night alone: a ringed point, visible without a line through it.
                    chart
                        .draw_series(pts.into_iter().map(|p| {
                            EmptyElement::at(p)
                                + Circle::new((0, 0), 9, WHITE.filled())
                                + Circle::new((0, 0), 9, t.color.stroke_width(2))
                                + Circle::new((0, 0), 5, t.color.filled())
                        }))
                        .map_err(err)?;
                    continue;
                }
                chart
                    .draw_series(LineSeries::new(pts.clone(), t.color.stroke_width(2)))
                    .map_err(err)?;
                chart
                    .draw_series(pts.into_iter().map(|p| {
                        EmptyElement::at(p)
                            + Circle::new((0, 0), dot, t.color.filled())
                            + Circle::new((0, 0), dot, WHITE.stroke_width(1))
                    }))
                    .map_err(err)?;
            }
            for p in t.points.iter().filter(|p| p.1.is_infinite()) {
                // A triangle pointing off the chart: up for +inf, down for −inf.
                let (y, tip) = if p.1 > 0.0 {
                    (y1 - edge, -6)
                } else {
                    (y0 + edge, 6)
                };
                chart
                    .draw_series(once(
                        EmptyElement::at((p.0 as f64, y))
                            + Polygon::new(vec![(0, tip), (-6, -tip), (6, -tip)], t.color.filled()),
                    ))
                    .map_err(err)?;
            }
        }

        // Legend: the engines still playing, best latest rating first, then those that no
        // longer play (grey, with their last night).
        let mut order: Vec<&Track> = tracks.iter().take(200).collect();
        order.sort_by(|a, b| {
            let key = |t: &Track| {
                let e = t.last_elo();
                if e.is_nan() { f64::NEG_INFINITY } else { e }
            };
            a.last_night
                .is_some()
                .cmp(&b.last_night.is_some())
                .then(key(b).total_cmp(&key(a)))
        });
        legend_area
            .draw(&Text::new(
                "engine, last rating",
                (8, 16),
                style(12.0, MUTED, HPos::Left, VPos::Center),
            ))
            .map_err(err)?;
        let right = legend_w as i32 - 10;
        for (row, t) in order.iter().enumerate() {
            let y = 40 + row as i32 * 22;
            legend_area
                .draw(&PathElement::new(
                    vec![(8, y), (30, y)],
                    t.color.stroke_width(2),
                ))
                .map_err(err)?;
            legend_area
                .draw(&Circle::new((19, y), 4, t.color.filled()))
                .map_err(err)?;
            let ink = if t.last_night.is_some() { MUTED } else { INK };
            legend_area
                .draw(&Text::new(
                    t.label.clone(),
                    (38, y),
                    style(13.0, ink, HPos::Left, VPos::Center),
                ))
                .map_err(err)?;
            legend_area
                .draw(&Text::new(
                    legend_value(t),
                    (right, y),
                    style(12.0, MUTED, HPos::Right, VPos::Center),
                ))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let steady: &[(f64, f64, f64)] =
            &[(0.0, -20.0, 20.0), (5.0, -15.0, 25.0), (3.0, -17.0, 23.0)];
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
}
