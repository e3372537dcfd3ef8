//! The bar chart of link use (`emu::plot::link_bars`): a bar per direction, by
//! transmitter, a switch's in their own colour.

use emu::plot::link_bars::link_bars_svg;
use emu::stats::links::LinkUse;

fn link(from: &str, to: &str, busy: f64) -> LinkUse {
    LinkUse {
        from: from.into(),
        from_port: 1,
        to: to.into(),
        to_port: 0,
        busy_pct: busy,
    }
}

#[test]
fn one_bar_per_direction_named_by_its_transmitter() {
    let links = [
        link("sci[0]", "sci[1]", 40.0),
        link("sci[1]", "sci[0]", 60.0),
    ];
    let svg = link_bars_svg("t", &links).unwrap().unwrap();
    // Two bars and the legend's swatch in the first colour.
    assert_eq!(svg.matches("fill=\"#0072B2\"").count(), 3, "{svg}");
    assert!(
        svg.contains("sci[0]:1") && svg.contains("sci[1]:1"),
        "{svg}"
    );
    assert!(svg.contains("sent by a node with one link") && !svg.contains("by a switch"));
}

#[test]
fn bars_go_by_transmitter_and_a_switch_s_are_coloured_apart() {
    let links = [
        link("adapter[10]", "switch", 90.0),
        link("switch", "adapter[10]", 60.0),
        link("adapter[9]", "switch", 80.0),
        link("switch", "adapter[9]", 50.0),
    ];
    let svg = link_bars_svg("t", &links).unwrap().unwrap();
    // adapter[9] before adapter[10], then the switch's two directions.
    let at = |s: &str| svg.find(s).unwrap_or_else(|| panic!("{s} not in {svg}"));
    assert!(at("adapter[9]:1") < at("adapter[10]:1") && at("adapter[10]:1") < at("switch:1"));
    assert!(svg.contains("sent by a switch"));
}

#[test]
fn no_links_no_picture() {
    assert_eq!(link_bars_svg("t", &[]).unwrap(), None);
}
