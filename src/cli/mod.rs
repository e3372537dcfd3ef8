//! The `emu` binary's subcommands: clap argument types, printing and exit codes.
//! Everything they compute comes from the library; nothing here is part of it.

/// `println!` that ignores a closed stdout (`emu stress | head`) instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

pub mod args;
pub mod check;
pub mod draw;
pub mod exit;
pub mod failure;
pub mod guard;
pub mod list;
pub mod merge;
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
use std::io::Write;

/// Writes `text` to stdout. A reader that went away (`emu list | head`) is not an
/// error worth a panic: the output is simply cut short.
pub fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
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

/// Checks before any work that `--FLAG FILE` can be written: opens it for appending
/// (creating it if missing, then removing what was created), so that a bad path is
/// bad input (exit 2) found at once, not an error after a long run.
pub fn check_output_file(flag: &str, path: Option<&std::path::Path>) -> Result<(), Exit> {
    let Some(path) = path else { return Ok(()) };
    if path.is_dir() {
        return Err(fail(
            Exit::BadInput,
            format!("{flag} {}: is a directory, give a file", path.display()),
        ));
    }
    let existed = path.exists();
    match std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
    {
        Ok(_) => {
            if !existed {
                let _ = std::fs::remove_file(path);
            }
            Ok(())
        }
        Err(e) => Err(fail(
            Exit::BadInput,
            format!("{flag} {}: cannot write: {e}", path.display()),
        )),
    }
}

/// Checks before any work that no two output flags name the same path (the second
/// write would replace the first, or a file would have to be a directory).
pub fn check_distinct_outputs(outputs: &[(&str, Option<&std::path::Path>)]) -> Result<(), Exit> {
    let given: Vec<(&str, &std::path::Path)> = outputs
        .iter()
        .filter_map(|&(flag, p)| p.map(|p| (flag, p)))
        .collect();
    for (i, (a, pa)) in given.iter().enumerate() {
        if let Some((b, _)) = given[i + 1..].iter().find(|(_, pb)| pb == pa) {
            return Err(fail(
                Exit::BadInput,
                format!(
                    "{a} and {b} both name {}: give each output its own path",
                    pa.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Checks before any work that `--FLAG DIR` can hold output files: creates it (and its
/// parents) if missing.
pub fn check_output_dir(flag: &str, path: Option<&std::path::Path>) -> Result<(), Exit> {
    let Some(path) = path else { return Ok(()) };
    std::fs::create_dir_all(path).map_err(|e| {
        fail(
            Exit::BadInput,
            format!(
                "{flag} {}: cannot create the directory: {e}",
                path.display()
            ),
        )
    })
}

/// Writes `doc` as pretty JSON ending with a newline to `path`; a file that cannot be
/// written is printed and [`Exit::Failure`].
pub fn write_json_file(path: &std::path::Path, doc: &impl serde::Serialize) -> Result<(), Exit> {
    let text = serde_json::to_string_pretty(doc).unwrap_or_default() + "\n";
    std::fs::write(path, text).map_err(|e| {
        fail(
            Exit::Failure,
            format!("cannot write {}: {e}", path.display()),
        )
    })
}

/// Prints `error: {msg}` on stderr, in the user's words
/// ([`emu::config::plain::plain`]: no Rust type names or escapes), and returns `code`,
/// the process exit code.
pub fn fail(code: Exit, msg: impl std::fmt::Display) -> Exit {
    eprintln!("error: {}", emu::config::plain::plain(&msg.to_string()));
    code
}
