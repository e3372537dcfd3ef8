//! Output files that cannot destroy what they replace.
//!
//! - **Checked before any work.** Every output a command was given is checked before
//!   it runs ([`Outputs::check`]): a file whose path names one of the command's input
//!   files, or the same file as another output, is refused with exit 2. "The same file"
//!   is decided by device and inode after following symbolic links, not by the string
//!   the user typed, so `same.out`, `./same.out`, an absolute path, a symbolic link and
//!   a hard link are all one file. A FIFO, socket or device (other than `/dev/null`) is
//!   refused: opening one for writing could block the run forever, and renaming over it
//!   would replace it.
//! - **Written whole or not at all.** [`write`] writes a temporary file beside the
//!   output and renames it into place only when it is complete, so a run that fails,
//!   is killed or fills the disk leaves what was there before. The replaced file keeps
//!   its permissions; a symbolic link is written through, and stays a link.
//! - **`-` is standard output**, for one output of a command; the text that standard
//!   output would carry then goes to standard error ([`super::streams`]).
//! - **Inputs stay protected to the end.** The inputs' identities are kept for the
//!   whole process, so a file written into an output directory (`--plot DIR`) is
//!   refused too if it would replace one of them.

use super::exit::Exit;
use super::fail;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file on disk: its device and inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId {
    dev: u64,
    ino: u64,
}

/// The file `path` names, following symbolic links (`None`: nothing there).
fn file_id(path: &Path) -> Option<FileId> {
    let meta = std::fs::metadata(path).ok()?;
    Some(id_of(&meta))
}

#[cfg(unix)]
fn id_of(meta: &std::fs::Metadata) -> FileId {
    use std::os::unix::fs::MetadataExt as _;
    FileId {
        dev: meta.dev(),
        ino: meta.ino(),
    }
}

/// The inputs of this process, by identity, with what they are for messages.
static INPUTS: Mutex<Vec<(FileId, String)>> = Mutex::new(Vec::new());

/// The input that `id` is, if it is one.
fn input_named(id: FileId) -> Option<String> {
    INPUTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, what)| what.clone())
}

/// How many symbolic links are followed before a path is taken as it is (Linux's own
/// limit is 40).
const MAX_LINKS: usize = 40;

/// The path a write to `path` ends at: `path` with every symbolic link along it
/// followed, even one whose target does not exist yet (it is created there).
fn resolve(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::read_link(&p) {
            Ok(target) => {
                p = match p.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            Err(_) => break,
        }
    }
    p
}

/// Where a write to `path` lands, for comparing two outputs: the existing file, or the
/// absolute path of the file to be created.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Landing {
    Existing(FileId),
    New(PathBuf),
}

fn landing(path: &Path) -> Landing {
    let target = resolve(path);
    if let Some(id) = file_id(&target) {
        return Landing::Existing(id);
    }
    let name = target.file_name().map(PathBuf::from).unwrap_or_default();
    let dir = parent_of(&target);
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    Landing::New(dir.join(name))
}

/// True if `path` is `-`: standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// True if `path` is the null device, which takes writes and keeps nothing.
fn is_null_device(path: &Path) -> bool {
    file_id(path).is_some_and(|id| file_id(Path::new("/dev/null")) == Some(id))
}

/// What kind of thing other than a regular file or directory `meta` describes.
fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt as _;
    let t = meta.file_type();
    if t.is_fifo() {
        Some("a FIFO")
    } else if t.is_socket() {
        Some("a socket")
    } else if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else {
        None
    }
}

/// The outputs of one command, and the inputs they must not replace.
#[derive(Debug, Default)]
pub struct Outputs<'a> {
    /// (flag, file) for every output file given.
    files: Vec<(&'a str, &'a Path)>,
    /// (flag, directory) for every output directory given.
    dirs: Vec<(&'a str, &'a Path)>,
    /// (what it is, path) for every input file.
    inputs: Vec<(String, PathBuf)>,
}

