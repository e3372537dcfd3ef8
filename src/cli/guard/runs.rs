//! The runs of a job of many (a sweep, a stress search) as the run guard sees them:
//! each run in flight has a slot of its own, which the run writes as it goes (atomics
//! only: no lock a thread stopped at an allocation could hold), and the guard's thread
//! reads every look.
//!
//! The projection: the process's memory is one count, shared by the runs in flight, so
//! it is followed while the same runs are in flight (an *epoch*: it starts again when
//! one ends or another starts) against their progress together: the sum of each one's
//! share done of its way to the end of its measured part, and the sum of the doublings
//! of each one's share of its measured part done. Its
//! growth over the later half of the epoch so far is carried to where the runs will be
//! when the first of them ends its measured part, each moving at its own pace over the
//! epoch, as a single run's is (`Pace::projected`: the messages waiting in
//! source queues in proportion to the way to go, the rest in proportion to the
//! doublings). Up to that moment every run in flight still holds what it grew, so what
//! the count reaches then is the least the job will reach (later runs only add to
//! it); a job that would fit is not stopped for what runs after it might need. While a
//! run past the end of its measured part is in flight (draining, or a batch), nothing
//! is projected: it may end at any moment and free what it holds.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use emu::memory::{Bound, human};
use emu::stats::format::group;

use super::{Known, Look, Pace};

/// The id of a run begun while no job of many is watched.
pub const NOT_WATCHED: usize = usize::MAX;

/// The id of a run begun while every slot was taken: counted, not followed.
const NO_SLOT: usize = usize::MAX - 1;

/// A job of many runs and its runs in flight.
#[derive(Debug)]
pub struct Runs {
    /// What the job is, for messages: "sweep", "stress search".
    pub job: &'static str,
    /// Runs in the job (a search may stop before it has run them all).
    pub total: usize,
    /// Runs ended.
    done: AtomicUsize,
    /// Runs in flight that found no free slot: while there are any, nothing is
    /// projected.
    unslotted: AtomicUsize,
    /// The last serial handed to a run.
    serial: AtomicU64,
    /// One slot per run that may be in flight at once.
    slots: Box<[Slot]>,
}

/// One run in flight, as it last reported.
#[derive(Debug, Default)]
struct Slot {
    /// The run's serial (0: the slot is free).
    serial: AtomicU64,
    /// Whether the run has started running (its first progress came): until then its
    /// network is being built.
    running: AtomicBool,
    /// Virtual time in nanoseconds.
    now_ns: AtomicU64,
    /// Virtual nanoseconds at which its measured part starts.
    from_ns: AtomicU64,
    /// Virtual nanoseconds at which its measured part ends (at or before the start:
    /// none of a set length).
    end_ns: AtomicU64,
    /// Messages created.
    created: AtomicU64,
    /// Messages delivered.
    delivered: AtomicU64,
    /// The network's estimated need lightly loaded, in bytes.
    least: AtomicU64,
    /// The network's estimated need with its buffers full, in bytes.
    full: AtomicU64,
    /// The most its latency histograms grow by a doubling, in bytes.
    per_doubling: AtomicU64,
}

/// A run in flight as the guard's thread read it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InFlight {
    /// Its serial.
    pub serial: u64,
    /// Its share done of its way to the end of its measured part, 0 to 1 (1: past its
    /// end, or no end of a set length).
    pub done: f64,
    /// The share of that way that is its warm-up, before its measured part.
    pub warmup: f64,
    /// Messages created and not yet delivered.
    pub waiting: u64,
    /// Its network's estimated need lightly loaded, in bytes.
    pub least: u64,
    /// Its network's estimated need with its buffers full, in bytes.
    pub full: u64,
    /// The most its latency histograms grow by a doubling, in bytes.
    pub per_doubling: u64,
}

