//! The topology kinds of the C104 family, one file each: a kind's file holds the
//! `[network]` table it deserializes from (its struct, whose doc comments are the
//! schema's and the user guide's words), validates it into a checked `Layout` with its
//! terminal and label counts (`Shape`), builds the plan from it, says how it is drawn
//! and which systematic pattern it has.
//!
//! The registry is one macro call, `network_kinds!`'s rows below: a row
//! `Variant(Struct) in module` declares the kind's file `module.rs`, makes `Variant(Struct)`
//! a variant of [`NetworkConfig`] (the enum a `[network]` table deserializes into,
//! `kind = "module"`), and puts the kind's unit struct `module::Variant` in `KINDS`.
//! The family table (`family::c104`) and the guide read the kind names from `KINDS`.
//! The other families' variants (`sci_ring`, `fabric`, `relay_ring`) are rows too, with
//! their doc comments and no file here: their builders are their own.
//!
//! A kind's file also holds its `Bound`s and words what each key of its `[network]`
//! table takes (`Kind::takes`): the user guide's reference asks [`takes`]
//! (through `network::bounds`), and a type error asks [`C104Kinds`], which whoever
//! loads a topology file passes to the configuration layer.
//!
//! Adding a kind of C104 network: a file here with its `[network]` struct (serde and
//! schemars derives, `deny_unknown_fields`, a doc comment on the struct and on every
//! field) and a unit struct implementing `Kind` (and `Layout` for its checked
//! parameters), and one row in the `network_kinds!` call. Its shipped topology file
//! needs no row: emu-core's build script embeds every file of `topologies/`.

use super::build::{BuildError, Parts, topo_err};
use super::pattern::Family;
use crate::config::topology::{FabricConfig, RelayRingConfig, RoutingMode, SciRingConfig};
use crate::parts::bounds::Bound;
use crate::routing::IntervalTable;
use crate::text::group;
use std::sync::LazyLock;

pub(super) use crate::config::limits::C104_LINKS;

/// Switches per side or per dimension (`network.side` of grids and tori, `network.k`
/// of k-ary n-cubes).
const SIDES: Bound = Bound::counting(2, 256, "switches per side");

/// Most switches (and terminals) of a k-ary n-cube, a fat tree or a dragonfly: what
/// 2-byte headers address.
const MAX_KARY_SWITCHES: u32 = 65_536;

/// The routing modes of a hypercube, a grid, a fat tree and a dragonfly (INMOS ch. 7
/// §7.5).
const CUBE_ROUTING: &[RoutingMode] = &[RoutingMode::Deterministic, RoutingMode::Universal];

/// `MAX_KARY_SWITCHES` as the reference writes it: "65,536".
fn max_kary_switches() -> String {
    group(MAX_KARY_SWITCHES.into())
}

/// The routing modes `modes` as a file names them, for a reference row:
/// `"deterministic" or "universal"`.
fn routings(modes: &[RoutingMode]) -> String {
    let names: Vec<String> = modes
        .iter()
        .map(|m| format!("{m:?}").to_lowercase())
        .collect();
    crate::config::bounds::quoted_or(names.iter().map(String::as_str))
}

/// One kind of network of C104s (`network.kind`), see the module documentation.
pub(super) trait Kind: Sync {
    /// The name a topology file gives it (`kind = "..."`).
    fn name(&self) -> &'static str;
    /// Whether `net` is a `[network]` table of this kind.
    fn owns(&self, net: &NetworkConfig) -> bool;
    /// Checks `net` (a table this kind [`Kind::owns`]) and says how many terminals and
    /// labels it has; every error names its key.
    fn validate(&self, net: &NetworkConfig) -> Result<Shape, BuildError>;
    /// What `key` of its `[network]` table takes, in the words of the user guide's
    /// reference, from the bounds [`Kind::validate`] checks; `None` for a key it says
    /// nothing of (a choice of names the schema lists, such as `wrap` of a k-ary
    /// n-cube).
    fn takes(&self, key: &str) -> Option<String>;
    /// What a type error at `key` says it takes, when it says other than
    /// [`Kind::takes`] (default: the same).
    fn type_error_takes(&self, key: &str) -> Option<String> {
        self.takes(key)
    }
    /// Whether the packets of one source–destination pair of `net` (a table this kind
    /// [`Kind::owns`]) can take different paths ([`NetworkConfig::multipath`]); false
    /// by default.
    fn multipath(&self, _net: &NetworkConfig) -> bool {
        false
    }
}

