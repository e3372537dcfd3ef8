//! `fabric-dynamics`: how fast an output's schedulers react to changing loads, Gramsamer
//! §7.2 (Fig. 7.8). "C always has 71.4 load. After 66 cycles, we enable A with 71.4% and
//! B with 40%. In the 330th cycle, A is switched off. In this model we have enabled FC
//! and use a RTT of 64 ... The throughput measurements ... are taken at the output link.
//! ... each should achieve exactly 33% of the available link capacity. While RR achieves
//! this almost instantaneously, in OCF this goal is achieved 250 packet cycles later.
//! After A is shut off and has drained all its remaining packets, in OCF the target of
//! 40% for B and 60% for C are slowly approached, whereas in RR it is an instantaneous
//! process."
//!
//! Three inputs of a 4-port fabric (A, B, C) send to output 3 with relative credit, M =
//! RTT = 64 and every freed credit returned; the RR output scheduler (CICQ) against OCF
//! (CIOQ). Packets arrive by Bernoulli draws while a flow is on (the document does not
//! say bursty), each input its own generator per replication. The output's departures
//! per flow are counted in buckets of 10 cycles and averaged over replications (one run
//! is a noisy sample path; the figure reads as an average). Readings, written before the
//! runs: a flow "achieves" a share once every later bucket up to the next switch is within
//! 5 points of it; "almost instantaneously" and "instantaneous" mean within 30 cycles of
//! the first cycle it could (A's and B's first packets out, A's last packet out); "250
//! packet cycles later" means OCF within 125-375 cycles after RR; "slowly approached"
//! means OCF at least 50 cycles after RR.

use super::super::ReproduceError;
use super::super::table::{Curve, Report, Row, Table, Tolerance};
use super::runner;
use crate::network::FabricRun;
use crate::parts::fabric::{Arrivals, Destinations, TraceEvent};
use crate::time::Tick;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The output all three flows go to.
const D: u16 = 3;
/// A and B switch on here, A off at [`A_OFF`] (the document's cycles).
const ON: Tick = 66;
/// A switches off.
const A_OFF: Tick = 330;
/// Cycles run.
const CYCLES: Tick = 1_500;
/// Bucket width of the output's timeline, cycles.
const BUCKET: Tick = 10;
/// "achieves": within this many points of the share.
const WITHIN: f64 = 5.0;

/// When each flow (A, B, C) is on, and its load.
const FLOWS: [(Tick, Tick, f64); 3] = [(ON, A_OFF, 0.714), (ON, CYCLES, 0.40), (0, CYCLES, 0.714)];

/// Input `i`'s packets in one replication: a Bernoulli draw every cycle the flow is on.
fn trace(i: usize, seed: u64) -> Arc<[TraceEvent]> {
    let (from, to, load) = FLOWS[i];
    let mut rng = ChaCha8Rng::seed_from_u64(crate::network::build::mix_seed(seed, i as u64));
    (from..to)
        .filter(|_| rng.random_bool(load))
        .map(|cycle| TraceEvent {
            cycle,
            output: D,
            packets: 1,
        })
        .collect()
}

/// Per replication and bucket, each flow's packets out of the output, for `seeds`
/// replications under output scheduler `scheduler` ("rr" or "ocf").
fn departures(scheduler: &str, seeds: u64) -> Result<Vec<Vec<[u64; 3]>>, ReproduceError> {
    let spec = runner::spec(4, |c| {
        c.output_scheduler = Some(scheduler.into());
        c.rtt = 64;
        c.strategy = Some("reference".into());
    })?;
    let buckets = (CYCLES / BUCKET) as usize + 8;
    let mut all = Vec::new();
    for seed in 1..=seeds {
        let mut counts = vec![[0u64; 3]; buckets];
        let run = FabricRun {
            start: 0,
            window: (0, CYCLES),
            drain: 10_000,
            batch: false,
            seed,
            timeline: Some(BUCKET),
        };
        let out = runner::run(&format!("dynamics {scheduler}"), &spec, &run, |i| {
            let a = if usize::from(i) < 3 {
                Arrivals::Trace(trace(usize::from(i), seed))
            } else {
                Arrivals::None
            };
            (a, Destinations::Fixed(D))
        })?;
        let line = runner::part(&out, usize::from(D));
        for (k, &c) in line.get("timeline").iter().enumerate() {
            let (b, src) = (k / 4, k % 4);
            if src < 3 && b < buckets {
                counts[b][src] += c;
            }
        }
        all.push(counts);
    }
    Ok(all)
}

