//! Standard output and standard error as `emu` writes them: never a panic, and never
//! exit 0 when what was meant for them was lost.
//!
//! `println!` and `eprintln!` panic when a write fails (`emu … > /dev/full`, a closed
//! terminal), and a `let _ =` on the write loses the report with exit 0. Here every
//! write goes through [`out`] or [`err`], which remember the first failure; [`finish`]
//! turns it into exit 1, with one line on standard error when standard error can still
//! take it. A reader that went away (`emu list | head`, a broken pipe) chose to stop
//! reading: exit 1 too, but without a line, as `head` users expect.
//!
//! When an output file is `-` ([`super::output`]), standard output carries that file
//! alone: [`take_stdout`] sends everything else meant for it to standard error.

use std::io::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// A stream a write to which failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "standard output",
            Stream::Stderr => "standard error",
        }
    }
}

/// The first failed write: which stream, and the error.
static FAILED: Mutex<Option<(Stream, std::io::ErrorKind, String)>> = Mutex::new(None);

/// Set when an output file is `-`: standard output is that file's alone.
static STDOUT_TAKEN: AtomicBool = AtomicBool::new(false);

/// Remembers `e` on `stream` unless a failure is already remembered.
fn remember(stream: Stream, e: &std::io::Error) {
    let mut failed = FAILED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if failed.is_none() {
        *failed = Some((stream, e.kind(), e.to_string()));
    }
}

/// Writes `bytes` to `stream` and flushes it; a failure is remembered and returned.
fn write_to(stream: Stream, bytes: &[u8]) -> std::io::Result<()> {
    let result = match stream {
        Stream::Stdout => {
            let mut s = std::io::stdout().lock();
            s.write_all(bytes).and_then(|()| s.flush())
        }
        Stream::Stderr => {
            let mut s = std::io::stderr().lock();
            s.write_all(bytes).and_then(|()| s.flush())
        }
    };
    if let Err(e) = &result {
        remember(stream, e);
    }
    result
}

/// Writes `text` where standard output's text goes: standard output, or standard
/// error while an output file holds standard output ([`take_stdout`]).
pub fn out(text: &str) {
    let stream = if STDOUT_TAKEN.load(Ordering::Relaxed) {
        Stream::Stderr
    } else {
        Stream::Stdout
    };
    let _ = write_to(stream, text.as_bytes());
}

/// Writes `text` to standard error.
pub fn err(text: &str) {
    let _ = write_to(Stream::Stderr, text.as_bytes());
}

/// Writes an output file's bytes to standard output (`--json -`), returning the error
/// for the caller to report (it is not remembered: the caller's message is the one
/// line).
pub fn file_to_stdout(bytes: &[u8]) -> std::io::Result<()> {
    let mut s = std::io::stdout().lock();
    s.write_all(bytes).and_then(|()| s.flush())
}

/// From now on, text meant for standard output goes to standard error: an output file
/// (`--json -`) is written there.
pub fn take_stdout() {
    STDOUT_TAKEN.store(true, Ordering::Relaxed);
}

/// The exit code `code` becomes once what was written is accounted for: a lost write
/// turns exit 0 into exit 1 (any other code already says the run failed, and stays),
/// with one line on standard error saying which stream failed, unless the failure was
/// a reader that went away or standard error itself.
pub fn finish(code: super::Exit) -> super::Exit {
    let _ = std::io::stdout().lock().flush().map_err(|e| {
        remember(Stream::Stdout, &e);
    });
    let failed = FAILED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    let Some((stream, kind, message)) = failed else {
        return code;
    };
    if stream == Stream::Stdout && kind != std::io::ErrorKind::BrokenPipe {
        let _ = std::io::stderr().lock().write_all(
            format!(
                "error: cannot write to {}: {}\n",
                stream.name(),
                emu::config::plain::plain(&message)
            )
            .as_bytes(),
        );
    }
    if code == super::Exit::Ok {
        super::Exit::Failure
    } else {
        code
    }
}

/// `println!` through [`out`]: no panic on a failed write, and the failure counted.
macro_rules! say {
    ($($arg:tt)*) => {{
        $crate::cli::streams::out(&format!("{}\n", format_args!($($arg)*)));
    }};
}

/// `eprintln!` through [`err`]: no panic on a failed write, and the failure counted.
macro_rules! note {
    ($($arg:tt)*) => {{
        $crate::cli::streams::err(&format!("{}\n", format_args!($($arg)*)));
    }};
}
