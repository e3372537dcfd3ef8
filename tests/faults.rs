//! Link faults on a C104 network (issue 16 item 5; docs/architecture.md "Link faults"):
//! a switch-to-switch link down mid-run blocks packets, reported apart from a deadlock
//! (exit 5); a link nobody uses dies harmlessly (the report says so); a token error rate
//! of 1 kills every link at its first token; no fault configured (no key, or rate 0)
//! changes no byte of the report.

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
