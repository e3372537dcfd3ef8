//! Many jobs on a few threads (`emu::pool`): results in job order, and stopping early.

use emu::pool::{run_all, run_until};

#[test]
fn results_come_back_in_job_order() {
    let jobs: Vec<u64> = (0..50).collect();
    let out = run_all(
        &jobs,
        4,
        |&j| {
            std::thread::sleep(std::time::Duration::from_micros((50 - j) * 20));
            j * j
        },
        |_, _| {},
    );
    assert_eq!(out, jobs.iter().map(|j| j * j).collect::<Vec<_>>());
}

#[test]
fn run_until_has_every_result_up_to_the_first_stop() {
    let jobs: Vec<u64> = (0..200).collect();
    for threads in [1, 2, 4] {
        let out = run_until(&jobs, threads, |&j| j, |&r| r == 37 || r == 90, |_, _| {});
        assert!(out[..=37].iter().all(Option::is_some), "{threads} threads");
        assert_eq!(out[37], Some(37));
        let first_stop = out.iter().flatten().position(|&r| r == 37 || r == 90);
        assert_eq!(first_stop, Some(37));
    }
}
