//! The library's layers have no cycles (docs/architecture.md "Layers"): no top-level
//! module uses, through any chain of others, a module that uses it. Read from the
//! sources of both crates (the core library `crates/emu-core/src/` and the front end
//! `src/`, which re-exports the core's modules under the same names): every
//! `crate::module` path outside comments and test modules counts. The binary
//! (`src/main.rs`, `src/cli/`) is above every layer and is not checked.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::common::rust_files;

/// One source file: its top-level module, its path under its crate's `src/`, and its
/// code lines (outside test modules and line comments), numbered from 1.
type SourceLines = (String, PathBuf, Vec<(usize, String)>);

/// The two crates' source directories: the core library's, then the front end's.
fn source_dirs() -> [PathBuf; 2] {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [root.join("crates/emu-core/src"), root.join("src")]
}

/// Every source file of both crates ([`SourceLines`]); the crate roots (`lib.rs`) are
/// left out.
fn code_lines() -> Vec<SourceLines> {
    let mut out = Vec::new();
    for src in source_dirs() {
        out.extend(crate_lines(&src));
    }
    out
}

fn crate_lines(src: &Path) -> Vec<SourceLines> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .into_iter()
        .filter(|f| !f.ends_with("lib.rs"))
        .map(|file| {
            let rel = file.strip_prefix(src).expect("under src").to_path_buf();
            let first = rel.components().next().expect("a path").as_os_str();
            let top = first.to_string_lossy().trim_end_matches(".rs").to_string();
            let text = fs::read_to_string(&file).expect("a source file");
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            let lines = code
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim_start().starts_with("//"))
                .map(|(n, l)| (n + 1, l.to_string()))
                .collect();
            (top, rel, lines)
        })
        .collect()
}

/// For each top-level module, the top-level modules it uses, with one place each.
fn dependencies() -> BTreeMap<String, BTreeMap<String, String>> {
    let mut deps: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (top, rel, lines) in code_lines() {
        if top == "main" || top == "cli" || top == "lib" {
            continue;
        }
        for (n, line) in lines {
            for (i, _) in line.match_indices("crate::") {
                let used: String = line[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !used.is_empty() && used != top {
                    deps.entry(top.clone())
                        .or_default()
                        .entry(used)
                        .or_insert_with(|| format!("{}:{n}", rel.display()));
                }
            }
        }
    }
    deps
}

fn reaches(deps: &BTreeMap<String, BTreeMap<String, String>>, from: &str, to: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(m) = stack.pop() {
        if m == to {
            return true;
        }
        if seen.insert(m.clone()) {
            stack.extend(deps.get(&m).into_iter().flat_map(|d| d.keys().cloned()));
        }
    }
    false
}

#[test]
fn the_library_layers_have_no_cycles() {
    let deps = dependencies();
    assert!(
        deps.contains_key("engine") && deps.contains_key("parts"),
        "{deps:?}"
    );
    let mut cycles = Vec::new();
    for (module, uses) in &deps {
        for (used, at) in uses {
            if reaches(&deps, used, module) {
                cycles.push(format!("{module} → {used} ({at}) and back"));
            }
        }
    }
    assert!(cycles.is_empty(), "layer cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_engines_import_nothing_from_the_parts() {
    let deps = dependencies();
    let engine = &deps["engine"];
    assert!(
        !engine.contains_key("parts"),
        "engine uses parts at {:?}",
        engine.get("parts")
    );
    assert!(
        !engine.contains_key("config"),
        "engine uses config at {:?}",
        engine.get("config")
    );
}

/// Families are plug-ins at the front end (docs/architecture.md "Network families"):
/// outside the network layer (`config`, `network`, the family registry `family`) no code
/// names a `NetworkConfig` variant, so nothing there branches on a family. The binary
/// (`src/cli/`, `src/main.rs`) is front end too and is checked. Test modules are not.
#[test]
fn nothing_outside_the_network_layer_matches_on_a_family() {
    let mut found = Vec::new();
    for (top, rel, lines) in code_lines() {
        if ["config", "network", "family"].contains(&top.as_str()) {
            continue;
        }
        for (n, line) in lines {
            if let Some(i) = line.find("NetworkConfig::") {
                let after = &line[i + "NetworkConfig::".len()..];
                if after.starts_with(|c: char| c.is_ascii_uppercase()) {
                    found.push(format!("{}:{n}: {}", rel.display(), line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "family variants named outside the network layer (ask emu::family instead):\n{}",
        found.join("\n")
    );
}
