//! The renderer's inputs: the stored JSON of `emu reproduce --json` (read back into
//! [`Report`]s, grouped by document) and the provenance file that says where it came
//! from.

use super::documents::{Document, document_of};
use super::error::PagesError;
use crate::reproduce::table::{Report, Row, SCHEMA, Table};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The JSON form, as `emu reproduce --json` writes it (fields the pages do not use,
/// such as the curves and each row's difference, are skipped).
#[derive(Deserialize)]
struct StoredResults {
    schema: String,
    emu_version: String,
    reports: Vec<StoredReport>,
}

#[derive(Deserialize)]
struct StoredReport {
    experiment: String,
    section: String,
    tables: Vec<StoredTable>,
}

#[derive(Deserialize)]
struct StoredTable {
    title: String,
    rows: Vec<StoredRow>,
    notes: Vec<String>,
}

#[derive(Deserialize)]
struct StoredRow {
    #[serde(flatten)]
    row: Row,
    pass: bool,
}

/// The stored results, grouped by document.
#[derive(Debug)]
pub struct Results {
    /// The version of emu that wrote them.
    pub emu_version: String,
    /// One group per document, in the order of
    /// [`DOCUMENTS`](super::documents::DOCUMENTS) (a document no report names has an
    /// empty group).
    pub documents: Vec<DocumentResults>,
}

/// The reports about one document.
#[derive(Debug)]
pub struct DocumentResults {
    /// The document.
    pub document: &'static Document,
    /// Its reports, in the order of the file (the order of `emu reproduce --list`).
    pub reports: Vec<Report>,
}

impl Results {
    /// Reads the JSON form of `emu reproduce --json`. Every row's stored pass/fail must
    /// be what its numbers and tolerance give, and every report's section must name a
    /// document.
    pub fn parse(json: &str) -> Result<Results, PagesError> {
        let stored: StoredResults = serde_json::from_str(json)?;
        if stored.schema != SCHEMA {
            return Err(PagesError::Schema {
                found: stored.schema,
                expected: SCHEMA,
            });
        }
        let mut documents: Vec<DocumentResults> = super::documents::DOCUMENTS
            .iter()
            .map(|document| DocumentResults {
                document,
                reports: Vec::new(),
            })
            .collect();
        for r in stored.reports {
            let Some(at) = document_of(&r.section)
                .and_then(|d| documents.iter().position(|g| g.document.name == d.name))
            else {
                return Err(PagesError::UnknownDocument {
                    experiment: r.experiment,
                    section: r.section,
                });
            };
            let report = report(r)?;
            documents[at].reports.push(report);
        }
        Ok(Results {
            emu_version: stored.emu_version,
            documents,
        })
    }
}

/// A stored report as a [`Report`] (without its curves), its verdicts checked.
fn report(r: StoredReport) -> Result<Report, PagesError> {
    let mut tables = Vec::new();
    for t in r.tables {
        let mut rows = Vec::new();
        for StoredRow { row, pass } in t.rows {
            if row.pass() != pass {
                return Err(PagesError::VerdictChanged {
                    experiment: r.experiment,
                    parameter: row.parameter,
                    stored: pass,
                });
            }
            rows.push(row);
        }
        tables.push(Table {
            title: t.title,
            rows,
            notes: t.notes,
        });
    }
    Ok(Report {
        experiment: r.experiment,
        section: r.section,
        tables,
        curves: Vec::new(),
    })
}

/// Which form of the experiments ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// `emu reproduce all`: the runs the published comparison rests on.
    Full,
    /// `emu reproduce all --quick`: the scaled-down runs the tests use.
    Quick,
}

/// Where the stored results came from (`docs/validation/provenance.toml`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// Full or quick.
    pub form: Form,
    /// The commit that was built and run.
    pub commit: String,
    /// When the run started (UTC).
    pub date: String,
    /// The command that wrote the results.
    pub command: String,
    /// The machine's CPU model.
    pub cpu: String,
    /// The machine's logical cores.
    pub cores: Option<u32>,
    /// Each experiment's wall time in seconds, as `emu reproduce` printed it.
    #[serde(default)]
    pub wall_time_s: BTreeMap<String, f64>,
    /// Experiments run again later (`tools/validation-pages.sh --only`), whose reports
    /// replaced the run's in the stored results; oldest first.
    #[serde(default)]
    pub rerun: Vec<Rerun>,
}

/// One later run of some experiments, stored in place of the first run's reports.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rerun {
    /// The experiments run again.
    pub experiments: Vec<String>,
    /// The commit that was built and run.
    pub commit: String,
    /// When the rerun started (UTC).
    pub date: String,
    /// The commands that wrote their results.
    pub command: String,
    /// Each experiment's wall time in seconds, as `emu reproduce` printed it.
    #[serde(default)]
    pub wall_time_s: BTreeMap<String, f64>,
}

impl Provenance {
    /// The wall time of `experiment` in seconds: the latest rerun's, else the run's.
    pub fn wall_time(&self, experiment: &str) -> Option<f64> {
        self.rerun
            .iter()
            .rev()
            .find(|r| r.experiments.iter().any(|e| e == experiment))
            .map_or_else(
                || self.wall_time_s.get(experiment).copied(),
                |r| r.wall_time_s.get(experiment).copied(),
            )
    }
}

impl Provenance {
    /// Reads the provenance file.
    pub fn parse(text: &str) -> Result<Provenance, PagesError> {
        Ok(toml::from_str(text)?)
    }
}
