//! The rasterizer and pixel stages of the context: `PSSetShader`, render target views,
//! `OMSetRenderTargets`, `RSSetViewports`, `RSSetState` (culling, winding), draws that
//! run the pixel shader on the rasterized stream and write `SV_Target` outputs in the
//! targets' formats (compared with `exec::raster::draw` run directly, and with the
//! UNORM conversion written out), `ClearRenderTargetView`, `CInvocations`,
//! `CPrimitives` and `PSInvocations`, the VS/GS → PS linkage check, and what is refused.

mod common;
use common::*;
use d3d11::context::{
    BindFlags, BufferDesc, Cull, QueryData, QueryKind, RasterizerDesc, RenderTargetView, RenderTargetViewDesc,
    Texture2D, Texture2DDesc, Viewport,
};
use d3d11::*;
use exec::format::Convert;
use exec::raster::{self, RasterState};
use exec::{ExecErrorKind, Format, Plan};

/// A signature table for a listing header.
fn signature(title: &str, rows: &[(&str, u32, &str, u32, &str, &str)]) -> String {
    let mut s = format!(
        "//\n// {title}:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n// -------------------- ----- ------ -------- -------- ------- ------\n"
    );
    for (name, index, mask, register, sv, format) in rows {
        s += &format!("// {name:<20} {index:>5}   {mask:<4} {register:>8} {sv:>8} {format:>7}   {mask:<4}\n");
    }
    s + "//\n"
}

/// `POSITION` to `SV_Position` (o0), `COLOR` to `COLOR` (o1).
fn vs_text() -> String {
    format!(
        "{}{}vs_4_0\ndcl_input v0.xyzw\ndcl_input v1.xyzw\ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\n\
         mov o0.xyzw, v0.xyzw\nmov o1.xyzw, v1.xyzw\nret\n",
        signature(
            "Input signature",
            &[("POSITION", 0, "xyzw", 0, "NONE", "float"), ("COLOR", 0, "xyzw", 1, "NONE", "float")]
        ),
        signature(
            "Output signature",
            &[("SV_Position", 0, "xyzw", 0, "POS", "float"), ("COLOR", 0, "xyzw", 1, "NONE", "float")]
        ),
    )
}

/// The interpolated `COLOR` (perspective-correct) to `SV_Target0` and `SV_Target1`;
/// `semantic` names the input read in register 1.
fn ps_text(semantic: &str) -> String {
    format!(
        "{}{}ps_4_0\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\ndcl_output o1.xyzw\n\
         mov o0.xyzw, v1.xyzw\nmov o1.xyzw, v1.xyzw\nret\n",
        signature(
            "Input signature",
            &[("SV_Position", 0, "xyzw", 0, "POS", "float"), (semantic, 0, "xyzw", 1, "NONE", "float")]
        ),
        signature(
            "Output signature",
            &[("SV_Target", 0, "xyzw", 0, "TARGET", "float"), ("SV_Target", 1, "xyzw", 1, "TARGET", "float")]
        ),
    )
}

const SIZE: u32 = 8;

/// The corners of the target in clip space, each with a colour: top left, top right,
/// bottom left, bottom right.
const CORNERS: [[f32; 8]; 4] = [
    [-1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0],
    [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0],
    [-1.0, -1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0],
    [1.0, -1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.5],
];

struct Scene {
    device: Device,
    context: Context,
    vs: Shader,
    ps: Shader,
    ps_bytes: Vec<u8>,
    float_target: RenderTargetView,
    unorm_target: RenderTargetView,
    /// Bound at slot 2, which the pixel shader does not write.
    spare_target: RenderTargetView,
}

fn shader(device: &Device, stage: ProgramType, text: &str) -> (Shader, Vec<u8>) {
    let bytes = asm(text);
    let mut out = None;
    let created = create(device, stage, &bytes, bytes.len(), None, Some(&mut out));
    assert_eq!(created.hr, HResult::S_OK, "{:?}", created.diagnostics);
    (out.unwrap(), bytes)
}

fn target(device: &Device, format: Format) -> RenderTargetView {
    let texture = device
        .create_texture2d(
            &Texture2DDesc::new(SIZE, SIZE, format, BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE),
            None,
        )
        .unwrap();
    device.create_render_target_view(&texture, None).unwrap()
}

fn viewport() -> Viewport {
    Viewport {
        top_left_x: 0.0,
        top_left_y: 0.0,
        width: SIZE as f32,
        height: SIZE as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    }
}

/// The scene with the strip of `order` (indices into [`CORNERS`]) in its vertex
/// buffer, every state set, the targets cleared to 0.25 (the spare one to 0.5).
fn scene(order: [usize; 4]) -> Scene {
    scene_on(device_11_0(), order)
}

