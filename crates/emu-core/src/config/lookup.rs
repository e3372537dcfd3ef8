//! Finding a configuration file from what the user typed: a path, a name in
//! `topologies/` or `traffic/`, or the name of a shipped file.

use super::error::ConfigError;
use super::shipped::{find_shipped, shipped_names};
use super::source::{FileKind, Origin, SourceFile};
use std::path::{MAIN_SEPARATOR, Path};

/// Finds and reads the file `spec` of this kind, looking relative to the current
/// directory, nearest first:
/// 1. `spec` itself, if it is an existing file;
/// 2. if `spec` is a bare name (no path separator, no `.toml`), `<spec>.toml` in the
///    current directory;
/// 3. if `spec` has no path separator, `<dir>/<spec>` then (unless `spec` already ends
///    in `.toml`) `<dir>/<spec>.toml`, where `<dir>` is `topologies` or `traffic`;
/// 4. the shipped file whose stem is `spec` without any `.toml` suffix.
///
/// A file of the current directory found by a shipped file's name (1 or 2) shadows the
/// shipped file; it is then named `./<spec>.toml`, so that the report header
/// (`run ./hypercube6 …`) and every message show which one was read.
pub fn find_source(kind: FileKind, spec: &str) -> Result<SourceFile, ConfigError> {
    find_source_in(kind, spec, Path::new(""))
}

/// [`find_source`] with relative paths taken from `base` instead of the current
/// directory (`Path::new("")` means the current directory).
pub(crate) fn find_source_in(
    kind: FileKind,
    spec: &str,
    base: &Path,
) -> Result<SourceFile, ConfigError> {
    if spec.trim().is_empty() {
        return Err(ConfigError::new(format!(
            "no {kind} file given; shipped {kind} files: {}",
            shipped_names(kind)
        )));
    }
    let mut tried = Vec::new();
    let has_separator = spec.contains('/') || spec.contains(MAIN_SEPARATOR);
    let stem = shipped_stem(spec);
    // A file here with a shipped file's name is named as a path, "./NAME.toml".
    let here = |file: &str| {
        if !has_separator && find_shipped(kind, stem).is_some() {
            format!(".{MAIN_SEPARATOR}{file}")
        } else {
            file.to_string()
        }
    };
    let direct = base.join(spec);
    if direct.is_file() {
        return read(kind, here(spec), &direct);
    }
    tried.push(direct.display().to_string());
    if !has_separator && !spec.ends_with(".toml") {
        let file = format!("{spec}.toml");
        let path = base.join(&file);
        if path.is_file() {
            return read(kind, here(&file), &path);
        }
        tried.push(path.display().to_string());
    }

    if !has_separator {
        let with_extension = (!spec.ends_with(".toml")).then(|| format!("{spec}.toml"));
        for candidate in std::iter::once(spec.to_string()).chain(with_extension) {
            let shown = Path::new(kind.dir()).join(&candidate);
            let path = base.join(&shown);
            if path.is_file() {
                return read(kind, shown.display().to_string(), &path);
            }
            tried.push(path.display().to_string());
        }
    }

    if find_shipped(kind, stem).is_some() {
        return read_shipped(kind, stem);
    }
    // Something is there, but not a file to read (a bare name that is also a directory
    // still finds the shipped file above): say what it is, not "not found".
    if let Some(e) = not_a_file(kind, spec, &direct) {
        return Err(e);
    }
    Err(ConfigError::new(format!(
        "{kind} file `{spec}` not found: tried {} and the shipped {kind} files ({})",
        tried.join(", "),
        shipped_names(kind)
    )))
}

/// Why `path` (given as `spec`), which exists, is no file to read; `None` if nothing is
/// there.
fn not_a_file(kind: FileKind, spec: &str, path: &Path) -> Option<ConfigError> {
    let meta = std::fs::metadata(path).ok()?;
    let what = if meta.is_dir() {
        "a directory"
    } else {
        "not a regular file (a FIFO, socket or device)"
    };
    Some(ConfigError::new(format!(
        "{kind} file `{spec}` is {what}: give a {kind} file"
    )))
}

