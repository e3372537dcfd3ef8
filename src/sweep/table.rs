//! Summarising a sweep: one row per offered load (means over seeds), the saturation
//! point, the text table and the CSV.

use super::point::{Measures, Point};
use crate::stats::confidence::Interval;
use crate::stats::format::{Align, write_aligned};
use std::fmt::Write;

/// One offered load, averaged over its seeds.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Row {
    /// Offered load, fraction of link data capacity.
    pub load: f64,
    /// Runs at this load.
    pub runs: usize,
    /// Runs that deadlocked.
    pub deadlocks: usize,
    /// Mean offered throughput over the runs that did not deadlock (NaN if none did),
    /// % of link data capacity.
    pub offered_pct: f64,
    /// Throughput, % of link data capacity: mean over the runs that did not deadlock
    /// with its Student-t half-widths (0 for one run; NaN throughout if every run
    /// deadlocked).
    pub throughput: Interval,
    /// Mean throughput, % of the packet format's link maximum (chapter 7's measure).
    pub link_max_pct: f64,
    /// Mean message delay, mean over runs with half-widths.
    pub mean_delay: Interval,
    /// 99th percentile of the delay, mean over runs with half-widths.
    pub p99_delay: Interval,
    /// Largest delay of any run.
    pub max_delay: f64,
    /// Undelivered measured messages, summed over seeds.
    pub undelivered: u64,
}

/// The interval of one measure over `ok` runs; NaN if there are none.
fn interval(ok: &[&Measures], f: impl Fn(&Measures) -> f64) -> Interval {
    if ok.is_empty() {
        return Interval {
            n: 0,
            mean: f64::NAN,
            half_width_90: f64::NAN,
            half_width_95: f64::NAN,
        };
    }
    Interval::of(&ok.iter().map(|m| f(m)).collect::<Vec<_>>())
}

/// Groups `points` (in load order, seeds consecutive) into one row per load.
pub fn rows(points: &[Point]) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    let mut i = 0;
    while i < points.len() {
        let load = points[i].load;
        let group: Vec<&Point> = points[i..].iter().take_while(|p| p.load == load).collect();
        i += group.len();
        let ok: Vec<&Measures> = group
            .iter()
            .filter_map(|p| p.measures.as_ref().ok())
            .collect();
        out.push(Row {
            load,
            runs: group.len(),
            deadlocks: group.len() - ok.len(),
            offered_pct: interval(&ok, |m| m.offered_pct).mean,
            throughput: interval(&ok, |m| m.throughput_pct),
            link_max_pct: interval(&ok, |m| m.link_max_pct).mean,
            mean_delay: interval(&ok, |m| m.mean_delay_ht),
            p99_delay: interval(&ok, |m| m.p99_delay_ht),
            max_delay: ok.iter().map(|m| m.max_delay_ht).fold(f64::NAN, f64::max),
            undelivered: ok.iter().map(|m| m.undelivered).sum(),
        });
    }
    out
}

/// Where the network stops keeping up.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Saturation {
    /// The first offered load at which the network stops delivering what is offered,
    /// if any load of the sweep reaches it (see [`saturation`]).
    pub load: Option<f64>,
    /// The highest mean throughput of any load, % of link data capacity, and its load.
    pub peak: Option<(f64, f64)>,
}

/// Accepted throughput below this fraction of the offered load means saturated.
pub const KEEP_UP: f64 = 0.95;

/// The saturation point: the lowest offered load at which the mean delivered throughput
/// falls below [`KEEP_UP`] (95 %) of the mean offered throughput, or any run
/// deadlocks or leaves measured messages undelivered. Below it the network delivers,
/// within 5 %, everything it is offered (in a steady state, what goes in comes out);
/// at and above it the source queues grow without bound. 5 % is well above the
/// run-to-run noise of a 500 µs window (the window's edges move at most one message
/// per terminal in or out).
pub fn saturation(rows: &[Row]) -> Saturation {
    let load = rows
        .iter()
        .find(|r| {
            r.deadlocks > 0
                || r.undelivered > 0
                || r.throughput.mean.is_nan()
                || r.throughput.mean < KEEP_UP * r.offered_pct
        })
        .map(|r| r.load);
    let peak = rows
        .iter()
        .filter(|r| !r.throughput.mean.is_nan())
        .max_by(|a, b| a.throughput.mean.total_cmp(&b.throughput.mean))
        .map(|r| (r.throughput.mean, r.load));
    Saturation { load, peak }
}

fn num(x: f64, digits: usize) -> String {
    if x.is_nan() {
        "-".into()
    } else {
        format!("{x:.digits$}")
    }
}

/// A 90 % half-width for the table: "-" for fewer than two runs.
fn pm(i: &Interval) -> String {
    if i.n < 2 {
        "-".into()
    } else {
        format!("±{:.1}", i.half_width_90)
    }
}

