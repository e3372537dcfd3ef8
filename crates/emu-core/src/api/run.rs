//! One run of any family, from its two files to its report.

use super::Input;
use super::error::{Error, ErrorKind};
use super::options::{MAX_THREADS, Progress, RunOptions};
use super::report::{Outcome, Report, failure_json, outcome_of, reproduce_command};
use crate::config::{FileKind, Loaded, TrafficConfig};
use crate::engine::RunControl;
use crate::family::{AnyCase, Case, CaseVisitor};
use crate::memory::Need;
use crate::model::{Activity, LinkProtocol};
use crate::network::TopologyConfig;
use crate::time::Tick;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Loads `topology` and `traffic` with the overrides of `options.set`, builds the case
/// of whatever family the topology is with `options.seed`, runs it on the default
/// (sharded) engine, and reports. A deadlock, a link fault or a stop asked by the
/// progress hook is the report's [`Outcome`], not an error; the report of a run that
/// completed is byte for byte what `emu --json` writes for the same files, `--set`s and
/// seed ([`Report::to_json`]).
///
/// Nothing is read but what the inputs name: no lookup in the working directory unless
/// an input is [`Input::lookup`], and no system memory limit unless
/// `options.memory_limit` gives one.
pub fn run(topology: &Input, traffic: &Input, options: &RunOptions<'_>) -> Result<Report, Error> {
    let (topo, traf) = load(topology, traffic, &options.set)?;
    let case = AnyCase::from_loaded(topo, traf, options.seed, options.memory_limit)?;
    run_case(&case, options)
}

/// Loads both files with the overrides among `sets` (every one is checked first).
pub fn load(
    topology: &Input,
    traffic: &Input,
    sets: &[String],
) -> Result<(Loaded<TopologyConfig>, Loaded<TrafficConfig>), Error> {
    crate::config::validate_sets(sets)?;
    let topo = topology.load(FileKind::Topology, sets, &crate::network::kinds::C104Kinds)?;
    let traf = traffic.load(FileKind::Traffic, sets, &crate::config::NoKinds)?;
    Ok((topo, traf))
}

/// Runs a case already built (its files, overrides and seed are the case's) with the
/// rest of `options`, and reports, as [`run`] does; `options.set` is shown only in the
/// report's reproduce command.
pub fn run_case(case: &AnyCase, options: &RunOptions<'_>) -> Result<Report, Error> {
    check_threads(options.threads)?;
    case.visit(Runner { options })
}

/// [`run_case`] for a case whose link protocol the caller knows.
pub fn run_typed<P: LinkProtocol>(
    case: &Case<P>,
    options: &RunOptions<'_>,
) -> Result<Report, Error> {
    check_threads(options.threads)?;
    run_one(case, options)
}

/// Refuses 0 threads, or more than [`MAX_THREADS`].
fn check_threads(threads: Option<usize>) -> Result<(), Error> {
    match threads {
        Some(0) => Err(Error::message(
            ErrorKind::Options,
            "threads 0: give at least one thread",
        )),
        Some(n) if n > MAX_THREADS => Err(Error::message(
            ErrorKind::Options,
            format!("threads {n}: give at most {MAX_THREADS}"),
        )),
        _ => Ok(()),
    }
}

/// What a built case is, before it runs ([`planned`]).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Planned {
    /// Nodes in the network.
    pub nodes: usize,
    /// Terminals in the network.
    pub terminals: usize,
    /// The length of a tick of the network's time base, in ns.
    pub tick_ns: f64,
    /// The tick by which the run may end, as its phases say.
    pub end_after: Tick,
    /// The tick at which the run gives up waiting for its measured messages.
    pub hard_stop: Tick,
    /// What the network needs of memory, lightly loaded and with its buffers full.
    pub need: Need,
}

/// What `case` is, before it runs: its size, its time base, its phases' end and its
/// memory need.
pub fn planned(case: &AnyCase) -> Planned {
    struct Plan;
    impl CaseVisitor for Plan {
        type Output = Planned;
        fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Planned {
            let net = &case.net;
            Planned {
                nodes: net.nodes().len(),
                terminals: net.terminals().len(),
                tick_ns: net.time().tick_ns,
                end_after: net.run().end_after,
                hard_stop: net.run().hard_stop,
                need: net.memory_need(),
            }
        }
    }
    case.visit(Plan)
}

