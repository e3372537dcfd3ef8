//! GraphML topologies: a second syntax for a netlist (`network.kind = "netlist"`),
//! the format networkx, igraph, yEd and Gephi write.
//!
//! A GraphML file is told from TOML by its first character that is not blank: `<`,
//! which no TOML file starts with. It is read with `roxmltree` (no DTD, no entity
//! expansion) and translated into the TOML text of a netlist ([`translate`]), which the
//! rest of the configuration layer decodes as it decodes any topology file: `--set`
//! overrides, defaults and every check apply unchanged. Errors found in the GraphML
//! name the element (node or edge) and the attribute, with the XML's line and column.
//!
//! The mapping:
//! - every `<node>` is a C104 switch, in document order (switch i is the i-th node);
//! - every `<edge>` is one DS-Link between its two nodes; parallel edges are parallel
//!   links. Direction is ignored (a DS-Link carries both ways; yEd writes every graph
//!   as directed): an edge is a link whichever way it points, but two directed edges
//!   that point opposite ways between the same nodes are refused, as one link written
//!   twice (a networkx `DiGraph` of a symmetric network) cannot be told from two;
//! - the node attribute `terminals` (a whole number, default 1, or the `<default>` of
//!   its `<key>`) puts that many terminals on the switch; terminals are labelled in
//!   node order, each switch's consecutively;
//! - the edge attributes `source_port` and `target_port` fix the port of the link at
//!   its `source` and `target` node. On each switch, the ports the edges fix are taken
//!   first, then the terminals take the lowest free ports, then the other edges the
//!   lowest free ports in edge (document) order;
//! - GraphML's own ports do the same: a node's `<port name="N">` children declare its
//!   ports, named by their C104 link numbers (0 to 31), and an edge's `sourceport` and
//!   `targetport` attributes name one of its ends' ports. An edge may give both a
//!   `sourceport` and a `source_port` if they name the same link;
//! - the graph attribute `description` is the file's description, and graph
//!   attributes named `SECTION.KEY` with a section of `link`, `packet`, `c104` or
//!   `vcp` set that key, typed by the attribute's `attr.type`.
//!
//! Other attributes (layout, colours, weights) are ignored. Refused, naming the element:
//! a file that is not well-formed XML, a root that is not `<graphml>`, no `<graph>` or
//! more than one, a nested graph, a hyperedge, a `<key>` whose `attr.type` is not one
//! of GraphML's (`boolean`, `int`, `long`, `float`, `double`, `string`), a `<data>`
//! whose key is not declared, a node id given twice, a `<port>` whose name is not a
//! link number or that its node declares twice, an edge's port its node does not
//! declare or that its `<data>` contradicts, an edge to a node that is not
//! there, a self-loop, a port used twice or beyond a C104's 32 links, more links and
//! terminals on a node than a C104 has links, a graph with no node or no terminal,
//! and a graph that is not connected.

use super::error::ConfigError;
use super::limits::C104_LINKS;
use super::location::Location;
use super::source::SourceFile;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The attribute types GraphML defines.
const TYPES: [&str; 6] = ["boolean", "int", "long", "float", "double", "string"];

/// The sections a graph attribute `SECTION.KEY` may set.
const SETTINGS: [&str; 4] = ["link", "packet", "c104", "vcp"];

/// Most terminals a network may have (2-byte headers), as the netlist checks.
const MAX_TERMINALS: usize = 65_536;

/// True if `text` is GraphML (XML) rather than TOML: its first character that is not
/// blank (after a byte-order mark) is `<`.
pub(crate) fn is_graphml(text: &str) -> bool {
    text.trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('<')
}

/// The netlist a GraphML file stands for, as TOML text, with where each of its keys
/// was given in the GraphML.
#[derive(Clone, Debug)]
pub(crate) struct Translated {
    /// The netlist's TOML text.
    pub(crate) toml: String,
    /// Line and column of the `<graph>` element: where the `[network]` keys come from.
    graph_at: (usize, usize),
    /// (dotted key, line and column of the `<data>` element) of each graph setting.
    settings: Vec<(String, (usize, usize))>,
}

impl Translated {
    /// Line and column in the GraphML of the element that gives `key` (a dotted key of
    /// the translated TOML, or inside one): a setting's `<data>`, else the `<graph>`.
    pub(crate) fn place(&self, key: &str) -> (usize, usize) {
        self.settings
            .iter()
            .find(|(k, _)| {
                key == k
                    || key
                        .strip_prefix(k.as_str())
                        .is_some_and(|rest| rest.starts_with(['.', '[']))
            })
            .map_or(self.graph_at, |(_, at)| *at)
    }
}

