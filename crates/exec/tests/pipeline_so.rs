//! Stream output end to end: exact bytes, whole primitives only, overflow
//! (`NumPrimitivesWritten` / `PrimitivesStorageNeeded`), one full buffer stopping all
//! of a stream's buffers, unbound slots, gaps and component selection, strides,
//! several buffers and streams, the rasterized stream, appending across draws,
//! `DrawAuto`, stream output without a geometry shader, and the pipeline statistics.

mod common_pipeline;
use common_pipeline::*;
use exec::pipeline::{DrawCall, PipelineStatistics, SoStatistics, Topology, VertexBuffer};
use exec::ExecErrorKind;

const SENTINEL: u8 = 0xab;
const S: u32 = 0xabab_abab;

/// The two triangles of the quad of `p` as [`quad_gs`] strips them: (a, b, c) and
/// (b, d, c).
fn quad_triangles(p: [f32; 4]) -> Vec<[f32; 4]> {
    let corner = |dx: f32, dy: f32| [p[0] + dx, p[1] + dy, p[2], p[3]];
    let (a, b, c, d) = (corner(-0.5, -0.5), corner(0.5, -0.5), corner(-0.5, 0.5), corner(0.5, 0.5));
    vec![a, b, c, b, d, c]
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

const POINTS: [[f32; 4]; 3] = [[1.0, 2.0, 0.25, 1.0], [-3.0, 4.0, 0.5, 1.0], [8.0, -8.0, 0.75, 1.0]];

/// Draws `n` of [`POINTS`] through the quad GS with `so` to `memory`.
fn quads(
    n: usize,
    so: &streamout::StreamOutputDesc,
    memory: &mut [Vec<u8>],
    offsets: &mut [u32; 4],
) -> exec::pipeline::DrawResult {
    let (vs, gs) = (passthrough_vs(), quad_gs());
    let data = positions(&POINTS[..n]);
    let mut s = Setup::new(Topology::PointList, Some(&vs), Some(&gs)).layout(position_layout()).buffer(0, &data, 16, 0);
    s.draw_so(draw(n as u32), Some(so), memory, offsets).unwrap()
}

#[test]
fn point_to_quad_exact_bytes_and_statistics() {
    let so = so_decl("SV_Position.xyzw", &[16], 0);
    let mut memory = vec![vec![SENTINEL; 12 * 16 + 8]];
    let mut offsets = [0; 4];
    let r = quads(2, &so, &mut memory, &mut offsets);
    assert_eq!(offsets[0], 192);
    let want: Vec<f32> = [quad_triangles(POINTS[0]), quad_triangles(POINTS[1])].concat().concat();
    assert_eq!(floats(&memory[0][..192]), want);
    assert_eq!(&memory[0][192..], &[SENTINEL; 8]);
    assert_eq!(r.so_statistics[0], SoStatistics { num_primitives_written: 4, primitives_storage_needed: 4 });
    assert_eq!(r.so_statistics[1..], [SoStatistics::default(); 3]);
    assert_eq!(
        r.statistics,
        PipelineStatistics {
            ia_vertices: 2,
            ia_primitives: 2,
            vs_invocations: 2,
            gs_invocations: 2,
            gs_primitives: 4,
            c_invocations: 4,
            c_primitives: 4,
            ps_invocations: 0,
            ..Default::default()
        }
    );
    // The captured primitives are the ones written.
    let captured: Vec<f32> = register(stream(&r, 0), 0).concat().iter().flat_map(|v| v.map(f32::from_bits)).collect();
    assert_eq!(captured, want);
    assert_eq!(component(stream(&r, 0), 1, 0), vec![vec![0, 1, 2], vec![1, 3, 2], vec![0, 1, 2], vec![1, 3, 2]]);
}

#[test]
fn overflow_writes_whole_primitives_only() {
    let so = so_decl("SV_Position.xyzw", &[16], 0);
    // Room for 5 triangles and 10 bytes: the sixth does not fit and is not written at
    // all.
    let mut memory = vec![vec![SENTINEL; 5 * 48 + 10]];
    let mut offsets = [0; 4];
    let r = quads(3, &so, &mut memory, &mut offsets);
    assert_eq!(r.so_statistics[0], SoStatistics { num_primitives_written: 5, primitives_storage_needed: 6 });
    assert_eq!(offsets[0], 240);
    let want: Vec<f32> =
        [quad_triangles(POINTS[0]), quad_triangles(POINTS[1]), quad_triangles(POINTS[2])].concat().concat();
    assert_eq!(floats(&memory[0][..240]), want[..60]);
    assert_eq!(&memory[0][240..], &[SENTINEL; 10]);
    // The GS ran on, and the rasterizer saw every primitive.
    assert_eq!((r.statistics.gs_primitives, r.statistics.c_primitives), (6, 6));
    // The next draw appends at 240: nothing fits.
    let r = quads(1, &so, &mut memory, &mut offsets);
    assert_eq!(r.so_statistics[0], SoStatistics { num_primitives_written: 0, primitives_storage_needed: 2 });
    assert_eq!(offsets[0], 240);
    // Exactly full: everything written.
    let mut memory = vec![vec![0; 6 * 48]];
    let mut offsets = [0; 4];
    let r = quads(3, &so, &mut memory, &mut offsets);
    assert_eq!(r.so_statistics[0], SoStatistics { num_primitives_written: 6, primitives_storage_needed: 6 });
    assert_eq!(offsets[0] as usize, 6 * 48);
    // An offset past the end: nothing.
    let mut offsets = [1000, 0, 0, 0];
    let r = quads(1, &so, &mut memory, &mut offsets);
    assert_eq!(r.so_statistics[0], SoStatistics { num_primitives_written: 0, primitives_storage_needed: 2 });
    assert_eq!(offsets[0], 1000);
}

#[test]
fn a_full_buffer_stops_every_buffer_of_the_stream() {
    // x y to buffer 0 (room for 100 triangles), z w to buffer 1 (room for 2 and a bit).
    let so = so_decl("SV_Position.xy; 1:SV_Position.zw", &[8, 8], 0);
    let mut memory = vec![vec![SENTINEL; 100 * 24], vec![SENTINEL; 2 * 24 + 20]];
    let mut offsets = [0; 4];
    let r = quads(3, &so, &mut memory, &mut offsets);
    assert_eq!(r.so_statistics[0], SoStatistics { num_primitives_written: 2, primitives_storage_needed: 6 });
    assert_eq!(offsets, [48, 48, 0, 0]);
    let want = quad_triangles(POINTS[0]);
    assert_eq!(floats(&memory[0][..48]), want.iter().flat_map(|v| [v[0], v[1]]).collect::<Vec<_>>());
    assert_eq!(floats(&memory[1][..48]), want.iter().flat_map(|v| [v[2], v[3]]).collect::<Vec<_>>());
    assert!(memory[0][48..].iter().all(|&b| b == SENTINEL));
    assert!(memory[1][48..].iter().all(|&b| b == SENTINEL));
    // A slot the declaration uses with no buffer bound is a full buffer (14.6): the
    // stream writes nothing anywhere.
    let mut memory = vec![vec![SENTINEL; 1000], Vec::new()];
    let mut offsets = [0; 4];
    let r = quads(2, &so, &mut memory, &mut offsets);
    assert_eq!(r.so_statistics[0], SoStatistics { num_primitives_written: 0, primitives_storage_needed: 4 });
    assert_eq!(offsets, [0; 4]);
    assert!(memory[0].iter().all(|&b| b == SENTINEL));
    // A buffer bound at a slot the declaration does not use is ignored.
    let so = so_decl("SV_Position.xyzw", &[16], 0);
    let mut memory = vec![vec![0; 1000], vec![SENTINEL; 4]];
    let mut offsets = [0; 4];
    let r = quads(1, &so, &mut memory, &mut offsets);
    assert_eq!(r.so_statistics[0].num_primitives_written, 2);
    assert_eq!((offsets[1], &memory[1][..]), (0, &[SENTINEL; 4][..]));
}

#[test]
fn gaps_components_and_strides() {
    // Without a GS, the vertex shader's outputs: TEXCOORD0 = (100 + i, 0, 0, 0),
    // TEXCOORD1 = (SV_VertexID, SV_InstanceID).
    let vs = ids_vs();
    let data = value_data(3);
    let so = so_decl("TEXCOORD1.x; $SKIP.2; texcoord0.x; TEXCOORD1.y", &[24], 0);
    let mut memory = vec![vec![SENTINEL; 3 * 24]];
    let mut offsets = [0; 4];
    let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0);
    let call =
        DrawCall::DrawInstanced { vertex_count_per_instance: 3, instance_count: 1, start_vertex: 0, start_instance: 0 };
    let r = s.draw_so(call, Some(&so), &mut memory, &mut offsets).unwrap();
    assert_eq!(r.so_statistics[0], SoStatistics { num_primitives_written: 3, primitives_storage_needed: 3 });
    assert_eq!(offsets[0], 72);
    // Per vertex: id, gap, gap, value, instance, the stride's last word untouched.
    assert_eq!(words(&memory[0]), vec![0, S, S, 100, 0, S, 1, S, S, 101, 0, S, 2, S, S, 102, 0, S]);
    // Without strides, the stride is the entries' size (gaps included).
    let so = so_decl("$SKIP.1; TEXCOORD0.x", &[], 0);
    let mut memory = vec![vec![SENTINEL; 3 * 8]];
    let mut offsets = [0; 4];
    s.draw_so(draw(3), Some(&so), &mut memory, &mut offsets).unwrap();
    assert_eq!(words(&memory[0]), vec![S, 100, S, 101, S, 102]);
}

