//! The topology file schema (`topologies/*.toml`).
//!
//! Every field has the source documents' default; unknown keys are errors. Semantic
//! checks (ranges, consistency) live in [`crate::network::build()`], so that each
//! message can name the key.

pub use crate::parts::c104::config::C104Config;
pub use crate::parts::dslink::config::{BufferSize, FaultConfig, LinkConfig, PacketConfig};
pub use crate::parts::fabric::config::{FabricConfig, MemoryConfig};
pub use crate::parts::relay::config::RelayRingConfig;
pub use crate::parts::sci::config::{MixConfig, SciRingConfig};
pub use crate::parts::t9000::config::VcpConfig;
pub use crate::routing::mode::{RoutingMode, Wrap};
use serde::{Deserialize, Serialize};

/// A whole topology file.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopologyConfig {
    /// One line shown by `emu list`.
    #[serde(default)]
    pub description: String,
    /// The shape of the network and its routing.
    pub network: NetworkConfig,
    /// DS-Link parameters, shared by every link.
    #[serde(default)]
    pub link: LinkConfig,
    /// Packet format.
    #[serde(default)]
    pub packet: PacketConfig,
    /// IMS C104 switch parameters.
    #[serde(default)]
    pub c104: C104Config,
    /// T9000 virtual channel processor parameters.
    #[serde(default)]
    pub vcp: VcpConfig,
    /// Deliberate misconfigurations, for testing the emulator's own checks.
    #[serde(default)]
    pub faults: FaultConfig,
}

impl TopologyConfig {
    /// The sections a topology file may have besides `description` and `[network]`, in
    /// file order. Which of them a network reads is its family's choice
    /// (`crate::family::Family::sections`).
    pub const SECTIONS: &'static [&'static str] = &["link", "packet", "c104", "vcp", "faults"];

    /// The configuration as a report echoes it: `description`, `[network]` and, of
    /// [`TopologyConfig::SECTIONS`], those in `sections`, in file order. A family
    /// without `[link]` (SCI rings, fabrics) echoes `[faults]` only when a link fault
    /// is set, and only its link-fault keys.
    pub fn echo<'a>(&'a self, sections: &'a [&'a str]) -> Echo<'a> {
        Echo {
            config: self,
            sections,
        }
    }
}

/// A topology configuration with only some of its sections, for reports: see
/// [`TopologyConfig::echo`].
#[derive(Clone, Copy, Debug)]
pub struct Echo<'a> {
    config: &'a TopologyConfig,
    sections: &'a [&'a str],
}

/// The schema of an [`Echo`]: a topology configuration whose sections besides
/// `description` and `[network]` may each be absent.
pub(crate) fn echo_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut schema = <TopologyConfig as schemars::JsonSchema>::json_schema(generator);
    if let Some(required) = schema
        .get_mut("required")
        .and_then(serde_json::Value::as_array_mut)
    {
        required.retain(|key| !TopologyConfig::SECTIONS.iter().any(|s| key == s));
    }
    schema
}

impl Serialize for Echo<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let c = self.config;
        let has = |name: &str| self.sections.contains(&name);
        let fields = 2 + TopologyConfig::SECTIONS.iter().filter(|s| has(s)).count();
        let mut s = serializer.serialize_struct("TopologyConfig", fields)?;
        s.serialize_field("description", &c.description)?;
        s.serialize_field("network", &c.network)?;
        if has("link") {
            s.serialize_field("link", &c.link)?;
        }
        if has("packet") {
            s.serialize_field("packet", &c.packet)?;
        }
        if has("c104") {
            s.serialize_field("c104", &c.c104)?;
        }
        if has("vcp") {
            s.serialize_field("vcp", &c.vcp)?;
        }
        if has("faults") {
            if has("link") {
                s.serialize_field("faults", &c.faults)?;
            } else if c.faults != crate::parts::dslink::config::FaultConfig::default() {
                s.serialize_field("faults", &LinkFaults::of(&c.faults))?;
            }
        }
        s.end()
    }
}

