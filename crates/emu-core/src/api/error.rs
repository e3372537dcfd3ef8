//! The one error type of [`crate::run`]: what kind of failure, where, and the command
//! line's one-line message.

use crate::config::{ConfigError, Location};
use crate::engine::{EngineError, WindowError};
use crate::family::CaseError;
use crate::network::timing::TimingError;
use std::fmt;

/// What kind of failure an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A file that cannot be found, read, parsed or fit to its schema, or a malformed
    /// `--set` (exit 2 on the command line).
    Config,
    /// Files that were read but describe no valid network or traffic for it (exit 2).
    Build,
    /// A run option out of its range: threads, the deadlock window (exit 2).
    Options,
    /// A network that would need more memory than the run may use, refused before it
    /// was built (exit 2).
    TooLarge,
    /// A hardware rule broken while the run went: a flow-control violation, a routing
    /// or protocol error (exits 1 and 4); a message whose latency disagrees with the
    /// timing of its path, found by [`super::RunOptions::check`] (exit 4,
    /// [`Error::timing_error`]); or the system refused the worker threads.
    Engine,
    /// A bug in emu: a part panicked, the engine failed.
    Internal,
}

impl ErrorKind {
    /// The kind in words, as bindings name it: `config`, `build`, `options`,
    /// `too_large`, `engine`, `internal`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Config => "config",
            ErrorKind::Build => "build",
            ErrorKind::Options => "options",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::Engine => "engine",
            ErrorKind::Internal => "internal",
        }
    }
}

/// Why [`crate::run`] could not give a report. A deadlock or a link fault is no error:
/// it is the report's outcome. `Display` is the one line the command line prints after
/// `error: `.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    inner: Box<Inner>,
}

#[derive(Debug)]
enum Inner {
    Case(CaseError),
    Engine(EngineError),
    Window(WindowError),
    Timing(TimingError),
    Message(String),
}

impl Error {
    /// What kind of failure it is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Where the offending value is (file, line, column, key, or the `--set`
    /// arguments), when the error is about one value of the input.
    pub fn location(&self) -> Option<&Location> {
        match &*self.inner {
            Inner::Case(CaseError::Build { location, .. }) => Some(location),
            Inner::Case(CaseError::Config(e)) => e.location(),
            _ => None,
        }
    }

    /// The engine's error, for an error of kind [`ErrorKind::Engine`],
    /// [`ErrorKind::Internal`] or [`ErrorKind::TooLarge`] found as the run started.
    pub fn engine_error(&self) -> Option<&EngineError> {
        match &*self.inner {
            Inner::Engine(e) => Some(e),
            _ => None,
        }
    }

    /// The timing check's error, for a run whose messages did not all arrive with the
    /// latency the timing of their paths gives ([`super::RunOptions::check`]).
    pub fn timing_error(&self) -> Option<&TimingError> {
        match &*self.inner {
            Inner::Timing(e) => Some(e),
            _ => None,
        }
    }

    /// The engine's error itself (see [`Error::engine_error`]), or this error if it is
    /// not one.
    pub fn into_engine_error(self) -> Result<EngineError, Error> {
        match *self.inner {
            Inner::Engine(e) => Ok(e),
            inner => Err(Error {
                kind: self.kind,
                inner: Box::new(inner),
            }),
        }
    }

    /// An error of `kind` with this message.
    pub(crate) fn message(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            inner: Box::new(Inner::Message(message.into())),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match &*self.inner {
            Inner::Case(e) => e.to_string(),
            Inner::Engine(e) => e.to_string(),
            Inner::Window(e) => e.to_string(),
            Inner::Timing(e) => e.to_string(),
            Inner::Message(m) => m.clone(),
        };
        f.write_str(&crate::config::plain::plain(&text))
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.inner {
            Inner::Case(e) => Some(e),
            Inner::Engine(e) => Some(e),
            Inner::Window(e) => Some(e),
            Inner::Timing(e) => Some(e),
            Inner::Message(_) => None,
        }
    }
}

impl From<CaseError> for Error {
    fn from(e: CaseError) -> Error {
        let kind = match &e {
            CaseError::Config(_) | CaseError::TrafficSet { .. } => ErrorKind::Config,
            CaseError::TooLarge(_) => ErrorKind::TooLarge,
            _ => ErrorKind::Build,
        };
        Error {
            kind,
            inner: Box::new(Inner::Case(e)),
        }
    }
}

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Error {
        CaseError::Config(e).into()
    }
}

impl From<EngineError> for Error {
    fn from(e: EngineError) -> Error {
        let kind = match &e {
            EngineError::TooLarge(_) => ErrorKind::TooLarge,
            EngineError::Panicked { .. } | EngineError::Internal(_) => ErrorKind::Internal,
            _ => ErrorKind::Engine,
        };
        Error {
            kind,
            inner: Box::new(Inner::Engine(e)),
        }
    }
}

impl From<TimingError> for Error {
    fn from(e: TimingError) -> Error {
        Error {
            kind: ErrorKind::Engine,
            inner: Box::new(Inner::Timing(e)),
        }
    }
}

impl From<WindowError> for Error {
    fn from(e: WindowError) -> Error {
        Error {
            kind: ErrorKind::Options,
            inner: Box::new(Inner::Window(e)),
        }
    }
}
