//! Bad input, every kind: one table of inputs (empty and binary
//! files, syntax errors, wrong types, extremes, NaN and infinity, huge sizes, bad
//! netlists and traffic tables, bad `--set`s and flags, directories, FIFOs, missing and
//! unreadable files, subcommands), each with the exit code and the message emu gives.
//!
//! Every row runs the built `emu` in a fresh temporary directory (its files written
//! there first), stdin null, with a 60 s limit, and checks the exit code, that stdout is
//! empty, that stderr is one line starting with `error: ` and containing the row's
//! message, that the message has none of Rust's or serde's words (`..`, "expected",
//! `u32`, "map", "unit", "invalid type", outside the user's own text:
//! `bad_input/words.rs`), and that nothing panicked. Rows with an `expected_bug` describe what emu
//! *should* do; they are run for information only (what emu does now is printed) and
//! are not asserted.
//!
//! The same run renders `book/src/bad-input.md` (the user guide's page: the table with
//! each row's actual first line) and checks the file is up to date;
//! `EMU_WRITE_BAD_INPUT_TABLE=1` rewrites it.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common;

const EMU: &str = env!("CARGO_BIN_EXE_emu");

/// No case may take longer than this.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// The generated document, relative to the crate.
const DOC: &str = "book/src/bad-input.md";

/// Messages longer than this are cut in the document.
const DOC_MESSAGE_CHARS: usize = 180;

/// What to put in the case's temporary directory before running emu there.
#[derive(Clone, Copy, Debug)]
enum Setup {
    /// Nothing.
    None,
    /// A file with this text.
    Text(&'static str, &'static str),
    /// A file with these bytes.
    Bytes(&'static str, &'static [u8]),
    /// A directory.
    Dir(&'static str),
    /// A FIFO (`mkfifo`).
    Fifo(&'static str),
    /// A file with this text and mode 000 (skipped where that does not stop reading,
    /// e.g. as root).
    Unreadable(&'static str, &'static str),
    /// Several files, each (name, text).
    Files(&'static [(&'static str, &'static str)]),
    /// A symbolic link (name, target).
    Symlink(&'static str, &'static str),
    /// A hard link (name, existing file).
    HardLink(&'static str, &'static str),
    /// Each of these set-ups in turn (e.g. a traffic file and the FIFO it names as its
    /// trace).
    All(&'static [Setup]),
}

#[derive(Debug)]
struct Case {
    /// What was given, for the document.
    input: &'static str,
    /// The arguments of `emu`, run in the case's temporary directory.
    args: &'static [&'static str],
    setup: Setup,
    /// The exit code emu must give.
    code: i32,
    /// A part of the single `error: ` line on stderr.
    message: &'static str,
    /// Some: emu does not behave as `code` and `message` say yet; the reason. The case
    /// is run for information and not asserted.
    expected_bug: Option<&'static str>,
    /// The run may print its report before it fails (a bad input found only once
    /// the run is done).
    stdout_allowed: bool,
}

/// A case expected to give exit 2 and a message containing `message`.
const fn bad(
    input: &'static str,
    args: &'static [&'static str],
    setup: Setup,
    message: &'static str,
) -> Case {
    Case {
        input,
        args,
        setup,
        code: 2,
        message,
        expected_bug: None,
        stdout_allowed: false,
    }
}

/// A case emu gets wrong today: `bug` says how. No row uses it while every known
/// problem is fixed; it stays for the next one found.
#[allow(dead_code)]
const fn bug(
    input: &'static str,
    args: &'static [&'static str],
    setup: Setup,
    message: &'static str,
    bug: &'static str,
) -> Case {
    Case {
        input,
        args,
        setup,
        code: 2,
        message,
        expected_bug: Some(bug),
        stdout_allowed: false,
    }
}

/// A GraphML file of the nodes and edges `body` (from line 4), with the key of
/// `source_port` declared.
macro_rules! graphml {
    ($($body:expr),+) => {
        concat!(
            "<graphml>\n<key id=\"sp\" for=\"edge\" attr.name=\"source_port\" attr.type=\"int\"/>\n<graph>\n",
            $($body,)+
            "</graph>\n</graphml>\n"
        )
    };
}

/// A minimal netlist: two 4-port switches with two terminals each, and `links` (and
/// `tables`) appended.
macro_rules! netlist {
    ($rest:expr) => {
        concat!(
            "[network]\nkind = \"netlist\"\nswitches = [4, 4]\n",
            "terminals = [[0, 0], [0, 1], [1, 0], [1, 1]]\n",
            $rest
        )
    };
}

/// Continuous traffic with `pattern` appended.
macro_rules! traffic {
    ($rest:expr) => {
        concat!("[injection]\nkind = \"continuous\"\n", $rest)
    };
}

const HC: &str = "[network]\nkind = \"hypercube\"\n";

/// Every case: the DS-Link surface's ([`CASES`]), then the newer surfaces' (SCI rings,
/// switch fabrics, traces, sweeps and shards, replications, outputs, faults, limits:
/// `bad_input/surfaces.rs`), then the wording's (`bad_input/words.rs`).
fn cases() -> Vec<&'static Case> {
    CASES
        .iter()
        .chain(surfaces::CASES.iter())
        .chain(outputs::CASES.iter())
        .chain(compare::CASES.iter())
        .chain(words::CASES.iter())
        .chain(watch::CASES.iter())
        .chain(memory::CASES.iter())
        .collect()
}

#[path = "bad_input/surfaces.rs"]
mod surfaces;
#[path = "bad_input/words.rs"]
mod words;

#[path = "bad_input/compare.rs"]
mod compare;
#[path = "bad_input/outputs.rs"]
mod outputs;
#[path = "bad_input/watch.rs"]
mod watch;

#[path = "bad_input/memory.rs"]
mod memory;

