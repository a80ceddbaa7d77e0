//! The HTML pages of a tournament: `report.html` for one tournament ([`tournament_html`]) and
//! `index.html` over many nightly runs ([`index_html`]), plus the three SVG charts they inline
//! ([`rating_chart`], [`heat_map`], [`history_chart`]), drawn with plotters' SVG backend.
//!
//! The pages are self-contained: inline CSS, inline SVG, no scripts, no external resources, so a
//! report folder can be copied or served as static files. Every text that comes from the data is
//! HTML-escaped. Nothing here panics on odd numbers: NaN ratings read "unrated", infinite ones
//! "+inf"/"−inf", charts keep a finite axis and mark such engines at its edge, and a chart that
//! cannot be drawn is replaced by a short note.

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::iter::once;

use crate::report::ratings_json::{PairingLine, PairwiseCell, RatedEngine};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::{
    ChartBuilder, Circle, Color, DashedLineSeries, EmptyElement, ErrorBar, FontDesc, FontTransform,
    IntoDrawingArea, IntoFont, LineSeries, Palette, Palette99, PathElement, Polygon, RGBColor,
    Rectangle, SVGBackend, Text, TextStyle, WHITE,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One night's rating of one engine, for the history chart.
#[derive(Clone, Debug)]
pub struct HistoryPoint {
    /// The night, e.g. "2026-11-30" (one of [`TournamentPage::nights`]).
    pub night: String,
    /// Rating that night.
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub lower: f64,
    /// Upper end of the 95 % interval.
    pub upper: f64,
}

/// Everything a tournament page shows.
#[derive(Clone, Debug)]
pub struct TournamentPage {
    /// Page title, e.g. "Nightly 2026-11-30".
    pub title: String,
    /// One line of conditions, e.g. "nodes=2000, 5 engines, round robin, 200 pairs per pairing".
    pub context: String,
    /// The anchor, e.g. "greedy = 0".
    pub anchor: String,
    /// The rating list, in rank order.
    pub ratings: Vec<RatedEngine>,
    /// `[row][col]` in the ratings' rank order; None on the diagonal or without games.
    pub pairwise: Vec<Vec<Option<PairwiseCell>>>,
    /// The per-pairing table.
    pub pairings: Vec<PairingLine>,
    /// History x axis, oldest first (this night last when history exists); empty: no history.
    pub nights: Vec<String>,
    /// Per engine label, its points (the nights it played).
    pub history: Vec<(String, Vec<HistoryPoint>)>,
    /// Free text lines, e.g. a homogeneity warning or missing pairs.
    pub notes: Vec<String>,
    /// The information-leak report measured beside the tournament (its `leak/` folder, written
    /// by `arena leak`), if any.
    pub leak: Option<crate::report::leak::LeakJson>,
}

/// A link to one night in the index page.
#[derive(Clone, Debug)]
pub struct NightLink {
    /// The night, e.g. "2026-11-30".
    pub night: String,
    /// Relative link to its report.
    pub href: String,
    /// One line, e.g. "5 engines, 2000 games, best: ab +312".
    pub summary: String,
}

// ---------------------------------------------------------------------------------------------
// Text formatting

const MINUS: char = '\u{2212}';
/// Narrow no-break space, between a number and its `%`.
const NNBSP: char = '\u{202f}';
/// Charts draw ratings beyond this magnitude at this value.
const ELO_CLAMP: f64 = 1e5;

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

/// A signed number with `decimals` decimals, a true minus sign, no "-0.0".
fn signed(x: f64, decimals: usize) -> String {
    let body = format!("{:.*}", decimals, x.abs());
    if body.bytes().all(|b| b == b'0' || b == b'.') {
        body
    } else if x > 0.0 {
        format!("+{body}")
    } else {
        format!("{MINUS}{body}")
    }
}

/// An Elo value: 1 decimal, "+inf"/"−inf", NaN as "unrated".
fn fmt_elo(x: f64) -> String {
    if x.is_nan() {
        "unrated".to_string()
    } else if x == f64::INFINITY {
        "+inf".to_string()
    } else if x == f64::NEG_INFINITY {
        format!("{MINUS}inf")
    } else if x.abs() >= 1e6 {
        let s = format!("{:.2e}", x.abs());
        if x > 0.0 {
            format!("+{s}")
        } else {
            format!("{MINUS}{s}")
        }
    } else {
        signed(x, 1)
    }
}

/// A 95 % interval as "[lo, hi]".
fn fmt_interval(lo: f64, hi: f64) -> String {
    if lo.is_nan() && hi.is_nan() {
        "\u{2014}".to_string()
    } else {
        format!("[{}, {}]", fmt_elo(lo), fmt_elo(hi))
    }
}

/// A fraction as a percentage with 1 decimal; "—" when not finite.
fn fmt_pct(frac: f64) -> String {
    if frac.is_finite() {
        format!("{:.1}{NNBSP}%", frac * 100.0)
    } else {
        "\u{2014}".to_string()
    }
}

/// A plain number with `decimals` decimals; "—" when not finite.
fn fmt_num(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "\u{2014}".to_string()
    }
}

/// At most `max` characters, control characters as spaces, an ellipsis when cut.
fn truncate(s: &str, max: usize) -> String {
    let clean: Vec<char> = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if clean.len() <= max {
        clean.into_iter().collect()
    } else {
        let mut out: String = clean.into_iter().take(max.saturating_sub(1)).collect();
        out.push('\u{2026}');
        out
    }
}

