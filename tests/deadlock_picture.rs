//! The pictures of a deadlock and of networks in their layouts: `deadlock.svg` of a
//! deadlocked run (`--plot`) and of `emu stress --plot`'s shrunk case shows the cycle
//! the text names, link for link; `emu check --plot` draws its cycle of channels;
//! the pictures are well-formed SVG and the same bytes every time; every family's
//! layout puts no two nodes at one point; bad `--plot` paths are exit 2.

use super::common::emu;
use emu::model::LinkProtocol;
use emu::plot::layout::layout;
use emu::session::{AnyCase, Case, CaseVisitor};
use serde_json::Value;
use std::path::Path;

/// Asserts that `svg` is well-formed XML as far as an SVG writer can get it wrong:
/// every tag closed in order, attributes quoted, `<` and `&` only as markup or
/// entities.
fn assert_well_formed(svg: &str, what: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    let mut roots = 0;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        assert_entities(text, what);
        let close = rest[open..]
            .find('>')
            .unwrap_or_else(|| panic!("{what}: unclosed tag at {}", &rest[open..]))
            + open;
        let tag = &rest[open + 1..close];
        assert!(!tag.contains('<'), "{what}: '<' inside tag {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            let top = stack
                .pop()
                .unwrap_or_else(|| panic!("{what}: </{name}> closes nothing"));
            assert_eq!(top, name.trim(), "{what}: </{name}> closes <{top}>");
        } else {
            let self_closing = tag.ends_with('/');
            let body = tag.trim_end_matches('/');
            let name = body.split_whitespace().next().unwrap_or("").to_string();
            assert!(!name.is_empty(), "{what}: empty tag");
            // Attributes: name="value" pairs, values without '<' or a bare '&'.
            let attrs = body[name.len()..].trim();
            assert_eq!(
                attrs.matches('"').count() % 2,
                0,
                "{what}: unbalanced quotes in <{tag}>"
            );
            assert_entities(attrs, what);
            if stack.is_empty() {
                roots += 1;
            }
            if !self_closing {
                stack.push(name);
            }
        }
        rest = &rest[close + 1..];
    }
    assert!(rest.trim().is_empty(), "{what}: text after the root");
    assert!(stack.is_empty(), "{what}: unclosed {stack:?}");
    assert_eq!(roots, 1, "{what}: one root element");
    assert!(svg.starts_with("<svg"), "{what}: starts with <svg");
}

fn assert_entities(text: &str, what: &str) {
    for (i, _) in text.match_indices('&') {
        let entity = &text[i..text.len().min(i + 6)];
        assert!(
            ["&amp;", "&lt;", "&gt;", "&quot;"]
                .iter()
                .any(|e| entity.starts_with(e)),
            "{what}: bare & in {text}"
        );
    }
}

/// The (sender, receiver) link directions of a wait-for cycle, in order, from its
/// JSON (`cycle`: places with their next place), as "node port p → node port q" with
/// node names, checked against the places' `node_name`.
fn cycle_links(cycle: &Value, names: &dyn Fn(u64) -> String) -> Vec<String> {
    let steps = cycle.as_array().expect("cycle is a list");
    steps
        .iter()
        .filter_map(|s| {
            let (place, next) = (&s["place"], &s["next"]);
            (place["side"] == "output" && next["side"] == "input" && place["node"] != next["node"])
                .then(|| {
                    format!(
                        "{} port {} → {} port {}",
                        names(place["node"].as_u64().expect("node")),
                        place["port"],
                        names(next["node"].as_u64().expect("node")),
                        next["port"]
                    )
                })
        })
        .collect()
}

/// The highlighted link directions of a drawn cycle, in their numbered order, from
/// their tooltips ("k: node port p → node port q").
fn drawn_links(svg: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in svg.split("<path class=\"cycle-link\"").skip(1) {
        let title = part
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .expect("a cycle link has a title");
        let (k, link) = title.split_once(": ").expect("numbered");
        assert_eq!(
            k.parse::<usize>().expect("number"),
            out.len() + 1,
            "{title}"
        );
        out.push(link.to_string());
    }
    assert_eq!(
        svg.matches("class=\"cycle-number\"").count(),
        2 * out.len(),
        "one number on the map and one in the legend per link"
    );
    out
}

