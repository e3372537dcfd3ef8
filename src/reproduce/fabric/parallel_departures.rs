//! `fabric-parallel-departures`: how many packets leave one input's row of crosspoints
//! in one cycle, Gramsamer §7.3.2 (Figs. 7.13-7.21), the measure of how many
//! flow-control events per cycle an input must return.
//!
//! Set-up of Figs. 7.13/7.14: N = 8, M = RTT = 64, bursty uniform traffic of mean burst
//! 30, loads 30, 50, 70 and 100 %; relative credit, every freed credit returned (the
//! Reference), 3 replications. The document's words, with the readings written before
//! the runs: P(0) "monotonic decreasing from 70% down to 35%" (each ±5 points, "about");
//! the one-departure curve has "a peak of ~45% occurrence probability at an input load
//! of ~70% and ends at about 40%" (±5 points, and the 70 % value above the 50 % and
//! 100 % ones); "the probability of 5 or more parallel departures is close to zero" (at
//! most 1 %); "we never noticed more than 10 parallel departures"; and the throughput
//! is Σ i·p(i). Its analytic model (Eqs. 7.1-7.9) makes the departures of a row at
//! saturation binomial, P[X = k] = C(N, k) q^k (1 − q)^(N−k) with q = p_rr · p_col:
//! p_rr = 1/N (the round robin picks a given row; the document leaves it unstated) and
//! p_col the chance a column holds a packet, 1 − (1 − 1/N)^(N²) for Bernoulli traffic and
//! 1 − (1 − (2 − 1/N)/N)^N for bursts; "a very good match" is read as within 3 points.
//! Beside them: Bernoulli traffic "has more parallel departures" than bursts (Fig.
//! 7.16), and, in the full form, 64 ports have "a 2-3% lower probability" of one
//! departure than 8 at loads above 50 % (read as 0.5-5 points) and a larger tail (Figs.
//! 7.15, 7.17).

use super::super::ReproduceError;
use super::super::table::{Report, Row, Table, Tolerance};
use super::point::{Point, Replicated, replicate_all};
use crate::parts::fabric::Strategy;

/// Replications per point (the document's 3).
const RUNS: u64 = 3;

/// "about", "~": within this many percentage points.
const ABOUT: f64 = 5.0;

/// "a very good match": within this many percentage points.
const MATCH: f64 = 3.0;

/// P(k departures) in % for `r`, 0 past the largest seen.
fn p(r: &Replicated, k: usize) -> f64 {
    100.0 * r.mean_of(|s| s.parallel.get(k).copied().unwrap_or(0.0))
}

/// P(k or more departures) in %.
fn tail(r: &Replicated, k: usize) -> f64 {
    100.0 * r.mean_of(|s| s.parallel.iter().skip(k).sum())
}

