//! A reproduction's tables (`emu::reproduce::table`): tolerances, and a failing row.

use emu::reproduce::table::{Report, Row, Table, Tolerance, json};

#[test]
fn tolerances_accept_and_reject() {
    assert!(Tolerance::Relative(0.01).accepts(100.0, 100.9));
    assert!(!Tolerance::Relative(0.01).accepts(100.0, 101.1));
    assert!(Tolerance::Absolute(0.0).accepts(0.0, 0.0));
    assert!(!Tolerance::Absolute(0.0).accepts(0.0, 1.0));
    assert!(Tolerance::AtMost(0.01).accepts(100.0, 50.0));
    assert!(!Tolerance::AtMost(0.01).accepts(100.0, 102.0));
    assert!(Tolerance::AtLeast(0.01).accepts(100.0, 150.0));
    assert!(!Tolerance::AtLeast(0.01).accepts(100.0, 98.0));
    assert!(!Tolerance::Relative(1.0).accepts(1.0, f64::NAN));
    let w = Tolerance::Within {
        below: 0.2,
        above: 0.01,
    };
    assert!(w.accepts(100.0, 81.0) && w.accepts(100.0, 100.9));
    assert!(!w.accepts(100.0, 79.0) && !w.accepts(100.0, 101.1));
}

#[test]
fn a_failing_row_is_reported() {
    let r = Report {
        curves: Vec::new(),
        experiment: "x".into(),
        section: "§0".into(),
        tables: vec![Table {
            title: "t".into(),
            rows: vec![
                Row::new("a", 10.0, "eq", 10.05, "u", Tolerance::Relative(0.01)),
                Row::new("b", 10.0, "eq", 12.0, "u", Tolerance::Relative(0.01)),
            ],
            notes: vec![],
        }],
    };
    let f = r.failures();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].1.parameter, "b");
    assert!(r.text().contains("FAIL"));
    assert_eq!(json(&[r])["reports"][0]["pass"], false);
}
