//! The hand-kept lists stay complete: every part folder, family, test file, shipped
//! topology and traffic file is named where the docs list them. A new part, family,
//! test file or shipped file that a list misses fails here, with the list and the
//! missing name.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The names of the entries of `dir` that `keep` accepts, sorted.
fn entries(dir: &str, keep: impl Fn(&Path) -> Option<String>) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| keep(&e.expect("an entry").path()))
        .collect();
    v.sort();
    v
}

/// The line of `text` that starts with `start` (the list a check reads).
fn line<'a>(text: &'a str, start: &str, file: &str) -> &'a str {
    text.lines()
        .find(|l| l.trim_start().starts_with(start))
        .unwrap_or_else(|| panic!("{file}: no line starting {start:?}"))
}

/// What each list misses of `names`, where `form` says how a list writes a name.
fn missing(names: &[String], lists: &[(&str, &str)], form: impl Fn(&str) -> String) -> Vec<String> {
    let mut out = Vec::new();
    for (where_, list) in lists {
        for n in names {
            if !list.contains(&form(n)) {
                out.push(format!("{where_} does not name {n}"));
            }
        }
    }
    out
}

#[test]
fn every_part_folder_is_in_the_lists_of_parts() {
    let parts = entries("crates/emu-core/src/parts", |p| {
        p.is_dir()
            .then(|| p.file_name().unwrap().to_string_lossy().into_owned())
    });
    assert!(parts.len() >= 6, "{parts:?}");
    let parts_mod = read("crates/emu-core/src/parts/mod.rs");
    let lib = read("crates/emu-core/src/lib.rs");
    let arch = read("docs/architecture.md");
    let table = parts_mod
        .lines()
        .filter(|l| l.starts_with("//! | [`"))
        .collect::<Vec<_>>()
        .join("\n");
    let arch_row = line(&arch, "| `parts` |", "docs/architecture.md");
    let arch_layout = line(&arch, "src/parts/", "docs/architecture.md");
    let mut gaps = missing(&parts, &[("parts/mod.rs's table", table.as_str())], |n| {
        format!("[`{n}`]")
    });
    gaps.extend(missing(&parts, &[("the crate root", lib.as_str())], |n| {
        format!("[`parts::{n}`]")
    }));
    gaps.extend(missing(
        &parts,
        &[("architecture.md's layer table", arch_row)],
        |n| format!("`{n}`"),
    ));
    gaps.extend(missing(
        &parts,
        &[("architecture.md's layout", arch_layout)],
        |n| n.to_string(),
    ));
    assert!(gaps.is_empty(), "{}", gaps.join("\n"));
}

#[test]
fn every_family_is_in_the_registry_s_own_description() {
    let doc = read("crates/emu-core/src/family/mod.rs");
    let intro = doc
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .collect::<Vec<_>>()
        .join(" ")
        .replace("//!", "");
    let intro = intro.split_whitespace().collect::<Vec<_>>().join(" ");
    let names: Vec<String> = emu::family::FAMILIES
        .iter()
        .map(|f| f.name().to_string())
        .collect();
    assert!(names.len() >= 4, "{names:?}");
    let gaps = missing(
        &names,
        &[("family/mod.rs's description", intro.as_str())],
        |n| n.to_string(),
    );
    assert!(gaps.is_empty(), "{}", gaps.join("\n"));
}

#[test]
fn every_test_file_is_a_module_of_the_one_test_binary() {
    let files = entries("tests", |p| {
        let name = p.file_name()?.to_str()?;
        let stem = name.strip_suffix(".rs")?;
        (stem != "integration").then(|| stem.to_string())
    });
    assert!(files.len() > 20, "{files:?}");
    let integration = read("tests/integration.rs");
    let gaps = missing(&files, &[("tests/integration.rs", &integration)], |n| {
        format!("mod {n};")
    });
    assert!(
        gaps.is_empty(),
        "a test file no module names is never compiled:\n{}",
        gaps.join("\n")
    );
}

#[test]
fn every_shipped_topology_and_traffic_file_is_in_the_guide_s_files_chapter() {
    let chapter = entries("book/src/files", |p| {
        (p.extension()? == "md").then(|| std::fs::read_to_string(p).ok())?
    })
    .join("\n");
    for dir in ["topologies", "traffic"] {
        let stems = entries(dir, |p| {
            let name = p.file_name()?.to_str()?;
            let stem = name
                .strip_suffix(".toml")
                .or_else(|| name.strip_suffix(".trace"))
                .or_else(|| name.strip_suffix(".graphml"))?;
            Some(stem.to_string())
        });
        assert!(stems.len() > 10, "{dir}: {stems:?}");
        let gaps = missing(&stems, &[("book/src/files/", &chapter)], |n| n.to_string());
        assert!(gaps.is_empty(), "{dir}:\n{}", gaps.join("\n"));
    }
}
