//! `c104-networks`: the C104 network study of INMOS ch. 7 —
//! Tables 7.1-7.9 (§7.6: three families at 64, 256 and 1,024 terminals, random and
//! systematic traffic, deterministic and universal routing) and Figure 7.8 (§7.7: the
//! 20-permutation perfect shuffle on the 8-cube).
//!
//! Every case is the shipped topology and traffic file loaded through
//! [`crate::session::Case::load`] (seed 1, the files' continuous injection, 100 µs
//! warm-up, 500 µs measurement) and run on [`crate::engine::sharded::run`] with one
//! worker per core (the numbers do not depend on the thread count). Throughput is
//! §7.6's "percentage of the maximum possible throughput of each input link": payload
//! delivered per terminal over what a link carries in this packet format (one 32-byte
//! packet per message, §7.4: "a new packet is created"); delay is message latency in
//! header times (500 ns). Tolerances, chosen by emu (chapter 7 states none): systematic
//! cube throughput ±2 points (a contention bound), other throughput ±25 % relative, mean delay within a
//! factor of 1.5, and the published orderings.
//!
//! `quick` runs the 64- and 256-terminal cases with 20 µs warm-up and 100 µs
//! measurement, and Figure 7.8 on the 6-cube.

use super::ReproduceError;
use super::c104_published::{self as published, Family, Kind, Published};
use super::table::{Forms, KnownMiss, Report, Row, Table, Tolerance, mark_known};
use crate::engine::sharded;
use crate::pool::default_threads;
use crate::session::Case;

/// The run seed of every case.
const SEED: u64 = 1;
/// The band for systematic traffic on cubes, in percentage points: the throughput sits
/// on a contention bound, so a relative band would be too loose at 1,024 terminals.
const CUBE_SYSTEMATIC_POINTS: f64 = 2.0;
/// The band for every other throughput cell, relative: chapter 7 leaves packet size and
/// buffer depths open, and each reading moves throughput by a few points.
const THROUGHPUT_RELATIVE: f64 = 0.25;
/// Mean delays within this factor of the published value.
const DELAY_FACTOR: f64 = 1.5;

/// What one case measured.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    /// % of the packet format's link maximum, mean over terminals.
    pub throughput: f64,
    /// Mean message delay, header times.
    pub mean_delay: f64,
    /// Largest message delay, header times.
    pub max_delay: f64,
    /// Every measured message was delivered.
    pub complete: bool,
}

/// Loads `topology` + `traffic` with `sets`, runs it and returns the report.
fn run_case(
    topology: &str,
    traffic: &str,
    sets: &[String],
) -> Result<crate::stats::Report, ReproduceError> {
    let case = Case::load(topology, traffic, sets, SEED)?;
    let out =
        sharded::run(&case.net, &case.control(), default_threads(), None).map_err(|source| {
            ReproduceError::Engine {
                run: format!("{topology} {traffic}"),
                source: Box::new(source),
            }
        })?;
    Ok(case.report(&out))
}

/// Runs one published case from its shipped files.
pub fn measure(p: &Published, sets: &[String]) -> Result<Measured, ReproduceError> {
    let r = run_case(p.topology, p.traffic, sets)?;
    let t = &r.throughput;
    let d = &r.latency.message_latency.delay_units;
    Ok(Measured {
        throughput: t.delivered_pct.mean / t.format_max_pct * 100.0,
        mean_delay: d.mean,
        max_delay: d.max,
        complete: r.run.complete,
    })
}

/// Why a saturated cube permutation's mean delay misses (Tables 7.2, full form at 64,
/// 256 and 1,024 terminals, `--quick` at 64).
const CUBE_DELAY_MISS: &str = "a saturated permutation's mean delay is the messages a \
    source keeps in the network over its throughput (Little's law): emu's throughput sits \
    on the contention bound and its random-traffic delays agree, but delay × throughput is \
    0.56-0.63 of the published product (64: 113.8 ht × 23.9 % against 188 × 25.1; 256: \
    226.5 × 11.9 against 383 × 12.5; 1,024: 481.3 × 6.0 against 722 × 6.3; full form), as \
    if each source kept about 1.7 times as many messages in flight as emu's one waiting \
    behind the one being sent (§7.4.1: a new packet whenever the input queue is empty). \
    With 2-packet messages (--set message.bytes=64, seed 1, full phases), which double \
    what waits at a source, the throughput stays (22.9, 11.4 and 5.6 % of the link) and \
    the mean delay becomes 171.5, 338.1 and 677.1 ht, inside the band. The --quick form's \
    shorter window gives 119.1 at 64 (a miss) and 260.7 at 256 (5 ht inside the band)";

