//! Properties over random small networks and random traffic: every
//! message created is delivered exactly once and in order; the credit invariant holds
//! at every barrier (`--check`); every message's latency is its path's uncontended
//! delay plus the waits its journey measured, to the tick; both engines on one and two threads give
//! byte-identical reports; a network whose channel dependency graph `emu check` proves
//! acyclic never deadlocks; one it finds cyclic, when it deadlocks, reports a wait-for
//! cycle whose every step is a dependency of that graph. (The zero-load latency
//! property is in tests/network.rs, beside its closed form.)
//!
//! CI runs `PROPTEST_CASES` (default 64 here) cases per property; the long form is
//! `PROPTEST_CASES=10000 cargo test --release --test integration properties::` (README
//! "Reliability"). Failing cases are shrunk by proptest and kept in
//! `tests/properties.proptest-regressions`, which is committed and replayed first.

use emu::deadlock::cdg::Cdg;
use emu::deadlock::check::CheckReport;
use emu::deadlock::waitfor;
use emu::engine::{self, EngineError, RunControl, RunOutcome};
use emu::session::Case;
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Cases per property unless `PROPTEST_CASES` says otherwise.
const CI_CASES: u32 = 64;

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CI_CASES);
    Config {
        cases,
        // A rejected case (a pattern the network cannot take) is not a failure.
        max_global_rejects: cases.saturating_mul(4),
        ..Config::default()
    }
}

