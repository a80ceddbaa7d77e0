//! The rating list as a chart: a point and its interval per engine, in rank order.

use std::iter::once;

use super::*;
use crate::report::html::format::{MINUS, fmt_elo, truncate};
use crate::report::ratings_json::RatedEngine;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::{
    Cartesian2d, ChartBuilder, ChartContext, Circle, Color, DashedLineSeries, EmptyElement,
    PathElement, Polygon,
};

/// The rating list as a chart: one point per engine with its 95 % error bar, engines top to
/// bottom in rank order, a dashed line at the anchor's rating (or 0). Engines rated ±inf or NaN
/// are marked at the axis edge with "+inf", "−inf" or "unrated". The height grows with the
/// number of engines.
///
/// # Errors
///
/// A message when plotters fails to draw; the pages then show it in place of the chart.
pub fn rating_chart(rows: &[RatedEngine]) -> Result<String, ChartError> {
    guarded(|| draw_rating_chart(rows))
}

fn draw_rating_chart(rows: &[RatedEngine]) -> Result<String, ChartError> {
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

        let frame = Frame {
            reference,
            x0,
            x1,
            edge,
        };
        for (r, &y) in rows.iter().zip(&ys) {
            draw_engine(&mut chart, r, y, &frame)?;
        }
        root.present().map_err(err)?;
    }
    Ok(buf)
}

/// The chart's frame for one engine's row: the reference rating, the x range, and how far in
/// from an edge a mark at that edge goes.
#[derive(Clone, Copy)]
struct Frame {
    reference: f64,
    x0: f64,
    x1: f64,
    edge: f64,
}

/// The rating chart's plotting area.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, KeyAxis>>;

/// Draws engine `r`'s row at `y`: its rating and interval, or its mark at the axis edge.
fn draw_engine(
    chart: &mut Chart<'_, '_>,
    r: &RatedEngine,
    y: f64,
    frame: &Frame,
) -> Result<(), ChartError> {
    let Frame {
        reference,
        x0,
        x1,
        edge,
    } = *frame;
    let color = if r.anchor { ANCHOR } else { ACCENT };
    if r.elo.is_finite() {
        let e = clamp_elo(r.elo);
        if let (Some(a), Some(b)) = (bound(r.elo_lower, x0, x1), bound(r.elo_upper, x0, x1)) {
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
                        + Polygon::new(vec![(tip, 0), (-tip, -6), (-tip, 6)], ALERT.filled())
                        + text_el,
                ))
                .map_err(err)?;
        }
    }

    Ok(())
}
