//! `emu list`: the shipped topologies and traffic files.

use super::emit;
use super::exit::Exit;
use emu::config::{self, FileKind};

/// Prints the shipped files; returns the exit code (0).
pub fn list() -> Exit {
    let shipped = config::list_shipped();
    let width = shipped.iter().map(|e| e.name.len()).max().unwrap_or(0);
    let mut text = String::new();
    for kind in [FileKind::Topology, FileKind::Traffic] {
        text.push_str(if kind == FileKind::Topology {
            "topologies:\n"
        } else {
            "traffic:\n"
        });
        for e in shipped.iter().filter(|e| e.kind == kind) {
            text.push_str(&format!("  {:<width$}  {}\n", e.name, e.description));
        }
    }
    emit(&text);
    Exit::Ok
}
