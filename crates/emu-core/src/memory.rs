//! How much memory a network would need, worked out from its plan before any node is
//! built, so that a configuration too large for the machine is refused with the size
//! it asks for instead of aborting half-way through allocating it.
//!
//! [`crate::network::Network::memory_need`] adds up, for every node, its part's
//! [`crate::parts::Part::memory_bound`] (state, buffers, latency histograms) and for
//! every link direction the engines' channel, twice: lightly loaded ([`Fill::Light`])
//! and at worst ([`Fill::Full`]). A run is refused when even the first is more than it may
//! use. Neither counts a source queue that grows without limit when a terminal is
//! offered more than its link carries; docs/architecture.md "Memory" gives measured
//! peaks beside both.

use crate::time::Tick;
use std::collections::VecDeque;

/// Appends `item` to `queue`, which may hold at most `limit` items: the hardware's
/// buffers and the sharded engine's link queues are made empty, make room for
/// [`FIRST_ROOM`] items on their first and double as they fill, but never past their
/// capacity (a `VecDeque` left to grow on its own would double past it). A large network
/// whose links mostly stay idle or lightly loaded touches memory only for the tokens
/// its buffers have held at once, and a full buffer holds no more than [`Fill::Full`]
/// counts.
#[inline]
pub fn push_bounded<T>(queue: &mut VecDeque<T>, limit: usize, item: T) {
    if queue.len() == queue.capacity() {
        grow(queue, 1, limit);
    }
    queue.push_back(item);
}

/// Gives `queue` room for `extra` more items, growing as [`push_bounded`] does: for a
/// caller that appends several items at once.
#[inline]
pub(crate) fn reserve_bounded<T>(queue: &mut VecDeque<T>, extra: usize, limit: usize) {
    if queue.capacity() - queue.len() < extra {
        grow(queue, extra, limit);
    }
}

/// Items a buffer or link queue makes room for on its first.
pub const FIRST_ROOM: usize = 8;

/// Doubles `queue`'s room (from [`FIRST_ROOM`]) until `extra` more items fit, but not
/// past `limit` unless they do not fit in it. Out of line, so that the hot callers of
/// [`push_bounded`] stay as small as a bare `push_back` and keep being inlined.
#[cold]
#[inline(never)]
fn grow<T>(queue: &mut VecDeque<T>, extra: usize, limit: usize) {
    let need = queue.len() + extra;
    let mut room = queue.capacity().max(FIRST_ROOM);
    while room < need {
        room = room.saturating_mul(2);
    }
    let room = room.min(limit).max(need);
    queue.reserve_exact(room - queue.len());
}

/// How full a node's buffers and statistics are assumed to be when its memory is
/// counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fill {
    /// Lightly loaded: every buffer and link queue has held a few tokens at once, so has
    /// room for [`FIRST_ROOM`] ([`push_bounded`]), and every latency metric holds a few
    /// values in its list (a metric counts its values in a histogram's layout only past
    /// [`crate::terminal::Metric::LIST_BYTES`]). What a run at low load needs once its
    /// traffic has reached every link; a run too short for that uses less, a heavily
    /// loaded one more.
    Light,
    /// At worst: every buffer full, latency histograms holding values up to the run's
    /// hard stop.
    Full {
        /// The tick the run stops at, the longest latency it can record.
        hard_stop: Tick,
    },
}

/// Bytes of a latency metric under [`Fill::Light`]: its list after its first value,
/// with room for four (a `Vec`'s first allocation of 8-byte items).
const LIGHT_METRIC_BYTES: u64 = 32;

impl Fill {
    /// Entries a buffer of `capacity` holds room for: its first room when lightly
    /// loaded, `capacity` when full.
    pub fn entries(self, capacity: u64) -> u64 {
        match self {
            Fill::Light => capacity.min(FIRST_ROOM as u64),
            Fill::Full { .. } => capacity,
        }
    }

    /// Packets a buffer or wire that can hold `capacity` of them holds at once: one
    /// when lightly loaded (a packet passes before the next arrives), `capacity` when
    /// full. For what is kept per packet: its information and its journey's entries.
    pub fn packets(self, capacity: u64) -> u64 {
        match self {
            Fill::Light => capacity.min(1),
            Fill::Full { .. } => capacity,
        }
    }

