//! The process's allocator: the system's (`std::alloc::System`, glibc's malloc on
//! Linux), with every byte counted where it is asked for, so that a run is stopped at
//! its memory limit before an allocation can fail. Rust aborts the process when an
//! allocation fails (exit 134, "memory allocation of N bytes failed") and has no stable
//! hook to do otherwise, and the kernel's OOM killer ends a process over its cgroup's
//! `memory.max` without a word (exit 137); so the limit has to be met *before* the
//! system refuses.
//!
//! How it stops a run: the run guard ([`crate::cli::guard`]) sets a *trip* level, in
//! counted bytes, a reserve short of the tightest limit (recalibrated from the
//! system's own figures as the run goes). The first allocation that would take the
//! count past it, or that the system refuses, marks the process as stopping and wakes
//! the guard at once; that thread, and every other thread at its next allocation, then
//! waits instead of allocating, while the guard (the one thread let through) writes
//! its one line and ends the process with exit 2. Nothing grows once the trip is
//! crossed, so the line is written from the reserve, and no second line follows.
//!
//! Why not the `cap` crate: it counts the same way, but over its limit it returns a
//! null pointer, which Rust turns into the very abort this avoids; stopping needs the
//! waiting, the wake-up and the guard's exemption here.
//!
//! Under an address-space limit (`ulimit -v`), glibc's malloc would reserve 64 MiB of
//! address space for each thread's own arena; before `main`, this module caps the
//! arenas at one (`mallopt(M_ARENA_MAX, 1)`) when such a limit (or `ulimit -d`) is set,
//! so that the address space grows with what is allocated. Without a limit the arenas
//! are left as they are: one per thread is faster when several threads allocate.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::Thread;
use std::time::Duration;

/// The counting allocator (see the module's documentation).
#[derive(Debug)]
pub struct Counting;

/// Bytes allocated and not yet freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The count past which the run is stopped (`usize::MAX`: no limit).
static TRIP: AtomicUsize = AtomicUsize::new(usize::MAX);
/// Set by the first allocation past the trip (or refused by the system).
static TRIPPED: AtomicBool = AtomicBool::new(false);
/// The size of the allocation the system refused, if one was (0: none).
static REFUSED: AtomicUsize = AtomicUsize::new(0);
/// The count when the trip was crossed.
static AT_TRIP: AtomicUsize = AtomicUsize::new(0);
/// The guard's thread, woken when the trip is crossed; `None`: no guard, and the
/// system's refusal is left to abort as before.
static WATCHER: Mutex<Option<Thread>> = Mutex::new(None);

thread_local! {
    /// True on the guard's thread: it allocates past the trip, to write its line.
    static EXEMPT: Cell<bool> = const { Cell::new(false) };
}

/// How long a stopped thread sleeps between looks at whether the stop was lifted.
const WAIT: Duration = Duration::from_millis(20);

/// Bytes allocated and not yet freed, now.
pub fn live() -> u64 {
    LIVE.load(Ordering::Relaxed) as u64
}

/// Stops the run at the first allocation that takes the count past `bytes`.
pub fn set_trip(bytes: u64) {
    TRIP.store(
        usize::try_from(bytes).unwrap_or(usize::MAX),
        Ordering::Relaxed,
    );
}

/// Whether the trip was crossed: `Some((count then, size the system refused or 0))`.
pub fn tripped() -> Option<(u64, u64)> {
    TRIPPED.load(Ordering::Acquire).then(|| {
        (
            AT_TRIP.load(Ordering::Relaxed) as u64,
            REFUSED.load(Ordering::Relaxed) as u64,
        )
    })
}

/// Makes the calling thread the guard: woken when the trip is crossed, and let through
/// past it.
pub fn watch_from_here() {
    EXEMPT.with(|e| e.set(true));
    if let Ok(mut w) = WATCHER.lock() {
        *w = Some(std::thread::current());
    }
}

/// No guard any more: no trip, and a refused allocation aborts as Rust does.
pub fn unwatch() {
    TRIP.store(usize::MAX, Ordering::Relaxed);
    if let Ok(mut w) = WATCHER.lock() {
        *w = None;
    }
}

