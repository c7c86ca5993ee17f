//! Geometry shaders lowered to compute: a vertex shader and a geometry shader become
//! four compute passes (see [Geometry shaders as compute](crate#geometry-shaders-as-compute)).
//!
//! The geometry shader's body is the front end's `dx_run` (its emits and cuts call
//! `dx_emit`, `dx_cut` and `dx_emit_then_cut`, written here); the passes around it are
//! written here as WGSL and parsed by naga like every translated module.

use std::fmt::Write as _;

use tpf::table::Flow;
use tpf::{Decl, InstructionRef, OperandType, Primitive, PrimitiveTopology, Program, ProgramType, Topology};

use crate::{Options, SigElement, TranslateError};

type R<T> = Result<T, TranslateError>;

/// The bind group of every buffer the passes of the lowering add (the shaders' own
/// resources keep their bindings).
pub const GS_COMPUTE_GROUP: u32 = 4;

/// The bind group of the stream-output buffers (binding = output slot) in the
/// compaction pass.
pub const GS_STREAM_OUTPUT_GROUP: u32 = 5;

/// The workgroup size (x) of the expansion and compaction passes.
pub const GS_COMPUTE_WORKGROUP: u32 = 64;

/// The workgroup size of the scan pass (it runs as one workgroup).
pub const GS_SCAN_WORKGROUP: u32 = 256;

/// Words of the statistics buffer the scan and compaction passes write.
pub const GS_STATISTICS_WORDS: u32 = 20;

/// A geometry shader's declarations, as the front end reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GsDecls {
    pub input_primitive: Option<Primitive>,
    pub topologies: [Option<PrimitiveTopology>; 4],
    /// The stream `dcl_stream` selected last (0 without one).
    pub stream: u32,
    pub max_vertices: u32,
    pub instances: u32,
    /// `n` of `v[n][r]`.
    pub input_vertices: u32,
    /// The highest declared input register + 1.
    pub input_registers: u32,
    /// The highest declared output register + 1.
    pub output_registers: u32,
}

impl Default for GsDecls {
    fn default() -> Self {
        GsDecls {
            input_primitive: None,
            topologies: [None; 4],
            stream: 0,
            max_vertices: 0,
            instances: 1,
            input_vertices: 0,
            input_registers: 0,
            output_registers: 0,
        }
    }
}

fn unsupported(index: usize, ins: &InstructionRef<'_, '_>, what: impl Into<String>) -> TranslateError {
    TranslateError::Unsupported { index, mnemonic: ins.opcode.mnemonic(), what: what.into() }
}

/// A geometry-shader declaration (`dcl_inputprimitive`, `dcl_outputtopology`,
/// `dcl_maxout`, `dcl_stream`, `dcl_gsinstances`).
pub(crate) fn declaration(gs: &mut GsDecls, i: usize, ins: &InstructionRef<'_, '_>, d: Decl) -> R<()> {
    match d {
        Decl::InputPrimitive(p) => {
            if !matches!(
                p,
                Primitive::Point | Primitive::Line | Primitive::Triangle | Primitive::LineAdj | Primitive::TriangleAdj
            ) {
                return Err(unsupported(i, ins, "this input primitive"));
            }
            gs.input_primitive = Some(p);
        }
        Decl::OutputTopology(t) => {
            let slot =
                gs.topologies.get_mut(gs.stream as usize).ok_or_else(|| unsupported(i, ins, "a stream beyond 3"))?;
            if shape(Some(t)) == 0 {
                return Err(unsupported(i, ins, "this output topology"));
            }
            *slot = Some(t);
        }
        // D3D11_GS_MAX_OUTPUT_VERTEX_COUNT_ACROSS_INSTANCES is 1024.
        Decl::MaxOutputVertexCount(n) if n > 1024 => return Err(unsupported(i, ins, "dcl_maxout beyond 1024")),
        Decl::MaxOutputVertexCount(n) => gs.max_vertices = n,
        Decl::GsInstanceCount(n) if n == 0 || n > 32 => {
            return Err(unsupported(i, ins, "an instance count outside 1..32"))
        }
        Decl::GsInstanceCount(n) => gs.instances = n,
        Decl::Stream(operand) => {
            let o = ins.operand(operand);
            match o.register() {
                Some(s) if o.ty == OperandType::Stream && s < 4 => gs.stream = s as u32,
                _ => return Err(unsupported(i, ins, "a stream other than m0..m3")),
            }
        }
        _ => return Err(unsupported(i, ins, "this declaration")),
    }
    Ok(())
}

