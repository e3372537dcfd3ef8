//! Jobs split over processes or machines besides sweeps ([`crate::sweep::shard`]):
//! reproductions ([`reproduce`]) and stress searches ([`stress`]). Each shard file is
//! JSON lines after a header that names its format, the emu version, the command and
//! the plan; `emu merge` tells the kinds apart by the header's `format`
//! ([`kind_of`]) and refuses a mix. One reader ([`read`]) checks what the three
//! formats share.

pub mod read;
pub mod reproduce;
pub mod stress;

use std::collections::BTreeMap;

/// What a shard file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A slice of a sweep's runs (`emu sweep --shard`).
    Sweep,
    /// A share of a reproduction's experiments (`emu reproduce --shard`).
    Reproduce,
    /// A share of a stress search's cases (`emu stress --shard`).
    Stress,
}

impl Kind {
    /// The job's name as the error messages say it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sweep => "sweep",
            Kind::Reproduce => "reproduce",
            Kind::Stress => "stress",
        }
    }

    /// The kind whose header carries the format tag `format` (any version: a shard of
    /// another version is refused by that kind's merge, which says so).
    pub fn of_format(format: &str) -> Option<Kind> {
        let family = format.split('/').next().unwrap_or_default();
        match family {
            "emu-sweep-shard" => Some(Kind::Sweep),
            "emu-reproduce-shard" => Some(Kind::Reproduce),
            "emu-stress-shard" => Some(Kind::Stress),
            _ => None,
        }
    }
}

/// Why shard files cannot be merged as one job.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum KindError {
    /// Shards of different jobs.
    #[error(
        "{first} holds a {} shard and {second} a {} shard: merge the shards of one job at a time",
        first_kind.name(),
        second_kind.name()
    )]
    Mixed {
        /// Where the first header is.
        first: String,
        /// Its kind.
        first_kind: Kind,
        /// Where the first header of another kind is.
        second: String,
        /// Its kind.
        second_kind: Kind,
    },
}

/// The kind of job the shard files `(name, text)` hold, read from their header lines
/// (lines with a `format` key); `None` if no line names a known format (the sweep's
/// merge then says what is wrong with the input).
pub fn kind_of(files: &[(String, String)]) -> Result<Option<Kind>, KindError> {
    let mut first: Option<(Kind, String)> = None;
    for (file, text) in files {
        for (n, raw) in text.lines().enumerate() {
            if !raw.contains("\"format\"") {
                continue;
            }
            let Ok(value) = serde_json::from_str::<serde_json::Value>(raw) else {
                continue;
            };
            let Some(kind) = value
                .get("format")
                .and_then(|f| f.as_str())
                .and_then(Kind::of_format)
            else {
                continue;
            };
            let at = format!("{file}:{}", n + 1);
            match &first {
                None => first = Some((kind, at)),
                Some((k, f)) if *k != kind => {
                    return Err(KindError::Mixed {
                        first: f.clone(),
                        first_kind: *k,
                        second: at,
                        second_kind: kind,
                    });
                }
                Some(_) => {}
            }
        }
    }
    Ok(first.map(|(k, _)| k))
}

/// A deterministic plan of `weights.len()` units over `n` shards that balances their
/// weights: the heaviest unit first, each to the shard with the least weight so far
/// (ties: the fewer units, then the lower shard; equal weights: the earlier unit). Gives each unit's shard,
/// counted from 1.
pub fn balance(weights: &[f64], n: u32) -> Vec<u32> {
    let n = n.max(1);
    let mut order: Vec<usize> = (0..weights.len()).collect();
    let w = |i: usize| {
        let v = weights[i];
        if v.is_finite() && v > 0.0 { v } else { 0.0 }
    };
    order.sort_by(|&a, &b| w(b).total_cmp(&w(a)).then(a.cmp(&b)));
    // Each shard's weight so far and its number of units (which spreads units of no
    // weight).
    let mut load = vec![(0.0f64, 0usize); n as usize];
    let mut plan = vec![1u32; weights.len()];
    for i in order {
        let mut best = 0;
        for (k, l) in load.iter().enumerate() {
            if l.0
                .total_cmp(&load[best].0)
                .then(l.1.cmp(&load[best].1))
                .is_lt()
            {
                best = k;
            }
        }
        load[best].0 += w(i);
        load[best].1 += 1;
        plan[i] = best as u32 + 1;
    }
    plan
}

/// The wall times, in seconds, of the experiments of the stored full validation run
/// (docs/validation/provenance.toml, `[wall_time_s]`), by experiment name.
pub fn stored_wall_times() -> BTreeMap<String, f64> {
    const PROVENANCE: &str = include_str!("../../docs/validation/provenance.toml");
    #[derive(serde::Deserialize)]
    struct Provenance {
        #[serde(default)]
        wall_time_s: BTreeMap<String, f64>,
    }
    toml::from_str::<Provenance>(PROVENANCE)
        .map(|p| p.wall_time_s)
        .unwrap_or_default()
}
