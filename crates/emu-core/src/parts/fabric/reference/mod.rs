//! The adapter and the switch as they were before their hot paths were rewritten (lazy
//! credit waits, bitsets kept inline, only busy outputs and inputs visited), kept to
//! prove the rewrite changes no cell, tick or statistic: the tests drive a small fabric
//! of each with the same random traffic and compare everything the parts emit and report.

mod adapter;
mod bitset;
mod flow;
mod rxs;
mod source;
mod switch;

pub(crate) use adapter::AdapterNode;
pub(crate) use switch::SwitchNode;

#[cfg(test)]
mod tests {
    use crate::model::{Activity, Node, Outbox, PortId};
    use crate::parts::fabric::flow::FlowControl;
    use crate::parts::fabric::protocol::{Cell, FabricCell};
    use crate::parts::fabric::source::{Arrivals, Destinations, TraceEvent};
    use crate::parts::fabric::{
        AdapterNode, AdapterParams, OutputScheduler, Strategy, SwitchNode, SwitchParams,
    };
    use crate::time::Tick;
    use proptest::prelude::*;
    use std::sync::Arc;

    /// One random small fabric and how to run it.
    #[derive(Clone, Debug)]
    struct Case {
        n: u16,
        rtt: u32,
        memory: Option<u32>,
        fc: FlowControl,
        scheduler: OutputScheduler,
        arrivals: Vec<Arrivals>,
        destinations: Vec<Destinations>,
        voq_cap: u64,
        start: Tick,
        window: (Tick, Tick),
        timeline: Option<Tick>,
        checks: bool,
        /// Step every part every tick (as the unit-test drivers do), or only at the ticks
        /// it asked for and those with arrivals (as the engines do).
        every_tick: bool,
        cycles: Tick,
        seed: u64,
    }

    /// Everything a part did and reported, in order.
    #[derive(Debug, Default, PartialEq)]
    struct Log {
        events: Vec<String>,
    }

    impl Log {
        fn push(&mut self, s: String) {
            self.events.push(s);
        }
    }

    /// Runs `case` with the parts `adapter` and `switch` make, every part receiving what
    /// arrived at a tick (port order, FIFO per port) and then stepping, and logs per
    /// part every receive's result, every step's cells, activity and next tick, and at
    /// the end its counters, statistics and waits.
    fn run<A: Node<FabricCell>, S: Node<FabricCell>>(
        case: &Case,
        adapter: impl Fn(AdapterParams) -> A,
        switch: impl Fn(SwitchParams) -> S,
    ) -> Vec<Log> {
        let n = usize::from(case.n);
        let data = Tick::from(case.rtt.div_ceil(2));
        let control = Tick::from(case.rtt / 2);
        let mut adapters: Vec<A> = (0..case.n)
            .map(|i| {
                adapter(AdapterParams {
                    index: i,
                    ports: case.n,
                    memory: case.memory,
                    flow_control: case.fc.clone(),
                    data_extra: data - control,
                    data_path: data,
                    timeline: case.timeline,
                    arrivals: case.arrivals[usize::from(i)].clone(),
                    destinations: case.destinations[usize::from(i)],
                    voq_cap: case.voq_cap,
                    start: case.start,
                    window: case.window,
                    packet_bytes: 64,
                    seed: case.seed.wrapping_add(u64::from(i)),
                })
            })
            .collect();
        let mut sw = switch(SwitchParams {
            ports: case.n,
            memory: case.memory,
            flow_control: case.fc.clone(),
            output_scheduler: case.scheduler,
            window: case.window,
            seed: case.seed ^ 0x5eed,
        });
        if case.checks {
            for a in &mut adapters {
                a.enable_checks();
            }
            sw.enable_checks();
        }
        // Per node (adapters, then the switch): cells on their way (arrival, port, cell)
        // in sending order, and the tick it asked to run at.
        let mut pending: Vec<Vec<(Tick, PortId, Cell)>> = vec![Vec::new(); n + 1];
        let mut timers: Vec<Option<Tick>> = vec![Some(0); n + 1];
        let mut logs: Vec<Log> = (0..=n).map(|_| Log::default()).collect();
        let mut out = Outbox::default();
        for t in 0..case.cycles {
            for k in 0..=n {
                let node: &mut dyn Node<FabricCell> =
                    if k < n { &mut adapters[k] } else { &mut sw };
                let mut due: Vec<(Tick, PortId, Cell)> = Vec::new();
                pending[k].retain(|&(at, port, cell)| {
                    if at <= t {
                        due.push((at, port, cell));
                        false
                    } else {
                        true
                    }
                });
                due.sort_by_key(|&(_, port, _)| port);
                let asked = timers[k].is_some_and(|w| w <= t);
                if !(case.every_tick || asked || !due.is_empty()) {
                    continue;
                }
                for (_, port, cell) in due {
                    let r = node.receive(t, port, cell);
                    logs[k].push(format!("{t} receive {port} {cell:?}: {r:?}"));
                }
                out.activity = Activity::default();
                let next = node.step(t, &mut out);
                logs[k].push(format!(
                    "{t} step: {next:?} {:?} {:?}",
                    out.emits, out.activity
                ));
                timers[k] = next.ok().flatten();
                for e in out.emits.drain(..) {
                    let (to, port, at) = if k < n {
                        // An adapter sends only on its ingress link, to switch port k.
                        (n, k, e.at + control)
                    } else if e.port < n {
                        (e.port, 0, e.at + control)
                    } else {
                        (e.port - n, 1, e.at + data)
                    };
                    pending[to].push((at, port, e.token));
                }
            }
        }
        for k in 0..=n {
            let node: &dyn Node<FabricCell> = if k < n { &adapters[k] } else { &sw };
            let ports = if k < n { 2 } else { 2 * n };
            for port in 0..ports {
                logs[k].push(format!("port {port}: {:?}", node.port_counters(port)));
            }
            logs[k].push(format!("waits: {:?}", node.waits()));
            logs[k].push(format!("part: {:?}", node.part_stats()));
            logs[k].push(format!("terminal: {:?}", node.terminal_stats()));
        }
        logs
    }