/// How a stream's emits form primitives: 0 not at all (undeclared), 1 points, 2 line
/// strip, 3 triangle strip, 4 line list, 5 triangle list.
fn shape(t: Option<PrimitiveTopology>) -> u32 {
    match t {
        Some(PrimitiveTopology::PointList) => 1,
        Some(PrimitiveTopology::LineStrip) => 2,
        Some(PrimitiveTopology::TriangleStrip) => 3,
        Some(PrimitiveTopology::LineList) => 4,
        Some(PrimitiveTopology::TriangleList) => 5,
        _ => 0,
    }
}

/// Vertices per output primitive of a stream (0 when it has none).
fn vertices_of(t: Option<PrimitiveTopology>) -> u32 {
    match shape(t) {
        1 => 1,
        2 | 4 => 2,
        3 | 5 => 3,
        _ => 0,
    }
}

/// The statement of an `emit*` or `cut*` in `dx_run`: the invocation ends (returns)
/// when an emit reaches `dcl_maxout`.
pub(crate) fn emit_statement(_gs: &GsDecls, i: usize, ins: &InstructionRef<'_, '_>, flow: Flow) -> R<String> {
    let stream = match ins.operands().first() {
        None => 0,
        Some(o) => match o.register() {
            Some(s) if o.ty == OperandType::Stream && s < 4 => s as u32,
            _ => return Err(unsupported(i, ins, "a stream other than m0..m3")),
        },
    };
    Ok(match flow {
        Flow::Emit => format!("if (dx_emit({stream}u)) {{ return; }}"),
        Flow::EmitThenCut => format!("if (dx_emit_then_cut({stream}u)) {{ return; }}"),
        _ => format!("dx_cut({stream}u);"),
    })
}

/// The WGSL expression (a `u32`) of the vertex `k` of input primitive `dx_p` of a
/// non-indexed draw of one instance with topology `t` (D3D11.3 functional spec, 8.4
/// "Primitive Topologies": a triangle strip's odd triangles have their last two vertices
/// swapped, so that the leading vertex stays first; a strip with adjacency has its own
/// orders for the first, odd and last triangles). `dx_tp` is the number of primitives.
fn vertex_expr(t: Topology, k: u32) -> String {
    let n = t.vertices_per_primitive();
    match (t, k) {
        (Topology::LineStrip | Topology::LineStripAdj, _) => format!("(dx_p + {k}u)"),
        (Topology::TriangleStrip, 0) => "dx_p".into(),
        (Topology::TriangleStrip, 1) => "(dx_p + 1u + (dx_p & 1u))".into(),
        (Topology::TriangleStrip, _) => "(dx_p + 2u - (dx_p & 1u))".into(),
        (Topology::TriangleStripAdj, _) => {
            // The offsets from vertex 2 * dx_p, chosen by the triangle's place in the strip.
            let k = k as usize;
            let offset = |first, even, last| Topology::strip_adj_offsets(first, even, last).get(k).map_or(0, |&o| o);
            let pick = |cond: &str, yes: String, no: String| {
                if yes == no {
                    yes
                } else {
                    format!("select({no}, {yes}, {cond})")
                }
            };
            let by_place = |last| {
                pick(
                    "((dx_p & 1u) == 0u)",
                    pick(
                        "(dx_p == 0u)",
                        format!("{}", offset(true, true, last)),
                        format!("{}", offset(false, true, last)),
                    ),
                    format!("{}", offset(false, false, last)),
                )
            };
            let o = pick("(dx_p + 1u == dx_tp)", by_place(true), by_place(false));
            format!("u32(i32(dx_p * 2u) + {o})")
        }
        _ => format!("(dx_p * {n}u + {k}u)"),
    }
}

/// Choices of the lowering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GsOptions {
    /// How the draw's vertices form input primitives.
    pub topology: Topology,
    /// The stream-output declaration (`None`: no stream output, stream 0 rasterized).
    pub stream_output: Option<streamout::StreamOutputDesc>,
    /// The vertex shader's translation options (its entry point is always a compute
    /// one).
    pub vs: Options,
    /// The geometry shader's (its bindings; the entry point name applies to every pass).
    pub gs: Options,
}

