//! Finds every place of a TOML document that can be mutated: each leaf value, each list
//! (an array or an array of tables) and each table.

use toml_edit::{DocumentMut, Item, Value};

use crate::keypath::KeyPath;

/// What sits at a target's path.
#[derive(Clone, Debug)]
pub enum TargetKind {
    /// A string, number, boolean or date: its value.
    Scalar(Value),
    /// An array (of values) or an array of tables, with its length.
    List(usize),
    /// A table, an inline table or one table of an array of tables (the root included).
    Table,
}

/// A place in the document and what is there.
#[derive(Clone, Debug)]
pub struct Target {
    /// Where it is.
    pub path: KeyPath,
    /// What it is.
    pub kind: TargetKind,
}

impl Target {
    /// True for the leaf keys: scalars and lists (lists are leaves and containers both).
    pub fn is_leaf(&self) -> bool {
        !matches!(self.kind, TargetKind::Table)
    }
}

/// Every target of the document, in document order, parents before their children.
pub fn targets(doc: &DocumentMut) -> Vec<Target> {
    let mut out = Vec::new();
    visit(doc.as_item(), KeyPath::root(), &mut out);
    out
}

fn visit(item: &Item, path: KeyPath, out: &mut Vec<Target>) {
    match item {
        Item::None => {}
        Item::Table(table) => {
            out.push(Target {
                path: path.clone(),
                kind: TargetKind::Table,
            });
            for (key, child) in table.iter() {
                visit(child, path.key(key), out);
            }
        }
        Item::ArrayOfTables(tables) => {
            out.push(Target {
                path: path.clone(),
                kind: TargetKind::List(tables.len()),
            });
            for (i, table) in tables.iter().enumerate() {
                out.push(Target {
                    path: path.index(i),
                    kind: TargetKind::Table,
                });
                for (key, child) in table.iter() {
                    visit(child, path.index(i).key(key), out);
                }
            }
        }
        Item::Value(value) => visit_value(value, path, out),
    }
}

fn visit_value(value: &Value, path: KeyPath, out: &mut Vec<Target>) {
    match value {
        Value::Array(array) => {
            out.push(Target {
                path: path.clone(),
                kind: TargetKind::List(array.len()),
            });
            for (i, element) in array.iter().enumerate() {
                visit_value(element, path.index(i), out);
            }
        }
        Value::InlineTable(table) => {
            out.push(Target {
                path: path.clone(),
                kind: TargetKind::Table,
            });
            for (key, child) in table.iter() {
                visit_value(child, path.key(key), out);
            }
        }
        scalar => out.push(Target {
            path,
            kind: TargetKind::Scalar(scalar.clone()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<String> {
        let doc: DocumentMut = text.parse().expect("test document parses");
        targets(&doc)
            .iter()
            .filter(|t| t.is_leaf())
            .map(|t| t.path.to_string())
            .collect()
    }

    #[test]
    fn finds_nested_tables_arrays_and_arrays_of_tables() {
        let text = r#"
description = "d"
[network]
kind = "sci_ring"
[network.mix]
address = 0.8
[terminals]
saturated = [0, 3]
[[faults.link_down]]
at_us = 5
link = { from = 1, to = [2] }
"#;
        assert_eq!(
            paths(text),
            [
                "description",
                "network.kind",
                "network.mix.address",
                "terminals.saturated",
                "terminals.saturated[0]",
                "terminals.saturated[1]",
                "faults.link_down",
                "faults.link_down[0].at_us",
                "faults.link_down[0].link.from",
                "faults.link_down[0].link.to",
                "faults.link_down[0].link.to[0]",
            ]
        );
    }

    #[test]
    fn finds_every_table_once() {
        let doc: DocumentMut = "a = 1\n[b.c]\nd = { e = 1 }\n"
            .parse()
            .expect("test document parses");
        let tables: Vec<String> = targets(&doc)
            .iter()
            .filter(|t| !t.is_leaf())
            .map(|t| t.path.to_string())
            .collect();
        assert_eq!(tables, ["(root)", "b", "b.c", "b.c.d"]);
    }
}
