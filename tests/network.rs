//! Whole-network tests through the library: exact zero-load latency, and conservation
//! (every message delivered exactly once, in order, with the credit invariant checked
//! at every barrier).

use emu::engine::{RunControl, RunOutcome, actors, sequential};
use emu::network::Network;
use emu::session::Case;
use emu::stats::TerminalStats;
use proptest::prelude::*;

fn plan(topology: &str, traffic: &str, overrides: &[&str]) -> Network {
    let sets: Vec<String> = overrides.iter().map(|s| s.to_string()).collect();
    Case::load(topology, traffic, &sets, 1)
        .unwrap_or_else(|e| panic!("{topology} × {traffic}: {e}"))
        .net
}

fn control(net: &Network, check: bool) -> RunControl {
    RunControl {
        check,
        ..RunControl::for_plan(net)
    }
}

fn merged(o: &RunOutcome) -> TerminalStats {
    TerminalStats::total(&o.terminals)
}

/// The tick a token that is ready at `ready` starts on a link whose last token ended at
/// `busy`: at once if the link is still busy or just finished, otherwise when the null
/// token in progress ends (nulls are 8 bits, back to back from `busy`).
fn start_tick(busy: u64, ready: u64) -> u64 {
    if ready <= busy {
        busy
    } else {
        busy + (ready - busy).div_ceil(8) * 8
    }
}

/// The tick the EOM of a message of `m` bytes from terminal `s` to `d` reaches `d` in
/// an otherwise idle hypercube, created at `created`, derived from the parameters:
/// every link goes idle at `idle` after its reset FCTs; each packet is serialised
/// back to back (10 ticks a byte, 4 for the terminator); at every switch the header
/// (`hb` bytes) arrives `10·hb + w` after it started upstream, is routed in `r` ticks,
/// and starts when the output link is free (waiting for a null to end if it is idle).
/// Body tokens always arrive before they are needed, so they follow the header.
/// Link and switch timing of an idle network, in ticks.
#[derive(Clone, Copy)]
struct Timing {
    /// Wire delay.
    w: u64,
    /// Header bytes.
    hb: u64,
    /// C104 routing delay.
    r: u64,
    /// Tick from which every link is idle (after its reset FCTs).
    idle: u64,
}

fn predicted_delivery(s: u32, d: u32, m: u32, created: u64, t: &Timing) -> u64 {
    let Timing { w, hb, r, idle } = *t;
    let links = (s ^ d).count_ones() as usize + 2; // VCP→switch, hops, switch→VCP
    let mut busy = vec![idle; links];
    let packets = m.div_ceil(32).max(1);
    let mut eom = 0;
    for p in 0..packets {
        let bytes = u64::from(m.saturating_sub(p * 32).min(32));
        let len = 10 * (hb + bytes) + 4;
        let mut ready = created;
        for (l, b) in busy.iter_mut().enumerate() {
            let start = start_tick(*b, ready);
            *b = start + len;
            if l + 1 < links {
                ready = start + 10 * hb + w + r;
            } else {
                eom = start + len + w;
            }
        }
    }
    eom
}

/// A `dimensions`-cube as shipped in which terminal `s` sends one message of `m`
/// bytes to `d`, created at `start_us`.
fn lone_message(dimensions: u32, s: u32, d: u32, m: u32, start_us: &str) -> Network {
    plan(
        "hypercube6",
        "uniform",
        &[
            &format!("network.dimensions={dimensions}"),
            "injection.kind=batch",
            "injection.messages=1",
            &format!("terminals.senders=[{s}]"),
            "pattern.kind=fixed",
            &format!("pattern.destination={d}"),
            &format!("message.bytes={m}"),
            &format!("phases.start_us={start_us}"),
        ],
    )
}

/// hypercube6 as shipped.
const C6: Timing = Timing {
    w: 20,
    hb: 1,
    r: 20,
    idle: 16,
};

#[test]
fn zero_load_latency_is_exactly_the_model() {
    // hypercube6: wire 200 ns = 20 ticks, header time 500 ns = 50 ticks, 1-byte header
    // → routing delay 50 − 10 − 20 = 20 ticks; buffers of one packet (34 tokens) → 4
    // reset FCTs per link end, so every link is idle from tick 16.
    let created = 1003; // 10.03 µs: deliberately not on a null boundary
    let mut checked = 0;
    for (s, d, m) in [
        (0u32, 1u32, 32u32),
        (0, 63, 32),
        (5, 40, 1),
        (17, 2, 0),
        (3, 60, 64),
        (63, 0, 100),
    ] {
        let net = lone_message(6, s, d, m, "10.03");
        assert_eq!(net.units().delay.ticks, 50, "header time 500 ns");
        let o = sequential::run(&net, &control(&net, true), None).expect("runs");
        let st = merged(&o);
        assert_eq!(st.counters.delivered, 1);
        let expected = predicted_delivery(s, d, m, created, &C6) - created;
        assert_eq!(st.message_latency.min, expected, "{s}→{d}, {m} bytes");
        assert_eq!(st.message_latency.max, expected);
        checked += 1;
    }
    assert_eq!(checked, 6);
}

