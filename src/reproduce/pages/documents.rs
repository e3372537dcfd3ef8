//! The five source documents (docs/sources.md), one validation page each. A report
//! belongs to the document its section names first (`INMOS ch. 7 §7.6-7.7`,
//! `SCI §4.4`, …): the experiments are grouped by what they say, not by a list here.

/// A source document and its page.
#[derive(Debug, PartialEq, Eq)]
pub struct Document {
    /// The short name the code and docs cite it by, e.g. `INMOS ch. 6`.
    pub name: &'static str,
    /// What it is about, a few words for the index.
    pub subject: &'static str,
    /// The page's title.
    pub title: &'static str,
    /// The page's file name.
    pub file: &'static str,
    /// What the document is and what emu takes from it, one paragraph.
    pub about: &'static str,
    /// Where the document's rules are checked other than by `emu reproduce`: shown
    /// when no experiment reproduces one of its numbers (empty if nothing is).
    pub checked_elsewhere: &'static str,
}

/// The documents, in the order of the pages.
pub static DOCUMENTS: [Document; 5] = [
    Document {
        name: "INMOS ch. 6",
        subject: "DS-Link, virtual channel, C104",
        title: "INMOS ch. 6: Models of DS-Link Performance",
        file: "inmos-ch6.md",
        about: "Analytic models of the DS-Link, the T9000's virtual channel processor and \
                the C104 router: link bandwidth against message size (§6.1, Table 6.1), \
                long links and the flow-control slack (§6.2.1-6.2.2), one acknowledged \
                virtual channel (§6.2.3), the C104's contention model (§6.3.1-6.3.6) and \
                its worst-case routing delay (§6.3.7).",
        checked_elsewhere: "",
    },
    Document {
        name: "INMOS ch. 7",
        subject: "C104 networks",
        title: "INMOS ch. 7: Performance of C104 Networks",
        file: "inmos-ch7.md",
        about: "A simulation study of networks of C104 routers (C. Barnaby and M.D. May, \
                1993): hypercubes, grids and multistage networks under random and \
                systematic traffic, with and without universal routing (§7.6-7.7, \
                Tables 7.1-7.9, Figure 7.8).",
        checked_elsewhere: "",
    },
    Document {
        name: "SCI",
        subject: "SCI rings",
        title: "SCI: Analysis of the SCI Ring",
        file: "sci.md",
        about: "S.L. Scott, J.R. Goodman and M.K. Vernon's analysis of one SCI ring: an \
                analytic model (App. A) and a cycle-by-cycle simulation, uniform traffic, \
                starvation, hot senders, active buffers, sink rates, the bus comparison, \
                request/response and the latency breakdown (§4.1-4.8, Figures 3-14).",
        checked_elsewhere: "",
    },
    Document {
        name: "Gramsamer",
        subject: "switch fabrics",
        title: "Switch fabrics: Gramsamer, Scalable Flow Control for Interconnection Networks",
        file: "fabrics.md",
        about: "F. Gramsamer's dissertation on flow control between switch adapters and a \
                buffered crossbar: bimodal traffic (§2.5.1), the buffer each flow-control \
                scheme needs (§4.3), the formulas of chapters 5 and 6, and the simulations of chapter 7 (fairness, \
                credit queues, parallel departures, the strategies at the design point, \
                memory, link length and non-uniform traffic).",
        checked_elsewhere: "",
    },
    Document {
        name: "Proteus",
        subject: "network timing",
        title: "Proteus: network timing",
        file: "proteus.md",
        about: "The network section of the Proteus simulator's manual (§Crossbar, \
                §Datapath Widths, §Message Timing, §MTime). It is a manual, not a study: \
                it prints a latency formula, tLat = wIn + wOut + wNWI + \
                distance · (WIRE_DELAY + SWITCH_DELAY) + tX, which Proteus uses to \
                validate its networks to within twenty cycles, and the per-message \
                journey record of §MTime, but no measured results.",
        checked_elsewhere: "emu takes a rule from Proteus, not a number: it checks an exact \
                version of the §Message Timing identity, latency = source wait + the \
                path's uncontended delay + input waits + output waits + transfer, with \
                zero ticks of tolerance, for every message on a fixed path of a DS-Link \
                network run under `--check` (a miss ends the run with exit 4), and it \
                reports the §MTime breakdown as each run's journey table \
                (`docs/journeys.md`). The tests that hold the identity are in \
                `tests/network.rs` (`a_lone_message_waits_only_for_null_tokens_and_its_journey_adds_up`, \
                `the_timing_check_fails_when_the_plan_is_not_the_one_that_ran`, \
                `without_check_no_identity_records_are_kept`) and `tests/cli.rs` \
                (`journeys_add_up_in_the_report_and_check_says_what_it_checked`); the \
                check itself is `crates/emu-core/src/network/timing.rs`.",
    },
];

/// The document a report's section names: the one whose short name starts it,
/// followed by a space. `None` if it names none.
pub fn document_of(section: &str) -> Option<&'static Document> {
    DOCUMENTS.iter().find(|d| {
        section
            .strip_prefix(d.name)
            .is_some_and(|rest| rest.starts_with(' '))
    })
}