/// The model's P[X = k] in % at saturation for `n` ports, Bernoulli or bursty traffic.
pub fn model(n: u32, bursty: bool, k: u32) -> f64 {
    let nf = f64::from(n);
    let p_col = if bursty {
        1.0 - (1.0 - (2.0 - 1.0 / nf) / nf).powf(nf)
    } else {
        1.0 - (1.0 - 1.0 / nf).powf(nf * nf)
    };
    let q = p_col / nf;
    let choose = (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
    100.0 * choose * q.powi(k as i32) * (1.0 - q).powi((n - k) as i32)
}

/// Why the model's P(0) misses for bursts (2026-11-26: 39.3 % against 35.0-35.2 %).
const BURST_MODEL_MISS: &str = "the model's burst term takes Q' = N/B cycles to fill a \
     column and \"assumes B ≤ N\" (§7.3.2); bursts of 30 on 8 ports break it, and its P(0) \
     is 39.3 % against the emulated 35.0 % (full form), while P(1) and P(2) stay within 3 \
     points and the Bernoulli rows (B = 1) within 0.3";

/// Why the 64-port tail is not larger at saturation (2026-11-26, full form: 24.7 %
/// against 25.7 %).
const LARGE_TAIL_MISS: &str = "at saturation the 64-port rows have fewer parallel \
     departures than the 8-port ones (P(≥2) 24.7 % against 25.7 %, full form), as the \
     document's own model predicts for bursts (p_col = 0.867 at N = 64: P(0) 41.8 % against \
     39.3 % at N = 8); at 70 % the 64-port tail is the larger, as Fig. 7.17 says";

/// A row that an emulated P(k) is "about" the printed `value` (Fig. 7.13).
fn about(what: &str, value: f64, emulated: f64, words: &str) -> Row {
    Row::new(
        what,
        value,
        "§7.3.2, Fig. 7.13",
        emulated,
        "%",
        Tolerance::Absolute(ABOUT),
    )
    .note(words)
}

fn point(n: u32, burst: f64, load: f64, per_crosspoint: u64) -> Point {
    Point {
        load,
        per_crosspoint,
        warmup_per_port: 400,
        ..Point::design(n, burst, Strategy::Reference)
    }
}

/// Runs the experiment; `quick` runs shorter windows and leaves out the 64-port rings.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let per = if quick { 2_000 } else { 16_000 };
    let loads = [0.3, 0.5, 0.7, 1.0];
    let mut points: Vec<Point> = loads.iter().map(|&l| point(8, 30.0, l, per)).collect();
    points.push(point(8, 1.0, 0.7, per));
    points.push(point(8, 1.0, 1.0, per));
    if !quick {
        points.push(point(64, 30.0, 0.7, 250));
        points.push(point(64, 30.0, 1.0, 250));
    }
    let r = replicate_all(&points, RUNS)?;
    let (by_load, bernoulli) = (&r[..4], &r[4..6]);
    let pct = |l: f64| format!("{:.0} %", l * 100.0);
    let mut t = Table {
        title: "Figs. 7.13/7.14: departures per input row and cycle, N=8 M=RTT=64 BS=30".into(),
        ..Table::default()
    };
    let src = "§7.3.2, Fig. 7.13";
    t.rows.push(about(
        "L=30 %: P(0)",
        70.0,
        p(&by_load[0], 0),
        "\"monotonic decreasing from 70%\"",
    ));
    for w in 1..4 {
        t.rows.push(
            Row::new(
                format!(
                    "P(0) at L={} against L={}",
                    pct(loads[w]),
                    pct(loads[w - 1])
                ),
                p(&by_load[w - 1], 0),
                "the lower load",
                p(&by_load[w], 0),
                "%",
                Tolerance::AtMost(0.0),
            )
            .note("monotonic decreasing"),
        );
    }
    t.rows.push(about(
        "L=100 %: P(0)",
        35.0,
        p(&by_load[3], 0),
        "\"not ... to 0%, but down to about 35%\"",
    ));
    t.rows.push(about(
        "L=70 %: P(1)",
        45.0,
        p(&by_load[2], 1),
        "\"a peak of ~45% ... at an input load of ~70%\"",
    ));
    for other in [1, 3] {
        t.rows.push(
            Row::new(
                format!("P(1) at L=70 % against L={}", pct(loads[other])),
                p(&by_load[other], 1),
                "the other load",
                p(&by_load[2], 1),
                "%",
                Tolerance::AtLeast(0.0),
            )
            .note("the peak is at ~70 %"),
        );
    }
    t.rows.push(about(
        "L=100 %: P(1)",
        40.0,
        p(&by_load[3], 1),
        "\"ends at about 40%\"",
    ));
    for (l, x) in loads.iter().zip(by_load) {
        t.rows.push(
            Row::new(
                format!("L={}: P(≥5)", pct(*l)),
                1.0,
                src,
                tail(x, 5),
                "%",
                Tolerance::AtMost(0.0),
            )
            .note("\"close to zero\": at most 1 %"),
        );
        let sum: f64 = (0..x.samples[0].parallel.len())
            .map(|k| k as f64 * p(x, k))
            .sum();
        t.rows.push(
            Row::new(
                format!("L={}: Σ i·p(i)", pct(*l)),
                x.mean_of(|s| s.output_pct),
                "measured output throughput",
                sum,
                "%",
                Tolerance::Relative(0.01),
            )
            .note("tp_calc ≈ tp_meas"),
        );
    }
    let most = by_load
        .iter()
        .flat_map(|x| &x.samples)
        .map(|s| s.parallel.iter().rposition(|&f| f > 0.0).unwrap_or(0))
        .max()
        .unwrap_or(0);
    t.rows.push(
        Row::new(
            "most departures seen",
            10.0,
            src,
            most as f64,
            "packets",
            Tolerance::AtMost(0.0),
        )
        .note("\"we never noticed more than 10 parallel departures\""),
    );
    t.notes.push(format!(
        "Relative credit, every freed credit returned (the Reference), RR schedulers; \
         {per} measured packets per crosspoint after 400 per port, {RUNS} replications \
         (seeds 1-3). p(i): the share of (input, cycle) pairs in the window with i packets \
         leaving the input's row of crosspoints."
    ));
    let mut m = Table {
        title: "Eqs. 7.1-7.9: the analytic model at saturation against emulation, N=8".into(),
        ..Table::default()
    };
    for (label, bursty, x) in [
        ("BS=30", true, &by_load[3]),
        ("Bernoulli", false, &bernoulli[1]),
    ] {
        for k in 0..3u32 {
            let row = Row::new(
                format!("{label}, L=100 %: P({k})"),
                model(8, bursty, k),
                "Eqs. 7.1-7.9",
                p(x, k as usize),
                "%",
                Tolerance::Absolute(MATCH),
            )
            .note("\"a very good match\" (Figs. 7.18-7.21): within 3 points");
            m.rows.push(if bursty && k == 0 {
                row.expected_miss(BURST_MODEL_MISS)
            } else {
                row
            });
        }
    }
    m.rows.push(
        Row::new(
            "L=70 %: P(≥2), Bernoulli against BS=30",
            tail(&by_load[2], 2),
            "BS=30",
            tail(&bernoulli[0], 2),
            "%",
            Tolerance::AtLeast(0.0),
        )
        .note("Fig. 7.16: Bernoulli traffic has more parallel departures"),
    );
    if let [large70, large100] = &r[6..] {
        for (l, small, large) in [(0.7, &by_load[2], large70), (1.0, &by_load[3], large100)] {
            m.rows.push(
                Row::new(
                    format!("L={}: P(1) at N=8 less P(1) at N=64", pct(l)),
                    2.75,
                    "§7.3.2, Fig. 7.15",
                    p(small, 1) - p(large, 1),
                    "points",
                    Tolerance::Absolute(2.25),
                )
                .note("\"a 2-3% lower probability for loads larger than 50% for the 64 ports device\": 0.5-5 points"),
            );
            let row = Row::new(
                format!("L={}: P(≥2), N=64 against N=8", pct(l)),
                tail(small, 2),
                "N=8",
                tail(large, 2),
                "%",
                Tolerance::AtLeast(0.0),
            )
            .note("Fig. 7.17: the 64-port device has more parallel departures");
            m.rows.push(if l >= 1.0 {
                row.expected_miss(LARGE_TAIL_MISS)
            } else {
                row
            });
        }
        m.notes.push(
            "N=64: 250 measured packets per crosspoint (1 M packets a run, as the document's)."
                .into(),
        );
    }
    Ok(Report {
        curves: Vec::new(),
        experiment: "fabric-parallel-departures".into(),
        section: "Gramsamer §7.3.2".into(),
        tables: vec![t, m],
    })
}
