//! One self-contained HTML page of a result (`--report FILE.html`): a plain run's
//! report with its pictures and a sortable per-terminal table ([`run`]), a failed
//! run's explanation ([`run::failure_page`]), a sweep ([`sweep`]) or a reproduction
//! ([`reproduce`]).
//!
//! A page needs no network: its style and its few lines of script are inline, its
//! pictures are the `--plot` SVGs inlined, and it names nothing outside itself (no
//! `src`, no `href`, no URL). It carries nothing that varies between runs of the same
//! input (no date, no wall time), so the same input gives the same bytes. Every text
//! is escaped ([`page::escape`]); the numbers are the text report's, formatted by the
//! same code.

pub mod page;
pub mod reproduce;
pub mod run;
pub mod sweep;

pub use page::{Page, escape};
pub use reproduce::reproduce_page;
pub use run::{FailureText, RunHeader, failure_page, run_page};
pub use sweep::sweep_page;