/// A topology: a shipped file and the `--set`s that shape it, or a netlist's text.
#[derive(Clone, Debug)]
enum Topology {
    Shipped(&'static str, Vec<String>),
    Netlist(String),
}

fn shipped(file: &'static str, sets: &[String]) -> Topology {
    Topology::Shipped(file, sets.to_vec())
}

/// Hypercubes of 1-4 dimensions, grids and doubled tori of side 2-4, the 32-way MIN,
/// crossbars of 2-8 terminals, and random netlists.
fn topology() -> impl Strategy<Value = Topology> {
    prop_oneof![
        (1u32..=4).prop_map(|d| shipped("hypercube6", &[format!("network.dimensions={d}")])),
        (2u32..=4).prop_map(|s| shipped("grid8", &[format!("network.side={s}")])),
        (2u32..=4).prop_map(|s| shipped("torus8", &[format!("network.side={s}")])),
        Just(shipped("min64", &["network.terminals=32".to_string()])),
        (2u32..=8).prop_map(|t| shipped("crossbar32", &[format!("network.terminals={t}")])),
        netlist(),
    ]
}

/// A random connected network of 2-5 switches: a random tree, up to two more links
/// between distinct switches, and 2-10 terminals on random switches; its tables are
/// computed (shortest paths), so the graph may be cyclic.
fn netlist() -> impl Strategy<Value = Topology> {
    (2usize..=5)
        .prop_flat_map(|switches| {
            (
                Just(switches),
                proptest::collection::vec(any::<prop::sample::Index>(), switches - 1),
                proptest::collection::vec((0..switches, 0..switches), 0..=2),
                proptest::collection::vec(0..switches, 2..=10),
            )
        })
        .prop_map(|(switches, parents, extra, terminals)| {
            let mut ports = vec![0u32; switches];
            let mut port = |s: usize| {
                ports[s] += 1;
                ports[s] - 1
            };
            let mut links = Vec::new();
            for (i, p) in parents.iter().enumerate() {
                let (a, b) = (i + 1, p.index(i + 1));
                links.push(format!("[{a}, {}, {b}, {}]", port(a), port(b)));
            }
            for (a, b) in extra {
                if a != b {
                    links.push(format!("[{a}, {}, {b}, {}]", port(a), port(b)));
                }
            }
            let terms: Vec<String> = terminals
                .iter()
                .map(|&s| format!("[{s}, {}]", port(s)))
                .collect();
            let sizes: Vec<String> = ports.iter().map(|p| p.max(&1).to_string()).collect();
            Topology::Netlist(format!(
                "[network]\nkind = \"netlist\"\nswitches = [{}]\nterminals = [{}]\nlinks = [{}]\n\
                 [link]\nbuffer_tokens = \"packet\"\n[packet]\nheader_bytes = 1\nmax_data_bytes = 32\n\
                 [c104]\noutput_buffer_tokens = \"packet\"\n",
                sizes.join(", "),
                terms.join(", "),
                links.join(", ")
            ))
        })
}

/// Traffic: every DS-Link pattern, 0-200-byte messages, continuous, Bernoulli or
/// batch injection at loads up to 1, and buffers from one FCT batch (8 tokens) up.
fn traffic() -> impl Strategy<Value = Vec<String>> {
    let pattern = prop_oneof![
        Just("uniform"),
        Just("shuffle"),
        Just("systematic"),
        Just("bitrev"),
        Just("bitcomp"),
        Just("transpose"),
    ];
    let injection = prop_oneof![
        Just(vec!["injection.kind=continuous".to_string()]),
        (1u32..=100).prop_map(|l| vec![
            "injection.kind=rate".to_string(),
            format!("injection.load={}", f64::from(l) / 100.0)
        ]),
        (1u32..=6).prop_map(|m| vec![
            "injection.kind=batch".to_string(),
            format!("injection.messages={m}")
        ]),
    ];
    let buffer = prop_oneof![
        Just("packet".to_string()),
        (8u32..=80).prop_map(|b| b.to_string())
    ];
    (pattern, injection, 0u32..=200, buffer.clone(), buffer).prop_map(
        |(pattern, injection, bytes, link_buffer, output_buffer)| {
            let mut sets = vec![
                format!("pattern.kind={pattern}"),
                format!("message.bytes={bytes}"),
                format!("link.buffer_tokens={link_buffer}"),
                format!("c104.output_buffer_tokens={output_buffer}"),
                "phases.warmup_us=2".to_string(),
                "phases.measure_us=15".to_string(),
                "phases.drain_limit_us=3000".to_string(),
            ];
            sets.extend(injection);
            sets
        },
    )
}

/// Loads the case, or `None` if the plan refuses it (a pattern that needs a power of
/// two of terminals, a buffer smaller than the protocol allows): not this test's subject.
fn load(
    topology: &Topology,
    sets: &[String],
    seed: u64,
) -> Option<(Case, Option<tempfile::TempDir>)> {
    match topology {
        Topology::Shipped(file, extra) => {
            let mut all = extra.clone();
            all.extend_from_slice(sets);
            Case::load(file, "uniform", &all, seed)
                .ok()
                .map(|c| (c, None))
        }
        Topology::Netlist(text) => {
            let dir = tempfile::tempdir().expect("a temporary directory");
            let path = dir.path().join("net.toml");
            std::fs::write(&path, text).expect("write the netlist");
            let path = path.to_string_lossy().into_owned();
            Case::load(&path, "uniform", sets, seed)
                .ok()
                .map(|c| (c, Some(dir)))
        }
    }
}

/// The report of a run, or its error (the same error must come from every engine).
fn text(case: &Case, r: &Result<RunOutcome, EngineError>) -> String {
    match r {
        Ok(o) => case.report(o).to_json(),
        Err(e) => format!("error: {e}"),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_message_is_delivered_once_in_order_and_every_engine_agrees(
        topology in topology(),
        sets in traffic(),
        seed in 1u64..1000,
    ) {
        let loaded = load(&topology, &sets, seed);
        prop_assume!(loaded.is_some());
        let (case, _dir) = loaded.expect("loaded");
        let acyclic = CheckReport::of(&case.net).is_ok_and(|r| r.cycle.is_none());
        // Random netlists with cyclic computed tables are the deadlock tests' business.
        prop_assume!(acyclic);
        let ctl = RunControl { check: true, ..case.control() };
        let reference = engine::sharded::run(&case.net, &ctl, 1, None);
        // An acyclic network never deadlocks, and the credit check never fails.
        let o = match &reference {
            Ok(o) => o,
            Err(e) => return Err(TestCaseError::fail(format!("{e}"))),
        };
        let total = emu::stats::TerminalStats::total(&o.terminals);
        let c = total.counters;
        prop_assert_eq!(c.out_of_order, 0, "a message out of order or twice");
        if case.net.run().batch {
            prop_assert!(o.complete, "a batch left messages undelivered");
            prop_assert_eq!(c.delivered, c.created, "batch: created ≠ delivered");
            // Every data packet arrived once (acknowledges may still be on their way
            // back when the last message is delivered, so packets in and out of the
            // network need not balance).
            let u = case.net.units();
            let packets = u64::from(u.message_bytes.div_ceil(u.max_data_bytes).max(1));
            prop_assert_eq!(c.packets_delivered, c.created * packets);
        } else if o.complete {
            prop_assert_eq!(c.measured_delivered, c.measured_created);
        }
        prop_assert!(c.delivered <= c.created, "more delivered than created");
        // Every delivered message's latency is its path's uncontended delay plus the
        // waits its journey measured, to the tick.
        let timing = emu::network::timing::check_journeys(&case.net, &o.terminals);
        prop_assert!(timing.is_ok(), "{}", timing.err().map(|e| e.to_string()).unwrap_or_default());
        let timing = timing.unwrap_or_default();
        prop_assert_eq!(timing.messages + timing.unfixed_messages, c.delivered);
        // Every engine and thread count gives the same bytes.
        let want = text(&case, &reference);
        for (label, r) in [
            ("sharded on 2 threads", engine::sharded::run(&case.net, &ctl, 2, None)),
            ("actors on 2 threads", engine::actors::run(&case.net, &ctl, 2, None)),
        ] {
            prop_assert!(text(&case, &r) == want, "{} differs", label);
        }
    }

    #[test]
    fn a_runtime_deadlock_is_a_cycle_of_the_static_dependency_graph(
        topology in cyclic_topology(),
        bytes in 16u32..=200,
        buffer in 8u32..=34,
        seed in 1u64..1000,
    ) {
        let sets = vec![
            format!("message.bytes={bytes}"),
            format!("link.buffer_tokens={buffer}"),
            "phases.warmup_us=0".to_string(),
            "phases.measure_us=300".to_string(),
            "phases.drain_limit_us=500".to_string(),
        ];
        let loaded = load(&topology, &sets, seed);
        prop_assume!(loaded.is_some());
        let (case, _dir) = loaded.expect("loaded");
        let cdg = Cdg::build(&case.net);
        prop_assume!(cdg.as_ref().is_ok_and(|g| g.find_cycle().is_some()));
        let cdg = cdg.expect("built");
        let r = engine::sharded::run(&case.net, &case.control(), 1, None);
        if let Err(EngineError::Deadlock { cycle: Some(cycle), .. }) = &r {
            let channels: Vec<_> = waitfor::channels(cycle)
                .into_iter()
                .map(|(from, to)| cdg.channel(from, to))
                .collect();
            prop_assert!(!channels.is_empty(), "a wait-for cycle that crosses no link");
            prop_assert!(channels.iter().all(Option::is_some), "a channel the graph lacks");
            let channels: Vec<_> = channels.into_iter().flatten().collect();
            for (i, &c) in channels.iter().enumerate() {
                let next = channels[(i + 1) % channels.len()];
                prop_assert!(
                    cdg.depends(c, next),
                    "the wait-for cycle steps from channel {} to {}, which the graph does not link",
                    c,
                    next
                );
            }
        } else if let Err(e) = &r {
            // Any other failure of a cyclic network is a bug (a deadlock always comes
            // with the cycle that explains it when the waits close one).
            prop_assert!(matches!(e, EngineError::Deadlock { .. }), "{}", e);
        }
    }
}

/// Networks with a cyclic channel dependency graph: single-wrap tori, the ring of 4
/// routed one way, the one-set universal hypercube, and random netlists (kept when
/// cyclic).
fn cyclic_topology() -> impl Strategy<Value = Topology> {
    prop_oneof![
        (3u32..=4).prop_map(|s| shipped("torus4-single", &[format!("network.side={s}")])),
        Just(shipped("ring4", &[])),
        Just(shipped("hypercube4-universal-oneset", &[])),
        netlist(),
    ]
}
