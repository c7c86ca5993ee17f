//! A render pass on lavapipe for translated pixel shaders: a point list, one point per
//! pixel at the pixel's centre, drawn into small `R32G32B32A32` render targets (one per
//! `SV_Target`, float, uint or sint as the shader's output), with a depth target when
//! the shader writes depth; every target read back. [`run_pixel_triangles`] draws
//! the same way a triangle list of vertices anywhere in the target
//! (`lavapipe_pixel_derivatives`: quads with real helper pixels and derivatives).
//!
//! The vertex shader is generated here in WGSL: vertex attribute 0 is the clip-space
//! position, attribute `1 + k` the `k`-th input location of the pixel shader, given as
//! 32-bit patterns (`Uint32x4`) and passed on bit for bit (`bitcast`) with the pixel
//! shader's own interpolation qualifiers (wgpu requires the two stages to agree). A
//! point's attributes are the same at every fragment of it (Vulkan: a point's
//! fragments take the vertex's values), so each point's pixel and the three helper
//! pixels of its quad see the same attributes.
//!
//! Included with `#[path = "support/pixel_harness.rs"] mod pixel_harness;` next to
//! `support/lavapipe.rs` (its [`Gpu`] and [`Bound`] bindings). The resource bindings
//! are made by `lavapipe::bind_groups`, as for `lavapipe::run_compute` (uniform and
//! storage buffers, textures of one level of any dimension but multisampled ones,
//! point samplers, writable buffers and textures read back after the draw),
//! for the fragment stage.
#![allow(dead_code)]

use std::fmt::Write as _;

use super::lavapipe::{bind_groups, block_on, check_bound, copy_texture_out, submit_and_read, BindGroups, Bound, Gpu};

/// Pixels across the render targets (16 × 16 bytes: a row copy is 256 bytes).
pub const WIDTH: u32 = 16;
/// Rows of the render targets.
pub const HEIGHT: u32 = 4;

/// The clear value of every render-target component (77 as float, uint or sint) and
/// of the depth target.
pub const CLEAR: f64 = 77.0;
pub const CLEAR_DEPTH: f32 = 1.0;

/// A render target's component type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Float,
    Uint,
    Sint,
}

impl Kind {
    fn format(self) -> wgpu::TextureFormat {
        match self {
            Kind::Float => wgpu::TextureFormat::Rgba32Float,
            Kind::Uint => wgpu::TextureFormat::Rgba32Uint,
            Kind::Sint => wgpu::TextureFormat::Rgba32Sint,
        }
    }

    /// The clear value's bits.
    pub fn clear_bits(self) -> u32 {
        match self {
            Kind::Float => (CLEAR as f32).to_bits(),
            Kind::Uint => CLEAR as u32,
            Kind::Sint => CLEAR as i32 as u32,
        }
    }

    fn of(scalar: naga::Scalar) -> Kind {
        match scalar.kind {
            naga::ScalarKind::Uint => Kind::Uint,
            naga::ScalarKind::Sint => Kind::Sint,
            _ => Kind::Float,
        }
    }

    fn wgsl(self) -> &'static str {
        match self {
            Kind::Float => "f32",
            Kind::Uint => "u32",
            Kind::Sint => "i32",
        }
    }
}

/// What the pixel shader module reads and writes, from its entry point.
#[derive(Debug, Clone, Default)]
pub struct Interface {
    /// Input locations: (location, component type, WGSL interpolation attribute).
    pub inputs: Vec<(u32, Kind, String)>,
    /// Output locations (render targets): (location, component type).
    pub targets: Vec<(u32, Kind)>,
    /// The shader writes `frag_depth`.
    pub depth: bool,
}

fn kind_of(module: &naga::Module, ty: naga::Handle<naga::Type>) -> Kind {
    match module.types[ty].inner {
        naga::TypeInner::Vector { scalar, .. } | naga::TypeInner::Scalar(scalar) => Kind::of(scalar),
        _ => Kind::Float,
    }
}

fn interpolation(i: Option<naga::Interpolation>, s: Option<naga::Sampling>) -> String {
    let i = match i {
        Some(naga::Interpolation::Flat) => "flat",
        Some(naga::Interpolation::Linear) => "linear",
        Some(naga::Interpolation::Perspective) => "perspective",
        Some(naga::Interpolation::PerVertex) => "per_vertex",
        None => return String::new(),
    };
    let s = match s {
        Some(naga::Sampling::Centroid) => ", centroid",
        Some(naga::Sampling::Sample) => ", sample",
        Some(naga::Sampling::First) => ", first",
        Some(naga::Sampling::Either) => ", either",
        _ => "",
    };
    format!("@interpolate({i}{s}) ")
}

