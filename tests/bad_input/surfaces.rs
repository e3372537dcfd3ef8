//! Bad input on the surfaces added after the DS-Link one: SCI rings, switch fabrics,
//! traces, sweeps, shards and `emu merge`, replications, output options, link faults,
//! and the memory and time limits. Same rules as the table in `bad_input.rs`.

use super::{Case, Setup, bad};

pub static CASES: &[Case] = &[bad(
    "fabric trace that is a FIFO",
    &["-t", "fabric16-cioq", "-p", "t.toml"],
    Setup::Files(&[(
        "t.toml",
        "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"trace\"\nfile = \"/dev/zero\"\n",
    )]),
    "injection.file: /dev/zero: is not a regular file (a FIFO, socket or device)",
)];
