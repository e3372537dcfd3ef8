//! The index page: one table of counts per document (which the project's README
//! carries too), and where the results came from.

use super::input::{DocumentResults, Form, Provenance, Results};
use super::markdown;
use crate::reproduce::table::Report;
use crate::stats::format::{Align, write_markdown};
use std::fmt::Write as _;

/// The index page's file name.
pub const FILE: &str = "index.md";

/// How many experiments and rows, and how the rows came out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Experiments.
    pub experiments: usize,
    /// Rows.
    pub rows: usize,
    /// Rows within their tolerance (and not marked as known misses).
    pub passes: usize,
    /// Rows marked as known misses that still miss.
    pub known_misses: usize,
    /// Rows not as expected: a miss not marked, or a marked miss that now passes.
    pub failures: usize,
}

impl Counts {
    /// The counts of one report.
    pub fn of_report(r: &Report) -> Counts {
        let rows = || r.tables.iter().flat_map(|t| &t.rows);
        Counts {
            experiments: 1,
            rows: r.row_count(),
            passes: rows().filter(|row| row.verdict() == "ok").count(),
            known_misses: rows().filter(|row| row.verdict() == "MISS").count(),
            failures: r.failures().len(),
        }
    }

    /// The counts of a document's reports.
    pub fn of_document(d: &DocumentResults) -> Counts {
        d.reports
            .iter()
            .map(Counts::of_report)
            .fold(Counts::default(), Counts::add)
    }

    fn add(self, o: Counts) -> Counts {
        Counts {
            experiments: self.experiments + o.experiments,
            rows: self.rows + o.rows,
            passes: self.passes + o.passes,
            known_misses: self.known_misses + o.known_misses,
            failures: self.failures + o.failures,
        }
    }

    fn cells(self) -> [String; 5] {
        [
            self.experiments,
            self.rows,
            self.passes,
            self.known_misses,
            self.failures,
        ]
        .map(|n| n.to_string())
    }
}

/// The table of counts: a row per document linking to its page (at `link_prefix` +
/// the page's file name: `""` beside the pages, `book/src/validation/` from the
/// repository's root), and a total row.
pub fn counts_table(results: &Results, link_prefix: &str) -> String {
    let mut rows = Vec::new();
    let mut total = Counts::default();
    for d in &results.documents {
        let c = Counts::of_document(d);
        total = total.add(c);
        let mut row = vec![
            format!(
                "[{}]({link_prefix}{})",
                markdown::text(d.document.name),
                d.document.file
            ),
            markdown::text(d.document.subject),
        ];
        row.extend(c.cells());
        rows.push(row);
    }
    let mut row = vec!["**total**".to_string(), String::new()];
    row.extend(total.cells().map(|c| format!("**{c}**")));
    rows.push(row);
    let mut out = String::new();
    // The counts are numbers; the document and its subject text.
    write_markdown(
        &mut out,
        &[
            "document",
            "subject",
            "experiments",
            "rows",
            "pass",
            "known misses",
            "failures",
        ],
        &rows,
        |c| if c < 2 { Align::Left } else { Align::Right },
    );
    out
}

/// The index page.
pub(super) fn page(results: &Results, provenance: &Provenance) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Validation\n");
    s.push_str(&super::document_page::generated_comment());
    let _ = writeln!(
        s,
        "`emu reproduce` runs experiments that lay the numbers the source documents \
         print (or compute from a formula they print) beside the emulator's, row by row, \
         each with a tolerance. These pages are generated from one stored run (and the experiments run again \
         since, listed below); nothing \
         on them is typed by hand. A row *passes* if the emulated value is within its \
         tolerance; a *known miss* is a row that is known to miss, with the reason \
         written beside it on its page; a *failure* is any other row that misses (or a \
         known miss that has stopped missing). A known miss whose cause is not found \
         is marked *open*.\n"
    );
    s.push_str(&counts_table(results, ""));
    s.push_str(&open_misses(results));
    let names: Vec<&str> = results
        .documents
        .iter()
        .flat_map(|d| &d.reports)
        .map(|r| r.experiment.as_str())
        .collect();
    s.push_str(&super::document_page::provenance(
        &results.emu_version,
        provenance,
        &names,
    ));
    let _ = writeln!(
        s,
        "The stored inputs are `docs/validation/results.json` (the JSON of the command \
         above) and `docs/validation/provenance.toml`. `tools/validation-pages.sh` runs \
         the experiments again and rewrites both and these pages{}; to rewrite only the \
         pages from the stored inputs, run\n\n    {}\n",
        if provenance.form == Form::Full {
            " (the full form takes an hour or more on 2 cores)"
        } else {
            ""
        },
        super::REGENERATE
    );
    s
}

/// The known misses whose explanation starts with "open" (cause not found), named one
/// per line under the counts; nothing if there are none.
fn open_misses(results: &Results) -> String {
    let mut lines = Vec::new();
    for d in &results.documents {
        for r in &d.reports {
            for t in &r.tables {
                for row in &t.rows {
                    if row.verdict() == "MISS"
                        && row
                            .expected_miss
                            .as_deref()
                            .is_some_and(|w| w.starts_with("open"))
                    {
                        lines.push(format!(
                            "- [{}]({}): `{}`: {}",
                            markdown::text(d.document.name),
                            d.document.file,
                            r.experiment,
                            markdown::text(&row.parameter)
                        ));
                    }
                }
            }
        }
    }
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "Open known misses (the cause is not found; what was measured is on the page):\n\n{}\n\n",
        lines.join("\n")
    )
}
