//! The names a waveform (`emu::waveform`) gives its VCD variables.

use emu::waveform::{code_of, ident};

#[test]
fn identifier_codes_are_distinct_and_printable() {
    let codes: std::collections::BTreeSet<String> = (0..10_000).map(code_of).collect();
    assert_eq!(codes.len(), 10_000);
    assert!(
        codes
            .iter()
            .all(|c| c.chars().all(|ch| ('!'..='~').contains(&ch)))
    );
}

#[test]
fn names_become_identifiers() {
    assert_eq!(ident("c104[3]:2"), "c104_3_2");
    assert_eq!(ident("ring buffer"), "ring_buffer");
}
