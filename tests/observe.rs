//! Watching a run: `--trace` timelines in the Trace Event Format and `--vcd`
//! waveforms (book/src/observing.md). The waveform is read back by an independent VCD
//! reader (the `vcd` crate), whose D and S wires are decoded bit by bit into tokens
//! here; the timeline is read as JSON and its slices checked against each other and
//! the report.

use super::common::emu;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Runs `emu -t hypercube6 -p uniform -q` with `more` flags.
fn hypercube6(more: &[&str]) -> (i32, String, String) {
    let mut args = vec!["-t", "hypercube6", "-p", "uniform", "-q"];
    args.extend_from_slice(more);
    emu(&args)
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

fn path(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).display().to_string()
}

/// The number printed after `label` on the line of `out` that contains `key`.
fn number_after(out: &str, key: &str, label: &str) -> u64 {
    let line = out
        .lines()
        .find(|l| l.contains(key))
        .unwrap_or_else(|| panic!("no line with {key:?} in:\n{out}"));
    let before = line
        .split(label)
        .next()
        .expect("text before the label")
        .trim_end();
    let digits: String = before
        .rsplit(' ')
        .next()
        .expect("a number")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().expect("a number")
}

/// The events of a trace file.
fn events(file: &str) -> Vec<Value> {
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(file).expect("the trace")).expect("JSON");
    doc["traceEvents"].as_array().expect("traceEvents").clone()
}

/// Distinct packet names among the packet slices, answers (a DS-Link's acknowledges,
/// named `… ack`; an SCI ring's echoes, `… echo`) apart: (packets, answers).
fn packets(ev: &[Value]) -> (BTreeSet<String>, BTreeSet<String>) {
    ev.iter()
        .filter(|e| e["ph"] == "X" && e["cat"] == "packet")
        .map(|e| e["name"].as_str().expect("a name").to_string())
        .partition(|n| !n.ends_with(" ack") && !n.ends_with(" echo"))
}

/// Every packet slice is tiled exactly by its journey slices on the same track, each
/// track is named, and every flow has one start and one end.
fn check_structure(ev: &[Value]) {
    let us = |v: &Value| (v.as_f64().expect("a number") * 1e6).round() as i64;
    let named: BTreeSet<(u64, u64)> = ev
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name")
        .map(|e| (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap()))
        .collect();
    let mut parts: BTreeMap<(u64, u64), Vec<(i64, i64)>> = BTreeMap::new();
    for e in ev
        .iter()
        .filter(|e| e["ph"] == "X" && e["cat"] == "journey")
    {
        let track = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
        parts
            .entry(track)
            .or_default()
            .push((us(&e["ts"]), us(&e["ts"]) + us(&e["dur"])));
    }
    let mut slices = 0;
    for e in ev.iter().filter(|e| e["ph"] == "X" && e["cat"] == "packet") {
        slices += 1;
        let track = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
        assert!(named.contains(&track), "track {track:?} has a name");
        let (a, b) = (us(&e["ts"]), us(&e["ts"]) + us(&e["dur"]));
        let mut inside: Vec<(i64, i64)> = parts[&track]
            .iter()
            .copied()
            .filter(|&(s, t)| s >= a && t <= b && (t > s || s == a))
            .collect();
        inside.sort();
        // Rounding to the picosecond may leave a picosecond between parts.
        let mut at = a;
        for (s, t) in &inside {
            if *s < at {
                continue; // a zero-length neighbour's part
            }
            assert!((s - at).abs() <= 1, "{e}: a gap before a part at {s}");
            at = *t;
        }
        assert!((b - at).abs() <= 1, "{e}: its parts end at {at}, it at {b}");
    }
    assert!(slices > 0, "the trace has packet slices");
    let mut flows: BTreeMap<u64, (usize, usize)> = BTreeMap::new();
    for e in ev.iter().filter(|e| e["ph"] == "s" || e["ph"] == "f") {
        let f = flows.entry(e["id"].as_u64().unwrap()).or_default();
        if e["ph"] == "s" {
            f.0 += 1;
        } else {
            f.1 += 1;
        }
    }
    assert!(
        flows.values().all(|&c| c == (1, 1)),
        "one start, one end per flow"
    );
}

