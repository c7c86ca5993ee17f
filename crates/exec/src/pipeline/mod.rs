//! One draw through the reference pipeline: input assembly → vertex shader →
//! geometry shader → stream output, with the statistics Direct3D 11 reports.
//!
//! STUB: the interface below is fixed; the implementation is being written.

use crate::error::{ExecError, ExecErrorKind};
use crate::format::Format;
use crate::plan::{Plan, SigElement};
use crate::resources::Resources;
use tpf::PrimitiveTopology;

/// `D3D11_APPEND_ALIGNED_ELEMENT`.
pub const APPEND_ALIGNED: u32 = u32::MAX;

/// One `D3D11_INPUT_ELEMENT_DESC`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputElement {
    pub semantic_name: String,
    pub semantic_index: u32,
    pub format: Format,
    pub input_slot: u32,
    /// Byte offset in the vertex, or [`APPEND_ALIGNED`].
    pub aligned_byte_offset: u32,
    /// `D3D11_INPUT_PER_INSTANCE_DATA` (else per vertex).
    pub per_instance: bool,
    pub instance_data_step_rate: u32,
}

/// `D3D11_PRIMITIVE_TOPOLOGY` (the ones without tessellation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Topology {
    PointList,
    LineList,
    LineStrip,
    TriangleList,
    TriangleStrip,
    LineListAdj,
    LineStripAdj,
    TriangleListAdj,
    TriangleStripAdj,
}

impl Topology {
    /// `pointlist`, `trianglestrip_adj`... (also D3D11's `D3D11_PRIMITIVE_TOPOLOGY_`
    /// names).
    pub fn parse(s: &str) -> Option<Topology> {
        let s = s.trim().to_ascii_lowercase();
        let s = s.strip_prefix("d3d11_primitive_topology_").unwrap_or(&s).replace('_', "");
        Some(match s.as_str() {
            "pointlist" => Topology::PointList,
            "linelist" => Topology::LineList,
            "linestrip" => Topology::LineStrip,
            "trianglelist" => Topology::TriangleList,
            "trianglestrip" => Topology::TriangleStrip,
            "linelistadj" => Topology::LineListAdj,
            "linestripadj" => Topology::LineStripAdj,
            "trianglelistadj" => Topology::TriangleListAdj,
            "trianglestripadj" => Topology::TriangleStripAdj,
            _ => return None,
        })
    }
}

/// A bound vertex buffer.
#[derive(Debug, Clone, Copy)]
pub struct VertexBuffer<'a> {
    pub data: &'a [u8],
    pub stride: u32,
    pub offset: u32,
}

/// `DXGI_FORMAT_R16_UINT` or `DXGI_FORMAT_R32_UINT` indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexFormat {
    U16,
    U32,
}

/// The bound index buffer.
#[derive(Debug, Clone, Copy)]
pub struct IndexBuffer<'a> {
    pub data: &'a [u8],
    pub format: IndexFormat,
    pub offset: u32,
}

/// A draw call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawCall {
    Draw {
        vertex_count: u32,
        start_vertex: u32,
    },
    DrawIndexed {
        index_count: u32,
        start_index: u32,
        base_vertex: i32,
    },
    DrawInstanced {
        vertex_count_per_instance: u32,
        instance_count: u32,
        start_vertex: u32,
        start_instance: u32,
    },
    DrawIndexedInstanced {
        index_count_per_instance: u32,
        instance_count: u32,
        start_index: u32,
        base_vertex: i32,
        start_instance: u32,
    },
    /// Draws the vertices stream output wrote to the buffer bound to input slot 0
    /// (its filled size / the slot's stride).
    DrawAuto,
}

/// A stream-output target buffer (`SOSetTargets`): the memory, where writing starts
/// (bytes), and how much has been written (the `BufferFilledSize` `DrawAuto` reads).
#[derive(Debug)]
pub struct SoTarget<'a> {
    pub data: &'a mut [u8],
    /// Byte offset of the next write; updated by the draw.
    pub offset: u32,
}

/// The stream-output stage's state: the declaration, strides and rasterized stream
/// (as validated by `validate::so`), and up to four target buffers.
#[derive(Debug)]
pub struct StreamOutput<'a> {
    pub declaration: &'a validate::StreamOutputDesc,
    pub targets: [Option<SoTarget<'a>>; 4],
}

