//! The deadlock search's cases (`emu::stress`): deterministic generated cases, their
//! traffic files and commands, and the SCI ring starvation search.

use emu::config::TopologyConfig;
use emu::config::TrafficConfig;
use emu::config::traffic::PatternConfig;
use emu::stress::case::{CaseKind, generate, one};
use emu::stress::starvation;
use emu::stress::write::{command, traffic_file};

#[test]
fn cases_are_deterministic_cycle_the_kinds_and_permute() {
    let a = generate(5, 4, 16, 100.0);
    assert_eq!(a, generate(5, 4, 16, 100.0));
    assert_eq!(a.len(), 12);
    assert_eq!(a[3].kind, CaseKind::Permutation);
    assert_eq!(a[3].seed, 6);
    assert_eq!(a[5].kind, CaseKind::Burst);
    let PatternConfig::Table { destinations } = &a[0].traffic.pattern else {
        panic!("permutations are tables");
    };
    let mut d = destinations.clone();
    d.sort_unstable();
    assert_eq!(d, (0..16).collect::<Vec<u32>>());
    assert_ne!(a[0].traffic.pattern, a[3].traffic.pattern);
    assert!(a[2].traffic.terminals.sender_list(0).len() >= 2);
}

#[test]
fn the_traffic_file_reads_back_as_the_same_configuration() {
    for kind in CaseKind::ALL {
        let mut t = one(0, kind, 9, 8, 50.0).traffic;
        t.terminals.senders = Some(vec![1, 4]);
        let text = traffic_file(&t, &["a comment".into()]).expect("serialises");
        assert!(text.starts_with("# a comment\n"));
        let back: TrafficConfig = toml::from_str(&text).expect("reads back");
        assert_eq!(back, t, "{text}");
    }
    assert_eq!(
        command("ring4", "my file.toml", 3, &["link.buffer_tokens=8".into()]),
        "emu --topology ring4 --traffic 'my file.toml' --seed 3 --set link.buffer_tokens=8"
    );
}

fn ring(nodes: u32, flow_control: bool) -> TopologyConfig {
    toml::from_str(&format!(
        "[network]\nkind = \"sci_ring\"\nnodes = {nodes}\nflow_control = {flow_control}\n"
    ))
    .expect("a ring")
}

#[test]
fn without_flow_control_the_starved_node_is_found_at_once_and_with_it_not() {
    let cases = starvation::generate(1, 1, 4, 100.0);
    assert_eq!(cases.len(), 4);
    assert_eq!(cases[0].kind, "starved");
    let found = starvation::search("sci4", &ring(4, false), &cases, 2).expect("runs");
    assert_eq!(found.len(), 1, "the first case starves");
    let PatternConfig::Starved { node } = found[0].case.traffic.pattern else {
        panic!("a starved case");
    };
    assert_eq!(found[0].starved, vec![node as usize]);
    let all = starvation::search("sci4", &ring(4, true), &cases, 2).expect("runs");
    assert_eq!(all.len(), 4, "flow control lets every node send");
    assert!(all.iter().all(|r| r.starved.is_empty()), "{all:?}");
}
