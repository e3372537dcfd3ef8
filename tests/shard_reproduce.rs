//! A reproduction's shards (`emu::shard::reproduce`): reports read back the same and
//! shards merge in plan order.

use emu::reproduce::{Curve, Report, Row, Table, Tolerance};
use emu::shard::reproduce::{Header, Unit, merge, write};

fn report(emulated: f64) -> Report {
    Report {
        experiment: "x".into(),
        section: "§0".into(),
        tables: vec![Table {
            title: "t".into(),
            rows: vec![
                Row::new("a", 10.0, "eq", emulated, "u", Tolerance::Relative(0.01)).note("n"),
                Row::new(
                    "b",
                    0.1 + 0.2,
                    "eq",
                    f64::NAN,
                    "u",
                    Tolerance::Absolute(1.0),
                )
                .expected_miss("why"),
            ],
            notes: vec!["note".into()],
        }],
        curves: vec![Curve {
            title: "c".into(),
            columns: vec!["x".into(), "y".into()],
            rows: vec![vec![1.0 / 3.0, f64::INFINITY]],
        }],
    }
}

#[test]
fn reports_read_back_the_same_and_shards_merge_in_plan_order() {
    let names = ["x", "y"];
    let h1 = Header {
        plan: vec![2, 1],
        ..Header::new(&names, true, 1, 2)
    };
    let h2 = Header {
        shard: [2, 2],
        ..h1.clone()
    };
    let s1 = write(&h1, &[("y".into(), Unit::Outcome(Err("broken".into())))]).expect("writes");
    let s2 = write(&h2, &[("x".into(), Unit::Outcome(Ok(report(10.05))))]).expect("writes");
    let m = merge(&[("b".into(), s2.clone()), ("a".into(), s1.clone())]).expect("merges");
    assert_eq!(m.outcomes.len(), 2);
    assert_eq!(m.outcomes[0].0, "x");
    let r = m.outcomes[0].1.as_ref().expect("a report");
    assert_eq!(r.text(), report(10.05).text());
    assert_eq!(m.outcomes[1].1.as_ref().expect_err("an error"), "broken");
    let e = merge(&[("a".into(), s1)]).expect_err("one missing");
    assert!(
        e.to_string()
            .starts_with("1 of 2 experiments are missing (first: x, shard 2/2)"),
        "{e}"
    );
    let other = write(&Header { quick: false, ..h2 }, &[]).expect("writes");
    let e = merge(&[("b".into(), s2), ("c".into(), other)]).expect_err("another reproduction");
    assert!(
        e.to_string()
            .starts_with("c:1: a shard of another reproduction"),
        "{e}"
    );
}
