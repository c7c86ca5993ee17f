//! The geometry-shader workloads of `../shared/bench/GS-WORKLOADS.md` as native SPIR-V
//! geometry shaders (`translate::geometry_spirv`) in a Vulkan graphics pipeline on
//! Mesa's lavapipe (through `ash`: the translated vertex shader, the native geometry
//! shader, rasterizer discard, transform feedback of the stream-output declaration),
//! at the sizes of `gs_lavapipe` (whose `*_lowered` functions time the same draws
//! lowered to compute), in emitted vertices per second:
//!
//! - `gs_native_lavapipe/quad_native`: 1,000,000 points to quads;
//! - `gs_native_lavapipe/cube_native`: 100,000 triangles to six faces through
//!   `dcl_gsinstances 6`.
//!
//! An iteration is one submission of the recorded draw (with its queries) and the wait
//! for it (buffers and the pipeline are made once); lavapipe uses its own threads
//! (`LP_NUM_THREADS` sets how many). Before timing, the draw's transform-feedback
//! bytes and statistics are checked equal to the reference's (`exec::pipeline::draw`;
//! all but `GSInvocations`, which lavapipe counts per input primitive).
//! Without a lavapipe device with geometry shaders and transform feedback the
//! benchmark prints SKIP and times nothing.

use std::collections::BTreeMap;

use corpus::gs_workloads::{face_matrix_rows, position};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use exec::pipeline::{self, DrawCall, InputElement, Pipeline, SoTarget, StreamOutput, Topology, VertexBuffer};
use exec::{Format, Plan, Resources};

#[path = "../../crates/translate/tests/support/gs_shaders.rs"]
mod gs_shaders;
#[path = "../../crates/translate/tests/support/vulkan_gs.rs"]
mod vulkan_gs;

use vulkan_gs::Draw;

/// The reference's stream-output bytes and its statistics (IA vertices, IA primitives,
/// VS invocations, GS invocations, GS primitives), stream 0's primitives written and
/// needed.
fn reference(d: &Draw) -> (Vec<u8>, [u64; 5], (u64, u64)) {
    let vs = Plan::from_bytecode(&d.vs).expect("vs");
    let gs = Plan::from_bytecode(&d.gs).expect("gs");
    let layout = [InputElement {
        semantic_name: "POSITION".into(),
        semantic_index: 0,
        format: Format::R32G32B32A32_FLOAT,
        input_slot: 0,
        aligned_byte_offset: 0,
        per_instance: false,
        instance_data_step_rate: 0,
    }];
    let bytes: Vec<u8> = d.data.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
    let buffers = [Some(VertexBuffer { data: &bytes, stride: 16, offset: 0 })];
    let mut memory = vec![0u8; d.so_sizes[0]];
    let mut resources = Resources::default();
    let cb: Option<&Vec<[u32; 4]>> = d.cbs.get(&0);
    resources.constant_buffers[0] = cb.map(Vec::as_slice);
    let topology = d.topology;
    let mut state = Pipeline {
        input_layout: &layout,
        vertex_buffers: &buffers,
        index_buffer: None,
        topology,
        vs: Some(&vs),
        gs: Some(&gs),
        vs_resources: Resources::default(),
        gs_resources: resources,
        stream_output: Some(StreamOutput {
            declaration: &d.so,
            targets: [Some(SoTarget { data: memory.as_mut_slice(), offset: 0 }), None, None, None],
        }),
        capture: false,
        step_limit: exec::Machine::DEFAULT_STEP_LIMIT,
        checking: false,
    };
    let r = pipeline::draw(&mut state, DrawCall::Draw { vertex_count: d.vertices, start_vertex: 0 }).expect("draw");
    drop(state);
    let s = r.statistics;
    let so = r.so_statistics[0];
    (
        memory,
        [s.ia_vertices, s.ia_primitives, s.vs_invocations, s.gs_invocations, s.gs_primitives],
        (so.num_primitives_written, so.primitives_storage_needed),
    )
}

fn bench_workload(c: &mut Criterion, vk: &vulkan_gs::Vk, name: &str, d: &Draw, emitted: u64) {
    let (memory, stats, so) = reference(d);
    let prepared = vk.prepare(d).unwrap_or_else(|e| panic!("{name}: {e}"));
    prepared.run().expect("draw");
    let got = prepared.read().expect("read back");
    assert!(got.so[0] == memory, "{name}: the native draw wrote other transform-feedback bytes");
    // Every statistic but GSInvocations, which lavapipe counts per input primitive
    // rather than per instance (tests/lavapipe_gs_native.rs records it).
    let skip_invocations = |s: [u64; 5]| [s[0], s[1], s[2], s[4]];
    assert_eq!((skip_invocations(got.stats), got.so_stats[0]), (skip_invocations(stats), so), "{name}: statistics");
    let mut g = c.benchmark_group("gs_native_lavapipe");
    g.sample_size(10);
    g.throughput(Throughput::Elements(emitted));
    g.bench_function(format!("{name}_native"), |b| b.iter(|| prepared.run().expect("draw")));
    g.finish();
}

fn workloads(c: &mut Criterion) {
    let vk = match vulkan_gs::vk() {
        Ok(vk) => vk,
        Err(why) => {
            println!("SKIP gs_native_lavapipe: {}: {why}", vulkan_gs::NO_LAVAPIPE);
            return;
        }
    };
    const QUAD: u32 = 1_000_000;
    const CUBE: u32 = 100_000;
    let vertex = |i: u32| position(i).map(f32::to_bits);
    let quad = Draw {
        vs: gs_shaders::passthrough_position_vs(),
        gs: gs_shaders::quad_gs(),
        topology: Topology::PointList,
        data: (0..QUAD).map(vertex).collect(),
        stride: 1,
        input_registers: vec![0],
        float_input: true,
        vertices: QUAD,
        cbs: BTreeMap::new(),
        views: BTreeMap::new(),
        samplers: Vec::new(),
        so: gs_shaders::so_decl("SV_Position.xyzw", &[16], 0),
        so_sizes: [6 * QUAD as usize * 16, 0, 0, 0],
    };
    bench_workload(c, &vk, "quad", &quad, 4 * u64::from(QUAD));
    drop(quad);
    let cube = Draw {
        vs: gs_shaders::passthrough_position_vs(),
        gs: gs_shaders::cube_gs(),
        topology: Topology::TriangleList,
        data: (0..3 * CUBE).map(vertex).collect(),
        stride: 1,
        input_registers: vec![0],
        float_input: true,
        vertices: 3 * CUBE,
        cbs: BTreeMap::from([(0, face_matrix_rows())]),
        views: BTreeMap::new(),
        samplers: Vec::new(),
        so: gs_shaders::so_decl("SV_Position.xyzw; FACE.x", &[20], 0),
        so_sizes: [18 * CUBE as usize * 20, 0, 0, 0],
    };
    bench_workload(c, &vk, "cube", &cube, 18 * u64::from(CUBE));
}

criterion_group!(gs_native_lavapipe_benches, workloads);
criterion_main!(gs_native_lavapipe_benches);
