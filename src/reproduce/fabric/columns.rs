//! Gramsamer's strategy tables as data (the printed differences against the Reference,
//! one column per configuration) and what every such experiment does with them: run the
//! columns ([`super::grid`]), lay each printed cell next to the emulated r (±6 points,
//! §7.6.1's significance threshold), check the orderings, and compute the medians and
//! semi-interquartile ranges the document summarises them with (Eq. 7.12).

use super::super::table::{Row, Table, Tolerance};
use super::grid::ColumnResult;
use super::point::Point;
use crate::parts::fabric::Strategy;

/// The order of the rows in Tables 7.7-7.19.
pub const ORDER: [Strategy; 5] = [
    Strategy::Fifo,
    Strategy::Hof,
    Strategy::Lof,
    Strategy::LofCliq,
    Strategy::Rr,
];

/// One printed column: its configuration and its five printed values (None: "—").
#[derive(Clone, Debug)]
pub struct Column {
    /// How the column is named in rows, e.g. "BS=30 M=60% N=8".
    pub label: String,
    /// The configuration (its strategy is replaced per row).
    pub point: Point,
    /// Printed r in %, in [`ORDER`].
    pub printed: [Option<f64>; 5],
}

impl Column {
    /// The printed value of `s`.
    pub fn printed(&self, s: Strategy) -> Option<f64> {
        ORDER
            .iter()
            .position(|&k| k == s)
            .and_then(|i| self.printed[i])
    }
}

/// The cells of every column, as one table.
pub fn cell_table(
    title: &str,
    source: &str,
    columns: &[Column],
    results: &[ColumnResult],
) -> Table {
    let mut t = Table {
        title: title.into(),
        ..Table::default()
    };
    for (c, r) in columns.iter().zip(results) {
        t.rows.extend(super::design_point::cell_rows(
            &c.label,
            |s| c.printed(s),
            source,
            r,
        ));
    }
    t
}

/// Marks the rows of `table` whose parameter is in `cells` as known misses, explained by
/// `why` (a fixed list, written down from a full run, never computed from the results).
pub fn mark_misses(table: &mut Table, cells: &[&str], why: &str) {
    for row in &mut table.rows {
        if cells.contains(&row.parameter.as_str()) {
            *row = row.clone().expected_miss(why);
        }
    }
}

/// The document's quantile convention (reading guide B.10.6, B.10.8): the median is the
/// ⌊(n+1)/2⌋-th smallest value and the quartiles the round(1 + (n − 1)q)-th; returns
/// (median, SIQR = (Q3 − Q1)/2) (Eq. 7.12).
pub fn median_siqr(values: &[f64]) -> (f64, f64) {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let at = |k: usize| v[k.clamp(1, n) - 1];
    let q = |p: f64| at((1.0 + (n as f64 - 1.0) * p).round() as usize);
    (at(n.div_ceil(2)), (q(0.75) - q(0.25)) / 2.0)
}

/// A row checking that the median of `values` lies within the printed median ± the
/// printed SIQR.
pub fn median_row(what: &str, source: &str, values: &[f64], median: f64, siqr: f64) -> Row {
    let (m, s) = median_siqr(values);
    Row::new(
        format!("{what} median"),
        median,
        source,
        m,
        "%",
        Tolerance::Absolute(siqr),
    )
    .note(format!(
        "printed SIQR {siqr}; emulated SIQR {s:.2} over {} values",
        values.len()
    ))
}

/// A claim row: 1 if `holds`.
pub fn claim(what: impl Into<String>, source: &str, holds: bool) -> Row {
    Row::new(
        what,
        1.0,
        source,
        if holds { 1.0 } else { 0.0 },
        "holds",
        Tolerance::Absolute(0.0),
    )
}

/// Per strategy in [`ORDER`], its r in each column.
pub fn ratios(results: &[ColumnResult]) -> Vec<(Strategy, Vec<f64>)> {
    ORDER
        .iter()
        .map(|&s| (s, results.iter().map(|r| r.ratio(s)).collect()))
        .collect()
}

/// The mean of `x`.
pub fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len().max(1) as f64
}
