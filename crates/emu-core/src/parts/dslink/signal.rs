//! A DS-Link's tokens as the levels of its two wires, bit by bit: what an observer
//! sees of a link ([`crate::model::LinkProtocol::view`]) and its data-strobe line code
//! (book/src/observing.md "Waveforms").
//!
//! The token lengths are INMOS ch. 6 §6.1.1's (10 bits for a data token, 4 for a
//! control token, 8 for the null token an idle link sends). The bit layout and the
//! data-strobe code are not in the five source documents; they are `IEEE 1355`'s (its
//! DS-DE links are the T9000's; docs/sources.md says why it is cited), as SpaceWire
//! (ECSS-E-ST-50-12C §7.2-7.3) restates them:
//! - every token starts with a parity bit and a flag bit (0 data, 1 control); a data
//!   token then carries its byte, least significant bit first; a control token two
//!   bits: FCT `00`, EOP `01`, EOM `10`, ESC `11` (as sent, after `P1`); a null token is
//!   ESC followed by FCT;
//! - the parity bit makes the bits of the token before it after its flag (its data or
//!   control bits), this parity bit and this flag bit odd;
//! - the data wire carries the bits; the strobe wire changes whenever the data wire
//!   does not, so exactly one of the two changes every bit period. Both start low.

use super::token::{Token, TokenKind};
use crate::model::{Gauge, LineCode, PacketId, PacketTag, TokenView};

/// Kind codes of DS-Link tokens in a waveform's decoded kind signal.
const DATA: u8 = 1;
const EOP: u8 = 2;
const EOM: u8 = 3;
const FCT: u8 = 4;

/// How an observer sees a DS-Link token: its kind, its bits on the wire, its byte, and
/// on a packet's first token the packet with its journey so far (Proteus §MTime).
pub(crate) fn view(token: &Token) -> TokenView {
    let (kind, code) = match token.kind() {
        TokenKind::Data => ("data", DATA),
        TokenKind::Eop => ("eop", EOP),
        TokenKind::Eom => ("eom", EOM),
        TokenKind::Fct => ("fct", FCT),
    };
    TokenView {
        kind,
        code,
        ticks: token.bits(),
        value: u64::from(token.byte()),
        starts: token.packet().map(|p| PacketTag {
            id: PacketId {
                src: p.stamp.src,
                dst: p.stamp.dst,
                seq: p.stamp.seq,
                pkt: p.stamp.pkt,
                answer: p.stamp.ack,
            },
            created: p.stamp.created,
            waits: [
                ("input wait", p.journey.input_wait),
                ("output wait", p.journey.output_wait),
            ],
            origin: "source queue",
            transit: "route",
        }),
        ends: token.kind().is_terminator(),
    }
}

/// A port's output credit and buffered input tokens (INMOS ch. 6 §6.2.1).
pub(crate) fn gauges(c: &super::PortCounters, out: &mut Vec<Gauge>) {
    out.push(("credit", c.credit));
    out.push(("buffered", c.occupied));
}

/// The data-strobe line code of one link direction: parity carried from token to
/// token, and the lines' last levels.
#[derive(Clone, Debug, Default)]
pub struct DataStrobe {
    /// Parity of the bits after the flag of the token last sent.
    last_bits_parity: bool,
    /// Level of the data wire.
    d: bool,
    /// Level of the strobe wire.
    s: bool,
}

impl DataStrobe {
    /// A link direction after reset: both wires low, nothing sent.
    pub fn new() -> DataStrobe {
        DataStrobe::default()
    }

    /// The bits of a token with flag `flag` and `payload` (first bit first), with its
    /// parity bit in front.
    fn bits(&mut self, flag: bool, payload: &[bool]) -> Vec<bool> {
        // Odd parity over the previous token's payload, this parity bit and this flag.
        let parity = !(self.last_bits_parity ^ flag);
        self.last_bits_parity = payload.iter().fold(false, |p, &b| p ^ b);
        let mut v = Vec::with_capacity(payload.len() + 2);
        v.push(parity);
        v.push(flag);
        v.extend_from_slice(payload);
        v
    }

