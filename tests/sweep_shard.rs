//! A sweep's shards (`emu::sweep::shard`): shard specs, slices that cover every run
//! once, exact merges in any order, and refusals of input that does not merge.

use emu::sweep::shard::{FORMAT, Header, MergeError, Shard, ShardSpecError, merge, write};
use emu::sweep::{Job, Measures, Point};

fn header() -> Header {
    Header {
        format: FORMAT.into(),
        topology: "grid8".into(),
        traffic: "uniform".into(),
        delay_unit: "header times".into(),
        loads: vec![0.1, 0.2],
        seeds: 2,
        seed: 7,
        configuration: serde_json::json!({"x": 1}),
        shard: None,
    }
}

fn point(load: f64, seed: u64) -> Point {
    Point {
        load,
        seed,
        measures: if seed == 8 && load == 0.2 {
            Err(99)
        } else {
            Ok(Measures {
                offered_pct: 10.0 * load + 0.1 / 3.0,
                throughput_pct: 9.999_999_999_999_998,
                link_max_pct: 1.0 / 3.0,
                mean_delay_ht: 12.345_678_901_234_567,
                p99_delay_ht: 1e-300,
                max_delay_ht: 5e300,
                undelivered: seed,
            })
        },
    }
}

fn all() -> Vec<(usize, Point)> {
    vec![
        (0, point(0.1, 7)),
        (1, point(0.1, 8)),
        (2, point(0.2, 7)),
        (3, point(0.2, 8)),
    ]
}

fn jobs() -> Vec<Job> {
    all()
        .iter()
        .map(|(i, p)| Job {
            index: *i,
            load: p.load,
            seed: p.seed,
        })
        .collect()
}

/// Shard 1 of 2: runs 0 and 2.
fn first_of_two(h: &Header, runs: &[(usize, Point)]) -> String {
    write(h, Shard { k: 1, n: 2 }, &[runs[0].clone(), runs[2].clone()])
}

#[test]
fn shard_specs_parse_and_slices_cover_every_run_once() {
    assert_eq!("2/3".parse(), Ok(Shard { k: 2, n: 3 }));
    for bad in ["0/3", "4/3", "3", "a/b", "1/0", ""] {
        assert_eq!(bad.parse::<Shard>(), Err(ShardSpecError), "{bad}");
    }
    let mut seen: Vec<usize> = (1..=3)
        .flat_map(|k| Shard { k, n: 3 }.select(&jobs()))
        .map(|j| j.index)
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, vec![0, 1, 2, 3]);
    assert_eq!(Shard::WHOLE.select(&jobs()).len(), 4);
}

#[test]
fn shards_merge_back_exactly_in_any_order_and_concatenated() {
    let h = header();
    let runs = all();
    let a = first_of_two(&h, &runs);
    let b = write(
        &h,
        Shard { k: 2, n: 2 },
        &[runs[1].clone(), runs[3].clone()],
    );
    let expect: Vec<Point> = runs.iter().map(|(_, p)| p.clone()).collect();
    for files in [
        vec![("a".to_string(), a.clone()), ("b".to_string(), b.clone())],
        vec![("b".to_string(), b.clone()), ("a".to_string(), a.clone())],
        vec![("ab".to_string(), format!("{b}{a}{a}"))],
    ] {
        let m = merge(&files).unwrap();
        assert_eq!(m.points, expect, "bit-exact round trip");
        assert_eq!(m.header, h);
    }
}

#[test]
fn merge_refuses_missing_conflicting_foreign_and_malformed_input() {
    let h = header();
    let runs = all();
    let a = first_of_two(&h, &runs);
    let err = merge(&[("a".into(), a.clone())]).unwrap_err().to_string();
    assert!(
        err.contains("2 of 4 runs are missing (first: run 1, load 0.1, seed 8)"),
        "{err}"
    );

    let mut other = h.clone();
    other.loads = vec![0.1, 0.3];
    let b = write(&other, Shard { k: 2, n: 2 }, &[]);
    let err = merge(&[("a".into(), a.clone()), ("b".into(), b)])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("b:1: a shard of another sweep (loads differ from a:1)"),
        "{err}"
    );

    let mut changed = runs[0].1.clone();
    changed.seed = 8;
    let bad = write(&h, Shard { k: 1, n: 2 }, &[(0, changed)]);
    let err = merge(&[("x".into(), bad)]).unwrap_err().to_string();
    assert!(
        err.contains("x:2: run 0 (load 0.1, seed 8) is not a run"),
        "{err}"
    );

    let mut changed = runs[0].1.clone();
    changed.measures = Err(5);
    let twice = format!("{a}{}", write(&h, Shard { k: 1, n: 2 }, &[(0, changed)]));
    let err = merge(&[("t".into(), twice)]).unwrap_err().to_string();
    assert!(
        err.contains("t:5: run 0 appears twice with different results"),
        "{err}"
    );

    let line = a.lines().nth(1).unwrap().to_string();
    let err = merge(&[("n".into(), line)]).unwrap_err().to_string();
    assert!(err.contains("n:1: a run before any header"), "{err}");
    let err = merge(&[("j".into(), "{oops".into())])
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("j:1: not a line of an emu sweep shard"),
        "{err}"
    );
    let v2 = a.replace(FORMAT, "emu-sweep-shard/2");
    let err = merge(&[("v".into(), v2)]).unwrap_err().to_string();
    assert!(err.contains("format \"emu-sweep-shard/2\""), "{err}");
    assert!(matches!(merge(&[]), Err(MergeError::Empty)));
}