impl Runs {
    /// A job of `total` runs, up to `at_once` of them in flight at a time.
    pub fn new(job: &'static str, total: usize, at_once: usize) -> Runs {
        Runs {
            job,
            total,
            done: AtomicUsize::new(0),
            unslotted: AtomicUsize::new(0),
            serial: AtomicU64::new(0),
            slots: (0..at_once.max(1)).map(|_| Slot::default()).collect(),
        }
    }

    /// A run begins: takes a free slot; returns its id.
    pub fn begin(&self) -> usize {
        let serial = self.serial.fetch_add(1, Ordering::Relaxed) + 1;
        for (i, s) in self.slots.iter().enumerate() {
            if s.serial
                .compare_exchange(0, serial, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                return i;
            }
        }
        self.unslotted.fetch_add(1, Ordering::Relaxed);
        NO_SLOT
    }

    /// Run `id` is built and starts, as `started` says.
    pub fn running(&self, id: usize, started: &emu::pool::Started) {
        if let Some(s) = self.slots.get(id) {
            s.from_ns.store(started.from_ns as u64, Ordering::Relaxed);
            s.end_ns.store(started.end_ns as u64, Ordering::Relaxed);
            s.least.store(started.need.least, Ordering::Relaxed);
            s.full.store(started.need.most, Ordering::Relaxed);
            s.per_doubling
                .store(started.per_doubling, Ordering::Relaxed);
            s.now_ns.store(0, Ordering::Relaxed);
            s.created.store(0, Ordering::Relaxed);
            s.delivered.store(0, Ordering::Relaxed);
        }
    }

    /// Run `id` is at `now_ns`, with `created` and `delivered` messages so far.
    pub fn note(&self, id: usize, now_ns: f64, created: u64, delivered: u64) {
        if let Some(s) = self.slots.get(id) {
            s.now_ns.store(now_ns as u64, Ordering::Relaxed);
            s.created.store(created, Ordering::Relaxed);
            s.delivered.store(delivered, Ordering::Relaxed);
            if !s.running.load(Ordering::Relaxed) {
                s.running.store(true, Ordering::Release);
            }
        }
    }

    /// Run `id` ended: its slot is free.
    pub fn end(&self, id: usize) {
        if let Some(s) = self.slots.get(id) {
            s.running.store(false, Ordering::Release);
            s.serial.store(0, Ordering::Release);
        } else if id == NO_SLOT {
            self.unslotted.fetch_sub(1, Ordering::Relaxed);
        }
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    /// Runs ended so far.
    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// The runs in flight, in slot order; `None` while one of them is still being
    /// built or has no slot (what it allocates is not progress of any run followed).
    pub fn in_flight(&self) -> Option<Vec<InFlight>> {
        if self.unslotted.load(Ordering::Relaxed) > 0 {
            return None;
        }
        let mut out = Vec::with_capacity(self.slots.len());
        for s in self.slots.iter() {
            let serial = s.serial.load(Ordering::Acquire);
            if serial == 0 {
                continue;
            }
            if !s.running.load(Ordering::Acquire) {
                return None;
            }
            let (now, from, end) = (
                s.now_ns.load(Ordering::Relaxed),
                s.from_ns.load(Ordering::Relaxed),
                s.end_ns.load(Ordering::Relaxed),
            );
            let (done, warmup) = if end <= from {
                (1.0, 0.0)
            } else {
                ((now as f64 / end as f64).min(1.0), from as f64 / end as f64)
            };
            out.push(InFlight {
                serial,
                done,
                warmup,
                waiting: s
                    .created
                    .load(Ordering::Relaxed)
                    .saturating_sub(s.delivered.load(Ordering::Relaxed)),
                least: s.least.load(Ordering::Relaxed),
                full: s.full.load(Ordering::Relaxed),
                per_doubling: s.per_doubling.load(Ordering::Relaxed),
            });
        }
        Some(out)
    }

    /// Messages created and not yet delivered in the runs in flight, and how many runs
    /// are in flight (those that report).
    pub fn waiting(&self) -> (u64, usize) {
        self.slots
            .iter()
            .filter(|s| s.serial.load(Ordering::Acquire) != 0 && s.running.load(Ordering::Acquire))
            .fold((0, 0), |(w, n), s| {
                let waiting = s
                    .created
                    .load(Ordering::Relaxed)
                    .saturating_sub(s.delivered.load(Ordering::Relaxed));
                (w + waiting, n + 1)
            })
    }
}

/// Progress together is kept in billionths of a run's measured part.
const UNIT: f64 = 1e9;

/// The least share of its measured part a run is taken to have done, for its
/// doublings: a run still warming up has done none, and its first steps into its
/// measured part count as many doublings, over which its growth is spread thin.
const LEAST_SHARE: f64 = 1e-12;

/// The doublings together of the runs `runs` at shares `shares` of their way: of each
/// one's share of its measured part done.
fn doublings(runs: &[InFlight], shares: &[f64]) -> f64 {
    runs.iter()
        .zip(shares)
        .map(|(r, &s)| {
            let measured = if r.warmup >= 1.0 {
                1.0
            } else {
                (s - r.warmup) / (1.0 - r.warmup)
            };
            measured.max(LEAST_SHARE).log2()
        })
        .sum()
}

/// The runs in flight followed since they were: what the guard's thread keeps between
/// its looks.
#[derive(Debug)]
pub struct Epoch {
    /// The runs' serials, in slot order.
    key: Vec<u64>,
    /// When the guard first saw them all running.
    began: Instant,
    /// Each run's share done then.
    start: Vec<f64>,
    /// The count against their progress together since then.
    pace: Pace,
}

/// What the runs in flight are projected to reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// Counted bytes when the first of them ends its measured part.
    pub bytes: u64,
    /// Runs in flight.
    pub runs: usize,
    /// Their messages waiting now.
    pub waiting: u64,
    /// Their networks' estimated need with their buffers full, together.
    pub full: u64,
    /// The least and most share of its measured part done among them.
    pub done: (f64, f64),
}