/// Reads the file of this kind at `path` and nothing else (no lookup, no shipped
/// file), naming it as the path is written.
pub(crate) fn read_path(kind: FileKind, path: &Path) -> Result<SourceFile, ConfigError> {
    let name = path.display().to_string();
    if path.is_file() {
        return read(kind, name, path);
    }
    Err(not_a_file(kind, &name, path)
        .unwrap_or_else(|| ConfigError::new(format!("{kind} file `{name}` not found"))))
}

/// The shipped file of this kind called `name` (with or without `.toml`, or
/// `.graphml`), named `<stem>.toml` (`<stem>.graphml` for a GraphML one) as
/// [`find_source`] names it.
pub(crate) fn read_shipped(kind: FileKind, name: &str) -> Result<SourceFile, ConfigError> {
    let stem = shipped_stem(name);
    match find_shipped(kind, stem) {
        Some(text) => Ok(SourceFile {
            kind,
            name: format!(
                "{stem}.{}",
                if super::graphml::is_graphml(text) {
                    "graphml"
                } else {
                    "toml"
                }
            ),
            text: text.to_string(),
            origin: Origin::Shipped,
        }),
        None => Err(ConfigError::new(format!(
            "no shipped {kind} file is called `{name}`; shipped {kind} files: {}",
            shipped_names(kind)
        ))),
    }
}

/// The stem a shipped file is known by: `name` without `.toml` or `.graphml`.
fn shipped_stem(name: &str) -> &str {
    name.strip_suffix(".toml")
        .or_else(|| name.strip_suffix(".graphml"))
        .unwrap_or(name)
}

