//! The look every report page shares: the inline CSS, the head that carries it and the foot.
//! It uses only the escaping of `format.rs`.

use std::fmt::{self, Write as _};

use crate::report::html::format::esc;

/// The CSS of every page, inline in its head.
const CSS: &str = r#"
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #f4f6f8; color: #1f2328;
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1440px; margin: 0 auto; padding: 28px 32px 48px; }
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
/* Engine labels break after their ':' and ',' (<wbr>), inside a word only when one part is
   wider than the column can be. */
td.engine { font-weight: 600; white-space: normal; min-width: 7em; max-width: 18em; overflow-wrap: break-word; }
td.pair { white-space: normal; min-width: 10em; }
/* A command wraps at its spaces (one click still selects all of it). */
td.page { white-space: normal; min-width: 12em; }
td.page code.cmd { overflow-wrap: anywhere; }
span.nw { white-space: nowrap; }
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
.identity { color: #57606a; margin: 4px 0 0; font-size: 13px; }
.identity code, .commits code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
nav.night-nav { margin-top: 8px; font-size: 13px; }
nav.night-nav a, nav.night-nav span { margin-right: 14px; }
.series-pick { margin: 8px 0 0; font-size: 13px; color: #57606a; }
.series-pick a, .series-pick b { margin-right: 12px; }
td.up { color: #1a7f37; }
td.down { color: #cf222e; }
ul.commits { margin: 0; padding-left: 18px; font-size: 13px; }
ul.skipped { margin: 0; padding-left: 18px; font-size: 13px; color: #57606a; }
/* A command to copy: one click selects all of it. */
code.cmd { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f6f8fa;
  border: 1px solid #d8dee4; border-radius: 4px; padding: 1px 6px; user-select: all; color: #424a53; }
tr.failed td { background: #fff1f0; }
/* The games index's filter bar and sortable heads (games.js). */
form.filters { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; margin: 0 0 6px;
  font-size: 13px; color: #424a53; }
form.filters label { display: inline-flex; gap: 5px; align-items: center; }
form.filters select, form.filters button { font: inherit; padding: 2px 4px; }
th.sortable { cursor: pointer; user-select: none; }
th.sortable:hover { color: #0969da; }
th[aria-sort="ascending"]::after { content: " \25b2"; }
th[aria-sort="descending"]::after { content: " \25bc"; }
/* The engine column stays in view when a narrow window scrolls the table sideways. */
table.ratings td.engine, table.ratings th.engine { position: sticky; left: 0; background: #fff; z-index: 1; }
table.ratings th.engine { background: #f6f8fa; }
table.ratings tbody tr:nth-child(even) td.engine { background: #fafbfc; }
table.ratings tr.anchor td.engine { background: #fff8e8; }
@media (max-width: 900px) {
  main { padding: 16px 10px 32px; }
  section { padding: 12px 10px 14px; margin: 12px 0; }
  h1 { font-size: 22px; }
  th, td { padding: 5px 5px; }
  th { letter-spacing: 0; }
  /* Points and games are in W / D / L already. */
  table.ratings .wide { display: none; }
  table.ratings td.ci { white-space: normal; min-width: 6.5em; }
  td.engine { min-width: 5em; }
  /* Wide tables fit: their heads, intervals and pentanomials wrap at their spaces. */
  table.pairings th, table.games th { white-space: normal; }
  table.pairings td.ci, table.pairings td.ptnml { white-space: normal; min-width: 5.5em; }
  td.page { min-width: 8em; }
}
"#;

/// The page up to `<main>`: doctype, title, the inline CSS.
pub(super) fn write_head(out: &mut String, title: &str) -> fmt::Result {
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

/// The page from the footer on.
pub(super) fn write_foot(out: &mut String) -> fmt::Result {
    writeln!(out, "<footer>Generated by arena.</footer>")?;
    writeln!(out, "</main>")?;
    writeln!(out, "</body>")?;
    writeln!(out, "</html>")
}
