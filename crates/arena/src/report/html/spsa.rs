//! `arena spsa`'s page (spsa.html): the result spec, the parameters' table, and one small inline
//! SVG chart per parameter of θ over the iterations (its range top to bottom, its start dashed).

use std::fmt::Write;

use super::format::esc;
use super::style::{write_foot, write_head};
use crate::tuning::spsa::Record;

/// The chart's size and margins, in px.
const W: f64 = 380.0;
const H: f64 = 140.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 24.0;

/// One parameter's path: θ after each batch (x: iterations done), on its range.
fn chart(record: &Record, i: usize) -> String {
    let p = &record.settings.params[i];
    let n = record.settings.iterations.max(1) as f64;
    let x = |k: f64| LEFT + (W - LEFT - RIGHT) * (k / n).clamp(0.0, 1.0);
    let y = |v: f64| {
        let t = ((v - p.min) / (p.max - p.min)).clamp(0.0, 1.0);
        TOP + (H - TOP - BOTTOM) * (1.0 - t)
    };
    let mut points = format!("{:.1},{:.1}", x(0.0), y(p.start));
    for s in &record.history {
        if let Some(&v) = s.theta.get(i) {
            let _ = write!(points, " {:.1},{:.1}", x(s.iteration as f64), y(v));
        }
    }
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" role=\"img\" \
         aria-label=\"{name} over the iterations\">\
         <rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{pw}\" height=\"{ph}\" fill=\"none\" stroke=\"#bbb\"/>\
         <line x1=\"{LEFT}\" x2=\"{xr}\" y1=\"{ys:.1}\" y2=\"{ys:.1}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\
         <polyline points=\"{points}\" fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.5\"/>\
         <text x=\"{tx}\" y=\"{ytop:.1}\" font-size=\"11\" text-anchor=\"end\">{max}</text>\
         <text x=\"{tx}\" y=\"{ybot:.1}\" font-size=\"11\" text-anchor=\"end\">{min}</text>\
         <text x=\"{LEFT}\" y=\"{yl}\" font-size=\"11\">0</text>\
         <text x=\"{xr}\" y=\"{yl}\" font-size=\"11\" text-anchor=\"end\">{iters}</text></svg>",
        name = esc(&p.name),
        pw = W - LEFT - RIGHT,
        ph = H - TOP - BOTTOM,
        xr = W - RIGHT,
        ys = y(p.start),
        tx = LEFT - 4.0,
        ytop = TOP + 10.0,
        ybot = H - BOTTOM,
        max = p.max,
        min = p.min,
        yl = H - 8.0,
        iters = record.settings.iterations,
    );
    svg
}

/// The page of a run's record.
pub fn spsa_html(record: &Record, spec: &str) -> String {
    let mut out = String::new();
    let _ = write_page(&mut out, record, spec);
    out
}

fn write_page(out: &mut String, record: &Record, spec: &str) -> std::fmt::Result {
    let s = &record.settings;
    write_head(out, "SPSA")?;
    writeln!(out, "<h1>SPSA: {}</h1>", esc(&s.engine))?;
    writeln!(
        out,
        "<p>Iteration {} of {}, {} games (θ+ +{} ={} −{}), batch {}, seed {}.</p>",
        record.iteration,
        s.iterations,
        record.wdl.games(),
        record.wdl.wins,
        record.wdl.draws,
        record.wdl.losses,
        s.batch,
        s.seed
    )?;
    writeln!(
        out,
        "<p>Result, ready for <code>arena sprt</code>:</p>\
         <pre style=\"white-space:pre-wrap;overflow-wrap:anywhere\">{}</pre>",
        esc(spec)
    )?;
    writeln!(
        out,
        "<table><thead><tr><th style=\"text-align:left\">parameter</th><th>type</th>\
         <th>start</th><th>θ now</th><th>sent</th><th>change</th><th>min</th><th>max</th>\
         <th>c_end</th><th>r_end</th></tr></thead><tbody>"
    )?;
    for (p, &t) in s.params.iter().zip(&record.theta) {
        let kind = match p.kind {
            crate::tuning::spsa::Kind::Int => "int",
            crate::tuning::spsa::Kind::Float => "float",
        };
        writeln!(
            out,
            "<tr><td style=\"text-align:left\">{}</td><td>{kind}</td><td>{}</td><td>{t:.3}</td>\
             <td>{}</td><td>{:+.3}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&p.name),
            p.start,
            esc(&p.value_text(t)),
            t - p.start,
            p.min,
            p.max,
            p.c_end,
            p.r_end
        )?;
    }
    writeln!(out, "</tbody></table>")?;
    writeln!(
        out,
        "<h2>Paths</h2><p>θ after each batch over the iterations, each on its own range (top: max, \
         bottom: min); dashed: the start.</p>\
         <div style=\"display:flex;flex-wrap:wrap;gap:8px 24px\">"
    )?;
    for (i, p) in s.params.iter().enumerate() {
        writeln!(
            out,
            "<figure style=\"margin:0\"><figcaption><b>{}</b> {} → {}</figcaption>{}</figure>",
            esc(&p.name),
            p.start,
            esc(&p.value_text(record.theta[i])),
            chart(record, i)
        )?;
    }
    writeln!(out, "</div>")?;
    write_foot(out)
}
