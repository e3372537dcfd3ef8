//! A topology file of one's own keeps the defaults of the keys it leaves out (the
//! DS-Link and T9000 hardware, INMOS ch. 6), while the shipped networks of C104s set
//! chapter 7's model: the report's header names every default kept where all shipped
//! files of the same kind differ, and with those keys set, a user's grid runs exactly
//! as the shipped `grid8` does.

use super::common::emu;
use emu::config::kind_defaults::{differences, header_line};
use emu::config::load_topology;

/// A 4 × 4 grid file of one's own, with nothing but its shape.
fn own_grid(dir: &std::path::Path) -> String {
    let path = dir.join("my-grid.toml");
    std::fs::write(&path, "[network]\nkind = \"grid\"\nside = 4\n").expect("written");
    path.to_string_lossy().into_owned()
}

#[test]
fn the_header_names_the_defaults_a_grid_of_ones_own_keeps() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = own_grid(dir.path());
    let own = load_topology(&file, &[]).expect("loads");
    assert_eq!(
        header_line(&own).as_deref(),
        Some(
            "this file keeps the defaults link.buffer_tokens = 20, vcp.acknowledge = true; \
             every shipped grid file sets link.buffer_tokens = \"packet\", \
             vcp.acknowledge = false"
        )
    );
    // A key set by --set is the user's choice, not a default kept.
    let set = load_topology(&file, &["vcp.acknowledge=false".to_string()]).expect("loads");
    let keys: Vec<String> = differences(&set).into_iter().map(|d| d.key).collect();
    assert_eq!(keys, ["link.buffer_tokens"]);
    // The shipped file, and a copy of it, keep no default that differs.
    assert_eq!(
        header_line(&load_topology("grid8", &[]).expect("loads")),
        None
    );
    let copy = dir.path().join("grid8-copy.toml");
    let text = emu::config::shipped_topologies()
        .iter()
        .find(|(stem, _)| *stem == "grid8")
        .map(|(_, text)| *text)
        .expect("grid8 is shipped");
    std::fs::write(&copy, text).expect("written");
    let copy = load_topology(&copy.to_string_lossy(), &[]).expect("loads");
    assert_eq!(header_line(&copy), None);
}

#[test]
fn with_the_named_keys_set_a_grid_of_ones_own_runs_as_the_shipped_one() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = own_grid(dir.path());
    let run = |args: &[&str], name: &str| {
        let json = dir.path().join(name);
        let path = json.to_string_lossy().into_owned();
        let mut all = args.to_vec();
        all.extend([
            "-p",
            "uniform",
            "-q",
            "--set",
            "phases.measure_us=100",
            "--json",
            &path,
        ]);
        let (code, out, err) = emu(&all);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).expect("written")).expect("JSON");
        (out, v)
    };
    let (out, kept) = run(&["-t", &file], "kept.json");
    let line = out
        .lines()
        .find(|l| l.starts_with("defaults    this file keeps the defaults"))
        .unwrap_or_else(|| panic!("no defaults line:\n{out}"));
    assert!(line.contains("every shipped grid file sets"), "{line}");
    let (out, set) = run(
        &[
            "-t",
            &file,
            "--set",
            "link.buffer_tokens=\"packet\"",
            "--set",
            "vcp.acknowledge=false",
        ],
        "set.json",
    );
    assert!(!out.contains("defaults "), "{out}");
    let (_, shipped) = run(&["-t", "grid8", "--set", "network.side=4"], "shipped.json");
    for part in ["throughput", "latency", "messages"] {
        assert_eq!(set[part], shipped[part], "{part}");
    }
    assert_ne!(kept["throughput"], shipped["throughput"]);
}
