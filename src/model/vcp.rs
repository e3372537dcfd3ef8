//! VCP (stub).
use super::dslink::LinkParams;
/// Parameters of one VCP.
#[derive(Clone, Debug)]
pub struct VcpParams {
    /// Link parameters.
    pub link: LinkParams,
    /// Header bytes.
    pub header_bytes: u32,
    /// Max payload per packet.
    pub max_data_bytes: u32,
    /// Acknowledge protocol on.
    pub acknowledge: bool,
    /// Concurrent channels.
    pub channels: u32,
}
