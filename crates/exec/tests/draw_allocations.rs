//! A draw allocates per draw, not per invocation: the same draw of 64 and of 8192
//! points through a vertex shader and a point-to-quad geometry shader (stream output,
//! nothing captured) makes the same number of heap allocations — with invocations in
//! lanes and one at a time, with every invocation emitting the same and with
//! invocations emitting differently (a branch on `vPrim`).

mod common_pipeline;
use common_pipeline::*;
use exec::pipeline::{self, DrawCall, Pipeline, SoTarget, StreamOutput, Topology, VertexBuffer};
use exec::{Plan, Resources};

#[global_allocator]
static GLOBAL: corpus::CountingAllocator = corpus::CountingAllocator;

/// The quad GS, or (`branchy`) one that emits the quad only for odd primitives and a
/// single point-strip vertex for even ones.
fn gs(branchy: bool) -> Plan {
    let mut body = String::new();
    if branchy {
        body += "and r0.x, vPrim, l(1)\nif_z r0.x\nmov o0.xyzw, v[0][0].xyzw\nmov o1.x, l(9)\nemit\nret\nendif\n";
    }
    for (k, (dx, dy)) in [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)].iter().enumerate() {
        body +=
            &format!("add o0.xyzw, v[0][0].xyzw, l({dx:.6}, {dy:.6}, 0.000000, 0.000000)\nmov o1.x, l({k})\nemit\n");
    }
    plan(&format!(
        "{}{}gs_5_0\ndcl_input_siv v[1][0].xyzw, position\ndcl_input vPrim\ndcl_temps 1\ndcl_inputprimitive point\n\
         dcl_outputtopology trianglestrip\ndcl_output_siv o0.xyzw, position\ndcl_output o1.x\ndcl_maxout 4\n{body}cut\nret\n",
        signature("Input signature", &[("SV_Position", 0, "xyzw", 0, "POS", "float")]),
        signature(
            "Output signature",
            &[("SV_Position", 0, "xyzw", 0, "POS", "float"), ("TEXCOORD", 0, "x", 1, "NONE", "uint")]
        ),
    ))
}

/// Allocations of one draw of `n` points.
fn allocations(vs: &Plan, gs: &Plan, n: u32, batched: bool) -> usize {
    let points: Vec<[f32; 4]> = (0..n).map(|i| [i as f32, 1.0, 2.0, 1.0]).collect();
    let data = positions(&points);
    let layout = position_layout();
    let buffers = [Some(VertexBuffer { data: &data, stride: 16, offset: 0 })];
    let so = so_decl("SV_Position.xyzw; TEXCOORD0.x", &[], 0);
    let mut memory = vec![0u8; 6 * 20 * n as usize];
    let before = corpus::allocations();
    let mut state = Pipeline {
        input_layout: &layout,
        vertex_buffers: &buffers,
        index_buffer: None,
        topology: Topology::PointList,
        vs: Some(vs),
        gs: Some(gs),
        vs_resources: Resources::default(),
        gs_resources: Resources::default(),
        stream_output: Some(StreamOutput {
            declaration: &so,
            targets: [Some(SoTarget { data: &mut memory, offset: 0 }), None, None, None],
        }),
        capture: false,
        step_limit: exec::Machine::DEFAULT_STEP_LIMIT,
        checking: false,
    };
    let call = DrawCall::Draw { vertex_count: n, start_vertex: 0 };
    let result =
        if batched { pipeline::draw(&mut state, call) } else { pipeline::draw_one_at_a_time(&mut state, call) };
    let stats = result.expect("draw").statistics;
    drop(state);
    let after = corpus::allocations();
    assert_eq!(stats.gs_invocations, n as u64);
    after - before
}

#[test]
fn draws_allocate_per_draw_not_per_invocation() {
    let vs = passthrough_vs();
    for branchy in [false, true] {
        let gs = gs(branchy);
        assert!(vs.runs_in_lanes() && gs.runs_in_lanes());
        for batched in [true, false] {
            // The fewest of three draws: the count is process-wide, and the test
            // harness's own threads may allocate meanwhile.
            let fewest = |n| (0..3).map(|_| allocations(&vs, &gs, n, batched)).min().unwrap_or(0);
            let (small, large) = (fewest(64), fewest(8192));
            assert_eq!(
                small, large,
                "branchy {branchy}, batched {batched}: {small} allocations for 64 points, {large} for 8192"
            );
        }
    }
}
