//! One run as the command line does it, for every front end (the `emu` binary, tests,
//! benchmarks, reproductions): load the two files with their `--set` overrides, build
//! the plan, derive the run control, and turn an engine's outcome into the report.

pub use crate::config::stem;
pub use crate::family::check::{CheckPlan, Impossible, check_plan, topology_plan};
pub use crate::family::{AnyCase, Case, CaseError, CaseVisitor};

/// Quotes `s` for a POSIX shell if it needs it, so that a printed reproduce command can
/// be pasted back as it is: words of letters, digits and `-_./=:,+@%` (never special in
/// an argument after the command name) stay as they are, anything else gets shlex's
/// quoting; a NUL byte, which no shell argument can hold, is left out.
pub fn shell_quote(s: &str) -> String {
    let clean: String = s.chars().filter(|&c| c != '\0').collect();
    let plain = !clean.is_empty()
        && clean
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        return clean;
    }
    shlex::try_quote(&clean).map_or(clean.clone(), |q| q.into_owned())
}
