//! How an observer sees a fabric cell (book/src/observing.md): one packet cycle on the
//! link, its kind (a packet on the data path; a relative credit, a grant or an absolute
//! credit on the control path), and on a packet cell the packet with its waits so far
//! (the credit wait at its VOQ's head, Gramsamer §4.1; the crosspoint queue). A waveform
//! shows a packet's switch output, or the crosspoint a flow-control cell is about.

use super::protocol::Cell;
use crate::model::{PacketId, PacketTag, TokenView};

/// Kind codes of fabric cells in a waveform's decoded kind signal.
const PACKET: u8 = 1;
const CREDIT: u8 = 2;
const GRANT_STOP: u8 = 3;
const GRANT_GO: u8 = 4;
const ABSOLUTE: u8 = 5;

/// How an observer sees `cell`.
pub(crate) fn view(cell: &Cell) -> TokenView {
    let (kind, code, value) = match cell {
        Cell::Packet(p) => ("packet", PACKET, u64::from(p.dst)),
        Cell::Credit { output } => ("credit", CREDIT, u64::from(*output)),
        Cell::Grant { output, go: false } => ("stop", GRANT_STOP, u64::from(*output)),
        Cell::Grant { output, go: true } => ("go", GRANT_GO, u64::from(*output)),
        Cell::Absolute { output, .. } => ("absolute", ABSOLUTE, u64::from(*output)),
    };
    let starts = match cell {
        Cell::Packet(p) => Some(PacketTag {
            id: PacketId {
                src: u32::from(p.src),
                dst: u32::from(p.dst),
                seq: p.seq,
                pkt: 0,
                answer: false,
            },
            created: p.created,
            waits: [
                ("credit wait", p.journey.credit_wait),
                ("crosspoint", p.journey.crosspoint),
            ],
            origin: "VOQ",
            transit: "output scheduling",
        }),
        _ => None,
    };
    TokenView {
        kind,
        code,
        ticks: 1,
        value,
        ends: starts.is_some(),
        starts,
    }
}