/// The checked parameters of one network: what [`Kind::validate`] makes and the
/// builder consumes without checking again.
pub(super) trait Layout: std::fmt::Debug + Send + Sync {
    /// Routing tables that can fail, with the warnings they give: a netlist's, given
    /// or computed, walked for every source and destination. Empty (the default) for
    /// a kind whose tables [`Layout::build`] makes as it places each switch.
    fn tables(&self) -> Result<(Vec<IntervalTable>, Vec<String>), BuildError> {
        Ok((Vec::new(), Vec::new()))
    }
    /// Adds the nodes and links, the switches routed by `tables` if [`Layout::tables`]
    /// made any; returns the switch count (the switches are nodes `0..count`).
    fn build(&self, parts: &mut Parts, tables: Vec<IntervalTable>) -> usize;
    /// Where the nodes sit when drawn.
    fn geometry(&self) -> super::Geometry;
}

/// What a validated network configuration amounts to.
#[derive(Debug)]
pub(super) struct Shape {
    /// The kind's checked parameters.
    pub layout: Box<dyn Layout>,
    /// The family, for resolving traffic patterns.
    pub family: Family,
    /// Number of terminals.
    pub terminals: u32,
    /// Header labels the routing tables use (terminals, plus random labels).
    pub labels: u32,
}

