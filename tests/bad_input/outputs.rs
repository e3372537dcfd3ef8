//! Bad input on output files: an output that would replace one of the command's
//! inputs (by the same path, a `./` path, a symbolic link or a hard link), two outputs
//! that are one file under different spellings, several outputs on standard output,
//! and outputs that are not regular files (a FIFO, a device other than `/dev/null`).
//! Every row is refused before any work, with the inputs left as they were (the table's
//! harness checks each set-up file keeps its bytes). Same rules as the table in
//! `bad_input.rs`.

use super::{Case, Setup, bad};

/// A 2-cube topology file.
const TOPO: &str = "[network]\nkind = \"hypercube\"\ndimensions = 2\n";

/// A traffic file: uniform Bernoulli traffic at 5 %.
const TRAFFIC: &str = "[pattern]\nkind = \"uniform\"\n[injection]\nkind = \"rate\"\nload = 0.05\n";

/// A 4-port fabric.
const FABRIC: &str = "[network]\nkind = \"fabric\"\nports = 4\n";

/// A traffic file replaying `my.trace`.
const TRACE_TRAFFIC: &str = "[injection]\nkind = \"trace\"\nfile = \"my.trace\"\n";

/// A one-packet trace.
const TRACE: &str = "0 0 1 1\n";

/// The topology file, `topo.toml`.
const T: Setup = Setup::Text("topo.toml", TOPO);

/// The topology and traffic files.
const TP: Setup = Setup::Files(&[("topo.toml", TOPO), ("traf.toml", TRAFFIC)]);

pub static CASES: &[Case] = &[
    // ---- An output that is an input ----
    bad(
        "`--json` naming the topology file",
        &["-t", "topo.toml", "-p", "uniform", "--json", "topo.toml"],
        T,
        "--json topo.toml: that is the topology file topo.toml; writing there would destroy it",
    ),
    bad(
        "`--report` naming the topology file as `./topo.toml`",
        &[
            "-t",
            "topo.toml",
            "-p",
            "uniform",
            "--report",
            "./topo.toml",
        ],
        T,
        "--report ./topo.toml: that is the topology file topo.toml",
    ),
    bad(
        "`--trace` naming the traffic file",
        &["-t", "topo.toml", "-p", "traf.toml", "--trace", "traf.toml"],
        TP,
        "--trace traf.toml: that is the traffic file traf.toml",
    ),
    bad(
        "`--vcd` naming a symbolic link to the topology file",
        &[
            "-t",
            "topo.toml",
            "-p",
            "uniform",
            "--vcd",
            "link.toml",
            "--watch",
            "c104[0]:0",
        ],
        Setup::All(&[T, Setup::Symlink("link.toml", "topo.toml")]),
        "--vcd link.toml: that is the topology file topo.toml",
    ),
    bad(
        "`--json` naming a hard link to the traffic file",
        &["-t", "topo.toml", "-p", "traf.toml", "--json", "hard.toml"],
        Setup::All(&[TP, Setup::HardLink("hard.toml", "traf.toml")]),
        "--json hard.toml: that is the traffic file traf.toml",
    ),
    bad(
        "`--json` naming the trace a traffic file replays",
        &["-t", "fab.toml", "-p", "tr.toml", "--json", "my.trace"],
        Setup::Files(&[
            ("fab.toml", FABRIC),
            ("tr.toml", TRACE_TRAFFIC),
            ("my.trace", TRACE),
        ]),
        "--json my.trace: that is the trace file my.trace",
    ),
    bad(
        "`--plot` naming the topology file",
        &["-t", "topo.toml", "-p", "uniform", "--plot", "topo.toml"],
        T,
        "--plot topo.toml: that is the topology file topo.toml",
    ),
    bad(
        "`emu merge --csv` naming one of its shards",
        &["merge", "p1.jsonl", "p2.jsonl", "--csv", "p1.jsonl"],
        Setup::Files(&[("p1.jsonl", "{}\n"), ("p2.jsonl", "{}\n")]),
        "--csv p1.jsonl: that is the shard file p1.jsonl",
    ),
    bad(
        "`emu stress --out` naming the topology file",
        &["stress", "-t", "topo.toml", "--out", "topo.toml"],
        T,
        "--out topo.toml: that is the topology file topo.toml",
    ),
    bad(
        "`emu check --json` naming the topology file",
        &["check", "-t", "topo.toml", "--json", "topo.toml"],
        T,
        "--json topo.toml: that is the topology file topo.toml",
    ),
    bad(
        "`emu sweep --plan` naming the traffic file",
        &[
            "sweep",
            "-t",
            "topo.toml",
            "-p",
            "traf.toml",
            "--plan",
            "traf.toml",
        ],
        TP,
        "--plan traf.toml: that is the traffic file traf.toml",
    ),
    bad(
        "`emu sweep --out` naming the topology file",
        &[
            "sweep",
            "-t",
            "topo.toml",
            "-p",
            "traf.toml",
            "--shard",
            "1/2",
            "--out",
            "topo.toml",
        ],
        TP,
        "--out topo.toml: that is the topology file topo.toml",
    ),
    // ---- Two outputs that are one file ----
    bad(
        "`--json` and `--report` to one file under two spellings",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--json",
            "same.out",
            "--report",
            "./same.out",
        ],
        Setup::None,
        "--json and --report name the same place (same.out and ./same.out)",
    ),
    bad(
        "`--json` and `--trace` to a file and its symbolic link",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--json",
            "a.out",
            "--trace",
            "b.out",
        ],
        Setup::All(&[
            Setup::Text("a.out", "old\n"),
            Setup::Symlink("b.out", "a.out"),
        ]),
        "--json and --trace name the same place (a.out and b.out)",
    ),
    bad(
        "`emu sweep --csv` and `--json` to a file and its hard link",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--csv",
            "a.csv",
            "--json",
            "b.json",
        ],
        Setup::All(&[
            Setup::Text("a.csv", "old\n"),
            Setup::HardLink("b.json", "a.csv"),
        ]),
        "--csv and --json name the same place (a.csv and b.json)",
    ),
    bad(
        "two outputs on standard output",
        &[
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--json",
            "-",
            "--trace",
            "-",
        ],
        Setup::None,
        "--json and --trace both name - (standard output): only one output can go there",
    ),
    bad(
        "`--plot -` (a directory of pictures on standard output)",
        &["-t", "hypercube6", "-p", "uniform", "--plot", "-"],
        Setup::None,
        "--plot -: --plot writes several files into a directory, so it cannot be standard output",
    ),
    // ---- Outputs that are not regular files ----
    bad(
        "`--json` naming a FIFO",
        &["-t", "hypercube6", "-p", "uniform", "--json", "fifo"],
        Setup::Fifo("fifo"),
        "--json fifo: is a FIFO, not a regular file",
    ),
    bad(
        "`emu sweep --plan` naming a FIFO",
        &[
            "sweep",
            "-t",
            "hypercube6",
            "-p",
            "uniform",
            "--plan",
            "fifo",
        ],
        Setup::Fifo("fifo"),
        "--plan fifo: is a FIFO, not a regular file",
    ),
    bad(
        "`--report /dev/zero` (a device)",
        &["-t", "hypercube6", "-p", "uniform", "--report", "/dev/zero"],
        Setup::None,
        "--report /dev/zero: is a device, not a regular file",
    ),
];
