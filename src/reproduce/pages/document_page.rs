//! One document's page: where the results came from, then every experiment about the
//! document with every row of every table, its notes and its known misses in full.

use super::index::Counts;
use super::input::{DocumentResults, Form, Provenance};
use super::markdown;
use crate::reproduce::table::{COLUMNS, Report, Row, Table, num};
use crate::stats::format::{Align, write_markdown};
use std::fmt::Write as _;

/// The comment at the top of every page that says it is generated.
pub(super) fn generated_comment() -> String {
    format!(
        "<!-- Generated from docs/validation/results.json and provenance.toml by \
         tools/validation-pages.sh or `{}`. Do not edit. -->\n\n",
        super::REGENERATE
    )
}

/// The section "Where these results come from", with the wall time of the
/// experiments named (all of them on the index).
pub(super) fn provenance(emu_version: &str, p: &Provenance, names: &[&str]) -> String {
    let mut s = String::from("## Where these results come from\n\n");
    let _ = writeln!(s, "- emu version: {}", markdown::text(emu_version));
    let _ = writeln!(s, "- commit: `{}`", p.commit);
    let _ = writeln!(s, "- date: {}", markdown::text(&p.date));
    let _ = writeln!(
        s,
        "- command: `{}`, {}",
        p.command,
        match p.form {
            Form::Full => "the full form",
            Form::Quick =>
                "the **quick** form (`--quick`: fewer points and shorter runs than the \
                 full form; these are not the full results)",
        }
    );
    let cores = p
        .cores
        .map(|n| format!(", {n} logical cores"))
        .unwrap_or_default();
    let _ = writeln!(s, "- machine: {}{cores}", markdown::text(&p.cpu));
    let _ = writeln!(
        s,
        "- wall time, its experiments' summed: {}",
        wall_time(p, names)
    );
    for r in p
        .rerun
        .iter()
        .filter(|r| r.experiments.iter().any(|e| names.contains(&e.as_str())))
    {
        let _ = writeln!(
            s,
            "- run again: {} at commit `{}`, {} (`{}`), their reports replacing the run's",
            r.experiments
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(", "),
            r.commit,
            markdown::text(&r.date),
            r.command
        );
    }
    s.push('\n');
    s
}

/// The wall time line of a set of experiments.
fn wall_time(p: &Provenance, names: &[&str]) -> String {
    let known: Vec<f64> = names.iter().filter_map(|n| p.wall_time(n)).collect();
    if known.is_empty() {
        return "not recorded".into();
    }
    let total: f64 = known.iter().sum();
    let mut s = format!("{total:.1} s");
    if total >= 120.0 {
        let _ = write!(s, " ({:.0} min)", total / 60.0);
    }
    if known.len() < names.len() {
        s.push_str(" (not recorded for every experiment)");
    }
    s
}

/// The page of one document.
pub(super) fn page(d: &DocumentResults, emu_version: &str, p: &Provenance) -> String {
    let doc = d.document;
    let mut s = format!("# {}\n\n", markdown::text(doc.title));
    s.push_str(&generated_comment());
    let _ = writeln!(s, "{}\n", doc.about);
    let _ = writeln!(s, "[All documents: the validation index](index.md)\n");
    if d.reports.is_empty() {
        let _ = writeln!(
            s,
            "## No experiment reproduces a number of {name}\n\n\
             No experiment of `emu reproduce` reproduces a number of {name}: the stored run \
             (commit `{}`, {}) has no report whose section names {name}.\n",
            p.commit,
            markdown::text(&p.date),
            name = doc.name,
        );
        if !doc.checked_elsewhere.is_empty() {
            let _ = writeln!(s, "{}\n", doc.checked_elsewhere);
        }
        return s;
    }
    let names: Vec<&str> = d.reports.iter().map(|r| r.experiment.as_str()).collect();
    s.push_str(&provenance(emu_version, p, &names));
    let c = Counts::of_document(d);
    let count =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let _ = writeln!(
        s,
        "**{}, {}: {} pass, {}, {}.**\n",
        count(c.experiments, "experiment", "experiments"),
        count(c.rows, "row", "rows"),
        c.passes,
        count(c.known_misses, "known miss", "known misses"),
        count(c.failures, "failure", "failures")
    );
    let _ = writeln!(
        s,
        "In each table, *reference* is the number the document prints or one computed \
         from its formula (*source* says which), *diff* is emulated − reference (relative \
         for relative and one-sided tolerances), and *tolerance* is how far apart they \
         may be. A known miss is explained in full under its table.\n"
    );
    for r in &d.reports {
        experiment(&mut s, r, p);
    }
    s
}

/// One experiment: its heading, sections, wall time and tables.
fn experiment(s: &mut String, r: &Report, p: &Provenance) {
    let _ = writeln!(s, "## {}\n", markdown::text(&r.experiment));
    let _ = writeln!(s, "- sections: {}", markdown::text(&r.section));
    if let Some(e) = crate::reproduce::find(&r.experiment) {
        let _ = writeln!(s, "- what it shows: {}", markdown::text(e.about));
    }
    let _ = writeln!(s, "- wall time: {}", wall_time(p, &[&r.experiment]));
    let _ = writeln!(s, "- result: {}\n", markdown::text(&r.verdict()));
    for t in &r.tables {
        table(s, t);
    }
}

/// The verdict cell of a row; `miss` numbers a known miss in the list under the table.
fn verdict(row: &Row, miss: usize) -> String {
    match row.verdict() {
        "ok" => "pass".into(),
        "MISS" => format!("**MISS** (known, {miss})"),
        "FAIL" => "**FAIL**".into(),
        _ => format!("**FAIL** (a known miss that passes, {miss})"),
    }
}

/// One table: every row, then its notes, then its known misses in full.
fn table(s: &mut String, t: &Table) {
    let _ = writeln!(s, "### {}\n", markdown::text(&t.title));
    let mut misses: Vec<&Row> = Vec::new();
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|row| {
            if row.expected_miss.is_some() {
                misses.push(row);
            }
            vec![
                markdown::text(&row.parameter),
                num(row.reference),
                markdown::text(&row.source),
                num(row.emulated),
                markdown::text(&row.unit),
                row.diff_text(),
                markdown::text(&row.tolerance.label(&row.unit)),
                verdict(row, misses.len()),
                markdown::text(&row.note),
            ]
        })
        .collect();
    // Reference, emulated and diff are numbers.
    write_markdown(s, &COLUMNS, &rows, |c| {
        if matches!(c, 1 | 3 | 5) {
            Align::Right
        } else {
            Align::Left
        }
    });
    if !t.notes.is_empty() {
        let _ = writeln!(s, "Notes:\n");
        for n in &t.notes {
            let _ = writeln!(s, "- {}", markdown::text(n));
        }
        s.push('\n');
    }
    if !misses.is_empty() {
        let _ = writeln!(s, "Known misses:\n");
        for (i, row) in misses.iter().enumerate() {
            let _ = writeln!(
                s,
                "{}. **{}** ({}): {}",
                i + 1,
                markdown::text(&row.parameter),
                markdown::text(&row.source),
                markdown::text(row.expected_miss.as_deref().unwrap_or_default())
            );
        }
        s.push('\n');
    }
}