/// Whether a guard is watching.
fn watched() -> bool {
    WATCHER.lock().map(|w| w.is_some()).unwrap_or(false)
}

/// The trip was crossed (`count`), or the system refused `refused` bytes: marks the
/// process as stopping, wakes the guard, and, unless this is the guard's thread, waits
/// for it to end the process. Returns (on the guard's thread, or if the stop is lifted)
/// to let the allocation go ahead.
#[cold]
#[inline(never)]
fn stop(count: usize, refused: usize) {
    if EXEMPT.with(Cell::get) {
        return;
    }
    if !TRIPPED.load(Ordering::Relaxed) {
        AT_TRIP.store(count, Ordering::Relaxed);
        REFUSED.store(refused, Ordering::Relaxed);
        if !TRIPPED.swap(true, Ordering::AcqRel)
            && let Ok(w) = WATCHER.lock()
            && let Some(t) = w.as_ref()
        {
            t.unpark();
        }
    }
    while TRIPPED.load(Ordering::Acquire) && watched() {
        std::thread::sleep(WAIT);
    }
}

/// Counts `size` more bytes, stopping first if that takes the count past the trip;
/// `transient` bytes more are held for the moment (a reallocation's old block).
#[inline]
fn take(size: usize, transient: usize) {
    let count = LIVE.fetch_add(size, Ordering::Relaxed).saturating_add(size);
    if count.saturating_add(transient) > TRIP.load(Ordering::Relaxed) {
        stop(count, 0);
    }
}

/// The system refused `size` bytes, counted by [`take`]: uncounts them, and stops the
/// run if a guard is watching (the caller then tries once more, on the guard's
/// thread); `false` if nothing can be done but fail.
#[cold]
#[inline(never)]
fn refused(size: usize) -> bool {
    LIVE.fetch_sub(size, Ordering::Relaxed);
    if EXEMPT.with(Cell::get) || !watched() {
        return false;
    }
    stop(LIVE.load(Ordering::Relaxed), size);
    LIVE.fetch_add(size, Ordering::Relaxed);
    true
}

// SAFETY: every call is passed on to `System` with the same arguments; only counters
// are updated around it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        take(layout.size(), 0);
        loop {
            // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
            let p = unsafe { System.alloc(layout) };
            if !p.is_null() || !refused(layout.size()) {
                return p;
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        take(layout.size(), 0);
        loop {
            // SAFETY: as for `alloc`.
            let p = unsafe { System.alloc_zeroed(layout) };
            if !p.is_null() || !refused(layout.size()) {
                return p;
            }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size <= old {
            // SAFETY: as `GlobalAlloc::realloc` requires of its caller.
            let p = unsafe { System.realloc(ptr, layout, new_size) };
            if !p.is_null() {
                LIVE.fetch_sub(old - new_size, Ordering::Relaxed);
            }
            return p;
        }
        // Growing may copy: the old block and the new are held at once.
        let grow = new_size - old;
        take(grow, old);
        loop {
            // SAFETY: as `GlobalAlloc::realloc` requires of its caller.
            let p = unsafe { System.realloc(ptr, layout, new_size) };
            if !p.is_null() || !refused(grow) {
                return p;
            }
        }
    }
}

/// Caps glibc's malloc at one arena when the process has an address-space or data
/// limit (see the module's documentation). Run before `main`, while there is one
/// thread.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" fn one_arena_under_a_limit() {
    let limited = |resource| {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the limit into `l`, a valid rlimit.
        unsafe { libc::getrlimit(resource, &mut l) == 0 && l.rlim_cur != libc::RLIM_INFINITY }
    };
    if limited(libc::RLIMIT_AS) || limited(libc::RLIMIT_DATA) {
        // SAFETY: mallopt only sets a malloc parameter.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[unsafe(link_section = ".init_array")]
static ONE_ARENA: extern "C" fn() = one_arena_under_a_limit;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_guard_nothing_stops_and_a_refusal_fails_as_before() {
        // The test binary counts with this allocator too, from every test's thread, so
        // only what no other test changes is checked: no guard watches here.
        take(1000, 0);
        assert!(
            !refused(1000),
            "no guard watches: a refusal fails as before"
        );
        assert_eq!(tripped(), None);
        assert!(live() > 0, "this process has allocated");
    }
}