/// The pipeline state of one draw.
pub struct Pipeline<'a> {
    pub input_layout: &'a [InputElement],
    /// Input slots 0..31.
    pub vertex_buffers: &'a [Option<VertexBuffer<'a>>],
    pub index_buffer: Option<IndexBuffer<'a>>,
    pub topology: Topology,
    /// Strip-cut index (`D3D11_PRIMITIVE_TOPOLOGY` strips with an index of all ones
    /// restart the strip — always on in D3D11 for indexed strips).
    pub vs: Option<&'a Plan>,
    pub gs: Option<&'a Plan>,
    pub vs_resources: Resources<'a>,
    pub gs_resources: Resources<'a>,
    pub stream_output: Option<StreamOutput<'a>>,
    /// Keep every primitive of every stream in [`DrawResult::streams`] (off for
    /// throughput runs that only need stream output).
    pub capture: bool,
    /// Step limit per shader invocation.
    pub step_limit: u64,
    /// Report emits of undefined outputs ([`crate::Machine::set_checking`]).
    pub checking: bool,
}

/// One vertex of an output primitive: the output registers its stream declares, by
/// register (`registers[r]` for `o#r`; undeclared registers zero).
#[derive(Debug, Clone, PartialEq)]
pub struct Vertex {
    pub registers: Vec<[u32; 4]>,
}

/// The primitives of one stream, in order, as lists (strips are turned into lists).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamPrimitives {
    pub stream: u32,
    /// PointList, LineList or TriangleList (or the IA's topology without a GS).
    pub topology: PrimitiveTopology,
    /// Each primitive's vertices (1, 2 or 3; more for adjacency without a GS).
    pub primitives: Vec<Vec<Vertex>>,
    /// The signature naming the registers (the GS's, or the VS's without a GS).
    pub signature: Vec<SigElement>,
}

/// `D3D11_QUERY_DATA_PIPELINE_STATISTICS` (fields in snake case; [`PipelineStatistics::named`] gives D3D11's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PipelineStatistics {
    /// `IAVertices`.
    pub ia_vertices: u64,
    /// `IAPrimitives`.
    pub ia_primitives: u64,
    /// `VSInvocations`.
    pub vs_invocations: u64,
    /// `GSInvocations`.
    pub gs_invocations: u64,
    /// `GSPrimitives`.
    pub gs_primitives: u64,
    /// `CInvocations`.
    pub c_invocations: u64,
    /// `CPrimitives`.
    pub c_primitives: u64,
    /// `PSInvocations`.
    pub ps_invocations: u64,
    /// `HSInvocations`.
    pub hs_invocations: u64,
    /// `DSInvocations`.
    pub ds_invocations: u64,
    /// `CSInvocations`.
    pub cs_invocations: u64,
}

impl PipelineStatistics {
    /// Each counter with its D3D11 name (`IAVertices`...), in the struct's order.
    pub fn named(&self) -> [(&'static str, u64); 11] {
        [
            ("IAVertices", self.ia_vertices),
            ("IAPrimitives", self.ia_primitives),
            ("VSInvocations", self.vs_invocations),
            ("GSInvocations", self.gs_invocations),
            ("GSPrimitives", self.gs_primitives),
            ("CInvocations", self.c_invocations),
            ("CPrimitives", self.c_primitives),
            ("PSInvocations", self.ps_invocations),
            ("HSInvocations", self.hs_invocations),
            ("DSInvocations", self.ds_invocations),
            ("CSInvocations", self.cs_invocations),
        ]
    }
}

/// `D3D11_QUERY_DATA_SO_STATISTICS`, per stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SoStatistics {
    /// `NumPrimitivesWritten`.
    pub num_primitives_written: u64,
    /// `PrimitivesStorageNeeded`.
    pub primitives_storage_needed: u64,
}

/// What a draw produced.
#[derive(Debug, Clone, Default)]
pub struct DrawResult {
    /// Each stream that has output (captured when [`Pipeline::capture`]).
    pub streams: Vec<StreamPrimitives>,
    pub statistics: PipelineStatistics,
    pub so_statistics: [SoStatistics; 4],
    /// The rasterized stream (`None`: nothing rasterized).
    pub rasterized_stream: Option<u32>,
    /// Checking-mode findings.
    pub diagnostics: Vec<crate::machine::ExecDiagnostic>,
}

/// Runs one draw.
pub fn draw(pipeline: &mut Pipeline<'_>, call: DrawCall) -> Result<DrawResult, ExecError> {
    let _ = (pipeline, call);
    Err(ExecError::new(ExecErrorKind::NotImplemented("the pipeline")))
}
