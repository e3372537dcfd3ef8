//! Summarising a sweep: one row per offered load (means over seeds), the saturation
//! point, the text table and the CSV.

use super::point::Point;
use std::fmt::Write;

/// One offered load, averaged over its seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Offered load, fraction of link data capacity.
    pub load: f64,
    /// Runs at this load.
    pub runs: usize,
    /// Runs that deadlocked.
    pub deadlocks: usize,
    /// Means over the runs that did not deadlock (NaN if none did).
    pub offered_pct: f64,
    /// Mean throughput, % of link data capacity.
    pub throughput_pct: f64,
    /// Sample standard deviation of the throughput over seeds (0 for one seed).
    pub throughput_sd: f64,
    /// Mean throughput, % of the packet format's link maximum (chapter 7's measure).
    pub link_max_pct: f64,
    /// Mean message delay, header times.
    pub mean_delay_ht: f64,
    /// Mean over seeds of the 99th percentile delay, header times.
    pub p99_delay_ht: f64,
    /// Largest delay of any seed, header times.
    pub max_delay_ht: f64,
    /// Undelivered measured messages, summed over seeds.
    pub undelivered: u64,
}

/// Groups `points` (in load order, seeds consecutive) into one row per load.
pub fn rows(points: &[Point]) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    let mut i = 0;
    while i < points.len() {
        let load = points[i].load;
        let group: Vec<&Point> = points[i..].iter().take_while(|p| p.load == load).collect();
        i += group.len();
        let ok: Vec<_> = group
            .iter()
            .filter_map(|p| p.measures.as_ref().ok())
            .collect();
        let n = ok.len() as f64;
        let mean = |f: &dyn Fn(&super::Measures) -> f64| {
            if ok.is_empty() {
                f64::NAN
            } else {
                ok.iter().map(|m| f(m)).sum::<f64>() / n
            }
        };
        let thr = mean(&|m| m.throughput_pct);
        let sd = if ok.len() > 1 {
            (ok.iter()
                .map(|m| (m.throughput_pct - thr).powi(2))
                .sum::<f64>()
                / (n - 1.0))
                .sqrt()
        } else {
            0.0
        };
        out.push(Row {
            load,
            runs: group.len(),
            deadlocks: group.len() - ok.len(),
            offered_pct: mean(&|m| m.offered_pct),
            throughput_pct: thr,
            throughput_sd: sd,
            link_max_pct: mean(&|m| m.link_max_pct),
            mean_delay_ht: mean(&|m| m.mean_delay_ht),
            p99_delay_ht: mean(&|m| m.p99_delay_ht),
            max_delay_ht: ok.iter().map(|m| m.max_delay_ht).fold(f64::NAN, f64::max),
            undelivered: ok.iter().map(|m| m.undelivered).sum(),
        });
    }
    out
}

/// Where the network stops keeping up.
#[derive(Clone, Debug, PartialEq)]
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
                || r.throughput_pct.is_nan()
                || r.throughput_pct < KEEP_UP * r.offered_pct
        })
        .map(|r| r.load);
    let peak = rows
        .iter()
        .filter(|r| !r.throughput_pct.is_nan())
        .max_by(|a, b| a.throughput_pct.total_cmp(&b.throughput_pct))
        .map(|r| (r.throughput_pct, r.load));
    Saturation { load, peak }
}

fn num(x: f64, digits: usize) -> String {
    if x.is_nan() {
        "-".into()
    } else {
        format!("{x:.digits$}")
    }
}

/// The text table and the saturation line.
/// `delay_unit` names the delay columns' unit ("header times"; "cycles" on an SCI ring).
pub fn render(title: &str, rows: &[Row], sat: &Saturation, delay_unit: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{title}");
    let _ = writeln!(
        s,
        "{:>6} {:>9} {:>11} {:>7} {:>9} {:>10} {:>9} {:>9} {:>11} {:>9}",
        "load",
        "offered%",
        "throughput%",
        "±sd",
        "of max%",
        "mean delay",
        "p99",
        "max",
        "undelivered",
        "deadlocks"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:>6.3} {:>9} {:>11} {:>7} {:>9} {:>10} {:>9} {:>9} {:>11} {:>6}/{}",
            r.load,
            num(r.offered_pct, 1),
            num(r.throughput_pct, 1),
            num(r.throughput_sd, 1),
            num(r.link_max_pct, 1),
            num(r.mean_delay_ht, 1),
            num(r.p99_delay_ht, 1),
            num(r.max_delay_ht, 1),
            r.undelivered,
            r.deadlocks,
            r.runs
        );
    }
    let _ = writeln!(
        s,
        "delays in {delay_unit}; throughput per terminal, % of link data capacity (\"of max\": % of what a link can carry in this packet format)"
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

/// CSV: a header line and one line per run, in load then seed order.
pub fn csv(topology: &str, traffic: &str, points: &[Point]) -> String {
    let mut s = String::from(
        "topology,traffic,load,seed,status,offered_pct,throughput_pct,link_max_pct,mean_delay_ht,p99_delay_ht,max_delay_ht,undelivered\n",
    );
    for p in points {
        match &p.measures {
            Ok(m) => {
                let _ = writeln!(
                    s,
                    "{topology},{traffic},{},{},ok,{:.4},{:.4},{:.4},{:.3},{:.3},{:.3},{}",
                    p.load,
                    p.seed,
                    m.offered_pct,
                    m.throughput_pct,
                    m.link_max_pct,
                    m.mean_delay_ht,
                    m.p99_delay_ht,
                    m.max_delay_ht,
                    m.undelivered
                );
            }
            Err(tick) => {
                let _ = writeln!(
                    s,
                    "{topology},{traffic},{},{},deadlock at tick {tick},,,,,,,",
                    p.load, p.seed
                );
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::super::Measures;
    use super::*;

    fn point(load: f64, seed: u64, offered: f64, thr: f64) -> Point {
        Point {
            load,
            seed,
            measures: Ok(Measures {
                offered_pct: offered,
                throughput_pct: thr,
                link_max_pct: thr / 0.958,
                mean_delay_ht: 10.0,
                p99_delay_ht: 20.0,
                max_delay_ht: 30.0 + seed as f64,
                undelivered: 0,
            }),
        }
    }

    #[test]
    fn rows_average_seeds_and_saturation_is_the_first_load_that_falls_behind() {
        let pts = vec![
            point(0.1, 1, 10.0, 10.0),
            point(0.1, 2, 10.2, 10.0),
            point(0.2, 1, 20.0, 19.5),
            point(0.2, 2, 20.0, 19.7),
            point(0.3, 1, 30.0, 25.0),
            point(0.3, 2, 30.0, 26.0),
            point(0.4, 1, 40.0, 25.5),
            Point {
                load: 0.4,
                seed: 2,
                measures: Err(1234),
            },
        ];
        let r = rows(&pts);
        assert_eq!(r.len(), 4);
        assert_eq!(r[0].runs, 2);
        assert!((r[0].offered_pct - 10.1).abs() < 1e-9);
        assert_eq!(r[0].max_delay_ht, 32.0);
        assert!((r[2].throughput_sd - 0.5f64.sqrt()).abs() < 1e-9);
        assert_eq!((r[3].deadlocks, r[3].runs), (1, 2));
        let s = saturation(&r);
        assert_eq!(s.load, Some(0.3));
        assert_eq!(s.peak, Some((25.5, 0.4)));
        let c = csv("t", "p", &pts);
        assert_eq!(c.lines().count(), 9);
        assert!(c.lines().last().unwrap().contains("deadlock at tick 1234"));
    }
}