impl Epoch {
    /// How long the runs in flight have been followed.
    pub fn watched(&self) -> std::time::Duration {
        self.began.elapsed()
    }

    /// One look at the runs in flight (`now`, from [`Runs::in_flight`]) with the count
    /// `live`: starts a new epoch if they are not the ones followed; once they have been
    /// followed for `after`, what the count will be when the first of them ends its
    /// measured part (see the module's documentation; capped while no more messages
    /// wait, as [`Pace::projected`] caps it, at `base` and their buffers-full need).
    pub fn look(
        epoch: &mut Option<Epoch>,
        now: &[InFlight],
        live: u64,
        base: u64,
        after: std::time::Duration,
    ) -> Option<Projection> {
        if now.is_empty() {
            *epoch = None;
            return None;
        }
        let key: Vec<u64> = now.iter().map(|r| r.serial).collect();
        let e = match epoch {
            Some(e) if e.key == key => e,
            _ => epoch.insert(Epoch {
                key,
                began: Instant::now(),
                start: now.iter().map(|r| r.done).collect(),
                pace: Pace::default(),
            }),
        };
        let shares: Vec<f64> = now.iter().map(|r| r.done).collect();
        let moved: f64 = shares.iter().zip(&e.start).map(|(d, s)| d - s).sum();
        let waiting: u64 = now.iter().map(|r| r.waiting).sum();
        let x = (moved.max(0.0) * UNIT) as u64;
        e.pace.add(Look {
            at: x,
            doublings: doublings(now, &shares),
            live,
            waiting,
        });
        if e.began.elapsed() < after {
            return None;
        }
        let then = at_first_end(&e.start, &shares)?;
        let to_go: f64 = then.iter().zip(&shares).map(|(t, n)| t - n).sum();
        let known = Known {
            base,
            least: now.iter().map(|r| r.least).sum(),
            full: now.iter().map(|r| r.full).sum(),
            per_doubling: now.iter().map(|r| r.per_doubling).sum(),
            runs: now.len() as u64,
        };
        let full = known.full;
        let end = (
            x.saturating_add((to_go * UNIT) as u64),
            doublings(now, &then),
        );
        let bytes = e.pace.projected(end, known)?;
        let least = shares.iter().copied().fold(f64::INFINITY, f64::min);
        let most = shares.iter().copied().fold(0.0, f64::max);
        Some(Projection {
            bytes,
            runs: now.len(),
            waiting,
            full,
            done: (least, most),
        })
    }
}