/// The TOML text `file` stands for: its own text, or for a GraphML file the netlist
/// it translates into (its own text if it does not translate; decoding it then says
/// why).
pub(crate) fn toml_text(file: &SourceFile) -> Cow<'_, str> {
    if !is_graphml(&file.text) {
        return Cow::Borrowed(&file.text);
    }
    match translate(&file.name, &file.text) {
        Ok(t) => Cow::Owned(t.toml),
        Err(_) => Cow::Borrowed(&file.text),
    }
}

/// A GraphML element as messages name it, with its position.
struct Place {
    name: String,
    at: (usize, usize),
}

/// An attribute's value as given, with the line and column of the element giving it.
type Given = (String, (usize, usize));

/// A `<key>`: what it is called and its default.
struct Key<'a> {
    name: Option<&'a str>,
    for_: &'a str,
    ty: &'a str,
    default: Option<String>,
}

/// One edge: its ends (switch indices), the ports it fixes (and the attribute that
/// fixes each), its place.
struct Edge {
    ends: [usize; 2],
    ports: [Option<(u32, &'static str)>; 2],
    directed: bool,
    place: Place,
}

/// Reads the GraphML text `text` of file `name` and translates it into the TOML of a
/// netlist; an error names the file, line and column, the element and the attribute.
pub(crate) fn translate(name: &str, text: &str) -> Result<Translated, ConfigError> {
    let doc = roxmltree::Document::parse(text).map_err(|e| {
        let pos = e.pos();
        let message = e.to_string();
        let message = match message.rsplit_once(" at ") {
            Some((m, at))
                if at.contains(':') && at.chars().all(|c| c.is_ascii_digit() || c == ':') =>
            {
                m.to_string()
            }
            _ => message,
        };
        ConfigError::at(
            Location::in_file(name, Some((pos.row as usize, pos.col as usize)), None),
            format!("not well-formed XML (GraphML): {message}"),
        )
    })?;
    let at = |n: roxmltree::Node<'_, '_>| {
        let p = doc.text_pos_at(n.range().start);
        (p.row as usize, p.col as usize)
    };
    let fail = |pos: (usize, usize), message: String| {
        ConfigError::at(Location::in_file(name, Some(pos), None), message)
    };
    let root = doc.root_element();
    if root.tag_name().name() != "graphml" {
        return Err(fail(
            at(root),
            format!(
                "the root element is <{}>: a GraphML file's is <graphml>",
                root.tag_name().name()
            ),
        ));
    }

    // Keys, by id.
    let mut keys: HashMap<&str, Key<'_>> = HashMap::new();
    for k in root.children().filter(|n| n.has_tag_name("key")) {
        let Some(id) = k.attribute("id") else {
            return Err(fail(at(k), "<key> without an id".into()));
        };
        let ty = k.attribute("attr.type").unwrap_or("string");
        if !TYPES.contains(&ty) {
            return Err(fail(
                at(k),
                format!(
                    "key {id}{}: attr.type \"{ty}\" is not a GraphML type: give one of {}",
                    k.attribute("attr.name")
                        .map(|n| format!(" (attr.name \"{n}\")"))
                        .unwrap_or_default(),
                    TYPES.join(", ")
                ),
            ));
        }
        let default = k
            .children()
            .find(|n| n.has_tag_name("default"))
            .map(|d| d.text().unwrap_or("").to_string());
        keys.insert(
            id,
            Key {
                name: k.attribute("attr.name"),
                for_: k.attribute("for").unwrap_or("all"),
                ty,
                default,
            },
        );
    }

    let graphs: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("graph"))
        .collect();
    let graph = match graphs.as_slice() {
        [] => {
            return Err(fail(
                at(root),
                "no <graph> element: give one graph of switches (nodes) and links (edges)".into(),
            ));
        }
        [g] => *g,
        [_, second, ..] => {
            return Err(fail(
                at(*second),
                "a second <graph>: give one graph per file".into(),
            ));
        }
    };
    let graph_at = at(graph);
    let directed_default = graph.attribute("edgedefault") == Some("directed");

    // The <key> a <data> element names.
    let key_of = |d: roxmltree::Node<'_, '_>| -> Result<&Key<'_>, ConfigError> {
        let Some(id) = d.attribute("key") else {
            return Err(fail(at(d), "<data> without a key".into()));
        };
        keys.get(id).ok_or_else(|| {
            fail(
                at(d),
                format!("<data key=\"{id}\">: no <key> has the id {id}"),
            )
        })
    };
    // The value of attribute `attr` of element `el` (its <data>, else its key's
    // default), with the <data>'s position, if given.
    let value = |el: roxmltree::Node<'_, '_>,
                 kind: &str,
                 attr: &str|
     -> Result<Option<Given>, ConfigError> {
        for d in el.children().filter(|n| n.has_tag_name("data")) {
            let key = key_of(d)?;
            if key.name == Some(attr) && (key.for_ == kind || key.for_ == "all") {
                return Ok(Some((d.text().unwrap_or("").to_string(), at(d))));
            }
        }
        Ok(keys
            .values()
            .find(|k| k.name == Some(attr) && (k.for_ == kind || k.for_ == "all"))
            .and_then(|k| k.default.clone().map(|v| (v, at(el)))))
    };

