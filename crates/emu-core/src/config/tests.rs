//! Loading tests: errors, lookup, overrides and `locate` end to end.

use super::load::load_source;
use super::overrides::parse_sets;
use super::*;

const CUBE: &str = "description = \"test cube\"\n\n[network]\nkind = \"hypercube\"\ndimensions = 8\n\n[link]\nwire_delay_ns = 200\n";
const UNIFORM: &str = "[pattern]\nkind = \"uniform\"\n\n[injection]\nkind = \"continuous\"\n";

fn source(kind: FileKind, text: &str) -> SourceFile {
    let name = format!("{}.toml", kind.prefix());
    SourceFile {
        kind,
        name,
        text: text.to_string(),
        origin: Origin::Shipped,
    }
}

fn sets(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Loads `text` as a topology with these overrides, the error as a string.
fn topo(text: &str, set: &[&str]) -> Result<Loaded<TopologyConfig>, String> {
    let ovs: Vec<_> = parse_sets(&sets(set)).map_err(|e| e.to_string())?;
    let ovs: Vec<_> = ovs
        .into_iter()
        .filter(|o| o.kind == FileKind::Topology)
        .collect();
    load_source(source(FileKind::Topology, text), &ovs, &C104Kinds).map_err(|e| e.to_string())
}

fn traffic(text: &str, set: &[&str]) -> Result<Loaded<TrafficConfig>, String> {
    let ovs: Vec<_> = parse_sets(&sets(set)).map_err(|e| e.to_string())?;
    let ovs: Vec<_> = ovs
        .into_iter()
        .filter(|o| o.kind == FileKind::Traffic)
        .collect();
    load_source(source(FileKind::Traffic, text), &ovs, &super::NoKinds).map_err(|e| e.to_string())
}

fn err<T: std::fmt::Debug>(r: Result<T, String>) -> String {
    let e = r.expect_err("should fail");
    assert!(!e.contains('\n'), "multi-line message: {e:?}");
    e
}

fn dimensions(c: &TopologyConfig) -> u32 {
    match &c.network {
        NetworkConfig::Hypercube(h) => h.dimensions,
        NetworkConfig::Ring(r) => 1000 + r.switches,
        _ => 0,
    }
}

#[test]
fn a_valid_file_loads() {
    let l = topo(CUBE, &[]).expect("valid");
    assert_eq!(dimensions(&l.config), 8);
    assert_eq!(l.config.description, "test cube");
    assert!(l.overrides.is_empty());
}

#[test]
fn unknown_key_names_file_line_and_key() {
    let e = err(topo(&format!("{CUBE}foo = 3\n"), &[]));
    assert!(
        e.starts_with("topology.toml:9:1: link.foo: unknown key `foo` here: this table takes"),
        "{e}"
    );
    let e = err(topo(&format!("{CUBE}[bogus]\nx = 1\n"), &[]));
    assert!(
        e.starts_with("topology.toml:9:2: bogus: unknown key `bogus`"),
        "{e}"
    );
    // Inside an internally tagged table toml only knows the table; the key is still found.
    let e = err(topo(
        &CUBE.replace("dimensions = 8", "dimensions = 8\nswitches = 4"),
        &[],
    ));
    assert!(
        e.starts_with("topology.toml:6:1: network.switches: unknown key `switches`"),
        "{e}"
    );
}

#[test]
fn bad_syntax_names_file_line_and_key() {
    let e = err(topo(
        &CUBE.replace("dimensions = 8", "dimensions = = 8"),
        &[],
    ));
    assert!(
        e.starts_with("topology.toml:5:14: network.dimensions: "),
        "{e}"
    );
    let e = err(topo("[network\nkind = 1\n", &[]));
    assert!(e.starts_with("topology.toml:1:"), "{e}");
    let e = err(topo(
        &CUBE.replace(
            "wire_delay_ns = 200",
            "wire_delay_ns = 200\nwire_delay_ns = 1",
        ),
        &[],
    ));
    assert!(
        e.starts_with("topology.toml:9:1: link.wire_delay_ns: duplicate key"),
        "{e}"
    );
}

#[test]
fn wrong_type_names_the_key() {
    let e = err(topo(
        &CUBE.replace("dimensions = 8", "dimensions = \"eight\""),
        &[],
    ));
    assert_eq!(
        e,
        "topology.toml:5:14: network.dimensions: the text \"eight\": give a whole number from 1 to 20"
    );
    let e = err(topo(&CUBE.replace("200", "-1"), &[]));
    assert_eq!(
        e,
        "topology.toml:8:17: link.wire_delay_ns: the number `-1`: give a whole number of bit periods, at least one"
    );
    let e = err(topo(&format!("{CUBE}buffer_tokens = \"pkt\"\n"), &[]));
    assert!(
        e.starts_with("topology.toml:9:17: link.buffer_tokens: \"pkt\" is not a buffer size"),
        "{e}"
    );
}

#[test]
fn unknown_kind_and_missing_fields_name_the_key() {
    let e = err(traffic(&UNIFORM.replace("\"uniform\"", "\"zigzag\""), &[]));
    assert!(
        e.starts_with("traffic.toml:2:8: pattern.kind: unknown name `zigzag`: give one of"),
        "{e}"
    );
    let e = err(traffic(&UNIFORM.replace("\"uniform\"", "\"fixed\""), &[]));
    assert_eq!(
        e,
        "traffic.toml:1:1: pattern.destination: missing field `destination`"
    );
    let e = err(traffic("[pattern]\nkind = \"uniform\"\n", &[]));
    assert_eq!(e, "traffic.toml: injection: missing field `injection`");
    // The pattern defaults to uniform (a trace names its packets' outputs itself).
    let l = traffic("[injection]\nkind = \"continuous\"\n", &[]).expect("valid");
    assert_eq!(l.config.pattern, traffic::PatternConfig::Uniform);
}

#[test]
fn lookup_by_name_with_and_without_suffix_and_by_path() {
    // `cargo test` runs in the crate root, so the name is found in `topologies/`.
    for spec in ["hypercube8", "hypercube8.toml"] {
        let l = load_topology(spec, &[]).expect("found");
        assert_eq!(dimensions(&l.config), 8);
        assert!(l.file.name.ends_with("hypercube8.toml"), "{}", l.file.name);
    }
    let l = load_traffic("uniform-rate", &[]).expect("found");
    assert!(matches!(
        l.config.injection,
        traffic::InjectionConfig::Rate { .. }
    ));

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("config-test.toml");
    std::fs::write(&path, CUBE.replace("= 8", "= 5")).expect("write temp file");
    let spec = path.display().to_string();
    let l = load_topology(&spec, &[]);
    let broken = std::fs::write(&path, "[network]\nkind = 7\n").map(|_| load_topology(&spec, &[]));
    let l = l.expect("loads");
    assert_eq!(
        (dimensions(&l.config), l.file.name.as_str()),
        (5, spec.as_str())
    );
    assert_eq!(l.file.origin, Origin::Path(path.clone()));
    let e = broken.expect("written").expect_err("bad kind").to_string();
    assert!(e.starts_with(&format!("{spec}:2:8: network.kind: ")), "{e}");

    let e = load_topology("no-such-net", &[])
        .expect_err("missing")
        .to_string();
    assert!(e.contains("no-such-net") && e.contains("hypercube8"), "{e}");
}

#[test]
fn overrides_are_applied() {
    let l = topo(CUBE, &["network.dimensions=6"]).expect("valid");
    assert_eq!(dimensions(&l.config), 6);
    assert_eq!(
        l.overrides,
        [("network.dimensions".to_string(), "6".to_string())]
    );
    let l = topo(
        CUBE,
        &["topology.network.dimensions=4", "topology.description=x y"],
    )
    .expect("valid");
    assert_eq!(
        (dimensions(&l.config), l.config.description.as_str()),
        (4, "x y")
    );
    // A bare word is a string; a table not in the file is created.
    let l = topo(
        CUBE,
        &[
            "c104.output_buffer_tokens=packet",
            "vcp.channels=3",
            "link.buffer_tokens=12",
        ],
    )
    .expect("valid");
    assert_eq!(
        l.config.c104.output_buffer_tokens,
        topology::BufferSize::Packet
    );
    assert_eq!(
        l.config.link.buffer_tokens,
        topology::BufferSize::Tokens(12)
    );
    assert_eq!(l.config.vcp.channels, 3);
    // A whole table, and a later override wins.
    let l = topo(
        CUBE,
        &["network={kind=\"ring\", switches=4}", "network.switches=6"],
    )
    .expect("valid");
    assert_eq!(dimensions(&l.config), 1006);
}

#[test]
fn traffic_overrides_including_nested_values() {
    let l = traffic(
        UNIFORM,
        &[
            "terminals.senders=[0,3]",
            "pattern.kind=fixed",
            "pattern.destination=5",
        ],
    )
    .expect("valid");
    assert_eq!(l.config.terminals.senders, Some(vec![0, 3]));
    assert_eq!(
        l.config.pattern,
        traffic::PatternConfig::Fixed { destination: 5 }
    );
    let l = traffic(
        UNIFORM,
        &[
            "injection={kind=\"rate\", load=0.5}",
            "phases.measure_us=50",
        ],
    )
    .expect("valid");
    assert_eq!(
        l.config.injection,
        traffic::InjectionConfig::Rate { load: 0.5 }
    );
    assert_eq!(l.config.phases.measure_us, 50.0);
}

#[test]
fn overrides_for_the_other_kind_are_ignored_but_checked() {
    let l = load_topology(
        "hypercube6",
        &sets(&["pattern.kind=uniform", "traffic.message.bytes=1"]),
    )
    .expect("valid");
    assert!(l.overrides.is_empty());
    assert_eq!(dimensions(&l.config), 6);
    let l = load_traffic(
        "uniform",
        &sets(&["network.dimensions=eight", "message.bytes=64"]),
    )
    .expect("valid");
    assert_eq!(l.config.message.bytes, 64);
    assert_eq!(
        l.overrides,
        [("message.bytes".to_string(), "64".to_string())]
    );
    let e = load_traffic("uniform", &sets(&["bogus.x=1"]))
        .expect_err("malformed")
        .to_string();
    assert!(
        e.starts_with("--set bogus.x=1: unknown section `bogus`"),
        "{e}"
    );
}

#[test]
fn override_errors_name_the_set() {
    let e = err(topo(CUBE, &["network.dimensions=eight"]));
    assert_eq!(
        e,
        "--set network.dimensions=eight: the text \"eight\": give a whole number from 1 to 20"
    );
    let e = err(topo(CUBE, &["vcp.channels=6", "link.wire_delay_ns=-5"]));
    assert_eq!(
        e,
        "--set link.wire_delay_ns=-5: the number `-5`: give a whole number of bit periods, at least one"
    );
    let e = err(topo(CUBE, &["link.bogus=1"]));
    assert!(
        e.starts_with("--set link.bogus=1: unknown key `bogus`"),
        "{e}"
    );
    let e = err(topo(CUBE, &["faults.extra=1"]));
    assert!(
        e.starts_with("--set faults.extra=1: unknown key `extra`"),
        "{e}"
    );
    let e = err(topo(CUBE, &["link.buffer_tokens=pkt"]));
    assert!(
        e.starts_with("--set link.buffer_tokens=pkt: \"pkt\" is not a buffer size"),
        "{e}"
    );
    // The error is about a key of the file, made wrong by the override.
    let e = err(topo(CUBE, &["vcp.channels=2", "network.kind=ring"]));
    assert!(
        e.starts_with("--set network.kind=ring: unknown key `dimensions`"),
        "{e}"
    );
    let e = err(traffic(UNIFORM, &["pattern.kind=fixed"]));
    assert_eq!(e, "--set pattern.kind=fixed: missing field `destination`");
    let e = err(topo(CUBE, &["link.wire_delay_ns.x=1"]));
    assert!(
        e.starts_with("--set link.wire_delay_ns.x=1: `link.wire_delay_ns` is not a table"),
        "{e}"
    );
}

#[test]
fn file_errors_win_over_overrides() {
    let e = err(topo(&format!("{CUBE}foo = 3\n"), &["network.dimensions=6"]));
    assert!(e.starts_with("topology.toml:9:1: link.foo: "), "{e}");
}

#[test]
fn malformed_sets_and_unprefixed_description_are_rejected() {
    for bad in [
        "network.dimensions",
        "description=x",
        "nosuch.key=1",
        "network.=1",
    ] {
        let e = validate_sets(&sets(&[bad])).expect_err(bad).to_string();
        assert!(e.starts_with(&format!("--set {bad}: ")), "{e}");
        assert!(load_topology("hypercube8", &sets(&[bad])).is_err());
    }
    let e = validate_sets(&sets(&["description=x"]))
        .expect_err("ambiguous")
        .to_string();
    assert!(
        e.contains("topology.description or traffic.description"),
        "{e}"
    );
}

#[test]
fn locate_says_where_a_value_came_from() {
    let l = topo(CUBE, &["link.wire_delay_ns=0", "topology.description=d"]).expect("valid");
    assert_eq!(
        l.locate("network.dimensions"),
        "topology.toml:5:1: network.dimensions"
    );
    assert_eq!(
        l.locate("topology.network.kind"),
        "topology.toml:4:1: network.kind"
    );
    assert_eq!(l.locate("link.wire_delay_ns"), "--set link.wire_delay_ns=0");
    assert_eq!(l.locate("description"), "--set topology.description=d");
    assert_eq!(
        l.locate("link.bit_rate_mbit_s"),
        "topology.toml: link.bit_rate_mbit_s (default)"
    );
    assert_eq!(
        l.locate("c104.header_time_ns"),
        "topology.toml: c104.header_time_ns (default)"
    );
    let l = topo(CUBE, &["network={kind=\"ring\", switches=4}"]).expect("valid");
    assert_eq!(
        l.locate("network.switches"),
        "--set network={kind=\"ring\", switches=4}"
    );
    let l = topo(CUBE, &["link.wire_delay_ns=0"]).expect("valid");
    assert_eq!(
        l.locate("link"),
        "topology.toml:7:2: link, with --set link.wire_delay_ns=0"
    );
    let l = load_topology("hypercube8", &[]).expect("valid");
    assert!(
        l.locate("network.dimensions")
            .ends_with("hypercube8.toml:8:1: network.dimensions")
    );
}

#[test]
fn keys_ignored_by_the_schema_are_errors() {
    let text = UNIFORM.replace("kind = \"uniform\"", "kind = \"uniform\"\nrotate = 2");
    let e = err(traffic(&text, &[]));
    assert_eq!(
        e,
        "traffic.toml:3:1: pattern.rotate: unknown key `rotate` here: kind = \"uniform\" takes no key but `kind`"
    );
    let e = err(traffic(UNIFORM, &["injection.load=0.5"]));
    assert_eq!(
        e,
        "--set injection.load=0.5: unknown key `load` here: kind = \"continuous\" takes no key but `kind`"
    );
    let rate = UNIFORM.replace("\"continuous\"", "\"rate\"\nload = 0.5");
    assert!(traffic(&rate, &[]).is_ok());
    let e = err(traffic(&rate, &["injection.kind=continuous"]));
    assert!(
        e.starts_with("--set injection.kind=continuous: unknown key `load`"),
        "{e}"
    );
}

#[test]
fn a_malformed_toml_value_is_explained() {
    let e = err(traffic(UNIFORM, &["terminals.senders=[0,x]"]));
    assert!(
        e.starts_with(
            "--set terminals.senders=[0,x]: the text \"[0,x]\": give a list in brackets, [ … ]"
        ),
        "{e}"
    );
    assert!(
        e.contains("was read as a string: it is not a valid TOML value"),
        "{e}"
    );
    let e = err(topo(CUBE, &["link.buffer_tokens=pkt"]));
    assert!(!e.contains("was read as a string"), "{e}");
}
