//! A fabric part run a window at a time on runs of cells (docs/architecture.md "Runs
//! on the wire"): the adapter and the switch take and send one [`Cell`] at a time
//! ([`FabricCell`]); the engines carry the cells a part sends on one port in one window
//! as one [`CellRun`] ([`Fabric`]). Nothing sent in a window arrives in it, so the
//! wrapper is handed every run due in the window before its first step there
//! ([`Fabric`]'s `RECEIVE_AHEAD`), and then does what the engines' `run_window` does,
//! inside one step: at each tick at which the part has something due (its own next tick,
//! or a cell arriving), it hands over the cells that arrived by then, port by port and
//! in order, with their arrival ticks, and steps the part. The part sees exactly what it
//! would see handed one cell a wire event; the proptest below holds the two ways to
//! each other. The part reads each cell where its run holds it ([`CellPart::take`]) and
//! sends straight into the runs it leaves in ([`CellOut`]): no cell is copied on the
//! way but once, into its run.

use super::protocol::{Cell, CellRun, Fabric, FabricCell, FabricCounters};
use crate::ids::PortId;
use crate::model::{Activity, ModelError, Node, Outbox, PartStats, Wait};
use crate::terminal::TerminalStats;
use crate::time::Tick;
use std::collections::VecDeque;

/// Where a fabric part puts what it sends at one step: the engines' [`Outbox`], one
/// cell an emit (a part run on [`FabricCell`]), or the window's runs themselves (a part
/// in [`Windowed`], which then copies no cell twice). A cell leaves on its port at its
/// tick (Gramsamer §2.1: one packet per link direction per packet cycle on the data
/// path, flow-control information on the control path).
pub trait CellOut {
    /// Sends `cell` on `port`, fully transmitted at tick `at`.
    fn send(&mut self, port: PortId, cell: Cell, at: Tick);
    /// The progress counters of this step ([`Outbox::activity`]).
    fn activity(&mut self) -> &mut Activity;
}

impl CellOut for Outbox<Cell> {
    #[inline]
    fn send(&mut self, port: PortId, cell: Cell, at: Tick) {
        Outbox::send(self, port, cell, at);
    }

    #[inline]
    fn activity(&mut self) -> &mut Activity {
        &mut self.activity
    }
}

/// A fabric part as [`Windowed`] drives it: it takes each cell where the run holds it
/// and sends into any [`CellOut`]. Its [`Node<FabricCell>`] is the same part, handed
/// one cell at a time: `receive` is `take` of the cell, `step` is `step_to` the outbox.
///
/// The parts mark `take`, `step_to` and the per-packet helpers under them `#[inline]`:
/// the wrapper is their one hot caller, and the compiler left them as calls, which cost
/// the instruction gate's fabric case 828 instructions a cell-hop against 721 inlined
/// (BENCHMARKS.md "Fabric parts sending straight into runs").
pub trait CellPart: Node<FabricCell> {
    /// [`Node::receive`] of `cell`, arrived on `port` at `now`, read in place; what
    /// it completes (a packet delivered) is counted in `activity` ([`Outbox::activity`]
    /// of the step it arrives in).
    fn take(
        &mut self,
        now: Tick,
        port: PortId,
        cell: &Cell,
        activity: &mut Activity,
    ) -> Result<(), ModelError>;
    /// [`Node::step`] at `now`, sending into `out`.
    fn step_to(&mut self, now: Tick, out: &mut impl CellOut) -> Result<Option<Tick>, ModelError>;
}

/// Bytes the wrapper keeps per port besides the cells it holds (which are in flight,
/// counted as the wire's): the queue's header, the run counts and the open run.
pub(crate) const PORT_BYTES: u64 = (std::mem::size_of::<(VecDeque<(Tick, CellRun)>, usize)>()
    + std::mem::size_of::<(u64, u64)>()
    + std::mem::size_of::<Option<usize>>()) as u64;

