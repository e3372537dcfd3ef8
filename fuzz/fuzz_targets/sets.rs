//! `--set` arguments on the shipped files, through `emu::session::AnyCase::load` itself
//! (the command line's path, shipped files found by name). Input: one byte choosing
//! the topology, one the traffic, then `--set` arguments one a line.
#![no_main]

use emu::config::{shipped_topologies, shipped_traffic};
use emu::session::AnyCase;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [t, r, rest @ ..] = data else { return };
    let Ok(rest) = std::str::from_utf8(rest) else {
        return;
    };
    let topologies = shipped_topologies();
    let traffic = shipped_traffic();
    let topology = topologies[*t as usize % topologies.len()].0;
    let traffic = traffic[*r as usize % traffic.len()].0;
    let sets: Vec<String> = rest
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    if let Ok(case) = AnyCase::load(topology, traffic, &sets, 1) {
        emu_fuzz::check_case(&case);
    }
});
