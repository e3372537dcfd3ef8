//! `emu stress` after a deadlock was found and shrunk: the summary, the traffic file
//! (written to `--out`), the command that reruns it, its wait-for cycle, and the JSON
//! document (`--json`).

use super::exit::Exit;
use super::fail;
use super::stress::StressArgs;
use emu::deadlock::waitfor;
use emu::stress::write::{Asked, Described, describe, json_text};
use emu::stress::{SearchResult, Shrunk};
use std::io::Write;

/// Prints the shrunk case, writes `--out` and `--json`; exit 3.
pub fn report_shrunk(
    a: &StressArgs,
    name: &str,
    sets: &[String],
    found: &SearchResult,
    kind: &str,
    s: &Shrunk,
) -> Exit {
    say!(
        "shrunk in {} candidate runs ({:.3e} ticks): senders {} → {}, messages per sender {} → {}, message bytes {} → {}",
        s.candidates,
        s.ticks as f64,
        s.original.senders,
        s.size.senders,
        count(s.original.messages),
        count(s.size.messages),
        s.original.bytes,
        s.size.bytes
    );
    if !s.steps.is_empty() {
        say!("  accepted, in order: {}", s.steps.join(", "));
    }
    let path = a
        .out
        .as_ref()
        .map_or("stress-deadlock.toml".to_string(), |p| {
            p.display().to_string()
        });
    let asked = Asked {
        topology: a.topology(),
        seeds: a.seeds,
        seed: a.runs.seed,
        buffers: a.buffers,
        traffic_path: &path,
    };
    let Described {
        traffic_file: text,
        command: cmd,
        doc,
    } = match describe(&asked, name, sets, found, kind, s) {
        Ok(d) => d,
        Err(e) => return fail(Exit::Failure, e),
    };
    say!(
        "\ntraffic file{}:\n",
        if a.out.is_some() {
            format!(" (written to {path})")
        } else {
            format!(" (save it as {path})")
        }
    );
    let _ = write!(std::io::stdout(), "{text}");
    say!("\nreproduce with: {cmd}");
    match &s.found.cycle {
        Some(c) => {
            say!(
                "wait-for cycle at tick {} ({} places, {} links), each waiting for the next:",
                s.found.tick,
                c.len(),
                waitfor::channels(c).len()
            );
            for line in waitfor::render(c) {
                say!("  {line}");
            }
        }
        None => say!("no wait-for cycle among the stuck nodes"),
    }
    let _ = std::io::stdout().flush();
    if let Some(p) = &a.out
        && let Err(e) = super::output::write(p, &text)
    {
        return fail(Exit::Failure, format!("cannot write {}: {e}", p.display()));
    }
    match write_json(a, &doc) {
        Exit::Ok => Exit::Deadlock,
        c => c,
    }
}

fn count(m: Option<u32>) -> String {
    m.map_or("continuous".to_string(), |k| k.to_string())
}

/// Writes `doc` to `--json` if given; returns the exit code (0, or 1 if it cannot).
pub fn write_json(a: &StressArgs, doc: &serde_json::Value) -> Exit {
    let Some(p) = &a.output.json else {
        return Exit::Ok;
    };
    match super::output::write(p, json_text(doc)) {
        Ok(()) => Exit::Ok,
        Err(e) => fail(Exit::Failure, format!("cannot write {}: {e}", p.display())),
    }
}