/// Each flow's share of the output link in % per bucket, averaged over the
/// replications `runs`, bucket `k` of replication `r` taken at `k + offset(r)`.
fn shares(runs: &[Vec<[u64; 3]>], offset: impl Fn(&[[u64; 3]]) -> usize) -> Vec<[f64; 3]> {
    let len = runs.iter().map(Vec::len).min().unwrap_or(0);
    let scale = 100.0 / (BUCKET as f64 * runs.len().max(1) as f64);
    (0..len)
        .map(|k| {
            let mut sum = [0u64; 3];
            for r in runs {
                if let Some(c) = r.get(k + offset(r)) {
                    for (t, x) in sum.iter_mut().zip(c) {
                        *t += x;
                    }
                }
            }
            sum.map(|x| x as f64 * scale)
        })
        .collect()
}

/// The first bucket at or after [`A_OFF`] in which replication `r` sent no packet of A
/// out: A has drained.
fn drain_bucket(r: &[[u64; 3]]) -> usize {
    let from = (A_OFF / BUCKET) as usize;
    (from..r.len()).find(|&k| r[k][0] == 0).unwrap_or(r.len())
}

/// The first cycle from which flow `f`'s share stays within [`WITHIN`] of `target`
/// in every bucket from `from` up to (not including) `until`; `None` if it never does.
fn settles(s: &[[f64; 3]], f: usize, target: f64, from: Tick, until: Tick) -> Option<Tick> {
    let (a, b) = ((from / BUCKET) as usize, (until / BUCKET) as usize);
    let ok = |k: usize| (s[k][f] - target).abs() <= WITHIN;
    (a..b).find(|&k| (k..b).all(ok)).map(|k| k as Tick * BUCKET)
}

/// The latest of the three flows' (or of `flows`') settling cycles.
fn all_settle(s: &[[f64; 3]], targets: &[(usize, f64)], from: Tick, until: Tick) -> Option<Tick> {
    targets
        .iter()
        .map(|&(f, t)| settles(s, f, t, from, until))
        .try_fold(0, |m, x| x.map(|x| m.max(x)))
}

/// Why the shares after A has drained miss (2026-11-26: RR 370 cycles, OCF 20 more).
const DRAINED_MISS: &str = "after A has drained, B still holds the backlog it built while \
     the three shared the link (it offered 40 % and got 33 %), so under either scheduler B \
     gets about half the link (48-49 % in the buckets right after the drain) until that \
     backlog is gone, and 40 / 60 % comes about 370 cycles later under RR and 20 more under \
     OCF; the document's RR reaches 40 / 60 % at once, which needs B not backlogged, and it \
     does not describe its sources' queues";

