//! Lines read on a thread of their own ([`read_lines`]), so that a loop waiting for the next
//! one can look for other things (an interruption) meanwhile.

use std::io::BufRead;
use std::sync::mpsc;

use jieqi_engine::input::read_line;

/// The lines of `input`, each read at most `max` bytes long ([`read_line`]), read on a thread
/// of their own (so that the command loop can see an interruption while no line comes), one at
/// a time: the thread reads the next line once the loop has taken this one, and ends after the
/// end of the input or an error.
pub fn read_lines(
    mut input: impl BufRead + Send + 'static,
    max: usize,
) -> mpsc::Receiver<std::io::Result<Option<jieqi_engine::input::InputLine>>> {
    let (tx, rx) = mpsc::sync_channel(0);
    std::thread::spawn(move || {
        loop {
            let line = read_line(&mut input, max);
            let more = matches!(line, Ok(Some(_)));
            if tx.send(line).is_err() || !more {
                break;
            }
        }
    });
    rx
}
