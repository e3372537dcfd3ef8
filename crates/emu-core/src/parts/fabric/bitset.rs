//! A fixed-size set of small indices (VOQs, crosspoints, inputs, outputs) kept as 64-bit
//! words inside the value (a fabric has at most [`MAX_PORTS`](super::config) ports, four
//! words), so that the fabric's schedulers find the next member after a pointer, or
//! visit the members in round-robin order, in a few word operations and without
//! following a pointer to the heap.

/// Words of every set: enough for the largest fabric.
const WORDS: usize = (super::config::MAX_PORTS as usize).div_ceil(64);

/// A set of indices `0..len`, `len` at most the largest fabric's port count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bitset {
    words: [u64; WORDS],
    /// Words in use: `len` rounded up to whole words (at least one).
    used: usize,
    len: usize,
}

impl Bitset {
    /// An empty set of `len` indices (at most the largest fabric's port count).
    pub fn new(len: usize) -> Bitset {
        debug_assert!(
            len <= WORDS * 64,
            "a fabric set holds at most {} indices",
            WORDS * 64
        );
        Bitset {
            words: [0; WORDS],
            used: len.div_ceil(64).clamp(1, WORDS),
            len,
        }
    }

    /// Adds or removes `i`.
    #[inline]
    pub fn put(&mut self, i: usize, member: bool) {
        if member {
            self.insert(i);
        } else {
            self.remove(i);
        }
    }

    /// Adds `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Removes `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.words[i / 64] &= !(1 << (i % 64));
    }

    /// True if `i` is a member.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.words[i / 64] & (1 << (i % 64)) != 0
    }

    /// Removes every member.
    #[inline]
    pub fn clear(&mut self) {
        self.words = [0; WORDS];
    }

    /// True if the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The members of `self` or `other`.
    #[inline]
    pub fn union(&self, other: &Bitset) -> Bitset {
        let mut u = *self;
        for (a, b) in u.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
        u
    }

    /// The members of both `self` and `other`.
    #[inline]
    pub fn intersection(&self, other: &Bitset) -> Bitset {
        let mut u = *self;
        for (a, b) in u.words.iter_mut().zip(&other.words) {
            *a &= b;
        }
        u
    }

    /// The first member at or after `from` (wrapping round to 0), if any.
    #[inline]
    pub(crate) fn next_from(&self, from: usize) -> Option<usize> {
        let from = if from >= self.len { 0 } else { from };
        let (w, high) = (from / 64, u64::MAX << (from % 64));
        let bits = self.words[w] & high;
        if bits != 0 {
            return Some(w * 64 + bits.trailing_zeros() as usize);
        }
        self.next_after_word(w, high)
    }

    /// [`Bitset::next_from`] past the start's word `w` (whose bits at and above the
    /// start, `high`, hold no member): the following words, wrapping, then the start's
    /// word below the start.
    fn next_after_word(&self, w: usize, high: u64) -> Option<usize> {
        let mut k = w;
        for visit in 1..=self.used {
            k = if k + 1 >= self.used { 0 } else { k + 1 };
            let mut bits = self.words[k];
            if visit == self.used {
                bits &= !high;
            }
            if bits != 0 {
                return Some(k * 64 + bits.trailing_zeros() as usize);
            }
        }
        None
    }

    /// The first member of both `self` and `other` at or after `from`, wrapping.
    #[inline]
    pub(crate) fn next_common_from(&self, other: &Bitset, from: usize) -> Option<usize> {
        if self.used == 1 {
            // One word: no need to build the whole intersection.
            let from = if from >= self.len { 0 } else { from };
            let both = self.words[0] & other.words[0];
            let bits = both & (u64::MAX << from);
            let bits = if bits != 0 { bits } else { both };
            return (bits != 0).then(|| bits.trailing_zeros() as usize);
        }
        self.intersection(other).next_from(from)
    }

    /// The members of `self` that are not in `other`, in ascending order.
    pub(crate) fn minus(&self, other: &Bitset) -> Members {
        let mut d = *self;
        for (a, b) in d.words.iter_mut().zip(&other.words) {
            *a &= !b;
        }
        d.members()
    }

    /// The members in ascending order.
    #[inline]
    pub(crate) fn members(&self) -> Members {
        Members {
            words: self.words,
            used: self.used,
            w: 0,
            bits: self.words[0],
        }
    }

    /// Calls `visit` with the members in round-robin order starting at `from` (as
    /// [`Bitset::cyclic_from`] gives them) until it returns true; returns whether it did.
    /// Always inlined, so that `visit` is too: the reception schedulers scan once per
    /// credit they return.
    #[inline(always)]
    pub(crate) fn scan_from(&self, from: usize, mut visit: impl FnMut(usize) -> bool) -> bool {
        let from = if from >= self.len { 0 } else { from };
        let (mut w, high) = (from / 64, u64::MAX << (from % 64));
        if self.used == 1 {
            // One word (a fabric of at most 64 ports): the members at or after the
            // start, then those before it, without the general loop's word steps.
            for mut bits in [self.words[0] & high, self.words[0] & !high] {
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if visit(i) {
                        return true;
                    }
                }
            }
            return false;
        }
        let mut bits = self.words[w] & high;
        let mut visits = self.used;
        loop {
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if visit(w * 64 + i) {
                    return true;
                }
            }
            if visits == 0 {
                return false;
            }
            visits -= 1;
            w = if w + 1 >= self.used { 0 } else { w + 1 };
            bits = self.words[w];
            if visits == 0 {
                // Back at the start's word: only the bits below the start are left.
                bits &= !high;
            }
        }
    }

    /// The members in round-robin order starting at `from` (wrapping; `from` at or
    /// beyond the length starts at 0).
    #[inline]
    pub(crate) fn cyclic_from(&self, from: usize) -> Cyclic {
        let from = if from >= self.len { 0 } else { from };
        let (w, b) = (from / 64, from % 64);
        Cyclic {
            words: self.words,
            used: self.used,
            w,
            low: !(u64::MAX << b),
            bits: self.words[w] & (u64::MAX << b),
            visits: self.used,
        }
    }
}

