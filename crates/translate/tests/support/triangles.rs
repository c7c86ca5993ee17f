//! Triangles drawn both ways for the interpolation tests (`lavapipe_interpolation.rs`,
//! `lavapipe_pull_model.rs`): the same triangles (vertex positions on the 16.8 grid,
//! so that both sides snap them to the same points) and vertex data, exec's vertex
//! shader and rasterizer (`exec::pipeline::draw`, `exec::raster::draw`) on one side, the
//! SPIR-V shaders drawn by lavapipe through wgpu on the other, into 32 × 32
//! `Rgba32Float` targets; the tolerance the comparisons allow.
//!
//! Included with `#[path = "support/triangles.rs"] mod triangles;` next to
//! `support/lavapipe.rs`.
#![allow(dead_code)]

use corpus::Rng;
use exec::compute::Limits;
use exec::pipeline::{self, DrawCall, InputElement, Pipeline, Topology, VertexBuffer};
use exec::raster::{self, Cull, RasterState, Viewport};
use exec::{Format, Plan, Resources};

use super::lavapipe::{block_on, copy_texture_out, read_copies, Gpu};

/// The render targets' size.
pub const SIZE: u32 = 32;
/// The clear value (no attribute takes it: they are in [−8, 8]).
pub const CLEAR: f32 = 77.0;