static CASES: &[Case] = &[
    // ---- Empty and binary files, syntax ----
    bad(
        "empty topology file",
        &["-t", "empty.toml", "-p", "uniform"],
        Setup::Text("empty.toml", ""),
        "empty.toml: network: missing field `network`",
    ),
    bad(
        "empty traffic file",
        &["-t", "hypercube6", "-p", "empty.toml"],
        Setup::Text("empty.toml", ""),
        "empty.toml: injection: missing field `injection`",
    ),
    bad(
        "topology file of blanks and a comment",
        &["-t", "blank.toml", "-p", "uniform"],
        Setup::Text("blank.toml", "  \n# only a comment\n"),
        "blank.toml: network: missing field `network`",
    ),
    bad(
        "binary topology file (not UTF-8)",
        &["-t", "garbage.toml", "-p", "uniform"],
        Setup::Bytes(
            "garbage.toml",
            b"\x7fELF\x02\x01\x01\x00\xff\xfe\x00\x00\x03\x00>\x00",
        ),
        "garbage.toml: line 1: not text (a byte that is not UTF-8)",
    ),
    bad(
        "binary traffic file (NUL and control bytes, valid UTF-8)",
        &["-t", "hypercube6", "-p", "nul.toml"],
        Setup::Bytes("nul.toml", b"\x00\x01\x02ELF\x7f\x00"),
        "nul.toml:1:9: key with no value",
    ),
    bad(
        "TOML syntax error: `[network` unclosed",
        &["-t", "syntax.toml", "-p", "uniform"],
        Setup::Text("syntax.toml", "[network\nkind = \"hypercube\"\n"),
        "syntax.toml:1:9: network: unclosed table: write `]` here",
    ),
    bad(
        "duplicate key: `kind` twice",
        &["-t", "dup.toml", "-p", "uniform"],
        Setup::Text(
            "dup.toml",
            "[network]\nkind = \"hypercube\"\nkind = \"grid\"\ndimensions = 6\n",
        ),
        "dup.toml:3:1: network.kind: duplicate key",
    ),
    bad(
        "duplicate table: `[network]` twice",
        &["-t", "dup.toml", "-p", "uniform"],
        Setup::Text(
            "dup.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 6\n[network]\nkind = \"grid\"\n",
        ),
        "dup.toml:4:2: network: duplicate key",
    ),
    // ---- Wrong types ----
    bad(
        "string for a number: `dimensions = \"six\"`",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            concat!(
                "[network]\nkind = \"hypercube\"\n",
                "dimensions = \"six\"\n"
            ),
        ),
        "t.toml:3:14: network.dimensions: the text \"six\": give a whole number from 1 to 20",
    ),
    bad(
        "number for a string: `kind = 6`",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text("t.toml", "[network]\nkind = 6\ndimensions = 6\n"),
        "t.toml:2:8: network.kind: the number `6`: give a name in quotes, one of `hypercube`, `ring`, `grid`, `torus`, `kary_ncube`, `crossbar`, `min`, `netlist`, `sci_ring`, `fabric`, `relay_ring`",
    ),
    bad(
        "list for a table: `network = [\"hypercube\", 6]`",
        &[
            "-t",
            "t.toml",
            "-p",
            "uniform",
            "--set",
            "phases.measure_us=10",
        ],
        Setup::Text("t.toml", "network = [\"hypercube\", 6]\n"),
        "t.toml:1:1: network: `network` is a table, not a list",
    ),
    bad(
        "list for a table: `link = [1, 2]` (with a valid `[network]`)",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            "link = [1, 2]\n[network]\nkind = \"hypercube\"\ndimensions = 6\n",
        ),
        "t.toml:1:1: link: `link` is a table, not a list",
    ),
    bad(
        "table for a number: `--set network.dimensions={a=1}`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.dimensions={a=1}",
        ],
        Setup::None,
        "--set network.dimensions={a=1}: a table: give a whole number from 1 to 20",
    ),
    bad(
        "list for a number: `--set network.dimensions=[6]`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.dimensions=[6]",
        ],
        Setup::None,
        "--set network.dimensions=[6]: a list: give a whole number from 1 to 20",
    ),
    bad(
        "quoted number: `--set message.bytes=\"32\"`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "message.bytes=\"32\"",
        ],
        Setup::None,
        "--set message.bytes=\"32\": the text \"32\": give a whole number from 0 to 16,777,216",
    ),
    // ---- Negative, fractional, huge numbers ----
    bad(
        "negative number: `dimensions = -3`",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            concat!("[network]\nkind = \"hypercube\"\n", "dimensions = -3\n"),
        ),
        "t.toml:3:14: network.dimensions: the number `-3`: give a whole number from 1 to 20",
    ),
    bad(
        "`--set message.bytes=-1`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "message.bytes=-1",
        ],
        Setup::None,
        "--set message.bytes=-1: the number `-1`: give a whole number from 0 to 16,777,216",
    ),
    bad(
        "float for an integer: `dimensions = 6.5`",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            concat!("[network]\nkind = \"hypercube\"\n", "dimensions = 6.5\n"),
        ),
        "t.toml:3:14: network.dimensions: the number `6.5`: give a whole number from 1 to 20",
    ),
    bad(
        "float for an integer: `--set message.bytes=1e9`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "message.bytes=1e9",
        ],
        Setup::None,
        "--set message.bytes=1e9: the number `1000000000.0`: give a whole number from 0 to 16,777,216",
    ),
    bad(
        "integer beyond u64: `dimensions = 99999999999999999999999`",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            concat!(
                "[network]\nkind = \"hypercube\"\n",
                "dimensions = 99999999999999999999999\n"
            ),
        ),
        "t.toml:3:14: network.dimensions: the number `99999999999999999999999` (too large): give a whole number from 1 to 20",
    ),
    bad(
        "`--set link.buffer_tokens=18446744073709551616` (2^64)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "link.buffer_tokens=18446744073709551616",
        ],
        Setup::None,
        "--set link.buffer_tokens=18446744073709551616: the number `18446744073709551616` (too large): give tokens from link.fct_batch_tokens to 1,048,576, or \"packet\"",
    ),
    bad(
        "`--set link.buffer_tokens=18446744073709551615` (2^64 − 1)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "link.buffer_tokens=18446744073709551615",
        ],
        Setup::None,
        "18446744073709551615 tokens: give 0 to 1048576 tokens",
    ),
    bad(
        "huge buffer: `buffer_tokens = 1099511627776` (2^40)",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            concat!(
                "[network]\nkind = \"hypercube\"\ndimensions = 6\n",
                "[link]\nbuffer_tokens = 1099511627776\n"
            ),
        ),
        "t.toml:5:17: link.buffer_tokens: 1099511627776 tokens: give 0 to 1048576 tokens",
    ),
    bad(
        "huge buffer: `--set link.buffer_tokens=2097152` (2^21)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "link.buffer_tokens=2097152",
        ],
        Setup::None,
        "2097152 tokens: give at most 1048576",
    ),
    bad(
        "buffer below the FCT batch: `--set link.buffer_tokens=4`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "link.buffer_tokens=4",
        ],
        Setup::None,
        "4 tokens is smaller than the flow-control batch of 8",
    ),
    bad(
        "`--set faults.extra_initial_credit=70000`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "faults.extra_initial_credit=70000",
        ],
        Setup::None,
        "70000: give at most 65536 tokens",
    ),
    bad(
        "link fault on a node that does not exist",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 2\n[faults]\nlink_down = [{ link = \"c104[9]:0\", at_us = 5.0 }]\n",
        ),
        "t.toml:5:16: faults.link_down[0].link: no node is called \"c104[9]\"",
    ),
    bad(
        "link fault on a port out of range",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 2\n[faults]\nlink_down = [{ link = \"c104[1]:7\", at_us = 5.0 }]\n",
        ),
        "t.toml:5:16: faults.link_down[0].link: c104[1] has ports 0 to 2, not 7",
    ),
    bad(
        "link fault on a port with nothing attached",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text(
            "n.toml",
            netlist!(
                "links = [[0, 2, 1, 2]]\n[faults]\nlink_down = [{ link = \"c104[0]:3\", at_us = 5.0 }]\n"
            ),
        ),
        "faults.link_down[0].link: nothing is attached to c104[0] port 3",
    ),
    bad(
        "link fault not of the form NODE:PORT",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 2\n[faults]\nlink_down = [{ link = \"c104[1]\", at_us = 5.0 }]\n",
        ),
        "faults.link_down[0].link: \"c104[1]\" is not a link: give NODE:PORT",
    ),
    bad(
        "link fault at a negative time",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 2\n[faults]\nlink_down = [{ link = \"c104[1]:0\", at_us = 1.0 }, { link = \"c104[1]:1\", at_us = -1.0 }]\n",
        ),
        "faults.link_down[1].at_us: -1 µs is not a time of the run",
    ),
    bad(
        "link fault at NaN µs",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 2\n[faults]\nlink_down = [{ link = \"c104[1]:0\", at_us = nan }]\n",
        ),
        "faults.link_down[0].at_us: NaN µs is not a time of the run",
    ),
    bad(
        "link fault after the run's hard stop",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 2\n[faults]\nlink_down = [{ link = \"c104[1]:0\", at_us = 1e9 }]\n",
        ),
        "t.toml:5:36: faults.link_down[0].at_us: 1e9 µs is not a time of the run: give 0 to 10,600 µs (the run's hard stop)",
    ),
    bad(
        "`--set faults.token_error_rate=1.5`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "faults.token_error_rate=1.5",
        ],
        Setup::None,
        "--set faults.token_error_rate=1.5: 1.5 is not a probability",
    ),
    bad(
        "`--set faults.token_error_rate=nan`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "faults.token_error_rate=nan",
        ],
        Setup::None,
        "NaN is not a probability",
    ),
    bad(
        "link fault on an SCI node's port that does not exist",
        &["-t", "t.toml", "-p", "sci-uniform"],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"sci_ring\"\nnodes = 4\n[faults]\nlink_down = [{ link = \"sci[0]:2\", at_us = 5.0 }]\n",
        ),
        "t.toml:5:16: faults.link_down[0].link: sci[0] has ports 0 to 1, not 2",
    ),
    bad(
        "`--set faults.token_error_rate=2` on a switch fabric",
        &[
            "-t",
            "fabric16-cioq",
            "-p",
            "bernoulli98",
            "--set",
            "faults.token_error_rate=2",
        ],
        Setup::None,
        "--set faults.token_error_rate=2: 2 is not a probability: give a number from 0 to 1",
    ),
    bad(
        "a DS-Link section in a switch fabric's file",
        &["-t", "t.toml", "-p", "uniform-rate"],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"fabric\"\nports = 4\nrtt = 4\nmemory = 8\n[link]\nbuffer_tokens = 20\n",
        ),
        "t.toml:6:2: link: [link] is a section of a network of C104s; this topology is a switch fabric (network.kind), which does not read it: remove it",
    ),
    bad(
        "`emu check` on an SCI ring of one node",
        &["check", "-t", "sci-ring4", "--set", "network.nodes=1"],
        Setup::None,
        "--set network.nodes=1: 1: give 2 to 4,096 nodes",
    ),
    bad(
        "`emu check` on a fabric with a threshold above its memory",
        &[
            "check",
            "-t",
            "fabric16-grant",
            "--set",
            "network.thresholds=[999]",
        ],
        Setup::None,
        "--set network.thresholds=[999]: [999]: each threshold must be from 1 to 65 (M − RTT + 1, so that the RTT − 1 packets still on their way after a stop fit)",
    ),
    bad(
        "`--set message.bytes=64` on an SCI ring (its packet lengths come from its mix)",
        &[
            "-t",
            "sci-ring4",
            "-p",
            "sci-uniform",
            "--set",
            "message.bytes=64",
        ],
        Setup::None,
        "--set message.bytes=64: message does not apply to an SCI ring (an SCI ring's packet lengths come from the topology's network.mix)",
    ),
    bad(
        "a pattern on a relay ring",
        &[
            "-t",
            "relay-ring",
            "-p",
            "relay-balls",
            "--set",
            "pattern.kind=bitrev",
        ],
        Setup::None,
        "--set pattern.kind=bitrev: pattern does not apply to a relay ring",
    ),
    bad(
        "`emu sweep` on a relay ring",
        &[
            "sweep",
            "-t",
            "relay-ring",
            "-p",
            "relay-balls",
            "--load",
            "0.1",
        ],
        Setup::None,
        "network.kind: a relay ring has no offered load to sweep",
    ),
    bad(
        "a relay ring under continuous traffic",
        &["-t", "relay-ring", "-p", "uniform"],
        Setup::None,
        "injection.kind: a relay ring takes batch injection only",
    ),
    bad(
        "`emu stress` on a relay ring",
        &["stress", "-t", "relay-ring"],
        Setup::None,
        "network.kind: a relay ring cannot deadlock and has no starvation to search for",
    ),
    bad(
        "`--set network.dimensions=0`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.dimensions=0",
        ],
        Setup::None,
        "--set network.dimensions=0: 0: give a whole number from 1 to 20",
    ),
    bad(
        "`--set network.dimensions=21`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.dimensions=21",
        ],
        Setup::None,
        "--set network.dimensions=21: 21: give a whole number from 1 to 20",
    ),
    bad(
        "`--set link.bit_rate_mbit_s=0`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "link.bit_rate_mbit_s=0",
        ],
        Setup::None,
        "0 is not a link rate",
    ),
    bad(
        "`--set link.fct_batch_tokens=0`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "link.fct_batch_tokens=0",
        ],
        Setup::None,
        "must be at least 1 token per FCT",
    ),
    bad(
        "`--set packet.header_bytes=3`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "packet.header_bytes=3",
        ],
        Setup::None,
        "3: a C104 header is 1 or 2 bytes",
    ),
    bad(
        "`--set message.bytes=4000000000`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "message.bytes=4000000000",
        ],
        Setup::None,
        "4000000000: give at most 16777216 bytes",
    ),
    // ---- NaN, infinity, zero and out-of-range loads and times ----
    bad(
        "`--set injection.load=nan` on continuous traffic",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "injection.load=nan",
        ],
        Setup::None,
        "unknown key `load` here: kind = \"continuous\" takes no key but `kind`",
    ),
    bad(
        "`--set injection.load=nan` (rate traffic)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform-rate",
            "--set",
            "injection.load=nan",
        ],
        Setup::None,
        "NaN: give a fraction of link capacity in (0, 1]",
    ),
    bad(
        "`--set injection.load=inf`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform-rate",
            "--set",
            "injection.load=inf",
        ],
        Setup::None,
        "inf: give a fraction of link capacity in (0, 1]",
    ),
    bad(
        "`--set injection.load=0`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform-rate",
            "--set",
            "injection.load=0",
        ],
        Setup::None,
        "0: give a fraction of link capacity in (0, 1]",
    ),
    bad(
        "`--set injection.load=-0.5`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform-rate",
            "--set",
            "injection.load=-0.5",
        ],
        Setup::None,
        "-0.5: give a fraction of link capacity in (0, 1]",
    ),
    bad(
        "`--set injection.load=1.5`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform-rate",
            "--set",
            "injection.load=1.5",
        ],
        Setup::None,
        "1.5: give a fraction of link capacity in (0, 1]",
    ),
    bad(
        "`--set phases.measure_us=inf`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "phases.measure_us=inf",
        ],
        Setup::None,
        "inf is not a duration: give microseconds ≥ 0",
    ),
    bad(
        "`--set phases.measure_us=nan`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "phases.measure_us=nan",
        ],
        Setup::None,
        "NaN is not a duration: give microseconds ≥ 0",
    ),
    bad(
        "`--set phases.measure_us=-1`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "phases.measure_us=-1",
        ],
        Setup::None,
        "-1 is not a duration: give microseconds ≥ 0",
    ),
    bad(
        "`--set phases.measure_us=0`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "phases.measure_us=0",
        ],
        Setup::None,
        "the measurement window must be longer than zero",
    ),
    bad(
        "`--set phases.warmup_us=1e300`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "phases.warmup_us=1e300",
        ],
        Setup::None,
        "--set phases.warmup_us=1e300: 1e300 µs is too long: give at most 1e9 µs",
    ),
    bad(
        "`--set phases.drain_limit_us=2e9` (just over the bound)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "phases.drain_limit_us=2e9",
        ],
        Setup::None,
        "--set phases.drain_limit_us=2e9: 2e9 µs is too long: give at most 1e9 µs",
    ),
    bad(
        "`--set link.bit_rate_mbit_s=nan`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "link.bit_rate_mbit_s=nan",
        ],
        Setup::None,
        "--set link.bit_rate_mbit_s=nan: the number `NaN`: give a whole number from 1 to 1,000,000",
    ),
    // ---- Unknown keys and kinds, missing keys ----
    bad(
        "unknown key: `flavour = 3` in `[network]`",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            concat!(
                "[network]\nkind = \"hypercube\"\n",
                "dimensions = 6\nflavour = 3\n"
            ),
        ),
        "t.toml:4:1: network.flavour: unknown key `flavour` here: this table takes `dimensions`, `routing`, `link_sets`",
    ),
    bad(
        "unknown network kind: `kind = \"moebius\"`",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text("t.toml", "[network]\nkind = \"moebius\"\ndimensions = 6\n"),
        "t.toml:2:8: network.kind: unknown name `moebius`: give one of `hypercube`, `ring`, `grid`, `torus`, `kary_ncube`, `crossbar`, `min`, `netlist`, `sci_ring`, `fabric`, `relay_ring`",
    ),
    bad(
        "unknown pattern kind: `kind = \"zipf\"`",
        &["-t", "hypercube6", "-p", "p.toml"],
        Setup::Text("p.toml", traffic!("[pattern]\nkind = \"zipf\"\n")),
        "p.toml:4:8: pattern.kind: unknown name `zipf`: give one of `uniform`, `starved`, `shuffle`, `systematic`, `bitrev`, `bitcomp`, `transpose`, `fixed`, `non_uniform`, `table`",
    ),
    bad(
        "`--set injection.kind=warp`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "injection.kind=warp",
        ],
        Setup::None,
        "--set injection.kind=warp: unknown name `warp`: give one of `continuous`, `rate`, `batch`, `bursty`, `bimodal`, `trace`",
    ),
    bad(
        "`--set pattern.kind=7`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "pattern.kind=7",
        ],
        Setup::None,
        "--set pattern.kind=7: the number `7`: give a name in quotes, one of `uniform`, `starved`, `shuffle`, `systematic`, `bitrev`, `bitcomp`, `transpose`, `fixed`, `non_uniform`, `table`",
    ),
    bad(
        "missing required key: hypercube without `dimensions`",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text("t.toml", HC),
        "t.toml:1:1: network.dimensions: missing field `dimensions`",
    ),
    bad(
        "missing section: traffic without `[injection]`",
        &["-t", "hypercube6", "-p", "p.toml"],
        Setup::Text("p.toml", "[pattern]\nkind = \"uniform\"\n"),
        "p.toml: injection: missing field `injection`",
    ),
    bad(
        "`--set injection.kind=trace` (no `file`)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "injection.kind=trace",
        ],
        Setup::None,
        "missing field `file`",
    ),
    // ---- Bad --set ----
    bad(
        "`--set injection` (no `=`)",
        &["-t", "hypercube6", "-p", "uniform", "--set", "injection"],
        Setup::None,
        "--set injection: give KEY=VALUE",
    ),
    bad(
        "`--set bogus.key=1` (unknown section)",
        &["-t", "hypercube6", "-p", "uniform", "--set", "bogus.key=1"],
        Setup::None,
        "--set bogus.key=1: unknown section `bogus`",
    ),
    bad(
        "`--set network.dimensions=abc` (bad value)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.dimensions=abc",
        ],
        Setup::None,
        "--set network.dimensions=abc: the text \"abc\": give a whole number from 1 to 20",
    ),
    bad(
        "`--set network.dimensions=` (empty value)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.dimensions=",
        ],
        Setup::None,
        "--set network.dimensions=: the text \"\": give a whole number from 1 to 20",
    ),
    bad(
        "`--set =5` (empty key)",
        &["-t", "hypercube6", "-p", "uniform", "--set", "=5"],
        Setup::None,
        "--set =5: `` is not a dotted key: it has an empty part",
    ),
    bad(
        "`--set network.=5` (empty key part)",
        &["-t", "hypercube6", "-p", "uniform", "--set", "network.=5"],
        Setup::None,
        "`network.` is not a dotted key: it has an empty part",
    ),
    bad(
        "`--set description=x` (ambiguous)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "description=x",
        ],
        Setup::None,
        "`description` is in both files: write topology.description or traffic.description",
    ),
    // ---- Flags ----
    bad(
        "`--threads 0`",
        &["-t", "hypercube6", "-p", "uniform", "--threads", "0"],
        Setup::None,
        "--threads 0: give at least one thread",
    ),
    bad(
        "`--threads 99999999999`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--threads",
            "99999999999",
        ],
        Setup::None,
        "--threads 99999999999: give at most 4096",
    ),
    bad(
        "`--threads 5000`",
        &["-t", "hypercube6", "-p", "uniform", "--threads", "5000"],
        Setup::None,
        "--threads 5000: give at most 4096",
    ),
    bad(
        "`--threads -1`",
        &["-t", "hypercube6", "-p", "uniform", "--threads", "-1"],
        Setup::None,
        "--threads",
    ),
    bad(
        "`--seed -1`",
        &["-t", "hypercube6", "-p", "uniform", "--seed", "-1"],
        Setup::None,
        "--seed",
    ),
    bad(
        "`--seed 18446744073709551616` (2^64)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--seed",
            "18446744073709551616",
        ],
        Setup::None,
        "for '--seed <SEED>': too large",
    ),
    bad(
        "`--engine warp`",
        &["-t", "hypercube6", "-p", "uniform", "--engine", "warp"],
        Setup::None,
        "invalid value 'warp' for '--engine <ENGINE>'",
    ),
    bad(
        "`--deadlock-window-us 0`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--deadlock-window-us",
            "0",
        ],
        Setup::None,
        "--deadlock-window-us 0: give a positive number of microseconds, at most 1e9",
    ),
    bad(
        "`--deadlock-window-us 1e18`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--deadlock-window-us",
            "1e18",
        ],
        Setup::None,
        "give a positive number of microseconds, at most 1e9",
    ),
    bad(
        "`--deadlock-window-us nan`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--deadlock-window-us",
            "nan",
        ],
        Setup::None,
        "--deadlock-window-us NaN: give a positive number of microseconds",
    ),
    bad(
        "`--memory-limit=-1`",
        &["-t", "hypercube6", "-p", "uniform", "--memory-limit=-1"],
        Setup::None,
        "--memory-limit -1: give gigabytes from 0 (no limit) to 1e9",
    ),
    bad(
        "`--memory-limit=nan`",
        &["-t", "hypercube6", "-p", "uniform", "--memory-limit=nan"],
        Setup::None,
        "--memory-limit NaN: give gigabytes from 0 (no limit) to 1e9",
    ),
    bad(
        "`--replications 0`",
        &["-t", "hypercube6", "-p", "uniform", "--replications", "0"],
        Setup::None,
        "--replications 0: give a number of runs (2 to 10000) or auto",
    ),
    bad(
        "`--replications auto --ci-target nan`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--replications",
            "auto",
            "--ci-target",
            "nan",
        ],
        Setup::None,
        "--ci-target NaN: give a positive percentage",
    ),
    bad(
        "no arguments at all",
        &[],
        Setup::None,
        "give --topology and --traffic",
    ),
    // ---- Too large for the memory ----
    bad(
        "16-cube with 2-byte headers, `--memory-limit 1`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.dimensions=16",
            "--set",
            "packet.header_bytes=2",
            "--memory-limit",
            "1",
        ],
        Setup::None,
        "the network would need at least 1.7 GB of memory",
    ),
    bad(
        "batch of 10^7 messages per terminal (hypercube6)",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "injection.kind=batch",
            "--set",
            "injection.messages=10000000",
        ],
        Setup::None,
        "640000000 messages queued at once would take about 14.3 GiB; give at most 67108864 in all",
    ),
    bad(
        "batch of 0 messages",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "injection.kind=batch",
            "--set",
            "injection.messages=0",
        ],
        Setup::None,
        "--set injection.messages=0: must be at least 1",
    ),
    // ---- Files that are not files ----
    bad(
        "a directory as the topology",
        &["-t", "adir", "-p", "uniform"],
        Setup::Dir("adir"),
        "topology file `adir` is a directory",
    ),
    bad(
        "a FIFO as the traffic file",
        &["-t", "hypercube6", "-p", "afifo"],
        Setup::Fifo("afifo"),
        "traffic file `afifo` is not a regular file (a FIFO, socket or device)",
    ),
    bad(
        "`/dev/null` as the topology",
        &["-t", "/dev/null", "-p", "uniform"],
        Setup::None,
        "topology file `/dev/null` is not a regular file",
    ),
    bad(
        "a nonexistent topology file",
        &["-t", "nosuch.toml", "-p", "uniform"],
        Setup::None,
        "topology file `nosuch.toml` not found: tried nosuch.toml, topologies/nosuch.toml and the shipped topology files",
    ),
    bad(
        "a nonexistent traffic file",
        &["-t", "hypercube6", "-p", "nosuch"],
        Setup::None,
        "traffic file `nosuch` not found",
    ),
    bad(
        "an empty topology name: `-t \"\"`",
        &["-t", "", "-p", "uniform"],
        Setup::None,
        "no topology file given",
    ),
    bad(
        "an unreadable topology file (mode 000)",
        &["-t", "unreadable.toml", "-p", "uniform"],
        Setup::Unreadable(
            "unreadable.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 6\n",
        ),
        "cannot read unreadable.toml: Permission denied (os error 13)",
    ),
    bad(
        "`--json` naming a directory",
        &["-t", "hypercube6", "-p", "uniform", "--json", "adir"],
        Setup::Dir("adir"),
        "--json adir: is a directory, give a file",
    ),
    bad(
        "`--json` in a missing directory",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--json",
            "nodir/x.json",
        ],
        Setup::None,
        "--json nodir/x.json: cannot write: No such file or directory",
    ),
    bad(
        "`--plot` naming an existing file",
        &["-t", "hypercube6", "-p", "uniform", "--plot", "afile"],
        Setup::Text("afile", "x\n"),
        "--plot afile: cannot create the directory",
    ),
    bad(
        "`--trace` naming a directory",
        &["-t", "hypercube6", "-p", "uniform", "--trace", "adir"],
        Setup::Dir("adir"),
        "--trace adir: is a directory, give a file",
    ),
    bad(
        "`--trace-window` backwards",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--trace",
            "t.json",
            "--trace-window",
            "20:10",
        ],
        Setup::None,
        "--trace-window 20:10: the window is empty: give FROM below TO, e.g. --trace-window 100:110",
    ),
    bad(
        "`--trace-window` without `--trace`",
        &["-t", "hypercube6", "-p", "uniform", "--trace-window", "1:2"],
        Setup::None,
        "--trace-window selects what --trace or --vcd records: give one of them",
    ),
    bad(
        "`--trace-terminals` naming no terminal",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--trace",
            "t.json",
            "--trace-terminals",
            "64",
        ],
        Setup::None,
        "--trace-terminals 64: 64 is not a terminal: give labels 0 to 63, comma-separated",
    ),
    bad(
        "`--watch` naming no node",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--vcd",
            "w.vcd",
            "--watch",
            "c104[99]:0",
        ],
        Setup::None,
        "--watch c104[99]:0:",
    ),
    bad(
        "`--vcd` without `--watch`",
        &["-t", "hypercube6", "-p", "uniform", "--vcd", "w.vcd"],
        Setup::None,
        "--watch",
    ),
    bad(
        "`--report` naming a directory",
        &["-t", "hypercube6", "-p", "uniform", "--report", "adir"],
        Setup::Dir("adir"),
        "--report adir: is a directory, give a file",
    ),
    bad(
        "`--report` and `--json` naming one file",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--report",
            "r.out",
            "--json",
            "r.out",
        ],
        Setup::None,
        "--json and --report both name r.out: give each output its own path",
    ),
    // ---- Bad netlists ----
    bad(
        "netlist: a link to a port that does not exist",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text("n.toml", netlist!("links = [[0, 2, 1, 9]]\n")),
        "n.toml:5:1: network.links: link 0 [0, 2, 1, 9]: switch 1 has ports 0 to 3, not 9",
    ),
    bad(
        "netlist: a link to a switch that does not exist",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text("n.toml", netlist!("links = [[0, 2, 5, 0]]\n")),
        "network.links: link 0 [0, 2, 5, 0]: switch 5 does not exist (there are 2)",
    ),
    bad(
        "netlist: a switch linked to itself",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text("n.toml", netlist!("links = [[0, 2, 0, 3]]\n")),
        "network.links: link 0 [0, 2, 0, 3]: links switch 0 to itself",
    ),
    bad(
        "netlist: a port linked to itself",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text("n.toml", netlist!("links = [[0, 2, 0, 2]]\n")),
        "network.links: link 0 [0, 2, 0, 2]: a port cannot link to itself",
    ),
    bad(
        "netlist: a port used by two links",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text("n.toml", netlist!("links = [[0, 2, 1, 2], [0, 2, 1, 3]]\n")),
        "network.links: link 1 [0, 2, 1, 3]: port 2 of switch 0 is already used",
    ),
    bad(
        "netlist: two terminals on one port",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text(
            "n.toml",
            concat!(
                "[network]\nkind = \"netlist\"\nswitches = [4, 4]\n",
                "terminals = [[0, 0], [0, 0], [1, 0], [1, 1]]\nlinks = [[0, 2, 1, 2]]\n"
            ),
        ),
        "n.toml:4:1: network.terminals: terminal 1: port 0 of switch 0 is already used",
    ),
    bad(
        "netlist: a routing table naming an unconnected output",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text(
            "n.toml",
            netlist!(
                "links = [[0, 2, 1, 2]]\ntables = [[[0, 2, 3], [2, 4, 2]], [[0, 2, 2], [2, 4, 0]]]\n"
            ),
        ),
        "n.toml:6:1: network.tables: switch 0: interval [0, 2) goes to port 3, which is not connected",
    ),
    bad(
        "netlist: a routing table naming a port that does not exist",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text(
            "n.toml",
            netlist!(
                "links = [[0, 2, 1, 2]]\ntables = [[[0, 2, 7], [2, 4, 2]], [[0, 2, 2], [2, 4, 0]]]\n"
            ),
        ),
        "network.tables: switch 0: interval [0, 2) goes to port 7, which is not connected",
    ),
    bad(
        "netlist: a routing table with no route for a label",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text(
            "n.toml",
            netlist!(
                "links = [[0, 2, 1, 2]]\ntables = [[[0, 1, 0], [2, 4, 2]], [[0, 2, 2], [2, 3, 0], [3, 4, 1]]]\n"
            ),
        ),
        "network.tables: switch 0 has no route for label 1",
    ),
    bad(
        "netlist: one table for two switches",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text(
            "n.toml",
            netlist!("links = [[0, 2, 1, 2]]\ntables = [[[0, 2, 0], [2, 4, 2]]]\n"),
        ),
        "network.tables: 1 tables for 2 switches",
    ),
    bad(
        "netlist: not connected",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text("n.toml", netlist!("links = []\n")),
        "network.links: switch 1 cannot reach terminal 0 (on switch 0): the network is not connected",
    ),
    bad(
        "netlist: a switch of 40 ports",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text(
            "n.toml",
            concat!(
                "[network]\nkind = \"netlist\"\nswitches = [4, 40]\n",
                "terminals = [[0, 0], [0, 1], [1, 0], [1, 1]]\nlinks = [[0, 2, 1, 2]]\n"
            ),
        ),
        "n.toml:3:1: network.switches: switch 1 has 40 ports: a C104 has 1 to 32 links",
    ),
    bad(
        "netlist: a link of five numbers",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text("n.toml", netlist!("links = [[0, 2, 1, 2, 5]]\n")),
        "n.toml:5:10: network.links: 5 entries in the list: give 4 entries",
    ),
    bad(
        "netlist: a terminal of one number",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text(
            "n.toml",
            concat!(
                "[network]\nkind = \"netlist\"\nswitches = [4, 4]\n",
                "terminals = [[0, 0], [0, 1], [1, 0], [1]]\nlinks = [[0, 2, 1, 2]]\n"
            ),
        ),
        "n.toml:4:38: network.terminals: 1 entry in the list: give a list of 2",
    ),
    bad(
        "a 256 × 256 grid with a 0.5 GB limit (refused before its routing tables are built)",
        &[
            "-t",
            "grid8",
            "-p",
            "uniform",
            "--set",
            "network.side=256",
            "--set",
            "packet.header_bytes=2",
            "--memory-limit",
            "0.5",
        ],
        Setup::None,
        "the network would need at least 811 MB of memory (131072 nodes, 65536 terminals",
    ),
    // ---- GraphML ports ----
    bad(
        "GraphML: a `<port>` whose name is no link number",
        &["-t", "g.graphml", "-p", "uniform"],
        Setup::Text(
            "g.graphml",
            graphml!(
                "<node id=\"a\">\n  <port name=\"north\"/>\n</node>\n<node id=\"b\"/>\n",
                "<edge source=\"a\" target=\"b\" sourceport=\"north\"/>\n"
            ),
        ),
        "g.graphml:5:3: node \"a\": port \"north\": a port is named by its link number, give a whole number from 0 to 31",
    ),
    bad(
        "GraphML: a node declaring a port twice",
        &["-t", "g.graphml", "-p", "uniform"],
        Setup::Text(
            "g.graphml",
            graphml!(
                "<node id=\"a\">\n  <port name=\"4\"/>\n  <port name=\"4\"/>\n</node>\n<node id=\"b\"/>\n",
                "<edge source=\"a\" target=\"b\" sourceport=\"4\"/>\n"
            ),
        ),
        "g.graphml:6:3: node \"a\": port \"4\" is given twice: a node declares each of its ports once",
    ),
    bad(
        "GraphML: an edge's `sourceport` its node does not declare",
        &["-t", "g.graphml", "-p", "uniform"],
        Setup::Text(
            "g.graphml",
            graphml!(
                "<node id=\"a\"/>\n<node id=\"b\"/>\n",
                "<edge source=\"a\" target=\"b\" sourceport=\"4\"/>\n"
            ),
        ),
        "g.graphml:6:1: edge \"a\" -- \"b\": sourceport \"4\": node \"a\" declares no <port name=\"4\">",
    ),
    bad(
        "GraphML: `sourceport` and `source_port` naming different links",
        &["-t", "g.graphml", "-p", "uniform"],
        Setup::Text(
            "g.graphml",
            graphml!(
                "<node id=\"a\">\n  <port name=\"4\"/>\n</node>\n<node id=\"b\"/>\n",
                "<edge source=\"a\" target=\"b\" sourceport=\"4\">\n  <data key=\"sp\">5</data>\n</edge>\n"
            ),
        ),
        "g.graphml:8:1: edge \"a\" -- \"b\": sourceport \"4\" and source_port 5 disagree: give one of them, or both the same port",
    ),
    // ---- Bad traffic tables and terminal lists ----
    bad(
        "`table` pattern with 3 destinations for 4 terminals",
        &[
            "-t",
            "crossbar32",
            "-p",
            "p.toml",
            "--set",
            "network.terminals=4",
        ],
        Setup::Text(
            "p.toml",
            traffic!("[pattern]\nkind = \"table\"\ndestinations = [1, 0, 3]\n"),
        ),
        "p.toml:5:1: pattern.destinations: 3 entries, and this network has 4 terminals",
    ),
    bad(
        "`table` pattern with an out-of-range terminal",
        &[
            "-t",
            "crossbar32",
            "-p",
            "p.toml",
            "--set",
            "network.terminals=4",
        ],
        Setup::Text(
            "p.toml",
            traffic!("[pattern]\nkind = \"table\"\ndestinations = [1, 0, 3, 9]\n"),
        ),
        "p.toml:5:1: pattern.destinations: entry 3 is 9, which is not a terminal (0 to 3)",
    ),
    bad(
        "`fixed` pattern to an out-of-range terminal",
        &[
            "-t",
            "crossbar32",
            "-p",
            "p.toml",
            "--set",
            "network.terminals=4",
        ],
        Setup::Text(
            "p.toml",
            traffic!("[pattern]\nkind = \"fixed\"\ndestination = 4\n"),
        ),
        "p.toml:5:1: pattern.destination: destination 4 is not a terminal (0 to 3)",
    ),
    bad(
        "`terminals.senders = []`",
        &["-t", "hypercube6", "-p", "p.toml"],
        Setup::Text(
            "p.toml",
            traffic!("[pattern]\nkind = \"uniform\"\n[terminals]\nsenders = []\n"),
        ),
        "p.toml:6:1: terminals.senders: an empty list sends nothing",
    ),
    bad(
        "`terminals.senders` naming a missing terminal",
        &[
            "-t",
            "crossbar32",
            "-p",
            "p.toml",
            "--set",
            "network.terminals=4",
        ],
        Setup::Text(
            "p.toml",
            traffic!("[pattern]\nkind = \"uniform\"\n[terminals]\nsenders = [0, 7]\n"),
        ),
        "p.toml:6:1: terminals.senders: 7 is not a terminal (0 to 3)",
    ),
    // ---- Subcommands ----
    bad(
        "`emu sweep --load 2:1:0.1`",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--load",
            "2:1:0.1",
        ],
        Setup::None,
        "--load 2:1:0.1: 1 is below 2",
    ),
    bad(
        "`emu sweep --load abc`",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--load",
            "abc",
        ],
        Setup::None,
        "--load abc: \"abc\" is not a number",
    ),
    bad(
        "`emu sweep --load 0.1:0.5:0`",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--load",
            "0.1:0.5:0",
        ],
        Setup::None,
        "--load 0.1:0.5:0: step 0: give a step more than 0",
    ),
    bad(
        "`emu sweep --load nan:1:0.1`",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--load",
            "nan:1:0.1",
        ],
        Setup::None,
        "\"nan\" is not a number",
    ),
    bad(
        "`emu sweep --replications 0`",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--replications",
            "0",
        ],
        Setup::None,
        "invalid value '0' for '--seeds <SEEDS>': 0 is not from 1 to 1000 (see emu --help)",
    ),
    bad(
        "`emu sweep --shard 3/2`",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--shard",
            "3/2",
        ],
        Setup::None,
        "--shard 3/2: give K/N with 1 <= K <= N",
    ),
    bad(
        "`emu sweep --threads 0`",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--threads",
            "0",
        ],
        Setup::None,
        "--threads 0: give at least one thread",
    ),
    bad(
        "`emu stress --seeds 0`",
        &["stress", "-t", "hypercube6", "--seeds", "0"],
        Setup::None,
        "invalid value '0' for '--seeds <SEEDS>': 0 is not from 1 to 100000 (see emu --help)",
    ),
    bad(
        "`emu check` on a missing file",
        &["check", "-t", "nosuch.toml"],
        Setup::None,
        "topology file `nosuch.toml` not found",
    ),
    bad(
        "`emu check` on a netlist with a self-link",
        &["check", "-t", "n.toml"],
        Setup::Text("n.toml", netlist!("links = [[0, 2, 0, 3]]\n")),
        "n.toml:5:1: network.links: link 0 [0, 2, 0, 3]: links switch 0 to itself",
    ),
    bad(
        "`emu merge` of a file that is not a shard",
        &["merge", "notshard.txt"],
        Setup::Text("notshard.txt", "hello\n"),
        "notshard.txt:1: not a line of an emu sweep shard",
    ),
    bad(
        "`emu merge` of a missing file",
        &["merge", "nosuch.shard"],
        Setup::None,
        "nosuch.shard: cannot read: No such file or directory",
    ),
    bad(
        "`emu reproduce no-such-experiment`",
        &["reproduce", "no-such-experiment"],
        Setup::None,
        "unknown experiment `no-such-experiment`: give one of dslink-bandwidth",
    ),
    bad(
        "`emu reproduce` without a name",
        &["reproduce"],
        Setup::None,
        "give an experiment name or `all`",
    ),
    bad(
        "`emu frobnicate` (unknown subcommand)",
        &["frobnicate"],
        Setup::None,
        "unrecognized subcommand 'frobnicate'",
    ),
];

