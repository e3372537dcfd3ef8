//! Bad input whose refusal must speak in emu's own words: a type error names the key's
//! real range, never its storage type's ("from 0 to 4294967295") nor serde's phrases
//! ("expected unit", "map with a single key"); ranges are "1 to 20", never `1..=20`;
//! numbers are short; and inputs that would give a wrong answer are refused (an empty
//! sweep, a deadlock window shorter than a working network's silences,
//! `request_response` on a family that has no such traffic). Same rules as the table in `bad_input.rs`; [`leftover_rust_words`] is the
//! check every row's message passes.

use super::{Case, Setup, bad};

/// The words and marks of Rust, serde and toml that no message may show: a Rust range,
/// serde's "expected …" and "invalid type", a storage type, serde's "map" and "unit".
const RUST_WORDS: [&str; 6] = ["..", "expected", "u32", "map", "unit", "invalid type"];

/// What `line` (a row's message) still says in Rust's or serde's words, leaving out
/// the user's own text: each word of the line that is part of what the case gave
/// (its arguments, or the files it set up, where a key's own name may hold the word)
/// is not counted.
pub(super) fn leftover_rust_words(line: &str, case: &Case) -> Vec<&'static str> {
    let mut given = case.args.join(" ");
    setup_text(case.setup, &mut given);
    let kept: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || ":,;()`\"'=".contains(c))
        .filter(|w| !w.is_empty() && !given.contains(*w))
        .collect();
    let text = format!(" {} ", kept.join(" "));
    RUST_WORDS
        .into_iter()
        .filter(|w| {
            if *w == ".." {
                text.contains("..")
            } else {
                text.contains(&format!(" {w} "))
            }
        })
        .collect()
}

/// Appends the names and texts of `setup`'s files to `out`.
fn setup_text(setup: Setup, out: &mut String) {
    match setup {
        Setup::Text(name, text) | Setup::Unreadable(name, text) => {
            out.push_str(&format!(" {name} {text}"));
        }
        Setup::Bytes(name, bytes) => {
            out.push_str(&format!(" {name} {}", String::from_utf8_lossy(bytes)));
        }
        Setup::Dir(name) | Setup::Fifo(name) => out.push_str(&format!(" {name}")),
        Setup::Symlink(name, target) | Setup::HardLink(name, target) => {
            out.push_str(&format!(" {name} {target}"));
        }
        Setup::Files(files) => {
            for (name, text) in files {
                out.push_str(&format!(" {name} {text}"));
            }
        }
        Setup::All(all) => {
            for s in all {
                setup_text(*s, out);
            }
        }
        Setup::None => {}
    }
}

/// Rate traffic at 5 % on every terminal.
const RATE: &str = "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"rate\"\nload = 0.05\n";

