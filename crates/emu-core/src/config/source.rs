//! What a configuration file is and where its text came from.

use std::fmt;
use std::path::PathBuf;

/// Which kind of file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileKind {
    /// A topology file (`topologies/*.toml`, [`crate::network::TopologyConfig`]).
    Topology,
    /// A traffic file (`traffic/*.toml`, [`super::TrafficConfig`]).
    Traffic,
}

impl FileKind {
    /// Both kinds, topology first.
    pub const ALL: [FileKind; 2] = [FileKind::Topology, FileKind::Traffic];

    /// The directory searched for files of this kind: `topologies` or `traffic`.
    pub fn dir(self) -> &'static str {
        match self {
            FileKind::Topology => "topologies",
            FileKind::Traffic => "traffic",
        }
    }

    /// The `--set` key prefix that selects this kind: `topology` or `traffic`.
    pub fn prefix(self) -> &'static str {
        match self {
            FileKind::Topology => "topology",
            FileKind::Traffic => "traffic",
        }
    }

    /// The top-level tables of this kind of file, which a `--set` key without a prefix
    /// is resolved by (`description` is in both kinds, so it is not listed), in file
    /// order; a topology file's `[network]` first.
    pub const fn sections(self) -> &'static [&'static str] {
        match self {
            FileKind::Topology => &["network", "link", "packet", "c104", "vcp", "faults"],
            FileKind::Traffic => &["pattern", "injection", "message", "phases", "terminals"],
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.prefix())
    }
}

/// Where a file's text came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Origin {
    /// Read from this path.
    Path(PathBuf),
    /// Embedded in the binary (see [`super::shipped_topologies`]).
    Shipped,
}

/// The text of one configuration file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// Which kind of file.
    pub kind: FileKind,
    /// The name shown in messages: the path as the user gave it, or the relative path
    /// found, or `<stem>.toml` for a shipped file.
    pub name: String,
    /// The whole file.
    pub text: String,
    /// Where the text came from.
    pub origin: Origin,
}
