//! The files to mutate: the shipped topology and traffic files, with their family and the
//! files they name (a trace file beside a traffic file).

use std::fs;
use std::path::{Component, Path, PathBuf};

use toml_edit::{DocumentMut, Value};

use crate::family::{self, Family};
use crate::walk::{self, TargetKind};

/// Whether a file is a topology or a traffic file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A file for `emu -t`, in `topologies/`.
    Topology,
    /// A file for `emu -p`, in `traffic/`.
    Traffic,
}

impl Role {
    /// The folder of the repository (and of a run's scratch folder) that holds such files.
    pub fn dir(self) -> &'static str {
        match self {
            Self::Topology => "topologies",
            Self::Traffic => "traffic",
        }
    }
}

/// A shipped input file.
#[derive(Clone, Debug)]
pub struct Subject {
    /// Topology or traffic.
    pub role: Role,
    /// Where it is shipped.
    pub path: PathBuf,
    /// Its file name, under which its mutants are written too.
    pub name: String,
    /// Its file name without `.toml`.
    pub stem: String,
    /// Its text.
    pub text: String,
    /// The family it belongs to (for traffic files, the one it is meant for).
    pub family: Family,
    /// What files of the same keys share: a topology's `network.kind`, a traffic file's
    /// family.
    pub kind: String,
    /// The files it names, relative to its folder (copied beside each mutant).
    pub references: Vec<PathBuf>,
    /// Its document.
    pub doc: DocumentMut,
}

/// The `*.toml` files of `root/topologies` or `root/traffic`, sorted by name; a file that
/// cannot be read or is not TOML is returned as an error message beside the others.
pub fn load(root: &Path, role: Role) -> Result<(Vec<Subject>, Vec<String>), String> {
    let dir = root.join(role.dir());
    let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    let mut subjects = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        match one(&path, role) {
            Ok(subject) => subjects.push(subject),
            Err(problem) => problems.push(format!("{}: {problem}", path.display())),
        }
    }
    Ok((subjects, problems))
}

fn one(path: &Path, role: Role) -> Result<Subject, String> {
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    let doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| e.to_string())?;
    let name = file_name(path);
    let stem = name.trim_end_matches(".toml").to_owned();
    let family = match role {
        Role::Topology => family::of_topology(&doc),
        Role::Traffic => family::of_traffic(&stem, &doc),
    };
    let kind = match role {
        Role::Topology => doc
            .get("network")
            .and_then(|n| n.get("kind"))
            .and_then(|k| k.as_str())
            .unwrap_or_default()
            .to_owned(),
        Role::Traffic => family.to_string(),
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let references = references(&doc, dir, &name);
    Ok(Subject {
        role,
        path: path.to_owned(),
        name,
        stem,
        text,
        family,
        kind,
        references,
        doc,
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The string values that name a file in `dir` (relative, without `..`), other than the
/// file itself.
fn references(doc: &DocumentMut, dir: &Path, own_name: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walk::targets(doc)
        .into_iter()
        .filter_map(|t| match t.kind {
            TargetKind::Scalar(Value::String(s)) => Some(PathBuf::from(s.value())),
            _ => None,
        })
        .filter(|p| p.components().all(|c| matches!(c, Component::Normal(_))))
        .filter(|p| p.as_os_str() != own_name && dir.join(p).is_file())
        .collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_files_a_document_names() {
        let dir = tempfile::tempdir().expect("scratch folder");
        fs::write(dir.path().join("t.trace"), "0 0 1 1\n").expect("write");
        let doc: DocumentMut =
            "[injection]\nfile = \"t.trace\"\nother = \"nope.trace\"\nup = \"../t.trace\"\n"
                .parse()
                .expect("parses");
        assert_eq!(
            references(&doc, dir.path(), "x.toml"),
            [PathBuf::from("t.trace")]
        );
    }
}
