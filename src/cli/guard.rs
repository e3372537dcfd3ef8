//! The run guard: a thread that watches a run and stops the process with exit 2 and one
//! line when
//! - **memory** crosses its limit, saying what grew and how big it got — before the
//!   allocator aborts (exit 134) or the kernel's OOM killer ends it without a word. The
//!   estimate before a run ([`emu::memory::Need`]) refuses networks too large to build;
//!   this catches what grows while running (source queues above saturation,
//!   histograms, the engines' queues);
//! - **wall time**: a run whose pace so far (virtual time per second, measured on this
//!   machine under its current load) projects it past `--time-limit`, saying how long
//!   it would take. The projection is made from the run's first seconds, so a run that
//!   would take hours says so at once instead of running silently.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use emu::memory::{Bound, human};
use emu::model::Activity;
use emu::stats::format::group;

/// How often memory is looked at: often enough that a run growing at 1 GB/s is
/// stopped within about 50 MB of its limit.
const POLL: Duration = Duration::from_millis(50);

/// The share of a bound's headroom at the start that a run may take before it is
/// stopped: the rest is left for the allocator's next growth step and the system.
const SHARE: f64 = 0.9;

/// What the run reported last, for the message.
#[derive(Debug)]
struct Seen {
    /// Virtual time in nanoseconds.
    now_ns: AtomicU64,
    /// Messages created so far.
    created: AtomicU64,
    /// Messages delivered so far.
    delivered: AtomicU64,
    /// The network's estimated need lightly loaded, in bytes (0: not known).
    estimate: AtomicU64,
    /// Virtual nanoseconds at which the run's measured part ends (0: not known).
    end_ns: AtomicU64,
    /// Wall nanoseconds since the guard started at which the run began (u64::MAX: not
    /// begun).
    began_ns: AtomicU64,
    /// Memory is watched from the first run on: before it, building the network is
    /// held to the estimate, which refuses with the size it would need.
    armed: AtomicBool,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            now_ns: AtomicU64::new(0),
            created: AtomicU64::new(0),
            delivered: AtomicU64::new(0),
            estimate: AtomicU64::new(0),
            end_ns: AtomicU64::new(0),
            began_ns: AtomicU64::new(u64::MAX),
            armed: AtomicBool::new(false),
        }
    }
}

/// A running guard; dropping it stops the thread.
#[derive(Debug)]
pub struct RunGuard {
    stop: Arc<AtomicBool>,
    seen: Arc<Seen>,
    clock: Instant,
    thread: Option<JoinHandle<()>>,
}

/// The least wall time a run is watched before its pace is taken as its pace.
const PACE_AFTER: Duration = Duration::from_secs(2);

/// The limits a guard holds a run to: each bound as it was at the start, and how far
/// its use may go.
#[derive(Clone, Debug)]
struct Limits {
    /// (bound at the start, the use at which the run is stopped).
    trips: Vec<(Bound, u64)>,
}

impl Limits {
    /// From `--memory-limit` (`Some(Some(bytes))`: resident memory may grow by that
    /// much from now, as the estimate is held to it; `Some(None)`: no limit, no guard;
    /// `None`: every bound the system states).
    fn new(explicit: Option<Option<u64>>) -> Option<Limits> {
        let trips = match explicit {
            Some(None) => return None,
            Some(Some(bytes)) => {
                let used = emu::memory::resident()?;
                let most = used.saturating_add(bytes);
                vec![(
                    Bound {
                        what: "--memory-limit",
                        used,
                        most,
                    },
                    most,
                )]
            }
            None => emu::memory::bounds()
                .into_iter()
                .map(|b| {
                    let trip = b.used + (b.headroom() as f64 * SHARE) as u64;
                    (b, trip)
                })
                .collect(),
        };
        (!trips.is_empty()).then_some(Limits { trips })
    }

    /// The first bound crossed now, with its use.
    fn crossed(&self) -> Option<(&Bound, u64)> {
        let now = emu::memory::bounds();
        self.trips.iter().find_map(|(start, trip)| {
            let used = if start.what == "--memory-limit" {
                emu::memory::resident()?
            } else {
                now.iter().find(|b| b.what == start.what)?.used
            };
            (used > *trip).then_some((start, used))
        })
    }
}

impl RunGuard {
    /// Starts watching. `memory` is what `--memory-limit` said (see [`Limits::new`]);
    /// `time_limit` is the most wall time a run may be projected to take (`None`: no
    /// limit). With nothing to hold, no thread is started.
    pub fn start(memory: Option<Option<u64>>, time_limit: Option<Duration>) -> RunGuard {
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(Seen::new());
        let clock = Instant::now();
        let limits = Limits::new(memory);
        let thread = (limits.is_some() || time_limit.is_some())
            .then(|| {
                let (stop, seen) = (Arc::clone(&stop), Arc::clone(&seen));
                std::thread::Builder::new()
                    .name("emu-run-guard".into())
                    .spawn(move || watch(limits.as_ref(), time_limit, clock, &stop, &seen))
                    .ok()
            })
            .flatten();
        RunGuard {
            stop,
            seen,
            clock,
            thread,
        }
    }

