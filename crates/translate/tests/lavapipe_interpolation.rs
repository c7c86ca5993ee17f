//! Interpolation modes proven on lavapipe: triangles drawn with a translated vertex
//! shader and translated pixel shaders, compared pixel for pixel with `exec`'s vertex
//! shader (`exec::pipeline::draw`), rasterizer and pixel shader (`exec::raster::draw`).
//!
//! One vertex shader (assembled from its listing) passes a clip-space position and
//! eight attribute registers through (scaled, so that it computes something). The
//! pixel shaders read the attributes with every interpolation mode a float input can
//! declare — `constant`, `linear`, `linear centroid`, `linear sample`, `linear
//! noperspective` and its `centroid` and `sample` forms — and `SV_Position` and
//! `SV_IsFrontFace`, each writing two `R32G32B32A32_FLOAT` targets. The triangles
//! (a 32 × 32 target, cull none): one with clip w 1, 5 and 0.25 at its vertices;
//! a rectangle of two triangles whose shared diagonal, top and left edges pass through
//! pixel centres, w 2, 0.5, 3 and 1; a triangle sharing the rectangle's left edge (a
//! vertical edge through centres) and reaching past the target's left side (Vulkan
//! clips it, the reference does not: the guard band); a back-facing triangle. Vertex
//! positions are on the 16.8 grid, so that both snap them to the same points.
//!
//! - Coverage: the pixels each writes must be the same ones (exactly).
//! - Values: every component within |Δ| ≤ 2⁻¹⁶ · (1 + |value|) (≈ 1.5·10⁻⁵):
//!   lavapipe interpolates with float32 plane equations set up from the unclipped
//!   (or clipped) vertices (a0 + x·dadx + y·dady, then the perspective divide), the
//!   reference with float64 barycentrics of the snapped triangle rounded once; over
//!   a 32-pixel target with attributes in [−8, 8] and 1/w up to 4 the float32
//!   rounding of those terms is some ulps of the largest, which the bound covers with
//!   room (the largest seen is 5.0·10⁻⁶ · (1 + |value|), printed per shader), while
//!   a mode mistaken for another is far beyond it (`linear` taken as `noperspective`
//!   makes 11114 components differ, the Top-Left Rule's ties broken the other way
//!   makes 145 pixels' coverage differ). Constant attributes, `SV_IsFrontFace` and
//!   `SV_Position.xy` must be exact.
//!
//! Without a lavapipe adapter the test prints SKIP and passes, unless
//! `DXREF_REQUIRE_CORPUS=1`.

use corpus::Rng;
use exec::compute::Limits;
use exec::pipeline::{self, DrawCall, InputElement, Pipeline, Topology, VertexBuffer};
use exec::raster::{self, Cull, RasterState, Viewport};
use exec::{Format, Plan, Resources};

#[path = "support/lavapipe.rs"]
mod lavapipe;
use lavapipe::{block_on, copy_texture_out, one_lavapipe_thread, read_copies, Gpu};

/// The render target's size.
const SIZE: u32 = 32;
/// The clear value (no attribute takes it: they are in [−8, 8]).
const CLEAR: f32 = 77.0;
/// Attribute registers after the position.
const ATTRIBUTES: usize = 8;

const VS: &str = "vs_4_0
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_input v2.xyzw
dcl_input v3.xyzw
dcl_input v4.xyzw
dcl_input v5.xyzw
dcl_input v6.xyzw
dcl_input v7.xyzw
dcl_input v8.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_output o4.xyzw
dcl_output o5.xyzw
dcl_output o6.xyzw
dcl_output o7.xyzw
dcl_output o8.xyzw
mov o0.xyzw, v0.xyzw
mul o1.xyzw, v1.xyzw, l(2.000000, 2.000000, 2.000000, 2.000000)
mov o2.xyzw, v2.xyzw
mov o3.xyzw, v3.xyzw
mov o4.xyzw, v4.xyzw
mov o5.xyzw, v5.xyzw
mov o6.xyzw, v6.xyzw
mov o7.xyzw, v7.xyzw
mov o8.xyzw, v8.xyzw
ret
";

