//! Where the `emu` package's tests live. The library's own unit-test harness is not
//! built (`[lib] test = false` in Cargo.toml: compiling the library a second time,
//! with `cfg(test)`, cost the build as much as the library itself), so its tests are
//! modules of this integration binary, written against the public API. The binary's
//! modules (`src/main.rs` and the modules it declares: `src/cli/`, `src/alloc.rs`)
//! keep their unit tests, which its small harness runs.

use std::fs;
use std::path::{Path, PathBuf};

use super::common::rust_files;

/// The files of the binary under `src`: `main.rs` and, for each `mod name;` it
/// declares, `name.rs` and everything under `name/`.
fn binary_files(src: &Path) -> Vec<PathBuf> {
    let main = fs::read_to_string(src.join("main.rs")).expect("src/main.rs is readable");
    let mut out = vec![src.join("main.rs")];
    for line in main.lines() {
        let line = line.trim();
        if let Some(name) = line
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(';'))
        {
            out.push(src.join(format!("{name}.rs")));
            out.push(src.join(name));
        }
    }
    out
}

/// A unit test in a file of the library would compile in no test binary and never
/// run: every one is here, in the integration binary, instead.
#[test]
fn the_library_has_no_unit_tests() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let binary = binary_files(&src);
    assert!(
        binary.contains(&src.join("cli")),
        "src/main.rs declares the cli module: {binary:?}"
    );
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let library: Vec<&PathBuf> = files
        .iter()
        .filter(|f| !binary.iter().any(|b| f.starts_with(b)))
        .collect();
    assert!(
        library.iter().any(|f| f.ends_with("lib.rs")),
        "the library's files are read: {library:?}"
    );
    let with_tests: Vec<String> = library
        .iter()
        .filter(|f| {
            let text = fs::read_to_string(f).expect("a source file is readable");
            text.contains("#[cfg(test)]") || text.contains("#[test]")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        with_tests.is_empty(),
        "unit tests in the library, which `cargo test` does not build ([lib] test = \
         false): move them to a module of tests/integration.rs: {with_tests:?}"
    );
}
