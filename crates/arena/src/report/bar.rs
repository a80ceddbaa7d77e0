//! The progress bar of the commands that work through a list of items (`arena solve`, `suite`,
//! `analyze`): one constructor, so that every such bar looks the same.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar over `len` items named `unit` on stderr, drawn only when stderr is a terminal
/// and not `hidden`.
pub fn progress(len: u64, unit: &str, hidden: bool) -> ProgressBar {
    use std::io::IsTerminal;
    if hidden || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:32.cyan/blue}} {{pos}}/{{len}} {unit}  {{msg}}  [{{elapsed_precise}} < {{eta_precise}}]"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
