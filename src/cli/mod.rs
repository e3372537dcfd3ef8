//! The `emu` binary's subcommands: clap argument types, printing and exit codes.
//! Everything they compute comes from the library; nothing here is part of it.

#[macro_use]
pub mod streams;
pub mod args;
pub mod check;
pub mod draw;
pub mod exit;
pub mod failure;
pub mod guard;
pub mod list;
pub mod merge;
pub mod output;
pub mod replications;
pub mod report_html;
pub mod reproduce;
pub mod run;
pub mod shrunk;
pub mod stress;
pub mod stress_sci;
pub mod sweep;
pub mod verify;
pub mod watch;

pub use exit::Exit;

/// Writes `text` where standard output's text goes ([`streams::out`]): a failed write
/// is counted for the exit code, never a panic.
pub fn emit(text: &str) {
    streams::out(text);
}

/// The most worker threads a command accepts: more than any machine emu runs on has
/// cores, and few enough that asking for them cannot exhaust the process table.
pub const MAX_THREADS: usize = 4096;

/// Checks `--threads N`: 1..=[`MAX_THREADS`], or prints the error and gives exit code 2.
pub fn check_threads(threads: Option<usize>) -> Result<(), Exit> {
    match threads {
        Some(0) => Err(fail(
            Exit::BadInput,
            "--threads 0: give at least one thread",
        )),
        Some(n) if n > MAX_THREADS => Err(fail(
            Exit::BadInput,
            format!("--threads {n}: give at most {MAX_THREADS}"),
        )),
        _ => Ok(()),
    }
}

/// Writes `doc` as pretty JSON ending with a newline to `path`; a file that cannot be
/// written is printed and [`Exit::Failure`].
pub fn write_json_file(path: &std::path::Path, doc: &impl serde::Serialize) -> Result<(), Exit> {
    let text = serde_json::to_string_pretty(doc).unwrap_or_default() + "\n";
    output::write_or_fail(path, text)
}

/// Prints `error: {msg}` on stderr, in the user's words
/// ([`emu::config::plain::plain`]: no Rust type names or escapes), and returns `code`,
/// the process exit code.
pub fn fail(code: Exit, msg: impl std::fmt::Display) -> Exit {
    note!("error: {}", emu::config::plain::plain(&msg.to_string()));
    code
}
