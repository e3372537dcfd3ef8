//! Reading a file the user names — a topology or traffic file, a trace, a sweep's shard
//! file — the one way: only a regular file (a FIFO, device or directory is refused
//! before anything is read, so `/dev/zero` cannot hang a run), at most a size and a line
//! length set per kind of file, text in UTF-8 with a leading byte-order mark dropped.
//! Errors are one line and quote at most a short excerpt of what was read
//! ([`excerpt`]).

use std::io::Read;
use std::path::Path;

/// What a kind of input may hold at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputLimits {
    /// What the file is, for messages: "topology file", "trace", "shard file".
    pub what: &'static str,
    /// Most bytes.
    pub bytes: u64,
    /// Most characters on one line.
    pub line_chars: usize,
}

/// Topology and traffic files: the largest shipped one (a netlist) is a few kB; a
/// generated netlist of thousands of switches stays far below 16 MB.
pub const CONFIG: InputLimits = InputLimits {
    what: "configuration file",
    bytes: 16 << 20,
    line_chars: 1 << 20,
};

/// Packet traces: up to 50,000,000 lines of four numbers.
pub const TRACE: InputLimits = InputLimits {
    what: "trace",
    bytes: 2 << 30,
    line_chars: 4096,
};

/// Shard files of `emu sweep --shard` / `--plan`: one JSON line per run.
pub const SHARD: InputLimits = InputLimits {
    what: "shard file",
    bytes: 1 << 30,
    line_chars: 16 << 20,
};

/// A file that cannot be taken as input; its `Display` is one line naming the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{shown}: {reason}")]
pub struct InputError {
    /// The file as messages name it.
    pub shown: String,
    /// What is wrong with it.
    pub reason: String,
}

/// Reads the regular file at `path` (named `shown` in messages) under `limits`.
pub fn read_file(path: &Path, shown: &str, limits: InputLimits) -> Result<String, InputError> {
    let fail = |reason: String| InputError {
        shown: shown.to_string(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot read: {}", io(&e))))?;
    if meta.is_dir() {
        return Err(fail(format!("is a directory, not a {}", limits.what)));
    }
    if !meta.is_file() {
        return Err(fail(format!(
            "is not a regular file (a FIFO, socket or device): give a {}",
            limits.what
        )));
    }
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot read: {}", io(&e))))?;
    read_capped(file, limits).map_err(fail)
}

/// Reads standard input (named `-` in messages) under `limits`; a pipe is fine here, the
/// size cap still holds.
pub fn read_stdin(limits: InputLimits) -> Result<String, InputError> {
    read_capped(std::io::stdin().lock(), limits).map_err(|reason| InputError {
        shown: "-".to_string(),
        reason,
    })
}

fn read_capped(source: impl Read, limits: InputLimits) -> Result<String, String> {
    let mut bytes = Vec::new();
    source
        .take(limits.bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {}", io(&e)))?;
    if bytes.len() as u64 > limits.bytes {
        return Err(too_large(limits));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        format!(
            "line {line}: not text (a byte that is not UTF-8): give a {} in plain text",
            limits.what
        )
    })?;
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    long_line(&text, limits)?;
    Ok(text)
}

fn too_large(limits: InputLimits) -> String {
    format!(
        "larger than the {} a {} may have",
        crate::memory::human(limits.bytes),
        limits.what
    )
}

fn long_line(text: &str, limits: InputLimits) -> Result<(), String> {
    // Bytes bound characters from above, so most lines are passed without counting.
    match text
        .lines()
        .enumerate()
        .find(|(_, l)| l.len() > limits.line_chars && l.chars().count() > limits.line_chars)
    {
        Some((i, _)) => Err(format!(
            "line {}: longer than the {} characters a line of a {} may have",
            i + 1,
            limits.line_chars,
            limits.what
        )),
        None => Ok(()),
    }
}

/// An I/O error without the `(os error 2)` suffix.
fn io(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

pub use crate::text::excerpt;

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp(text: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().expect("temp file");
        f.write_all(text).expect("write");
        f
    }

    #[test]
    fn a_regular_file_is_read_and_its_byte_order_mark_dropped() {
        let f = temp("\u{feff}0 0 1 1\n".as_bytes());
        assert_eq!(read_file(f.path(), "t", TRACE).expect("read"), "0 0 1 1\n");
    }

    #[test]
    fn devices_fifos_and_directories_are_refused_before_reading() {
        let e = read_file(Path::new("/dev/zero"), "/dev/zero", TRACE).unwrap_err();
        assert!(e.reason.contains("not a regular file"), "{e}");
        let dir = tempfile::tempdir().expect("dir");
        let e = read_file(dir.path(), "d", CONFIG).unwrap_err();
        assert!(e.reason.contains("is a directory"), "{e}");
        let e = read_file(Path::new("/no/such/file"), "x", CONFIG).unwrap_err();
        assert_eq!(e.to_string(), "x: cannot read: No such file or directory");
    }

    #[test]
    fn caps_on_size_line_length_and_encoding() {
        let small = InputLimits {
            what: "trace",
            bytes: 10,
            line_chars: 4,
        };
        let e = read_file(temp(b"0123456789abc").path(), "t", small).unwrap_err();
        assert!(e.reason.contains("larger than"), "{e}");
        let e = read_file(temp(b"ab\nabcde\n").path(), "t", small).unwrap_err();
        assert!(e.reason.starts_with("line 2: longer than the 4"), "{e}");
        // Four characters of two bytes each: within the character cap.
        assert!(read_file(temp("éééé".as_bytes()).path(), "t", small).is_ok());
        let e = read_file(temp(b"a\n\xff\n").path(), "t", small).unwrap_err();
        assert!(e.reason.starts_with("line 2: not text"), "{e}");
    }
}
