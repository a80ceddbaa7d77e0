//! The arena's integration tests, one test binary (one link instead of one per file); each
//! module is one area of the `arena` command line, end to end. Shared helpers are in
//! [`common`]; fixtures stay in `tests/fixtures/`.
//!
//! `cargo test --profile ci -p arena --test it -- match_cli::` runs one module's tests.

mod common;

mod analyze_cli;
mod build_identity;
mod cli;
mod cluster;
mod configs;
mod data_cli;
mod docs;
mod exit_codes;
mod export_jieqibox;
mod fairy;
mod games_index;
mod import;
mod input_files;
mod interrupt_cli;
mod jai;
mod leak_cli;
mod match_cli;
mod messages;
mod old_runs;
mod openings;
mod output_files;
mod progress_cli;
mod regression_script;
mod replay_export;
mod samples;
mod scripts_usage;
mod solve_cli;
mod sprt_cli;
mod spsa;
mod tampered;
mod tournament_cli;
mod tune_cli;
mod uci_faults;
mod unsafe_code;
mod viewer;