/// The fragment entry point `main`'s inputs and outputs.
pub fn interface(module: &naga::Module) -> Result<Interface, String> {
    let ep =
        module.entry_points.iter().find(|e| e.stage == naga::ShaderStage::Fragment).ok_or("no fragment entry point")?;
    let mut out = Interface::default();
    for a in &ep.function.arguments {
        if let Some(naga::Binding::Location { location, interpolation: i, sampling, .. }) = &a.binding {
            out.inputs.push((*location, kind_of(module, a.ty), interpolation(*i, *sampling)));
        }
    }
    if let Some(r) = &ep.function.result {
        let members = match &module.types[r.ty].inner {
            naga::TypeInner::Struct { members, .. } => members.clone(),
            _ => Vec::new(),
        };
        for m in members {
            match m.binding {
                Some(naga::Binding::Location { location, .. }) => out.targets.push((location, kind_of(module, m.ty))),
                Some(naga::Binding::BuiltIn(naga::BuiltIn::FragDepth)) => out.depth = true,
                _ => {}
            }
        }
    }
    Ok(out)
}

/// The pass-through vertex shader for `interface` (WGSL).
pub fn vertex_wgsl(interface: &Interface) -> String {
    let mut s = String::from("struct VOut {\n    @builtin(position) position: vec4<f32>,\n");
    for (location, kind, interp) in &interface.inputs {
        let _ = writeln!(s, "    @location({location}) {interp}a{location}: vec4<{}>,", kind.wgsl());
    }
    s.push_str("}\n\n@vertex\nfn main(@location(0) position: vec4<f32>");
    for (k, (location, ..)) in interface.inputs.iter().enumerate() {
        let _ = write!(s, ", @location({}) in{location}: vec4<u32>", k + 1);
    }
    s.push_str(") -> VOut {\n    return VOut(position");
    for (location, kind, _) in &interface.inputs {
        let _ = write!(s, ", bitcast<vec4<{}>>(in{location})", kind.wgsl());
    }
    s.push_str(");\n}\n");
    s
}

/// One point: its pixel, depth, and the 32-bit patterns of each input location of the
/// interface, in its order.
pub struct Point {
    pub x: u32,
    pub y: u32,
    pub z: f32,
    /// The clip-space w: the position is (x·w, y·w, z·w, w), so that the pixel and the
    /// depth stay and `FragCoord.w` is 1/w.
    pub w: f32,
    pub attributes: Vec<[u32; 4]>,
}

/// What the render pass left: each target's texels (row after row, 4 words each), in
/// the interface's order, and the depth target's values (when the shader writes it).
pub struct Rendered {
    pub targets: Vec<Vec<[u32; 4]>>,
    pub depth: Option<Vec<f32>>,
    /// The memory of every writable binding after the draw, in the order of the
    /// bindings (`lavapipe::submit_and_read`).
    pub uavs: Vec<Vec<u8>>,
}

fn shader(gpu: &Gpu, module: naga::Module, stage: naga::ShaderStage) -> Result<wgpu::ShaderModule, String> {
    let d = &gpu.device;
    if !gpu.passthrough {
        return Ok(d.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(module)),
        }));
    }
    let words: Vec<u32> = if stage == naga::ShaderStage::Vertex {
        // The vertex shader writes the point size, 1 (Vulkan leaves a point's size
        // undefined when the vertex shader does not write it; WGSL cannot).
        let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(&module)
            .map_err(|e| format!("vertex shader: {e:?}"))?;
        // wgpu's Vulkan back end flips y with the viewport (a negative height), so the
        // position is written as WGSL has it (no `ADJUST_COORDINATE_SPACE`), as wgpu's
        // own SPIR-V writer does.
        let mut options = naga::back::spv::Options::default();
        options.flags |= naga::back::spv::WriterFlags::FORCE_POINT_SIZE;
        options.flags &= !naga::back::spv::WriterFlags::ADJUST_COORDINATE_SPACE;
        naga::back::spv::write_vec(&module, &info, &options, None).map_err(|e| format!("vertex shader: {e}"))?
    } else {
        let bytes = translate::write(&module, translate::Target::Spirv).map_err(|e| e.to_string())?;
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    };
    let entry = wgpu::PassthroughShaderEntryPoint { name: "main".into(), workgroup_size: (1, 1, 1) };
    // SAFETY: the SPIR-V is naga's, from modules naga validated (`corpus_translate`
    // runs the same writer's output through spirv-val); every binding the pixel shader
    // declares is one of the layout (checked by `run_pixel`), the vertex shader has
    // none.
    Ok(unsafe {
        d.create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
            entry_points: std::borrow::Cow::Owned(vec![entry]),
            spirv: Some(std::borrow::Cow::Owned(words)),
            ..Default::default()
        })
    })
}

