//! `emu check` from outside: is a topology's routing deadlock-free?

use super::Input;
use super::error::{Error, ErrorKind};
use crate::deadlock::check::CheckReport;
use crate::family::check::{CheckPlan, check_plan_of};

/// What `emu check` answers for one topology.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checked {
    /// True if no deadlock is possible: the channel dependency graph has no cycle, or
    /// the network's family cannot deadlock.
    pub deadlock_free: bool,
    /// The answer as `emu check` prints it.
    pub text: String,
    json: String,
}

impl Checked {
    /// The answer as `emu check --json FILE` writes it, byte for byte: the counts and
    /// the cycle of channels found, if any, or why the family cannot deadlock.
    pub fn to_json(&self) -> &str {
        &self.json
    }
}

/// Loads `topology` with the topology overrides of `sets` (a traffic key is an error),
/// validates it as its family reads it, refusing a network that would need more than
/// `memory_limit` bytes (`None`: no limit), and looks for a cycle in its channel
/// dependency graph, as `emu check` does.
pub fn check(
    topology: &Input,
    sets: &[String],
    memory_limit: Option<u64>,
) -> Result<Checked, Error> {
    match check_plan_of(topology, sets, memory_limit)? {
        CheckPlan::Channels(net) => {
            let report = CheckReport::of(&net)
                .map_err(|e| Error::message(ErrorKind::Engine, format!("{}: {e}", net.name())))?;
            Ok(Checked {
                deadlock_free: report.cycle.is_none(),
                text: report.render_text(),
                json: report.to_json(),
            })
        }
        CheckPlan::Impossible(i) => Ok(Checked {
            deadlock_free: true,
            text: i.render_text(),
            json: serde_json::to_string_pretty(&i.to_json_value()).unwrap_or_default() + "\n",
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_answers_as_emu_check_does() {
        let e_cube = check(&Input::shipped("hypercube6"), &[], None).expect("checks");
        assert!(e_cube.deadlock_free);
        let single = check(&Input::shipped("torus4-single"), &[], None).expect("checks");
        assert!(!single.deadlock_free);
        let doc: serde_json::Value = serde_json::from_str(single.to_json()).expect("JSON");
        assert!(
            doc["check"]["cycle"]
                .as_array()
                .is_some_and(|c| !c.is_empty())
        );
        let ring = check(&Input::shipped("sci-ring4"), &[], None).expect("checks");
        assert!(ring.deadlock_free);
        assert!(
            ring.text.starts_with("topology    sci-ring4 (an SCI ring"),
            "{}",
            ring.text
        );
        let e = check(
            &Input::shipped("hypercube6"),
            &["message.bytes=4".into()],
            None,
        )
        .expect_err("a traffic key");
        assert_eq!(e.kind(), ErrorKind::Config);
    }
}
