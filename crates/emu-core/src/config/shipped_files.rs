//! The shipped files of one directory of the repository, read from disk: emu-core's
//! build script embeds the topologies from this list, and the tests of
//! `config::shipped` hold the embedded tables to it. Not compiled into the library.

use std::path::{Path, PathBuf};

/// (stem, path) of every `*.toml` and `*.graphml` file in `dir`, in byte order of their
/// stems.
pub(crate) fn shipped_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a shipped directory") {
        let path = entry.expect("a directory entry").path();
        if path
            .extension()
            .is_some_and(|e| e == "toml" || e == "graphml")
        {
            let stem = path
                .file_stem()
                .expect("a file name")
                .to_str()
                .expect("a UTF-8 file name")
                .to_string();
            files.push((stem, path));
        }
    }
    files.sort();
    files
}
