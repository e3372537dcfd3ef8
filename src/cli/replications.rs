//! `emu --topology T --traffic P --replications N|auto`: the case run with seeds seed,
//! seed + 1, … (independent replications), and the mean of throughput and of mean, p99
//! and p99.9 latency over the runs with 90 % and 95 % Student-t intervals
//! ([`emu::replicate`]). `auto` runs until the 90 % half-width of the mean latency is
//! within `--ci-target` percent of it (3 by default, as Gramsamer §2.4 does), from 3 to
//! 30 runs.
//!
//! With `--compare KEY=VALUE …` and `--replications N`, the case as given (A) and the
//! case with those keys set as well (B) run on the same N seeds, and each figure is
//! reported for both sides with the paired difference B − A and its 90 % interval
//! ([`emu::replicate::compare`]).

use super::args::CaseArgs;
use super::exit::Exit;
use super::{emit, fail};
use emu::api::{RunOptions, run_case};
use emu::engine::EngineError;
use emu::pool::default_threads;
use emu::replicate::{Paired, Plan, Replicated, Sample, compare, replicate};
use emu::session::AnyCase;
use emu::stats::confidence::Interval;
use emu::stats::format::{fixed, write_columns};
use serde::Serialize;

/// A run of one seed that failed: its message and exit code.
struct Failed(String, Exit);

/// Parses `--replications`: a count ≥ 1, or `auto`.
pub fn parse_plan(text: &str, target_pct: f64) -> Result<Plan, String> {
    if text == "auto" {
        if !(target_pct.is_finite() && target_pct > 0.0) {
            return Err(format!(
                "--ci-target {target_pct}: give a positive percentage"
            ));
        }
        return Ok(Plan::Until {
            target: target_pct / 100.0,
        });
    }
    match text.parse::<usize>() {
        Ok(1) => Err(
            "--replications 1: one run has no confidence interval; give 2 to 10000 runs, or \
             leave out --replications for a single run"
                .to_string(),
        ),
        Ok(n) if (2..=10_000).contains(&n) => Ok(Plan::Fixed(n)),
        _ => Err(format!(
            "--replications {text}: give a number of runs (2 to 10000) or auto"
        )),
    }
}

/// Checks that the seeds `first`, `first + 1`, … of the most runs `plan` may make all
/// fit in 64 bits (none wraps around to seed 0).
pub fn check_seeds(plan: Plan, first: u64) -> Result<(), String> {
    let most = match plan {
        Plan::Fixed(n) => n,
        Plan::Until { .. } => emu::replicate::MAX_AUTO,
    };
    match first.checked_add(most as u64 - 1) {
        Some(_) => Ok(()),
        None => Err(format!(
            "--seed {first}: the seeds of {most} replications, {first} + 0 … {}, overflow a \
             64-bit seed; give a smaller --seed",
            most - 1
        )),
    }
}

/// The sample of one run of `case` (built with `seed`) on the sequential reference
/// engine (the sharded engine on one thread), refused if it would need more memory than
/// the system has.
fn sample(case: &AnyCase, seed: u64) -> Result<(Sample, &'static str), Failed> {
    let options = RunOptions {
        threads: Some(1),
        memory_limit: emu::memory::usable(),
        ..RunOptions::default()
    };
    let failed = |e: &EngineError| Failed(format!("seed {seed}: {e}"), super::exit::of_engine(e));
    let report = match run_case(case, &options) {
        Ok(r) => r,
        Err(e) => {
            return Err(match e.into_engine_error() {
                Ok(e) => failed(&e),
                Err(e) => Failed(format!("seed {seed}: {e}"), Exit::Failure),
            });
        }
    };
    let Some(report) = report.stats else {
        return Err(match &report.failure {
            Some(e) => failed(e),
            None => Failed(
                format!("seed {seed}: the run ended {}", report.outcome.name()),
                Exit::Failure,
            ),
        });
    };
    let lat = &report.latency.message_latency;
    Ok((
        Sample {
            throughput_pct: report.throughput.delivered_pct.mean,
            mean_latency: lat.delay_units.mean,
            p99_latency: lat.delay_units.p99,
            p999_latency: lat.delay_units.p99_9,
        },
        report.run.delay_unit_name,
    ))
}

/// The JSON written by `--json` with `--replications`.
#[derive(Serialize)]
struct ReplicationsJson<'a> {
    topology: &'a str,
    traffic: &'a str,
    latency_unit: &'a str,
    #[serde(flatten)]
    replicated: &'a Replicated,
}

