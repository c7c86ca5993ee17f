//! One draw through the reference pipeline: input assembly → vertex shader →
//! geometry shader → stream output, with the statistics Direct3D 11 reports.
//!
//! [`draw`] runs it; its documentation says what each stage does and which choices
//! were made where the functional specification leaves latitude. The parts:
//!
//! - `ia`: the input layout against the shader's signature, vertex fetch, index
//!   reads, primitive assembly for every topology;
//! - `gs`: the geometry shader's emits and cuts assembled into each stream's
//!   primitives (strips to lists);
//! - `so`: stream output — declarations compiled into copies, whole-primitive writes,
//!   overflow;
//! - `output`: where finished primitives go (stream output, rasterizer counters,
//!   capture).

mod batch;
mod gs;
mod ia;
mod output;
mod so;
mod spread;

use crate::error::{ExecError, ExecErrorKind};
use crate::format::Format;
use crate::machine::{GsSystemValues, Machine};
use crate::plan::{Plan, SigElement};
use crate::resources::Resources;
use tpf::PrimitiveTopology;

pub use ia::VERTEX_INPUT_SLOTS;

/// `D3D11_APPEND_ALIGNED_ELEMENT`.
pub const APPEND_ALIGNED: u32 = u32::MAX;

/// One `D3D11_INPUT_ELEMENT_DESC`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputElement {
    /// `SemanticName`, matched case-insensitively against the shader's input signature.
    pub semantic_name: String,
    /// `SemanticIndex`.
    pub semantic_index: u32,
    /// How the element's bytes are read.
    pub format: Format,
    /// `InputSlot`: the vertex buffer, 0..[`VERTEX_INPUT_SLOTS`].
    pub input_slot: u32,
    /// Byte offset in the vertex, or [`APPEND_ALIGNED`].
    pub aligned_byte_offset: u32,
    /// `D3D11_INPUT_PER_INSTANCE_DATA` (else per vertex).
    pub per_instance: bool,
    /// `InstanceDataStepRate`: per-instance data advances one element every this many
    /// instances (0: every instance reads the element at `start_instance`); 0 for
    /// per-vertex data.
    pub instance_data_step_rate: u32,
}

/// `D3D11_PRIMITIVE_TOPOLOGY` (the ones without tessellation), shared with the compute
/// lowering of geometry shaders.
pub use tpf::Topology;

/// A bound vertex buffer.
#[derive(Debug, Clone, Copy)]
pub struct VertexBuffer<'a> {
    /// The buffer's memory.
    pub data: &'a [u8],
    /// Bytes from one vertex (or instance) to the next.
    pub stride: u32,
    /// Bytes skipped at the start (`IASetVertexBuffers`' offset).
    pub offset: u32,
}

/// `DXGI_FORMAT_R16_UINT` or `DXGI_FORMAT_R32_UINT` indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexFormat {
    /// 16-bit indices; the strip cut is `0xffff`.
    U16,
    /// 32-bit indices; the strip cut is `0xffffffff`.
    U32,
}

/// The bound index buffer.
#[derive(Debug, Clone, Copy)]
pub struct IndexBuffer<'a> {
    /// The buffer's memory, little-endian indices.
    pub data: &'a [u8],
    /// 16- or 32-bit indices.
    pub format: IndexFormat,
    /// Bytes skipped at the start (`IASetIndexBuffer`'s offset).
    pub offset: u32,
}

