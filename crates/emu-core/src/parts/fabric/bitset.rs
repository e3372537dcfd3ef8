//! A fixed-size set of small indices (VOQs, crosspoints, inputs) kept as 64-bit words, so
//! that the fabric's round-robin schedulers find the next member after a pointer in a few
//! word operations instead of a scan over N entries.

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

    /// True if the set is empty.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_next_member_after_a_pointer_with_wraparound() {
        let mut s = Bitset::new(130);
        for i in [3, 64, 129] {
            s.put(i, true);
        }
        assert_eq!(s.next_from(0), Some(3));
        assert_eq!(s.next_from(4), Some(64));
        assert_eq!(s.next_from(65), Some(129));
        assert_eq!(s.next_from(130), Some(3));
        s.put(3, false);
        assert_eq!(s.next_from(130), Some(64));
        assert_eq!(s.cyclic_from(100).collect::<Vec<_>>(), vec![129, 64]);
        let mut t = Bitset::new(130);
        t.put(129, true);
        t.put(64, false);
        assert_eq!(s.next_common_from(&t, 0), Some(129));
        assert!(Bitset::new(5).is_empty() && !s.is_empty());
    }

    #[test]
    fn agrees_with_a_plain_scan() {
        let n = 70;
        let mut s = Bitset::new(n);
        let mut plain = vec![false; n];
        let mut x = 12345u64;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (x >> 33) as usize % n;
            let on = (x >> 20) & 1 == 1;
            s.put(i, on);
            plain[i] = on;
            let from = (x >> 40) as usize % n;
            let expect = (0..n).map(|k| (from + k) % n).find(|&j| plain[j]);
            assert_eq!(s.next_from(from), expect);
            let all: Vec<usize> = (0..n)
                .map(|k| (from + k) % n)
                .filter(|&j| plain[j])
                .collect();
            assert_eq!(s.cyclic_from(from).collect::<Vec<_>>(), all);
        }
    }
}
