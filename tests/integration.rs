//! The integration tests, one module per file of `tests/`, in one test binary: the
//! front end and the core library are linked once rather than once per file, and the
//! tests of every file share the machine's cores as they run.
//!
//! Run one file's tests with its module path, e.g.
//! `cargo test --release --test integration bad_input::`.

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
mod properties;
mod replications;
mod reproduce;
mod reproduce_shard;
mod schema;
mod sci;
mod stress;
mod sweep;
mod validation_pages;