/// A link target that is safe to put in `href`: relative or http(s), never a script.
fn safe_href(href: &str) -> Option<String> {
    let h = href.trim();
    if h.is_empty() {
        return None;
    }
    // A scheme is whatever precedes a ':' that comes before any '/', '?' or '#'.
    let scheme = match h.find([':', '/', '?', '#']) {
        Some(i) if h[i..].starts_with(':') => Some(h[..i].to_ascii_lowercase()),
        _ => None,
    };
    match scheme.as_deref() {
        None | Some("http" | "https") => Some(esc(h)),
        Some(_) => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Chart helpers

const FONT: &str = "system-ui, -apple-system, Segoe UI, Roboto, Helvetica Neue, Arial, sans-serif";
const INK: RGBColor = RGBColor(36, 41, 47);
const MUTED: RGBColor = RGBColor(101, 109, 118);
const GRID: RGBColor = RGBColor(232, 236, 240);
const GRID_LIGHT: RGBColor = RGBColor(245, 247, 249);
const AXIS: RGBColor = RGBColor(160, 168, 176);
const ACCENT: RGBColor = RGBColor(9, 105, 218);
const ANCHOR: RGBColor = RGBColor(191, 110, 0);
const ALERT: RGBColor = RGBColor(207, 34, 46);

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

fn series_color(k: usize) -> RGBColor {
    SERIES.get(k).copied().unwrap_or_else(|| {
        let (r, g, b) = Palette99::pick(k).rgb();
        RGBColor(r, g, b)
    })
}

/// A font of `px` CSS pixels (plotters' SVG backend writes size / 1.24).
fn font(px: f64) -> FontDesc<'static> {
    (FONT, px * 1.24).into_font()
}

fn style(px: f64, color: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    font(px).color(&color).pos(Pos::new(h, v))
}

/// Rough rendered width of `s` at `px` pixels.
fn text_width(s: &str, px: f64) -> f64 {
    s.chars().count() as f64 * px * 0.6
}

fn widest(texts: &[String], px: f64) -> f64 {
    texts.iter().map(|t| text_width(t, px)).fold(0.0, f64::max)
}

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
                        .draw_series(once(ErrorBar::new_horizontal(
                            y,
                            a,
                            e,
                            b,
                            color.stroke_width(2),
                            10,
                        )))
                        .map_err(err)?;
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

fn draw_heat_map(labels: &[String], cells: &[Vec<Option<PairwiseCell>>]) -> Result<String, String> {
    let n = labels.len();
    if n == 0 {
        return message_svg("No engines to compare.", 480, 100);
    }
    if n > 200 {
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

/// The ratings over the nights: one line per engine (x = night, labelled with the night
/// string), a translucent band between the interval ends, points marked, engines rated ±inf
/// marked at the top or bottom edge, and a legend with each engine's label and latest rating.
/// Points whose night is not in `nights` are left out.
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
            Track {
                label: truncate(label, 18),
                color: series_color(k),
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
    let legend_w = (widest(&legend_labels, 13.0) + 100.0).clamp(160.0, 260.0) as u32;
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

        // Bands first, so every line stays visible on top of them.
        for t in &tracks {
            let usable =
                |p: &(usize, f64, f64, f64)| p.1.is_finite() && !p.2.is_nan() && !p.3.is_nan();
            for run in t.points.split(|p| !usable(p)).filter(|r| !r.is_empty()) {
                let ends: Vec<(f64, f64, f64, f64)> = run
                    .iter()
                    .map(|p| {
                        let e = clamp_elo(p.1);
                        let a = p.2.clamp(y0, y1);
                        let b = p.3.clamp(y0, y1);
                        (p.0 as f64, a.min(b).min(e), e, a.max(b).max(e))
                    })
                    .collect();
                if ends.len() == 1 {
                    let (x, a, e, b) = ends[0];
                    chart
                        .draw_series(once(ErrorBar::new_vertical(
                            x,
                            a,
                            e,
                            b,
                            t.color.mix(0.5).stroke_width(2),
                            8,
                        )))
                        .map_err(err)?;
                } else {
                    let mut poly: Vec<(f64, f64)> = ends.iter().map(|p| (p.0, p.3)).collect();
                    poly.extend(ends.iter().rev().map(|p| (p.0, p.1)));
                    chart
                        .draw_series(once(Polygon::new(poly, t.color.mix(0.13).filled())))
                        .map_err(err)?;
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

        // Legend, best latest rating first.
        let mut order: Vec<&Track> = tracks.iter().take(200).collect();
        order.sort_by(|a, b| {
            let key = |t: &Track| {
                let e = t.last_elo();
                if e.is_nan() { f64::NEG_INFINITY } else { e }
            };
            key(b).total_cmp(&key(a))
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
            legend_area
                .draw(&Text::new(
                    t.label.clone(),
                    (38, y),
                    style(13.0, INK, HPos::Left, VPos::Center),
                ))
                .map_err(err)?;
            let last = t.last_elo();
            let value = if t.points.is_empty() {
                "\u{2014}".to_string()
            } else {
                fmt_elo(last)
            };
            legend_area
                .draw(&Text::new(
                    value,
                    (right, y),
                    style(12.0, MUTED, HPos::Right, VPos::Center),
                ))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(buf)
}

// ---------------------------------------------------------------------------------------------
// Pages

const CSS: &str = r#"
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f4f6f8; color: #1f2328;
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1200px; margin: 0 auto; padding: 28px 32px 48px; }
header { margin-bottom: 18px; }
h1 { font-size: 26px; font-weight: 650; margin: 0 0 6px; letter-spacing: -0.01em; }
h2 { font-size: 17px; font-weight: 620; margin: 0 0 4px; }
.context { color: #424a53; margin: 0 0 4px; font-size: 15px; }
.facts { color: #57606a; margin: 0; }
.facts b { color: #1f2328; font-weight: 600; }
nav { margin-top: 12px; font-size: 13px; }
nav a { margin-right: 14px; }
a { color: #0969da; text-decoration: none; }
a:hover { text-decoration: underline; }
section { background: #fff; border: 1px solid #d8dee4; border-radius: 10px;
  padding: 18px 22px 20px; margin: 18px 0; box-shadow: 0 1px 2px rgba(31,35,40,.04); }
.sub { color: #57606a; margin: 0 0 12px; font-size: 13px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; width: 100%; }
th, td { padding: 6px 9px; text-align: right; white-space: nowrap; border-bottom: 1px solid #eaeef2; }
th { font-size: 12px; font-weight: 600; color: #57606a; text-transform: uppercase; letter-spacing: .03em;
  border-bottom: 1px solid #d0d7de; background: #f6f8fa; }
th.l, td.l { text-align: left; }
td.wrap { white-space: normal; }
td.fail { white-space: normal; min-width: 11em; }
tbody tr:nth-child(even) { background: #fafbfc; }
tbody tr:hover { background: #eef5ff; }
tr.anchor td { background: #fff8e8; }
td.engine { font-weight: 600; white-space: normal; min-width: 9em; max-width: 18em; overflow-wrap: anywhere; }
td.elo { font-weight: 600; }
td.dim, span.dim { color: #6e7781; }
td.sig { color: #1a7f37; font-weight: 600; }
td.bad { color: #cf222e; font-weight: 600; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; line-height: 16px; padding: 0 7px;
  margin-left: 6px; border-radius: 8px; background: #fbe3b1; color: #7d4e00; vertical-align: 1px;
  white-space: nowrap; overflow-wrap: normal; }
figure.chart { margin: 8px 0 0; overflow-x: auto; }
figure.chart svg { display: block; margin: 0 auto; max-width: 100%; height: auto; }
.chart-missing { color: #6e7781; font-style: italic; }
.note { background: #fff8c5; border: 1px solid #eed888; border-left: 4px solid #d4a72c;
  border-radius: 6px; padding: 8px 12px; margin: 8px 0; }
.notes-teaser { display: inline-block; margin-top: 10px; background: #fff8c5; border: 1px solid #eed888;
  border-radius: 6px; padding: 3px 10px; font-size: 13px; }
footer { color: #8c959f; font-size: 12px; margin-top: 24px; text-align: center; }
"#;

fn write_head(out: &mut String, title: &str) -> fmt::Result {
    writeln!(out, "<!DOCTYPE html>")?;
    writeln!(out, "<html lang=\"en\">")?;
    writeln!(out, "<head>")?;
    writeln!(out, "<meta charset=\"utf-8\">")?;
    writeln!(
        out,
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    )?;
    writeln!(out, "<title>{}</title>", esc(title))?;
    writeln!(out, "<style>{CSS}</style>")?;
    writeln!(out, "</head>")?;
    writeln!(out, "<body>")?;
    writeln!(out, "<main>")
}

fn write_foot(out: &mut String) -> fmt::Result {
    writeln!(out, "<footer>Generated by arena.</footer>")?;
    writeln!(out, "</main>")?;
    writeln!(out, "</body>")?;
    writeln!(out, "</html>")
}

/// A chart inline, or a short note when it could not be drawn.
fn write_chart(out: &mut String, what: &str, chart: Result<String, String>) -> fmt::Result {
    match chart {
        Ok(svg) => writeln!(
            out,
            "<figure class=\"chart\" role=\"img\" aria-label=\"{}\">\n{svg}\n</figure>",
            esc(what)
        ),
        Err(e) => writeln!(
            out,
            "<p class=\"chart-missing\">The {} could not be drawn: {}.</p>",
            esc(what),
            esc(&e)
        ),
    }
}

fn write_rating_table(out: &mut String, rows: &[RatedEngine]) -> fmt::Result {
    if rows.is_empty() {
        return writeln!(out, "<p class=\"sub\">No rated engines.</p>");
    }
    writeln!(out, "<div class=\"scroll\"><table class=\"ratings\">")?;
    writeln!(
        out,
        "<thead><tr><th>#</th><th class=\"l\">Engine</th><th>Elo</th>\
         <th title=\"95 % confidence interval of the rating\">95&#8239;% interval</th>\
         <th title=\"Likelihood of superiority over the next engine in the list (Ordo's CFS)\">CFS next</th>\
         <th>Points</th><th>Games</th><th>Score</th><th>W / D / L</th><th>Draws</th></tr></thead>"
    )?;
    writeln!(out, "<tbody>")?;
    for r in rows {
        let class = if r.anchor {
            "rating-row anchor"
        } else {
            "rating-row"
        };
        let badge = if r.anchor {
            " <span class=\"badge\">anchor</span>"
        } else {
            ""
        };
        let half = (r.elo_upper - r.elo_lower) / 2.0;
        let ci_title = if half.is_finite() {
            format!(" title=\"\u{b1}{half:.1}\"")
        } else {
            String::new()
        };
        let (cfs, cfs_class) = match r.cfs_next {
            Some(c) if c.is_finite() => (fmt_pct(c), if c >= 0.95 { "sig" } else { "" }),
            _ => ("\u{2014}".to_string(), "dim"),
        };
        let score = if r.games > 0 {
            fmt_pct(r.points / r.games as f64)
        } else {
            "\u{2014}".to_string()
        };
        let elo_class = if r.elo.is_finite() { "elo" } else { "elo bad" };
        writeln!(
            out,
            "<tr class=\"{class}\"><td>{}</td><td class=\"l engine\">{}{badge}</td>\
             <td class=\"{elo_class}\">{}</td><td class=\"dim\"{ci_title}>{}</td>\
             <td class=\"{cfs_class}\">{cfs}</td><td>{}</td><td>{}</td><td>{score}</td>\
             <td>{} / {} / {}</td><td>{}</td></tr>",
            r.rank,
            esc(&r.label),
            fmt_elo(r.elo),
            fmt_interval(r.elo_lower, r.elo_upper),
            fmt_num(r.points, 1),
            r.games,
            r.wins,
            r.draws,
            r.losses,
            fmt_pct(r.draw_rate),
        )?;
    }
    writeln!(out, "</tbody></table></div>")
}

fn write_pairing_table(out: &mut String, rows: &[PairingLine]) -> fmt::Result {
    if rows.is_empty() {
        return writeln!(out, "<p class=\"sub\">No pairings.</p>");
    }
    writeln!(out, "<div class=\"scroll\"><table class=\"pairings\">")?;
    writeln!(
        out,
        "<thead><tr><th>#</th><th class=\"l\">A vs B</th><th>Pairs</th><th>W / D / L (A)</th>\
         <th>Score</th><th>Elo A</th><th>95&#8239;% interval</th>\
         <th title=\"Likelihood of superiority: the probability that A is the stronger\">LOS</th>\
         <th title=\"Pentanomial: pairs scoring 0, ½, 1, 1½, 2 for A\">Ptnml(0-2)</th>\
         <th>Avg plies</th><th class=\"l\">Failures</th></tr></thead>"
    )?;
    writeln!(out, "<tbody>")?;
    for (k, p) in rows.iter().enumerate() {
        let names = format!("{} <span class=\"dim\">vs</span> {}", esc(&p.a), esc(&p.b));
        let pairing = match safe_href(&format!("{}/", p.folder)) {
            Some(href) => format!("<a href=\"{href}\" title=\"match folder\">{names}</a>"),
            None => names,
        };
        let ptnml = p
            .ptnml
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let fail_class = if p.failures.iter().sum::<u64>() > 0 {
            "l fail bad"
        } else {
            "l fail dim"
        };
        writeln!(
            out,
            "<tr class=\"pairing-row\"><td>{}</td><td class=\"l\">{pairing}</td><td>{}</td>\
             <td>{} / {} / {}</td><td>{}</td><td class=\"elo\">{}</td><td class=\"dim\">{}</td>\
             <td>{}</td><td>[{ptnml}]</td><td>{}</td><td class=\"{fail_class}\">{}</td></tr>",
            k + 1,
            p.pairs,
            p.wins,
            p.draws,
            p.losses,
            fmt_pct(p.score),
            fmt_elo(p.elo),
            fmt_interval(p.elo_lower, p.elo_upper),
            fmt_pct(p.los),
            fmt_num(p.average_plies, 1),
            if p.failures == [0, 0] {
                "none".to_string()
            } else {
                esc(&format!(
                    "{} {}, {} {}",
                    p.a, p.failures[0], p.b, p.failures[1]
                ))
            },
        )?;
    }
    writeln!(out, "</tbody></table></div>")
}

/// The information-leak table: per engine Ω, Δ with its paired and independent intervals, the
/// head-to-head and the verdict; each arm links to its match folder under `leak/`.
fn write_leak(out: &mut String, l: &crate::report::leak::LeakJson) -> fmt::Result {
    use crate::report::leak::ArmResult;
    writeln!(out, "<section id=\"leak\">")?;
    writeln!(
        out,
        "<h2>Information leak <a href=\"leak/leak.md\" style=\"font-size:13px;font-weight:500;margin-left:8px\">leak.md \u{2192}</a></h2>"
    )?;
    writeln!(
        out,
        "<p class=\"sub\">{}<br>{}</p>",
        esc(&l.context),
        esc(&crate::report::leak::opponent_text(l))
    )?;
    let with_opponent = l.opponent.is_some();
    writeln!(out, "<div class=\"scroll\"><table class=\"pairings\">")?;
    write!(out, "<thead><tr><th class=\"l\">Engine</th>")?;
    if with_opponent {
        write!(
            out,
            "<th>F: fair vs O</th><th>\u{3a9}: omniscient vs O</th>"
        )?;
    }
    writeln!(
        out,
        "<th title=\"Paired bootstrap over pair indices\">\u{394} = \u{3a9} \u{2212} F</th>\
         <th>95&#8239;% (paired)</th>\
         <th title=\"The arms' own intervals in quadrature\">95&#8239;% (independent)</th>\
         <th>Head to head \u{3a9} vs F</th><th>Pairs</th><th class=\"l\">Verdict</th></tr></thead><tbody>"
    )?;
    let arm = |a: &ArmResult| {
        let text = format!(
            "{} <span class=\"dim\">{}</span>",
            fmt_elo(a.elo),
            fmt_interval(a.elo_lower, a.elo_upper)
        );
        match safe_href(&format!("leak/{}/", a.folder)) {
            Some(h) => format!("<a href=\"{h}\" title=\"match folder\">{text}</a>"),
            None => text,
        }
    };
    for r in &l.rows {
        let verdict_class = match r.verdict {
            crate::report::leak::Verdict::Gains => "l",
            crate::report::leak::Verdict::NoGain if r.control => "l",
            _ => "l bad",
        };
        write!(
            out,
            "<tr><td class=\"l\">{}{}</td>",
            esc(&r.engine),
            if r.control {
                " <span class=\"dim\">(control)</span>"
            } else {
                ""
            }
        )?;
        if with_opponent {
            write!(
                out,
                "<td>{}</td><td>{}</td>",
                r.fair
                    .as_ref()
                    .map_or("0 <span class=\"dim\">(symmetry)</span>".to_string(), arm),
                arm(&r.omniscient)
            )?;
        }
        writeln!(
            out,
            "<td class=\"elo\">{}</td><td class=\"dim\">{}</td><td class=\"dim\">{}</td>\
             <td>{}</td><td>{}</td><td class=\"{verdict_class}\" title=\"{}\">{}</td></tr>",
            fmt_elo(r.delta.elo),
            fmt_interval(r.delta.lower, r.delta.upper),
            fmt_interval(r.delta.independent_lower, r.delta.independent_upper),
            arm(&r.head_to_head),
            r.delta.pairs,
            esc(r.verdict.text()),
            esc(r.verdict.short()),
        )?;
    }
    writeln!(out, "</tbody></table></div>")?;
    for r in &l.rows {
        writeln!(
            out,
            "<p class=\"sub\"><b>{}</b>: {}</p>",
            esc(&r.engine),
            esc(r.verdict.text())
        )?;
    }
    writeln!(
        out,
        "<p class=\"sub\">{}</p>",
        esc(crate::report::leak::MEANING)
    )?;
    for n in &l.notes {
        writeln!(out, "<div class=\"note\">{}</div>", esc(n))?;
    }
    writeln!(out, "</section>")
}

fn write_history(out: &mut String, page: &TournamentPage) -> fmt::Result {
    writeln!(out, "<section id=\"history\">")?;
    writeln!(out, "<h2>History</h2>")?;
    writeln!(
        out,
        "<p class=\"sub\">Each engine's rating over the last {} nights; bands: 95&#8239;% intervals.</p>",
        page.nights.len()
    )?;
    write_chart(
        out,
        "history chart",
        history_chart(&page.nights, &page.history),
    )?;
    writeln!(out, "</section>")
}

/// The self-contained page of one tournament (report.html): no external resources (CSS inline,
/// SVG inline, no JS needed). Top to bottom: title, context and anchor; the rating list; the
/// rating chart; the head-to-head heat map; the per-pairing table with links to the match
/// folders; the history chart (from two nights on); the notes.
pub fn tournament_html(page: &TournamentPage) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write_tournament(&mut out, page);
    out
}

fn write_tournament(out: &mut String, page: &TournamentPage) -> fmt::Result {
    let title = if page.title.trim().is_empty() {
        "Tournament"
    } else {
        page.title.as_str()
    };
    write_head(out, title)?;
    let show_history = page.nights.len() >= 2;
    writeln!(out, "<header>")?;
    writeln!(out, "<h1>{}</h1>", esc(title))?;
    if !page.context.is_empty() {
        writeln!(out, "<p class=\"context\">{}</p>", esc(&page.context))?;
    }
    let games: u64 = page
        .ratings
        .iter()
        .fold(0u64, |acc, r| acc.saturating_add(r.games))
        / 2;
    write!(out, "<p class=\"facts\">")?;
    if !page.anchor.is_empty() {
        write!(out, "Anchor <b>{}</b> · ", esc(&page.anchor))?;
    }
    writeln!(
        out,
        "<b>{}</b> engines · <b>{games}</b> games · <b>{}</b> pairings</p>",
        page.ratings.len(),
        page.pairings.len()
    )?;
    write!(
        out,
        "<nav><a href=\"#ratings\">Rating list</a><a href=\"#rating-chart\">Rating chart</a>\
         <a href=\"#head-to-head\">Head to head</a><a href=\"#pairings\">Pairings</a>"
    )?;
    if page.leak.is_some() {
        write!(out, "<a href=\"#leak\">Information leak</a>")?;
    }
    if show_history {
        write!(out, "<a href=\"#history\">History</a>")?;
    }
    if !page.notes.is_empty() {
        write!(out, "<a href=\"#notes\">Notes</a>")?;
    }
    writeln!(out, "</nav>")?;
    if !page.notes.is_empty() {
        let n = page.notes.len();
        writeln!(
            out,
            "<a class=\"notes-teaser\" href=\"#notes\">\u{26a0} {n} note{} below</a>",
            if n == 1 { "" } else { "s" }
        )?;
    }
    writeln!(out, "</header>")?;

    writeln!(out, "<section id=\"ratings\">")?;
    writeln!(out, "<h2>Rating list</h2>")?;
    writeln!(
        out,
        "<p class=\"sub\">Elo relative to the anchor, 95&#8239;% intervals; CFS: likelihood that \
         the engine is stronger than the next one in the list.</p>"
    )?;
    write_rating_table(out, &page.ratings)?;
    writeln!(out, "</section>")?;

    writeln!(out, "<section id=\"rating-chart\">")?;
    writeln!(out, "<h2>Rating chart</h2>")?;
    write_chart(out, "rating chart", rating_chart(&page.ratings))?;
    writeln!(out, "</section>")?;

    writeln!(out, "<section id=\"head-to-head\">")?;
    writeln!(out, "<h2>Head to head</h2>")?;
    writeln!(
        out,
        "<p class=\"sub\">Score of the row engine against the column engine, in percent.</p>"
    )?;
    let labels: Vec<String> = page.ratings.iter().map(|r| r.label.clone()).collect();
    write_chart(
        out,
        "head-to-head heat map",
        heat_map(&labels, &page.pairwise),
    )?;
    writeln!(out, "</section>")?;

    writeln!(out, "<section id=\"pairings\">")?;
    writeln!(out, "<h2>Pairings</h2>")?;
    writeln!(
        out,
        "<p class=\"sub\">One match per pairing, from A's side; each links to its match folder.</p>"
    )?;
    write_pairing_table(out, &page.pairings)?;
    writeln!(out, "</section>")?;

    if let Some(leak) = &page.leak {
        write_leak(out, leak)?;
    }

    if show_history {
        write_history(out, page)?;
    }

    if !page.notes.is_empty() {
        writeln!(out, "<section id=\"notes\">")?;
        writeln!(out, "<h2>Notes</h2>")?;
        for note in &page.notes {
            writeln!(out, "<div class=\"note\">{}</div>", esc(note))?;
        }
        writeln!(out, "</section>")?;
    }
    write_foot(out)
}

/// The index of many nightly runs (index.html): the latest night's rating list, the history
/// chart of every engine (from two nights on), and links to every night, newest first.
pub fn index_html(nights: &[NightLink], latest: Option<&TournamentPage>) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write_index(&mut out, nights, latest);
    out
}

fn write_index(
    out: &mut String,
    nights: &[NightLink],
    latest: Option<&TournamentPage>,
) -> fmt::Result {
    let mut sorted: Vec<&NightLink> = nights.iter().collect();
    sorted.sort_by(|a, b| b.night.cmp(&a.night));
    write_head(out, "Nightly tournaments")?;
    writeln!(out, "<header>")?;
    writeln!(out, "<h1>Nightly tournaments</h1>")?;
    match sorted.first() {
        Some(newest) => {
            let link = match safe_href(&newest.href) {
                Some(h) => format!("<a href=\"{h}\">{}</a>", esc(&newest.night)),
                None => esc(&newest.night),
            };
            writeln!(
                out,
                "<p class=\"facts\"><b>{}</b> night{} · latest {link}</p>",
                sorted.len(),
                if sorted.len() == 1 { "" } else { "s" }
            )?;
        }
        None => writeln!(out, "<p class=\"facts\">No nights yet.</p>")?,
    }
    writeln!(out, "</header>")?;

    if let Some(page) = latest {
        writeln!(out, "<section id=\"latest\">")?;
        let report = sorted.first().and_then(|n| safe_href(&n.href));
        match report {
            Some(h) => writeln!(
                out,
                "<h2>Latest: {} <a href=\"{h}\" style=\"font-size:13px;font-weight:500;margin-left:8px\">full report \u{2192}</a></h2>",
                esc(&page.title)
            )?,
            None => writeln!(out, "<h2>Latest: {}</h2>", esc(&page.title))?,
        }
        let mut sub = esc(&page.context);
        if !page.anchor.is_empty() {
            if !sub.is_empty() {
                sub.push_str(" · ");
            }
            write!(sub, "anchor {}", esc(&page.anchor))?;
        }
        writeln!(out, "<p class=\"sub\">{sub}</p>")?;
        write_rating_table(out, &page.ratings)?;
        writeln!(out, "</section>")?;
        if page.nights.len() >= 2 {
            write_history(out, page)?;
        }
    }

    writeln!(out, "<section id=\"nights\">")?;
    writeln!(out, "<h2>All nights</h2>")?;
    if sorted.is_empty() {
        writeln!(out, "<p class=\"sub\">No nights yet.</p>")?;
    } else {
        writeln!(out, "<p class=\"sub\">Newest first.</p>")?;
        writeln!(out, "<div class=\"scroll\"><table class=\"nights\">")?;
        writeln!(
            out,
            "<thead><tr><th class=\"l\">Night</th><th class=\"l\">Summary</th></tr></thead><tbody>"
        )?;
        for n in &sorted {
            let night = match safe_href(&n.href) {
                Some(h) => format!("<a href=\"{h}\">{}</a>", esc(&n.night)),
                None => esc(&n.night),
            };
            writeln!(
                out,
                "<tr class=\"night-row\"><td class=\"l\">{night}</td><td class=\"l wrap\">{}</td></tr>",
                esc(&n.summary)
            )?;
        }
        writeln!(out, "</tbody></table></div>")?;
    }
    writeln!(out, "</section>")?;
    write_foot(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(rank: usize, label: &str, elo: f64, anchor: bool) -> RatedEngine {
        RatedEngine {
            rank,
            label: label.to_string(),
            spec: label.to_string(),
            elo,
            elo_lower: elo - 30.0,
            elo_upper: elo + 30.0,
            cfs_next: Some(0.97),
            points: 120.5,
            games: 200,
            wins: 100,
            draws: 41,
            losses: 59,
            score: 120.5 / 200.0,
            draw_rate: 0.205,
            anchor,
            failures: 0,
            time_forfeits: 0,
            per_move: crate::report::PerMove {
                moves: 0,
                ms: 0.0,
                nodes: 0.0,
                depth: None,
            },
        }
    }

    fn cell(score: f64) -> Option<PairwiseCell> {
        Some(PairwiseCell {
            row: "r".into(),
            col: "c".into(),
            score,
            games: 100,
            elo: 0.0,
            los: 0.5,
        })
    }

    fn page(labels: &[&str], nights: usize) -> TournamentPage {
        let ratings: Vec<RatedEngine> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| row(i + 1, l, 300.0 - 150.0 * i as f64, i == 1))
            .collect();
        let n = ratings.len();
        let pairwise = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        if i == j {
                            None
                        } else {
                            cell(if i < j { 0.7 } else { 0.3 })
                        }
                    })
                    .collect()
            })
            .collect();
        let night_names: Vec<String> = (0..nights)
            .map(|k| format!("2026-11-{:02}", 20 + k))
            .collect();
        let history = labels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let pts = night_names
                    .iter()
                    .map(|night| HistoryPoint {
                        night: night.clone(),
                        elo: 100.0 * i as f64,
                        lower: 100.0 * i as f64 - 20.0,
                        upper: 100.0 * i as f64 + 20.0,
                    })
                    .collect();
                (l.to_string(), pts)
            })
            .collect();
        TournamentPage {
            title: "Nightly 2026-11-30".into(),
            context: "nodes=2000, round robin".into(),
            anchor: "greedy = 0".into(),
            ratings,
            pairwise,
            pairings: vec![PairingLine {
                a: labels.first().unwrap_or(&"a").to_string(),
                b: labels.get(1).unwrap_or(&"b").to_string(),
                pairs: 100,
                wins: 120,
                draws: 40,
                losses: 40,
                score: 0.7,
                elo: 147.2,
                elo_lower: 120.0,
                elo_upper: 175.0,
                los: 0.98,
                ptnml: [1, 5, 30, 40, 24],
                average_plies: 87.3,
                failures: [0, 1],
                folder: "pairings/01-ab-vs-greedy".into(),
            }],
            nights: night_names,
            history,
            notes: vec![],
            leak: None,
        }
    }

    #[test]
    fn escapes_labels_everywhere() {
        let nasty = "<script>alert('x')</script>&\"";
        let mut p = page(&[nasty, "greedy"], 3);
        p.title = "<b>t</b>".into();
        p.notes = vec!["<i>note</i>".into()];
        p.pairings[0].folder = "javascript:alert(1)".into();
        let html = tournament_html(&p);
        assert!(!html.contains("<script>"));
        assert!(!html.contains("<b>t</b>"));
        assert!(!html.contains("<i>note</i>"));
        assert!(!html.contains("javascript:"));
        assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;"));
        let index = index_html(
            &[NightLink {
                night: "<n>".into(),
                href: "2026/<x>.html".into(),
                summary: "a & b".into(),
            }],
            Some(&p),
        );
        assert!(!index.contains("<script>"));
        assert!(index.contains("&lt;n&gt;"));
        assert!(index.contains("a &amp; b"));
    }

    #[test]
    fn one_table_row_per_engine() {
        let labels = ["alphabeta", "ismcts", "flat-uct", "greedy", "random"];
        let html = tournament_html(&page(&labels, 1));
        assert_eq!(html.matches("<tr class=\"rating-row").count(), labels.len());
        assert_eq!(html.matches("<tr class=\"rating-row anchor\"").count(), 1);
        assert_eq!(html.matches("<tr class=\"pairing-row\"").count(), 1);
        assert!(html.contains("href=\"pairings/01-ab-vs-greedy/\""));
    }

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
    fn history_only_from_two_nights() {
        let labels = ["alphabeta", "greedy"];
        for (nights, shown) in [(0, false), (1, false), (2, true), (3, true)] {
            let html = tournament_html(&page(&labels, nights));
            assert_eq!(html.contains("id=\"history\""), shown, "{nights} nights");
            let index = index_html(&[], Some(&page(&labels, nights)));
            assert_eq!(index.contains("id=\"history\""), shown, "{nights} nights");
        }
    }

    #[test]
    fn odd_numbers_and_empty_inputs_never_panic() {
        let odd = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e308,
            -1e308,
            0.0,
        ];
        let mut p = page(&["a", "b", "c", "d", "e", "f"], 3);
        for (i, r) in p.ratings.iter_mut().enumerate() {
            r.elo = odd[i];
            r.elo_lower = odd[(i + 1) % odd.len()];
            r.elo_upper = odd[(i + 2) % odd.len()];
            r.points = odd[(i + 3) % odd.len()];
            r.draw_rate = odd[(i + 4) % odd.len()];
            r.cfs_next = Some(odd[(i + 5) % odd.len()]);
        }
        for (i, rowcells) in p.pairwise.iter_mut().enumerate() {
            for (j, c) in rowcells.iter_mut().enumerate() {
                if let Some(c) = c {
                    c.score = odd[(i + j) % odd.len()];
                    c.elo = odd[(i * j) % odd.len()];
                }
            }
        }
        p.pairwise.truncate(3);
        p.pairwise[0].truncate(1);
        p.pairings[0].score = f64::NAN;
        p.pairings[0].elo = f64::INFINITY;
        p.pairings[0].elo_lower = f64::NEG_INFINITY;
        p.pairings[0].average_plies = f64::NAN;
        for (k, (_, pts)) in p.history.iter_mut().enumerate() {
            for (i, pt) in pts.iter_mut().enumerate() {
                pt.elo = odd[(k + i) % odd.len()];
                pt.lower = odd[(k + i + 1) % odd.len()];
                pt.upper = odd[(k + i + 2) % odd.len()];
            }
        }
        p.history[0].1[1].night = "not a night".into();
        let html = tournament_html(&p);
        assert_eq!(html.matches("<svg").count(), 3);
        assert!(html.contains("unrated"));
        assert!(html.contains("+inf"));
        assert!(html.contains("\u{2212}inf"));
        assert!(rating_chart(&p.ratings).is_ok());
        assert!(heat_map(&["x".to_string()], &[]).is_ok());
        assert!(history_chart(&p.nights, &p.history).is_ok());
        assert!(history_chart(&["only".to_string()], &p.history).is_ok());

        let empty = TournamentPage {
            title: String::new(),
            context: String::new(),
            anchor: String::new(),
            ratings: vec![],
            pairwise: vec![],
            pairings: vec![],
            nights: vec![],
            history: vec![],
            notes: vec![],
            leak: None,
        };
        let html = tournament_html(&empty);
        assert!(html.contains("No rated engines."));
        assert!(rating_chart(&[]).is_ok());
        assert!(heat_map(&[], &[]).is_ok());
        assert!(history_chart(&[], &[]).is_ok());
        assert!(history_chart(&["2026-11-30".to_string()], &[]).is_ok());
        assert!(index_html(&[], None).contains("No nights yet."));
        assert!(index_html(&[], Some(&empty)).contains("</html>"));
    }

    #[test]
    fn numbers_are_formatted() {
        assert_eq!(fmt_elo(312.04), "+312.0");
        assert_eq!(fmt_elo(-600.0), "\u{2212}600.0");
        assert_eq!(fmt_elo(-0.01), "0.0");
        assert_eq!(fmt_elo(f64::INFINITY), "+inf");
        assert_eq!(fmt_elo(f64::NEG_INFINITY), "\u{2212}inf");
        assert_eq!(fmt_elo(f64::NAN), "unrated");
        assert_eq!(fmt_pct(0.5234), "52.3\u{202f}%");
        assert_eq!(fmt_interval(-12.34, 25.06), "[\u{2212}12.3, +25.1]");
        assert_eq!(safe_href("javascript:x"), None);
        assert_eq!(safe_href("pairings/a:b/").as_deref(), Some("pairings/a:b/"));
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

    #[test]
    fn the_leak_table_links_its_arms() {
        use crate::report::leak::{ArmResult, Delta, LeakJson, LeakRow, Verdict};
        let arm = |elo: f64, folder: &str| ArmResult {
            pairs: 100,
            score: 0.7,
            elo,
            elo_lower: elo - 30.0,
            elo_upper: elo + 30.0,
            ptnml: [5, 10, 40, 25, 20],
            failures: [0, 0],
            folder: folder.into(),
        };
        let row = |engine: &str, verdict, control| LeakRow {
            engine: engine.into(),
            spec: engine.into(),
            fair: Some(arm(100.0, "arms/x/fair")),
            omniscient: arm(250.0, "arms/x/omniscient"),
            delta: Delta {
                elo: 150.0,
                lower: 120.0,
                upper: 180.0,
                independent_lower: 100.0,
                independent_upper: 200.0,
                pairs: 100,
            },
            head_to_head: arm(140.0, "arms/x/head-to-head"),
            verdict,
            control,
        };
        let mut p = page(&["ab", "greedy"], 1);
        p.leak = Some(LeakJson {
            command: String::new(),
            harness_version: String::new(),
            fingerprint: String::new(),
            context: "nodes=500".into(),
            opponent: Some("greedy".into()),
            pairs: 100,
            seed: 1,
            resamples: 1000,
            rows: vec![
                row("ab", Verdict::Gains, false),
                row("peek<x>", Verdict::NoGain, true),
            ],
            notes: vec!["a note".into()],
        });
        let html = tournament_html(&p);
        assert!(html.contains("href=\"#leak\""));
        assert!(html.contains("id=\"leak\""));
        assert!(html.contains("href=\"leak/arms/x/omniscient/\""));
        assert!(html.contains("peek&lt;x&gt;"));
        assert!(html.contains("(control)"));
        assert!(html.contains(">gains<") && html.contains(">no gain<"));
        assert!(html.contains("Opponent O: greedy (fair)."));
        // Without an opponent the F and Ω columns are left out.
        p.leak.as_mut().unwrap().opponent = None;
        let html = tournament_html(&p);
        assert!(!html.contains("F: fair vs O"));
        assert!(html.contains("Head to head"));
    }
}
