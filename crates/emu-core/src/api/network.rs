//! A network stepped from outside (co-simulation): a program sends messages into it,
//! advances virtual time as far as it likes, and reads what arrived, instead of a
//! traffic file's generator feeding it for a whole run.
//!
//! Networks of C104s only (every `network.kind` of that family: hypercubes, rings,
//! grids, tori, crossbars, multistage networks, netlists, …); their T9000 terminals
//! take the messages. An SCI ring's nodes and a fabric's adapters keep their own
//! traffic and are refused. The network runs on the calling thread, as the sequential
//! engine runs it ([`crate::engine::stepper`]): a message sent on an idle network
//! arrives with the latency a run of the same route reports.

use super::Input;
use super::error::{Error, ErrorKind};
use crate::config::overrides::parse_sets;
use crate::config::traffic::MAX_MESSAGE_BYTES;
use crate::config::{FileKind, Loaded, TrafficConfig, stem};
use crate::engine::stepper::Stepper;
use crate::family::CaseError;
use crate::network::NodeId;
use crate::network::TopologyConfig;
use crate::parts::dslink::DsLink;
use crate::time::Tick;
use crate::traffic::Feed;
use crate::traffic::external::{FeedError, Pushed};
use std::collections::BTreeMap;

/// A message's identity in a stepped [`Network`]: 0, 1, 2, … in the order sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MessageId(pub u64);

/// A message a stepped [`Network`] delivered: when its last packet arrived at its
/// destination, and where the packet that completed it spent its time (its journey,
/// book/src/journeys.md: latency = source wait + path + input waits + output waits +
/// transfer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivered {
    /// Its identity, as [`Network::send`] gave it.
    pub id: MessageId,
    /// Source terminal.
    pub src: u32,
    /// Destination terminal.
    pub dst: u32,
    /// Payload bytes.
    pub bytes: u32,
    /// Tick it was created at its source.
    pub created: Tick,
    /// Tick its last missing packet arrived.
    pub delivered: Tick,
    /// `delivered − created`, in ticks.
    pub latency: Tick,
    /// Ticks from its creation to the completing packet's first token starting on the
    /// source link.
    pub source_wait: Tick,
    /// Ticks the completing packet's header waited at switch inputs.
    pub input_wait: u32,
    /// Ticks its first token waited at switch outputs.
    pub output_wait: u32,
    /// Ticks its tokens took to cross the last link.
    pub transfer: Tick,
    /// Switches it crossed.
    pub hops: u16,
}

/// A network of C104s whose terminals send what a program sends, stepped by that
/// program. Virtual time is in ticks ([`Network::tick_ns`] each: one bit period of the
/// link, 10 ns at 100 Mbit/s); [`Network::now`] is the first tick not yet run.
pub struct Network {
    stepper: Stepper<DsLink>,
    feed: Feed,
    /// Each terminal's node.
    terminals: Vec<NodeId>,
    next_id: u64,
    /// Per source, the sequence number its next message gets.
    next_seq: Vec<u32>,
    /// Messages sent and not yet delivered: (source, sequence number) → (id, bytes).
    open: BTreeMap<(u32, u32), (MessageId, u32)>,
    name: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("name", &self.name)
            .field("now", &self.now())
            .field("terminals", &self.terminals.len())
            .field("in_flight", &self.in_flight())
            .finish()
    }
}

