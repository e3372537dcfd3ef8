//! `emu stress` on an SCI ring: the search for a starved node
//! ([`emu::stress::starvation`]). Exit 0 when no case starves a node, 3 when one does
//! (the case is printed, or written with `--out`, with the command that reruns it).

use super::exit::Exit;
use super::fail;
use super::shrunk::write_json;
use super::stress::{Buffers, StressArgs};
use emu::config::{Loaded, TopologyConfig};
use emu::pool::default_threads;
use emu::session::stem;
use emu::shard::stress::Outcome;
use emu::stress::starvation::{
    SciCase, SciStressError, Starvation, generate, run_case_watched, search_watched,
};
use emu::stress::write::{Described, describe_starved, no_starvation_json};

/// Runs the starvation search on the ring `topo`, each case's ring held to
/// `memory_limit` bytes (`None`: no limit) and the search to the run guard as the
/// deadlock search is; returns the exit code.
pub fn main(
    a: &StressArgs,
    topo: &Loaded<TopologyConfig>,
    nodes: u32,
    memory_limit: Option<u64>,
) -> Exit {
    if let Err(code) = check(a) {
        return code;
    }
    let name = stem(&topo.file.name);
    let cases = generate(a.runs.seed, a.seeds, nodes, a.run_us);
    let threads = a.runs.threads.unwrap_or_else(default_threads);
    let guard = match a.network.guard(None) {
        Ok(g) => g,
        Err(code) => return code,
    };
    guard.arm_runs("stress search", cases.len(), threads);
    let results = match search_watched(&name, &topo.config, &cases, threads, memory_limit, &guard) {
        Ok(r) => r,
        Err(e) => {
            let (code, message) = error(&e, topo);
            return fail(code, message);
        }
    };
    conclude(a, topo, cases.len(), &results)
}

/// Checks `--buffers` (an SCI ring has none to shrink), or prints the error and gives
/// exit 2.
pub fn check(a: &StressArgs) -> Result<(), Exit> {
    if a.buffers != Buffers::Topology {
        return Err(fail(
            Exit::BadInput,
            "--buffers small sets DS-Link and C104 buffers; an SCI ring has none to shrink",
        ));
    }
    Ok(())
}

/// The exit code and message of a case that could not run on the ring `topo`.
pub fn error(e: &SciStressError, topo: &Loaded<TopologyConfig>) -> (Exit, String) {
    match e {
        // The ring itself is bad input, said where its value came from.
        SciStressError::Build(b) => (
            Exit::BadInput,
            emu::family::CaseError::build(b.clone(), topo, None).to_string(),
        ),
        // A ring too large for the memory it may use is refused as in a run.
        SciStressError::Engine(e @ emu::engine::EngineError::TooLarge(_)) => {
            (Exit::BadInput, e.to_string())
        }
        e => (Exit::Failure, e.to_string()),
    }
}

/// Searches `cases` (a shard's share, in order) on `threads` threads, a chunk at a
/// time, to the first that starves a node or fails: each case's outcome, in order,
/// up to and including that one.
pub fn search_shard(
    a: &StressArgs,
    topo: &Loaded<TopologyConfig>,
    cases: &[SciCase],
    memory_limit: Option<u64>,
    guard: &dyn emu::pool::Watch,
) -> Vec<(usize, Outcome)> {
    let name = stem(&topo.file.name);
    let threads = a.runs.threads.unwrap_or_else(default_threads);
    let mut done = Vec::new();
    for chunk in cases.chunks(threads.max(1)) {
        let results: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = chunk
                .iter()
                .map(|c| {
                    let name = &name;
                    s.spawn(move || run_case_watched(name, &topo.config, c, memory_limit, guard))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        });
        for (c, r) in chunk.iter().zip(results) {
            let outcome = match r {
                Ok(r) if r.starved.is_empty() => Outcome::Clean {
                    ticks: r.ticks,
                    complete: true,
                },
                Ok(r) => Outcome::Starved {
                    nodes: r.starved,
                    ticks: r.ticks,
                },
                Err(e) => {
                    let (code, message) = error(&e, topo);
                    Outcome::Error {
                        message,
                        exit: code as u8,
                    }
                }
            };
            let stop = !matches!(outcome, Outcome::Clean { .. });
            done.push((c.index, outcome));
            if stop {
                return done;
            }
        }
    }
    done
}

