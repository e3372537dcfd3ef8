//! Lanes: slices that overlap in time on one track go on separate rows, so that every
//! row's slices nest as the Trace Event Format requires.

use super::Slice;

/// Most lanes per track; slices beyond share the last lane (never expected: a port
/// carries at most as many packets at once as it has virtual channels and buffers).
pub(super) const MAX_LANES: usize = 64;

/// The lane of every slice: per track (node, port, direction), in order of start, the
/// first lane whose last slice ended by then.
pub(super) fn assign(slices: &[Slice]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..slices.len()).collect();
    order.sort_by_key(|&i| {
        let s = &slices[i];
        (s.node, s.port, s.dir, s.start, s.end, s.packet)
    });
    let mut lane = vec![0; slices.len()];
    let mut ends: Vec<u64> = Vec::new();
    let mut track = None;
    for i in order {
        let s = &slices[i];
        if track != Some((s.node, s.port, s.dir)) {
            track = Some((s.node, s.port, s.dir));
            ends.clear();
        }
        let free = ends.iter().position(|&e| e <= s.start);
        let l = match free {
            Some(l) => l,
            None if ends.len() < MAX_LANES => {
                ends.push(0);
                ends.len() - 1
            }
            None => MAX_LANES - 1,
        };
        ends[l] = ends[l].max(s.end);
        lane[i] = l;
    }
    lane
}