#[test]
fn start_offsets_and_appending_across_draws() {
    let so = so_decl("SV_Position.xyzw", &[16], 0);
    let mut memory = vec![vec![SENTINEL; 32 + 4 * 48]];
    let mut offsets = [32, 0, 0, 0];
    quads(1, &so, &mut memory, &mut offsets);
    assert_eq!(offsets[0], 32 + 96);
    quads(1, &so, &mut memory, &mut offsets);
    assert_eq!(offsets[0], 32 + 192);
    assert_eq!(&memory[0][..32], &[SENTINEL; 32]);
    let want: Vec<f32> = [quad_triangles(POINTS[0]), quad_triangles(POINTS[0])].concat().concat();
    assert_eq!(floats(&memory[0][32..]), want);
}

#[test]
fn several_buffers_and_streams_and_the_rasterized_stream() {
    let vs = ids_vs();
    let gs = four_streams_gs();
    let data = value_data(2);
    // Stream 0 to buffer 0, 1 to 1, 2 to 2, 3 to 3 (unbound); stream 1 rasterized.
    let so = so_decl("s0:0:A.x; s1:1:B.xy; s2:2:C.x; s3:3:E.zw; s3:3:D.x", &[], 1);
    let mut memory = vec![vec![SENTINEL; 16], vec![SENTINEL; 24], vec![SENTINEL; 12], Vec::new()];
    let mut offsets = [0; 4];
    let mut s = Setup::new(Topology::PointList, Some(&vs), Some(&gs)).layout(value_layout()).buffer(0, &data, 16, 0);
    let r = s.draw_so(draw(2), Some(&so), &mut memory, &mut offsets).unwrap();
    let st = |w, n| SoStatistics { num_primitives_written: w, primitives_storage_needed: n };
    // Stream 2 emits twice per invocation: 4 points, room for 3.
    assert_eq!(r.so_statistics, [st(2, 2), st(2, 2), st(3, 4), st(0, 2)]);
    assert_eq!(offsets, [8, 16, 12, 0]);
    assert_eq!(words(&memory[0]), vec![100, 101, S, S]);
    assert_eq!(words(&memory[1]), vec![10, 0, 10, 1, S, S]);
    assert_eq!(words(&memory[2]), vec![20, 20, 20]);
    assert_eq!(r.rasterized_stream, Some(1));
    assert_eq!((r.statistics.gs_primitives, r.statistics.c_invocations, r.statistics.c_primitives), (10, 2, 2));
    // Stream 3 to buffer 3 too: E.zw then D.x, 12 bytes per vertex.
    let mut memory = vec![vec![0; 16], vec![0; 24], vec![0; 16], vec![SENTINEL; 28]];
    let mut offsets = [0; 4];
    let r = s.draw_so(draw(2), Some(&so), &mut memory, &mut offsets).unwrap();
    assert_eq!(r.so_statistics[3], st(2, 2));
    assert_eq!(words(&memory[3]), vec![3, 4, 30, 3, 4, 30, S]);
    // No rasterized stream: the clipper counts nothing.
    let so = so_decl("s0:0:A.x", &[], streamout::NO_RASTERIZED_STREAM);
    let r = s.draw_so(draw(2), Some(&so), &mut memory, &mut offsets).unwrap();
    assert_eq!(r.rasterized_stream, None);
    assert_eq!((r.statistics.gs_primitives, r.statistics.c_invocations, r.statistics.c_primitives), (10, 0, 0));
    // Streams without entries are not counted.
    assert_eq!(r.so_statistics[1..], [SoStatistics::default(); 3]);
    // A declaration without entries only picks the rasterized stream.
    let so = so_decl("", &[], 2);
    let r = s.draw_so(draw(2), Some(&so), &mut memory, &mut offsets).unwrap();
    assert_eq!((r.rasterized_stream, r.statistics.c_primitives), (Some(2), 4));
    assert_eq!(r.so_statistics, [SoStatistics::default(); 4]);
}

