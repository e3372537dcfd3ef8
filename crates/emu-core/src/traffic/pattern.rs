//! Destination patterns (INMOS ch. 7 §7.4, §7.6, §7.7): how a terminal picks the
//! destination of each message, and the permutations the patterns are made of.

use rand::RngExt;

/// How one terminal picks the destination of each message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Destination {
    /// Uniformly at random among the other `terminals − 1` terminals, per message.
    Uniform {
        /// Number of terminals.
        terminals: u32,
    },
    /// Uniformly at random among the other terminals except `except`, per message (the
    /// starved node of SCI §4.2 receives nothing).
    UniformExcept {
        /// Number of terminals.
        terminals: u32,
        /// The terminal never chosen.
        except: u32,
    },
    /// Always this terminal.
    Fixed(u32),
    /// Uniformly at random among terminals `0..count`, the source itself included, per
    /// message: the C104 contention model's assumption that each input picks any of
    /// the `out` output links at random (INMOS ch. 6 §6.3.2; footnote 20:
    /// a packet may leave by the link it arrived on).
    AnyOf {
        /// Number of candidate destinations (terminals 0..count).
        count: u32,
    },
}

impl Destination {
    /// The destination of the next message from terminal `src`.
    pub fn pick(&self, src: u32, rng: &mut impl rand::Rng) -> u32 {
        match *self {
            Destination::Fixed(d) => d,
            Destination::AnyOf { count } => rng.random_range(0..count.max(1)),
            Destination::UniformExcept { terminals, except } => {
                if terminals < 3 || src == except {
                    return Destination::Uniform { terminals }.pick(src, rng);
                }
                // Draw among the terminals − 2 others, skipping src and except in order.
                let (lo, hi) = (src.min(except), src.max(except));
                let mut d = rng.random_range(0..terminals - 2);
                if d >= lo {
                    d += 1;
                }
                if d >= hi {
                    d += 1;
                }
                d
            }
            Destination::Uniform { terminals } => {
                if terminals < 2 {
                    return src;
                }
                let d = rng.random_range(0..terminals - 1);
                if d >= src { d + 1 } else { d }
            }
        }
    }
}

/// The low `n` bits set.
pub fn mask(n: u32) -> u32 {
    if n >= 32 { u32::MAX } else { (1 << n) - 1 }
}

/// Rotates the low `n` bits of `x` left by `r`.
pub(crate) fn rotate_left(x: u32, r: u32, n: u32) -> u32 {
    if n == 0 {
        return x;
    }
    let r = r % n;
    if r == 0 {
        return x & mask(n);
    }
    ((x << r) | (x >> (n - r))) & mask(n)
}

/// The constant the MIN systematic pattern adds (INMOS ch. 7 §7.6.3: "the source node adds a
/// particular value (modulo the number of nodes), to its own identity number. This
/// number is chosen so that all traffic is routed through a single mid-layer switch").
/// With the deterministic tables of [`crate::routing::min`], adding one left switch's
/// worth of terminals (16) sends all of a left switch's traffic to the next left switch
/// through right link 0's switch.
pub(crate) const MIN_SYSTEMATIC_OFFSET: u32 = 16;

/// The grid's systematic permutation (INMOS ch. 7 §7.6.2): "The grid is divided into four
/// sets of nodes, with the nodes being bisected in both the x and y directions. The
/// top left corner is translated onto the bottom right, and vice versa", and likewise
/// the other two quadrants ("four separate block moves"). Every coordinate moves by
/// ⌊k/2⌋ modulo k; in n dimensions, each of the 2^n blocks moves to the opposite one.
pub(crate) fn block_move(src: u32, k: u32, n: u32) -> u32 {
    let mut d = 0;
    let mut stride = 1;
    for _ in 0..n {
        let c = src / stride % k;
        d += (c + k / 2) % k * stride;
        stride *= k;
    }
    d
}

/// The chapter 7 systematic permutation of an n-cube (INMOS ch. 7 §7.6.1).
///
/// For odd n = 2j + 1 the address is (h, m, l): j high bits, a middle bit and j low
/// bits, and (h, m, l) → (l, ¬m, h). All 2^j sources that share (m, l) reach the middle
/// link at node (l, m, l) together under highest-dimension-first routing: the j-cube
/// at one end of a middle-dimension link is mapped onto the j-cube at its other end,
/// giving 2^j-way contention. For even n "the traffic pattern for one dimension less
/// is used, and each packet moves along the first dimension": the pattern is applied
/// to bits 1..n and bit 0 is complemented. 6-, 8- and 10-cubes get 4-, 8- and 16-way
/// contention.
pub(crate) fn cube_systematic(src: u32, n: u32) -> u32 {
    if n < 3 {
        return !src & mask(n);
    }
    let (odd, extra) = if n % 2 == 1 { (n, 0) } else { (n - 1, 1) };
    let j = (odd - 1) / 2;
    let a = src >> extra;
    let l = a & mask(j);
    let m = (a >> j) & 1;
    let h = a >> (j + 1);
    let d = (l << (j + 1)) | ((m ^ 1) << j) | h;
    if extra == 1 { (d << 1) | (!src & 1) } else { d }
}
