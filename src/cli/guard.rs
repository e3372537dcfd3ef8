//! The run guard: stops the process with exit 2 and one line when
//! - **memory** reaches its limit, saying what grew and how big it got — before an
//!   allocation can fail (Rust aborts then, exit 134) or the kernel's OOM killer ends
//!   the process without a word (exit 137). The estimate before a run
//!   ([`emu::memory::Need`]) refuses networks too large to build; the guard catches what
//!   grows while building and running (source queues above saturation, histograms, the
//!   engines' queues). Every allocation is counted where it is made
//!   ([`crate::alloc`]): the guard sets the count at which the run stops, a reserve
//!   short of the tightest limit, and the allocation that crosses it stops every
//!   thread and wakes the guard at once, which writes the line from the reserve. The
//!   system's own figures (address space against `ulimit -v`, the cgroup's working
//!   set against its `memory.max`, resident memory against what the machine has
//!   available) are read every [`POLL`] to keep the count's trip level in step with
//!   them (thread stacks, the allocator's slack);
//! - **memory growth**: a run whose growth at its pace so far (bytes per virtual
//!   microsecond over the later half of the run so far) projects it past its limit
//!   by the end of its measured part, saying how big it would get, after
//!   [`PACE_AFTER`] of wall time rather than when it gets there; and a job of many
//!   runs (a sweep, a stress search) whose runs in flight are projected past it by
//!   the time the first of them ends its measured part ([`runs`]);
//! - **wall time**: a run whose pace so far (virtual time per second, measured on this
//!   machine under its current load) projects it past `--time-limit`, saying how long
//!   it would take. The projection is made from the run's first seconds, so a run that
//!   would take hours says so at once instead of running silently.

mod runs;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::alloc;
use emu::memory::{Bound, human};
use emu::model::Activity;
use emu::stats::format::group;
use runs::{Epoch, NOT_WATCHED, Runs};

/// How often the system's figures are read and the trip level set from them. The stop
/// itself does not wait for it: the allocation that crosses the trip wakes the guard.
const POLL: Duration = Duration::from_millis(50);

/// The share of a system bound's headroom at the start that a run may take before it
/// is stopped: the rest is left for the allocator's next growth step and the system.
const SHARE: f64 = emu::memory::SHARE;

/// Counted bytes kept back below each limit: what the guard needs to write its line,
/// and room for what grows outside the count between two readings of the system's
/// figures (a thread's stack, the allocator's slack).
const RESERVE: u64 = emu::memory::RESERVE;

/// The least growth `--memory-limit` stops a run for: what a refusal and its message
/// allocate stays below it, so a network refused for its size (even under
/// `--memory-limit 1e-9`) gets that one line and not the guard's as well.
const FLOOR: u64 = 4 << 20;

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
    /// The network's estimated need with its buffers full, in bytes (0: not known).
    estimate_full: AtomicU64,
    /// The most its latency histograms grow by a doubling, in bytes.
    per_doubling: AtomicU64,
    /// Virtual nanoseconds at which the run's measured part starts.
    from_ns: AtomicU64,
    /// Virtual nanoseconds at which the run's measured part ends (0: not known).
    end_ns: AtomicU64,
    /// Wall nanoseconds since the guard started at which the run began (u64::MAX: not
    /// begun).
    began_ns: AtomicU64,
    /// Counted bytes when the run began or was armed (u64::MAX: not yet): where
    /// `--memory-limit` counts from.
    armed_at: AtomicU64,
    /// The runs of a job of many, once armed for them ([`RunGuard::arm_runs`]).
    runs: OnceLock<Runs>,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            now_ns: AtomicU64::new(0),
            created: AtomicU64::new(0),
            delivered: AtomicU64::new(0),
            estimate: AtomicU64::new(0),
            estimate_full: AtomicU64::new(0),
            per_doubling: AtomicU64::new(0),
            from_ns: AtomicU64::new(0),
            end_ns: AtomicU64::new(0),
            began_ns: AtomicU64::new(u64::MAX),
            armed_at: AtomicU64::new(u64::MAX),
            runs: OnceLock::new(),
        }
    }

    /// Whether the run (or the runs) began.
    fn armed(&self) -> bool {
        self.armed_at.load(Ordering::Relaxed) != u64::MAX
    }

    fn waiting(&self) -> u64 {
        self.created
            .load(Ordering::Relaxed)
            .saturating_sub(self.delivered.load(Ordering::Relaxed))
    }
}

/// A running guard; dropping it stops the thread.
#[derive(Debug)]
pub struct RunGuard {
    stop: Arc<AtomicBool>,
    seen: Arc<Seen>,
    limits: Option<Arc<Limits>>,
    clock: Instant,
    thread: Option<JoinHandle<()>>,
}

