//! `--report FILE.html`: one self-contained page of a run, a deadlocked run, a sweep
//! and a reproduction. The page names nothing outside itself, inlines every `--plot`
//! picture, shows the JSON report's numbers, has one per-terminal row per terminal,
//! balances its tags and is the same bytes for the same input.

use super::common::emu;
use std::collections::BTreeSet;
use std::path::Path;

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("emu-html-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One tag of the page: its name, attributes, and whether it closes or is self-closed.
struct Tag {
    name: String,
    closing: bool,
    self_closed: bool,
    attributes: Vec<(String, String)>,
}

/// Every tag of `html` outside the raw text of `<script>` and `<style>`, with the
/// `<!DOCTYPE>` left out.
fn tags(html: &str) -> Vec<Tag> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        if rest.starts_with("!DOCTYPE") {
            continue;
        }
        // The tag ends at the first `>` outside quotes.
        let mut quote = None;
        let mut end = None;
        for (i, c) in rest.char_indices() {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '>') => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let end = end.expect("every tag is closed by >");
        let body = &rest[..end];
        rest = &rest[end + 1..];
        let closing = body.starts_with('/');
        let body = body.trim_start_matches('/');
        let self_closed = body.ends_with('/');
        let body = body.trim_end_matches('/');
        let name: String = body
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase();
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()),
            "a stray < before {:?}",
            &body[..body.len().min(40)]
        );
        let attributes = attributes(&body[name.len()..]);
        if (name == "script" || name == "style") && !closing {
            let close = format!("</{name}>");
            let at = rest.find(&close).expect("raw text element closed");
            assert!(!rest[..at].contains('<'), "a < inside <{name}>");
            rest = &rest[at..];
        }
        out.push(Tag {
            name,
            closing,
            self_closed,
            attributes,
        });
    }
    out
}

/// `name="value"` pairs (every attribute the builder and the SVG backend write is
/// quoted; a bare one would be an error here).
fn attributes(mut s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return out;
        }
        let eq = s
            .find('=')
            .unwrap_or_else(|| panic!("bare attribute in {s:?}"));
        let name = s[..eq].trim().to_lowercase();
        let value = &s[eq + 1..];
        let q = value.chars().next().expect("a value");
        assert!(q == '"' || q == '\'', "unquoted attribute {name}");
        let close = value[1..].find(q).expect("closing quote") + 1;
        out.push((name, value[1..close].to_string()));
        s = &value[close + 1..];
    }
}

