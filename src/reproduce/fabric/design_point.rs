//! `fabric-design-point`: the five reception-scheduler strategies against the Reference
//! at the design point, Gramsamer §7.6.1, Table 7.6 (Figs. 7.31-7.33): CICQ, RR data-path
//! and output schedulers, relative credit, M = RTT = 64, L = 98 %, bursty uniform
//! traffic with BS = 10 and 30 on N = 8, 16, 32 and BS = 60 on N = 32.
//!
//! Each cell is r = 100 (d_ref − d_x)/d_ref (Eq. 7.10) of the mean system delays, each
//! known to a 90 % half-width of 3 % (§7.6.1), and passes within ±6 points: the
//! document's own threshold for a significant difference ("For non-overlapping
//! confidence intervals the difference of the mean between the Reference and any
//! strategy must be larger than 6%"). The document's orderings are checked per column:
//! HOF worst, LOF or LOF-CLIQ best.

use super::super::ReproduceError;
use super::super::table::{Report, Row, Table, Tolerance};
use super::grid::{ColumnResult, Precision, run_grid};
use super::point::Point;
use crate::parts::fabric::Strategy;

/// Table 7.6's columns: (BS, N).
pub const COLUMNS: [(u32, u32); 7] = [
    (10, 8),
    (10, 16),
    (10, 32),
    (30, 8),
    (30, 16),
    (30, 32),
    (60, 32),
];

/// Table 7.6 as printed, in %: per strategy, one value per column.
pub const PRINTED: [(Strategy, [f64; 7]); 5] = [
    (Strategy::Hof, [-6.0, -7.0, -3.0, -9.0, -15.0, -7.0, -8.0]),
    (Strategy::Lof, [5.0, 5.0, 0.0, 12.0, 10.0, 5.0, 12.0]),
    (Strategy::LofCliq, [5.0, 5.0, 3.0, 11.0, 8.0, 2.0, -1.0]),
    (Strategy::Fifo, [3.0, 1.0, -2.0, 0.0, 1.0, 1.0, -2.0]),
    (Strategy::Rr, [-3.0, -1.0, -1.0, -4.0, -4.0, -2.0, -1.0]),
];

/// The band around a printed percentage: the document's significance threshold.
pub const BAND: f64 = 6.0;

/// The cells of one column as rows (printed value, emulated r, ±`BAND`), with the
/// strategy's delay and replications in the note.
pub fn cell_rows(
    column: &str,
    printed: impl Fn(Strategy) -> Option<f64>,
    source: &str,
    result: &ColumnResult,
) -> Vec<Row> {
    let reference = result.of(Strategy::Reference);
    let mut rows = Vec::new();
    for s in Strategy::ALL.into_iter().skip(1) {
        let Some(p) = printed(s) else { continue };
        let x = result.of(s);
        rows.push(
            Row::new(
                format!("{column} {}", s.label()),
                p,
                source,
                result.ratio(s),
                "%",
                Tolerance::Absolute(BAND),
            )
            .note(format!(
                "r ± {:.1} paired over seeds; d = {:.1} ± {:.1} ({} runs) vs Reference {:.1} ± {:.1} ({} runs)",
                result.paired_half_width(s),
                x.mean_delay,
                x.half_width,
                x.samples.len(),
                reference.mean_delay,
                reference.half_width,
                reference.samples.len()
            )),
        );
    }
    rows
}

/// The document's orderings in one column: HOF worst, LOF or LOF-CLIQ best.
pub fn ordering_rows(column: &str, source: &str, result: &ColumnResult) -> Vec<Row> {
    let r = |s| result.ratio(s);
    let others = [
        Strategy::Fifo,
        Strategy::Rr,
        Strategy::Lof,
        Strategy::LofCliq,
    ];
    let hof_worst = others.iter().all(|&s| r(Strategy::Hof) < r(s));
    let best = r(Strategy::Lof).max(r(Strategy::LofCliq));
    let lof_best = [Strategy::Fifo, Strategy::Rr, Strategy::Hof]
        .iter()
        .all(|&s| best > r(s));
    let claim = |what: &str, holds: bool| {
        Row::new(
            format!("{column}: {what}"),
            1.0,
            source,
            if holds { 1.0 } else { 0.0 },
            "holds",
            Tolerance::Absolute(0.0),
        )
    };
    vec![
        claim("HOF worst", hof_worst),
        claim("LOF or LOF-CLIQ best", lof_best),
    ]
}

/// Runs the experiment; `quick` runs the N = 8, BS = 30 column only.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    // (index in Table 7.6, (BS, N)).
    type Columns = Vec<(usize, (u32, u32))>;
    let (columns, per_crosspoint, precision): (Columns, u64, Precision) = if quick {
        (vec![(3, (30, 8))], 16_000, Precision::DOCUMENT)
    } else {
        (
            COLUMNS.iter().copied().enumerate().collect(),
            16_000,
            Precision::DOCUMENT,
        )
    };
    let points: Vec<Point> = columns
        .iter()
        .map(|&(_, (bs, n))| Point {
            per_crosspoint,
            ..Point::design(n, f64::from(bs), Strategy::Reference)
        })
        .collect();
    let results = run_grid(&points, precision, 1)?;
    let mut cells = Table {
        title: "Table 7.6: performance gain (+) or loss (−) of each strategy against the \
                Reference, r = 100 (d_ref − d_x)/d_ref, M = RTT = 64, L = 98 %"
            .into(),
        ..Table::default()
    };
    let mut order = Table {
        title: "§7.6.1: HOF is worst and LOF or LOF-CLIQ best in every column".into(),
        ..Table::default()
    };
    for (&(k, (bs, n)), result) in columns.iter().zip(&results) {
        let column = format!("BS={bs} N={n}");
        let printed = |s: Strategy| PRINTED.iter().find(|(p, _)| *p == s).map(|(_, v)| v[k]);
        let mut rows = cell_rows(&column, printed, "Table 7.6", result);
        for row in &mut rows {
            if n == 32 && bs >= 30 && row.parameter.ends_with(" HOF") {
                *row = row.clone().expected_miss(
                    "emu's HOF loses about twice what the document prints on 32 ports with long \
                     bursts (−14 and −15 against −7 and −8), while its other strategies and its \
                     HOF on 8 and 16 ports agree; HOF follows the document's rule (highest stored \
                     occupancy first, RR among ties), and the cause of the difference is not found (nine \
                     other readings of the rule measured, see rxs.rs)",
                );
            }
        }
        cells.rows.extend(rows);
        // §7.6.1: "For a system size of N = 32, the RXS makes a significant performance
        // difference for BS = 30 and 60, but not for BS = 10": no ordering to check there.
        if !(n == 32 && bs == 10) {
            order.rows.extend(ordering_rows(&column, "§7.6.1", result));
        }
    }
    order.notes.push(
        "not checked at BS = 10, N = 32, where the document finds no significant difference".into(),
    );
    if quick {
        cells
            .notes
            .push("quick: the N = 8, BS = 30 column only".into());
    }
    cells.notes.push(
        "each strategy's replications stop when the 90 % half-width of its mean delay is \
         within 3 % (Gramsamer §7.6.1), or after 10; replication k of every strategy uses seed k"
            .into(),
    );
    Ok(Report {
        experiment: "fabric-design-point".into(),
        section: "Gramsamer §7.6.1".into(),
        tables: vec![cells, order],
        curves: Vec::new(),
    })
}
