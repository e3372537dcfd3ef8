//! The result of a reproduction: tables of rows that lay a published or analytic
//! value next to the emulator's, with the difference and a pass/fail against a stated
//! tolerance; rendered as text or JSON.

use crate::stats::format::{Align, write_aligned};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// How far an emulated value may be from its reference and still pass.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Tolerance {
    /// |emulated − reference| ≤ this fraction of |reference|.
    Relative(f64),
    /// |emulated − reference| ≤ this, in the row's unit.
    Absolute(f64),
    /// emulated ≤ reference × (1 + this): the reference is an upper bound (an
    /// envelope the emulator must stay under).
    AtMost(f64),
    /// emulated ≥ reference × (1 − this): the reference is a lower bound.
    AtLeast(f64),
    /// reference × (1 − below) ≤ emulated ≤ reference × (1 + above): a reference that
    /// leaves out delays which can only lower the emulated value.
    Within {
        /// Fraction allowed below the reference.
        below: f64,
        /// Fraction allowed above the reference.
        above: f64,
    },
}

impl Tolerance {
    /// True if `emulated` is within this tolerance of `reference`.
    pub fn accepts(self, reference: f64, emulated: f64) -> bool {
        let d = emulated - reference;
        if !emulated.is_finite() {
            return false;
        }
        match self {
            Tolerance::Relative(f) => d.abs() <= f * reference.abs() + 1e-12,
            Tolerance::Absolute(a) => d.abs() <= a + 1e-12,
            Tolerance::AtMost(f) => emulated <= reference * (1.0 + f) + 1e-12,
            Tolerance::AtLeast(f) => emulated >= reference * (1.0 - f) - 1e-12,
            Tolerance::Within { below, above } => {
                emulated >= reference * (1.0 - below) - 1e-12
                    && emulated <= reference * (1.0 + above) + 1e-12
            }
        }
    }

    /// The tolerance as the tables print it, e.g. `±5%`, `±2 µs`, `≤ +3%`.
    pub fn label(self, unit: &str) -> String {
        match self {
            Tolerance::Relative(f) => format!("±{}%", pct(f)),
            Tolerance::Absolute(a) => format!("±{} {unit}", num(a)),
            Tolerance::AtMost(f) if f < 0.0 => format!("≤ −{}%", pct(-f)),
            Tolerance::AtMost(f) => format!("≤ +{}%", pct(f)),
            Tolerance::AtLeast(f) if f < 0.0 => format!("≥ +{}%", pct(-f)),
            Tolerance::AtLeast(f) => format!("≥ −{}%", pct(f)),
            Tolerance::Within { below, above } => format!("−{}%/+{}%", pct(below), pct(above)),
        }
    }
}

/// One comparison: a parameter point, the reference value (a number the paper prints,
/// or one computed from its formula), the emulated value and the tolerance. Read back
/// from the JSON form (which spells out more fields) by the validation pages.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    /// The parameter point, e.g. `s=1 uni m=17`.
    pub parameter: String,
    /// The published or analytic value the emulator is compared with.
    pub reference: f64,
    /// Where the reference comes from, e.g. `Table 6.1` or `§6.1.1 eq.`.
    pub source: String,
    /// The value the emulator produced.
    pub emulated: f64,
    /// Unit of both values.
    pub unit: String,
    /// How far apart they may be.
    pub tolerance: Tolerance,
    /// Anything the reader needs to interpret the row (e.g. the paper's rounded value).
    pub note: String,
    /// A row known to miss its tolerance, with the explanation: it is shown as MISS,
    /// and fails the experiment only if it stops missing (then the mark must go).
    #[serde(default)]
    pub expected_miss: Option<String>,
}

impl Row {
    /// A row with no note.
    pub fn new(
        parameter: impl Into<String>,
        reference: f64,
        source: impl Into<String>,
        emulated: f64,
        unit: impl Into<String>,
        tolerance: Tolerance,
    ) -> Row {
        Row {
            parameter: parameter.into(),
            reference,
            source: source.into(),
            emulated,
            unit: unit.into(),
            tolerance,
            note: String::new(),
            expected_miss: None,
        }
    }