impl<'a> Outputs<'a> {
    /// No outputs yet.
    pub fn new() -> Outputs<'a> {
        Outputs::default()
    }

    /// An output file, `--FLAG FILE` (nothing if not given).
    pub fn file(mut self, flag: &'a str, path: Option<&'a Path>) -> Outputs<'a> {
        if let Some(p) = path {
            self.files.push((flag, p));
        }
        self
    }

    /// An output directory, `--FLAG DIR` (nothing if not given).
    pub fn dir(mut self, flag: &'a str, path: Option<&'a Path>) -> Outputs<'a> {
        if let Some(p) = path {
            self.dirs.push((flag, p));
        }
        self
    }

    /// Input files the outputs must not replace, each (what it is, e.g. "topology
    /// file"; its path).
    pub fn inputs(mut self, inputs: Vec<(String, PathBuf)>) -> Outputs<'a> {
        self.inputs.extend(inputs);
        self
    }

    /// Checks everything before any work (see the module's doc), creates the output
    /// directories, and keeps the inputs for [`write`]; prints the first problem and
    /// gives exit 2.
    pub fn check(&self) -> Result<(), Exit> {
        self.check_inner().map_err(|msg| fail(Exit::BadInput, msg))
    }

    fn check_inner(&self) -> Result<(), String> {
        let mut kept = INPUTS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (what, path) in &self.inputs {
            if let Some(id) = file_id(path) {
                kept.push((id, format!("{what} {}", path.display())));
            }
        }
        drop(kept);
        let stdout: Vec<&str> = self
            .files
            .iter()
            .filter(|(_, p)| is_stdout(p))
            .map(|(f, _)| *f)
            .collect();
        if stdout.len() > 1 {
            let which = if stdout.len() == 2 { "both" } else { "all" };
            return Err(format!(
                "{} {which} name - (standard output): only one output can go there",
                words_and(&stdout)
            ));
        }
        for &(flag, path) in &self.dirs {
            if is_stdout(path) {
                return Err(format!(
                    "{flag} -: {flag} writes several files into a directory, so it cannot be standard output; give a directory"
                ));
            }
        }
        for &(flag, path) in self.files.iter().filter(|(_, p)| !is_stdout(p)) {
            check_file(flag, path)?;
        }
        let mut landed: Vec<(&str, &Path, Landing)> = Vec::new();
        for &(flag, path) in self
            .files
            .iter()
            .chain(self.dirs.iter())
            .filter(|(_, p)| !is_stdout(p) && !is_null_device(p))
        {
            let here = landing(path);
            if let Landing::Existing(id) = here
                && let Some(what) = input_named(id)
            {
                return Err(format!(
                    "{flag} {}: that is the {what}; writing there would destroy it: give the output its own path",
                    path.display()
                ));
            }
            if let Some((other, other_path, _)) = landed.iter().find(|(_, _, l)| *l == here) {
                let same = if other_path == &path {
                    format!("both name {}", path.display())
                } else {
                    format!(
                        "name the same place ({} and {})",
                        other_path.display(),
                        path.display()
                    )
                };
                return Err(format!(
                    "{other} and {flag} {same}: give each output its own path"
                ));
            }
            landed.push((flag, path, here));
        }
        for &(flag, path) in &self.dirs {
            std::fs::create_dir_all(path).map_err(|e| {
                format!(
                    "{flag} {}: cannot create the directory: {e}",
                    path.display()
                )
            })?;
        }
        if !stdout.is_empty() {
            super::streams::take_stdout();
        }
        Ok(())
    }
}

/// "a", "a and b", "a, b and c".
fn words_and(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Checks that `--FLAG FILE` can be written without blocking and without harm: not a
/// directory, FIFO, socket or device (`/dev/null` is taken), an existing file that can
/// be written, in a directory where a file can be created.
fn check_file(flag: &str, path: &Path) -> Result<(), String> {
    let shown = path.display();
    if is_null_device(path) {
        return Ok(());
    }
    let target = resolve(path);
    if let Ok(meta) = std::fs::metadata(&target) {
        if meta.is_dir() {
            return Err(format!("{flag} {shown}: is a directory, give a file"));
        }
        if let Some(kind) = special_kind(&meta) {
            return Err(format!(
                "{flag} {shown}: is {kind}, not a regular file: give a file (or - for standard output)"
            ));
        }
        // Opening a regular file never blocks; a read-only one fails here.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&target)
            .map_err(|e| format!("{flag} {shown}: cannot write: {e}"))?;
    }
    let dir = parent_of(&target);
    tempfile::Builder::new()
        .prefix(".emu-check-")
        .tempfile_in(&dir)
        .map(drop)
        .map_err(|e| format!("{flag} {shown}: cannot write: {}", os_error(e)))
}

/// `e` as the system says it, without the temporary file's path that `tempfile` adds
/// (the user named the output, not the temporary file).
fn os_error(e: std::io::Error) -> std::io::Error {
    if e.raw_os_error().is_some() {
        return e;
    }
    let text = e.to_string();
    match text.find(" at path \"") {
        Some(cut) => std::io::Error::new(e.kind(), &text[..cut]),
        None => e,
    }
}

/// The directory a file at `path` lives in (`.` for a bare name).
fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `bytes` to `path` whole or not at all (see the module's doc): `-` is
/// standard output, the null device is written as it is, and a regular file is
/// replaced by a complete temporary file renamed over it. An input of this process is
/// never replaced.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    use std::io::Write as _;
    let bytes = bytes.as_ref();
    if is_stdout(path) {
        return super::streams::file_to_stdout(bytes);
    }
    if is_null_device(path) {
        return std::fs::write(path, bytes);
    }
    let target = resolve(path);
    let existing = std::fs::metadata(&target).ok();
    if let Some(meta) = &existing {
        if let Some(what) = input_named(id_of(meta)) {
            return Err(std::io::Error::other(format!(
                "it is the {what}, which is never replaced"
            )));
        }
        if let Some(kind) = special_kind(meta) {
            return Err(std::io::Error::other(format!(
                "it is {kind}, not a regular file"
            )));
        }
    }
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".part")
        .tempfile_in(parent_of(&target))
        .map_err(os_error)?;
    temp.write_all(bytes).map_err(os_error)?;
    temp.flush().map_err(os_error)?;
    if let Some(meta) = &existing {
        temp.as_file()
            .set_permissions(meta.permissions())
            .map_err(os_error)?;
    }
    temp.persist(&target).map_err(|e| os_error(e.error))?;
    Ok(())
}