/// Where the passes put things: what a host needs to size the buffers and dispatch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GsLayout {
    /// Vertices per input primitive.
    pub input_vertices: u32,
    /// `dcl_gsinstances` (1 without it).
    pub instances: u32,
    /// `dcl_maxout`: emitted-vertex slots per invocation.
    pub max_vertices: u32,
    /// Input `vec4`s per vertex of the vertex shader (its highest input register + 1).
    pub vs_inputs: u32,
    /// Output `vec4`s per vertex of the vertex shader.
    pub vs_outputs: u32,
    /// Output registers per emitted vertex of the geometry shader (`REGS`).
    pub registers: u32,
    /// Vertices per output primitive of each stream (0: the stream has none).
    pub stream_vertices: [u32; 4],
    /// The byte stride of each stream-output slot (0: unused).
    pub so_strides: [u32; 4],
    /// The stream whose primitives go to the vertex and index buffers.
    pub rasterized: Option<u32>,
}

impl GsLayout {
    /// `vec4`s per emitted-vertex slot: the registers and one of bookkeeping.
    pub fn slot(&self) -> u32 {
        self.registers.saturating_add(1)
    }
}

/// The four passes and their layout.
#[derive(Debug, Clone)]
pub struct GsLowering {
    /// Pass 0: the vertex shader, one vertex per invocation
    /// ([`Options::vertex_as_compute`]).
    pub vertex: naga::Module,
    /// Pass 1: one invocation per (input primitive, GS instance).
    pub expand: naga::Module,
    /// Pass 2: the prefix sums (one workgroup).
    pub scan: naga::Module,
    /// Pass 3: compaction into the output buffers.
    pub compact: naga::Module,
    /// Sizes and strides.
    pub layout: GsLayout,
}

impl GsLowering {
    /// The passes in order, with their names (`vertex`, `expand`, `scan`, `compact`).
    pub fn passes(&self) -> [(&'static str, &naga::Module); 4] {
        [("vertex", &self.vertex), ("expand", &self.expand), ("scan", &self.scan), ("compact", &self.compact)]
    }
}

/// An output element with its stream.
pub(crate) struct OutElement {
    pub stream: u32,
    pub name: String,
    pub index: u32,
    pub register: u32,
    pub mask: u8,
}

fn input_error(e: impl std::fmt::Display) -> TranslateError {
    TranslateError::Input(e.to_string())
}

/// A container's program and signatures (the output one with streams).
/// A container's program, input and output signatures, and output elements with their
/// streams.
type Parts<'b> = (tpf::Program<'b>, Vec<SigElement>, Vec<SigElement>, Vec<OutElement>);

/// Per stream its copies, per stream the slots it uses (bit set), per slot its stride.
pub(crate) type SoLayout = ([Vec<Copy>; 4], [u8; 4], [u32; 4]);

fn container(bytes: &[u8]) -> R<Parts<'_>> {
    let c = dxbc::Container::parse(bytes).map_err(input_error)?;
    let chunk = c
        .chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])
        .ok_or_else(|| TranslateError::Input("no SHDR or SHEX chunk".into()))?;
    let program = tpf::decode(chunk.data).map_err(|e| input_error(e.rebased(chunk.data_offset())))?;
    let read = |fourccs: &[dxbc::FourCc]| -> R<Vec<(SigElement, u32)>> {
        let Some(chunk) = c.chunk_any(fourccs) else { return Ok(Vec::new()) };
        let Some(format) = dxbc::SignatureFormat::for_fourcc(chunk.fourcc) else { return Ok(Vec::new()) };
        let sig = dxbc::Signature::parse_fields(chunk.data, format).map_err(input_error)?;
        Ok(sig
            .elements
            .iter()
            .map(|e| {
                (
                    SigElement {
                        semantic_name: e.semantic_name.to_string(),
                        semantic_index: e.semantic_index,
                        register: e.register,
                        mask: e.mask,
                        component_type: u32::from(e.component_type),
                    },
                    e.stream,
                )
            })
            .collect())
    };
    let isgn = read(&[dxbc::FourCc::ISGN, dxbc::FourCc::ISG1])?.into_iter().map(|e| e.0).collect();
    let out = read(&[dxbc::FourCc::OSGN, dxbc::FourCc::OSG5, dxbc::FourCc::OSG1])?;
    let streams = out
        .iter()
        .map(|(e, s)| OutElement {
            stream: *s,
            name: e.semantic_name.clone(),
            index: e.semantic_index,
            register: e.register,
            mask: e.mask,
        })
        .collect();
    let osgn = out.into_iter().map(|e| e.0).collect();
    Ok((program, isgn, osgn, streams))
}

