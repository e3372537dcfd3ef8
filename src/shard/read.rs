//! The one reader of shard files, for every kind of job: JSON lines, each a header
//! (a line with a `format` key) or one unit of the job (a sweep's run, a search's case,
//! a reproduction's experiment) under the last header, and for some formats an end line
//! that closes a shard. [`read`] checks what every format shares (syntax, the format
//! tag and emu version, headers of one job, units before any header, units twice with
//! different results, shards without their end line) and gives every unit by its key;
//! a [`Format`] says what its header and unit lines hold and words its own refusals.
//! Each format then checks that no unit is missing ([`MergeError::Missing`]).

use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::fmt;

/// One kind of shard file: its lines and its words.
pub trait Format {
    /// The header line.
    type Header: Clone + DeserializeOwned;
    /// A unit's place in the job's order.
    type Key: Ord + Copy;
    /// What a unit line gives.
    type Unit;
    /// Why a unit line does not belong to its header's shard or job.
    type Stray: fmt::Display + fmt::Debug;
    /// Why a header is not of the same job as the first one.
    type Difference: fmt::Display + fmt::Debug;

    /// The format tag of the header line, e.g. `emu-sweep-shard/1`.
    const TAG: &'static str;
    /// The job in "not a line of an emu … shard".
    const JOB: &'static str;
    /// The job in "a shard of another …".
    const NOUN: &'static str;
    /// A unit in "a … before any header line".
    const UNIT: &'static str;
    /// What units hold, in "appears twice with different …".
    const RESULTS: &'static str;
    /// The key of the line that ends a shard, if the format has one: a shard without it
    /// is incomplete.
    const END: Option<&'static str> = None;

    /// The emu version that wrote the header, if the format records it (a header of
    /// another version is refused).
    fn version(header: &Self::Header) -> Option<&str>;
    /// Why the header is not one emu writes, if it is not; the header may be put in
    /// its merged form (a sweep's header without its shard).
    fn check(header: &mut Self::Header) -> Result<(), &'static str>;
    /// The header's `[K, N]`.
    fn shard(header: &Self::Header) -> [u32; 2];
    /// How `header` (at `at`) is another job than `first` (at `first_at`), if it is.
    fn differ(
        first: &Self::Header,
        first_at: &str,
        header: &Self::Header,
    ) -> Option<Self::Difference>;
    /// Reads a unit line under `header`.
    fn unit(header: &Self::Header, value: serde_json::Value) -> UnitRead<Self>;
    /// True if two lines of one unit say different things (`raw` is each line as
    /// written, trimmed).
    fn conflict(a: (&str, &Self::Unit), b: (&str, &Self::Unit)) -> bool;
    /// The unit of `header`'s job in words, e.g. "run 3" or "case 4".
    fn name(header: &Self::Header, key: Self::Key) -> String;
}

/// A unit line read: its key and unit, or why not.
pub type UnitRead<F> =
    Result<(<F as Format>::Key, <F as Format>::Unit), UnitError<<F as Format>::Stray>>;

/// A unit of a job that its line's shard does not run, for formats that name the unit
/// and the shard.
#[derive(Debug)]
pub struct NotMine {
    /// The unit in words, e.g. "case 4".
    pub unit: String,
    /// The shard, `[K, N]`.
    pub shard: [u32; 2],
}

impl fmt::Display for NotMine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [k, n] = self.shard;
        write!(f, "{} is not one of shard {k}/{n}'s", self.unit)
    }
}

/// The units of a job that no shard file has.
#[derive(Debug)]
pub struct Missing {
    /// How many.
    pub missing: usize,
    /// Of how many, in words: "2 runs", "the 7 cases the search needs".
    pub of: String,
    /// The first missing unit in words, with what says where it runs: "case 2, shard
    /// 2/3".
    pub first: String,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {} are missing (first: {}); merge every shard's file",
            self.missing, self.of, self.first
        )
    }
}

/// Why a unit line is not read.
#[derive(Debug)]
pub enum UnitError<S> {
    /// Not a unit line of the format: what the parser said.
    Syntax(String),
    /// A unit of another shard or of no such job.
    Stray(S),
}