/// A draw call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawCall {
    /// `Draw`: vertices `start_vertex..start_vertex + vertex_count`, one instance.
    Draw {
        /// Vertices drawn.
        vertex_count: u32,
        /// The first vertex read from the vertex buffers.
        start_vertex: u32,
    },
    /// `DrawIndexed`: indices `start_index..start_index + index_count`, one instance.
    DrawIndexed {
        /// Indices read.
        index_count: u32,
        /// The first index, counted in indices from the index buffer's offset.
        start_index: u32,
        /// Added to each index before the vertex is read.
        base_vertex: i32,
    },
    /// `DrawInstanced`.
    DrawInstanced {
        /// Vertices per instance.
        vertex_count_per_instance: u32,
        /// Instances drawn.
        instance_count: u32,
        /// The first vertex.
        start_vertex: u32,
        /// Added to the instance number before per-instance data is read (not to
        /// `SV_InstanceID`).
        start_instance: u32,
    },
    /// `DrawIndexedInstanced`.
    DrawIndexedInstanced {
        /// Indices per instance.
        index_count_per_instance: u32,
        /// Instances drawn.
        instance_count: u32,
        /// The first index.
        start_index: u32,
        /// Added to each index.
        base_vertex: i32,
        /// Added to the instance number before per-instance data is read.
        start_instance: u32,
    },
    /// Draws the vertices stream output wrote to the buffer bound to input slot 0
    /// (its filled size / the slot's stride).
    ///
    /// The model of `BufferFilledSize`: the slot-0 [`VertexBuffer::data`] is taken to
    /// end at the filled size — bind `&memory[..filled]`, where `filled` is the
    /// [`SoTarget::offset`] the stream-output draw left (`d3d11::Context::draw_auto`
    /// does this). The draw is non-indexed, one instance, `(data.len() - offset) /
    /// stride` vertices from vertex 0 (none when the filled size is at most the offset,
    /// or the stride is 0), in the current topology (8.9).
    DrawAuto,
}

/// A stream-output target buffer (`SOSetTargets`): the memory, where writing starts
/// (bytes), and how much has been written (the `BufferFilledSize` `DrawAuto` reads).
#[derive(Debug)]
pub struct SoTarget<'a> {
    /// The buffer's memory: a primitive that does not fit whole is not written (it
    /// still counts in `PrimitivesStorageNeeded`).
    pub data: &'a mut [u8],
    /// Byte offset of the next write; updated by the draw.
    pub offset: u32,
}

/// The stream-output stage's state: the declaration, strides and rasterized stream
/// (as validated by `validate::so::check`), and up to four target buffers.
#[derive(Debug)]
pub struct StreamOutput<'a> {
    /// The entries, strides and rasterized stream.
    pub declaration: &'a streamout::StreamOutputDesc,
    /// The buffers of slots 0..3 (`None`: nothing bound; entries for that slot are
    /// dropped).
    pub targets: [Option<SoTarget<'a>>; 4],
}

/// The pipeline state of one draw.
pub struct Pipeline<'a> {
    /// The input layout's elements.
    pub input_layout: &'a [InputElement],
    /// Input slots 0..31.
    pub vertex_buffers: &'a [Option<VertexBuffer<'a>>],
    /// The index buffer, for the indexed draws.
    pub index_buffer: Option<IndexBuffer<'a>>,
    /// How the IA assembles vertices into primitives.
    pub topology: Topology,
    /// The vertex shader (`None`: the IA feeds the geometry shader directly, its input
    /// signature matched against the layout). Indexed draws always honour the
    /// strip-cut index (an index of all ones ends the strip).
    pub vs: Option<&'a Plan>,
    /// The geometry shader (`None`: the vertex shader's primitives go on as stream 0).
    pub gs: Option<&'a Plan>,
    /// The vertex shader's bindings, and the UAVs of all graphics stages: D3D11.1
    /// binds one set of UAVs for every graphics stage
    /// (`OMSetRenderTargetsAndUnorderedAccessViews`), so `vs_resources.uavs` is what
    /// the vertex *and* the geometry shader read and write (also without a vertex
    /// shader); one buffer can be written by both stages in one draw.
    pub vs_resources: Resources<'a>,
    /// The geometry shader's bindings but UAVs: `gs_resources.uavs` must be empty
    /// (the draw is refused otherwise); the GS sees `vs_resources.uavs`.
    pub gs_resources: Resources<'a>,
    /// The stream-output stage (`None`: no stream output).
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
    /// The output registers' 32-bit patterns, `o0` first.
    pub registers: Vec<[u32; 4]>,
    /// Where it came from (recorded by the capture only).
    pub provenance: Provenance,
}

/// Where a captured vertex came from: enough to align one implementation's output with
/// another's, vertex by vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Provenance {
    /// The input primitive: its index among the primitives the IA assembled in this
    /// draw, 0-based, all instances in order (what `IAPrimitives` counts; in a draw of
    /// one instance, its `SV_PrimitiveID`).
    pub input_primitive: u64,
    /// The geometry-shader instance (`SV_GSInstanceID`) whose invocation emitted the
    /// vertex; `None` without a geometry shader.
    pub gs_instance: Option<u32>,
    /// Which emit of that invocation produced the vertex: 0 for the first `emit*`
    /// executed, emits on every stream counted; `None` without a geometry shader.
    pub emission: Option<u32>,
}