/// The page is well formed (as far as its own builder and the SVGs go: every tag
/// closed in order, void elements excepted) and reaches for nothing outside itself:
/// no attribute that loads or links anything, no URL in any value or text, no CSS
/// import or `url(`.
fn check_page(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>\n"), "doctype");
    let void: BTreeSet<&str> = ["meta", "br", "hr", "img", "input", "link"].into();
    let mut stack: Vec<String> = Vec::new();
    for tag in tags(html) {
        for (name, value) in &tag.attributes {
            assert!(
                ![
                    "src",
                    "href",
                    "xlink:href",
                    "srcset",
                    "action",
                    "formaction",
                    "data",
                    "poster",
                    "background",
                    "manifest",
                    "ping"
                ]
                .contains(&name.as_str()),
                "<{} {name}={value:?}> loads or links something",
                tag.name
            );
            assert!(!name.starts_with("on"), "inline handler {name}");
            let v = value.to_lowercase();
            assert!(
                !v.contains("//") && !v.contains("url(") && !v.contains("javascript:"),
                "<{} {name}={value:?}> names something outside the page",
                tag.name
            );
        }
        if tag.closing {
            assert_eq!(
                stack.pop().as_deref(),
                Some(tag.name.as_str()),
                "</{}> out of order",
                tag.name
            );
        } else if !tag.self_closed && !void.contains(tag.name.as_str()) {
            stack.push(tag.name);
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    let lower = html.to_lowercase();
    for needle in [
        "http:", "https:", "src=", "href=", "url(", "@import", "ftp:",
    ] {
        assert!(!lower.contains(needle), "the page contains {needle}");
    }
}

/// `text` escaped as the page escapes it.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// A number with thousands separators, as the text report writes counts.
fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The cells of the first table row that starts with `first` cells.
fn row_after(html: &str, first: &[&str]) -> Vec<String> {
    let start: String = first.iter().map(|c| format!("<td>{c}</td>")).collect();
    let at = html
        .find(&start)
        .unwrap_or_else(|| panic!("no row {start}"));
    let row = &html[at..html[at..].find("</tr>").expect("row ends") + at];
    row.split("</td>")
        .filter_map(|c| c.rsplit('>').next())
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

fn run_page(dir: &Path, topology: &str, traffic: &str) -> (String, serde_json::Value, String) {
    let (html, json, plots) = (dir.join("r.html"), dir.join("r.json"), dir.join("plots"));
    let (code, stdout, stderr) = emu(&[
        "-t",
        topology,
        "-p",
        traffic,
        "-q",
        "--report",
        html.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--plot",
        plots.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let page = read(&html);
    check_page(&page);
    // Every picture --plot drew is in the page, inline, its namespace left out.
    let mut svgs = 0;
    for entry in std::fs::read_dir(&plots).expect("plot dir") {
        let path = entry.expect("entry").path();
        let svg = read(&path).replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
        assert!(
            page.contains(svg.trim()),
            "{} is not inline in the page",
            path.display()
        );
        svgs += 1;
    }
    assert!(svgs >= 2, "{svgs} pictures");
    assert_eq!(page.matches("<svg ").count(), svgs);
    let json: serde_json::Value = serde_json::from_str(&read(&json)).expect("JSON report");
    (page, json, stdout)
}

#[test]
fn a_run_page_is_self_contained_and_shows_the_reports_numbers() {
    let dir = scratch("run");
    let (page, json, stdout) = run_page(&dir, "hypercube6", "bitrev");
    // The summary: throughput as the text report rounds the JSON's.
    let t = &json["throughput"]["delivered_pct"];
    let line = format!(
        "{:.1} % of link data capacity per terminal (min {:.1} %, max {:.1} %)",
        t["mean"].as_f64().unwrap(),
        t["min"].as_f64().unwrap(),
        t["max"].as_f64().unwrap()
    );
    assert!(page.contains(&line), "no {line:?}");
    let m = &json["messages"];
    assert!(page.contains(&format!(
        "{} created, {} delivered",
        group(m["created"].as_u64().unwrap()),
        group(m["delivered"].as_u64().unwrap())
    )));
    // The latency table: message latency in ticks, every column the JSON's.
    let lat = &json["latency"]["message_latency"];
    let cells = row_after(&page, &["message", "ticks"]);
    let ticks = &lat["ticks"];
    let mut expected = vec!["message".to_string(), "ticks".to_string(), {
        // The text report's fixed(mean, 1): one decimal, thousands grouped.
        let mean = format!("{:.1}", ticks["mean"].as_f64().unwrap());
        let (whole, decimal) = mean.split_once('.').expect("one decimal");
        format!("{}.{decimal}", group(whole.parse().expect("a count")))
    }];
    for key in ["p50", "p90", "p99", "p99_9", "max"] {
        expected.push(group(ticks[key].as_u64().unwrap()));
    }
    expected.push(group(lat["count"].as_u64().unwrap()));
    assert_eq!(cells, expected);
    // The journey table as the text report prints it.
    let journey: String = stdout
        .lines()
        .skip_while(|l| !l.starts_with("journey"))
        .take_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(journey.starts_with("journey"), "{stdout}");
    assert!(page.contains(&escaped(&journey)), "journey table");
    // One per-terminal row per terminal, in a sortable table.
    let terminals = json["topology"]["terminals"].as_u64().unwrap() as usize;
    let table = &page[page
        .find("<table class=\"sortable\">")
        .expect("sortable table")..];
    let body = &table[..table.find("</tbody>").expect("tbody")];
    assert_eq!(body.matches("<tr>").count() - 1, terminals);
    let d = &json["terminals"]["delivered_pct"][terminals - 1];
    assert!(body.contains(&format!(
        "<td class=\"n\">{}</td><td class=\"n\">{:.2}</td>",
        terminals - 1,
        d.as_f64().unwrap()
    )));
    // No date, no wall time: the same input gives the same bytes.
    let first = page.clone();
    let (again, _, _) = run_page(&dir, "hypercube6", "bitrev");
    assert!(first == again, "two runs of one input gave different pages");
    assert!(!page.contains("wall time"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn family_sections_are_on_the_page_as_the_text_report_shows_them() {
    for (topology, traffic, first) in [
        ("sci-ring4", "sci-uniform", "node  bytes/ns"),
        ("fabric16-grant", "uniform-rate", "port  offered %"),
    ] {
        let dir = scratch(topology);
        let (page, _, stdout) = run_page(&dir, topology, traffic);
        let table: String = stdout
            .lines()
            .skip_while(|l| !l.starts_with(first))
            .take_while(|l| !l.is_empty() && !l.starts_with("WARNING"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(table.starts_with(first), "{stdout}");
        assert!(page.contains(&escaped(&table)), "{topology}: family table");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_deadlocked_run_still_writes_its_page() {
    let dir = scratch("deadlock");
    let html = dir.join("d.html");
    let (code, _, stderr) = emu(&[
        "-t",
        "torus4-single",
        "-p",
        "torus4-ring",
        "-q",
        "--report",
        html.to_str().unwrap(),
    ]);
    assert_eq!(code, 3, "{stderr}");
    let page = read(&html);
    check_page(&page);
    // Every line of the explanation on stderr is on the page.
    let cycle: Vec<&str> = stderr
        .lines()
        .skip_while(|l| !l.starts_with("wait-for cycle ("))
        .collect();
    assert!(cycle.len() > 3, "{stderr}");
    for line in stderr.lines() {
        let text = line
            .trim_start()
            .trim_start_matches("error: ")
            .trim_start_matches("reproduce with: ");
        assert!(page.contains(&escaped(text)), "{text:?} is not on the page");
    }
    assert!(page.contains("<h3>stuck nodes ("));
    // The cycle drawn on the network, one highlighted link per link of the text.
    let links: usize = cycle[0]
        .split(", ")
        .nth(1)
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the cycle's link count");
    assert_eq!(
        page.matches("class=\"cycle-link\"").count(),
        links,
        "{}",
        cycle[0]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sweep_page_has_the_table_and_the_curve() {
    let dir = scratch("sweep");
    let (html, svg) = (dir.join("s.html"), dir.join("s.svg"));
    let (code, stdout, stderr) = emu(&[
        "sweep",
        "-t",
        "hypercube6",
        "-p",
        "uniform",
        "--load",
        "0.2:0.4:0.2",
        "-q",
        "--report",
        html.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let page = read(&html);
    check_page(&page);
    assert!(
        page.contains(&escaped(stdout.trim_end())),
        "the sweep table"
    );
    let curve = read(&svg).replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
    assert!(page.contains(curve.trim()), "the curve");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reproduce_page_has_every_row_with_its_verdict() {
    let dir = scratch("reproduce");
    let (html, json) = (dir.join("r.html"), dir.join("r.json"));
    let (code, _, stderr) = emu(&[
        "reproduce",
        "dslink-latency",
        "--quick",
        "-q",
        "--report",
        html.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let page = read(&html);
    check_page(&page);
    let v: serde_json::Value = serde_json::from_str(&read(&json)).expect("JSON");
    let mut rows = 0;
    for t in v["reports"][0]["tables"].as_array().expect("tables") {
        assert!(page.contains(&escaped(t["title"].as_str().unwrap())));
        for r in t["rows"].as_array().unwrap() {
            rows += 1;
            assert!(page.contains(&format!(
                "<td>{}</td>",
                escaped(r["parameter"].as_str().unwrap())
            )));
        }
    }
    assert!(rows > 0);
    let verdicts: usize = ["ok", "MISS", "PASS?", "FAIL"]
        .iter()
        .map(|v| page.matches(&format!("<td>{v}</td>")).count())
        .sum();
    assert_eq!(verdicts, rows);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_report_path_that_cannot_be_written_is_bad_input() {
    let dir = scratch("bad");
    let missing = dir.join("no/such/dir/r.html");
    let same = dir.join("same");
    for args in [
        vec![
            "-t",
            "hypercube6",
            "-p",
            "bitrev",
            "--report",
            missing.to_str().unwrap(),
        ],
        vec![
            "-t",
            "hypercube6",
            "-p",
            "bitrev",
            "--report",
            dir.to_str().unwrap(),
        ],
        vec![
            "-t",
            "hypercube6",
            "-p",
            "bitrev",
            "--report",
            same.to_str().unwrap(),
            "--json",
            same.to_str().unwrap(),
        ],
        vec![
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--report",
            missing.to_str().unwrap(),
        ],
        vec![
            "reproduce",
            "dslink-latency",
            "--report",
            missing.to_str().unwrap(),
        ],
    ] {
        let (code, stdout, stderr) = emu(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("--report"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `topology` × `traffic` with `sets` and `engine_args`, writing the HTML and
/// JSON reports into `dir`: (HTML, JSON, stdout).
fn reports_on(
    dir: &Path,
    (topology, traffic, sets): (&str, &str, &[&str]),
    engine_args: &[&str],
) -> [String; 3] {
    let (html, json) = (dir.join("r.html"), dir.join("r.json"));
    let mut args = vec!["-t", topology, "-p", traffic, "-q"];
    args.extend_from_slice(sets);
    args.extend_from_slice(&[
        "--report",
        html.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    args.extend_from_slice(engine_args);
    let (code, stdout, stderr) = emu(&args);
    assert_eq!(code, 0, "{topology} {traffic} {engine_args:?}: {stderr}");
    [read(&html), read(&json), stdout]
}

/// The text report with the `simulated` line cut after its virtual time: the wall
/// time, engine and threads that follow are the only text that may differ.
fn text_without_run_info(text: &str) -> String {
    text.lines()
        .map(|l| match l.strip_prefix("simulated") {
            Some(rest) => format!("simulated{}", rest.split(" in ").next().unwrap_or(rest)),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_html_and_json_reports_are_the_same_bytes_on_every_engine_and_thread_count() {
    // One shipped case per family: C104 network, SCI ring, switch fabric (short
    // phases), relay ring (which has none).
    let short: &[&str] = &[
        "--set",
        "phases.warmup_us=10",
        "--set",
        "phases.measure_us=40",
    ];
    for case in [
        ("hypercube6", "uniform", short),
        ("sci-ring4", "sci-hot-sender", short),
        ("fabric16-grant", "uniform-rate", short),
        ("relay-ring", "relay-balls", &[][..]),
    ] {
        let (topology, traffic, _) = case;
        let dir = scratch(&format!("engines-{topology}"));
        let runs: Vec<(&[&str], [String; 3])> = [
            &["--engine", "sharded", "--threads", "1"][..],
            &["--threads", "2"][..],
            &["--engine", "actors"][..],
        ]
        .into_iter()
        .map(|engine| (engine, reports_on(&dir, case, engine)))
        .collect();
        let (first_args, first) = &runs[0];
        for (args, other) in &runs[1..] {
            for (what, a, b) in [
                ("HTML", &first[0], &other[0]),
                ("JSON", &first[1], &other[1]),
            ] {
                assert!(
                    a == b,
                    "{topology} {traffic}: the {what} report of {first_args:?} and {args:?} differ"
                );
            }
            assert_eq!(
                text_without_run_info(&first[2]),
                text_without_run_info(&other[2]),
                "{topology} {traffic}: text reports of {first_args:?} and {args:?}"
            );
            // The text report does say which engine ran, on its `simulated` line only.
            assert_ne!(
                first[2], other[2],
                "{topology}: the run-info line is the same"
            );
        }
        assert!(!first[0].contains("thread") && !first[0].contains("actors"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