/// Draws `points` (a point list) with the pixel shader `module` (entry point `main`)
/// and `bound` bound for the fragment stage, into [`WIDTH`] × [`HEIGHT`] targets
/// cleared to [`CLEAR`] (depth to [`CLEAR_DEPTH`], depth test `Always`).
pub fn run_pixel(gpu: &Gpu, module: naga::Module, bound: &[Bound], points: &[Point]) -> Result<Rendered, String> {
    let vertices: Vec<Vertex> = points
        .iter()
        .map(|p| Vertex { x: p.x as f32 + 0.5, y: p.y as f32 + 0.5, z: p.z, w: p.w, attributes: p.attributes.clone() })
        .collect();
    render(gpu, module, bound, &vertices, wgpu::PrimitiveTopology::PointList)
}

/// One vertex of a triangle: its render-target position (pixels, y down), depth, clip
/// w (the clip-space position is made as a [`Point`]'s) and the 32-bit patterns of each
/// input location of the interface, in its order.
pub struct Vertex {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
    pub attributes: Vec<[u32; 4]>,
}

/// Draws `vertices` as a triangle list (clockwise in render-target space is front,
/// nothing culled; Vulkan's provoking vertex is each triangle's first, Direct3D's
/// leading vertex) with the pixel shader `module`, as [`run_pixel`] draws points: each
/// triangle's quads have real helper pixels and attributes that vary over the quad.
pub fn run_pixel_triangles(
    gpu: &Gpu,
    module: naga::Module,
    bound: &[Bound],
    vertices: &[Vertex],
) -> Result<Rendered, String> {
    render(gpu, module, bound, vertices, wgpu::PrimitiveTopology::TriangleList)
}

