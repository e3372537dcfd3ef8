//! Bad input for `--compare`, the paired comparison of two configurations on the same
//! seeds. Same rules as the table in `bad_input.rs`.

use super::{Case, Setup, bad};

pub static CASES: &[Case] = &[
    bad(
        "`--compare` without `--replications`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--compare",
            "vcp.channels=2",
        ],
        Setup::None,
        "--compare runs both sides on the same seeds: give --replications N too",
    ),
    bad(
        "`--compare` with `--replications auto`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--replications",
            "auto",
            "--compare",
            "vcp.channels=2",
        ],
        Setup::None,
        "--compare runs both sides on the same seeds: give a number of runs, --replications N, not auto",
    ),
    bad(
        "`--compare` with an unknown key",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--replications",
            "2",
            "--compare",
            "vcp.chanels=2",
        ],
        Setup::None,
        "--compare vcp.chanels=2",
    ),
];
