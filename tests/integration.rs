//! The integration tests, one module per file of `tests/`, in one test binary: the
//! front end and the core library are linked once rather than once per file, and the
//! tests of every file share the machine's cores as they run.
//!
//! Run one file's tests with its module path, e.g.
//! `cargo test --release --test integration bad_input::`.
//!
//! The `emu` library has no unit tests of its own (see `test_places`): its tests
//! are modules here too, against its public API, such as `plot_layout` and
//! `sweep_shard`.

mod common;

mod bad_input;
mod book;
mod book_reference;
mod check;
mod cli;
mod deadlock;
mod deadlock_picture;
mod defaults;
mod doc_links;
mod doc_lists;
mod engines;
mod fabric;
mod families;
mod faults;
mod fuzz_regressions;
mod html_page;
mod html_report;
mod instructions_gate;
mod layers;
mod memory_early;
mod netlist;
mod network;
mod networks;
mod observe;
mod outputs;
mod peers_page;
mod plot_axes;
mod plot_deadlock;
mod plot_heatmap;
mod plot_layout;
mod plot_link_bars;
mod plot_map;
mod pool_order;
mod progress_bar;
mod properties;
mod replication_rule;
mod replications;
mod reproduce;
mod reproduce_memo;
mod reproduce_models;
mod reproduce_shard;
mod reproduce_table;
mod schema;
mod sci;
mod shard_plan;
mod shard_read;
mod shard_reproduce;
mod shard_stress;
mod stress;
mod stress_cases;
mod sweep;
mod sweep_loads;
mod sweep_shard;
mod sweep_table;
mod test_places;
mod validation_pages;
mod waveform_names;