/// Why the 1,024-terminal MIN's systematic cells miss (Table 7.8, full form only).
const MIN_SYSTEMATIC_MISS: &str = "the 1,024-terminal MIN (64-way centre networks, \
    Figure 7.4) routes the permutation by our reading of Figures 7.1-7.4, which the text \
    lacks: every terminal gets 5.1-5.8 % of its link (Jain 0.997), 5.94 % of the packet \
    format's maximum against the printed 4.4 (+35 %), while the 64- and 256-terminal \
    cells agree (34.4 against 36, 8.27 against 8.6). The delay follows the throughput \
    (Little's law): delay × throughput is 259 × 5.94 = 1,539 in emu and 408 × 4.4 = \
    1,795 printed (−14 %), so at the printed throughput emu's population would wait \
    350 ht, inside the band; with 2-packet messages (--set message.bytes=64) the \
    throughput stays and the delay is 504 ht, inside the band";

/// Why the universal MIN's throughput misses (Table 7.9: 64 in both forms, 256 in
/// `--quick`, 1,024 in the full form, with its delay).
const MIN_UNIVERSAL_MISS: &str = "emu's universal MIN sends each packet to a uniformly \
    random right-hand link (§7.5), which spreads the permutation as random traffic is \
    spread: universal against random throughput is 58.7 against 63.9 % at 64, 59.4 \
    against 55.8 at 256 and 49.7 against 31.4 at 1,024 (full form). The published \
    universal MIN is below its own random traffic at 64 and 1,024 (41.7 against 56.8, \
    21.3 against 30.0; 47.6 against 48.8 at 256), so the chapter's random step used the \
    right links less evenly than a uniform choice; the text lacks Figures 7.1-7.4's \
    tables, and the random label's distribution is not a setting, so no other reading \
    was measured. At 256 the full form is within the band (59.4, +24.7 %) and the \
    --quick form's 100 µs window just outside (60.6, +27.3 %). At 1,024 the delay \
    follows the throughput (Little's law): delay × throughput is 58.2 × 49.7 = 2,892 \
    in emu and 111 × 21.3 = 2,364 printed (−18 %), so at the printed throughput emu's \
    population would wait 136 ht, inside the band";

/// The cells that miss their band, per form, each with its reason in numbers (written
/// down from the runs at commit d922c43, full form, and a `--quick` run; a marked cell
/// that starts to pass fails the experiment, so that its mark is taken off).
pub const KNOWN_MISSES: [KnownMiss; 9] = [
    KnownMiss {
        row: "n-cube 64 systematic: mean delay",
        forms: Forms::Both,
        why: CUBE_DELAY_MISS,
    },
    KnownMiss {
        row: "n-cube 256 systematic: mean delay",
        forms: Forms::Full,
        why: CUBE_DELAY_MISS,
    },
    KnownMiss {
        row: "n-cube 1024 systematic: mean delay",
        forms: Forms::Full,
        why: CUBE_DELAY_MISS,
    },
    KnownMiss {
        row: "MIN 1024 systematic: throughput",
        forms: Forms::Full,
        why: MIN_SYSTEMATIC_MISS,
    },
    KnownMiss {
        row: "MIN 1024 systematic: mean delay",
        forms: Forms::Full,
        why: MIN_SYSTEMATIC_MISS,
    },
    KnownMiss {
        row: "MIN 64 universal: throughput",
        forms: Forms::Both,
        why: MIN_UNIVERSAL_MISS,
    },
    KnownMiss {
        row: "MIN 256 universal: throughput",
        forms: Forms::Quick,
        why: MIN_UNIVERSAL_MISS,
    },
    KnownMiss {
        row: "MIN 1024 universal: throughput",
        forms: Forms::Full,
        why: MIN_UNIVERSAL_MISS,
    },
    KnownMiss {
        row: "MIN 1024 universal: mean delay",
        forms: Forms::Full,
        why: MIN_UNIVERSAL_MISS,
    },
];

fn case_rows(p: &Published, m: &Measured) -> [Row; 2] {
    let source = format!("Table {} row {}", p.table, p.size);
    let name = format!("{} {} {}", p.family.label(), p.size, p.kind.label());
    let tol = if p.family == Family::Cube && p.kind == Kind::Systematic {
        Tolerance::Absolute(CUBE_SYSTEMATIC_POINTS)
    } else {
        Tolerance::Relative(THROUGHPUT_RELATIVE)
    };
    let mut thr = Row::new(
        format!("{name}: throughput ({} + {})", p.topology, p.traffic),
        p.throughput,
        source.clone(),
        m.throughput,
        "%",
        tol,
    );
    let mut delay = Row::new(
        format!("{name}: mean delay"),
        p.mean_delay,
        source,
        m.mean_delay,
        "ht",
        Tolerance::Within {
            below: 1.0 - 1.0 / DELAY_FACTOR,
            above: DELAY_FACTOR - 1.0,
        },
    );
    let incomplete = if m.complete {
        ""
    } else {
        "; some measured messages undelivered at the drain limit"
    };
    thr.note = incomplete.trim_start_matches("; ").to_string();
    delay.note = format!(
        "max {:.0} (published {:.0}, not banded){incomplete}",
        m.max_delay, p.max_delay
    );
    [thr, delay]
}

