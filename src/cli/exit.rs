//! The process exit codes, in one place (the table in the guide's "Getting started").
//! The library's errors carry no codes; this module maps them.

use emu::engine::EngineError;
use emu::stress::StressError;

/// How `emu` ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 0: done (no deadlock, no cycle, no starved node found).
    Ok = 0,
    /// 1: any other failure: a file that cannot be written, engines that disagree,
    /// routing tables that cannot be followed, a model error.
    Failure = 1,
    /// 2: bad input: a bad file, value or flag, or a network too large for the memory.
    BadInput = 2,
    /// 3: a deadlock: a run's, a cycle `emu check` found, a deadlock (or starved node)
    /// `emu stress` found.
    Deadlock = 3,
    /// 4: a flow-control violation (on an SCI ring: a protocol error such as a lost echo).
    FlowControl = 4,
    /// 5: packets blocked behind a link that died (a link fault, not a deadlock).
    LinkDead = 5,
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> std::process::ExitCode {
        std::process::ExitCode::from(e as u8)
    }
}

/// The exit for an engine's error.
pub fn of_engine(e: &EngineError) -> Exit {
    match e {
        EngineError::Deadlock { .. } => Exit::Deadlock,
        EngineError::BlockedByFault { .. } => Exit::LinkDead,
        EngineError::ChannelFull { .. } | EngineError::Invariant { .. } => Exit::FlowControl,
        EngineError::TooLarge(_) => Exit::BadInput,
        EngineError::Model { flow_control, .. } => {
            if *flow_control {
                Exit::FlowControl
            } else {
                Exit::Failure
            }
        }
        // The engine's own failures, and any the library adds later (its errors are
        // non-exhaustive): failures, not verdicts on the network.
        _ => Exit::Failure,
    }
}

/// The exit for a stress run's error.
pub fn of_stress(e: &StressError) -> Exit {
    match e {
        StressError::Build(_) => Exit::BadInput,
        StressError::Engine(e) => of_engine(e),
    }
}

impl Exit {
    /// The exit whose code is `code` (an unknown code: [`Exit::Failure`]).
    pub fn from_code(code: u8) -> Exit {
        [
            Exit::Ok,
            Exit::Failure,
            Exit::BadInput,
            Exit::Deadlock,
            Exit::FlowControl,
            Exit::LinkDead,
        ]
        .into_iter()
        .find(|e| *e as u8 == code)
        .unwrap_or(Exit::Failure)
    }
}
