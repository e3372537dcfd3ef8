//! `fabric-memory`: the impact of crosspoint memory, Gramsamer §7.6.2, Tables 7.7 and 7.9
//! (Figs. 7.34-7.37): the strategies against the Reference at M = 60 % and 100 % of
//! RTT = 64 (38 and 64 packets), N = 8, 16, 32, BS = 10, 30, 60, L = 98 %.
//!
//! Rows: every printed cell of Table 7.7 (±6 points); Table 7.9's LOF and LOF-CLIQ medians
//! over the six (BS, M) averages, within the printed SIQR; the ordering ("HOF strategy
//! delivers the worst performance … followed by RR and the Reference. Better than these
//! are FIFO, followed by LOF-CLIQ. The best results are achieved by the LOF strategy"),
//! checked on the strategies' means over all cells; and "For the good delay that the LOF
//! strategy achieves at M = 100% RTT, the Reference requires roughly twice the memory
//! size", checked at N = 16, BS = 30 as: the Reference at 1.5 RTT is still slower than LOF
//! at RTT, and at 2.5 RTT it is not.
//!
//! Table 7.7's M = 100 % columns are the design point of Table 7.6; they agree except RR at
//! BS = 10, N = 8 (−3 there, +3 here: a misprint in one of the two; emu compares with
//! Table 7.6's −3 in both, and says so in the row's note).

use super::super::ReproduceError;
use super::super::table::{Report, Row, Table, Tolerance};
use super::columns::{Column, cell_table, claim, mark_misses, mean, median_row, ratios};
use super::grid::{Precision, run_grid};
use super::point::{Point, replicate_all};
use crate::parts::fabric::Strategy;

/// Table 7.7 as printed: (BS, M in % of RTT, N) → [FIFO, HOF, LOF, LOF-CLIQ, RR].
const PRINTED: [((u32, u32, u32), [f64; 5]); 17] = [
    ((10, 60, 8), [2.0, -14.0, 9.0, 13.0, -5.0]),
    ((10, 60, 16), [1.0, -13.0, 11.0, 14.0, -2.0]),
    ((10, 60, 32), [-1.0, -7.0, 2.0, 3.0, -2.0]),
    ((10, 100, 8), [3.0, -6.0, 5.0, 5.0, -3.0]),
    ((10, 100, 16), [1.0, -7.0, 5.0, 5.0, -1.0]),
    ((10, 100, 32), [-2.0, -3.0, 0.0, 3.0, -1.0]),
    ((30, 60, 8), [-1.0, -10.0, 16.0, 17.0, -4.0]),
    ((30, 60, 16), [1.0, -15.0, 15.0, 13.0, -5.0]),
    ((30, 60, 32), [1.0, -7.0, 13.0, 9.0, -1.0]),
    ((30, 100, 8), [0.0, -9.0, 12.0, 11.0, -4.0]),
    ((30, 100, 16), [1.0, -15.0, 10.0, 8.0, -4.0]),
    ((30, 100, 32), [1.0, -7.0, 5.0, 2.0, -2.0]),
    ((60, 60, 8), [-2.0, -9.0, 13.0, 15.0, -4.0]),
    ((60, 60, 16), [3.0, -12.0, 14.0, 13.0, -4.0]),
    ((60, 100, 8), [-1.0, -11.0, 10.0, 11.0, -5.0]),
    ((60, 100, 16), [3.0, -10.0, 12.0, 9.0, -2.0]),
    ((60, 100, 32), [-2.0, -8.0, 12.0, -1.0, -1.0]),
];

/// M in packets for a percentage of RTT = 64, rounded as §7.6.2 prints (60 % → 38).
fn memory(pct: u32) -> u32 {
    (f64::from(pct) / 100.0 * 64.0).round() as u32
}

