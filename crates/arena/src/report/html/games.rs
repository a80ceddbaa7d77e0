//! The games index of a match folder (`games.html`, see [`games_html`]): one row per game, in
//! the tournament page's look (the head, CSS and foot of `style.rs`).

use std::fmt::{self, Write as _};

use crate::report::html::format::{esc, esc_label, safe_href, truncate};
use crate::report::html::style::{write_foot, write_head};

/// One game in a games index.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct GameRow {
    /// Its number in its folder's `games.csv`.
    pub number: u64,
    /// Its pair index.
    pub pair: u64,
    /// 1 or 2.
    pub game: u8,
    /// Red's engine.
    pub red: String,
    /// Black's engine.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How it ended (`checkmate`, `timeout`, …).
    pub termination: String,
    /// An engine failure's detail.
    pub detail: Option<String>,
    /// Whether it ended by an engine failure or on time (the row is marked).
    pub failure: bool,
    /// Plies played.
    pub plies: u32,
    /// Hidden pieces revealed.
    pub reveals: u32,
    /// Pieces captured.
    pub captures: u32,
    /// Whether the run's numbers count it (a gate's pairs beyond its stop are not counted).
    pub counted: bool,
    /// Its viewer page, relative to the index, when there is one.
    pub view: Option<String>,
    /// The command that writes its viewer page (shown when there is none).
    pub command: String,
    /// Its analysis page (`arena analyze`), relative to the index, when there is one.
    pub analysis: Option<String>,
}

/// Everything a games index shows.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct GamesPage {
    /// Page title, e.g. "Games: greedy vs random".
    pub title: String,
    /// One line under the title.
    pub context: String,
    /// The games of the folder the run counted (those of `games.csv`; the rows may be fewer).
    pub games: u64,
    /// Games of the journal the run did not count (a gate's pairs finished beyond its stop):
    /// listed, marked "not counted", but in none of the numbers above or below.
    #[serde(default)]
    pub uncounted: u64,
    /// Counted games Red won, Black won, drawn.
    pub results: [u64; 3],
    /// Counted games that ended by an engine failure or on time.
    pub failures: u64,
    /// The rows, in the order of `games.csv`; fewer than `games` when the page lists the first
    /// ones only.
    pub rows: Vec<GameRow>,
    /// Free text lines.
    pub notes: Vec<String>,
    /// Data embedded in the page for the program that rewrites it (a JSON text, see
    /// [`DATA_OPEN`]); not shown.
    #[serde(skip)]
    pub data: Option<String>,
}

/// The tag that opens a games index's embedded data: what `arena view` and `arena analyze` read
/// back to link a new page without reading the journal again.
pub const DATA_OPEN: &str = "<script type=\"application/json\" id=\"index-data\">";
/// The tag that closes it.
pub const DATA_CLOSE: &str = "</script>";

/// The self-contained games index of a match folder (games.html): the folder's numbers at the
/// top, then one row per game — number, players, result, termination, plies, reveals and
/// captures, and its viewer page (or the command that writes one) and analysis — then the
/// notes.
pub fn games_html(page: &GamesPage) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write_games(&mut out, page);
    out
}

/// The script of the filter bar and the sortable columns, run on the rows' embedded data.
const JS: &str = include_str!("games.js");

/// The most characters of an engine label shown in a row (the whole label is its tooltip).
const LABEL_CHARS: usize = 40;
/// The most characters of a termination's detail shown in a row (the whole detail, up to
/// [`DETAIL_TITLE_CHARS`], is its tooltip).
const DETAIL_CHARS: usize = 80;
/// The most characters of a termination's detail in its tooltip.
const DETAIL_TITLE_CHARS: usize = 400;

/// A link, or the text alone when the target is not a safe link.
fn link(href: &str, text: &str, title: &str) -> String {
    match safe_href(href) {
        Some(h) => format!("<a href=\"{h}\" title=\"{}\">{text}</a>", esc(title)),
        None => text.to_string(),
    }
}

/// An engine label cut to [`LABEL_CHARS`], the whole label as its tooltip.
fn label_cell(label: &str) -> String {
    format!(
        "<td class=\"l engine\" title=\"{}\">{}</td>",
        esc(label),
        esc_label(&truncate(label, LABEL_CHARS))
    )
}

/// A command, escaped, its ending `--game N` kept on one line when the command wraps (a line
/// may break after a hyphen).
fn command_html(command: &str) -> String {
    match command.rfind(" --game ") {
        Some(at) => format!(
            "{} <span class=\"nw\">{}</span>",
            esc(&command[..at]),
            esc(&command[at + 1..])
        ),
        None => esc(command),
    }
}

