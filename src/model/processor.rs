//! Processor (stub).
use super::terminal::TerminalParams;
use super::vcp::VcpParams;
/// Parameters of one T9000.
#[derive(Clone, Debug)]
pub struct ProcessorParams {
    /// VCP.
    pub vcp: VcpParams,
    /// Terminal.
    pub terminal: TerminalParams,
}
