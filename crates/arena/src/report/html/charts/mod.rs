//! The three SVG charts the pages inline, drawn with plotters' SVG backend, one file each: the
//! rating list ([`rating_chart`], `rating.rs`), the head-to-head heat map ([`heat_map`],
//! `heat.rs`) and the ratings over the nights ([`history_chart`], `history.rs`); here their
//! helpers: colours, fonts, text widths, finite axis ranges, an axis with one tick per engine or
//! night ([`KeyAxis`]), a guard that turns a panic inside plotters into an error, and the note
//! drawn for a chart without data.

use std::fmt;

use crate::report::html::format::{signed, truncate};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::{
    Color, FontDesc, IntoDrawingArea, IntoFont, Palette, Palette99, RGBColor, SVGBackend, Text,
    TextStyle, WHITE,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};

mod heat;
mod history;
mod rating;

pub use heat::{MAX_HEAT_MAP, heat_map};
pub use history::history_chart;
pub use rating::rating_chart;

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

/// Why a chart could not be drawn (plotters failed, or panicked inside); the pages show its
/// message in place of the chart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartError(String);

impl fmt::Display for ChartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ChartError {}

/// A plotters error as the message the pages show.
fn err<E: fmt::Display>(e: E) -> ChartError {
    ChartError(e.to_string())
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
    draw: impl FnOnce() -> Result<String, ChartError> + std::panic::UnwindSafe,
) -> Result<String, ChartError> {
    std::panic::catch_unwind(draw).unwrap_or_else(|_| {
        Err(ChartError(
            "the chart drawing failed unexpectedly".to_string(),
        ))
    })
}

/// A small SVG that only says `msg` (a chart without data).
fn message_svg(msg: &str, w: u32, h: u32) -> Result<String, ChartError> {
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

#[cfg(test)]
mod tests;