#[test]
fn a_lone_message_waits_only_for_null_tokens_and_its_journey_adds_up() {
    // 0 → 63 in the 6-cube, 32 bytes, created at 10.03 µs: 7 switches. Nothing else
    // moves, so no packet waits at an input, and each transmitter waits only for the
    // null token in progress (less than 8 ticks).
    let net = lone_message(6, 0, 63, 32, "10.03");
    let ctl = control(&net, true);
    let o = sequential::run(&net, &ctl, None).expect("runs");
    let st = merged(&o);
    let j = &st.journey;
    assert!(j.recorded);
    assert_eq!((j.hops.min, j.hops.max), (7, 7));
    assert_eq!(j.input_wait.max, 0);
    assert!(j.output_wait.max < 7 * 8, "{}", j.output_wait.max);
    assert!(j.source.max < 8);
    assert_eq!(j.transfer.max, 10 * 33 + 4, "back to back on the last link");
    // The path: 8 wires of 20 ticks and 7 switches of 10 + 20 ticks.
    assert_eq!(j.path.max, 8 * 20 + 7 * (10 + 20));
    let latency = st.message_latency.max;
    assert_eq!(
        latency,
        j.source.max + j.path.max + j.input_wait.max + j.output_wait.max + j.transfer.max
    );
    let s = emu::network::timing::check_journeys(&net, &o.terminals).expect("exact");
    assert_eq!((s.messages, s.pairs, s.unfixed_pairs), (1, 1, 0));
}

#[test]
fn the_timing_check_fails_when_the_plan_is_not_the_one_that_ran() {
    // A saturated 3-cube run, checked against the same cube with 1 ns longer wires:
    // every path's uncontended delay is then off by a tick per link, and the check
    // must say so. (The same check against the plan that ran passes.)
    let sets = ["network.dimensions=3", "phases.measure_us=50"];
    let net = plan("hypercube6", "uniform", &sets);
    let o = sequential::run(&net, &control(&net, true), None).expect("runs");
    let ok = emu::network::timing::check_journeys(&net, &o.terminals).expect("exact");
    assert!(ok.messages > 100, "{ok:?}");
    let other = plan(
        "hypercube6",
        "uniform",
        &[
            "network.dimensions=3",
            "phases.measure_us=50",
            "link.wire_delay_ns=210",
        ],
    );
    let err = emu::network::timing::check_journeys(&other, &o.terminals).unwrap_err();
    assert!(err.to_string().contains("uncontended delay"), "{err}");
}

#[test]
fn without_check_no_identity_records_are_kept() {
    let net = lone_message(3, 0, 7, 32, "1");
    let o = sequential::run(&net, &control(&net, false), None).expect("runs");
    assert!(o.terminals.iter().all(|t| t.journey.path_delays.is_none()));
    let s = emu::network::timing::check_journeys(&net, &o.terminals).expect("nothing to check");
    assert_eq!(s.messages, 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48)
    ))]

    /// A lone message in an idle hypercube of 1 to 6 dimensions, from
    /// any terminal to any other, of 0 to 200 bytes, created at any tick, takes exactly
    /// the closed form's latency (zero ticks of tolerance).
    #[test]
    fn any_lone_message_takes_exactly_the_closed_form_latency(
        dimensions in 1u32..=6,
        s in any::<prop::sample::Index>(),
        d in any::<prop::sample::Index>(),
        m in 0u32..=200,
        created in 17u64..5000,
    ) {
        let n = 1usize << dimensions;
        // Never to itself (a message to itself shares its link with its own FCTs).
        let s = s.index(n);
        let d = (s + 1 + d.index(n - 1)) % n;
        let (s, d) = (s as u32, d as u32);
        let start_us = format!("{}", created as f64 / 100.0);
        let net = lone_message(dimensions, s, d, m, &start_us);
        let o = sequential::run(&net, &control(&net, true), None).expect("runs");
        let st = merged(&o);
        prop_assert_eq!(st.counters.delivered, 1);
        let expected = predicted_delivery(s, d, m, created, &C6) - created;
        prop_assert_eq!(st.message_latency.max, expected, "{}→{}, {} bytes", s, d, m);
    }
}

