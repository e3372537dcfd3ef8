//! The topology and traffic files shipped with emu, embedded in the binary so that a
//! bare name works from any directory.

use super::source::FileKind;
use toml::de::DeTable;

/// Every `topologies/*.toml` and `topologies/*.graphml`, in byte order of their stems:
/// the build script (`build.rs`) writes the rows from the directory.
static TOPOLOGIES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/shipped_topologies.rs"));

static TRAFFIC: &[(&str, &str)] = &[
    ("bitcomp", include_str!("../../../../traffic/bitcomp.toml")),
    (
        "bernoulli98",
        include_str!("../../../../traffic/bernoulli98.toml"),
    ),
    ("bimodal", include_str!("../../../../traffic/bimodal.toml")),
    ("bitrev", include_str!("../../../../traffic/bitrev.toml")),
    (
        "bursty30",
        include_str!("../../../../traffic/bursty30.toml"),
    ),
    (
        "fabric-nonuniform",
        include_str!("../../../../traffic/fabric-nonuniform.toml"),
    ),
    (
        "fabric-trace",
        include_str!("../../../../traffic/fabric-trace.toml"),
    ),
    ("hotspot", include_str!("../../../../traffic/hotspot.toml")),
    (
        "relay-balls",
        include_str!("../../../../traffic/relay-balls.toml"),
    ),
    (
        "sci-hot-sender",
        include_str!("../../../../traffic/sci-hot-sender.toml"),
    ),
    (
        "sci-request-response",
        include_str!("../../../../traffic/sci-request-response.toml"),
    ),
    (
        "sci-starved",
        include_str!("../../../../traffic/sci-starved.toml"),
    ),
    (
        "sci-uniform",
        include_str!("../../../../traffic/sci-uniform.toml"),
    ),
    ("shuffle", include_str!("../../../../traffic/shuffle.toml")),
    (
        "shuffle20",
        include_str!("../../../../traffic/shuffle20.toml"),
    ),
    (
        "systematic",
        include_str!("../../../../traffic/systematic.toml"),
    ),
    (
        "torus4-ring",
        include_str!("../../../../traffic/torus4-ring.toml"),
    ),
    (
        "transpose",
        include_str!("../../../../traffic/transpose.toml"),
    ),
    (
        "uniform-rate",
        include_str!("../../../../traffic/uniform-rate.toml"),
    ),
    ("uniform", include_str!("../../../../traffic/uniform.toml")),
];

/// The shipped topology files as (stem, text), e.g. `("hypercube8", "...")`.
pub fn shipped_topologies() -> &'static [(&'static str, &'static str)] {
    TOPOLOGIES
}

/// The shipped traffic files as (stem, text), e.g. `("uniform", "...")`.
pub fn shipped_traffic() -> &'static [(&'static str, &'static str)] {
    TRAFFIC
}

/// The shipped files of one kind as (stem, text).
pub fn shipped(kind: FileKind) -> &'static [(&'static str, &'static str)] {
    match kind {
        FileKind::Topology => TOPOLOGIES,
        FileKind::Traffic => TRAFFIC,
    }
}

/// The text of the shipped file of this kind whose stem is `stem`.
pub(crate) fn find_shipped(kind: FileKind, stem: &str) -> Option<&'static str> {
    shipped(kind)
        .iter()
        .find(|(s, _)| *s == stem)
        .map(|(_, text)| *text)
}