/// One ordering the chapter states, as a ratio that must be ≥ 1 (`at_least`) or ≤ 1.
fn ordering(what: String, source: &str, ratio: f64, published_ratio: f64, at_least: bool) -> Row {
    let tol = if at_least {
        Tolerance::AtLeast(0.0)
    } else {
        Tolerance::AtMost(0.0)
    };
    Row::new(what, 1.0, source, ratio, "ratio", tol)
        .note(format!("published ratio {published_ratio:.2}"))
}

fn ordering_rows(got: &[(&'static Published, Measured)], sizes: &[u32]) -> Vec<Row> {
    let thr = |f, k, s| {
        got.iter()
            .find(|(p, _)| p.family == f && p.kind == k && p.size == s)
            .map(|(p, m)| (p.throughput, m.throughput))
    };
    let mut rows = Vec::new();
    for f in [Family::Cube, Family::Grid, Family::Min] {
        for &s in sizes {
            if let (Some(u), Some(y)) = (thr(f, Kind::Universal, s), thr(f, Kind::Systematic, s)) {
                rows.push(ordering(
                    format!("{} {s}: universal / systematic throughput ≥ 1", f.label()),
                    "§7.6 tables, §7.6.4",
                    u.1 / y.1,
                    u.0 / y.0,
                    true,
                ));
            }
        }
    }
    let (first, last) = (sizes[0], sizes[sizes.len() - 1]);
    for k in [Kind::Random, Kind::Universal] {
        if let (Some(a), Some(b)) = (thr(Family::Cube, k, first), thr(Family::Cube, k, last)) {
            rows.push(
                Row::new(
                    format!(
                        "n-cube {k} throughput {last} / {first}: roughly constant",
                        k = k.label()
                    ),
                    1.0,
                    "§7.6.4 \"constant throughput\"",
                    b.1 / a.1,
                    "ratio",
                    Tolerance::Relative(THROUGHPUT_RELATIVE),
                )
                .note(format!("published ratio {:.2}", b.0 / a.0)),
            );
        }
    }
    for (f, k) in [
        (Family::Grid, Kind::Random),
        (Family::Grid, Kind::Systematic),
        (Family::Grid, Kind::Universal),
        (Family::Min, Kind::Random),
        (Family::Min, Kind::Systematic),
    ] {
        for w in sizes.windows(2) {
            if let (Some(a), Some(b)) = (thr(f, k, w[0]), thr(f, k, w[1])) {
                rows.push(ordering(
                    format!(
                        "{} {}: throughput {} / {} ≤ 1 (degrades)",
                        f.label(),
                        k.label(),
                        w[1],
                        w[0]
                    ),
                    "§7.6.4 \"tail-off\"",
                    b.1 / a.1,
                    b.0 / a.0,
                    false,
                ));
            }
        }
    }
    rows
}

/// Figure 7.8: completion time (µs) of the 20-permutation shuffle on the
/// `dims`-cube for every rotation 0..=dims, deterministic then universal.
fn figure_7_8(dims: u32) -> Result<(Vec<f64>, Vec<f64>), ReproduceError> {
    let finish = |topology: &str, r: u32| -> Result<f64, ReproduceError> {
        let sets = vec![
            format!("network.dimensions={dims}"),
            format!("pattern.rotate={r}"),
        ];
        let rep = run_case(topology, "shuffle20", &sets)?;
        if !rep.run.complete {
            return Err(ReproduceError::MessagesUndelivered {
                run: format!("{topology} shuffle20 rotate {r}"),
            });
        }
        rep.completion
            .map(|c| c.us)
            .ok_or_else(|| ReproduceError::NoCompletion {
                run: format!("{topology} shuffle20"),
            })
    };
    let (det, uni) = (
        format!("hypercube{dims}"),
        format!("hypercube{dims}-universal"),
    );
    let d = (0..=dims)
        .map(|r| finish(&det, r))
        .collect::<Result<Vec<_>, _>>()?;
    let u = (0..=dims)
        .map(|r| finish(&uni, r))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((d, u))
}

fn figure_rows(dims: u32, det: &[f64], uni: &[f64]) -> Vec<Row> {
    let (lo, hi) = det
        .iter()
        .fold((f64::MAX, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
    let mean = uni.iter().sum::<f64>() / uni.len() as f64;
    let dev = uni
        .iter()
        .map(|u| (u / mean - 1.0).abs() * 100.0)
        .fold(0.0f64, f64::max);
    let mut rows = vec![
        Row::new(
            format!("{dims}-cube deterministic: slowest / fastest rotation"),
            2.0,
            "Figure 7.8, band ≥ 2×",
            hi / lo,
            "ratio",
            Tolerance::AtLeast(0.0),
        )
        .note("§7.7: \"a wide variation in run-time\""),
        Row::new(
            format!("{dims}-cube universal: largest deviation from the mean over rotations"),
            0.0,
            "Figure 7.8, band ±15 %",
            dev,
            "%",
            Tolerance::Absolute(15.0),
        )
        .note(format!(
            "universal mean {mean:.0} µs; §7.7: \"approximately constant\""
        )),
    ];
    if dims == 8 {
        // The 8-way against the 4-way shuffle of the 8-cube: rotate 3 against 2.
        rows.push(
            Row::new(
                "8-cube deterministic: 8-way / 4-way shuffle (rotate 3 / 2)",
                2.0,
                "§7.7 text \"a factor of 2\"",
                det[3] / det[2],
                "ratio",
                Tolerance::Relative(THROUGHPUT_RELATIVE),
            )
            .note("±25 %: the text gives one rounded factor"),
        );
    }
    rows
}

fn series(v: &[f64]) -> String {
    v.iter()
        .map(|x| format!("{x:.0}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the experiment; `quick` = 64/256-terminal cases, short phases, 6-cube figure.
pub fn run(quick: bool) -> Result<Report, ReproduceError> {
    let (sizes, sets, dims): (&[u32], Vec<String>, u32) = if quick {
        (
            &[64, 256],
            vec!["phases.warmup_us=20".into(), "phases.measure_us=100".into()],
            6,
        )
    } else {
        (&[64, 256, 1024], Vec::new(), 8)
    };
    let mut got = Vec::new();
    // --quick leaves out the 256-terminal grids: saturated grids drain for ~10 ms of
    // virtual time after any window, which is most of a minute of CPU each.
    let chosen = |p: &&Published| {
        sizes.contains(&p.size) && !(quick && p.family == Family::Grid && p.size > 64)
    };
    for p in published::TABLES.iter().filter(chosen) {
        got.push((p, measure(p, &sets)?));
    }
    let mut tables = Vec::new();
    for t in [
        "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "7.9",
    ] {
        let cases: Vec<_> = got.iter().filter(|(p, _)| p.table == t).collect();
        let Some((first, _)) = cases.first() else {
            continue;
        };
        tables.push(Table {
            title: format!(
                "Table {t}: {} traffic on the {}, {} routing",
                if first.kind == Kind::Random {
                    "random"
                } else {
                    "systematic"
                },
                first.family.label(),
                if first.kind == Kind::Universal {
                    "universal"
                } else {
                    "deterministic"
                },
            ),
            rows: cases.iter().flat_map(|(p, m)| case_rows(p, m)).collect(),
            notes: Vec::new(),
        });
        if let Some(t) = tables.last_mut() {
            mark_known(t, &KNOWN_MISSES, quick);
        }
    }
    tables.push(Table {
        title: "Orderings the chapter states (§7.6)".into(),
        rows: ordering_rows(&got, sizes),
        notes: Vec::new(),
    });
    let (det, uni) = figure_7_8(dims)?;
    let mut fig = Table {
        title: format!("Figure 7.8: 20-permutation perfect shuffle on the {dims}-cube"),
        rows: figure_rows(dims, &det, &uni),
        notes: vec![
            format!(
                "deterministic completion (µs), rotate 0..{dims}: {}",
                series(&det)
            ),
            format!(
                "universal completion (µs), rotate 0..{dims}: {}",
                series(&uni)
            ),
        ],
    };
    if quick {
        fig.notes
            .push("--quick: the 6-cube stands in for the chapter's 8-cube".into());
    }
    tables.push(fig);
    if let Some(t) = tables.first_mut() {
        t.notes = vec![
            format!(
                "each case: the shipped topology + traffic file, seed 1, continuous injection, \
                 {}; sharded engine on {} thread(s) (results do not depend on it)",
                if quick {
                    "--quick: 20 µs warm-up, 100 µs measured, 64 terminals and the 256-terminal \
                     cubes and MINs only"
                } else {
                    "100 µs warm-up, 500 µs measured"
                },
                default_threads()
            ),
            "throughput: % of the maximum possible throughput of each input link (§7.6) in \
             this packet format (one 32-byte packet per message, §7.4); delay: message \
             latency in header times (500 ns, §7.6); ht = header times"
                .into(),
        ];
    }
    Ok(Report {
        curves: Vec::new(),
        experiment: "c104-networks".into(),
        section: "INMOS ch. 7 §7.6-7.7".into(),
        tables,
    })
}
