//! What one terminal records about the traffic it sends and receives.

use super::journey::{JourneyParts, JourneyStats};
use super::metric::Metric;
use crate::time::Tick;

/// Message counts kept by one terminal (as source and as sink).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TerminalCounters {
    /// Messages this terminal created.
    pub created: u64,
    /// Messages created inside the measurement window (they are awaited at the end).
    pub measured_created: u64,
    /// Messages delivered to this terminal.
    pub delivered: u64,
    /// Measured messages delivered to this terminal.
    pub measured_delivered: u64,
    /// Payload bytes created here during the measurement window (offered load).
    pub bytes_offered_in_window: u64,
    /// Payload bytes delivered here during the measurement window (accepted load).
    pub bytes_delivered_in_window: u64,
    /// Payload bytes of this terminal's own messages that left its source queue for
    /// the network during the measurement window (what it got to send, whatever it
    /// offered): the per-source share that shows a starved source.
    pub bytes_sent_in_window: u64,
    /// Data packets delivered here.
    pub packets_delivered: u64,
    /// Acknowledge packets received here.
    pub acks_received: u64,
    /// Messages from one source that completed out of sequence order, or twice, and
    /// packets that arrived twice.
    pub out_of_order: u64,
    /// Messages whose EOM packet arrived here before another of their packets: the
    /// message waited for it (only multipath routing can do that, INMOS ch. 7 §7.5).
    pub eom_overtook: u64,
    /// Tick of the last message delivered here (0 if none).
    pub last_delivery: Tick,
}

/// Latency distributions and counters of one terminal. Latencies are recorded at the
/// destination for measured messages only (warm-up and drain traffic is not counted).
#[derive(Clone, Debug, Default)]
pub struct TerminalStats {
    /// Creation of the message to its last packet arriving at the destination.
    pub message_latency: Metric,
    /// First token of the message starting on the source link to its last packet
    /// arriving.
    pub network_latency: Metric,
    /// Creation of the message to its first token starting on the source link.
    pub source_queueing: Metric,
    /// Counts.
    pub counters: TerminalCounters,
    /// What the terminal learnt about its own messages as their source; empty for
    /// terminals that learn nothing back (DS-Link terminals without acknowledges).
    pub source: SourceStats,
    /// Where measured messages' latency went, by their journeys (DS-Link terminals).
    pub journey: JourneyStats,
    /// Where measured messages' latency went, in the family's own parts (SCI nodes,
    /// fabric output adapters).
    pub journey_parts: JourneyParts,
}

/// A terminal's own messages, seen from their source: an SCI node learns each send
/// packet's fate from its echo (SCI §2.1), so it can report per-source latency and
/// realised throughput, the quantities SCI §4 plots per node.
#[derive(Clone, Debug, Default)]
pub struct SourceStats {
    /// Creation to delivery of this terminal's measured messages, recorded when the
    /// source learns of the delivery.
    pub latency: Metric,
    /// Bytes of this terminal's messages delivered inside the measurement window,
    /// whenever they were created (its realised throughput).
    pub bytes_delivered_in_window: u64,
    /// Messages waiting at the source or unanswered at the end of the window.
    pub backlog_at_window_end: u64,
    /// Sends refused by a full sink and sent again (SCI §4.5).
    pub retries: u64,
    /// True if the terminal records these (an SCI node), false if it cannot.
    pub recorded: bool,
}

impl SourceStats {
    fn merge(&mut self, other: &SourceStats) {
        self.latency.merge(&other.latency);
        self.bytes_delivered_in_window += other.bytes_delivered_in_window;
        self.backlog_at_window_end += other.backlog_at_window_end;
        self.retries += other.retries;
        self.recorded |= other.recorded;
    }
}

impl TerminalStats {
    /// Every terminal of `all` merged, in the order given.
    pub fn total<'a>(all: impl IntoIterator<Item = &'a TerminalStats>) -> TerminalStats {
        let mut total = TerminalStats::default();
        for t in all {
            total.merge(t);
        }
        total
    }

    /// Adds `other` into `self` (used to merge terminals in node order).
    pub fn merge(&mut self, other: &TerminalStats) {
        self.message_latency.merge(&other.message_latency);
        self.network_latency.merge(&other.network_latency);
        self.source_queueing.merge(&other.source_queueing);
        self.source.merge(&other.source);
        self.journey.merge(&other.journey);
        self.journey_parts.merge(&other.journey_parts);
        let (a, b) = (&mut self.counters, &other.counters);
        a.created += b.created;
        a.measured_created += b.measured_created;
        a.delivered += b.delivered;
        a.measured_delivered += b.measured_delivered;
        a.bytes_offered_in_window += b.bytes_offered_in_window;
        a.bytes_delivered_in_window += b.bytes_delivered_in_window;
        a.bytes_sent_in_window += b.bytes_sent_in_window;
        a.packets_delivered += b.packets_delivered;
        a.acks_received += b.acks_received;
        a.out_of_order += b.out_of_order;
        a.eom_overtook += b.eom_overtook;
        a.last_delivery = a.last_delivery.max(b.last_delivery);
    }
}
