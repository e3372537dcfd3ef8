//! What each key of a topology or traffic file takes, in words, for the user guide's
//! reference (`family::reference`): a kind of network of C104s words its own keys
//! (`network::kinds`), the configuration's table (`config::bounds`) every other key;
//! type errors give the same words.

/// What `key` takes in a network of `kind` (`""` for a traffic key or a key of a
/// shared section): the kind's own words if it is a kind of network of C104s that says,
/// else the configuration's (`config::bounds::takes`). A key of a list's
/// entries is written without brackets (`faults.link_down.at_us`).
pub fn takes(kind: &str, key: &str) -> Option<String> {
    super::kinds::takes(kind, key).or_else(|| crate::config::bounds::takes(kind, key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_s_keys_take_its_own_words_and_the_rest_the_configuration_s() {
        assert_eq!(
            takes("ring", "network.switches").as_deref(),
            Some("a whole number from 2 to 4,096")
        );
        assert_eq!(
            takes("min", "network.routing").as_deref(),
            Some("\"deterministic\", \"universal\" or \"adaptive\"")
        );
        assert_eq!(
            takes("hypercube", "network.dimensions").as_deref(),
            Some("a whole number from 1 to 20 (15 with universal routing)")
        );
        assert_eq!(
            takes("sci_ring", "network.nodes"),
            crate::config::takes("sci_ring", "network.nodes")
        );
        assert_eq!(takes("torus", "network.k"), None);
        assert_eq!(
            takes("grid", "link.bit_rate_mbit_s"),
            crate::config::bounds::takes("", "link.bit_rate_mbit_s")
        );
    }
}
