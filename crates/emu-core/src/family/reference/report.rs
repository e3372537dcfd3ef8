//! The report-fields page: every field of the JSON report, from the schema
//! [`crate::family::report_schema`] derives from the report types. A type used in
//! several places (a latency summary) is listed once, under its own name.

use super::markdown::{code, paragraph, table};
use super::schema::{Field, Walker, type_anchor};
use serde_json::Value;
use std::collections::BTreeSet;

/// Fields whose keys another page lists: the configurations the report echoes.
const ELSEWHERE: [(&str, &str); 2] = [
    ("topology.config", "topology-keys.md"),
    ("traffic.config", "traffic-keys.md"),
];

/// A walker of the report schema that lists `shared` types under their own names.
fn walker(schema: &Value, shared: BTreeSet<String>) -> Walker<'_> {
    let mut w = Walker::new(schema, true);
    w.shared = shared;
    w.elsewhere = ELSEWHERE.iter().map(|(p, _)| p.to_string()).collect();
    w
}

/// The rows of shared type `name`, paths from the type.
fn type_rows(w: &Walker<'_>, name: &str) -> Vec<Field> {
    let mut rows = Vec::new();
    let Some(def) = w.def(name) else {
        return rows;
    };
    if def.get("properties").is_some() {
        w.keys(def, "", "", &mut rows);
    } else {
        w.walk(def, "", false, &mut rows);
        rows.remove(0);
        for r in &mut rows {
            r.path = r.path.trim_start_matches('.').to_string();
        }
    }
    rows
}

/// The types listed under their own names: those used in more than one place, and the
/// alternatives of a field that is one of several types. Found by walking until the
/// set stops changing (a type inside a shared one is used once per use of it).
fn shared_types(schema: &Value) -> BTreeSet<String> {
    let mut shared = BTreeSet::new();
    for _ in 0..8 {
        let w = walker(schema, shared.clone());
        let mut rows = Vec::new();
        w.keys(schema, "", "", &mut rows);
        for name in &shared {
            type_rows(&w, name);
        }
        let mut next: BTreeSet<String> = w
            .uses()
            .into_iter()
            .filter(|(name, n)| {
                *n >= 2 && w.def(name).is_some_and(|d| d.get("properties").is_some())
            })
            .map(|(name, _)| name)
            .collect();
        next.extend(w.alternative_types());
        if next == shared {
            break;
        }
        shared = next;
    }
    shared
}

/// The cells of `field`'s row; its path links to its own section if `linked`.
fn row(field: &Field, linked: bool) -> Vec<String> {
    let mut kind = field.kind.clone();
    if field.nullable && !kind.contains("null") {
        kind.push_str(" or null");
    }
    if !field.required {
        kind.push_str(", optional");
    }
    let mut description = field.description.clone();
    if let Some((_, page)) = ELSEWHERE.iter().find(|(p, _)| *p == field.path) {
        description.push_str(&format!(" Its keys: [{page}]({page})."));
    }
    for (v, meaning) in field.values.iter() {
        description.push_str(&format!(" `{v}`: {meaning}"));
    }
    let path = if linked {
        format!("[{}](#{})", code(&field.path), field.path)
    } else {
        code(&field.path)
    };
    vec![path, kind, description]
}

/// A table of `fields`, the paths in `linked` linking to their sections.
fn field_table(fields: &[Field], linked: &[String]) -> String {
    let rows: Vec<Vec<String>> = fields
        .iter()
        .map(|f| row(f, linked.contains(&f.path)))
        .collect();
    table(&["field", "type", "description"], &rows)
}

/// The report-fields page.
pub(super) fn report_fields() -> String {
    let schema = crate::family::report_schema();
    let w = walker(&schema, shared_types(&schema));
    let version = schema
        .pointer("/properties/schema/const")
        .map(Value::to_string)
        .unwrap_or_default();
    let mut page = super::generated(
        "Report fields",
        "the report types (`emu_core::family::report_schema`, the same schema as \
         [docs/report-schema.json](../../../docs/report-schema.json))",
    );
    page.push_str(&format!(
        "Every field of the JSON report that `emu --json FILE` writes (schema {version}). \
         [Reading the report](../report.md) says what the figures mean and in which units; \
         this page lists where each one is. The configuration the report echoes is listed \
         in [Topology keys](topology-keys.md) and [Traffic keys](traffic-keys.md).\n\n\
         - **field** is the path from the top of the report; `[]` stands for each entry \
         of an array.\n\
         - **type** is the JSON type; *optional* fields are absent when they do not apply \
         (the description says when), and a type written as a name is listed under \
         [Shared types](#shared-types). A top-level field that is an object or an array \
         of objects has a section of its own below: its name links to it.\n\n"
    ));
    let mut sections: Vec<(String, Vec<Field>)> = Vec::new();
    let mut top = Vec::new();
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (key, p) in props {
            let mut rows = Vec::new();
            w.walk(p, key, required.contains(&key.as_str()), &mut rows);
            let head = rows.remove(0);
            if !rows.is_empty() {
                sections.push((key.clone(), rows));
            }
            top.push(head);
        }
    }
    page.push_str("## Top level\n\n");
    let linked: Vec<String> = sections.iter().map(|(k, _)| k.clone()).collect();
    page.push_str(&field_table(&top, &linked));
    for (key, rows) in &sections {
        page.push_str(&format!("## `{key}`\n\n"));
        page.push_str(&field_table(rows, &[]));
    }
    page.push_str("## Shared types\n\nTypes used in more than one place, or one of several types a field may be.\n\n");
    for name in &w.shared {
        page.push_str(&format!(
            "<a id=\"{}\"></a>\n\n### `{name}`\n\n",
            type_anchor(name)
        ));
        if let Some(d) = w
            .def(name)
            .and_then(|d| d.get("description"))
            .and_then(Value::as_str)
        {
            page.push_str(&paragraph(d));
            page.push_str("\n\n");
        }
        page.push_str(&field_table(&type_rows(&w, name), &[]));
    }
    page
}
