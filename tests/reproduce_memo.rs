//! The fabric reproductions' memo (`emu::reproduce::fabric::memo`): inside its scope a
//! (point, seed) is run once and the same sample handed to every later ask, and points
//! that differ in any field are kept apart; outside it nothing is kept or counted.

use emu::parts::fabric::Strategy;
use emu::reproduce::ReproduceError;
use emu::reproduce::fabric::memo::{Memo, Reused, remembering, samples, take_reused};
use emu::reproduce::fabric::point::{Point, Sample};
use std::sync::Arc;

/// A fabric of 2 ports run briefly: milliseconds.
fn small(strategy: Strategy) -> Point {
    Point {
        per_crosspoint: 50,
        warmup_per_port: 20,
        ..Point::design(2, 3.0, strategy)
    }
}

#[test]
fn a_point_and_seed_are_run_once_and_the_same_sample_handed_to_each_later_ask() {
    let points = [small(Strategy::Reference), small(Strategy::Lof)];
    let without: Vec<Sample> = samples(&points, &[(0, 1), (1, 1), (0, 2)])
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(take_reused(), Reused::default(), "no memo, nothing counted");
    assert!(without[0].mean_delay > 0.0, "{without:?}");
    assert_ne!(without[0], without[2], "another seed, another sample");
    let memo = Arc::new(Memo::default());
    let (first, second) = remembering(&memo, || {
        let first = samples(&points, &[(0, 1), (1, 1)]);
        let a = take_reused();
        // The same two again and one new seed, in another order.
        let second = samples(&points, &[(0, 2), (1, 1), (0, 1)]);
        let b = take_reused();
        assert_eq!(
            a,
            Reused {
                reused: 0,
                asked: 2
            }
        );
        assert_eq!(
            b,
            Reused {
                reused: 2,
                asked: 3
            }
        );
        (first, second)
    });
    assert_eq!(memo.len(), 3, "three runs made in all");
    let got = |v: Vec<Result<Sample, ReproduceError>>| -> Vec<Sample> {
        v.into_iter()
            .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
            .collect()
    };
    assert_eq!(got(first), without[..2]);
    assert_eq!(
        got(second),
        [without[2].clone(), without[1].clone(), without[0].clone()]
    );
    // Outside the scope the memo is not used.
    samples(&points, &[(0, 1)]);
    assert_eq!(take_reused(), Reused::default());
}

#[test]
fn points_that_differ_in_any_field_are_kept_apart() {
    let a = small(Strategy::Reference);
    let b = Point {
        load: 0.98 + f64::EPSILON,
        ..a.clone()
    };
    assert_ne!(format!("{a:?}"), format!("{b:?}"));
    let memo = Arc::new(Memo::default());
    remembering(&memo, || samples(&[a, b], &[(0, 1), (1, 1)]));
    assert_eq!(memo.len(), 2);
    assert_eq!(
        take_reused(),
        Reused {
            reused: 0,
            asked: 2
        }
    );
}
