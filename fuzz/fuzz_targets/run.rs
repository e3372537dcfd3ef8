//! Topology TOML + traffic TOML + `--set` lines + a trace + a seed, as for `case`
//! (`emu_fuzz::split`), loaded and built, then *run*: the phases are shortened so that
//! the run lasts at most a few thousand ticks (`emu_fuzz::run_ticks`), and it runs on
//! the sequential engine with `--check`, then its report is made (`emu_fuzz::run_case`).
//! Every family: networks of C104s, SCI rings, switch fabrics (with a trace), relay
//! rings. Must never panic (a node's panic, which the engine turns into an error, is a
//! crash here); errors are fine.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(case) = emu_fuzz::split(data) {
        let _ = emu_fuzz::run_case(&case);
    }
});