impl Network {
    /// Loads `topology` with the topology overrides of `sets` (a traffic key is an
    /// error: the traffic is what the program sends) and builds it with run seed
    /// `seed`, refusing a network that would need more than `memory_limit` bytes
    /// (`None`: no limit), at tick 0 with nothing sent.
    pub fn new(
        topology: &Input,
        seed: u64,
        sets: &[String],
        memory_limit: Option<u64>,
    ) -> Result<Network, Error> {
        if let Some(o) = parse_sets(sets)?
            .into_iter()
            .find(|o| o.kind == FileKind::Traffic)
        {
            return Err(Error::message(
                ErrorKind::Config,
                format!(
                    "--set {}: a stepped network reads only the topology; its traffic is what the program sends",
                    o.text
                ),
            ));
        }
        let topo: Loaded<TopologyConfig> =
            topology.load(FileKind::Topology, sets, &crate::network::kinds::C104Kinds)?;
        let family = crate::family::of(&topo.config.network);
        if !crate::network::kinds::owns(&topo.config.network) {
            return Err(Error::message(
                ErrorKind::Build,
                format!(
                    "{}: this topology is {}; only networks of C104s can be stepped from outside",
                    topo.location("network.kind"),
                    family.name()
                ),
            ));
        }
        crate::family::only_own_sections(family, &topo)?;
        let name = stem(&topo.file.name);
        let located = |e| Error::from(CaseError::build(e, &topo, None));
        let traffic = TrafficConfig::default_for_unread();
        let checked =
            crate::network::check(&name, &topo.config, &traffic, seed).map_err(located)?;
        let (need, nodes, terminals) = checked.memory_need().map_err(located)?;
        need.within(memory_limit, nodes, terminals)
            .map_err(CaseError::from)?;
        let feed = Feed::new(terminals as u32);
        let net = checked.fed(&feed).build().map_err(located)?;
        if net.faults().is_some() {
            return Err(Error::message(
                ErrorKind::Build,
                format!(
                    "{}: a network with link faults cannot be stepped from outside: remove [faults]",
                    topo.location("faults")
                ),
            ));
        }
        let terminals = net.terminals().to_vec();
        let stepper = Stepper::new(net, memory_limit)?;
        Ok(Network {
            next_seq: vec![0; terminals.len()],
            terminals,
            stepper,
            feed,
            next_id: 0,
            open: BTreeMap::new(),
            name,
        })
    }

    /// The topology's name (its file's stem).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of terminals (labels `0..terminals`).
    pub fn terminals(&self) -> u32 {
        self.terminals.len() as u32
    }

    /// Nanoseconds per tick.
    pub fn tick_ns(&self) -> f64 {
        self.stepper.network().time().tick_ns
    }

    /// The first tick not yet run: every part has done what it does before it.
    pub fn now(&self) -> Tick {
        self.stepper.now()
    }

    /// [`Network::now`] in µs of virtual time.
    pub fn now_us(&self) -> f64 {
        self.ticks_to_us(self.now())
    }

    /// `ticks` in µs.
    pub fn ticks_to_us(&self, ticks: Tick) -> f64 {
        self.stepper.network().time().ticks_to_us(ticks as f64)
    }

    /// `us` µs of virtual time as the nearest whole tick (a time not a number, or
    /// below zero or beyond 10⁹ µs, is an error).
    pub fn us_to_ticks(&self, us: f64) -> Result<Tick, Error> {
        if !(us.is_finite() && (0.0..=crate::time::MAX_DURATION_US).contains(&us)) {
            return Err(Error::message(
                ErrorKind::Options,
                format!(
                    "{}: give a time in µs from 0 to {:e}",
                    crate::text::number(us),
                    crate::time::MAX_DURATION_US
                ),
            ));
        }
        Ok((us * 1000.0 / self.tick_ns()).round() as Tick)
    }

    /// Messages sent and not yet delivered (whether or not [`Network::delivered`] has
    /// returned them).
    pub fn in_flight(&self) -> u64 {
        self.next_id - self.stepper.activity().messages_delivered
    }

    /// Activity totals so far (tokens moved, packets and messages).
    pub fn activity(&self) -> &crate::model::Activity {
        self.stepper.activity()
    }

    /// Sends a message of `bytes` payload bytes from terminal `src` to terminal `dst`,
    /// created now ([`Network::now`]): the source's VCP takes it at the next tick run.
    pub fn send(&mut self, src: u32, dst: u32, bytes: u32) -> Result<MessageId, Error> {
        self.send_at(src, dst, bytes, self.now())
    }

    /// [`Network::send`], the message created at tick `created`: not before now, nor
    /// before the last message sent from `src` (a source creates its messages in the
    /// order they are sent).
    pub fn send_at(
        &mut self,
        src: u32,
        dst: u32,
        bytes: u32,
        created: Tick,
    ) -> Result<MessageId, Error> {
        let terminals = self.terminals();
        let last = terminals.saturating_sub(1);
        let bad = |m: String| Err(Error::message(ErrorKind::Options, m));
        if src >= terminals {
            return bad(format!(
                "source {src} is not a terminal of {}: give 0 to {last}",
                self.name
            ));
        }
        if dst >= terminals {
            return bad(format!(
                "destination {dst} is not a terminal of {}: give 0 to {last}",
                self.name
            ));
        }
        if bytes > MAX_MESSAGE_BYTES {
            return bad(format!(
                "{bytes} bytes: give at most {MAX_MESSAGE_BYTES} bytes"
            ));
        }
        if created < self.now() {
            return bad(format!(
                "creation tick {created} is in the past: the network is at tick {}",
                self.now()
            ));
        }
        let pushed = Pushed {
            dst,
            bytes,
            created,
        };
        self.feed.push(src, pushed).map_err(|e| match e {
            FeedError::OutOfOrder { .. } => Error::message(ErrorKind::Options, e.to_string()),
            _ => Error::message(ErrorKind::Internal, e.to_string()),
        })?;
        let id = MessageId(self.next_id);
        self.next_id += 1;
        let seq = &mut self.next_seq[src as usize];
        self.open.insert((src, *seq), (id, bytes));
        *seq += 1;
        self.stepper.wake(self.terminals[src as usize], created);
        Ok(id)
    }