/// The primitives of one stream, in order, as lists (strips are turned into lists).
#[derive(Debug, Clone, PartialEq)]
pub struct StreamPrimitives {
    /// The stream, 0..3.
    pub stream: u32,
    /// PointList, LineList or TriangleList (or the IA's topology without a GS).
    pub topology: PrimitiveTopology,
    /// Each primitive's vertices (1, 2 or 3; without a GS, topologies with adjacency
    /// lose their adjacent vertices, as they do on their way to stream output).
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
    /// The draw's pipeline statistics.
    pub statistics: PipelineStatistics,
    /// The stream-output statistics of streams 0..3.
    pub so_statistics: [SoStatistics; 4],
    /// The rasterized stream (`None`: nothing rasterized).
    pub rasterized_stream: Option<u32>,
    /// Checking-mode findings, the vertex shader's then the geometry shader's (each
    /// message prefixed `vs: ` or `gs: `).
    pub diagnostics: Vec<crate::machine::ExecDiagnostic>,
}

/// `D3D11_REQ_DRAW_VERTEX_COUNT_2_TO_EXP`: vertices (indices) one draw may produce,
/// instances included.
pub const MAX_DRAW_VERTICES: u64 = 1 << 32;

/// `D3D11_GS_MAX_INSTANCE_COUNT`.
pub const MAX_GS_INSTANCES: u32 = 32;

/// A draw call's parameters, with `DrawAuto` and the non-instanced forms resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Params {
    indexed: bool,
    /// Vertices or indices per instance.
    count: u32,
    /// Start vertex or start index.
    start: u32,
    base_vertex: u32,
    instances: u32,
    start_instance: u32,
}

impl Params {
    fn of(call: DrawCall, vertex_buffers: &[Option<VertexBuffer<'_>>]) -> Params {
        let plain =
            |count, start| Params { indexed: false, count, start, base_vertex: 0, instances: 1, start_instance: 0 };
        match call {
            DrawCall::Draw { vertex_count, start_vertex } => plain(vertex_count, start_vertex),
            DrawCall::DrawIndexed { index_count, start_index, base_vertex } => Params {
                indexed: true,
                count: index_count,
                start: start_index,
                base_vertex: base_vertex as u32,
                instances: 1,
                start_instance: 0,
            },
            DrawCall::DrawInstanced { vertex_count_per_instance, instance_count, start_vertex, start_instance } => {
                Params {
                    indexed: false,
                    count: vertex_count_per_instance,
                    start: start_vertex,
                    base_vertex: 0,
                    instances: instance_count,
                    start_instance,
                }
            }
            DrawCall::DrawIndexedInstanced {
                index_count_per_instance,
                instance_count,
                start_index,
                base_vertex,
                start_instance,
            } => Params {
                indexed: true,
                count: index_count_per_instance,
                start: start_index,
                base_vertex: base_vertex as u32,
                instances: instance_count,
                start_instance,
            },
            DrawCall::DrawAuto => {
                let count = match vertex_buffers.first().copied().flatten() {
                    Some(vb) if vb.stride != 0 && vb.data.len() as u64 > vb.offset as u64 => {
                        ((vb.data.len() as u64 - vb.offset as u64) / vb.stride as u64).min(u32::MAX as u64) as u32
                    }
                    _ => 0,
                };
                plain(count, 0)
            }
        }
    }
}

fn draw_error(message: String) -> ExecError {
    ExecError::new(ExecErrorKind::Draw(message))
}

/// A fast hasher for index values (the post-transform cache's map).
#[derive(Default, Clone, Copy)]
struct IndexHasher(u64);

impl std::hash::Hasher for IndexHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type IndexMap = std::collections::HashMap<u32, u32, std::hash::BuildHasherDefault<IndexHasher>>;

/// Non-indexed draws keep the last vertices in a ring of this many (primitive assembly
/// looks at most 10 vertices back).
const VERTEX_RING: usize = 16;

/// The state of one draw.
struct Runner<'r, 'o, 'w, 't, 'a> {
    topology: Topology,
    vs: Option<&'a Plan>,
    gs: Option<&'a Plan>,
    vs_machine: Option<Machine>,
    gs_machine: Option<Machine>,
    vs_resources: &'r mut Resources<'a>,
    gs_resources: &'r mut Resources<'a>,
    fetch: ia::InputFetch,
    buffers: &'a [Option<VertexBuffer<'a>>],
    /// The first stage's input registers for one vertex.
    inputs: Vec<[u32; 4]>,
    /// Per-instance element indices of the fetches.
    instance_elements: Vec<u32>,
    /// Vertices as they leave the vertex shader (or the IA without one): `vregs`
    /// registers each, a ring for non-indexed draws, one per distinct index for indexed
    /// ones.
    store: Vec<[u32; 4]>,
    vregs: usize,
    /// Geometry-shader input: `input_vertices × gs_regs` registers.
    gs_inputs: Vec<[u32; 4]>,
    gs_regs: usize,
    /// Registers copied from a stored vertex to a GS input vertex.
    copy_regs: usize,
    gs_instances: u32,
    sink: gs::GsSink<'o, 'w, 't, 'a>,
    statistics: PipelineStatistics,
    /// Step limit per invocation.
    step_limit: u64,
    /// Running invocations in lanes (`batch`), when both shaders can.
    lanes: Option<batch::LaneState>,
}