#[test]
fn stream_output_without_gs_expands_strips_and_drops_adjacency() {
    let vs = ids_vs();
    let data = value_data(8);
    let so = so_decl("TEXCOORD0.x", &[4], 0);
    let run = |topology, n| {
        let mut s = Setup::new(topology, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0);
        let mut memory = vec![vec![SENTINEL; 64]];
        let mut offsets = [0; 4];
        let r = s.draw_so(draw(n), Some(&so), &mut memory, &mut offsets).unwrap();
        (words(&memory[0][..offsets[0] as usize]), r.so_statistics[0].num_primitives_written)
    };
    assert_eq!(run(Topology::TriangleStrip, 5), (vec![100, 101, 102, 101, 103, 102, 102, 103, 104], 3));
    assert_eq!(run(Topology::LineStrip, 3), (vec![100, 101, 101, 102], 2));
    assert_eq!(run(Topology::TriangleListAdj, 6), (vec![100, 102, 104], 1));
    assert_eq!(run(Topology::LineStripAdj, 5), (vec![101, 102, 102, 103], 2));
    assert_eq!(run(Topology::PointList, 2), (vec![100, 101], 2));
}

#[test]
fn draw_auto_draws_what_stream_output_wrote() {
    let vs = ids_vs();
    let data = value_data(5);
    // Stream out the vertex shader's TEXCOORD0 (= VALUE) of 5 points.
    let so = so_decl("TEXCOORD0.xyzw", &[16], 0);
    let mut memory = vec![vec![0; 1024]];
    let mut offsets = [0; 4];
    let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0);
    s.draw_so(draw(5), Some(&so), &mut memory, &mut offsets).unwrap();
    let filled = offsets[0] as usize;
    assert_eq!(filled, 80);
    // DrawAuto: the buffer bound at slot 0, ending at its filled size.
    let replay = |offset: u32, stride: u32| {
        let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(value_layout()).buffer(
            0,
            &memory[0][..filled],
            stride,
            offset,
        );
        s.draw(DrawCall::DrawAuto).unwrap()
    };
    let r = replay(0, 16);
    assert_eq!(component(stream(&r, 0), 0, 0), vec![vec![100], vec![101], vec![102], vec![103], vec![104]]);
    assert_eq!(component(stream(&r, 0), 1, 0), vec![vec![0], vec![1], vec![2], vec![3], vec![4]]);
    assert_eq!((r.statistics.ia_vertices, r.statistics.vs_invocations), (5, 5));
    // From the slot's offset to the filled size.
    let r = replay(32, 16);
    assert_eq!(component(stream(&r, 0), 0, 0), vec![vec![102], vec![103], vec![104]]);
    // Nothing when the filled size is not past the offset, or without a stride.
    for (offset, stride) in [(80, 16), (96, 16), (0, 0)] {
        assert_eq!(replay(offset, stride).statistics, PipelineStatistics::default());
    }
    // In the current topology, whatever wrote the buffer.
    let mut s =
        Setup::new(Topology::LineStrip, Some(&vs), None).layout(value_layout()).buffer(0, &memory[0][..filled], 16, 0);
    let r = s.draw(DrawCall::DrawAuto).unwrap();
    assert_eq!(r.statistics.ia_primitives, 4);
    // Nothing bound at slot 0: nothing drawn.
    let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(value_layout());
    s.buffers = vec![None, Some(VertexBuffer { data: &memory[0][..filled], stride: 16, offset: 0 })];
    assert_eq!(s.draw(DrawCall::DrawAuto).unwrap().statistics.ia_vertices, 0);
}

