//! Geometry-shader throughput: the two workloads of `../shared/bench/GS-WORKLOADS.md`,
//! in emitted vertices per second (GS emits that produced a vertex / wall time of the
//! draw), one core, every primitive written to stream output, nothing captured.
//!
//! - `gs/quad`: 1,000,000 points through a pass-through VS and a point-to-quad GS
//!   (triangle strip, `dcl_maxout 4`); SO `SV_Position`, stride 16: 4N emitted, 6N
//!   written.
//! - `gs/cube`: 200,000 triangles through the VS and a 6-instance GS projecting the
//!   triangle to the six cube faces (`face_matrix[k] = P * V_k` in a constant buffer);
//!   SO position and face, stride 20: 18N emitted and written.
//!
//! - `gs/quad_all_cores`, `gs/cube_all_cores`: the same draws through
//!   `pipeline::draw_parallel` on rayon's global pool (one thread per core the
//!   process may run on: run unpinned for the figure across cores; pinned to one
//!   core they are the one-core draw). Output order and bytes are those of the
//!   one-core draw, checked before timing.
//!
//! Before timing, each workload's draw is checked against a CPU reference (f64
//! arithmetic, within 1e-6) and its statistics against the expected counts.

use corpus::gs_workloads::{face_matrices, position, vertex_buffer};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use exec::pipeline::{self, DrawCall, InputElement, Pipeline, SoTarget, StreamOutput, Topology, VertexBuffer};
use exec::{Format, Plan, Resources};

const VS: &str = "
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xyzw        0     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
vs_4_0
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
mov o0.xyzw, v0.xyzw
ret 
";

const QUAD_GS: &str = "
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
gs_4_0
dcl_input_siv v[1][0].xyzw, position
dcl_inputprimitive point 
dcl_outputtopology trianglestrip 
dcl_output_siv o0.xyzw, position
dcl_maxout 4
add o0.xyzw, v[0][0].xyzw, l(-0.100000, -0.100000, 0.000000, 0.000000)
emit 
add o0.xyzw, v[0][0].xyzw, l(0.100000, -0.100000, 0.000000, 0.000000)
emit 
add o0.xyzw, v[0][0].xyzw, l(-0.100000, 0.100000, 0.000000, 0.000000)
emit 
add o0.xyzw, v[0][0].xyzw, l(0.100000, 0.100000, 0.000000, 0.000000)
emit 
cut 
ret 
";

const CUBE_GS: &str = "
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// SV_RenderTargetArrayIndex     0   x           1  RTINDEX    uint   x   
// FACE                     0   x           2     NONE    uint   x   
//
gs_5_0
dcl_constantbuffer cb0[24], dynamicIndexed
dcl_input_siv v[3][0].xyzw, position
dcl_input vGSInstanceID
dcl_temps 1
dcl_inputprimitive triangle 
dcl_outputtopology trianglestrip 
dcl_output_siv o0.xyzw, position
dcl_output_siv o1.x, rendertarget_array_index
dcl_output o2.x
dcl_maxout 3
dcl_gsinstances 6
ishl r0.x, vGSInstanceID.x, l(2)
dp4 o0.x, v[0][0].xyzw, cb0[r0.x + 0].xyzw
dp4 o0.y, v[0][0].xyzw, cb0[r0.x + 1].xyzw
dp4 o0.z, v[0][0].xyzw, cb0[r0.x + 2].xyzw
dp4 o0.w, v[0][0].xyzw, cb0[r0.x + 3].xyzw
mov o1.x, vGSInstanceID.x
mov o2.x, vGSInstanceID.x
emit 
dp4 o0.x, v[1][0].xyzw, cb0[r0.x + 0].xyzw
dp4 o0.y, v[1][0].xyzw, cb0[r0.x + 1].xyzw
dp4 o0.z, v[1][0].xyzw, cb0[r0.x + 2].xyzw
dp4 o0.w, v[1][0].xyzw, cb0[r0.x + 3].xyzw
mov o1.x, vGSInstanceID.x
mov o2.x, vGSInstanceID.x
emit 
dp4 o0.x, v[2][0].xyzw, cb0[r0.x + 0].xyzw
dp4 o0.y, v[2][0].xyzw, cb0[r0.x + 1].xyzw
dp4 o0.z, v[2][0].xyzw, cb0[r0.x + 2].xyzw
dp4 o0.w, v[2][0].xyzw, cb0[r0.x + 3].xyzw
mov o1.x, vGSInstanceID.x
mov o2.x, vGSInstanceID.x
emit 
ret 
";

