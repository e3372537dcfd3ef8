//! A case: one topology text and one traffic text, written into a folder of their own under
//! their shipped names, with the files they name beside them.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::subject::Subject;

/// The two files of one run of emu.
#[derive(Clone, Copy, Debug)]
pub struct Case<'a> {
    /// The topology file and the text to write for it (mutated or shipped).
    pub topology: (&'a Subject, &'a str),
    /// The traffic file and the text to write for it.
    pub traffic: (&'a Subject, &'a str),
}

/// Where a case's files were written.
#[derive(Clone, Debug)]
pub struct LaidOut {
    /// The topology file.
    pub topology: PathBuf,
    /// The traffic file.
    pub traffic: PathBuf,
}

impl Case<'_> {
    /// Writes the case into `dir` (created): `dir/topologies/NAME` and `dir/traffic/NAME`,
    /// each with the files it names copied beside it.
    pub fn lay_out(&self, dir: &Path) -> io::Result<LaidOut> {
        Ok(LaidOut {
            topology: write(dir, self.topology)?,
            traffic: write(dir, self.traffic)?,
        })
    }
}

fn write(dir: &Path, (subject, text): (&Subject, &str)) -> io::Result<PathBuf> {
    let folder = dir.join(subject.role.dir());
    fs::create_dir_all(&folder)?;
    let source = subject.path.parent().unwrap_or(Path::new("."));
    for reference in &subject.references {
        let to = folder.join(reference);
        if let Some(parent) = to.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::copy(source.join(reference), to)?;
    }
    let path = folder.join(&subject.name);
    fs::write(&path, text)?;
    Ok(path)
}

/// Copies a folder and everything in it (a kept case).
pub fn copy_dir(from: &Path, to: &Path) -> io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