/// [`scene`] on `device`.
fn scene_on(device: Device, order: [usize; 4]) -> Scene {
    let (vs, vs_bytes) = shader(&device, ProgramType::Vertex, &vs_text());
    let (ps, ps_bytes) = shader(&device, ProgramType::Pixel, &ps_text("COLOR"));
    let element = |name: &str, format, offset| InputElement {
        semantic_name: name.into(),
        semantic_index: 0,
        format,
        input_slot: 0,
        aligned_byte_offset: offset,
        per_instance: false,
        instance_data_step_rate: 0,
    };
    let layout = device
        .create_input_layout(
            &[element("POSITION", Format::R32G32B32A32_FLOAT, 0), element("COLOR", Format::R32G32B32A32_FLOAT, 16)],
            &vs_bytes,
        )
        .unwrap();
    let vertices: Vec<u8> = order.iter().flat_map(|&k| CORNERS[k]).flat_map(f32::to_le_bytes).collect();
    let vb = device
        .create_buffer(&BufferDesc::new(vertices.len() as u32, BindFlags::VERTEX_BUFFER), Some(&vertices))
        .unwrap();
    let (float_target, unorm_target, spare_target) = (
        target(&device, Format::R32G32B32A32_FLOAT),
        target(&device, Format::R8G8B8A8_UNORM),
        target(&device, Format::R8G8B8A8_UNORM),
    );
    let mut context = device.immediate_context();
    context.ia_set_input_layout(Some(&layout));
    context.ia_set_vertex_buffers(0, &[Some(vb)], &[32], &[0]);
    context.ia_set_primitive_topology(Topology::TriangleStrip);
    context.vs_set_shader(Some(&vs), &[]).unwrap();
    context.ps_set_shader(Some(&ps), &[]).unwrap();
    context.rs_set_viewports(&[viewport()]);
    context.clear_render_target_view(&float_target, [0.25; 4]);
    context.clear_render_target_view(&unorm_target, [0.25; 4]);
    context.clear_render_target_view(&spare_target, [0.5; 4]);
    context.om_set_render_targets(&[
        Some(float_target.clone()),
        Some(unorm_target.clone()),
        Some(spare_target.clone()),
    ]);
    Scene { device, context, vs, ps, ps_bytes, float_target, unorm_target, spare_target }
}

/// The scene's vertex shader created as a geometry shader with stream output of its
/// position, rasterizing `rasterized_stream` (`NO_RASTERIZED_STREAM`: none), and bound.
fn bind_so_geometry_shader(s: &mut Scene, rasterized_stream: u32) {
    let so = StreamOutputDesc { rasterized_stream, ..so_position() };
    let bytes_vs = s.vs.bytecode().to_vec();
    let mut gs = None;
    let created =
        s.device.create_geometry_shader_with_stream_output(&bytes_vs, bytes_vs.len(), &so, None, Some(&mut gs));
    assert_eq!(created.hr, HResult::S_OK, "{:?}", created.diagnostics);
    s.context.gs_set_shader(gs.as_ref(), &[]).unwrap();
}

/// [`bind_so_geometry_shader`] without a rasterized stream, into a 256-byte
/// stream-output buffer bound at slot 0: that buffer.
fn stream_output_only(s: &mut Scene) -> Buffer {
    bind_so_geometry_shader(s, NO_RASTERIZED_STREAM);
    let target = s.device.create_buffer(&BufferDesc::new(256, BindFlags::STREAM_OUTPUT), None).unwrap();
    s.context.so_set_targets(&[Some(target.clone())], &[0]);
    target
}

fn bytes(view: &RenderTargetView) -> Vec<u8> {
    view.texture().memory().bytes()
}

fn statistics(query: &Query) -> PipelineStatistics {
    match query.data() {
        Some(QueryData::PipelineStatistics(s)) => s,
        other => panic!("no pipeline statistics: {other:?}"),
    }
}

/// `exec::raster::draw` run directly on the strip's two triangles (the vertex shader
/// is a pass-through: each vertex's registers are its position and colour).
fn reference(ps_bytes: &[u8], order: [usize; 4], state: RasterState) -> raster::Drawn {
    reference_rows(ps_bytes, order, state, 0..state.target_height)
}

/// [`reference`] over the target's `rows` only (`exec::raster::draw_rows`).
fn reference_rows(ps_bytes: &[u8], order: [usize; 4], state: RasterState, rows: std::ops::Range<u32>) -> raster::Drawn {
    let plan = Plan::from_bytecode(ps_bytes).unwrap();
    let registers: Vec<Vec<[u32; 4]>> = order
        .iter()
        .map(|&k| {
            let v = CORNERS[k].map(f32::to_bits);
            vec![[v[0], v[1], v[2], v[3]], [v[4], v[5], v[6], v[7]]]
        })
        .collect();
    let r = |k: usize| registers[k].as_slice();
    let triangles = [[r(0), r(1), r(2)], [r(1), r(3), r(2)]];
    let limits = exec::compute::Limits::default();
    raster::draw_rows(&plan, &triangles, &state, rows, &mut exec::Resources::default(), &limits).unwrap()
}

fn default_state() -> RasterState {
    RasterState {
        viewport: viewport(),
        target_width: SIZE,
        target_height: SIZE,
        cull: Cull::Back,
        front_counter_clockwise: false,
        depth_clip: true,
        position_register: 0,
    }
}

/// The strip's two triangles are clockwise in render-target space: front faces.
const CLOCKWISE: [usize; 4] = [0, 1, 2, 3];
/// The same triangles, counter-clockwise.
const COUNTER_CLOCKWISE: [usize; 4] = [0, 2, 1, 3];

