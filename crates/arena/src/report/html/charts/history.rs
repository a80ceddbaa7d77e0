//! The ratings over the nights: a line, band and points per engine, with a legend.

use std::collections::HashMap;
use std::iter::once;

use super::*;
use crate::report::html::HistoryPoint;
use crate::report::html::format::{fmt_elo, truncate};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::{
    Cartesian2d, ChartBuilder, ChartContext, Circle, Color, DrawingArea, EmptyElement, LineSeries,
    PathElement, Polygon,
};

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
) -> Result<String, ChartError> {
    guarded(|| draw_history_chart(nights, history))
}

fn draw_history_chart(
    nights: &[String],
    history: &[(String, Vec<HistoryPoint>)],
) -> Result<String, ChartError> {
    let m = nights.len();
    if m == 0 || history.is_empty() {
        return message_svg("No history yet.", 820, 100);
    }
    let tracks = tracks(nights, history);

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
        draw_bars(&mut chart, &tracks, (y0, y1, edge))?;
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

        draw_legend(&legend_area, &tracks, legend_w)?;
        root.present().map_err(err)?;
    }
    Ok(buf)
}

/// Each engine's points on the nights of `nights` (by index, in order, one a night), its colour
/// and, for one that did not play the last night, that night.
fn tracks(nights: &[String], history: &[(String, Vec<HistoryPoint>)]) -> Vec<Track> {
    let m = nights.len();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, night) in nights.iter().enumerate() {
        index.entry(night.as_str()).or_insert(i);
    }
    history
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
        .collect()
}

/// The history chart's plotting area.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<KeyAxis, RangedCoordf64>>;

/// Whether a point's rating and both interval ends are finite.
fn finite(p: &(usize, f64, f64, f64)) -> bool {
    p.1.is_finite() && p.2.is_finite() && p.3.is_finite()
}

/// Draws the interval bars where there is no band, `(y0, y1, edge)` the y range and how far
/// in from an edge an arrow to it ends.
fn draw_bars(
    chart: &mut Chart<'_, '_>,
    tracks: &[Track],
    (y0, y1, edge): (f64, f64, f64),
) -> Result<(), ChartError> {
    // Interval bars where there is no band: an engine's only night in a run, or an end
    // that is unbounded, drawn as an arrow to the chart's edge.
    for t in tracks {
        let lonely: Vec<bool> = (0..t.points.len())
            .map(|i| {
                let ok = |j: Option<usize>| j.and_then(|j| t.points.get(j)).is_some_and(&finite);
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
                                + PathElement::new(vec![(-6, 0), (6, 0)], t.color.stroke_width(2)),
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
                                + Polygon::new(vec![(0, tip), (-5, 0), (5, 0)], t.color.filled()),
                        ))
                        .map_err(err)?;
                }
            }
        }
    }
    Ok(())
}

/// Draws the legend in `legend_area`, `legend_w` wide.
fn draw_legend(
    legend_area: &DrawingArea<SVGBackend<'_>, Shift>,
    tracks: &[Track],
    legend_w: u32,
) -> Result<(), ChartError> {
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
    Ok(())
}