/// The registry of `[network]` kinds, one row each: `Variant(Struct) in module` for a
/// kind of C104 network (its file `module.rs` declares `Struct` and the unit struct
/// `Variant` implementing [`Kind`]), or a doc comment and `Variant(Struct)` for another
/// family's table. Generates the kinds' modules, [`NetworkConfig`] (variants in row
/// order) and `KINDS` (the C104 rows, in row order).
macro_rules! network_kinds {
    ($( $(#[$attr:meta])* $variant:ident ($network:ident) $(in $module:ident)? ),* $(,)?) => {
        $($(
            mod $module;
            pub use $module::$network;
        )?)*

        /// The network family and its size.
        #[derive(Clone, Debug, serde::Deserialize, serde::Serialize, PartialEq, schemars::JsonSchema)]
        #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
        #[non_exhaustive]
        pub enum NetworkConfig {
            $(
                $(#[$attr])*
                // A kind's description is its struct's doc comment: the variant adds
                // none to the schema.
                $(
                    #[doc = concat!("`kind = \"", stringify!($module), "\"`: [`", stringify!($network), "`].")]
                    #[schemars(title = "", description = "")]
                )?
                $variant($network),
            )*
        }

        /// Every kind of network of C104s, in the order `emu list` and the guide give
        /// them.
        pub(super) static KINDS: &[&dyn Kind] = &[$($(&$module::$variant,)?)*];
    };
}

network_kinds! {
    Hypercube(HypercubeNetwork) in hypercube,
    Ring(RingNetwork) in ring,
    Grid(GridNetwork) in grid,
    Torus(TorusNetwork) in torus,
    KaryNcube(KaryNcubeNetwork) in kary_ncube,
    Crossbar(CrossbarNetwork) in crossbar,
    Min(MinNetwork) in min,
    Netlist(NetlistConfig) in netlist,
    /// A ring of SCI nodes (SCI §2, Figure 1): no C104s, its own link protocol of 16-bit
    /// symbols every 2 ns, go-bit flow control. The `[link]`, `[packet]`, `[c104]` and
    /// `[vcp]` sections do not apply; `[faults]` gives its link faults.
    SciRing(SciRingConfig),
    /// A single-stage switch fabric with its adapters (Gramsamer ch. 2, 7): adapters with
    /// virtual output queues, links of a round trip of RTT packet cycles, a CICQ or CIOQ
    /// switch core, credit or grant flow control. One tick is one packet cycle. The
    /// `[link]`, `[packet]`, `[c104]` and `[vcp]` sections do not apply; `[faults]` gives
    /// its link faults.
    Fabric(FabricConfig),
    /// A ring of relay nodes passing balls: a protocol-free toy family with no hardware
    /// and no source document, the worked example of how a family plugs in
    /// (docs/architecture.md "Adding a family"). It reads only `[injection]` of a
    /// traffic file: batch, `messages` balls per node.
    RelayRing(RelayRingConfig),
    FatTree(FatTreeNetwork) in fat_tree,
    Dragonfly(DragonflyNetwork) in dragonfly,
    FlattenedButterfly(FlattenedButterflyNetwork) in flattened_butterfly,
}

impl NetworkConfig {
    /// True if the packets of one source–destination pair can take different paths
    /// (universal or adaptive routing), so that without acknowledges they may arrive
    /// out of order (INMOS ch. 7 §7.5).
    pub fn multipath(&self) -> bool {
        KINDS.iter().any(|k| k.owns(self) && k.multipath(self))
    }
}

/// The names of `KINDS`, in order.
pub fn names() -> &'static [&'static str] {
    static NAMES: LazyLock<Vec<&'static str>> =
        LazyLock::new(|| KINDS.iter().map(|k| k.name()).collect());
    NAMES.as_slice()
}

/// The kind of `KINDS` named `name`.
fn named(name: &str) -> Option<&'static dyn Kind> {
    KINDS.iter().copied().find(|k| k.name() == name)
}

/// What `key` takes in a network of C104s of kind `kind`, in the words of the user
/// guide's reference (`network::bounds::takes` adds the other families' and the shared
/// sections' keys); `None` for another kind or a key its kind says nothing of.
pub fn takes(kind: &str, key: &str) -> Option<String> {
    named(kind)?.takes(key)
}

/// The kinds of networks of C104s as the configuration layer asks them: what a type
/// error at a key of their `[network]` tables says the key takes. Loading a topology
/// file passes it in (`crate::family::load_topology`).
#[derive(Clone, Copy, Debug, Default)]
pub struct C104Kinds;

impl crate::config::Kinds for C104Kinds {
    fn takes(&self, kind: &str, key: &str) -> Option<String> {
        named(kind)?.type_error_takes(key)
    }
}

/// Whether `net` is a network of C104s: one of `KINDS` owns it.
pub fn owns(net: &NetworkConfig) -> bool {
    KINDS.iter().any(|k| k.owns(net))
}

/// Checks `net` and says how many terminals and labels it has.
pub(super) fn validate(net: &NetworkConfig) -> Result<Shape, BuildError> {
    match KINDS.iter().find(|k| k.owns(net)) {
        Some(kind) => kind.validate(net),
        // Every other kind is a family of its own, with its own builder (the front
        // end's family registry picks it): none of them is made of C104s.
        None => Err(topo_err(
            "network.kind",
            "not a network of C104s: this family has its own builder (the front end's \
             family registry, emu::family, picks it)",
        )),
    }
}

/// Refuses `value` at `key` unless `bound` holds it, in the bound's words after `lead`
/// and before `why`.
pub(super) fn within(
    key: &str,
    bound: Bound,
    value: u32,
    lead: &str,
    why: &str,
) -> Result<(), BuildError> {
    if bound.contains(value.into()) {
        Ok(())
    } else {
        Err(topo_err(key, bound.refusal(value.into(), lead, why)))
    }
}

/// Refuses `routing` at `key` unless it is one of `allowed`.
pub(super) fn only(
    key: &str,
    routing: RoutingMode,
    allowed: &[RoutingMode],
) -> Result<(), BuildError> {
    if allowed.contains(&routing) {
        Ok(())
    } else {
        let names: Vec<_> = allowed
            .iter()
            .map(|r| format!("\"{}\"", format!("{r:?}").to_lowercase()))
            .collect();
        Err(topo_err(
            key,
            format!(
                "\"{}\" routing is not defined for this network: give {}",
                format!("{routing:?}").to_lowercase(),
                names.join(" or ")
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_distinct_name_and_owns_its_shipped_files() {
        let mut seen = std::collections::BTreeSet::new();
        for name in names() {
            assert!(seen.insert(*name), "{name} twice");
        }
        for entry in crate::config::shipped_topologies() {
            let topo = crate::family::load_topology(entry.0, &[]).expect("a shipped topology");
            let owners = KINDS
                .iter()
                .filter(|k| k.owns(&topo.config.network))
                .count();
            let kind = serde_json::to_value(&topo.config.network).expect("serialises")["kind"]
                .as_str()
                .map(str::to_string)
                .expect("a kind");
            assert_eq!(
                owners,
                usize::from(names().contains(&kind.as_str())),
                "{}",
                entry.0
            );
        }
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;
    use crate::config::Kinds;

    #[test]
    fn a_bound_checks_and_words_its_range() {
        let (switches, terminals) = (ring::SWITCHES, crossbar::TERMINALS);
        assert!(SIDES.contains(2) && SIDES.contains(256) && !SIDES.contains(257));
        assert!(!switches.contains(1));
        assert_eq!(switches.takes(), "a whole number from 2 to 4,096");
        for (bound, value, lead, why, words) in [
            (
                switches,
                1,
                "",
                "",
                "1: give a whole number from 2 to 4,096",
            ),
            (SIDES, 300, "", "", "300: give 2 to 256 switches per side"),
            (
                terminals,
                33,
                "one C104 has 32 links, ",
                "",
                "33: one C104 has 32 links, give 1 to 32",
            ),
            (
                hypercube::UNIVERSAL_DIMENSIONS,
                16,
                "",
                " (why)",
                "16: give a whole number from 1 to 15 (why)",
            ),
        ] {
            assert_eq!(bound.refusal(value, lead, why), words);
        }
    }

    #[test]
    fn a_type_error_takes_the_kind_s_words_where_they_differ_from_the_reference() {
        assert_eq!(
            C104Kinds
                .takes("hypercube", "network.dimensions")
                .as_deref(),
            Some("a whole number from 1 to 20")
        );
        assert_eq!(
            C104Kinds.takes("ring", "network.switches"),
            takes("ring", "network.switches")
        );
        assert_eq!(C104Kinds.takes("sci_ring", "network.nodes"), None);
        assert_eq!(C104Kinds.takes("grid", "network.nope"), None);
    }
}

#[cfg(test)]
mod validation_tests {
    use crate::config::TrafficConfig;
    use crate::network::TopologyConfig;
    use crate::network::build;

    fn err(network: &str, packet: &str) -> (String, String) {
        let t: TopologyConfig =
            toml::from_str(&format!("[network]\n{network}\n{packet}")).expect("parses");
        let f: TrafficConfig =
            toml::from_str("[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"continuous\"\n")
                .expect("parses");
        let e = build("x", &t, &f, 1).expect_err("rejected");
        (e.key, e.message)
    }

    #[test]
    fn shapes_that_do_not_fit_a_c104_name_their_key_and_the_32_links() {
        let (k, m) = err("kind = \"kary_ncube\"\nk = 3\nn = 8", "");
        assert_eq!(k, "network.n");
        assert!(m.contains("33 links") && m.contains("32"), "{m}");
        let (k, m) = err("kind = \"crossbar\"\nterminals = 33", "");
        assert_eq!(k, "network.terminals");
        assert!(m.contains("32 links"), "{m}");
        let (k, _) = err("kind = \"min\"\nterminals = 100", "");
        assert_eq!(k, "network.terminals");
        let (k, m) = err(
            "kind = \"hypercube\"\ndimensions = 16\nrouting = \"universal\"",
            "",
        );
        assert_eq!(k, "network.dimensions");
        assert!(m.contains("32 links"), "{m}");
        let (k, _) = err("kind = \"torus\"\nside = 4\nwrap = \"none\"", "");
        assert_eq!(k, "network.wrap");
        let (k, m) = err("kind = \"grid\"\nside = 4\nrouting = \"adaptive\"", "");
        assert_eq!(k, "network.routing");
        assert!(m.contains("\"universal\""), "{m}");
        let (k, _) = err("kind = \"grid\"\nside = 1", "");
        assert_eq!(k, "network.side");
    }

    #[test]
    fn random_labels_count_against_the_header_size() {
        // 256 terminals fit one byte; their 16 random columns do not.
        let (k, m) = err(
            "kind = \"grid\"\nside = 16\nrouting = \"universal\"",
            "[packet]\nheader_bytes = 1",
        );
        assert_eq!(k, "packet.header_bytes");
        assert!(m.contains("272 labels"), "{m}");
    }
}
