//! `--replications` reports p99.9 latency with its intervals, in text and JSON, and
//! `--compare KEY=VALUE` runs a second configuration on the same seeds and reports each
//! figure's paired difference with its 90 % interval: non-zero where the setting
//! changes the network, exactly zero (interval 0) where it changes nothing.

use super::common::emu;

/// Short phases on the 16-port fabric with crosspoints of 16 packets (below its RTT
/// of 64, so that the credit return strategy matters), `extra` appended.
fn fabric(extra: &[&'static str]) -> Vec<&'static str> {
    let mut args = vec![
        "-t",
        "fabric16-cicq-lof",
        "-p",
        "bernoulli98",
        "--set",
        "phases.warmup_us=10",
        "--set",
        "phases.measure_us=100",
        "--set",
        "network.memory=16",
    ];
    args.extend_from_slice(extra);
    args
}

fn read_json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the JSON was written"))
        .expect("valid JSON")
}

#[test]
fn replications_report_p99_9_in_text_and_json() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let json = dir.path().join("rep.json");
    let mut args = fabric(&["--replications", "3", "--json"]);
    let path = json.to_string_lossy().into_owned();
    args.push(&path);
    let (code, out, err) = emu(&args);
    assert_eq!(code, 0, "{err}");
    let row = out
        .lines()
        .find(|l| l.starts_with("p99.9 latency (packet cycles)"))
        .unwrap_or_else(|| panic!("no p99.9 row:\n{out}"));
    assert_eq!(row.matches('±').count(), 2, "{row}");
    let v = read_json(&json);
    let p999 = &v["p999_latency"];
    assert_eq!(p999["n"].as_u64(), Some(3), "{v}");
    let (mean, p99) = (p999["mean"].as_f64(), v["p99_latency"]["mean"].as_f64());
    assert!(matches!((mean, p99), (Some(a), Some(b)) if a >= b), "{v}");
    assert!(v["samples"][0]["p999_latency"].as_f64().is_some(), "{v}");
}

#[test]
fn a_comparison_reports_both_sides_and_their_paired_difference() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let json = dir.path().join("cmp.json");
    let path = json.to_string_lossy().into_owned();
    let mut args = fabric(&[
        "--replications",
        "5",
        "--compare",
        "network.strategy=fifo",
        "--json",
    ]);
    args.push(&path);
    let (code, out, err) = emu(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("comparison  5 runs of each side on the same seeds (seeds 1-5)")
            && out.contains("B           with network.strategy=fifo"),
        "{out}"
    );
    let v = read_json(&json);
    assert_eq!(v["compare"][0].as_str(), Some("network.strategy=fifo"));
    let (a, b, d) = (&v["a"], &v["b"], &v["difference"]);
    for figure in [
        "throughput_pct",
        "mean_latency",
        "p99_latency",
        "p999_latency",
    ] {
        // The difference of the means is the mean of the differences.
        let (ma, mb, md) = (
            a[figure]["mean"].as_f64().unwrap_or(f64::NAN),
            b[figure]["mean"].as_f64().unwrap_or(f64::NAN),
            d[figure]["mean"].as_f64().unwrap_or(f64::NAN),
        );
        assert!((mb - ma - md).abs() < 1e-9, "{figure}: {ma} {mb} {md}");
    }
    // Returning credits oldest first instead of to the fullest input changes the run.
    let mean = d["mean_latency"]["mean"].as_f64().unwrap_or(0.0);
    assert!(mean != 0.0, "{v}");
    assert!(
        d["mean_latency"]["half_width_90"]
            .as_f64()
            .is_some_and(|h| h > 0.0)
    );
    // The threads share the seeds out, but no number depends on how.
    args.extend(["--threads", "1"]);
    let (_, one_thread, _) = emu(&args);
    assert_eq!(one_thread, out);
}

#[test]
fn comparing_a_setting_with_itself_gives_a_difference_of_exactly_zero() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let json = dir.path().join("same.json");
    let path = json.to_string_lossy().into_owned();
    let mut args = fabric(&[
        "--replications",
        "3",
        "--compare",
        "network.strategy=lof",
        "--json",
    ]);
    args.push(&path);
    let (code, out, err) = emu(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("identical").count(), 4, "{out}");
    let v = read_json(&json);
    for figure in [
        "throughput_pct",
        "mean_latency",
        "p99_latency",
        "p999_latency",
    ] {
        let d = &v["difference"][figure];
        assert_eq!(d["mean"].as_f64(), Some(0.0), "{figure}: {d}");
        assert_eq!(d["half_width_90"].as_f64(), Some(0.0), "{figure}: {d}");
        assert_eq!(v["a"][figure], v["b"][figure], "{figure}");
    }
}