/// A port's runs handed over and not yet given to the part whole.
#[derive(Clone, Debug)]
struct Held {
    /// The runs, each with its link's latency (a cell arrives that long after it left).
    runs: VecDeque<(Tick, CellRun)>,
    /// Cells of the first run the part has.
    taken: usize,
    /// The arrival tick of the next cell ([`Tick::MAX`]: none).
    next: Tick,
}

impl Default for Held {
    /// Nothing held.
    fn default() -> Self {
        Held {
            runs: VecDeque::new(),
            taken: 0,
            next: Tick::MAX,
        }
    }
}

impl Held {
    /// Cells held.
    fn cells(&self) -> usize {
        self.runs.iter().map(|(_, r)| r.cells.len()).sum::<usize>() - self.taken
    }
}

/// Gives `part` every cell held for `port` that arrived by `t`, with its arrival tick,
/// counting what it completes in `activity`; returns the arrival tick of the next.
/// Emptied runs' vectors go to `spare`.
#[inline]
fn hand_over<N: CellPart>(
    held: &mut Held,
    part: &mut N,
    spare: &mut Vec<Vec<(Tick, Cell)>>,
    port: PortId,
    t: Tick,
    activity: &mut Activity,
) -> Result<Tick, ModelError> {
    while let Some((latency, run)) = held.runs.front() {
        while let Some((left, cell)) = run.cells.get(held.taken) {
            let a = left + latency;
            if a > t {
                held.next = a;
                return Ok(a);
            }
            held.taken += 1;
            part.take(a, port, cell, activity)?;
        }
        held.taken = 0;
        if let Some((_, mut run)) = held.runs.pop_front()
            && spare.len() < SPARE_RUNS
        {
            run.cells.clear();
            spare.push(run.cells);
        }
    }
    held.next = Tick::MAX;
    Ok(Tick::MAX)
}

/// A part that takes and sends one cell at a time, run on [`Fabric`]'s runs.
pub struct Windowed<N> {
    inner: N,
    /// Per port: what was handed over and is not yet the part's.
    held: Vec<Held>,
    /// Emptied runs' vectors, to send the next runs in (about as many runs are sent as
    /// received).
    spare: Vec<Vec<(Tick, Cell)>>,
    /// Per port: runs sent and received.
    runs: Vec<(u64, u64)>,
    /// Per port: the index in the engine's outbox of the run this step is filling.
    open: Vec<Option<usize>>,
    /// Link faults are possible: one cell a run, one tick a step (a fault cuts a link
    /// at a tick, not inside a run).
    lossy: bool,
}

impl<N: CellPart> Windowed<N> {
    /// `inner`, with `ports` ports.
    pub fn new(inner: N, ports: usize) -> Windowed<N> {
        Windowed {
            inner,
            held: vec![Held::default(); ports],
            spare: Vec::new(),
            runs: vec![(0, 0); ports],
            open: vec![None; ports],
            lossy: false,
        }
    }
}

/// The most cells a new run's vector makes room for at once.
const MAX_ROOM: usize = 64;

/// Emptied vectors kept for the runs to come: an adapter receives two runs a window
/// and sends one, so it keeps only a few.
const SPARE_RUNS: usize = 4;

/// What a part in [`Windowed`] sends at one step, put straight into the runs of the
/// engine's outbox: a cell joins its port's run of this window, or opens it.
struct Runs<'a> {
    out: &'a mut Outbox<CellRun>,
    /// Per port: the index in `out` of the run this window is filling.
    open: &'a mut [Option<usize>],
    /// Per port: runs sent and received.
    counts: &'a mut [(u64, u64)],
    spare: &'a mut Vec<Vec<(Tick, Cell)>>,
    /// One cell a run ([`Windowed::lossy`]).
    lossy: bool,
    /// Ticks left in the window from this step.
    left: Tick,
}

