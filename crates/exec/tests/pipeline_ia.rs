//! Input assembly end to end: every topology without a geometry shader, strip cuts,
//! indices (16/32-bit, base vertex, reads past the end), instancing with step rates,
//! `SV_VertexID`/`SV_InstanceID`, out-of-bounds and unbound vertex reads, formats and
//! `APPEND_ALIGNED`, the layout against the signature, the IA and VS statistics.

mod common_pipeline;
use common_pipeline::*;
use exec::pipeline::{DrawCall, IndexFormat, PipelineStatistics, Topology, APPEND_ALIGNED};
use exec::{ExecErrorKind, Format, Plan};
use tpf::PrimitiveTopology;

/// Runs `call` with the identity VS on `n` vertices of [`value_data`]; returns each
/// primitive's `VALUE.x` and the statistics.
fn run(topology: Topology, n: u32, call: DrawCall) -> (Vec<Vec<u32>>, PipelineStatistics, PrimitiveTopology) {
    let vs = ids_vs();
    let data = value_data(n);
    let mut s = Setup::new(topology, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0);
    let r = s.draw(call).unwrap();
    let st = stream(&r, 0);
    (component(st, 0, 0), r.statistics, st.topology)
}

fn add(v: &[&[u32]]) -> Vec<Vec<u32>> {
    v.iter().map(|p| p.iter().map(|x| x + 100).collect()).collect()
}

fn stats(ia_vertices: u64, ia_primitives: u64, vs: u64, c: u64) -> PipelineStatistics {
    PipelineStatistics {
        ia_vertices,
        ia_primitives,
        vs_invocations: vs,
        c_invocations: c,
        c_primitives: c,
        ..Default::default()
    }
}

#[test]
fn lists_and_strips_without_gs() {
    let (p, s, t) = run(Topology::PointList, 7, draw(7));
    assert_eq!(p, add(&[&[0], &[1], &[2], &[3], &[4], &[5], &[6]]));
    assert_eq!((s, t), (stats(7, 7, 7, 7), PrimitiveTopology::PointList));

    let (p, s, t) = run(Topology::LineList, 7, draw(7));
    assert_eq!(p, add(&[&[0, 1], &[2, 3], &[4, 5]]));
    assert_eq!((s, t), (stats(7, 3, 7, 3), PrimitiveTopology::LineList));

    let (p, s, _) = run(Topology::LineStrip, 7, draw(7));
    assert_eq!(p, add(&[&[0, 1], &[1, 2], &[2, 3], &[3, 4], &[4, 5], &[5, 6]]));
    assert_eq!(s, stats(7, 6, 7, 6));

    // A triangle list of 7 vertices: 2 triangles, the last vertex discarded (8.13).
    let (p, s, t) = run(Topology::TriangleList, 7, draw(7));
    assert_eq!(p, add(&[&[0, 1, 2], &[3, 4, 5]]));
    assert_eq!((s, t), (stats(7, 2, 7, 2), PrimitiveTopology::TriangleList));

    // Triangle strips: odd triangles (k, k+2, k+1), the leading vertex first.
    let (p, s, t) = run(Topology::TriangleStrip, 7, draw(7));
    assert_eq!(p, add(&[&[0, 1, 2], &[1, 3, 2], &[2, 3, 4], &[3, 5, 4], &[4, 5, 6]]));
    assert_eq!((s, t), (stats(7, 5, 7, 5), PrimitiveTopology::TriangleList));

    // Too few vertices: nothing, but the vertices were read and shaded.
    let (p, s, _) = run(Topology::TriangleStrip, 2, draw(2));
    assert!(p.is_empty());
    assert_eq!(s, stats(2, 0, 2, 0));
}

#[test]
fn adjacency_without_gs_keeps_the_interior_vertices() {
    let (p, s, t) = run(Topology::LineListAdj, 9, draw(9));
    assert_eq!(p, add(&[&[1, 2], &[5, 6]]));
    assert_eq!((s, t), (stats(9, 2, 9, 2), PrimitiveTopology::LineList));

    let (p, s, _) = run(Topology::LineStripAdj, 6, draw(6));
    assert_eq!(p, add(&[&[1, 2], &[2, 3], &[3, 4]]));
    assert_eq!(s, stats(6, 3, 6, 3));

    let (p, s, t) = run(Topology::TriangleListAdj, 13, draw(13));
    assert_eq!(p, add(&[&[0, 2, 4], &[6, 8, 10]]));
    assert_eq!((s, t), (stats(13, 2, 13, 2), PrimitiveTopology::TriangleList));

    // 10 vertices: 3 triangles — first (0 2 4), odd (2 6 4), last even (4 6 8).
    let (p, s, _) = run(Topology::TriangleStripAdj, 10, draw(10));
    assert_eq!(p, add(&[&[0, 2, 4], &[2, 6, 4], &[4, 6, 8]]));
    assert_eq!(s, stats(10, 3, 10, 3));
}