/// Each run's share of its measured part done when the first of them ends it, each
/// moving at its pace since `start` (its share done then; `now`, its share done now):
/// `None` if no run short of its end has moved, or if one is past its end (draining, or
/// with no end of a set length): that one may end at any moment and free what it
/// holds, so what the others will reach is no bound on the job.
pub fn at_first_end(start: &[f64], now: &[f64]) -> Option<Vec<f64>> {
    if now.iter().any(|&n| n >= 1.0) {
        return None;
    }
    let first = start
        .iter()
        .zip(now)
        .filter(|&(s, n)| *n < 1.0 && n > s)
        .map(|(s, n)| (1.0 - n) / (n - s))
        .fold(f64::INFINITY, f64::min);
    if !first.is_finite() {
        return None;
    }
    Some(
        start
            .iter()
            .zip(now)
            .map(|(s, n)| (n + (n - s).max(0.0) * first).min(1.0))
            .collect(),
    )
}

/// The one line for a job of many whose runs in flight are projected past the limit:
/// how big they would get by when, where they are, the figure the job is stopped at
/// (`stop_at`, of `bound`), and what their networks' estimates say.
pub fn growth_message(
    runs: &Runs,
    p: &Projection,
    bound: &Bound,
    stop_at: u64,
    used: u64,
    to_be: u64,
    watched_s: f64,
) -> String {
    let pct = |share: f64| {
        let p = share * 100.0;
        match p {
            p if p >= 10.0 => format!("{p:.0}"),
            p if p >= 1.0 => format!("{p:.1}"),
            p => format!("{p:.2}"),
        }
    };
    let them = if p.runs == 1 {
        format!("the run of this {} in flight", runs.job)
    } else {
        format!("the {} runs of this {} in flight", p.runs, runs.job)
    };
    let (least, most) = (pct(p.done.0), pct(p.done.1));
    let where_ = if least == most {
        format!("{least} % of the way")
    } else {
        format!("{least} to {most} % of the way")
    };
    format!(
        "memory: at their pace so far {them} would grow to about {} by the time the first of \
         them ends its measured part ({} now, {where_}, after {watched_s:.1} s; {} messages \
         wait; {} of {} runs done), more than the {} the {} may reach against {} of {} ({} \
         used at the start); their networks were estimated at up to {} with their buffers \
         full. Stopped before the system runs out: lower the loads, shorten the runs or make \
         the network smaller (--memory-limit 0 runs without this guard)",
        human(to_be),
        human(used),
        group(p.waiting),
        runs.done(),
        runs.total,
        human(stop_at),
        runs.job,
        human(bound.most),
        bound.what,
        human(bound.used),
        human(p.full),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_first_end_is_reached_at_each_runs_own_pace() {
        let close = |a: Option<Vec<f64>>, b: &[f64]| {
            let a = a.expect("moving");
            assert_eq!(a.len(), b.len());
            assert!(a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9), "{a:?}");
        };
        // Two runs at the same pace: both end together.
        close(at_first_end(&[0.1, 0.1], &[0.3, 0.3]), &[1.0, 1.0]);
        // One nearly done: the other moves as far as its pace takes it meanwhile.
        close(at_first_end(&[0.8, 0.0], &[0.9, 0.1]), &[1.0, 0.2]);
        // A run that does not move stays where it is.
        close(at_first_end(&[0.0, 0.2], &[0.5, 0.2]), &[1.0, 0.2]);
        assert_eq!(at_first_end(&[0.3], &[0.3]), None);
        // A run past its end may end at any moment: no first end to project to.
        assert_eq!(at_first_end(&[1.0, 0.0], &[1.0, 0.5]), None);
        assert_eq!(at_first_end(&[], &[]), None);
    }

    fn flight(serial: u64, done: f64, waiting: u64) -> InFlight {
        InFlight {
            serial,
            done,
            warmup: 0.0,
            waiting,
            least: 0,
            full: 1_000_000_000,
            per_doubling: 1_000_000_000,
        }
    }

    #[test]
    fn an_epoch_projects_the_runs_in_flight_to_the_first_end_and_restarts_with_others() {
        let mb = 1_000_000u64;
        let mut epoch = None;
        let now = Duration::ZERO;
        // Two runs from the start, at the same pace, 4,000 more messages waiting in
        // each per doubling of the way, the count 20 MB more.
        let looks = [
            (0.0, 20 * mb, 0),
            (0.0625, 30 * mb, 1000),
            (0.125, 40 * mb, 2000),
            (0.25, 60 * mb, 4000),
        ];
        for (k, &(share, live, waiting)) in looks.iter().enumerate() {
            let runs = [flight(1, share, waiting), flight(2, share, waiting)];
            let p = Epoch::look(&mut epoch, &runs, live, 10 * mb, now);
            if k == 0 {
                assert_eq!(p, None, "one look: no growth yet");
            }
        }
        let runs = [flight(1, 0.25, 4000), flight(2, 0.25, 4000)];
        let p = Epoch::look(&mut epoch, &runs, 60 * mb, 10 * mb, now).expect("projected");
        // From the later half (shares 0.125 to 0.25): the queues, 8,000 × 48 bytes now
        // and 4,000 × 48 more per 0.25 of the way together, go six times that further
        // (0.75 each); the rest, 20 MB less 192,000 bytes per doubling (one each), two
        // more doublings each.
        let queues = 8000 * 48 + 6 * 4000 * 48;
        let rest = 60 * mb - 8000 * 48 + 2 * (20 * mb - 4000 * 48);
        assert!(p.bytes.abs_diff(queues + rest) <= 2, "{p:?}");
        assert_eq!((p.runs, p.waiting, p.done), (2, 8000, (0.25, 0.25)));
        // Another run in flight: a new epoch, nothing projected until it has a pace.
        let runs = [flight(1, 0.3, 600), flight(3, 0.0, 0)];
        assert_eq!(Epoch::look(&mut epoch, &runs, 80 * mb, 10 * mb, now), None);
        assert_eq!(epoch.as_ref().map(|e| e.key.clone()), Some(vec![1, 3]));
        // Not long enough followed: nothing projected.
        let mut fresh = None;
        let runs = [flight(1, 0.5, 0)];
        let later = Duration::from_secs(3600);
        assert_eq!(Epoch::look(&mut fresh, &runs, mb, 0, later), None);
        assert_eq!(Epoch::look(&mut fresh, &[], mb, 0, later), None);
        assert!(fresh.is_none(), "no runs in flight: no epoch");
    }

    #[test]
    fn in_the_warm_up_the_queues_are_carried_on_and_the_rest_waits_for_its_doublings() {
        let mb = 1_000_000u64;
        let mut epoch = None;
        let mut last = None;
        for (share, live, waiting) in [
            (0.0, 10, 0),
            (0.1, 20, 100_000),
            (0.2, 30, 200_000),
            (0.4, 50, 400_000),
        ] {
            let runs = [InFlight {
                serial: 3,
                done: share,
                warmup: 0.5,
                waiting,
                least: 0,
                full: 0,
                per_doubling: 0,
            }];
            last = Epoch::look(&mut epoch, &runs, live * mb, 0, Duration::ZERO);
        }
        // 9.6 MB of messages per 0.2 of the way, 0.6 to go; the other 10.4 MB grew
        // before any latency was measured: it is not carried on.
        let queues = 400_000 * 48 + 3 * 200_000 * 48;
        let rest = 50 * mb - 400_000 * 48;
        let p = last.expect("projected");
        assert!(p.bytes.abs_diff(queues + rest) <= 2, "{p:?}");
    }

    #[test]
    fn while_no_more_messages_wait_the_buffers_full_need_caps_it() {
        let mb = 1_000_000u64;
        let mut epoch = None;
        let mut last = None;
        for (share, live) in [(0.0, 10), (0.0625, 15), (0.125, 20), (0.25, 30)] {
            let runs = [InFlight {
                serial: 7,
                done: share,
                warmup: 0.0,
                waiting: 40,
                least: 0,
                full: 30 * mb,
                per_doubling: 30 * mb,
            }];
            last = Epoch::look(&mut epoch, &runs, live * mb, 5 * mb, Duration::ZERO);
        }
        // 10 MB a doubling, two to go: 50 MB; capped at 5 + 30 MB, never below what it
        // holds now, and the 40 messages waiting besides.
        assert_eq!(last.map(|p| p.bytes), Some(35 * mb + 40 * 48));
    }

    fn started(from_ns: f64, end_ns: f64, full: u64) -> emu::pool::Started {
        emu::pool::Started {
            need: emu::memory::Need {
                least: 1,
                most: full,
            },
            per_doubling: 1,
            from_ns,
            end_ns,
        }
    }

    #[test]
    fn slots_are_taken_freed_and_read_only_once_every_run_runs() {
        let runs = Runs::new("sweep", 5, 2);
        let a = runs.begin();
        let b = runs.begin();
        assert_ne!(a, b);
        // A third finds no slot: counted, and nothing is projected while it is in flight.
        let c = runs.begin();
        assert_eq!(c, NO_SLOT);
        runs.running(a, &started(200.0, 1000.0, 7));
        runs.note(a, 400.0, 10, 4);
        // b is still being built.
        assert_eq!(runs.in_flight(), None);
        runs.running(b, &started(0.0, 0.0, 9));
        runs.note(b, 50.0, 3, 3);
        assert_eq!(runs.in_flight(), None, "c has no slot");
        runs.end(c);
        let seen = runs.in_flight().expect("every run runs");
        assert_eq!(seen.len(), 2);
        assert_eq!((seen[0].done, seen[0].warmup), (0.4, 0.2));
        assert_eq!((seen[0].waiting, seen[0].full), (6, 7));
        assert_eq!(seen[1].done, 1.0, "no measured part of a set length");
        assert_eq!(runs.waiting(), (6, 2));
        runs.end(a);
        assert_eq!(runs.in_flight().map(|v| v.len()), Some(1));
        let d = runs.begin();
        assert_eq!(d, a, "a freed slot is taken again");
        assert_eq!(runs.in_flight(), None, "d is being built");
        runs.end(d);
        runs.end(b);
        assert_eq!(runs.done(), 4);
        assert_eq!(runs.in_flight(), Some(Vec::new()));
    }

    #[test]
    fn the_growth_message_names_the_job_and_what_it_projects() {
        let runs = Runs::new("sweep", 20, 2);
        let p = Projection {
            bytes: 0,
            runs: 2,
            waiting: 12_345,
            full: 984_000_000,
            done: (0.0004, 0.3),
        };
        let bound = Bound {
            what: "the process's address-space limit (ulimit -v)",
            used: 12_000_000,
            most: 210_000_000,
        };
        let m = growth_message(
            &runs,
            &p,
            &bound,
            186_000_000,
            60_000_000,
            310_000_000,
            2.54,
        );
        assert_eq!(
            m,
            "memory: at their pace so far the 2 runs of this sweep in flight would grow to \
             about 310 MB by the time the first of them ends its measured part (60 MB now, 0.04 \
             to 30 % of the way, after 2.5 s; 12,345 messages wait; 0 of 20 runs done), more \
             than the 186 MB the sweep may reach against 210 MB of the process's \
             address-space limit (ulimit -v) (12 MB used at the start); their networks were \
             estimated at up to 984 MB with their buffers full. Stopped before the system \
             runs out: lower the loads, shorten the runs or make the network smaller \
             (--memory-limit 0 runs without this guard)"
        );
    }
}
