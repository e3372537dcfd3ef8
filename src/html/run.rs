//! The page of one run: its header, the text report's summary, latency and journey
//! tables and family sections, its pictures and a sortable per-terminal table; or,
//! when the run failed, the explanation (a deadlock's wait-for cycle and stuck nodes)
//! with a slot for a picture of it.

use super::page::{Page, Table};
use crate::stats::Report;
use crate::stats::format::fixed;

/// What the page says about how the run was made: nothing that varies between runs
/// of the same input (no date, no wall time, no engine or thread count: the page is
/// the same bytes whichever engine and how many threads ran it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunHeader {
    /// emu's version.
    pub emu_version: String,
    /// The command line that reproduces the run.
    pub command: String,
    /// The topology's name (file stem).
    pub topology: String,
    /// The traffic's name (file stem).
    pub traffic: String,
    /// The run seed.
    pub seed: u64,
}

impl RunHeader {
    fn write(&self, page: &mut Page) {
        page.command(&self.command);
        page.facts(&[
            ("topology".into(), self.topology.clone()),
            ("traffic".into(), self.traffic.clone()),
            ("seed".into(), self.seed.to_string()),
            ("emu".into(), self.emu_version.clone()),
        ]);
    }
}

/// The page of a finished run: `header`, then the report's summary lines, warnings,
/// latency table, journey, per-node and family tables (as the text report gives them),
/// the per-terminal throughput table, sortable by a click on a column header, and the
/// pictures `plots` (file name, SVG text: what `--plot` writes).
pub fn run_page(header: &RunHeader, report: &Report, plots: &[(String, String)]) -> String {
    let mut page = Page::new(&format!(
        "emu · {} · {}",
        report.topology.name, report.traffic.name
    ));
    header.write(&mut page);
    page.heading(2, "Summary");
    let lines: Vec<(String, String)> = report
        .header_lines(None)
        .into_iter()
        .map(|(label, text)| (label.to_string(), text))
        .collect();
    page.facts(&lines);
    for w in report.warnings() {
        page.note("warn", &format!("WARNING: {w}"));
    }
    page.heading(2, "Latency");
    let rows = report.latency_rows();
    if let Some((head, body)) = rows.split_first() {
        let head: Vec<&str> = head.iter().map(String::as_str).collect();
        page.table(&Table::new(&head, body.to_vec(), 2));
    }
    let tables = report.section_tables();
    if !tables.is_empty() {
        page.heading(2, "Where the time went, per node and per port");
        for t in &tables {
            page.pre(t);
        }
    }
    page.heading(2, "Per terminal");
    page.paragraph(
        "Throughput of each terminal, % of link data capacity over the measured span: \
         delivered to it, offered (created) at it, and sent by it into the network. \
         Click a column header to sort.",
    );
    page.table(&terminal_table(report));
    if !plots.is_empty() {
        page.heading(2, "Pictures");
        page.figures(plots, &["links.svg"]);
    }
    page.finish()
}

/// One row per terminal, in label order.
fn terminal_table(report: &Report) -> Table {
    let t = &report.terminals;
    let rows = (0..t.delivered_pct.len())
        .map(|i| {
            let pct = |v: &[f64]| v.get(i).map_or("-".to_string(), |x| fixed(*x, 2));
            vec![
                i.to_string(),
                pct(&t.delivered_pct),
                pct(&t.offered_pct),
                pct(&t.sent_pct),
            ]
        })
        .collect();
    let mut table = Table::new(&["terminal", "delivered %", "offered %", "sent %"], rows, 0);
    table.sortable = true;
    table.tall = true;
    table
}

/// Why a run failed, as the command line prints it on stderr.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FailureText {
    /// What the page calls the failure ("Deadlock", "Run failed", …).
    pub title: String,
    /// The error line, without `error: `.
    pub headline: String,
    /// A deadlock's wait-for cycle: the line that introduces it and its places, one a
    /// line (the last says where the cycle started); `None` otherwise.
    pub cycle: Option<(String, Vec<String>)>,
    /// A deadlock's stuck nodes: the line that introduces them and their waits, one a
    /// line (`c104[0] port 0: …`); `None` otherwise.
    pub stuck: Option<(String, Vec<String>)>,
    /// The command line that reproduces the failure.
    pub reproduce: String,
}

/// The page of a run that did not finish: `header`, then the failure as `failure`
/// tells it, and `deadlock_svg`, a picture of the deadlock, if one is given.
pub fn failure_page(
    header: &RunHeader,
    failure: &FailureText,
    deadlock_svg: Option<String>,
) -> String {
    let mut page = Page::new(&format!(
        "emu · {} · {} · {}",
        header.topology,
        header.traffic,
        failure.title.to_lowercase()
    ));
    header.write(&mut page);
    page.heading(2, &failure.title);
    page.note("error", &failure.headline);
    if let Some((intro, places)) = &failure.cycle {
        page.heading(3, intro);
        if !places.is_empty() {
            page.pre(&places.join("\n"));
        }
    }
    if let Some(svg) = deadlock_svg {
        page.figures(&[("deadlock.svg".to_string(), svg)], &["deadlock.svg"]);
    }
    if let Some((intro, waits)) = &failure.stuck {
        page.heading(3, intro);
        page.pre(&waits.join("\n"));
    }
    page.heading(3, "reproduce with");
    page.command(&failure.reproduce);
    page.finish()
}