#[test]
fn a_batch_that_starts_where_a_scheduling_window_ends_still_runs() {
    // Found by the property above: on a 3-cube the reset FCTs end at tick 16 and a
    // scheduling window ended exactly at tick 20, the batch's start; the run ended
    // there, before the source queued its message ("0 created, completion 0 µs").
    let net = lone_message(3, 0, 2, 0, "0.2");
    let o = sequential::run(&net, &control(&net, true), None).expect("runs");
    let st = merged(&o);
    assert_eq!((st.counters.created, st.counters.delivered), (1, 1));
    assert_eq!(
        st.message_latency.max,
        predicted_delivery(0, 2, 0, 20, &C6) - 20
    );
}

#[test]
fn a_message_to_itself_also_carries_its_own_flow_control() {
    // Terminal 9 to itself: out through its switch and straight back on the same link.
    // The switch's FCTs for the arriving packet and the VCP's FCTs for the returning
    // one share the wire with the data (INMOS ch. 6 §6.1.1), which the formula above leaves out:
    // at most ⌈34/8⌉ = 5 FCTs of 4 ticks in each direction.
    let net = plan(
        "hypercube6",
        "uniform",
        &[
            "injection.kind=batch",
            "injection.messages=1",
            "terminals.senders=[9]",
            "pattern.kind=fixed",
            "pattern.destination=9",
            "phases.start_us=10.03",
        ],
    );
    let o = sequential::run(&net, &control(&net, true), None).expect("runs");
    let got = merged(&o).message_latency.max;
    let bare = predicted_delivery(9, 9, 32, 1003, &C6) - 1003;
    assert!(got > bare && got <= bare + 2 * 5 * 4, "{got} vs {bare}");
}

#[test]
fn zero_load_latency_with_two_byte_headers_and_longer_wires() {
    // wire 500 ns = 50 ticks, header time 1000 ns = 100 ticks, 2-byte header
    // → routing delay 100 − 20 − 50 = 30; buffers of 20 tokens → 2 reset FCTs, idle from 8.
    let net = plan(
        "hypercube6",
        "uniform",
        &[
            "link.wire_delay_ns=500",
            "c104.header_time_ns=1000",
            "packet.header_bytes=2",
            "link.buffer_tokens=20",
            "injection.kind=batch",
            "injection.messages=1",
            "terminals.senders=[6]",
            "pattern.kind=fixed",
            "pattern.destination=57",
            "message.bytes=16",
            "phases.start_us=5",
        ],
    );
    assert_eq!(net.units().delay.ticks, 100, "header time 1000 ns");
    let o = sequential::run(&net, &control(&net, true), None).expect("runs");
    let st = merged(&o);
    assert_eq!(
        st.message_latency.max,
        predicted_delivery(
            6,
            57,
            16,
            500,
            &Timing {
                w: 50,
                hb: 2,
                r: 30,
                idle: 8
            }
        ) - 500
    );
}

fn assert_conserved(o: &RunOutcome, expected_messages: u64) {
    let s = merged(o);
    assert!(o.complete, "every measured message delivered");
    assert_eq!(s.counters.created, expected_messages);
    assert_eq!(
        s.counters.delivered, expected_messages,
        "delivered exactly once"
    );
    assert_eq!(s.counters.measured_delivered, expected_messages);
    assert_eq!(
        s.counters.out_of_order, 0,
        "in order per source-destination pair, no duplicates"
    );
    // Acknowledges of the last packets may still be on their way back.
    let acks_in_flight = o.activity.packets_injected - o.activity.packets_ejected;
    assert!(
        acks_in_flight <= s.counters.packets_delivered - s.counters.acks_received,
        "no packet lost"
    );
}

#[test]
fn every_message_is_delivered_once_and_in_order_under_uniform_and_shuffle() {
    for traffic in ["uniform", "shuffle"] {
        // 64 terminals × 12 messages of 100 bytes (4 packets each), all queued at once.
        let net = plan(
            "hypercube6",
            traffic,
            &[
                "injection.kind=batch",
                "injection.messages=12",
                "message.bytes=100",
            ],
        );
        let o = sequential::run(&net, &control(&net, true), None).expect("runs with --check");
        assert_conserved(&o, 64 * 12);
        let a = actors::run(&net, &control(&net, true), 2, None).expect("actors run with --check");
        assert_conserved(&a, 64 * 12);
        assert_eq!(
            merged(&a).message_latency.sum,
            merged(&o).message_latency.sum,
            "engines agree"
        );
    }
}

