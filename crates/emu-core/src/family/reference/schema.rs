//! Reference rows from a JSON Schema that schemars derived from a configuration or
//! report type: one [`Field`] per key, with its type in words, its default and its
//! description (the type's doc comment).

use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// One key of a file, or one field of the report.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Field {
    /// Its path from the top of the file or report (or of a shared type), `[]` marking
    /// a list's entries: `network.mix.address`, `faults.link_down[].at_us`.
    pub path: String,
    /// What it holds, in words (Markdown): `integer`, `list of integers`, `table`.
    pub kind: String,
    /// Whether the file or report must have it.
    pub required: bool,
    /// Whether the report may give `null` for it.
    pub nullable: bool,
    /// Its default as a file writes it; `None` without one.
    pub default: Option<String>,
    /// The names it takes when its type lists them, each with what it means.
    pub values: Vec<(String, String)>,
    /// What it is: its doc comment on one line.
    pub description: String,
}

impl Field {
    /// Its path without the list brackets, as error messages and the bounds table
    /// name it: `faults.link_down.at_us`.
    pub fn key(&self) -> String {
        self.path.replace("[]", "")
    }
}

/// A schema node seen through its reference and its `null` alternative.
struct Seen<'a> {
    /// The node that says what the value is.
    node: &'a Value,
    /// The `$defs` name of the type, if the node referred to one.
    name: Option<&'a str>,
    /// The first description met, from the use inwards to the type.
    description: String,
    /// The first default met.
    default: Option<&'a Value>,
    /// Whether `null` is allowed.
    nullable: bool,
}

/// Walks a schema into [`Field`]s.
pub(super) struct Walker<'a> {
    /// The schema's `$defs`.
    defs: &'a Map<String, Value>,
    /// Words for JSON (`object`, `array`) rather than TOML (`table`, `list`).
    json: bool,
    /// Types listed once under their own name, not expanded where they are used.
    pub shared: BTreeSet<String>,
    /// Paths not expanded: their fields are listed on another page.
    pub elsewhere: Vec<String>,
    /// How often each type was met where it is used (see [`Walker::uses`]).
    uses: RefCell<BTreeMap<String, usize>>,
    /// The types met as alternatives of a value that is one of several types (see
    /// [`Walker::alternative_types`]).
    alternatives: RefCell<BTreeSet<String>>,
}

/// The `$defs` name a node refers to.
fn ref_name(node: &Value) -> Option<&str> {
    node.get("$ref")?.as_str()?.strip_prefix("#/$defs/")
}

/// A node's `oneOf` or `anyOf` alternatives.
fn alternatives(node: &Value) -> Option<&Vec<Value>> {
    node.get("oneOf")
        .or_else(|| node.get("anyOf"))
        .and_then(Value::as_array)
}

