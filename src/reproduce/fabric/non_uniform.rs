//! `fabric-non-uniform`: non-uniform destinations, Gramsamer §7.6.4, Tables 7.14, 7.18,
//! 7.19 (Figs. 7.42-7.49): input i favours output i with unbalance w (Eq. 2.2), w = 0.6
//! and 0.8, on N = 8 and 32, RTT = 4 and 64, Bernoulli traffic (BS = 1) with M = 100 % RTT
//! and bursty traffic (BS = 10) with M = 200 % RTT.
//!
//! The document does not restate the load for this section; emu uses its default,
//! L = 98 %. Run lengths as §7.6.4 gives them: 16,000 packets per crosspoint on N = 8 and
//! 3,000 on N = 32, each strategy replicated until its mean delay is within 2 % at 90 %.
//!
//! Rows: every cell of Table 7.14 (±6 points), and the medians of Tables 7.18-7.19 (the
//! cells averaged over N) for HOF (−4, SIQR 3) and LOF-CLIQ (−2, SIQR 1), within the
//! printed SIQR.
//!
//! **Readings of the CLIQ update, measured and not adopted** (2026-11-29). Each was
//! switched in by a temporary build (not shipped) and run as `emu reproduce
//! fabric-non-uniform` (full form) and `--quick` (BS = 1, RTT = 4, w = 0.8, N = 8 only).
//! HOF is untouched by them (median −10.97 in every run).
//!
//! | reading | LOF-CLIQ median (−2 ± 1) | quick cell | rows passing |
//! |---|---|---|---|
//! | as shipped: bits written at the packet's arrival, non-empty changes queued | −0.64 | −0.14 | 69/82 |
//! | only the previous cycle's non-empty change rides, else it is lost (no idle cells) | −0.65 | −0.14 | 69/82 |
//! | one register for the non-empty change, the latest wins | — | −0.14 | — |
//! | the fallback LOF does not move the selection pointer | — | −0.14 | — |
//! | bits written when the packet leaves its crosspoint | −1.10 | −0.68 | 66/82 |
//!
//! The last moves the median into the band but takes the four BS = 10, RTT = 64 LOF-CLIQ
//! cells out of theirs (−24.6, −20.2, −23.1, −20.5 against −11, −7, −14, −5), and the
//! text says the vector is "only written by arriving packets" (§7.5).

use super::super::ReproduceError;
use super::super::table::{Report, Table};
use super::columns::{Column, ORDER, cell_table, mark_misses, mean, median_row, ratios};
use super::grid::{Precision, run_grid};
use super::point::{Pattern, Point};
use crate::parts::fabric::Strategy;

/// Table 7.14: ((BS, RTT), per strategy in [`ORDER`]: w=0.6 N=8, w=0.6 N=32, w=0.8 N=8,
/// w=0.8 N=32).
/// One block of Table 7.14: (BS, RTT) and its five rows of four cells.
type Block = ((u32, u32), [[f64; 4]; 5]);

const PRINTED: [Block; 4] = [
    (
        (1, 4),
        [
            [-30.0, -28.0, -42.0, -40.0],
            [-8.0, -6.0, -26.0, -23.0],
            [-44.0, -44.0, -48.0, -47.0],
            [-3.0, -1.0, -2.0, 0.0],
            [-46.0, -45.0, -51.0, -50.0],
        ],
    ),
    (
        (1, 64),
        [
            [-5.0, -5.0, -20.0, -18.0],
            [1.0, 0.0, -1.0, 0.0],
            [-20.0, -15.0, -36.0, -40.0],
            [-3.0, -3.0, -1.0, -1.0],
            [-15.0, -16.0, -36.0, -40.0],
        ],
    ),
    (
        (10, 4),
        [
            [-9.0, -9.0, -6.0, -8.0],
            [-6.0, -7.0, -4.0, -4.0],
            [-8.0, -9.0, -7.0, -6.0],
            [1.0, 0.0, -1.0, -1.0],
            [-11.0, -13.0, -7.0, -8.0],
        ],
    ),
    (
        (10, 64),
        [
            [-22.0, -14.0, -21.0, -22.0],
            [-3.0, -1.0, 0.0, 2.0],
            [-35.0, -33.0, -24.0, -21.0],
            [-11.0, -7.0, -14.0, -5.0],
            [-35.0, -33.0, -25.0, -24.0],
        ],
    ),
];

