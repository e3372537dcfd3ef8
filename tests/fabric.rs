//! The switch fabric through the engines (Gramsamer ch. 4, 7): the minimum latency of
//! §7.6.2 exactly, a credit loop of exactly RTT cycles (M = RTT is work-conserving,
//! M = RTT − 1 is not, §4.3.3), the §7.4 invariant under `--check` for every flow
//! control, and no packet lost, duplicated or reordered.

use emu::engine::{self, RunControl, RunOutcome};
use emu::network::{FabricRun, fabric};
use emu::parts::fabric::config::{FabricConfig, FabricSpec, MemoryConfig};
use emu::parts::fabric::{Arrivals, Destinations};
use emu::stats::fabric::FabricSection;
use emu::terminal::TerminalStats;

fn spec(ports: u32, rtt: u32, memory: u32, fc: &str, strategy: Option<&str>) -> FabricSpec {
    config(ports, rtt, memory, fc, strategy)
        .validate()
        .expect("a valid fabric")
}

fn config(ports: u32, rtt: u32, memory: u32, fc: &str, strategy: Option<&str>) -> FabricConfig {
    FabricConfig {
        ports,
        rtt,
        memory: Some(MemoryConfig::Packets(memory)),
        architecture: "cicq".into(),
        output_scheduler: None,
        flow_control: fc.into(),
        strategy: strategy.map(str::to_string),
        thresholds: None,
        update_every: None,
        packet_bytes: 64,
        link_gbps: 10.0,
        voq_cap: 1_000_000,
    }
}

fn run_of(window: (u64, u64)) -> FabricRun {
    FabricRun {
        start: 0,
        window,
        drain: 1_000_000,
        batch: false,
        seed: 11,
        timeline: None,
    }
}

fn run(
    s: &FabricSpec,
    r: &FabricRun,
    traffic: impl Fn(u16) -> (Arrivals, Destinations),
) -> RunOutcome {
    let net = fabric("test", s, r, traffic).expect("a valid plan");
    let mut ctl = RunControl::for_plan(&net);
    ctl.check = true;
    engine::sequential::run(&net, &ctl, None).expect("the fabric runs")
}

/// Departures of output `j` in the window, from the switch's part statistics.
fn departures(out: &RunOutcome, ports: usize, j: usize) -> u64 {
    let (_, s) = out
        .parts
        .iter()
        .find(|(id, _)| *id == ports)
        .expect("the switch reports");
    s.get("output_departures")[j]
}

#[test]
fn a_lone_packet_takes_34_cycles_at_rtt_64() {
    // Gramsamer §7.6.2: "the minimum latency of 34 packet cycles (1 each per IA and
    // switch, and 32 on the data channel)".
    let s = spec(4, 64, 64, "credit", Some("lof"));
    let out = run(&s, &run_of((0, 10)), |i| {
        if i == 2 {
            (Arrivals::Batch(1), Destinations::Fixed(3))
        } else {
            (Arrivals::None, Destinations::Uniform)
        }
    });
    let total = TerminalStats::total(&out.terminals);
    assert_eq!(total.message_latency.count(), 1);
    assert_eq!(total.message_latency.min, 34);
    assert_eq!(total.message_latency.max, 34);
    // Its journey: one cycle queued, 32 on the data path, none in its crosspoint, one
    // out of the port.
    assert_eq!(
        total.journey_parts.names,
        &emu::parts::fabric::JOURNEY_PARTS
    );
    assert_eq!(
        part_ranges(&total),
        vec![(1, 1), (0, 0), (32, 32), (0, 0), (1, 1)]
    );
    assert_eq!(journeys_checked(&out), 1);
    // And RTT/2 + 2 in general, odd RTTs putting the extra cycle on the data path.
    for (rtt, expect) in [(4, 4), (5, 5), (2, 3)] {
        let s = spec(2, rtt, rtt, "credit", None);
        let out = run(&s, &run_of((0, 10)), |i| {
            (
                if i == 0 {
                    Arrivals::Batch(1)
                } else {
                    Arrivals::None
                },
                Destinations::Fixed(1),
            )
        });
        let t = TerminalStats::total(&out.terminals);
        assert_eq!(t.message_latency.max, expect, "RTT {rtt}");
    }
}

