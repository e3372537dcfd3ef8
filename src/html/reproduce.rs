//! The page of `emu reproduce`: each experiment's tables, every row with its
//! reference, emulated value, difference, tolerance and verdict (misses and failures
//! marked), its notes, and its measured curves as CSV.

use super::page::{Page, Table};
use crate::reproduce::Report;
use crate::reproduce::table::num;

/// The page of the experiments `reports` ran, made by `command`.
pub fn reproduce_page(command: &str, reports: &[Report]) -> String {
    let title = match reports {
        [one] => format!("emu reproduce · {}", one.experiment),
        _ => format!("emu reproduce · {} experiments", reports.len()),
    };
    let mut page = Page::new(&title);
    page.command(command);
    page.facts(&[("emu".into(), env!("CARGO_PKG_VERSION").into())]);
    if reports.len() > 1 {
        page.heading(2, "Summary");
        let rows = reports
            .iter()
            .flat_map(|r| {
                r.summary()
                    .into_iter()
                    .map(|(title, passed, rows, worst)| {
                        vec![
                            r.experiment.clone(),
                            format!("{passed}/{rows}"),
                            title,
                            worst,
                        ]
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let mut t = Table::new(
            &["experiment", "pass", "table", "closest to its tolerance"],
            rows,
            usize::MAX,
        );
        t.numeric[1] = true;
        page.table(&t);
    }
    for r in reports {
        page.heading(2, &format!("{} ({})", r.experiment, r.section));
        let fails = r.failures().len();
        let verdict = r.verdict();
        page.note(if fails > 0 { "error" } else { "cmd" }, &verdict);
        for t in &r.tables {
            page.heading(3, &t.title);
            page.table(&rows_table(t));
            for n in &t.notes {
                page.paragraph(&format!("note: {n}"));
            }
        }
        for c in &r.curves {
            page.folded_pre(&format!("curve: {} (CSV)", c.title), &c.csv());
        }
    }
    page.finish()
}

/// One experiment table: a row per comparison, misses and failures marked.
fn rows_table(t: &crate::reproduce::Table) -> Table {
    let mut table = Table::new(&crate::reproduce::table::COLUMNS, Vec::new(), usize::MAX);
    for c in [1, 3, 5] {
        table.numeric[c] = true;
    }
    table.wrap_last = true;
    table.rows = t
        .rows
        .iter()
        .map(|r| {
            let class = match r.verdict() {
                "ok" => None,
                "MISS" => Some("miss"),
                _ => Some("fail"),
            };
            let note = match &r.expected_miss {
                Some(why) => format!("{} — known miss: {why}", r.note),
                None => r.note.clone(),
            };
            (
                class,
                vec![
                    r.parameter.clone(),
                    num(r.reference),
                    r.source.clone(),
                    num(r.emulated),
                    r.unit.clone(),
                    r.diff_text(),
                    r.tolerance.label(&r.unit),
                    r.verdict().into(),
                    note,
                ],
            )
        })
        .collect();
    table
}
