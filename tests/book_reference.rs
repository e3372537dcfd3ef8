//! The user guide's reference pages (`book/src/reference/`) are what the types give
//! (`emu::family::reference`): every key of the topology and traffic files and every
//! field of the report, with the doc comments as descriptions. A page that differs
//! fails; `EMU_WRITE_BOOK_REFERENCE=1` rewrites them.

use std::path::Path;

#[test]
fn the_reference_pages_are_generated_from_the_types() {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src");
    let write = std::env::var_os("EMU_WRITE_BOOK_REFERENCE").is_some();
    let mut stale = Vec::new();
    for (path, now) in emu::family::reference::pages() {
        let file = book.join(path);
        if write {
            std::fs::write(&file, &now).unwrap();
        }
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        if text != now {
            stale.push(path);
        }
    }
    assert!(
        stale.is_empty(),
        "{stale:?} differ from what the types give: rerun with \
         EMU_WRITE_BOOK_REFERENCE=1 cargo test --release --test integration book_reference::"
    );
}

/// Every key and field has a description: a doc comment on its type.
#[test]
fn every_key_and_field_is_described() {
    for (path, page) in emu::family::reference::pages() {
        for line in page
            .lines()
            .filter(|l| l.starts_with("| `") || l.starts_with("| [`"))
        {
            assert!(!line.ends_with("| — |"), "{path}: no description: {line}");
        }
    }
}
