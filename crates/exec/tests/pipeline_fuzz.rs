//! Random draws — topologies, draw parameters (huge starts, negative base vertices),
//! index and vertex buffers of any size and offset, random layouts, geometry shaders
//! that do or do not match, stream-output declarations and buffers — never panic, and
//! what they report is consistent: SO statistics never write more than they need,
//! offsets stay within the buffers, captured primitives match the counters.

mod common_pipeline;
use common_pipeline::*;
use exec::pipeline::{DrawCall, IndexFormat, InputElement, Topology, APPEND_ALIGNED};
use exec::Format;
use proptest::prelude::*;

const TOPOLOGIES: [Topology; 9] = Topology::ALL;

fn call() -> impl Strategy<Value = DrawCall> {
    let start = prop_oneof![0u32..8, Just(u32::MAX), Just(u32::MAX - 3), any::<u32>()];
    let base = prop_oneof![-8i32..8, Just(i32::MIN), Just(i32::MAX), any::<i32>()];
    prop_oneof![
        (0u32..40, start.clone())
            .prop_map(|(vertex_count, start_vertex)| DrawCall::Draw { vertex_count, start_vertex }),
        (0u32..40, start.clone(), base.clone()).prop_map(|(index_count, start_index, base_vertex)| {
            DrawCall::DrawIndexed { index_count, start_index, base_vertex }
        }),
        (0u32..20, 0u32..4, start.clone(), start.clone()).prop_map(|(v, i, s, si)| DrawCall::DrawInstanced {
            vertex_count_per_instance: v,
            instance_count: i,
            start_vertex: s,
            start_instance: si,
        }),
        (0u32..20, 0u32..4, start.clone(), base, start).prop_map(|(n, i, s, b, si)| {
            DrawCall::DrawIndexedInstanced {
                index_count_per_instance: n,
                instance_count: i,
                start_index: s,
                base_vertex: b,
                start_instance: si,
            }
        }),
        Just(DrawCall::DrawAuto),
    ]
}

fn layout() -> impl Strategy<Value = Vec<InputElement>> {
    let format = prop::sample::select(Format::ALL.to_vec());
    let offset = prop_oneof![0u32..40, Just(APPEND_ALIGNED), Just(u32::MAX - 1)];
    let element = (format, 0u32..3, offset, any::<bool>(), 0u32..3, 0u32..2).prop_map(
        |(format, slot, offset, per_instance, rate, index)| InputElement {
            semantic_name: if index == 0 { "VALUE".into() } else { "TEXCOORD".into() },
            semantic_index: 0,
            format,
            input_slot: slot,
            aligned_byte_offset: offset,
            per_instance,
            instance_data_step_rate: rate,
        },
    );
    prop::collection::vec(element, 0..4)
}

/// The shaders, assembled once.
fn shaders_once() -> &'static (exec::Plan, [exec::Plan; 3]) {
    static SHADERS: std::sync::OnceLock<(exec::Plan, [exec::Plan; 3])> = std::sync::OnceLock::new();
    SHADERS.get_or_init(|| (ids_vs(), [echo_gs("point", 1, 2), echo_gs("triangleadj", 6, 1), echo_gs("line", 2, 3)]))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn random_draws_never_panic(
        topology in 0u8..9,
        mismatch in prop::bool::weighted(0.1),
        missing in prop::bool::weighted(0.1),
        first in layout().prop_filter_map("one element", |l| l.first().cloned()),
        call in call(),
        layout in layout(),
        vb in prop::collection::vec(any::<u8>(), 0..200),
        stride in prop_oneof![0u32..40, Just(u32::MAX)],
        vb_offset in prop_oneof![0u32..64, Just(u32::MAX - 2)],
        ib in prop::collection::vec(prop_oneof![Just(0xffu8), 0u8..6], 0..48),
        u32_indices in any::<bool>(),
        ib_offset in prop_oneof![0u32..8, Just(u32::MAX)],
        bind_ib in any::<bool>(),
        shaders in prop_oneof![10 => 0usize..5, 1 => Just(5usize)],
        so_choice in 0usize..5,
        so_size in 0usize..300,
        so_offset in prop_oneof![0u32..64, Just(u32::MAX)],
    ) {
        let (vs, gss) = shaders_once();
        let (vs_plan, gs_plan) = match shaders {
            0 => (Some(vs), None),
            1 => (Some(vs), Some(&gss[0])),
            2 => (Some(vs), Some(&gss[1])),
            3 => (Some(vs), Some(&gss[2])),
            4 => (None, Some(&gss[0])),
            _ => (None, None),
        };
        // Mostly a topology the geometry shader takes.
        let topology = match (shaders, mismatch) {
            (1 | 4, false) => Topology::PointList,
            (2, false) => [Topology::TriangleListAdj, Topology::TriangleStripAdj][topology as usize % 2],
            (3, false) => [Topology::LineList, Topology::LineStrip][topology as usize % 2],
            _ => TOPOLOGIES[topology as usize % 9],
        };
        // Mostly a layout with the elements the first stage reads.
        let mut elements = Vec::new();
        if !missing {
            elements.push(InputElement { semantic_name: "VALUE".into(), ..first.clone() });
            elements.push(InputElement { semantic_name: "TEXCOORD".into(), ..first });
        }
        elements.extend(layout);
        let mut s = Setup::new(topology, vs_plan, gs_plan).layout(elements);
        s = s.buffer(0, &vb, stride, vb_offset).buffer(2, &vb, 4, 0);
        if bind_ib {
            s = s.indices(&ib, if u32_indices { IndexFormat::U32 } else { IndexFormat::U16 }, ib_offset);
        }
        s.capture = so_choice % 2 == 0;
        let decls = [
            so_decl("TEXCOORD0.xyzw", &[16], 0),
            so_decl("TEXCOORD0.x; $SKIP.3; 1:TEXCOORD1.xy", &[], 0),
            so_decl("TEXCOORD1.xyz", &[12], streamout::NO_RASTERIZED_STREAM),
            so_decl("NOPE.x", &[], 0),
        ];
        let so = decls.get(so_choice);
        let mut memory = vec![vec![0u8; so_size], vec![0u8; so_size / 2]];
        let mut offsets = [so_offset, 0, 0, 0];
        let before = offsets;
        match s.draw_so(call, so, &mut memory, &mut offsets) {
            Ok(r) => {
                for st in &r.so_statistics {
                    prop_assert!(st.num_primitives_written <= st.primitives_storage_needed);
                }
                for (slot, m) in memory.iter().enumerate() {
                    prop_assert!(offsets[slot] == before[slot] || offsets[slot] as usize <= m.len());
                }
                let st = r.statistics;
                prop_assert!(st.c_primitives <= st.gs_primitives.max(st.ia_primitives));
                if gs_plan.is_none() && vs_plan.is_some() && s.capture {
                    prop_assert_eq!(stream(&r, 0).primitives.len() as u64, st.ia_primitives);
                }
                if gs_plan.is_some() && s.capture {
                    let all: usize = r.streams.iter().map(|p| p.primitives.len()).sum();
                    prop_assert_eq!(all as u64, st.gs_primitives);
                }
            }
            Err(e) => {
                // Errors are the draw's own (layout, topology, declaration) — the shaders
                // here cannot fail.
                prop_assert!(matches!(e.kind, exec::ExecErrorKind::Draw(_)), "{}", e);
            }
        }
    }
}