/// Bytes a message waiting in a source queue is taken to hold: a few words, and its
/// queue's share of spare room.
const WAITING_BYTES: u64 = 48;

/// The least wall time a run is watched before its pace is taken as its pace.
const PACE_AFTER: Duration = Duration::from_secs(2);

/// One limit a guard holds the process to.
#[derive(Clone, Debug)]
struct Limit {
    /// The bound as it was at the start (`--memory-limit`: counted from when the run
    /// begins, see [`Limits::bound`]).
    start: Bound,
    /// The system's figure at which the run is stopped (`--memory-limit`: the growth
    /// of the count it allows).
    trip: u64,
    /// `--memory-limit` (counted bytes), or a bound the system states (its figures).
    explicit: bool,
}

/// The limits a guard holds a run to, and which of them was tightest when the trip
/// level was last set.
#[derive(Debug)]
struct Limits {
    list: Vec<Limit>,
    tightest: AtomicUsize,
}

impl Limits {
    /// From `--memory-limit` (`Some(Some(bytes))`: the counted memory may grow by that
    /// much once the run begins, as the estimate is held to it, besides every bound
    /// the system states; `Some(None)`: no limit, no guard; `None`: every bound the
    /// system states).
    fn new(explicit: Option<Option<u64>>) -> Option<Limits> {
        let mut list: Vec<Limit> = emu::memory::bounds()
            .into_iter()
            .map(|b| Limit {
                start: b,
                trip: b.used + (b.headroom() as f64 * SHARE) as u64,
                explicit: false,
            })
            .collect();
        match explicit {
            Some(None) => return None,
            Some(Some(bytes)) => list.insert(
                0,
                Limit {
                    start: Bound {
                        what: "--memory-limit",
                        used: 0,
                        most: bytes,
                    },
                    trip: bytes.max(FLOOR),
                    explicit: true,
                },
            ),
            None => {}
        }
        (!list.is_empty()).then_some(Limits {
            list,
            tightest: AtomicUsize::new(0),
        })
    }

    /// Limit `i` as messages give it: `--memory-limit` counted from `armed_at`.
    fn bound(&self, i: usize, armed_at: u64) -> Bound {
        let l = &self.list[i];
        if l.explicit {
            Bound {
                what: l.start.what,
                used: armed_at,
                most: armed_at.saturating_add(l.start.most),
            }
        } else {
            l.start
        }
    }