impl Runner<'_, '_, '_, '_, '_> {
    /// Produces vertex `handle` of the store: fetch, then the vertex shader.
    #[inline]
    fn vertex(&mut self, handle: usize, element: u32, vertex_id: u32, instance: u32) -> Result<(), ExecError> {
        self.fetch.fetch(self.buffers, element, &self.instance_elements, vertex_id, instance, &mut self.inputs);
        let dst = &mut self.store[handle * self.vregs..][..self.vregs];
        match (self.vs, self.vs_machine.as_mut()) {
            (Some(vs), Some(machine)) => {
                let out = machine.run_vertex(vs, &self.inputs, self.vs_resources)?;
                let n = out.len().min(dst.len());
                gs::copy_registers(&mut dst[..n], &out[..n]);
                dst[n..].fill([0; 4]);
                self.statistics.vs_invocations += 1;
            }
            _ => gs::copy_registers(dst, &self.inputs),
        }
        Ok(())
    }

    /// An assembled IA primitive: through the geometry shader, or straight to the
    /// output stage without one.
    #[inline]
    fn primitive(&mut self, p: ia::IaPrimitive) -> Result<(), ExecError> {
        self.statistics.ia_primitives += 1;
        let index = self.statistics.ia_primitives - 1;
        if self.gs.is_none() {
            self.pass_through(&p, index);
            return Ok(());
        }
        self.gs_inputs_of(&p);
        for instance in 0..self.gs_instances {
            self.gs_invocation(&p, index, instance)?;
        }
        Ok(())
    }

    /// Without a geometry shader: the primitive's interior vertices to stream 0
    /// (`index`: its position among the draw's IA primitives, for the capture).
    #[inline]
    fn pass_through(&mut self, p: &ia::IaPrimitive, index: u64) {
        let vregs = self.vregs;
        if self.sink.track {
            self.sink.out.origin.input_primitive = index;
        }
        let interior = self.topology.interior();
        let mut vertices: [&[[u32; 4]]; 3] = [&[], &[], &[]];
        for (v, &k) in vertices.iter_mut().zip(interior) {
            *v = &self.store[p.vertices[k] as usize * vregs..][..vregs];
        }
        self.sink.out.primitive(0, &vertices[..interior.len()]);
    }

    /// Where the next invocation's vertices come from, for the capture.
    #[inline]
    fn set_origin(&mut self, index: u64, instance: u32) {
        if self.sink.track {
            self.sink.out.origin = Provenance { input_primitive: index, gs_instance: Some(instance), emission: None };
        }
    }

    /// The geometry shader's input registers for `p` (from the store).
    #[inline]
    fn gs_inputs_of(&mut self, p: &ia::IaPrimitive) {
        let vregs = self.vregs;
        for (k, &h) in p.handles().iter().enumerate() {
            let src = &self.store[h as usize * vregs..][..self.copy_regs];
            gs::copy_registers(&mut self.gs_inputs[k * self.gs_regs..][..self.copy_regs], src);
        }
    }

    /// One geometry-shader invocation (instance `instance` of `p`, the draw's IA
    /// primitive number `index`, inputs in `gs_inputs`) on the one-invocation machine,
    /// its output to the sink.
    #[inline]
    fn gs_invocation(&mut self, p: &ia::IaPrimitive, index: u64, instance: u32) -> Result<(), ExecError> {
        if self.gs.is_none() {
            return Ok(());
        }
        self.set_origin(index, instance);
        let (Some(gs), Some(machine)) = (self.gs, self.gs_machine.as_mut()) else { return Ok(()) };
        // The graphics stages share their UAVs: lend the VS's to the GS (a swap of two
        // vectors, swapped back before anything returns).
        std::mem::swap(&mut self.vs_resources.uavs, &mut self.gs_resources.uavs);
        let system = GsSystemValues { primitive_id: p.id, gs_instance_id: instance };
        let run = machine.run_geometry(gs, &self.gs_inputs, system, self.gs_resources, &mut self.sink);
        std::mem::swap(&mut self.vs_resources.uavs, &mut self.gs_resources.uavs);
        // Every invocation (GS instance) ends with an implicit cut, also one that
        // failed.
        self.sink.end_invocation();
        run?;
        self.statistics.gs_invocations += 1;
        Ok(())
    }

    /// Every instance of the draw.
    fn run(&mut self, params: Params, index_buffer: Option<&IndexBuffer<'_>>) -> Result<(), ExecError> {
        if self.lanes.is_some() {
            return self.run_batched(params, index_buffer);
        }
        let mut assembler = ia::Assembler::new(self.topology);
        let cut = index_buffer.map_or(u32::MAX, |ib| ia::cut_value(ib.format));
        // Indexed draws: each distinct index gets a slot of the store, computed once
        // per instance (a post-transform cache without eviction).
        let mut slots = IndexMap::default();
        let mut stamps: Vec<u32> = Vec::new();
        let mut counter = 0usize;
        for instance in 0..params.instances {
            self.fetch.instance_elements(instance, params.start_instance, &mut self.instance_elements);
            assembler.start_instance();
            let stamp = instance.wrapping_add(1);
            for i in 0..params.count {
                let handle = if params.indexed {
                    let index = ia::read_index(index_buffer, params.start, i);
                    if index_buffer.is_some() && index == cut {
                        if let Some(p) = assembler.restart() {
                            self.primitive(p)?;
                        }
                        continue;
                    }
                    self.statistics.ia_vertices += 1;
                    let next = slots.len() as u32;
                    let slot = *slots.entry(index).or_insert(next);
                    if slot == next {
                        stamps.push(0);
                        self.store.resize(self.store.len() + self.vregs, [0; 4]);
                    }
                    if stamps[slot as usize] != stamp {
                        stamps[slot as usize] = stamp;
                        self.vertex(slot as usize, params.base_vertex.wrapping_add(index), index, instance)?;
                    }
                    slot
                } else {
                    self.statistics.ia_vertices += 1;
                    let slot = counter % VERTEX_RING;
                    counter = counter.wrapping_add(1);
                    self.vertex(slot, params.start.wrapping_add(i), i, instance)?;
                    slot as u32
                };
                if let Some(p) = assembler.push(handle) {
                    self.primitive(p)?;
                }
            }
            // The end of an instance ends the strip (8.4.1's RestartTopology).
            if let Some(p) = assembler.restart() {
                self.primitive(p)?;
            }
        }
        Ok(())
    }
}

