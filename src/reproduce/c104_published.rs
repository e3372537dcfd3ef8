//! The published results of INMOS ch. 7 ("Performance of C104
//! Networks"), Tables 7.1-7.9 (§7.6.1-7.6.3), as printed, and the shipped files that
//! emulate each case.
//!
//! These are the paper's numbers typed in (they are the reference); everything the
//! emulator is compared with them on is computed by [`super::c104_networks`].

/// The three network families of chapter 7 (§7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Binary n-cube (§7.3.1, §7.6.1).
    Cube,
    /// Two-dimensional grid (§7.3.2, §7.6.2).
    Grid,
    /// Indirect multistage network (§7.3.3, §7.6.3).
    Min,
}

impl Family {
    /// The name the chapter uses.
    pub fn label(self) -> &'static str {
        match self {
            Family::Cube => "n-cube",
            Family::Grid => "grid",
            Family::Min => "MIN",
        }
    }
}

/// Traffic and routing of a table (§7.4.1, §7.5, §7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Continuous random traffic, deterministic routing.
    Random,
    /// The family's systematic permutation, deterministic routing.
    Systematic,
    /// The systematic permutation with universal routing.
    Universal,
}

impl Kind {
    /// The name the chapter's table titles use.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Random => "random",
            Kind::Systematic => "systematic",
            Kind::Universal => "universal",
        }
    }
}

/// One row of Tables 7.1-7.9: a network size under one traffic and routing.
#[derive(Clone, Copy, Debug)]
pub struct Published {
    /// Table number, e.g. "7.1".
    pub table: &'static str,
    /// Network family.
    pub family: Family,
    /// Traffic and routing.
    pub kind: Kind,
    /// Terminals (64, 256 or 1024).
    pub size: u32,
    /// Mean delay in header times.
    pub mean_delay: f64,
    /// Maximum delay in header times.
    pub max_delay: f64,
    /// Throughput, % of the maximum possible throughput of each input link.
    pub throughput: f64,
    /// Shipped topology file that builds the network.
    pub topology: &'static str,
    /// Shipped traffic file.
    pub traffic: &'static str,
}

const fn row(
    table: &'static str,
    family: Family,
    kind: Kind,
    size: u32,
    (mean_delay, max_delay, throughput): (f64, f64, f64),
    topology: &'static str,
) -> Published {
    let traffic = match kind {
        Kind::Random => "uniform",
        Kind::Systematic | Kind::Universal => "systematic",
    };
    Published {
        table,
        family,
        kind,
        size,
        mean_delay,
        max_delay,
        throughput,
        topology,
        traffic,
    }
}

use Family::{Cube, Grid, Min};
use Kind::{Random, Systematic, Universal};

/// Tables 7.1-7.9 of INMOS ch. 7, row by row (mean delay, max delay,
/// throughput %), in the order of the chapter.
pub const TABLES: [Published; 27] = [
    row("7.1", Cube, Random, 64, (48.0, 322.0, 78.8), "hypercube6"),
    row("7.1", Cube, Random, 256, (59.0, 546.0, 70.2), "hypercube8"),
    row(
        "7.1",
        Cube,
        Random,
        1024,
        (64.0, 655.0, 71.1),
        "hypercube10",
    ),
    row(
        "7.2",
        Cube,
        Systematic,
        64,
        (188.0, 376.0, 25.1),
        "hypercube6",
    ),
    row(
        "7.2",
        Cube,
        Systematic,
        256,
        (383.0, 1618.0, 12.5),
        "hypercube8",
    ),
    row(
        "7.2",
        Cube,
        Systematic,
        1024,
        (722.0, 3679.0, 6.3),
        "hypercube10",
    ),
    row(
        "7.3",
        Cube,
        Universal,
        64,
        (59.0, 260.0, 84.7),
        "hypercube6-universal",
    ),
    row(
        "7.3",
        Cube,
        Universal,
        256,
        (80.0, 514.0, 67.5),
        "hypercube8-universal",
    ),
    row(
        "7.3",
        Cube,
        Universal,
        1024,
        (91.0, 605.0, 71.7),
        "hypercube10-universal",
    ),
    row("7.4", Grid, Random, 64, (116.0, 1135.0, 34.2), "grid8"),
    row("7.4", Grid, Random, 256, (223.0, 4442.0, 17.5), "grid16"),
    row("7.4", Grid, Random, 1024, (336.0, 19937.0, 7.9), "grid32"),
    row("7.5", Grid, Systematic, 64, (302.0, 1311.0, 12.6), "grid8"),
    row("7.5", Grid, Systematic, 256, (861.0, 7126.0, 3.1), "grid16"),
    row(
        "7.5",
        Grid,
        Systematic,
        1024,
        (1916.0, 36833.0, 0.8),
        "grid32",
    ),
    row(
        "7.6",
        Grid,
        Universal,
        64,
        (187.0, 1095.0, 21.9),
        "grid8-universal",
    ),
    row(
        "7.6",
        Grid,
        Universal,
        256,
        (368.0, 2178.0, 11.2),
        "grid16-universal",
    ),
    row(
        "7.6",
        Grid,
        Universal,
        1024,
        (826.0, 4725.0, 5.1),
        "grid32-universal",
    ),
    row("7.7", Min, Random, 64, (36.0, 442.0, 56.8), "min64"),
    row("7.7", Min, Random, 256, (46.0, 512.0, 48.8), "min256"),
    row("7.7", Min, Random, 1024, (78.0, 1078.0, 30.0), "min1024"),
    row("7.8", Min, Systematic, 64, (44.0, 44.0, 36.0), "min64"),
    row("7.8", Min, Systematic, 256, (204.0, 364.0, 8.6), "min256"),
    row("7.8", Min, Systematic, 1024, (408.0, 622.0, 4.4), "min1024"),
    row(
        "7.9",
        Min,
        Universal,
        64,
        (48.0, 228.0, 41.7),
        "min64-universal",
    ),
    row(
        "7.9",
        Min,
        Universal,
        256,
        (46.0, 284.0, 47.6),
        "min256-universal",
    ),
    row(
        "7.9",
        Min,
        Universal,
        1024,
        (111.0, 926.0, 21.3),
        "min1024-universal",
    ),
];

/// The published row for `family`, `kind`, `size`.
pub fn find(family: Family, kind: Kind, size: u32) -> Option<&'static Published> {
    TABLES
        .iter()
        .find(|p| p.family == family && p.kind == kind && p.size == size)
}
