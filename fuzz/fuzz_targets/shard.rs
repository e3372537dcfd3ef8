//! Sweep shard files (`emu sweep --shard K/N`, format `emu-sweep-shard/1`), one or
//! several, separated by NUL bytes (`emu_fuzz::split_files`), merged by
//! `emu::sweep::merge` as `emu merge` does, then, if they merge, summarised as `emu
//! merge` prints and writes them: the table's rows and saturation point, the text
//! table, both CSVs, the SVG plot and the JSON document. Must never panic; errors are
//! fine.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(files) = emu_fuzz::split_files(data) {
        let _ = emu_fuzz::merge_shards(&files);
    }
});