fn assemble(text: &str) -> Plan {
    let bytes = listing::asm::assemble(text, &listing::asm::AsmOptions::default()).expect("benchmark shader").bytes;
    Plan::from_bytecode(&bytes).expect("benchmark plan")
}

fn layout() -> Vec<InputElement> {
    vec![InputElement {
        semantic_name: "POSITION".into(),
        semantic_index: 0,
        format: Format::R32G32B32A32_FLOAT,
        input_slot: 0,
        aligned_byte_offset: 0,
        per_instance: false,
        instance_data_step_rate: 0,
    }]
}

/// One draw of a workload: returns (emitted vertices, SO bytes written).
#[allow(clippy::too_many_arguments)]
fn run(
    vs: &Plan,
    gs: &Plan,
    layout: &[InputElement],
    vertices: &[u8],
    topology: Topology,
    count: u32,
    constants: Option<&[[u32; 4]]>,
    so: &validate::StreamOutputDesc,
    so_buffer: &mut [u8],
    parallel: bool,
) -> (pipeline::DrawResult, u32) {
    let buffers = [Some(VertexBuffer { data: vertices, stride: 16, offset: 0 })];
    let mut gs_resources = Resources::default();
    gs_resources.constant_buffers[0] = constants;
    let mut state = Pipeline {
        input_layout: layout,
        vertex_buffers: &buffers,
        index_buffer: None,
        topology,
        vs: Some(vs),
        gs: Some(gs),
        vs_resources: Resources::default(),
        gs_resources,
        stream_output: Some(StreamOutput {
            declaration: so,
            targets: [Some(SoTarget { data: so_buffer, offset: 0 }), None, None, None],
        }),
        capture: false,
        step_limit: exec::Machine::DEFAULT_STEP_LIMIT,
        checking: false,
    };
    let call = DrawCall::Draw { vertex_count: count, start_vertex: 0 };
    let result = if parallel { pipeline::draw_parallel(&mut state, call) } else { pipeline::draw(&mut state, call) }
        .expect("draw");
    let written = state.stream_output.as_ref().and_then(|s| s.targets[0].as_ref()).map_or(0, |t| t.offset);
    (result, written)
}

fn words(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect()
}

fn close(a: f32, b: f64) -> bool {
    (a as f64 - b).abs() <= 1e-6 * b.abs().max(1.0)
}

fn quad(c: &mut Criterion) {
    const N: u32 = 1_000_000;
    let (vs, gs) = (assemble(VS), assemble(QUAD_GS));
    let layout = layout();
    let vertices = vertex_buffer(N);
    let mut so: validate::StreamOutputDesc = "SV_Position.xyzw".parse().unwrap();
    so.strides = vec![16];
    let mut buffer = vec![0u8; 6 * N as usize * 16];
    // Check once: statistics and the written triangles against the reference.
    let (result, written) = run(&vs, &gs, &layout, &vertices, Topology::PointList, N, None, &so, &mut buffer, false);
    assert_eq!(written as usize, buffer.len(), "6N vertices written");
    assert_eq!(result.so_statistics[0].num_primitives_written, 2 * N as u64);
    assert_eq!(result.statistics.gs_invocations, N as u64);
    let out = words(&buffer);
    for i in (0..N).step_by(9973) {
        let p = position(i);
        let corner = |dx: f64, dy: f64| [p[0] as f64 + dx, p[1] as f64 + dy, p[2] as f64, 1.0];
        let (a, b, c2, d) = (corner(-0.1, -0.1), corner(0.1, -0.1), corner(-0.1, 0.1), corner(0.1, 0.1));
        // The strip a b c d gives the triangles {a, b, c} and {b, c, d} (the vertex
        // order within the second follows the pipeline's winding rule).
        let matches = |got: &[f32], w: &[f64; 4]| (0..4).all(|k| close(got[k], w[k]));
        for (t, want) in [[a, b, c2], [b, c2, d]].iter().enumerate() {
            for v in 0..3 {
                let got = &out[(i as usize * 6 + t * 3 + v) * 4..][..4];
                assert!(want.iter().any(|w| matches(got, w)), "quad {i} triangle {t} vertex {v}: {got:?}");
            }
            for w in want {
                let found = (0..3).any(|v| matches(&out[(i as usize * 6 + t * 3 + v) * 4..][..4], w));
                assert!(found, "quad {i} triangle {t} lacks corner {w:?}");
            }
        }
    }
    let mut g = c.benchmark_group("gs");
    g.sample_size(10);
    g.throughput(Throughput::Elements(4 * N as u64));
    g.bench_function("quad", |bench| {
        bench.iter(|| run(&vs, &gs, &layout, &vertices, Topology::PointList, N, None, &so, &mut buffer, false).1)
    });
    let mut spread = vec![0u8; buffer.len()];
    run(&vs, &gs, &layout, &vertices, Topology::PointList, N, None, &so, &mut spread, true);
    assert!(spread == buffer, "quad: the parallel draw wrote other bytes");
    g.bench_function("quad_all_cores", |bench| {
        bench.iter(|| run(&vs, &gs, &layout, &vertices, Topology::PointList, N, None, &so, &mut spread, true).1)
    });
    g.finish();
}