/// Runs the replications of the case `a` names (its `topology` and `traffic`), each run
/// refused if it would need more than `memory_limit` bytes; returns the exit code.
pub fn main(
    a: &CaseArgs,
    topology: &str,
    traffic: &str,
    plan: Plan,
    memory_limit: Option<u64>,
    json: Option<&std::path::Path>,
) -> Exit {
    let (sets, first_seed, threads) = (&a.network.sets, a.runs.seed, a.runs.threads);
    if let Err(e) = check_seeds(plan, first_seed) {
        return fail(Exit::BadInput, e);
    }
    // Load once to report bad input before any run.
    if let Err(e) = AnyCase::load_within(topology, traffic, sets, first_seed, memory_limit) {
        return fail(Exit::BadInput, e);
    }
    let threads = threads.unwrap_or_else(default_threads).max(1);
    let unit = std::sync::Mutex::new("ticks");
    let result = replicate(plan, first_seed, threads, |seed| {
        let case = AnyCase::load_within(topology, traffic, sets, seed, memory_limit)
            .map_err(|e| Failed(e.to_string(), Exit::BadInput))?;
        let (s, u) = sample(&case, seed)?;
        if let Ok(mut g) = unit.lock() {
            *g = u;
        }
        Ok(s)
    });
    let r = match result {
        Ok(r) => r,
        Err(Failed(msg, code)) => return fail(code, msg),
    };
    let unit = unit.lock().map_or("ticks", |g| *g);
    emit(&render(&r, unit));
    if let Some(path) = json {
        let doc = ReplicationsJson {
            topology,
            traffic,
            latency_unit: unit,
            replicated: &r,
        };
        if let Err(code) = super::write_json_file(path, &doc) {
            return code;
        }
    }
    Exit::Ok
}

/// The table printed for replications.
pub fn render(r: &Replicated, unit: &str) -> String {
    let mut out = String::new();
    let seeds = match (r.seeds.first(), r.seeds.last()) {
        (Some(a), Some(b)) => format!("seeds {a}-{b}"),
        _ => "no seeds".into(),
    };
    let rule = match r.target {
        Some(t) => format!(
            " · stop rule: 90 % half-width of the mean latency ≤ {} % — {} ({} %)",
            fixed(100.0 * t, 1),
            if r.reached {
                "reached"
            } else {
                "NOT reached after the maximum of runs"
            },
            fixed(100.0 * r.mean_latency.relative_90(), 2)
        ),
        None => String::new(),
    };
    out.push_str(&format!(
        "replications  {} runs ({seeds}){rule}\n\n",
        r.samples.len()
    ));
    let row = |name: &str, i: &Interval, d: usize| {
        vec![
            name.to_string(),
            fixed(i.mean, d),
            format!("± {}", fixed(i.half_width_90, d)),
            format!("± {}", fixed(i.half_width_95, d)),
        ]
    };
    let rows = vec![
        vec![
            "metric".into(),
            "mean".into(),
            "90 % interval".into(),
            "95 % interval".into(),
        ],
        row("throughput (% of link)", &r.throughput_pct, 2),
        row(&format!("mean latency ({unit})"), &r.mean_latency, 2),
        row(&format!("p99 latency ({unit})"), &r.p99_latency, 2),
        row(&format!("p99.9 latency ({unit})"), &r.p999_latency, 2),
    ];
    write_columns(&mut out, &rows);
    out
}

/// The JSON written by `--json` with `--replications` and `--compare`.
#[derive(Serialize)]
struct ComparisonJson<'a> {
    topology: &'a str,
    traffic: &'a str,
    latency_unit: &'a str,
    /// The `KEY=VALUE` settings that make B of A.
    compare: &'a [String],
    #[serde(flatten)]
    paired: &'a Paired,
}

/// `--compare KEY=VALUE`'s error for a load error of side B: the loader names the
/// setting as `--set KEY=VALUE`, which the user wrote as `--compare`.
fn compare_error(e: impl std::fmt::Display, compare: &[String]) -> String {
    let text = e.to_string();
    for c in compare {
        if let Some(rest) = text.strip_prefix(&format!("--set {c}")) {
            return format!("--compare {c}{rest}");
        }
    }
    text
}

