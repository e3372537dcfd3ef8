//! What the fuzz targets in `fuzz/` rely on, and inputs they came across (see
//! docs/fuzzing.md). The targets load files from memory with `load_topology_text` and
//! `load_traffic_text`; these must give what loading the same file from disk gives, or
//! the fuzzing would not be of the command line's path.

use emu::config::load::{load_topology_text, load_traffic_text};
use emu::config::{load_topology, load_traffic, shipped_topologies, shipped_traffic};
use emu::session::AnyCase;
use emu::traffic::trace::parse;

/// `--set` lists tried on every shipped file: none, valid for some files, and bad.
fn set_lists() -> Vec<Vec<String>> {
    [
        vec![],
        vec!["link.buffer_tokens=8"],
        vec!["pattern.rotate=3", "message.bytes=64"],
        vec!["network.dimensions=\"x\""],
        vec!["injection={kind=\"batch\", messages=3}"],
        vec!["nosuch.key=1"],
    ]
    .into_iter()
    .map(|l| l.into_iter().map(str::to_string).collect())
    .collect()
}

#[test]
fn text_loaders_match_the_file_loaders_on_every_shipped_file() {
    for sets in set_lists() {
        for (stem, text) in shipped_topologies() {
            let extension = if text.starts_with('<') {
                "graphml"
            } else {
                "toml"
            };
            let name = format!("topologies/{stem}.{extension}");
            let from_disk = load_topology(&name, &sets).map_err(|e| e.to_string());
            let from_text = load_topology_text(&name, text, &sets).map_err(|e| e.to_string());
            assert_eq!(
                from_disk.as_ref().map(|l| &l.config),
                from_text.as_ref().map(|l| &l.config),
                "{name} with {sets:?}"
            );
            if let (Ok(d), Ok(t)) = (&from_disk, &from_text) {
                assert_eq!(d.overrides, t.overrides, "{name} with {sets:?}");
                assert_eq!(d.file.text, t.file.text, "{name}");
            }
        }
        for (stem, text) in shipped_traffic() {
            let name = format!("traffic/{stem}.toml");
            let from_disk = load_traffic(&name, &sets).map_err(|e| e.to_string());
            let from_text = load_traffic_text(&name, text, &sets).map_err(|e| e.to_string());
            assert_eq!(
                from_disk.as_ref().map(|l| &l.config),
                from_text.as_ref().map(|l| &l.config),
                "{name} with {sets:?}"
            );
        }
    }
}

#[test]
fn text_loader_errors_name_the_given_file_and_line() {
    let e = load_topology_text(
        "mine.toml",
        "[network]\nkind = \"ring\"\nswitches = \"x\"\n",
        &[],
    )
    .expect_err("a string for a number");
    let m = e.to_string();
    assert!(m.starts_with("mine.toml:3:"), "{m}");
    let e = load_traffic_text("t.toml", "[pattern\n", &[]).expect_err("not TOML");
    assert!(e.to_string().starts_with("t.toml:1:"), "{e}");
}

/// Edge values the fuzzers start from or came across: each loads to an error or a
/// plan, never a panic.
#[test]
fn edge_inputs_are_errors_not_panics() {
    for text in [
        "18446744073709551615 15 15 4294967295\n",
        "18446744073709551616 0 0 1\n",
        "0 4294967296 0 1\n",
        "0 0 0 0\n",
        "# only a comment\n\n",
        "0 0 0 1 extra\n",
        "-0 0 0 1\n",
        "+1 0 0 1\n",
    ] {
        let _ = parse(text);
    }
    for (topology, traffic, sets) in [
        ("hypercube6", "uniform", vec!["network.dimensions=0"]),
        (
            "hypercube6",
            "uniform",
            vec!["network.dimensions=4294967295"],
        ),
        ("grid8", "uniform", vec!["network.side=0"]),
        ("kary4-3", "uniform", vec!["network.n=0"]),
        ("kary4-3", "uniform", vec!["network.k=4294967295"]),
        ("ring4", "uniform", vec!["network.switches=1"]),
        ("crossbar32", "uniform", vec!["network.terminals=0"]),
        ("min64", "uniform", vec!["network.terminals=4294967295"]),
        ("sci-ring4", "sci-uniform", vec!["network.nodes=0"]),
        ("fabric16-cioq", "fabric-trace", vec!["network.ports=0"]),
        ("ring4", "uniform", vec!["link.bit_rate_mbit_s=0"]),
        ("ring4", "uniform", vec!["link.bit_rate_mbit_s=1e308"]),
        (
            "ring4",
            "uniform",
            vec!["link.wire_delay_ns=18446744073709551615"],
        ),
        ("ring4", "uniform", vec!["phases.measure_us=1e300"]),
        ("ring4", "uniform", vec!["phases.measure_us=nan"]),
        ("ring4", "uniform", vec!["message.bytes=0"]),
        ("ring4", "uniform", vec!["packet.max_data_bytes=0"]),
        (
            "ring4",
            "uniform",
            vec!["injection={kind=\"rate\", load=inf}"],
        ),
        (
            "ring4",
            "uniform",
            vec!["injection={kind=\"batch\", messages=4294967295}"],
        ),
    ] {
        let sets: Vec<String> = sets.into_iter().map(str::to_string).collect();
        let _ = AnyCase::load(topology, traffic, &sets, 1);
    }
}
