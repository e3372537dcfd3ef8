//! A deadlock search's shards (`emu::shard::stress`): the lowest find wins, every case
//! below it is needed, and a shard without its end line is incomplete.

use emu::shard::stress::{FORMAT, Header, Outcome, merge, write};

fn header(k: u32, n: u32) -> Header {
    Header {
        format: FORMAT.into(),
        emu_version: env!("CARGO_PKG_VERSION").into(),
        command: "emu stress --topology ring4".into(),
        args: vec!["--topology".into(), "ring4".into()],
        topology: "ring4".into(),
        configuration: serde_json::json!({}),
        cases: 9,
        shard: [k, n],
    }
}

fn clean(ticks: u64) -> Outcome {
    Outcome::Clean {
        ticks,
        complete: true,
    }
}

#[test]
fn the_lowest_find_wins_and_every_case_below_it_is_needed() {
    // Shard 1 of 3 has cases 0, 3, 6; 2 has 1, 4, 7; 3 has 2, 5, 8.
    let s1 = write(
        &header(1, 3),
        &[
            (0, clean(10)),
            (3, clean(11)),
            (6, Outcome::Deadlock { tick: 5 }),
        ],
    );
    let s2 = write(
        &header(2, 3),
        &[(1, clean(12)), (4, Outcome::Deadlock { tick: 7 })],
    );
    let s3 = write(
        &header(3, 3),
        &[(2, clean(13)), (5, clean(14)), (8, clean(1))],
    );
    let files = vec![
        ("c".to_string(), s3.clone()),
        ("a".into(), s1.clone()),
        ("b".into(), s2),
    ];
    let m = merge(&files).expect("merges");
    assert_eq!(m.outcomes.len(), 5, "cases 0 to 4: {:?}", m.outcomes);
    assert_eq!(m.outcomes[4], Outcome::Deadlock { tick: 7 });
    let e = merge(&[("a".into(), s1), ("c".into(), s3)]).expect_err("shard 2 missing");
    assert!(
        e.to_string().starts_with(
            "2 of the 7 cases the search needs are missing (first: case 2, shard 2/3)"
        ),
        "{e}"
    );
}

#[test]
fn a_shard_without_its_end_line_is_incomplete() {
    let s = write(&header(1, 1), &[(0, clean(1))]);
    let cut: String = s.lines().take(2).map(|l| format!("{l}\n")).collect();
    let e = merge(&[("a".into(), cut)]).expect_err("incomplete");
    assert!(e.to_string().contains("shard 1/1 is incomplete"), "{e}");
}