    /// Marks the row as a known miss, explained by `why`.
    pub fn expected_miss(mut self, why: impl Into<String>) -> Row {
        self.expected_miss = Some(why.into());
        self
    }

    /// True if the row is as expected: within its tolerance, or a marked miss that
    /// still misses.
    pub fn as_expected(&self) -> bool {
        self.pass() != self.expected_miss.is_some()
    }

    /// "ok", "FAIL", "MISS" (a known miss) or "PASS?" (a marked miss that passes).
    pub fn verdict(&self) -> &'static str {
        match (self.pass(), self.expected_miss.is_some()) {
            (true, false) => "ok",
            (false, false) => "FAIL",
            (false, true) => "MISS",
            (true, true) => "PASS?",
        }
    }

    /// Adds a note.
    pub fn note(mut self, note: impl Into<String>) -> Row {
        self.note = note.into();
        self
    }

    /// emulated − reference, in the unit.
    pub fn difference(&self) -> f64 {
        self.emulated - self.reference
    }

    /// (emulated − reference) / |reference|, or `None` for a zero reference.
    pub fn relative(&self) -> Option<f64> {
        (self.reference != 0.0).then(|| self.difference() / self.reference.abs())
    }

    /// True if the emulated value is within the tolerance.
    pub fn pass(&self) -> bool {
        self.tolerance.accepts(self.reference, self.emulated)
    }

    /// The share of the tolerance the difference uses (> 1 fails); a one-sided bound
    /// counts as 0 when met.
    pub fn tolerance_used(&self) -> f64 {
        let d = self.difference().abs();
        match self.tolerance {
            Tolerance::Relative(f) => d / (f * self.reference.abs()).max(1e-12),
            Tolerance::Absolute(a) => {
                if d == 0.0 {
                    0.0
                } else {
                    d / a.max(1e-12)
                }
            }
            Tolerance::Within { below, above } => {
                let d = self.difference();
                let room = if d < 0.0 { below } else { above };
                d.abs() / (room * self.reference.abs()).max(1e-12)
            }
            Tolerance::AtMost(_) | Tolerance::AtLeast(_) => {
                if self.pass() {
                    0.0
                } else {
                    f64::INFINITY
                }
            }
        }
    }

    /// The difference as printed: relative for relative and bound tolerances, in the
    /// unit for absolute ones.
    pub fn diff_text(&self) -> String {
        match (self.tolerance, self.relative()) {
            (Tolerance::Absolute(_), _) | (_, None) => signed(self.difference()),
            (_, Some(f)) => format!("{:+.2}%", 100.0 * f),
        }
    }
}

/// The forms of an experiment a known miss is marked in: a row can miss in the
/// scaled-down `--quick` form and pass in the full one, or the other way round, so a
/// mark names its forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forms {
    /// Both the `--quick` and the full form.
    Both,
    /// The full form only.
    Full,
    /// The `--quick` form only.
    Quick,
}

impl Forms {
    /// True if a run in the `--quick` form (`quick`) or the full one is among these.
    pub fn include(self, quick: bool) -> bool {
        match self {
            Forms::Both => true,
            Forms::Full => !quick,
            Forms::Quick => quick,
        }
    }
}

/// A known miss written down from a run (never computed from the results): the rows
/// whose parameter starts with `row` miss in `forms`, for the reason `why`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownMiss {
    /// The start of the rows' parameter, e.g. `n-cube 64 systematic: mean delay`.
    pub row: &'static str,
    /// The forms it misses in.
    pub forms: Forms,
    /// The explanation, in numbers.
    pub why: &'static str,
}

