//! The one way the fabric experiments build and run a fabric: validate a configuration
//! written in code, build the plan with each input's traffic, run it on the reference
//! engine, and read a part's statistics back.

use super::super::ReproduceError;
use crate::engine::{self, RunControl, RunOutcome};
use crate::model::PartStats;
use crate::network::{FabricRun, fabric};
use crate::parts::fabric::config::{FabricConfig, FabricSpec};
use crate::parts::fabric::{Arrivals, Destinations};

/// The configuration of an `ports`-port fabric with every other key at its default,
/// changed by `edit`, validated.
pub fn spec(
    ports: u32,
    edit: impl FnOnce(&mut FabricConfig),
) -> Result<FabricSpec, ReproduceError> {
    let mut cfg: FabricConfig = toml::from_str(&format!("ports = {ports}"))?;
    edit(&mut cfg);
    cfg.validate()
        .map_err(|e| ReproduceError::FabricSetup(format!("{e}")))
}

/// Runs `spec` with `run`, input i creating `traffic(i)`; `label` names the run in errors.
pub fn run(
    label: &str,
    spec: &FabricSpec,
    run: &FabricRun,
    traffic: impl Fn(u16) -> (Arrivals, Destinations),
) -> Result<RunOutcome, ReproduceError> {
    let net = fabric(label, spec, run, traffic)
        .map_err(|e| ReproduceError::FabricSetup(format!("{e}")))?;
    engine::sequential::run(&net, &RunControl::for_plan(&net), None).map_err(|e| {
        ReproduceError::Engine {
            run: label.to_string(),
            source: Box::new(e),
        }
    })
}

/// What node `id` reported about itself (empty if nothing).
pub fn part(out: &RunOutcome, id: usize) -> PartStats {
    out.parts
        .iter()
        .find(|(n, _)| *n == id)
        .map(|(_, s)| s.clone())
        .unwrap_or_default()
}