/// Runs one draw.
///
/// # What happens
///
/// - **Input assembly** (chapter 8). The input layout's elements are matched to the
///   first stage's input signature (semantic name case-insensitively, and index); each
///   register the shader declares (`dcl_input`) must be fed by an element, else the
///   draw fails with [`ExecErrorKind::Draw`]. Elements are fetched at `offset + stride
///   × vertex + element offset` (per-instance data: `StartInstanceLocation + instance
///   / step rate`, a step rate of 0 never steps) in 32-bit wrapping arithmetic;
///   an element that does not lie wholly inside the buffer (or lies before the binding
///   offset) reads 0 in the format's components and the defaults (0, 0, 0, 1) in the
///   others; an unbound slot reads 0 everywhere. Indexed draws read 16- or 32-bit
///   indices (past the end of the index buffer, or without one, an index is 0); the cut
///   value (`0xffff`/`0xffffffff`) ends the strip, in every topology; the vertex
///   fetched is `BaseVertexLocation + index`. Each instance restarts the topology.
///   `SV_VertexID` is `i` (0-based, without `StartVertexLocation`) for non-indexed
///   draws and the index value for indexed ones; `SV_InstanceID` counts from 0;
///   `SV_PrimitiveID` (`vPrim`) counts the IA's primitives from 0 in each instance,
///   across cuts (8.16–8.18). Primitive order and vertex order within primitives: see
///   the topologies below.
/// - **Vertex shader**: once per vertex for non-indexed draws; for indexed draws once
///   per distinct index per instance (what `VSInvocations` counts).
/// - **Geometry shader**: one invocation per IA primitive per GS instance
///   (`dcl_gsinstances`), in that order, with `vGSInstanceID`; inputs `v[vertex][r]` are
///   the vertex shader's output registers `o#r` (the IA's inputs without a vertex
///   shader). The IA topology must match `dcl_inputprimitive` (point: pointlist; line:
///   line list/strip; triangle: triangle list/strip; lineadj, triangleadj: the
///   adjacency forms). Emits and cuts are assembled per stream (strips to lists, cut,
///   the implicit cut at the end of every invocation: see the `gs` module).
/// - **Without a geometry shader** the IA's primitives go on as stream 0, as point,
///   line or triangle lists; topologies with adjacency drop the adjacent vertices
///   (chapter 14: "Topologies with adjacency discard the adjacent vertices and only
///   Stream Out the interior vertices").
/// - **Stream output** (chapter 14): see [`StreamOutput`]; each primitive of a stream
///   with declaration entries is written whole to all the stream's buffers or not at
///   all; the [`SoTarget::offset`]s advance.
///
/// # Topologies (vertex order of each primitive, in a strip counted from its start)
///
/// - lists: consecutive groups of 1, 2, 3, 4 (line with adjacency) or 6 (triangle with
///   adjacency) vertices; a trailing incomplete group is discarded;
/// - line strip: `(k, k+1)`; line strip with adjacency: `(k, k+1, k+2, k+3)`;
/// - triangle strip: `(k, k+1, k+2)` for even `k`, `(k, k+2, k+1)` for odd `k` (the
///   leading vertex — 8.14 — first);
/// - triangle strip with adjacency: triangle `i` (of `(n - 4) / 2`) is based at `2i`:
///   only: `(0, 1, 2, 5, 4, 3)`; first: `(0, 1, 2, 6, 4, 3)`; even: `(2i, 2i-2, 2i+2,
///   2i+6, 2i+4, 2i+3)`; odd: `(2i, 2i+3, 2i+4, 2i+6, 2i+2, 2i-2)`; the last one uses
///   `2i+5` instead of `2i+6`.
///
/// # Statistics ([`PipelineStatistics`])
///
/// - `IAVertices`: vertices (non-cut indices) read, all instances, adjacent vertices
///   and those of discarded incomplete primitives included;
/// - `IAPrimitives`: complete primitives assembled;
/// - `VSInvocations`: vertex-shader runs (see above);
/// - `GSInvocations`: IA primitives × GS instances (13.2.1.1);
/// - `GSPrimitives`: complete primitives the GS output, all streams, after strips are
///   turned into lists (0 without a GS);
/// - `CInvocations` = `CPrimitives`: primitives of the rasterized stream (no clipping is
///   modelled, and the rasterizer counts as enabled whatever the pixel stage);
/// - `PSInvocations`, `HSInvocations`, `DSInvocations`, `CSInvocations`: 0.
///
/// [`SoStatistics`] count only streams with stream-output declaration entries:
/// `PrimitivesStorageNeeded` every primitive of the stream, `NumPrimitivesWritten` those
/// written.
///
/// The rasterized stream is the declaration's (`None` for
/// `D3D11_SO_NO_RASTERIZED_STREAM`), stream 0 without stream output.
///
/// # Errors
///
/// [`ExecErrorKind::Draw`] for a state the draw cannot run with (no shader, a shader of
/// the wrong stage, a topology the GS does not take, a missing layout element, a
/// stream-output entry naming no output element, more than 2³² vertices); the
/// interpreter's errors (step limit...) stop the draw where they happen — what stream
/// output wrote until then stays written and the offsets say so.
pub fn draw(pipeline: &mut Pipeline<'_>, call: DrawCall) -> Result<DrawResult, ExecError> {
    run_draw(pipeline, call, Mode::Lanes)
}