    /// Records that the run begins: the network's estimated light-load need (for the
    /// memory message) and the virtual time its measured part ends at (for the
    /// projection of its wall time), and starts watching memory.
    pub fn begin(&self, estimate_bytes: u64, end_ns: f64) {
        self.arm();
        self.seen.estimate.store(estimate_bytes, Ordering::Relaxed);
        self.seen.end_ns.store(end_ns as u64, Ordering::Relaxed);
    }

    /// Starts watching memory (runs that report no progress: replications).
    pub fn arm(&self) {
        self.seen.armed.store(true, Ordering::Relaxed);
    }

    /// Records where the run is (called from the progress callback). The pace is
    /// measured from the first call, once the engine has built its nodes and time
    /// moves.
    pub fn note(&self, now_ns: f64, activity: &Activity) {
        if self.seen.began_ns.load(Ordering::Relaxed) == u64::MAX {
            let began = self
                .clock
                .elapsed()
                .as_nanos()
                .min(u128::from(u64::MAX - 1)) as u64;
            self.seen.began_ns.store(began, Ordering::Relaxed);
        }
        self.seen.now_ns.store(now_ns as u64, Ordering::Relaxed);
        self.seen
            .created
            .store(activity.messages_created, Ordering::Relaxed);
        self.seen
            .delivered
            .store(activity.messages_delivered, Ordering::Relaxed);
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn watch(
    limits: Option<&Limits>,
    time_limit: Option<Duration>,
    clock: Instant,
    stop: &AtomicBool,
    seen: &Seen,
) {
    while !stop.load(Ordering::Relaxed) {
        if seen.armed.load(Ordering::Relaxed)
            && let Some((bound, used)) = limits.and_then(Limits::crossed)
        {
            eprintln!("error: {}", memory_message(bound, used, seen));
            std::process::exit(super::Exit::BadInput as i32);
        }
        if let Some(limit) = time_limit
            && let Some(projected) = projection(clock, limit, seen)
            && projected > limit
        {
            eprintln!("error: {}", time_message(projected, limit, clock, seen));
            std::process::exit(super::Exit::BadInput as i32);
        }
        std::thread::sleep(POLL);
    }
}

/// The wall time the whole run is projected to take from its pace so far, once it
/// has been watched long enough ([`PACE_AFTER`], or a tenth of a short limit).
fn projection(clock: Instant, limit: Duration, seen: &Seen) -> Option<Duration> {
    let began = seen.began_ns.load(Ordering::Relaxed);
    if began == u64::MAX {
        return None;
    }
    let ran = clock.elapsed().saturating_sub(Duration::from_nanos(began));
    if ran < PACE_AFTER.min(limit / 10) {
        return None;
    }
    let (now, end) = (
        seen.now_ns.load(Ordering::Relaxed),
        seen.end_ns.load(Ordering::Relaxed),
    );
    if end == 0 || now >= end {
        return None;
    }
    // Not one tick yet: at least this slow.
    let done = (now as f64 / end as f64).max(1e-9);
    Some(Duration::from_secs_f64(
        (ran.as_secs_f64() / done).min(1e12),
    ))
}

/// "2 h 5 min", "14 min", "40 s".
fn span(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{} h {} min", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{} min", s / 60)
    } else {
        format!("{s} s")
    }
}

/// The one line for a run projected past the time limit.
fn time_message(projected: Duration, limit: Duration, clock: Instant, seen: &Seen) -> String {
    let began = Duration::from_nanos(seen.began_ns.load(Ordering::Relaxed));
    let ran = clock.elapsed().saturating_sub(began);
    let us = |ns: u64| ns as f64 / 1000.0;
    format!(
        "time: this run would take about {} of wall time at its pace so far ({:.1} of {:.1} µs \
         of virtual time in {:.1} s), more than --time-limit {} min; shorten the phases, lower \
         the load or make the network smaller, or give --time-limit 0 to run it anyway",
        span(projected),
        us(seen.now_ns.load(Ordering::Relaxed)),
        us(seen.end_ns.load(Ordering::Relaxed)),
        ran.as_secs_f64(),
        minutes(limit),
    )
}

