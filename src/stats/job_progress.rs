//! Progress of a batch of independent runs (`emu sweep`, `emu reproduce`, `emu stress`)
//! on stderr: a bar with the runs done and the time left when stderr is a terminal; one
//! summary line at the end when it is not (a log or a CI job). Never on stdout.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::io::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A count of finished runs out of a known total.
#[derive(Debug)]
pub struct JobProgress {
    /// What is counted ("sweep", "stress", …), the summary line's first word.
    what: String,
    /// What one unit of work is called ("runs", "cases", "experiments").
    unit: String,
    /// The bar on a terminal.
    bar: Option<ProgressBar>,
    /// Print a summary line at the end (stderr is not a terminal, and not quiet).
    summary: bool,
    /// When the batch started.
    start: Instant,
    /// Runs done so far.
    done: AtomicU64,
}

impl JobProgress {
    /// Progress of `total` `unit`s ("runs") of `what`; `quiet` shows nothing at all.
    pub fn new(what: &str, total: u64, unit: &str, quiet: bool) -> JobProgress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let template =
                format!("{{spinner}} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} {unit}, {{eta}} left {{msg}}");
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(250));
            bar
        });
        JobProgress {
            what: what.to_string(),
            unit: unit.to_string(),
            bar,
            summary: !quiet && !terminal,
            start: Instant::now(),
            done: AtomicU64::new(0),
        }
    }

    /// One more run finished.
    pub fn inc(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
        if let Some(b) = &self.bar {
            b.inc(1);
        }
    }

    /// Shows what is running now beside the bar (nothing without a bar).
    pub fn set_message(&self, msg: &str) {
        if let Some(b) = &self.bar {
            b.set_message(msg.to_string());
        }
    }

    /// Prints `line` on stderr above the bar (plainly without one).
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(b) => b.println(line),
            // Progress is chatter: a standard error that cannot take it loses nothing
            // the run produced, and must not stop it.
            None => {
                let _ = writeln!(std::io::stderr(), "{line}");
            }
        }
    }

    /// Clears the bar and prints nothing (the batch failed: its error is what to show).
    pub fn clear(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }

    /// Clears the bar, or prints the summary line (`sweep: 40 runs in 12.3 s`).
    pub fn finish(&self) {
        self.clear();
        if self.summary {
            let done = self.done.load(Ordering::Relaxed);
            let _ = writeln!(
                std::io::stderr(),
                "{}: {done} {} in {:.1} s",
                self.what,
                self.unit,
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}