pub static CASES: &[Case] = &[
    // ---- A type error names the key's own range ----
    bad(
        "`--set link.bit_rate_mbit_s=true`: the key's range, not a u32's",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "link.bit_rate_mbit_s=true",
        ],
        Setup::None,
        "--set link.bit_rate_mbit_s=true: `true`: give a whole number from 1 to 1,000,000",
    ),
    bad(
        "`--set packet.header_bytes=true`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "packet.header_bytes=true",
        ],
        Setup::None,
        "--set packet.header_bytes=true: `true`: give 1 or 2",
    ),
    bad(
        "`--set vcp.channels=-1`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "vcp.channels=-1",
        ],
        Setup::None,
        "--set vcp.channels=-1: the number `-1`: give a whole number from 1 to 4,096",
    ),
    bad(
        "`--set network.hops=x` on a relay ring",
        &[
            "-t",
            "relay-ring",
            "-p",
            "relay-balls",
            "--set",
            "network.hops=x",
        ],
        Setup::None,
        "--set network.hops=x: the text \"x\": give a whole number from 1 to 1,000,000",
    ),
    bad(
        "a date for a number: `--set network.dimensions=1979-05-27`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.dimensions=1979-05-27",
        ],
        Setup::None,
        "--set network.dimensions=1979-05-27: a date: give a whole number from 1 to 20",
    ),
    bad(
        "a date in a file: `bit_rate_mbit_s = 1979-05-27`",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 2\n[link]\nbit_rate_mbit_s = 1979-05-27\n",
        ),
        "t.toml:5:19: link.bit_rate_mbit_s: a date: give a whole number from 1 to 1,000,000",
    ),
    // ---- A choice of names given something else ----
    bad(
        "a table of two keys for a routing: `--set network.routing={a=1,b=2}`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.routing={a=1,b=2}",
        ],
        Setup::None,
        "--set network.routing={a=1,b=2}: a table: give \"deterministic\" or \"universal\"",
    ),
    bad(
        "a value under a routing's name: `--set network.routing={universal=1}`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.routing={universal=1}",
        ],
        Setup::None,
        "--set network.routing={universal=1}: the number `1`: give \"deterministic\" or \"universal\"",
    ),
    bad(
        "a number for a routing: `--set network.routing=1`",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--set",
            "network.routing=1",
        ],
        Setup::None,
        "--set network.routing=1: the number `1`: give \"deterministic\" or \"universal\"",
    ),
    // ---- Ranges in words ----
    bad(
        "a port past a switch's last: `link = \"c104[1]:7\"` on a 2-cube",
        &[
            "-t",
            "t.toml",
            "-p",
            "uniform",
            "--set",
            "phases.measure_us=10",
        ],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 2\n[[faults.link_down]]\nlink = \"c104[1]:7\"\nat_us = 1\n",
        ),
        "faults.link_down[0].link: c104[1] has ports 0 to 2, not 7",
    ),
    bad(
        "`--set network.side=1` on a grid",
        &["-t", "grid16", "-p", "uniform", "--set", "network.side=1"],
        Setup::None,
        "--set network.side=1: 1: give 2 to 256 switches per side",
    ),
    bad(
        "`--set network.switches=1` on a ring",
        &[
            "-t",
            "ring4",
            "-p",
            "uniform",
            "--set",
            "network.switches=1",
        ],
        Setup::None,
        "--set network.switches=1: 1: give a whole number from 2 to 4,096",
    ),
    bad(
        "`emu sweep --seeds 0` (clap's range in words)",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--load",
            "0.1",
            "--seeds",
            "0",
        ],
        Setup::None,
        "0 is not from 1 to",
    ),
    // ---- Syntax: a missing `]` is its own line's ----
    bad(
        "a list's `]` missing at the end of its line",
        &["-t", "n.toml", "-p", "uniform"],
        Setup::Text(
            "n.toml",
            "[network]\nkind = \"netlist\"\nswitches = [4, 4\nterminals = [[0, 0], [0, 1], [1, 0], [1, 1]]\n",
        ),
        "n.toml:3:17: network.switches: unclosed list: write `]` here (or `,` if the list goes on)",
    ),
    bad(
        "a table header's `]` missing",
        &["-t", "t.toml", "-p", "uniform"],
        Setup::Text(
            "t.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 6\n[link\nbit_rate_mbit_s = 10\n",
        ),
        "t.toml:4:6: link: unclosed table: write `]` here",
    ),
    // ---- Times: the reason, and numbers for people ----
    bad(
        "`--trace-window 1e9:1e10`: past any run, not backwards",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--trace",
            "t.jsonl",
            "--trace-window",
            "1e9:1e10",
        ],
        Setup::None,
        "--trace-window 1e9:1e10: 1e10 µs is not a time a run reaches: give times from 0 to 1,000,000,000 µs",
    ),
    bad(
        "a fabric's link fault after the run: `at_us = 1e6`",
        &[
            "-t",
            "fabric16-grant",
            "-p",
            "p.toml",
            "--set",
            "faults.link_down=[{link=\"adapter[0]:0\",at_us=1e6}]",
        ],
        Setup::Text(
            "p.toml",
            concat!(
                "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"rate\"\nload = 0.05\n",
                "[phases]\nwarmup_us = 100.1\nmeasure_us = 1000\n"
            ),
        ),
        "1000000 µs is not a time of the run: give 0 to 11,100.108 µs (the run's hard stop)",
    ),
    // ---- Refusals for inputs that give wrong answers ----
    bad(
        "`emu sweep --load 0.1:0.5:1e-300`: no sweep of zero loads",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--load",
            "0.1:0.5:1e-300",
        ],
        Setup::None,
        "about 4e299 loads from 0.1 to 0.5 in steps of 1e-300 is too many: give a step that makes at most 10,000 loads",
    ),
    bad(
        "`emu sweep --load 0.1:0.5:0.00001`: too many loads",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--load",
            "0.1:0.5:0.00001",
        ],
        Setup::None,
        "40,001 loads from 0.1 to 0.5 in steps of 1e-5 is too many",
    ),
    bad(
        "`--deadlock-window-us 0.001` on an SCI ring",
        &[
            "-t",
            "sci-ring4",
            "-p",
            "sci-uniform",
            "--deadlock-window-us",
            "0.001",
        ],
        Setup::None,
        "--deadlock-window-us 0.001: sci-ring4 may go 0.008 µs without moving a token and still be working (a symbol's hop from one node to the next, 4 cycles, SCI §4): give at least 0.008",
    ),
    bad(
        "`--deadlock-window-us 1` on a switch fabric",
        &[
            "-t",
            "fabric16-grant",
            "-p",
            "bernoulli98",
            "--deadlock-window-us",
            "1",
        ],
        Setup::None,
        "--deadlock-window-us 1: fabric16-grant may go 3.277 µs without moving a token",
    ),
    bad(
        "`--deadlock-window-us 0.001` on a relay ring",
        &[
            "-t",
            "relay-ring",
            "-p",
            "relay-balls",
            "--deadlock-window-us",
            "0.001",
        ],
        Setup::None,
        "--deadlock-window-us 0.001: relay-ring8 may go 0.008 µs without moving a token",
    ),
    bad(
        "`--deadlock-window-us 0.1` on a network of C104s",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--deadlock-window-us",
            "0.1",
        ],
        Setup::None,
        "--deadlock-window-us 0.1: hypercube6 may go 1 µs without moving a token and still be working",
    ),
    bad(
        "`request_response = true` on a network of C104s",
        &["-t", "hypercube6", "-p", "p.toml"],
        Setup::Text(
            "p.toml",
            "request_response = true\n[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"continuous\"\n",
        ),
        "request_response does not apply to a network of C104s (request/response traffic is defined for SCI rings only, SCI §4.7)",
    ),
    bad(
        "`request_response = true` on a switch fabric",
        &["-t", "fabric16-grant", "-p", "p.toml"],
        Setup::Text(
            "p.toml",
            concat!(
                "request_response = true\n",
                "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"rate\"\nload = 0.05\n"
            ),
        ),
        "request_response does not apply to a switch fabric (request/response traffic is defined for SCI rings only, SCI §4.7)",
    ),
    // ---- A bare name finds NAME.toml here, and says when it shadows a shipped one ----
    bad(
        "`-t my-cube` reads ./my-cube.toml",
        &["-t", "my-cube", "-p", "uniform"],
        Setup::Text(
            "my-cube.toml",
            "[network]\nkind = \"hypercube\"\ndimensions = 0\n",
        ),
        "my-cube.toml:3:1: network.dimensions: 0: give a whole number from 1 to 20",
    ),
    bad(
        "`-t hypercube6` with a ./hypercube6.toml: the local file, named as a path",
        &["-t", "hypercube6", "-p", "r.toml"],
        Setup::Files(&[
            (
                "hypercube6.toml",
                "[network]\nkind = \"hypercube\"\ndimensions = 0\n",
            ),
            ("r.toml", RATE),
        ]),
        "./hypercube6.toml:3:1: network.dimensions: 0: give a whole number from 1 to 20",
    ),
];