    /// Bytes of one latency metric's values: a short list when lightly loaded, a
    /// histogram up to the hard stop (see [`histogram_bytes`]) at worst.
    pub fn metric(self) -> u64 {
        match self {
            Fill::Light => LIGHT_METRIC_BYTES,
            Fill::Full { hard_stop } => histogram_bytes(hard_stop),
        }
    }

    /// Bytes of one coarse metric's values (see [`coarse_histogram_bytes`]).
    pub(crate) fn coarse_metric(self) -> u64 {
        match self {
            Fill::Light => LIGHT_METRIC_BYTES,
            Fill::Full { hard_stop } => coarse_histogram_bytes(hard_stop),
        }
    }
}

/// What a network needs: at least (lightly loaded) and at most (buffers full,
/// histograms at their largest), in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// Lightly loaded ([`Fill::Light`]).
    pub least: u64,
    /// At worst ([`Fill::Full`]).
    pub most: u64,
}

impl Need {
    /// The most the network's latency histograms grow by, together, each time the
    /// longest latency they hold doubles, in a run that stops at `hard_stop`: as if all
    /// of its buffers-full need were histograms holding latencies up to the hard stop,
    /// each of which grows by one step of [`HISTOGRAM_STEP_BYTES`] a doubling.
    pub fn per_doubling(self, hard_stop: Tick) -> u64 {
        let steps = (histogram_bytes(hard_stop) / HISTOGRAM_STEP_BYTES).max(1);
        self.most / steps
    }

    /// Fails with [`TooLarge`] if even the least this network needs is more than
    /// `limit` bytes (`None`: no limit). `nodes` and `terminals` are the plan's, for the
    /// message.
    pub fn within(
        self,
        limit: Option<u64>,
        nodes: usize,
        terminals: usize,
    ) -> Result<(), TooLarge> {
        match limit {
            Some(limit) if self.least > limit => Err(TooLarge {
                least: self.least,
                most: self.most,
                limit,
                nodes,
                terminals,
            }),
            _ => Ok(()),
        }
    }
}

/// A network that would need more memory than the run may use: refused before any node
/// is built (exit 2 on the command line), whether the plan's size is known from the
/// configuration ([`crate::network::Checked`]) or from the built plan
/// ([`crate::network::Network::memory_need`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the network would need at least {} of memory ({nodes} nodes, {terminals} terminals; up to {} with its buffers full), more than the {} available; make it smaller (fewer nodes, smaller buffers), or give --memory-limit GB (0: no limit) to try anyway",
    human(*least),
    human(*most),
    human(*limit)
)]
pub struct TooLarge {
    /// Bytes the network needs at least.
    pub least: u64,
    /// Bytes it may need at worst.
    pub most: u64,
    /// Bytes the run may use.
    pub limit: u64,
    /// Nodes in the plan.
    pub nodes: usize,
    /// Terminals in the plan.
    pub terminals: usize,
}

/// Sub-buckets of the latency histograms at 3 significant digits (see
/// [`crate::terminal::metric`]).
const HISTOGRAM_SUB_BUCKETS: u64 = 2048;

/// Bytes a latency histogram grows by each time the longest latency it holds doubles:
/// 1,024 more counts of 8 bytes (see [`histogram_bytes`]).
pub const HISTOGRAM_STEP_BYTES: u64 = HISTOGRAM_SUB_BUCKETS / 2 * 8;

/// Sub-buckets of the coarse histograms, at 2 significant digits.
const COARSE_SUB_BUCKETS: u64 = 256;

/// Bytes of one auto-resizing HDR histogram of `u64` counts at 3 significant digits
/// that has recorded values up to `max` (hdrhistogram's layout: 2,048 sub-buckets,
/// then 1,024 more counts per doubling of the range).
pub fn histogram_bytes(max: Tick) -> u64 {
    layout_bytes(max, HISTOGRAM_SUB_BUCKETS)
}

