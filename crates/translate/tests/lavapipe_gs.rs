//! Vertex and geometry shaders lowered to compute ([`translate::gs::lower`]) and run on
//! Mesa's lavapipe give what the reference pipeline (`exec::pipeline::draw` with stream
//! output) gives for the same draw: the stream-output buffers byte for byte, the
//! stream-output statistics of every stream, the pipeline statistics (`IAVertices`,
//! `IAPrimitives`, `VSInvocations`, `GSInvocations`, `GSPrimitives`, `CInvocations`,
//! `CPrimitives`), and the rasterized stream's primitives (read through the index
//! buffer from the vertex buffer) against the reference's captured ones, register by
//! register (the components the stream declares), with the indirect draw arguments.
//!
//! Shaders: the two workloads of the geometry-shader benchmarks (*quad*: point sprites,
//! a 4-vertex strip per point; *cube*: one triangle to six faces through
//! `dcl_gsinstances 6`), at [`QUAD_POINTS`] points and [`CUBE_TRIANGLES`] triangles, and
//! every corpus geometry shader, each behind a generated vertex shader that passes its
//! inputs through (float inputs 0.0, 1.0, small integers' bits or pseudo-random floats in
//! [-2, 2], [`gs_reference::corpus_inputs`], integer-typed inputs small integers; constant buffers pseudo-random floats; typed buffer views bound with
//! the 32-bit format of the type the reflection gives and filled with small integers as
//! floats and pseudo-random floats; 1D textures of pseudo-random floats behind a point,
//! clamp sampler), drawn as [`CORPUS_PRIMITIVES`] primitives of the list topology
//! its `dcl_inputprimitive` takes, with stream output of every output element of every
//! declared stream (stream `s` to slot `s`) into buffers that fill up part way (so that
//! the overflow rule is exercised). Each outcome is a line of
//! `tests/expect/lavapipe_gs.txt` (two-sided; `DXREF_BLESS=1` rewrites it). Without a
//! lavapipe adapter the test prints SKIP and passes, unless `DXREF_REQUIRE_CORPUS=1`.

use std::collections::BTreeMap;

use corpus::{gs_workloads, Rng};
use exec::pipeline::Topology;
use exec::Plan;
use tpf::{Body, Decl, Index};
use translate::gs::{GS_COMPUTE_GROUP, GS_COMPUTE_WORKGROUP, GS_SCAN_WORKGROUP, GS_STREAM_OUTPUT_GROUP};
use translate::{Format, GsLowering, GsOptions};

#[path = "support/gs_reference.rs"]
mod gs_reference;
use gs_reference::{GsResources, GsSrv, ReferenceDraw};
#[path = "support/gs_shaders.rs"]
mod gs_shaders;
use gs_shaders::{assemble, corpus_geometry_shaders, cube_gs, passthrough_position_vs, quad_gs, signature, so_decl};
#[path = "support/lavapipe.rs"]
mod lavapipe;
use lavapipe::{bytes_vec4, run_compute, vec4_bytes, Bound, Buffer, Gpu};

/// Points of the *quad* workload in the test.
const QUAD_POINTS: u32 = 1000;
/// Triangles of the *cube* workload in the test.
const CUBE_TRIANGLES: u32 = 200;
/// Input primitives per corpus shader.
const CORPUS_PRIMITIVES: u32 = 48;

/// One draw's inputs, for both implementations.
struct Draw {
    vs: Vec<u8>,
    gs: Vec<u8>,
    topology: Topology,
    /// Vertex data: `inputs` vec4s per vertex (bits), read by the layout as uint4s.
    data: Vec<[u32; 4]>,
    inputs: u32,
    /// The input layout's semantic of register `r` is `TEXCOORD r` (or `POSITION`).
    position_input: bool,
    vertices: u32,
    /// The geometry shader's constant buffers, views and samplers.
    res: GsResources,
    so: streamout::StreamOutputDesc,
    /// Bytes of each slot's buffer.
    so_sizes: [usize; 4],
}

/// What a run gave: SO buffers, SO statistics, pipeline statistics (ia vertices, ia
/// primitives, vs, gs invocations, gs primitives, c invocations, c primitives), the
/// rasterized primitives (each vertex's registers, masked), the indirect arguments.
#[derive(Debug, PartialEq)]
struct Outcome {
    so: [Vec<u8>; 4],
    so_stats: [(u64, u64); 4],
    stats: [u64; 7],
    rasterized: Vec<Vec<Vec<[u32; 4]>>>,
    indirect: [u32; 5],
}