impl<S> From<serde_json::Error> for UnitError<S> {
    fn from(e: serde_json::Error) -> Self {
        UnitError::Syntax(emu_core::config::plain::plain(&e.to_string()))
    }
}

/// The two commands of two shards that are not one job, for formats whose header names
/// its command and number of shards.
#[derive(Debug)]
pub struct OtherCommand {
    /// The shard's command.
    pub command: String,
    /// Its number of shards.
    pub shards: u32,
    /// The first header's command.
    pub first_command: String,
    /// The first header's number of shards.
    pub first_shards: u32,
    /// Where the first header is.
    pub first: String,
}

impl OtherCommand {
    /// The difference between the first header, `(command, shards)` at `first`, and
    /// another, if `differ`.
    pub fn when(
        differ: bool,
        (first_command, first_shards): (&str, u32),
        first: &str,
        (command, shards): (&str, u32),
    ) -> Option<OtherCommand> {
        differ.then(|| OtherCommand {
            command: command.to_string(),
            shards,
            first_command: first_command.to_string(),
            first_shards,
            first: first.to_string(),
        })
    }
}

impl fmt::Display for OtherCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` in {} shards, not `{}` in {} as {}",
            self.command, self.shards, self.first_command, self.first_shards, self.first
        )
    }
}

/// Why shard files do not make one job of format `F`.
pub enum MergeError<F: Format> {
    /// A line is not JSON of the format.
    Syntax {
        /// File name.
        file: String,
        /// Line number, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A unit (or end) line before any header.
    NoHeader {
        /// File name.
        file: String,
        /// Line number.
        line: usize,
    },
    /// A header of another format or format version.
    Format {
        /// File name.
        file: String,
        /// Line number.
        line: usize,
        /// The format found.
        found: String,
    },
    /// A shard written by another emu version.
    Version {
        /// File name.
        file: String,
        /// Line number.
        line: usize,
        /// The version found.
        found: String,
    },
    /// A header of another job than the first one.
    Other {
        /// File name.
        file: String,
        /// Line number.
        line: usize,
        /// How it differs.
        difference: F::Difference,
    },
    /// A unit the header's shard or job does not have.
    Stray {
        /// File name.
        file: String,
        /// Line number.
        line: usize,
        /// Which unit, and why.
        stray: F::Stray,
    },
    /// A shard whose end line is missing (a process that did not finish).
    Incomplete {
        /// File name.
        file: String,
        /// The header's line.
        line: usize,
        /// The shard, `[K, N]`.
        shard: [u32; 2],
    },
    /// The same unit twice with different results.
    Conflict {
        /// File name.
        file: String,
        /// Line number.
        line: usize,
        /// The unit in words ([`Format::name`]).
        unit: String,
    },
    /// Units no file has.
    Missing(Missing),
    /// No header at all.
    Empty,
}

impl<F: Format> fmt::Display for MergeError<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Syntax { file, line, reason } => write!(
                f,
                "{file}:{line}: not a line of an emu {} shard ({reason})",
                F::JOB
            ),
            MergeError::NoHeader { file, line } => {
                write!(f, "{file}:{line}: a {} before any header line", F::UNIT)
            }
            MergeError::Format { file, line, found } => write!(
                f,
                "{file}:{line}: format \"{found}\" is not this emu's \"{}\": make the shard again with this emu",
                F::TAG
            ),
            MergeError::Version { file, line, found } => write!(
                f,
                "{file}:{line}: written by emu {found}, and this is emu {}: merge with the emu that made the shards",
                env!("CARGO_PKG_VERSION")
            ),
            MergeError::Other {
                file,
                line,
                difference,
            } => write!(
                f,
                "{file}:{line}: a shard of another {} ({difference})",
                F::NOUN
            ),
            MergeError::Stray { file, line, stray } => write!(f, "{file}:{line}: {stray}"),
            MergeError::Incomplete { file, line, shard } => write!(
                f,
                "{file}:{line}: shard {}/{} is incomplete (it has no end line): run it again",
                shard[0], shard[1]
            ),
            MergeError::Conflict { file, line, unit } => write!(
                f,
                "{file}:{line}: {unit} appears twice with different {}",
                F::RESULTS
            ),
            MergeError::Missing(m) => write!(f, "{m}"),
            MergeError::Empty => write!(f, "no shard header in the input"),
        }
    }
}

impl<F: Format> fmt::Debug for MergeError<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MergeError({self})")
    }
}

impl<F: Format> std::error::Error for MergeError<F> {}

/// What the shard files of one job hold: the first header and every unit by key.
pub struct Read<F: Format> {
    /// The first header read, in its merged form ([`Format::check`]).
    pub header: F::Header,
    /// Every unit, in key order.
    pub units: BTreeMap<F::Key, F::Unit>,
}

/// Reads shard files given as `(name, text)`; a file may hold several shards one after
/// the other (the output of `parallel`). A unit given twice with the same result counts
/// once.
pub fn read<F: Format>(files: &[(String, String)]) -> Result<Read<F>, MergeError<F>> {
    let mut first: Option<(F::Header, String)> = None;
    // By key: the line as written (for duplicates) and the unit.
    let mut units: BTreeMap<F::Key, (String, F::Unit)> = BTreeMap::new();
    for (file, text) in files {
        // The header whose units are being read, and its line.
        let mut current: Option<(F::Header, usize)> = None;
        let incomplete = |(h, at): (F::Header, usize)| MergeError::Incomplete {
            file: file.clone(),
            line: at,
            shard: F::shard(&h),
        };
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            let raw = raw.trim();
            if raw.is_empty() {
                continue;
            }
            let syntax = |reason: String| MergeError::Syntax {
                file: file.clone(),
                line,
                reason,
            };
            let plain =
                |e: serde_json::Error| syntax(emu_core::config::plain::plain(&e.to_string()));
            let value: serde_json::Value = serde_json::from_str(raw).map_err(plain)?;
            if !value.is_object() {
                return Err(syntax(format!(
                    "each line is a JSON object, a header or a {}",
                    F::UNIT
                )));
            }
            if let Some(format) = value.get("format") {
                if F::END.is_some()
                    && let Some(open) = current.take()
                {
                    return Err(incomplete(open));
                }
                let found = format.as_str().unwrap_or_default().to_string();
                if found != F::TAG {
                    return Err(MergeError::Format {
                        file: file.clone(),
                        line,
                        found,
                    });
                }
                let mut h: F::Header = serde_json::from_value(value).map_err(plain)?;
                if let Some(found) = F::version(&h)
                    && found != env!("CARGO_PKG_VERSION")
                {
                    return Err(MergeError::Version {
                        file: file.clone(),
                        line,
                        found: found.to_string(),
                    });
                }
                F::check(&mut h).map_err(|reason| syntax(reason.to_string()))?;
                match &first {
                    None => first = Some((h.clone(), format!("{file}:{line}"))),
                    Some((f, at)) => {
                        if let Some(difference) = F::differ(f, at, &h) {
                            return Err(MergeError::Other {
                                file: file.clone(),
                                line,
                                difference,
                            });
                        }
                    }
                }
                current = Some((h, line));
                continue;
            }
            if let Some(end) = F::END
                && value.get(end).is_some()
            {
                if current.take().is_none() {
                    return Err(MergeError::NoHeader {
                        file: file.clone(),
                        line,
                    });
                }
                continue;
            }
            let Some((h, _)) = &current else {
                return Err(MergeError::NoHeader {
                    file: file.clone(),
                    line,
                });
            };
            let (key, unit) = F::unit(h, value).map_err(|e| match e {
                UnitError::Syntax(reason) => syntax(reason),
                UnitError::Stray(stray) => MergeError::Stray {
                    file: file.clone(),
                    line,
                    stray,
                },
            })?;
            match units.get(&key) {
                Some((seen, u)) if F::conflict((seen, u), (raw, &unit)) => {
                    return Err(MergeError::Conflict {
                        file: file.clone(),
                        line,
                        unit: F::name(h, key),
                    });
                }
                Some(_) => {}
                None => {
                    units.insert(key, (raw.to_string(), unit));
                }
            }
        }
        if F::END.is_some()
            && let Some(open) = current
        {
            return Err(incomplete(open));
        }
    }
    let (header, _) = first.ok_or(MergeError::Empty)?;
    Ok(Read {
        header,
        units: units.into_iter().map(|(k, (_, u))| (k, u)).collect(),
    })
}
