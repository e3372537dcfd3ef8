//! Every picture of one run, as `--plot` writes them and `--report` inlines them.

use super::{PlotError, heatmap, link_bars, links_map, percentiles, terminals};
use crate::engine::RunOutcome;
use crate::model::LinkProtocol;
use crate::network::Network;
use crate::stats::Report;
use crate::terminal::TerminalStats;

/// The run's pictures as (file name, SVG text), in the order `--plot` lists them: the
/// latency percentile distributions its family records (`metrics`, of "message",
/// "network" and "source_queue": `latency-message.svg`, …), `terminals.svg`
/// (throughput per terminal) and, where the report has link utilisation, `links.svg`
/// (each link direction coloured on `net` in its natural layout; for a netlist a heat
/// map of the switch-to-switch links; one bar per link direction as a last resort).
pub fn run_plots<P: LinkProtocol>(
    report: &Report,
    outcome: &RunOutcome,
    metrics: &[&str],
    net: &Network<P>,
) -> Result<Vec<(String, String)>, PlotError> {
    let name = format!("{} · {}", report.topology.name, report.traffic.name);
    let total = TerminalStats::total(&outcome.terminals);
    let unit = report.run.delay_unit_ticks as f64;
    let mut files = Vec::new();
    for (file, what, metric) in [
        ("message", "message latency", &total.message_latency),
        ("network", "network latency", &total.network_latency),
        ("source_queue", "source queueing", &total.source_queueing),
    ] {
        if !metrics.contains(&file) {
            continue;
        }
        let title = format!("{what} · {name}");
        let svg = percentiles::percentile_svg(&title, metric, unit, report.run.delay_unit_name)?;
        files.push((format!("latency-{file}.svg"), svg));
    }
    let title = format!("given and asked per source · {name}");
    files.push((
        "terminals.svg".into(),
        terminals::terminals_svg(&title, report)?,
    ));
    if let Some(links) = &report.links {
        let title = format!("link utilisation · {name}");
        let mut svg = links_map::links_map_svg(&title, net, links)?;
        if svg.is_none() {
            svg = heatmap::heatmap_svg(&title, links)?;
        }
        if svg.is_none() {
            svg = link_bars::link_bars_svg(&title, links)?;
        }
        if let Some(svg) = svg {
            files.push(("links.svg".into(), svg));
        }
    }
    Ok(files)
}
