//! The switch-fabric link protocol (Gramsamer §2.1-2.3, §4.3, §7.4): time in packet
//! cycles, at most one fixed-size packet per link direction per cycle on the data path,
//! and flow-control information on the control path back. One [`Cell`] is a packet, or
//! one unit of flow-control information for one crosspoint: what the parts send and
//! take, one at a time ([`FabricCell`]). On the engines' wires the cells a part sends on
//! one port in one engine window travel as one event, a [`CellRun`] ([`Fabric`]): each
//! cell keeps its own tick, and a part is handed each at its arrival tick
//! ([`super::windowed`]).
//!
//! What each end counts ([`FabricCounters`]) lets `--check` verify, on every ingress
//! link, the invariant of Gramsamer §7.4: "for any FCSD the number of packets on the
//! data-path and in the reception buffer, together with the number of credits in the
//! absorption pool, on the control path, and in the credit pool is constant". The two
//! ends cannot exchange N per-crosspoint numbers through a fixed-size counter, so each
//! end reports its half of every crosspoint's sum weighted by a fixed odd 64-bit weight
//! per crosspoint ([`crosspoint_weight`]) and added with wrap-around: the halves add up
//! to `M · Σ w_j` exactly when every crosspoint's sum is M, and an error of δ ≠ 0 on one
//! crosspoint changes the total by `w_j · δ ≠ 0 (mod 2^64)` (w_j is odd, so
//! invertible). Errors on several crosspoints could cancel only by a coincidence of
//! probability about 2^-64.

use crate::model::protocol::{conserved, conserved_runs};
use crate::model::{LinkProtocol, Violation};
use crate::time::Tick;

/// A fixed-size packet as it travels (Gramsamer §2.5.1: fixed-size data units; one per
/// link per packet cycle). Besides its addresses it carries the emulator's bookkeeping
/// (no wire cost) and the two CLIQ header fields of Gramsamer §7.5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Input adapter (switch input) it entered at.
    pub src: u16,
    /// Switch output it is for.
    pub dst: u16,
    /// Its number within its flow (src → dst), for the in-order check.
    pub seq: u32,
    /// Packet cycle it entered its VOQ at the input adapter.
    pub created: Tick,
    /// Packet cycle the input adapter dispatched it onto the data path.
    pub dispatched: Tick,
    /// Tick its last bit left the switch's output port (set by the switch; 0 before).
    pub exit: Tick,
    /// Header bit: this packet was the last of its VOQ (the VOQ is empty now), so the
    /// switch clears that VOQ's CLIQ bit (Gramsamer §7.5, LOF-CLIQ).
    pub last_of_voq: bool,
    /// Header field of log N bits: a VOQ of this input that became non-empty, so the
    /// switch sets its CLIQ bit (Gramsamer §7.5). `u16::MAX` for none.
    pub nonempty: u16,
    /// Where its time went so far (emulator metadata, no wire cost).
    pub journey: FabricJourney,
}

/// What a packet carries of its journey through the fabric, for the output adapter to
/// split its system delay (Gramsamer §2.4) into VOQ, credit wait, data path, crosspoint
/// queue and output scheduling (the `fabric` module's "Journeys").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FabricJourney {
    /// Packet cycles it spent at the head of its VOQ without permission to go: no
    /// credit, a stop grant, a full crosspoint (Gramsamer §4.1: *eligible* but not
    /// *feasible*).
    pub credit_wait: u32,
    /// Packet cycles from its dispatch to the switch storing it in its crosspoint queue
    /// (0 before).
    pub link: u32,
    /// Packet cycles from being stored to the first cycle it could leave its crosspoint
    /// queue: 0 if it was stored into an empty queue, else until the cycle after the
    /// packet ahead of it left. The three are 32-bit offsets, to keep the packet small.
    pub crosspoint: u32,
}

/// No VOQ in [`Packet::nonempty`].
pub(crate) const NO_VOQ: u16 = u16::MAX;

