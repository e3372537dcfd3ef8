//! The relay protocol: balls passed along links, nothing else. No credit, no control
//! tokens: the only rule is conservation (every ball sent arrives exactly once), and
//! a receiver never holds more balls than its part says it can.

use crate::model::protocol::conserved;
use crate::model::{LinkProtocol, Violation};
use crate::time::Tick;

/// A ball: the relay protocol's only token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ball {
    /// Which ball (unique in the network).
    pub id: u32,
    /// Tick the ball was put into play.
    pub born: Tick,
    /// Hops it still has to make; it is retired where this reaches 0.
    pub hops_left: u32,
}

/// What one relay port has counted since reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelayCounters {
    /// Balls sent on this port.
    pub sent: u64,
    /// Balls received on this port.
    pub received: u64,
    /// Balls the node holds (received and not yet sent or retired), counted at every
    /// port of the node.
    pub held: u64,
    /// Most balls the node may hold.
    pub capacity: u64,
}

/// The relay protocol (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Relay;

impl LinkProtocol for Relay {
    type Token = Ball;
    type Counters = RelayCounters;
    const NAME: &'static str = "relay";

    fn sent(c: &RelayCounters) -> u64 {
        c.sent
    }

    fn check_direction(
        a: &RelayCounters,
        b: &RelayCounters,
        in_flight_ab: u64,
        _in_flight_ba: u64,
    ) -> Result<(), Violation> {
        conserved(a.sent, b.received, in_flight_ab, "balls")?;
        if b.held > b.capacity {
            return Err(Violation(format!(
                "the receiver holds {} balls, more than its {}",
                b.held, b.capacity
            )));
        }
        Ok(())
    }

    /// A relay never refuses a ball, so no wait of its is ever permanent.
    fn blocked_for_good(_tx: &RelayCounters, _rx: &RelayCounters) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_sees_lost_duplicated_and_hoarded_balls() {
        let a = RelayCounters {
            sent: 5,
            ..Default::default()
        };
        let b = RelayCounters {
            received: 3,
            held: 2,
            capacity: 4,
            ..Default::default()
        };
        assert_eq!(Relay::check_direction(&a, &b, 2, 0), Ok(()));
        assert!(Relay::check_direction(&a, &b, 1, 0).is_err(), "one lost");
        let dup = RelayCounters { received: 6, ..b };
        assert!(
            Relay::check_direction(&a, &dup, 0, 0).is_err(),
            "duplicated"
        );
        let hoard = RelayCounters { held: 5, ..b };
        assert!(
            Relay::check_direction(&a, &hoard, 2, 0).is_err(),
            "over capacity"
        );
    }
}