fn reference(d: &Draw) -> Result<Outcome, String> {
    let registers: Vec<u32> = (0..d.inputs).collect();
    let (r, so) = gs_reference::draw(&ReferenceDraw {
        vs: &d.vs,
        gs: &d.gs,
        topology: d.topology,
        data: &d.data,
        stride: d.inputs,
        registers: &registers,
        position: d.position_input,
        vertices: d.vertices,
        so: &d.so,
        so_sizes: d.so_sizes,
        res: &d.res,
        capture: true,
    })?;
    let s = r.statistics;
    let rasterized = match r.rasterized_stream.and_then(|k| r.streams.iter().find(|p| p.stream == k)) {
        Some(p) => p.primitives.iter().map(|prim| prim.iter().map(|v| v.registers.clone()).collect()).collect(),
        None => Vec::new(),
    };
    let per =
        r.rasterized_stream.and_then(|k| r.streams.iter().find(|p| p.stream == k)).map_or(0, |p| match p.topology {
            tpf::PrimitiveTopology::PointList => 1,
            tpf::PrimitiveTopology::LineList => 2,
            _ => 3,
        });
    Ok(Outcome {
        so,
        so_stats: r.so_statistics.map(|x| (x.num_primitives_written, x.primitives_storage_needed)),
        stats: [
            s.ia_vertices,
            s.ia_primitives,
            s.vs_invocations,
            s.gs_invocations,
            s.gs_primitives,
            s.c_invocations,
            s.c_primitives,
        ],
        indirect: [rasterized.len() as u32 * per, 1, 0, 0, 0],
        rasterized,
    })
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The lowered pipeline on lavapipe.
fn lowered(gpu: &Gpu, d: &Draw) -> Result<Outcome, String> {
    let options = GsOptions {
        topology: d.topology,
        stream_output: Some(d.so.clone()),
        vs: translate::Options::default(),
        gs: d.res.options(),
    };
    let low: GsLowering = translate::lower(&d.vs, &d.gs, &options).map_err(|e| format!("lower: {e}"))?;
    let l = &low.layout;
    let g = GS_COMPUTE_GROUP;
    let groups = |n: u32, wg: u32| [n.div_ceil(wg).max(1), 1, 1];
    let rw = |n: usize| Buffer::StorageReadWrite(vec![0u8; n.max(16)]);
    let at = |binding, buffer| Bound { group: g, binding, buffer };
    // Pass 0: the vertex shader.
    let vout = run_compute(
        gpu,
        low.vertex.clone(),
        [translate::VERTEX_AS_COMPUTE_WORKGROUP, 1, 1],
        &[at(0, Buffer::Storage(vec4_bytes(&d.data))), at(1, rw(d.vertices as usize * l.vs_outputs as usize * 16))],
        groups(d.vertices, translate::VERTEX_AS_COMPUTE_WORKGROUP),
    )?
    .remove(0);
    // Pass 1: expansion.
    let prims = d.topology.primitives(d.vertices);
    let inv = prims * l.instances;
    let (max, slot) = (l.max_vertices as usize, l.slot() as usize);
    let mut bound = vec![
        at(0, Buffer::Storage(vout)),
        at(1, rw(inv as usize * max * slot * 16)),
        at(2, rw(inv as usize * max * 16)),
        at(3, Buffer::StorageReadWrite(vec![0u8; inv as usize * 32])),
    ];
    for (&r, cb) in &d.res.cbs {
        bound.push(Bound { group: 0, binding: r, buffer: Buffer::Uniform(vec4_bytes(cb)) });
    }
    for (&r, v) in &d.res.srvs {
        let buffer = match v {
            GsSrv::Buffer(_, bytes) => Buffer::Typed(bytes.clone()),
            GsSrv::Texture1D(bytes) => {
                Buffer::Texture { width: (bytes.len() / 16) as u32, height: 1, texels: GsSrv::texels(bytes) }
            }
            GsSrv::Texture { .. } => return Err("not compared: a texture other than 1D".into()),
        };
        bound.push(Bound { group: 1, binding: r, buffer });
    }
    for &r in &d.res.samplers {
        bound.push(Bound { group: 2, binding: r, buffer: Buffer::PointClampSampler });
    }
    let mut out = run_compute(gpu, low.expand.clone(), [GS_COMPUTE_WORKGROUP, 1, 1], &bound, groups(inv, 64))?;
    let counts = out.remove(2);
    let prim_list = out.remove(1);
    let slots = out.remove(0);
    // Pass 2: scan.
    let mut out = run_compute(
        gpu,
        low.scan.clone(),
        [GS_SCAN_WORKGROUP, 1, 1],
        &[at(0, Buffer::Storage(counts.clone())), at(1, rw(counts.len())), at(2, rw(80))],
        [1, 1, 1],
    )?;
    let stats_scan = out.remove(1);
    let offsets = out.remove(0);
    let st = words(&stats_scan);
    // Pass 3: compaction.
    let (vb_len, ib_len) = match l.rasterized {
        Some(r) => (
            st[4 + r as usize] as usize * l.registers as usize * 16,
            st[r as usize] as usize * l.stream_vertices[r as usize] as usize * 4,
        ),
        None => (0, 0),
    };
    let mut bound = vec![
        at(0, Buffer::Storage(slots)),
        at(1, Buffer::Storage(prim_list)),
        at(2, Buffer::Storage(counts)),
        at(3, Buffer::Storage(offsets)),
        at(4, Buffer::StorageReadWrite(stats_scan)),
        at(5, rw(vb_len)),
        at(6, rw(ib_len)),
        at(7, rw(20)),
    ];
    for (k, &n) in d.so_sizes.iter().enumerate() {
        bound.push(Bound { group: GS_STREAM_OUTPUT_GROUP, binding: k as u32, buffer: rw(n) });
    }
    let mut out = run_compute(gpu, low.compact.clone(), [GS_COMPUTE_WORKGROUP, 1, 1], &bound, groups(inv, 64))?;
    let so: Vec<Vec<u8>> = out.drain(4..).zip(d.so_sizes).map(|(b, n)| b[..n].to_vec()).collect();
    let indirect = words(&out[3]);
    let ib = words(&out[2]);
    let vb = bytes_vec4(&out[1]);
    let st = words(&out[0]);
    let rasterized = match l.rasterized {
        Some(r) => {
            let n = l.stream_vertices[r as usize] as usize;
            let regs = l.registers as usize;
            let gs_plan = Plan::from_bytecode(&d.gs).map_err(|e| format!("exec gs: {e}"))?;
            let declared: Vec<(u32, u8)> = gs_plan.stream_outputs(r).map(|o| (o.register, o.mask)).collect();
            let total_regs = gs_plan.output_registers as usize;
            (0..st[r as usize] as usize)
                .map(|p| {
                    (0..n)
                        .map(|q| {
                            let v = ib.get(p * n + q).copied().unwrap_or(u32::MAX) as usize;
                            let mut regs_out = vec![[0u32; 4]; total_regs];
                            for &(reg, mask) in &declared {
                                let src = vb.get(v * regs + reg as usize).copied().unwrap_or([0; 4]);
                                if let Some(dst) = regs_out.get_mut(reg as usize) {
                                    for c in 0..4 {
                                        if mask & (1 << c) != 0 {
                                            dst[c] = src[c];
                                        }
                                    }
                                }
                            }
                            regs_out
                        })
                        .collect()
                })
                .collect()
        }
        None => Vec::new(),
    };
    let vertices_ia = if prims == 0 { 0 } else { d.vertices };
    Ok(Outcome {
        so: so.try_into().map_err(|_| "slots".to_string())?,
        so_stats: std::array::from_fn(|s| (u64::from(st[8 + s]), u64::from(st[12 + s]))),
        stats: [
            u64::from(vertices_ia),
            u64::from(prims),
            u64::from(vertices_ia),
            u64::from(st[16]),
            u64::from(st[17]),
            u64::from(st[18]),
            u64::from(st[18]),
        ],
        rasterized,
        indirect: [indirect[0], indirect[1], indirect[2], indirect[3], indirect[4]],
    })
}

/// Equal, NaNs equal whatever their bits.
fn same(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

/// `exact` or the first difference.
fn compare(want: &Outcome, got: &Outcome) -> String {
    if want.stats != got.stats {
        return format!("pipeline statistics: reference {:?}, lowered {:?}", want.stats, got.stats);
    }
    if want.so_stats != got.so_stats {
        return format!("stream-output statistics: reference {:?}, lowered {:?}", want.so_stats, got.so_stats);
    }
    for (k, (a, b)) in want.so.iter().zip(&got.so).enumerate() {
        let (a, b) = (words(a), words(b));
        if let Some(i) = (0..a.len()).find(|&i| !same(a[i], b.get(i).copied().unwrap_or(!a[i]))) {
            return format!("stream-output slot {k} word {i}: reference {:#x}, lowered {:#x}", a[i], b[i]);
        }
    }
    if want.indirect != got.indirect {
        return format!("indirect arguments: reference {:?}, lowered {:?}", want.indirect, got.indirect);
    }
    if want.rasterized.len() != got.rasterized.len() {
        return format!("rasterized primitives: reference {}, lowered {}", want.rasterized.len(), got.rasterized.len());
    }
    for (p, (a, b)) in want.rasterized.iter().zip(&got.rasterized).enumerate() {
        let flat = |x: &Vec<Vec<[u32; 4]>>| x.iter().flatten().flatten().copied().collect::<Vec<u32>>();
        let (fa, fb) = (flat(a), flat(b));
        if fa.len() != fb.len() || fa.iter().zip(&fb).any(|(x, y)| !same(*x, *y)) {
            return format!("rasterized primitive {p}: reference {a:x?}, lowered {b:x?}");
        }
    }
    "exact".into()
}

fn workload_vertex(i: u32) -> [u32; 4] {
    gs_workloads::position(i).map(f32::to_bits)
}

fn quad() -> Draw {
    let n = QUAD_POINTS;
    Draw {
        vs: passthrough_position_vs(),
        gs: quad_gs(),
        topology: Topology::PointList,
        data: (0..n).map(workload_vertex).collect(),
        inputs: 1,
        position_input: true,
        vertices: n,
        res: GsResources::default(),
        so: so_decl("SV_Position.xyzw", &[16], 0),
        so_sizes: [6 * n as usize * 16, 0, 0, 0],
    }
}

/// Typed buffers in a geometry shader: each input point's `TEXCOORD0.x` indexes a
/// `R8G8B8A8_UNORM` view (some indices past its end), whose loaded value (scaled)
/// indexes a `R32G32B32_FLOAT` view; a line of two vertices carries both loads and the
/// views' element counts.
fn typed_buffers() -> Draw {
    let gs = assemble(&format!(
        "{}{}gs_4_0
dcl_resource_buffer (float,float,float,float) t0
         dcl_resource_buffer (float,float,float,float) t1
dcl_input v[1][0].xyzw
dcl_temps 3
         dcl_inputprimitive point
dcl_outputtopology linestrip
dcl_output o0.xyzw
dcl_output o1.xyzw
         dcl_maxout 2
ld r0.xyzw, v[0][0].xxxx, t0.wzyx
mul r1.x, r0.y, l(40.000000)
ftou r1.x, r1.x
         ld r2.xyzw, r1.xxxx, t1.xyzw
mov o0.xyzw, r0.xyzw
mov o1.xyzw, r2.xyzw
emit
         bufinfo r1.x, t0.xxxx
bufinfo r1.y, t1.xxxx
mov o0.xyzw, r2.zyxw
mov o1.xy, r1.xyxx
         mov o1.zw, v[0][0].xxxy
emit
ret
",
        signature("Input signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
        signature(
            "Output signature",
            &[("TEXCOORD", 0, "xyzw", 0, "NONE", "float"), ("TEXCOORD", 1, "xyzw", 1, "NONE", "float")]
        ),
    ));
    let mut rng = Rng(0x7479_7065);
    let n = 64u32;
    let unorm: Vec<u8> = (0..4 * 50).map(|_| rng.below(256) as u8).collect();
    let floats: Vec<u8> =
        (0..3 * 41).flat_map(|_| ((rng.below(4001) as f32 - 2000.0) / 1000.0).to_bits().to_le_bytes()).collect();
    Draw {
        vs: texcoord_vs(1),
        gs,
        topology: Topology::PointList,
        data: (0..n).map(|k| [k, k * 7, 0, 0]).collect(),
        inputs: 1,
        position_input: false,
        vertices: n,
        res: GsResources {
            srvs: BTreeMap::from([
                (0, GsSrv::Buffer(Format::R8G8B8A8_UNORM, unorm)),
                (1, GsSrv::Buffer(Format::R32G32B32_FLOAT, floats)),
            ]),
            ..Default::default()
        },
        so: so_decl("TEXCOORD0.xyzw; TEXCOORD1.xyzw", &[], 0),
        so_sizes: [2 * n as usize * 32, 0, 0, 0],
    }
}

fn cube() -> Draw {
    let n = CUBE_TRIANGLES;
    Draw {
        vs: passthrough_position_vs(),
        gs: cube_gs(),
        topology: Topology::TriangleList,
        data: (0..3 * n).map(workload_vertex).collect(),
        inputs: 1,
        position_input: true,
        vertices: 3 * n,
        res: GsResources { cbs: BTreeMap::from([(0, gs_workloads::face_matrix_rows())]), ..Default::default() },
        so: so_decl("SV_Position.xyzw; FACE.x", &[20], 0),
        so_sizes: [18 * n as usize * 20, 0, 0, 0],
    }
}

/// A vertex shader moving `TEXCOORD r` (uint4) to `TEXCOORD r` (float4), r < `inputs`.
fn texcoord_vs(inputs: u32) -> Vec<u8> {
    let mut vs = String::from("vs_4_0\n");
    let mut isg = Vec::new();
    let mut osg = Vec::new();
    for r in 0..inputs {
        vs += &format!("dcl_input v{r}.xyzw\n");
        isg.push(("TEXCOORD", r, "xyzw", r, "NONE", "uint"));
    }
    for r in 0..inputs {
        vs += &format!("dcl_output o{r}.xyzw\n");
        osg.push(("TEXCOORD", r, "xyzw", r, "NONE", "float"));
    }
    for r in 0..inputs {
        vs += &format!("mov o{r}.xyzw, v{r}.xyzw\n");
    }
    vs += "ret\n";
    assemble(&format!("{}{}{vs}", signature("Input signature", &isg), signature("Output signature", &osg)))
}

/// Strips in: a geometry shader that emits its input primitive's vertices as a line
/// strip (`TEXCOORD0` the vertex, `TEXCOORD1` = (vPrim, k)), cuts, and emits one more
/// vertex (an incomplete line, discarded); drawn as `topology` over `vertices`
/// vertices, stream output into a buffer with room for `room` lines.
fn strips(topology: Topology, vertices: u32, room: usize) -> Draw {
    let (input, n) = match topology {
        Topology::LineStrip | Topology::LineList => ("line", 2),
        Topology::LineStripAdj | Topology::LineListAdj => ("lineadj", 4),
        Topology::TriangleListAdj | Topology::TriangleStripAdj => ("triangleadj", 6),
        _ => ("triangle", 3),
    };
    let mut body = String::new();
    for k in 0..n {
        body += &format!("mov o0.xyzw, v[{k}][0].xyzw\nmov o1.x, vPrim\nmov o1.y, l({k})\nemit\n");
    }
    let gs = assemble(&format!(
        "{}{}gs_4_0\ndcl_input v[{n}][0].xyzw\ndcl_input vPrim\ndcl_inputprimitive {input}\n\
         dcl_outputtopology linestrip\ndcl_output o0.xyzw\ndcl_output o1.xy\ndcl_maxout {}\n{body}cut\n\
         mov o0.xyzw, v[0][0].xyzw\nemit\nret\n",
        signature("Input signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "float")]),
        signature(
            "Output signature",
            &[("TEXCOORD", 0, "xyzw", 0, "NONE", "float"), ("TEXCOORD", 1, "xy", 1, "NONE", "uint")]
        ),
        n + 1,
    ));
    Draw {
        vs: texcoord_vs(1),
        gs,
        topology,
        data: (0..vertices).map(workload_vertex).collect(),
        inputs: 1,
        position_input: false,
        vertices,
        res: GsResources::default(),
        so: so_decl("TEXCOORD0.xyzw; TEXCOORD1.xy", &[], 0),
        so_sizes: [room * 2 * 24, 0, 0, 0],
    }
}

/// A corpus geometry shader's draw, or why it is not compared.
fn corpus_draw(bytes: &[u8], rng: &mut Rng) -> Result<Draw, String> {
    let c = dxbc::Container::parse(bytes).map_err(|e| e.to_string())?;
    let chunk = c.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).ok_or("no program")?;
    let program = tpf::decode(chunk.data).map_err(|e| e.to_string())?;
    let mut inputs = 0u32;
    let mut input = None;
    for ins in program.iter() {
        let Body::Decl(d) = ins.body else { continue };
        match d {
            Decl::InputPrimitive(p) => input = Some(p),
            Decl::Register(o) | Decl::RegisterName { operand: o, .. } => {
                let o = ins.operand(o);
                if o.ty == tpf::OperandType::Input {
                    if let Some(Index::Imm32(r)) = o.index(1) {
                        inputs = inputs.max(r + 1);
                    }
                }
            }
            _ => {}
        }
    }
    let res = gs_reference::corpus_resources(bytes, rng)?;
    let topology = input.and_then(Topology::list_for).ok_or("not compared: no list topology for its input")?;
    let vs = texcoord_vs(inputs);
    // Stream output: every element of every stream, stream s to slot s.
    let osgn = c.chunk_any(&[dxbc::FourCc::OSGN, dxbc::FourCc::OSG5, dxbc::FourCc::OSG1]).ok_or("no OSGN")?;
    let sig = dxbc::Signature::parse_fields(osgn.data, dxbc::SignatureFormat::for_fourcc(osgn.fourcc).ok_or("format")?)
        .map_err(|e| e.to_string())?;
    let mut entries = Vec::new();
    let mut size = [0u32; 4];
    for e in &sig.elements {
        let (_, count) = streamout::element_span(e.mask);
        if count == 0 || e.stream > 3 {
            continue;
        }
        entries.push(streamout::SoEntry {
            stream: e.stream,
            semantic_name: Some(e.semantic_name.to_string()),
            semantic_index: e.semantic_index,
            start_component: 0,
            component_count: count as u8,
            output_slot: e.stream as u8,
        });
        size[e.stream as usize] += 4 * count;
    }
    let prims = CORPUS_PRIMITIVES;
    let vertices = prims * topology.vertices_per_primitive();
    let data = gs_reference::corpus_inputs(bytes, vertices, inputs, rng)?;
    Ok(Draw {
        vs,
        gs: bytes.to_vec(),
        topology,
        data,
        inputs,
        position_input: false,
        vertices,
        res,
        so: streamout::StreamOutputDesc { entries, strides: vec![], rasterized_stream: 0 },
        // Room for 40 primitives of 3 vertices per slot: some shaders fill it.
        so_sizes: size.map(|s| s as usize * 3 * 40),
    })
}

fn run(gpu: &Gpu, d: &Draw) -> String {
    let want = match reference(d) {
        Ok(w) => w,
        Err(e) => return format!("not compared: {e}"),
    };
    match lowered(gpu, d) {
        Ok(got) => compare(&want, &got),
        Err(e) => e,
    }
}

#[test]
fn lowered_geometry_shaders_match_the_reference_pipeline() {
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_gs") else { return };
    let mut outcomes = BTreeMap::new();
    outcomes.insert("workload/quad".to_string(), corpus::expect::one_line(&run(&gpu, &quad())));
    outcomes.insert("workload/cube".to_string(), corpus::expect::one_line(&run(&gpu, &cube())));
    outcomes.insert("typed_buffers".to_string(), corpus::expect::one_line(&run(&gpu, &typed_buffers())));
    for (name, topology, vertices, room) in [
        ("linestrip", Topology::LineStrip, 41, 1000),
        ("linelist", Topology::LineList, 41, 15),
        ("trianglestrip", Topology::TriangleStrip, 37, 1000),
        ("trianglelist", Topology::TriangleList, 37, 20),
        ("linelist_adj", Topology::LineListAdj, 42, 1000),
        ("linestrip_adj", Topology::LineStripAdj, 23, 1000),
        ("trianglelist_adj", Topology::TriangleListAdj, 43, 12),
        ("trianglestrip_adj", Topology::TriangleStripAdj, 45, 1000),
    ] {
        let outcome = run(&gpu, &strips(topology, vertices, room));
        outcomes.insert(format!("topology/{name}"), corpus::expect::one_line(&outcome));
    }
    if let Some(entries) = corpus::dxbc_entries("translate::lavapipe_gs") {
        for (id, bytes, _) in corpus_geometry_shaders(&entries) {
            let mut rng = Rng(0x6753_0000 ^ id.len() as u64);
            let outcome = match corpus_draw(&bytes, &mut rng) {
                Ok(d) => run(&gpu, &d),
                Err(why) => why,
            };
            outcomes.insert(id, corpus::expect::one_line(&outcome));
        }
    }
    corpus::expect::check(corpus::expect_file!("lavapipe_gs.txt"), &outcomes);
}

#[test]
fn a_mismatched_topology_is_a_typed_error() {
    let d = quad();
    let options = GsOptions {
        topology: Topology::TriangleList,
        stream_output: None,
        vs: translate::Options::default(),
        gs: translate::Options::default(),
    };
    let e = translate::lower(&d.vs, &d.gs, &options).unwrap_err();
    assert_eq!(e.code(), "pipeline");
}