/// The members of a [`Bitset`] in ascending order.
pub(crate) struct Members {
    words: [u64; WORDS],
    used: usize,
    w: usize,
    bits: u64,
}

impl Iterator for Members {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            if self.bits != 0 {
                let i = self.bits.trailing_zeros() as usize;
                self.bits &= self.bits - 1;
                return Some(self.w * 64 + i);
            }
            self.w += 1;
            if self.w >= self.used {
                return None;
            }
            self.bits = self.words[self.w];
        }
    }
}

/// The members of a [`Bitset`] in round-robin order from a start: the start's word from
/// the start on, the following words, the words from 0, and the start's word below it.
pub(crate) struct Cyclic {
    words: [u64; WORDS],
    used: usize,
    /// The word being visited.
    w: usize,
    /// The bits of the start's word below the start.
    low: u64,
    /// The members of the word being visited not yet returned.
    bits: u64,
    /// Word visits still to come after this one.
    visits: usize,
}

impl Iterator for Cyclic {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        loop {
            if self.bits != 0 {
                let i = self.bits.trailing_zeros() as usize;
                self.bits &= self.bits - 1;
                return Some(self.w * 64 + i);
            }
            if self.visits == 0 {
                return None;
            }
            self.visits -= 1;
            self.w = if self.w + 1 >= self.used {
                0
            } else {
                self.w + 1
            };
            self.bits = self.words[self.w];
            if self.visits == 0 {
                // Back at the start's word: only the bits below the start are left.
                self.bits &= self.low;
            }
        }
    }
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
        assert!(s.contains(64) && !s.contains(3));
        assert_eq!(s.members().collect::<Vec<_>>(), vec![64, 129]);
        assert_eq!(s.minus(&t).collect::<Vec<_>>(), vec![64]);
        assert_eq!(s.union(&t), s);
    }

    #[test]
    fn agrees_with_a_plain_scan() {
        for n in [1, 5, 64, 70, 128, 200, 256] {
            let mut s = Bitset::new(n);
            let mut other = Bitset::new(n);
            let mut plain = vec![false; n];
            let mut plain_other = vec![false; n];
            let mut x = 12345u64 + n as u64;
            for _ in 0..2000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let i = (x >> 33) as usize % n;
                let on = (x >> 20) & 1 == 1;
                s.put(i, on);
                plain[i] = on;
                let k = (x >> 45) as usize % n;
                let on = (x >> 21) & 1 == 1;
                other.put(k, on);
                plain_other[k] = on;
                let from = (x >> 40) as usize % (n + 1);
                let start = if from >= n { 0 } else { from };
                let order: Vec<usize> = (0..n).map(|k| (start + k) % n).collect();
                let expect = order.iter().copied().find(|&j| plain[j]);
                assert_eq!(s.next_from(from), expect);
                let all: Vec<usize> = order.iter().copied().filter(|&j| plain[j]).collect();
                assert_eq!(s.cyclic_from(from).collect::<Vec<_>>(), all);
                let mut scanned = Vec::new();
                assert!(!s.scan_from(from, |j| {
                    scanned.push(j);
                    false
                }));
                assert_eq!(scanned, all);
                if let Some(&stop) = all.get(all.len() / 2) {
                    let mut upto = Vec::new();
                    assert!(s.scan_from(from, |j| {
                        upto.push(j);
                        j == stop
                    }));
                    assert_eq!(upto, all[..=all.len() / 2]);
                }
                let common = order.iter().copied().find(|&j| plain[j] && plain_other[j]);
                assert_eq!(s.next_common_from(&other, from), common);
                let minus: Vec<usize> = (0..n).filter(|&j| plain[j] && !plain_other[j]).collect();
                assert_eq!(s.minus(&other).collect::<Vec<_>>(), minus);
                let members: Vec<usize> = (0..n).filter(|&j| plain[j]).collect();
                assert_eq!(s.members().collect::<Vec<_>>(), members);
                assert_eq!(s.is_empty(), members.is_empty());
            }
        }
    }
}