/// Reads `path` ([`super::input::read_file`]), naming it `name` in messages.
fn read(kind: FileKind, name: String, path: &Path) -> Result<SourceFile, ConfigError> {
    let limits = super::input::InputLimits {
        what: match kind {
            FileKind::Topology => "topology file",
            FileKind::Traffic => "traffic file",
        },
        ..super::input::CONFIG
    };
    match super::input::read_file(path, &name, limits) {
        Ok(text) => Ok(SourceFile {
            kind,
            name,
            text,
            origin: Origin::Path(path.to_path_buf()),
        }),
        Err(e) => Err(ConfigError::new(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh empty directory under the system temp directory, removed on drop.
    fn temp_dir(tag: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("emu-lookup-{tag}-"))
            .tempdir()
            .expect("temp dir")
    }

    #[test]
    fn bare_name_falls_back_to_shipped_with_and_without_suffix() {
        let empty_dir = temp_dir("shipped");
        let empty = empty_dir.path().to_path_buf();
        for spec in ["hypercube8", "hypercube8.toml"] {
            let f = find_source_in(FileKind::Topology, spec, &empty).expect("shipped");
            assert_eq!(f.origin, Origin::Shipped);
            assert_eq!(f.name, "hypercube8.toml");
            assert!(f.text.contains("dimensions = 8"));
        }
        let f = find_source_in(FileKind::Traffic, "uniform", &empty).expect("shipped");
        assert_eq!(f.name, "uniform.toml");
    }

    #[test]
    fn bare_name_prefers_the_directory_file() {
        let base_dir = temp_dir("dir");
        let base = base_dir.path().to_path_buf();
        std::fs::create_dir_all(base.join("traffic")).expect("mkdir");
        std::fs::write(base.join("traffic/mine.toml"), "description = \"mine\"\n").expect("write");
        for spec in ["mine", "mine.toml"] {
            let f = find_source_in(FileKind::Traffic, spec, &base).expect("found");
            assert_eq!(
                f.name,
                Path::new("traffic").join("mine.toml").display().to_string()
            );
            assert_eq!(
                f.origin,
                Origin::Path(base.join("traffic").join("mine.toml"))
            );
            assert_eq!(f.text, "description = \"mine\"\n");
        }
        // The traffic directory is not searched for topologies.
        assert!(find_source_in(FileKind::Topology, "mine", &base).is_err());
    }

    #[test]
    fn a_bare_name_finds_name_toml_here_first_and_says_when_it_shadows() {
        let base_dir = temp_dir("here");
        let base = base_dir.path().to_path_buf();
        std::fs::create_dir_all(base.join("topologies")).expect("mkdir");
        std::fs::write(base.join("my-cube.toml"), "here = 1\n").expect("write");
        std::fs::write(base.join("topologies/my-cube.toml"), "dir = 1\n").expect("write");
        let f = find_source_in(FileKind::Topology, "my-cube", &base).expect("found");
        assert_eq!(f.text, "here = 1\n");
        assert_eq!(f.name, "my-cube.toml");
        // A file here named like a shipped one is read, and named as a path.
        std::fs::write(base.join("hypercube6.toml"), "mine = 1\n").expect("write");
        for spec in ["hypercube6", "hypercube6.toml"] {
            let f = find_source_in(FileKind::Topology, spec, &base).expect("found");
            assert_eq!(f.text, "mine = 1\n", "{spec}");
            assert_eq!(
                f.name,
                format!(".{MAIN_SEPARATOR}hypercube6.toml"),
                "{spec}"
            );
            assert_eq!(crate::config::stem(&f.name), "./hypercube6");
        }
        // Not for the other kind: a topology file here does not shadow a traffic name.
        std::fs::write(base.join("uniform.toml"), "t = 1\n").expect("write");
        let f = find_source_in(FileKind::Traffic, "uniform", &base).expect("found");
        assert_eq!(f.text, "t = 1\n");
    }

    #[test]
    fn a_path_is_read_and_named_as_given() {
        let base_dir = temp_dir("path");
        let base = base_dir.path().to_path_buf();
        let path = base.join("my topo.toml");
        std::fs::write(&path, "x = 1\n").expect("write");
        let spec = path.display().to_string();
        let f = find_source(FileKind::Topology, &spec).expect("found");
        assert_eq!(f.name, spec);
        assert_eq!(f.origin, Origin::Path(path.clone()));
    }

    #[test]
    fn not_found_names_what_was_tried_and_the_shipped_files() {
        let base_dir = temp_dir("missing");
        let base = base_dir.path().to_path_buf();
        let e = find_source_in(FileKind::Topology, "torus", &base).expect_err("missing");
        let m = e.to_string();
        assert!(m.contains("`torus` not found"), "{m}");
        assert!(
            m.contains(
                &Path::new("topologies")
                    .join("torus.toml")
                    .display()
                    .to_string()
            ),
            "{m}"
        );
        assert!(m.contains("hypercube8") && m.contains("ring4"), "{m}");
        let e = find_source_in(FileKind::Topology, "torus.toml", &base).expect_err("missing");
        assert!(!e.to_string().contains(".toml.toml"), "{e}");
        let e = find_source_in(FileKind::Traffic, "no/such.toml", &base).expect_err("missing");
        assert!(e.to_string().contains("no/such.toml"), "{e}");
        assert!(find_source_in(FileKind::Traffic, " ", &base).is_err());
    }

    #[test]
    fn a_directory_or_fifo_is_named_as_such() {
        let base_dir = temp_dir("special");
        let base = base_dir.path();
        let e = find_source_in(FileKind::Topology, ".", base).expect_err("a directory");
        assert!(e.to_string().contains("is a directory"), "{e}");
        // A directory named like a shipped file does not hide it.
        std::fs::create_dir_all(base.join("ring4")).expect("mkdir");
        let f = find_source_in(FileKind::Topology, "ring4", base).expect("shipped");
        assert_eq!(f.origin, Origin::Shipped);
        let fifo = base.join("pipe");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            let e = find_source_in(FileKind::Traffic, "pipe", base).expect_err("a FIFO");
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
    }

    #[test]
    fn a_file_that_is_not_text_names_the_path_and_line() {
        let base_dir = temp_dir("unreadable");
        let base = base_dir.path().to_path_buf();
        let path = base.join("bad.toml");
        std::fs::write(&path, [0xff, 0xfe, 0x00]).expect("write");
        let spec = path.display().to_string();
        let e = find_source(FileKind::Topology, &spec).expect_err("not UTF-8");
        assert_eq!(
            e.to_string(),
            format!(
                "{spec}: line 1: not text (a byte that is not UTF-8): give a topology file in \
                 plain text"
            )
        );
    }
}
