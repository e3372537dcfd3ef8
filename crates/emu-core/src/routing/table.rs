//! Building an interval table from a routing function over every label.
//!
//! The C104 routes by interval labelling (INMOS ch. 7 §7.1): each output
//! is given intervals of header labels. For the regular families the routing function
//! is easiest to state label by label; runs of consecutive labels with the same action
//! are then exactly the table's intervals.

use super::{IntervalTable, RouteAction};

/// The interval table that takes `f(label)` for every label in `[0, labels)`, with
/// consecutive labels of equal action merged into one interval.
pub fn from_fn(labels: u32, mut f: impl FnMut(u32) -> RouteAction) -> IntervalTable {
    let mut iv = Vec::new();
    let mut run: Option<(u32, RouteAction)> = None;
    for d in 0..labels {
        let a = f(d);
        match run {
            Some((_, c)) if c == a => {}
            Some((lo, c)) => {
                iv.push((lo, d, c));
                run = Some((d, a));
            }
            None => run = Some((d, a)),
        }
    }
    if let Some((lo, c)) = run {
        iv.push((lo, labels, c));
    }
    // Consecutive, non-empty runs are disjoint by construction.
    IntervalTable::new(iv).expect("runs of labels are disjoint")
}

/// The interval table of `pieces`: `(lo, hi, action)` runs given in label order,
/// each starting where the last ended, with neighbours of equal action merged. It is
/// the table [`from_fn`] makes of the function the pieces describe, in time linear in
/// the pieces rather than in the labels; empty pieces are skipped.
pub(crate) fn from_pieces(
    pieces: impl IntoIterator<Item = (u32, u32, RouteAction)>,
) -> IntervalTable {
    let mut iv: Vec<(u32, u32, RouteAction)> = Vec::new();
    for (lo, hi, a) in pieces.into_iter().filter(|&(lo, hi, _)| lo < hi) {
        match iv.last_mut() {
            Some(last) if last.2 == a && last.1 == lo => last.1 = hi,
            _ => iv.push((lo, hi, a)),
        }
    }
    // The callers' pieces are consecutive, so the merged runs are disjoint.
    IntervalTable::new(iv).expect("consecutive pieces are disjoint")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_merge_as_the_labels_would() {
        let f = |d: u32| RouteAction::Output((d / 4) as usize % 2);
        let pieces = (0..6).map(|i| (2 * i, 2 * i + 2, f(2 * i)));
        assert_eq!(from_pieces(pieces), from_fn(12, f));
        let with_empty = [
            (0, 3, RouteAction::Delete),
            (3, 3, RouteAction::Output(1)),
            (3, 5, RouteAction::Delete),
        ];
        assert_eq!(from_pieces(with_empty), from_fn(5, |_| RouteAction::Delete));
    }

    #[test]
    fn runs_become_intervals_and_every_label_keeps_its_action() {
        let f = |d: u32| {
            if d == 7 {
                RouteAction::Delete
            } else {
                RouteAction::Output((d / 3) as usize)
            }
        };
        let t = from_fn(10, f);
        assert!(t.covers(10));
        for d in 0..10 {
            assert_eq!(t.lookup(d), Some(f(d)), "label {d}");
        }
        assert_eq!(t.lookup(10), None);
    }
}