/// The highest declared input and output registers + 1 of a vertex shader.
fn vs_registers(program: &Program<'_>) -> (u32, u32) {
    let (mut inputs, mut outputs) = (0u32, 0u32);
    for ins in program.iter() {
        let tpf::Body::Decl(d) = ins.body else { continue };
        let operand = match d {
            Decl::Register(o) | Decl::RegisterName { operand: o, .. } => o,
            _ => continue,
        };
        let o = ins.operand(operand);
        let Some(r) = o.register() else { continue };
        let r = u32::try_from(r).unwrap_or(u32::MAX).saturating_add(1);
        match o.ty {
            OperandType::Input => inputs = inputs.max(r),
            OperandType::Output => outputs = outputs.max(r),
            _ => {}
        }
    }
    (inputs, outputs)
}

/// One copy of a stream-output entry: `count` components of `register` from `start`
/// to word `word` of the vertex in slot `slot`.
pub(crate) struct Copy {
    pub slot: usize,
    pub word: u32,
    pub register: u32,
    pub start: u32,
    pub count: u32,
}

/// The stream-output declaration resolved against the output signature, as exec's
/// reference does it (functional spec 14.4): per stream its copies and the slots it
/// uses; per slot its stride.
pub(crate) fn so_layout(desc: &streamout::StreamOutputDesc, out: &[OutElement]) -> R<SoLayout> {
    let so_error = |what: String| TranslateError::Pipeline { what };
    let mut copies: [Vec<Copy>; 4] = Default::default();
    let mut slots = [0u8; 4];
    let mut size = [0u32; 4];
    for (i, e) in desc.entries.iter().enumerate() {
        let (stream, slot) = (e.stream as usize, usize::from(e.output_slot));
        let (Some(c), Some(sl), Some(sz)) = (copies.get_mut(stream), slots.get_mut(stream), size.get_mut(slot)) else {
            return Err(so_error(format!("stream-output entry {i}: stream or slot beyond 3")));
        };
        *sl |= 1 << slot;
        match &e.semantic_name {
            None => *sz = sz.saturating_add(4u32.saturating_mul(u32::from(e.component_count))),
            Some(name) => {
                let el = out
                    .iter()
                    .find(|o| o.stream == e.stream && o.index == e.semantic_index && o.name.eq_ignore_ascii_case(name))
                    .ok_or_else(|| {
                        so_error(format!("stream-output entry {i}: no output element {name}{}", e.semantic_index))
                    })?;
                let (first, _) = streamout::element_span(el.mask);
                let start = first.saturating_add(u32::from(e.start_component)).min(3);
                let count = if e.component_count == 0 {
                    ((u32::from(el.mask) & 0xf) >> start).trailing_ones().max(1)
                } else {
                    u32::from(e.component_count)
                };
                let count = count.min(4u32.saturating_sub(start));
                c.push(Copy { slot, word: *sz / 4, register: el.register, start, count });
                *sz = sz.saturating_add(4u32.saturating_mul(count));
            }
        }
    }
    let mut strides = [0u32; 4];
    for (slot, s) in strides.iter_mut().enumerate() {
        *s = match desc.strides.get(slot) {
            Some(&x) if x != 0 => x,
            _ => size.get(slot).copied().unwrap_or(0),
        };
        if *s % 4 != 0 {
            return Err(so_error(format!("stream-output slot {slot}: a stride of {s} bytes (not a multiple of 4)")));
        }
    }
    Ok((copies, slots, strides))
}

