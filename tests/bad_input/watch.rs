//! Bad input on watching a run: a `--trace-window` that no run of the case could reach,
//! refused before the run, and one the run ended before, refused after it with
//! nothing written. Same rules as the table in `bad_input.rs`.

use super::{Case, Setup, bad};

/// A bad input found only once the run is done: exit 2, the report already printed,
/// one line saying why nothing was written.
const fn after_run_bad(
    input: &'static str,
    args: &'static [&'static str],
    setup: Setup,
    message: &'static str,
) -> Case {
    let mut case = bad(input, args, setup, message);
    case.stdout_allowed = true;
    case
}

pub static CASES: &[Case] = &[
    bad(
        "`--trace-window` past the latest end of the run",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--trace",
            "t.json",
            "--trace-window",
            "99999:100000",
        ],
        Setup::None,
        "--trace-window 99999:100000: the run stops by 10600.000 µs at the latest",
    ),
    after_run_bad(
        "`--trace-window` after the run ended",
        &[
            "-q",
            "-t",
            "relay-ring",
            "-p",
            "relay-balls",
            "--trace",
            "t.json",
            "--trace-window",
            "1:2",
        ],
        Setup::None,
        "--trace-window 1:2: the run ended at 0.438 µs, before the window starts",
    ),
];