#[test]
fn start_vertex_and_vertex_ids() {
    let vs = ids_vs();
    let data = value_data(8);
    let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0);
    let r = s.draw(DrawCall::Draw { vertex_count: 3, start_vertex: 4 }).unwrap();
    let st = stream(&r, 0);
    assert_eq!(component(st, 0, 0), vec![vec![104], vec![105], vec![106]]);
    // SV_VertexID counts from 0 without StartVertexLocation (8.4.2, 8.16); instance 0.
    assert_eq!(register(st, 1), vec![vec![[0, 0, 0, 0]], vec![[1, 0, 0, 0]], vec![[2, 0, 0, 0]]]);
    // The vertex's registers: TEXCOORD0 (all four) and TEXCOORD1.xy, with the signature.
    assert_eq!(st.primitives[0][0].registers, vec![[104, 0, 0, 0], [0, 0, 0, 0]]);
    let names: Vec<(&str, u32)> = st.signature.iter().map(|e| (e.semantic_name.as_str(), e.register)).collect();
    assert_eq!(names, vec![("TEXCOORD", 0), ("TEXCOORD", 1)]);
    // The vertex buffer's offset shifts the data, not the IDs.
    let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 32);
    let r = s.draw(DrawCall::Draw { vertex_count: 2, start_vertex: 1 }).unwrap();
    assert_eq!(component(stream(&r, 0), 0, 0), vec![vec![103], vec![104]]);
    assert_eq!(component(stream(&r, 0), 1, 0), vec![vec![0], vec![1]]);
}

#[test]
fn strip_cut_indices_16_and_32_bit() {
    let vs = ids_vs();
    let data = value_data(8);
    let i16 = u16_bytes(&[0, 1, 2, 3, 0xffff, 4, 5, 6, 0xffff, 7]);
    let i32 = u32_bytes(&[0, 1, 2, 3, 0xffff_ffff, 4, 5, 6, 0xffff_ffff, 7]);
    for (bytes, format) in [(&i16, IndexFormat::U16), (&i32, IndexFormat::U32)] {
        let mut s = Setup::new(Topology::TriangleStrip, Some(&vs), None)
            .layout(value_layout())
            .buffer(0, &data, 16, 0)
            .indices(bytes, format, 0);
        let r = s.draw(DrawCall::DrawIndexed { index_count: 10, start_index: 0, base_vertex: 0 }).unwrap();
        let st = stream(&r, 0);
        assert_eq!(component(st, 0, 0), add(&[&[0, 1, 2], &[1, 3, 2], &[4, 5, 6]]), "{format:?}");
        // SV_VertexID is the index.
        assert_eq!(component(st, 1, 0), vec![vec![0, 1, 2], vec![1, 3, 2], vec![4, 5, 6]]);
        // The cuts are not vertices.
        assert_eq!(r.statistics, stats(8, 3, 8, 3));
    }
    // With 32-bit indices 0xffff is an ordinary index (out of the buffer: zeros).
    let i32 = u32_bytes(&[0, 1, 0xffff, 2]);
    let mut s = Setup::new(Topology::TriangleStrip, Some(&vs), None)
        .layout(value_layout())
        .buffer(0, &data, 16, 0)
        .indices(&i32, IndexFormat::U32, 0);
    let r = s.draw(DrawCall::DrawIndexed { index_count: 4, start_index: 0, base_vertex: 0 }).unwrap();
    assert_eq!(component(stream(&r, 0), 0, 0), vec![vec![100, 101, 0], vec![101, 102, 0]]);
    assert_eq!(component(stream(&r, 0), 1, 0), vec![vec![0, 1, 0xffff], vec![1, 2, 0xffff]]);
}