/// The node names of a torus of C104s: switch ids are their numbers.
fn c104(n: u64) -> String {
    format!("c104[{n}]")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn arg(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

#[test]
fn the_stress_case_of_torus8_single_draws_the_cycle_the_text_names() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (pics, json, out) = (
        dir.path().join("stress"),
        dir.path().join("s.json"),
        dir.path().join("dl.toml"),
    );
    let (code, stdout, stderr) = emu(&[
        "stress",
        "-t",
        "torus8-single",
        "-q",
        "--plot",
        &arg(&pics),
        "--json",
        &arg(&json),
        "--out",
        &arg(&out),
    ]);
    assert_eq!(code, 3, "{stdout}{stderr}");
    let doc: Value = serde_json::from_str(&read(&json)).expect("JSON");
    let svg = read(&pics.join("deadlock.svg"));
    assert_well_formed(&svg, "stress deadlock.svg");
    let want = cycle_links(&doc["shrunk"]["cycle"], &c104);
    assert!(!want.is_empty(), "{doc}");
    assert_eq!(
        drawn_links(&svg),
        want,
        "the drawn cycle is the printed one, in order"
    );
    // Every place of the cycle is in the legend as printed, and every node is named.
    for line in doc["shrunk"]["cycle_text"].as_array().expect("cycle_text") {
        let line = line.as_str().expect("text").replace('>', "&gt;");
        assert!(svg.contains(&line), "{line} not in the picture");
    }
    for step in doc["shrunk"]["cycle"].as_array().expect("cycle") {
        let name = step["node_name"].as_str().expect("name");
        assert!(
            svg.contains(&format!("font-weight=\"bold\">{name}</text>")),
            "{name} not named"
        );
    }
    // The printed reproduce command with --plot draws the same cycle, the same bytes
    // every time.
    let seed = doc["original"]["seed"].to_string();
    let rerun = |sub: &str| {
        let d = dir.path().join(sub);
        let j = dir.path().join(format!("{sub}.json"));
        let (code, _, stderr) = emu(&[
            "-q",
            "--topology",
            "torus8-single",
            "--traffic",
            &arg(&out),
            "--seed",
            &seed,
            "--plot",
            &arg(&d),
            "--json",
            &arg(&j),
        ]);
        assert_eq!(code, 3, "{stderr}");
        let names: Vec<String> = std::fs::read_dir(&d)
            .expect("plot dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["deadlock.svg"],
            "a deadlocked run draws only the deadlock"
        );
        (
            read(&d.join("deadlock.svg")),
            serde_json::from_str::<Value>(&read(&j)).expect("JSON"),
        )
    };
    let (first, run) = rerun("a");
    let (second, _) = rerun("b");
    assert_eq!(first, second, "same input, same bytes");
    assert_well_formed(&first, "run deadlock.svg");
    assert_eq!(drawn_links(&first), cycle_links(&run["cycle"], &c104));
    assert_eq!(
        drawn_links(&first),
        want,
        "the rerun deadlocks on the same cycle"
    );
}

#[test]
fn check_plot_draws_the_cycle_of_channels_and_exits_3() {
    let dir = tempfile::tempdir().expect("temp dir");
    let draw = |sub: &str| {
        let d = dir.path().join(sub);
        let j = dir.path().join(format!("{sub}.json"));
        let (code, stdout, stderr) = emu(&[
            "check",
            "-t",
            "torus4-single",
            "--plot",
            &arg(&d),
            "--json",
            &arg(&j),
        ]);
        assert_eq!(code, 3, "{stdout}{stderr}");
        (
            read(&d.join("cdg-cycle.svg")),
            serde_json::from_str::<Value>(&read(&j)).expect("JSON"),
            stdout,
        )
    };
    let (svg, doc, stdout) = draw("a");
    assert_well_formed(&svg, "cdg-cycle.svg");
    let cycle = doc["check"]["cycle"].as_array().expect("a cycle");
    let want: Vec<String> = cycle
        .iter()
        .map(|c| {
            format!(
                "{} port {} → {} port {}",
                c["from_node"].as_str().expect("from"),
                c["from_port"],
                c["to_node"].as_str().expect("to"),
                c["to_port"]
            )
        })
        .collect();
    assert_eq!(drawn_links(&svg), want);
    // Each channel's line of the text is in the legend.
    for w in &want {
        assert!(stdout.contains(w) && svg.contains(w), "{w}");
    }
    assert_eq!(draw("b").0, svg, "same input, same bytes");
    // A deadlock-free network draws nothing.
    let d = dir.path().join("free");
    let (code, _, stderr) = emu(&["check", "-t", "hypercube6", "--plot", &arg(&d)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!d.join("cdg-cycle.svg").exists());
}

#[test]
fn bad_plot_paths_are_bad_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").expect("write");
    let under_file = arg(&file.join("sub"));
    let cases: Vec<Vec<&str>> = vec![
        vec!["check", "-t", "torus4-single", "--plot", "/proc/emu-plot"],
        vec!["check", "-t", "torus4-single", "--plot", &under_file],
        vec!["stress", "-t", "ring4", "--plot", "/proc/emu-plot"],
        vec!["stress", "-t", "sci-ring4", "--plot", &under_file],
        vec!["-t", "ring4", "-p", "uniform", "--plot", "/proc/emu-plot"],
    ];
    for args in cases {
        let (code, stdout, stderr) = emu(&args);
        assert_eq!(code, 2, "{args:?}: {stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
        assert!(
            stderr.contains("--plot"),
            "{args:?}: names the flag: {stderr}"
        );
    }
    let (code, _, stderr) = emu(&[
        "stress",
        "-t",
        "sci-ring4",
        "--plot",
        &arg(&dir.path().join("p")),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot deadlock"), "{stderr}");
}

/// The layout of a case: its positions and which nodes hang beside another.
struct Lay;

impl CaseVisitor for Lay {
    type Output = (String, Vec<(f64, f64)>, usize);
    fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Self::Output {
        let l = layout(&case.net);
        (
            case.net.name().to_string(),
            l.pos.iter().map(|p| (p.x, p.y)).collect(),
            case.net.nodes().len(),
        )
    }
}

#[test]
fn every_family_s_layout_puts_each_node_at_its_own_point() {
    let cases = [
        ("grid8", "uniform"),
        ("torus8-single", "uniform"),
        ("kary4-3", "uniform"),
        ("hypercube6", "uniform"),
        ("hypercube4-universal-oneset", "uniform"),
        ("min64", "uniform"),
        ("ring4", "uniform"),
        ("crossbar32", "uniform"),
        ("netlist-tree", "uniform"),
        ("sci-ring16", "sci-uniform"),
        ("fabric16-cioq", "fabric-nonuniform"),
        ("relay-ring", "relay-balls"),
    ];
    for (topology, traffic) in cases {
        let case =
            AnyCase::load(topology, traffic, &[], 1).unwrap_or_else(|e| panic!("{topology}: {e}"));
        let (name, pos, nodes) = case.visit(Lay);
        assert_eq!(pos.len(), nodes, "{name}: a position per node");
        assert!(
            pos.iter().all(|p| p.0.is_finite() && p.1.is_finite()),
            "{name}"
        );
        let mut closest = f64::INFINITY;
        for i in 0..pos.len() {
            for j in i + 1..pos.len() {
                let d = (pos[i].0 - pos[j].0).hypot(pos[i].1 - pos[j].1);
                closest = closest.min(d);
                assert!(d > 0.1, "{name}: nodes {i} and {j} {d} apart");
            }
        }
        // The same network, the same layout.
        let again = AnyCase::load(topology, traffic, &[], 1)
            .expect("loads")
            .visit(Lay);
        assert_eq!(again.1, pos, "{name}: deterministic");
    }
}

#[test]
fn links_svg_draws_each_link_direction_on_the_layout() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().join("p");
    let j = dir.path().join("r.json");
    let (code, _, stderr) = emu(&[
        "-q",
        "-t",
        "torus4-single",
        "-p",
        "uniform-rate",
        "--set",
        "injection.load=0.2",
        "--set",
        "phases.measure_us=20",
        "--plot",
        &arg(&d),
        "--json",
        &arg(&j),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let svg = read(&d.join("links.svg"));
    assert_well_formed(&svg, "links.svg");
    let doc: Value = serde_json::from_str(&read(&j)).expect("JSON");
    let links = doc["links"].as_array().expect("links");
    // 16 switches with a terminal each, 32 torus links: 48 links, 96 directions, each
    // measured and drawn in its colour.
    assert_eq!(svg.matches("class=\"lane\"").count(), 96);
    assert_eq!(links.len(), 96);
    for l in links {
        let tip = format!(
            "{}:{} → {}:{}: ",
            l["from"].as_str().expect("from"),
            l["from_port"],
            l["to"].as_str().expect("to"),
            l["to_port"]
        );
        assert!(svg.contains(&tip), "{tip}");
    }
    assert!(svg.contains("% of run busy"));
    // A netlist keeps its switch × switch matrix.
    let d = dir.path().join("n");
    let (code, _, stderr) = emu(&[
        "-q",
        "-t",
        "netlist-tree",
        "-p",
        "uniform",
        "--plot",
        &arg(&d),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let svg = read(&d.join("links.svg"));
    assert!(svg.contains("to switch") && !svg.contains("class=\"lane\""));
}

/// A number `name="value"` attribute of an SVG tag.
fn attr(tag: &str, name: &str) -> f64 {
    let key = format!(" {name}=\"");
    let at = tag
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {tag}"))
        + key.len();
    let end = tag[at..].find('"').expect("a closing quote") + at;
    tag[at..end].parse().expect("a number")
}

/// Every tag of `svg` named `name` (`<name …>`), as text.
fn tags<'a>(svg: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name} ");
    svg.match_indices(&open)
        .map(|(i, _)| &svg[i..i + svg[i..].find('>').expect("a closed tag")])
        .collect()
}

/// Asserts that no two numbered badges (`cycle-number` circles) of `svg` overlap.
fn assert_numbers_apart(svg: &str, what: &str) {
    let badges: Vec<(f64, f64, f64)> = svg
        .match_indices("<g class=\"cycle-number\"><circle ")
        .map(|(i, _)| {
            let tag = &svg[i + 24..i + 24 + svg[i + 24..].find('>').expect("a tag")];
            (attr(tag, "cx"), attr(tag, "cy"), attr(tag, "r"))
        })
        .collect();
    assert!(!badges.is_empty(), "{what}: numbers drawn");
    for (i, a) in badges.iter().enumerate() {
        for b in &badges[i + 1..] {
            let d = (a.0 - b.0).hypot(a.1 - b.1);
            assert!(
                d >= a.2 + b.2,
                "{what}: numbers at ({}, {}) and ({}, {}) overlap",
                a.0,
                a.1,
                b.0,
                b.1
            );
        }
    }
}

#[test]
fn deadlock_numbers_never_overlap_even_on_one_crowded_link() {
    use emu::deadlock::waitfor::Place;
    let net = Case::load("torus4-single", "uniform", &[], 1)
        .expect("torus4-single")
        .net;
    let step = super::common::cycle_step;
    // Twelve crossings of the one link c104[0] port 1 → c104[1] port 2: every
    // number wants the same place beside it.
    let (out, inp) = (
        Place::Output { node: 0, port: 1 },
        Place::Input { node: 1, port: 2 },
    );
    let mut cycle = Vec::new();
    for _ in 0..12 {
        cycle.push(step(out, inp));
        cycle.push(step(inp, out));
    }
    let svg = emu::plot::deadlock::deadlock_svg("crowded", &net, &cycle, &[]).expect("draws");
    assert_well_formed(&svg, "crowded deadlock.svg");
    // Twelve on the map and twelve in the legend.
    assert_eq!(svg.matches("class=\"cycle-number\"").count(), 24);
    assert_numbers_apart(&svg, "crowded");
    // The numbers stay inside the picture.
    let (w, h) = (attr(&svg, "width"), attr(&svg, "height"));
    for tag in tags(&svg, "circle") {
        let (x, y) = (attr(tag, "cx"), attr(tag, "cy"));
        assert!(x > 0.0 && x < w && y > 0.0 && y < h, "{tag} inside {w}×{h}");
    }
    // And the real cases: a run's cycle and the cycle of channels of emu check.
    let dir = tempfile::tempdir().expect("temp dir");
    for (args, file) in [
        (
            &["-q", "-t", "torus4-single", "-p", "torus4-ring"][..],
            "deadlock.svg",
        ),
        (
            &["check", "-t", "hypercube4-universal-oneset"][..],
            "cdg-cycle.svg",
        ),
        (&["check", "-t", "torus8-single"][..], "cdg-cycle.svg"),
    ] {
        let d = dir.path().join(args.join("-"));
        let mut all = args.to_vec();
        let p = arg(&d);
        all.extend_from_slice(&["--plot", &p]);
        let (code, _, stderr) = emu(&all);
        assert_eq!(code, 3, "{args:?}: {stderr}");
        assert_numbers_apart(&read(&d.join(file)), file);
    }
}

#[test]
fn heat_map_names_every_row_and_column_at_its_cells_centre() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().join("n");
    let (code, _, stderr) = emu(&[
        "-q",
        "-t",
        "netlist-tree",
        "-p",
        "uniform",
        "--plot",
        &arg(&d),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let svg = read(&d.join("links.svg"));
    assert_well_formed(&svg, "heat map");
    // The switches' names as drawn: (x, y, anchor, name).
    let labels: Vec<(f64, f64, bool, String)> = svg
        .match_indices("<text ")
        .filter_map(|(i, _)| {
            let end = svg[i..].find("</text>")? + i;
            let tag_end = svg[i..].find('>')? + i;
            let name = svg[tag_end + 1..end].trim().to_string();
            let tag = &svg[i..tag_end];
            name.starts_with("c104[").then(|| {
                (
                    attr(tag, "x"),
                    attr(tag, "y"),
                    tag.contains("text-anchor=\"end\""),
                    name,
                )
            })
        })
        .collect();
    let names = |rows: bool| -> Vec<String> {
        let mut v: Vec<String> = labels
            .iter()
            .filter(|l| l.2 == rows)
            .map(|l| l.3.clone())
            .collect();
        v.sort();
        v
    };
    let all: Vec<String> = (0..4).map(|i| format!("c104[{i}]")).collect();
    assert_eq!(names(true), all, "every row named once");
    assert_eq!(names(false), all, "every column named once");
    // The cells (coloured rectangles left of the colour bar): each centre has its
    // row's name level with it and its column's name under it.
    let cells: Vec<(f64, f64, f64, f64)> = tags(&svg, "rect")
        .into_iter()
        .filter(|t| !t.contains("#FFFFFF"))
        .map(|t| {
            (
                attr(t, "x"),
                attr(t, "y"),
                attr(t, "width"),
                attr(t, "height"),
            )
        })
        .filter(|c| c.0 + c.2 <= 800.0)
        .collect();
    assert!(cells.len() >= 4, "{cells:?}");
    for (x, y, w, h) in cells {
        let (cx, cy) = (x + w / 2.0, y + h / 2.0);
        assert!(
            labels.iter().any(|l| l.2 && (l.1 - cy).abs() <= 1.0),
            "a row name level with the cell centred at ({cx}, {cy})"
        );
        assert!(
            labels.iter().any(|l| !l.2 && (l.0 - cx).abs() <= 1.0),
            "a column name under the cell centred at ({cx}, {cy})"
        );
    }
}