/// Cells where emu's HOF loses much more than the document's (2026-11-24 full run).
const HOF_MISSES: [&str; 6] = [
    "BS=1 RTT=4 w=0.6 N=8 HOF",
    "BS=1 RTT=4 w=0.6 N=32 HOF",
    "BS=1 RTT=4 w=0.8 N=8 HOF",
    "BS=1 RTT=4 w=0.8 N=32 HOF",
    "BS=10 RTT=64 w=0.8 N=8 HOF",
    "BS=10 RTT=64 w=0.8 N=32 HOF",
];

const HOF_WHY: &str = "emu's HOF loses much more than the document's where links are short \
    (M = 4) or memory is 2·RTT with bursts (−34 to −48 against −6 to −26; −12 against 0), \
    as on 32 ports at the design point (Table 7.6); the other strategies agree within the \
    band in most cells, and HOF follows the document's rule; the cause is not found: of nine \
    other readings of HOF's tie rule and occupancy measured (rxs.rs), the best passes 15 of the \
    17 HOF rows but breaks LOF cells here and a Table 7.11 cell";

/// Cells just outside the band (2026-11-24 full run).
const OTHER_MISSES: [&str; 5] = [
    "BS=1 RTT=4 w=0.6 N=8 LOF",
    "BS=1 RTT=4 w=0.6 N=32 LOF",
    "BS=1 RTT=64 w=0.8 N=8 LOF",
    "BS=1 RTT=64 w=0.8 N=8 RR",
    "BS=10 RTT=64 w=0.8 N=32 LOF",
];

const OTHER_WHY: &str = "0.7 to 2.5 points outside the ±6 band, on the losing side: at \
    RTT = 4 with Bernoulli traffic at 98 % the fabric is past saturation (delays of 4,000 to \
    8,500 cycles that grow with the run), so those cells depend on the run length, which the \
    document gives only as a packet count; at RTT = 64, w = 0.8, N = 8 the paired interval of \
    r is ±5.5 points after 10 runs (delays near the 34-cycle minimum vary little, their \
    differences a lot)";

/// Why the HOF median of Tables 7.18-7.19 misses (open: the cells it follows from are).
const HOF_MEDIAN_WHY: &str = "open; it follows from the HOF cells above: the median is the \
    4th of the 8 (BS, RTT, w) cells averaged over N (the document's convention, which gives \
    its −4 from its own cells), and emu's HOF is lower than the printed one in all 16 \
    cells (by 0.05 to 28 points), most in the six marked ones. With the printed values in \
    place of emu's in those six cells, emu's median would be −7.0, inside −4 ± 3 by 0.03 \
    (full form, commit d922c43). Run with the Reference and HOF on independent seeds \
    instead of common ones (two sets, 3-10 runs each to 2 % at 90 %), the median is \
    −11.2 and −10.8, so the pairing does not move it. Of the HOF readings measured \
    (rxs.rs), a pointer that never moves gives −3.4 and one that keeps the last winner \
    −5.8, but both break other cells. The section does not restate its load: at 95 % and \
    90 % instead of 98 % the median is −10.1 and −36.5 and only 37 and 23 of the 82 rows \
    pass (69 at 98 %), so the load reading does not explain it. The CLIQ update readings \
    (LOF-CLIQ median) leave every HOF cell as it is. What moves the HOF median is its tie \
    rule and what its occupancy counts (rxs.rs): into the band with a pointer that never \
    moves (−3.4), one that keeps the last winner (−5.8) or the absorption pool's count \
    alone (−2.6), above it with credits counted as occupancy (−0.4, −0.2); each breaks \
    other cells or the text's counting rule, so none is adopted and the cause of the \
    cells' difference is not found";