/// A limit in minutes as the user would have typed it: "60", "0.5", "0.05".
fn minutes(limit: Duration) -> String {
    let text = format!("{:.3}", limit.as_secs_f64() / 60.0);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The one line: how big the run got against which bound, when, and what grew.
fn memory_message(bound: &Bound, used: u64, seen: &Seen) -> String {
    let now_us = seen.now_ns.load(Ordering::Relaxed) as f64 / 1000.0;
    let created = seen.created.load(Ordering::Relaxed);
    let delivered = seen.delivered.load(Ordering::Relaxed);
    let waiting = created.saturating_sub(delivered);
    let estimate = seen.estimate.load(Ordering::Relaxed);
    let built = if estimate > 0 {
        format!(
            "; the network was estimated at {} lightly loaded",
            human(estimate)
        )
    } else {
        String::new()
    };
    // A queued message is a few words, plus its queue's share of spare room.
    let waiting_bytes = waiting.saturating_mul(48);
    let grown = used.saturating_sub(bound.used);
    let what_grew = if waiting_bytes.saturating_mul(2) >= grown {
        format!(
            "mostly the {} messages created and not yet delivered (about {}: source queues \
             grow when the offered load is above what the network carries)",
            group(waiting),
            human(waiting_bytes)
        )
    } else {
        format!(
            "{} messages wait (about {}); the rest is the network's buffers, queues and \
             latency histograms filling beyond their light-load estimate",
            group(waiting),
            human(waiting_bytes)
        )
    };
    // Several runs at once (a sweep, a search) report no progress of their own.
    let (whose, when) = if seen.began_ns.load(Ordering::Relaxed) == u64::MAX {
        ("the runs", String::new())
    } else {
        ("the run", format!(", at {now_us:.1} µs of virtual time"))
    };
    let what_grew = if seen.began_ns.load(Ordering::Relaxed) == u64::MAX {
        "their buffers, queues and statistics grew".to_string()
    } else {
        what_grew
    };
    format!(
        "memory: {whose} grew to {} against {} of {} ({} used at the start){when}: \
         {what_grew}{built}. Stopped before the system runs out: lower the load, shorten the \
         run or make the network smaller (--memory-limit 0 runs without this guard)",
        human(used),
        human(bound.most),
        bound.what,
        human(bound.used),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(now_ns: u64, end_ns: u64, began_ns: u64) -> Seen {
        let s = Seen::new();
        s.now_ns.store(now_ns, Ordering::Relaxed);
        s.end_ns.store(end_ns, Ordering::Relaxed);
        s.began_ns.store(began_ns, Ordering::Relaxed);
        s
    }

    #[test]
    fn a_run_is_projected_from_its_pace_once_watched_long_enough() {
        let clock = Instant::now() - Duration::from_secs(4);
        let hour = Duration::from_secs(3600);
        // Not begun, no end known, or already past its end: no projection.
        assert_eq!(projection(clock, hour, &Seen::new()), None);
        assert_eq!(projection(clock, hour, &seen(10, 0, 0)), None);
        assert_eq!(projection(clock, hour, &seen(10, 10, 0)), None);
        // Begun 1 s ago: too soon to judge against an hour.
        let recent = clock.elapsed().as_nanos() as u64 - 1_000_000_000;
        assert_eq!(projection(clock, hour, &seen(1, 100, recent)), None);
        // 4 s for a tenth of the run: about 40 s in all.
        let p = projection(clock, hour, &seen(10, 100, 0)).expect("projected");
        assert!((39.0..42.0).contains(&p.as_secs_f64()), "{p:?}");
        // Not one tick in 4 s: at least as slow as the bound allows.
        let p = projection(clock, hour, &seen(0, 100, 0)).expect("projected");
        assert!(p > hour);
    }

    #[test]
    fn messages_say_how_long_and_how_big() {
        assert_eq!(span(Duration::from_secs(7500)), "2 h 5 min");
        assert_eq!(span(Duration::from_secs(840)), "14 min");
        assert_eq!(span(Duration::from_secs(40)), "40 s");
        assert_eq!(minutes(Duration::from_secs(3600)), "60");
        assert_eq!(minutes(Duration::from_secs_f64(0.05 * 60.0)), "0.05");
        let clock = Instant::now() - Duration::from_secs(2);
        let m = time_message(
            Duration::from_secs(7500),
            Duration::from_secs(3600),
            clock,
            &seen(1_000, 600_000, 0),
        );
        assert!(
            m.starts_with("time: this run would take about 2 h 5 min of wall time"),
            "{m}"
        );
        assert!(m.contains("(1.0 of 600.0 µs of virtual time in 2."), "{m}");
        assert!(m.contains("--time-limit 60 min"), "{m}");
        let s = seen(1_000_000, 0, 0);
        s.created.store(1_000_000, Ordering::Relaxed);
        s.estimate.store(5_000_000, Ordering::Relaxed);
        let bound = Bound {
            what: "--memory-limit",
            used: 10_000_000,
            most: 100_000_000,
        };
        let m = memory_message(&bound, 60_000_000, &s);
        assert!(
            m.starts_with("memory: the run grew to 60 MB against 100 MB"),
            "{m}"
        );
        assert!(m.contains("mostly the 1,000,000 messages created"), "{m}");
        assert!(m.contains("estimated at 5 MB lightly loaded"), "{m}");
        assert!(!m.contains('\n'));
    }
}