fn render(
    gpu: &Gpu,
    module: naga::Module,
    bound: &[Bound],
    points: &[Vertex],
    topology: wgpu::PrimitiveTopology,
) -> Result<Rendered, String> {
    use wgpu::util::DeviceExt as _;
    let d = &gpu.device;
    let iface = interface(&module)?;
    check_bound(&module, bound)?;
    let vs_source = vertex_wgsl(&iface);
    let vs_module = naga::front::wgsl::parse_str(&vs_source).map_err(|e| format!("vertex shader: {e}\n{vs_source}"))?;
    let scope = d.push_error_scope(wgpu::ErrorFilter::Validation);
    let vs = shader(gpu, vs_module, naga::ShaderStage::Vertex)?;
    let fs = shader(gpu, module, naga::ShaderStage::Fragment)?;

    let made = bind_groups(gpu, bound, wgpu::ShaderStages::FRAGMENT);
    let BindGroups { layout: pipeline_layout, groups: bind_groups, .. } = &made;

    // Vertices: position, then every input location's words.
    let stride = 16 * (1 + iface.inputs.len()) as u64;
    let mut vertices = Vec::new();
    for p in points {
        let x = p.x / WIDTH as f32 * 2.0 - 1.0;
        let y = 1.0 - p.y / HEIGHT as f32 * 2.0;
        for f in [x * p.w, y * p.w, p.z * p.w, p.w] {
            vertices.extend_from_slice(&f.to_le_bytes());
        }
        for k in 0..iface.inputs.len() {
            let a = p.attributes.get(k).copied().unwrap_or([0; 4]);
            vertices.extend(a.iter().flat_map(|w| w.to_le_bytes()));
        }
    }
    vertices.resize(vertices.len().max(16), 0);
    let vertex_buffer = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &vertices,
        usage: wgpu::BufferUsages::VERTEX,
    });
    let attributes: Vec<wgpu::VertexAttribute> = (0..=iface.inputs.len())
        .map(|k| wgpu::VertexAttribute {
            format: if k == 0 { wgpu::VertexFormat::Float32x4 } else { wgpu::VertexFormat::Uint32x4 },
            offset: 16 * k as u64,
            shader_location: k as u32,
        })
        .collect();

    // Render targets at their locations (gaps are `None`).
    let slots = iface.targets.iter().map(|t| t.0 + 1).max().unwrap_or(0) as usize;
    let mut color_states: Vec<Option<wgpu::ColorTargetState>> = vec![None; slots];
    let size = wgpu::Extent3d { width: WIDTH, height: HEIGHT, depth_or_array_layers: 1 };
    let mut targets = Vec::new();
    for &(location, kind) in &iface.targets {
        color_states[location as usize] =
            Some(wgpu::ColorTargetState { format: kind.format(), blend: None, write_mask: wgpu::ColorWrites::ALL });
        let texture = d.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: kind.format(),
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        targets.push((location, texture, view));
    }
    let depth = iface.depth.then(|| {
        let texture = d.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Depth32Float,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        (texture, view)
    });
    let pipeline = d.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: None,
        layout: Some(pipeline_layout),
        vertex: wgpu::VertexState {
            module: &vs,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: stride,
                step_mode: wgpu::VertexStepMode::Vertex,
                attributes: &attributes,
            })],
        },
        primitive: wgpu::PrimitiveState {
            topology,
            front_face: wgpu::FrontFace::Cw,
            cull_mode: None,
            ..Default::default()
        },
        depth_stencil: depth.as_ref().map(|_| wgpu::DepthStencilState {
            format: wgpu::TextureFormat::Depth32Float,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Always),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &fs,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            targets: &color_states,
        }),
        multiview_mask: None,
        cache: None,
    });
    if let Some(e) = block_on(scope.pop()) {
        return Err(corpus::expect::one_line(&format!("wgpu: {e}")));
    }
    let mut encoder = d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    {
        let mut attachments: Vec<Option<wgpu::RenderPassColorAttachment<'_>>> = vec![None; slots];
        for (location, _, view) in &targets {
            attachments[*location as usize] = Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color { r: CLEAR, g: CLEAR, b: CLEAR, a: CLEAR }),
                    store: wgpu::StoreOp::Store,
                },
            });
        }
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: None,
            color_attachments: &attachments,
            depth_stencil_attachment: depth.as_ref().map(|(_, view)| wgpu::RenderPassDepthStencilAttachment {
                view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(CLEAR_DEPTH),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&pipeline);
        for (g, group) in bind_groups {
            pass.set_bind_group(*g, group, &[]);
        }
        pass.set_vertex_buffer(0, vertex_buffer.slice(..));
        pass.draw(0..points.len() as u32, 0..1);
    }
    let read_texture = |encoder: &mut wgpu::CommandEncoder, texture: &wgpu::Texture, bytes_per_texel: u32| {
        let row = (bytes_per_texel * WIDTH).next_multiple_of(256);
        let layout = wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: None };
        (copy_texture_out(gpu, encoder, texture, u64::from(row * HEIGHT), layout), row, bytes_per_texel)
    };
    let mut reads: Vec<(wgpu::Buffer, u32, u32)> =
        targets.iter().map(|(_, t, _)| read_texture(&mut encoder, t, 16)).collect();
    if let Some((t, _)) = &depth {
        reads.push(read_texture(&mut encoder, t, 4));
    }
    let scope = d.push_error_scope(wgpu::ErrorFilter::Validation);
    gpu.queue.submit([encoder.finish()]);
    if let Some(e) = block_on(scope.pop()) {
        return Err(corpus::expect::one_line(&format!("wgpu: {e}")));
    }
    for (read, ..) in &reads {
        read.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
    }
    d.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| format!("poll: {e}"))?;
    let mut words_of = Vec::new();
    for (read, row, texel) in &reads {
        let view = read.get_mapped_range(..).map_err(|e| format!("map: {e}"))?;
        let mut words = Vec::new();
        for y in 0..HEIGHT as usize {
            let line = &view[y * *row as usize..][..(*texel * WIDTH) as usize];
            words.extend(line.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
        }
        words_of.push(words);
    }
    let depth = if iface.depth { words_of.pop().map(|w| w.into_iter().map(f32::from_bits).collect()) } else { None };
    let targets = words_of.into_iter().map(|w| w.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]).collect()).collect();
    // The writable resources, copied after the draw.
    let uavs = submit_and_read(gpu, d.create_command_encoder(&Default::default()), bound, &made)?;
    Ok(Rendered { targets, depth, uavs })
}
