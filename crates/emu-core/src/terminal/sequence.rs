//! The per-source sequence check of a sink: messages from one source must complete in
//! the order they were created (see the order check in [`crate::terminal`]).

/// For each source a sink has heard from, 1 + the last sequence number delivered here.
///
/// Kept as a list sorted by source holding only the sources that delivered something,
/// not one entry per terminal of the network: on a 2^16-terminal network a dense table
/// was 256 KB per sink, while a lightly loaded sink hears from a handful of sources.
#[derive(Clone, Debug, Default)]
pub(crate) struct SequenceBook {
    /// (source, 1 + the last sequence number delivered from it), sorted by source.
    next: Vec<(u32, u32)>,
}

impl SequenceBook {
    /// Bytes of one source's entry.
    pub(crate) const ENTRY_BYTES: u64 = std::mem::size_of::<(u32, u32)>() as u64;

    /// Entries the book makes room for on its first source (a `Vec`'s first
    /// allocation of 8-byte items).
    pub(crate) const FIRST_ALLOCATION: u64 = 4;

    /// Notes that message `seq` from `src` completed here; false if it completed out of
    /// order (after a later message from the same source) or twice.
    pub(crate) fn in_order(&mut self, src: u32, seq: u32) -> bool {
        match self.next.binary_search_by_key(&src, |&(s, _)| s) {
            Ok(i) => {
                let next = &mut self.next[i].1;
                if seq < *next {
                    return false;
                }
                *next = seq + 1;
            }
            Err(i) => self.next.insert(i, (src, seq + 1)),
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_source_is_checked_on_its_own() {
        let mut book = SequenceBook::default();
        assert!(book.in_order(7, 0));
        assert!(
            book.in_order(3, 5),
            "a source's first message may have any number"
        );
        assert!(
            book.in_order(7, 2),
            "a gap is in order (the message between is late)"
        );
        assert!(!book.in_order(7, 1), "the late one is out of order");
        assert!(!book.in_order(7, 2), "twice");
        assert!(!book.in_order(3, 4));
        assert!(book.in_order(3, 6));
        assert!(book.in_order(0, 0));
        assert_eq!(book.next, vec![(0, 1), (3, 7), (7, 3)], "sorted by source");
    }
}