/// Runs the case `a` names as given (A) and with the `compare` settings (B) on the
/// same `runs` seeds, each run refused if it would need more than `memory_limit`
/// bytes; prints both sides and their paired differences; returns the exit code.
pub fn compare_main(
    a: &CaseArgs,
    (topology, traffic): (&str, &str),
    runs: usize,
    compare_sets: &[String],
    memory_limit: Option<u64>,
    json: Option<&std::path::Path>,
) -> Exit {
    let (sets_a, first_seed, threads) = (&a.network.sets, a.runs.seed, a.runs.threads);
    let sets_b: Vec<String> = sets_a.iter().chain(compare_sets).cloned().collect();
    if let Err(e) = check_seeds(Plan::Fixed(runs), first_seed) {
        return fail(Exit::BadInput, e);
    }
    // Load both once to report bad input before any run.
    if let Err(e) = AnyCase::load_within(topology, traffic, sets_a, first_seed, memory_limit) {
        return fail(Exit::BadInput, e);
    }
    if let Err(e) = AnyCase::load_within(topology, traffic, &sets_b, first_seed, memory_limit) {
        return fail(Exit::BadInput, compare_error(e, compare_sets));
    }
    let threads = threads.unwrap_or_else(default_threads).max(1);
    let unit = std::sync::Mutex::new("ticks");
    let side = |sets: &[String], seed: u64| -> Result<Sample, Failed> {
        let case = AnyCase::load_within(topology, traffic, sets, seed, memory_limit)
            .map_err(|e| Failed(compare_error(e, compare_sets), Exit::BadInput))?;
        let (s, u) = sample(&case, seed)?;
        if let Ok(mut g) = unit.lock() {
            *g = u;
        }
        Ok(s)
    };
    let result = compare(
        runs,
        first_seed,
        threads,
        |seed| side(sets_a, seed),
        |seed| {
            side(&sets_b, seed).map_err(|Failed(msg, code)| {
                Failed(format!("B ({}): {msg}", compare_sets.join(" ")), code)
            })
        },
    );
    let p = match result {
        Ok(p) => p,
        Err(Failed(msg, code)) => return fail(code, msg),
    };
    let unit = unit.lock().map_or("ticks", |g| *g);
    emit(&render_paired(&p, compare_sets, unit));
    if let Some(path) = json {
        let doc = ComparisonJson {
            topology,
            traffic,
            latency_unit: unit,
            compare: compare_sets,
            paired: &p,
        };
        if let Err(code) = super::write_json_file(path, &doc) {
            return code;
        }
    }
    Exit::Ok
}

/// What a difference's 90 % interval says: whether B is above or below A beyond it.
fn verdict(d: &Interval) -> &'static str {
    if d.mean == 0.0 && d.half_width_90 == 0.0 {
        "identical"
    } else if d.mean.abs() <= d.half_width_90 {
        "no clear difference"
    } else if d.mean > 0.0 {
        "B higher"
    } else {
        "B lower"
    }
}

/// The table printed for a comparison.
pub fn render_paired(p: &Paired, compare_sets: &[String], unit: &str) -> String {
    let mut out = String::new();
    let seeds = match (p.seeds.first(), p.seeds.last()) {
        (Some(a), Some(b)) => format!("seeds {a}-{b}"),
        _ => "no seeds".into(),
    };
    out.push_str(&format!(
        "comparison  {} runs of each side on the same seeds ({seeds})\n",
        p.seeds.len()
    ));
    out.push_str("A           the case as given\n");
    out.push_str(&format!(
        "B           with {}\n\n",
        compare_sets.join(" · ")
    ));
    let row = |name: &str, a: &Interval, b: &Interval, d: &Interval| {
        vec![
            name.to_string(),
            fixed(a.mean, 2),
            fixed(b.mean, 2),
            fixed(d.mean, 2),
            format!("± {}", fixed(d.half_width_90, 2)),
            verdict(d).to_string(),
        ]
    };
    let d = &p.difference;
    let rows = vec![
        vec![
            "metric".into(),
            "A".into(),
            "B".into(),
            "B − A".into(),
            "90 % interval".into(),
            "at 90 %".into(),
        ],
        row(
            "throughput (% of link)",
            &p.a.throughput_pct,
            &p.b.throughput_pct,
            &d.throughput_pct,
        ),
        row(
            &format!("mean latency ({unit})"),
            &p.a.mean_latency,
            &p.b.mean_latency,
            &d.mean_latency,
        ),
        row(
            &format!("p99 latency ({unit})"),
            &p.a.p99_latency,
            &p.b.p99_latency,
            &d.p99_latency,
        ),
        row(
            &format!("p99.9 latency ({unit})"),
            &p.a.p999_latency,
            &p.b.p999_latency,
            &d.p999_latency,
        ),
    ];
    write_columns(&mut out, &rows);
    out
}
