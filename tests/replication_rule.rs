//! Replications over seeds (`emu::replicate`), on made-up samples: a fixed number of
//! seeds, the automatic stopping rule, paired comparisons and the first error.

use emu::replicate::{MAX_AUTO, Plan, Sample, compare, replicate};
use emu::stats::confidence::Interval;

fn fake(seed: u64) -> Result<Sample, ()> {
    // Latencies 100 ± a spread that shrinks the interval as runs accumulate.
    let wobble = [4.0, -3.0, 2.5, -1.0, 0.5, -2.0, 1.5, 3.0, -4.0, 0.0][(seed % 10) as usize];
    Ok(Sample {
        throughput_pct: 50.0 + wobble / 10.0,
        mean_latency: 100.0 + wobble,
        p99_latency: 300.0 + 2.0 * wobble,
        p999_latency: 400.0 + 3.0 * wobble,
    })
}

#[test]
fn a_fixed_plan_runs_exactly_that_many_seeds() {
    let r = replicate(Plan::Fixed(4), 7, 2, fake).unwrap();
    assert_eq!(r.seeds, vec![7, 8, 9, 10]);
    assert!(r.reached && r.mean_latency.n == 4);
}

#[test]
fn the_automatic_rule_stops_at_the_first_seed_count_that_meets_the_target() {
    for threads in [1, 2, 5] {
        let r = replicate(Plan::Until { target: 0.02 }, 0, threads, fake).unwrap();
        // The stopping point is the first n ≥ 3 whose interval is within 2 %.
        let first = (3..=30)
            .find(|&n| {
                let x: Vec<f64> = (0..n as u64)
                    .map(|s| fake(s).unwrap().mean_latency)
                    .collect();
                Interval::of(&x).relative_90() <= 0.02
            })
            .unwrap();
        assert_eq!(r.samples.len(), first, "threads {threads}");
        assert!(r.reached);
    }
}

#[test]
fn an_unreachable_target_stops_at_the_maximum_and_says_so() {
    let r = replicate(Plan::Until { target: 1e-9 }, 0, 3, fake).unwrap();
    assert_eq!(r.samples.len(), MAX_AUTO);
    assert!(!r.reached);
}

#[test]
fn p99_9_has_its_interval_like_the_other_figures() {
    let r = replicate(Plan::Fixed(4), 0, 2, fake).unwrap();
    let x: Vec<f64> = (0..4).map(|s| fake(s).unwrap().p999_latency).collect();
    assert_eq!(r.p999_latency, Interval::of(&x));
    assert!(r.p999_latency.half_width_90 > 0.0);
}

#[test]
fn identical_sides_differ_by_exactly_zero() {
    let p = compare(5, 3, 2, fake, fake).unwrap();
    assert_eq!(p.seeds, vec![3, 4, 5, 6, 7]);
    for d in [
        p.difference.throughput_pct,
        p.difference.mean_latency,
        p.difference.p99_latency,
        p.difference.p999_latency,
    ] {
        assert_eq!((d.n, d.mean, d.half_width_90), (5, 0.0, 0.0));
    }
}

#[test]
fn a_constant_shift_is_the_difference_with_no_width_and_the_sides_keep_theirs() {
    let shifted = |s| {
        fake(s).map(|x| Sample {
            mean_latency: x.mean_latency + 7.0,
            ..x
        })
    };
    let p = compare(6, 0, 3, fake, shifted).unwrap();
    let d = p.difference.mean_latency;
    assert!(
        (d.mean - 7.0).abs() < 1e-9 && d.half_width_90 < 1e-9,
        "{d:?}"
    );
    // Each side alone has a wide interval: pairing removes the seeds' common part.
    assert!(p.a.mean_latency.half_width_90 > 1.0);
    assert!((p.b.mean_latency.mean - p.a.mean_latency.mean - 7.0).abs() < 1e-9);
    assert_eq!(p.difference.throughput_pct.mean, 0.0);
}

#[test]
fn the_first_error_in_seed_order_is_returned() {
    let r = replicate(Plan::Fixed(5), 0, 3, |s| {
        if s >= 2 {
            Err(s)
        } else {
            fake(s).map_err(|_| 0)
        }
    });
    assert_eq!(r.unwrap_err(), 2);
}