    /// A control token's two bits, as sent.
    fn control(&mut self, first: bool, second: bool) -> Vec<bool> {
        self.bits(true, &[first, second])
    }
}

impl LineCode for DataStrobe {
    fn wires(&self) -> &'static [&'static str] {
        &["D", "S"]
    }

    fn token(&mut self, view: &TokenView) -> Vec<bool> {
        match view.code {
            DATA => {
                let byte: Vec<bool> = (0..8).map(|i| view.value >> i & 1 == 1).collect();
                self.bits(false, &byte)
            }
            EOP => self.control(false, true),
            EOM => self.control(true, false),
            _ => self.control(false, false),
        }
    }

    fn idle(&mut self) -> Vec<bool> {
        let mut v = self.control(true, true);
        v.extend(self.control(false, false));
        v
    }

    fn idle_ticks(&self) -> crate::time::Tick {
        super::token::NULL_TOKEN_BITS
    }

    fn levels(&mut self, bit: bool) -> Vec<bool> {
        if bit == self.d {
            self.s = !self.s;
        } else {
            self.d = bit;
        }
        vec![self.d, self.s]
    }
}

/// The line code of a fresh DS-Link direction.
pub(crate) fn line_code() -> Box<dyn LineCode> {
    Box::new(DataStrobe::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Stamp;

    fn bits_of(code: &mut DataStrobe, t: &Token) -> String {
        code.token(&view(t))
            .iter()
            .map(|&b| if b { '1' } else { '0' })
            .collect()
    }

    #[test]
    fn tokens_have_the_lengths_of_inmos_ch6() {
        let mut c = DataStrobe::new();
        assert_eq!(c.token(&view(&Token::data_only(0xA5))).len(), 10);
        assert_eq!(c.token(&view(&Token::fct())).len(), 4);
        assert_eq!(c.token(&view(&Token::end_only(false))).len(), 4);
        assert_eq!(c.idle().len(), 8, "a null token is ESC + FCT");
    }

    #[test]
    fn bits_follow_the_ieee_1355_layout_with_odd_parity() {
        let mut c = DataStrobe::new();
        // First token after reset: previous payload parity 0, flag 1 → parity 0.
        assert_eq!(bits_of(&mut c, &Token::fct()), "0100");
        // Data 0x01 after an FCT (payload 00): parity !(0 ^ 0) = 1; byte LSB first.
        assert_eq!(bits_of(&mut c, &Token::data_only(0x01)), "1010000000");
        // EOP after a byte of odd parity: !(1 ^ 1) = 1.
        assert_eq!(bits_of(&mut c, &Token::end_only(false)), "1101");
        // EOM after EOP's payload 01 (parity 1): !(1 ^ 1) = 1.
        assert_eq!(bits_of(&mut c, &Token::end_only(true)), "1110");
    }

    #[test]
    fn every_token_window_has_odd_parity() {
        // Check the rule as SpaceWire states it over a mixed sequence: the previous
        // payload, this parity bit and this flag bit hold an odd number of ones.
        let mut c = DataStrobe::new();
        let stamp = Stamp::default();
        let tokens = [
            Token::data(0x7F, stamp),
            Token::data_only(0x00),
            Token::fct(),
            Token::data_only(0xFF),
            Token::end_only(true),
        ];
        let mut prev_payload: Vec<bool> = Vec::new();
        for t in &tokens {
            let b = c.token(&view(t));
            let ones =
                prev_payload.iter().filter(|&&x| x).count() + usize::from(b[0]) + usize::from(b[1]);
            assert_eq!(ones % 2, 1, "odd parity before {:?}", t.kind());
            prev_payload = b[2..].to_vec();
        }
    }

    #[test]
    fn exactly_one_wire_changes_every_bit() {
        let mut c = DataStrobe::new();
        let mut last = (false, false);
        let mut bits = c.idle();
        bits.extend(c.token(&view(&Token::data_only(0x3C))));
        for b in bits {
            let l = c.levels(b);
            assert_eq!(l[0], b, "the data wire carries the bit");
            assert!((l[0] != last.0) ^ (l[1] != last.1), "one wire changes");
            last = (l[0], l[1]);
        }
    }
}
