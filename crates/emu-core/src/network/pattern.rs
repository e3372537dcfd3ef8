//! Resolving the `[pattern]` of a traffic file for one network: which destination
//! each terminal sends to (INMOS ch. 7 §7.4, §7.6, §7.7), or why the pattern does not
//! fit the network.

use crate::config::traffic::PatternConfig;
use crate::traffic::Destination;
use crate::traffic::pattern::{
    MIN_SYSTEMATIC_OFFSET, block_move, cube_systematic, mask, rotate_left,
};

/// Why a pattern does not fit a network. The build step reports it as the message of
/// the pattern's key (hence the conversion to `String`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum PatternError {
    /// A pattern of switch fabrics only, on another family.
    #[error(
        "non_uniform traffic (Gramsamer Eq. 2.2) applies to switch fabrics (network.kind = \"fabric\") only"
    )]
    FabricOnly,
    /// The pattern permutes address bits, and the terminal count is no power of two.
    #[error("needs a power-of-two number of terminals, and this network has {terminals}")]
    NotPowerOfTwo {
        /// Terminals in the network.
        terminals: u32,
    },
    /// A fixed destination that is not a terminal.
    #[error(
        "destination {destination} is not a terminal ({})",
        crate::text::indices(u64::from(*.terminals))
    )]
    NotATerminal {
        /// The destination given.
        destination: u32,
        /// Terminals in the network.
        terminals: u32,
    },
    /// A shuffle rotated by more than the address width.
    #[error("rotate = {rotate} exceeds the {bits} address bits")]
    RotateTooFar {
        /// The rotation given.
        rotate: u32,
        /// Address bits.
        bits: u32,
    },
    /// A transpose on an odd number of address bits.
    #[error("transpose needs an even number of address bits, and there are {bits}")]
    OddBits {
        /// Address bits.
        bits: u32,
    },
    /// A table whose length is not the terminal count.
    #[error(
        "{entries} entries, and this network has {terminals} terminals: give one destination per terminal"
    )]
    TableLength {
        /// Entries in the table.
        entries: usize,
        /// Terminals in the network.
        terminals: u32,
    },
    /// A table entry that is not a terminal.
    #[error(
        "entry {src} is {destination}, which is not a terminal ({})",
        crate::text::indices(u64::from(*.terminals))
    )]
    TableEntry {
        /// The entry's index (its source terminal).
        src: u32,
        /// The entry.
        destination: u32,
        /// Terminals in the network.
        terminals: u32,
    },
    /// The family has no systematic pattern (rings and netlists).
    #[error("no systematic pattern is defined for {network}")]
    NoSystematic {
        /// The network, with its article: "a ring", "a netlist network".
        network: &'static str,
    },
    /// A crossbar has no systematic pattern.
    #[error(
        "no systematic pattern is defined for a crossbar: every permutation is contention-free"
    )]
    CrossbarSystematic,
}

impl From<PatternError> for String {
    fn from(e: PatternError) -> String {
        e.to_string()
    }
}

/// The network family a pattern is resolved for: the systematic pattern is defined
/// per family (INMOS ch. 7 §7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Family {
    /// Binary n-cube with `dimensions` address bits.
    Hypercube {
        /// n.
        dimensions: u32,
    },
    /// A ring (no systematic pattern defined).
    Ring,
    /// A k-ary n-cube or n-dimensional mesh (the 2-D grid and torus are n = 2);
    /// label = Σ coordinate_j · k^j.
    Kary {
        /// Switches per dimension.
        k: u32,
        /// Dimensions.
        n: u32,
    },
    /// A single crossbar switch (no systematic pattern: every permutation is free of
    /// contention).
    Crossbar,
    /// An indirect multistage network with 16 terminals per left switch (INMOS ch. 7 §7.3.3).
    Min,
    /// A network listed by the user (`kind = "netlist"`): no systematic pattern.
    Netlist,
}