/// One wire event of the fabric protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Cell {
    /// A packet on the data path (adapter → switch, or switch → output adapter).
    Packet(Packet),
    /// Relative credit: permission to send one more packet to crosspoint (this input,
    /// `output`) (Gramsamer §4.3.3, §7.4).
    Credit {
        /// The switch output whose crosspoint freed a location.
        output: u16,
    },
    /// Grant: the crosspoint's stop (`go` false) or go signal (Gramsamer §4.3.1).
    Grant {
        /// The switch output whose crosspoint it is.
        output: u16,
        /// Go (true) or stop (false).
        go: bool,
    },
    /// Absolute credit: the crosspoint's number of free locations, sent on a packet
    /// departure (Gramsamer §4.3.2, "Credit Abs" operated on every packet departure).
    Absolute {
        /// The switch output whose crosspoint it is.
        output: u16,
        /// Free locations in that crosspoint when the packet left.
        free: u32,
    },
}

/// What one fabric port has counted since reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FabricCounters {
    /// Cells sent on this port.
    pub sent: u64,
    /// Cells received on this port: taken by the part, or handed over and held for
    /// their arrival tick ([`super::windowed`]).
    pub received: u64,
    /// Wire events ([`CellRun`]) sent on this port.
    pub runs_sent: u64,
    /// Wire events ([`CellRun`]) received on this port.
    pub runs_received: u64,
    /// This end's half of the weighted crosspoint sums of Gramsamer §7.4 (see the module
    /// documentation): at an input adapter Σ w_j (credit pool + packets sent − credits
    /// received); at the switch's ingress port Σ w_j (reception buffer + absorption pool
    /// + credits sent − packets received). Wrapping arithmetic.
    pub crosspoint_half: u64,
    /// At an input adapter under relative credit: `M · Σ w_j`, what the two halves must
    /// add up to; 0 where the invariant does not apply (other flow controls, egress
    /// links, the switch's side).
    pub crosspoint_total: u64,
}

/// The weight of crosspoint (·, `output`) in the invariant's sums: a fixed odd 64-bit
/// number per output (a SplitMix64 hash of the index, low bit set).
pub fn crosspoint_weight(output: usize) -> u64 {
    let mut z = (output as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) | 1
}

/// The cells a part sends on one port in one engine window, each with the tick it
/// leaves at, in order: one wire event of [`Fabric`]. Its own tick (the engines') is its
/// first cell's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellRun {
    /// (the tick it leaves at, the cell).
    pub cells: Vec<(Tick, Cell)>,
}

/// The switch-fabric protocol of the parts (see the module documentation): one [`Cell`]
/// a token, handed to a part at its arrival tick. The parts implement
/// `Node<FabricCell>`; the network runs them on [`Fabric`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FabricCell;

/// Gramsamer §7.4's invariant on the ingress link whose adapter reports `a` and switch
/// `b` (see the module documentation): the two halves of the weighted crosspoint sums
/// add up to `M · Σ w_j`.
fn crosspoints_conserved(a: &FabricCounters, b: &FabricCounters) -> Result<(), Violation> {
    if a.crosspoint_total != 0 {
        let sum = a.crosspoint_half.wrapping_add(b.crosspoint_half);
        if sum != a.crosspoint_total {
            return Err(Violation(
                "a crosspoint's packets on the data path + in the reception buffer + \
                 credits in the absorption pool, on the control path and in the credit \
                 pool are no longer M (Gramsamer §7.4): a credit was lost or made up"
                    .to_string(),
            ));
        }
    }
    Ok(())
}

impl LinkProtocol for FabricCell {
    type Token = Cell;
    type Counters = FabricCounters;
    const NAME: &'static str = "fabric";

    fn sent(c: &FabricCounters) -> u64 {
        c.sent
    }

    fn view(token: &Cell) -> crate::model::TokenView {
        super::view::view(token)
    }

    fn check_direction(
        a: &FabricCounters,
        b: &FabricCounters,
        in_flight_ab: u64,
        _in_flight_ba: u64,
    ) -> Result<(), Violation> {
        conserved(a.sent, b.received, in_flight_ab, "cells")?;
        crosspoints_conserved(a, b)
    }

    /// A single-stage fabric whose output adapters always absorb cannot deadlock: every
    /// stored packet leaves when its output is free (Gramsamer §2.3), and its location
    /// comes back as a credit.
    fn blocked_for_good(_tx: &FabricCounters, _rx: &FabricCounters) -> bool {
        false
    }
}

/// The switch-fabric protocol on the engines' wires: [`FabricCell`]'s cells, those a
/// part sends on one port in one engine window travelling as one [`CellRun`]. A part
/// is handed every run due in a window at its first step there
/// ([`LinkProtocol::RECEIVE_AHEAD`]) and each cell at its own arrival tick, by the
/// wrapper it runs in ([`super::windowed::Windowed`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fabric;

