//! Where each captured vertex came from (`Vertex::provenance`): the input primitive
//! (counted over the whole draw), the geometry-shader instance and the emission number
//! within the invocation, every stream's emits counted; without a geometry shader only
//! the input primitive. Recording it must not change what is captured or written.

mod common_pipeline;
use common_pipeline::*;
use exec::pipeline::{DrawCall, Provenance, Topology};
use exec::Plan;

/// A two-instance, two-stream GS: stream 0 a triangle strip of `o0`, stream 1 points of
/// `o1`. Each emit writes (its emission number, vPrim, vGSInstanceID) to the stream's
/// register, and the emits interleave the streams and cut stream 0 once.
fn interleaved_gs() -> Plan {
    // (stream, emission number) per emit, `None` for a cut of stream 0.
    let script: [Option<(u32, u32)>; 10] = [
        Some((0, 0)),
        Some((0, 1)),
        Some((1, 2)),
        Some((0, 3)),
        None,
        Some((0, 4)),
        Some((0, 5)),
        Some((1, 6)),
        Some((0, 7)),
        Some((0, 8)),
    ];
    let mut body = String::new();
    for op in script {
        match op {
            Some((s, e)) => {
                body +=
                    &format!("mov o{s}.x, l({e})\nmov o{s}.y, vPrim\nmov o{s}.z, vGSInstanceID.x\nemit_stream m{s}\n")
            }
            None => body += "cut_stream m0\n",
        }
    }
    plan(&format!(
        "{}{}gs_5_0\ndcl_input vPrim\ndcl_input vGSInstanceID\ndcl_inputprimitive point\n\
         dcl_stream m0\ndcl_outputtopology trianglestrip\ndcl_output o0.xyz\n\
         dcl_stream m1\ndcl_outputtopology pointlist\ndcl_output o1.xyz\n\
         dcl_maxout 9\ndcl_gsinstances 2\n{body}ret\n",
        signature("Input signature", &[("TEXCOORD", 0, "xyzw", 0, "NONE", "uint")]),
        signature("Output signature", &[("m0:A", 0, "xyz", 0, "NONE", "uint"), ("m1:B", 0, "xyz", 1, "NONE", "uint")]),
    ))
}

#[test]
fn every_vertex_knows_its_primitive_instance_and_emit() {
    let vs = ids_vs();
    let gs = interleaved_gs();
    let data = value_data(3);
    let mut setup =
        Setup::new(Topology::PointList, Some(&vs), Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
    let call =
        DrawCall::DrawInstanced { vertex_count_per_instance: 3, instance_count: 2, start_vertex: 0, start_instance: 0 };
    let r = setup.draw(call).unwrap();
    let mut seen = 0;
    for (s, register) in [(0u32, 0usize), (1, 1)] {
        for primitive in &stream(&r, s).primitives {
            for v in primitive {
                let [emission, prim_id, gs_instance, _] = v.registers[register];
                let p = v.provenance;
                // Three points per draw instance: the draw-wide index is instance × 3 + vPrim.
                assert!(p.input_primitive % 3 == prim_id as u64 && p.input_primitive < 6, "{p:?} {prim_id}");
                assert_eq!(p.gs_instance, Some(gs_instance), "{p:?}");
                assert_eq!(p.emission, Some(emission), "{p:?}");
                seen += 1;
            }
        }
    }
    // Per invocation: triangles (0,1,3), (4,5,7), (5,8,7) and points 2, 6; 12
    // invocations (2 draw instances × 3 points × 2 GS instances).
    assert_eq!(seen, 12 * (9 + 2));
    let first: Vec<Provenance> = stream(&r, 0).primitives[2].iter().map(|v| v.provenance).collect();
    let at = |e| Provenance { input_primitive: 0, gs_instance: Some(0), emission: Some(e) };
    assert_eq!(first, vec![at(5), at(8), at(7)]);
    // The last invocation: the second draw instance's third point, GS instance 1.
    let last = stream(&r, 1).primitives.last().unwrap()[0].provenance;
    assert_eq!(last, Provenance { input_primitive: 5, gs_instance: Some(1), emission: Some(6) });
}

#[test]
fn without_a_geometry_shader_only_the_input_primitive() {
    let vs = ids_vs();
    let data = value_data(7);
    let mut setup = Setup::new(Topology::TriangleStrip, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0);
    let r = setup.draw(draw(7)).unwrap();
    let primitives = &stream(&r, 0).primitives;
    assert_eq!(primitives.len(), 5);
    for (i, p) in primitives.iter().enumerate() {
        for v in p {
            assert_eq!(v.provenance, Provenance { input_primitive: i as u64, gs_instance: None, emission: None });
        }
    }
}

/// Capturing (which records the provenance) and not capturing write the same
/// stream-output bytes; the captured registers are those the stream declares.
#[test]
fn recording_changes_nothing_else() {
    let vs = ids_vs();
    let gs = interleaved_gs();
    let data = value_data(3);
    let declaration = streamout::StreamOutputDesc {
        entries: vec![
            streamout::SoEntry {
                stream: 0,
                semantic_name: Some("A".into()),
                semantic_index: 0,
                start_component: 0,
                component_count: 3,
                output_slot: 0,
            },
            streamout::SoEntry {
                stream: 1,
                semantic_name: Some("B".into()),
                semantic_index: 0,
                start_component: 0,
                component_count: 3,
                output_slot: 1,
            },
        ],
        strides: vec![12, 12],
        rasterized_stream: 0,
    };
    let mut written = Vec::new();
    for capture in [false, true] {
        let mut setup =
            Setup::new(Topology::PointList, Some(&vs), Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
        setup.capture = capture;
        let mut memory = vec![vec![0u8; 4096], vec![0u8; 4096]];
        let mut offsets = [0u32; 4];
        let r = setup.draw_so(draw(3), Some(&declaration), &mut memory, &mut offsets).unwrap();
        if capture {
            for v in stream(&r, 0).primitives.iter().flatten() {
                assert_eq!(v.registers.len(), 2, "one register per output, no more");
                assert_eq!(v.registers[1], [0; 4], "stream 1's register is not stream 0's");
            }
        } else {
            assert!(r.streams.is_empty());
        }
        written.push((memory, offsets));
    }
    assert_eq!(written[0], written[1]);
    // 3 points × 2 instances × (3 triangles of stream 0, 2 points of stream 1).
    assert_eq!(written[1].1[..2], [3 * 2 * 9 * 12, 3 * 2 * 2 * 12]);
}