    // Nodes.
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut nodes: Vec<Place> = Vec::new();
    let mut terminals: Vec<u32> = Vec::new();
    // The names of each node's <port> children.
    let mut declared: Vec<Vec<&str>> = Vec::new();
    for child in graph.children().filter(|n| n.is_element()) {
        match child.tag_name().name() {
            "node" => {
                let Some(id) = child.attribute("id") else {
                    return Err(fail(at(child), "<node> without an id".into()));
                };
                let what = format!("node \"{id}\"");
                if index.contains_key(id) {
                    return Err(fail(
                        at(child),
                        format!("{what} is given twice: node ids are unique"),
                    ));
                }
                if let Some(inner) = child.children().find(|n| n.has_tag_name("graph")) {
                    return Err(fail(
                        at(inner),
                        format!("{what} holds a nested graph: emu reads flat graphs only"),
                    ));
                }
                let t = match value(child, "node", "terminals")? {
                    None => 1,
                    Some((v, pos)) => whole(&v, C104_LINKS).ok_or_else(|| {
                        fail(
                            pos,
                            format!(
                                "{what}: terminals \"{v}\": give a whole number from 0 to {C104_LINKS}"
                            ),
                        )
                    })?,
                };
                let mut ports: Vec<(&str, u32)> = Vec::new();
                for port in child.children().filter(|n| n.has_tag_name("port")) {
                    let Some(name) = port.attribute("name") else {
                        return Err(fail(at(port), format!("{what}: <port> without a name")));
                    };
                    let Some(link) = whole(name, C104_LINKS - 1) else {
                        return Err(fail(
                            at(port),
                            format!(
                                "{what}: port \"{name}\": a port is named by its link number, give a whole number from 0 to {} (a C104 has {C104_LINKS} links)",
                                C104_LINKS - 1
                            ),
                        ));
                    };
                    if let Some((first, _)) = ports.iter().find(|(_, l)| *l == link) {
                        let also = if *first == name {
                            String::new()
                        } else {
                            format!(" (as \"{first}\")")
                        };
                        return Err(fail(
                            at(port),
                            format!(
                                "{what}: port \"{name}\" is given twice{also}: a node declares each of its ports once"
                            ),
                        ));
                    }
                    ports.push((name, link));
                }
                declared.push(ports.into_iter().map(|(name, _)| name).collect());
                index.insert(id, nodes.len());
                nodes.push(Place {
                    name: what,
                    at: at(child),
                });
                terminals.push(t);
            }
            "hyperedge" => {
                return Err(fail(
                    at(child),
                    "a <hyperedge>: a link joins two switches; give <edge> elements".into(),
                ));
            }
            _ => {}
        }
    }
    if nodes.is_empty() {
        return Err(fail(
            graph_at,
            "the graph has no node: give at least one switch (<node>)".into(),
        ));
    }

    // Edges.
    let mut edges: Vec<Edge> = Vec::new();
    for e in graph.children().filter(|n| n.has_tag_name("edge")) {
        let end = |attr: &str| -> Result<(&str, usize), ConfigError> {
            let Some(id) = e.attribute(attr) else {
                return Err(fail(at(e), format!("<edge> without a {attr}")));
            };
            match index.get(id) {
                Some(&i) => Ok((id, i)),
                None => Err(fail(
                    at(e),
                    format!("edge {attr} \"{id}\": no node has that id"),
                )),
            }
        };
        let (s_id, s) = end("source")?;
        let (t_id, t) = end("target")?;
        let what = match e.attribute("id") {
            Some(id) => format!("edge \"{s_id}\" -- \"{t_id}\" (id \"{id}\")"),
            None => format!("edge \"{s_id}\" -- \"{t_id}\""),
        };
        if s == t {
            return Err(fail(
                at(e),
                format!(
                    "{what} is a self-loop: a link joins two different switches (a packet routed into it would come straight back)"
                ),
            ));
        }
        let mut ports = [None, None];
        let named = [
            ("source_port", "sourceport", s_id, s),
            ("target_port", "targetport", t_id, t),
        ];
        for (i, (attr, xml, node_id, node)) in named.into_iter().enumerate() {
            let data = match value(e, "edge", attr)? {
                Some((v, pos)) => Some(whole(&v, C104_LINKS - 1).ok_or_else(|| {
                    fail(
                        pos,
                        format!(
                            "{what}: {attr} \"{v}\": give a port from 0 to {} (a C104 has {C104_LINKS} links)",
                            C104_LINKS - 1
                        ),
                    )
                })?),
                None => None,
            };
            let port = match e.attribute(xml) {
                Some(v) => {
                    let Some(p) = whole(v, C104_LINKS - 1) else {
                        return Err(fail(
                            at(e),
                            format!(
                                "{what}: {xml} \"{v}\": a port is named by its link number, give a whole number from 0 to {} (a C104 has {C104_LINKS} links)",
                                C104_LINKS - 1
                            ),
                        ));
                    };
                    if !declared[node].contains(&v) {
                        return Err(fail(
                            at(e),
                            format!(
                                "{what}: {xml} \"{v}\": node \"{node_id}\" declares no <port name=\"{v}\">"
                            ),
                        ));
                    }
                    Some((v, p))
                }
                None => None,
            };
            ports[i] = match (data, port) {
                (Some(d), Some((v, p))) if d != p => {
                    return Err(fail(
                        at(e),
                        format!(
                            "{what}: {xml} \"{v}\" and {attr} {d} disagree: give one of them, or both the same port"
                        ),
                    ));
                }
                (Some(d), _) => Some((d, attr)),
                (None, Some((_, p))) => Some((p, xml)),
                (None, None) => None,
            };
        }
        let directed = match e.attribute("directed") {
            Some("true") => true,
            Some("false") => false,
            _ => directed_default,
        };
        edges.push(Edge {
            ends: [s, t],
            ports,
            directed,
            place: Place {
                name: what,
                at: at(e),
            },
        });
    }