#[test]
fn a_hypercube_timeline_names_every_packet_once_and_tiles_its_journeys() {
    let dir = tmp();
    let t = path(&dir, "t.json");
    let (code, out, err) = hypercube6(&["--trace", &t, "--trace-window", "100:110"]);
    assert_eq!(code, 0, "{err}");
    let ev = events(&t);
    let printed = number_after(&out, "trace ", " packets");
    assert_eq!(packets(&ev).0.len() as u64, printed, "{out}");
    check_structure(&ev);
    let journey: BTreeSet<&str> = ev
        .iter()
        .filter(|e| e["cat"] == "journey")
        .filter_map(|e| e["name"].as_str())
        .collect();
    for part in [
        "source queue",
        "route",
        "input wait",
        "output wait",
        "transfer",
        "deliver",
    ] {
        assert!(journey.contains(part), "{part} in {journey:?}");
    }
    assert!(
        ev.iter()
            .any(|e| e["ph"] == "C" && e["name"].as_str().is_some_and(|n| n.ends_with("credit"))),
        "credit counters"
    );
    // The window keeps what overlaps 100–110 µs, and nothing else.
    for e in ev.iter().filter(|e| e["ph"] == "X" && e["cat"] == "packet") {
        let (a, d) = (e["ts"].as_f64().unwrap(), e["dur"].as_f64().unwrap());
        assert!(a <= 110.0 && a + d >= 100.0, "{e} overlaps the window");
    }
}