/// The text table and the saturation line.
/// `delay_unit` names the delay columns' unit ("header times"; "cycles" on an SCI ring).
pub fn render(title: &str, rows: &[Row], sat: &Saturation, delay_unit: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{title}");
    let header = [
        "load",
        "offered%",
        "throughput%",
        "90%ci",
        "of max%",
        "mean delay",
        "90%ci",
        "p99",
        "90%ci",
        "max",
        "undelivered",
        "deadlocks",
    ];
    let mut cells: Vec<Vec<String>> = vec![header.map(String::from).to_vec()];
    for r in rows {
        cells.push(vec![
            format!("{:.3}", r.load),
            num(r.offered_pct, 1),
            num(r.throughput.mean, 1),
            pm(&r.throughput),
            num(r.link_max_pct, 1),
            num(r.mean_delay.mean, 1),
            pm(&r.mean_delay),
            num(r.p99_delay.mean, 1),
            pm(&r.p99_delay),
            num(r.max_delay, 1),
            r.undelivered.to_string(),
            format!("{}/{}", r.deadlocks, r.runs),
        ]);
    }
    write_aligned(&mut s, &cells, |_| Align::Right, "");
    let _ = writeln!(
        s,
        "delays in {delay_unit}; throughput per terminal, % of link data capacity (\"of max\": % of what a link can carry in this packet format); 90%ci: half-width of the Student-t 90 % interval of the mean over the seeds"
    );
    let peak = sat.peak.map_or("-".into(), |(t, l)| {
        format!("peak throughput {t:.1} % at load {l}")
    });
    match sat.load {
        Some(l) => {
            let _ = writeln!(
                s,
                "saturation  at offered load {l}: the first load where throughput < {:.0} % of offered, or messages are undelivered, or a run deadlocks · {peak}",
                KEEP_UP * 100.0
            );
        }
        None => {
            let _ = writeln!(
                s,
                "saturation  not reached: every load delivered ≥ {:.0} % of what was offered · {peak}",
                KEEP_UP * 100.0
            );
        }
    }
    s
}

/// The JSON document `emu sweep --json` writes: the sweep's description, every run,
/// the table's rows and the saturation point.
pub fn document(
    header: &super::Header,
    points: &[Point],
    rows: &[Row],
    sat: &Saturation,
) -> serde_json::Value {
    serde_json::json!({
        "sweep": header,
        "runs": points,
        "rows": rows,
        "saturation": sat,
    })
}

/// Writes `records` as CSV (quoted where a field needs it).
fn to_csv(records: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in records {
        // Writing to a Vec cannot fail.
        let _ = w.write_record(&r);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn strings(fields: &[&str]) -> Vec<String> {
    fields.iter().map(|f| f.to_string()).collect()
}

/// CSV: a header line and one line per run, in load then seed order. Delays are in
/// `delay_unit` (named in its own column).
pub fn csv(topology: &str, traffic: &str, delay_unit: &str, points: &[Point]) -> String {
    let header = strings(&[
        "topology",
        "traffic",
        "load",
        "seed",
        "status",
        "offered_pct",
        "throughput_pct",
        "link_max_pct",
        "mean_delay",
        "p99_delay",
        "max_delay",
        "delay_unit",
        "undelivered",
    ]);
    let lines = points.iter().map(|p| {
        let mut r = strings(&[topology, traffic]);
        r.push(p.load.to_string());
        r.push(p.seed.to_string());
        match &p.measures {
            Ok(m) => {
                r.push("ok".into());
                r.extend([
                    format!("{:.4}", m.offered_pct),
                    format!("{:.4}", m.throughput_pct),
                    format!("{:.4}", m.link_max_pct),
                    format!("{:.3}", m.mean_delay_ht),
                    format!("{:.3}", m.p99_delay_ht),
                    format!("{:.3}", m.max_delay_ht),
                    delay_unit.to_string(),
                    m.undelivered.to_string(),
                ]);
            }
            Err(tick) => {
                r.push(format!("deadlock at tick {tick}"));
                r.extend(std::iter::repeat_n(String::new(), 8));
            }
        }
        r
    });
    to_csv(std::iter::once(header).chain(lines))
}

/// CSV of the table: one line per load with the means and their 90 % and 95 %
/// Student-t half-widths (empty for one run).
pub fn summary_csv(topology: &str, traffic: &str, delay_unit: &str, rows: &[Row]) -> String {
    let header = strings(&[
        "topology",
        "traffic",
        "load",
        "runs",
        "deadlocks",
        "offered_pct",
        "throughput_pct",
        "throughput_ci90",
        "throughput_ci95",
        "link_max_pct",
        "mean_delay",
        "mean_delay_ci90",
        "mean_delay_ci95",
        "p99_delay",
        "p99_delay_ci90",
        "p99_delay_ci95",
        "max_delay",
        "delay_unit",
        "undelivered",
    ]);
    let f = |x: f64, d: usize| {
        if x.is_nan() {
            String::new()
        } else {
            format!("{x:.d$}")
        }
    };
    let ci = |i: &Interval, d: usize| {
        if i.n < 2 {
            [String::new(), String::new()]
        } else {
            [f(i.half_width_90, d), f(i.half_width_95, d)]
        }
    };
    let lines = rows.iter().map(|r| {
        let mut v = strings(&[topology, traffic]);
        v.extend([
            r.load.to_string(),
            r.runs.to_string(),
            r.deadlocks.to_string(),
            f(r.offered_pct, 4),
            f(r.throughput.mean, 4),
        ]);
        v.extend(ci(&r.throughput, 4));
        v.push(f(r.link_max_pct, 4));
        v.push(f(r.mean_delay.mean, 3));
        v.extend(ci(&r.mean_delay, 3));
        v.push(f(r.p99_delay.mean, 3));
        v.extend(ci(&r.p99_delay, 3));
        v.extend([
            f(r.max_delay, 3),
            delay_unit.to_string(),
            r.undelivered.to_string(),
        ]);
        v
    });
    to_csv(std::iter::once(header).chain(lines))
}