#[test]
fn cut_in_list_topologies_discards_the_incomplete_primitive() {
    let vs = ids_vs();
    let data = value_data(8);
    let idx = u16_bytes(&[0, 1, 0xffff, 2, 3, 4, 5, 0xffff, 6, 7]);
    for (topology, want) in [
        (Topology::TriangleList, add(&[&[2, 3, 4]])),
        (Topology::LineList, add(&[&[0, 1], &[2, 3], &[4, 5], &[6, 7]])),
        (Topology::PointList, add(&[&[0], &[1], &[2], &[3], &[4], &[5], &[6], &[7]])),
    ] {
        let mut s = Setup::new(topology, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0).indices(
            &idx,
            IndexFormat::U16,
            0,
        );
        let r = s.draw(DrawCall::DrawIndexed { index_count: 10, start_index: 0, base_vertex: 0 }).unwrap();
        assert_eq!(component(stream(&r, 0), 0, 0), want, "{topology:?}");
    }
}

#[test]
fn start_index_base_vertex_and_vertex_id() {
    let vs = ids_vs();
    let data = value_data(8);
    let idx = u16_bytes(&[9, 3, 4, 5]);
    let mut s = Setup::new(Topology::TriangleList, Some(&vs), None)
        .layout(value_layout())
        .buffer(0, &data, 16, 0)
        .indices(&idx, IndexFormat::U16, 0);
    // Indices 3 4 5 with BaseVertexLocation -1: vertices 2 3 4; SV_VertexID = the index.
    let r = s.draw(DrawCall::DrawIndexed { index_count: 3, start_index: 1, base_vertex: -1 }).unwrap();
    assert_eq!(component(stream(&r, 0), 0, 0), vec![vec![102, 103, 104]]);
    assert_eq!(component(stream(&r, 0), 1, 0), vec![vec![3, 4, 5]]);
    // The index buffer's offset (bytes) adds to StartIndexLocation.
    let mut s = Setup::new(Topology::TriangleList, Some(&vs), None)
        .layout(value_layout())
        .buffer(0, &data, 16, 0)
        .indices(&idx, IndexFormat::U16, 2);
    let r = s.draw(DrawCall::DrawIndexed { index_count: 3, start_index: 0, base_vertex: 2 }).unwrap();
    assert_eq!(component(stream(&r, 0), 0, 0), vec![vec![105, 106, 107]]);
    // A base vertex pointing before the buffer: out of bounds (zeros).
    let r = s.draw(DrawCall::DrawIndexed { index_count: 3, start_index: 0, base_vertex: -4 }).unwrap();
    assert_eq!(component(stream(&r, 0), 0, 0), vec![vec![0, 100, 101]]);
}

#[test]
fn index_reads_past_the_end_are_zero() {
    let vs = ids_vs();
    let data = value_data(4);
    let idx = u16_bytes(&[2, 1, 3]);
    // Only 5 bytes: index 2 (bytes 4..6) straddles the end and reads 0.
    let mut s = Setup::new(Topology::PointList, Some(&vs), None)
        .layout(value_layout())
        .buffer(0, &data, 16, 0)
        .indices(&idx[..5], IndexFormat::U16, 0);
    let r = s.draw(DrawCall::DrawIndexed { index_count: 5, start_index: 0, base_vertex: 0 }).unwrap();
    assert_eq!(component(stream(&r, 0), 0, 0), add(&[&[2], &[1], &[0], &[0], &[0]]));
    assert_eq!(component(stream(&r, 0), 1, 0), vec![vec![2], vec![1], vec![0], vec![0], vec![0]]);
    // Five vertices, three distinct indices: three vertex-shader runs.
    assert_eq!(r.statistics, stats(5, 5, 3, 5));
    // No index buffer at all: every index reads 0.
    let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0);
    let r = s.draw(DrawCall::DrawIndexed { index_count: 2, start_index: 0, base_vertex: 1 }).unwrap();
    assert_eq!(component(stream(&r, 0), 0, 0), add(&[&[1], &[1]]));
}

#[test]
fn vs_runs_once_per_distinct_index_per_instance() {
    let vs = ids_vs();
    let data = value_data(4);
    let idx = u32_bytes(&[0, 1, 2, 2, 1, 0, 3, 3, 3]);
    let mut s = Setup::new(Topology::TriangleList, Some(&vs), None)
        .layout(value_layout())
        .buffer(0, &data, 16, 0)
        .indices(&idx, IndexFormat::U32, 0);
    let r = s
        .draw(DrawCall::DrawIndexedInstanced {
            index_count_per_instance: 9,
            instance_count: 2,
            start_index: 0,
            base_vertex: 0,
            start_instance: 0,
        })
        .unwrap();
    let st = stream(&r, 0);
    assert_eq!(component(st, 0, 0), add(&[&[0, 1, 2], &[2, 1, 0], &[3, 3, 3], &[0, 1, 2], &[2, 1, 0], &[3, 3, 3]]));
    // SV_InstanceID of each vertex.
    assert_eq!(component(st, 1, 1), vec![vec![0; 3], vec![0; 3], vec![0; 3], vec![1; 3], vec![1; 3], vec![1; 3]]);
    assert_eq!(r.statistics, stats(18, 6, 8, 6));
}