    /// The count at which each limit would be reached, given the system's figures
    /// `now` and the count `live` read with them, less the reserve: (count, limit).
    fn trips(&self, now: &[Bound], live: u64, seen: &Seen) -> Vec<(u64, usize)> {
        let armed_at = seen.armed_at.load(Ordering::Relaxed);
        self.list
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                let at = if l.explicit {
                    if armed_at == u64::MAX {
                        return None;
                    }
                    armed_at.saturating_add(l.trip)
                } else {
                    let used = now.iter().find(|b| b.what == l.start.what)?.used;
                    live.saturating_add(l.trip.saturating_sub(used))
                        .saturating_sub(RESERVE)
                };
                Some((at, i))
            })
            .collect()
    }

    /// Sets the allocator's trip level from the system's figures now; returns it. Takes
    /// no lock (the guard's thread and `arm` may both call it; the later setting holds):
    /// a thread stopped at an allocation while calibrating must not hold the guard up.
    fn calibrate(&self, seen: &Seen) -> u64 {
        let now = emu::memory::bounds();
        let live = alloc::live();
        match self.trips(&now, live, seen).into_iter().min() {
            Some((at, i)) => {
                self.tightest.store(i, Ordering::Relaxed);
                alloc::set_trip(at);
                at
            }
            None => u64::MAX,
        }
    }

    /// The first bound the system's figures show crossed now, with its figure.
    fn crossed(&self) -> Option<(usize, u64)> {
        let now = emu::memory::bounds();
        self.list.iter().enumerate().find_map(|(i, l)| {
            if l.explicit {
                return None;
            }
            let used = now.iter().find(|b| b.what == l.start.what)?.used;
            (used > l.trip).then_some((i, used))
        })
    }

    /// The figure of limit `i` at which the run is stopped: the share of the system's
    /// bound, or the growth `--memory-limit` allows from `armed_at`.
    fn stop_at(&self, i: usize, armed_at: u64) -> u64 {
        let l = &self.list[i];
        if l.explicit {
            armed_at.saturating_add(l.trip)
        } else {
            l.trip
        }
    }

    /// Limit `i`'s figure now: the system's, or the count for `--memory-limit`.
    fn used(&self, i: usize) -> u64 {
        let l = &self.list[i];
        if l.explicit {
            return alloc::live();
        }
        emu::memory::bounds()
            .iter()
            .find(|b| b.what == l.start.what)
            .map_or(l.start.used, |b| b.used)
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
        let limits = Limits::new(memory).map(Arc::new);
        let thread = (limits.is_some() || time_limit.is_some())
            .then(|| {
                let (stop, seen) = (Arc::clone(&stop), Arc::clone(&seen));
                let limits = limits.clone();
                let (ready_tx, ready_rx) = std::sync::mpsc::channel();
                let t = std::thread::Builder::new()
                    .name("emu-run-guard".into())
                    .spawn(move || {
                        alloc::watch_from_here();
                        if let Some(l) = &limits {
                            l.calibrate(&seen);
                        }
                        let _ = ready_tx.send(());
                        watch(limits.as_deref(), time_limit, clock, &stop, &seen)
                    })
                    .ok()?;
                // The trip is set before the caller builds anything.
                let _ = ready_rx.recv();
                Some(t)
            })
            .flatten();
        RunGuard {
            stop,
            seen,
            limits,
            clock,
            thread,
        }
    }

    /// Records that the run begins: the network's estimated need (for the memory
    /// messages and the projection of its growth) and the virtual times its measured
    /// part starts and ends at (for the projections of its wall time and memory), and
    /// starts counting `--memory-limit`.
    pub fn begin(&self, started: emu::pool::Started) {
        self.seen
            .estimate
            .store(started.need.least, Ordering::Relaxed);
        self.seen
            .estimate_full
            .store(started.need.most, Ordering::Relaxed);
        self.seen
            .per_doubling
            .store(started.per_doubling, Ordering::Relaxed);
        self.seen
            .from_ns
            .store(started.from_ns as u64, Ordering::Relaxed);
        self.seen
            .end_ns
            .store(started.end_ns as u64, Ordering::Relaxed);
        self.arm();
    }

    /// Starts counting `--memory-limit` from the memory used now, and follows the runs
    /// of a job of many: `job` names it in messages ("sweep", "stress search"), of
    /// `total` runs, up to `at_once` in flight at a time, each telling the guard how it
    /// goes as a [`emu::pool::Watch`] (a run begun while `at_once` are in flight is
    /// counted, not followed, and nothing is projected while it runs).
    pub fn arm_runs(&self, job: &'static str, total: usize, at_once: usize) {
        let _ = self.seen.runs.set(Runs::new(job, total, at_once));
        self.arm();
    }

    /// Starts counting `--memory-limit` from the memory used now (runs that report no
    /// progress: replications; a job of many whose runs do, [`RunGuard::arm_runs`]).
    /// The limits the system states are held from the start.
    pub fn arm(&self) {
        if self.seen.armed() {
            return;
        }
        self.seen.armed_at.store(alloc::live(), Ordering::Relaxed);
        if let Some(l) = &self.limits
            && self.thread.is_some()
        {
            l.calibrate(&self.seen);
        }
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

/// The runs of a job of many tell the guard how they go (once armed for them,
/// [`RunGuard::arm_runs`]; before, nothing is kept).
impl emu::pool::Watch for RunGuard {
    fn begin(&self) -> usize {
        self.seen.runs.get().map_or(NOT_WATCHED, Runs::begin)
    }

    fn running(&self, run: usize, started: emu::pool::Started) {
        if let Some(r) = self.seen.runs.get() {
            r.running(run, &started);
        }
    }

    fn note(&self, run: usize, now_ns: f64, activity: &Activity) {
        if let Some(r) = self.seen.runs.get() {
            r.note(
                run,
                now_ns,
                activity.messages_created,
                activity.messages_delivered,
            );
        }
    }

    fn end(&self, run: usize) {
        if let Some(r) = self.seen.runs.get()
            && run != NOT_WATCHED
        {
            r.end(run);
        }
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// Writes `error: {line}` on stderr straight to its file descriptor, not through
/// `std::io::stderr`'s lock, which a thread stopped at an allocation may hold; and
/// ends the process with exit 2.
fn stop_with(line: &str) -> ! {
    let text = format!("error: {line}\n");
    let mut rest = text.as_bytes();
    while !rest.is_empty() {
        // SAFETY: writes bytes of a live buffer to stderr's descriptor.
        let n = unsafe { libc::write(2, rest.as_ptr().cast(), rest.len()) };
        if n <= 0 {
            break;
        }
        rest = &rest[n as usize..];
    }
    std::process::exit(super::Exit::BadInput as i32)
}

/// One look at a run (or at the runs in flight of a job of many): how far it is, and
/// what the count was.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Look {
    /// How far: virtual nanoseconds (a run), or billionths of a measured part moved
    /// together since the runs in flight were followed; never less than the last look's.
    at: u64,
    /// How far in doublings: log2 of the virtual time since the measured part began (a
    /// run), or the sum of log2 of each run's share of its measured part done (the
    /// runs in flight). The latency histograms record measured messages only, so their
    /// longest latency is at most that time.
    doublings: f64,
    /// Counted bytes.
    live: u64,
    /// Messages created and not yet delivered.
    waiting: u64,
}

impl Look {
    /// A run at `now_ns` of virtual time, whose measured part began at `from_ns`.
    fn run(now_ns: u64, from_ns: u64, live: u64, waiting: u64) -> Look {
        Look {
            at: now_ns,
            doublings: measured_doublings(now_ns, from_ns),
            live,
            waiting,
        }
    }
}

/// log2 of the virtual nanoseconds from `from_ns` to `now_ns` (0 up to the first).
fn measured_doublings(now_ns: u64, from_ns: u64) -> f64 {
    (now_ns.saturating_sub(from_ns).max(1) as f64).log2()
}

/// What is known of a run (or of the runs in flight) beyond its looks, for the bounds on
/// its growth: the count `base` when it began; its network's estimated need lightly
/// loaded (`least`) and with its buffers full (`full`; 0: not known, and nothing is
/// bounded), and the most its latency histograms grow by a doubling (`per_doubling`,
/// [`emu::memory::Need::per_doubling`]), each summed over the `runs` in flight.
///
/// A histogram is made at 16 kB and grows by 8 kB each time its longest latency
/// doubles: the histograms made so far grow by at most half their size a doubling,
/// and a run's by at most half of what it grew beyond its light-load estimate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Known {
    base: u64,
    least: u64,
    full: u64,
    per_doubling: u64,
    runs: u64,
}

/// What the guard's thread keeps between its looks: the run's memory at times past.
#[derive(Debug, Default)]
struct Pace {
    /// In the order of `at`; thinned to at most [`Pace::KEEP`].
    samples: Vec<Look>,
}

impl Pace {
    const KEEP: usize = 512;

    fn add(&mut self, look: Look) {
        if self.samples.last().is_some_and(|s| s.at >= look.at) {
            return;
        }
        if self.samples.len() == Self::KEEP {
            // Every other one: the spacing doubles, the span stays.
            let kept: Vec<_> = self.samples.iter().copied().step_by(2).collect();
            self.samples = kept;
        }
        self.samples.push(look);
    }

    /// The counted bytes the run is projected to reach by the time it is at `end` (its
    /// `at` and `doublings` then), from its growth over the later half of the way so
    /// far, in two parts:
    /// - the messages waiting in source queues ([`WAITING_BYTES`] each), which grow
    ///   without bound when the offered load is above what the network carries: carried
    ///   on in proportion to the way to go;
    /// - the rest, the network's buffers and latency histograms, which do not: a
    ///   histogram grows by a step each time the longest latency it holds doubles, and
    ///   latencies grow at most as fast as the run goes, so the rest is carried on in
    ///   proportion to the doublings to go, at the lesser of its pace per doubling over
    ///   the later half and over the last quarter (histograms are made, 16 kB each, once
    ///   they hold 64 values: a pace that includes their making slows once they are
    ///   made), never faster than the histograms can grow (see [`Known`]; those yet
    ///   to be made are not foreseen) nor past the network's estimate with its buffers
    ///   full.
    fn projected(&self, end: (u64, f64), known: Known) -> Option<u64> {
        let now = *self.samples.last()?;
        let (end_at, end_doublings) = end;
        if now.at == 0 || now.at >= end_at {
            return None;
        }
        let then = *self
            .samples
            .iter()
            .rev()
            .find(|s| s.at <= now.at / 2)
            .or_else(|| self.samples.first())?;
        if then.at >= now.at || now.live <= then.live {
            return None;
        }
        let queued = now.waiting.saturating_mul(WAITING_BYTES);
        let queue_growth = queued.saturating_sub(then.waiting.saturating_mul(WAITING_BYTES));
        let rest = now.live.saturating_sub(queued);
        let carried = |bytes: u64, growth: f64, ahead: f64| {
            (bytes as f64 + growth * ahead.max(0.0)).min(u64::MAX as f64 / 4.0) as u64
        };
        let queue_then = carried(
            queued,
            queue_growth as f64,
            (end_at - now.at) as f64 / (now.at - then.at) as f64,
        );
        // The rest's growth per doubling since `since`, if it spans any.
        let per_doubling = |since: &Look| {
            let spanned = now.doublings - since.doublings;
            let queue_growth = queued.saturating_sub(since.waiting.saturating_mul(WAITING_BYTES));
            let growth = now
                .live
                .saturating_sub(since.live)
                .saturating_sub(queue_growth);
            (spanned > 1e-9).then(|| growth as f64 / spanned)
        };
        let recent = self
            .samples
            .iter()
            .rev()
            .find(|s| s.at <= now.at - (now.at - then.at) / 2)
            .unwrap_or(&then);
        // Growth with no doubling to show for it (before the measured part) is not
        // carried on.
        let mut pace = match (per_doubling(&then), per_doubling(recent)) {
            (Some(a), Some(b)) => a.min(b),
            _ => 0.0,
        };
        if known.full > 0 {
            // Doublings are summed over the runs: each run's own bound per doubling.
            let runs = known.runs.max(1) as f64;
            let grown = rest.saturating_sub(known.base.saturating_add(known.least));
            pace = pace
                .min(known.per_doubling as f64 / runs)
                .min(grown as f64 / 2.0 / runs);
        }
        let mut rest_then = carried(rest, pace, end_doublings - now.doublings);
        if known.full > 0 {
            rest_then = rest_then.min(known.base.saturating_add(known.full).max(rest));
        }
        Some(queue_then.saturating_add(rest_then))
    }
}

fn watch(
    limits: Option<&Limits>,
    time_limit: Option<Duration>,
    clock: Instant,
    stop: &AtomicBool,
    seen: &Seen,
) {
    let mut pace = Pace::default();
    let mut epoch = None;
    loop {
        if let Some(limits) = limits {
            look_at_memory(limits, clock, seen, &mut pace, &mut epoch);
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if let Some(limit) = time_limit
            && let Some(projected) = projection(clock, limit, seen)
            && projected > limit
        {
            stop_with(&time_message(projected, limit, clock, seen));
        }
        std::thread::park_timeout(POLL);
    }
    alloc::unwatch();
}

/// One look: stops the process if the count crossed its trip, the system's figures
/// their limit, or the run's growth (a job of many: its runs' in flight, `epoch`) is
/// projected past it; otherwise sets the trip level again from the system's figures.
fn look_at_memory(
    limits: &Limits,
    clock: Instant,
    seen: &Seen,
    pace: &mut Pace,
    epoch: &mut Option<Epoch>,
) {
    let armed_at = seen.armed_at.load(Ordering::Relaxed);
    if let Some((count, refused)) = alloc::tripped() {
        let i = limits.tightest.load(Ordering::Relaxed);
        let bound = limits.bound(i, armed_at);
        let used = limits
            .used(i)
            .max(if limits.list[i].explicit { count } else { 0 });
        stop_with(&memory_message(&bound, used, refused, seen));
    }
    if let Some((i, used)) = limits.crossed() {
        stop_with(&memory_message(&limits.bound(i, armed_at), used, 0, seen));
    }
    limits.calibrate(seen);
    if let Some(runs) = seen.runs.get() {
        look_at_runs(limits, runs, armed_at, epoch);
        return;
    }
    let began = seen.began_ns.load(Ordering::Relaxed);
    if began == u64::MAX {
        return;
    }
    let live = alloc::live();
    let from = seen.from_ns.load(Ordering::Relaxed);
    pace.add(Look::run(
        seen.now_ns.load(Ordering::Relaxed),
        from,
        live,
        seen.waiting(),
    ));
    let ran = clock.elapsed().saturating_sub(Duration::from_nanos(began));
    if ran < PACE_AFTER {
        return;
    }
    let end = seen.end_ns.load(Ordering::Relaxed);
    let known = Known {
        base: armed_at.min(live),
        least: seen.estimate.load(Ordering::Relaxed),
        full: seen.estimate_full.load(Ordering::Relaxed),
        per_doubling: seen.per_doubling.load(Ordering::Relaxed),
        runs: 1,
    };
    let i = limits.tightest.load(Ordering::Relaxed);
    let to = (end, measured_doublings(end, from));
    if let Some(projected) = pace.projected(to, known) {
        // In the bound's own figures: what it shows now, and the growth to come.
        let used = limits.used(i);
        let to_be = used.saturating_add(projected.saturating_sub(live));
        let stop_at = limits.stop_at(i, armed_at);
        if to_be > stop_at {
            let bound = limits.bound(i, armed_at);
            stop_with(&growth_message(&bound, stop_at, used, to_be, ran, seen));
        }
    }
}

/// One look at a job of many: stops the process if its runs in flight are projected
/// past the limit by the time the first of them ends its measured part.
fn look_at_runs(limits: &Limits, runs: &Runs, armed_at: u64, epoch: &mut Option<Epoch>) {
    let Some(now) = runs.in_flight() else {
        return;
    };
    let live = alloc::live();
    let Some(p) = Epoch::look(epoch, &now, live, armed_at.min(live), PACE_AFTER) else {
        return;
    };
    let i = limits.tightest.load(Ordering::Relaxed);
    let used = limits.used(i);
    let to_be = used.saturating_add(p.bytes.saturating_sub(live));
    let stop_at = limits.stop_at(i, armed_at);
    if to_be > stop_at {
        let watched = epoch.as_ref().map_or(0.0, |e| e.watched().as_secs_f64());
        let bound = limits.bound(i, armed_at);
        stop_with(&runs::growth_message(
            runs, &p, &bound, stop_at, used, to_be, watched,
        ));
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

/// The one line: how big the run got against which bound, when, and what grew;
/// `refused`: the size of an allocation the system refused (0: none).
fn memory_message(bound: &Bound, used: u64, refused: u64, seen: &Seen) -> String {
    let now_us = seen.now_ns.load(Ordering::Relaxed) as f64 / 1000.0;
    // A job of many: the messages waiting in its runs in flight that report.
    let (waiting, reporting) = match seen.runs.get() {
        Some(r) => r.waiting(),
        None => (seen.waiting(), 0),
    };
    let estimate = seen.estimate.load(Ordering::Relaxed);
    let built = if estimate > 0 {
        format!(
            "; the network was estimated at {} lightly loaded",
            human(estimate)
        )
    } else {
        String::new()
    };
    let waiting_bytes = waiting.saturating_mul(WAITING_BYTES);
    let grown = used.saturating_sub(bound.used);
    let began = seen.began_ns.load(Ordering::Relaxed) != u64::MAX;
    let what_grew = if !began && reporting == 0 {
        // Several runs at once, none of them running yet or none telling.
        "their buffers, queues and statistics grew".to_string()
    } else if waiting_bytes.saturating_mul(2) >= grown {
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
    let (whose, when, what_grew) = if began {
        (
            "the run".to_string(),
            format!(", at {now_us:.1} µs of virtual time"),
            what_grew,
        )
    } else if estimate > 0 {
        (
            "the run".to_string(),
            String::new(),
            "its nodes, buffers and queues were being made".to_string(),
        )
    } else if let Some(r) = seen.runs.get() {
        (
            format!("the {}'s runs", r.job),
            format!(
                ", {reporting} in flight and {} of {} done",
                r.done(),
                r.total
            ),
            what_grew,
        )
    } else if seen.armed() {
        ("the runs".to_string(), String::new(), what_grew)
    } else {
        (
            "the process".to_string(),
            String::new(),
            "the network was being loaded and built".to_string(),
        )
    };
    let refused = if refused > 0 {
        format!(" (the system refused {} more)", human(refused))
    } else {
        String::new()
    };
    format!(
        "memory: {whose} grew to {}{refused} against {} of {} ({} used at the start){when}: \
         {what_grew}{built}. Stopped before the system runs out: lower the load, shorten the \
         run or make the network smaller (--memory-limit 0 runs without this guard)",
        human(used),
        human(bound.most),
        bound.what,
        human(bound.used),
    )
}

/// The one line for a run whose growth so far projects it past its limit: how big it
/// would get by the end of its measured part, at what point it is, the figure it is
/// stopped at (`stop_at`, of `bound`), and what the network's estimates say.
fn growth_message(
    bound: &Bound,
    stop_at: u64,
    used: u64,
    to_be: u64,
    ran: Duration,
    seen: &Seen,
) -> String {
    let us = |ns: u64| ns as f64 / 1000.0;
    let (least, full) = (
        seen.estimate.load(Ordering::Relaxed),
        seen.estimate_full.load(Ordering::Relaxed),
    );
    let estimate = if full > 0 {
        format!(
            "; the network was estimated at {} lightly loaded and up to {} with its buffers \
             full",
            human(least),
            human(full)
        )
    } else {
        String::new()
    };
    format!(
        "memory: at its pace so far this run would grow to about {} by the end of its {:.1} \
         µs of virtual time ({} at {:.1} µs, after {:.1} s; {} messages wait), more than the \
         {} it may reach against {} of {} ({} used at the start){estimate}. Stopped before the \
         system runs out: lower the load, shorten the run or make the network smaller \
         (--memory-limit 0 runs without this guard)",
        human(to_be),
        us(seen.end_ns.load(Ordering::Relaxed)),
        human(used),
        us(seen.now_ns.load(Ordering::Relaxed)),
        ran.as_secs_f64(),
        group(seen.waiting()),
        human(stop_at),
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
        let m = memory_message(&bound, 60_000_000, 0, &s);
        assert!(
            m.starts_with("memory: the run grew to 60 MB against 100 MB"),
            "{m}"
        );
        assert!(m.contains("mostly the 1,000,000 messages created"), "{m}");
        assert!(m.contains("estimated at 5 MB lightly loaded"), "{m}");
        assert!(!m.contains('\n'));
    }

    /// Where a run at `at` virtual ns is `doublings` later.
    fn to(at: u64) -> (u64, f64) {
        (at, (at as f64).log2())
    }

    /// A run that began at `base` counted bytes and needs up to `full` with its buffers
    /// full, its histograms growing by up to as much a doubling.
    fn capped(base: u64, full: u64) -> Known {
        Known {
            base,
            least: 0,
            full,
            per_doubling: full,
            runs: 1,
        }
    }

    #[test]
    fn queues_are_carried_on_in_time_and_the_rest_in_doublings_up_to_its_cap() {
        let mb = 1_000_000u64;
        let run = |looks: &[(u64, u64, u64)]| {
            let mut p = Pace::default();
            for &(at, live, waiting) in looks {
                p.add(Look::run(at, 0, live, waiting));
            }
            p
        };
        // Nothing yet, or one look only: no projection.
        assert_eq!(
            Pace::default().projected(to(1 << 20), Known::default()),
            None
        );
        assert_eq!(
            run(&[(128, 10 * mb, 5)]).projected(to(1 << 20), Known::default()),
            None
        );
        // A fast start (building, filling), then 2 MB from 512 to 1,024 ns, 480 bytes
        // of it 10 more messages waiting: from the later half only.
        let mut p = run(&[
            (128, 10 * mb, 5),
            (256, 36 * mb, 10),
            (512, 38 * mb, 20),
            (1024, 40 * mb, 30),
        ]);
        let (queued, rest) = (30 * 48, 40 * mb - 30 * 48);
        let (queue_growth, rest_growth) = (480, 2 * mb - 480);
        // To 4,096 ns: six more spans of 512 ns for the queues, two more doublings for
        // the rest.
        assert_eq!(
            p.projected(to(4096), Known::default()),
            Some(queued + 6 * queue_growth + rest + 2 * rest_growth)
        );
        // A look out of order is ignored; at or past the end, nothing is projected.
        p.add(Look::run(700, 0, 90 * mb, 30));
        assert_eq!(p.samples.len(), 4);
        assert_eq!(p.projected(to(1024), Known::default()), None);
        // To 2²⁰ ns: 2,046 spans, ten doublings; the rest goes no higher than the
        // count at the start plus the buffers-full estimate, nor lower than it is.
        let queues_then = queued + 2046 * queue_growth;
        assert_eq!(
            p.projected(to(1 << 20), Known::default()),
            Some(queues_then + rest + 10 * rest_growth)
        );
        assert_eq!(
            p.projected(to(1 << 20), capped(5 * mb, 50 * mb)),
            Some(queues_then + 55 * mb)
        );
        assert_eq!(
            p.projected(to(1 << 20), capped(0, 20 * mb)),
            Some(queues_then + rest)
        );
        // No more messages wait: only the rest grows, 10 MB a doubling.
        let flat = run(&[
            (128, 10 * mb, 7),
            (256, 20 * mb, 7),
            (512, 30 * mb, 7),
            (1024, 40 * mb, 7),
        ]);
        assert_eq!(
            flat.projected(to(1 << 20), Known::default()),
            Some(140 * mb)
        );
        assert_eq!(
            flat.projected(to(1 << 20), capped(5 * mb, 50 * mb)),
            Some(55 * mb + 7 * 48)
        );
        assert_eq!(
            flat.projected(to(1 << 20), capped(5 * mb, 10 * mb)),
            Some(40 * mb)
        );
        // Growth slowing down (histograms made, then only growing): 20 MB over the
        // later half's doubling, 5 MB over the last quarter's 0.415: 12 MB a doubling,
        // 24 MB more by two doublings on.
        let slowing = run(&[
            (1024, 20 * mb, 0),
            (2048, 60 * mb, 0),
            (3072, 75 * mb, 0),
            (4096, 80 * mb, 0),
        ]);
        let per_doubling = 5e6 / (4096f64 / 3072.0).log2();
        let expected = 80e6 + 2.0 * per_doubling;
        let got = slowing
            .projected(to(1 << 14), Known::default())
            .expect("projected");
        assert!((got as f64 - expected).abs() < 2.0, "{got} {expected}");
        // Histograms filling: 10 MB from 1,024 to 2,048 ns is 100 MB more over ten
        // doublings, not the 10 GB of going on at that pace.
        let histograms = run(&[(1024, 50 * mb, 100), (2048, 60 * mb, 100)]);
        assert_eq!(
            histograms.projected(to(1 << 21), Known::default()),
            Some(160 * mb)
        );
        // Histograms being made: 40 MB over a doubling, but made, they grow by no more
        // than 20 MB a doubling (the estimate's bound): 60 MB more by three doublings.
        let made = run(&[(1024, 20 * mb, 0), (2048, 60 * mb, 0)]);
        let known = Known {
            base: 10 * mb,
            least: 0,
            full: 1000 * mb,
            per_doubling: 20 * mb,
            runs: 1,
        };
        assert_eq!(made.projected(to(1 << 14), known), Some(120 * mb));
        // Two runs in flight, 20 MB a doubling together: 10 MB each.
        let two = Known { runs: 2, ..known };
        assert_eq!(made.projected(to(1 << 14), two), Some(90 * mb));
        // Nor by more than half of the 30 MB grown beyond the light-load estimate
        // (20 MB) from the count at the start (10 MB): 15 MB a doubling.
        let light = Known {
            least: 20 * mb,
            per_doubling: 100 * mb,
            ..known
        };
        assert_eq!(made.projected(to(1 << 14), light), Some(105 * mb));
        // Queues that grow fast pass any cap: a million more messages per 512 ns.
        let filling = run(&[(512, 20 * mb, 0), (1024, 68 * mb, 1_000_000)]);
        assert_eq!(
            filling.projected(to(1 << 20), capped(5 * mb, 10 * mb)),
            Some(48 * mb * 2047 + 20 * mb)
        );
        // Thinned, not grown without end, on a long run.
        let mut long = Pace::default();
        for t in 1..=2000u64 {
            long.add(Look::run(t, 0, t, 0));
        }
        assert!(long.samples.len() <= Pace::KEEP);
        assert_eq!(long.samples.last().map(|s| s.at), Some(2000));
    }

    #[test]
    fn a_growth_message_says_how_big_by_when_and_what_full_buffers_need() {
        let s = seen(30_000, 600_000, 0);
        s.created.store(9_000, Ordering::Relaxed);
        s.delivered.store(3_000, Ordering::Relaxed);
        s.estimate_full.store(68_000_000_000, Ordering::Relaxed);
        let bound = Bound {
            what: "--memory-limit",
            used: 2_000_000_000,
            most: 6_000_000_000,
        };
        s.estimate.store(1_700_000_000, Ordering::Relaxed);
        let m = growth_message(
            &bound,
            6_000_000_000,
            3_700_000_000,
            9_100_000_000,
            Duration::from_secs_f64(2.5),
            &s,
        );
        assert!(
            m.starts_with(
                "memory: at its pace so far this run would grow to about 9.1 GB by the end \
                 of its 600.0 µs of virtual time (3.7 GB at 30.0 µs, after 2.5 s; 6,000 \
                 messages wait), more than the 6.0 GB it may reach against 6.0 GB of \
                 --memory-limit (2.0 GB used at the start); the network was estimated at 1.7 \
                 GB lightly loaded and up to 68.0 GB with its buffers full."
            ),
            "{m}"
        );
        assert!(!m.contains('\n'));
    }

    #[test]
    fn the_explicit_limit_counts_from_the_run_and_the_systems_from_their_figures() {
        let limits = Limits::new(Some(Some(10_000_000))).expect("a limit");
        assert!(limits.list[0].explicit);
        let s = Seen::new();
        // Not armed: --memory-limit does not hold yet; the system's bounds do.
        let now = emu::memory::bounds();
        let trips = limits.trips(&now, 1_000_000, &s);
        assert!(trips.iter().all(|&(_, i)| i != 0), "{trips:?}");
        s.armed_at.store(50_000_000, Ordering::Relaxed);
        let trips = limits.trips(&now, 1_000_000, &s);
        assert!(trips.contains(&(60_000_000, 0)), "{trips:?}");
        assert_eq!(limits.bound(0, 50_000_000).most, 60_000_000);
        // Never less than the floor, whatever the limit.
        let tiny = Limits::new(Some(Some(1))).expect("a limit");
        assert_eq!(tiny.list[0].trip, FLOOR);
        assert!(Limits::new(Some(None)).is_none(), "0: no guard");
    }
}
