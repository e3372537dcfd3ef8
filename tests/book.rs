//! Every command the user guide (`book/src/`) and the README show runs, and prints what
//! the page shows: the guide cannot drift from the program.
//!
//! A command is a `$ ` line in a ` ```console ` block, then `? N` when it must exit N
//! rather than 0, then the output it must print (stdout and stderr together, as a
//! terminal shows them). Output that ends with a newline ends with a blank line
//! before the block's closing fence (or before the next `$ ` line), unless its last
//! expected line is `...`. In the expected output, `[..]` stands for the rest of a
//! line's varying text (a wall time, a thread count) and a line `...` for any number
//! of lines: [trycmd](https://docs.rs/trycmd)'s syntax, which runs the pages.
//!
//! Each page runs, with the emu under test first on `PATH`, in a fresh directory of its own, holding copies of the files in
//! `book/inputs/PAGE/` (for example the topology file a page writes out and then runs).
//! So a command that writes a file leaves nothing in the repository.
//!
//! A `$ ` line outside a console block, or an `emu` command in a `sh` block, would be
//! shown without being run: both fail the test. So does a command that trycmd skips
//! (a program other than emu and [`OTHER_PROGRAMS`]).
//!
//! `EMU_BOOK_PAGES=files-sci,running` runs only the pages whose name (the path under
//! `book/src` with `/` as `-`, or `README`) contains one of those words.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The programs besides emu that a page may run (GNU parallel plays a cluster).
const OTHER_PROGRAMS: &[&str] = &[
    "parallel", "sh", "ls", "cat", "head", "tail", "wc", "grep", "cmp", "diff", "cut",
];

/// The Markdown pages whose commands run: the README and every page of the guide.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md")];
    let mut dirs = vec![root.join("book/src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("a readable directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The page with everything but its console blocks blanked, line for line (so that
/// trycmd's line numbers are the page's), or the commands shown but not run.
fn console_blocks(text: &str) -> Result<String, Vec<String>> {
    let mut out = String::new();
    let mut unrun = Vec::new();
    let mut fence: Option<(String, bool)> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match &fence {
            None if trimmed.starts_with("```") => {
                let info = trimmed.trim_start_matches('`').trim();
                let console = info.split(',').next() == Some("console");
                fence = Some((info.to_string(), console));
                out.push_str(if console { line } else { "" });
            }
            Some((_, console)) if trimmed.starts_with("```") => {
                out.push_str(if *console { line } else { "" });
                fence = None;
            }
            Some((info, true)) => {
                if info.contains("ignore") {
                    unrun.push(format!("line {}: a console block marked ignore", n + 1));
                }
                if let Some(command) = line.strip_prefix("$ ") {
                    let program = command
                        .split_whitespace()
                        .find(|word| !word.contains('='))
                        .unwrap_or("");
                    if program != "emu" && !OTHER_PROGRAMS.contains(&program) {
                        unrun.push(format!(
                            "line {}: `{program}` is not a program the test runs (emu, {})",
                            n + 1,
                            OTHER_PROGRAMS.join(", ")
                        ));
                    }
                }
                out.push_str(line);
            }
            Some((info, false)) => {
                let shell = matches!(info.as_str(), "sh" | "bash" | "shell");
                if trimmed.starts_with("$ ") || (shell && trimmed.starts_with("emu ")) {
                    unrun.push(format!(
                        "line {}: `{trimmed}` is shown in a ```{info} block, which does not run",
                        n + 1
                    ));
                }
                out.push_str("");
            }
            None => {}
        }
        out.push('\n');
    }
    if unrun.is_empty() {
        Ok(out)
    } else {
        Err(unrun)
    }
}

#[test]
fn every_command_in_the_guide_runs_and_prints_what_the_page_shows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sandbox = tempfile::tempdir().expect("a temporary directory");
    let cases = trycmd::TestCases::new();
    let emu = Path::new(env!("CARGO_BIN_EXE_emu"));
    // The binary's directory first on PATH, so that a command such as GNU parallel
    // finds the emu under test.
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(emu.parent().expect("a directory").to_path_buf())
        .chain(std::env::split_paths(&path));
    let path = std::env::join_paths(dirs).expect("a PATH");
    cases
        .register_bin("emu", emu)
        .env("PATH", path.to_string_lossy())
        .timeout(Duration::from_secs(300));
    // trycmd skips a command whose program it was not given: the other programs the
    // pages run, from PATH.
    for tool in OTHER_PROGRAMS {
        if let Some(found) = std::env::split_paths(&path)
            .map(|dir| dir.join(tool))
            .find(|p| p.is_file())
        {
            cases.register_bin(*tool, found);
        }
    }
    let only = std::env::var("EMU_BOOK_PAGES").ok();
    let mut unrun = Vec::new();
    let mut commands = 0;
    for page in pages(root) {
        let rel = page.strip_prefix(root).expect("under the root");
        // book/src/files/sci.md runs as files-sci.md in a directory of its own.
        let stem = rel
            .with_extension("")
            .strip_prefix("book/src")
            .unwrap_or(&rel.with_extension(""))
            .to_string_lossy()
            .replace('/', "-");
        if let Some(only) = &only
            && !only.split(',').any(|word| stem.contains(word.trim()))
        {
            continue;
        }
        let text = std::fs::read_to_string(&page).expect("a readable page");
        let blocks = match console_blocks(&text) {
            Ok(blocks) => blocks,
            Err(lines) => {
                unrun.extend(lines.into_iter().map(|l| format!("{}: {l}", rel.display())));
                continue;
            }
        };
        let count = blocks.lines().filter(|l| l.starts_with("$ ")).count();
        if count == 0 {
            continue;
        }
        commands += count;
        let case = sandbox.path().join(format!("{stem}.md"));
        std::fs::write(&case, blocks).expect("write the page's commands");
        let inputs = root.join("book/inputs").join(&stem);
        let base = case.with_extension("in");
        std::fs::create_dir(&base).expect("the page's directory");
        if inputs.is_dir() {
            for entry in std::fs::read_dir(&inputs).expect("a readable inputs directory") {
                let from = entry.expect("an entry").path();
                let name = from.file_name().expect("a file name");
                std::fs::copy(&from, base.join(name)).expect("copy an input file");
            }
        }
        // An empty expected-files directory: trycmd then runs the page in a copy of
        // `.in`, and checks no file it writes.
        std::fs::create_dir(case.with_extension("out")).expect("the sandbox marker");
        cases.case(&case);
    }
    assert!(
        unrun.is_empty(),
        "commands shown but not run:\n{}",
        unrun.join("\n")
    );
    assert!(
        commands > 0 || only.is_some(),
        "no console block found in README.md or book/src"
    );
    cases.run();
}
