//! A report section a network family adds of its own: a switch fabric's per-port
//! throughput and credit figures, a relay ring's ball counts. The report holds them in
//! the family's order, writes each under its own JSON key (at one place in the report,
//! after the per-node section), and asks each for its header lines, its table and its
//! warnings in the text form.

use std::fmt::Debug;
use std::sync::Arc;

/// One section of a report that only one family's runs have.
pub trait FamilySection: erased_serde::Serialize + Debug + Send + Sync {
    /// The section's key in the JSON report (e.g. `"fabric"`).
    fn key(&self) -> &'static str;
    /// Lines shown in the text report's header in place of the generic throughput
    /// line (the fairness line follows them), as (label, text); empty to keep the
    /// generic one.
    fn header_lines(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    /// The section's table in the text report, after the per-node table.
    fn write_table(&self, out: &mut String);
    /// Warnings to print at the end of the text report.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
}

erased_serde::serialize_trait_object!(FamilySection);

/// A family's sections, in its order: serialised as a map from each section's key to the
/// section (flattened into the report, so each key is a top-level field).
#[derive(Clone, Debug, Default)]
pub struct FamilySections(pub Vec<Arc<dyn FamilySection>>);

impl FamilySections {
    /// No sections.
    pub fn none() -> FamilySections {
        FamilySections(Vec::new())
    }

    /// The section under `key`, if the report has one.
    pub fn get(&self, key: &str) -> Option<&dyn FamilySection> {
        self.0.iter().find(|s| s.key() == key).map(|s| &**s)
    }

    /// True if there is no section.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl serde::Serialize for FamilySections {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for s in &self.0 {
            map.serialize_entry(s.key(), &**s)?;
        }
        map.end()
    }
}

/// The schema of the sections alone is an object with no properties of its own: each
/// family adds its sections' schemas to the report's (`family::report_schema`).
impl schemars::JsonSchema for FamilySections {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "FamilySections".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object" })
    }
}
