//! A sweep's table (`emu::sweep::table`): rows averaging seeds, the saturation load,
//! and the two CSV files.

use emu::sweep::table::{csv, summary_csv};
use emu::sweep::{Measures, Point, rows, saturation};

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
    assert_eq!(r[0].max_delay, 32.0);
    // Two runs, 25.0 and 26.0: sd 0.707, t(0.95, 1) = 6.314, half-width 6.314 · 0.5.
    assert!((r[2].throughput.half_width_90 - 6.314 * 0.5).abs() < 1e-3);
    assert!(r[3].throughput.half_width_90.is_nan() || r[3].throughput.n == 1);
    assert_eq!((r[3].deadlocks, r[3].runs), (1, 2));
    let s = saturation(&r);
    assert_eq!(s.load, Some(0.3));
    assert_eq!(s.peak, Some((25.5, 0.4)));
    let c = csv("t,1", "p", "header times", &pts);
    assert_eq!(c.lines().count(), 9);
    assert!(c.lines().last().unwrap().contains("deadlock at tick 1234"));
    assert!(
        c.lines().nth(1).unwrap().starts_with("\"t,1\",p,0.1,1,ok,"),
        "{c}"
    );
    let sc = summary_csv("t", "p", "header times", &r);
    assert_eq!(sc.lines().count(), 5);
    let row3: Vec<&str> = sc.lines().nth(3).unwrap().split(',').collect();
    assert_eq!(row3[7], "3.1570", "{sc}");
    let row4: Vec<&str> = sc.lines().nth(4).unwrap().split(',').collect();
    assert_eq!((row4[3], row4[4], row4[7]), ("2", "1", ""), "{sc}");
}