impl CellOut for Runs<'_> {
    #[inline]
    fn send(&mut self, port: PortId, cell: Cell, at: Tick) {
        if let Some(&Some(i)) = self.open.get(port)
            && let Some(run) = self.out.emits.get_mut(i)
        {
            run.token.cells.push((at, cell));
        } else {
            self.open_run(port, cell, at);
        }
    }

    #[inline]
    fn activity(&mut self) -> &mut Activity {
        &mut self.out.activity
    }
}

impl Runs<'_> {
    /// Sends a new run on `port`, `cell` its first.
    fn open_run(&mut self, port: PortId, cell: Cell, at: Tick) {
        if let Some(r) = self.counts.get_mut(port) {
            r.0 += 1;
        }
        if !self.lossy
            && let Some(o) = self.open.get_mut(port)
        {
            *o = Some(self.out.emits.len());
        }
        // Room for a cell a tick of the window: no growth on the way.
        let room = usize::try_from(self.left).unwrap_or(1).min(MAX_ROOM);
        let mut cells = self.spare.pop().unwrap_or_else(|| Vec::with_capacity(room));
        cells.push((at, cell));
        self.out.send(port, CellRun { cells }, at);
    }
}

impl<N: CellPart> Node<Fabric> for Windowed<N> {
    /// Holds the run's cells: the first arrived at `now`, each next one as many ticks
    /// later as it left after the first.
    fn receive(&mut self, now: Tick, port: PortId, run: CellRun) -> Result<(), ModelError> {
        let Some(&(first, _)) = run.cells.first() else {
            return Ok(());
        };
        if let (Some(r), Some(held)) = (self.runs.get_mut(port), self.held.get_mut(port)) {
            r.1 += 1;
            held.runs.push_back((now - first, run));
            if held.runs.len() == 1 {
                held.next = now;
            }
        }
        Ok(())
    }

    /// Every tick from `now` to the window's end at which the part has something due
    /// ([`Outbox::window_end`]; only `now` where a link may fail, or outside an
    /// engine), as the engines' `run_window` steps a node. What the part sends on a port
    /// in this step goes out as one run, or one run a cell where a link may fail.
    fn step(&mut self, now: Tick, out: &mut Outbox<CellRun>) -> Result<Option<Tick>, ModelError> {
        let end = if self.lossy {
            now + 1
        } else {
            out.window_end.max(now + 1)
        };
        self.open.iter_mut().for_each(|o| *o = None);
        self.run(now, end, out)
    }

    /// The part's counters, with the cells held counted as received, and the runs.
    fn port_counters(&self, port: PortId) -> FabricCounters {
        let held = self.held.get(port).map_or(0, Held::cells) as u64;
        let (runs_sent, runs_received) = self.runs.get(port).copied().unwrap_or_default();
        let c = self.inner.port_counters(port);
        FabricCounters {
            received: c.received + held,
            runs_sent,
            runs_received,
            ..c
        }
    }

    fn waits(&self) -> Vec<Wait> {
        self.inner.waits()
    }

    fn enable_checks(&mut self) {
        self.inner.enable_checks();
    }

    fn expect_link_faults(&mut self) {
        self.lossy = true;
        self.inner.expect_link_faults();
    }

    fn terminal_stats(&self) -> Option<&TerminalStats> {
        self.inner.terminal_stats()
    }

    fn into_terminal_stats(self: Box<Self>) -> Option<TerminalStats> {
        Box::new(self.inner).into_terminal_stats()
    }

    fn part_stats(&self) -> Option<PartStats> {
        self.inner.part_stats()
    }
}