/// The link-fault keys of `[faults]`, as a family without DS-Links echoes them: only
/// when some are set, and without the DS-Link credit faults it refuses.
#[derive(Serialize)]
struct LinkFaults<'a> {
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    link_down: &'a [crate::parts::dslink::config::LinkDown],
    #[serde(skip_serializing_if = "is_zero")]
    token_error_rate: f64,
}

impl<'a> LinkFaults<'a> {
    fn of(f: &'a crate::parts::dslink::config::FaultConfig) -> LinkFaults<'a> {
        LinkFaults {
            link_down: &f.link_down,
            token_error_rate: f.token_error_rate,
        }
    }
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// The network family and its size.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum NetworkConfig {
    /// Binary n-cube of C104s, one terminal per switch, e-cube routing highest
    /// dimension first (INMOS ch. 7 §7.3.1).
    Hypercube {
        /// n: the cube has 2^n switches and 2^n terminals.
        dimensions: u32,
        /// `deterministic` (e-cube) or `universal`: two parallel cubes, the first to
        /// a random intermediate switch, the second from it to the destination
        /// (INMOS ch. 7 §7.5).
        #[serde(default)]
        routing: RoutingMode,
        /// Universal routing only: 2 (the default) gives each journey its own cube of
        /// links (INMOS ch. 7 §7.5); 1 forces both journeys onto one set of links, whose
        /// channel dependencies then have cycles (for deadlock studies: `emu check`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        link_sets: Option<u32>,
    },
    /// A ring of C104s, one terminal per switch, every packet routed clockwise: the
    /// simplest network whose channel dependency graph has a cycle, so it can
    /// deadlock (INMOS ch. 7 §7.3.2 on why wrap-around links need doubling).
    Ring {
        /// Number of switches, and of terminals.
        switches: u32,
    },
    /// A square 2-D grid of C104s, one terminal per switch, edge links unused,
    /// routed first in y then in x (INMOS ch. 7 §7.3.2). Terminal label = y·side + x.
    Grid {
        /// Switches per side; the grid has side² switches and terminals.
        side: u32,
        /// `deterministic` (y then x) or `universal`: first to a random column of the
        /// same row over an extra set of x links, then y then x (INMOS ch. 7 §7.5).
        #[serde(default)]
        routing: RoutingMode,
    },
    /// A k-ary 2-cube (2-D torus), one terminal per switch, dimension-order routing
    /// (y then x) the shorter way round each ring (INMOS ch. 7 §7.3.2 on wrap-around links).
    Torus {
        /// Switches per side; the torus has side² switches and terminals.
        side: u32,
        /// `single` (one set of wrap-around links: can deadlock) or `doubled`.
        #[serde(default)]
        wrap: Wrap,
    },
    /// A general k-ary n-cube (or, with `wrap = "none"`, an n-dimensional mesh), one
    /// terminal per switch, dimension-order routing highest dimension first: emu's
    /// generalisation of the grids and tori of INMOS ch. 7 §7.3.2 (n = 1 is a
    /// bidirectional ring routed the short way).
    KaryNcube {
        /// Switches per dimension.
        k: u32,
        /// Dimensions: the network has k^n switches and terminals.
        n: u32,
        /// `none` (a mesh), `single` or `doubled`.
        #[serde(default)]
        wrap: Wrap,
    },
    /// One C104 with a terminal on each of `terminals` links: a single-stage crossbar
    /// network (Proteus, crossbar networks; INMOS ch. 7 §7.1).
    Crossbar {
        /// Terminals, one on each of the first `terminals` links.
        terminals: u32,
    },
    /// The indirect multistage network of INMOS ch. 7 §7.2-7.3.3 (Figures 7.1-7.4): a left
    /// column of C104s with 16 terminal links and 16 links to a right column; 1024
    /// terminals use 64-way networks as centre stages.
    Min {
        /// Terminals, 16 on each left-hand C104.
        terminals: u32,
        /// `deterministic` (a fixed right-hand switch per source switch and
        /// destination), `universal` (a random right-hand link) or `adaptive` (grouped
        /// adaptive routing over the right-hand links, INMOS ch. 7 §7.5 last paragraph).
        #[serde(default)]
        routing: RoutingMode,
    },
    /// A network drawn by the user: C104 switches, terminals and links listed
    /// explicitly, routing tables given as intervals or computed as shortest paths
    /// (interval labelling, INMOS ch. 7 §7.1). Every table, given or computed, is walked
    /// for every label before the run: a label with no route, a loop or a wrong terminal
    /// is refused naming the key.
    Netlist(NetlistConfig),
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
    /// A k-ary n-tree of C104s (a fat tree): the folded Clos network the indirect
    /// multistage networks of INMOS ch. 7 §7.2-7.3.3 generalise to `n` stages, `k`
    /// terminals per leaf switch, `k` links up from every switch below the top.
    /// Up/down interval routing: up to the nearest common ancestor, then down by label
    /// intervals.
    FatTree {
        /// Terminals per leaf switch, and links up from each switch below the top.
        k: u32,
        /// Levels: the tree has n·k^(n-1) switches and k^n terminals.
        n: u32,
        /// `deterministic` (up on the link the destination's digit names, to the
        /// nearest common ancestor) or `universal` (up to a random top-level switch,
        /// INMOS ch. 7 §7.5, then down).
        #[serde(default)]
        routing: RoutingMode,
    },
    /// A dragonfly of C104s: groups of `a` switches joined all-to-all by local links,
    /// `p` terminals and `h` global links per switch, `a·h + 1` groups each joined to
    /// every other by one global link. Minimal routing (local, global, local) or
    /// universal routing via a random intermediate group (INMOS ch. 7 §7.5).
    Dragonfly {
        /// Switches per group.
        a: u32,
        /// Terminals per switch.
        p: u32,
        /// Global links per switch; the network has a·h + 1 groups.
        h: u32,
        /// 2 (the default): local links doubled, one set before the global hop and
        /// one after (with universal routing, each journey on links of its own: three
        /// local sets and two global), so the channel dependencies have no cycle; 1:
        /// one set of every link, whose dependencies have cycles (for deadlock
        /// studies: `emu check`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        local_sets: Option<u32>,
        /// `deterministic` (minimal: local, global, local) or `universal` (minimally
        /// to a random intermediate group, then minimally to the destination).
        #[serde(default)]
        routing: RoutingMode,
    },
    /// A 2-D flattened butterfly of C104s (Kim, Dally and Abts, ISCA 2007): a `rows` ×
    /// `cols` array of switches, each linked to every other switch of its row and of
    /// its column, `p` terminals per switch. Dimension-order routing, along the row
    /// first, then along the column: at most two hops, and no cycle of channel
    /// dependencies.
    FlattenedButterfly {
        /// Rows of switches.
        rows: u32,
        /// Columns of switches; the network has rows·cols switches.
        cols: u32,
        /// Terminals per switch.
        p: u32,
    },
}

/// The explicit form of a network (`kind = "netlist"`): switches by port count,
/// terminals by the switch port they hang on (terminal i has header label i), links
/// between switch ports, and optionally each switch's interval table (INMOS ch. 7 §7.1: a C104
/// routes by giving each output link intervals of header labels).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NetlistConfig {
    /// Port count of each C104 switch; switch i is the i-th entry.
    pub switches: Vec<u32>,
    /// `[switch, port]` of each terminal; terminal i has label i.
    pub terminals: Vec<[u32; 2]>,
    /// `[switch_a, port_a, switch_b, port_b]`: one bidirectional DS-Link each.
    #[serde(default)]
    pub links: Vec<[u32; 4]>,
    /// Per switch, `[lo, hi, port]` intervals: labels lo..hi (hi exclusive) leave on
    /// `port`. Empty: shortest-path tables are computed.
    #[serde(default)]
    pub tables: Vec<Vec<[u32; 3]>>,
}

impl NetworkConfig {
    /// True if the packets of one source–destination pair can take different paths
    /// (universal or adaptive routing), so that without acknowledges they may arrive
    /// out of order (INMOS ch. 7 §7.5).
    pub fn multipath(&self) -> bool {
        match self {
            NetworkConfig::Hypercube { routing, .. }
            | NetworkConfig::Grid { routing, .. }
            | NetworkConfig::Min { routing, .. }
            | NetworkConfig::FatTree { routing, .. }
            | NetworkConfig::Dragonfly { routing, .. } => *routing != RoutingMode::Deterministic,
            _ => false,
        }
    }
}