/// Runs a case of any family.
struct Runner<'o, 'a> {
    options: &'o RunOptions<'a>,
}

impl CaseVisitor for Runner<'_, '_> {
    type Output = Result<Report, Error>;
    fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Result<Report, Error> {
        run_one(case, self.options)
    }
}

/// The number of worker threads a run uses when none is asked for: one per core, fewer
/// on a network of under 64 nodes per core.
pub fn default_threads<P: LinkProtocol>(net: &crate::network::Network<P>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    crate::engine::partition::useful_threads(net, cores)
}

fn run_one<P: LinkProtocol>(case: &Case<P>, o: &RunOptions<'_>) -> Result<Report, Error> {
    let net = &case.net;
    let mut ctl = RunControl::for_plan_within(net, o.memory_limit);
    ctl.check = o.check;
    if let Some(us) = o.deadlock_window_us {
        ctl.set_deadlock_window_us(us, net)?;
    }
    if let Some(budget) = o.tick_budget {
        ctl.end_after = ctl.end_after.min(budget);
        ctl.hard_stop = ctl.hard_stop.min(budget);
    }
    ctl.observe = o.recorder.clone();
    let stop = Arc::new(AtomicBool::new(false));
    ctl.stop = Some(stop.clone());
    let threads = o.threads.unwrap_or_else(|| default_threads(net));
    let tick_ns = net.time().tick_ns;
    let us = |t: u64| t as f64 * tick_ns / 1000.0;
    let end_us = us(ctl.end_after);
    let mut hook = |t: u64, act: &Activity| {
        let p = Progress {
            tick: t,
            virtual_us: us(t),
            end_us,
            activity: *act,
        };
        if o.progress(&p) == ControlFlow::Break(()) {
            stop.store(true, Ordering::Release);
        }
    };
    let engine = o.engine;
    let wall = Instant::now();
    let result = engine.run(
        net,
        &ctl,
        threads,
        o.has_progress()
            .then_some(&mut hook as crate::engine::ProgressFn),
    );
    let wall_seconds = wall.elapsed().as_secs_f64();
    let reproduce = reproduce_command(
        &case.topology.file.name,
        &case.traffic.file.name,
        case.seed,
        &o.set,
        o.deadlock_window_us,
        o.check,
    );
    let mut report = match result {
        Ok(outcome) => {
            let timing = if ctl.check {
                Some(crate::network::timing::check_journeys(
                    net,
                    &outcome.terminals,
                )?)
            } else {
                None
            };
            let stats = case.report(&outcome);
            let json = stats.to_json();
            let mut report = Report::new(Outcome::Completed, Some(stats), None, json, reproduce);
            report.run = Some(outcome);
            report.timing = timing;
            report
        }
        Err(e) => {
            let (Some(outcome), Some(json)) =
                (outcome_of(&e), failure_json(&e, net, case.seed, &reproduce))
            else {
                return Err(e.into());
            };
            Report::new(outcome, None, Some(e), json, reproduce)
        }
    };
    report.engine = engine;
    report.threads = threads;
    report.wall_seconds = wall_seconds;
    report.tick_ns = tick_ns;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineKind;

    /// The default options on one worker thread.
    fn one_thread<'a>() -> RunOptions<'a> {
        RunOptions {
            threads: Some(1),
            ..RunOptions::default()
        }
    }

    fn short() -> Vec<String> {
        vec![
            "phases.warmup_us=5".to_string(),
            "phases.measure_us=20".to_string(),
        ]
    }

    #[test]
    fn a_run_reports_what_the_case_reports() {
        let options = RunOptions {
            set: short(),
            seed: 3,
            threads: Some(1),
            ..RunOptions::default()
        };
        let r = run(
            &Input::shipped("hypercube6"),
            &Input::shipped("uniform"),
            &options,
        )
        .expect("runs");
        assert_eq!(r.outcome, Outcome::Completed);
        let stats = r.stats.as_ref().expect("statistics");
        assert_eq!(stats.seed, 3);
        assert_eq!(r.to_json(), stats.to_json());
        assert!(
            r.reproduce.starts_with(
                "emu --topology hypercube6.toml --traffic uniform.toml --seed 3 --set"
            ),
            "{}",
            r.reproduce
        );
        // The same on two threads, byte for byte.
        let two = RunOptions {
            threads: Some(2),
            ..options
        };
        let again = run(
            &Input::shipped("hypercube6"),
            &Input::shipped("uniform"),
            &two,
        )
        .expect("runs");
        assert_eq!(again.to_json(), r.to_json());
    }

    #[test]
    fn a_deadlock_is_an_outcome_with_its_document() {
        let options = RunOptions {
            threads: Some(1),
            ..RunOptions::default()
        };
        let r = run(
            &Input::shipped("torus4-single"),
            &Input::shipped("torus4-ring"),
            &options,
        )
        .expect("a deadlock is no error");
        assert_eq!(r.outcome, Outcome::Deadlock);
        assert!(r.stats.is_none());
        let doc: serde_json::Value = serde_json::from_str(r.to_json()).expect("JSON");
        assert_eq!(doc["outcome"], "deadlock");
        assert!(doc["cycle_text"].as_array().is_some_and(|c| !c.is_empty()));
    }

    #[test]
    fn the_progress_hook_sees_time_advance_and_can_stop_the_run() {
        for threads in [1, 2] {
            let mut seen = Vec::new();
            let options = RunOptions {
                threads: Some(threads),
                ..RunOptions::default()
            }
            .on_progress(|p| {
                seen.push(p.virtual_us);
                if p.virtual_us > 30.0 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            let r = run(
                &Input::shipped("hypercube6"),
                &Input::shipped("uniform"),
                &options,
            )
            .expect("runs");
            drop(options);
            assert_eq!(r.outcome, Outcome::Stopped, "{threads} threads");
            assert!(matches!(
                r.failure,
                Some(crate::engine::EngineError::Stopped { .. })
            ));
            assert!(seen.windows(2).all(|w| w[0] <= w[1]));
            let last = seen.last().copied().unwrap_or_default();
            assert!(last > 30.0 && last < 60.0, "stopped soon after: {last} µs");
            let doc: serde_json::Value = serde_json::from_str(r.to_json()).expect("JSON");
            assert_eq!(doc["outcome"], "stopped");
        }
    }

    #[test]
    fn a_tick_budget_ends_the_run_there_on_either_engine() {
        let case = AnyCase::load_within("hypercube6", "uniform", &[], 1, None).expect("loads");
        let plan = planned(&case);
        assert_eq!((plan.nodes, plan.terminals, plan.tick_ns), (128, 64, 10.0));
        assert!(plan.need.least <= plan.need.most);
        let budget = 3000;
        assert!(plan.end_after > budget, "the plan runs past the budget");
        let mut json = Vec::new();
        for engine in [EngineKind::Sharded, EngineKind::Actors] {
            let options = RunOptions {
                engine,
                threads: Some(1),
                tick_budget: Some(budget),
                ..RunOptions::default()
            };
            let r = run_case(&case, &options).expect("runs");
            assert_eq!(r.engine, engine);
            assert_eq!(r.tick_ns, 10.0);
            let outcome = r.run.as_ref().expect("the raw outcome of a completed run");
            // At the end of the window that reaches it.
            let end = outcome.end_tick;
            assert!(
                (budget..budget + budget / 10).contains(&end),
                "ended at {end}"
            );
            assert!(r.timing.is_none(), "no check asked");
            json.push(r.to_json().to_string());
        }
        assert_eq!(json[0], json[1], "the engines agree");
        let whole = run_case(&case, &one_thread()).expect("runs");
        assert!(
            whole
                .run
                .as_ref()
                .is_some_and(|o| o.end_tick >= plan.end_after)
        );
    }

    #[test]
    fn a_checked_run_reports_what_its_timing_check_covered() {
        let case = AnyCase::load_within("hypercube6", "uniform", &short(), 1, None).expect("loads");
        let checked = RunOptions {
            check: true,
            ..one_thread()
        };
        let r = run_case(&case, &checked).expect("runs");
        let timing = r.timing.as_ref().expect("checked");
        assert!(timing.messages > 0 && timing.pairs > 0, "{timing:?}");
    }

    #[test]
    fn the_recorder_given_records_the_run() {
        let case = AnyCase::load_within("ring4", "uniform", &short(), 1, None).expect("loads");
        let AnyCase::DsLink(case) = case else {
            panic!("a ring of C104s");
        };
        let watch = crate::observe::Watch {
            packets: true,
            to: Tick::MAX,
            limit: 1_000_000,
            ..crate::observe::Watch::default()
        };
        let recorder = Arc::new(crate::observe::Recorder::new(
            watch,
            case.net.nodes().len(),
            case.net.terminals(),
        ));
        let options = RunOptions {
            threads: Some(1),
            recorder: Some(recorder.clone()),
            ..RunOptions::default()
        };
        let r = run_typed(&case, &options).expect("runs");
        assert!(r.run.is_some() || r.failure.is_some());
        assert!(!recorder.take().is_empty(), "hops were recorded");
        let unwatched = run_typed(&case, &one_thread()).expect("runs");
        assert_eq!(
            unwatched.to_json(),
            r.to_json(),
            "recording changes nothing"
        );
    }

    #[test]
    fn both_engines_stop_when_asked() {
        let case = AnyCase::load_within("ring4", "uniform", &[], 1, None).expect("loads");
        let AnyCase::DsLink(case) = case else {
            panic!("a ring of C104s");
        };
        let mut ctl = case.control();
        ctl.stop = Some(Arc::new(AtomicBool::new(true)));
        for (engine, threads) in [
            (EngineKind::Sharded, 1),
            (EngineKind::Sharded, 2),
            (EngineKind::Actors, 1),
            (EngineKind::Actors, 2),
        ] {
            let e = engine
                .run(&case.net, &ctl, threads, None)
                .expect_err("stopped");
            let crate::engine::EngineError::Stopped { tick } = e else {
                panic!("{engine:?} on {threads}: {e}");
            };
            assert!(tick < ctl.end_after, "{engine:?} on {threads}: tick {tick}");
        }
    }

    #[test]
    fn errors_say_their_kind_and_where() {
        let options = RunOptions {
            set: vec!["network.dimensions=0".into()],
            ..RunOptions::default()
        };
        let e = run(
            &Input::shipped("hypercube6"),
            &Input::shipped("uniform"),
            &options,
        )
        .expect_err("no network of 0 dimensions");
        assert_eq!(e.kind(), ErrorKind::Build);
        assert_eq!(
            e.to_string(),
            "--set network.dimensions=0: 0: give a whole number from 1 to 20"
        );
        let l = e.location().expect("located");
        assert_eq!(l.sets, vec!["network.dimensions=0".to_string()]);
        assert_eq!(l.key.as_deref(), Some("network.dimensions"));

        let text = "[network]\nkind = \"hypercube\"\ndimensions = \"six\"\n";
        let e = run(
            &Input::text("t.toml", text),
            &Input::shipped("uniform"),
            &RunOptions::default(),
        )
        .expect_err("not a number");
        assert_eq!(e.kind(), ErrorKind::Config);
        assert_eq!(
            e.to_string(),
            "t.toml:3:14: network.dimensions: the text \"six\": give a whole number from 1 to 20"
        );
        let l = e.location().expect("located");
        assert_eq!(
            (l.file.as_deref(), l.line, l.column, l.key.as_deref()),
            (
                Some("t.toml"),
                Some(3),
                Some(14),
                Some("network.dimensions")
            )
        );

        let options = RunOptions {
            deadlock_window_us: Some(0.0),
            ..RunOptions::default()
        };
        let e = run(
            &Input::shipped("ring4"),
            &Input::shipped("uniform"),
            &options,
        )
        .expect_err("no window");
        assert_eq!(e.kind(), ErrorKind::Options);
        assert!(e.location().is_none());
        let options = RunOptions {
            threads: Some(0),
            ..RunOptions::default()
        };
        let e = run(
            &Input::shipped("ring4"),
            &Input::shipped("uniform"),
            &options,
        )
        .expect_err("no threads");
        assert_eq!(e.kind(), ErrorKind::Options);
        let options = RunOptions {
            memory_limit: Some(1000),
            ..RunOptions::default()
        };
        let e = run(
            &Input::shipped("hypercube6"),
            &Input::shipped("uniform"),
            &options,
        )
        .expect_err("too large for 1000 bytes");
        assert_eq!(e.kind(), ErrorKind::TooLarge);
    }
}
