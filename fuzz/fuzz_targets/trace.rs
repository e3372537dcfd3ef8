//! The fabric trace parser (`emu::traffic::trace::parse`) alone: any text, parsed.
#![no_main]

use emu::traffic::trace::parse;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse(text);
    }
});