#[test]
fn acknowledged_channels_deliver_everything_and_several_channels_help() {
    // The T9000 protocol on: every packet acknowledged before the channel's next one.
    let finish = |channels: u32| {
        let net = plan(
            "hypercube6",
            "uniform",
            &[
                "vcp.acknowledge=true",
                &format!("vcp.channels={channels}"),
                "injection.kind=batch",
                "injection.messages=8",
                "message.bytes=64",
            ],
        );
        let o = sequential::run(&net, &control(&net, true), None).expect("runs");
        assert_conserved(&o, 64 * 8);
        let s = merged(&o);
        let acks_in_flight = o.activity.packets_injected - o.activity.packets_ejected;
        assert_eq!(
            s.counters.acks_received + acks_in_flight,
            s.counters.packets_delivered,
            "one ack per data packet"
        );
        s.counters.last_delivery
    };
    let one = finish(1);
    let four = finish(4);
    assert!(
        four < one,
        "4 channels hide acknowledge latency: {four} vs {one} ticks"
    );
}

#[test]
fn continuous_random_traffic_on_the_6_cube_is_in_the_chapter_7_range() {
    // Table 7.1 (INMOS ch. 7): 64-node cube, random traffic, 78.8 % throughput, mean delay 48
    // header times. Chapter 7 states neither packet size nor buffer depths exactly, so
    // this only guards the order of magnitude (`emu reproduce c104-networks` holds the
    // whole table to its bands).
    let net = plan(
        "hypercube6",
        "uniform",
        &["phases.warmup_us=50", "phases.measure_us=300"],
    );
    let o = sequential::run(&net, &control(&net, false), None).expect("runs");
    let s = merged(&o);
    let window = (net.run().window.1 - net.run().window.0) as f64;
    let thr = s.counters.bytes_delivered_in_window as f64 * 10.0 / window / 64.0 * 100.0;
    let mean_ht = s.message_latency.mean() / net.units().delay.ticks as f64;
    assert!((50.0..=95.0).contains(&thr), "throughput {thr:.1} %");
    assert!(
        (24.0..=96.0).contains(&mean_ht),
        "mean delay {mean_ht:.1} header times"
    );
}

#[test]
fn a_fat_tree_delivers_everything_in_order_on_every_engine_and_each_routing() {
    // The 4-ary 3-tree: 64 terminals on 48 C104s, up/down and universal routing.
    for topology in ["tree4-3", "tree4-3-universal"] {
        let net = plan(
            topology,
            "uniform",
            &[
                "injection.kind=batch",
                "injection.messages=10",
                "message.bytes=64",
            ],
        );
        assert_eq!(net.terminals().len(), 64, "{topology}");
        let o = sequential::run(&net, &control(&net, true), None).expect("runs with --check");
        let a = actors::run(&net, &control(&net, true), 2, None).expect("actors run with --check");
        let s = merged(&o);
        assert!(o.complete, "{topology}: every message delivered");
        assert_eq!(s.counters.delivered, 64 * 10, "{topology}");
        if topology == "tree4-3" {
            // One path per pair: in order.
            assert_eq!(s.counters.out_of_order, 0, "{topology}");
        }
        assert_eq!(
            merged(&a).message_latency.sum,
            s.message_latency.sum,
            "{topology}: engines agree"
        );
    }
}

#[test]
fn a_fat_tree_with_more_than_16_terminals_per_leaf_is_refused_naming_k() {
    let sets = vec!["network.k=17".to_string()];
    let e = Case::load("tree4-3", "uniform", &sets, 1)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("network.k=17") && e.contains("2 to 16"), "{e}");
    let sets = vec!["network.n=9".to_string()];
    let e = Case::load("tree4-3", "uniform", &sets, 1)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("network.n=9") && e.contains("4^9"), "{e}");
}

#[test]
fn a_dragonfly_delivers_everything_on_every_engine_under_minimal_routing() {
    // 9 groups of 4 C104s, 2 terminals per switch: 72 terminals, doubled local links.
    let net = plan(
        "dragonfly72",
        "uniform",
        &[
            "injection.kind=batch",
            "injection.messages=10",
            "message.bytes=64",
        ],
    );
    assert_eq!(net.terminals().len(), 72);
    let o = sequential::run(&net, &control(&net, true), None).expect("runs with --check");
    assert_conserved(&o, 72 * 10);
    let a = actors::run(&net, &control(&net, true), 2, None).expect("actors run with --check");
    assert_eq!(
        merged(&a).message_latency.sum,
        merged(&o).message_latency.sum,
        "engines agree"
    );
}

#[test]
fn a_dragonfly_whose_switches_need_more_than_32_links_is_refused_naming_h() {
    let sets = vec!["network.h=30".to_string()];
    let e = Case::load("dragonfly72", "uniform", &sets, 1)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("network.h=30") && e.contains("38 links"), "{e}");
}