/// One game's row.
fn write_row(out: &mut String, r: &GameRow) -> fmt::Result {
    let mut class = String::from("game-row");
    if r.failure {
        class.push_str(" failed");
    }
    let number = match &r.view {
        Some(h) => link(h, &r.number.to_string(), "viewer page"),
        None => r.number.to_string(),
    };
    let mut termination = esc(&r.termination);
    if let Some(d) = &r.detail {
        write!(
            termination,
            " <span class=\"dim\" title=\"{}\">{}</span>",
            esc(&truncate(d, DETAIL_TITLE_CHARS)),
            esc(&truncate(d, DETAIL_CHARS))
        )?;
    }
    if !r.counted {
        termination.push_str(" <span class=\"badge\">not counted</span>");
    }
    let mut page = match &r.view {
        Some(h) => link(h, "view", "viewer page"),
        None => format!(
            "<code class=\"cmd\" title=\"writes this game's viewer page\">{}</code>",
            command_html(&r.command)
        ),
    };
    if let Some(h) = &r.analysis {
        page.push_str(" · ");
        page.push_str(&link(h, "analysis", "the reference engine's analysis"));
    }
    let fail_class = if r.failure { "l fail bad" } else { "l fail" };
    write!(
        out,
        "<tr class=\"{class}\" id=\"game-{}\"><td title=\"pair {}, game {}\">{number}</td>",
        r.number, r.pair, r.game
    )?;
    out.push_str(&label_cell(&r.red));
    out.push_str(&label_cell(&r.black));
    writeln!(
        out,
        "<td>{}</td><td class=\"{fail_class}\">{termination}</td><td>{}</td><td>{} / {}</td>\
         <td class=\"l page\">{page}</td></tr>",
        esc(&r.result),
        r.plies,
        r.reveals,
        r.captures,
    )
}