    fn flow_control(
        rtt: u32,
        m: u32,
        pick: u8,
        strategy: Strategy,
        every: u32,
    ) -> (FlowControl, Option<u32>) {
        let short = m < rtt;
        match pick % 8 {
            _ if short && pick % 8 >= 2 && pick % 8 <= 6 => {
                (FlowControl::Credit(strategy), Some(m))
            }
            0 | 1 => (FlowControl::Credit(strategy), Some(m)),
            2 => {
                let top = m - rtt + 1;
                let thresholds: Vec<u32> = if every.is_multiple_of(2) {
                    vec![top]
                } else {
                    (1..=top)
                        .rev()
                        .step_by(((top as usize) / 3).max(1))
                        .take(3)
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect()
                };
                (FlowControl::Grant { thresholds }, Some(m))
            }
            3 => (FlowControl::GrantOt { window: rtt - 1 }, Some(m)),
            4 => (
                FlowControl::Absolute {
                    regular: FlowControl::absolute_regular(m, rtt).unwrap_or(1),
                },
                Some(m),
            ),
            5 => {
                let counted = m - (rtt - 1);
                (
                    FlowControl::AbsoluteI {
                        counted,
                        every: 1 + every % counted,
                    },
                    Some(m),
                )
            }
            6 => (
                FlowControl::AbsoluteB {
                    counted: m,
                    every: 1 + every % m,
                    window: rtt - 1,
                },
                Some(m),
            ),
            _ => (FlowControl::None, None),
        }
    }

    fn arrivals(kind: u8, load: f64, bs: f64, n: u16, i: u16, k: u32) -> Arrivals {
        match kind % 6 {
            0 => Arrivals::Bernoulli(load),
            1 | 2 => Arrivals::bursty(bs, load),
            3 => Arrivals::bimodal(1 + k % 3, 2 + k % 7, 0.4, load),
            4 => Arrivals::Batch(k % 40),
            _ => {
                let events: Vec<TraceEvent> = (0..k % 30)
                    .map(|e| TraceEvent {
                        cycle: u64::from(e * (1 + k % 5) + u32::from(i)),
                        output: ((e + u32::from(i) * 7) % u32::from(n)) as u16,
                        packets: 1 + e % 3,
                    })
                    .collect();
                Arrivals::Trace(Arc::<[TraceEvent]>::from(events))
            }
        }
    }