#[test]
fn m_equal_rtt_keeps_one_flow_back_to_back_and_one_less_does_not() {
    // Relative credit is work-conserving with B = RTT (Gramsamer §4.3.3, Table 4.1): a
    // saturated flow leaves its output every cycle; with RTT − 1 credits it leaves
    // RTT − 1 cycles in every RTT.
    let window = (1_000, 11_000);
    for (rtt, m) in [(64, 64), (64, 63), (4, 4), (4, 3), (7, 7), (7, 6)] {
        let s = spec(2, rtt, m, "credit", Some("fifo"));
        let out = run(&s, &run_of(window), |i| {
            if i == 0 {
                (Arrivals::Bernoulli(1.0), Destinations::Fixed(1))
            } else {
                (Arrivals::None, Destinations::Uniform)
            }
        });
        let got = departures(&out, 2, 1);
        let cycles = window.1 - window.0;
        let expect = cycles * u64::from(m.min(rtt)) / u64::from(rtt);
        assert!(
            got.abs_diff(expect) <= 1,
            "RTT {rtt} M {m}: {got} departures in {cycles} cycles, expected {expect}"
        );
    }
}

#[test]
fn every_flow_control_keeps_the_invariant_and_loses_nothing_under_overload() {
    // Every input sends 98 % bursty traffic to a few hot outputs (overload), for every
    // flow control and strategy, with --check on: the §7.4 invariant, no overflow of a
    // crosspoint, every measured packet delivered once and in order.
    let configs: Vec<(&str, Option<&str>, u32)> = vec![
        ("credit", Some("reference"), 16),
        ("credit", Some("rr"), 16),
        ("credit", Some("fifo"), 5),
        ("credit", Some("hof"), 16),
        ("credit", Some("lof"), 3),
        ("credit", Some("lof-cliq"), 16),
        ("grant", None, 16),
        ("grant", None, 8),
        ("absolute", None, 16),
        ("absolute", None, 8),
    ];
    // Gramsamer §4.3's other schemes, each down to its smallest correct memory (Abs I
    // RTT − 1 + n, Abs B n; RTT = 8), Grant OT to M = 3 < RTT (at M = 1 it is correct
    // too, but grants one slot per RTT and drains this overload too slowly for the
    // run's drain limit).
    let more: Vec<(&str, Option<u32>, u32)> = vec![
        ("grant-ot", None, 16),
        ("grant-ot", None, 5),
        ("grant-ot", None, 3),
        ("absolute-i", Some(1), 8),
        ("absolute-i", Some(3), 10),
        ("absolute-i", Some(4), 16),
        ("absolute-b", Some(1), 1),
        ("absolute-b", Some(3), 3),
        ("absolute-b", Some(4), 12),
    ];
    let specs = configs
        .into_iter()
        .map(|(fc, strategy, m)| (fc, strategy, m, spec(6, 8, m, fc, strategy)))
        .chain(more.into_iter().map(|(fc, n, m)| {
            let c = FabricConfig {
                update_every: n,
                ..config(6, 8, m, fc, None)
            };
            (fc, None, m, c.validate().expect("a valid fabric"))
        }));
    for (fc, strategy, m, s) in specs {
        let out = run(&s, &run_of((100, 3_000)), |i| {
            (
                Arrivals::bursty(10.0, 0.98),
                if i % 2 == 0 {
                    Destinations::Fixed(0)
                } else {
                    Destinations::NonUniform { w: 0.5 }
                },
            )
        });
        let t = TerminalStats::total(&out.terminals);
        assert!(out.complete, "{fc} {strategy:?} M {m}: run incomplete");
        assert_eq!(t.counters.out_of_order, 0, "{fc} {strategy:?}");
        assert_eq!(
            t.counters.measured_created, t.counters.measured_delivered,
            "{fc} {strategy:?} M {m}"
        );
    }
}