/// Runs the experiment; `quick` runs the N = 8, BS = 30 columns at both memories.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let columns: Vec<Column> = PRINTED
        .iter()
        .filter(|((bs, _, n), _)| !quick || (*bs == 30 && *n == 8))
        .map(|&((bs, pct, n), v)| Column {
            label: format!("BS={bs} M={pct}% N={n}"),
            point: Point {
                memory: memory(pct),
                ..Point::design(n, f64::from(bs), Strategy::Reference)
            },
            printed: v.map(Some),
        })
        .collect();
    let results = run_grid(
        &columns.iter().map(|c| c.point.clone()).collect::<Vec<_>>(),
        Precision::DOCUMENT,
        1,
    )?;
    let mut cells = cell_table(
        "Table 7.7: r against the Reference at M = 60 % and 100 % of RTT = 64, L = 98 %",
        "Table 7.7",
        &columns,
        &results,
    );
    mark_misses(
        &mut cells,
        &[
            "BS=30 M=60% N=32 HOF",
            "BS=30 M=100% N=32 HOF",
            "BS=60 M=100% N=32 HOF",
        ],
        "emu's HOF loses about twice what the document prints on 32 ports with long bursts \
         (−19, −14, −15 against −7, −7, −8), as in Table 7.6; its HOF on 8 and 16 ports and \
         the other strategies agree; HOF follows the document's rule and the cause is not found \
         (nine other readings of the rule measured, see rxs.rs)",
    );
    mark_misses(
        &mut cells,
        &["BS=10 M=60% N=16 LOF", "BS=10 M=60% N=16 LOF-CLIQ"],
        "emu's LOF and LOF-CLIQ gain 4.6 and 4.4 % here against the printed 11 and 14, while the \
         same memory and burst size on 8 ports (9.1, 10.1 against 9, 13) and on 32 (1.0, 0.7 \
         against 2, 3) agree: the document's 16-port gain stands out of its own trend with N, \
         emu's does not",
    );
    for row in &mut cells.rows {
        if row.parameter == "BS=10 M=100% N=8 RR" {
            row.note = format!(
                "Table 7.7 prints +3 and Table 7.6 −3 for this cell; compared with −3. {}",
                row.note
            );
        }
    }
    let mut summary = Table {
        title: "Tables 7.7/7.9 summarised: medians over the (BS, M) averages, and the ordering"
            .into(),
        ..Table::default()
    };
    let r = ratios(&results);
    let of = |s: Strategy| &r.iter().find(|(k, _)| *k == s).expect("strategy").1;
    if !quick {
        // Table 7.9: per (BS, M), the average over N.
        let averaged = |s: Strategy| -> Vec<f64> {
            let mut v = Vec::new();
            for bs in [10, 30, 60] {
                for pct in [60, 100] {
                    let cells: Vec<f64> = columns
                        .iter()
                        .zip(of(s))
                        .filter(|(c, _)| c.label.starts_with(&format!("BS={bs} M={pct}% ")))
                        .map(|(_, &x)| x)
                        .collect();
                    v.push(mean(&cells));
                }
            }
            v
        };
        summary.rows.push(median_row(
            "LOF over Table 7.9",
            "§7.6.2",
            &averaged(Strategy::Lof),
            8.4,
            2.1,
        ));
        summary.rows.push(median_row(
            "LOF-CLIQ over Table 7.9",
            "§7.6.2",
            &averaged(Strategy::LofCliq),
            6.4,
            2.35,
        ));
    }
    let m = |s| mean(of(s));
    summary.rows.push(claim(
        format!(
            "mean r: HOF {:.1} < RR {:.1} < FIFO {:.1}",
            m(Strategy::Hof),
            m(Strategy::Rr),
            m(Strategy::Fifo)
        ),
        "§7.6.2",
        m(Strategy::Hof) < m(Strategy::Rr) && m(Strategy::Rr) < m(Strategy::Fifo),
    ));
    summary.rows.push(claim(
        format!(
            "mean r: FIFO {:.1} < LOF-CLIQ {:.1} and LOF {:.1}",
            m(Strategy::Fifo),
            m(Strategy::LofCliq),
            m(Strategy::Lof)
        ),
        "§7.6.2",
        m(Strategy::Fifo) < m(Strategy::LofCliq) && m(Strategy::Fifo) < m(Strategy::Lof),
    ));
    summary.rows.extend(twice_the_memory(quick)?);
    Ok(Report {
        experiment: "fabric-memory".into(),
        section: "Gramsamer §7.6.2".into(),
        tables: vec![cells, summary],
        curves: Vec::new(),
    })
}

/// "the Reference requires roughly twice the memory size" of LOF at M = RTT: N = 16
/// (quick: 8), BS = 30.
fn twice_the_memory(quick: bool) -> Result<Vec<Row>, ReproduceError> {
    let n = if quick { 8 } else { 16 };
    let at = |strategy, memory| Point {
        memory,
        ..Point::design(n, 30.0, strategy)
    };
    let points = [
        at(Strategy::Lof, 64),
        at(Strategy::Reference, 96),
        at(Strategy::Reference, 128),
        at(Strategy::Reference, 160),
    ];
    let d: Vec<f64> = replicate_all(&points, 3)?
        .iter()
        .map(|r| r.mean_delay)
        .collect();
    let (lof, ref96, ref128, ref160) = (d[0], d[1], d[2], d[3]);
    Ok(vec![
        claim(
            format!("N={n}: Reference at M = 96 ({ref96:.0}) slower than LOF at M = 64 ({lof:.0})"),
            "§7.6.2",
            ref96 > lof,
        ),
        claim(
            format!("N={n}: Reference at M = 160 ({ref160:.0}) no slower than LOF at M = 64"),
            "§7.6.2",
            ref160 <= lof,
        ),
        Row::new(
            format!("N={n}: Reference delay at M = 128 against LOF's at M = 64"),
            lof,
            "§7.6.2",
            ref128,
            "cycles",
            Tolerance::Relative(0.06),
        )
        .note("\"roughly twice the memory\"; 3 runs each, BS = 30"),
    ])
}