/// A node's description, if it has one.
fn description(node: &Value) -> Option<String> {
    node.get("description")
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// True for a schema that allows only `null`.
fn is_null(node: &Value) -> bool {
    node.get("type").and_then(Value::as_str) == Some("null")
}

/// A node's type name, `null` left out of a list of types.
fn type_name(node: &Value) -> Option<&str> {
    match node.get("type")? {
        Value::String(s) => Some(s),
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null"),
        _ => None,
    }
}

/// A value as a TOML file writes it; `None` for a table or a null.
pub(super) fn toml_value(v: &Value) -> Option<String> {
    match v {
        Value::Null | Value::Object(_) => None,
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(format!("\"{s}\"")),
        Value::Array(items) => {
            let items: Option<Vec<String>> = items.iter().map(toml_value).collect();
            Some(format!("[{}]", items?.join(", ")))
        }
    }
}

/// The anchor of a shared type's heading on its page.
pub(super) fn type_anchor(name: &str) -> String {
    format!("type-{}", name.to_lowercase())
}

impl<'a> Walker<'a> {
    /// A walker of `schema` (a root schema with `$defs`), in JSON's words if `json`.
    pub fn new(schema: &'a Value, json: bool) -> Walker<'a> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        let defs = schema
            .get("$defs")
            .and_then(Value::as_object)
            .unwrap_or_else(|| EMPTY.get_or_init(Map::new));
        Walker {
            defs,
            json,
            shared: BTreeSet::new(),
            elsewhere: Vec::new(),
            uses: RefCell::new(BTreeMap::new()),
            alternatives: RefCell::new(BTreeSet::new()),
        }
    }

    /// The type `name` of `$defs`.
    pub fn def(&self, name: &str) -> Option<&'a Value> {
        self.defs.get(name)
    }

    /// How often each type was met where it is used, since the walker was made.
    pub fn uses(&self) -> BTreeMap<String, usize> {
        self.uses.borrow().clone()
    }

    /// The types met as the alternatives of a value that is one of several types told
    /// apart by their keys (not by a `kind`), since the walker was made: the reference
    /// lists each under its own name.
    pub fn alternative_types(&self) -> BTreeSet<String> {
        self.alternatives.borrow().clone()
    }

    /// `node` seen through references and its `null` alternative.
    fn see(&self, node: &'a Value) -> Seen<'a> {
        let mut seen = Seen {
            node,
            name: None,
            description: description(node).unwrap_or_default(),
            default: node.get("default"),
            nullable: false,
        };
        loop {
            let n = seen.node;
            if let Some((name, target)) = ref_name(n).and_then(|r| Some((r, self.defs.get(r)?))) {
                seen.name.get_or_insert(name);
                if seen.description.is_empty() {
                    seen.description = description(target).unwrap_or_default();
                }
                seen.default = seen.default.or_else(|| target.get("default"));
                seen.node = target;
                continue;
            }
            if let Some(alts) = alternatives(n) {
                let others: Vec<&Value> = alts.iter().filter(|a| !is_null(a)).collect();
                if others.len() == 1 && alts.len() == 2 {
                    seen.nullable = true;
                    seen.node = others[0];
                    continue;
                }
            }
            break;
        }
        if let Some(Value::Array(types)) = seen.node.get("type") {
            seen.nullable |= types.iter().any(|t| t == "null");
        }
        seen
    }

    /// A link to shared type `name`.
    fn link(name: &str) -> String {
        format!("[`{name}`](#{})", type_anchor(name))
    }

    /// What a value of `node` is, in words; plural for a list's items.
    fn words(&self, node: &'a Value, plural: bool) -> String {
        let seen = self.see(node);
        if let Some(name) = seen.name.filter(|n| self.shared.contains(*n)) {
            return Self::link(name);
        }
        let n = seen.node;
        let s = if plural { "s" } else { "" };
        if let Some(c) = n.get("const")
            && (type_name(n).is_none() || n.get("type").and_then(Value::as_str) == Some("string"))
        {
            return format!("`{c}`");
        }
        if let Some(alts) = alternatives(n) {
            if const_values(n).is_some() {
                return format!("string{s}");
            }
            let mut words: Vec<String> = Vec::new();
            for w in alts.iter().map(|a| self.words(a, plural)) {
                if !words.contains(&w) {
                    words.push(w);
                }
            }
            return words.join(" or ");
        }
        if let Some(Value::Array(tuple)) = n.get("prefixItems") {
            let words: Vec<String> = tuple.iter().map(|t| self.words(t, false)).collect();
            return format!("[{}]", words.join(", "));
        }
        match type_name(n) {
            Some("object") if self.json => format!("object{s}"),
            Some("object") => format!("table{s}"),
            Some("array") => {
                let list = if self.json { "array" } else { "list" };
                let items = match n.get("items") {
                    Some(items) => match n.get("maxItems").and_then(Value::as_u64) {
                        Some(len) if n.get("minItems").and_then(Value::as_u64) == Some(len) => {
                            format!("{len} {}", self.words(items, true))
                        }
                        _ => self.words(items, true),
                    },
                    None => "values".to_string(),
                };
                format!("{list}{s} of {items}")
            }
            Some(t) => format!("{t}{s}"),
            None => format!("value{s}"),
        }
    }

    /// The fields of `node` at `path`: its own row, then those of its keys, its list's
    /// entries or its variants, unless it is a shared type or listed elsewhere.
    pub fn walk(&self, node: &'a Value, path: &str, required: bool, out: &mut Vec<Field>) {
        let seen = self.see(node);
        if let Some(name) = seen.name {
            *self.uses.borrow_mut().entry(name.to_string()).or_default() += 1;
        }
        let mut field = Field {
            path: path.to_string(),
            kind: self.words(node, false),
            required,
            nullable: seen.nullable,
            default: seen.default.and_then(toml_value),
            values: Vec::new(),
            description: seen.description.clone(),
        };
        let n = seen.node;
        let shared = seen.name.is_some_and(|name| self.shared.contains(name));
        if shared || self.elsewhere.iter().any(|p| p == path) {
            out.push(field);
            return;
        }
        if let Some(values) = const_values(n) {
            field.values = values;
            out.push(field);
            return;
        }
        out.push(field);
        if n.get("properties").is_some()
            || n.get("additionalProperties").is_some_and(Value::is_object)
        {
            self.keys(n, path, "", out);
        } else if type_name(n) == Some("array") {
            if let Some(items) = n.get("items") {
                let inner = self.see(items);
                if let Some(name) = inner.name {
                    *self.uses.borrow_mut().entry(name.to_string()).or_default() += 1;
                }
                let named_shared = inner.name.is_some_and(|name| self.shared.contains(name));
                if inner.node.get("properties").is_some() && !named_shared {
                    self.keys(inner.node, &format!("{path}[]"), "", out);
                }
            }
        } else if let Some(alts) = alternatives(n) {
            self.variants(alts, path, out);
        }
    }

    /// The rows of the keys of object `node` under `path`, each description after
    /// `note`.
    pub fn keys(&self, node: &'a Value, path: &str, note: &str, out: &mut Vec<Field>) {
        let required: Vec<&str> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(each) = node.get("additionalProperties").filter(|a| a.is_object()) {
            self.walk(each, &format!("{path}.<name>"), false, out);
        }
        let Some(props) = node.get("properties").and_then(Value::as_object) else {
            return;
        };
        // Required keys first, then the others, each in name order.
        let ordered = props
            .iter()
            .filter(|(k, _)| required.contains(&k.as_str()))
            .chain(
                props
                    .iter()
                    .filter(|(k, _)| !required.contains(&k.as_str())),
            );
        for (key, p) in ordered {
            let at = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            let start = out.len();
            self.walk(p, &at, required.contains(&key.as_str()), out);
            if !note.is_empty() {
                for f in &mut out[start..] {
                    f.description = format!("{note} {}", f.description);
                }
            }
        }
    }

    /// The rows of a value that is one of `alts`: for variants told apart by a `kind`
    /// key, one row for `kind` and each variant's other keys; for others (each a
    /// shared type), nothing more (the row says which types).
    fn variants(&self, alts: &'a [Value], path: &str, out: &mut Vec<Field>) {
        let tagged: Option<Vec<(&Value, String)>> = alts
            .iter()
            .map(|a| {
                let v = self.see(a).node;
                let kind = v.pointer("/properties/kind/const")?.as_str()?.to_string();
                Some((v, kind))
            })
            .collect();
        let Some(tagged) = tagged else {
            let names = alts.iter().filter_map(|a| self.see(a).name);
            self.alternatives
                .borrow_mut()
                .extend(names.map(str::to_string));
            return;
        };
        out.push(Field {
            path: format!("{path}.kind"),
            kind: "string".into(),
            required: true,
            nullable: false,
            default: None,
            values: tagged
                .iter()
                .map(|(v, kind)| (kind.clone(), description(v).unwrap_or_default()))
                .collect(),
            description: "Which of the variants below it is.".into(),
        });
        for (v, kind) in tagged {
            let mut rows = Vec::new();
            self.keys(v, path, &format!("(`kind = \"{kind}\"`)"), &mut rows);
            out.extend(rows.into_iter().filter(|f| !f.path.ends_with(".kind")));
        }
    }
}

/// The string constants of a node whose alternatives are all string constants (an
/// enumeration), each with its description.
pub(super) fn const_values(node: &Value) -> Option<Vec<(String, String)>> {
    if let Some(Value::Array(values)) = node.get("enum") {
        return values
            .iter()
            .map(|v| Some((v.as_str()?.to_string(), String::new())))
            .collect();
    }
    alternatives(node)?
        .iter()
        .map(|a| {
            let c = a.get("const")?.as_str()?;
            Some((c.to_string(), description(a).unwrap_or_default()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schema_becomes_rows_with_words_defaults_and_values() {
        let schema = json!({
            "type": "object",
            "properties": {
                "size": { "description": "How big.", "type": "integer", "default": 4 },
                "mode": { "$ref": "#/$defs/Mode", "default": "fast" },
                "ends": {
                    "type": "array",
                    "items": { "$ref": "#/$defs/End" }
                },
                "gap": { "type": ["number", "null"] }
            },
            "required": ["size"],
            "$defs": {
                "Mode": {
                    "description": "A mode.",
                    "oneOf": [
                        { "type": "string", "const": "fast", "description": "Quick." },
                        { "type": "string", "const": "slow", "description": "Careful." }
                    ]
                },
                "End": {
                    "type": "object",
                    "properties": { "at": { "type": "number", "description": "When." } },
                    "required": ["at"]
                }
            }
        });
        let w = Walker::new(&schema, false);
        let mut rows = Vec::new();
        w.keys(&schema, "", "", &mut rows);
        let paths: Vec<&str> = rows.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["size", "ends", "ends[].at", "gap", "mode"]);
        assert_eq!(rows[1].kind, "list of tables");
        assert!(rows[2].required && !rows[3].required && rows[3].nullable);
        assert_eq!(rows[4].default.as_deref(), Some("\"fast\""));
        assert_eq!(rows[4].description, "A mode.");
        assert_eq!(
            rows[4].values[1],
            ("slow".to_string(), "Careful.".to_string())
        );
        assert_eq!(rows[0].default.as_deref(), Some("4"));
        assert_eq!(rows[2].key(), "ends.at");
    }
}