/// Marks the rows of `table` that a miss of `misses` names for this form (`quick` or
/// full) as known misses, each with its explanation; the first miss naming a row wins.
pub fn mark_known(table: &mut Table, misses: &[KnownMiss], quick: bool) {
    for row in &mut table.rows {
        if let Some(m) = misses
            .iter()
            .find(|m| m.forms.include(quick) && row.parameter.starts_with(m.row))
        {
            row.expected_miss = Some(m.why.to_string());
        }
    }
}

/// A group of rows about one figure or table of the paper.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Table {
    /// What the table shows.
    pub title: String,
    /// The rows.
    pub rows: Vec<Row>,
    /// Notes printed under the table: set-up, definitions, reasons for differences.
    pub notes: Vec<String>,
}

/// Everything one experiment produced.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Experiment name, e.g. `dslink-bandwidth`.
    pub experiment: String,
    /// Section of the source document it reproduces.
    pub section: String,
    /// The tables.
    pub tables: Vec<Table>,
    /// Measured curves (such as latency against throughput) from which the paper's
    /// figures can be redrawn; written to the JSON only, as CSV text.
    pub curves: Vec<Curve>,
}

/// A measured curve: a CSV table with a header line, for redrawing a figure.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Curve {
    /// The figure it redraws and what it shows, e.g. `Fig. 9(a) R=4: latency vs throughput`.
    pub title: String,
    /// Column names.
    pub columns: Vec<String>,
    /// The points, one row each.
    pub rows: Vec<Vec<f64>>,
}

impl Curve {
    /// The curve as CSV: the header line, then one line per point.
    pub fn csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        // Writing to a Vec cannot fail.
        let _ = w.write_record(&self.columns);
        for r in &self.rows {
            let _ = w.write_record(r.iter().map(|v| format!("{v}")));
        }
        String::from_utf8_lossy(&w.into_inner().unwrap_or_default()).into_owned()
    }
}

impl Report {
    /// Rows that failed, as `(table title, row)`.
    pub fn failures(&self) -> Vec<(&str, &Row)> {
        self.tables
            .iter()
            .flat_map(|t| {
                t.rows
                    .iter()
                    .filter(|r| !r.as_expected())
                    .map(move |r| (t.title.as_str(), r))
            })
            .collect()
    }

    /// Number of rows.
    pub fn row_count(&self) -> usize {
        self.tables.iter().map(|t| t.rows.len()).sum()
    }

    /// One summary line per table: its title, rows passed, rows, and the row that used
    /// the largest share of its tolerance, as "parameter: diff (tolerance)".
    pub fn summary(&self) -> Vec<(String, usize, usize, String)> {
        self.tables
            .iter()
            .map(|t| {
                let worst = t
                    .rows
                    .iter()
                    .max_by(|a, b| a.tolerance_used().total_cmp(&b.tolerance_used()))
                    .map(|r| {
                        format!(
                            "{}: {} ({})",
                            r.parameter,
                            r.diff_text(),
                            r.tolerance.label(&r.unit)
                        )
                    })
                    .unwrap_or_default();
                let passed = t.rows.iter().filter(|r| r.pass()).count();
                (t.title.clone(), passed, t.rows.len(), worst)
            })
            .collect()
    }

