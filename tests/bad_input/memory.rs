//! Bad input on the memory limit: networks whose size is known only once built (an SCI
//! ring, a switch fabric) refused under a tiny `--memory-limit` in a sweep as in a
//! single run, with the refusal's one line and no line of the run guard's. Same rules
//! as the table in `bad_input.rs`.

use super::{Case, Setup, bad};

pub static CASES: &[Case] = &[
    bad(
        "an SCI ring under `--memory-limit 1e-9` (one byte)",
        &[
            "-t",
            "sci-ring4",
            "-p",
            "sci-uniform",
            "--memory-limit",
            "1e-9",
        ],
        Setup::None,
        "the network would need at least 30 kB of memory (4 nodes, 4 terminals; up to 2 MB with its buffers full), more than the 1 byte available",
    ),
    bad(
        "`emu sweep` of an SCI ring under `--memory-limit 1e-9`",
        &[
            "sweep",
            "-t",
            "sci-ring4",
            "-p",
            "sci-uniform",
            "--load",
            "0.5",
            "--memory-limit",
            "1e-9",
        ],
        Setup::None,
        "the network would need at least 30 kB of memory (4 nodes, 4 terminals; up to 2 MB with its buffers full), more than the 1 byte available",
    ),
    bad(
        "`emu sweep` of a 6-cube under `--memory-limit 1e-9`",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--load",
            "0.5",
            "--memory-limit",
            "1e-9",
        ],
        Setup::None,
        "the network would need at least 933 kB of memory (128 nodes, 64 terminals;",
    ),
];
