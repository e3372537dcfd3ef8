//! `emu`: a cycle-accurate emulator of interconnection networks built from DS-Links,
//! IMS C104 routing switches and T9000 virtual channel processors.
//!
//! Layers (../shared/DESIGN.md): [`config`] reads topology and traffic files,
//! [`network`] turns them into a validated plan, [`engine`] runs the plan's
//! [`model`] state machines in virtual time, and [`stats`] reports what happened.

#![warn(missing_docs)]

pub mod config;
pub mod deadlock;
pub mod engine;
pub mod ids;
pub mod model;
pub mod network;
pub mod parts;
pub mod pool;
pub mod reproduce;
pub mod routing;
pub mod session;
pub mod stats;
pub mod sweep;
pub mod terminal;
pub mod time;
pub mod traffic;
