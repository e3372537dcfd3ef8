//! The quick form's share-out: files with the same keys (same network kind for
//! topologies, same family for traffic files) would try the same mutations, so each
//! mutation is run once, on the file whose unmutated run was fastest; every file keeps its
//! unknown keys.

use std::collections::HashSet;
use std::time::Duration;

use crate::mutate::Category;
use crate::report::FileRuns;

/// Drops from each file the mutants an earlier (faster) file of the same kind already has.
/// `baseline[i]` is the wall time of file i's unmutated run.
pub fn share_out(files: &mut [FileRuns], baseline: &[Duration]) {
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by(|&a, &b| {
        baseline[a]
            .cmp(&baseline[b])
            .then_with(|| files[a].subject.name.cmp(&files[b].subject.name))
    });
    let mut seen = HashSet::new();
    for i in order {
        let file = &mut files[i];
        let (role, kind) = (file.subject.role, file.subject.kind.clone());
        file.mutants.retain(|m| {
            m.category == Category::UnknownKey || seen.insert((role, kind.clone(), m.label.clone()))
        });
    }
}
