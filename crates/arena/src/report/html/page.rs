//! The page writers: a chart or the note in its place, the rating and pairing tables, the
//! information-leak section, the history section, and the two pages built from them: one
//! tournament ([`write_tournament`]) and the index of the nightly runs ([`write_index`]), each
//! between `style.rs`'s head and foot.

use std::fmt::{self, Write as _};

use crate::report::html::charts::{ChartError, heat_map, history_chart, rating_chart};
use crate::report::html::format::{
    esc, esc_label, fmt_elo, fmt_interval, fmt_num, fmt_pct, safe_href,
};
use crate::report::html::style::{write_foot, write_head};
use crate::report::html::{Delta, Index, NightNav, TournamentPage};
use crate::report::ratings_json::{PairingLine, RatedEngine};

/// A chart inline, or a short note when it could not be drawn.
fn write_chart(out: &mut String, what: &str, chart: Result<String, ChartError>) -> fmt::Result {
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
            esc(&e.to_string())
        ),
    }
}

/// An engine's change since the previous night: the cell's class and text.
fn delta_cell(d: Option<&Delta>) -> (&'static str, String) {
    match d {
        Some(Delta::Elo(x)) if x.abs() < 0.05 => ("dim", "0.0".to_string()),
        Some(Delta::Elo(x)) if *x > 0.0 => ("up", fmt_elo(*x)),
        Some(Delta::Elo(x)) => ("down", fmt_elo(*x)),
        Some(Delta::New) => ("dim", "new".to_string()),
        Some(Delta::Unknown) | None => ("dim", "\u{2014}".to_string()),
    }
}

