//! The geometry shader in the pipeline: the input primitive of every topology
//! (adjacency in the spec's order), `vPrim` and `vGSInstanceID`, GS instancing order,
//! `dcl_maxout` ending the invocation (Microsoft's page `dcl_maxOutputVertexCount (sm4 - asm)`), cuts discarding incomplete strips and
//! the implicit cut at the end of every invocation (the `cut_stream (sm5 - asm)` page), `emit_then_cut`, strips
//! to lists, four streams, and the GS statistics.

mod common_pipeline;
use common_pipeline::*;
use exec::pipeline::{DrawCall, DrawResult, IndexFormat, PipelineStatistics, Topology};
use exec::Plan;
use tpf::PrimitiveTopology;

/// Runs the echo GS (`input`, `n` vertices, `instances`) on `count` vertices of
/// [`value_data`] drawn as `topology`: returns each invocation's input vertices
/// (VALUE - 100), its (vPrim, vGSInstanceID) and the statistics.
fn echo(
    topology: Topology,
    input: &str,
    n: usize,
    instances: u32,
    call: DrawCall,
    indices: Option<&[u16]>,
) -> (Vec<Vec<u32>>, Vec<(u32, u32)>, PipelineStatistics) {
    let vs = ids_vs();
    let gs = echo_gs(input, n, instances);
    let data = value_data(16);
    let idx = indices.map(u16_bytes).unwrap_or_default();
    let mut s = Setup::new(topology, Some(&vs), Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
    if indices.is_some() {
        s = s.indices(&idx, IndexFormat::U16, 0);
    }
    let r = s.draw(call).unwrap();
    let st = stream(&r, 0);
    assert_eq!(st.topology, PrimitiveTopology::PointList);
    let points: Vec<[u32; 4]> = st.primitives.iter().map(|p| p[0].registers[0]).collect();
    let ids: Vec<[u32; 4]> = st.primitives.iter().map(|p| p[0].registers[1]).collect();
    let mut invocations = Vec::new();
    let mut system = Vec::new();
    for (chunk, id) in points.chunks(n).zip(ids.chunks(n)) {
        invocations.push(chunk.iter().map(|v| v[0] - 100).collect());
        system.push((id[0][0], id[0][1]));
        // The echo's third output counts the vertices of the invocation.
        assert_eq!(id.iter().map(|i| i[2]).collect::<Vec<_>>(), (0..n as u32).collect::<Vec<_>>());
    }
    (invocations, system, r.statistics)
}

fn seq(v: &[&[u32]]) -> Vec<Vec<u32>> {
    v.iter().map(|p| p.to_vec()).collect()
}

fn ids(n: u32) -> Vec<(u32, u32)> {
    (0..n).map(|i| (i, 0)).collect()
}

#[test]
fn gs_input_primitive_of_every_topology() {
    let (p, s, st) = echo(Topology::PointList, "point", 1, 1, draw(3), None);
    assert_eq!((p, s), (seq(&[&[0], &[1], &[2]]), ids(3)));
    assert_eq!(
        st,
        PipelineStatistics {
            ia_vertices: 3,
            ia_primitives: 3,
            vs_invocations: 3,
            gs_invocations: 3,
            gs_primitives: 3,
            c_invocations: 3,
            c_primitives: 3,
            ..Default::default()
        }
    );

    let (p, s, _) = echo(Topology::LineList, "line", 2, 1, draw(5), None);
    assert_eq!((p, s), (seq(&[&[0, 1], &[2, 3]]), ids(2)));
    let (p, _, _) = echo(Topology::LineStrip, "line", 2, 1, draw(4), None);
    assert_eq!(p, seq(&[&[0, 1], &[1, 2], &[2, 3]]));

    let (p, _, _) = echo(Topology::TriangleList, "triangle", 3, 1, draw(6), None);
    assert_eq!(p, seq(&[&[0, 1, 2], &[3, 4, 5]]));
    // Triangle strips reach the GS as triangles with the leading vertex first and the
    // odd ones' other two swapped.
    let (p, s, _) = echo(Topology::TriangleStrip, "triangle", 3, 1, draw(6), None);
    assert_eq!(p, seq(&[&[0, 1, 2], &[1, 3, 2], &[2, 3, 4], &[3, 5, 4]]));
    assert_eq!(s, ids(4));

    let (p, _, _) = echo(Topology::LineListAdj, "lineadj", 4, 1, draw(9), None);
    assert_eq!(p, seq(&[&[0, 1, 2, 3], &[4, 5, 6, 7]]));
    let (p, _, _) = echo(Topology::LineStripAdj, "lineadj", 4, 1, draw(6), None);
    assert_eq!(p, seq(&[&[0, 1, 2, 3], &[1, 2, 3, 4], &[2, 3, 4, 5]]));

    let (p, _, _) = echo(Topology::TriangleListAdj, "triangleadj", 6, 1, draw(13), None);
    assert_eq!(p, seq(&[&[0, 1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]]));
    // Triangle strips with adjacency: (vertex, adjacent) pairs, 8.10's table with the
    // leading vertex first.
    let (p, _, _) = echo(Topology::TriangleStripAdj, "triangleadj", 6, 1, draw(5), None);
    assert!(p.is_empty());
    for n in [6, 7] {
        let (p, _, _) = echo(Topology::TriangleStripAdj, "triangleadj", 6, 1, draw(n), None);
        assert_eq!(p, seq(&[&[0, 1, 2, 5, 4, 3]]), "{n} vertices");
    }
    let (p, _, _) = echo(Topology::TriangleStripAdj, "triangleadj", 6, 1, draw(8), None);
    assert_eq!(p, seq(&[&[0, 1, 2, 6, 4, 3], &[2, 5, 6, 7, 4, 0]]));
    let (p, s, st) = echo(Topology::TriangleStripAdj, "triangleadj", 6, 1, draw(13), None);
    assert_eq!(p, seq(&[&[0, 1, 2, 6, 4, 3], &[2, 5, 6, 8, 4, 0], &[4, 2, 6, 10, 8, 7], &[6, 9, 10, 11, 8, 4]]));
    assert_eq!(s, ids(4));
    // Every vertex, adjacent ones included, is read and shaded.
    assert_eq!((st.ia_vertices, st.ia_primitives, st.vs_invocations, st.gs_invocations), (13, 4, 13, 4));
    let (p, _, _) = echo(Topology::TriangleStripAdj, "triangleadj", 6, 1, draw(10), None);
    assert_eq!(p, seq(&[&[0, 1, 2, 6, 4, 3], &[2, 5, 6, 8, 4, 0], &[4, 2, 6, 9, 8, 7]]));
}

#[test]
fn strip_cut_with_adjacency_and_primitive_ids() {
    // Two strips with adjacency in one draw: primitive IDs continue across the cut.
    let cut = 0xffff;
    let idx = [0, 1, 2, 3, 4, 5, 6, 7, cut, 8, 9, 10, 11, 12, 13];
    let call = DrawCall::DrawIndexed { index_count: idx.len() as u32, start_index: 0, base_vertex: 0 };
    let (p, s, st) = echo(Topology::TriangleStripAdj, "triangleadj", 6, 1, call, Some(&idx));
    assert_eq!(p, seq(&[&[0, 1, 2, 6, 4, 3], &[2, 5, 6, 7, 4, 0], &[8, 9, 10, 13, 12, 11]]));
    assert_eq!(s, ids(3));
    assert_eq!((st.ia_vertices, st.ia_primitives, st.vs_invocations), (14, 3, 14));

    // Line strips, 2 instances: vPrim restarts with each instance (8.17).
    let idx = [0, 1, 2, cut, 3, 4];
    let call = DrawCall::DrawIndexedInstanced {
        index_count_per_instance: 6,
        instance_count: 2,
        start_index: 0,
        base_vertex: 0,
        start_instance: 0,
    };
    let (p, s, _) = echo(Topology::LineStrip, "line", 2, 1, call, Some(&idx));
    assert_eq!(p, seq(&[&[0, 1], &[1, 2], &[3, 4], &[0, 1], &[1, 2], &[3, 4]]));
    assert_eq!(s.iter().map(|x| x.0).collect::<Vec<_>>(), vec![0, 1, 2, 0, 1, 2]);
}

#[test]
fn gs_instancing_order() {
    // Draw instances > IA primitives > GS instances (13.2.1: the outputs of each GS
    // instance follow those of the previous one).
    let call =
        DrawCall::DrawInstanced { vertex_count_per_instance: 2, instance_count: 2, start_vertex: 0, start_instance: 0 };
    let (p, s, st) = echo(Topology::PointList, "point", 1, 3, call, None);
    assert_eq!(p, seq(&[&[0], &[0], &[0], &[1], &[1], &[1], &[0], &[0], &[0], &[1], &[1], &[1]]));
    assert_eq!(s, vec![(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]);
    assert_eq!(
        st,
        PipelineStatistics {
            ia_vertices: 4,
            ia_primitives: 4,
            vs_invocations: 4,
            gs_invocations: 12,
            gs_primitives: 12,
            c_invocations: 12,
            c_primitives: 12,
            ..Default::default()
        }
    );
}

/// One step of a scripted geometry shader.
#[derive(Clone, Copy)]
enum Op {
    /// Emit a vertex whose o0 = (value, vPrim, vGSInstanceID, 0).
    Emit(u32),
    Cut,
    EmitThenCut(u32),
}

/// A point-input GS with `instances` instances running `ops`, output `topology`.
fn script_gs(topology: &str, maxout: u32, instances: u32, ops: &[Op]) -> Plan {
    let mut body = String::new();
    for op in ops {
        let write = |v: u32| format!("mov o0.x, l({v})\nmov o0.y, vPrim\nmov o0.z, vGSInstanceID.x\nmov o0.w, l(0)\n");
        match *op {
            Op::Emit(v) => body += &(write(v) + "emit\n"),
            Op::Cut => body += "cut\n",
            Op::EmitThenCut(v) => body += &(write(v) + "emit_then_cut\n"),
        }
    }
    plan(&format!(
        "{}{}gs_5_0\ndcl_input vPrim\ndcl_input vGSInstanceID\ndcl_inputprimitive point\ndcl_outputtopology {topology}\n\
         dcl_output o0.xyzw\ndcl_maxout {maxout}\ndcl_gsinstances {instances}\n{body}ret\n",
        signature("Input signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
        signature("Output signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
    ))
}

/// Runs a scripted GS on `points` points; returns the stream-0 result.
fn run_script(gs: &Plan, points: u32) -> DrawResult {
    let vs = ids_vs();
    let data = value_data(points);
    let mut s = Setup::new(Topology::PointList, Some(&vs), Some(gs)).layout(value_layout()).buffer(0, &data, 16, 0);
    s.draw(draw(points)).unwrap()
}

/// Each primitive's vertices as (value, vPrim, vGSInstanceID).
fn prims(r: &DrawResult) -> Vec<Vec<(u32, u32, u32)>> {
    register(stream(r, 0), 0).iter().map(|p| p.iter().map(|v| (v[0], v[1], v[2])).collect()).collect()
}

fn values(r: &DrawResult) -> Vec<Vec<u32>> {
    component(stream(r, 0), 0, 0)
}

#[test]
fn maxout_ends_the_invocation_seed_000() {
    use Op::*;
    // Five emits, dcl_maxout 4: the first four points only.
    let gs = script_gs("pointlist", 4, 1, &[Emit(0), Emit(1), Emit(2), Emit(3), Emit(4)]);
    let r = run_script(&gs, 2);
    assert_eq!(values(&r), seq(&[&[0], &[1], &[2], &[3], &[0], &[1], &[2], &[3]]));
    assert_eq!((r.statistics.gs_invocations, r.statistics.gs_primitives), (2, 8));
    // A triangle strip: the fifth emit (which would complete a third triangle) never
    // happens; the cut after it is not reached either — the end is the implicit cut.
    let gs = script_gs("trianglestrip", 4, 1, &[Emit(0), Emit(1), Emit(2), Emit(3), Emit(4), Cut]);
    let r = run_script(&gs, 1);
    assert_eq!(values(&r), seq(&[&[0, 1, 2], &[1, 3, 2]]));
    assert_eq!(stream(&r, 0).topology, PrimitiveTopology::TriangleList);
    // With GS instances, each instance has its own budget.
    let gs = script_gs("linestrip", 2, 2, &[Emit(0), Emit(1), Emit(2)]);
    let r = run_script(&gs, 1);
    assert_eq!(prims(&r), vec![vec![(0, 0, 0), (1, 0, 0)], vec![(0, 0, 1), (1, 0, 1)]]);
}

#[test]
fn cut_discards_the_incomplete_strip_seed_003() {
    use Op::*;
    // Two vertices then a cut: nothing for them; the strip after it starts afresh
    // (even winding again).
    let gs = script_gs("trianglestrip", 8, 1, &[Emit(0), Emit(1), Cut, Emit(2), Emit(3), Emit(4), Emit(5)]);
    let r = run_script(&gs, 1);
    assert_eq!(values(&r), seq(&[&[2, 3, 4], &[3, 5, 4]]));
    assert_eq!(r.statistics.gs_primitives, 2);
    // A line strip: one vertex before the cut is discarded.
    let gs = script_gs("linestrip", 8, 1, &[Emit(0), Cut, Emit(1), Emit(2), Cut, Cut, Emit(3)]);
    let r = run_script(&gs, 1);
    assert_eq!(values(&r), seq(&[&[1, 2]]));
    // Points: cut has no effect.
    let gs = script_gs("pointlist", 8, 1, &[Emit(0), Cut, Emit(1)]);
    assert_eq!(values(&run_script(&gs, 1)), seq(&[&[0], &[1]]));
}

#[test]
fn emit_then_cut() {
    use Op::*;
    let gs = script_gs(
        "trianglestrip",
        8,
        1,
        &[Emit(0), Emit(1), EmitThenCut(2), Emit(3), Emit(4), Emit(5), EmitThenCut(6), Emit(7)],
    );
    assert_eq!(values(&run_script(&gs, 1)), seq(&[&[0, 1, 2], &[3, 4, 5], &[4, 6, 5]]));
    let gs = script_gs("linestrip", 8, 1, &[Emit(0), EmitThenCut(1), Emit(2), EmitThenCut(3), EmitThenCut(4)]);
    assert_eq!(values(&run_script(&gs, 1)), seq(&[&[0, 1], &[2, 3]]));
}

#[test]
fn the_end_of_each_invocation_is_a_cut() {
    use Op::*;
    // Each invocation (and each GS instance) emits two vertices of a strip: the strips
    // never join across invocations, so nothing comes out.
    let gs = script_gs("trianglestrip", 4, 3, &[Emit(0), Emit(1)]);
    let r = run_script(&gs, 4);
    assert!(stream(&r, 0).primitives.is_empty());
    assert_eq!((r.statistics.gs_invocations, r.statistics.gs_primitives, r.statistics.c_primitives), (12, 0, 0));
    // Four vertices per invocation: two triangles each, numbered by primitive and
    // instance, in order.
    let gs = script_gs("trianglestrip", 4, 2, &[Emit(0), Emit(1), Emit(2), Emit(3)]);
    let r = run_script(&gs, 2);
    let t = |p: u32, i: u32| vec![vec![(0, p, i), (1, p, i), (2, p, i)], vec![(1, p, i), (3, p, i), (2, p, i)]];
    assert_eq!(prims(&r), [t(0, 0), t(0, 1), t(1, 0), t(1, 1)].concat());
    assert_eq!((r.statistics.gs_invocations, r.statistics.gs_primitives), (4, 8));
}

#[test]
fn strips_become_lists() {
    use Op::*;
    let gs = script_gs("trianglestrip", 8, 1, &[Emit(0), Emit(1), Emit(2), Emit(3), Emit(4), Emit(5)]);
    let r = run_script(&gs, 1);
    assert_eq!(values(&r), seq(&[&[0, 1, 2], &[1, 3, 2], &[2, 3, 4], &[3, 5, 4]]));
    let gs = script_gs("linestrip", 8, 1, &[Emit(0), Emit(1), Emit(2), Emit(3)]);
    let r = run_script(&gs, 1);
    assert_eq!(values(&r), seq(&[&[0, 1], &[1, 2], &[2, 3]]));
    assert_eq!(stream(&r, 0).topology, PrimitiveTopology::LineList);
}

#[test]
fn four_streams_each_with_their_outputs() {
    let gs = four_streams_gs();
    assert_eq!(gs.streams, 0b1111);
    let r = run_script(&gs, 2);
    assert_eq!(r.streams.iter().map(|s| s.stream).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    // Each vertex keeps only its stream's declared registers and components.
    let regs =
        |s: u32| -> Vec<Vec<[u32; 4]>> { stream(&r, s).primitives.iter().map(|p| p[0].registers.clone()).collect() };
    let z = [0u32; 4];
    assert_eq!(regs(0), vec![vec![[100, 0, 0, 0], z, z], vec![[101, 0, 0, 0], z, z]]);
    assert_eq!(regs(1), vec![vec![[10, 0, 0, 0], z, z], vec![[10, 1, 0, 0], z, z]]);
    assert_eq!(regs(2), vec![vec![z, [20, 0, 0, 0], z]; 4]);
    assert_eq!(regs(3), vec![vec![[30, 0, 0, 0], z, [1, 2, 3, 4]]; 2]);
    // Each stream's signature.
    let names = |s: u32| -> Vec<String> { stream(&r, s).signature.iter().map(|e| e.semantic_name.clone()).collect() };
    assert_eq!(
        (names(0), names(1), names(2), names(3)),
        (vec!["A".into()], vec!["B".into()], vec!["C".into()], vec!["D".to_string(), "E".to_string()])
    );
    for s in 0..4 {
        assert_eq!(stream(&r, s).topology, PrimitiveTopology::PointList);
    }
    // GSPrimitives counts every stream; the rasterizer sees stream 0 (no SO
    // declaration).
    assert_eq!(r.rasterized_stream, Some(0));
    assert_eq!(
        r.statistics,
        PipelineStatistics {
            ia_vertices: 2,
            ia_primitives: 2,
            vs_invocations: 2,
            gs_invocations: 2,
            gs_primitives: 10,
            c_invocations: 2,
            c_primitives: 2,
            ..Default::default()
        }
    );
}

#[test]
fn checking_mode_reports_emits_of_undefined_outputs() {
    // o0 written once, emitted twice: the second emit reads undefined outputs (13.4).
    let gs = plan(&format!(
        "{}{}gs_4_0\ndcl_inputprimitive point\ndcl_outputtopology pointlist\ndcl_output o0.xyzw\ndcl_maxout 2\n\
         mov o0.xyzw, l(1,2,3,4)\nemit\nemit\nret\n",
        signature("Input signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
        signature("Output signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
    ));
    let vs = ids_vs();
    let data = value_data(1);
    let mut s = Setup::new(Topology::PointList, Some(&vs), Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
    s.checking = true;
    let r = s.draw(draw(1)).unwrap();
    assert!(!r.diagnostics.is_empty());
    assert!(r.diagnostics.iter().all(|d| d.message.starts_with("gs: ")), "{:?}", r.diagnostics);
    s.checking = false;
    assert!(s.draw(draw(1)).unwrap().diagnostics.is_empty());
}

#[test]
fn runaway_invocation_stops_the_draw() {
    let gs = plan(&format!(
        "{}{}gs_4_0\ndcl_inputprimitive point\ndcl_outputtopology pointlist\ndcl_output o0.xyzw\ndcl_maxout 1\n\
         loop\nendloop\nret\n",
        signature("Input signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
        signature("Output signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
    ));
    let vs = ids_vs();
    let data = value_data(1);
    let mut s = Setup::new(Topology::PointList, Some(&vs), Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
    s.step_limit = 1000;
    let e = s.draw(draw(3)).unwrap_err();
    assert!(matches!(e.kind, exec::ExecErrorKind::StepLimit(_)), "{e}");
}