/// Lowers a vertex shader and a geometry shader (DXBC containers) to compute passes.
pub fn lower(vs: &[u8], gs: &[u8], options: &GsOptions) -> R<GsLowering> {
    let (vs_program, vs_isgn, vs_osgn, _) = container(vs)?;
    if vs_program.version.ty != ProgramType::Vertex {
        return Err(TranslateError::Pipeline {
            what: format!("{} is not a vertex shader", vs_program.version.profile()),
        });
    }
    let (gs_program, gs_isgn, gs_osgn, out) = container(gs)?;
    let vs_options = Options { vertex_as_compute: true, ..options.vs.clone() };
    let vertex = crate::module_from_program(&vs_program, &vs_isgn, &vs_osgn, &vs_options)?;
    let (vs_inputs, vs_outputs) = vs_registers(&vs_program);
    let (globals, body, decls) = crate::front::geometry(&gs_program, &gs_isgn, &gs_osgn, &options.gs)?;
    let input = decls
        .input_primitive
        .ok_or_else(|| TranslateError::Pipeline { what: "the geometry shader declares no input primitive".into() })?;
    if input != options.topology.gs_input() {
        return Err(TranslateError::Pipeline {
            what: format!(
                "the geometry shader takes {} primitives, the draw's topology is {:?}",
                input.listing_name().unwrap_or("unknown"),
                options.topology
            ),
        });
    }
    let (copies, slots, so_strides) = match &options.stream_output {
        Some(desc) => so_layout(desc, &out)?,
        None => (Default::default(), [0; 4], [0; 4]),
    };
    let rasterized = match &options.stream_output {
        Some(d) if d.rasterized_stream == streamout::NO_RASTERIZED_STREAM => None,
        Some(d) if d.rasterized_stream < 4 => Some(d.rasterized_stream),
        Some(d) => return Err(TranslateError::Pipeline { what: format!("rasterized stream {}", d.rasterized_stream) }),
        None => Some(0),
    };
    let layout = GsLayout {
        input_vertices: options.topology.vertices_per_primitive(),
        instances: decls.instances,
        max_vertices: decls.max_vertices,
        vs_inputs,
        vs_outputs,
        registers: decls.output_registers,
        stream_vertices: decls.topologies.map(vertices_of),
        so_strides: std::array::from_fn(|s| {
            if slots.iter().any(|m| m & (1 << s) != 0) {
                so_strides.get(s).copied().unwrap_or(0)
            } else {
                0
            }
        }),
        rasterized: rasterized.filter(|&r| decls.topologies.get(r as usize).copied().flatten().is_some()),
    };
    let parse = |source: String| -> R<naga::Module> {
        let mut m =
            naga::front::wgsl::parse_str(&source).map_err(|e| TranslateError::Generated(e.emit_to_string(&source)))?;
        naga::compact::compact(&mut m, naga::compact::KeepUnused::No);
        // The shader's resources and the pass's buffers (group 4, which a Shader Model
        // 5.1 register space 1 also takes by default) at distinct slots.
        crate::distinct_bindings(&m)?;
        crate::validate(&m)?;
        Ok(m)
    };
    let entry = options.gs.entry_point.as_str();
    let expand = parse(expand_source(&globals, &body, &decls, &layout, options.topology, entry))?;
    let scan = parse(scan_source(&layout, entry))?;
    let compact = parse(compact_source(&layout, &copies, &slots, entry))?;
    Ok(GsLowering { vertex, expand, scan, compact, layout })
}

