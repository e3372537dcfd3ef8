//! The validation pages: one Markdown page per source document, generated from the
//! stored JSON of `emu reproduce all --json` and a provenance file, never typed.
//!
//! [`Results::parse`] reads the JSON back (typed; a file the renderer cannot read is a
//! [`PagesError`]), grouping its reports by the document their section names;
//! [`Provenance::parse`] reads where the results came from; [`render`] writes the
//! pages of [`DIR`]: an index with one table of counts ([`counts_table`], which the
//! project's README carries too) and a page per document with every row of every
//! table. `tools/validation-pages.sh` regenerates the inputs and the pages.

mod document_page;
pub mod documents;
mod error;
pub mod index;
pub mod input;
mod markdown;

pub use documents::{DOCUMENTS, Document};
pub use error::PagesError;
pub use index::{Counts, counts_table};
pub use input::{Form, Provenance, Rerun, Results};

/// Where the pages go, relative to the repository's root.
pub const DIR: &str = "book/src/validation";

/// Where the stored inputs are, relative to the repository's root.
pub const INPUTS: &str = "docs/validation";

/// The command that rewrites the checked-in pages from the stored inputs.
pub const REGENERATE: &str =
    "EMU_WRITE_VALIDATION_PAGES=1 cargo test --release --test integration validation_pages::";

/// The stored results (`stored`, the JSON of `emu reproduce all --json`) with the
/// reports of `reruns` (each the JSON of `emu reproduce NAME --json`) in place of the
/// stored reports of the same experiments; the other reports, and the order, are kept.
/// Formatted as `emu reproduce --json` writes it. An experiment the stored results lack
/// is an error: a rerun replaces, it does not add.
pub fn splice(stored: &str, reruns: &[&str]) -> Result<String, PagesError> {
    let mut all: serde_json::Value = serde_json::from_str(stored)?;
    for text in reruns {
        let new: serde_json::Value = serde_json::from_str(text)?;
        for report in new["reports"].as_array().into_iter().flatten() {
            let name = &report["experiment"];
            let slot = all["reports"]
                .as_array_mut()
                .and_then(|r| r.iter_mut().find(|r| r["experiment"] == *name))
                .ok_or_else(|| PagesError::NotStored {
                    experiment: name.as_str().unwrap_or_default().to_string(),
                })?;
            *slot = report.clone();
        }
    }
    Ok(serde_json::to_string_pretty(&all)?)
}

/// One generated page: its file name in [`DIR`] and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// The file name, e.g. `inmos-ch6.md`.
    pub file: &'static str,
    /// The Markdown.
    pub text: String,
}

/// Every page: the index first, then one per document in the order of [`DOCUMENTS`].
/// The same inputs give the same bytes.
pub fn render(results: &Results, provenance: &Provenance) -> Vec<Page> {
    let mut pages = vec![Page {
        file: index::FILE,
        text: index::page(results, provenance),
    }];
    for group in &results.documents {
        pages.push(Page {
            file: group.document.file,
            text: document_page::page(group, &results.emu_version, provenance),
        });
    }
    pages
}

/// Reads the stored inputs from `dir` (`results.json` and `provenance.toml`) and
/// renders the pages.
pub fn render_dir(dir: &std::path::Path) -> Result<Vec<Page>, PagesError> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).map_err(|source| PagesError::Read { path, source })
    };
    let results = Results::parse(&read("results.json")?)?;
    let provenance = Provenance::parse(&read("provenance.toml")?)?;
    Ok(render(&results, &provenance))
}