impl<N: CellPart> Windowed<N> {
    /// The ticks of [`Node::step`] from `now` to before `end`.
    fn run(
        &mut self,
        now: Tick,
        end: Tick,
        out: &mut Outbox<CellRun>,
    ) -> Result<Option<Tick>, ModelError> {
        let mut first = self.held.iter().map(|h| h.next).min().unwrap_or(Tick::MAX);
        let mut t = now;
        loop {
            if first <= t {
                first = Tick::MAX;
                for (port, held) in self.held.iter_mut().enumerate() {
                    let next = if held.next <= t {
                        hand_over(
                            held,
                            &mut self.inner,
                            &mut self.spare,
                            port,
                            t,
                            &mut out.activity,
                        )?
                    } else {
                        held.next
                    };
                    first = first.min(next);
                }
            }
            let mut runs = Runs {
                out: &mut *out,
                open: &mut self.open,
                counts: &mut self.runs,
                spare: &mut self.spare,
                lossy: self.lossy,
                left: end - t,
            };
            let timer = self.inner.step_to(t, &mut runs)?;
            let next = timer.unwrap_or(Tick::MAX).min(first);
            if next >= end {
                return Ok((next != Tick::MAX).then_some(next));
            }
            t = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Wait;

    /// Records every call the wrapper makes; at each step sends a credit on one port
    /// (none every third tick) and asks to run again after the next of `gaps` (never,
    /// for a 0).
    struct Recorder {
        calls: Vec<(Tick, Option<(PortId, Cell)>)>,
        gaps: Vec<Tick>,
        steps: usize,
    }

    impl CellPart for Recorder {
        fn take(
            &mut self,
            now: Tick,
            port: PortId,
            cell: &Cell,
            _activity: &mut Activity,
        ) -> Result<(), ModelError> {
            self.calls.push((now, Some((port, *cell))));
            Ok(())
        }
        fn step_to(
            &mut self,
            now: Tick,
            out: &mut impl CellOut,
        ) -> Result<Option<Tick>, ModelError> {
            self.calls.push((now, None));
            if !now.is_multiple_of(3) {
                let output = u16::try_from(now % 7).unwrap_or(0);
                out.send(
                    usize::from(now.is_multiple_of(2)),
                    Cell::Credit { output },
                    now + 1,
                );
            }
            let gap = self.gaps[self.steps % self.gaps.len()];
            self.steps += 1;
            Ok((gap > 0).then_some(now + gap))
        }
    }

    impl Node<FabricCell> for Recorder {
        fn receive(&mut self, now: Tick, port: PortId, cell: Cell) -> Result<(), ModelError> {
            self.take(now, port, &cell, &mut Activity::default())
        }
        fn step(&mut self, now: Tick, out: &mut Outbox<Cell>) -> Result<Option<Tick>, ModelError> {
            self.step_to(now, out)
        }
        fn port_counters(&self, _port: PortId) -> FabricCounters {
            FabricCounters::default()
        }
        fn waits(&self) -> Vec<Wait> {
            Vec::new()
        }
    }

    type Calls = Vec<(Tick, Option<(PortId, Cell)>)>;

    /// Every cell arriving, per port: (arrival, cell), in order.
    fn arrivals(ticks: &[(u8, u8)]) -> [Vec<(Tick, Cell)>; 2] {
        let mut ports: [Vec<(Tick, Cell)>; 2] = [Vec::new(), Vec::new()];
        for &(port, tick) in ticks {
            let output = u16::from(tick);
            ports[usize::from(port % 2)].push((Tick::from(tick), Cell::Credit { output }));
        }
        ports.iter_mut().for_each(|p| p.sort_by_key(|&(a, _)| a));
        ports
    }

    /// The part stepped as the engines step a node handed one cell a wire event: at
    /// each tick at which its timer or a cell is due, the cells arrived by then are
    /// handed over, port by port, then it steps. Gives its calls and what it sent.
    fn cell_at_a_time(
        input: &[Vec<(Tick, Cell)>; 2],
        gaps: &[Tick],
        end: Tick,
    ) -> (Calls, Vec<(PortId, Tick, Cell)>) {
        let mut node = Recorder {
            calls: Vec::new(),
            gaps: gaps.to_vec(),
            steps: 0,
        };
        let mut next = [0, 0];
        let mut timer = Some(0);
        let mut out = Outbox::default();
        let mut sent = Vec::new();
        loop {
            let first = (0..2)
                .filter_map(|p| input[p].get(next[p]).map(|&(a, _)| a))
                .min();
            let Some(t) = [timer, first]
                .into_iter()
                .flatten()
                .min()
                .filter(|&t| t < end)
            else {
                break;
            };
            for p in 0..2 {
                while let Some(&(a, c)) = input[p].get(next[p]).filter(|&&(a, _)| a <= t) {
                    node.receive(a, p, c).unwrap_or_else(|e| panic!("{e}"));
                    next[p] += 1;
                }
            }
            timer = node.step(t, &mut out).unwrap_or_else(|e| panic!("{e}"));
            sent.extend(out.emits.drain(..).map(|e| (e.port, e.at, e.token)));
        }
        (node.calls, sent)
    }

    /// The part in the wrapper, run in windows `window` ticks long as `run_window` runs a
    /// [`Fabric`] node: every run due in the window handed over before its first step.
    /// The input's cells travel in runs of up to `run` cells, from a sender `latency`
    /// ticks away.
    fn in_windows(
        input: &[Vec<(Tick, Cell)>; 2],
        gaps: &[Tick],
        end: Tick,
        window: Tick,
        run: usize,
    ) -> (Calls, Vec<(PortId, Tick, Cell)>) {
        let latency = 5;
        let mut w = Windowed::new(
            Recorder {
                calls: Vec::new(),
                gaps: gaps.to_vec(),
                steps: 0,
            },
            2,
        );
        let mut runs: [VecDeque<(Tick, CellRun)>; 2] = [VecDeque::new(), VecDeque::new()];
        for p in 0..2 {
            for chunk in input[p].chunks(run) {
                let cells = chunk.iter().map(|&(a, c)| (a - latency, c)).collect();
                runs[p].push_back((chunk[0].0, CellRun { cells }));
            }
        }
        let mut timer = Some(0);
        let mut out = Outbox::default();
        let mut sent = Vec::new();
        let mut start = 0;
        while start < end {
            let stop = (start + window).min(end);
            let mut first = None::<Tick>;
            for (p, port) in runs.iter_mut().enumerate() {
                while let Some((a, r)) = port.front().filter(|&&(a, _)| a < stop).cloned() {
                    port.pop_front();
                    first = Some(first.map_or(a, |f| f.min(a)));
                    w.receive(a, p, r).unwrap_or_else(|e| panic!("{e}"));
                }
            }
            out.window_end = stop;
            if let Some(t) = [timer, first]
                .into_iter()
                .flatten()
                .min()
                .filter(|&t| t < stop)
            {
                timer = w
                    .step(t.max(start), &mut out)
                    .unwrap_or_else(|e| panic!("{e}"));
                for e in out.emits.drain(..) {
                    let at0 = e.at;
                    assert_eq!(e.token.cells.first().map(|&(t, _)| t), Some(at0));
                    sent.extend(e.token.cells.iter().map(|&(at, c)| (e.port, at, c)));
                }
            }
            start = stop;
        }
        sent.sort_by_key(|&(p, at, _)| (p, at));
        (w.inner.calls, sent)
    }

    proptest::proptest! {
        /// The part in the wrapper, handed runs a window at a time, sees the same calls
        /// at the same ticks, and sends the same cells, as one cell a wire event.
        #[test]
        fn a_part_in_windows_sees_and_sends_what_it_does_a_cell_at_a_time(
            ticks in proptest::collection::vec((0u8..2, 5u8..80), 0..40),
            gaps in proptest::collection::vec(0u64..4, 1..6),
            window in 1u64..9,
            run in 1usize..5,
        ) {
            let input = arrivals(&ticks);
            let end = 90;
            let (calls, mut sent) = cell_at_a_time(&input, &gaps, end);
            sent.sort_by_key(|&(p, at, _)| (p, at));
            let (w_calls, w_sent) = in_windows(&input, &gaps, end, window, run);
            proptest::prop_assert_eq!(w_calls, calls);
            proptest::prop_assert_eq!(w_sent, sent);
        }
    }
}
