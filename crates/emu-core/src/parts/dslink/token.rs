//! Tokens: what travels on a DS-Link wire.
//!
//! A DS-Link carries data tokens (a byte, 10 bits on the wire) and control tokens
//! (EOP, EOM and FCT, 4 bits each); an idle link carries null tokens
//! (INMOS ch. 6 §6.1, §6.2.1: "There are 256 different data tokens, an
//! end-of-packet token (EOP), an end-of-message token (EOM), the flow-control token
//! (FCT) and a null token"). Null tokens carry no information and are not emitted as
//! events: an idle transmitter is one that is sending nulls (see `dslink`).
//!
//! A packet's first token also carries the packet's identity, its [`Stamp`], and its
//! [`Journey`], the waits the switches it crossed measured (Proteus §MTime), as a
//! [`PacketInfo`]: emulator metadata that costs no wire time (it is how a real
//! benchmark would timestamp its messages). Statistics, conservation checks and
//! deadlock diagnosis name packets by it; the parts remember which packet the tokens
//! after the first belong to, as the hardware does (a packet's tokens never
//! interleave with another's on a link).

use crate::model::Stamp;
use crate::terminal::packet::Journey;
use crate::time::Tick;

/// Bits on the wire for a data token: 1 parity/flag bit + 8 data bits + 1 (INMOS ch. 6 §6.1.1:
/// "there are 10 bits for every byte of data").
pub const DATA_TOKEN_BITS: Tick = 10;
/// Bits on the wire for a control token (EOP, EOM, FCT): INMOS ch. 6 §6.1.1 "4 bits for the
/// terminator", §6.1.1 "A flow control token is 4 bits".
pub(crate) const CONTROL_TOKEN_BITS: Tick = 4;
/// Bits on the wire for a null token (ESC followed by FCT), sent while a link is idle.
pub(crate) const NULL_TOKEN_BITS: Tick = 8;

/// The kind of a token on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TokenKind {
    /// A data byte (header or payload).
    Data,
    /// End of packet: terminates every packet of a message but the last, and acknowledges.
    Eop,
    /// End of message: terminates the last packet of a message.
    Eom,
    /// Flow-control token: grants the peer credit for [`crate::parts::dslink`] batch-size tokens.
    Fct,
}

impl TokenKind {
    /// Serialisation time of this token in bit periods (ticks).
    pub const fn bits(self) -> Tick {
        match self {
            TokenKind::Data => DATA_TOKEN_BITS,
            TokenKind::Eop | TokenKind::Eom | TokenKind::Fct => CONTROL_TOKEN_BITS,
        }
    }

    /// True for the tokens flow control counts (the set D = {data, EOP, EOM} of INMOS ch. 6 §6.2.1).
    pub const fn is_flow_controlled(self) -> bool {
        !matches!(self, TokenKind::Fct)
    }

    /// True for a packet terminator (EOP or EOM).
    pub const fn is_terminator(self) -> bool {
        matches!(self, TokenKind::Eop | TokenKind::Eom)
    }
}

/// What a packet's first token carries besides its byte: the packet's identity and
/// its journey so far. Emulator metadata, no wire time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacketInfo {
    /// The packet.
    pub stamp: Stamp,
    /// Its journey so far.
    pub journey: Journey,
}

/// Heap bytes one packet's [`PacketInfo`] takes: the struct and the allocator's 8-byte
/// chunk header, in the 16-byte units glibc's allocator hands out. For the memory
/// estimate (`Part::memory_bound`).
pub(crate) const PACKET_INFO_BYTES: u64 =
    (std::mem::size_of::<PacketInfo>() as u64 + 8).next_multiple_of(16);

/// One token on a link: 16 bytes, the kind, the byte and, on a packet's first token
/// only, its [`PacketInfo`] on the heap.
///
/// Tokens are moved several times per hop (link queue, receive buffer, output buffer,
/// transmitter), so they are kept small: a packet's identity travels once per packet,
/// not once per token. A token is not `Copy` for that reason; cloning one copies its
/// packet information.
#[derive(Clone, PartialEq, Eq)]
pub struct Token {
    packet: Option<Box<PacketInfo>>,
    byte: u8,
    kind: TokenKind,
}

impl Token {
    /// A flow-control token.
    pub const fn fct() -> Token {
        Token {
            packet: None,
            byte: 0,
            kind: TokenKind::Fct,
        }
    }

    /// A packet's first token: a data token carrying `byte`, and the packet `stamp`
    /// with an empty journey.
    pub fn data(byte: u8, stamp: Stamp) -> Token {
        Token::data_only(byte).with_packet(stamp)
    }

    /// A data token carrying `byte` and no packet information: any token of a packet
    /// but the first.
    pub const fn data_only(byte: u8) -> Token {
        Token {
            packet: None,
            byte,
            kind: TokenKind::Data,
        }
    }

    /// A terminator (EOP when `last` is false, EOM when true) that is its packet's
    /// first token, for the packet `stamp` (no packet is that short on a link; for tests).
    pub fn end(last: bool, stamp: Stamp) -> Token {
        Token::end_only(last).with_packet(stamp)
    }