/// Bytes of one coarse histogram (2 significant digits: 256 sub-buckets, then 128
/// more counts per doubling) that has recorded values up to `max`.
pub fn coarse_histogram_bytes(max: Tick) -> u64 {
    layout_bytes(max, COARSE_SUB_BUCKETS)
}

fn layout_bytes(max: Tick, sub_buckets: u64) -> u64 {
    let mut buckets = 1u64;
    let mut reach = sub_buckets;
    while reach <= max && buckets < 64 {
        reach = reach.saturating_mul(2);
        buckets += 1;
    }
    (buckets + 1) * (sub_buckets / 2) * 8
}

/// The memory this machine has available for a new run (`MemAvailable` of
/// `/proc/meminfo`), or `None` where the system does not say.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&text, "MemAvailable:")
}

/// One limit on the memory this process may take, and how much of it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// What limits it, for messages: "the memory available (MemAvailable)", "the
    /// process's address-space limit (ulimit -v)", …
    pub what: &'static str,
    /// What the process uses of it now, in bytes (resident memory, address space, data
    /// segment or the cgroup's usage).
    pub used: u64,
    /// The most it may reach, in bytes.
    pub most: u64,
}

impl Bound {
    /// Bytes left before the bound is reached.
    pub fn headroom(&self) -> u64 {
        self.most.saturating_sub(self.used)
    }

    /// Bytes a new run may plan for under this bound: the [`SHARE`] of its headroom a
    /// run is let grow into, less the [`RESERVE`] kept below it and, against the
    /// address space, the stacks of the worker threads the run is yet to start
    /// ([`THREAD_STACK`] for each core): a network whose estimate fits is built and run
    /// without meeting the bound in the first steps.
    pub fn usable(&self) -> u64 {
        let stacks = if self.what == ADDRESS_SPACE {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            THREAD_STACK.saturating_mul(cores as u64)
        } else {
            0
        };
        ((self.headroom() as f64 * SHARE) as u64)
            .saturating_sub(RESERVE)
            .saturating_sub(stacks)
    }
}

/// The share of a bound's headroom at the start that a run may take before it is
/// stopped: the rest is left for the allocator's next growth step and the system.
pub const SHARE: f64 = 0.9;

/// Bytes kept back below the share of every bound: what stopping a run needs to write
/// its message, and room for what grows between two readings of the system's figures
/// (a thread's stack, the allocator's slack).
pub const RESERVE: u64 = 4 << 20;

/// The address space a worker thread takes for its stack: Rust's default of 2 MiB and
/// its guard page.
pub const THREAD_STACK: u64 = (2 << 20) + 4096;

/// What the address-space bound is called in messages.
const ADDRESS_SPACE: &str = "the process's address-space limit (ulimit -v)";

/// Every limit on this process's memory that the system states, as seen now: what is
/// available on the machine (against resident memory), the soft `RLIMIT_AS` and
/// `RLIMIT_DATA` (against the address space and the data segment), and the cgroup's
/// `memory.max` (v2) or `memory.limit_in_bytes` (v1) against its working set
/// (`cgroup_bound_under`). Linux only; elsewhere empty.
pub fn bounds() -> Vec<Bound> {
    let mut out = Vec::new();
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    if let (Some(avail), Some(rss)) = (available(), kib_field(&status, "VmRSS:")) {
        out.push(Bound {
            what: "the memory available on this machine (MemAvailable)",
            used: rss,
            most: rss.saturating_add(avail),
        });
    }
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
    for (name, field, what) in [
        ("Max address space", "VmSize:", ADDRESS_SPACE),
        (
            "Max data size",
            "VmData:",
            "the process's data-segment limit (ulimit -d)",
        ),
    ] {
        if let (Some(most), Some(used)) = (soft_limit(&limits, name), kib_field(&status, field)) {
            out.push(Bound { what, used, most });
        }
    }
    if let Some(b) = cgroup_bound() {
        out.push(b);
    }
    out
}

/// Bytes of address space left under the soft `RLIMIT_AS` (`ulimit -v`), if one is
/// set: what new threads' stacks must fit in.
pub fn address_space_room() -> Option<u64> {
    bounds()
        .into_iter()
        .find(|b| b.what == ADDRESS_SPACE)
        .map(|b| b.headroom())
}

