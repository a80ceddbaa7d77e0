//! The failure of a command that reads files and writes one output (`arena export`, `arena
//! tune`): bad input (exit status 2) or an output that cannot be written (exit status 4).

/// Why a command failed; the message names the file, field or flag.
#[derive(Debug)]
pub enum CommandError {
    /// Bad arguments, or a folder, record or file that cannot be used (exit status 2).
    Input(String),
    /// The output cannot be written (exit status 4).
    Io(String),
}

impl core::fmt::Display for CommandError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CommandError::Input(m) | CommandError::Io(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CommandError {}
