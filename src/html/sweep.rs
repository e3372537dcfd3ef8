//! The page of a load sweep: the command, the table (as `emu sweep` prints it) with
//! its saturation line, and the load–throughput and load–delay curves.

use super::page::Page;
use crate::sweep::Header;
use crate::sweep::table::{Row, Saturation, render};

/// The page of a whole sweep (run here, or merged from shards): `command` (the command
/// line that made it), the table of `rows` with the saturation point `sat`, and the
/// pictures `plots` (file name, SVG text).
pub fn sweep_page(
    command: &str,
    header: &Header,
    rows: &[Row],
    sat: &Saturation,
    plots: &[(String, String)],
) -> String {
    let mut page = Page::new(&format!(
        "emu sweep · {} · {}",
        header.topology, header.traffic
    ));
    page.command(command);
    page.facts(&[
        ("topology".into(), header.topology.clone()),
        ("traffic".into(), header.traffic.clone()),
        (
            "runs".into(),
            format!(
                "{} × {} (from seed {}), each a single-threaded run with \
                 Bernoulli arrivals at that load",
                crate::text::count(header.loads.len() as u64, "load", "loads"),
                crate::text::count(header.seeds.into(), "seed", "seeds"),
                header.seed
            ),
        ),
        ("delays in".into(), header.delay_unit.clone()),
        ("emu".into(), env!("CARGO_PKG_VERSION").into()),
    ]);
    page.heading(2, "Table");
    page.pre_wrapped(&render(&header.title(), rows, sat, &header.delay_unit));
    if !plots.is_empty() {
        page.heading(2, "Curves");
        let wide: Vec<&str> = plots.iter().map(|(n, _)| n.as_str()).collect();
        page.figures(plots, &wide);
    }
    page.finish()
}