/// A pixel shader: its name, its listing, the (target, component)s that must be exact.
type Shader = (&'static str, &'static str, &'static [(usize, usize)]);

/// The pixel shaders.
const PIXEL_SHADERS: [Shader; 5] = [
    (
        "constant and linear",
        "ps_4_0
dcl_input_ps constant v1.xyzw
dcl_input_ps linear v2.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, v1.xyzw
mov o1.xyzw, v2.xyzw
ret
",
        &[(0, 0), (0, 1), (0, 2), (0, 3)],
    ),
    (
        "linear centroid and linear noperspective",
        "ps_4_0
dcl_input_ps linear centroid v3.xyzw
dcl_input_ps linear noperspective v4.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, v3.xyzw
mov o1.xyzw, v4.xyzw
ret
",
        &[],
    ),
    (
        "linear sample and linear noperspective centroid",
        "ps_4_1
dcl_input_ps linear sample v5.xyzw
dcl_input_ps linear noperspective centroid v6.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, v5.xyzw
mov o1.xyzw, v6.xyzw
ret
",
        &[],
    ),
    (
        "linear noperspective sample and SV_Position",
        "ps_4_1
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_input_ps linear noperspective sample v7.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, v7.xyzw
mov o1.xyzw, v0.xyzw
ret
",
        &[(1, 0), (1, 1)],
    ),
    (
        "SV_IsFrontFace and linear",
        "ps_4_0
dcl_input_ps linear v2.xyzw
dcl_input_ps_sgv v8.x, is_front_face
dcl_output o0.xyzw
dcl_output o1.xyzw
and o0.x, v8.x, l(0x3f800000)
mov o0.yzw, v2.yyzw
mov o1.xyzw, v2.wzyx
ret
",
        &[(0, 0)],
    ),
];

/// A vertex at render-target position (x, y) (on the 16.8 grid), depth z and clip w.
struct At {
    x: f32,
    y: f32,
    z: f32,
    w: f32,
}

/// The triangles' vertices (a triangle list), leading vertex first.
fn triangles() -> Vec<[At; 3]> {
    let at = |x: f32, y: f32, z: f32, w: f32| At { x, y, z, w };
    let a = || at(8.5, 21.5, 0.3, 2.0);
    let b = || at(28.5, 21.5, 0.6, 0.5);
    let c = || at(28.5, 31.5, 0.8, 3.0);
    let d = || at(8.5, 31.5, 0.1, 1.0);
    vec![
        // Very different w.
        [at(1.25, 0.5, 0.2, 1.0), at(30.5, 4.75, 0.5, 5.0), at(6.0, 20.5, 0.9, 0.25)],
        // The rectangle: top y = 21.5, left x = 8.5, diagonal A–C through centres.
        [a(), b(), c()],
        [a(), c(), d()],
        // Sharing the rectangle's left edge, reaching past the target's left side.
        [at(-8.0, 26.0, 0.5, 2.5), a(), d()],
        // Counter-clockwise: back-facing.
        [at(31.5, 6.5, 0.4, 1.5), at(22.5, 18.5, 0.7, 0.75), at(31.5, 18.5, 0.2, 4.0)],
    ]
}

/// The vertex buffer: per vertex the clip-space position and `ATTRIBUTES` registers
/// (the same vertex data wherever a position repeats).
fn vertex_data() -> Vec<[f32; 4]> {
    let mut out = Vec::new();
    for t in triangles() {
        for v in t {
            let half = SIZE as f32 / 2.0;
            let (nx, ny) = (v.x / half - 1.0, 1.0 - v.y / half);
            out.push([nx * v.w, ny * v.w, v.z * v.w, v.w]);
            // Attributes from the position: shared vertices share them.
            let mut rng = Rng(((v.x * 256.0) as i64 as u64) << 20 ^ ((v.y * 256.0) as i64 as u64) | 1);
            for _ in 0..ATTRIBUTES {
                out.push(std::array::from_fn(|_| (rng.below(8001) as f32 - 4000.0) / 1000.0));
            }
        }
    }
    out
}

fn assembled(text: &str) -> Vec<u8> {
    listing::asm::assemble(text, &listing::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembling:\n{text}\n{e:#?}"))
        .bytes
}

/// The post-VS triangles by exec's pipeline: each vertex's output registers.
fn reference_vertices(vs: &[u8], data: &[[f32; 4]]) -> Vec<Vec<Vec<[u32; 4]>>> {
    let plan = Plan::from_bytecode(vs).expect("the vertex shader compiles");
    let layout: Vec<InputElement> = plan
        .input_signature
        .iter()
        .map(|e| InputElement {
            semantic_name: e.semantic_name.clone(),
            semantic_index: e.semantic_index,
            format: Format::R32G32B32A32_FLOAT,
            input_slot: 0,
            aligned_byte_offset: 16 * e.register,
            per_instance: false,
            instance_data_step_rate: 0,
        })
        .collect();
    let bytes: Vec<u8> = data.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let stride = 16 * (1 + ATTRIBUTES as u32);
    let buffers = [Some(VertexBuffer { data: &bytes, stride, offset: 0 })];
    let mut state = Pipeline {
        input_layout: &layout,
        vertex_buffers: &buffers,
        index_buffer: None,
        topology: Topology::TriangleList,
        vs: Some(&plan),
        gs: None,
        vs_resources: Resources::default(),
        gs_resources: Resources::default(),
        stream_output: None,
        capture: true,
        step_limit: 1 << 20,
        checking: false,
    };
    let count = (data.len() / (1 + ATTRIBUTES)) as u32;
    let result = pipeline::draw(&mut state, DrawCall::Draw { vertex_count: count, start_vertex: 0 })
        .unwrap_or_else(|e| panic!("exec vertex shader: {e}"));
    result.streams[0].primitives.iter().map(|p| p.iter().map(|v| v.registers.clone()).collect()).collect()
}

/// exec's render targets: per pixel the two targets' values, `None` where unwritten.
fn reference_pixels(ps: &[u8], vertices: &[Vec<Vec<[u32; 4]>>]) -> Vec<Option<[[f32; 4]; 2]>> {
    let plan = Plan::from_bytecode(ps).expect("the pixel shader compiles");
    let state = RasterState {
        viewport: Viewport {
            top_left_x: 0.0,
            top_left_y: 0.0,
            width: SIZE as f32,
            height: SIZE as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        },
        target_width: SIZE,
        target_height: SIZE,
        cull: Cull::None,
        front_counter_clockwise: false,
        depth_clip: true,
        position_register: 0,
    };
    let triangles: Vec<[&[[u32; 4]]; 3]> = vertices.iter().map(|t| [&t[0][..], &t[1][..], &t[2][..]]).collect();
    let drawn = raster::draw(&plan, &triangles, &state, &mut Resources::default(), &Limits::default())
        .unwrap_or_else(|e| panic!("exec raster: {e}"));
    drawn
        .pixels
        .iter()
        .map(|p| p.map(|p| [p.targets[0].map(f32::from_bits), p.targets[1].map(f32::from_bits)]))
        .collect()
}

fn spirv(gpu: &Gpu, module: &naga::Module) -> wgpu::ShaderModule {
    let words: Vec<u32> = if module.entry_points.iter().any(|e| e.stage == naga::ShaderStage::Vertex) {
        // wgpu's Vulkan back end flips y with the viewport (a negative height), so the
        // position is written as WGSL has it (no `ADJUST_COORDINATE_SPACE`, which
        // `translate::write` sets for plain Vulkan), as `support/pixel_harness.rs` does.
        let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(module)
            .expect("the vertex shader validates");
        let mut options = naga::back::spv::Options::default();
        options.flags &= !naga::back::spv::WriterFlags::ADJUST_COORDINATE_SPACE;
        naga::back::spv::write_vec(module, &info, &options, None).expect("vertex SPIR-V")
    } else {
        let bytes = translate::write(module, translate::Target::Spirv).expect("SPIR-V");
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    };
    let entry = wgpu::PassthroughShaderEntryPoint { name: "main".into(), workgroup_size: (1, 1, 1) };
    // SAFETY: the SPIR-V is naga's, from modules naga validated (`corpus_translate`
    // runs the same writer's output through spirv-val); neither shader binds
    // resources, and the pixel shader's inputs are the vertex shader's outputs.
    unsafe {
        gpu.device.create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
            entry_points: std::borrow::Cow::Owned(vec![entry]),
            spirv: Some(std::borrow::Cow::Owned(words)),
            ..Default::default()
        })
    }
}

/// Draws the triangle list `data` with the translated shaders into two 32 × 32
/// `Rgba32Float` targets cleared to [`CLEAR`] (cull none, clockwise front as in
/// Direct3D); reads both back.
fn render(gpu: &Gpu, vs: &naga::Module, ps: &naga::Module, data: &[[f32; 4]]) -> Vec<[[f32; 4]; 2]> {
    use wgpu::util::DeviceExt as _;
    let d = &gpu.device;
    let scope = d.push_error_scope(wgpu::ErrorFilter::Validation);
    // The translated vertex shader's outputs carry no interpolation qualifiers; Vulkan
    // takes the pixel shader's (the SPIR-V passthrough keeps wgpu from requiring
    // the two to agree).
    assert!(gpu.passthrough, "lavapipe_interpolation needs wgpu's PASSTHROUGH_SHADERS");
    let vs = spirv(gpu, vs);
    let fs = spirv(gpu, ps);
    let bytes: Vec<u8> = data.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let buffer = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &bytes,
        usage: wgpu::BufferUsages::VERTEX,
    });
    let attributes: Vec<wgpu::VertexAttribute> = (0..=ATTRIBUTES as u32)
        .map(|k| wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x4,
            offset: 16 * u64::from(k),
            shader_location: k,
        })
        .collect();
    let format = wgpu::TextureFormat::Rgba32Float;
    let size = wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 };
    let targets: Vec<(wgpu::Texture, wgpu::TextureView)> = (0..2)
        .map(|_| {
            let t = d.create_texture(&wgpu::TextureDescriptor {
                label: None,
                size,
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            });
            let v = t.create_view(&Default::default());
            (t, v)
        })
        .collect();
    let color = Some(wgpu::ColorTargetState { format, blend: None, write_mask: wgpu::ColorWrites::ALL });
    let layout = d.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &[],
        immediate_size: 0,
    });
    let pipeline = d.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: None,
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &vs,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: 16 * (1 + ATTRIBUTES as u64),
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &attributes,
            })],
        },
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            front_face: wgpu::FrontFace::Cw,
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &fs,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            targets: &[color.clone(), color],
        }),
        multiview_mask: None,
        cache: None,
    });
    let mut encoder = d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    {
        let attachments: Vec<Option<wgpu::RenderPassColorAttachment<'_>>> = targets
            .iter()
            .map(|(_, view)| {
                Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: f64::from(CLEAR),
                            g: f64::from(CLEAR),
                            b: f64::from(CLEAR),
                            a: f64::from(CLEAR),
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })
            })
            .collect();
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: None,
            color_attachments: &attachments,
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_vertex_buffer(0, buffer.slice(..));
        pass.draw(0..(data.len() / (1 + ATTRIBUTES)) as u32, 0..1);
    }
    let row = 16 * SIZE;
    let layout = wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: None };
    let len = row * SIZE;
    let reads: Vec<(wgpu::Buffer, usize)> = targets
        .iter()
        .map(|(t, _)| (copy_texture_out(gpu, &mut encoder, t, u64::from(len), layout), len as usize))
        .collect();
    gpu.queue.submit([encoder.finish()]);
    if let Some(e) = block_on(scope.pop()) {
        panic!("wgpu: {e}");
    }
    let texels: Vec<Vec<[f32; 4]>> = read_copies(gpu, &reads)
        .expect("the targets read back")
        .iter()
        .map(|bytes| {
            bytes
                .chunks_exact(16)
                .map(|c| {
                    std::array::from_fn(|k| f32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]]))
                })
                .collect()
        })
        .collect();
    (0..(SIZE * SIZE) as usize).map(|i| [texels[0][i], texels[1][i]]).collect()
}