/// The search's outcomes, as one process has them, from a merge's: every case up to
/// the first that did not end clean; or the exit code of a case that failed.
pub fn results(cases: &[SciCase], outcomes: &[Outcome]) -> Result<Vec<Starvation>, (Exit, String)> {
    let mut out = Vec::with_capacity(outcomes.len());
    for (case, o) in cases.iter().zip(outcomes) {
        let (starved, ticks) = match o {
            Outcome::Clean { ticks, .. } => (Vec::new(), *ticks),
            Outcome::Starved { nodes, ticks } => (nodes.clone(), *ticks),
            Outcome::Error { message, exit } => {
                return Err((Exit::from_code(*exit), message.clone()));
            }
            Outcome::Deadlock { .. } => {
                return Err((
                    Exit::BadInput,
                    format!(
                        "case {}: an SCI ring does not deadlock: these shards are not of this ring",
                        case.index + 1
                    ),
                ));
            }
        };
        out.push(Starvation {
            case: case.clone(),
            starved,
            ticks,
        });
    }
    Ok(out)
}

/// Prints the search's outcome (`results`: every case up to the first that starves a
/// node, of `cases` in all), writes the case and the JSON; returns the exit code. A
/// whole search and a merge of its shards end here alike.
pub fn conclude(
    a: &StressArgs,
    topo: &Loaded<TopologyConfig>,
    cases: usize,
    results: &[Starvation],
) -> Exit {
    let name = stem(&topo.file.name);
    if a.verbose {
        for r in results {
            say!("{}", case_line(r));
        }
    }
    let ticks: u64 = results.iter().map(|r| r.ticks).sum();
    let seeds = format!(
        "seeds {} to {} × starved, hot, permutation, hotspot",
        a.runs.seed,
        a.runs.seed + u64::from(a.seeds) - 1
    );
    let Some(found) = results.iter().find(|r| !r.starved.is_empty()) else {
        say!(
            "no starved node in {} cases ({:.3e} cycles) on {name}: {seeds}",
            results.len(),
            ticks as f64
        );
        return write_json(a, &no_starvation_json(&name, results));
    };
    let c = &found.case;
    say!(
        "node{} {} starved in case {} of {} ({} traffic, seed {}): it delivered nothing in the \
         measurement window while it had packets waiting (SCI §4.2), after {} cases ({:.3e} cycles)",
        if found.starved.len() == 1 { "" } else { "s" },
        found
            .starved
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        c.index + 1,
        cases,
        c.kind,
        c.seed,
        results.len(),
        ticks as f64
    );
    let path = a
        .out
        .as_ref()
        .map_or("CASE.toml".to_string(), |p| p.display().to_string());
    let described = describe_starved(
        &name,
        &topo.file.name,
        &a.network.sets,
        &path,
        results,
        found,
    );
    let Described {
        traffic_file: text,
        command: rerun,
        doc,
    } = match described {
        Ok(d) => d,
        Err(e) => return fail(Exit::Failure, e),
    };
    match &a.out {
        Some(p) => {
            if let Err(e) = super::output::write(p, &text) {
                return fail(Exit::Failure, format!("cannot write {}: {e}", p.display()));
            }
        }
        None => say!("\n{text}"),
    }
    say!("rerun with: {rerun}");
    let code = write_json(a, &doc);
    if code != Exit::Ok {
        code
    } else {
        Exit::Deadlock
    }
}

fn case_line(r: &Starvation) -> String {
    let c = &r.case;
    let what = if r.starved.is_empty() {
        "no node starved".to_string()
    } else {
        format!("STARVED node(s) {:?}", r.starved)
    };
    format!(
        "case {:>4}: {:<11} seed {:<6} {} cycles: {what}",
        c.index + 1,
        c.kind,
        c.seed,
        r.ticks
    )
}
