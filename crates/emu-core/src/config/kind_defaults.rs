//! The defaults a user's topology file leaves in place where the shipped files of its
//! kind all set another value.
//!
//! A key left out of a topology file takes the default of its section, which is what
//! the hardware does: a DS-Link input buffer of 20 tokens (INMOS ch. 6 §6.2.2) and
//! every packet acknowledged (INMOS ch. 6 §6.2.3). The shipped networks of C104s
//! instead model chapter 7's experiments, which separate "issues of protocol overhead
//! ... from issues of network performance" (INMOS ch. 7): one packet of buffering on
//! each input and no acknowledges. Both are the documents'; the defaults stay the
//! hardware's, and a report of a file of one's own says, in one header line, which
//! defaults it kept where the shipped files of its kind differ, so that a user's grid
//! and the shipped `grid8` are not compared unawares.

use super::{Loaded, Origin, shipped_topologies};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The sections compared: the parts' sections of a network of C104s (`[faults]` is
/// for testing and is left out).
const COMPARED: [&str; 4] = ["link", "packet", "c104", "vcp"];

/// One key whose default the file keeps while every shipped file of its kind sets it
/// otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// The dotted key, e.g. `vcp.acknowledge`.
    pub key: String,
    /// The value the file runs with: the default, as TOML.
    pub kept: String,
    /// The value every shipped file of the kind sets, as TOML.
    pub shipped: String,
}

/// The keys `file` leaves at their defaults (not in the file, not overridden by
/// `--set`) where every shipped topology of the same `network.kind` sets one other
/// value; empty for a shipped file, or a kind no shipped file has. `T` is what
/// topology files are read into (the network layer's `TopologyConfig`): the shipped
/// files are read into it too, to compare what each runs with.
pub fn differences<T: DeserializeOwned + Serialize>(file: &Loaded<T>) -> Vec<Difference> {
    if file.file.origin == Origin::Shipped {
        return Vec::new();
    }
    let (Ok(raw), Ok(runs)) = (
        toml::from_str::<toml::Table>(&super::graphml::toml_text(&file.file)),
        toml::Table::try_from(&file.config),
    ) else {
        return Vec::new();
    };
    let kind = |t: &toml::Table| {
        t.get("network")
            .and_then(|n| n.get("kind"))
            .and_then(|k| k.as_str())
            .map(str::to_string)
    };
    let Some(own_kind) = kind(&runs) else {
        return Vec::new();
    };
    // The shipped files of the kind: what each sets, and what it runs with.
    let same_kind: Vec<(toml::Table, toml::Table)> = shipped_topologies()
        .iter()
        .filter_map(|(_, text)| {
            let set = toml::from_str::<toml::Table>(text).ok()?;
            let config = toml::from_str::<T>(text).ok()?;
            let ran = toml::Table::try_from(&config).ok()?;
            (kind(&ran).as_deref() == Some(own_kind.as_str())).then_some((set, ran))
        })
        .collect();
    let Some((first_set, _)) = same_kind.first() else {
        return Vec::new();
    };
    let get = |t: &toml::Table, section: &str, key: &str| -> Option<toml::Value> {
        t.get(section)?.get(key).cloned()
    };
    let mut out = Vec::new();
    for section in COMPARED {
        let Some(keys) = first_set.get(section).and_then(|s| s.as_table()) else {
            continue;
        };
        for key in keys.keys() {
            let dotted = format!("{section}.{key}");
            let set_here = get(&raw, section, key).is_some()
                || file.overrides.iter().any(|(k, _)| *k == dotted);
            let Some(kept) = get(&runs, section, key) else {
                continue;
            };
            let shipped = get(&same_kind[0].1, section, key);
            let all_agree = same_kind.iter().all(|(set, ran)| {
                get(set, section, key).is_some() && get(ran, section, key) == shipped
            });
            match shipped {
                Some(v) if all_agree && !set_here && v != kept => out.push(Difference {
                    key: dotted,
                    kept: kept.to_string(),
                    shipped: v.to_string(),
                }),
                _ => {}
            }
        }
    }
    out
}

/// [`differences`] as the report header's line, naming the kind: `None` if there
/// are none.
pub fn header_line<T: DeserializeOwned + Serialize>(file: &Loaded<T>) -> Option<String> {
    let d = differences(file);
    if d.is_empty() {
        return None;
    }
    let kind = toml::Table::try_from(&file.config)
        .ok()
        .and_then(|t| Some(t.get("network")?.get("kind")?.as_str()?.to_string()))
        .unwrap_or_default();
    let list = |f: fn(&Difference) -> &String| {
        d.iter()
            .map(|x| format!("{} = {}", x.key, f(x)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some(format!(
        "this file keeps the defaults {}; every shipped {kind} file sets {}",
        list(|x| &x.kept),
        list(|x| &x.shipped),
    ))
}
