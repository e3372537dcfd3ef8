//! `emu reproduce`: the analytic models of INMOS ch. 6 (DS-Link
//! bandwidth, link latency, single virtual channel, C104 contention and worst case)
//! reproduced by emulation, with the paper's figure next to the emulator's.
//!
//! Every emulated number comes from running the model's state machines through the
//! reference engine ([`crate::engine::sequential::run`]) on a small plan built by
//! [`setups`]; the reference column is a number the paper prints, or one computed here
//! from the paper's formula (each row names which). One file per experiment.

pub mod c104_contention;
pub mod c104_networks;
pub mod c104_published;
pub mod c104_worst_case;
pub mod dslink_bandwidth;
pub mod dslink_latency;
pub mod error;
pub mod fabric;
pub mod pages;
pub mod sci;
pub mod setups;
pub mod table;
pub mod vcp_single_channel;

pub use error::ReproduceError;
pub use table::{Curve, Forms, KnownMiss, Report, Row, Table, Tolerance};

/// One reproducible experiment.
pub struct Experiment {
    /// Name used on the command line.
    pub name: &'static str,
    /// Section it reproduces (of INMOS ch. 6 unless it names INMOS ch. 7).
    pub section: &'static str,
    /// One line saying what it shows.
    pub about: &'static str,
    /// Runs it (`quick` = the scaled-down version the tests use).
    pub run: fn(bool) -> Result<Report, ReproduceError>,
}