/// [`write`], with a failure printed as `cannot write FILE: why` and exit 1 (the run is
/// done; its output could not be kept).
pub fn write_or_fail(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), Exit> {
    write(path, bytes).map_err(|e| {
        if is_stdout(path) && e.kind() == std::io::ErrorKind::BrokenPipe {
            // The reader went away (`--json - | head`): nothing to tell it.
            Exit::Failure
        } else {
            fail(Exit::Failure, format!("cannot write {}: {e}", shown(path)))
        }
    })
}

/// A path as "cannot write …" shows it (`-` as "to standard output").
pub fn shown(path: &Path) -> String {
    if is_stdout(path) {
        "to standard output".into()
    } else {
        path.display().to_string()
    }
}

impl<'a> Outputs<'a> {
    /// The files a case reads from disk, as inputs: the topology file of `network`, the
    /// `traffic` file and the trace it names (shipped files are not on disk).
    pub fn reading(self, network: &super::args::NetworkArgs, traffic: Option<&str>) -> Outputs<'a> {
        self.inputs(case_inputs(
            network.topology.as_deref(),
            traffic,
            &network.sets,
        ))
    }
}

/// The files a case reads from disk: see [`Outputs::reading`]. What cannot be loaded
/// is left out: loading it later says why.
fn case_inputs(
    topology: Option<&str>,
    traffic: Option<&str>,
    sets: &[String],
) -> Vec<(String, PathBuf)> {
    use emu::config::Origin;
    let mut inputs = Vec::new();
    if let Some(t) = topology
        && let Ok(topo) = emu::config::load_topology(t, sets)
        && let Origin::Path(p) = &topo.file.origin
    {
        inputs.push(("topology file".to_string(), p.clone()));
    }
    if let Some(t) = traffic
        && let Ok(traf) = emu::config::load_traffic(t, sets)
    {
        if let Origin::Path(p) = &traf.file.origin {
            inputs.push(("traffic file".to_string(), p.clone()));
        }
        if let Some(p) = emu::config::trace_file::trace_path(&traf) {
            inputs.push(("trace file".to_string(), p));
        }
    }
    inputs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_and_a_relative_path_land_on_the_same_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("a.out");
        std::fs::write(&file, "x").expect("write");
        let link = dir.path().join("link.out");
        std::os::unix::fs::symlink("a.out", &link).expect("symlink");
        let hard = dir.path().join("hard.out");
        std::fs::hard_link(&file, &hard).expect("hard link");
        let dotted = dir.path().join(".").join("a.out");
        let l = landing(&file);
        assert!(matches!(l, Landing::Existing(_)));
        assert_eq!(landing(&link), l);
        assert_eq!(landing(&hard), l);
        assert_eq!(landing(&dotted), l);
        assert_ne!(landing(&dir.path().join("b.out")), l);
    }

    #[test]
    fn new_files_compare_by_their_absolute_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let a = dir.path().join("new.out");
        let b = dir.path().join(".").join("new.out");
        assert_eq!(landing(&a), landing(&b));
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink("new.out", &dangling).expect("symlink");
        assert_eq!(landing(&dangling), landing(&a));
    }

    #[test]
    fn write_replaces_whole_keeps_permissions_and_writes_through_links() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("a.out");
        std::fs::write(&file, "old").expect("write");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        let link = dir.path().join("link.out");
        std::os::unix::fs::symlink("a.out", &link).expect("symlink");
        write(&link, b"new").expect("write through the link");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "new");
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("meta")
                .file_type()
                .is_symlink()
        );
        let mode = std::fs::metadata(&file).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .expect("read_dir")
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left.len(), 2, "no temporary file left: {left:?}");
    }

    #[test]
    fn a_fifo_is_refused_without_opening_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("f");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(status.success());
        let e = check_file("--json", &fifo).expect_err("a FIFO is refused");
        assert!(e.contains("is a FIFO"), "{e}");
        assert!(write(&fifo, b"x").is_err());
    }
}