/// The rating list: one row per engine, the anchor marked, with a Δ column when `deltas` gives
/// the previous night and each engine's change since; a note when there is no engine.
fn write_rating_table(
    out: &mut String,
    rows: &[RatedEngine],
    deltas: Option<&(String, Vec<Delta>)>,
) -> fmt::Result {
    if rows.is_empty() {
        return writeln!(out, "<p class=\"sub\">No rated engines.</p>");
    }
    writeln!(out, "<div class=\"scroll\"><table class=\"ratings\">")?;
    let delta_head = deltas.map_or(String::new(), |(since, _)| {
        format!(
            "<th class=\"delta\" title=\"Change of the rating since the previous night of the series, {}\">\u{394} since {}</th>",
            esc(since),
            esc(since.get(5..).unwrap_or(since))
        )
    });
    writeln!(
        out,
        "<thead><tr><th>#</th><th class=\"l engine\">Engine</th><th>Elo</th>{delta_head}\
         <th title=\"95 % confidence interval of the rating\">95&#8239;% interval</th>\
         <th title=\"Likelihood of superiority over the next engine in the list (Ordo's CFS)\">CFS next</th>\
         <th class=\"wide\">Points</th><th class=\"wide\">Games</th><th>Score</th><th>W / D / L</th><th>Draws</th></tr></thead>"
    )?;
    writeln!(out, "<tbody>")?;
    for (k, r) in rows.iter().enumerate() {
        let delta = deltas.map_or(String::new(), |(_, d)| {
            let (class, text) = delta_cell(d.get(k));
            format!("<td class=\"delta {class}\">{text}</td>")
        });
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
             <td class=\"{elo_class}\">{}</td>{delta}<td class=\"dim ci\"{ci_title}>{}</td>\
             <td class=\"{cfs_class}\">{cfs}</td><td class=\"wide\">{}</td><td class=\"wide\">{}</td><td>{score}</td>\
             <td>{} / {} / {}</td><td>{}</td></tr>",
            r.rank,
            esc_label(&r.label),
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

/// The per-pairing table, from A's side, each pairing linked to its match folder.
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
         <th>Avg plies</th><th class=\"l\">Failures</th><th class=\"l\">Games</th></tr></thead>"
    )?;
    writeln!(out, "<tbody>")?;
    for (k, p) in rows.iter().enumerate() {
        let names = format!(
            "{} <span class=\"dim\">vs</span> {}",
            esc_label(&p.a),
            esc_label(&p.b)
        );
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
        let games = match safe_href(&format!("{}/games.html", p.folder)) {
            Some(h) => format!("<a href=\"{h}\" title=\"the pairing's games index\">games</a>"),
            None => "\u{2014}".to_string(),
        };
        writeln!(
            out,
            "<tr class=\"pairing-row\"><td>{}</td><td class=\"l pair\">{pairing}</td><td>{}</td>\
             <td>{} / {} / {}</td><td>{}</td><td class=\"elo\">{}</td><td class=\"dim ci\">{}</td>\
             <td>{}</td><td class=\"ptnml\">[{ptnml}]</td><td>{}</td><td class=\"{fail_class}\">{}</td>\
             <td class=\"l\">{games}</td></tr>",
            k + 1,
            p.pairs,
            p.wins,
            p.draws,
            p.losses,
            fmt_pct(p.score),
            fmt_elo(p.elo),
            match &p.interval_undefined {
                Some(why) => format!(
                    "<span title=\"{}\">undefined</span>",
                    esc(&format!("interval undefined: {why}"))
                ),
                None => fmt_interval(p.elo_lower, p.elo_upper),
            },
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
        let folder = match safe_href(&format!("leak/{}/", a.folder)) {
            Some(h) => format!("<a href=\"{h}\" title=\"match folder\">{text}</a>"),
            None => text,
        };
        match safe_href(&format!("leak/{}/games.html", a.folder)) {
            Some(h) => format!(
                "{folder} <a class=\"dim\" href=\"{h}\" title=\"the arm's games index\">games</a>"
            ),
            None => folder,
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
            "<tr><td class=\"l engine\">{}{}</td>",
            esc_label(&r.engine),
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
            esc(&r.verdict_text()),
            esc(r.verdict.short()),
        )?;
    }
    writeln!(out, "</tbody></table></div>")?;
    for r in &l.rows {
        writeln!(
            out,
            "<p class=\"sub\"><b>{}</b>: {}</p>",
            esc(&r.engine),
            esc(&r.verdict_text())
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

/// The history section: each engine's rating over the nights, as a chart.
fn write_history(out: &mut String, page: &TournamentPage) -> fmt::Result {
    writeln!(out, "<section id=\"history\">")?;
    writeln!(out, "<h2>History</h2>")?;
    let of_series = page
        .series
        .as_ref()
        .map_or(String::new(), |d| format!(" of the series {}", esc(d)));
    writeln!(
        out,
        "<p class=\"sub\">Each engine's rating over the {} nights{of_series}. Bands and bars: \
         95&#8239;% intervals, an arrow where an end is unbounded; a ringed point: an engine's \
         only night so far; grey: an engine that no longer plays (the legend gives its last \
         night). An engine keeps its colour from night to night.</p>",
        page.nights.len()
    )?;
    write_chart(
        out,
        "history chart",
        history_chart(&page.nights, &page.history),
    )?;
    writeln!(out, "</section>")
}

/// The page of one tournament; see [`tournament_html`](super::tournament_html).
pub(super) fn write_tournament(out: &mut String, page: &TournamentPage) -> fmt::Result {
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
    if page.commits.is_some() {
        write!(out, "<a href=\"#commits\">Commits</a>")?;
    }
    writeln!(out, "</nav>")?;
    if let Some(id) = &page.identity {
        writeln!(out, "<p class=\"identity\">{}</p>", esc(id))?;
    }
    if let Some(nav) = &page.nav {
        writeln!(out, "{}", night_nav_html(nav))?;
    }
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
    write_rating_table(out, &page.ratings, page.deltas.as_ref())?;
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
        "<p class=\"sub\">One match per pairing, from A's side; each links to its match folder and its \
         games index.</p>"
    )?;
    write_pairing_table(out, &page.pairings)?;
    writeln!(out, "</section>")?;

    if let Some(leak) = &page.leak {
        write_leak(out, leak)?;
    }

    if show_history {
        write_history(out, page)?;
    }

    if let Some(commits) = &page.commits {
        let since = page
            .deltas
            .as_ref()
            .map_or(String::new(), |(n, _)| format!(" since {}", esc(n)));
        write_commits(out, &since, commits)?;
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

/// The commits a night was built with since the previous night, at most as many as were kept.
fn write_commits(
    out: &mut String,
    since: &str,
    (lines, total): &(Vec<String>, usize),
) -> fmt::Result {
    writeln!(out, "<section id=\"commits\">")?;
    writeln!(out, "<h2>Commits{since}</h2>")?;
    if lines.is_empty() {
        writeln!(
            out,
            "<p class=\"sub\">None: the same code as the previous night.</p>"
        )?;
    } else {
        writeln!(out, "<ul class=\"commits\">")?;
        for l in lines {
            let (hash, subject) = l.split_once(' ').unwrap_or((l.as_str(), ""));
            writeln!(out, "<li><code>{}</code> {}</li>", esc(hash), esc(subject))?;
        }
        writeln!(out, "</ul>")?;
        if *total > lines.len() {
            writeln!(
                out,
                "<p class=\"sub\">\u{2026} and {} more (git log shows them all).</p>",
                total - lines.len()
            )?;
        }
    }
    writeln!(out, "</section>")
}

/// Marks the night links of a report, so that `arena history` can replace them.
const NAV_START: &str = "<!--night-nav-->";
/// The end of the night links.
const NAV_END: &str = "<!--/night-nav-->";

/// A night's links: the series index, the previous and the next night.
fn night_nav_html(nav: &NightNav) -> String {
    let link = |href: &str, text: String| match safe_href(href) {
        Some(h) => format!("<a href=\"{h}\">{text}</a>"),
        None => format!("<span>{text}</span>"),
    };
    let mut s = format!("{NAV_START}<nav class=\"night-nav\">");
    s.push_str(&link(&nav.index, "\u{2191} series index".to_string()));
    match &nav.previous {
        Some(p) => s.push_str(&link(&p.href, format!("\u{2190} {}", esc(&p.night)))),
        None => s.push_str("<span class=\"dim\">first night of the series</span>"),
    }
    match &nav.next {
        Some(n) => s.push_str(&link(&n.href, format!("{} \u{2192}", esc(&n.night)))),
        None => s.push_str("<span class=\"dim\">latest night</span>"),
    }
    s.push_str("</nav>");
    s.push_str(NAV_END);
    s
}

/// See [`replace_night_nav`](super::replace_night_nav).
pub(super) fn replace_night_nav(report: &str, nav: &NightNav) -> Option<String> {
    let start = report.find(NAV_START)?;
    let end = start + report[start..].find(NAV_END)? + NAV_END.len();
    Some(format!(
        "{}{}{}",
        &report[..start],
        night_nav_html(nav),
        &report[end..]
    ))
}

/// The index of one series; see [`index_html`](super::index_html).
pub(super) fn write_index(out: &mut String, index: &Index) -> fmt::Result {
    let mut sorted: Vec<_> = index.nights.iter().collect();
    sorted.sort_by(|a, b| b.night.cmp(&a.night));
    write_head(out, "Nightly tournaments")?;
    writeln!(out, "<header>")?;
    writeln!(out, "<h1>Nightly tournaments</h1>")?;
    if !index.series.is_empty() {
        writeln!(
            out,
            "<p class=\"context\">Series {}</p>",
            esc(&index.series)
        )?;
    }
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
    if index.all_series.len() >= 2 {
        write!(out, "<p class=\"series-pick\">Series: ")?;
        for sl in &index.all_series {
            let text = format!(
                "{} ({} night{}, newest {})",
                esc(&sl.description),
                sl.nights,
                if sl.nights == 1 { "" } else { "s" },
                esc(&sl.newest)
            );
            match safe_href(&sl.href) {
                Some(h) if !sl.current => write!(out, "<a href=\"{h}\">{text}</a>")?,
                _ => write!(out, "<b>{text}</b>")?,
            }
        }
        writeln!(out, "</p>")?;
    }
    if !index.skipped.is_empty() {
        let n = index.skipped.len();
        writeln!(
            out,
            "<a class=\"notes-teaser\" href=\"#skipped\">{n} folder{} skipped: not night{}</a>",
            if n == 1 { "" } else { "s" },
            if n == 1 { "" } else { "s" }
        )?;
    }
    writeln!(out, "</header>")?;

    if let Some(page) = &index.latest {
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
        if let Some(id) = &page.identity {
            writeln!(out, "<p class=\"identity\">{}</p>", esc(id))?;
        }
        write_rating_table(out, &page.ratings, page.deltas.as_ref())?;
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
            "<thead><tr><th class=\"l\">Night</th><th class=\"l\">Code</th><th class=\"l\">Summary</th></tr></thead><tbody>"
        )?;
        for n in &sorted {
            let night = match safe_href(&n.href) {
                Some(h) => format!("<a href=\"{h}\">{}</a>", esc(&n.night)),
                None => esc(&n.night),
            };
            writeln!(
                out,
                "<tr class=\"night-row\"><td class=\"l\">{night}</td><td class=\"l wrap dim\">{}</td><td class=\"l wrap\">{}</td></tr>",
                n.identity.as_deref().map_or("\u{2014}".to_string(), esc),
                esc(&n.summary)
            )?;
        }
        writeln!(out, "</tbody></table></div>")?;
    }
    writeln!(out, "</section>")?;
    if !index.skipped.is_empty() {
        writeln!(out, "<section id=\"skipped\">")?;
        writeln!(out, "<h2>Skipped folders</h2>")?;
        writeln!(
            out,
            "<p class=\"sub\">Only folders that scripts/nightly.sh made are nights: a \
             night.json whose date is the folder's name.</p>"
        )?;
        writeln!(out, "<ul class=\"skipped\">")?;
        for why in &index.skipped {
            writeln!(out, "<li>{}</li>", esc(why))?;
        }
        writeln!(out, "</ul>")?;
        writeln!(out, "</section>")?;
    }
    write_foot(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::html::fixtures::page;
    use crate::report::html::{NightLink, NightRef, index_html, tournament_html};

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
        let index = index_html(&Index {
            nights: vec![NightLink {
                night: "<n>".into(),
                href: "2026/<x>.html".into(),
                summary: "a & b".into(),
                identity: Some("code <c>".into()),
            }],
            latest: Some(p.clone()),
            skipped: vec!["<skip>: why".into()],
            ..Index::default()
        });
        assert!(!index.contains("<script>"));
        assert!(index.contains("&lt;n&gt;"));
        assert!(index.contains("a &amp; b"));
        assert!(index.contains("code &lt;c&gt;") && index.contains("&lt;skip&gt;: why"));
    }

    #[test]
    fn one_table_row_per_engine() {
        let labels = ["alphabeta", "ismcts", "flat-uct", "greedy", "random"];
        let html = tournament_html(&page(&labels, 1));
        assert_eq!(html.matches("<tr class=\"rating-row").count(), labels.len());
        assert_eq!(html.matches("<tr class=\"rating-row anchor\"").count(), 1);
        assert_eq!(html.matches("<tr class=\"pairing-row\"").count(), 1);
        assert!(html.contains("href=\"pairings/01-ab-vs-greedy/\""));
        assert!(html.contains("href=\"pairings/01-ab-vs-greedy/games.html\""));
    }

    #[test]
    fn history_only_from_two_nights() {
        let labels = ["alphabeta", "greedy"];
        for (nights, shown) in [(0, false), (1, false), (2, true), (3, true)] {
            let html = tournament_html(&page(&labels, nights));
            assert_eq!(html.contains("id=\"history\""), shown, "{nights} nights");
            let index = index_html(&Index {
                latest: Some(page(&labels, nights)),
                ..Index::default()
            });
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

        let empty = TournamentPage::default();
        let html = tournament_html(&empty);
        assert!(html.contains("No rated engines."));
        assert!(rating_chart(&[]).is_ok());
        assert!(heat_map(&[], &[]).is_ok());
        assert!(history_chart(&[], &[]).is_ok());
        assert!(history_chart(&["2026-11-30".to_string()], &[]).is_ok());
        assert!(index_html(&Index::default()).contains("No nights yet."));
        let index = index_html(&Index {
            latest: Some(empty),
            ..Index::default()
        });
        assert!(index.contains("</html>"));
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
            builds: Default::default(),
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
        assert!(html.contains("href=\"leak/arms/x/omniscient/games.html\""));
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

    #[test]
    fn the_delta_column_shows_changes_since_the_previous_night() {
        let mut p = page(&["alphabeta", "ismcts", "greedy"], 2);
        assert!(!tournament_html(&p).contains("since 11-29"));
        p.deltas = Some((
            "2026-11-29".into(),
            vec![Delta::Elo(12.34), Delta::New, Delta::Elo(-3.0)],
        ));
        let html = tournament_html(&p);
        assert!(html.contains("\u{394} since 11-29"), "{html}");
        assert!(html.contains("<td class=\"delta up\">+12.3</td>"));
        assert!(html.contains("<td class=\"delta dim\">new</td>"));
        assert!(html.contains("<td class=\"delta down\">\u{2212}3.0</td>"));
        // A list longer than the deltas (never written so) still renders.
        p.deltas.as_mut().unwrap().1.truncate(1);
        assert!(tournament_html(&p).contains("<td class=\"delta dim\">\u{2014}</td>"));
    }

    #[test]
    fn night_links_are_replaced_in_place() {
        let mut p = page(&["alphabeta", "greedy"], 2);
        assert!(replace_night_nav(&tournament_html(&p), &NightNav::default()).is_none());
        p.nav = Some(NightNav {
            index: "../series-abc.html".into(),
            previous: Some(NightRef {
                night: "2026-11-29".into(),
                href: "../2026-11-29/report.html".into(),
            }),
            next: None,
        });
        let html = tournament_html(&p);
        assert!(html.contains("href=\"../series-abc.html\""));
        assert!(html.contains("href=\"../2026-11-29/report.html\""));
        assert!(html.contains("latest night"));
        let mut nav = p.nav.clone().unwrap();
        nav.next = Some(NightRef {
            night: "2026-12-01".into(),
            href: "../2026-12-01/report.html".into(),
        });
        let new = replace_night_nav(&html, &nav).expect("the page has night links");
        assert!(new.contains("href=\"../2026-12-01/report.html\""));
        assert!(!new.contains("latest night"));
        assert_eq!(new.matches(NAV_START).count(), 1);
        // Everything else is as it was.
        let cut = |s: &str| {
            let a = s.find(NAV_START).unwrap();
            let b = s.find(NAV_END).unwrap();
            (s[..a].to_string(), s[b..].len())
        };
        assert_eq!(cut(&html).0, cut(&new).0);
        assert_eq!(cut(&html).1, cut(&new).1);
    }
}
