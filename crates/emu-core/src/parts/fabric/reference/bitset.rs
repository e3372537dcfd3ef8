//! The index set as it was before the hot paths were rewritten.

/// A set of indices `0..len`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bitset {
    words: Vec<u64>,
    len: usize,
}

impl Bitset {
    /// An empty set of `len` indices.
    pub fn new(len: usize) -> Bitset {
        Bitset {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    /// Adds or removes `i`.
    pub fn put(&mut self, i: usize, member: bool) {
        let (w, b) = (i / 64, i % 64);
        if member {
            self.words[w] |= 1 << b;
        } else {
            self.words[w] &= !(1 << b);
        }
    }

    /// Removes every member.
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// The first member at or after `from` (wrapping round to 0), if any.
    pub(crate) fn next_from(&self, from: usize) -> Option<usize> {
        let from = if from >= self.len { 0 } else { from };
        self.first_in(from, self.len)
            .or_else(|| self.first_in(0, from))
    }

    /// The first member of both `self` and `other` at or after `from`, wrapping.
    pub(crate) fn next_common_from(&self, other: &Bitset, from: usize) -> Option<usize> {
        let from = if from >= self.len { 0 } else { from };
        let word = |w: usize| self.words[w] & other.words[w];
        first_set(word, from, self.len).or_else(|| first_set(word, 0, from))
    }

    /// The members of `self` that are not in `other`, in ascending order.
    pub(crate) fn minus<'a>(&'a self, other: &'a Bitset) -> impl Iterator<Item = usize> + 'a {
        self.words
            .iter()
            .zip(&other.words)
            .enumerate()
            .flat_map(|(w, (&a, &b))| {
                let mut bits = a & !b;
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let i = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        64 * w + i
                    })
                })
            })
    }

    fn first_in(&self, lo: usize, hi: usize) -> Option<usize> {
        first_set(|w| self.words[w], lo, hi)
    }

    /// The members in round-robin order starting at `from` (wrapping).
    pub(crate) fn cyclic_from(&self, from: usize) -> impl Iterator<Item = usize> + '_ {
        let from = if from >= self.len { 0 } else { from };
        let mut next = self.first_in(from, self.len);
        let mut wrapped = false;
        if next.is_none() {
            wrapped = true;
            next = self.first_in(0, from);
        }
        std::iter::from_fn(move || {
            let i = next?;
            next = if !wrapped {
                match self.first_in(i + 1, self.len) {
                    Some(j) => Some(j),
                    None => {
                        wrapped = true;
                        self.first_in(0, from)
                    }
                }
            } else {
                self.first_in(i + 1, from)
            };
            Some(i)
        })
    }
}

/// The first index in `lo..hi` whose bit is set in the words `word(w)` gives.
fn first_set(word: impl Fn(usize) -> u64, lo: usize, hi: usize) -> Option<usize> {
    let mut w = lo / 64;
    while w * 64 < hi {
        let mut bits = word(w);
        if w == lo / 64 {
            bits &= u64::MAX << (lo % 64);
        }
        if bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            return (i < hi).then_some(i);
        }
        w += 1;
    }
    None
}
