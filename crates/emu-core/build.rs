//! Embeds every shipped topology file: writes `shipped_topologies.rs` into `OUT_DIR`, a
//! slice of (stem, text) rows, one for each `topologies/*.toml` and
//! `topologies/*.graphml` of the repository, in byte order of their stems, so that a new
//! shipped topology needs no hand-written row (`config::shipped`).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("../../topologies");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the topologies directory is readable") {
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
            let path = path.canonicalize().expect("a shipped topology file exists");
            files.push((stem, path));
        }
    }
    files.sort();
    let mut rows = String::from("&[\n");
    for (stem, path) in &files {
        let path = path.to_str().expect("a UTF-8 path");
        writeln!(rows, "    ({stem:?}, include_str!({path:?})),").expect("writes to a string");
    }
    rows.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("shipped_topologies.rs");
    std::fs::write(out, rows).expect("OUT_DIR is writable");
}