#[test]
fn the_report_counts_credit_underflow_and_parallel_departures() {
    let s = spec(8, 64, 16, "credit", Some("fifo"));
    let out = run(&s, &run_of((500, 5_500)), |_| {
        (Arrivals::Bernoulli(0.9), Destinations::Uniform)
    });
    let topology: emu::config::TopologyConfig =
        toml::from_str("[network]\nkind = \"fabric\"\nports = 8").expect("fabric");
    let net = fabric("t", &s, &run_of((500, 5_500)), |_| {
        (Arrivals::Bernoulli(0.9), Destinations::Uniform)
    })
    .expect("plan");
    let traffic: emu::config::TrafficConfig =
        toml::from_str("[injection]\nkind = \"rate\"\nload = 0.9").expect("traffic");
    let input = emu::stats::ReportInput::for_run("t", "u", &topology, &traffic, 11, &net, &out);
    let f = FabricSection::new(&input, 5_000);
    // M = 16 < RTT = 64: the flows run out of credits.
    assert!(f.credit_underflows > 0 && f.underflow_cycles > 0);
    let p: f64 = f.parallel_departures.iter().sum();
    assert!((p - 1.0).abs() < 1e-9, "fractions sum to 1: {p}");
    assert!(f.parallel_departures.len() >= 3, "some parallel departures");
    assert!(f.credits_queued_mean > 0.0);
}

/// Every output adapter's journey check found nothing, and it checked something.
fn journeys_checked(out: &RunOutcome) -> u64 {
    out.terminals
        .iter()
        .map(|t| {
            let c = t.journey_parts.check.as_ref().expect("checking");
            assert_eq!(c.first_miss, None);
            c.messages
        })
        .sum()
}

/// The parts' (min, max) over the run, in the order of `JOURNEY_PARTS`.
fn part_ranges(t: &TerminalStats) -> Vec<(u64, u64)> {
    t.journey_parts
        .parts
        .iter()
        .map(|m| (m.min, m.max))
        .collect()
}

#[test]
fn a_packet_s_journey_splits_its_system_delay_exactly() {
    // One credit per crosspoint and RTT 4: a saturated flow's head waits 3 cycles at its
    // VOQ's head for the credit of the packet ahead of it (the credit loop is RTT
    // cycles, §4.3.3), and nothing waits in the switch.
    let s = spec(2, 4, 1, "credit", Some("fifo"));
    let out = run(&s, &run_of((100, 1_100)), |i| {
        if i == 0 {
            (Arrivals::Bernoulli(1.0), Destinations::Fixed(1))
        } else {
            (Arrivals::None, Destinations::Uniform)
        }
    });
    let t = TerminalStats::total(&out.terminals);
    let r = part_ranges(&t);
    assert_eq!(r[1], (3, 3), "credit wait {r:?}");
    assert_eq!((r[2], r[3], r[4]), ((2, 2), (0, 0), (1, 1)), "{r:?}");
    assert!(journeys_checked(&out) > 200);

    // Two saturated inputs into one output with room for both: half their packets wait
    // in their crosspoints. Packet by packet the parts add up to the system delay, so
    // their exact sums do.
    let s = spec(2, 8, 64, "credit", Some("lof"));
    let out = run(&s, &run_of((100, 2_100)), |_| {
        (Arrivals::Bernoulli(1.0), Destinations::Fixed(1))
    });
    let t = TerminalStats::total(&out.terminals);
    assert!(t.journey_parts.parts[3].max > 0, "{:?}", part_ranges(&t));
    let sum: u128 = t.journey_parts.parts.iter().map(|m| m.sum).sum();
    assert_eq!(sum, t.message_latency.sum);
    assert_eq!(journeys_checked(&out), t.message_latency.count());
}

