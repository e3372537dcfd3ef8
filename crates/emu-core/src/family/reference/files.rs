//! The topology-keys and traffic-keys pages: one table per section of a file, and per
//! network kind of `[network]`, from the schemas schemars derives from
//! [`TopologyConfig`] and [`TrafficConfig`], with each key's bounds from
//! [`crate::network::bounds`].

use super::markdown::{code, paragraph, table};
use super::schema::{Field, Walker};
use crate::config::TrafficConfig;
use crate::family::{FAMILIES, Family, TRAFFIC_SECTIONS};
use crate::network::TopologyConfig;
use serde_json::Value;

/// The columns of a key table.
const COLUMNS: [&str; 5] = ["key", "type", "default", "takes", "description"];

/// The schema of a configuration type, as a file is read (defaults included).
fn schema_of<T: schemars::JsonSchema>() -> Value {
    schemars::generate::SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// What the top of both pages says about the columns.
const COLUMNS_EXPLAINED: &str = "\
- **key** is the path `--set` takes (`--set network.dimensions=4`); `[]` stands for \
each entry of a list (`faults.link_down[].at_us` is the `at_us` of every entry of \
`faults.link_down`).
- **default** is what a file that leaves the key out gets: *required* keys have none, \
and *not set* means that leaving the key out has the meaning its description gives.
- **takes** is what emu accepts. Anything else is refused before the run starts, with \
the file, line, key and range in the message (exit 2).
- **description** is the doc comment of the key in the configuration types, with the \
section of the source document it follows ([docs/sources.md](../../../docs/sources.md) \
lists the documents).
";

/// The cells of `field`'s row for a network of `kind` (`""` for a traffic key or a
/// shared section).
fn row(field: &Field, kind: &str) -> Vec<String> {
    let takes = crate::network::bounds::takes(kind, &field.key());
    // A list the bounds narrow (a torus's wrap) keeps only the values they name.
    let values: Vec<&(String, String)> = field
        .values
        .iter()
        .filter(|(v, _)| {
            takes
                .as_ref()
                .is_none_or(|t| t.contains(&format!("\"{v}\"")))
        })
        .collect();
    let takes = takes.unwrap_or_else(|| {
        if !values.is_empty() {
            let quoted: Vec<String> = values.iter().map(|(v, _)| format!("\"{v}\"")).collect();
            quoted.join(", ")
        } else if field.kind == "boolean" {
            "true or false".to_string()
        } else {
            String::new()
        }
    });
    let default = if field.required {
        "*required*".to_string()
    } else {
        match field.default.as_deref() {
            Some(d) => code(d),
            // A table's keys give their own defaults.
            None if field.kind == "table" => String::new(),
            None => "*not set*".to_string(),
        }
    };
    let mut description = field.description.clone();
    for (v, meaning) in values.iter().filter(|(_, m)| !m.is_empty()) {
        description.push_str(&format!(" `{v}`: {meaning}"));
    }
    vec![
        code(&field.path),
        field.kind.clone(),
        default,
        takes,
        description,
    ]
}

/// A key table of `fields` for a network of `kind`.
fn key_table(fields: &[Field], kind: &str) -> String {
    let rows: Vec<Vec<String>> = fields.iter().map(|f| row(f, kind)).collect();
    table(&COLUMNS, &rows)
}

/// The families that read topology section `section`, in words.
fn readers(section: &str) -> String {
    let names: Vec<&str> = FAMILIES
        .iter()
        .filter(|f| f.topology_sections().contains(&section))
        .map(|f| f.name())
        .collect();
    names.join(", ")
}

/// The schema of `[network]`'s variants, each with its kind.
fn network_kinds(schema: &Value) -> Vec<(&Value, String)> {
    schema
        .pointer("/$defs/NetworkConfig/oneOf")
        .and_then(Value::as_array)
        .map(|variants| {
            variants
                .iter()
                .filter_map(|v| {
                    let kind = v.pointer("/properties/kind/const")?.as_str()?;
                    Some((v, kind.to_string()))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The family of network kind `kind`.
fn family_of(kind: &str) -> Option<&'static dyn Family> {
    FAMILIES.iter().copied().find(|f| f.kinds().contains(&kind))
}

/// The topology-keys page.
pub(super) fn topology_keys() -> String {
    let schema = schema_of::<TopologyConfig>();
    let walker = Walker::new(&schema, false);
    let mut page = super::generated(
        "Topology keys",
        "`crates/emu-core/src/network/topology.rs`, each kind's `[network]` table in \
         `crates/emu-core/src/network/kinds/*.rs` and the part configurations in \
         `crates/emu-core/src/parts/*/config.rs`",
    );
    page.push_str(
        "Every key a topology file (`topologies/*.toml`) can have. \
         [Topology and traffic files](../files/index.md) explains how to write one, and the \
         family pages say what the keys do together.\n\n",
    );
    page.push_str(COLUMNS_EXPLAINED);
    page.push_str(
        "\n## Families and their sections\n\n\
         A topology file has a `description`, a `[network]` table whose `kind` picks the \
         network, and the sections its family reads. A section the family does not read \
         is an error that names the section and the families that read it (exit 2).\n\n",
    );
    let mut rows = Vec::new();
    for (_, kind) in network_kinds(&schema) {
        let Some(family) = family_of(&kind) else {
            continue;
        };
        let sections: Vec<String> = family
            .topology_sections()
            .iter()
            .map(|s| format!("[`[{s}]`](#{s})"))
            .collect();
        rows.push(vec![
            format!("[`{kind}`](#{kind})"),
            family.name().to_string(),
            if sections.is_empty() {
                "none".to_string()
            } else {
                sections.join(", ")
            },
        ]);
    }
    page.push_str(&table(
        &[
            "`network.kind`",
            "family",
            "sections it reads besides `[network]`",
        ],
        &rows,
    ));
    page.push_str("## Top level\n\n");
    let mut top = Vec::new();
    for key in ["description", "network"] {
        if let Some(p) = schema.pointer(&format!("/properties/{key}")) {
            let mut rows = Vec::new();
            walker.walk(p, key, key == "network", &mut rows);
            top.extend(rows.into_iter().take(1));
        }
    }
    page.push_str(&key_table(&top, ""));
    page.push_str(
        "## `[network]`\n\n`network.kind` picks one of the networks below; each has keys \
         of its own.\n\n",
    );
    for (variant, kind) in network_kinds(&schema) {
        page.push_str(&format!("### `{kind}`\n\n"));
        if let Some(d) = variant.get("description").and_then(Value::as_str) {
            page.push_str(&paragraph(d));
            page.push_str("\n\n");
        }
        let mut fields = Vec::new();
        walker.keys(variant, "network", "", &mut fields);
        fields.retain(|f| f.path != "network.kind");
        page.push_str(&key_table(&fields, &kind));
    }
    for section in TopologyConfig::SECTIONS {
        page.push_str(&format!("## `[{section}]`\n\n"));
        let Some(p) = schema.pointer(&format!("/properties/{section}")) else {
            continue;
        };
        let def = p
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix("#/$defs/"))
            .and_then(|name| walker.def(name));
        if let Some(d) = def
            .and_then(|d| d.get("description"))
            .and_then(Value::as_str)
        {
            page.push_str(&paragraph(d));
            page.push_str("\n\n");
        }
        page.push_str(&format!("Read by: {}.\n\n", readers(section)));
        let mut fields = Vec::new();
        walker.walk(p, section, false, &mut fields);
        fields.retain(|f| f.path != *section);
        page.push_str(&key_table(&fields, ""));
    }
    page
}

/// The families that read traffic section `section`, in words.
fn traffic_readers(section: &str) -> String {
    let names: Vec<&str> = FAMILIES
        .iter()
        .filter(|f| f.traffic_sections().contains(&section))
        .map(|f| f.name())
        .collect();
    names.join(", ")
}

/// A section of a traffic file that is one of several kinds (`[pattern]`,
/// `[injection]`): a table of the kinds, then one of their keys.
fn kinds_section(walker: &Walker<'_>, schema: &Value, section: &str, read_by: &str) -> String {
    let mut out = String::new();
    let Some(p) = schema.pointer(&format!("/properties/{section}")) else {
        return out;
    };
    let mut fields = Vec::new();
    walker.walk(p, section, true, &mut fields);
    let Some(head) = fields.first() else {
        return out;
    };
    out.push_str(&paragraph(&head.description));
    out.push_str("\n\n");
    out.push_str(read_by);
    let kind_key = format!("{section}.kind");
    let mut kinds = Vec::new();
    if let Some(kind) = fields.iter().find(|f| f.path == kind_key) {
        for (name, meaning) in &kind.values {
            let keys: Vec<String> = fields
                .iter()
                .filter(|f| f.description.starts_with(&format!("(`kind = \"{name}\"`)")))
                .map(|f| code(&f.path))
                .collect();
            kinds.push(vec![
                code(&format!("kind = \"{name}\"")),
                if keys.is_empty() {
                    String::new()
                } else {
                    keys.join(", ")
                },
                meaning.clone(),
            ]);
        }
    }
    out.push_str(&table(&["kind", "its keys", "what it does"], &kinds));
    let keys: Vec<Field> = fields
        .into_iter()
        .skip(1)
        .filter(|f| f.path != kind_key)
        .collect();
    out.push_str(&key_table(&keys, ""));
    out
}

/// The traffic-keys page.
pub(super) fn traffic_keys() -> String {
    let schema = schema_of::<TrafficConfig>();
    let walker = Walker::new(&schema, false);
    let mut page = super::generated("Traffic keys", "`crates/emu-core/src/config/traffic.rs`");
    page.push_str(
        "Every key a traffic file (`traffic/*.toml`) can have. [Traffic](../files/traffic.md) \
         explains how to write one.\n\n",
    );
    page.push_str(COLUMNS_EXPLAINED);
    page.push_str(
        "\n## Families and the sections they read\n\n\
         A section a family does not read must be left out or at its default: anything \
         else is an error that names the section and says why (exit 2). A kind of \
         pattern or injection that a family does not take is refused the same way.\n\n",
    );
    let mut rows = Vec::new();
    for family in FAMILIES {
        let sections: Vec<String> = family
            .traffic_sections()
            .iter()
            .map(|s| format!("[`{s}`](#{s})"))
            .collect();
        rows.push(vec![family.name().to_string(), sections.join(", ")]);
    }
    page.push_str(&table(&["family", "sections it reads"], &rows));
    for section in TRAFFIC_SECTIONS {
        let Some(p) = schema.pointer(&format!("/properties/{section}")) else {
            continue;
        };
        let is_table = p.get("$ref").is_some();
        page.push_str(&if is_table {
            format!("## `[{section}]`\n\n")
        } else {
            format!("## `{section}`\n\n")
        });
        let read_by = format!("Read by: {}.\n\n", traffic_readers(section));
        if ["pattern", "injection"].contains(section) {
            page.push_str(&kinds_section(&walker, &schema, section, &read_by));
            continue;
        }
        let mut fields = Vec::new();
        walker.walk(p, section, false, &mut fields);
        if is_table {
            if let Some(head) = fields.first() {
                page.push_str(&paragraph(&head.description));
                page.push_str("\n\n");
            }
            fields.remove(0);
        }
        page.push_str(&read_by);
        page.push_str(&key_table(&fields, ""));
    }
    page.push_str("## Top level\n\n");
    let mut top = Vec::new();
    if let Some(p) = schema.pointer("/properties/description") {
        walker.walk(p, "description", false, &mut top);
    }
    page.push_str(&key_table(&top, ""));
    page
}
