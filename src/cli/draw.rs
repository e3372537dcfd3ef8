//! The pictures of a deadlock written to a `--plot DIR`: a run's wait-for cycle
//! (`deadlock.svg`) and `emu check`'s cycle of channels (`cdg-cycle.svg`), drawn by
//! [`emu::plot::deadlock`].

use emu::deadlock::CycleStep;
use emu::deadlock::check::CycleChannel;
use emu::engine::StuckNode;
use emu::model::LinkProtocol;
use emu::network::Network;
use std::path::Path;

/// The file a deadlocked run's picture is written to in `--plot DIR`.
pub const DEADLOCK_SVG: &str = "deadlock.svg";
/// The file `emu check --plot DIR` draws its cycle of channels in.
pub const CDG_CYCLE_SVG: &str = "cdg-cycle.svg";

/// Draws a run's deadlock in `dir/deadlock.svg`; an error is the message to print.
pub fn deadlock<P: LinkProtocol>(
    dir: &Path,
    title: &str,
    net: &Network<P>,
    cycle: Option<&[CycleStep]>,
    stuck: &[StuckNode],
) -> Result<(), String> {
    let svg = emu::plot::deadlock::deadlock_svg(title, net, cycle.unwrap_or_default(), stuck)
        .map_err(|e| e.to_string())?;
    write(dir, DEADLOCK_SVG, &svg)
}

/// The title of a deadlocked run's picture: network, traffic and tick.
pub fn deadlock_title<P: LinkProtocol>(net: &Network<P>, traffic: &str, tick: u64) -> String {
    format!(
        "deadlock · {} · {} · tick {tick}",
        net.name(),
        emu::session::stem(traffic)
    )
}

/// The picture of a run that failed with `e`, if it deadlocked (for `--report`); a
/// picture that cannot be drawn is printed and left out.
pub fn deadlock_picture<P: LinkProtocol>(
    net: &Network<P>,
    traffic: &str,
    e: &emu::engine::EngineError,
) -> Option<String> {
    let emu::engine::EngineError::Deadlock {
        tick, cycle, stuck, ..
    } = e
    else {
        return None;
    };
    let title = deadlock_title(net, traffic, *tick);
    emu::plot::deadlock::deadlock_svg(&title, net, cycle.as_deref().unwrap_or_default(), stuck)
        .map_err(|err| note!("error: {err}"))
        .ok()
}

/// Draws `emu check`'s cycle of channels in `dir/cdg-cycle.svg`; an error is the
/// message to print.
pub fn cdg_cycle<P: LinkProtocol>(
    dir: &Path,
    title: &str,
    net: &Network<P>,
    cycle: &[CycleChannel],
) -> Result<(), String> {
    let svg = emu::plot::deadlock::cdg_cycle_svg(title, net, cycle).map_err(|e| e.to_string())?;
    write(dir, CDG_CYCLE_SVG, &svg)
}

fn write(dir: &Path, file: &str, svg: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(file);
    super::output::write(&path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
