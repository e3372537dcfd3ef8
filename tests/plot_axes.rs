//! The axes and charts of the pictures (`emu::plot`): the load and log axes' ranges,
//! the percentile axis and its chart, and the comparison with other simulators.

use emu::plot::log_range;
use emu::plot::peers::{PeerCurve, PeerPoint, Spread, peers_svg};
use emu::plot::percentiles::{percentile_label, percentile_svg};
use emu::plot::sweep::load_range;
use emu::terminal::Metric;

#[test]
fn the_load_axis_fits_the_loads_with_a_margin_either_side() {
    let r = load_range([0.40, 0.42, 0.44, 0.46, 0.48, 0.50]);
    assert!(
        (r.start - 0.39).abs() < 1e-9 && (r.end - 0.51).abs() < 1e-9,
        "{r:?}"
    );
    // From near 0 the axis starts at 0, not below.
    let r = load_range([0.05, 1.0]);
    assert_eq!(r.start, 0.0);
    assert!(r.end > 1.0);
    // One load: a margin of a tenth of it either side.
    let r = load_range([0.5]);
    assert!(
        r.start < 0.5 && r.end > 0.5 && r.end - r.start < 0.2,
        "{r:?}"
    );
    assert_eq!(load_range([]), 0.0..1.0);
    assert_eq!(load_range([f64::NAN]), 0.0..1.0);
}

#[test]
fn log_ranges_span_at_most_twelve_decades() {
    assert_eq!(log_range([2.0, 30.0]), 1.0..100.0);
    assert_eq!(log_range([]), 1.0..10.0);
    let r = log_range([1e-320, 5.0]);
    assert!(
        (r.end / r.start).is_finite() && r.end / r.start <= 1.01e13,
        "{r:?}"
    );
    let r = log_range([1e-300, 1e300]);
    assert!((r.end / r.start).is_finite(), "{r:?}");
}

#[test]
fn the_axis_reads_as_percentiles() {
    assert_eq!(percentile_label(1.0), "0%");
    assert_eq!(percentile_label(10.0), "90%");
    assert_eq!(percentile_label(100.0), "99%");
    assert_eq!(percentile_label(1000.0), "99.9%");
}

#[test]
fn a_distribution_is_drawn_and_an_empty_one_too() {
    let mut m = Metric::new();
    for v in 1..=1000 {
        m.record(v * 10);
    }
    let svg = percentile_svg("message latency", &m, 10.0, "header times").unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("<polyline"),
        "{svg:.300}"
    );
    assert!(svg.contains("99%") && svg.contains("latency (header times)"));
    let empty = percentile_svg("none", &Metric::new(), 10.0, "ticks").unwrap();
    assert!(empty.starts_with("<svg"));
}

#[test]
fn a_spread_is_the_least_the_mean_and_the_greatest() {
    assert_eq!(
        Spread::of(&[3.0, 1.0, 2.0]),
        Some(Spread {
            min: 1.0,
            mean: 2.0,
            max: 3.0
        })
    );
    assert_eq!(Spread::of(&[]), None);
}

#[test]
fn the_picture_names_every_simulator_and_is_the_same_bytes_each_time() {
    let point = |load: f64, a: f64| PeerPoint {
        load,
        accepted: Spread::of(&[a, a * 1.1]),
        latency: Spread::of(&[40.0 + a * 100.0]),
    };
    let curves = vec![
        PeerCurve {
            name: "emu".into(),
            points: vec![point(0.1, 0.1), point(0.5, 0.45)],
        },
        PeerCurve {
            name: "BookSim 2".into(),
            points: vec![point(0.1, 0.1), point(0.5, 0.4)],
        },
    ];
    let svg = peers_svg("peers", &curves).expect("drawn");
    let has = |text: &str| svg.lines().any(|l| l.trim() == text);
    assert!(has("emu") && has("BookSim 2"), "{svg}");
    assert_eq!(svg, peers_svg("peers", &curves).expect("drawn"));
}