/// Every experiment, in the order of the chapter.
pub const EXPERIMENTS: &[Experiment] = &[
    Experiment {
        name: "dslink-bandwidth",
        section: "§6.1",
        about: "link throughput vs message size, 1/2-byte headers, uni/bidirectional; Table 6.1",
        run: dslink_bandwidth::run,
    },
    Experiment {
        name: "dslink-latency",
        section: "§6.2.1-6.2.2",
        about: "full bandwidth up to the delay the buffer slack allows; no data with buffer < batch",
        run: dslink_latency::run,
    },
    Experiment {
        name: "vcp-single-channel",
        section: "§6.2.3",
        about: "one acknowledged virtual channel vs message size; more channels hide latency",
        run: vcp_single_channel::run,
    },
    Experiment {
        name: "c104-contention",
        section: "§6.3.1-6.3.6",
        about: "C104 throughput and delay with random outputs vs the slotted model T, D",
        run: c104_contention::run,
    },
    Experiment {
        name: "c104-worst-case",
        section: "§6.3.7",
        about: "32 packets to one output at once: the unlucky packet's delay (~115 µs)",
        run: c104_worst_case::run,
    },
    Experiment {
        name: "c104-networks",
        section: "INMOS ch. 7 §7.6-7.7",
        about: "Tables 7.1-7.9 and Figure 7.8: C104 cubes, grids and MINs (full run: minutes)",
        run: c104_networks::run,
    },
    Experiment {
        name: "fabric-analytic",
        section: "Gramsamer §4.3, §5.6, §6",
        about: "Tables 4.1 (I, C), 5.7, 5.8, 6.1 from their formulas; the printed misprints shown",
        run: fabric::analytic::run,
    },
    Experiment {
        name: "fabric-buffers",
        section: "Gramsamer §4.3",
        about: "Table 4.1's B measured: relative credit RTT, absolute 2RTT − 1 (Abs I, B: + B_n), grant 2RTT, Grant OT RTT",
        run: fabric::buffers::run,
    },
    Experiment {
        name: "fabric-bimodal",
        section: "Gramsamer §2.5.1",
        about: "bimodal frames (10/30 packets) vs on/off bursts: comparable to a modestly bursty source",
        run: fabric::bimodal::run,
    },
    Experiment {
        name: "fabric-credit-fifo",
        section: "Gramsamer §7.3.1",
        about: "credits queued per input with one credit per cycle: 56.3 at L = 95 %, 110.6 at 98 %",
        run: fabric::credit_fifo::run,
    },
    Experiment {
        name: "fabric-design-point",
        section: "Gramsamer §7.6.1",
        about: "Table 7.6: RXS strategies vs the Reference at M = RTT = 64, L = 98 %, N = 8-32",
        run: fabric::design_point::run,
    },
    Experiment {
        name: "fabric-dynamics",
        section: "Gramsamer §7.2",
        about: "Fig. 7.8: flows switched on and off; RR takes the new shares at once, OCF ~250 cycles later",
        run: fabric::dynamics::run,
    },
    Experiment {
        name: "fabric-fc-events",
        section: "Gramsamer §7.3.3",
        about: "Fig. 7.22: one credit per cycle (FIFO) against N (the Reference): delays in accordance",
        run: fabric::fc_events::run,
    },
    Experiment {
        name: "fabric-link-length",
        section: "Gramsamer §7.6.3",
        about: "Tables 7.11-7.12: RTT 4 vs 64 at L = 90-98 %; short links show larger differences",
        run: fabric::link_length::run,
    },
    Experiment {
        name: "fabric-memory",
        section: "Gramsamer §7.6.2",
        about: "Tables 7.7/7.9: strategies at M = 60 % and 100 % RTT; the Reference needs ~2× LOF's memory",
        run: fabric::memory::run,
    },
    Experiment {
        name: "fabric-non-uniform",
        section: "Gramsamer §7.6.4",
        about: "Tables 7.14-7.19: non-uniform destinations (w = 0.6, 0.8); the Reference is best",
        run: fabric::non_uniform::run,
    },
    Experiment {
        name: "fabric-oqs-fairness",
        section: "Gramsamer §7.2",
        about: "Tables 7.1-7.3: three flows into one output, oldest cell first vs round robin",
        run: fabric::oqs_fairness::run,
    },
    Experiment {
        name: "fabric-parallel-departures",
        section: "Gramsamer §7.3.2",
        about: "Figs. 7.13-7.21: departures per input row and cycle, P(0) down to ~35 %, the binomial model",
        run: fabric::parallel_departures::run,
    },
    Experiment {
        name: "sci-active-buffers",
        section: "SCI §4.4",
        about: "Fig. 10: one active buffer helps R = 4 and 16, a second only R = 4",
        run: sci::buffers::active_buffers,
    },
    Experiment {
        name: "sci-bus",
        section: "SCI §4.6",
        about: "Fig. 12: the ring against an M/G/1 bus of 2-30 ns; a bus needs 4 ns to compete",
        run: sci::bus::run,
    },
    Experiment {
        name: "sci-flow-control-cost",
        section: "SCI §4.1, §5",
        about: "Figs. 4-5: max throughput with / without go-bit flow control, R = 2..64, 3 mixes",
        run: sci::flow_control_cost::run,
    },
    Experiment {
        name: "sci-hot-sender",
        section: "SCI §4.3",
        about: "Fig. 9: a saturated node's rate without and with go-bit flow control, R = 4 and 16",
        run: sci::hot_sender::run,
    },
    Experiment {
        name: "sci-latency-breakdown",
        section: "SCI §4.8",
        about: "Fig. 14: latency parts (fixed, ring buffer, idle source, source queue) measured beside the App. A model",
        run: sci::latency_breakdown::run,
    },
    Experiment {
        name: "sci-request-response",
        section: "SCI §4.7",
        about: "Fig. 13: read requests and 64-byte responses sustain 600-800 MB/s of data",
        run: sci::request_response::run,
    },
    Experiment {
        name: "sci-sink-rate",
        section: "SCI §4.5",
        about: "Fig. 11: a slower sink lowers max throughput, more on smaller rings",
        run: sci::buffers::sink_rate,
    },
    Experiment {
        name: "sci-starvation",
        section: "SCI §4.2",
        about: "Figs. 6-7: a node nothing is sent to is starved without flow control, not with it",
        run: sci::starvation::run,
    },
    Experiment {
        name: "sci-uniform",
        section: "SCI §4.1, App. A",
        about: "Fig. 3: uniform traffic, the App. A model beside the emulation, R = 4 and 16",
        run: sci::uniform::run,
    },
];

/// The experiments whose runs are one grid of switch-fabric points
/// ([`fabric::grid::run_grid`], called once): shards split their points instead of
/// taking them whole. They are the longest of the full validation.
pub const BY_POINT: &[&str] = &[
    "fabric-design-point",
    "fabric-link-length",
    "fabric-memory",
    "fabric-non-uniform",
];

/// The experiment called `name`.
pub fn find(name: &str) -> Option<&'static Experiment> {
    EXPERIMENTS.iter().find(|e| e.name == name)
}