    /// A terminator (EOP when `last` is false, EOM when true) without packet information.
    pub const fn end_only(last: bool) -> Token {
        Token {
            packet: None,
            byte: 0,
            kind: if last { TokenKind::Eom } else { TokenKind::Eop },
        }
    }

    /// This token carrying the packet `stamp` with an empty journey.
    fn with_packet(self, stamp: Stamp) -> Token {
        Token {
            packet: Some(Box::new(PacketInfo {
                stamp,
                journey: Journey::default(),
            })),
            ..self
        }
    }

    /// What kind of token this is.
    pub const fn kind(&self) -> TokenKind {
        self.kind
    }

    /// The byte, for a data token (0 otherwise).
    pub const fn byte(&self) -> u8 {
        self.byte
    }

    /// The packet information, on a packet's first token.
    pub fn packet(&self) -> Option<&PacketInfo> {
        self.packet.as_deref()
    }

    /// Takes the packet information off this token (to move it to another token of
    /// the same packet: a generated header, or the next header after a deletion).
    pub(crate) fn take_packet(&mut self) -> Option<Box<PacketInfo>> {
        self.packet.take()
    }

    /// Puts packet information `info` (taken from another token of the same packet)
    /// on this token.
    pub(crate) fn set_packet(&mut self, info: Option<Box<PacketInfo>>) {
        self.packet = info;
    }

    /// The packet's stamp, on its first token; the default stamp on any other token.
    pub fn stamp(&self) -> Stamp {
        self.packet().map(|p| p.stamp).unwrap_or_default()
    }

    /// The packet's journey so far, on its first token; zero on any other token.
    pub fn journey(&self) -> Journey {
        self.packet().map(|p| p.journey).unwrap_or_default()
    }

    /// Adds a switch crossed, with its waits, to the journey of the packet whose
    /// first token this is (nothing on any other token).
    pub fn cross(&mut self, input_wait: Tick, output_wait: Tick) {
        if let Some(p) = &mut self.packet {
            p.journey = p.journey.crossed(input_wait, output_wait);
        }
    }

    /// Serialisation time of this token in ticks.
    pub const fn bits(&self) -> Tick {
        self.kind.bits()
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Token")
            .field("kind", &self.kind())
            .field("byte", &self.byte)
            .field("stamp", &self.stamp())
            .field("journey", &self.journey())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_16_bytes_and_only_a_first_token_carries_the_packet() {
        assert_eq!(std::mem::size_of::<Token>(), 16);
        let stamp = Stamp {
            src: 70_000,
            dst: 3,
            seq: u32::MAX,
            pkt: 513,
            ack: true,
            created: u64::MAX - 1,
            injected: 1 << 40,
        };
        for t in [
            Token::data(0xa5, stamp),
            Token::end(false, stamp),
            Token::end(true, stamp),
        ] {
            assert_eq!(t.stamp(), stamp);
            assert_eq!(t.journey(), Journey::default());
        }
        assert_eq!(Token::data(0xa5, stamp).byte(), 0xa5);
        assert_eq!(Token::data(0xa5, stamp).kind(), TokenKind::Data);
        assert_eq!(Token::end(false, stamp).kind(), TokenKind::Eop);
        assert_eq!(Token::end(true, stamp).kind(), TokenKind::Eom);
        assert_eq!(Token::end_only(true).kind(), TokenKind::Eom);
        assert_eq!(Token::fct().kind(), TokenKind::Fct);
        assert!(Token::fct().packet().is_none());
        assert!(Token::data_only(7).packet().is_none());
        let mut t = Token::data(0xa5, stamp);
        t.cross(u64::from(u32::MAX), 7);
        t.cross(1, 0);
        let j = Journey {
            input_wait: u32::MAX,
            output_wait: 7,
            hops: 2,
        };
        assert_eq!((t.journey(), t.stamp(), t.byte()), (j, stamp, 0xa5));
        // Moving the information to another token of the packet.
        let mut next = Token::data_only(1);
        next.set_packet(t.take_packet());
        assert_eq!((next.journey(), next.stamp()), (j, stamp));
        assert!(t.packet().is_none());
        let mut body = Token::data_only(2);
        body.cross(5, 5);
        assert_eq!(body.journey(), Journey::default(), "no packet, no journey");
    }

    #[test]
    fn token_lengths_follow_the_ds_link_encoding() {
        assert_eq!(Token::data(0x5a, Stamp::default()).bits(), 10);
        assert_eq!(Token::end(false, Stamp::default()).bits(), 4);
        assert_eq!(Token::end(true, Stamp::default()).bits(), 4);
        assert_eq!(Token::fct().bits(), 4);
        assert!(TokenKind::Eop.is_flow_controlled());
        assert!(TokenKind::Eom.is_flow_controlled());
        assert!(TokenKind::Data.is_flow_controlled());
        assert!(!TokenKind::Fct.is_flow_controlled());
    }
}
