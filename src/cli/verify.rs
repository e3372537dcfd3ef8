//! `--verify-engines`: the case run on every engine and thread count, the reports
//! compared byte for byte.

use super::exit::Exit;
use super::fail;
use super::run::RunArgs;
use emu::api::{RunOptions, run_typed};
use emu::deadlock;
use emu::engine::{EngineError, EngineKind};
use emu::model::LinkProtocol;
use emu::session::Case;
use std::time::Instant;

/// `--verify-engines`: runs the case through the library's facade
/// ([`emu::api::run_typed`]) as `options` say, on every engine and thread count, and
/// compares the JSON reports (or, for a failed run, the error and what every stuck node
/// waits for) byte for byte.
pub fn verify_engines<P: LinkProtocol>(
    case: &Case<P>,
    options: &RunOptions<'_>,
    threads: usize,
    a: &RunArgs,
) -> Exit {
    let mut cases = vec![
        (EngineKind::Sharded, threads),
        (EngineKind::Actors, threads),
    ];
    if threads != 1 {
        cases.extend([(EngineKind::Sharded, 1), (EngineKind::Actors, 1)]);
    }
    let mut results: Vec<(String, String)> = Vec::new();
    // The exit code of the first engine's failure, if it failed.
    let mut failed: Option<Exit> = None;
    for (engine, t) in cases {
        let label = format!(
            "{} on {t} thread{}",
            engine.name(),
            if t == 1 { "" } else { "s" }
        );
        let wall = Instant::now();
        let one = RunOptions {
            set: options.set.clone(),
            seed: options.seed,
            engine,
            threads: Some(t),
            check: options.check,
            deadlock_window_us: options.deadlock_window_us,
            memory_limit: options.memory_limit,
            ..RunOptions::default()
        };
        let error = match run_typed(case, &one) {
            Ok(r) => match r.failure {
                Some(e) => Err(e),
                None => Ok(r.to_json().to_string()),
            },
            Err(e) if e.timing_error().is_some() => return fail(Exit::FlowControl, e),
            Err(e) => match e.into_engine_error() {
                Ok(e) => Err(e),
                Err(e) => return fail(Exit::Failure, e),
            },
        };
        let text = match error {
            Ok(json) => json,
            // Not a result of the case: nothing to compare.
            Err(e @ EngineError::Threads { .. }) => return fail(Exit::Failure, e),
            Err(e) => {
                if results.is_empty() {
                    failed = Some(super::exit::of_engine(&e));
                }
                failure_text(&e)
            }
        };
        say!(
            "{label}: {:.2} s, {} bytes of report",
            wall.elapsed().as_secs_f64(),
            text.len()
        );
        results.push((label, text));
    }
    let (ref_label, reference) = &results[0];
    let mut same = true;
    for (label, text) in &results[1..] {
        if text != reference {
            same = false;
            let line = reference
                .lines()
                .zip(text.lines())
                .position(|(x, y)| x != y)
                .unwrap_or_else(|| reference.lines().count().min(text.lines().count()));
            say!(
                "DIFFER: {label} and {ref_label} first differ at line {}:",
                line + 1
            );
            say!(
                "  {ref_label}: {}",
                reference.lines().nth(line).unwrap_or("(end)")
            );
            say!("  {label}: {}", text.lines().nth(line).unwrap_or("(end)"));
        }
    }
    if !same {
        return Exit::Failure;
    }
    let names: Vec<&str> = results.iter().map(|(l, _)| l.as_str()).collect();
    if let Some(code) = failed {
        // The engines agree that the case fails: the failure is the answer, and its
        // code the exit code (a deadlock is exit 3 whether or not it was verified).
        say!(
            "engines agree: {} failed the same way ({} bytes of failure)",
            names.join(", "),
            reference.len()
        );
        return fail(code, reference.lines().next().unwrap_or_default());
    }
    say!(
        "engines agree: {} gave byte-identical results ({} bytes)",
        names.join(", "),
        reference.len()
    );
    if let Some(path) = &a.output.json
        && let Err(code) = super::output::write_or_fail(path, reference)
    {
        return code;
    }
    Exit::Ok
}

/// A failed run as text: the error, and what every stuck node waits for.
fn failure_text(e: &EngineError) -> String {
    let mut s = format!("{e}\n");
    if let EngineError::Deadlock { stuck, cycle, .. } = e {
        for line in cycle
            .as_deref()
            .map(deadlock::waitfor::render)
            .unwrap_or_default()
        {
            s.push_str(&format!("{line}\n"));
        }
        for n in stuck {
            for w in &n.waits {
                s.push_str(&format!("{} {w}\n", n.name));
            }
        }
    }
    if let EngineError::BlockedByFault { blocked, .. } = e {
        for b in blocked {
            s.push_str(&format!("{b}\n"));
        }
    }
    s
}