    /// The report as text: one aligned table per group, notes under it.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "== {} ({})", self.experiment, self.section);
        for t in &self.tables {
            let _ = writeln!(s, "\n{}", t.title);
            // The verdict column's marks need no heading in text.
            let mut head = COLUMNS;
            head[VERDICT_COLUMN] = "";
            let mut cells: Vec<Vec<String>> = vec![head.map(String::from).to_vec()];
            for r in &t.rows {
                let diff = r.diff_text();
                cells.push(vec![
                    r.parameter.clone(),
                    num(r.reference),
                    r.source.clone(),
                    num(r.emulated),
                    r.unit.clone(),
                    diff,
                    r.tolerance.label(&r.unit),
                    r.verdict().into(),
                    match &r.expected_miss {
                        Some(why) => format!("{} — known miss: {why}", r.note),
                        None => r.note.clone(),
                    },
                ]);
            }
            // Numbers (reference, emulated, difference) on the right, text on the left.
            write_aligned(
                &mut s,
                &cells,
                |c| {
                    if matches!(c, 1 | 3 | 5) {
                        Align::Right
                    } else {
                        Align::Left
                    }
                },
                "  ",
            );
            for n in &t.notes {
                let _ = writeln!(s, "  note: {n}");
            }
        }
        let _ = writeln!(s, "\n{}: {}", self.experiment, self.verdict());
        s
    }

    /// How the experiment went, e.g. `12 of 14 rows pass, 2 known misses` (then
    /// ` — FAILED` if a row is not as expected).
    pub fn verdict(&self) -> String {
        let fails = self.failures().len();
        let rows = || self.tables.iter().flat_map(|t| &t.rows);
        let passed = rows().filter(|r| r.pass()).count();
        let misses = rows().filter(|r| r.verdict() == "MISS").count();
        format!(
            "{} of {} rows pass{}{}",
            passed,
            self.row_count(),
            if misses > 0 {
                format!(
                    ", {misses} known miss{}",
                    if misses == 1 { "" } else { "es" }
                )
            } else {
                String::new()
            },
            if fails > 0 { " — FAILED" } else { "" }
        )
    }
}

/// The `schema` field of the JSON form: its name and version.
pub const SCHEMA: &str = "emu-reproduce/1";

/// The JSON form of a set of reports (one stable schema, with each row's difference and
/// pass/fail spelled out).
pub fn json(reports: &[Report]) -> serde_json::Value {
    let rep: Vec<serde_json::Value> = reports
        .iter()
        .map(|r| {
            let tables: Vec<serde_json::Value> = r
                .tables
                .iter()
                .map(|t| {
                    let rows: Vec<serde_json::Value> = t
                        .rows
                        .iter()
                        .map(|row| {
                            let mut v = serde_json::json!({
                                "parameter": row.parameter,
                                "reference": row.reference,
                                "source": row.source,
                                "emulated": row.emulated,
                                "unit": row.unit,
                                "difference": row.difference(),
                                "relative_difference": row.relative(),
                                "tolerance": row.tolerance,
                                "pass": row.pass(),
                                "note": row.note,
                            });
                            if let Some(why) = &row.expected_miss {
                                v["expected_miss"] = serde_json::Value::String(why.clone());
                            }
                            v
                        })
                        .collect();
                    serde_json::json!({"title": t.title, "rows": rows, "notes": t.notes})
                })
                .collect();
            let mut v = serde_json::json!({
                "experiment": r.experiment,
                "section": r.section,
                "pass": r.failures().is_empty(),
                "tables": tables,
            });
            if !r.curves.is_empty() {
                let curves: Vec<serde_json::Value> = r
                    .curves
                    .iter()
                    .map(|c| serde_json::json!({"title": c.title, "csv": c.csv()}))
                    .collect();
                v["curves"] = serde_json::Value::Array(curves);
            }
            v
        })
        .collect();
    serde_json::json!({
        "schema": SCHEMA,
        "emu_version": env!("CARGO_PKG_VERSION"),
        "reports": rep,
    })
}

fn signed(v: f64) -> String {
    if v >= 0.0 {
        format!("+{}", num(v))
    } else {
        num(v)
    }
}

fn pct(f: f64) -> String {
    num(100.0 * f)
}

/// A number with up to 4 significant decimals, trailing zeros trimmed.
pub fn num(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let digits = if v.abs() >= 1000.0 {
        1
    } else if v.abs() >= 10.0 {
        3
    } else {
        4
    };
    let s = format!("{v:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The columns of an experiment's table, as the text report and the HTML page head
/// them (the text leaves the verdict's heading empty).
pub const COLUMNS: [&str; 9] = [
    "parameter",
    "reference",
    "source",
    "emulated",
    "unit",
    "diff",
    "tolerance",
    "verdict",
    "note",
];

/// The index of the verdict column in [`COLUMNS`].
pub const VERDICT_COLUMN: usize = 7;