/// [`draw`] with every invocation run on its own, one after the other, on the
/// one-invocation [`Machine`] (no lanes, whatever the shaders): the reference the
/// batched draw is tested against. The results are the same, bit for bit.
pub fn draw_one_at_a_time(pipeline: &mut Pipeline<'_>, call: DrawCall) -> Result<DrawResult, ExecError> {
    run_draw(pipeline, call, Mode::OneAtATime)
}

/// [`draw`] spread over the threads of the current rayon pool
/// (`rayon::ThreadPool::install` picks one), for a draw with a geometry shader. A
/// non-indexed draw in a list topology is cut into segments of whole primitives that
/// the threads take in turn, each running the vertex and the geometry shader for its
/// segment, then, in segment order, taking the next bytes of the stream-output buffers
/// (a segment whose invocations cannot be written from the lanes — a failed lane,
/// invocations whose output differs — stops that, and the draw goes on from it as
/// below). Otherwise, chunk by chunk, the
/// vertex shader's batches and the geometry shader's batches of invocations run on any
/// thread; their stream-output writes go to places computed in invocation order (prefix
/// sums over each batch's counts) and are written in parallel when every batch's
/// output is known to fit, in invocation order on the calling thread otherwise. The
/// results are those of [`draw`], bit for bit. One thread, a draw without a geometry
/// shader, or one that does not run in lanes, is [`draw`].
pub fn draw_parallel(pipeline: &mut Pipeline<'_>, call: DrawCall) -> Result<DrawResult, ExecError> {
    run_draw(pipeline, call, Mode::Parallel)
}