/// The bound on a component's difference (see the module documentation).
fn allowed(reference: f32) -> f32 {
    (1.0 + reference.abs()) / 65536.0
}

#[test]
fn interpolation_modes_on_lavapipe_match_the_rasterizer() {
    one_lavapipe_thread();
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_interpolation") else { return };
    let vs_bytes = assembled(VS);
    let data = vertex_data();
    let vertices = reference_vertices(&vs_bytes, &data);
    assert_eq!(vertices.len(), triangles().len());
    let vs = translate::module(&vs_bytes, &translate::Options::default()).expect("the vertex shader translates");
    let mut failures = Vec::new();
    let (mut compared, mut written, mut back) = (0usize, 0usize, 0usize);
    for (name, text, exact) in PIXEL_SHADERS {
        let ps_bytes = assembled(text);
        let expected = reference_pixels(&ps_bytes, &vertices);
        let ps = translate::module(&ps_bytes, &translate::Options::default()).expect("the pixel shader translates");
        let got = render(&gpu, &vs, &ps, &data);
        let mut worst = (0f32, 0usize, 0usize, 0usize);
        for (i, (e, g)) in expected.iter().zip(&got).enumerate() {
            let (x, y) = (i % SIZE as usize, i / SIZE as usize);
            compared += 1;
            let g_written = g.iter().flatten().any(|&c| c != CLEAR);
            match e {
                None if g_written => failures.push(format!("{name}: ({x}, {y}) written by lavapipe only: {g:?}")),
                None => {}
                Some(_) if !g_written => failures.push(format!("{name}: ({x}, {y}) written by exec only: {e:?}")),
                Some(e) => {
                    written += 1;
                    if name.starts_with("SV_IsFrontFace") && e[0][0] == 0.0 {
                        back += 1;
                    }
                    for t in 0..2 {
                        for c in 0..4 {
                            let diff = (e[t][c] - g[t][c]).abs();
                            let bound = if exact.contains(&(t, c)) { 0.0 } else { allowed(e[t][c]) };
                            if diff.is_nan() || diff > bound {
                                failures.push(format!(
                                    "{name}: ({x}, {y}) o{t}.{}: exec {} lavapipe {}",
                                    ["x", "y", "z", "w"][c],
                                    e[t][c],
                                    g[t][c]
                                ));
                            }
                            let relative = diff / (1.0 + e[t][c].abs());
                            if relative > worst.0 {
                                worst = (relative, i, t, c);
                            }
                        }
                    }
                }
            }
        }
        let (r, i, t, c) = worst;
        println!(
            "{name}: largest difference {r:e} x (1 + |value|) at ({}, {}) o{t}.{c}: exec {:?} lavapipe {:?}",
            i % SIZE as usize,
            i / SIZE as usize,
            expected[i].map(|e| e[t][c]),
            got[i][t][c]
        );
    }
    println!("lavapipe_interpolation: {compared} pixels compared, {written} written by both ({back} back-facing)");
    assert!(back > 0, "the back-facing triangle is drawn");
    // The exact counts: a change in coverage (exec's or lavapipe's) shows here even
    // when the two still agree.
    assert_eq!((compared, written, back), (5120, 2930, 45), "(pixels compared, written by both, back-facing)");
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures[..failures.len().min(40)].join("\n"));
}
