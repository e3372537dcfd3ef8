//! The report: a table per file (mutants, exits by code, findings), the findings grouped
//! into classes, and every finding with its reproducer command and stderr.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;

use crate::check::Rule;
use crate::emu::Status;
use crate::mutate::Mutant;
use crate::run::Record;
use crate::subject::Subject;

/// One mutated file and its runs.
#[derive(Debug)]
pub struct FileRuns<'a> {
    /// The file.
    pub subject: &'a Subject,
    /// The shipped file its mutants ran with.
    pub partner: &'a Subject,
    /// Its mutants.
    pub mutants: Vec<Mutant>,
    /// Their runs, in the same order.
    pub records: Vec<Record>,
}

/// Everything the report shows.
#[derive(Debug)]
pub struct Summary<'a> {
    /// How the tool was run: form, emu, arguments.
    pub heading: String,
    /// The files mutated.
    pub files: Vec<FileRuns<'a>>,
    /// The files skipped, and why.
    pub skipped: Vec<String>,
    /// The wall time of the whole run.
    pub wall: Duration,
}

/// The exit codes given a column of their own.
const COLUMNS: &[i32] = &[0, 2, 3, 5];

impl Summary<'_> {
    /// The number of mutants run.
    pub fn mutants(&self) -> usize {
        self.files.iter().map(|f| f.records.len()).sum()
    }

    /// The number of runs that broke a rule or could not be made.
    pub fn findings(&self) -> usize {
        self.files
            .iter()
            .flat_map(|f| &f.records)
            .filter(|r| !r.violations.is_empty() || r.error.is_some())
            .count()
    }

    /// The whole report as text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "{}\n", self.heading);
        self.table(&mut out);
        if !self.skipped.is_empty() {
            let _ = writeln!(out, "\nskipped ({}):", self.skipped.len());
            for why in &self.skipped {
                let _ = writeln!(out, "  {why}");
            }
        }
        self.classes(&mut out);
        self.each_finding(&mut out);
        let _ = writeln!(
            out,
            "\n{} mutants of {} files run, {} findings, wall time {}",
            self.mutants(),
            self.files.len(),
            self.findings(),
            clock(self.wall)
        );
        out
    }

    fn table(&self, out: &mut String) {
        let _ = write!(out, "{:<45} {:<44} {:>7}", "file", "partner", "mutants");
        for code in COLUMNS {
            let _ = write!(out, " {:>6}", format!("exit {code}"));
        }
        let _ = writeln!(out, " {:>6} {:>7} {:>8}", "other", "timeout", "findings");
        let mut totals = [0usize; 7];
        for file in &self.files {
            let mut row = [0usize; 7];
            row[0] = file.records.len();
            for record in &file.records {
                match record.status {
                    Some(Status::Exited(code)) => match COLUMNS.iter().position(|&c| c == code) {
                        Some(column) => row[1 + column] += 1,
                        None => row[5] += 1,
                    },
                    Some(Status::TimedOut) => row[6] += 1,
                    Some(Status::Signal(_)) | None => row[5] += 1,
                }
            }
            let findings = file
                .records
                .iter()
                .filter(|r| !r.violations.is_empty() || r.error.is_some())
                .count();
            for (total, n) in totals.iter_mut().zip(row) {
                *total += n;
            }
            let name = format!("{}/{}", file.subject.role.dir(), file.subject.name);
            let partner = format!("{}/{}", file.partner.role.dir(), file.partner.name);
            row_line(out, &name, &partner, &row, findings);
        }
        row_line(out, "total", "", &totals, self.findings());
    }

    fn classes(&self, out: &mut String) {
        let mut classes: BTreeMap<(Rule, String), Vec<&Record>> = BTreeMap::new();
        for record in self.files.iter().flat_map(|f| &f.records) {
            for violation in &record.violations {
                classes
                    .entry((violation.rule, pattern(&violation.evidence)))
                    .or_default()
                    .push(record);
            }
        }
        if classes.is_empty() {
            return;
        }
        let _ = writeln!(out, "\nfinding classes ({}):", classes.len());
        for ((rule, pattern), records) in &classes {
            let _ = writeln!(out, "\n  [{} mutants] {rule}: {pattern}", records.len());
            for record in records.iter().take(3) {
                if let Some(command) = &record.command {
                    let _ = writeln!(out, "    {command}");
                }
            }
        }
    }

    fn each_finding(&self, out: &mut String) {
        let mut n = 0;
        for file in &self.files {
            for (mutant, record) in file.mutants.iter().zip(&file.records) {
                if record.violations.is_empty() && record.error.is_none() {
                    continue;
                }
                if n == 0 {
                    let _ = writeln!(out, "\nfindings:");
                }
                n += 1;
                let _ = writeln!(
                    out,
                    "\n#{n} {}/{}: {} ({}, {:.2} s)",
                    file.subject.role.dir(),
                    file.subject.name,
                    mutant.label,
                    record
                        .status
                        .map_or("not run".to_owned(), |s| s.to_string()),
                    record.wall.as_secs_f64()
                );
                for violation in &record.violations {
                    let _ = writeln!(
                        out,
                        "  {}: {}",
                        violation.rule,
                        shorten(&violation.evidence, 300)
                    );
                }
                if let Some(error) = &record.error {
                    let _ = writeln!(out, "  could not run: {error}");
                }
                if let Some(command) = &record.command {
                    let _ = writeln!(out, "  run: {command}");
                }
                for line in &record.stderr_head {
                    let _ = writeln!(out, "  | {}", shorten(line, 300));
                }
            }
        }
    }
}

fn row_line(out: &mut String, name: &str, partner: &str, row: &[usize; 7], findings: usize) {
    let _ = write!(out, "{name:<45} {partner:<44} {:>7}", row[0]);
    for n in &row[1..] {
        let _ = write!(out, " {n:>6}");
    }
    let _ = writeln!(out, " {findings:>8}");
}

/// Minutes and seconds.
pub fn clock(wall: Duration) -> String {
    let s = wall.as_secs_f64();
    format!("{}m{:04.1}s", (s / 60.0).floor(), s % 60.0)
}

/// At most `max` characters of the text.
fn shorten(text: &str, max: usize) -> String {
    let chars = text.chars().count();
    if chars <= max {
        text.to_owned()
    } else {
        let head: String = text.chars().take(max).collect();
        format!("{head}… ({chars} characters)")
    }
}

static PATHS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\S*/(?:topologies|traffic)/[^\s:]+").expect("the pattern is a valid regex")
});
static QUOTED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""(?:[^"\\]|\\.)*""#).expect("the pattern is a valid regex"));
static NUMBERS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"-?\d+(?:[.,]\d+)*(?:[eE][+-]?\d+)?").expect("the pattern is a valid regex")
});

/// The evidence without what changes from mutant to mutant: file names, quoted values
/// and numbers; one class of finding per pattern.
pub fn pattern(evidence: &str) -> String {
    let text = PATHS.replace_all(evidence, "FILE");
    let text = QUOTED.replace_all(&text, "\"…\"");
    let text = NUMBERS.replace_all(&text, "N");
    shorten(&text, 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_forget_folders_values_and_numbers() {
        assert_eq!(
            pattern(
                "first line: error: /tmp/x/run-1/traffic/uniform.toml:12:3: message.bytes: \"aaaa\" is 10,000 long"
            ),
            "first line: error: FILE:N:N: message.bytes: \"…\" is N long"
        );
    }

    #[test]
    fn clock_reads_minutes_and_seconds() {
        assert_eq!(clock(Duration::from_millis(125_500)), "2m05.5s");
    }
}