/// What one run of emu did.
type Outcome = common::Captured;

/// What the table makes of an outcome.
trait Verdict {
    /// The first line on stderr.
    fn first_line(&self) -> &str;
    /// The case and everything the run printed.
    fn describe(&self, case: &Case) -> String;
    /// Everything wrong with this outcome for `case`; empty if none.
    fn problems(&self, case: &Case) -> Vec<String>;
}

impl Verdict for Outcome {
    fn first_line(&self) -> &str {
        self.stderr.lines().next().unwrap_or("")
    }

    fn describe(&self, case: &Case) -> String {
        format!(
            "case {:?}: emu {}\n  exit code {} after {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            case.input,
            shell_words(case.args),
            self.code,
            self.elapsed,
            self.stdout,
            self.stderr
        )
    }

    fn problems(&self, case: &Case) -> Vec<String> {
        let mut p = Vec::new();
        if self.code != case.code {
            p.push(format!("exit code {}, expected {}", self.code, case.code));
        }
        if !case.stdout_allowed && !self.stdout.is_empty() {
            p.push("stdout is not empty".to_string());
        }
        let lines: Vec<&str> = self.stderr.lines().collect();
        if lines.len() != 1 {
            p.push(format!("stderr has {} lines, expected 1", lines.len()));
        }
        if !self.first_line().starts_with("error: ") {
            p.push("stderr does not start with `error: `".to_string());
        }
        if !self.first_line().contains(case.message) {
            p.push(format!("the first line lacks {:?}", case.message));
        }
        for bad in ["panicked", "RUST_BACKTRACE"] {
            if self.stderr.contains(bad) || self.stdout.contains(bad) {
                p.push(format!("the output contains {bad:?}"));
            }
        }
        p
    }
}