#[test]
fn a_full_screen_strip_writes_the_interpolated_colour_in_each_target_format() {
    let mut s = scene(CLOCKWISE);
    let mut q = s.device.create_query(QueryKind::PipelineStatistics).unwrap();
    s.context.begin(&mut q);
    s.context.draw(4, 0).unwrap();
    s.context.end(&mut q);

    let drawn = reference(&s.ps_bytes, CLOCKWISE, default_state());
    assert!(drawn.pixels.iter().all(|p| p.is_some()), "the strip covers the whole target");
    for (format, view) in [(Format::R32G32B32A32_FLOAT, &s.float_target), (Format::R8G8B8A8_UNORM, &s.unorm_target)] {
        let mut expected = vec![0u8; (SIZE * SIZE) as usize * format.size()];
        for (p, out) in drawn.pixels.iter().zip(expected.chunks_exact_mut(format.size())) {
            format.encode(p.unwrap().targets[0], out);
        }
        assert_eq!(bytes(view), expected, "{}", format.name());
    }
    // The UNORM target holds the float target's values, each saturated, scaled by 255
    // and rounded to nearest even (exec's conversion). The functional spec's FLOAT ->
    // UNORM (3.2.3.6) adds 0.5 and truncates, with a tolerance of 0.6 ULP: the two differ
    // only at exact halves, where both results are within the tolerance.
    let floats: Vec<f32> =
        bytes(&s.float_target).chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    let unorm: Vec<u8> = floats.iter().map(|f| (f.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8).collect();
    assert_eq!(bytes(&s.unorm_target), unorm);
    // Interpolated: the colours differ across the target, within the corners' range.
    assert!(floats.iter().all(|f| (0.0..=1.0).contains(f)));
    assert_ne!(floats[..4], floats[floats.len() - 4..]);
    // Slot 2's target, which the pixel shader has no output for, keeps its clear colour.
    assert_eq!(bytes(&s.spare_target), vec![128u8; (SIZE * SIZE * 4) as usize]);

    let stats = statistics(&q);
    assert_eq!((stats.c_invocations, stats.c_primitives), (2, 2));
    assert_eq!(stats.ps_invocations, drawn.ps_invocations);
    // Whole quads, those along the shared edge shaded once for each triangle.
    assert!(stats.ps_invocations > u64::from(SIZE * SIZE) && stats.ps_invocations.is_multiple_of(4), "{stats:?}");
}

#[test]
fn draw_indexed_draws_the_same_pixels() {
    let mut s = scene(CLOCKWISE);
    s.context.draw(4, 0).unwrap();
    let (float_bytes, unorm_bytes) = (bytes(&s.float_target), bytes(&s.unorm_target));
    s.context.clear_render_target_view(&s.float_target, [0.0; 4]);
    s.context.clear_render_target_view(&s.unorm_target, [0.0; 4]);
    // The same two triangles as a list, indexed.
    let indices: Vec<u8> = [0u16, 1, 2, 1, 3, 2].iter().flat_map(|i| i.to_le_bytes()).collect();
    let ib = s.device.create_buffer(&BufferDesc::new(12, BindFlags::INDEX_BUFFER), Some(&indices)).unwrap();
    s.context.ia_set_index_buffer(Some(&ib), IndexFormat::U16, 0);
    s.context.ia_set_primitive_topology(Topology::TriangleList);
    s.context.draw_indexed(6, 0, 0).unwrap();
    assert_eq!(bytes(&s.float_target), float_bytes);
    assert_eq!(bytes(&s.unorm_target), unorm_bytes);
}

#[test]
fn back_faces_are_culled_by_default_and_the_rasterizer_state_changes_that() {
    let cleared = |s: &Scene| bytes(&s.unorm_target) == vec![64u8; (SIZE * SIZE * 4) as usize];
    // Counter-clockwise triangles under the default state (cull back, clockwise front).
    let mut s = scene(COUNTER_CLOCKWISE);
    let mut q = s.device.create_query(QueryKind::PipelineStatistics).unwrap();
    s.context.begin(&mut q);
    s.context.draw(4, 0).unwrap();
    s.context.end(&mut q);
    assert!(cleared(&s));
    let stats = statistics(&q);
    assert_eq!((stats.c_invocations, stats.ps_invocations), (2, 0));

    for (desc, drawn) in [
        (RasterizerDesc { cull_mode: Cull::None, ..RasterizerDesc::default() }, true),
        (RasterizerDesc { front_counter_clockwise: true, ..RasterizerDesc::default() }, true),
        (RasterizerDesc { front_counter_clockwise: true, cull_mode: Cull::Front, ..RasterizerDesc::default() }, false),
        (RasterizerDesc { cull_mode: Cull::Front, ..RasterizerDesc::default() }, true),
    ] {
        let mut s = scene(COUNTER_CLOCKWISE);
        let state = s.device.create_rasterizer_state(&desc);
        s.context.rs_set_state(Some(&state));
        s.context.draw(4, 0).unwrap();
        assert_eq!(!cleared(&s), drawn, "{desc:?}");
        if drawn {
            let reference = reference(
                &s.ps_bytes,
                COUNTER_CLOCKWISE,
                RasterState {
                    cull: desc.cull_mode,
                    front_counter_clockwise: desc.front_counter_clockwise,
                    ..default_state()
                },
            );
            let mut expected = vec![0u8; (SIZE * SIZE * 4) as usize];
            for (p, out) in reference.pixels.iter().zip(expected.chunks_exact_mut(4)) {
                Format::R8G8B8A8_UNORM.encode(p.unwrap().targets[1], out);
            }
            assert_eq!(bytes(&s.unorm_target), expected, "{desc:?}");
        }
    }
}

#[test]
fn a_draw_without_a_pixel_shader_writes_no_target_and_counts_no_ps_invocations() {
    let mut s = scene(CLOCKWISE);
    s.context.ps_set_shader(None, &[]).unwrap();
    let mut q = s.device.create_query(QueryKind::PipelineStatistics).unwrap();
    s.context.begin(&mut q);
    s.context.draw(4, 0).unwrap();
    s.context.end(&mut q);
    let stats = statistics(&q);
    // The default depth-stencil state has depth enabled: the rasterizer still runs.
    assert_eq!((stats.c_invocations, stats.ps_invocations), (2, 0));
    assert_eq!(bytes(&s.float_target), bytes_of_clear(0.25));
}

fn bytes_of_clear(v: f32) -> Vec<u8> {
    (0..SIZE * SIZE * 4).flat_map(|_| v.to_le_bytes()).collect()
}

#[test]
fn the_pixel_shader_inputs_must_link_with_the_rasterized_outputs() {
    let mut s = scene(CLOCKWISE);
    // TEXCOORD0, which the vertex shader does not output.
    let (ps, _) = shader(&s.device, ProgramType::Pixel, &ps_text("TEXCOORD"));
    s.context.ps_set_shader(Some(&ps), &[]).unwrap();
    let e = s.context.draw(4, 0).unwrap_err();
    assert!(matches!(&e.kind, ExecErrorKind::Draw(m) if m.contains("linkage") && m.contains("TEXCOORD")), "{e:?}");
    assert_eq!(bytes(&s.float_target), bytes_of_clear(0.25));
    // COLOR in another register than the vertex shader's.
    let text = format!(
        "{}{}ps_4_0\ndcl_input_ps linear v2.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v2.xyzw\nret\n",
        signature(
            "Input signature",
            &[
                ("SV_Position", 0, "xyzw", 0, "POS", "float"),
                ("TEXCOORD", 0, "xyzw", 1, "NONE", "float"),
                ("COLOR", 0, "xyzw", 2, "NONE", "float")
            ]
        ),
        signature("Output signature", &[("SV_Target", 0, "xyzw", 0, "TARGET", "float")]),
    );
    let (ps, _) = shader(&s.device, ProgramType::Pixel, &text);
    s.context.ps_set_shader(Some(&ps), &[]).unwrap();
    assert!(s.context.draw(4, 0).is_err());
    // The right shader draws again.
    let ps = s.ps.clone();
    s.context.ps_set_shader(Some(&ps), &[]).unwrap();
    s.context.draw(4, 0).unwrap();
    assert_ne!(bytes(&s.float_target), bytes_of_clear(0.25));
}

#[test]
fn points_and_lines_are_not_rasterized_here() {
    for topology in [Topology::PointList, Topology::LineStrip] {
        let mut s = scene(CLOCKWISE);
        s.context.ia_set_primitive_topology(topology);
        let e = s.context.draw(4, 0).unwrap_err();
        assert!(matches!(e.kind, ExecErrorKind::Unsupported(_)), "{e:?}");
        assert_eq!(bytes(&s.float_target), bytes_of_clear(0.25));
    }
}

#[test]
fn no_rasterized_stream_runs_no_pixel_shader() {
    let mut s = scene(CLOCKWISE);
    let target = stream_output_only(&mut s);
    let mut q = s.device.create_query(QueryKind::PipelineStatistics).unwrap();
    s.context.begin(&mut q);
    s.context.draw(4, 0).unwrap();
    s.context.end(&mut q);
    let stats = statistics(&q);
    assert_eq!((stats.c_invocations, stats.ps_invocations), (0, 0));
    assert_eq!(target.filled_size(), 2 * 3 * 16);
    assert_eq!(bytes(&s.float_target), bytes_of_clear(0.25));
    // Stream 0 rasterized: the same object draws.
    bind_so_geometry_shader(&mut s, 0);
    s.context.draw(4, 0).unwrap();
    assert_ne!(bytes(&s.float_target), bytes_of_clear(0.25));
}

#[test]
fn clear_render_target_view_converts_to_the_format() {
    let device = device_11_0();
    let mut c = device.immediate_context();
    let unorm = target(&device, Format::R8G8B8A8_UNORM);
    c.clear_render_target_view(&unorm, [0.25, 0.5, 0.75, 2.0]);
    let texel = [64u8, 128, 191, 255];
    assert_eq!(bytes(&unorm), texel.iter().copied().cycle().take((SIZE * SIZE * 4) as usize).collect::<Vec<u8>>());
    let uint = target(&device, Format::R32G32B32A32_UINT);
    c.clear_render_target_view(&uint, [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(&bytes(&uint)[..16], &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]);
}

#[test]
fn render_target_views_and_bindings_are_checked() {
    let device = device_11_0();
    let no_rt = device
        .create_texture2d(&Texture2DDesc::new(4, 4, Format::R8G8B8A8_UNORM, BindFlags::SHADER_RESOURCE), None)
        .unwrap();
    assert_eq!(device.create_render_target_view(&no_rt, None).map_err(|e| e.hr).err(), Some(E_INVALIDARG));
    let rt = device
        .create_texture2d(
            &Texture2DDesc::new(4, 4, Format::R8G8B8A8_UNORM, BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE),
            None,
        )
        .unwrap();
    let beyond = RenderTargetViewDesc { mip_slice: 1, first_array_slice: 0 };
    assert_eq!(device.create_render_target_view(&rt, Some(beyond)).map_err(|e| e.hr).err(), Some(E_INVALIDARG));
    let small = device.create_render_target_view(&rt, None).unwrap();
    let big = target(&device, Format::R8G8B8A8_UNORM);
    let mut c = device.immediate_context();
    // Views of different sizes: ignored.
    c.om_set_render_targets(&[Some(small.clone()), Some(big)]);
    assert!(c.om_render_targets().is_empty());
    assert!(c.messages().last().unwrap().contains("call ignored"));
    // Binding a texture as a render target unbinds its shader resource views.
    let srv = device
        .create_texture_shader_resource_view(
            &rt,
            d3d11::context::TextureViewDesc {
                dimension: d3d11::context::TextureViewDimension::Texture2D,
                first_array_slice: 0,
                array_size: 1,
            },
        )
        .unwrap();
    c.ps_set_shader_resources(0, &[Some(srv)]);
    c.om_set_render_targets(&[Some(small)]);
    assert_eq!(c.om_render_targets().len(), 1);
    assert!(c.messages().last().unwrap().contains("forced to NULL"), "{:?}", c.messages());
    let _: Option<&Texture2D> = c.om_render_targets()[0].as_ref().map(|v| v.texture());
}

/// Each point becomes a strip over the whole target (clockwise), coloured with the
/// point's `COLOR`.
fn full_screen_gs_text() -> String {
    let mut body = String::new();
    for (x, y) in [(-1, 1), (1, 1), (-1, -1), (1, -1)] {
        body +=
            &format!("mov o0.xyzw, l({x}.000000, {y}.000000, 0.000000, 1.000000)\nmov o1.xyzw, v[0][1].xyzw\nemit\n");
    }
    let rows = [("SV_Position", 0, "xyzw", 0, "POS", "float"), ("COLOR", 0, "xyzw", 1, "NONE", "float")];
    format!(
        "{}{}gs_4_0\ndcl_input_siv v[1][0].xyzw, position\ndcl_input v[1][1].xyzw\ndcl_inputprimitive point\n\
         dcl_outputtopology trianglestrip\ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\ndcl_maxout 4\n{body}cut\nret\n",
        signature("Input signature", &rows),
        signature("Output signature", &rows),
    )
}

#[test]
fn a_geometry_shader_strip_is_rasterized() {
    let mut s = scene(CLOCKWISE);
    let (gs, _) = shader(&s.device, ProgramType::Geometry, &full_screen_gs_text());
    s.context.gs_set_shader(Some(&gs), &[]).unwrap();
    s.context.ia_set_primitive_topology(Topology::PointList);
    let mut q = s.device.create_query(QueryKind::PipelineStatistics).unwrap();
    s.context.begin(&mut q);
    s.context.draw(1, 0).unwrap();
    s.context.end(&mut q);
    // Every pixel takes the first vertex's colour, (1, 0, 0, 1).
    let red: Vec<u8> = [1.0f32, 0.0, 0.0, 1.0].iter().flat_map(|f| f.to_le_bytes()).collect();
    assert_eq!(bytes(&s.float_target), red.repeat((SIZE * SIZE) as usize));
    assert_eq!(bytes(&s.unorm_target), [255u8, 0, 0, 255].repeat((SIZE * SIZE) as usize));
    let stats = statistics(&q);
    assert_eq!((stats.gs_primitives, stats.c_invocations, stats.c_primitives), (2, 2, 2));
    assert_eq!(stats.ps_invocations, reference(&s.ps_bytes, CLOCKWISE, default_state()).ps_invocations);
}

#[test]
fn the_pixel_shader_writes_the_graphics_uavs() {
    // Feature level 11_1 on the 11.1 runtime (UAVs at every stage), and feature level
    // 11_0 on the 11.0 runtime, where pixel and compute shaders have UAVs (slot 2, after
    // the two render targets).
    for desc in [DeviceDesc::default(), DeviceDesc::new(FeatureLevel::L11_0, Runtime::D3D11_0)] {
        pixel_shader_uavs_on(desc);
    }
}

fn pixel_shader_uavs_on(desc: DeviceDesc) {
    let mut s = scene_on(Device::new(desc), CLOCKWISE);
    let text = format!(
        "{}{}ps_5_0\ndcl_uav_raw u2\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\ndcl_output o1.xyzw\n\
         atomic_iadd u2, l(0), l(1)\nmov o0.xyzw, v1.xyzw\nmov o1.xyzw, v1.xyzw\nret\n",
        signature(
            "Input signature",
            &[("SV_Position", 0, "xyzw", 0, "POS", "float"), ("COLOR", 0, "xyzw", 1, "NONE", "float")]
        ),
        signature(
            "Output signature",
            &[("SV_Target", 0, "xyzw", 0, "TARGET", "float"), ("SV_Target", 1, "xyzw", 1, "TARGET", "float")]
        ),
    );
    let (ps, _) = shader(&s.device, ProgramType::Pixel, &text);
    let desc = BufferDesc {
        byte_width: 4,
        bind_flags: BindFlags::UNORDERED_ACCESS,
        misc_flags: d3d11::context::RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS,
        structure_byte_stride: 0,
    };
    let counter = s.device.create_buffer(&desc, None).unwrap();
    let uav = s
        .device
        .create_unordered_access_view(&counter, d3d11::context::BufferView::Raw { first_element: 0, num_elements: 1 })
        .unwrap();
    s.context.om_set_unordered_access_views(2, &[Some(uav)], &[]).unwrap();
    s.context.ps_set_shader(Some(&ps), &[]).unwrap();
    s.context.draw(4, 0).unwrap();
    // Each pixel once (the Top-Left Rule gives the shared edge's pixels to one
    // triangle); helper pixels write nothing.
    assert_eq!(counter.bytes(), (SIZE * SIZE).to_le_bytes());
    assert_ne!(bytes(&s.float_target), bytes_of_clear(0.25));
}

/// Views of two slices of one texture array at slots 0 and 1 (functional spec 17.14:
/// non-overlapping views of one resource as simultaneous render targets): both written.
#[test]
fn two_slices_of_one_texture_are_two_render_targets() {
    let mut s = scene(CLOCKWISE);
    let format = Format::R32G32B32A32_FLOAT;
    let mut desc = Texture2DDesc::new(SIZE, SIZE, format, BindFlags::RENDER_TARGET);
    desc.array_size = 2;
    let array = s.device.create_texture2d(&desc, None).unwrap();
    let view = |slice| {
        let d = RenderTargetViewDesc { mip_slice: 0, first_array_slice: slice };
        s.device.create_render_target_view(&array, Some(d)).unwrap()
    };
    let (slice0, slice1) = (view(0), view(1));
    s.context.clear_render_target_view(&slice0, [0.25; 4]);
    s.context.clear_render_target_view(&slice1, [0.25; 4]);
    s.context.om_set_render_targets(&[Some(slice0), Some(slice1)]);
    s.context.draw(4, 0).unwrap();
    // Each slice holds what the float target holds in a draw with separate textures.
    let mut separate = scene(CLOCKWISE);
    separate.context.draw(4, 0).unwrap();
    let one = bytes(&separate.float_target);
    assert_ne!(one, bytes_of_clear(0.25));
    assert_eq!(bytes(&s.float_target), bytes_of_clear(0.25), "not bound");
    let memory = array.memory().bytes();
    assert_eq!(memory[..one.len()], one[..], "slice 0");
    assert_eq!(memory[one.len()..], one[..], "slice 1");
}

/// Views of mip 1 of both slices of a 16 x 16 texture array (8 x 8, the size of the
/// scene's target) at slots 0 and 1: both written at their subresource, mip 0 not.
#[test]
fn two_mips_of_one_texture_are_two_render_targets() {
    let mut s = scene(CLOCKWISE);
    let format = Format::R32G32B32A32_FLOAT;
    let mut desc = Texture2DDesc::new(16, 16, format, BindFlags::RENDER_TARGET);
    desc.mip_levels = 2;
    desc.array_size = 2;
    let texture = s.device.create_texture2d(&desc, None).unwrap();
    let mip1 = s
        .device
        .create_render_target_view(&texture, Some(RenderTargetViewDesc { mip_slice: 1, first_array_slice: 0 }))
        .unwrap();
    let mip1_slice1 = s
        .device
        .create_render_target_view(&texture, Some(RenderTargetViewDesc { mip_slice: 1, first_array_slice: 1 }))
        .unwrap();
    assert_eq!(mip1.size(), (SIZE, SIZE));
    s.context.om_set_render_targets(&[Some(mip1.clone()), Some(mip1_slice1.clone())]);
    s.context.draw(4, 0).unwrap();
    let mut separate = scene(CLOCKWISE);
    separate.context.draw(4, 0).unwrap();
    let one = bytes(&separate.float_target);
    let memory = texture.memory().bytes();
    // Slice 0: mip 0 (16 x 16 x 16 bytes), then mip 1; slice 1 the same.
    let mip0 = 16 * 16 * 16;
    let slice = mip0 + one.len();
    assert_eq!(memory[mip0..slice], one[..], "mip 1 of slice 0");
    assert_eq!(memory[slice + mip0..], one[..], "mip 1 of slice 1");
    assert!(memory[..mip0].iter().all(|&b| b == 0), "mip 0 untouched");
}

/// A viewport `exec::raster` refuses is refused before the geometry stages run: the
/// stream-output target keeps its bytes and filled size.
#[test]
fn a_refused_raster_state_refuses_the_draw_before_stream_output() {
    let cases = [
        ("a viewport outside 15.6.1", Viewport { width: 40000.0, ..viewport() }),
        ("a viewport starting outside 15.6.1", Viewport { top_left_y: -40000.0, ..viewport() }),
        ("a depth range with max below min", Viewport { min_depth: 0.5, max_depth: 0.25, ..viewport() }),
        ("a depth range beyond 1", Viewport { max_depth: 2.0, ..viewport() }),
    ];
    for (what, vp) in cases {
        let mut s = scene(CLOCKWISE);
        let bytes_vs = s.vs.bytecode().to_vec();
        let mut gs = None;
        let created = s.device.create_geometry_shader_with_stream_output(
            &bytes_vs,
            bytes_vs.len(),
            &so_position(),
            None,
            Some(&mut gs),
        );
        assert_eq!(created.hr, HResult::S_OK, "{:?}", created.diagnostics);
        let so = s.device.create_buffer(&BufferDesc::new(256, BindFlags::STREAM_OUTPUT), None).unwrap();
        s.context.gs_set_shader(gs.as_ref(), &[]).unwrap();
        s.context.so_set_targets(&[Some(so.clone())], &[0]);
        s.context.rs_set_viewports(&[vp]);
        let e = s.context.draw(4, 0).unwrap_err();
        assert!(matches!(e.kind, ExecErrorKind::Draw(_)), "{what}: {e:?}");
        assert_eq!((so.filled_size(), so.bytes()), (0, vec![0; 256]), "{what}: stream output written");
        assert!(s.context.last_draw().is_none(), "{what}");
        // The same draw with the scene's target and viewport runs.
        s.context.om_set_render_targets(&[Some(s.float_target.clone())]);
        s.context.rs_set_viewports(&[viewport()]);
        s.context.draw(4, 0).unwrap();
        assert_eq!(so.filled_size(), 2 * 3 * 16, "{what}");
    }
}

/// With `D3D11_SO_NO_RASTERIZED_STREAM` the pixel shader never runs: one that is
/// disabled (an interface slot without a class instance) or whose inputs do not link
/// with the geometry shader's outputs does not refuse the draw; rasterized, each does.
#[test]
fn a_pixel_shader_that_does_not_run_is_not_checked() {
    const TEST: &str = "a_pixel_shader_that_does_not_run_is_not_checked";
    let Some(interfaces) = corpus_blob(TEST, "hlslcc", "ps5__interfaces") else { return };
    let s = scene(CLOCKWISE);
    let (unlinked, _) = shader(&s.device, ProgramType::Pixel, &ps_text("TEXCOORD"));
    let mut disabled = None;
    let created = create(&s.device, ProgramType::Pixel, &interfaces, interfaces.len(), None, Some(&mut disabled));
    assert_eq!(created.hr, HResult::S_OK, "{:?}", created.diagnostics);
    for ps in [unlinked, disabled.unwrap()] {
        let mut s = scene(CLOCKWISE);
        s.context.ps_set_shader(Some(&ps), &[]).unwrap();
        let target = stream_output_only(&mut s);
        s.context.draw(4, 0).unwrap();
        assert_eq!(target.filled_size(), 2 * 3 * 16);
        // Rasterized, the same pixel shader refuses the draw.
        bind_so_geometry_shader(&mut s, 0);
        let e = s.context.draw(4, 0).unwrap_err();
        assert!(matches!(e.kind, ExecErrorKind::Draw(_)), "{e:?}");
    }
}

/// A depth format is never a render target (Microsoft's format support tables): the
/// texture is refused at creation; as a shader resource it is created. Below 10_0 the
/// tables allow fewer formats: at 9_1 the 8-bit UNORM ones, at 9_3 some float and
/// 16-bit UNORM ones too; `R32G32B32_FLOAT` (optional) is taken as supported from 10_0.
#[test]
fn render_target_textures_take_the_formats_of_the_feature_level() {
    let device = device_11_0();
    for format in [Format::D32_FLOAT, Format::D16_UNORM] {
        let desc = Texture2DDesc::new(4, 4, format, BindFlags::RENDER_TARGET | BindFlags::SHADER_RESOURCE);
        assert_eq!(device.create_texture2d(&desc, None).map(|_| ()).map_err(|e| e.hr), Err(E_INVALIDARG), "{format}");
        assert!(device.create_texture2d(&Texture2DDesc::new(4, 4, format, BindFlags::SHADER_RESOURCE), None).is_ok());
    }
    let cases = [
        (Format::R8G8B8A8_UNORM, [true, true, true, true]),
        (Format::B8G8R8X8_UNORM, [true, true, true, true]),
        (Format::R16G16B16A16_FLOAT, [false, true, true, true]),
        (Format::R32_FLOAT, [false, true, true, true]),
        (Format::R32_UINT, [false, false, true, true]),
        (Format::R8G8B8A8_SNORM, [false, false, true, true]),
        (Format::R32G32B32_FLOAT, [false, false, true, true]),
        (Format::D32_FLOAT, [false, false, false, false]),
    ];
    let levels = [FeatureLevel::L9_1, FeatureLevel::L9_3, FeatureLevel::L10_0, FeatureLevel::L11_0];
    for (format, expected) in cases {
        for (level, expected) in levels.into_iter().zip(expected) {
            assert_eq!(d3d11::context::render_target_format(level, format), expected, "{format} at {level}");
            let device = Device::new(DeviceDesc::new(level, Runtime::D3D11_1));
            let created = device
                .create_texture2d(&Texture2DDesc::new(4, 4, format, BindFlags::RENDER_TARGET), None)
                .map(|_| ())
                .map_err(|e| e.hr);
            assert_eq!(created, if expected { Ok(()) } else { Err(E_INVALIDARG) }, "{format} at {level}");
        }
    }
}

/// A 1920 × 1080 target, more pixels than `exec::raster` draws at once, is drawn band
/// after band of rows: the first 546 rows (one band: 1920 × 546 is within the bound)
/// are what one `exec::raster::draw` of a 1920 × 546 target under the same viewport
/// gives; every pixel of the full-screen strip is written, and the last row holds the
/// colours near the bottom corners.
#[test]
fn a_1920_by_1080_target_is_drawn_in_bands() {
    let (w, h) = (1920u32, 1080u32);
    let mut s = scene(CLOCKWISE);
    let texture = s
        .device
        .create_texture2d(&Texture2DDesc::new(w, h, Format::R8G8B8A8_UNORM, BindFlags::RENDER_TARGET), None)
        .unwrap();
    let view = s.device.create_render_target_view(&texture, None).unwrap();
    // o1 of the pixel shader goes to slot 1.
    s.context.om_set_render_targets(&[None, Some(view)]);
    let vp = Viewport { width: w as f32, height: h as f32, ..viewport() };
    s.context.rs_set_viewports(&[vp]);
    let mut q = s.device.create_query(QueryKind::PipelineStatistics).unwrap();
    s.context.begin(&mut q);
    s.context.draw(4, 0).unwrap();
    s.context.end(&mut q);
    let band = 546u32;
    assert!(u64::from(w * band) <= raster::MAX_TARGET_PIXELS && u64::from(w * (band + 2)) > raster::MAX_TARGET_PIXELS);
    // The first band is what one draw of a 1920 × 546 target gives.
    let state = RasterState { viewport: vp, target_width: w, target_height: band, ..default_state() };
    let first = reference(&s.ps_bytes, CLOCKWISE, state);
    let mut expected = vec![0u8; (w * band * 4) as usize];
    for (p, out) in first.pixels.iter().zip(expected.chunks_exact_mut(4)) {
        Format::R8G8B8A8_UNORM.encode(p.unwrap().targets[1], out);
    }
    let memory = texture.memory().bytes();
    assert_eq!(memory[..expected.len()], expected[..]);
    // The whole target, and the invocations, are those of exec's two bands of rows.
    let whole = RasterState { viewport: vp, target_width: w, target_height: h, ..default_state() };
    let bands = [
        reference_rows(&s.ps_bytes, CLOCKWISE, whole, 0..band),
        reference_rows(&s.ps_bytes, CLOCKWISE, whole, band..h),
    ];
    let mut expected = vec![0u8; (w * h * 4) as usize];
    for (p, out) in bands.iter().flat_map(|b| &b.pixels).zip(expected.chunks_exact_mut(4)) {
        Format::R8G8B8A8_UNORM.encode(p.unwrap().targets[1], out);
    }
    assert!(memory == expected, "the target differs from exec's bands");
    // Written everywhere: the clear value 0 is in no pixel's alpha (between 0.5 and 1).
    assert!(memory.chunks_exact(4).all(|p| p[3] >= 127), "a pixel not written");
    // The bottom row: from blue (bottom left) to (1, 1, 1) (bottom right).
    let row = &memory[((h - 1) * w * 4) as usize..];
    assert!(row[0] < 3 && row[1] < 3 && row[2] > 252, "{:?}", &row[..4]);
    let last = &row[row.len() - 4..];
    assert!(last[..3].iter().all(|&c| c > 252), "{last:?}");
    // Each pixel shaded once or as a helper: whole quads, at least one per pixel.
    let stats = statistics(&q);
    assert_eq!(stats.ps_invocations, bands.iter().map(|b| b.ps_invocations).sum::<u64>(), "{stats:?}");
    assert!(stats.ps_invocations > u64::from(w * h) && stats.ps_invocations.is_multiple_of(4), "{stats:?}");
}

/// A UAV of slice 0 and a render target of slice 1 of one texture array: different
/// subresources (no hazard), both written by one draw.
#[test]
fn a_uav_and_a_render_target_of_two_slices_of_one_texture_are_both_written() {
    let mut s = scene(CLOCKWISE);
    let text = format!(
        "{}{}ps_5_0\ndcl_uav_typed_texture2darray (float,float,float,float) u2\ndcl_input_ps linear v1.xyzw\n\
         dcl_output o0.xyzw\ndcl_output o1.xyzw\n\
         store_uav_typed u2.xyzw, l(1, 2, 0, 0), l(0.750000, 0.750000, 0.750000, 0.750000)\n\
         mov o0.xyzw, v1.xyzw\nmov o1.xyzw, v1.xyzw\nret\n",
        signature(
            "Input signature",
            &[("SV_Position", 0, "xyzw", 0, "POS", "float"), ("COLOR", 0, "xyzw", 1, "NONE", "float")]
        ),
        signature(
            "Output signature",
            &[("SV_Target", 0, "xyzw", 0, "TARGET", "float"), ("SV_Target", 1, "xyzw", 1, "TARGET", "float")]
        ),
    );
    let (ps, _) = shader(&s.device, ProgramType::Pixel, &text);
    let format = Format::R32G32B32A32_FLOAT;
    let mut desc = Texture2DDesc::new(SIZE, SIZE, format, BindFlags::RENDER_TARGET | BindFlags::UNORDERED_ACCESS);
    desc.array_size = 2;
    let array = s.device.create_texture2d(&desc, None).unwrap();
    let slice1 = s
        .device
        .create_render_target_view(&array, Some(RenderTargetViewDesc { mip_slice: 0, first_array_slice: 1 }))
        .unwrap();
    let uav_desc = d3d11::context::TextureViewDesc {
        dimension: d3d11::context::TextureViewDimension::Texture2DArray,
        first_array_slice: 0,
        array_size: 1,
    };
    let uav = s.device.create_texture_unordered_access_view(&array, uav_desc).unwrap();
    s.context.om_set_render_targets(&[Some(s.float_target.clone()), Some(slice1)]);
    s.context.om_set_unordered_access_views(2, &[Some(uav)], &[]).unwrap();
    assert_eq!(s.context.om_render_targets().iter().flatten().count(), 2, "{:?}", s.context.messages());
    s.context.ps_set_shader(Some(&ps), &[]).unwrap();
    s.context.draw(4, 0).unwrap();
    let memory = array.memory().bytes();
    let slice = (SIZE * SIZE * 16) as usize;
    // Slice 1 holds what slot 1 gets, the float target's colours.
    assert_eq!(memory[slice..], bytes(&s.float_target)[..], "the render target of slice 1");
    // Slice 0: the UAV store at (1, 2), nothing else.
    let at = ((2 * SIZE + 1) * 16) as usize;
    assert_eq!(memory[at..at + 16], 0.75f32.to_le_bytes().repeat(4)[..]);
    assert!(memory[..at].iter().chain(&memory[at + 16..slice]).all(|&b| b == 0));
}
