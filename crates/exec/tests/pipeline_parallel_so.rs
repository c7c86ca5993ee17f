//! `pipeline::draw_parallel` on three threads against `pipeline::draw_one_at_a_time`
//! for draws large enough to span several parallel chunks and many batches of
//! invocations, with stream-output buffers that overflow at every kind of place
//! (functional spec 14.5: whole primitives only, and none after the first that does
//! not fit): in the first batch, inside a later batch, at a batch's end, at the
//! draw's very end, never; one stream per slot with each slot overflowing elsewhere;
//! an unbound slot. Bytes, offsets and both kinds of statistics must be the same.

mod common_pipeline;
use common_pipeline::*;
use exec::pipeline::{self, DrawCall, DrawResult, Pipeline, SoTarget, StreamOutput, Topology};
use exec::{ExecError, Plan, Resources};

/// A draw's result, stream-output memory and offsets.
struct Outcome {
    result: Result<DrawResult, ExecError>,
    memory: Vec<Option<Vec<u8>>>,
    offsets: [u32; 4],
}

/// Runs the draw with buffers of `sizes` bytes (`None`: unbound), writing from
/// `start`, in parallel or one invocation at a time.
#[allow(clippy::too_many_arguments)]
fn run(
    parallel: bool,
    s: &Setup<'_>,
    call: DrawCall,
    so: &streamout::StreamOutputDesc,
    sizes: &[Option<usize>; 4],
    start: u32,
) -> Outcome {
    let mut memory: Vec<Option<Vec<u8>>> = sizes.iter().map(|n| n.map(|n| vec![0xa5u8; n])).collect();
    let mut offsets = [0u32; 4];
    let mut targets: [Option<SoTarget<'_>>; 4] = Default::default();
    for (t, m) in targets.iter_mut().zip(memory.iter_mut()) {
        *t = m.as_mut().map(|m| SoTarget { data: m.as_mut_slice(), offset: start });
    }
    let mut state = Pipeline {
        input_layout: &s.layout,
        vertex_buffers: &s.buffers,
        index_buffer: s.index,
        topology: s.topology,
        vs: s.vs,
        gs: s.gs,
        vs_resources: Resources::default(),
        gs_resources: Resources::default(),
        stream_output: Some(StreamOutput { declaration: so, targets }),
        capture: false,
        step_limit: exec::Machine::DEFAULT_STEP_LIMIT,
        checking: false,
    };
    let result = if parallel {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        pool.install(|| pipeline::draw_parallel(&mut state, call))
    } else {
        pipeline::draw_one_at_a_time(&mut state, call)
    };
    if let Some(so) = &state.stream_output {
        for (slot, t) in so.targets.iter().enumerate() {
            offsets[slot] = t.as_ref().map_or(0, |t| t.offset);
        }
    }
    drop(state);
    Outcome { result, memory, offsets }
}

/// Runs both and compares; returns the primitives written per stream.
fn compare(
    s: &Setup<'_>,
    call: DrawCall,
    so: &streamout::StreamOutputDesc,
    sizes: [Option<usize>; 4],
    start: u32,
) -> [u64; 4] {
    let what = format!("{call:?}, buffers {sizes:?} from {start}");
    let one = run(false, s, call, so, &sizes, start);
    let par = run(true, s, call, so, &sizes, start);
    let (a, b) = (one.result.expect("draw"), par.result.expect("parallel draw"));
    assert_eq!(a.statistics, b.statistics, "{what}: statistics");
    assert_eq!(a.so_statistics, b.so_statistics, "{what}: stream-output statistics");
    assert_eq!(one.offsets, par.offsets, "{what}: offsets");
    for (slot, (x, y)) in one.memory.iter().zip(&par.memory).enumerate() {
        if let (Some(x), Some(y)) = (x, y) {
            if let Some(at) = x.iter().zip(y).position(|(p, q)| p != q) {
                panic!("{what}: slot {slot} differs from byte {at}");
            }
        }
    }
    a.so_statistics.map(|s| s.num_primitives_written)
}

#[test]
fn quads_overflow_anywhere() {
    // 10,000 points (three parallel chunks), two triangles each: 20,000 triangles of
    // 3 × 20 bytes.
    const N: u32 = 10_000;
    let (vs, gs) = (passthrough_vs(), quad_gs());
    let points: Vec<[f32; 4]> = (0..N).map(|i| [i as f32, -(i as f32), 0.5, 1.0]).collect();
    let data = positions(&points);
    let s = Setup::new(Topology::PointList, Some(&vs), Some(&gs)).layout(position_layout()).buffer(0, &data, 16, 0);
    let so = so_decl("SV_Position.xyzw; TEXCOORD0.x", &[], 0);
    let triangle = 60;
    let total = 2 * N as usize;
    let mut seen = Vec::new();
    for (room, start) in [
        (40, 0),                             // not even one
        (triangle + 7, 4),                   // the first triangle, from byte 4
        (5 * triangle + 3, 0),               // inside the first batch
        (64 * triangle, 0),                  // one whole batch (32 invocations)
        (777 * triangle + 59, 0),            // inside a later batch
        (8192 * triangle + triangle / 2, 0), // just past the first chunk
        (12345 * triangle, 16),              // a later chunk, from byte 16: 12,344
        (total * triangle, 0),               // exactly everything
        (total * triangle + 100, 0),         // room to spare
    ] {
        seen.push(compare(&s, draw(N), &so, [Some(room), None, None, None], start)[0]);
    }
    assert_eq!(seen, [0, 1, 5, 64, 777, 8192, 12344, total as u64, total as u64]);
    // The slot 0 buffer unbound: nothing written, everything needed.
    assert_eq!(compare(&s, draw(N), &so, [None, Some(100), None, None], 0), [0; 4]);
}

#[test]
fn four_streams_overflow_separately() {
    // Each point emits on four streams (points), each stream to its own slot, each
    // slot with room for a different number of primitives.
    const N: u32 = 9_000;
    let gs = four_streams_gs();
    let data = value_data(N);
    let s = Setup::new(Topology::PointList, None, Some(&gs))
        .layout(vec![element("TEXCOORD", 0, exec::Format::R32G32B32A32_UINT, 0, 0)])
        .buffer(0, &data, 16, 0);
    let so = so_decl("s0:0:A.x; s1:1:B.xy; s2:2:C.x; s3:3:D.x; s3:3:E.xyzw", &[], 0);
    let written = compare(&s, draw(N), &so, [Some(4 * 100), Some(8 * 4_100), Some(4 * 17_999), Some(20 * 9_000)], 0);
    assert_eq!(written, [100, 4_100, 17_999, 9_000]);
}

#[test]
fn vertex_shader_batches_and_instances() {
    // A vertex shader of several batches per chunk (its SV_VertexID and
    // SV_InstanceID out), a triangle list of three GS instances each echoing its
    // vertices, two instances of the draw, an index buffer with strip cuts.
    const N: u32 = 6_000;
    let (vs, gs): (Plan, Plan) = (ids_vs(), echo_gs("triangle", 3, 3));
    let data = value_data(N + 10);
    let indices: Vec<u16> = (0..N).map(|i| if i % 97 == 50 { 0xffff } else { ((i * 7) % (N + 10)) as u16 }).collect();
    let index_bytes = u16_bytes(&indices);
    let so = so_decl("TEXCOORD0.xyzw; TEXCOORD1.xyz", &[], 0);
    let plain = Setup::new(Topology::TriangleList, Some(&vs), Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
    let call =
        DrawCall::DrawInstanced { vertex_count_per_instance: N, instance_count: 2, start_vertex: 3, start_instance: 0 };
    for room in [28 * 1000 + 5, 28 * 40_000] {
        compare(&plain, call, &so, [Some(room), None, None, None], 0);
    }
    let indexed = plain.indices(&index_bytes, exec::pipeline::IndexFormat::U16, 0);
    let call = DrawCall::DrawIndexedInstanced {
        index_count_per_instance: N,
        instance_count: 2,
        start_index: 0,
        base_vertex: 1,
        start_instance: 0,
    };
    for room in [28 * 3333, 28 * 40_000] {
        compare(&indexed, call, &so, [Some(room), None, None, None], 0);
    }
}

/// A point GS writing `(VALUE, vPrim)`; primitive `odd` emits a second vertex (its
/// output differs from the rest of its batch's) and primitive `hang` loops until the
/// step limit stops it.
fn uneven_gs(odd: Option<u32>, hang: Option<u32>) -> Plan {
    let mut body = String::from("mov o0.x, v[0][0].x\nmov o0.y, vPrim\nemit\n");
    if let Some(p) = odd {
        body += &format!("ieq r0.x, vPrim, l({p})\nif_nz r0.x\nemit\nendif\n");
    }
    if let Some(p) = hang {
        body += &format!("ieq r0.x, vPrim, l({p})\nif_nz r0.x\nloop\nendloop\nendif\n");
    }
    plan(&format!(
        "{}{}gs_5_0\ndcl_input v[1][0].x\ndcl_input vPrim\ndcl_temps 1\ndcl_inputprimitive point\n\
         dcl_outputtopology pointlist\ndcl_output o0.xy\ndcl_maxout 2\n{body}ret\n",
        signature("Input signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
        signature("Output signature", &[("TEXCOORD", 0, "xy", 0, "NONE", "uint")]),
    ))
}

#[test]
fn segments_stop_where_lanes_cannot_write() {
    // 10,000 points: several segments of a spread draw (and a tail). An invocation
    // whose output differs, or one that runs into the step limit, stops the spread
    // where its segment starts; the draw goes on from there chunk by chunk: the same
    // bytes, offsets, statistics and error as one invocation at a time.
    const N: u32 = 10_000;
    let data = value_data(N);
    let so = so_decl("TEXCOORD0.xy", &[], 0);
    for (odd, hang) in [(Some(7_000), None), (Some(3), None), (None, Some(5_000)), (Some(9_990), Some(6_000))] {
        let gs = uneven_gs(odd, hang);
        let s = Setup::new(Topology::PointList, None, Some(&gs))
            .layout(vec![element("TEXCOORD", 0, exec::Format::R32G32B32A32_UINT, 0, 0)])
            .buffer(0, &data, 16, 0);
        let outcome = |parallel: bool| {
            let mut memory = vec![0xa5u8; 8 * (N as usize + 1)];
            let mut state = Pipeline {
                input_layout: &s.layout,
                vertex_buffers: &s.buffers,
                index_buffer: None,
                topology: s.topology,
                vs: None,
                gs: Some(&gs),
                vs_resources: Resources::default(),
                gs_resources: Resources::default(),
                stream_output: Some(StreamOutput {
                    declaration: &so,
                    targets: [Some(SoTarget { data: memory.as_mut_slice(), offset: 0 }), None, None, None],
                }),
                capture: false,
                step_limit: 1_000,
                checking: false,
            };
            let result = if parallel {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
                pool.install(|| pipeline::draw_parallel(&mut state, draw(N)))
            } else {
                pipeline::draw_one_at_a_time(&mut state, draw(N))
            };
            let offset = state.stream_output.as_ref().and_then(|so| so.targets[0].as_ref()).map_or(0, |t| t.offset);
            drop(state);
            let result = result.map(|r| (r.statistics, r.so_statistics)).map_err(|e| e.to_string());
            (result, offset, memory)
        };
        let (one, par) = (outcome(false), outcome(true));
        let what = format!("odd {odd:?}, hang {hang:?}");
        assert_eq!(one.0, par.0, "{what}: result");
        assert_eq!(one.1, par.1, "{what}: offset");
        assert!(one.2 == par.2, "{what}: bytes");
        match hang {
            // The invocation that fails emitted its vertex before looping.
            Some(p) => assert_eq!(one.1, 8 * (p + 1 + odd.map_or(0, |o| (o < p) as u32)), "{what}: {:?}", one.0),
            None => assert_eq!(one.1, 8 * (N + 1), "{what}: {:?}", one.0),
        }
    }
}
