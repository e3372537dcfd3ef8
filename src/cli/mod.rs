//! The `emu` binary's subcommands: clap argument types, printing and exit codes.
//! Everything they compute comes from the library; nothing here is part of it.

/// `println!` that ignores a closed stdout (`emu stress | head`) instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

pub mod check;
pub mod failure;
pub mod list;
pub mod merge;
pub mod replications;
pub mod reproduce;
pub mod run;
pub mod shrunk;
pub mod stress;
pub mod stress_sci;
pub mod sweep;
pub mod verify;

use std::io::Write;

/// Writes `text` to stdout. A reader that went away (`emu list | head`) is not an
/// error worth a panic: the output is simply cut short.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Prints `error: {msg}` on stderr and returns `code`, the process exit code.
pub fn fail(code: u8, msg: impl std::fmt::Display) -> u8 {
    eprintln!("error: {msg}");
    code
}
