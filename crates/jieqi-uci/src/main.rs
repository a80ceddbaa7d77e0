//! The `jieqi-uci` binary: a UCI session over standard input and output.

#![forbid(unsafe_code)]

use std::io::BufRead;

use jieqi_uci::{Flow, Output, Session};

fn main() {
    let mut session = Session::new(Output::new(Box::new(std::io::stdout())));
    let mut input = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if session.handle(&String::from_utf8_lossy(&line)) == Flow::Quit {
            return;
        }
    }
    // End of input: quit, as `quit` does (the running search is stopped and answers).
    session.end_of_input();
}
