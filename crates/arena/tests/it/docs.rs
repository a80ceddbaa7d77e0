//! The documentation cannot drift from the programs. `docs/` has a page per `arena` subcommand,
//! and every page quotes `--help` output between markers:
//!
//! ````text
//! <!-- help: arena match --help -->
//! ```text
//! …the output, byte for byte…
//! ```
//! <!-- end help -->
//! ````
//!
//! The tests run each quoted command (`arena [SUBCOMMAND [SUBCOMMAND]] --help`, or `scripts/….sh --help`
//! through bash) and compare; every subcommand in `arena --help` must have `docs/<cmd>.md` with
//! its block and a link from `docs/README.md`. Every relative `](path)` link of the Markdown
//! files must name a file that exists.
//!
//! `UPDATE_DOCS=1 cargo test -p arena --profile ci --test it docs` rewrites the stale blocks in
//! place and starts a page for a subcommand that has none (then write its prose).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{arena, arena_bin, have_bash, text};

/// The line that opens a quoted `--help` block; the command follows it, then ` -->`.
const OPEN: &str = "<!-- help: ";
/// The line that closes a quoted `--help` block.
const CLOSE: &str = "<!-- end help -->";
/// What a failure tells the reader to run.
const REGENERATE: &str = "UPDATE_DOCS=1 cargo test -p arena --profile ci --test it docs";

/// The workspace's root folder.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root exists")
}

/// Whether this run rewrites the docs instead of only checking them.
pub(crate) fn updating() -> bool {
    std::env::var("UPDATE_DOCS").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// The subcommands `arena --help` lists (clap's `Commands:` section), without `help`.
fn subcommands() -> Vec<String> {
    let o = arena(&["--help"]);
    assert!(o.status.success(), "arena --help: {}", text(&o.stderr));
    let help = text(&o.stdout);
    let list: Vec<String> = help
        .lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect();
    assert!(
        list.len() >= 10,
        "arena --help lists too few subcommands ({list:?}); did its format change?\n{help}"
    );
    list
}

/// Every Markdown file under `dir`, recursively, sorted.
fn markdown_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            markdown_under(&p, out);
        } else if p.extension().is_some_and(|e| e == "md") {
            out.push(p);
        }
    }
}

/// The pages of `docs/`.
pub(crate) fn doc_pages() -> Vec<PathBuf> {
    let mut pages = Vec::new();
    markdown_under(&root().join("docs"), &mut pages);
    pages
}

/// A path relative to the root, for messages.
pub(crate) fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Runs a quoted help command and returns its output, or why it cannot be run. Only
/// `arena [SUBCOMMAND…] --help` (two levels at most) and `scripts/NAME.sh --help` are allowed: a page cannot make the
/// test run anything else.
fn help_output(command: &str) -> Result<String, String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let (program, args) = words.split_first().ok_or("an empty command")?;
    if args.last() != Some(&"--help") || args.len() > 3 {
        return Err(format!("`{command}` is not `PROGRAM [SUBCOMMAND…] --help`"));
    }
    let output = if *program == "arena" {
        Command::new(arena_bin()).args(args).output()
    } else if program.starts_with("scripts/")
        && program.ends_with(".sh")
        && !program.contains("..")
        && args.len() == 1
    {
        Command::new("bash")
            .arg(root().join(program))
            .arg("--help")
            .current_dir(root())
            .output()
    } else {
        return Err(format!(
            "`{command}`: only `arena … --help` and `scripts/….sh --help` may be quoted"
        ));
    };
    let o = output.map_err(|e| format!("`{command}` did not start: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "`{command}` failed ({}): {}",
            o.status,
            text(&o.stderr)
        ));
    }
    String::from_utf8(o.stdout).map_err(|_| format!("`{command}` printed invalid UTF-8"))
}

/// The fenced block a page must hold for a command's output.
pub(crate) fn fenced(output: &str) -> String {
    let newline = if output.ends_with('\n') { "" } else { "\n" };
    format!("```text\n{output}{newline}```\n")
}

/// One quoted block of a page: the command, where its marker line starts, and the byte range of
/// the text between the markers.
pub(crate) struct Block {
    pub(crate) command: String,
    pub(crate) marker: usize,
    pub(crate) body: std::ops::Range<usize>,
}