/// The bound with the least headroom, if any.
pub fn tightest() -> Option<Bound> {
    bounds().into_iter().min_by_key(Bound::headroom)
}

/// The most a new run may plan for under every bound the system states
/// ([`Bound::usable`]), if any: what a network's estimate is held to by default.
pub fn usable() -> Option<u64> {
    bounds().iter().map(Bound::usable).min()
}

/// Resident memory of this process now.
pub fn resident() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    kib_field(&status, "VmRSS:")
}

/// Where the cgroup file systems are mounted: cgroup v2's hierarchy itself, or one
/// directory per v1 controller (`memory/`) beside it.
const CGROUP_ROOT: &str = "/sys/fs/cgroup";

/// What the cgroup v2 bound is called in messages.
const CGROUP_V2: &str = "the cgroup's memory.max (its working set)";

/// What the cgroup v1 bound is called in messages.
const CGROUP_V1: &str = "the cgroup's memory.limit_in_bytes (its working set)";

/// A cgroup v1 limit at or above this many bytes is no limit: the kernel writes 2⁶³
/// less a page for "none".
const V1_NO_LIMIT: u64 = 1 << 60;

/// The memory limit of this process's cgroup and its working set (see
/// [`cgroup_bound_under`]), read from `/proc/self/cgroup` and [`CGROUP_ROOT`].
fn cgroup_bound() -> Option<Bound> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    cgroup_bound_under(std::path::Path::new(CGROUP_ROOT), &membership)
}

/// The tightest memory limit of a process's cgroup, when one is set: `membership` is
/// the process's `/proc/self/cgroup`, `root` where the cgroup file systems are
/// mounted. Both versions are read:
///
/// - cgroup v2, the line `0::/PATH`: `ROOT/PATH/memory.max` ("max": no limit) against
///   `memory.current`;
/// - cgroup v1, the line `N:memory:/PATH` (the controller may share its line with
///   others, `N:cpu,memory:/PATH`): `ROOT/memory/PATH/memory.limit_in_bytes` (2⁶⁰ bytes
///   or more: no limit) against `memory.usage_in_bytes`.
///
/// A limit set on a parent holds its children too, so the cgroup and each of its
/// parents up to the mount's root are read, and the one with the least headroom is
/// the bound (a directory that does not exist is passed over: inside a container
/// without its own cgroup namespace, the path is the host's and the mount's root is
/// the container's cgroup). What is used is the working set: the usage less the
/// inactive file cache (`inactive_file`, v1's `total_inactive_file`, of
/// `memory.stat`), which the kernel reclaims before it runs out, so a build's page
/// cache beside a run does not count against it. A file missing or not a number
/// leaves that cgroup out.
pub(crate) fn cgroup_bound_under(root: &std::path::Path, membership: &str) -> Option<Bound> {
    let mut found: Vec<Bound> = Vec::new();
    for line in membership.lines() {
        let mut fields = line.trim().splitn(3, ':');
        let (Some(_id), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let (mount, version) = if controllers.is_empty() {
            (root.to_path_buf(), CgroupVersion::V2)
        } else if controllers.split(',').any(|c| c == "memory") {
            (root.join("memory"), CgroupVersion::V1)
        } else {
            continue;
        };
        for dir in and_parents(&within(&mount, path), &mount) {
            found.extend(cgroup_level(dir, version));
        }
    }
    found.into_iter().min_by_key(Bound::headroom)
}

/// The directory of the cgroup `path` (as `/proc/self/cgroup` gives it) under the
/// mount's root `mount`: the root itself for a path that leaves it (`/..`, a cgroup
/// outside the process's cgroup namespace) or is not a path.
fn within(mount: &std::path::Path, path: &str) -> std::path::PathBuf {
    use std::path::Component;
    let path = std::path::Path::new(path);
    let mut dir = mount.to_path_buf();
    for c in path.components() {
        match c {
            Component::RootDir | Component::CurDir => {}
            Component::Normal(name) => dir.push(name),
            Component::ParentDir | Component::Prefix(_) => return mount.to_path_buf(),
        }
    }
    dir
}

/// `dir` and each of its parents up to and including `top`.
fn and_parents<'a>(
    dir: &'a std::path::Path,
    top: &'a std::path::Path,
) -> impl Iterator<Item = &'a std::path::Path> {
    dir.ancestors().take_while(move |d| d.starts_with(top))
}