    // Two directed edges the opposite way between the same nodes.
    let mut arcs: HashMap<(usize, usize), usize> = HashMap::new();
    for (i, e) in edges.iter().enumerate().filter(|(_, e)| e.directed) {
        let [a, b] = e.ends;
        if let Some(&j) = arcs.get(&(b, a)) {
            return Err(fail(
                e.place.at,
                format!(
                    "{} points back along {}: a DS-Link carries both directions, so draw each link once (or make the graph undirected: networkx's G.to_undirected())",
                    e.place.name, edges[j].place.name
                ),
            ));
        }
        arcs.entry((a, b)).or_insert(i);
    }

    // Ports: fixed ones first, then terminals, then the rest in edge order.
    let links_of = |s: usize| edges.iter().filter(|e| e.ends.contains(&s)).count();
    for (s, node) in nodes.iter().enumerate() {
        let links = links_of(s);
        if links + terminals[s] as usize > C104_LINKS as usize {
            return Err(fail(
                node.at,
                format!(
                    "{}: {links} links and {} terminals: a C104 has {C104_LINKS} links",
                    node.name, terminals[s]
                ),
            ));
        }
    }
    // Who holds each port of each switch: None (free) or Some(description).
    let mut used: Vec<Vec<Option<String>>> = vec![vec![None; C104_LINKS as usize]; nodes.len()];
    let mut ends: Vec<[u32; 2]> = vec![[0; 2]; edges.len()];
    for (i, e) in edges.iter().enumerate() {
        for (k, (port, &s)) in e.ports.iter().zip(&e.ends).enumerate() {
            if let Some((p, attr)) = *port {
                let slot = &mut used[s][p as usize];
                if let Some(by) = slot {
                    return Err(fail(
                        e.place.at,
                        format!(
                            "{}: {attr} {p}: port {p} of {} is already used by {by}",
                            e.place.name, nodes[s].name
                        ),
                    ));
                }
                *slot = Some(e.place.name.clone());
                ends[i][k] = p;
            }
        }
    }
    let free = |row: &mut Vec<Option<String>>, by: String| -> u32 {
        // A free port exists: links plus terminals fit the C104 (checked above).
        let p = row.iter().position(Option::is_none).unwrap_or(0);
        row[p] = Some(by);
        p as u32
    };
    let mut at_port: Vec<[u32; 2]> = Vec::new();
    for (s, &t) in terminals.iter().enumerate() {
        for _ in 0..t {
            let p = free(&mut used[s], format!("terminal {}", at_port.len()));
            at_port.push([s as u32, p]);
        }
    }
    for (i, e) in edges.iter().enumerate() {
        for k in 0..2 {
            if e.ports[k].is_none() {
                ends[i][k] = free(&mut used[e.ends[k]], e.place.name.clone());
            }
        }
    }
    if at_port.is_empty() {
        return Err(fail(
            graph_at,
            "the graph has no terminal: every node has terminals 0; give at least one".into(),
        ));
    }
    if at_port.len() > MAX_TERMINALS {
        return Err(fail(
            graph_at,
            format!(
                "{} terminals: at most {MAX_TERMINALS} (2-byte headers)",
                at_port.len()
            ),
        ));
    }

