//! The library's layers have no cycles (docs/architecture.md "Layers"): no top-level
//! module uses, through any chain of others, a module that uses it. Read from the
//! sources: every `crate::module` path outside comments and test modules counts. The
//! binary (`src/main.rs`, `src/cli/`) is above every layer and is not checked.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// For each top-level module, the top-level modules it uses, with one place each.
fn dependencies() -> BTreeMap<String, BTreeMap<String, String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut deps: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src");
        let first = rel.components().next().expect("a path").as_os_str();
        let top = first.to_string_lossy().trim_end_matches(".rs").to_string();
        if top == "main" || top == "cli" || top == "lib" {
            continue;
        }
        let text = fs::read_to_string(&file).expect("a source file");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for (i, _) in line.match_indices("crate::") {
                let used: String = line[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                if !used.is_empty() && used != top {
                    deps.entry(top.clone())
                        .or_default()
                        .entry(used)
                        .or_insert_with(|| format!("{}:{}", rel.display(), n + 1));
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