/// The two versions of the cgroup interface, whose files are named apart.
#[derive(Clone, Copy)]
enum CgroupVersion {
    V1,
    V2,
}

/// The limit and working set of the one cgroup in `dir`, if it has a limit.
fn cgroup_level(dir: &std::path::Path, version: CgroupVersion) -> Option<Bound> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let number = |name: &str| read(name)?.trim().parse::<u64>().ok();
    let (what, most, current, inactive) = match version {
        CgroupVersion::V2 => (
            CGROUP_V2,
            number("memory.max")?,
            number("memory.current")?,
            "inactive_file ",
        ),
        CgroupVersion::V1 => (
            CGROUP_V1,
            number("memory.limit_in_bytes").filter(|&l| l < V1_NO_LIMIT)?,
            number("memory.usage_in_bytes")?,
            "total_inactive_file ",
        ),
    };
    let stat = read("memory.stat").unwrap_or_default();
    let field = |name: &str| {
        stat.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    let inactive_file = field(inactive)
        .or_else(|| field("inactive_file "))
        .unwrap_or(0);
    Some(Bound {
        what,
        used: current.saturating_sub(inactive_file),
        most,
    })
}

/// A `Name:   1234 kB` field of a `/proc` file, in bytes.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The soft limit of row `name` of `/proc/self/limits`, in bytes; `None` if unlimited.
fn soft_limit(limits: &str, name: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with(name))?;
    line[name.len()..].split_whitespace().next()?.parse().ok()
}

