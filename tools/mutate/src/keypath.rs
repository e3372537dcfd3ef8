//! The path of a key in a TOML document, written `network.mix.address` or
//! `faults.link_down[0].at_us`.

use std::fmt;

/// One step from a container to what it holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A key of a table or inline table.
    Key(String),
    /// An element of an array or array of tables.
    Index(usize),
}

/// A path from the document's root table to a value or table; empty for the root.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KeyPath(Vec<Segment>);

impl KeyPath {
    /// The root table's path (no segments).
    pub fn root() -> Self {
        Self(Vec::new())
    }

    /// This path followed by a key.
    pub fn key(&self, key: &str) -> Self {
        let mut segments = self.0.clone();
        segments.push(Segment::Key(key.to_owned()));
        Self(segments)
    }

    /// This path followed by an array index.
    pub fn index(&self, index: usize) -> Self {
        let mut segments = self.0.clone();
        segments.push(Segment::Index(index));
        Self(segments)
    }

    /// The segments from the root.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// True for the root table's path.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The path without its last segment, and that segment; `None` for the root.
    pub fn split_last(&self) -> Option<(&[Segment], &Segment)> {
        self.0.split_last().map(|(last, parent)| (parent, last))
    }
}

/// A key that is not a bare TOML key is written quoted, as TOML would.
fn is_bare(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(root)");
        }
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    if is_bare(key) {
                        f.write_str(key)?;
                    } else {
                        write!(f, "{key:?}")?;
                    }
                }
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_keys_and_indices() {
        let path = KeyPath::root()
            .key("faults")
            .key("link_down")
            .index(0)
            .key("at_us");
        assert_eq!(path.to_string(), "faults.link_down[0].at_us");
        assert_eq!(KeyPath::root().to_string(), "(root)");
        assert_eq!(KeyPath::root().key("a b").to_string(), "\"a b\"");
    }
}