#[test]
fn an_output_adapter_s_timeline_counts_every_packet_by_input_and_exit_cycle() {
    // Inputs 0 and 1 send to output 2; with a 10-cycle timeline the output adapter
    // counts each packet once, in the bucket of its exit cycle and the slot of its input.
    let s = spec(3, 4, 4, "credit", None);
    let r = FabricRun {
        timeline: Some(10),
        ..run_of((0, 500))
    };
    let out = run(&s, &r, |i| {
        if i < 2 {
            (Arrivals::Bernoulli(0.3), Destinations::Fixed(2))
        } else {
            (Arrivals::None, Destinations::Uniform)
        }
    });
    let (_, stats) = out
        .parts
        .iter()
        .find(|(id, _)| *id == 2)
        .expect("adapter 2");
    let line = stats.get("timeline");
    let per_input: Vec<u64> = (0..3)
        .map(|i| line.iter().skip(i).step_by(3).sum())
        .collect();
    assert_eq!(per_input[2], 0);
    assert_eq!(
        per_input[0] + per_input[1],
        out.terminals[2].counters.delivered
    );
    assert!(
        line.len() >= 3 * 49,
        "buckets up to the run's end: {}",
        line.len()
    );
}

/// A crosspoint memory below the round trip is taken (Gramsamer Table 4.1: B_min = 1 for
/// relative credit and Grant OT) with a warning where the traffic asks more of a pair, and the warning's bound is the one the
/// fabric meets: a saturated permutation with M = 4, RTT = 64 delivers exactly 4 packets
/// per round trip at each output, 6.25 % of a packet per cycle.
#[test]
fn memory_below_the_round_trip_is_warned_and_holds_a_pair_to_m_per_round_trip() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let traffic = dir.path().join("bitcomp.toml");
    std::fs::write(
        &traffic,
        "[pattern]\nkind = \"bitcomp\"\n[injection]\nkind = \"rate\"\nload = 0.98\n\
         [phases]\nwarmup_us = 100\nmeasure_us = 1000\n",
    )
    .expect("the traffic file is written");
    let traffic = traffic.to_str().expect("a UTF-8 path");
    for fc in ["grant-ot", "credit"] {
        let (code, out, err) = super::common::emu(&[
            "-t",
            "fabric16-grant",
            "-p",
            traffic,
            "--set",
            &format!("network.flow_control={fc}"),
            "--set",
            "network.memory=4",
        ]);
        assert_eq!(code, 0, "{fc}: {err}");
        // 4 of every 64 cycles, give or take the one packet a window's edge cuts
        // (0.005 % of its 19,531 cycles).
        for side in ["per input ", "per output "] {
            let pct: f64 = out
                .split(side)
                .nth(1)
                .and_then(|rest| rest.split(' ').next())
                .and_then(|x| x.parse().ok())
                .unwrap_or_else(|| panic!("{fc}: no throughput {side}in {out}"));
            assert!((pct - 6.25).abs() <= 0.03, "{fc}: {side}{pct} %: {out}");
        }
        assert!(
            out.contains("WARNING: network.memory is 4 packets, below the round trip of 64 cycles")
                && out.contains(
                    "(6.3 % of a packet per cycle), and this traffic offers one pair up to 98 %"
                ),
            "{fc}: {out}"
        );
    }
    // Nothing to say at M = RTT, nor where no pair is offered more than M per round
    // trip (uniform at 98 % over 16 outputs: 6.125 % per pair, under 4/64).
    for (traffic, memory) in [(traffic, "64"), ("bernoulli98", "4")] {
        let (_, out, _) = super::common::emu(&[
            "-t",
            "fabric16-grant",
            "-p",
            traffic,
            "--set",
            "network.flow_control=credit",
            "--set",
            &format!("network.memory={memory}"),
            "--set",
            "phases.measure_us=100",
        ]);
        assert!(!out.contains("below the round trip"), "{out}");
    }
}