#[test]
fn refused_declarations() {
    let vs = ids_vs();
    let data = value_data(2);
    let mut s = Setup::new(Topology::PointList, Some(&vs), None).layout(value_layout()).buffer(0, &data, 16, 0);
    let mut memory = vec![vec![0; 64]];
    for text in ["NOPE.x", "TEXCOORD2.x", "s1:TEXCOORD0.x"] {
        let so = so_decl(text, &[], 0);
        let e = s.draw_so(draw(2), Some(&so), &mut memory, &mut [0; 4]).unwrap_err();
        assert!(matches!(&e.kind, ExecErrorKind::Draw(m) if m.contains("no output element")), "{text}: {e}");
    }
    // Nothing was written by the refused draws.
    assert!(memory[0].iter().all(|&b| b == 0));
}

#[test]
fn a_million_points_stream_out_without_capture() {
    // The throughput path (capture off): the statistics and the last quad.
    let (vs, gs) = (passthrough_vs(), quad_gs());
    let n = 100_000u32;
    let points: Vec<[f32; 4]> = (0..n).map(|i| [i as f32, -(i as f32), 0.5, 1.0]).collect();
    let data = positions(&points);
    let so = so_decl("SV_Position.xyzw", &[16], 0);
    let mut memory = vec![vec![0; 6 * 16 * n as usize]];
    let mut offsets = [0; 4];
    let mut s = Setup::new(Topology::PointList, Some(&vs), Some(&gs)).layout(position_layout()).buffer(0, &data, 16, 0);
    s.capture = false;
    let r = s.draw_so(draw(n), Some(&so), &mut memory, &mut offsets).unwrap();
    assert!(r.streams.is_empty());
    assert_eq!(offsets[0] as usize, memory[0].len());
    let n = n as u64;
    assert_eq!(r.so_statistics[0], SoStatistics { num_primitives_written: 2 * n, primitives_storage_needed: 2 * n });
    assert_eq!(
        r.statistics,
        PipelineStatistics {
            ia_vertices: n,
            ia_primitives: n,
            vs_invocations: n,
            gs_invocations: n,
            gs_primitives: 2 * n,
            c_invocations: 2 * n,
            c_primitives: 2 * n,
            ..Default::default()
        }
    );
    let last = &memory[0][memory[0].len() - 96..];
    assert_eq!(floats(last), quad_triangles(*points.last().unwrap()).concat());
}
