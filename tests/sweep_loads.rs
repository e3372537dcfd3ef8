//! Load lists of a sweep (`emu::sweep::parse_loads`): ranges, and refusals that say why.

use emu::sweep::{LoadsError, parse_loads};

#[test]
fn ranges_are_inclusive_and_free_of_float_drift() {
    let l = parse_loads("0.05:1.0:0.05").unwrap();
    assert_eq!(l.len(), 20);
    assert_eq!(l[0], 0.05);
    assert_eq!(l[2], 0.15);
    assert_eq!(l[19], 1.0);
    assert_eq!(parse_loads("0.5").unwrap(), vec![0.5]);
    assert_eq!(parse_loads("0.1:0.35:0.1").unwrap(), vec![0.1, 0.2, 0.3]);
}

#[test]
fn bad_ranges_say_why() {
    for bad in [
        "",
        "x",
        "0.1:0.2",
        "0.1:0.2:0",
        "0.5:0.1:0.1",
        "0:0.5:0.1",
        "0.5:1.5:0.5",
    ] {
        assert!(parse_loads(bad).is_err(), "{bad:?}");
    }
    let e = parse_loads("0.5:0.1:0.1").unwrap_err();
    assert_eq!(e.to_string(), "0.1 is below 0.5");
    let e = parse_loads("0.5:x:0.1").unwrap_err();
    assert_eq!(e.to_string(), "\"x\" is not a number");
}

#[test]
fn a_tiny_step_is_too_many_loads_not_none() {
    // (0.5 − 0.1) / 1e-300 loads overflow any integer: refused, not swept as 0.
    let e = parse_loads("0.1:0.5:1e-300").unwrap_err();
    assert!(matches!(e, LoadsError::TooMany { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "about 4e299 loads from 0.1 to 0.5 in steps of 1e-300 is too many: give a step that makes at most 10,000 loads"
    );
    assert!(matches!(
        parse_loads("0.1:0.5:0.00001"),
        Err(LoadsError::TooMany { .. })
    ));
    assert_eq!(parse_loads("0.1:0.5:1").map(|l| l.len()), Ok(1));
}