    prop_compose! {
        fn case()(
            n in 1u16..=7,
            rtt in 2u32..=10,
            extra in 0u32..=12,
            fc_pick in 0u8..8,
            strategy in prop::sample::select(Strategy::ALL.to_vec()),
            every in 0u32..100,
            ocf in any::<bool>(),
            kind in 0u8..6,
            mixed in any::<bool>(),
            load in 0.05f64..=1.0,
            bs in 1.0f64..12.0,
            k in 0u32..200,
            dest in 0u8..3,
            w in 0.0f64..=1.0,
            voq_cap in prop::sample::select(vec![3u64, 40, 100_000]),
            start in 0u64..20,
            window in (0u64..150, 0u64..400),
            timeline in prop::option::of(1u64..50),
            checks in any::<bool>(),
            every_tick in any::<bool>(),
            cycles in 50u64..500,
            seed in any::<u64>(),
        ) -> Case {
            let m = if extra % 3 == 0 { 1 + extra } else { rtt + extra };
            let (fc, memory) = flow_control(rtt, m, fc_pick, strategy, every);
            Case {
                n,
                rtt,
                memory,
                fc,
                scheduler: if ocf { OutputScheduler::Ocf } else { OutputScheduler::Rr },
                arrivals: (0..n)
                    .map(|i| arrivals(if mixed { kind + i as u8 } else { kind }, load, bs, n, i, k))
                    .collect(),
                destinations: (0..n)
                    .map(|i| match dest {
                        0 => Destinations::Uniform,
                        1 => Destinations::NonUniform { w },
                        _ => Destinations::Fixed((i + (k as u16)) % n),
                    })
                    .collect(),
                voq_cap,
                start,
                window: (window.0, window.0 + window.1),
                timeline,
                checks,
                every_tick,
                cycles,
                seed,
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The rewritten adapter and switch emit the same cells at the same ticks, ask to
        /// run at the same ticks and end with the same counters, statistics and waits as
        /// the parts they replaced, fed the same random traffic.
        #[test]
        fn the_rewritten_parts_do_what_the_old_ones_did(case in case()) {
            let old = run(&case, super::AdapterNode::new, super::SwitchNode::new);
            let new = run(&case, AdapterNode::new, SwitchNode::new);
            prop_assert_eq!(old.len(), new.len());
            for (k, (o, w)) in old.iter().zip(&new).enumerate() {
                for (e, (a, b)) in o.events.iter().zip(&w.events).enumerate() {
                    prop_assert_eq!(a, b, "part {} event {}", k, e);
                }
                prop_assert_eq!(o.events.len(), w.events.len(), "part {}", k);
            }
        }
    }

    /// The same with more ports than one word of a set holds (N > 64), a few cases.
    #[test]
    fn the_rewritten_parts_agree_on_a_wide_fabric() {
        for (seed, fc, ocf) in [
            (1u64, FlowControl::Credit(Strategy::Lof), false),
            (2, FlowControl::Credit(Strategy::LofCliq), true),
            (3, FlowControl::Credit(Strategy::Fifo), false),
            (4, FlowControl::Credit(Strategy::Reference), false),
            (5, FlowControl::GrantOt { window: 3 }, false),
            (6, FlowControl::Credit(Strategy::Hof), true),
        ] {
            let n = 70u16;
            let case = Case {
                n,
                rtt: 4,
                memory: Some(6),
                fc,
                scheduler: if ocf {
                    OutputScheduler::Ocf
                } else {
                    OutputScheduler::Rr
                },
                arrivals: (0..n).map(|_| Arrivals::bursty(4.0, 0.95)).collect(),
                destinations: vec![Destinations::Uniform; usize::from(n)],
                voq_cap: 100_000,
                start: 2,
                window: (20, 200),
                timeline: None,
                checks: seed % 2 == 0,
                every_tick: seed % 3 == 0,
                cycles: 260,
                seed,
            };
            let old = run(&case, super::AdapterNode::new, super::SwitchNode::new);
            let new = run(&case, AdapterNode::new, SwitchNode::new);
            assert!(old == new, "seed {seed}: the parts differ");
        }
    }
}
