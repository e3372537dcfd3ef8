//! Embeds every shipped topology file: writes `shipped_topologies.rs` into `OUT_DIR`, a
//! slice of (stem, text) rows, one for each `topologies/*.toml` and
//! `topologies/*.graphml` of the repository, in byte order of their stems, so that a new
//! shipped topology needs no hand-written row (`config::shipped`).

#[path = "src/config/shipped_files.rs"]
mod shipped_files;

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("../../topologies");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut rows = String::from("&[\n");
    for (stem, path) in shipped_files::shipped_files(&dir) {
        let path = path.canonicalize().expect("a shipped topology file exists");
        let path = path.to_str().expect("a UTF-8 path");
        writeln!(rows, "    ({stem:?}, include_str!({path:?})),").expect("writes to a string");
    }
    rows.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("shipped_topologies.rs");
    std::fs::write(out, rows).expect("OUT_DIR is writable");
}