/// The quoted `--help` blocks of a page, or what is malformed about them.
fn blocks(page: &str) -> Result<Vec<Block>, String> {
    marked_blocks(page, OPEN, CLOSE)
}

/// The blocks of a page between an `open` marker line (`open`, the command, ` -->`) and a `close`
/// line, or what is malformed about them. Markers count only as whole lines, so prose may name
/// them.
pub(crate) fn marked_blocks(
    page: &str,
    open_marker: &str,
    close: &str,
) -> Result<Vec<Block>, String> {
    let mut found = Vec::new();
    let mut open: Option<(String, usize, usize)> = None;
    let mut at = 0;
    for line in page.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let bare = line.trim_end();
        if let Some(rest) = bare.strip_prefix(open_marker) {
            if let Some((command, _, _)) = &open {
                return Err(format!("`{command}`: a second marker before `{close}`"));
            }
            let command = rest
                .strip_suffix(" -->")
                .ok_or_else(|| format!("marker `{bare}` does not end with ` -->`"))?;
            open = Some((command.trim().to_owned(), start, at));
        } else if bare == close {
            let (command, marker, body_start) = open
                .take()
                .ok_or_else(|| format!("`{close}` without a marker before it"))?;
            found.push(Block {
                command,
                marker,
                body: body_start..start,
            });
        }
    }
    if let Some((command, _, _)) = open {
        return Err(format!("`{command}`: no `{close}` after its marker"));
    }
    Ok(found)
}

/// What is wrong with the docs: `stale` is what `UPDATE_DOCS` rewrites, `broken` needs a person.
#[derive(Default)]
struct Problems {
    stale: Vec<String>,
    broken: Vec<String>,
}

/// Checks (or, with `UPDATE_DOCS`, rewrites) one page's blocks; the commands it quotes.
fn check_page(path: &Path, problems: &mut Problems) -> Vec<String> {
    let page = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let found = match blocks(&page) {
        Ok(found) => found,
        Err(e) => {
            problems.broken.push(format!("{}: {e}", shown(path)));
            return Vec::new();
        }
    };
    let mut rewritten = String::new();
    let mut copied = 0;
    let mut stale = false;
    for block in &found {
        let want = match help_output(&block.command) {
            Ok(out) => fenced(&out),
            Err(e) => {
                problems.broken.push(format!("{}: {e}", shown(path)));
                continue;
            }
        };
        if page[block.body.clone()] != want {
            stale = true;
            problems.stale.push(format!(
                "{}: the `{}` block differs from the command's output",
                shown(path),
                block.command
            ));
        }
        rewritten.push_str(&page[copied..block.body.start]);
        rewritten.push_str(&want);
        copied = block.body.end;
    }
    rewritten.push_str(&page[copied..]);
    if stale && updating() {
        std::fs::write(path, rewritten).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        eprintln!("rewrote {}", shown(path));
    }
    found.into_iter().map(|b| b.command).collect()
}

/// A new page for a subcommand: a heading, its one-line description and its help block.
fn new_page(cmd: &str) -> String {
    let help = help_output(&format!("arena {cmd} --help")).unwrap_or_default();
    let about = help.lines().next().unwrap_or_default();
    format!(
        "# `arena {cmd}`\n\n{about}\n\n{OPEN}arena {cmd} --help -->\n{}{CLOSE}\n",
        fenced(&help)
    )
}

