//! The text report's `faults` lines: which links died during a run, when, why, and
//! the tokens they lost (docs/architecture.md "Link faults").

use super::format::group;
use super::text::line;
use crate::engine::faults::FaultReport;

/// Writes one line per link that died, or one saying that none did.
pub(crate) fn write_faults(out: &mut String, f: &FaultReport) {
    if f.links_down.is_empty() {
        let scheduled = match f.scheduled {
            0 => String::new(),
            n => format!("{n} scheduled by faults.link_down, none before the run ended; "),
        };
        line(
            out,
            "faults",
            &format!(
                "no link died ({scheduled}token error rate {})",
                f.token_error_rate
            ),
        );
        return;
    }
    line(
        out,
        "faults",
        &format!(
            "{} link{} died, {} tokens lost",
            f.links_down.len(),
            if f.links_down.len() == 1 { "" } else { "s" },
            group(f.tokens_lost)
        ),
    );
    for l in &f.links_down {
        line(out, "", &l.to_string());
    }
}
