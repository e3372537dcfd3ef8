//! What emu must do with any input, checked on one run: an allowed exit code, no panic, a
//! one-line `error: ` on bad input, no Rust type names, and an end within the time limit.

use std::fmt;
use std::sync::LazyLock;

use regex::Regex;

use crate::emu::{Outcome, Status};

/// The exit codes a run may end with: ok, bad input, deadlock, refused as too large.
pub const ALLOWED_EXIT_CODES: &[i32] = &[0, 2, 3, 5];

/// Words that show a panic.
const PANIC_WORDS: &[&str] = &["panicked", "RUST_BACKTRACE", "thread '"];

/// Words of Rust's types and of serde's messages that a user should never see.
static TYPE_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b(?:u8|u16|u32|u64|u128|usize|i8|i16|i32|i64|i128|isize|f32|f64)\b",
        r"|struct |enum |variant index|sequence|untagged|\\u\{|\bOption\b|Some\(|\bNone\b",
        r"|invalid digit",
        r"|\b[A-Z][A-Za-z0-9]+(?:Config|Spec)\b",
    ))
    .expect("the pattern is a valid regex")
});

/// What a violation is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// An exit code outside [`ALLOWED_EXIT_CODES`], or death by a signal.
    ExitCode,
    /// A panic message.
    Panic,
    /// Exit 2 without exactly one stderr line starting `error: `.
    ErrorShape,
    /// A Rust type name or serde wording on stderr.
    TypeWord,
    /// No exit within the time limit.
    Timeout,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::ExitCode => "exit code",
            Self::Panic => "panic",
            Self::ErrorShape => "error not one line",
            Self::TypeWord => "Rust type word",
            Self::Timeout => "timeout",
        })
    }
}

/// One broken rule, with the evidence (a line of stderr, the exit code, the word).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule broken.
    pub rule: Rule,
    /// What showed it.
    pub evidence: String,
}

/// Every rule the run broke.
pub fn violations(outcome: &Outcome) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut add = |rule, evidence: String| out.push(Violation { rule, evidence });
    let stderr = outcome.stderr.as_str();
    match outcome.status {
        Status::Exited(code) if ALLOWED_EXIT_CODES.contains(&code) => {}
        Status::Exited(code) => add(Rule::ExitCode, format!("exit code {code}")),
        Status::Signal(signal) => add(Rule::ExitCode, format!("killed by signal {signal}")),
        Status::TimedOut => add(
            Rule::Timeout,
            format!("still running after {:.1} s", outcome.wall.as_secs_f64()),
        ),
    }
    let printed = format!("{}\n{stderr}", outcome.stdout);
    if let Some(line) = printed
        .lines()
        .find(|line| PANIC_WORDS.iter().any(|w| line.contains(w)))
    {
        add(Rule::Panic, line.to_owned());
    }
    if outcome.status == Status::Exited(2) {
        let lines: Vec<&str> = stderr.trim_end().lines().collect();
        match lines.as_slice() {
            [line] if line.starts_with("error: ") => {}
            [] => add(Rule::ErrorShape, "nothing on stderr".to_owned()),
            [first, ..] if !first.starts_with("error: ") => {
                add(Rule::ErrorShape, format!("first line: {first}"))
            }
            [_, extra, ..] => add(
                Rule::ErrorShape,
                format!("{} lines; the second: {extra}", lines.len()),
            ),
            [_] => add(Rule::ErrorShape, "does not start with `error: `".to_owned()),
        }
    }
    for line in stderr.lines() {
        if let Some(word) = TYPE_WORDS.find(line) {
            add(Rule::TypeWord, format!("`{}` in: {line}", word.as_str()));
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn outcome(status: Status, stderr: &str) -> Outcome {
        Outcome {
            status,
            wall: Duration::from_millis(10),
            stdout: String::new(),
            stderr: stderr.to_owned(),
        }
    }

    fn rules(status: Status, stderr: &str) -> Vec<Rule> {
        violations(&outcome(status, stderr))
            .iter()
            .map(|v| v.rule)
            .collect()
    }

    #[test]
    fn a_clean_refusal_passes() {
        assert!(
            rules(
                Status::Exited(2),
                "error: t.toml:3:1: network.nodes: must be 2 to 1024\n"
            )
            .is_empty()
        );
        assert!(rules(Status::Exited(0), "").is_empty());
        assert!(rules(Status::Exited(3), "error: deadlock\nwait-for cycle\n").is_empty());
    }

    #[test]
    fn catches_each_rule() {
        assert_eq!(rules(Status::Exited(1), "error: x"), [Rule::ExitCode]);
        assert_eq!(rules(Status::Signal(9), ""), [Rule::ExitCode]);
        assert_eq!(rules(Status::TimedOut, ""), [Rule::Timeout]);
        assert_eq!(
            rules(
                Status::Exited(101),
                "thread 'main' panicked at src/x.rs:1:2:\nboom"
            ),
            [Rule::ExitCode, Rule::Panic]
        );
        assert_eq!(
            rules(Status::Exited(2), "error: bad\nhint: try"),
            [Rule::ErrorShape]
        );
        assert_eq!(rules(Status::Exited(2), "bad"), [Rule::ErrorShape]);
        assert_eq!(rules(Status::Exited(2), ""), [Rule::ErrorShape]);
        assert_eq!(
            rules(
                Status::Exited(2),
                "error: invalid type: integer, expected u32"
            ),
            [Rule::TypeWord]
        );
    }

    #[test]
    fn type_words_are_whole_words() {
        for bad in [
            "expected usize",
            "invalid value: -1, expected u64",
            "unknown variant `x`, expected struct LinkConfig",
            "expected a sequence",
            "data did not match any variant of untagged enum X",
            "invalid digit found in string",
            "got Some(3)",
            "expected Option<f64>",
            "a TopologySpec",
            "an SCIConfig",
            "\\u{feff}hypercube",
        ] {
            assert!(TYPE_WORDS.is_match(bad), "{bad}");
        }
        for fine in [
            "must be 1 to 32 (a C104 has 32 links)",
            "u32x is not a word here",
            "Configuration and Spec alone",
            "none of the options",
            "-1e308 is not a number of ticks",
        ] {
            assert!(!TYPE_WORDS.is_match(fine), "{fine}");
        }
    }
}
