//! Tokens: what travels on a DS-Link wire.
//!
//! A DS-Link carries data tokens (a byte, 10 bits on the wire) and control tokens
//! (EOP, EOM and FCT, 4 bits each); an idle link carries null tokens
//! (INMOS ch. 6 §6.1, §6.2.1: "There are 256 different data tokens, an
//! end-of-packet token (EOP), an end-of-message token (EOM), the flow-control token
//! (FCT) and a null token"). Null tokens carry no information and are not emitted as
//! events: an idle transmitter is one that is sending nulls (see `dslink`).
//!
//! Every token of a packet also carries a [`Stamp`]: emulator metadata that costs no
//! wire time (it is how a real benchmark would timestamp its messages). It identifies
//! the packet for statistics, conservation checks and deadlock diagnosis. A packet's
//! first token also carries its [`Journey`], the waits the switches it crossed
//! measured (Proteus §MTime).

use crate::model::Stamp;
use crate::terminal::packet::Journey;
use crate::time::Tick;

/// Bits on the wire for a data token: 1 parity/flag bit + 8 data bits + 1 (INMOS ch. 6 §6.1.1:
/// "there are 10 bits for every byte of data").
pub const DATA_TOKEN_BITS: Tick = 10;
/// Bits on the wire for a control token (EOP, EOM, FCT): INMOS ch. 6 §6.1.1 "4 bits for the
/// terminator", §6.1.1 "A flow control token is 4 bits".
pub const CONTROL_TOKEN_BITS: Tick = 4;
/// Bits on the wire for a null token (ESC followed by FCT), sent while a link is idle.
pub const NULL_TOKEN_BITS: Tick = 8;

/// The kind of a token on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// One token on a link: a `Copy` value of 40 bytes.
///
/// The packet's [`Stamp`] and [`Journey`] are stored flat beside the kind and the
/// byte, with the kind and the stamp's `ack` flag sharing one byte and the journey's
/// hop count in the top 16 bits of the creation tick: nested, the same fields pad to
/// 56 bytes, and tokens are copied several times per hop (link queue, receive buffer,
/// output buffer, transmitter). A creation tick therefore has 48 bits: 2.8 × 10^14
/// ticks, 32 days of a 100 Mbit/s link, far beyond any run's hard stop.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// Bits 0–47: the stamp's `created`; bits 48–63: the journey's `hops`.
    created_hops: u64,
    injected: Tick,
    src: u32,
    dst: u32,
    seq: u32,
    input_wait: u32,
    output_wait: u32,
    pkt: u16,
    byte: u8,
    /// Bits 0–1: the kind (0 data, 1 EOP, 2 EOM, 3 FCT); bit 2: the stamp's `ack`.
    tag: u8,
}

const ACK_BIT: u8 = 4;
/// Bits of [`Token::created_hops`] that hold the creation tick.
const CREATED_BITS: u32 = 48;
const CREATED_MASK: u64 = (1 << CREATED_BITS) - 1;

impl Token {
    const fn new(kind: TokenKind, byte: u8, stamp: Stamp) -> Token {
        let kind_bits = match kind {
            TokenKind::Data => 0,
            TokenKind::Eop => 1,
            TokenKind::Eom => 2,
            TokenKind::Fct => 3,
        };
        Token {
            created_hops: stamp.created & CREATED_MASK,
            injected: stamp.injected,
            src: stamp.src,
            dst: stamp.dst,
            seq: stamp.seq,
            input_wait: 0,
            output_wait: 0,
            pkt: stamp.pkt,
            byte,
            tag: kind_bits | if stamp.ack { ACK_BIT } else { 0 },
        }
    }

    /// A flow-control token.
    pub const fn fct() -> Token {
        Token::new(
            TokenKind::Fct,
            0,
            Stamp {
                src: 0,
                dst: 0,
                seq: 0,
                pkt: 0,
                ack: false,
                created: 0,
                injected: 0,
            },
        )
    }

    /// A data token carrying `byte` for the packet `stamp`.
    pub const fn data(byte: u8, stamp: Stamp) -> Token {
        Token::new(TokenKind::Data, byte, stamp)
    }

    /// A terminator (EOP when `last` is false, EOM when true) for the packet `stamp`.
    pub const fn end(last: bool, stamp: Stamp) -> Token {
        Token::new(if last { TokenKind::Eom } else { TokenKind::Eop }, 0, stamp)
    }

    /// What kind of token this is.
    pub const fn kind(&self) -> TokenKind {
        match self.tag & 3 {
            0 => TokenKind::Data,
            1 => TokenKind::Eop,
            2 => TokenKind::Eom,
            _ => TokenKind::Fct,
        }
    }

    /// The byte, for a data token (0 otherwise).
    pub const fn byte(&self) -> u8 {
        self.byte
    }

    /// The packet this token belongs to (default for FCTs).
    pub const fn stamp(&self) -> Stamp {
        Stamp {
            src: self.src,
            dst: self.dst,
            seq: self.seq,
            pkt: self.pkt,
            ack: self.tag & ACK_BIT != 0,
            created: self.created_hops & CREATED_MASK,
            injected: self.injected,
        }
    }

    /// The packet's journey so far (meaningful on its first token; zero on a new
    /// token).
    pub const fn journey(&self) -> Journey {
        Journey {
            input_wait: self.input_wait,
            output_wait: self.output_wait,
            hops: (self.created_hops >> CREATED_BITS) as u16,
        }
    }

    /// This token carrying journey `j`.
    pub const fn with_journey(self, j: Journey) -> Token {
        Token {
            created_hops: (self.created_hops & CREATED_MASK) | ((j.hops as u64) << CREATED_BITS),
            input_wait: j.input_wait,
            output_wait: j.output_wait,
            ..self
        }
    }

    /// Serialisation time of this token in ticks.
    pub const fn bits(&self) -> Tick {
        self.kind().bits()
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
    fn a_token_is_40_bytes_and_keeps_every_field() {
        assert_eq!(std::mem::size_of::<Token>(), 40);
        let stamp = Stamp {
            src: 70_000,
            dst: 3,
            seq: u32::MAX,
            pkt: 513,
            ack: true,
            created: (1 << 48) - 2,
            injected: 1 << 40,
        };
        for t in [
            Token::data(0xa5, stamp),
            Token::end(false, stamp),
            Token::end(true, stamp),
        ] {
            assert_eq!(t.stamp(), stamp);
        }
        assert_eq!(Token::data(0xa5, stamp).byte(), 0xa5);
        assert_eq!(Token::data(0xa5, stamp).kind(), TokenKind::Data);
        assert_eq!(Token::end(false, stamp).kind(), TokenKind::Eop);
        assert_eq!(Token::end(true, stamp).kind(), TokenKind::Eom);
        assert_eq!(Token::fct().kind(), TokenKind::Fct);
        assert!(!Token::fct().stamp().ack);
        let j = Journey {
            input_wait: u32::MAX,
            output_wait: 7,
            hops: u16::MAX,
        };
        let t = Token::data(0xa5, stamp).with_journey(j);
        assert_eq!((t.journey(), t.stamp(), t.byte()), (j, stamp, 0xa5));
        assert_eq!(Token::data(1, stamp).journey(), Journey::default());
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