#[test]
fn docs_quote_every_help_output_as_it_is() {
    let scripts_quoted = doc_pages()
        .iter()
        .any(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains(&format!("{OPEN}scripts/"))));
    if scripts_quoted && !have_bash("docs_quote_every_help_output_as_it_is") {
        return;
    }
    let subcommands = subcommands();
    let mut problems = Problems::default();
    let docs = root().join("docs");
    for cmd in &subcommands {
        let page = docs.join(format!("{cmd}.md"));
        if !page.exists() {
            problems.stale.push(format!(
                "docs/{cmd}.md is missing (`arena {cmd}` has no page)"
            ));
            if updating() {
                std::fs::create_dir_all(&docs).expect("docs/ can be made");
                std::fs::write(&page, new_page(cmd)).expect("a new page can be written");
                eprintln!("started docs/{cmd}.md: write its introduction and details");
            }
        }
    }
    let mut quoted = Vec::new();
    for page in doc_pages() {
        let commands = check_page(&page, &mut problems);
        quoted.extend(commands.into_iter().map(|c| (c, page.clone())));
    }
    for cmd in &subcommands {
        let want = format!("arena {cmd} --help");
        let page = docs.join(format!("{cmd}.md"));
        if page.exists() && !quoted.iter().any(|(c, p)| *c == want && *p == page) {
            problems.broken.push(format!(
                "docs/{cmd}.md does not quote `{want}` (add its markers)"
            ));
        }
    }
    for (command, page) in &quoted {
        let words: Vec<&str> = command.split_whitespace().collect();
        if let ["arena", sub, "--help"] = words[..] {
            if !subcommands.iter().any(|c| c == sub) {
                problems.broken.push(format!(
                    "{} quotes `{command}`, but arena has no `{sub}` subcommand any more",
                    shown(page)
                ));
            }
        }
    }
    // With UPDATE_DOCS the stale blocks were just rewritten with the commands' output and the
    // missing pages started, so only what needs a person remains.
    let mut left = problems.broken;
    if !updating() {
        left.extend(problems.stale);
    }
    assert!(
        left.is_empty(),
        "the docs have drifted from the programs:\n  {}\nregenerate the help blocks with:\n  {REGENERATE}\n\
         (a page that is missing its markers, or quotes a command that is gone, needs editing by hand)",
        left.join("\n  ")
    );
}

#[test]
fn docs_index_links_every_command_page() {
    let index = root().join("docs/README.md");
    let text = std::fs::read_to_string(&index).expect("docs/README.md exists");
    let missing: Vec<String> = subcommands()
        .into_iter()
        .filter(|cmd| !text.contains(&format!("]({cmd}.md)")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/README.md links no page for: {missing:?} (add `[arena CMD](CMD.md)` lines)"
    );
}

/// The relative link targets of a Markdown text, outside fenced code blocks, with their lines.
fn relative_links(markdown: &str) -> Vec<(usize, String)> {
    let mut links = Vec::new();
    let mut in_fence = false;
    for (n, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            let target = target.split('#').next().unwrap_or("");
            let external = ["http://", "https://", "mailto:"]
                .iter()
                .any(|s| target.starts_with(s));
            if !target.is_empty() && !external {
                links.push((n + 1, target.to_owned()));
            }
            rest = &rest[end..];
        }
    }
    links
}

#[test]
fn relative_links_in_the_docs_resolve() {
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    files.extend(doc_pages());
    markdown_under(&root.join("scripts"), &mut files);
    markdown_under(&root.join("configs"), &mut files);
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let Ok(markdown) = std::fs::read_to_string(file) else {
            continue;
        };
        let dir = file.parent().expect("a file has a folder");
        for (line, target) in relative_links(&markdown) {
            checked += 1;
            if !dir.join(&target).exists() {
                broken.push(format!("{}:{line}: {target}", shown(file)));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the link parser broken?"
    );
    assert!(
        broken.is_empty(),
        "links to files that do not exist:\n  {}",
        broken.join("\n  ")
    );
}

#[test]
fn the_link_parser_finds_relative_links_only() {
    let md = "See [a](docs/a.md#x) and [b](https://x.org) [c](../c.md \"t\").\n```\n[d](no.md)\n```\n[e](#here)\n";
    assert_eq!(
        relative_links(md),
        vec![(1, "docs/a.md".to_owned()), (1, "../c.md".to_owned())]
    );
}

#[test]
fn a_block_without_its_end_marker_is_reported() {
    let err = blocks("x\n<!-- help: arena match --help -->\n```text\nhi\n```\n").err();
    assert!(
        err.is_some_and(|e| e.contains("arena match --help") && e.contains(CLOSE)),
        "an unclosed block must be named"
    );
    let page = "Say `<!-- help: CMD -->` in prose.\n<!-- help: arena x --help -->\nBODY\n<!-- end help -->\n";
    let ok = blocks(page).expect("well formed");
    assert_eq!(ok.len(), 1, "only whole-line markers count");
    assert_eq!(ok[0].command, "arena x --help");
    assert_eq!(&page[ok[0].body.clone()], "BODY\n");
}