/// o0 = (VALUE, INST0, INST1, INST2) (uint), o1.x = SV_InstanceID.
fn instance_vs() -> Plan {
    plan(&format!(
        "{}{}vs_4_0\ndcl_input v0.x\ndcl_input v1.x\ndcl_input v2.x\ndcl_input v3.x\ndcl_input_sgv v4.x, instance_id\n\
         dcl_output o0.xyzw\ndcl_output o1.x\nmov o0.x, v0.x\nmov o0.y, v1.x\nmov o0.z, v2.x\nmov o0.w, v3.x\n\
         mov o1.x, v4.x\nret\n",
        signature(
            "Input signature",
            &[
                ("VALUE", 0, "x", 0, "NONE", "uint"),
                ("INST", 0, "x", 1, "NONE", "uint"),
                ("INST", 1, "x", 2, "NONE", "uint"),
                ("INST", 2, "x", 3, "NONE", "uint"),
                ("SV_InstanceID", 0, "x", 4, "INSTID", "uint"),
            ]
        ),
        signature(
            "Output signature",
            &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint"), ("TEXCOORD", 1, "x", 1, "NONE", "uint")]
        ),
    ))
}

#[test]
fn instancing_order_step_rates_and_instance_ids() {
    let vs = instance_vs();
    let values = u32_bytes(&[100, 101, 102]);
    let inst0 = u32_bytes(&(200..210).collect::<Vec<_>>());
    let inst1 = u32_bytes(&(300..310).collect::<Vec<_>>());
    let inst2 = u32_bytes(&(400..410).collect::<Vec<_>>());
    let mut s = Setup::new(Topology::PointList, Some(&vs), None)
        .layout(vec![
            element("VALUE", 0, Format::R32_UINT, 0, 0),
            instance_element("INST", 0, Format::R32_UINT, 1, 0, 1),
            instance_element("INST", 1, Format::R32_UINT, 2, 0, 2),
            instance_element("inst", 2, Format::R32_UINT, 3, 0, 0),
        ])
        .buffer(0, &values, 4, 0)
        .buffer(1, &inst0, 4, 0)
        .buffer(2, &inst1, 4, 0)
        .buffer(3, &inst2, 4, 0);
    let r = s
        .draw(DrawCall::DrawInstanced {
            vertex_count_per_instance: 2,
            instance_count: 4,
            start_vertex: 1,
            start_instance: 1,
        })
        .unwrap();
    let st = stream(&r, 0);
    // Vertex order: instance by instance; per-instance data from StartInstanceLocation,
    // stepping every `rate` instances (rate 0: never).
    let want: Vec<Vec<[u32; 4]>> = [
        [101, 201, 301, 401],
        [102, 201, 301, 401],
        [101, 202, 301, 401],
        [102, 202, 301, 401],
        [101, 203, 302, 401],
        [102, 203, 302, 401],
        [101, 204, 302, 401],
        [102, 204, 302, 401],
    ]
    .iter()
    .map(|v| vec![*v])
    .collect();
    assert_eq!(register(st, 0), want);
    // SV_InstanceID counts from 0 whatever StartInstanceLocation.
    assert_eq!(component(st, 1, 0), vec![vec![0], vec![0], vec![1], vec![1], vec![2], vec![2], vec![3], vec![3]]);
    assert_eq!(r.statistics, stats(8, 8, 8, 8));
}