/// The stems of the shipped files of this kind, comma-separated, for messages.
pub(crate) fn shipped_names(kind: FileKind) -> String {
    shipped(kind)
        .iter()
        .map(|(s, _)| *s)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One shipped file, as shown by `emu list`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListEntry {
    /// Which kind of file.
    pub kind: FileKind,
    /// Its stem, the name to give on the command line (e.g. `hypercube8`).
    pub name: String,
    /// Its top-level `description` field ("" if it has none).
    pub description: String,
}

/// Every shipped file, topologies first, each kind in registry order.
pub fn list_shipped() -> Vec<ListEntry> {
    FileKind::ALL
        .iter()
        .flat_map(|&kind| {
            shipped(kind).iter().map(move |(stem, text)| ListEntry {
                kind,
                name: (*stem).to_string(),
                description: description_of(text),
            })
        })
        .collect()
}

/// The top-level `description` string of a TOML text (or of the netlist a GraphML
/// text translates into), or "" if there is none.
fn description_of(text: &str) -> String {
    let netlist = super::graphml::is_graphml(text)
        .then(|| super::graphml::translate("", text).ok())
        .flatten();
    let text = netlist.as_ref().map_or(text, |t| t.toml.as_str());
    DeTable::parse(text)
        .ok()
        .and_then(|t| {
            t.get_ref()
                .get("description")
                .and_then(|v| v.get_ref().as_str().map(str::to_string))
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// (stem, text) of every `*.toml` (and `*.graphml`) file in a directory of the
    /// repository.
    fn files_in(dir: &str) -> Vec<(String, String)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(dir);
        super::super::shipped_files::shipped_files(&dir)
            .into_iter()
            .map(|(stem, path)| (stem, std::fs::read_to_string(path).expect("readable")))
            .collect()
    }

    #[test]
    fn every_file_on_disk_is_registered_and_vice_versa() {
        for kind in FileKind::ALL {
            let on_disk = files_in(kind.dir());
            assert!(!on_disk.is_empty(), "no files in {}", kind.dir());
            for (stem, text) in &on_disk {
                let shipped = find_shipped(kind, stem);
                assert!(
                    shipped.is_some(),
                    "{}/{stem} is not in the shipped registry",
                    kind.dir()
                );
                assert_eq!(
                    shipped,
                    Some(text.as_str()),
                    "{stem}: registry text differs"
                );
            }
            assert_eq!(
                on_disk.len(),
                shipped(kind).len(),
                "{}: registry has extra entries",
                kind.dir()
            );
        }
    }

    #[test]
    fn every_shipped_file_deserializes() {
        for (stem, text) in shipped_topologies() {
            if let Err(e) = crate::config::Input::shipped(*stem)
                .load::<crate::config::TopologyConfig>(
                    FileKind::Topology,
                    &[],
                    &crate::network::kinds::C104Kinds,
                )
            {
                panic!("topology {stem}: {e}");
            }
            let netlist = super::super::graphml::translate(stem, text).map(|t| t.toml);
            let toml = netlist.as_deref().unwrap_or(text);
            if let Err(e) = toml::from_str::<crate::config::TopologyConfig>(toml) {
                panic!("topology {stem}: {e}");
            }
        }
        for (stem, text) in shipped_traffic() {
            if let Err(e) = toml::from_str::<crate::config::TrafficConfig>(text) {
                panic!("traffic {stem}: {e}");
            }
        }
    }

    #[test]
    fn list_has_every_file_with_its_description() {
        let list = list_shipped();
        assert_eq!(list.len(), TOPOLOGIES.len() + TRAFFIC.len());
        let h8 = list
            .iter()
            .find(|e| e.name == "hypercube8")
            .expect("hypercube8 listed");
        assert_eq!(h8.kind, FileKind::Topology);
        assert!(
            h8.description.starts_with("Binary 8-cube"),
            "{}",
            h8.description
        );
        assert!(
            list.iter().all(|e| !e.description.is_empty()),
            "a shipped file lacks a description"
        );
        assert_eq!(description_of("x = 1"), "");
        assert_eq!(description_of("not toml ="), "");
    }

    #[test]
    fn sections_match_the_schemas() {
        let topo: crate::config::TopologyConfig =
            toml::from_str(TOPOLOGIES[0].1).expect("shipped topology");
        let keys: Vec<String> = toml::Table::try_from(topo)
            .expect("serializes")
            .keys()
            .cloned()
            .collect();
        let mut want: Vec<String> = FileKind::Topology
            .sections()
            .iter()
            .map(|s| s.to_string())
            .collect();
        want.push("description".into());
        want.sort();
        assert_eq!(keys, want);
        let traffic: crate::config::TrafficConfig =
            toml::from_str(TRAFFIC[0].1).expect("shipped traffic");
        let keys: Vec<String> = toml::Table::try_from(traffic)
            .expect("serializes")
            .keys()
            .cloned()
            .collect();
        let mut want: Vec<String> = FileKind::Traffic
            .sections()
            .iter()
            .map(|s| s.to_string())
            .collect();
        want.push("description".into());
        want.sort();
        assert_eq!(keys, want);
    }
}
