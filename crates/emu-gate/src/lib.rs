//! How the sharded engine of emu's core (`emu-core`) shares out its shards' work
//! among its threads, phase by phase: a crate of its own so that loom can model-check it
//! without a build of the whole core.
//!
//! A run is a sequence of *phases*; in each, every shard has one task (run its nodes
//! through a window, or settle the window at its end), and a phase opens only when
//! every task of the one before has finished. Tasks are not tied to threads: a thread
//! *claims* a task (each task of a phase is claimed exactly once), runs it, and then
//! tries the other shards' tasks of the phase before it waits. Each thread tries its
//! own shard first, so on a quiet machine every thread keeps to its shard (and its
//! cache). But a thread that the system has descheduled holds nobody up unless it has
//! claimed a task: its partners run its shard's task themselves. On a machine where
//! another process is busy, the run therefore degrades towards one thread doing all
//! the work instead of every window waiting for a thread without a core.
//!
//! A thread whose phase is not yet over spins for a bounded time (50 µs) and
//! then sleeps until the last task of the phase wakes it. The sleep cannot miss its
//! wake-up. The count of finished tasks and a "someone sleeps" bit share one atomic
//! word, so the read-modify-writes on it are totally ordered. A sleeper sets the bit
//! and reads the count in one operation, under the lock, and waits only if its phase
//! is not over. The finisher adds to the count and reads the bit in one operation; if
//! the bit was set, it clears it and notifies under the lock, which it cannot take
//! between a sleeper's check and its wait. loom checks every interleaving of this (the
//! `loom_` tests below).

#[cfg(feature = "loom")]
use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
#[cfg(feature = "loom")]
use loom::sync::{Condvar, Mutex};
#[cfg(not(feature = "loom"))]
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
#[cfg(not(feature = "loom"))]
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long a waiting thread spins before it sleeps. Long enough to cover the gap
/// between two threads finishing a busy window on a quiet machine; short next to a
/// scheduler's time slice (milliseconds), so a thread whose partner holds a task but
/// was descheduled soon gives its core back (to that partner, often).
const SPIN_LIMIT: Duration = Duration::from_micros(50);

/// Spins between two looks at the clock.
const SPINS_PER_CLOCK_READ: u32 = 64;

/// Bit 0 of [`PhaseGate::state`]: a thread sleeps (or is about to) on its `wake`.
const SLEEPING: usize = 1;

/// The count of finished tasks in a [`PhaseGate::state`].
fn finished(state: usize) -> usize {
    state >> 1
}

/// The tasks of one run's phases: who has claimed which, how many have finished, and
/// the threads asleep waiting for a phase to end.
#[derive(Debug)]
pub struct PhaseGate {
    /// `claimed[task]`: how many phases' instances of the task have been claimed.
    claimed: Vec<AtomicUsize>,
    /// Tasks finished over all phases, shifted left by one, and in bit 0 whether a
    /// thread sleeps (or is about to) on `wake`. Phase `k` is over when `(k + 1) ·
    /// tasks` have finished.
    state: AtomicUsize,
    /// Set when a thread panicked or never started: nobody may wait for it.
    poisoned: AtomicBool,
    /// Held by a sleeper from its last look at `state` to its wait, and by whoever
    /// wakes the sleepers.
    lock: Mutex<()>,
    wake: Condvar,
}

/// A thread panicked (or was refused by the system), so a phase may never end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Poisoned;

/// Poisons the gate if dropped while its thread is panicking.
pub struct PanicGuard<'a>(&'a PhaseGate);

impl Drop for PanicGuard<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.poison();
        }
    }
}

impl PhaseGate {
    /// A gate for phases of `tasks` tasks each (at least one).
    pub fn new(tasks: usize) -> PhaseGate {
        PhaseGate {
            claimed: (0..tasks.max(1)).map(|_| AtomicUsize::new(0)).collect(),
            state: AtomicUsize::new(0),
            poisoned: AtomicBool::new(false),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        }
    }

    fn tasks(&self) -> usize {
        self.claimed.len()
    }

    /// The phase now open: every task of every earlier phase has finished.
    pub fn open_phase(&self) -> usize {
        finished(self.state.load(Ordering::Acquire)) / self.tasks()
    }