/// Why the LOF-CLIQ median of Tables 7.18-7.19 misses (open).
const LOF_CLIQ_MEDIAN_WHY: &str = "open; every LOF-CLIQ cell is within its ±6 band, but \
    the median falls among the near-zero cells, where the document's Bernoulli (BS = 1) \
    cells lose up to 2.4 points more than emu's (averaged over N: −2, −1, −3, −1 printed \
    against −0.3, −0.1, −0.6, −1.0), against a band of ±1 (the printed SIQR); emu's 4th \
    of 8 is −0.64 (BS = 1, RTT = 64, w = 0.6), the document's −2 (BS = 1, RTT = 4, \
    w = 0.6). Tried: independent seeds for the Reference and LOF-CLIQ instead of common \
    ones (two sets, 3-10 runs each to 2 % at 90 %): the median is −0.50 and −0.22, the \
    cells move by up to 3 points but the median does not reach −2. The section's load, \
    not restated, is read as 98 %: at 95 % and 90 % the median is −0.17 and −0.14 and \
    only 37 and 23 of the 82 rows pass (69 at 98 %), so the load does not explain it. \
    CLIQ update readings, each switched in by a temporary build (full form): a VOQ's \
    change to non-empty named only in the packet dispatched in the next cycle and lost if \
    none leaves then (the document's simulator sends no idle cells) gives −0.65, every \
    cell within 0.01 of the shipped one; the CLIQ bits written when the packet leaves its \
    crosspoint instead of when it arrives gives −1.10, inside the band, but the four \
    BS = 10, RTT = 64 cells fall to −20 to −25 against −5 to −14 printed (66 of 82 rows \
    pass, 69 shipped), and the text has the vector 'written by arriving packets', so emu \
    does not adopt it. One register for the non-empty change (the latest wins over unsent \
    ones) and a selection pointer that the fallback LOF does not move give −0.14 in the \
    quick cell, as shipped (not run in full)";

/// Runs the experiment; `quick` runs BS = 1, RTT = 4, w = 0.8, N = 8 only.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let mut columns = Vec::new();
    for &((bs, rtt), table) in &PRINTED {
        for (k, (w, n)) in [(0.6, 8u32), (0.6, 32), (0.8, 8), (0.8, 32)]
            .into_iter()
            .enumerate()
        {
            if quick && !(bs == 1 && rtt == 4 && w == 0.8 && n == 8) {
                continue;
            }
            columns.push(Column {
                label: format!("BS={bs} RTT={rtt} w={w} N={n}"),
                point: Point {
                    rtt,
                    memory: if bs == 1 { rtt } else { 2 * rtt },
                    pattern: Pattern::NonUniform(w),
                    per_crosspoint: if n == 32 { 3_000 } else { 16_000 },
                    ..Point::design(n, f64::from(bs), Strategy::Reference)
                },
                printed: [0, 1, 2, 3, 4].map(|s| Some(table[s][k])),
            });
        }
    }
    let precision = Precision {
        target: 0.02,
        ..Precision::DOCUMENT
    };
    let results = run_grid(
        &columns.iter().map(|c| c.point.clone()).collect::<Vec<_>>(),
        precision,
        1,
    )?;
    let mut cells = cell_table(
        "Table 7.14: r against the Reference under non-uniform destinations, L = 98 %",
        "Table 7.14",
        &columns,
        &results,
    );
    mark_misses(&mut cells, &HOF_MISSES, HOF_WHY);
    mark_misses(&mut cells, &OTHER_MISSES, OTHER_WHY);
    let mut tables = vec![cells];
    if !quick {
        let r = ratios(&results);
        // Tables 7.18-7.19: each (BS, RTT, w) averaged over N = 8 and 32.
        let averaged = |s: Strategy| -> Vec<f64> {
            let i = ORDER.iter().position(|&k| k == s).expect("strategy");
            r[i].1.chunks(2).map(mean).collect::<Vec<_>>()
        };
        // Columns come as (w 0.6: N 8, 32), (w 0.8: N 8, 32) per (BS, RTT): pairs over N.
        let mut summary = Table {
            title: "Tables 7.18-7.19: medians over the eight (BS, RTT, w) cells averaged over N"
                .into(),
            ..Table::default()
        };
        summary.rows.push(
            median_row("HOF", "§7.6.4", &averaged(Strategy::Hof), -4.0, 3.0)
                .expected_miss(HOF_MEDIAN_WHY),
        );
        summary.rows.push(
            median_row(
                "LOF-CLIQ",
                "§7.6.4",
                &averaged(Strategy::LofCliq),
                -2.0,
                1.0,
            )
            .expected_miss(LOF_CLIQ_MEDIAN_WHY),
        );
        tables.push(summary);
    }
    Ok(Report {
        experiment: "fabric-non-uniform".into(),
        section: "Gramsamer §7.6.4".into(),
        tables,
        curves: Vec::new(),
    })
}
