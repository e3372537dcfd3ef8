//! The progress bar on stderr (docs/architecture.md "Output"): shown only when stderr is
//! a terminal, otherwise every call is a no-op. It never touches stdout or the report.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::format::{fixed, group};
use crate::model::Activity;
use crate::time::Tick;

/// How often the bar is redrawn at most; barriers can come millions of times a second.
const REFRESH: Duration = Duration::from_millis(100);

/// Progress of a run in virtual time, with message and token totals.
#[derive(Debug)]
pub struct Progress {
    /// The bar, or `None` when stderr is not a terminal.
    bar: Option<ProgressBar>,
    /// Tick at which the measured part of the run ends (the bar's length).
    end_tick: Tick,
    /// Nanoseconds per tick.
    tick_ns: f64,
    /// When the bar was last redrawn.
    last: Option<Instant>,
}

impl Progress {
    /// A bar running from tick 0 to `end_tick`, on stderr if it is a terminal.
    pub fn new(end_tick: Tick, tick_ns: f64) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress::disabled();
        }
        let bar =
            ProgressBar::with_draw_target(Some(end_tick.max(1)), ProgressDrawTarget::stderr());
        let template = "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% {msg}";
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        // Keeps the spinner and elapsed time moving through long quiet stretches.
        bar.enable_steady_tick(Duration::from_millis(250));
        Progress {
            bar: Some(bar),
            end_tick,
            tick_ns,
            last: None,
        }
    }

    /// A progress value that shows nothing (for `--quiet`, tests and pipes).
    pub fn disabled() -> Progress {
        Progress {
            bar: None,
            end_tick: 0,
            tick_ns: 0.0,
            last: None,
        }
    }

    /// True if the bar is being drawn.
    pub fn is_visible(&self) -> bool {
        self.bar.is_some()
    }

    /// Reports that virtual time has reached `tick` with `activity` totals so far.
    /// Cheap enough to call at every barrier: the bar is redrawn at most every 100 ms.
    pub fn update(&mut self, tick: Tick, activity: &Activity) {
        let Some(bar) = &self.bar else { return };
        let now = Instant::now();
        if self
            .last
            .is_some_and(|last| now.duration_since(last) < REFRESH)
        {
            return;
        }
        self.last = Some(now);
        bar.set_position(tick.min(self.end_tick));
        bar.set_message(status(tick, self.end_tick, self.tick_ns, activity));
    }

    /// Removes the bar so that the summary that follows stands alone.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The text after the bar: "123.4 / 600.0 µs · 1,234 messages · 56,789 token hops".
pub fn status(tick: Tick, end_tick: Tick, tick_ns: f64, activity: &Activity) -> String {
    let us = |t: Tick| fixed(t as f64 * tick_ns / 1000.0, 1);
    // After the measurement window (from the start, for a batch run) the run waits
    // for the measured messages: say how many are still out, not "700 / 600 µs".
    let phase = if tick > end_tick {
        let opened = activity.obligations_opened;
        format!(
            "{} µs, draining: {} of {} measured messages delivered",
            us(tick),
            group(activity.obligations_closed.min(opened)),
            group(opened)
        )
    } else {
        format!("{} / {} µs", us(tick), us(end_tick))
    };
    format!(
        "{phase} · {} messages · {} token hops",
        group(activity.messages_delivered),
        group(activity.tokens_moved)
    )
}