    /// Claims `task` of `phase` (the open phase) for the caller: true for exactly one
    /// caller, who must run it and then call [`PhaseGate::finish`].
    pub fn claim(&self, task: usize, phase: usize) -> bool {
        self.claimed[task]
            .compare_exchange(phase, phase + 1, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// A claimed task has finished; the last of a phase wakes the sleeping threads.
    /// Everything its thread wrote before is visible to every thread that sees the
    /// phase over.
    pub fn finish(&self) {
        let before = self.state.fetch_add(1 << 1, Ordering::AcqRel);
        if before & SLEEPING != 0 && (finished(before) + 1).is_multiple_of(self.tasks()) {
            let _held = self.lock.lock().unwrap_or_else(|p| p.into_inner());
            // Sleepers set the bit only under the lock: none is lost by clearing it.
            self.state.fetch_and(!SLEEPING, Ordering::AcqRel);
            self.wake.notify_all();
        }
    }

    /// A guard to hold while a thread works: if it panics, the others stop waiting
    /// for it instead of waiting forever.
    pub fn poison_on_panic(&self) -> PanicGuard<'_> {
        PanicGuard(self)
    }

    /// Releases every waiting thread with [`Poisoned`], now and at every later wait:
    /// for a thread that will never finish its task (it panicked, or never started).
    pub fn poison(&self) {
        self.poisoned.store(true, Ordering::Release);
        let _held = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        self.wake.notify_all();
    }

    /// Blocks until every task of `phase` has finished. Fails if the gate was poisoned.
    pub fn wait_over(&self, phase: usize) -> Result<(), Poisoned> {
        let over = (phase + 1) * self.tasks();
        if !self.spin_until(over) {
            let mut held = self.lock.lock().unwrap_or_else(|p| p.into_inner());
            // A bit set by a sleeper whose phase turned out to be over costs one
            // needless notify at the next phase's end, never a lost one.
            while finished(self.state.fetch_or(SLEEPING, Ordering::AcqRel)) < over
                && !self.poisoned.load(Ordering::Acquire)
            {
                held = self.wake.wait(held).unwrap_or_else(|p| p.into_inner());
            }
        }
        if self.poisoned.load(Ordering::Acquire) {
            Err(Poisoned)
        } else {
            Ok(())
        }
    }

    /// Spins until `over` tasks have finished or the gate is poisoned (true), or
    /// until [`SPIN_LIMIT`] has gone by (false).
    fn spin_until(&self, over: usize) -> bool {
        let done = || {
            finished(self.state.load(Ordering::Acquire)) >= over
                || self.poisoned.load(Ordering::Acquire)
        };
        // Under loom the model checker explores the sleeping path: spinning would
        // only multiply the interleavings it has to try.
        if cfg!(feature = "loom") {
            return done();
        }
        let start = Instant::now();
        loop {
            for _ in 0..SPINS_PER_CLOCK_READ {
                if done() {
                    return true;
                }
                std::hint::spin_loop();
            }
            if start.elapsed() >= SPIN_LIMIT {
                return false;
            }
        }
    }
}

/// The gate model-checked by loom: every interleaving of the threads' atomic
/// operations (`cargo test --release -p emu-gate --features loom loom_`).
#[cfg(all(test, feature = "loom"))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;
    use loom::sync::atomic::AtomicUsize as Counter;

    /// Two threads share two tasks over two phases, each trying its own task first as
    /// the engine does: whatever the interleaving, every task runs exactly once per
    /// phase, no task of phase 1 starts before both of phase 0 have finished, and
    /// nobody sleeps through the end of a phase. Bounded to three preemptions per
    /// execution (loom's usual bound; without one the model takes hours).
    #[test]
    fn loom_every_task_runs_once_and_phases_do_not_overlap() {
        let mut model = loom::model::Builder::new();
        model.preemption_bound = Some(3);
        model.check(|| {
            let gate = Arc::new(PhaseGate::new(2));
            let runs: Arc<[Counter; 4]> = Arc::new(std::array::from_fn(|_| Counter::new(0)));
            let thread = |me: usize, gate: Arc<PhaseGate>, runs: Arc<[Counter; 4]>| {
                let mut phase = gate.open_phase();
                while phase < 2 {
                    for k in 0..2 {
                        let task = (me + k) % 2;
                        if gate.claim(task, phase) {
                            if phase == 1 {
                                // Both tasks of phase 0 finished before this one began.
                                assert_eq!(runs[0].load(Ordering::SeqCst), 1);
                                assert_eq!(runs[1].load(Ordering::SeqCst), 1);
                            }
                            runs[phase * 2 + task].fetch_add(1, Ordering::SeqCst);
                            gate.finish();
                        }
                    }
                    gate.wait_over(phase).expect("not poisoned");
                    phase = gate.open_phase();
                }
            };
            let other = {
                let (gate, runs) = (gate.clone(), runs.clone());
                loom::thread::spawn(move || thread(1, gate, runs))
            };
            thread(0, gate.clone(), runs.clone());
            other.join().expect("the other thread");
            for r in runs.iter() {
                assert_eq!(r.load(Ordering::SeqCst), 1);
            }
        });
    }