    /// Runs `ticks` more ticks.
    pub fn step(&mut self, ticks: Tick) -> Result<(), Error> {
        let end = self.now().saturating_add(ticks);
        self.run_until(end)
    }

    /// Runs every tick before `tick` (nothing if the network is already there). A
    /// part that breaks a rule of its hardware, or a deadlock (packets in flight and no
    /// token moved for the plan's deadlock window), is an error of kind
    /// [`ErrorKind::Engine`], and the network runs no further.
    pub fn run_until(&mut self, tick: Tick) -> Result<(), Error> {
        Ok(self.stepper.run_until(tick)?)
    }

    /// The messages delivered since the last call, by delivery tick, then source and
    /// order sent.
    pub fn delivered(&mut self) -> Vec<Delivered> {
        self.feed
            .take_delivered()
            .into_iter()
            .filter_map(|d| {
                let (id, bytes) = self.open.remove(&(d.src, d.seq))?;
                Some(Delivered {
                    id,
                    src: d.src,
                    dst: d.dst,
                    bytes,
                    created: d.created,
                    delivered: d.delivered,
                    latency: d.delivered - d.created,
                    source_wait: d.injected - d.created,
                    input_wait: d.input_wait,
                    output_wait: d.output_wait,
                    transfer: d.transfer,
                    hops: d.hops,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::RunOptions;

    fn hypercube6() -> Network {
        Network::new(&Input::shipped("hypercube6"), 1, &[], None).expect("builds")
    }

    /// The message latency `emu run` reports for one message of `bytes` from `src`
    /// to `dst` sent at the start on an idle hypercube6: a batch of one.
    fn run_latency(src: u32, dst: u32, bytes: u32) -> Tick {
        let traffic = format!(
            "[pattern]\nkind = \"fixed\"\ndestination = {dst}\n[injection]\nkind = \"batch\"\n\
             messages = 1\n[message]\nbytes = {bytes}\n[terminals]\nsenders = [{src}]\n"
        );
        let options = RunOptions {
            threads: Some(1),
            ..RunOptions::default()
        };
        let report = crate::api::run(
            &Input::shipped("hypercube6"),
            &Input::text("one.toml", traffic.as_str()),
            &options,
        )
        .expect("runs");
        let stats = report.stats.expect("completed");
        let doc: serde_json::Value = serde_json::from_str(&stats.to_json()).expect("JSON");
        let latency = &doc["latency"]["message_latency"];
        assert_eq!(latency["count"], 1, "{latency}");
        latency["ticks"]["max"].as_u64().expect("a latency")
    }

    #[test]
    fn a_message_on_an_idle_network_arrives_with_the_latency_a_run_reports() {
        for (src, dst, bytes) in [(0, 63, 32), (5, 6, 100), (17, 17, 0)] {
            let mut net = hypercube6();
            let id = net.send(src, dst, bytes).expect("sends");
            assert_eq!(id, MessageId(0));
            assert_eq!(net.in_flight(), 1);
            net.run_until(20_000).expect("runs");
            assert_eq!(net.in_flight(), 0, "arrived, before it is read");
            let got = net.delivered();
            assert_eq!(got.len(), 1, "{src} → {dst}");
            let d = got[0];
            assert_eq!(
                (d.id, d.src, d.dst, d.bytes, d.created),
                (id, src, dst, bytes, 0)
            );
            assert_eq!(d.latency, run_latency(src, dst, bytes), "{src} → {dst}");
            assert_eq!(d.latency, d.delivered - d.created);
            assert!(net.delivered().is_empty(), "delivered once");
            assert_eq!(net.in_flight(), 0);
        }
    }

    /// Sends `n` messages from a fixed pseudo-random sequence at ticks spread over the
    /// first 40,000, stepping `chunk` ticks at a time, and returns every delivery.
    fn workload(n: u64, chunk: Tick) -> (Vec<Delivered>, Vec<MessageId>) {
        let mut net = hypercube6();
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut plan: Vec<(Tick, u32, u32, u32)> = (0..n)
            .map(|_| {
                let v = next();
                (
                    v % 40_000,
                    (v >> 20) as u32 % 64,
                    (v >> 30) as u32 % 64,
                    (v >> 40) as u32 % 200,
                )
            })
            .collect();
        plan.sort_by_key(|p| p.0);
        let mut sent = Vec::new();
        let mut got = Vec::new();
        let mut i = 0;
        while net.now() < 200_000 {
            while i < plan.len() && plan[i].0 < net.now() + chunk {
                let (t, src, dst, bytes) = plan[i];
                sent.push(
                    net.send_at(src, dst, bytes, t.max(net.now()))
                        .expect("sends"),
                );
                i += 1;
            }
            net.step(chunk).expect("steps");
            got.extend(net.delivered());
        }
        assert_eq!(net.in_flight(), 0, "everything arrived");
        assert_eq!(
            net.activity().messages_delivered,
            n,
            "nothing delivered twice"
        );
        (got, sent)
    }

    #[test]
    fn every_message_arrives_once_with_its_own_id() {
        let (got, sent) = workload(400, 1000);
        assert_eq!(sent.len(), 400);
        let ids: std::collections::BTreeSet<MessageId> = sent.iter().copied().collect();
        assert_eq!(ids.len(), 400, "ids are unique");
        let mut arrived: Vec<MessageId> = got.iter().map(|d| d.id).collect();
        arrived.sort();
        assert_eq!(arrived, sent, "each id arrives exactly once");
        assert!(
            got.iter()
                .all(|d| d.delivered > d.created && d.hops >= 1 || d.src == d.dst)
        );
        assert!(
            got.windows(2).all(|w| w[0].delivered <= w[1].delivered),
            "in delivery order"
        );
    }

    #[test]
    fn the_same_calls_give_the_same_deliveries_however_the_time_is_stepped() {
        let (a, _) = workload(300, 1000);
        let (b, _) = workload(300, 1000);
        assert_eq!(a, b, "same calls, same results");
        // Windows cut at other ticks: each message is sent at the same tick, so every
        // part sees the same inputs at the same ticks.
        let (c, _) = workload(300, 7);
        assert_eq!(a, c);
    }

    #[test]
    fn bad_sends_and_networks_that_cannot_be_stepped_are_errors() {
        let mut net = hypercube6();
        let e = net.send(64, 0, 8).expect_err("no terminal 64");
        assert_eq!(e.kind(), ErrorKind::Options);
        assert_eq!(
            e.to_string(),
            "source 64 is not a terminal of hypercube6: give 0 to 63"
        );
        let e = net.send(0, 99, 8).expect_err("no terminal 99");
        assert!(e.to_string().starts_with("destination 99"), "{e}");
        net.send_at(3, 4, 8, 500).expect("later");
        let e = net.send_at(3, 4, 8, 400).expect_err("before the last");
        assert!(e.to_string().contains("in the order they are sent"), "{e}");
        net.step(1000).expect("runs");
        let e = net.send_at(3, 4, 8, 10).expect_err("the past");
        assert!(e.to_string().contains("in the past"), "{e}");
        assert!(net.send(0, 1, MAX_MESSAGE_BYTES + 1).is_err());
        assert!(net.us_to_ticks(f64::NAN).is_err());
        assert_eq!(net.us_to_ticks(1.0).expect("a time"), 100);

        let e = Network::new(&Input::shipped("sci-ring4"), 1, &[], None).expect_err("an SCI ring");
        assert_eq!(e.kind(), ErrorKind::Build);
        assert!(e.to_string().contains("only networks of C104s"), "{e}");
        let e = Network::new(
            &Input::shipped("hypercube6"),
            1,
            &["message.bytes=8".into()],
            None,
        )
        .expect_err("a traffic key");
        assert_eq!(e.kind(), ErrorKind::Config);
        let e =
            Network::new(&Input::shipped("hypercube6"), 1, &[], Some(1000)).expect_err("too large");
        assert_eq!(e.kind(), ErrorKind::TooLarge);
        let small = Network::new(
            &Input::shipped("hypercube6"),
            1,
            &["network.dimensions=3".into()],
            None,
        )
        .expect("a 3-cube");
        assert_eq!(small.terminals(), 8);
    }
}
