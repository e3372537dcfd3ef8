//! How a run is made: overrides, seed, engine, threads, checks, limits, what is
//! recorded and progress.

use crate::engine::EngineKind;
use crate::model::Activity;
use crate::observe::Recorder;
use crate::time::Tick;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};

/// The function told of a run's progress ([`RunOptions::on_progress`]).
pub type ProgressHook<'a> = Box<dyn FnMut(&Progress) -> ControlFlow<()> + Send + 'a>;

/// How [`crate::run`] runs a case. Physical units only: microseconds of virtual time,
/// bytes. `RunOptions::default()` is the command line's `emu -t T -p P` without flags,
/// except that it sets no memory limit.
#[derive(Debug)]
pub struct RunOptions<'a> {
    /// `--set`-style overrides, `KEY=VALUE` (`network.dimensions=4`,
    /// `traffic.description=x`), applied in order.
    pub set: Vec<String>,
    /// The run seed: the same seed gives the same report, byte for byte (default 1).
    pub seed: u64,
    /// The engine that runs it (`--engine`; default [`EngineKind::Sharded`]). Reports
    /// never depend on it. The sharded engine on one thread is the sequential reference
    /// engine ([`crate::engine::sequential`]).
    pub engine: EngineKind,
    /// Worker threads (1 to [`MAX_THREADS`]); `None`: one per core, fewer on a network of
    /// under 64 nodes per core. Reports never depend on it.
    pub threads: Option<usize>,
    /// Check the credit invariant of every link at every window, and each message's
    /// latency against the timing of its path (`--check`; slower).
    pub check: bool,
    /// Call it a deadlock when no token has moved for this long, in µs of virtual time,
    /// while packets are in flight (`None`: the plan's default, ten packet times and at
    /// least 20 µs).
    pub deadlock_window_us: Option<f64>,
    /// Refuse a network whose state would need more than this many bytes, before it is
    /// built (`None`: no limit). [`crate::memory::usable`] is what the command line
    /// passes by default.
    pub memory_limit: Option<u64>,
    /// Stop the run at this tick of the plan's time base, whatever its phases say: its
    /// end and its hard stop are both brought forward to it, and the engine stops at
    /// the end of the window that reaches it (a network left with nothing to do but
    /// packets in flight is a deadlock at once, named at the tick its deadlock window
    /// would end, which may be later). `None`: as the plan says.
    pub tick_budget: Option<Tick>,
    /// Record what crosses the nodes' ports into this recorder, as `--trace` and
    /// `--vcd` do ([`crate::observe`]); `None`: nothing is recorded.
    pub recorder: Option<Arc<Recorder>>,
    /// Told of the run's progress ([`RunOptions::on_progress`]); `None`: nothing is.
    pub progress: Option<OnProgress<'a>>,
}

/// A progress hook as the `progress` field of [`RunOptions`] holds it: called through a shared
/// reference from whichever worker thread runs the window's end.
pub struct OnProgress<'a>(Mutex<ProgressHook<'a>>);

impl<'a> OnProgress<'a> {
    /// The hook `f`: see [`RunOptions::on_progress`].
    pub fn new(f: impl FnMut(&Progress) -> ControlFlow<()> + Send + 'a) -> Self {
        OnProgress(Mutex::new(Box::new(f)))
    }
}

impl fmt::Debug for OnProgress<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OnProgress")
    }
}

/// The most worker threads a run accepts.
pub const MAX_THREADS: usize = 4096;

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            set: Vec::new(),
            seed: 1,
            engine: EngineKind::Sharded,
            threads: None,
            check: false,
            deadlock_window_us: None,
            memory_limit: None,
            tick_budget: None,
            recorder: None,
            progress: None,
        }
    }
}

impl<'a> RunOptions<'a> {
    /// Calls `hook` as the run goes, at the end of every window of virtual time (from
    /// one of the run's worker threads). Returning [`ControlFlow::Break`] stops the run
    /// a window or two later: its report's outcome is then
    /// [`super::Outcome::Stopped`].
    pub fn on_progress(
        mut self,
        hook: impl FnMut(&Progress) -> ControlFlow<()> + Send + 'a,
    ) -> Self {
        self.progress = Some(OnProgress::new(hook));
        self
    }

    /// Calls the progress hook, if there is one; `Break` if it asks the run to stop.
    pub(crate) fn progress(&self, p: &Progress) -> ControlFlow<()> {
        match &self.progress {
            Some(OnProgress(hook)) => {
                let mut hook = hook.lock().unwrap_or_else(|e| e.into_inner());
                hook(p)
            }
            None => ControlFlow::Continue(()),
        }
    }

    /// True if a progress hook is set.
    pub(crate) fn has_progress(&self) -> bool {
        self.progress.is_some()
    }
}

/// How far a run has got, as [`RunOptions::on_progress`] is told it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// Virtual time reached, in ticks of the plan's time base.
    pub tick: Tick,
    /// Virtual time reached, in µs.
    pub virtual_us: f64,
    /// Virtual time at which the run may end (the end of its measurement, or of its
    /// batch), in µs; it goes on past it until every measured message is delivered.
    pub end_us: f64,
    /// What the network has done so far: tokens moved, packets injected and ejected,
    /// messages created and delivered.
    pub activity: Activity,
}

impl Progress {
    /// The fraction of the run done, by virtual time: from 0 up to 1 at
    /// [`Progress::end_us`] (and no more after it).
    pub fn fraction(&self) -> f64 {
        if self.end_us > 0.0 {
            (self.virtual_us / self.end_us).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }
}
