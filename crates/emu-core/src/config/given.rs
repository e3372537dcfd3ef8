//! Where a topology or traffic file comes from, said explicitly ([`Input`]).

use super::kinds::Kinds;
use super::load::{load_source, overrides_for};
use super::lookup::{find_source, read_path, read_shipped};
use super::{ConfigError, FileKind, Loaded, Origin, SourceFile};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::PathBuf;

/// A topology or traffic file, and where it comes from: a file shipped with emu, a
/// path, or text in memory. Nothing is looked up unless asked: [`Input::lookup`] is
/// the command line's search, the only one that reads the working directory for a
/// name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    source: Source,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    Shipped(String),
    Path(PathBuf),
    Text { name: String, text: String },
    Lookup(String),
}

impl Input {
    /// The shipped file called `name` (`"hypercube6"`, or `"hypercube6.toml"`;
    /// [`super::list_shipped`] lists them), named `<name>.toml` in messages.
    pub fn shipped(name: impl Into<String>) -> Input {
        Input {
            source: Source::Shipped(name.into()),
        }
    }

    /// The file at `path`, and only it, named in messages as the path is written.
    pub fn path(path: impl Into<PathBuf>) -> Input {
        Input {
            source: Source::Path(path.into()),
        }
    }

    /// A file's TOML text, named `name` in messages (`"topology.toml"`, `"<topology>"`).
    /// A trace file its traffic names is read beside `name`, as for a file of that path.
    pub fn text(name: impl Into<String>, toml: impl Into<String>) -> Input {
        Input {
            source: Source::Text {
                name: name.into(),
                text: toml.into(),
            },
        }
    }

    /// What the command line finds for `spec` (`emu --topology SPEC`): `spec` as a path,
    /// then for a bare name `./SPEC.toml`, `topologies/SPEC[.toml]` (or `traffic/…`), and
    /// last the shipped file of that name ([`super::find_source`]). This reads
    /// the working directory.
    pub fn lookup(spec: impl Into<String>) -> Input {
        Input {
            source: Source::Lookup(spec.into()),
        }
    }

    /// The file's text, found or read as this input says.
    pub fn source(&self, kind: FileKind) -> Result<SourceFile, ConfigError> {
        match &self.source {
            Source::Shipped(name) => read_shipped(kind, name),
            Source::Path(path) => read_path(kind, path),
            Source::Text { name, text } => Ok(SourceFile {
                kind,
                name: name.clone(),
                text: text.clone(),
                origin: Origin::Path(PathBuf::from(name)),
            }),
            Source::Lookup(spec) => find_source(kind, spec),
        }
    }

    /// Loads the file as a file of `kind`, with the `--set`-style overrides among `sets`
    /// that belong to that kind (every one of `sets` is checked); a type error at a key
    /// of `[network]` words the key's range as `kinds` says.
    pub fn load<T: DeserializeOwned + Serialize>(
        &self,
        kind: FileKind,
        sets: &[String],
        kinds: &dyn Kinds,
    ) -> Result<Loaded<T>, ConfigError> {
        let overrides = overrides_for(kind, sets)?;
        load_source(self.source(kind)?, &overrides, kinds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{TopologyConfig, TrafficConfig};

    #[test]
    fn each_source_is_read_as_it_says() {
        let shipped = Input::shipped("hypercube6")
            .source(FileKind::Topology)
            .expect("shipped");
        assert_eq!(shipped.name, "hypercube6.toml");
        assert_eq!(shipped.origin, Origin::Shipped);
        let same = Input::shipped("hypercube6.toml")
            .source(FileKind::Topology)
            .expect("shipped");
        assert_eq!(same, shipped);
        let e = Input::shipped("hypercube7")
            .source(FileKind::Topology)
            .expect_err("not shipped");
        assert!(
            e.to_string()
                .starts_with("no shipped topology file is called `hypercube7`; shipped topology files: crossbar32,"),
            "{e}"
        );
        // A traffic name is no topology.
        assert!(
            Input::shipped("uniform")
                .source(FileKind::Topology)
                .is_err()
        );

        let text = Input::text("mine.toml", &*shipped.text)
            .source(FileKind::Topology)
            .expect("text");
        assert_eq!(text.name, "mine.toml");
        assert_eq!(text.text, shipped.text);

        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("t.toml");
        std::fs::write(&path, &shipped.text).expect("write");
        let read = Input::path(&path).source(FileKind::Topology).expect("path");
        assert_eq!(read.name, path.display().to_string());
        assert_eq!(read.text, shipped.text);
        let missing = dir.path().join("hypercube6");
        let e = Input::path(&missing)
            .source(FileKind::Topology)
            .expect_err("no such file, and no fallback to the shipped one");
        assert_eq!(
            e.to_string(),
            format!("topology file `{}` not found", missing.display())
        );
        let e = Input::path(dir.path())
            .source(FileKind::Topology)
            .expect_err("a directory");
        assert!(
            e.to_string()
                .ends_with("is a directory: give a topology file"),
            "{e}"
        );
    }

    #[test]
    fn overrides_apply_to_their_kind_and_are_all_checked() {
        let sets = vec!["network.dimensions=3".to_string(), "message.bytes=8".into()];
        let t: Loaded<TopologyConfig> = Input::shipped("hypercube6")
            .load(FileKind::Topology, &sets, &crate::network::kinds::C104Kinds)
            .expect("loads");
        assert_eq!(t.overrides, vec![("network.dimensions".into(), "3".into())]);
        let p: Loaded<TrafficConfig> = Input::shipped("uniform")
            .load(FileKind::Traffic, &sets, &crate::config::NoKinds)
            .expect("loads");
        assert_eq!(p.overrides, vec![("message.bytes".into(), "8".into())]);
        let bad = vec!["bogus".to_string()];
        let e = Input::shipped("uniform")
            .load::<TrafficConfig>(FileKind::Traffic, &bad, &crate::config::NoKinds)
            .expect_err("a malformed --set is refused by either file");
        assert!(
            e.to_string().starts_with("--set bogus: give KEY=VALUE"),
            "{e}"
        );
        assert_eq!(
            e.location().map(|l| l.sets.clone()),
            Some(vec!["bogus".into()])
        );
    }
}