fn cube(c: &mut Criterion) {
    const N: u32 = 200_000;
    let (vs, gs) = (assemble(VS), assemble(CUBE_GS));
    let layout = layout();
    let vertices = vertex_buffer(3 * N);
    let matrices = face_matrices();
    let constants = corpus::gs_workloads::face_matrix_rows();
    let mut so: validate::StreamOutputDesc = "SV_Position.xyzw; FACE.x".parse().unwrap();
    so.strides = vec![20];
    let mut buffer = vec![0u8; 18 * N as usize * 20];
    let (result, written) =
        run(&vs, &gs, &layout, &vertices, Topology::TriangleList, 3 * N, Some(&constants), &so, &mut buffer, false);
    assert_eq!(written as usize, buffer.len(), "18N vertices written");
    assert_eq!(result.statistics.gs_invocations, 6 * N as u64);
    assert_eq!(result.so_statistics[0].num_primitives_written, 6 * N as u64);
    // Reference: triangle t, instance k, vertex j at (t * 6 + k) * 3 + j.
    for t in (0..N).step_by(997) {
        for (k, m) in matrices.iter().enumerate() {
            for j in 0..3 {
                let p = position(3 * t + j).map(|x| x as f64);
                let at = ((t as usize * 6 + k) * 3 + j as usize) * 20;
                let got = words(&buffer[at..at + 16]);
                for r in 0..4 {
                    // The GS computes with the f32-rounded matrix.
                    let want: f64 = (0..4).map(|i| (m[r][i] as f32) as f64 * p[i]).sum();
                    assert!(close(got[r], want), "triangle {t} face {k} vertex {j} row {r}: {} vs {want}", got[r]);
                }
                let face = u32::from_le_bytes(buffer[at + 16..at + 20].try_into().unwrap());
                assert_eq!(face, k as u32);
            }
        }
    }
    let mut g = c.benchmark_group("gs");
    g.sample_size(10);
    g.throughput(Throughput::Elements(18 * N as u64));
    g.bench_function("cube", |bench| {
        bench.iter(|| {
            run(&vs, &gs, &layout, &vertices, Topology::TriangleList, 3 * N, Some(&constants), &so, &mut buffer, false)
                .1
        })
    });
    let mut spread = vec![0u8; buffer.len()];
    run(&vs, &gs, &layout, &vertices, Topology::TriangleList, 3 * N, Some(&constants), &so, &mut spread, true);
    assert!(spread == buffer, "cube: the parallel draw wrote other bytes");
    g.bench_function("cube_all_cores", |bench| {
        bench.iter(|| {
            run(&vs, &gs, &layout, &vertices, Topology::TriangleList, 3 * N, Some(&constants), &so, &mut spread, true).1
        })
    });
    g.finish();
}

criterion_group!(gs_benches, quad, cube);
criterion_main!(gs_benches);