/// The games index; see [`games_html`].
fn write_games(out: &mut String, page: &GamesPage) -> fmt::Result {
    let title = if page.title.trim().is_empty() {
        "Games"
    } else {
        page.title.as_str()
    };
    write_head(out, title)?;
    writeln!(out, "<header>")?;
    writeln!(out, "<h1>{}</h1>", esc(title))?;
    if !page.context.is_empty() {
        writeln!(out, "<p class=\"context\">{}</p>", esc(&page.context))?;
    }
    let [red, black, draws] = page.results;
    write!(
        out,
        "<p class=\"facts\"><b>{}</b> game{} · Red won <b>{red}</b> · Black won <b>{black}</b> · \
         drawn <b>{draws}</b>",
        page.games,
        if page.games == 1 { "" } else { "s" }
    )?;
    if page.failures > 0 {
        write!(
            out,
            " · <b>{}</b> ended by an engine failure or on time",
            page.failures
        )?;
    }
    if page.uncounted > 0 {
        write!(
            out,
            " · <b>{}</b> more played beyond the stop, not counted",
            page.uncounted
        )?;
    }
    let pages = page.rows.iter().filter(|r| r.view.is_some()).count();
    writeln!(
        out,
        " · <b>{pages}</b> viewer page{}</p>",
        if pages == 1 { "" } else { "s" }
    )?;
    writeln!(
        out,
        "<nav><a href=\"#games\">Games</a><a href=\"games.csv\">games.csv</a>\
         <a href=\"summary.txt\">summary.txt</a></nav>"
    )?;
    if !page.notes.is_empty() {
        let n = page.notes.len();
        writeln!(
            out,
            "<a class=\"notes-teaser\" href=\"#notes\">\u{26a0} {n} note{} below</a>",
            if n == 1 { "" } else { "s" }
        )?;
    }
    writeln!(out, "</header>")?;

    writeln!(out, "<section id=\"games\">")?;
    writeln!(out, "<h2>Games</h2>")?;
    let listed = page.rows.len() as u64;
    let all = page.games.saturating_add(page.uncounted);
    let shown = if listed < all {
        format!(
            "The first {listed} of {all} games; the rest are in games.csv (and every game in \
             games.jsonl). "
        )
    } else {
        String::new()
    };
    writeln!(
        out,
        "<p class=\"sub\">{shown}Numbered as in games.csv; results from Red's side (1-0: Red \
         won). A game with a viewer page links to it; for any other, the command beside it \
         writes one (one click selects it). Filter the rows below, and click a column's head to \
         sort by it.</p>"
    )?;
    if page.rows.is_empty() {
        writeln!(out, "<p class=\"sub\">No games.</p>")?;
    } else {
        writeln!(out, "<div class=\"scroll\"><table class=\"games\">")?;
        writeln!(
            out,
            "<thead><tr><th>#</th><th class=\"l\">Red</th><th class=\"l\">Black</th>\
             <th>Result</th><th class=\"l\">Termination</th><th>Plies</th>\
             <th title=\"Hidden pieces revealed / pieces captured\">Reveals / captures</th>\
             <th class=\"l\">Page</th></tr></thead><tbody>"
        )?;
        for r in &page.rows {
            write_row(out, r)?;
        }
        writeln!(out, "</tbody></table></div>")?;
    }
    writeln!(out, "</section>")?;

    if !page.notes.is_empty() {
        writeln!(out, "<section id=\"notes\">")?;
        writeln!(out, "<h2>Notes</h2>")?;
        for note in &page.notes {
            writeln!(out, "<div class=\"note\">{}</div>", esc(note))?;
        }
        writeln!(out, "</section>")?;
    }
    if let Some(data) = &page.data {
        // `<` never appears raw inside the block, so no text in it can close the script.
        writeln!(
            out,
            "{DATA_OPEN}{}{DATA_CLOSE}",
            data.replace('<', "\\u003c")
        )?;
        if !page.rows.is_empty() {
            writeln!(out, "<script>\n{JS}</script>")?;
        }
    }
    write_foot(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(number: u64) -> GameRow {
        GameRow {
            number,
            pair: (number - 1) / 2,
            game: ((number - 1) % 2 + 1) as u8,
            red: "greedy".into(),
            black: "random".into(),
            result: "1-0".into(),
            termination: "checkmate".into(),
            detail: None,
            failure: false,
            plies: 40,
            reveals: 12,
            captures: 9,
            counted: true,
            view: None,
            command: format!("arena view results/m --game {number}"),
            analysis: None,
        }
    }

    #[test]
    fn rows_link_their_pages_or_show_the_command() {
        let mut viewed = row(1);
        viewed.view = Some("games/game-1.html".into());
        let mut analysed = row(2);
        analysed.analysis = Some("analysis/game-2.html".into());
        let page = GamesPage {
            title: "Games: greedy vs random".into(),
            games: 2,
            results: [2, 0, 0],
            rows: vec![viewed, analysed],
            ..GamesPage::default()
        };
        let html = games_html(&page);
        assert_eq!(html.matches("<tr class=\"game-row").count(), 2);
        assert!(html.contains("href=\"games/game-1.html\""));
        assert!(html.contains("href=\"analysis/game-2.html\""));
        assert!(html.contains("<code class=\"cmd\""));
        assert!(html.contains("arena view results/m <span class=\"nw\">--game 2</span>"));
        assert!(!html.contains("--game 1</span>"));
        assert!(html.contains("<b>1</b> viewer page<"));
        assert!(!html.contains("The first"));
        assert!(!html.contains("not counted"));
    }

    /// A gate's pair finished beyond its stop is listed (marked) but not counted among the games.
    #[test]
    fn games_beyond_the_stop_are_not_counted_in_the_facts() {
        let mut beyond = row(3);
        beyond.counted = false;
        let page = GamesPage {
            games: 2,
            uncounted: 1,
            results: [1, 1, 0],
            rows: vec![row(1), row(2), beyond],
            ..GamesPage::default()
        };
        let html = games_html(&page);
        assert!(html.contains("<b>2</b> games ·"), "{html}");
        assert!(
            html.contains("<b>1</b> more played beyond the stop, not counted"),
            "{html}"
        );
        assert!(!html.contains("The first"), "{html}");
    }

    #[test]
    fn hostile_text_is_escaped_everywhere() {
        let nasty = "</script><b onmouseover='x'>\"&";
        let mut r = row(3);
        r.red = nasty.into();
        r.black = nasty.into();
        r.detail = Some(nasty.into());
        r.termination = nasty.into();
        r.result = nasty.into();
        r.command = format!("arena view '{nasty}' --game 3");
        r.failure = true;
        r.counted = false;
        let mut linked = row(5);
        linked.view = Some("javascript:alert(1)".into());
        linked.analysis = Some("javascript:alert(2)".into());
        let page = GamesPage {
            title: nasty.into(),
            context: nasty.into(),
            games: 9,
            rows: vec![r, linked],
            notes: vec![nasty.into()],
            ..GamesPage::default()
        };
        let html = games_html(&page);
        assert!(!html.contains("</script>"), "{html}");
        assert!(!html.contains("<b onmouseover"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(html.contains("&lt;/script&gt;&lt;b onmouseover=&#39;x&#39;&gt;&quot;&amp;"));
        assert!(html.contains("The first 2 of 9 games"));
        assert!(html.contains("not counted") && html.contains("tr class=\"game-row failed\""));
    }

    #[test]
    fn an_empty_index_says_so() {
        let html = games_html(&GamesPage::default());
        assert!(html.contains("No games.") && html.contains("</html>"));
    }
}