    // Connected: every node reached from the first.
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for e in &edges {
        adjacent[e.ends[0]].push(e.ends[1]);
        adjacent[e.ends[1]].push(e.ends[0]);
    }
    let mut seen = vec![false; nodes.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(s) = stack.pop() {
        for &n in &adjacent[s] {
            if !seen[n] {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    if let Some(lost) = seen.iter().position(|&s| !s) {
        return Err(fail(
            nodes[lost].at,
            format!(
                "{} cannot be reached from {}: the graph is not connected",
                nodes[lost].name, nodes[0].name
            ),
        ));
    }

    // Graph attributes: the description and settings.
    let mut description = None;
    let mut settings: Vec<(String, (usize, usize), String)> = Vec::new();
    for d in graph.children().filter(|n| n.has_tag_name("data")) {
        let key = key_of(d)?;
        let Some(attr) = key.name else { continue };
        let v = d.text().unwrap_or("");
        if attr == "description" {
            description = Some(v.to_string());
            continue;
        }
        let Some((section, _)) = attr.split_once('.') else {
            continue;
        };
        if !SETTINGS.contains(&section) {
            continue;
        }
        let toml = typed(v, key.ty).ok_or_else(|| {
            fail(
                at(d),
                format!(
                    "graph attribute {attr} \"{v}\": not a value of its attr.type {}",
                    key.ty
                ),
            )
        })?;
        settings.push((attr.to_string(), at(d), toml));
    }

    // The netlist.
    let mut toml = String::new();
    if let Some(d) = description {
        let _ = writeln!(toml, "description = {}", toml::Value::String(d));
    }
    toml.push_str("[network]\nkind = \"netlist\"\nswitches = [");
    for (s, row) in used.iter().enumerate() {
        let top = row.iter().rposition(Option::is_some).map_or(1, |p| p + 1);
        let _ = write!(toml, "{}{top}", if s == 0 { "" } else { ", " });
    }
    toml.push_str("]\nterminals = [\n");
    for [s, p] in &at_port {
        let _ = writeln!(toml, "  [{s}, {p}],");
    }
    toml.push_str("]\nlinks = [\n");
    for (e, [pa, pb]) in edges.iter().zip(&ends) {
        let _ = writeln!(toml, "  [{}, {pa}, {}, {pb}],", e.ends[0], e.ends[1]);
    }
    toml.push_str("]\n");
    let mut sections: Vec<&str> = settings
        .iter()
        .filter_map(|(k, _, _)| k.split_once('.').map(|(s, _)| s))
        .collect();
    sections.sort_by_key(|s| SETTINGS.iter().position(|x| x == s));
    sections.dedup();
    for section in sections {
        let _ = writeln!(toml, "\n[{section}]");
        for (k, _, v) in &settings {
            if let Some(rest) = k.strip_prefix(section).and_then(|r| r.strip_prefix('.')) {
                let key = if rest
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    rest.to_string()
                } else {
                    toml::Value::String(rest.to_string()).to_string()
                };
                let _ = writeln!(toml, "{key} = {v}");
            }
        }
    }
    Ok(Translated {
        toml,
        graph_at,
        settings: settings.into_iter().map(|(k, at, _)| (k, at)).collect(),
    })
}

/// `text` as a whole number from 0 to `max`: an integer, or a float with no fraction
/// (igraph writes every number as a double).
fn whole(text: &str, max: u32) -> Option<u32> {
    let t = text.trim();
    let n = match t.parse::<u64>() {
        Ok(n) => n,
        Err(_) => {
            let f = t.parse::<f64>().ok()?;
            if !(f.is_finite() && f >= 0.0 && f.fract() == 0.0 && f <= f64::from(max)) {
                return None;
            }
            f as u64
        }
    };
    u32::try_from(n).ok().filter(|&n| n <= max)
}

/// The GraphML value `text` of type `ty` as a TOML value; `None` if it is not one.
fn typed(text: &str, ty: &str) -> Option<String> {
    let t = text.trim();
    match ty {
        "boolean" => match t.to_ascii_lowercase().as_str() {
            "true" | "1" => Some("true".into()),
            "false" | "0" => Some("false".into()),
            _ => None,
        },
        "int" | "long" => t.parse::<i64>().ok().map(|n| n.to_string()),
        "float" | "double" => t
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(|f| toml::Value::Float(f).to_string()),
        _ => Some(toml::Value::String(text.to_string()).to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(body: &str) -> String {
        format!(
            "<?xml version='1.0' encoding='utf-8'?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n\
             <key id=\"t\" for=\"node\" attr.name=\"terminals\" attr.type=\"long\"/>\n\
             <key id=\"sp\" for=\"edge\" attr.name=\"source_port\" attr.type=\"long\"/>\n\
             <key id=\"tp\" for=\"edge\" attr.name=\"target_port\" attr.type=\"long\"/>\n\
             <graph edgedefault=\"undirected\">\n{body}</graph>\n</graphml>\n"
        )
    }

    /// Asserts that the translation of `t` holds `part`.
    fn holds(t: &Translated, part: &str) {
        assert!(t.toml.contains(part), "{}", t.toml);
    }

    fn err(text: &str) -> String {
        translate("g.graphml", text)
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn a_plain_graph_has_one_terminal_per_switch_and_ports_in_edge_order() {
        let t = translate(
            "g.graphml",
            &graph(
                "<node id=\"a\"/><node id=\"b\"/><node id=\"c\"/>\n\
                 <edge source=\"a\" target=\"b\"/><edge source=\"b\" target=\"c\"/>\n\
                 <edge source=\"a\" target=\"b\"/>\n",
            ),
        )
        .expect("translates");
        assert_eq!(
            t.toml,
            "[network]\nkind = \"netlist\"\nswitches = [3, 4, 2]\nterminals = [\n  [0, 0],\n  [1, 0],\n  [2, 0],\n]\nlinks = [\n  [0, 1, 1, 1],\n  [1, 2, 2, 1],\n  [0, 2, 1, 3],\n]\n"
        );
        let config: crate::config::TopologyConfig = toml::from_str(&t.toml).expect("a netlist");
        assert!(matches!(
            config.network,
            crate::config::NetworkConfig::Netlist(_)
        ));
    }

    #[test]
    fn fixed_ports_come_first_then_terminals_then_the_rest() {
        let t = translate(
            "g.graphml",
            &graph(
                "<node id=\"a\"><data key=\"t\">2</data></node><node id=\"b\"><data key=\"t\">0.0</data></node>\n\
                 <edge source=\"a\" target=\"b\"><data key=\"sp\">0</data><data key=\"tp\">7</data></edge>\n\
                 <edge source=\"b\" target=\"a\"/>\n",
            ),
        )
        .expect("translates");
        holds(&t, "switches = [4, 8]");
        holds(&t, "terminals = [\n  [0, 1],\n  [0, 2],\n]");
        holds(&t, "  [0, 0, 1, 7],\n  [1, 0, 0, 3],\n");
    }

    #[test]
    fn graphml_ports_are_link_numbers() {
        let t = translate(
            "g.graphml",
            &graph(
                "<node id=\"a\"><port name=\"5\"/><port name=\"9\"/></node><node id=\"b\"><port name=\"7\"/></node>\n\
                 <edge source=\"a\" target=\"b\" sourceport=\"5\" targetport=\"7\"/>\n\
                 <edge source=\"b\" target=\"a\" targetport=\"9\"><data key=\"tp\">9</data></edge>\n",
            ),
        )
        .expect("translates");
        holds(&t, "switches = [10, 8]");
        holds(&t, "  [0, 5, 1, 7],\n  [1, 1, 0, 9],\n");
        let cases = [
            (
                "<node id=\"a\"><port name=\"x\"/></node>",
                "g.graphml:7:14: node \"a\": port \"x\": a port is named by its link number, give a whole number from 0 to 31",
            ),
            (
                "<node id=\"a\"><port name=\"32\"/></node>",
                "g.graphml:7:14: node \"a\": port \"32\": a port is named by its link number",
            ),
            (
                "<node id=\"a\"><port name=\"3\"/><port name=\"3.0\"/></node>",
                "g.graphml:7:30: node \"a\": port \"3.0\" is given twice (as \"3\"): a node declares each of its ports once",
            ),
            (
                "<node id=\"a\"><port/></node>",
                "g.graphml:7:14: node \"a\": <port> without a name",
            ),
            (
                "<node id=\"a\"/><node id=\"b\"/><edge source=\"a\" target=\"b\" sourceport=\"2\"/>",
                "g.graphml:7:29: edge \"a\" -- \"b\": sourceport \"2\": node \"a\" declares no <port name=\"2\">",
            ),
            (
                "<node id=\"a\"/><node id=\"b\"/><edge source=\"a\" target=\"b\" targetport=\"x\"/>",
                "g.graphml:7:29: edge \"a\" -- \"b\": targetport \"x\": a port is named by its link number",
            ),
            (
                "<node id=\"a\"><port name=\"2\"/></node><node id=\"b\"/><edge source=\"a\" target=\"b\" sourceport=\"2\"><data key=\"sp\">3</data></edge>",
                "g.graphml:7:51: edge \"a\" -- \"b\": sourceport \"2\" and source_port 3 disagree: give one of them, or both the same port",
            ),
            (
                "<node id=\"a\"><port name=\"2\"/></node><node id=\"b\"/><edge source=\"a\" target=\"b\" sourceport=\"2\"/>\n<edge id=\"e\" source=\"a\" target=\"b\" sourceport=\"2\"/>",
                "g.graphml:8:1: edge \"a\" -- \"b\" (id \"e\"): sourceport 2: port 2 of node \"a\" is already used by edge \"a\" -- \"b\"",
            ),
        ];
        for (body, want) in cases {
            let e = err(&graph(body));
            assert!(e.starts_with(want), "{body}\n got: {e}\nwant: {want}");
        }
    }

    #[test]
    fn graph_attributes_give_the_description_and_settings() {
        let text = "<graphml>\n<key id=\"d\" for=\"graph\" attr.name=\"description\" attr.type=\"string\"/>\n\
             <key id=\"b\" for=\"graph\" attr.name=\"link.buffer_tokens\" attr.type=\"string\"/>\n\
             <key id=\"r\" for=\"graph\" attr.name=\"link.bit_rate_mbit_s\" attr.type=\"int\"/>\n\
             <key id=\"a\" for=\"graph\" attr.name=\"vcp.acknowledge\" attr.type=\"boolean\"/>\n\
             <key id=\"n\" for=\"graph\" attr.name=\"name\" attr.type=\"string\"/>\n\
             <graph><node id=\"0\"/>\n<data key=\"d\">two \"words\"</data>\n\
             <data key=\"b\">packet</data><data key=\"r\">100</data><data key=\"a\">False</data>\
             <data key=\"n\">ignored</data></graph></graphml>";
        let t = translate("g.graphml", text).expect("translates");
        assert!(
            t.toml.starts_with("description = 'two \"words\"'\n"),
            "{}",
            t.toml
        );
        assert!(
            t.toml.ends_with("\n[link]\nbuffer_tokens = \"packet\"\nbit_rate_mbit_s = 100\n\n[vcp]\nacknowledge = false\n"),
            "{}",
            t.toml
        );
        assert_eq!(t.place("link.buffer_tokens"), (9, 1));
        assert_eq!(t.place("network.links"), (7, 1));
        assert!(!t.toml.contains("ignored"));
    }

    #[test]
    fn each_refusal_names_the_element_and_where_it_is() {
        let cases = [
            (
                "<node id=\"a\"/><edge source=\"a\" target=\"a\"/>",
                "g.graphml:7:15: edge \"a\" -- \"a\" is a self-loop",
            ),
            ("", "g.graphml:6:1: the graph has no node"),
            (
                "<node id=\"a\"/><node id=\"b\"/>",
                "g.graphml:7:15: node \"b\" cannot be reached from node \"a\": the graph is not connected",
            ),
            (
                "<node id=\"a\"/><node id=\"a\"/>",
                "g.graphml:7:15: node \"a\" is given twice",
            ),
            (
                "<node id=\"a\"/><edge source=\"a\" target=\"z\"/>",
                "g.graphml:7:15: edge target \"z\": no node has that id",
            ),
            (
                "<node id=\"a\"><data key=\"t\">33</data></node>",
                "g.graphml:7:14: node \"a\": terminals \"33\": give a whole number from 0 to 32",
            ),
            (
                "<node id=\"a\"><data key=\"t\">0</data></node>",
                "g.graphml:6:1: the graph has no terminal",
            ),
            (
                "<node id=\"a\"><data key=\"zz\">0</data></node>",
                "g.graphml:7:14: <data key=\"zz\">: no <key> has the id zz",
            ),
            ("<hyperedge/>", "g.graphml:7:1: a <hyperedge>"),
            (
                "<node id=\"a\"/><node id=\"b\"/><edge source=\"a\" target=\"b\"><data key=\"sp\">3</data></edge>\n<edge id=\"e1\" source=\"a\" target=\"b\"><data key=\"sp\">3</data></edge>",
                "g.graphml:8:1: edge \"a\" -- \"b\" (id \"e1\"): source_port 3: port 3 of node \"a\" is already used by edge \"a\" -- \"b\"",
            ),
            (
                "<node id=\"a\"/><node id=\"b\"/><edge source=\"a\" target=\"b\"><data key=\"tp\">32</data></edge>",
                "g.graphml:7:57: edge \"a\" -- \"b\": target_port \"32\": give a port from 0 to 31",
            ),
            (
                "<node id=\"a\"/><node id=\"b\"/><edge source=\"a\" target=\"b\" directed=\"true\"/><edge source=\"b\" target=\"a\" directed=\"true\"/>",
                "g.graphml:7:74: edge \"b\" -- \"a\" points back along edge \"a\" -- \"b\"",
            ),
        ];
        for (body, want) in cases {
            let e = err(&graph(body));
            assert!(e.starts_with(want), "{body}\n got: {e}\nwant: {want}");
        }
        let many = format!(
            "<node id=\"hub\"><data key=\"t\">2</data></node>{}",
            (0..31)
                .map(|i| format!("<node id=\"{i}\"/><edge source=\"hub\" target=\"{i}\"/>"))
                .collect::<String>()
        );
        assert!(
            err(&graph(&many)).starts_with(
                "g.graphml:7:1: node \"hub\": 31 links and 2 terminals: a C104 has 32 links"
            ),
            "{}",
            err(&graph(&many))
        );
        let bad_type =
            graph("<node id=\"a\"/>").replace("attr.type=\"long\"", "attr.type=\"vector\"");
        assert!(
            err(&bad_type).starts_with("g.graphml:3:1: key t (attr.name \"terminals\"): attr.type \"vector\" is not a GraphML type"),
            "{}",
            err(&bad_type)
        );
        let broken = err("<graphml>\n<graph><node id=a/></graph></graphml>");
        assert!(
            broken.starts_with("g.graphml:2:")
                && broken.contains(": not well-formed XML (GraphML): "),
            "{broken}"
        );
        assert!(err("<svg/>").starts_with("g.graphml:1:1: the root element is <svg>"));
        assert!(err("<graphml/>").starts_with("g.graphml:1:1: no <graph> element"));
        assert!(
            err("<graphml><graph><node id=\"a\"/></graph><graph/></graphml>")
                .starts_with("g.graphml:1:39: a second <graph>")
        );
        assert!(err(&graph("<node id=\"a\"><graph/></node>")).contains("nested graph"));
    }

    #[test]
    fn directed_edges_are_links_and_defaults_apply() {
        let text = "<graphml><key id=\"t\" for=\"node\" attr.name=\"terminals\" attr.type=\"int\"><default>3</default></key>\
             <graph edgedefault=\"directed\"><node id=\"a\"/><node id=\"b\"><data key=\"t\">1</data></node>\
             <edge source=\"a\" target=\"b\"/><edge source=\"a\" target=\"b\"/></graph></graphml>";
        let t = translate("g.graphml", text).expect("translates");
        holds(&t, "switches = [5, 3]");
        holds(&t, "  [0, 3, 1, 1],\n  [0, 4, 1, 2],\n");
    }

    #[test]
    fn a_graphml_file_loads_as_a_netlist_and_its_keys_are_placed_in_it() {
        use crate::config::{FileKind, Input, Loaded, TopologyConfig};
        let text = "<graphml>\n<key id=\"f\" for=\"graph\" attr.name=\"link.fct_batch_tokens\" attr.type=\"string\"/>\n\
             <graph>\n<node id=\"a\"/><node id=\"b\"/><edge source=\"a\" target=\"b\"/>\n<data key=\"f\">FCT</data>\n</graph></graphml>\n";
        let load = |text: &str, sets: &[String]| {
            Input::text("g.graphml", text).load::<TopologyConfig>(
                FileKind::Topology,
                sets,
                &crate::network::kinds::C104Kinds,
            )
        };
        let e = load(text, &[]).expect_err("a string where a number goes");
        assert!(
            e.to_string().starts_with(
                "g.graphml:5:1: link.fct_batch_tokens: the text \"FCT\": give a whole number"
            ),
            "{e}"
        );
        let fixed = text
            .replace(">FCT<", ">8<")
            .replace("attr.type=\"string\"", "attr.type=\"int\"");
        let l: Loaded<TopologyConfig> = load(&fixed, &[]).expect("loads");
        assert_eq!(l.file.text, fixed, "the file is the GraphML as written");
        assert_eq!(l.locate("network.links"), "g.graphml:3:1: network.links");
        assert_eq!(
            l.locate("link.fct_batch_tokens"),
            "g.graphml:5:1: link.fct_batch_tokens"
        );
        assert_eq!(
            l.locate("link.wire_delay_ns"),
            "g.graphml: link.wire_delay_ns (default)"
        );
        let unknown = fixed.replace("link.fct_batch_tokens", "link.fct_batch");
        let e = load(&unknown, &[]).expect_err("no such key");
        assert!(
            e.to_string().starts_with("g.graphml:5:1: link.fct_batch"),
            "{e}"
        );
        let e = load(&fixed, &["link.fct_batch_tokens=\"x\"".into()]).expect_err("a bad --set");
        assert!(
            e.to_string()
                .starts_with("--set link.fct_batch_tokens=\"x\""),
            "{e}"
        );
        let e = Input::text("t.graphml", fixed)
            .load::<crate::config::TrafficConfig>(FileKind::Traffic, &[], &crate::config::NoKinds)
            .expect_err("traffic is TOML");
        assert!(
            e.to_string()
                .starts_with("t.graphml:1:1: this traffic file is XML"),
            "{e}"
        );
    }

    #[test]
    fn graphml_is_told_by_its_first_character() {
        assert!(is_graphml("\u{feff}  \n<?xml version='1.0'?>"));
        assert!(is_graphml("<graphml/>"));
        assert!(!is_graphml("# <graphml>\n[network]"));
        assert!(!is_graphml(""));
        assert_eq!(whole("2.0", 32), Some(2));
        assert_eq!(whole("2.5", 32), None);
        assert_eq!(whole("-1", 32), None);
        assert_eq!(whole(" 32 ", 32), Some(32));
    }
}
