//! What the configuration layer asks of the topology kinds above it: the words a type
//! error gives for a key of a kind's `[network]` table. The kinds (the network layer's
//! registry, `network::kinds`) keep their bounds and rows in their own files; whoever
//! loads a topology file passes them in ([`crate::config::load::load_topology_with`]),
//! so the configuration layer never reaches up for them.

/// The topology kinds a loader knows, as the configuration layer asks them.
pub trait Kinds {
    /// What `key` (without list indices: `network.links`) takes in a `[network]` table
    /// of `kind`, in the words a type error at that key gives; `None` if `kind` is not
    /// one of these kinds or says nothing of `key`.
    fn takes(&self, kind: &str, key: &str) -> Option<String>;
}

/// No kinds: for files whose type errors need no kind's words (traffic files, which
/// have no `[network]` table).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoKinds;

impl Kinds for NoKinds {
    fn takes(&self, _kind: &str, _key: &str) -> Option<String> {
        None
    }
}
