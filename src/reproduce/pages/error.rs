//! Why the validation pages could not be rendered from the stored inputs.

use std::path::PathBuf;

/// A stored input the renderer cannot use.
#[derive(Debug, thiserror::Error)]
pub enum PagesError {
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The results are not the JSON form of `emu reproduce --json`.
    #[error("results: {0}")]
    Json(#[from] serde_json::Error),
    /// The results carry another schema (an older or newer form).
    #[error("results: schema `{found}`, not `{expected}`")]
    Schema {
        /// The schema the file names.
        found: String,
        /// The one this renderer reads.
        expected: &'static str,
    },
    /// The provenance file does not parse.
    #[error("provenance: {0}")]
    Toml(#[from] toml::de::Error),
    /// A report's section names none of the source documents.
    #[error("{experiment}: section `{section}` names none of the source documents")]
    UnknownDocument {
        /// The experiment.
        experiment: String,
        /// Its section.
        section: String,
    },
    /// A rerun's experiment is not among the stored results.
    #[error("{experiment}: not in the stored results, so a rerun cannot replace it")]
    NotStored {
        /// The experiment.
        experiment: String,
    },
    /// A row's stored pass/fail differs from what its numbers and tolerance give now
    /// (the tolerances' meaning changed since the results were written).
    #[error(
        "{experiment}: {parameter}: stored as {}, but its numbers {} its tolerance now",
        if *stored { "a pass" } else { "a miss" },
        if *stored { "miss" } else { "meet" }
    )]
    VerdictChanged {
        /// The experiment.
        experiment: String,
        /// The row's parameter.
        parameter: String,
        /// The stored pass/fail.
        stored: bool,
    },
}