/// Runs the experiment (`quick` is the same: 400 replications of these small runs take
/// under a second).
pub fn run(_quick: bool) -> Result<Report, ReproduceError> {
    let seeds = 400;
    let rr_runs = departures("rr", seeds)?;
    let ocf_runs = departures("ocf", seeds)?;
    let rr = shares(&rr_runs, |_| 0);
    let ocf = shares(&ocf_runs, |_| 0);
    // A's and B's first packets leave at ON + 1 (their VOQ) + 32 (the data path) + 1.
    let first = ON + 34;
    let third = [(0, 100.0 / 3.0), (1, 100.0 / 3.0), (2, 100.0 / 3.0)];
    let after = [(1, 40.0), (2, 60.0)];
    let mut t = Table {
        title: "Fig. 7.8: the output's shares after the loads change, RR against OCF".into(),
        ..Table::default()
    };
    let never = CYCLES as f64;
    let at = |x: Option<Tick>| x.map_or(never, |x| x as f64);
    // The three share the link until A has drained in every replication.
    let earliest = |runs: &[Vec<[u64; 3]>]| {
        runs.iter().map(|r| drain_bucket(r)).min().unwrap_or(0) as Tick * BUCKET
    };
    let (rr_end, ocf_end) = (earliest(&rr_runs), earliest(&ocf_runs));
    let rr_third = at(all_settle(&rr, &third, first, rr_end));
    let ocf_third = at(all_settle(&ocf, &third, first, ocf_end));
    t.rows.push(
        Row::new(
            "RR: cycles to 33 % each after A and B start",
            0.0,
            "§7.2",
            rr_third - first as f64,
            "cycles",
            Tolerance::Absolute(30.0),
        )
        .note("\"RR achieves this almost instantaneously\" (within 30 cycles)"),
    );
    t.rows.push(
        Row::new(
            "OCF after RR: cycles to 33 % each",
            250.0,
            "§7.2",
            ocf_third - rr_third,
            "cycles",
            Tolerance::Absolute(125.0),
        )
        .note("\"in OCF this goal is achieved 250 packet cycles later\" (125-375)"),
    );
    // After A has drained: each replication aligned at its own drain (the moment the
    // document measures from), so that the spread of drain times does not blur it.
    let span = (CYCLES / BUCKET) as usize / 3;
    let aligned = |runs: &[Vec<[u64; 3]>]| {
        let mut s = shares(runs, drain_bucket);
        s.truncate(span);
        s
    };
    let (rr_after_s, ocf_after_s) = (aligned(&rr_runs), aligned(&ocf_runs));
    let until = span as Tick * BUCKET;
    let rr_after = at(all_settle(&rr_after_s, &after, 0, until));
    let ocf_after = at(all_settle(&ocf_after_s, &after, 0, until));
    t.rows.push(
        Row::new(
            "RR: cycles to 40 / 60 % after A has drained",
            0.0,
            "§7.2",
            rr_after,
            "cycles",
            Tolerance::Absolute(30.0),
        )
        .note("\"in RR it is an instantaneous process\" (within 30 cycles)")
        .expected_miss(DRAINED_MISS),
    );
    t.rows.push(
        Row::new(
            "OCF after RR: cycles to 40 / 60 % after A has drained",
            50.0,
            "§7.2",
            ocf_after - rr_after,
            "cycles",
            Tolerance::AtLeast(0.0),
        )
        .note("\"in OCF the target ... slowly approached\" (at least 50 cycles after RR)")
        .expected_miss(DRAINED_MISS),
    );
    t.notes.push(format!(
        "N = 4, RTT = M = 64, relative credit (the Reference), Bernoulli arrivals; C at 71.4 % \
         from cycle 0, A at 71.4 % and B at 40 % from cycle {ON}, A off at {A_OFF}; shares of \
         the output link per {BUCKET}-cycle bucket averaged over {seeds} replications (after A \
         has drained: each replication from its own drain, A's first bucket with no packet \
         after {A_OFF}). The three shares are judged until A has drained in every replication \
         (RR: cycle {rr_end}, OCF: {ocf_end}); a share that never settles counts as the run's \
         end ({CYCLES})."
    ));
    let mut curve = Curve {
        title: "Fig. 7.8: each flow's share of the output link (%) per 10-cycle bucket, RR and OCF"
            .into(),
        columns: ["cycle", "rr_a", "rr_b", "rr_c", "ocf_a", "ocf_b", "ocf_c"]
            .map(String::from)
            .to_vec(),
        rows: Vec::new(),
    };
    for k in 0..(CYCLES / BUCKET) as usize {
        let mut row = vec![(k as Tick * BUCKET) as f64];
        row.extend(rr[k]);
        row.extend(ocf[k]);
        curve.rows.push(row);
    }
    Ok(Report {
        curves: vec![curve],
        experiment: "fabric-dynamics".into(),
        section: "Gramsamer §7.2".into(),
        tables: vec![t],
    })
}
