//! Topology TOML + traffic TOML + `--set` lines + a trace, all from the input (see
//! `emu_fuzz::split`), loaded and built as `AnyCase::load` does. Must never panic;
//! errors are fine.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(case) = emu_fuzz::split(data) {
        let _ = emu_fuzz::build_case(&case);
    }
});
