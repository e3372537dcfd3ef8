//! Netlist topologies (`network.kind = "netlist"`, crates/emu-core/src/network/netlist/) drawn by the
//! fuzzer: switches, terminals, links and given or computed tables, written out as a
//! topology file, loaded and built with one of the shipped traffic files. Port counts,
//! ports, switch numbers and labels reach a little past their valid ranges, so the
//! checks are exercised as well as the builder.
#![no_main]

use arbitrary::Arbitrary;
use emu::config::shipped_traffic;
use libfuzzer_sys::fuzz_target;
use std::fmt::Write;

#[derive(Arbitrary, Debug)]
struct Drawn {
    /// Port counts: taken mod 35 (1..=32 is valid).
    switches: Vec<u8>,
    /// [switch, port] of each terminal.
    terminals: Vec<(u8, u8)>,
    /// [switch_a, port_a, switch_b, port_b].
    links: Vec<(u8, u8, u8, u8)>,
    /// Given tables ([lo, hi, port] per switch), or none to compute them.
    tables: Option<Vec<Vec<(u16, u16, u8)>>>,
    /// Parents of a spanning tree added to `links` (switch i > 0 linked to
    /// `parent[i-1] % i` on the highest free ports of both), so that most drawn
    /// networks are connected.
    tree: Option<Vec<u8>>,
    /// 1 or 2 byte headers (1 when the input runs out), now and then 0 or 3.
    header_bytes: u8,
    /// Which shipped traffic file.
    traffic: u8,
    /// Pattern override: none, or one of a few.
    pattern: u8,
}

/// `v` reduced to `0..=limit`: small values stay as they are.
fn cap(v: u32, limit: u32) -> u32 {
    v % (limit + 1)
}

fn topology(d: &Drawn) -> String {
    let n = d.switches.len() as u32;
    let mut t = String::from("[network]\nkind = \"netlist\"\nswitches = [");
    for s in &d.switches {
        let _ = write!(t, "{}, ", cap(u32::from(*s), 34));
    }
    t.push_str("]\nterminals = [");
    for (s, p) in &d.terminals {
        let _ = write!(
            t,
            "[{}, {}], ",
            cap(u32::from(*s), n),
            cap(u32::from(*p), 33)
        );
    }
    t.push_str("]\nlinks = [");
    if let Some(parents) = &d.tree {
        let mut top: Vec<u32> = d.switches.iter().map(|s| cap(u32::from(*s), 34)).collect();
        for (i, parent) in parents
            .iter()
            .enumerate()
            .take(d.switches.len().saturating_sub(1))
        {
            let child = i + 1;
            let parent = usize::from(*parent) % child;
            top[child] = top[child].saturating_sub(1);
            top[parent] = top[parent].saturating_sub(1);
            let _ = write!(t, "[{child}, {}, {parent}, {}], ", top[child], top[parent]);
        }
    }
    for (a, pa, b, pb) in &d.links {
        let _ = write!(
            t,
            "[{}, {}, {}, {}], ",
            cap(u32::from(*a), n),
            cap(u32::from(*pa), 33),
            cap(u32::from(*b), n),
            cap(u32::from(*pb), 33)
        );
    }
    t.push_str("]\n");
    if let Some(tables) = &d.tables {
        let labels = d.terminals.len() as u32 + 1;
        t.push_str("tables = [");
        for table in tables {
            t.push('[');
            for (lo, hi, port) in table {
                let _ = write!(
                    t,
                    "[{}, {}, {}], ",
                    cap(u32::from(*lo), labels),
                    cap(u32::from(*hi), labels + 1),
                    cap(u32::from(*port), 33)
                );
            }
            t.push_str("], ");
        }
        t.push_str("]\n");
    }
    let _ = write!(
        t,
        "\n[link]\nbuffer_tokens = \"packet\"\n\n[packet]\nheader_bytes = {}\n\n\
         [c104]\noutput_buffer_tokens = \"packet\"\n\n[vcp]\nacknowledge = false\n",
        match d.header_bytes % 8 {
            6 => 0,
            7 => 3,
            h => 1 + u32::from(h % 2),
        }
    );
    t
}

fuzz_target!(|drawn: Drawn| {
    let traffic = shipped_traffic();
    let traffic = traffic[drawn.traffic as usize % traffic.len()].1;
    let sets = match drawn.pattern % 6 {
        0 | 1 => vec![],
        2 => vec!["pattern={kind=\"bitrev\"}".to_string()],
        3 => vec!["pattern={kind=\"transpose\"}".to_string()],
        4 => vec!["pattern={kind=\"uniform\"}".to_string()],
        _ => vec![format!(
            "pattern={{kind=\"fixed\", destination={}}}",
            drawn.pattern / 6
        )],
    };
    let case = emu_fuzz::CaseText {
        topology: &topology(&drawn),
        traffic,
        sets,
        trace: "",
        seed: 1,
    };
    let _ = emu_fuzz::build_case(&case);
});
