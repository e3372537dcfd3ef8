//! The heat map of link use between switches (`emu::plot::heatmap`) and its colour
//! scale.

use emu::plot::heatmap::{colour, heatmap_svg};
use emu::stats::links::LinkUse;
use plotters::style::RGBColor;

fn link(from: &str, to: &str, busy: f64) -> LinkUse {
    LinkUse {
        from: from.into(),
        from_port: 0,
        to: to.into(),
        to_port: 0,
        busy_pct: busy,
    }
}

#[test]
fn switch_links_become_cells_and_terminal_links_do_not() {
    let links = vec![
        link("c104[1]", "c104[0]", 50.0),
        link("c104[0]", "c104[1]", 100.0),
        link("c104[0]", "t9000[0]", 10.0),
        link("t9000[0]", "c104[0]", 10.0),
        link("c104[1]", "t9000[1]", 10.0),
        link("t9000[1]", "c104[1]", 10.0),
    ];
    let svg = heatmap_svg("h", &links).unwrap().unwrap();
    let hot = colour(1.0);
    let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", hot.0, hot.1, hot.2);
    assert!(
        svg.contains(&fill),
        "the 100 % cell is drawn in the top colour"
    );
    assert!(!svg.contains("t9000"), "no terminal on an axis");
    assert_eq!(heatmap_svg("h", &links[2..]).unwrap(), None);
}

#[test]
fn the_colour_scale_runs_from_dark_to_bright() {
    assert_eq!(colour(0.0), RGBColor(68, 1, 84));
    assert_eq!(colour(1.0), RGBColor(253, 231, 37));
    assert_eq!(colour(f64::NAN), colour(0.0));
    let lum =
        |c: RGBColor| 0.2126 * f64::from(c.0) + 0.7152 * f64::from(c.1) + 0.0722 * f64::from(c.2);
    assert!(
        (0..10).all(|k| lum(colour(f64::from(k) / 10.0)) < lum(colour(f64::from(k + 1) / 10.0)))
    );
}