/// `bytes` for people: "830 MB", "5.2 GB" (decimal units, as `free -h` does not but
/// as disks and most tools do).
pub fn human(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e12 {
        format!("{:.1} TB", b / 1e12)
    } else if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.0} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.0} kB", b / 1e3)
    } else {
        crate::text::count(bytes, "byte", "bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hdrhistogram::Histogram;

    #[test]
    fn a_buffer_doubles_from_its_first_room_up_to_its_limit() {
        let mut q: VecDeque<u64> = VecDeque::new();
        assert_eq!(q.capacity(), 0, "built empty, nothing allocated");
        push_bounded(&mut q, 35, 1);
        assert_eq!(q.capacity(), FIRST_ROOM, "room for eight on the first item");
        let mut rooms = vec![q.capacity()];
        for k in 2..=35 {
            push_bounded(&mut q, 35, k);
            if rooms.last() != Some(&q.capacity()) {
                rooms.push(q.capacity());
            }
        }
        assert_eq!(rooms, [8, 16, 32, 35], "doubling, then exactly the limit");
        push_bounded(&mut q, 35, 36);
        assert_eq!(q.capacity(), 36, "past its limit only as far as it must");
        assert_eq!(
            q.iter().copied().collect::<Vec<_>>(),
            (1..=36).collect::<Vec<_>>()
        );
        let mut r: VecDeque<u64> = VecDeque::new();
        reserve_bounded(&mut r, 20, 100);
        assert_eq!(r.capacity(), 32, "several at once: doubled until they fit");
        reserve_bounded(&mut r, 200, 100);
        assert_eq!(
            r.capacity(),
            200,
            "more than the limit: exactly what is asked"
        );
    }

    #[test]
    fn the_histogram_formula_matches_the_crate() {
        for max in [
            0,
            1,
            2047,
            2048,
            4095,
            4096,
            1_000_000,
            123_456_789,
            1 << 40,
        ] {
            let mut h = Histogram::<u64>::new(3).expect("valid");
            h.auto(true);
            h.record(max).expect("auto-resizing");
            let counts = h.distinct_values() as u64;
            assert_eq!(histogram_bytes(max), counts * 8, "max {max}");
            let mut c = Histogram::<u64>::new(2).expect("valid");
            c.auto(true);
            c.record(max).expect("auto-resizing");
            let counts = c.distinct_values() as u64;
            assert_eq!(coarse_histogram_bytes(max), counts * 8, "coarse, max {max}");
        }
    }

    #[test]
    fn histograms_grow_a_step_a_doubling_and_a_need_says_how_much_at_most() {
        // A step a doubling of the longest latency, past the first 2,048 ticks.
        assert_eq!(
            histogram_bytes(4096) - histogram_bytes(2048),
            HISTOGRAM_STEP_BYTES
        );
        assert_eq!(
            histogram_bytes(1 << 20) - histogram_bytes(1 << 19),
            HISTOGRAM_STEP_BYTES
        );
        // 2^20 ticks: 11 buckets and one, 12 steps; a need of 12 MB grows by at most
        // 1 MB a doubling.
        assert_eq!(histogram_bytes(1 << 20), 12 * HISTOGRAM_STEP_BYTES);
        let need = Need {
            least: 1,
            most: 12_000_000,
        };
        assert_eq!(need.per_doubling(1 << 20), 1_000_000);
        assert_eq!(Need { least: 0, most: 0 }.per_doubling(0), 0);
    }

    #[test]
    fn proc_fields_and_limits_are_read_in_bytes() {
        let status = "Name:\temu\nVmSize:\t  2048 kB\nVmRSS:\t 1024 kB\n";
        assert_eq!(kib_field(status, "VmSize:"), Some(2048 * 1024));
        assert_eq!(kib_field(status, "VmData:"), None);
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max data size             unlimited            unlimited            bytes\n\
                      Max address space         4096000000           unlimited            bytes\n";
        assert_eq!(soft_limit(limits, "Max address space"), Some(4_096_000_000));
        assert_eq!(soft_limit(limits, "Max data size"), None);
        let b = Bound {
            what: "x",
            used: 10,
            most: 4,
        };
        assert_eq!(b.headroom(), 0);
        assert_eq!(b.usable(), 0);
    }

    #[test]
    fn a_run_plans_for_a_share_of_the_headroom_less_the_reserve_and_stacks() {
        let resident = Bound {
            what: "the memory available on this machine (MemAvailable)",
            used: 10_000_000,
            most: 110_000_000,
        };
        assert_eq!(resident.usable(), 90_000_000 - RESERVE);
        let space = Bound {
            what: ADDRESS_SPACE,
            ..resident
        };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
        assert_eq!(space.usable(), 90_000_000 - RESERVE - cores * THREAD_STACK);
        assert!(usable().is_some_and(|u| u < tightest().map_or(0, |t| t.headroom())));
    }

    #[test]
    fn this_process_sees_at_least_the_machines_memory() {
        // Linux CI: MemAvailable and VmRSS are always there.
        let b = bounds();
        assert!(b.iter().any(|b| b.what.contains("MemAvailable")), "{b:?}");
        assert!(tightest().is_some_and(|t| t.headroom() > 0));
        assert!(resident().is_some_and(|r| r > 0));
    }

    /// Writes `files` (path under `root`, contents) for a fake cgroup mount.
    fn fake(root: &std::path::Path, files: &[(&str, &str)]) {
        for (path, text) in files {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().expect("a parent")).expect("a directory");
            std::fs::write(p, text).expect("written");
        }
    }

    #[test]
    fn cgroup_v2_limits_are_read_up_the_nested_path_and_max_is_none() {
        let t = tempfile::tempdir().expect("a temporary directory");
        let root = t.path();
        let membership = "0::/user.slice/run.scope\n";
        // The cgroup itself has no limit: none at all.
        fake(
            root,
            &[
                ("user.slice/run.scope/memory.max", "max\n"),
                ("user.slice/run.scope/memory.current", "100\n"),
            ],
        );
        assert_eq!(cgroup_bound_under(root, membership), None);
        // Its parent's limit holds it, against the parent's working set.
        fake(
            root,
            &[
                ("user.slice/memory.max", "1000\n"),
                ("user.slice/memory.current", "300\n"),
                (
                    "user.slice/memory.stat",
                    "anon 200\ninactive_file 50\nactive_file 50\n",
                ),
            ],
        );
        let parent = Bound {
            what: CGROUP_V2,
            used: 250,
            most: 1000,
        };
        assert_eq!(cgroup_bound_under(root, membership), Some(parent));
        // A limit of its own with less headroom is the tighter one; one with more is not.
        fake(root, &[("user.slice/run.scope/memory.max", "400\n")]);
        let own = Bound {
            what: CGROUP_V2,
            used: 100,
            most: 400,
        };
        assert_eq!(cgroup_bound_under(root, membership), Some(own));
        fake(root, &[("user.slice/run.scope/memory.max", "900\n")]);
        assert_eq!(cgroup_bound_under(root, membership), Some(parent));
        // The root cgroup has no memory.max; a path that leaves the namespace is read
        // at the mount's root, as is one that does not exist under it.
        assert_eq!(cgroup_bound_under(root, "0::/\n"), None);
        fake(root, &[("memory.max", "5000"), ("memory.current", "10")]);
        let top = Bound {
            what: CGROUP_V2,
            used: 10,
            most: 5000,
        };
        assert_eq!(cgroup_bound_under(root, "0::/../elsewhere\n"), Some(top));
        assert_eq!(cgroup_bound_under(root, "0::/docker/abc\n"), Some(top));
    }

    #[test]
    fn cgroup_v1_limits_are_read_from_the_memory_controller_and_huge_is_none() {
        let t = tempfile::tempdir().expect("a temporary directory");
        let root = t.path();
        // A hybrid system: v2 mounted with no memory controller, v1's memory beside it.
        let membership = "9:name=systemd:/\n4:cpu,memory:/jobs/run7\n1:cpu:/\n0::/\n";
        fake(
            root,
            &[
                ("memory/memory.limit_in_bytes", "9223372036854771712\n"),
                ("memory/memory.usage_in_bytes", "5000000000\n"),
                ("memory/jobs/memory.limit_in_bytes", "9223372036854771712\n"),
                ("memory/jobs/memory.usage_in_bytes", "600000000\n"),
                (
                    "memory/jobs/run7/memory.limit_in_bytes",
                    "9223372036854771712\n",
                ),
                ("memory/jobs/run7/memory.usage_in_bytes", "300000000\n"),
            ],
        );
        assert_eq!(cgroup_bound_under(root, membership), None, "no limit set");
        fake(
            root,
            &[
                ("memory/jobs/run7/memory.limit_in_bytes", "1073741824\n"),
                (
                    "memory/jobs/run7/memory.stat",
                    "cache 90000000\ninactive_file 1000\ntotal_inactive_file 80000000\n",
                ),
            ],
        );
        assert_eq!(
            cgroup_bound_under(root, membership),
            Some(Bound {
                what: CGROUP_V1,
                used: 220_000_000,
                most: 1_073_741_824,
            })
        );
        // No memory controller named: nothing read.
        assert_eq!(cgroup_bound_under(root, "4:cpu:/jobs/run7\n"), None);
    }

    #[test]
    fn cgroup_garbage_is_no_limit() {
        let t = tempfile::tempdir().expect("a temporary directory");
        let root = t.path();
        fake(
            root,
            &[
                ("a/memory.max", "lots\n"),
                ("a/memory.current", "10\n"),
                ("b/memory.max", "1000\n"),
                ("b/memory.current", "-5\n"),
                ("c/memory.max", "1000\n"),
            ],
        );
        for membership in [
            "",
            "nonsense",
            "0:/a",
            "0::/a\n",
            "0::/b\n",
            "0::/c\n",
            "0::/nowhere\n",
            "4:memory:/a\n",
        ] {
            assert_eq!(cgroup_bound_under(root, membership), None, "{membership:?}");
        }
        // A stat that is not numbers counts no cache.
        fake(
            root,
            &[
                ("c/memory.current", "30"),
                ("c/memory.stat", "inactive_file x\n"),
            ],
        );
        assert_eq!(
            cgroup_bound_under(root, "0::/c"),
            Some(Bound {
                what: CGROUP_V2,
                used: 30,
                most: 1000,
            })
        );
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(836_000_000), "836 MB");
        assert_eq!(human(5_230_000_000), "5.2 GB");
        assert_eq!(human(12_000), "12 kB");
        assert_eq!(human(1), "1 byte");
        assert_eq!(human(999), "999 bytes");
    }
}