/// Resolves a pattern for terminal `src` of `terminals`. Errors say what does not fit.
pub(crate) fn resolve(
    p: &PatternConfig,
    family: Family,
    terminals: u32,
    src: u32,
) -> Result<Destination, PatternError> {
    let bits = || -> Result<u32, PatternError> {
        if terminals.is_power_of_two() {
            Ok(terminals.trailing_zeros())
        } else {
            Err(PatternError::NotPowerOfTwo { terminals })
        }
    };
    Ok(match p {
        PatternConfig::NonUniform { .. } => return Err(PatternError::FabricOnly),
        PatternConfig::Uniform => Destination::Uniform { terminals },
        PatternConfig::Starved { node } => {
            if *node >= terminals {
                return Err(PatternError::NotATerminal {
                    destination: *node,
                    terminals,
                });
            }
            Destination::UniformExcept {
                terminals,
                except: *node,
            }
        }
        PatternConfig::Fixed { destination } => {
            if *destination >= terminals {
                return Err(PatternError::NotATerminal {
                    destination: *destination,
                    terminals,
                });
            }
            Destination::Fixed(*destination)
        }
        PatternConfig::Shuffle { rotate } => {
            let n = bits()?;
            if *rotate > n {
                return Err(PatternError::RotateTooFar {
                    rotate: *rotate,
                    bits: n,
                });
            }
            Destination::Fixed(rotate_left(src, *rotate, n))
        }
        PatternConfig::Bitrev => {
            let n = bits()?;
            Destination::Fixed(if n == 0 {
                0
            } else {
                src.reverse_bits() >> (32 - n)
            })
        }
        PatternConfig::Bitcomp => {
            let n = bits()?;
            Destination::Fixed(!src & mask(n))
        }
        PatternConfig::Transpose => {
            let n = bits()?;
            if n % 2 != 0 {
                return Err(PatternError::OddBits { bits: n });
            }
            Destination::Fixed(rotate_left(src, n / 2, n))
        }
        PatternConfig::Table { destinations } => {
            if destinations.len() != terminals as usize {
                return Err(PatternError::TableLength {
                    entries: destinations.len(),
                    terminals,
                });
            }
            let d = destinations[src as usize];
            if d >= terminals {
                return Err(PatternError::TableEntry {
                    src,
                    destination: d,
                    terminals,
                });
            }
            Destination::Fixed(d)
        }
        PatternConfig::Systematic => match family {
            Family::Hypercube { dimensions } => {
                Destination::Fixed(cube_systematic(src, dimensions))
            }
            Family::Kary { k, n } => Destination::Fixed(block_move(src, k, n)),
            Family::Min => Destination::Fixed((src + MIN_SYSTEMATIC_OFFSET) % terminals),
            Family::Ring => return Err(PatternError::NoSystematic { network: "a ring" }),
            Family::Netlist => {
                return Err(PatternError::NoSystematic {
                    network: "a netlist network",
                });
            }
            Family::Crossbar => return Err(PatternError::CrossbarSystematic),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::ecube::next_dimension;
    use rand::SeedableRng;
    use std::collections::HashMap;

    fn fixed(p: &PatternConfig, n: u32, src: u32) -> u32 {
        match resolve(p, Family::Hypercube { dimensions: n }, 1 << n, src).unwrap() {
            Destination::Fixed(d) => d,
            other => panic!("{other:?}"),
        }
    }

    fn is_permutation(p: &PatternConfig, n: u32) -> bool {
        let mut seen = vec![false; 1 << n];
        for s in 0..(1u32 << n) {
            seen[fixed(p, n, s) as usize] = true;
        }
        seen.iter().all(|&x| x)
    }

    #[test]
    fn a_table_gives_each_source_its_entry_and_rejects_bad_tables() {
        let p = PatternConfig::Table {
            destinations: vec![2, 3, 0, 1],
        };
        assert_eq!(fixed(&p, 2, 0), 2);
        assert_eq!(fixed(&p, 2, 3), 1);
        let short = resolve(&p, Family::Ring, 5, 0).unwrap_err().to_string();
        assert!(
            short.contains("4 entries") && short.contains("5 terminals"),
            "{short}"
        );
        let big = PatternConfig::Table {
            destinations: vec![0, 9],
        };
        let e = resolve(&big, Family::Ring, 2, 1).unwrap_err().to_string();
        assert!(e.contains("entry 1 is 9"), "{e}");
    }

    #[test]
    fn shuffle_rotates_left() {
        let p = PatternConfig::Shuffle { rotate: 1 };
        assert_eq!(fixed(&p, 8, 0b1000_0001), 0b0000_0011);
        assert_eq!(
            fixed(&PatternConfig::Shuffle { rotate: 3 }, 8, 0b1110_0000),
            0b0000_0111
        );
        assert_eq!(fixed(&PatternConfig::Shuffle { rotate: 0 }, 8, 77), 77);
        assert_eq!(fixed(&PatternConfig::Shuffle { rotate: 8 }, 8, 77), 77);
        assert!(is_permutation(&p, 8));
    }

    #[test]
    fn bit_patterns_are_permutations() {
        assert_eq!(fixed(&PatternConfig::Bitrev, 6, 0b000011), 0b110000);
        assert_eq!(fixed(&PatternConfig::Bitcomp, 6, 0b000011), 0b111100);
        assert_eq!(fixed(&PatternConfig::Transpose, 6, 0b000111), 0b111000);
        for p in [
            PatternConfig::Bitrev,
            PatternConfig::Bitcomp,
            PatternConfig::Transpose,
        ] {
            assert!(is_permutation(&p, 6), "{p:?}");
        }
        assert!(
            resolve(
                &PatternConfig::Transpose,
                Family::Hypercube { dimensions: 5 },
                32,
                0
            )
            .is_err()
        );
        assert!(resolve(&PatternConfig::Bitrev, Family::Ring, 6, 0).is_err());
    }

    /// The worst number of packets of the systematic permutation that cross one link,
    /// routing every source's packet by e-cube.
    fn max_link_load(n: u32) -> usize {
        let mut load: HashMap<(u32, u32), usize> = HashMap::new();
        for s in 0..(1u32 << n) {
            let d = cube_systematic(s, n);
            let mut at = s;
            while let Some(k) = next_dimension(at, d) {
                *load.entry((at, k)).or_default() += 1;
                at ^= 1 << k;
            }
        }
        load.values().copied().max().unwrap_or(0)
    }

    #[test]
    fn systematic_gives_the_chapter_7_contention() {
        // INMOS ch. 7 §7.6.1: 4-, 8- and 16-way contention on the 6-, 8- and 10-cube.
        for (n, ways) in [(6, 4), (7, 8), (8, 8), (10, 16)] {
            assert!(is_permutation(&PatternConfig::Systematic, n), "n={n}");
            assert_eq!(max_link_load(n), ways, "n={n}");
        }
    }

    #[test]
    fn the_grid_block_move_swaps_opposite_quadrants() {
        // 8×8: (x 1, y 2) → (x 5, y 6); (x 6, y 1) → (x 2, y 5).
        assert_eq!(block_move(2 * 8 + 1, 8, 2), 6 * 8 + 5);
        assert_eq!(block_move(8 + 6, 8, 2), 5 * 8 + 2);
        let mut seen = [false; 64];
        for s in 0..64 {
            seen[block_move(s, 8, 2) as usize] = true;
        }
        assert!(seen.iter().all(|&x| x), "a permutation");
        let min = |s| resolve(&PatternConfig::Systematic, Family::Min, 64, s).unwrap();
        assert_eq!(min(60), Destination::Fixed(12));
        assert!(resolve(&PatternConfig::Systematic, Family::Crossbar, 8, 0).is_err());
    }

    #[test]
    fn uniform_never_picks_self_and_covers_the_others() {
        let d = Destination::Uniform { terminals: 8 };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut seen = [0u32; 8];
        for _ in 0..8000 {
            seen[d.pick(5, &mut rng) as usize] += 1;
        }
        assert_eq!(seen[5], 0);
        // 7 destinations, 8000 draws: each expects 1143, binomial sd ≈ 31; ±200 is > 6 sd.
        for (i, &c) in seen.iter().enumerate() {
            if i != 5 {
                assert!((943..=1343).contains(&c), "destination {i}: {c}");
            }
        }
    }
}