/// A listing assembled into a container (signatures and all).
pub fn assembled(text: &str) -> Vec<u8> {
    listing::asm::assemble(text, &listing::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembling:\n{text}\n{e:#?}"))
        .bytes
}

/// A vertex at render-target position (x, y) (on the 16.8 grid), depth z and clip w.
pub struct At {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

/// The triangles' vertices (a triangle list), leading vertex first:
/// one with very different w at its vertices; a rectangle of two triangles whose shared
/// diagonal, top and left edges pass through pixel centres; a triangle sharing the
/// rectangle's left edge and reaching past the target's left side; a back-facing one.
pub fn triangles() -> Vec<[At; 3]> {
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

/// The vertex buffer: per vertex `attributes` registers of pseudo-random values in
/// [−4, 4] (made from the position: vertices at one position share them) and the
/// clip-space position, first (register 0) or after the attributes (`position_last`).
pub fn vertex_data(attributes: usize, position_last: bool) -> Vec<[f32; 4]> {
    let mut out = Vec::new();
    for t in triangles() {
        for v in t {
            let half = SIZE as f32 / 2.0;
            let (nx, ny) = (v.x / half - 1.0, 1.0 - v.y / half);
            let position = [nx * v.w, ny * v.w, v.z * v.w, v.w];
            if !position_last {
                out.push(position);
            }
            let mut rng = Rng(((v.x * 256.0) as i64 as u64) << 20 ^ ((v.y * 256.0) as i64 as u64) | 1);
            for _ in 0..attributes {
                out.push(std::array::from_fn(|_| (rng.below(8001) as f32 - 4000.0) / 1000.0));
            }
            if position_last {
                out.push(position);
            }
        }
    }
    out
}

/// The post-VS triangles by exec's pipeline (`data` as [`vertex_data`] made it with
/// `attributes`): each vertex's output registers.
pub fn reference_vertices(vs: &[u8], data: &[[f32; 4]], attributes: usize) -> Vec<Vec<Vec<[u32; 4]>>> {
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
    let stride = 16 * (1 + attributes as u32);
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
    let count = (data.len() / (1 + attributes)) as u32;
    let result = pipeline::draw(&mut state, DrawCall::Draw { vertex_count: count, start_vertex: 0 })
        .unwrap_or_else(|e| panic!("exec vertex shader: {e}"));
    result.streams[0].primitives.iter().map(|p| p.iter().map(|v| v.registers.clone()).collect()).collect()
}

/// exec's render targets (`exec::raster::draw`, the position in output register
/// `position_register`): per pixel the first `N` targets' values, `None` where unwritten.
pub fn reference_pixels<const N: usize>(
    ps: &[u8],
    vertices: &[Vec<Vec<[u32; 4]>>],
    position_register: u32,
) -> Vec<Option<[[f32; 4]; N]>> {
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
        position_register,
    };
    let triangles: Vec<[&[[u32; 4]]; 3]> = vertices.iter().map(|t| [&t[0][..], &t[1][..], &t[2][..]]).collect();
    let drawn = raster::draw(&plan, &triangles, &state, &mut Resources::default(), &Limits::default())
        .unwrap_or_else(|e| panic!("exec raster: {e}"));
    drawn.pixels.iter().map(|p| p.map(|p| std::array::from_fn(|t| p.targets[t].map(f32::from_bits)))).collect()
}

/// A shader module of SPIR-V `words` passed through to the driver (entry point `main`).
pub fn shader_module(gpu: &Gpu, words: Vec<u32>) -> wgpu::ShaderModule {
    let entry = wgpu::PassthroughShaderEntryPoint { name: "main".into(), workgroup_size: (1, 1, 1) };
    // SAFETY: the callers' SPIR-V is naga's of validated modules or glslang's (the
    // pixel shaders' passes spirv-val); none binds resources, and the pixel shader's
    // inputs are the vertex shader's outputs.
    unsafe {
        gpu.device.create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
            entry_points: std::borrow::Cow::Owned(vec![entry]),
            spirv: Some(std::borrow::Cow::Owned(words)),
            ..Default::default()
        })
    }
}

/// Draws the triangle list `data` (1 + `attributes` registers a vertex, at locations 0,
/// 1...) with the SPIR-V shaders into `N` 32 × 32
/// `Rgba32Float` targets cleared to [`CLEAR`] (cull none, clockwise front as in
/// Direct3D); reads them back.
pub fn render<const N: usize>(
    gpu: &Gpu,
    vs: Vec<u32>,
    fs: Vec<u32>,
    data: &[[f32; 4]],
    attributes: usize,
) -> Vec<[[f32; 4]; N]> {
    use wgpu::util::DeviceExt as _;
    let d = &gpu.device;
    let scope = d.push_error_scope(wgpu::ErrorFilter::Validation);
    // The translated vertex shader's outputs carry no interpolation qualifiers; Vulkan
    // takes the pixel shader's (the SPIR-V passthrough keeps wgpu from requiring
    // the two to agree).
    assert!(gpu.passthrough, "drawing triangles needs wgpu's PASSTHROUGH_SHADERS");
    let vs = shader_module(gpu, vs);
    let fs = shader_module(gpu, fs);
    let bytes: Vec<u8> = data.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let buffer = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &bytes,
        usage: wgpu::BufferUsages::VERTEX,
    });
    let vertex_attributes: Vec<wgpu::VertexAttribute> = (0..=attributes as u32)
        .map(|k| wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x4,
            offset: 16 * u64::from(k),
            shader_location: k,
        })
        .collect();
    let format = wgpu::TextureFormat::Rgba32Float;
    let size = wgpu::Extent3d { width: SIZE, height: SIZE, depth_or_array_layers: 1 };
    let targets: Vec<(wgpu::Texture, wgpu::TextureView)> = (0..N)
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
    let color_targets = vec![color; N];
    let pipeline = d.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: None,
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &vs,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: 16 * (1 + attributes as u64),
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &vertex_attributes,
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
            targets: &color_targets,
        }),
        multiview_mask: None,
        cache: None,
    });
    let mut encoder = d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    {
        let clear = f64::from(CLEAR);
        let attachments: Vec<Option<wgpu::RenderPassColorAttachment<'_>>> = targets
            .iter()
            .map(|(_, view)| {
                Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color { r: clear, g: clear, b: clear, a: clear }),
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
        pass.draw(0..(data.len() / (1 + attributes)) as u32, 0..1);
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
    (0..(SIZE * SIZE) as usize).map(|i| std::array::from_fn(|t| texels[t][i])).collect()
}

/// The bound on a component's difference: 2⁻¹⁶ · (1 + |reference|) (the interpolation
/// tests' documentation says why).
pub fn allowed(reference: f32) -> f32 {
    (1.0 + reference.abs()) / 65536.0
}

/// What one comparison found.
#[derive(Default)]
pub struct Tally {
    /// Pixels compared.
    pub pixels: usize,
    /// Pixels both wrote.
    pub written: usize,
    /// Each difference, a line.
    pub failures: Vec<String>,
}

/// Compares lavapipe's targets with exec's: the same pixels written, the targets in
/// `compared` within [`allowed`] (exactly for `exact`).
pub fn compare<const N: usize>(
    name: &str,
    expected: &[Option<[[f32; 4]; N]>],
    got: &[[[f32; 4]; N]],
    compared: &[usize],
    exact: &[(usize, usize)],
    tally: &mut Tally,
) {
    let mut worst = (0f32, 0usize, 0usize, 0usize);
    for (i, (e, g)) in expected.iter().zip(got).enumerate() {
        let (x, y) = (i % SIZE as usize, i / SIZE as usize);
        tally.pixels += 1;
        let g_written = g.iter().flatten().any(|&c| c != CLEAR);
        match e {
            None if g_written => tally.failures.push(format!("{name}: ({x}, {y}) written by lavapipe only: {g:?}")),
            None => {}
            Some(_) if !g_written => tally.failures.push(format!("{name}: ({x}, {y}) written by exec only: {e:?}")),
            Some(e) => {
                tally.written += 1;
                for &t in compared {
                    for c in 0..4 {
                        let diff = (e[t][c] - g[t][c]).abs();
                        let bound = if exact.contains(&(t, c)) { 0.0 } else { allowed(e[t][c]) };
                        if diff.is_nan() || diff > bound {
                            tally.failures.push(format!(
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
