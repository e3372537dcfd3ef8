//! The one error type of the configuration layer, and text positions for its messages.

/// A configuration problem: a file that cannot be found, read, parsed or deserialized,
/// or a malformed `--set`. Its `Display` is one line that names the file, line and key
/// (or the `--set` argument) responsible.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ConfigError {
    message: String,
    location: Option<Box<super::Location>>,
}

impl ConfigError {
    /// An error with this message; line breaks in it are joined with "; " so that the
    /// message stays on one line.
    pub fn new(message: impl AsRef<str>) -> Self {
        ConfigError {
            message: one_line(message.as_ref()),
            location: None,
        }
    }

    /// An error about the value at `location`: its message is `LOCATION: message`.
    pub fn at(location: super::Location, message: impl AsRef<str>) -> Self {
        ConfigError {
            message: one_line(&format!("{location}: {}", message.as_ref())),
            location: Some(Box::new(location)),
        }
    }

    /// The same error placed at `location` instead: its message is `LOCATION: message`
    /// with the message it had after its own location.
    pub(crate) fn placed(self, location: super::Location) -> Self {
        let message = match &self.location {
            Some(old) => {
                let old = format!("{old}: ");
                self.message
                    .strip_prefix(old.as_str())
                    .unwrap_or(&self.message)
                    .to_string()
            }
            None => self.message.clone(),
        };
        ConfigError::at(location, message)
    }

    /// Where the offending value is, when the error is about one value.
    pub fn location(&self) -> Option<&super::Location> {
        self.location.as_deref()
    }

    /// The one-line message (the same text as `Display`).
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// Joins the non-blank lines of `text` with "; ".
pub(crate) fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// 1-based line and column (in characters) of byte `offset` in `text`; an offset past
/// the end, or inside a character, is clamped to something sensible rather than panicking.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_is_one_line() {
        let e = ConfigError::new("first\n  second\n\nthird\n");
        assert_eq!(e.to_string(), "first; second; third");
    }

    #[test]
    fn positions_are_one_based_and_clamped() {
        let text = "ab\ncdé\nf";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, 7), (2, 4)); // after 'é' (2 bytes)
        assert_eq!(line_col(text, 6), (2, 3)); // inside 'é': clamped back
        assert_eq!(line_col(text, 100), (3, 2));
        assert_eq!(line_col("", 5), (1, 1));
    }
}
