//! Link faults (docs/architecture.md "Link faults"). On a C104 network: a
//! switch-to-switch link down mid-run blocks packets, reported apart from a deadlock
//! (exit 5); a link nobody uses dies harmlessly (the report says so); a token error rate
//! of 1 kills every link at its first token; no fault configured (no key, or rate 0)
//! changes no byte of the report. On an SCI ring and a switch fabric: the same keys, the
//! same exit 5 naming the link, every engine agreeing. Packets lost on a dead link are
//! not counted as in flight.

use super::common::emu;
use emu::engine::{self, EngineError, RunOutcome};
use emu::session::Case;

/// Runs hypercube6 with `traffic` and `sets` on the sharded engine, 2 threads.
fn run(traffic: &str, sets: &[&str]) -> (Case, Result<RunOutcome, EngineError>) {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let case = Case::load("hypercube6", traffic, &sets, 1).expect("the case loads");
    let r = engine::sharded::run(&case.net, &case.control(), 2, None);
    (case, r)
}

#[test]
fn a_switch_link_down_mid_run_blocks_packets_behind_it_and_says_which() {
    let (_, r) = run(
        "uniform",
        &[r#"faults.link_down=[{ link = "c104[5]:2", at_us = 120.0 }]"#],
    );
    let e = r.expect_err("uniform traffic needs the link");
    let EngineError::BlockedByFault { links, blocked, .. } = &e else {
        panic!("not blocked by a fault: {e}");
    };
    assert_eq!(links.len(), 1);
    let l = &links[0];
    // c104[5] port 2 is dimension 2: the link to c104[1].
    assert_eq!((l.a.node.as_str(), l.a.port), ("c104[1]", 2));
    assert_eq!((l.b.node.as_str(), l.b.port), ("c104[5]", 2));
    assert_eq!(l.since_tick, 12_000);
    assert!(l.tokens_lost > 0);
    assert!(!blocked.is_empty());
    let text = e.to_string();
    for want in [
        "blocked by a link fault at tick",
        "link c104[1] port 2 ↔ c104[5] port 2 dead since tick 12000 (120.000 µs): scheduled",
        "tokens lost",
        "blocked: ",
        "behind the dead link at c104[",
    ] {
        assert!(text.contains(want), "{want:?} not in\n{text}");
    }
    // Directly behind: an output of one of the link's ends with no credit, or an input
    // there waiting for the rest of a packet.
    assert!(
        blocked
            .iter()
            .any(|b| (b.node == "c104[1]" || b.node == "c104[5]") && b.wait.starts_with("port 2:")),
        "{blocked:?}"
    );
}

#[test]
fn a_link_nobody_uses_dies_harmlessly_and_the_report_says_so() {
    // Every terminal sends to terminal 1; e-cube routing (highest dimension first)
    // never uses the dimension-0 link between c104[32] and c104[33] (both still have
    // to cross dimension 5). It dies before traffic starts.
    let sets = [
        "pattern.kind=fixed",
        "pattern.destination=1",
        "phases.start_us=10",
        "phases.warmup_us=10",
        "phases.measure_us=50",
        r#"faults.link_down=[{ link = "c104[33]:0", at_us = 5.0 }]"#,
    ];
    let (case, r) = run("uniform", &sets);
    let o = r.expect("nothing is blocked behind the link");
    assert!(o.complete);
    let report = case.report(&o);
    let f = report.faults.as_ref().expect("faults were configured");
    assert_eq!(f.links_down.len(), 1);
    assert_eq!(f.links_down[0].since_tick, 500);
    let text = report.render_text(&emu::stats::RunInfo {
        engine: "sharded".into(),
        threads: 2,
        wall_seconds: 0.0,
        overrides: Vec::new(),
    });
    assert!(
        text.contains("faults      1 link died, 0 tokens lost")
            && text.contains(
                "link c104[32] port 0 ↔ c104[33] port 0 dead since tick 500 (5.000 µs): scheduled"
            ),
        "{text}"
    );
    let json = report.to_json();
    assert!(json.contains("\"links_down\""), "{json}");
}

#[test]
fn a_token_error_rate_of_one_kills_every_link_at_its_first_token() {
    let (case, r) = run(
        "uniform",
        &["faults.token_error_rate=1", "phases.measure_us=20"],
    );
    let e = r.expect_err("nothing can move");
    let EngineError::BlockedByFault { links, .. } = &e else {
        panic!("{e}");
    };
    assert_eq!(links.len(), case.net.links().len(), "every link died");
    for l in links {
        // The first tokens are the initial FCTs, sent at tick 0 (4 bits) over 20 ticks.
        assert_eq!(l.since_tick, 24, "{l}");
        assert!(
            matches!(
                &l.cause,
                emu::engine::faults::DeathCause::ParityError { token: 1, .. }
            ),
            "{l}"
        );
    }
}

#[test]
fn no_fault_configured_changes_no_byte() {
    let short = ["phases.warmup_us=5", "phases.measure_us=30"];
    let plain = {
        let (case, r) = run("uniform", &short);
        case.report(&r.expect("runs")).to_json()
    };
    let zero = {
        let mut sets = short.to_vec();
        sets.push("faults.token_error_rate=0");
        let (case, r) = run("uniform", &sets);
        case.report(&r.expect("runs")).to_json()
    };
    assert_eq!(plain, zero, "rate 0 is no fault");
    assert!(!plain.contains("\"faults\": {\n    \"token_error_rate"));
    // A link scheduled after the run ends changes nothing but adds the section.
    let mut sets = short.to_vec();
    sets.push(r#"faults.link_down=[{ link = "c104[0]:0", at_us = 10000.0 }]"#);
    let (case, r) = run("uniform", &sets);
    let o = r.expect("runs");
    let report = case.report(&o);
    assert!(
        report
            .faults
            .as_ref()
            .is_some_and(|f| f.links_down.is_empty())
    );
}

/// `emu -t topology -p traffic --set …` with `extra` arguments: exit code and stderr,
/// after checking that every engine and thread count fails the same way.
fn failing_run(topology: &str, traffic: &str, sets: &[&str]) -> (i32, String) {
    let mut args = vec!["-t", topology, "-p", traffic];
    for s in sets {
        args.extend(["--set", s]);
    }
    let (code, _, err) = emu(&args);
    let mut verify = args.clone();
    verify.push("--verify-engines");
    let (_, out, verr) = emu(&verify);
    assert!(
        format!("{out}{verr}").contains("engines agree"),
        "{out}\n{verr}"
    );
    (code, err)
}

#[test]
fn an_sci_ring_with_a_dead_link_blocks_every_source_behind_it() {
    // One active buffer: each node may have two send packets outstanding (SCI §4.4).
    // Every packet's round trip (send packet, then echo) crosses every link of the
    // ring, so after sci[1] → sci[2] dies no echo comes back: the ring falls quiet
    // with every source waiting, and the run ends there.
    let (code, err) = failing_run(
        "sci-ring4",
        "sci-uniform",
        &[
            "network.active_buffers=1",
            r#"faults.link_down=[{ link = "sci[2]:0", at_us = 10.0 }]"#,
        ],
    );
    assert_eq!(code, 5, "{err}");
    for want in [
        "blocked by a link fault",
        "link sci[1] port 1 ↔ sci[2] port 0 dead since tick 5000 (10.000 µs): scheduled",
        "blocked: sci[0] port 1: packet 0→",
        "waits for an acknowledge that is overdue and will not come",
    ] {
        assert!(err.contains(want), "{want:?} not in\n{err}");
    }
}

#[test]
fn an_sci_ring_whose_links_all_err_at_once_is_blocked_not_a_protocol_error() {
    // Rate 1: every link's first symbol has a parity error, so nothing ever arrives.
    let (code, err) = failing_run(
        "sci-ring4",
        "sci-uniform",
        &["faults.token_error_rate=1", "phases.measure_us=20"],
    );
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("behind 4 dead links"), "{err}");
    assert!(
        err.contains("parity error on token 1 sent by sci[0] port 1"),
        "{err}"
    );
}

/// The shipped 16-port fabric under bursty traffic, `link` down at 5 µs.
fn fabric_link_down(link: &str) -> (i32, String) {
    let down = format!(r#"faults.link_down=[{{ link = "{link}", at_us = 5.0 }}]"#);
    failing_run(
        "fabric16-cicq-lof",
        "bursty30",
        &["phases.measure_us=300", "phases.drain_limit_us=300", &down],
    )
}

#[test]
fn a_fabric_adapter_link_down_stops_its_credits_and_its_voqs_wait() {
    let (code, err) = fabric_link_down("adapter[3]:0");
    assert_eq!(code, 5, "{err}");
    for want in [
        "link adapter[3] port 0 ↔ switch port 3 dead since tick 98 (5.018 µs)",
        "blocked: adapter[3] port 0: packet 3→",
        "has tokens to send but no credit from the peer, behind the dead link at adapter[3] port 0",
    ] {
        assert!(err.contains(want), "{want:?} not in\n{err}");
    }
}

#[test]
fn a_fabric_egress_link_down_loses_the_packets_for_its_output() {
    // The output adapter takes whatever comes and returns no credit (Gramsamer §2.1),
    // so nothing waits: the packets for output 3 are lost, and the run says so.
    let (code, err) = fabric_link_down("adapter[3]:1");
    assert_eq!(code, 5, "{err}");
    for want in [
        "lost to a link fault",
        "measured messages undelivered that no part holds",
        "link switch port 19 ↔ adapter[3] port 1 dead since tick 98",
    ] {
        assert!(err.contains(want), "{want:?} not in\n{err}");
    }
}

#[test]
fn packets_lost_on_a_dead_link_are_not_counted_in_flight() {
    // A batch on the fabric with output 3's link dead from 5 µs: every packet for
    // output 3 is lost on it (each is one cell), every other is delivered, so nothing
    // is left in flight, although more packets were injected than ejected.
    let (code, err) = failing_run(
        "fabric16-cicq-lof",
        "uniform",
        &[
            "phases.drain_limit_us=300",
            "injection.kind=batch",
            "injection.messages=50",
            r#"faults.link_down=[{ link = "adapter[3]:1", at_us = 5.0 }]"#,
        ],
    );
    assert_eq!(code, 5, "{err}");
    assert!(
        err.contains("lost to a link fault") && err.contains(": 0 packets in flight;"),
        "{err}"
    );
    assert!(err.contains("; 12 tokens lost"), "{err}");
}

#[test]
fn a_fault_scheduled_after_the_run_leaves_sci_and_fabric_reports_as_they_were() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (topology, traffic, link) in [
        ("sci-ring4", "sci-uniform", "sci[0]:1"),
        ("fabric16-grant", "bernoulli98", "switch:0"),
    ] {
        let report = |name: &str, extra: Option<String>| -> serde_json::Value {
            let path = dir.path().join(format!("{name}.json"));
            let path_arg = path.to_string_lossy().into_owned();
            let mut args = vec!["-t", topology, "-p", traffic, "-q", "--json", &path_arg];
            args.extend([
                "--set",
                "phases.warmup_us=5",
                "--set",
                "phases.measure_us=40",
            ]);
            if let Some(e) = &extra {
                args.extend(["--set", e]);
            }
            let (code, _, err) = emu(&args);
            assert_eq!(code, 0, "{topology}: {err}");
            let text = std::fs::read_to_string(&path).expect("the report");
            serde_json::from_str(&text).expect("JSON")
        };
        let plain = report("plain", None);
        assert!(
            plain["topology"]["config"].get("faults").is_none(),
            "{topology}: no fault set, no [faults] echoed"
        );
        // The hard stop of these runs is past 1,000 µs; the run itself ends earlier.
        let late = format!(r#"faults.link_down=[{{ link = "{link}", at_us = 1000.0 }}]"#);
        let faulty = report("late", Some(late));
        assert_eq!(
            faulty["topology"]["config"]["faults"]["link_down"][0]["link"],
            serde_json::json!(link),
            "{topology}: the link-fault keys echoed"
        );
        assert_eq!(
            faulty["faults"]["links_down"],
            serde_json::json!([]),
            "{topology}"
        );
        let strip = |mut v: serde_json::Value| {
            if let Some(o) = v.as_object_mut() {
                for k in ["faults", "topology", "run"] {
                    o.remove(k);
                }
            }
            v
        };
        assert_eq!(strip(plain), strip(faulty), "{topology}");
    }
}