impl LinkProtocol for Fabric {
    type Token = CellRun;
    type Counters = FabricCounters;
    const NAME: &'static str = "fabric";
    /// The wrapper keeps each cell until its arrival tick.
    const RECEIVE_AHEAD: bool = true;

    fn sent(c: &FabricCounters) -> u64 {
        c.sent
    }

    /// The first cell's view; [`LinkProtocol::views`] gives every cell's.
    fn view(token: &CellRun) -> crate::model::TokenView {
        token
            .cells
            .first()
            .map_or(crate::model::TokenView::OPAQUE, |(_, c)| {
                super::view::view(c)
            })
    }

    /// Each cell's view, at its own tick.
    fn views(token: &CellRun, mut f: impl FnMut(Tick, crate::model::TokenView)) {
        let first = token.cells.first().map_or(0, |&(t, _)| t);
        for (t, c) in &token.cells {
            f(t - first, super::view::view(c));
        }
    }

    /// If any of its cells ends a packet (a run is one cell where a link may fail).
    fn loses_packet(token: &CellRun) -> bool {
        token.cells.iter().any(|(_, c)| FabricCell::loses_packet(c))
    }

    /// What the wire holds as cells: `capacity` cells and their ticks, in the runs'
    /// vectors.
    fn wire_bytes(capacity: usize, fill: crate::memory::Fill) -> u64 {
        FabricCell::wire_bytes(capacity, fill)
    }

    /// The engine holds runs: they are conserved exactly, and the cells sent and not
    /// received are at least one a run on the wire (none if none is). Then §7.4's
    /// invariant, as [`FabricCell`]'s.
    fn check_direction(
        a: &FabricCounters,
        b: &FabricCounters,
        in_flight_ab: u64,
        _in_flight_ba: u64,
    ) -> Result<(), Violation> {
        conserved_runs(
            (a.sent, a.runs_sent),
            (b.received, b.runs_received),
            in_flight_ab,
            None,
            "cells",
        )?;
        crosspoints_conserved(a, b)
    }

    fn blocked_for_good(tx: &FabricCounters, rx: &FabricCounters) -> bool {
        FabricCell::blocked_for_good(tx, rx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_odd_and_distinct() {
        let w: Vec<u64> = (0..256).map(crosspoint_weight).collect();
        assert!(w.iter().all(|x| x & 1 == 1));
        let mut sorted = w.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), w.len());
    }

    #[test]
    fn the_check_sees_a_lost_cell_and_a_made_up_credit() {
        // Two crosspoints, M = 4: adapter pools (3, 4), one packet sent to 0 and not yet
        // received; switch buffers empty. Per cell, and as runs: one run of one cell.
        let m = 4u64;
        let (w0, w1) = (crosspoint_weight(0), crosspoint_weight(1));
        let total = m.wrapping_mul(w0.wrapping_add(w1));
        let ia = FabricCounters {
            sent: 1,
            runs_sent: 1,
            crosspoint_half: w0.wrapping_mul(3 + 1).wrapping_add(w1.wrapping_mul(4)),
            crosspoint_total: total,
            ..FabricCounters::default()
        };
        let sw = FabricCounters::default();
        let extra = FabricCounters {
            crosspoint_half: ia.crosspoint_half.wrapping_add(w1),
            ..ia
        };
        for check in [FabricCell::check_direction, Fabric::check_direction] {
            assert_eq!(check(&ia, &sw, 1, 0), Ok(()));
            assert!(check(&ia, &sw, 0, 0).is_err(), "lost cell");
            assert!(
                check(&extra, &sw, 1, 0).is_err(),
                "a credit made up at crosspoint 1"
            );
        }
    }

    #[test]
    fn a_run_shows_each_cell_at_its_own_tick() {
        let run = CellRun {
            cells: vec![
                (7, Cell::Credit { output: 1 }),
                (
                    9,
                    Cell::Grant {
                        output: 2,
                        go: true,
                    },
                ),
            ],
        };
        let mut offsets = Vec::new();
        Fabric::views(&run, |offset, _| offsets.push(offset));
        assert_eq!(offsets, [0, 2]);
    }
}
