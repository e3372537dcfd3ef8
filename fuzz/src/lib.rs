//! What the fuzz targets share: building a case from in-memory files the way
//! `emu::session::AnyCase::load` does from files on disk, and the checks every built
//! plan must pass.

use emu::config::load::{load_topology_text, load_traffic_text};
use emu::config::topology::NetworkConfig;
use emu::config::traffic::InjectionConfig;
use emu::config::validate_sets;
use emu::model::LinkProtocol;
use emu::network::{self, Network};
use emu::session::{AnyCase, Case, CaseVisitor};
use emu::traffic::trace::parse;

/// A topology file, a traffic file, `--set` arguments and the trace the traffic may
/// name, all in memory.
#[derive(Debug, Default)]
pub struct CaseText<'a> {
    /// The topology file's text.
    pub topology: &'a str,
    /// The traffic file's text.
    pub traffic: &'a str,
    /// `--set` arguments, one a line.
    pub sets: Vec<String>,
    /// The trace file a trace traffic names (whatever its name).
    pub trace: &'a str,
    /// The run seed.
    pub seed: u64,
}

/// The input format of the `case` target: UTF-8, fields separated by NUL bytes:
/// topology, traffic, `--set` lines, trace, seed (missing fields are empty; seed 1).
pub fn split(data: &[u8]) -> Option<CaseText<'_>> {
    let text = std::str::from_utf8(data).ok()?;
    let mut fields = text.split('\0');
    let topology = fields.next().unwrap_or("");
    let traffic = fields.next().unwrap_or("");
    let sets = fields
        .next()
        .unwrap_or("")
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    let trace = fields.next().unwrap_or("");
    let seed = fields
        .next()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1);
    Some(CaseText {
        topology,
        traffic,
        sets,
        trace,
        seed,
    })
}

/// Joins the fields as [`split`] reads them.
pub fn join(c: &CaseText<'_>) -> Vec<u8> {
    format!(
        "{}\0{}\0{}\0{}\0{}",
        c.topology,
        c.traffic,
        c.sets.join("\n"),
        c.trace,
        c.seed
    )
    .into_bytes()
}

/// What a built plan came out as: its family, node count and memory estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Built {
    /// Nodes in the plan.
    pub nodes: usize,
    /// `Network::memory_need()`: (as built, at worst), bytes.
    pub need: (u64, u64),
}

/// Loads and builds the case as `AnyCase::load` does (`validate_sets`, both files with
/// their overrides, then the family's builder; a fabric gets the parsed trace when its
/// traffic is a trace), and checks the plan. `Err` is the one-line message the
/// command line would print (exit 2).
pub fn build_case(c: &CaseText<'_>) -> Result<Built, String> {
    let result = build_case_inner(c);
    if *DEBUG {
        eprintln!("EMU_FUZZ_DEBUG: {result:?}");
    }
    result
}

/// `EMU_FUZZ_DEBUG=1`: every target prints what each input came to (run a target on
/// its corpus with `-runs=0` to see which inputs build).
pub static DEBUG: std::sync::LazyLock<bool> =
    std::sync::LazyLock::new(|| std::env::var_os("EMU_FUZZ_DEBUG").is_some());

fn build_case_inner(c: &CaseText<'_>) -> Result<Built, String> {
    validate_sets(&c.sets).map_err(|e| e.to_string())?;
    let topo =
        load_topology_text("fuzz-topology.toml", c.topology, &c.sets).map_err(|e| e.to_string())?;
    let traf =
        load_traffic_text("fuzz-traffic.toml", c.traffic, &c.sets).map_err(|e| e.to_string())?;
    // A trace given in memory goes straight to the fabric's builder (the family reads
    // its trace from a file beside the traffic file); every other case is built by its
    // family through the registry, as the command line does.
    if let (NetworkConfig::Fabric(_), InjectionConfig::Trace { .. }) =
        (&topo.config.network, &traf.config.injection)
    {
        let trace = parse(c.trace).map_err(|e| format!("trace: {e}"))?;
        let net = network::fabric_from_config(
            "fuzz-topology",
            &topo.config,
            &traf.config,
            c.seed,
            Some(&trace),
        )
        .map_err(|e| e.to_string())?;
        return Ok(check(&net));
    }
    let case = AnyCase::from_loaded(topo, traf, c.seed, None).map_err(|e| e.to_string())?;
    Ok(case.visit(Check))
}

/// [`check`] of a case of any family.
pub struct Check;

impl CaseVisitor for Check {
    type Output = Built;
    fn visit<P: LinkProtocol>(self, case: &Case<P>) -> Built {
        check(&case.net)
    }
}

/// The checks every built plan must pass: the memory estimate is computed without
/// panicking and its two figures are in order.
pub fn check<P: LinkProtocol>(net: &Network<P>) -> Built {
    let need = net.memory_need();
    assert!(
        need.least <= need.most,
        "memory_need: as built {} > at worst {}",
        need.least,
        need.most
    );
    Built {
        nodes: net.nodes().len(),
        need: (need.least, need.most),
    }
}