/// Pass 1: the geometry shader, one invocation per (input primitive, instance).
fn expand_source(
    globals: &str,
    body: &str,
    decls: &GsDecls,
    layout: &GsLayout,
    topology: Topology,
    entry: &str,
) -> String {
    let g = GS_COMPUTE_GROUP;
    let max = layout.max_vertices;
    let regs = layout.registers;
    let slot = layout.slot();
    let mut s = String::from(crate::front::enables(globals));
    s.push_str("diagnostic(off, derivative_uniformity);\n\n");
    s.push_str(crate::PRELUDE);
    s.push('\n');
    s.push_str(globals);
    s.push_str("\nfn dx_run() {\n");
    s.push_str(body);
    s.push_str("}\n\n");
    let shapes: Vec<String> = decls.topologies.iter().map(|t| format!("{}u", shape(*t))).collect();
    let _ = write!(
        s,
        "@group({g}) @binding(0) var<storage, read> dx_vsout: array<vec4<u32>>;
@group({g}) @binding(1) var<storage, read_write> dx_slots: array<vec4<u32>>;
@group({g}) @binding(2) var<storage, read_write> dx_prims: array<vec4<u32>>;
@group({g}) @binding(3) var<storage, read_write> dx_counts: array<vec4<u32>>;
var<private> dx_inv: u32;
var<private> dx_emitted: u32;
var<private> dx_strip: array<u32, 4>;
var<private> dx_ring: array<array<u32, 3>, 4>;
var<private> dx_nv: vec4<u32>;
var<private> dx_np: vec4<u32>;
var<private> dx_nt: u32;
var<private> dx_shapes: array<u32, 4> = array<u32, 4>({shapes});

fn dx_prim(s: u32, a: u32, b: u32, c: u32) {{
    dx_prims[dx_inv * {max}u + dx_nt] = vec4<u32>(s, a, b, c);
    dx_nt = dx_nt + 1u;
    dx_np[s] = dx_np[s] + 1u;
}}

fn dx_emit(s: u32) -> bool {{
    if (dx_emitted >= {max}u) {{
        return true;
    }}
    let k = dx_emitted;
    let at = (dx_inv * {max}u + k) * {slot}u;
",
        shapes = shapes.join(", ")
    );
    for r in 0..regs {
        let _ = writeln!(s, "    dx_slots[at + {r}u] = o[{r}];");
    }
    let _ = write!(
        s,
        "    dx_slots[at + {regs}u] = vec4<u32>(s, dx_nv[s], 0u, 0u);
    dx_nv[s] = dx_nv[s] + 1u;
    dx_emitted = k + 1u;
    let shape = dx_shapes[s];
    if (shape == 1u) {{
        dx_prim(s, k, 0u, 0u);
    }} else if (shape >= 2u) {{
        let p = dx_strip[s];
        dx_strip[s] = p + 1u;
        dx_ring[s][p % 3u] = k;
        if (shape == 2u && p >= 1u) {{
            dx_prim(s, dx_ring[s][(p - 1u) % 3u], k, 0u);
        }}
        if (shape == 4u && p % 2u == 1u) {{
            dx_prim(s, dx_ring[s][(p - 1u) % 3u], k, 0u);
        }}
        if (shape == 5u && p % 3u == 2u) {{
            dx_prim(s, dx_ring[s][(p - 2u) % 3u], dx_ring[s][(p - 1u) % 3u], k);
        }}
        if (shape == 3u && p >= 2u) {{
            let q = p - 2u;
            if ((q & 1u) == 0u) {{
                dx_prim(s, dx_ring[s][q % 3u], dx_ring[s][(q + 1u) % 3u], k);
            }} else {{
                dx_prim(s, dx_ring[s][q % 3u], k, dx_ring[s][(q + 1u) % 3u]);
            }}
        }}
    }}
    return dx_emitted >= {max}u;
}}

fn dx_cut(s: u32) {{
    dx_strip[s] = 0u;
}}

fn dx_emit_then_cut(s: u32) -> bool {{
    let e = dx_emit(s);
    dx_cut(s);
    return e;
}}

@compute @workgroup_size({wg})
fn {entry}(@builtin(global_invocation_id) dx_id: vec3<u32>, @builtin(num_workgroups) dx_ng: vec3<u32>) {{
    let inv = dx_id.x + dx_id.y * dx_ng.x * {wg}u;
    if (inv >= arrayLength(&dx_counts) / 2u) {{
        return;
    }}
    dx_inv = inv;
    let dx_p = inv / {inst}u;
    vPrim = dx_p;
    vGSInstanceID = inv % {inst}u;
",
        wg = GS_COMPUTE_WORKGROUP,
        inst = layout.instances.max(1),
    );
    let copy = decls.input_registers.min(layout.vs_outputs);
    let vsregs = layout.vs_outputs;
    if topology == Topology::TriangleStripAdj {
        // The last triangle of a strip with adjacency takes another vertex.
        let _ = writeln!(s, "    let dx_tp = arrayLength(&dx_counts) / 2u / {}u;", layout.instances.max(1));
    }
    for k in 0..decls.input_vertices.min(layout.input_vertices) {
        let _ = writeln!(s, "    let dx_v{k} = {} * {vsregs}u;", vertex_expr(topology, k));
        for r in 0..copy {
            let _ = writeln!(s, "    v[{k}][{r}] = dx_vsout[dx_v{k} + {r}u];");
        }
    }
    s.push_str(
        "    dx_run();
    dx_counts[inv * 2u] = dx_np;
    dx_counts[inv * 2u + 1u] = dx_nv;
}
",
    );
    s
}

/// Pass 2: exclusive prefix sums of the per-invocation counts, in one workgroup (each
/// thread sums a contiguous chunk, one thread scans the chunk sums, each thread then
/// writes its chunk's offsets); the totals and the pipeline statistics.
fn scan_source(layout: &GsLayout, entry: &str) -> String {
    let g = GS_COMPUTE_GROUP;
    let wg = GS_SCAN_WORKGROUP;
    let rasterized = match layout.rasterized {
        Some(r) => format!("run[0][{r}]"),
        None => "0u".into(),
    };
    format!(
        "@group({g}) @binding(0) var<storage, read> dx_counts: array<vec4<u32>>;
@group({g}) @binding(1) var<storage, read_write> dx_offsets: array<vec4<u32>>;
@group({g}) @binding(2) var<storage, read_write> dx_stats: array<u32>;
var<workgroup> dx_part: array<array<vec4<u32>, 2>, {wg}>;

@compute @workgroup_size({wg})
fn {entry}(@builtin(local_invocation_index) t: u32) {{
    let n = arrayLength(&dx_counts) / 2u;
    let chunk = (n + {last}u) / {wg}u;
    let lo = min(t * chunk, n);
    let hi = min(lo + chunk, n);
    var sum = array<vec4<u32>, 2>(vec4<u32>(0u), vec4<u32>(0u));
    for (var i = lo; i < hi; i = i + 1u) {{
        sum[0] = sum[0] + dx_counts[2u * i];
        sum[1] = sum[1] + dx_counts[2u * i + 1u];
    }}
    dx_part[t] = sum;
    workgroupBarrier();
    if (t == 0u) {{
        var run = array<vec4<u32>, 2>(vec4<u32>(0u), vec4<u32>(0u));
        for (var k = 0u; k < {wg}u; k = k + 1u) {{
            let x = dx_part[k];
            dx_part[k] = run;
            run[0] = run[0] + x[0];
            run[1] = run[1] + x[1];
        }}
        for (var c = 0u; c < 4u; c = c + 1u) {{
            dx_stats[c] = run[0][c];
            dx_stats[4u + c] = run[1][c];
        }}
        dx_stats[16] = n;
        dx_stats[17] = run[0].x + run[0].y + run[0].z + run[0].w;
        dx_stats[18] = {rasterized};
    }}
    workgroupBarrier();
    var at = dx_part[t];
    for (var i = lo; i < hi; i = i + 1u) {{
        dx_offsets[2u * i] = at[0];
        dx_offsets[2u * i + 1u] = at[1];
        at[0] = at[0] + dx_counts[2u * i];
        at[1] = at[1] + dx_counts[2u * i + 1u];
    }}
}}
",
        last = wg.saturating_sub(1),
    )
}

/// Pass 3: each invocation's primitives to their places: the stream-output buffers
/// (whole primitives that fit in every buffer of their stream), the rasterized
/// stream's vertex and index buffers; invocation 0 writes the stream-output
/// statistics and the indirect draw arguments.
fn compact_source(layout: &GsLayout, copies: &[Vec<Copy>; 4], slots: &[u8; 4], entry: &str) -> String {
    let g = GS_COMPUTE_GROUP;
    let so = GS_STREAM_OUTPUT_GROUP;
    let max = layout.max_vertices;
    let regs = layout.registers;
    let slot = layout.slot();
    let mut s = format!(
        "@group({g}) @binding(0) var<storage, read> dx_slots: array<vec4<u32>>;
@group({g}) @binding(1) var<storage, read> dx_prims: array<vec4<u32>>;
@group({g}) @binding(2) var<storage, read> dx_counts: array<vec4<u32>>;
@group({g}) @binding(3) var<storage, read> dx_offsets: array<vec4<u32>>;
@group({g}) @binding(4) var<storage, read_write> dx_stats: array<u32>;
@group({g}) @binding(5) var<storage, read_write> dx_vb: array<vec4<u32>>;
@group({g}) @binding(6) var<storage, read_write> dx_ib: array<u32>;
@group({g}) @binding(7) var<storage, read_write> dx_indirect: array<u32>;
"
    );
    let used: u8 = slots.iter().fold(0, |a, b| a | b);
    for k in 0..4u32 {
        if used & (1 << k) != 0 {
            let _ = writeln!(s, "@group({so}) @binding({k}) var<storage, read_write> dx_so{k}: array<u32>;");
        }
    }
    // Primitives of stream `st` that fit in its buffers: per slot, the buffer's words
    // over the words of one primitive.
    let room = |st: usize| -> String {
        let n = layout.stream_vertices.get(st).copied().unwrap_or(0);
        let mut parts = Vec::new();
        for k in 0..4usize {
            let stride = layout.so_strides.get(k).copied().unwrap_or(0);
            if slots.get(st).is_some_and(|m| m & (1 << k) != 0) && stride != 0 && n != 0 {
                parts.push(format!("arrayLength(&dx_so{k}) / {}u", (stride / 4).saturating_mul(n)));
            }
        }
        parts.into_iter().reduce(|a, b| format!("min({a}, {b})")).unwrap_or_else(|| "0xffffffffu".into())
    };
    let _ = write!(
        s,
        "
@compute @workgroup_size({wg})
fn {entry}(@builtin(global_invocation_id) dx_id: vec3<u32>, @builtin(num_workgroups) dx_ng: vec3<u32>) {{
    let inv = dx_id.x + dx_id.y * dx_ng.x * {wg}u;
    if (inv == 0u) {{
",
        wg = GS_COMPUTE_WORKGROUP
    );
    for (st, written, needed) in [(0usize, 8, 12), (1, 9, 13), (2, 10, 14), (3, 11, 15)] {
        if slots.get(st).copied().unwrap_or(0) != 0 {
            let _ = writeln!(s, "        dx_stats[{written}u] = min(dx_stats[{st}u], {});", room(st));
            let _ = writeln!(s, "        dx_stats[{needed}u] = dx_stats[{st}u];");
        } else {
            let _ = writeln!(s, "        dx_stats[{written}u] = 0u;\n        dx_stats[{needed}u] = 0u;");
        }
    }
    let index_count = match layout.rasterized {
        Some(r) => format!("dx_stats[{r}u] * {}u", layout.stream_vertices.get(r as usize).copied().unwrap_or(0)),
        None => "0u".into(),
    };
    let _ = write!(
        s,
        "        dx_indirect[0] = {index_count};
        dx_indirect[1] = 1u;
        dx_indirect[2] = 0u;
        dx_indirect[3] = 0u;
        dx_indirect[4] = 0u;
    }}
    if (inv >= arrayLength(&dx_counts) / 2u) {{
        return;
    }}
    let off = dx_offsets[2u * inv];
    let voff = dx_offsets[2u * inv + 1u];
    let cnt = dx_counts[2u * inv];
    let emitted = dx_counts[2u * inv + 1u];
    let base = inv * {max}u;
    var local = vec4<u32>(0u);
    for (var p = 0u; p < cnt.x + cnt.y + cnt.z + cnt.w; p = p + 1u) {{
        let e = dx_prims[base + p];
        let st = e.x;
        let j = off[st] + local[st];
        local[st] = local[st] + 1u;
        let at = array<u32, 3>((base + e.y) * {slot}u, (base + e.z) * {slot}u, (base + e.w) * {slot}u);
        switch (st) {{
"
    );
    for st in 0..4usize {
        let n = layout.stream_vertices.get(st).copied().unwrap_or(0);
        if n == 0 {
            continue;
        }
        let _ = writeln!(s, "            case {st}u: {{");
        let mine = copies.get(st).map(Vec::as_slice).unwrap_or(&[]);
        if slots.get(st).copied().unwrap_or(0) != 0 {
            let _ = writeln!(s, "                if (j < {}) {{", room(st));
            for q in 0..n {
                for c in mine {
                    let stride_words = layout.so_strides.get(c.slot).copied().unwrap_or(0) / 4;
                    for k in 0..c.count {
                        let value = if c.register < regs {
                            format!("dx_slots[at[{q}] + {}u][{}]", c.register, (c.start.saturating_add(k)) & 3)
                        } else {
                            "0u".into()
                        };
                        let _ = writeln!(
                            s,
                            "                    dx_so{}[(j * {n}u + {q}u) * {stride_words}u + {}u] = {value};",
                            c.slot,
                            c.word.saturating_add(k)
                        );
                    }
                }
            }
            s.push_str("                }\n");
        }
        if layout.rasterized == Some(st as u32) {
            for q in 0..n {
                let _ =
                    writeln!(s, "                dx_ib[j * {n}u + {q}u] = voff[{st}] + dx_slots[at[{q}] + {regs}u].y;");
            }
        }
        s.push_str("            }\n");
    }
    s.push_str("            default: {}\n        }\n    }\n");
    if let Some(r) = layout.rasterized {
        let _ = write!(
            s,
            "    for (var k = 0u; k < emitted.x + emitted.y + emitted.z + emitted.w; k = k + 1u) {{
        let at = (base + k) * {slot}u;
        let dx_meta = dx_slots[at + {regs}u];
        if (dx_meta.x == {r}u) {{
"
        );
        for reg in 0..regs {
            let _ =
                writeln!(s, "            dx_vb[(voff[{r}] + dx_meta.y) * {regs}u + {reg}u] = dx_slots[at + {reg}u];");
        }
        s.push_str("        }\n    }\n");
    }
    s.push_str("}\n");
    s
}
