//! `emu-core`: the model of emu, a cycle-accurate emulator of interconnection networks:
//! DS-Links, IMS C104 routing switches and T9000 virtual channel processors, SCI rings and
//! switch fabrics with credit flow control. The `emu` crate beside it is the command line
//! (sessions, sweeps, the deadlock search, the published experiments, pictures).
//!
//! # Layers
//!
//! [`config`] reads topology and traffic files, [`network`] turns them into a validated
//! plan of [`parts`] joined by links, an [`engine`] runs the parts' state machines in
//! virtual time, and [`stats`] reports what happened. Each layer uses only the ones
//! below it; docs/architecture.md draws the picture and says how to add a part or a
//! family.
//!
//! - [`model`] is the contract between parts and engines: a [`model::Node`] is a plain
//!   synchronous state machine on one [`model::LinkProtocol`]; engines know nothing else.
//! - [`parts`] holds one folder per kind of hardware: [`parts::dslink`] (the DS-Link
//!   token protocol and endpoint), [`parts::c104`], [`parts::t9000`], [`parts::sci`]
//!   (SCI ring nodes), [`parts::fabric`] (switch adapters and the switch core), and
//!   [`parts::relay`], a protocol-free test part.
//! - [`text`] is how every message writes what the user typed and the counts it
//!   gives; [`memory`] sizes a network before it is built and reads the system's
//!   limits.
//! - [`family`] is the registry of network families (networks of C104s, SCI rings,
//!   switch fabrics, relay rings): [`family::AnyCase::load`] reads a topology and a
//!   traffic file and builds the case of whatever family the topology is, and
//!   [`family::CaseVisitor`] does anything with it, generic over its protocol;
//!   [`api`] loads, runs and reports one case of any family without generics, and is
//!   how every front end runs a case (`examples/embed.rs` runs a hypercube and reads
//!   its report that way).
//!
//! # Running a network
//!
//! [`run`] runs a case of any family from its two files and returns its [`Report`]:
//! here a shipped 64-terminal hypercube of C104s under uniform random traffic,
//! shortened with the command line's `--set` overrides.
//!
//! ```
//! use emu_core::{Input, Outcome, RunOptions};
//!
//! let options = RunOptions {
//!     set: vec!["phases.warmup_us=10".into(), "phases.measure_us=50".into()],
//!     seed: 7,
//!     ..RunOptions::default()
//! };
//! let report = emu_core::run(&Input::shipped("hypercube6"), &Input::shipped("uniform"), &options)?;
//! assert_eq!(report.outcome, Outcome::Completed);
//! let stats = report.stats.as_ref().expect("a completed run has statistics");
//! assert_eq!(stats.topology.terminals, 64);
//! assert!(stats.throughput.delivered_pct.mean > 0.0);
//! // `report.to_json()` is what `emu -t hypercube6 -p uniform --seed 7 --json` writes.
//! assert!(report.to_json().starts_with("{"));
//!
//! // A deadlock is an outcome, with the document that explains it.
//! let jammed = emu_core::run(
//!     &Input::shipped("torus4-single"),
//!     &Input::shipped("torus4-ring"),
//!     &RunOptions::default(),
//! )?;
//! assert_eq!(jammed.outcome, Outcome::Deadlock);
//! assert!(jammed.to_json().contains("cycle_text"));
//!
//! // Bad input is an error that says where, in the command line's words.
//! let text = "[network]\nkind = \"hypercube\"\ndimensions = 0\n";
//! let e = emu_core::run(&Input::text("mine.toml", text), &Input::shipped("uniform"), &options)
//!     .expect_err("no 0-cube");
//! assert_eq!(e.kind(), emu_core::ErrorKind::Build);
//! assert_eq!(e.location().and_then(|l| l.line), Some(3));
//! assert_eq!(e.to_string(), "mine.toml:3:1: network.dimensions: 0: give a whole number from 1 to 20");
//! # Ok::<(), emu_core::Error>(())
//! ```
//!
//! [`api`] has the rest: [`RunOptions::on_progress`] to follow a run and stop it;
//! [`RunOptions`]'s `engine`, `tick_budget` (stop at that tick whatever the phases say)
//! and `recorder` (what `--trace` and `--vcd` record); [`run_case`] for a case already
//! built and [`api::run_typed`] for one whose link protocol is known; the raw
//! [`engine::RunOutcome`] a completed run's [`Report`] keeps (`report.run`); and the
//! lookup the command line does ([`Input::lookup`]).
//!
//! # Driving a part by hand
//!
//! Every protocol rule can be checked without an engine: hand a part the tokens that
//! arrive, step it tick by tick, and look at what it sends. Here a 2-port C104 routes
//! a one-byte packet with header label 1 from port 0 to port 1 (INMOS ch. 7 §7.1:
//! interval labelling; INMOS ch. 6 §6.2.1: no token leaves without credit).
//!
//! ```
//! use emu_core::model::{Node, Stamp};
//! use emu_core::parts::c104::{C104, C104Params};
//! use emu_core::parts::dslink::{LinkParams, Outbox, Token, TokenKind};
//! use emu_core::routing::{IntervalTable, LabelRouting, RouteAction};
//! use std::sync::Arc;
//!
//! // Label 0 leaves on port 0, label 1 on port 1.
//! let table = IntervalTable::new(vec![
//!     (0, 1, RouteAction::Output(0)),
//!     (1, 2, RouteAction::Output(1)),
//! ])?;
//! let mut switch = C104::new(C104Params {
//!     ports: 2,
//!     link: LinkParams::default(), // 20-token buffers, one FCT per 8 tokens
//!     header_bytes: 1,
//!     routing_delay: 30,           // ticks from header received to header may leave
//!     output_buffer: 34,
//!     routing: LabelRouting::new(Arc::new(table), 2),
//!     seed: 1,
//! });
//! let mut out = Outbox::default();
//!
//! // At reset each port owes its peer two FCTs (16 tokens of its 20-token buffer):
//! // 4-bit control tokens, sent back to back.
//! for now in 0..10 {
//!     switch.step(now, &mut out)?;
//! }
//! let fcts = out.emits.iter().filter(|e| e.token.kind() == TokenKind::Fct).count();
//! assert_eq!(fcts, 4);
//! out.emits.clear();
//!
//! // The peer on port 1 grants 8 tokens of credit.
//! switch.receive(10, 1, Token::fct())?;
//! // A packet arrives on port 0: header 1, one data byte, end of message. Its first
//! // token names it (emulator metadata, no wire time).
//! let stamp = Stamp { src: 0, dst: 1, ..Stamp::default() };
//! switch.receive(100, 0, Token::data(1, stamp))?;
//! switch.receive(100, 0, Token::data_only(0xab))?;
//! switch.receive(100, 0, Token::end_only(true))?;
//! for now in 100..200 {
//!     switch.step(now, &mut out)?;
//! }
//! let sent: Vec<_> = out.emits.iter().filter(|e| e.port == 1).collect();
//! assert_eq!(sent.len(), 3, "header, byte and EOM leave on port 1");
//! // Routed 30 ticks after the header arrived, then sent when the idle link's null
//! // token ends: the 10-bit header has left by tick 146.
//! assert_eq!(sent[0].at, 146);
//! assert_eq!(sent[2].token.kind(), TokenKind::Eom);
//! assert_eq!(sent[0].token.stamp().dst, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod api;
pub mod config;
pub mod deadlock;
pub mod engine;
pub mod family;
pub mod ids;
pub mod memory;
pub mod model;
pub mod network;
pub mod observe;
pub mod parts;
pub mod routing;
pub mod stats;
pub mod terminal;
pub mod text;
pub mod time;
pub mod traffic;

pub use api::{Error, ErrorKind, Input, Outcome, Progress, Report, RunOptions, run, run_case};
