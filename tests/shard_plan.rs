//! Sharding in general (`emu::shard`): balancing units over shards by their stored
//! wall times, and telling the kinds of shard apart.

use emu::shard::{Kind, balance, kind_of, stored_wall_times};

#[test]
fn the_heaviest_units_go_to_different_shards() {
    let plan = balance(&[1.0, 100.0, 60.0, 50.0, 2.0], 2);
    assert_eq!(plan, vec![1, 1, 2, 2, 1]);
    assert_eq!(balance(&[1.0, 1.0, 1.0], 3), vec![1, 2, 3]);
    assert_eq!(balance(&[5.0], 4), vec![1]);
    assert_eq!(balance(&[0.0, 0.0, 0.0, 3.0], 4), vec![2, 3, 4, 1]);
}

#[test]
fn the_stored_wall_times_are_read() {
    let w = stored_wall_times();
    assert!(w.len() > 10, "{w:?}");
    assert!(w.values().all(|v| v.is_finite() && *v >= 0.0));
}

#[test]
fn mixed_kinds_are_refused() {
    let files = vec![
        (
            "a".to_string(),
            "{\"format\":\"emu-sweep-shard/1\"}\n".to_string(),
        ),
        (
            "b".to_string(),
            "{\"format\":\"emu-stress-shard/1\"}\n".to_string(),
        ),
    ];
    let e = kind_of(&files).expect_err("mixed");
    assert!(
        e.to_string()
            .starts_with("a:1 holds a sweep shard and b:1 a stress"),
        "{e}"
    );
    assert_eq!(kind_of(&files[..1]), Ok(Some(Kind::Sweep)));
}
