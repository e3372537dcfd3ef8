//! The progress bar of a run (`emu::stats::progress`): a disabled bar does nothing, and
//! the status text after the bar.

use emu::model::Activity;
use emu::stats::progress::{Progress, status};

#[test]
fn disabled_progress_is_a_no_op() {
    let mut p = Progress::disabled();
    assert!(!p.is_visible());
    p.update(10, &Activity::default());
    p.finish();
}

#[test]
fn progress_can_be_moved_into_an_engine_callback() {
    fn assert_send<T: Send>() {}
    assert_send::<Progress>();
}

#[test]
fn status_shows_time_and_totals() {
    let a = Activity {
        messages_delivered: 1234,
        tokens_moved: 56_789,
        obligations_opened: 1000,
        obligations_closed: 990,
        ..Activity::default()
    };
    assert_eq!(
        status(12_340, 60_000, 10.0, &a),
        "123.4 / 600.0 µs · 1,234 messages · 56,789 token hops"
    );
    // Past the window the time is not shown as a fraction above 100 %.
    assert_eq!(
        status(70_000, 60_000, 10.0, &a),
        "700.0 µs, draining: 990 of 1,000 measured messages delivered · 1,234 messages · 56,789 token hops"
    );
}