/// o0 = v0 (float4), o1 = v1 (float4), o2 = v2 (int4).
fn three_inputs_vs() -> Plan {
    plan(&format!(
        "{}{}vs_4_0\ndcl_input v0.xyzw\ndcl_input v1.xyzw\ndcl_input v2.xyzw\n\
         dcl_output o0.xyzw\ndcl_output o1.xyzw\ndcl_output o2.xyzw\nmov o0.xyzw, v0.xyzw\nmov o1.xyzw, v1.xyzw\n\
         mov o2.xyzw, v2.xyzw\nret\n",
        signature(
            "Input signature",
            &[
                ("A", 0, "xyzw", 0, "NONE", "float"),
                ("B", 0, "xyzw", 1, "NONE", "float"),
                ("C", 0, "xyzw", 2, "NONE", "int")
            ]
        ),
        signature(
            "Output signature",
            &[
                ("TEXCOORD", 0, "xyzw", 0, "NONE", "float"),
                ("TEXCOORD", 1, "xyzw", 1, "NONE", "float"),
                ("TEXCOORD", 2, "xyzw", 2, "NONE", "int"),
            ]
        ),
    ))
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn out_of_bounds_and_unbound_reads_formats_and_defaults() {
    let vs = three_inputs_vs();
    // Slot 0: A = R32G32_FLOAT at 0, C = R16G16_SINT at 8; stride 12, 2.5 vertices.
    let mut slot0 = f32_bytes(&[1.5, 2.5]);
    slot0.extend_from_slice(&[0xff, 0xff, 7, 0]); // C = (-1, 7)
    slot0.extend_from_slice(&f32_bytes(&[3.5, 4.5]));
    slot0.extend_from_slice(&[2, 0, 0xfe, 0xff]); // C = (2, -2)
    slot0.extend_from_slice(&f32_bytes(&[5.5])); // vertex 2's A straddles the end
    let layout = vec![
        element("A", 0, Format::R32G32_FLOAT, 0, 0),
        element("B", 0, Format::R8G8B8A8_UNORM, 1, 0),
        element("C", 0, Format::R16G16_SINT, 0, APPEND_ALIGNED),
    ];
    // Slot 1 unbound.
    let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(layout.clone()).buffer(0, &slot0, 12, 0);
    let r = s.draw(draw(3)).unwrap();
    let st = stream(&r, 0);
    let one = f(1.0);
    assert_eq!(
        register(st, 0),
        vec![vec![[f(1.5), f(2.5), 0, one]], vec![[f(3.5), f(4.5), 0, one]], vec![[0, 0, 0, one]]]
    );
    // An unbound slot reads 0 everywhere, no defaults (8.20).
    assert_eq!(register(st, 1), vec![vec![[0; 4]]; 3]);
    // Integers with the integer default 1 in w.
    assert_eq!(register(st, 2), vec![vec![[-1i32 as u32, 7, 0, 1]], vec![[2, -2i32 as u32, 0, 1]], vec![[0, 0, 0, 1]]]);

    // Slot 1 bound with an offset and a zero stride: every vertex reads the same UNORM
    // element.
    let unorm = [9u8, 9, 9, 9, 0, 255, 51, 102];
    let mut s = Setup::new(Topology::PointList, Some(&vs), None)
        .layout(layout)
        .buffer(0, &slot0, 12, 0)
        .buffer(1, &unorm, 0, 4);
    let r = s.draw(draw(2)).unwrap();
    assert_eq!(register(stream(&r, 0), 1), vec![vec![[0, f(1.0), f(0.2), f(0.4)]]; 2]);
}

#[test]
fn append_aligned_offsets_in_a_draw() {
    let vs = three_inputs_vs();
    // A: R8G8_UNORM at 0; C: R16G16_SINT APPEND (at 4, aligned); B: R32_FLOAT APPEND (at 8).
    let mut bytes = vec![255u8, 0, 0xaa, 0xaa];
    bytes.extend_from_slice(&[5, 0, 6, 0]);
    bytes.extend_from_slice(&f32_bytes(&[0.25]));
    let layout = vec![
        element("A", 0, Format::R8G8_UNORM, 0, 0),
        element("C", 0, Format::R16G16_SINT, 0, APPEND_ALIGNED),
        element("B", 0, Format::R32_FLOAT, 0, APPEND_ALIGNED),
    ];
    let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(layout).buffer(0, &bytes, 12, 0);
    let r = s.draw(draw(1)).unwrap();
    let v = &stream(&r, 0).primitives[0][0].registers;
    assert_eq!(v[0], [f(1.0), 0, 0, f(1.0)]);
    assert_eq!(v[1], [f(0.25), 0, 0, f(1.0)]);
    assert_eq!(v[2], [5, 6, 0, 1]);
}

#[test]
fn layout_against_the_signature() {
    let vs = ids_vs();
    let data = value_data(2);
    // Missing element: a draw error naming it.
    let mut s = Setup::new(Topology::PointList, Some(&vs), None)
        .layout(vec![element("POSITION", 0, Format::R32G32B32A32_UINT, 0, 0)])
        .buffer(0, &data, 16, 0);
    let e = s.draw(draw(2)).unwrap_err();
    assert!(matches!(&e.kind, ExecErrorKind::Draw(m) if m.contains("VALUE") && m.contains("v0")), "{e}");
    // Case-insensitive names, extra elements ignored.
    let mut s = Setup::new(Topology::PointList, Some(&vs), None)
        .layout(vec![
            element("EXTRA", 3, Format::R32_FLOAT, 5, 0),
            element("value", 0, Format::R32G32B32A32_UINT, 0, 0),
        ])
        .buffer(0, &data, 16, 0);
    assert_eq!(component(stream(&s.draw(draw(2)).unwrap(), 0), 0, 0), add(&[&[0], &[1]]));
    // A wrong semantic index does not match.
    let mut s = Setup::new(Topology::PointList, Some(&vs), None)
        .layout(vec![element("VALUE", 1, Format::R32G32B32A32_UINT, 0, 0)])
        .buffer(0, &data, 16, 0);
    assert!(s.draw(draw(2)).is_err());
    // An input slot out of range.
    let mut s = Setup::new(Topology::PointList, Some(&vs), None)
        .layout(vec![element("VALUE", 0, Format::R32G32B32A32_UINT, 32, 0)])
        .buffer(0, &data, 16, 0);
    assert!(matches!(s.draw(draw(2)).unwrap_err().kind, ExecErrorKind::Draw(_)));
}

#[test]
fn ia_feeds_the_geometry_shader_without_a_vertex_shader() {
    let gs = echo_gs("point", 1, 1);
    let data = value_data(3);
    let mut s = Setup::new(Topology::PointList, None, Some(&gs))
        .layout(vec![element("TEXCOORD", 0, Format::R32G32B32A32_UINT, 0, 0)])
        .buffer(0, &data, 16, 0);
    let r = s.draw(draw(3)).unwrap();
    assert_eq!(component(stream(&r, 0), 0, 0), add(&[&[0], &[1], &[2]]));
    assert_eq!(r.statistics.vs_invocations, 0);
    assert_eq!(r.statistics.gs_invocations, 3);
    // The GS input signature is what the layout must provide.
    let mut s = Setup::new(Topology::PointList, None, Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
    assert!(s.draw(draw(3)).is_err());
}

#[test]
fn refused_draws() {
    let vs = ids_vs();
    let gs = echo_gs("triangle", 3, 1);
    let data = value_data(3);
    // Nothing to run.
    let mut s = Setup::new(Topology::PointList, None, None);
    assert!(matches!(s.draw(draw(1)).unwrap_err().kind, ExecErrorKind::Draw(_)));
    // The topology does not feed the GS's input primitive.
    for t in [Topology::PointList, Topology::LineStrip, Topology::TriangleListAdj] {
        let mut s = Setup::new(t, Some(&vs), Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
        let e = s.draw(draw(3)).unwrap_err();
        assert!(matches!(&e.kind, ExecErrorKind::Draw(m) if m.contains("triangle")), "{e}");
    }
    // Shaders in the wrong slots.
    let mut s = Setup::new(Topology::TriangleList, Some(&gs), None);
    assert!(s.draw(draw(3)).is_err());
    let mut s = Setup::new(Topology::TriangleList, Some(&vs), Some(&vs)).layout(value_layout());
    assert!(s.draw(draw(3)).is_err());
    // More than 2^32 vertices in one draw (D3D11_REQ_DRAW_VERTEX_COUNT_2_TO_EXP).
    let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0);
    let call = DrawCall::DrawInstanced {
        vertex_count_per_instance: 1 << 31,
        instance_count: 3,
        start_vertex: 0,
        start_instance: 0,
    };
    assert!(matches!(s.draw(call).unwrap_err().kind, ExecErrorKind::Draw(_)));
    // Zero-count draws are fine and do nothing.
    let r = s.draw(draw(0)).unwrap();
    assert_eq!(r.statistics, PipelineStatistics::default());
    assert!(stream(&r, 0).primitives.is_empty());
}

#[test]
fn capture_off_keeps_statistics_only() {
    let vs = ids_vs();
    let data = value_data(4);
    let mut s = Setup::new(Topology::LineStrip, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0);
    s.capture = false;
    let r = s.draw(draw(4)).unwrap();
    assert!(r.streams.is_empty());
    assert_eq!(r.statistics, stats(4, 3, 4, 3));
    assert_eq!(r.rasterized_stream, Some(0));
}
