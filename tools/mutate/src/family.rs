//! The families of networks, and which family a topology or traffic file belongs to.

use std::fmt;

use toml_edit::DocumentMut;

/// A family of networks; a topology runs with the traffic files of its family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// DS-Link / C104 / T9000 networks: every `network.kind` not named below.
    DsLink,
    /// SCI rings: `network.kind = "sci_ring"`, traffic files `sci-*`.
    Sci,
    /// Switch fabrics: `network.kind = "fabric"`, traffic files `fabric-*` or described as
    /// "switch fabrics: …".
    Fabric,
    /// The toy relay ring: `network.kind = "relay_ring"`, traffic files `relay-*`.
    Relay,
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::DsLink => "DS-Link",
            Self::Sci => "SCI ring",
            Self::Fabric => "switch fabric",
            Self::Relay => "relay ring",
        })
    }
}

/// The family of a topology file, from its `network.kind`.
pub fn of_topology(doc: &DocumentMut) -> Family {
    match doc
        .get("network")
        .and_then(|n| n.get("kind"))
        .and_then(|k| k.as_str())
    {
        Some("sci_ring") => Family::Sci,
        Some("fabric") => Family::Fabric,
        Some("relay_ring") => Family::Relay,
        _ => Family::DsLink,
    }
}

/// The family a traffic file is meant for, from its name or its description's first
/// words; whether it runs there is then tried (see `partner`).
pub fn of_traffic(stem: &str, doc: &DocumentMut) -> Family {
    let description = doc
        .get("description")
        .and_then(|d| d.as_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if stem.starts_with("sci-") || description.starts_with("sci:") {
        Family::Sci
    } else if stem.starts_with("relay-") || description.starts_with("relay rings") {
        Family::Relay
    } else if stem.starts_with("fabric-") || description.starts_with("switch fabrics") {
        Family::Fabric
    } else {
        Family::DsLink
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> DocumentMut {
        text.parse().expect("test document parses")
    }

    #[test]
    fn topologies_by_network_kind() {
        assert_eq!(
            of_topology(&doc("[network]\nkind = \"fabric\"")),
            Family::Fabric
        );
        assert_eq!(
            of_topology(&doc("[network]\nkind = \"sci_ring\"")),
            Family::Sci
        );
        assert_eq!(
            of_topology(&doc("[network]\nkind = \"relay_ring\"")),
            Family::Relay
        );
        assert_eq!(
            of_topology(&doc("[network]\nkind = \"hypercube\"")),
            Family::DsLink
        );
        assert_eq!(of_topology(&doc("")), Family::DsLink);
    }

    #[test]
    fn traffic_by_name_or_description() {
        assert_eq!(of_traffic("sci-uniform", &doc("")), Family::Sci);
        assert_eq!(of_traffic("relay-balls", &doc("")), Family::Relay);
        assert_eq!(of_traffic("fabric-trace", &doc("")), Family::Fabric);
        let fabric = doc("description = \"switch fabrics: Bernoulli arrivals\"");
        assert_eq!(of_traffic("bernoulli98", &fabric), Family::Fabric);
        assert_eq!(
            of_traffic("uniform", &doc("description = \"random\"")),
            Family::DsLink
        );
    }
}
