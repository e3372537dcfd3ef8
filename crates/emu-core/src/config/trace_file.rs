//! Reading the trace file a traffic file names (`injection.kind = "trace"`): a relative
//! path is taken from the traffic file's directory; a shipped traffic file's trace is
//! shipped too (embedded in the binary).

use super::error::ConfigError;
use super::input::{TRACE, read_file};
use super::load::Loaded;
use super::source::Origin;
use super::traffic::{InjectionConfig, TrafficConfig};
use crate::traffic::trace::{TraceLine, parse};
use std::path::Path;

/// The traces shipped beside the shipped traffic files.
static TRACES: &[(&str, &str)] = &[(
    "fabric-small.trace",
    include_str!("../../../../traffic/fabric-small.trace"),
)];

/// The trace file on disk that `traffic` names, if its injection is a trace read from
/// a file (a shipped traffic file's trace is embedded, not on disk): a relative path is
/// taken from the traffic file's directory.
pub fn trace_path(traffic: &Loaded<TrafficConfig>) -> Option<std::path::PathBuf> {
    let InjectionConfig::Trace { file } = &traffic.config.injection else {
        return None;
    };
    match &traffic.file.origin {
        Origin::Shipped => None,
        Origin::Path(p) => Some(p.parent().unwrap_or(Path::new("")).join(file)),
    }
}

/// The parsed trace of `traffic` if its injection is a trace, else `None`. Errors name
/// the trace file and line.
pub(crate) fn load_trace(
    traffic: &Loaded<TrafficConfig>,
) -> Result<Option<Vec<TraceLine>>, ConfigError> {
    let InjectionConfig::Trace { file } = &traffic.config.injection else {
        return Ok(None);
    };
    if file.trim().is_empty() {
        return Err(ConfigError::new(format!(
            "{}: injection.file: \"\" is not a file name: give the trace's path",
            traffic.locate("injection.file")
        )));
    }
    let (shown, text) = match &traffic.file.origin {
        Origin::Shipped => {
            let text = TRACES
                .iter()
                .find(|(name, _)| name == file)
                .map(|(_, t)| (*t).to_string())
                .ok_or_else(|| {
                    ConfigError::new(format!(
                        "{}: injection.file {} is not a shipped trace",
                        traffic.file.name,
                        super::input::excerpt(file)
                    ))
                })?;
            (file.clone(), text)
        }
        Origin::Path(_) => {
            let path = trace_path(traffic).unwrap_or_default();
            let shown = path.display().to_string();
            let text = read_file(&path, &shown, TRACE).map_err(|e| {
                ConfigError::new(format!("{}: injection.file: {e}", traffic.file.name))
            })?;
            (shown, text)
        }
    };
    parse(&text)
        .map(Some)
        .map_err(|e| ConfigError::new(format!("{shown}: {e}")))
}
