//! Review: corpus vertex and geometry shaders, byte-mutated, drawn through
//! `pipeline::draw` (layout generated from the first stage's input signature, random
//! topology, indexed or not, instances, stream output of the first output element):
//! never a panic, each draw bounded in time, errors typed. Without the corpus the test
//! passes (SKIP).

use corpus::Rng;
use exec::pipeline::{
    self, DrawCall, IndexBuffer, IndexFormat, InputElement, Pipeline, SoTarget, StreamOutput, Topology, VertexBuffer,
};
use exec::{Format, Plan, Resources};
use tpf::ProgramType;

const TOPOLOGIES: [Topology; 9] = Topology::ALL;

fn layout(plan: &Plan) -> Vec<InputElement> {
    let mut l: Vec<InputElement> = Vec::new();
    for e in &plan.input_signature {
        if e.semantic_name.to_ascii_uppercase().starts_with("SV_") && e.system_value != 0 {
            continue;
        }
        if l.iter().any(|x| x.semantic_name == e.semantic_name && x.semantic_index == e.semantic_index) {
            continue;
        }
        l.push(InputElement {
            semantic_name: e.semantic_name.clone(),
            semantic_index: e.semantic_index,
            format: Format::R32G32B32A32_UINT,
            input_slot: 0,
            aligned_byte_offset: 16 * l.len() as u32,
            per_instance: false,
            instance_data_step_rate: 0,
        });
    }
    l
}

#[test]
fn review_mutated_corpus_shaders_through_draws() {
    let Some(entries) = corpus::dxbc_entries("exec::review_fuzz_corpus_draws") else {
        return;
    };
    let mut rng = Rng(0x5eed_1234_0bad_cafe);
    let originals: Vec<(Vec<u8>, ProgramType)> = entries
        .iter()
        .filter_map(|e| {
            let b = e.bytes();
            let p = Plan::from_bytecode(&b).ok()?;
            matches!(p.stage, ProgramType::Vertex | ProgramType::Geometry).then_some((b, p.stage))
        })
        .collect();
    // The corpus is read whole (its counts are pinned): it has vertex and geometry
    // programs, so none found is a failure, not a skip.
    assert!(!originals.is_empty(), "no VS/GS program of the corpus makes a plan");
    let vs_pool: Vec<&Vec<u8>> = originals.iter().filter(|o| o.1 == ProgramType::Vertex).map(|o| &o.0).collect();
    let (mut draws, mut ok, mut errors) = (0, 0, 0);
    for case in 0..3000 {
        let (orig, _) = &originals[rng.below(originals.len())];
        let mut bytes = orig.clone();
        if case % 4 != 0 {
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(bytes.len());
                bytes[i] = match rng.below(3) {
                    0 => rng.next_u64() as u8,
                    1 => bytes[i] ^ (1 << rng.below(8)),
                    _ => [0, 0xff, 1, 0x80][rng.below(4)],
                };
            }
        }
        let Ok(plan) = Plan::from_bytecode(&bytes) else { continue };
        let vs_plan;
        let (vs, gs, topology) = match plan.stage {
            ProgramType::Vertex => (Some(&plan), None, TOPOLOGIES[rng.below(9)]),
            ProgramType::Geometry => {
                let t = TOPOLOGIES
                    .iter()
                    .copied()
                    .find(|t| plan.input_primitive == Some(t_gs(*t)) && t_n(*t) == plan.input_vertices)
                    .unwrap_or(TOPOLOGIES[rng.below(9)]);
                let with_vs = rng.below(2) == 0 && !vs_pool.is_empty();
                vs_plan = if with_vs { Plan::from_bytecode(vs_pool[rng.below(vs_pool.len())]).ok() } else { None };
                (vs_plan.as_ref(), Some(&plan), t)
            }
            _ => continue,
        };
        let first = vs.or(gs).unwrap();
        let layout = layout(first);
        let stride = 16 * layout.len().max(1) as u32;
        let data: Vec<u8> = (0..stride as usize * 12).map(|_| rng.next_u64() as u8).collect();
        let indices: Vec<u8> = (0..24)
            .flat_map(|_| (rng.below(14) as u16 | if rng.below(6) == 0 { 0xffff } else { 0 }).to_le_bytes())
            .collect();
        let buffers = [Some(VertexBuffer { data: &data, stride, offset: 0 })];
        let last = gs.or(vs).unwrap();
        let so_desc = last.output_signature.first().map(|e| streamout::StreamOutputDesc {
            entries: vec![streamout::SoEntry {
                stream: e.stream,
                semantic_name: Some(e.semantic_name.clone()),
                semantic_index: e.semantic_index,
                start_component: 0,
                component_count: 4,
                output_slot: 0,
            }],
            strides: vec![],
            rasterized_stream: 0,
        });
        let mut so_memory = vec![0u8; 16 * rng.below(40)];
        let indexed = rng.below(2) == 0;
        let count = rng.below(14) as u32;
        let instances = 1 + rng.below(3) as u32;
        let call = if indexed {
            DrawCall::DrawIndexedInstanced {
                index_count_per_instance: count,
                instance_count: instances,
                start_index: rng.below(3) as u32,
                base_vertex: rng.below(5) as i32 - 2,
                start_instance: 0,
            }
        } else {
            DrawCall::DrawInstanced {
                vertex_count_per_instance: count,
                instance_count: instances,
                start_vertex: rng.below(3) as u32,
                start_instance: rng.below(2) as u32,
            }
        };
        let mut state = Pipeline {
            input_layout: &layout,
            vertex_buffers: &buffers,
            index_buffer: indexed.then_some(IndexBuffer { data: &indices, format: IndexFormat::U16, offset: 0 }),
            topology,
            vs,
            gs,
            vs_resources: Resources::default(),
            gs_resources: Resources::default(),
            stream_output: so_desc.as_ref().filter(|_| rng.below(2) == 0).map(|declaration| StreamOutput {
                declaration,
                targets: [Some(SoTarget { data: &mut so_memory, offset: 0 }), None, None, None],
            }),
            capture: rng.below(2) == 0,
            step_limit: 100_000,
            checking: rng.below(4) == 0,
        };
        draws += 1;
        match pipeline::draw(&mut state, call) {
            Ok(r) => {
                ok += 1;
                if let Some(so) = &state.stream_output {
                    let off = so.targets[0].as_ref().unwrap().offset as u64;
                    assert!(off <= so.targets[0].as_ref().unwrap().data.len() as u64);
                    assert!(r.so_statistics.iter().all(|s| s.num_primitives_written <= s.primitives_storage_needed));
                }
            }
            Err(_) => errors += 1,
        }
    }
    println!("draws {draws}: ok {ok}, errors {errors}");
    assert!(draws > 100);
}

fn t_gs(t: Topology) -> tpf::Primitive {
    match t {
        Topology::PointList => tpf::Primitive::Point,
        Topology::LineList | Topology::LineStrip => tpf::Primitive::Line,
        Topology::TriangleList | Topology::TriangleStrip => tpf::Primitive::Triangle,
        Topology::LineListAdj | Topology::LineStripAdj => tpf::Primitive::LineAdj,
        _ => tpf::Primitive::TriangleAdj,
    }
}

fn t_n(t: Topology) -> u32 {
    match t {
        Topology::PointList => 1,
        Topology::LineList | Topology::LineStrip => 2,
        Topology::TriangleList | Topology::TriangleStrip => 3,
        Topology::LineListAdj | Topology::LineStripAdj => 4,
        _ => 6,
    }
}