#[test]
fn a_whole_run_timeline_delivers_every_message_the_report_counts() {
    let dir = tmp();
    let (t, j) = (path(&dir, "t.json"), path(&dir, "r.json"));
    let (code, _, err) = emu(&[
        "-t",
        "crossbar32",
        "-p",
        "uniform",
        "-q",
        "--trace",
        &t,
        "--json",
        &j,
    ]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
    let ev = events(&t);
    check_structure(&ev);
    // Every data packet delivered appears once as delivered: the report's count and
    // the trace's deliveries of data packets agree.
    let delivered: BTreeSet<&str> = ev
        .iter()
        .filter(|e| e["cat"] == "packet" && e["args"]["delivered"] == true)
        .filter_map(|e| e["name"].as_str())
        .filter(|n| !n.ends_with(" ack"))
        .collect();
    let counted = report["messages"]["packets_delivered"]
        .as_u64()
        .expect("messages.packets_delivered in the report");
    assert!(counted > 1000, "a run of some length: {counted}");
    assert_eq!(delivered.len() as u64, counted);
}

#[test]
fn the_report_is_the_same_with_a_trace_and_a_waveform() {
    let dir = tmp();
    let (a, b) = (path(&dir, "a.json"), path(&dir, "b.json"));
    let (code, _, err) = hypercube6(&["--json", &a]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = hypercube6(&[
        "--json",
        &b,
        "--trace",
        &path(&dir, "t.json"),
        "--trace-window",
        "100:110",
        "--vcd",
        &path(&dir, "w.vcd"),
        "--watch",
        "c104[0]:6",
    ]);
    assert_eq!(code, 0, "{err}");
    let strip = |f: &str| {
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        v["run"]["wall_seconds"] = Value::Null;
        v
    };
    assert_eq!(strip(&a), strip(&b));
}

/// An SCI node sends the symbols of an engine window as runs, and one symbol a cycle
/// when observed (so that its counters are sampled at every cycle): the report is the
/// same either way, on both engines.
#[test]
fn an_sci_report_is_the_same_observed_a_symbol_at_a_time_as_sent_in_runs() {
    let dir = tmp();
    let strip = |f: &str| {
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        v["run"]["wall_seconds"] = Value::Null;
        v["run"]["engine"] = Value::Null;
        v
    };
    let run = |name: &str, more: &[&str]| {
        let json = path(&dir, name);
        let mut args = vec![
            "-t",
            "sci-ring16",
            "-p",
            "sci-uniform",
            "-q",
            "--json",
            &json,
        ];
        args.extend_from_slice(more);
        let (code, _, err) = emu(&args);
        assert_eq!(code, 0, "{err}");
        strip(&json)
    };
    let runs = run("a.json", &[]);
    let trace = path(&dir, "t.json");
    let vcd = path(&dir, "w.vcd");
    for (name, more) in [
        (
            "b.json",
            &["--trace", &trace, "--vcd", &vcd, "--watch", "sci[3]:1"][..],
        ),
        ("c.json", &["--engine", "actors", "--trace", &trace][..]),
    ] {
        assert_eq!(run(name, more), runs, "{more:?}");
    }
}

/// Decodes one direction's D and S wires from a VCD read by the `vcd` crate: the bits,
/// the tokens between nulls, and whether every token had odd parity (IEEE 1355).
struct Decoded {
    tokens: u64,
    nulls: u64,
    parity_errors: u64,
    gaps: u64,
}

fn decode_ds(file: &Path, scope: &str, bit_ps: u64) -> Decoded {
    use vcd::{Command, Parser, Value as V};
    let mut parser = Parser::new(std::io::BufReader::new(
        std::fs::File::open(file).expect("the waveform"),
    ));
    let header = parser.parse_header().expect("a VCD header");
    let d = header.find_var(&["emu", scope, "D"]).expect("D").code;
    let s = header.find_var(&["emu", scope, "S"]).expect("S").code;
    let mut now = 0u64;
    let mut bits: Vec<(u64, bool)> = Vec::new();
    let mut levels = (false, false);
    let mut changed_at = None;
    for cmd in parser {
        match cmd.expect("a VCD command") {
            Command::Timestamp(t) => now = t,
            Command::ChangeScalar(code, v) if code == d || code == s => {
                let level = v == V::V1;
                let wire = if code == d {
                    &mut levels.0
                } else {
                    &mut levels.1
                };
                if *wire == level {
                    continue; // the initial dump of a wire still low
                }
                *wire = level;
                assert_ne!(changed_at, Some(now), "one wire changes per bit period");
                changed_at = Some(now);
                bits.push((now, levels.0));
            }
            _ => {}
        }
    }
    let gaps = bits
        .windows(2)
        .filter(|w| w[1].0 - w[0].0 != bit_ps)
        .count() as u64;
    let bits: Vec<bool> = bits.into_iter().map(|b| b.1).collect();
    let (mut i, mut prev_payload_parity, mut escaped) = (0, false, false);
    let mut out = Decoded {
        tokens: 0,
        nulls: 0,
        parity_errors: 0,
        gaps,
    };
    while i + 4 <= bits.len() {
        let (p, flag) = (bits[i], bits[i + 1]);
        if !(prev_payload_parity ^ p ^ flag) {
            out.parity_errors += 1;
        }
        let len = if flag { 2 } else { 8 };
        if i + 2 + len > bits.len() {
            break;
        }
        let payload = &bits[i + 2..i + 2 + len];
        prev_payload_parity = payload.iter().fold(false, |a, &b| a ^ b);
        i += 2 + len;
        if flag && payload == [true, true] {
            escaped = true; // ESC: the first half of a null
            continue;
        }
        if escaped && flag && payload == [false, false] {
            out.nulls += 1;
        } else {
            out.tokens += 1;
        }
        escaped = false;
    }
    out
}

#[test]
fn a_ds_link_waveform_decodes_to_the_tokens_the_port_counted() {
    let dir = tmp();
    let w = dir.path().join("w.vcd");
    let (code, out, err) = hypercube6(&["--vcd", &w.display().to_string(), "--watch", "c104[0]:6"]);
    assert_eq!(code, 0, "{err}");
    for (scope, key) in [
        ("c104_0_6__t9000_0_0", "c104[0]:6 → "),
        ("t9000_0_0__c104_0_6", "t9000[0]:0 → "),
    ] {
        let drawn = number_after(&out, key, " tokens");
        let counted = number_after(&out, key, ")");
        assert_eq!(drawn, counted, "{out}");
        // A token still on the wire when the run ends is drawn up to the end only,
        // and so cannot be decoded whole.
        let line = out.lines().find(|l| l.contains(key)).expect("the line");
        let cut = u64::from(line.contains("the last one cut at the end"));
        // One tick is one 10 ns bit period of the 100 Mbit/s link.
        let d = decode_ds(&w, scope, 10_000);
        assert_eq!(
            d.tokens + cut,
            counted,
            "{scope}: tokens decoded from D and S"
        );
        assert_eq!(d.parity_errors, 0, "{scope}: odd parity throughout");
        assert_eq!(
            d.gaps, 0,
            "{scope}: a bit every period, nulls between tokens"
        );
        assert!(d.nulls > 0, "{scope}: an idle link sends nulls");
    }
}

/// The timestamps of a VCD, in file order, as the `vcd` crate reads them.
fn vcd_times(file: &str) -> Vec<u64> {
    let mut parser = vcd::Parser::new(std::io::BufReader::new(
        std::fs::File::open(file).expect("the waveform"),
    ));
    parser.parse_header().expect("a VCD header");
    parser
        .filter_map(|c| match c.expect("a VCD command") {
            vcd::Command::Timestamp(t) => Some(t),
            _ => None,
        })
        .collect()
}

#[test]
fn waveform_time_only_increases_and_ends_at_the_run_or_the_window() {
    let dir = tmp();
    let (w, j) = (path(&dir, "w.vcd"), path(&dir, "r.json"));
    for (window, label) in [(None, "whole run"), (Some("100:110"), "window")] {
        let mut args = vec!["--vcd", &w, "--watch", "c104[0]:6", "--json", &j];
        if let Some(win) = window {
            args.extend_from_slice(&["--trace-window", win]);
        }
        let (code, _, err) = hypercube6(&args);
        assert_eq!(code, 0, "{label}: {err}");
        let report: Value = serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
        let end_us = report["run"]["end_us"].as_f64().expect("run.end_us");
        assert!(end_us > 110.0, "the run outlasts the window: {end_us}");
        let end_ps = match window {
            None => (end_us * 1e6).round() as u64,
            Some(_) => 110_000_000,
        };
        let times = vcd_times(&w);
        assert!(times.len() > 1000, "{label}: changes all along");
        for pair in times.windows(2) {
            assert!(
                pair[0] < pair[1],
                "{label}: time goes from #{} to #{}",
                pair[0],
                pair[1]
            );
        }
        assert_eq!(times.first(), Some(&0), "{label}: starts at 0");
        assert_eq!(times.last(), Some(&end_ps), "{label}: ends at the end");
    }
}

#[test]
fn sci_and_fabric_runs_draw_their_own_journeys_and_links() {
    let dir = tmp();
    for (topo, traffic, link, parts) in [
        (
            "sci-ring4",
            "sci-uniform",
            "sci[0]:1",
            &["source queue", "bypass", "transfer", "deliver"][..],
        ),
        (
            "fabric16-cioq",
            "fabric-nonuniform",
            "adapter[0]:0",
            &["crosspoint", "output scheduling", "transfer", "deliver"][..],
        ),
    ] {
        let (t, w) = (path(&dir, "t.json"), path(&dir, "w.vcd"));
        let (code, out, err) = emu(&[
            "-t",
            topo,
            "-p",
            traffic,
            "-q",
            "--trace",
            &t,
            "--trace-window",
            "10:12",
            "--vcd",
            &w,
            "--watch",
            link,
        ]);
        assert_eq!(code, 0, "{topo}: {err}");
        let ev = events(&t);
        check_structure(&ev);
        let (sent, answers) = packets(&ev);
        assert_eq!(
            sent.len() as u64,
            number_after(&out, "trace ", " packets"),
            "{topo}: {out}"
        );
        if !answers.is_empty() {
            assert_eq!(
                answers.len() as u64,
                number_after(&out, "trace ", " echoes"),
                "{topo}: {out}"
            );
        }
        let names: BTreeSet<&str> = ev
            .iter()
            .filter(|e| e["cat"] == "journey")
            .filter_map(|e| e["name"].as_str())
            .collect();
        for p in parts {
            assert!(names.contains(p), "{topo}: {p} in {names:?}");
        }
        let mut parser = vcd::Parser::new(std::io::BufReader::new(
            std::fs::File::open(&w).expect("the waveform"),
        ));
        let header = parser.parse_header().expect("a VCD header");
        let kinds: Vec<_> = header
            .find_scope(&["emu"])
            .expect("scope emu")
            .items
            .iter()
            .filter_map(|i| match i {
                vcd::ScopeItem::Scope(s) => Some(s.identifier.clone()),
                _ => None,
            })
            .collect();
        assert!(!kinds.is_empty(), "{topo}: one scope per direction");
        let changes = parser
            .filter(|c| matches!(c, Ok(vcd::Command::ChangeVector(..))))
            .count();
        assert!(changes > 0, "{topo}: the link's tokens change its signals");
    }
}

#[test]
fn an_sci_trace_counts_send_packets_as_the_report_does_and_echoes_apart() {
    let dir = tmp();
    let (t, j) = (path(&dir, "t.json"), path(&dir, "r.json"));
    let (code, out, err) = emu(&[
        "-t",
        "sci-ring4",
        "-p",
        "sci-uniform",
        "-q",
        "--trace",
        &t,
        "--json",
        &j,
    ]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&j).unwrap()).unwrap();
    let delivered = report["messages"]["packets_delivered"]
        .as_u64()
        .expect("messages.packets_delivered");
    assert!(delivered > 1000, "a run of some length: {delivered}");
    assert_eq!(number_after(&out, "trace ", " packets"), delivered, "{out}");
    assert_eq!(number_after(&out, "trace ", " delivered in it"), delivered);
    let (sent, echoes) = packets(&events(&t));
    assert_eq!(sent.len() as u64, delivered);
    assert!(
        echoes.iter().all(|n| n.ends_with(" echo")),
        "an SCI answer is named an echo: {echoes:?}"
    );
    // Every send packet is answered by an echo, but the last may still be on its way.
    let printed = number_after(&out, "trace ", " echoes");
    assert_eq!(printed, echoes.len() as u64, "{out}");
    assert!(printed <= delivered && printed + 4 >= delivered, "{out}");
}

#[test]
fn a_trace_with_no_packets_says_why() {
    let dir = tmp();
    let t = path(&dir, "t.json");
    // The relay ring's balls are not packets an observer sees.
    let (code, out, err) = emu(&["-t", "relay-ring", "-p", "relay-balls", "-q", "--trace", &t]);
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("trace "))
        .expect("{out}");
    assert!(
        line.contains("empty: relay tokens show no packets to an observer"),
        "{line}"
    );
    assert_eq!(events(&t).len(), 0);
    std::fs::remove_file(&t).expect("the empty trace");
    // A window the run ended before: refused once the run is done, nothing written.
    let (code, _, err) = emu(&[
        "-t",
        "relay-ring",
        "-p",
        "relay-balls",
        "-q",
        "--trace",
        &t,
        "--trace-window",
        "1:2",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the run ended at 0.438 µs"), "{err}");
    assert!(!Path::new(&t).exists(), "nothing written");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // A window no run of the case reaches: refused before the run.
    let (code, out, err) = hypercube6(&["--trace", &t, "--trace-window", "99999:100000"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty() && err.contains("at the latest"), "{err}");
    assert!(!Path::new(&t).exists(), "nothing written");
    // A window that holds no packet of the terminals selected says so: the SCI ring's
    // first packet from or to node 0 is created after 10 ns.
    let (code, out, err) = emu(&[
        "-t",
        "sci-ring4",
        "-p",
        "sci-uniform",
        "-q",
        "--trace",
        &t,
        "--trace-window",
        "0:0.01",
        "--trace-terminals",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("no packets (no packet from or to the terminals of --trace-terminals overlapped --trace-window)"),
        "{out}"
    );
}

#[test]
fn a_deadlocked_run_still_writes_its_timeline_with_the_held_packets() {
    let dir = tmp();
    let t = path(&dir, "t.json");
    let (code, _, err) = emu(&[
        "-t",
        "torus4-single",
        "-p",
        "torus4-ring",
        "-q",
        "--trace",
        &t,
    ]);
    assert_eq!(code, 3, "a deadlock: {err}");
    assert!(err.contains("trace "), "{err}");
    let ev = events(&t);
    assert!(
        ev.iter().any(|e| e["name"] == "held"),
        "packets held when the run ended"
    );
}

#[test]
fn bad_watch_flags_exit_2_with_one_line() {
    let dir = tmp();
    let t = path(&dir, "t.json");
    let w = path(&dir, "w.vcd");
    for (args, says) in [
        (
            vec!["--trace", &t, "--trace-window", "10"],
            "--trace-window 10",
        ),
        (
            vec!["--trace", &t, "--trace-window", "20:10"],
            "FROM below TO",
        ),
        (
            vec!["--trace", &t, "--trace-window", "a:b"],
            "--trace-window",
        ),
        (
            vec!["--trace", &t, "--trace-terminals", "64"],
            "64 is not a terminal",
        ),
        (vec!["--trace-window", "1:2"], "give one of them"),
        (
            vec!["--vcd", &w, "--watch", "c104[99]:0"],
            "--watch c104[99]:0",
        ),
        (
            vec!["--vcd", &w, "--watch", "c104[0]:77"],
            "--watch c104[0]:77",
        ),
        (vec!["--vcd", &w, "--watch", ","], "name at least one link"),
        (vec!["--trace", &t, "--trace-limit", "0"], "--trace-limit 0"),
        (vec!["--trace", &t, "--replications", "2"], "watch one run"),
    ] {
        let (code, _, err) = hypercube6(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    }
    let (code, _, err) = emu(&["-t", "hypercube6", "-p", "uniform", "--vcd", &w]);
    assert_eq!(code, 2, "--vcd needs --watch: {err}");
    assert!(!Path::new(&w).exists(), "nothing written");
}

#[test]
fn a_trace_past_its_limit_is_not_written_and_says_how_to_narrow_it() {
    let dir = tmp();
    let t = path(&dir, "t.json");
    let (code, _, err) = hypercube6(&["--trace", &t, "--trace-limit", "1000"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("more than 1,000 records"), "{err}");
    assert!(err.contains("--trace-window"), "{err}");
    assert!(!Path::new(&t).exists(), "nothing written");
}

#[test]
fn timelines_and_waveforms_are_the_same_bytes_on_every_engine_and_thread_count() {
    let dir = tmp();
    let mut seen: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    for engine in [
        &["--threads", "1"][..],
        &["--threads", "2"][..],
        &["--engine", "actors", "--threads", "2"][..],
    ] {
        let (t, w) = (path(&dir, "t.json"), path(&dir, "w.vcd"));
        let mut args = vec![
            "--trace",
            &t,
            "--trace-window",
            "100:110",
            "--vcd",
            &w,
            "--watch",
            "c104[3]:1",
        ];
        args.extend_from_slice(engine);
        let (code, _, err) = hypercube6(&args);
        assert_eq!(code, 0, "{engine:?}: {err}");
        seen.push((std::fs::read(&t).unwrap(), std::fs::read(&w).unwrap()));
    }
    assert!(seen.windows(2).all(|p| p[0] == p[1]), "same bytes");
}