    /// A thread that never finishes its task but poisons the gate (a panicked thread,
    /// one the system refused) releases the waiting one in every interleaving.
    #[test]
    fn loom_poison_releases_a_waiting_thread() {
        loom::model(|| {
            let gate = Arc::new(PhaseGate::new(2));
            assert!(gate.claim(0, 0));
            gate.finish();
            let other = {
                let gate = gate.clone();
                loom::thread::spawn(move || {
                    assert!(gate.claim(1, 0));
                    gate.poison();
                })
            };
            assert_eq!(gate.wait_over(0), Err(Poisoned));
            other.join().expect("the poisoning thread");
        });
    }
}

#[cfg(all(test, not(feature = "loom")))]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    /// Runs `threads` threads over `tasks` tasks for `phases` phases, each thread
    /// trying its own task first, the first thread sleeping `lag` before every claim;
    /// returns how often each (phase, task) ran.
    fn share(threads: usize, tasks: usize, phases: usize, lag: Duration) -> Vec<u64> {
        let gate = PhaseGate::new(tasks);
        let runs: Vec<AtomicU64> = (0..phases * tasks).map(|_| AtomicU64::new(0)).collect();
        std::thread::scope(|s| {
            for me in 0..threads {
                let (gate, runs) = (&gate, &runs);
                s.spawn(move || {
                    let mut phase = gate.open_phase();
                    while phase < phases {
                        if me == 0 && !lag.is_zero() {
                            std::thread::sleep(lag);
                        }
                        for k in 0..tasks {
                            let task = (me + k) % tasks;
                            if gate.claim(task, phase) {
                                if phase > 0 {
                                    for t in 0..tasks {
                                        let before =
                                            runs[(phase - 1) * tasks + t].load(Ordering::SeqCst);
                                        assert_eq!(before, 1, "phase {phase} began early");
                                    }
                                }
                                runs[phase * tasks + task].fetch_add(1, Ordering::SeqCst);
                                gate.finish();
                            }
                        }
                        gate.wait_over(phase).unwrap();
                        phase = gate.open_phase();
                    }
                });
            }
        });
        runs.iter().map(|r| r.load(Ordering::SeqCst)).collect()
    }

    #[test]
    fn every_task_of_every_phase_runs_exactly_once() {
        assert!(share(3, 3, 2_000, Duration::ZERO).iter().all(|&r| r == 1));
        // More threads than tasks, and more tasks than threads.
        assert!(share(4, 2, 500, Duration::ZERO).iter().all(|&r| r == 1));
        assert!(share(2, 5, 500, Duration::ZERO).iter().all(|&r| r == 1));
    }

    /// A thread that keeps falling asleep (as a descheduled one does) neither loses
    /// nor repeats a task: the others run its share, and every sleeper is woken.
    #[test]
    fn a_late_thread_holds_nobody_up_and_no_task_is_lost() {
        let runs = share(3, 3, 20, SPIN_LIMIT * 4);
        assert!(runs.iter().all(|&r| r == 1));
    }

    /// A thread asleep in a phase that will never end is released by a poisoning one.
    #[test]
    fn poison_wakes_a_sleeping_thread() {
        let gate = PhaseGate::new(2);
        assert!(gate.claim(0, 0));
        gate.finish();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(SPIN_LIMIT * 20);
                gate.poison();
            });
            assert_eq!(gate.wait_over(0), Err(Poisoned));
        });
    }

    #[test]
    fn a_panicking_thread_releases_the_others() {
        let gate = PhaseGate::new(2);
        std::thread::scope(|s| {
            let h = s.spawn(|| {
                let _guard = gate.poison_on_panic();
                panic!("worker failed");
            });
            assert_eq!(gate.wait_over(0), Err(Poisoned));
            assert!(h.join().is_err());
        });
    }
}
