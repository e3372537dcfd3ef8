//! A parsed trace replayed on a 16-port fabric (`fabric16-cioq` with `fabric-trace`):
//! the fabric builder checks every line's input and output against the fabric.
#![no_main]

use emu::config::load::{load_topology_text, load_traffic_text};
use emu::config::{TopologyConfig, TrafficConfig, shipped_topologies, shipped_traffic};
use emu::network;
use emu::traffic::trace::parse;
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

fn shipped(list: &'static [(&'static str, &'static str)], stem: &str) -> &'static str {
    list.iter()
        .find(|(s, _)| *s == stem)
        .map(|(_, t)| *t)
        .expect("shipped file")
}

static CONFIGS: LazyLock<(TopologyConfig, TrafficConfig)> = LazyLock::new(|| {
    let topo = load_topology_text(
        "fabric16-cioq.toml",
        shipped(shipped_topologies(), "fabric16-cioq"),
        &[],
    )
    .expect("shipped topology loads");
    let traf = load_traffic_text(
        "fabric-trace.toml",
        shipped(shipped_traffic(), "fabric-trace"),
        &[],
    )
    .expect("shipped traffic loads");
    (topo.config, traf.config)
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(lines) = parse(text) else { return };
    let (topo, traf) = &*CONFIGS;
    let built = network::fabric_from_config("fuzz", topo, traf, 1, Some(&lines));
    if *emu_fuzz::DEBUG {
        eprintln!(
            "EMU_FUZZ_DEBUG: {:?}",
            built.as_ref().map(|n| n.nodes().len())
        );
    }
    if let Ok(net) = built {
        emu_fuzz::check(&net);
    }
});
