//! Review: random draws (indexed 16/32-bit with strip cuts, start index, negative base
//! vertex, instances; non-indexed with start vertex) of every non-adjacency topology
//! through an echo geometry shader, against a model of 8.4.1/8.6.1 pseudocode: vertex
//! order, `SV_PrimitiveID` per instance across cuts, IAVertices/IAPrimitives.

mod common_pipeline;
use common_pipeline::*;
use exec::pipeline::{DrawCall, IndexFormat, Topology};

fn assemble(topology: Topology, strip: &[u32], out: &mut Vec<Vec<u32>>) {
    let n = strip.len();
    match topology {
        Topology::PointList => out.extend(strip.iter().map(|&v| vec![v])),
        Topology::LineList => out.extend(strip.chunks_exact(2).map(|c| c.to_vec())),
        Topology::LineStrip => out.extend((1..n).map(|k| vec![strip[k - 1], strip[k]])),
        Topology::TriangleList => out.extend(strip.chunks_exact(3).map(|c| c.to_vec())),
        Topology::TriangleStrip => out.extend((2..n).map(|e| {
            let k = e - 2;
            if k % 2 == 0 {
                vec![strip[k], strip[k + 1], strip[k + 2]]
            } else {
                vec![strip[k], strip[k + 2], strip[k + 1]]
            }
        })),
        _ => unreachable!(),
    }
}

#[test]
fn review_random_draws_match_ia_model() {
    let mut rng = corpus::Rng(0x1234_5678_9abc_def1);
    let vs = ids_vs();
    let gss = [echo_gs("point", 1, 1), echo_gs("line", 2, 1), echo_gs("triangle", 3, 1)];
    let data = value_data(16);
    let topologies = [
        (Topology::PointList, 0),
        (Topology::LineList, 1),
        (Topology::LineStrip, 1),
        (Topology::TriangleList, 2),
        (Topology::TriangleStrip, 2),
    ];
    for case in 0..600 {
        let (topology, g) = topologies[rng.below(5)];
        let n = [1usize, 2, 3][g];
        let instances = 1 + rng.below(3) as u32;
        let indexed = rng.below(3) != 0;
        let format = if rng.below(2) == 0 { IndexFormat::U16 } else { IndexFormat::U32 };
        let cut = if format == IndexFormat::U16 { 0xffff } else { u32::MAX };
        let len = rng.below(14);
        let indices: Vec<u32> = (0..len).map(|_| if rng.below(5) == 0 { cut } else { rng.below(18) as u32 }).collect();
        let bytes: Vec<u8> = match format {
            IndexFormat::U16 => u16_bytes(&indices.iter().map(|&i| i as u16).collect::<Vec<_>>()),
            IndexFormat::U32 => u32_bytes(&indices),
        };
        let start = rng.below(3) as u32;
        let count = rng.below(len + 3) as u32; // may read past the end (index 0)
        let base = rng.below(5) as i32 - 2;
        let call = if indexed {
            DrawCall::DrawIndexedInstanced {
                index_count_per_instance: count,
                instance_count: instances,
                start_index: start,
                base_vertex: base,
                start_instance: 0,
            }
        } else {
            DrawCall::DrawInstanced {
                vertex_count_per_instance: count,
                instance_count: instances,
                start_vertex: start,
                start_instance: 0,
            }
        };
        // The model.
        let value = |vertex: u32| if vertex < 16 { 100 + vertex } else { 0 };
        let mut want: Vec<(Vec<u32>, u32)> = Vec::new();
        let mut ia_vertices = 0u64;
        for _ in 0..instances {
            let mut prims = Vec::new();
            let mut strip = Vec::new();
            for i in 0..count {
                let v = if indexed {
                    let index = indices.get((start + i) as usize).copied().unwrap_or(0);
                    if index == cut {
                        assemble(topology, &strip, &mut prims);
                        strip.clear();
                        continue;
                    }
                    value((base as u32).wrapping_add(index))
                } else {
                    value(start + i)
                };
                ia_vertices += 1;
                strip.push(v);
            }
            assemble(topology, &strip, &mut prims);
            want.extend(prims.into_iter().enumerate().map(|(id, p)| (p, id as u32)));
        }
        let mut s = Setup::new(topology, Some(&vs), Some(&gss[g])).layout(value_layout()).buffer(0, &data, 16, 0);
        if indexed {
            s = s.indices(&bytes, format, 0);
        }
        let r = s.draw(call).unwrap();
        let st = stream(&r, 0);
        let points: Vec<u32> = st.primitives.iter().map(|p| p[0].registers[0][0]).collect();
        let ids: Vec<u32> = st.primitives.iter().map(|p| p[0].registers[1][0]).collect();
        let got: Vec<(Vec<u32>, u32)> = points.chunks(n).zip(ids.chunks(n)).map(|(p, i)| (p.to_vec(), i[0])).collect();
        let ctx = format!("case {case}: {topology:?} {call:?} indices {indices:x?}");
        assert_eq!(got, want, "{ctx}");
        assert_eq!(r.statistics.ia_primitives, want.len() as u64, "{ctx}");
        assert_eq!(r.statistics.ia_vertices, ia_vertices, "{ctx}");
        assert_eq!(r.statistics.gs_invocations, want.len() as u64, "{ctx}");
    }
}
