//! The head-to-head results as a heat map: the row engine's score against each column engine.

use super::*;
use crate::report::html::format::truncate;
use crate::report::ratings_json::PairwiseCell;
use plotters::coord::Shift;
use plotters::prelude::{Color, DrawingArea, FontTransform, Rectangle};
use plotters::style::text_anchor::Pos;

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
pub fn heat_map(
    labels: &[String],
    cells: &[Vec<Option<PairwiseCell>>],
) -> Result<String, ChartError> {
    guarded(|| draw_heat_map(labels, cells))
}

/// The most engines the heat map draws a matrix for; beyond, it says there are too many.
pub const MAX_HEAT_MAP: usize = 200;

fn draw_heat_map(
    labels: &[String],
    cells: &[Vec<Option<PairwiseCell>>],
) -> Result<String, ChartError> {
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
        draw_legend(&root, left, top + grid + 18, legend_w)?;
        root.present().map_err(err)?;
    }
    Ok(buf)
}

/// Draws the heat map's legend at `left`, `ly`: the colour scale, `legend_w` wide, and what the
/// cells say.
fn draw_legend(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    left: i32,
    ly: i32,
    legend_w: i32,
) -> Result<(), ChartError> {
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
    Ok(())
}