/// The arguments as a shell would need them (for messages and the document).
fn shell_words(args: &[&str]) -> String {
    args.iter()
        .map(|a| {
            if !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.:/=,+".contains(c))
            {
                a.to_string()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Prepares `dir` for `case`; `Err(reason)` if the case cannot be run here.
fn set_up(dir: &Path, setup: Setup) -> Result<(), String> {
    match setup {
        Setup::None => {}
        Setup::Text(name, text) => std::fs::write(dir.join(name), text).expect("write file"),
        Setup::Bytes(name, bytes) => std::fs::write(dir.join(name), bytes).expect("write file"),
        Setup::Dir(name) => std::fs::create_dir(dir.join(name)).expect("create dir"),
        Setup::Files(files) => {
            for (name, text) in files {
                std::fs::write(dir.join(name), text).expect("write file");
            }
        }
        Setup::All(setups) => {
            for setup in setups {
                set_up(dir, *setup)?;
            }
        }
        Setup::Symlink(name, target) => {
            std::os::unix::fs::symlink(target, dir.join(name)).expect("symlink");
        }
        Setup::HardLink(name, target) => {
            std::fs::hard_link(dir.join(target), dir.join(name)).expect("hard link");
        }
        Setup::Fifo(name) => {
            let status = Command::new("mkfifo")
                .arg(dir.join(name))
                .status()
                .map_err(|e| format!("cannot run mkfifo: {e}"))?;
            if !status.success() {
                return Err(format!("mkfifo failed: {status}"));
            }
        }
        Setup::Unreadable(name, text) => {
            use std::os::unix::fs::PermissionsExt;
            let path = dir.join(name);
            std::fs::write(&path, text).expect("write file");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000))
                .expect("chmod 000");
            if std::fs::read(&path).is_ok() {
                return Err(
                    "a file of mode 000 is still readable here (running as root?)".to_string(),
                );
            }
        }
    }
    Ok(())
}

/// The regular files directly in `dir` that can be read, with their bytes.
fn snapshot(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .filter_map(|e| Some((e.path(), std::fs::read(e.path()).ok()?)))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// What a refused command changed in its directory: every file set up for it must
/// keep its bytes (an input is never replaced by an output), and no temporary file of
/// an output may be left behind.
fn untouched(dir: &Path, before: &[(std::path::PathBuf, Vec<u8>)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, bytes) in before {
        match std::fs::read(path) {
            Ok(now) if &now == bytes => {}
            Ok(_) => problems.push(format!("{} was changed", path.display())),
            Err(e) => problems.push(format!("{} is gone: {e}", path.display())),
        }
    }
    for (path, _) in snapshot(dir) {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if name.ends_with(".part") || name.starts_with(".emu-check-") {
            problems.push(format!("a temporary file was left: {name}"));
        }
    }
    problems
}

/// Runs emu for `case` in `dir`, stdin null, output captured in files (no pipe can
/// fill), killed past [`TIME_LIMIT`] (None then).
fn run(dir: &Path, capture: &Path, case: &Case) -> Option<Outcome> {
    let mut cmd = Command::new(EMU);
    cmd.args(case.args).env_remove("RUST_BACKTRACE");
    common::run_captured(&mut cmd, dir, capture, TIME_LIMIT)
}

/// `text` as a Markdown code span in a table cell.
fn code_span(text: &str) -> String {
    let text = text.replace('|', "\\|");
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// The message cell of the document: the first line, cut if long, in a code span.
fn message_cell(line: &str, more_lines: usize) -> String {
    if line.is_empty() {
        return "(nothing on stderr)".to_string();
    }
    let mut text: String = line.chars().take(DOC_MESSAGE_CHARS).collect();
    if text.len() < line.len() {
        text.truncate(text.trim_end().len());
        text.push_str(" …");
    }
    let code = code_span(&text);
    if more_lines > 0 {
        format!("{code} (+{more_lines} more lines)")
    } else {
        code
    }
}

/// The input cell: the description, whether it is a known bug, and the command.
fn input_cell(case: &Case) -> String {
    let bug = if case.expected_bug.is_some() {
        " **bug**"
    } else {
        ""
    };
    format!(
        "{}{bug}: {}",
        case.input.replace('|', "\\|"),
        code_span(format!("emu {}", shell_words(case.args)).trim_end())
    )
}

const INTRO: &str = "\
# Every bad input and its message

emu meets a mistake with one line on stderr, starting `error: `, that names the file,
line, column and key (or the `--set`, flag or path) and says what would be right, and
exit code 2, before anything runs. This page lists every kind of bad input the tests try
and the first line of the message each gets: empty and binary files, syntax errors,
wrong types, extreme numbers, NaN and infinity, huge sizes, bad netlists and traffic
tables, bad `--set`s and flags, directories, FIFOs, missing and unreadable files,
subcommands; SCI rings and switch fabrics key by key, traces, sweeps, shards and
`emu merge`, replications, output paths, link faults, memory and time limits.

Exit code 2 is bad input ([exit codes](getting-started.md#when-something-is-wrong)).
The rows with exit code 1 are outputs that pass the checks before a run but cannot be
written after it (a full disk, `/dev/full`): the report is printed first, then the
error.

To find your message, search this page for a word of it. Long messages are cut (…).

## How the table is made

`tests/bad_input.rs` runs every row, each in a fresh temporary directory holding the
row's files, stdin null, with a 60 s limit. It checks the exit code, that stdout is
empty, that stderr is one line starting with `error: `, and that nothing panicked. The
same test writes this page and fails when the page is out of date; regenerate it with
`EMU_WRITE_BAD_INPUT_TABLE=1 cargo test --release --test integration bad_input::`.
Rows marked **bug** are what emu does today where that is wrong; they are listed under
[Known problems](#known-problems) and the test does not assert them. The
unreadable-file row cannot be run as root (mode 000 does not stop root reading); the
test then skips it and keeps the row as it was.

## The table
";

/// The document, given each case's row cells (exit code, message) where it ran, and
/// the previous document (rows of cases that did not run are kept from it).
fn render(cells: &[Option<(String, String)>], previous: &str) -> String {
    let mut old: HashMap<&str, &str> = HashMap::new();
    for line in previous.lines() {
        if let Some(rest) = line.strip_prefix("| ")
            && let Some((key, _)) = rest.split_once(" | ")
        {
            old.insert(key, line);
        }
    }
    let mut doc = String::from(INTRO);
    doc.push_str("\n| input | exit code | message |\n|---|---|---|\n");
    for (case, cell) in cases().into_iter().zip(cells) {
        let input = input_cell(case);
        match cell {
            Some((code, message)) => {
                writeln!(doc, "| {input} | {code} | {message} |").unwrap();
            }
            None => match old.get(input.as_str()) {
                Some(line) => writeln!(doc, "{line}").unwrap(),
                None => writeln!(
                    doc,
                    "| {input} | {} | {} |",
                    case.code,
                    message_cell(&format!("error: {}", case.message), 0)
                )
                .unwrap(),
            },
        }
    }
    doc.push_str("\n## Known problems\n\n");
    let bugs: Vec<&Case> = cases()
        .into_iter()
        .filter(|c| c.expected_bug.is_some())
        .collect();
    doc.push_str(if bugs.is_empty() {
        "None: every row above is what emu should do.\n"
    } else {
        "Each with what emu should do (the row's exit code and message) and the command.\n\n"
    });
    for case in bugs {
        if let Some(why) = case.expected_bug {
            writeln!(
                doc,
                "- {}: {}. Expected: exit {}, one line containing {}. Command: {}",
                case.input,
                why.trim_end_matches('.'),
                case.code,
                code_span(case.message),
                code_span(&format!("emu {}", shell_words(case.args)))
            )
            .unwrap();
        }
    }
    doc
}

#[test]
fn every_bad_input_gets_its_exit_code_and_one_line() {
    let started = Instant::now();
    let mut inputs: Vec<&str> = cases().into_iter().map(|c| c.input).collect();
    inputs.sort_unstable();
    if let Some(w) = inputs.windows(2).find(|w| w[0] == w[1]) {
        panic!("two cases have the input {:?}: make them distinct", w[0]);
    }
    let mut failures = Vec::new();
    let mut cells = Vec::with_capacity(cases().len());
    let (mut checked, mut skipped, mut bugs) = (0, 0, 0);
    for (i, case) in cases().into_iter().enumerate() {
        let dir = tempfile::Builder::new()
            .prefix(&format!("emu-bad-input-{i}-"))
            .tempdir()
            .expect("temp dir");
        let capture = tempfile::Builder::new()
            .prefix(&format!("emu-bad-input-capture-{i}-"))
            .tempdir()
            .expect("temp dir");
        if let Err(why) = set_up(dir.path(), case.setup) {
            println!("SKIPPED {:?}: {why}", case.input);
            skipped += 1;
            cells.push(None);
            continue;
        }
        let before = snapshot(dir.path());
        let Some(outcome) = run(dir.path(), capture.path(), case) else {
            let msg = format!(
                "case {:?}: emu {} did not finish within {TIME_LIMIT:?}",
                case.input,
                shell_words(case.args)
            );
            if case.expected_bug.is_some() {
                println!("KNOWN BUG (hangs) {msg}");
                bugs += 1;
            } else {
                failures.push(msg);
            }
            cells.push(None);
            continue;
        };
        let more = outcome.stderr.lines().count().saturating_sub(1);
        cells.push(Some((
            outcome.code.to_string(),
            message_cell(outcome.first_line(), more),
        )));
        let mut problems = outcome.problems(case);
        problems.extend(untouched(dir.path(), &before));
        match case.expected_bug {
            Some(why) => {
                bugs += 1;
                println!(
                    "KNOWN BUG {:?}: {why}\n  emu {}\n  now: exit {}, {} stderr line(s), first: {}\n  problems: {}",
                    case.input,
                    shell_words(case.args),
                    outcome.code,
                    outcome.stderr.lines().count(),
                    outcome.first_line(),
                    if problems.is_empty() {
                        "none: fixed? remove expected_bug".to_string()
                    } else {
                        problems.join("; ")
                    }
                );
            }
            None => {
                checked += 1;
                let rust = words::leftover_rust_words(outcome.first_line(), case);
                if !rust.is_empty() {
                    failures.push(format!(
                        "the message says {rust:?} (Rust's or serde's words, not emu's): {}\n  emu {}",
                        outcome.first_line(),
                        shell_words(case.args)
                    ));
                }
                if !problems.is_empty() {
                    failures.push(format!(
                        "{}\n{}",
                        problems.join("; "),
                        outcome.describe(case)
                    ));
                }
            }
        }
        // Make the unreadable file removable for the temp dir's cleanup.
        if let Setup::Unreadable(name, _) = case.setup {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(
                dir.path().join(name),
                std::fs::Permissions::from_mode(0o600),
            );
        }
    }
    println!(
        "{} cases: {checked} checked, {bugs} known bugs (not asserted), {skipped} skipped, in {:?}",
        cases().len(),
        started.elapsed()
    );

    // The document.
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join(DOC);
    let previous = std::fs::read_to_string(&doc_path).unwrap_or_default();
    let doc = render(&cells, &previous);
    if std::env::var_os("EMU_WRITE_BAD_INPUT_TABLE").is_some_and(|v| v == "1") {
        std::fs::write(&doc_path, &doc).expect("write book/src/bad-input.md");
        println!("wrote {}", doc_path.display());
    } else if doc != previous {
        let first = doc
            .lines()
            .zip(previous.lines().chain(std::iter::repeat("<end of file>")))
            .find(|(a, b)| a != b)
            .map(|(a, b)| format!("\n  now:  {a}\n  file: {b}"))
            .unwrap_or_default();
        failures.push(format!(
            "{DOC} is out of date (first difference below); rerun with EMU_WRITE_BAD_INPUT_TABLE=1 to regenerate it{first}"
        ));
    }

    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases().len(),
        failures.join("\n\n")
    );
}
