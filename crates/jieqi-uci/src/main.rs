//! The `jieqi-uci` binary: a UCI session over standard input and output.
//!
//! Standard input is read on a thread of its own, a line at a time ([`MAX_LINE_BYTES`] at most,
//! decoded lossily), so that while commands wait for a search to answer the loop still hears
//! `stop`, `isready` and `quit`, and runs the waiting commands as soon as the search has answered.

#![forbid(unsafe_code)]

use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use jieqi_engine::input::{self, InputLine};
use jieqi_uci::command::{MAX_LINE_BYTES, quoted};
use jieqi_uci::{Flow, Output, Session};

/// How often the loop looks whether the search that commands wait for has answered.
const WAITING_POLL: Duration = Duration::from_millis(2);

fn main() {
    let out = Output::new(Box::new(std::io::stdout()));
    let mut session = Session::new(out.clone());
    let lines = read_lines();
    loop {
        let line = if session.is_waiting() {
            match lines.recv_timeout(WAITING_POLL) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    session.resume();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match lines.recv() {
                Ok(line) => line,
                Err(_) => break,
            }
        };
        if line.cut {
            out.info(&format!(
                "a line of {} bytes ignored: longer than {MAX_LINE_BYTES} bytes ('{}')",
                line.bytes,
                quoted(&line.text)
            ));
        } else if session.handle(&line.text) == Flow::Quit {
            return;
        }
    }
    // End of input: quit, as `quit` does (the running search is stopped and answers).
    session.end_of_input();
}

/// Standard input's lines, read on a thread of their own; the channel closes at the end of the
/// input (or when reading fails). A few lines are held at most: the reader waits for the loop.
fn read_lines() -> Receiver<InputLine> {
    let (tx, rx) = mpsc::sync_channel(4);
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        while let Ok(Some(line)) = input::read_line(&mut stdin, MAX_LINE_BYTES) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}