/// How a draw runs its invocations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    OneAtATime,
    Lanes,
    Parallel,
}

fn run_draw(pipeline: &mut Pipeline<'_>, call: DrawCall, mode: Mode) -> Result<DrawResult, ExecError> {
    let Pipeline {
        input_layout,
        vertex_buffers,
        index_buffer,
        topology,
        vs,
        gs,
        vs_resources,
        gs_resources,
        stream_output,
        capture,
        step_limit,
        checking,
    } = pipeline;
    let (topology, vs, gs, capture) = (*topology, *vs, *gs, *capture);
    let buffers: &[Option<VertexBuffer<'_>>] = vertex_buffers;

    // The shaders and the topology.
    if let Some(vs) = vs {
        if vs.stage != tpf::ProgramType::Vertex {
            return Err(draw_error(format!("the vertex shader slot holds a {:?} shader", vs.stage)));
        }
    }
    if let Some(gs) = gs {
        if gs.stage != tpf::ProgramType::Geometry {
            return Err(draw_error(format!("the geometry shader slot holds a {:?} shader", gs.stage)));
        }
        let wanted = topology.gs_input();
        if gs.input_primitive != Some(wanted) || gs.input_vertices != topology.vertices_per_primitive() {
            let declared = gs.input_primitive.and_then(|p| p.listing_name()).unwrap_or("no");
            return Err(draw_error(format!(
                "the geometry shader takes {declared} input primitives ({} vertices), the topology {topology:?} gives {}",
                gs.input_vertices,
                wanted.listing_name().unwrap_or("?")
            )));
        }
    }
    if let Some(gs) = gs {
        if gs.instance_count > MAX_GS_INSTANCES {
            return Err(draw_error(format!(
                "the geometry shader declares {} instances (at most {MAX_GS_INSTANCES})",
                gs.instance_count
            )));
        }
    }
    if !gs_resources.uavs.is_empty() {
        return Err(draw_error(
            "UAVs bound in gs_resources: the graphics stages share one set of UAVs, bound in vs_resources.uavs".into(),
        ));
    }
    let first = match (vs, gs) {
        (Some(vs), _) => vs,
        (None, Some(gs)) => gs,
        (None, None) => return Err(draw_error("no vertex shader and no geometry shader".into())),
    };
    let last = gs.or(vs).unwrap_or(first);

    let params = Params::of(call, buffers);
    if params.count as u64 * params.instances as u64 > MAX_DRAW_VERTICES {
        return Err(draw_error(format!(
            "{} vertices × {} instances: more than 2^32 vertices in one draw",
            params.count, params.instances
        )));
    }
    let fetch = ia::InputFetch::new(input_layout, first, vs.is_some())?;

    // The output stage.
    let (so_layout, rasterized) = match stream_output.as_ref() {
        Some(so) => {
            let r = so.declaration.rasterized_stream;
            (Some(so::SoLayout::new(so.declaration, &last.output_signature)?), (r < 4).then_some(r))
        }
        None => (None, Some(0)),
    };
    let topologies: [Option<tpf::PrimitiveTopology>; 4] = match gs {
        Some(gs) => gs.output_topology,
        None => [None; 4],
    };
    let mut captures: [Option<output::Capture>; 4] = Default::default();
    if capture {
        match gs {
            Some(gs) => {
                for (s, c) in captures.iter_mut().enumerate() {
                    if let Some(list) = gs::Shape::of(topologies[s]).list() {
                        *c = Some(output::Capture::new(gs, s as u32, list));
                    }
                }
            }
            None => captures[0] = Some(output::Capture::new(last, 0, topology.list())),
        }
    }
    let mut writer = match (so_layout, stream_output.as_mut()) {
        (Some(layout), Some(so)) => Some(so::SoWriter::new(layout, &mut so.targets)),
        _ => None,
    };
    let mut out = output::OutputStage {
        so: writer.as_mut(),
        rasterized,
        capture: captures,
        primitives: 0,
        rasterized_primitives: 0,
        scratch: Vec::new(),
        origin: Provenance::default(),
    };

    let machine = |plan: &Plan| {
        let mut m = Machine::new(plan);
        m.set_step_limit(*step_limit);
        m.set_checking(*checking);
        m
    };
    let vregs = match vs {
        Some(vs) => vs.output_registers as usize,
        None => fetch.registers,
    };
    let (gs_regs, gs_vertices, gs_instances) = match gs {
        Some(gs) => (gs.input_registers as usize, gs.input_vertices as usize, gs.instance_count.max(1)),
        None => (0, 0, 0),
    };
    let out_regs = last.output_registers as usize;
    // Invocations run in lanes when both shaders can (and nothing is checked: the
    // checking mode's findings are per invocation, in order).
    let batched = mode != Mode::OneAtATime
        && !*checking
        && vs.is_none_or(Plan::runs_in_lanes)
        && gs.is_none_or(Plan::runs_in_lanes);
    let lanes = batched.then(|| batch::LaneState::new(vs, gs, mode == Mode::Parallel));
    let ring = lanes.as_ref().map_or(VERTEX_RING, batch::LaneState::ring);
    let mut runner = Runner {
        topology,
        vs,
        gs,
        vs_machine: vs.map(machine),
        gs_machine: gs.map(machine),
        vs_resources,
        gs_resources,
        inputs: vec![[0; 4]; fetch.registers],
        fetch,
        buffers,
        instance_elements: Vec::new(),
        store: if params.indexed { Vec::new() } else { vec![[0; 4]; ring * vregs] },
        vregs,
        gs_inputs: vec![[0; 4]; gs_vertices * gs_regs],
        gs_regs,
        copy_regs: gs_regs.min(vregs),
        gs_instances,
        sink: gs::GsSink::new(topologies, out_regs, &mut out),
        statistics: PipelineStatistics::default(),
        step_limit: *step_limit,
        lanes,
    };
    let ran = runner.run(params, index_buffer.as_ref());
    let mut statistics = runner.statistics;
    let mut diagnostics = Vec::new();
    for (stage, m) in [("vs", runner.vs_machine.as_mut()), ("gs", runner.gs_machine.as_mut())] {
        if let Some(m) = m {
            diagnostics.extend(m.take_diagnostics().into_iter().map(|mut d| {
                d.message = format!("{stage}: {}", d.message);
                d
            }));
        }
    }
    drop(runner);
    ran?;
    if gs.is_some() {
        statistics.gs_primitives = out.primitives;
    }
    statistics.c_invocations = out.rasterized_primitives;
    statistics.c_primitives = out.rasterized_primitives;
    let streams = out.capture.iter_mut().filter_map(|c| c.take().map(|c| c.primitives)).collect();
    let so_statistics = writer.as_ref().map(|w| w.statistics).unwrap_or_default();
    Ok(DrawResult { streams, statistics, so_statistics, rasterized_stream: rasterized, diagnostics })
}
