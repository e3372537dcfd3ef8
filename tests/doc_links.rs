//! Every relative link in the repository's Markdown resolves: the file exists, and a
//! `#fragment` names a heading of the page it points to (GitHub's anchors: the
//! heading in lower case, spaces as hyphens, punctuation other than `-` and `_`
//! dropped). Links to other sites are not followed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The Markdown files of the repository (tracked ones: not `target/`).
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a readable directory") {
            let path = entry.expect("an entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !matches!(
                    name,
                    "target" | ".git" | "corpus" | "artifacts" | "node_modules"
                ) {
                    dirs.push(path);
                }
            } else if name.ends_with(".md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The `(target)` of every `[text](target)` outside code blocks and code spans, with
/// its line number.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans, whose brackets are not links.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push((n + 1, target.to_string()));
            rest = &after[end..];
        }
    }
    out
}

/// GitHub's anchor of a heading.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings (outside code blocks), duplicates numbered as
/// GitHub numbers them (`name`, `name-1`, …), and its explicit `<a id="…">` anchors.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // An explicit anchor: <a id="name"></a>.
        for part in line.split("<a id=\"").skip(1) {
            if let Some((id, _)) = part.split_once('"') {
                seen.insert(id.to_string());
            }
        }
        if !line.starts_with('#') {
            continue;
        }
        let base = anchor(line.trim_start_matches('#'));
        let mut a = base.clone();
        let mut k = 1;
        while seen.contains(&a) {
            a = format!("{base}-{k}");
            k += 1;
        }
        seen.insert(a);
    }
    seen
}

#[test]
fn every_relative_link_in_the_docs_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files(root) {
        let text = std::fs::read_to_string(&file).expect("a Markdown file");
        for (line, target) in links(&text) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target.as_str(), None),
            };
            let dest = if path.is_empty() {
                file.clone()
            } else {
                file.parent().expect("a folder").join(path)
            };
            let name = file
                .strip_prefix(root)
                .unwrap_or(&file)
                .display()
                .to_string();
            if !dest.exists() {
                broken.push(format!("{name}:{line}: {target}: no such file"));
                continue;
            }
            if let Some(f) = fragment
                && dest.extension().is_some_and(|e| e == "md")
            {
                let page = std::fs::read_to_string(&dest).expect("the linked page");
                if !anchors(&page).contains(f) {
                    broken.push(format!("{name}:{line}: {target}: no such heading"));
                }
            }
        }
    }
    assert!(checked > 50, "links found: {checked}");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_follow_github() {
    assert_eq!(
        anchor(" Timelines and waveforms"),
        "timelines-and-waveforms"
    );
    assert_eq!(anchor("One-page HTML report"), "one-page-html-report");
    assert_eq!(
        anchor("SCI: `emu reproduce sci-…`"),
        "sci-emu-reproduce-sci-"
    );
    let page = "# A\n## A\n```\n# not a heading\n```\n<a id=\"x\"></a>\n";
    assert_eq!(
        anchors(page),
        ["a", "a-1", "x"].into_iter().map(String::from).collect()
    );
    assert_eq!(
        links("see [x](a.md#b) and `[y](c.md)`\n```\n[z](d.md)\n```\n"),
        vec![(1, "a.md#b".to_string())]
    );
}
