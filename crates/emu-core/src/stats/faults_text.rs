//! The text report's `faults` lines: which links died during a run, when, why, and
//! the tokens they lost (docs/architecture.md "Link faults").

use super::format::group;
use crate::engine::faults::FaultReport;

/// One (label, text) line per link that died, or one saying that none did.
pub(crate) fn fault_lines(f: &FaultReport) -> Vec<(&'static str, String)> {
    if f.links_down.is_empty() {
        let scheduled = match f.scheduled {
            0 => String::new(),
            n => format!("{n} scheduled by faults.link_down, none before the run ended; "),
        };
        return vec![(
            "faults",
            format!(
                "no link died ({scheduled}token error rate {})",
                f.token_error_rate
            ),
        )];
    }
    let mut lines = vec![(
        "faults",
        format!(
            "{} link{} died, {} tokens lost",
            f.links_down.len(),
            if f.links_down.len() == 1 { "" } else { "s" },
            group(f.tokens_lost)
        ),
    )];
    lines.extend(f.links_down.iter().map(|l| ("", l.to_string())));
    lines
}
