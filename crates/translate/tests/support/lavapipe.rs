//! Mesa's lavapipe (a Vulkan device on the CPU) through `wgpu`, for the tests that run
//! translated shaders and compare them with the reference pipeline: finding the device,
//! making the resources a shader binds and their bind groups ([`check_bound`],
//! [`bind_groups`]: also `support/pixel_harness.rs`'s), and running a module's compute
//! entry point over them, reading back what it wrote.
//!
//! Included by each such test with `#[path = "support/lavapipe.rs"] mod lavapipe;`.
//! Lavapipe is found among the Vulkan adapters by its name (`llvmpipe`); setting
//! `VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json` makes it the only one.
#![allow(dead_code)]

use std::future::Future;

/// Why there is no device, for the tests' SKIP line and failure message.
pub const NO_LAVAPIPE: &str = "no lavapipe adapter (Debian packages mesa-vulkan-drivers and libvulkan1)";

/// Polls a future to its end (wgpu's native futures are ready once the device is
/// polled; no executor is needed).
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::yield_now();
    }
}

/// The lavapipe device.
pub struct Gpu {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    /// The largest uniform buffer binding: longer constant buffers are cut to it.
    pub uniform_limit: u64,
    /// The device takes SPIR-V as it is (`PASSTHROUGH_SHADERS`): the translator's own
    /// SPIR-V runs, with its bounds-check policy; otherwise wgpu writes SPIR-V from the
    /// module with its own (`Restrict`: out-of-range indices clamped).
    pub passthrough: bool,
}

/// The lavapipe device, if there is one (`label` names it in wgpu's messages).
pub fn lavapipe(label: &str) -> Option<Gpu> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        flags: wgpu::InstanceFlags::empty(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN))
        .into_iter()
        .find(|a| a.get_info().name.contains("llvmpipe"))?;
    let limits = adapter.limits();
    let features = adapter.features() & wgpu::Features::PASSTHROUGH_SHADERS;
    let (device, queue) = block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some(label),
        required_features: features,
        required_limits: limits.clone(),
        ..Default::default()
    }))
    .ok()?;
    println!("{label}: {:?}", adapter.get_info());
    Some(Gpu {
        device,
        queue,
        uniform_limit: limits.max_uniform_buffer_binding_size,
        passthrough: !features.is_empty(),
    })
}

/// The device for the test `test`; without one, prints a SKIP line and gives `None`,
/// or fails when `DXREF_REQUIRE_CORPUS=1` (as CI sets it: CI installs lavapipe).
pub fn device_or_skip(test: &str) -> Option<Gpu> {
    let gpu = lavapipe(test);
    if gpu.is_none() {
        assert!(!corpus::required(), "{test}: {NO_LAVAPIPE}");
        println!("SKIP {test}: {NO_LAVAPIPE}");
    }
    gpu
}

/// One lavapipe thread (`LP_NUM_THREADS=1` unless set): workgroups and fragments then
/// run one after the other, so that a race in Direct3D (groups that update the same
/// word without atomics, which neither group order shows) cannot make an outcome vary
/// from run to run. Called before any device is made.
pub fn one_lavapipe_thread() {
    if std::env::var_os("LP_NUM_THREADS").is_none() {
        std::env::set_var("LP_NUM_THREADS", "1");
    }
}

/// What a binding holds.
pub enum Buffer {
    /// A uniform buffer (a constant buffer), cut to [`Gpu::uniform_limit`].
    Uniform(Vec<u8>),
    /// A read-only storage buffer.
    Storage(Vec<u8>),
    /// A read-write storage buffer, read back after the dispatch.
    StorageReadWrite(Vec<u8>),
    /// A typed buffer view's elements (`Buffer<T>`), bound as a read-only storage buffer
    /// of exactly these bytes (a multiple of 4, not empty): the translated shader's
    /// element count is the binding's length / the element size, as the view's is.
    Typed(Vec<u8>),
    /// A writable typed buffer view (`RWBuffer<T>`), bound as [`Buffer::Typed`] and read
    /// back after the dispatch.
    TypedReadWrite(Vec<u8>),
    /// A 2D texture of one level, `width` × `height` texels of four floats
    /// (`Rgba32Float`, read without conversion); a 1D texture is one of height 1, as the
    /// translator maps it.
    Texture { width: u32, height: u32, texels: Vec<[f32; 4]> },
    /// A writable 2D texture of one level (`texture_storage_2d<rgba32float, write>`),
    /// `width` × `height` texels of four floats (`Rgba32Float`), read back after the
    /// dispatch as its texels' bytes, row after row; `width` must be a multiple of 16
    /// (a copied row is a multiple of 256 bytes).
    StorageTexture { width: u32, height: u32, texels: Vec<[f32; 4]> },
    /// A texture of one level of any view dimension but multisampled ones, its texels
    /// of the [`Image`]'s `format` four 32-bit components (float, uint or sint, read
    /// without conversion).
    Image(Image),
    /// A writable texture of one level (`texture_storage_2d`, `_2d_array`, `_3d`: what
    /// the translator makes of a typed UAV texture), its texels of the [`Image`]'s
    /// `format` a four-component 32-bit one (written only) or, for a UAV the program
    /// loads, a one-component 32-bit one (`R32Float`, `R32Uint`, `R32Sint`, read and
    /// written). Read back after the draw or dispatch as its bytes; a row must be a
    /// multiple of 256 bytes.
    StorageImage(Image),
    /// A multisampled 2D texture of one level (`texture_multisampled_2d<f32>`),
    /// `Rgba16Float`, `samples` samples per texel: sample `s` of texel (`x`, `y`) is
    /// `texels[(y * width + x) * samples + s]` (`exec`'s layout), each a value a half
    /// holds exactly. Drawn per sample by [`multisampled_texture`].
    MultisampledTexture { width: u32, height: u32, samples: u32, texels: Vec<[f32; 4]> },
    /// A sampler: point filtering, clamp addressing (what `exec::Sampler` with
    /// `Filter::Point` and `AddressMode::Clamp` does).
    PointClampSampler,
    /// A depth texture of one level (`texture_depth_2d`, `_2d_array`, `_cube`,
    /// `_cube_array`: what the translator makes of a texture that comparing
    /// instructions read), `Depth32Float`, laid out as [`Buffer::Image`] with one float
    /// per texel, each in [0, 1]. Drawn slice by slice by [`depth_texture`] (no copy
    /// writes a depth texture in WebGPU).
    DepthTexture { view: wgpu::TextureViewDimension, width: u32, height: u32, layers: u32, values: Vec<f32> },
    /// A comparison sampler: point filtering, clamp addressing, `reference <= texel`
    /// (what `exec::Sampler` with `ComparisonFunc::LessEqual` does).
    PointClampLessEqualSampler,
}

/// The texels of a [`Buffer::Image`] or [`Buffer::StorageImage`]: a texture of one
/// level viewed as `view`, texels of `format`, `layers` array slices (cube faces +X,
/// −X, +Y, −Y, +Z, −Z in slice order; the depth of a 3D one), each `width` × `height`:
/// `bytes` are the slices one after the other, each row after row (a 1D array is a 2D
/// array of height 1, as the translator maps it).
pub struct Image {
    /// Mip levels (1 for a storage texture); with more, `bytes` hold each slice's
    /// levels one after the other (Direct3D's subresource order, exec's layout), each
    /// level half the one before across and down (at least 1).
    pub levels: u32,
    pub view: wgpu::TextureViewDimension,
    pub format: wgpu::TextureFormat,
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    pub bytes: Vec<u8>,
}

/// The bytes of one texel of `format` (the 32-bit formats the harnesses bind).
fn texel_bytes(format: wgpu::TextureFormat) -> u32 {
    format.block_copy_size(None).unwrap_or(16)
}

/// What a [`Bound`] is on the device.
enum Made {
    Buffer(wgpu::Buffer),
    Texture(wgpu::TextureView),
    StorageTexture(wgpu::Texture, wgpu::TextureView),
    Sampler(wgpu::Sampler),
}

/// A buffer at `@group(group) @binding(binding)`. Within a group the bindings must be
/// 0, 1, 2... (wgpu's Vulkan back end numbers a group's bindings in order from 0, which
/// SPIR-V passed through must match).
pub struct Bound {
    pub group: u32,
    pub binding: u32,
    pub buffer: Buffer,
}

/// `bytes` of `[u32; 4]` vectors, little-endian.
pub fn vec4_bytes(v: &[[u32; 4]]) -> Vec<u8> {
    v.iter().flatten().flat_map(|w| w.to_le_bytes()).collect()
}

/// `[u32; 4]` vectors of little-endian `bytes` (a partial vector at the end is dropped).
pub fn bytes_vec4(bytes: &[u8]) -> Vec<[u32; 4]> {
    bytes
        .chunks_exact(16)
        .map(|c| [0, 1, 2, 3].map(|k| u32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])))
        .collect()
}

/// `image` on the device, its texels written: a sampled texture, or a `storage` one
/// (read back after the pass).
fn filled_texture(gpu: &Gpu, image: &Image, storage: bool) -> Made {
    let &Image { levels, view, format, width, height, layers, ref bytes } = image;
    let size = wgpu::Extent3d { width, height, depth_or_array_layers: layers };
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size,
        mip_level_count: levels.max(1),
        sample_count: 1,
        dimension: if view == wgpu::TextureViewDimension::D3 {
            wgpu::TextureDimension::D3
        } else {
            wgpu::TextureDimension::D2
        },
        format,
        usage: if storage {
            wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC
        } else {
            wgpu::TextureUsages::TEXTURE_BINDING
        } | wgpu::TextureUsages::COPY_DST,
        view_formats: &[],
    });
    if levels > 1 {
        // Level by level, each slice's part of it gathered from the slices' chains.
        let texel = texel_bytes(format) as usize;
        let level_bytes = |l: u32| (width >> l).max(1) as usize * (height >> l).max(1) as usize * texel;
        let chain: usize = (0..levels).map(level_bytes).sum();
        for l in 0..levels {
            let start: usize = (0..l).map(level_bytes).sum();
            let mut data = Vec::new();
            for slice in 0..layers as usize {
                let at = slice * chain + start;
                data.extend_from_slice(&bytes[at..at + level_bytes(l)]);
            }
            let (w, h) = ((width >> l).max(1), (height >> l).max(1));
            gpu.queue.write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: l,
                    origin: wgpu::Origin3d::ZERO,
                    aspect: wgpu::TextureAspect::All,
                },
                &data,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(texel_bytes(format) * w),
                    rows_per_image: Some(h),
                },
                wgpu::Extent3d { width: w, height: h, depth_or_array_layers: layers },
            );
        }
    } else {
        gpu.queue.write_texture(
            texture.as_image_copy(),
            bytes,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(texel_bytes(format) * width),
                rows_per_image: Some(height),
            },
            size,
        );
    }
    let view = texture.create_view(&wgpu::TextureViewDescriptor { dimension: Some(view), ..Default::default() });
    if storage {
        Made::StorageTexture(texture, view)
    } else {
        Made::Texture(view)
    }
}

/// A sampler with point filtering and clamp-to-edge addressing, comparing with
/// `compare` (a comparison sampler) or not.
fn point_clamp_sampler(gpu: &Gpu, compare: Option<wgpu::CompareFunction>) -> Made {
    Made::Sampler(gpu.device.create_sampler(&wgpu::SamplerDescriptor {
        address_mode_u: wgpu::AddressMode::ClampToEdge,
        address_mode_v: wgpu::AddressMode::ClampToEdge,
        address_mode_w: wgpu::AddressMode::ClampToEdge,
        mag_filter: wgpu::FilterMode::Nearest,
        min_filter: wgpu::FilterMode::Nearest,
        mipmap_filter: wgpu::MipmapFilterMode::Nearest,
        compare,
        ..Default::default()
    }))
}

/// What a [`fill_pipeline`] renders into.
struct FillTargets<'a> {
    depth_stencil: Option<wgpu::DepthStencilState>,
    multisample: wgpu::MultisampleState,
    colour: &'a [Option<wgpu::ColorTargetState>],
}

/// A render pipeline of the WGSL `wgsl`'s entry points `vs` (a triangle over the
/// whole target from three vertices, no vertex buffer) and `fs`, its layout the one its
/// bindings imply: the draws that fill the textures no copy writes.
fn fill_pipeline(gpu: &Gpu, wgsl: &str, targets: FillTargets<'_>) -> wgpu::RenderPipeline {
    let d = &gpu.device;
    let module = d.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(
            naga::front::wgsl::parse_str(wgsl).expect("the fill shader parses"),
        )),
    });
    d.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: None,
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: targets.depth_stencil,
        multisample: targets.multisample,
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: targets.colour,
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// A [`Buffer::MultisampledTexture`] on the device. No copy writes a multisampled
/// texture, so a draw does: a triangle over the whole texture, its fragment shader run
/// once per sample (it reads `sample_index`) returning that sample's value from a
/// storage buffer of `texels`.
fn multisampled_texture(gpu: &Gpu, width: u32, height: u32, samples: u32, texels: &[[f32; 4]]) -> wgpu::TextureView {
    use wgpu::util::DeviceExt as _;
    let d = &gpu.device;
    let format = wgpu::TextureFormat::Rgba16Float;
    let texture = d.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let data: Vec<u8> = texels.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let source = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &data,
        usage: wgpu::BufferUsages::STORAGE,
    });
    let wgsl = format!(
        "@group(0) @binding(0) var<storage, read> texels: array<vec4<f32>>;\n\
         @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {{\n\
             return vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0);\n\
         }}\n\
         @fragment fn fs(@builtin(position) p: vec4<f32>, @builtin(sample_index) s: u32) -> @location(0) vec4<f32> {{\n\
             return texels[(u32(p.y) * {width}u + u32(p.x)) * {samples}u + s];\n\
         }}\n"
    );
    let pipeline = fill_pipeline(
        gpu,
        &wgsl,
        FillTargets {
            depth_stencil: None,
            multisample: wgpu::MultisampleState { count: samples, mask: !0, alpha_to_coverage_enabled: false },
            colour: &[Some(wgpu::ColorTargetState { format, blend: None, write_mask: wgpu::ColorWrites::ALL })],
        },
    );
    let bind_group = d.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: source.as_entire_binding() }],
    });
    let view = texture.create_view(&Default::default());
    let mut encoder = d.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: None,
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
    gpu.queue.submit([encoder.finish()]);
    view
}

/// A [`Buffer::DepthTexture`] on the device: each slice a render pass over a triangle
/// covering it whose fragment shader writes `frag_depth` from a storage buffer of that
/// slice's values (depth test `Always`).
fn depth_texture(
    gpu: &Gpu,
    dimension: wgpu::TextureViewDimension,
    width: u32,
    height: u32,
    layers: u32,
    values: &[f32],
) -> wgpu::TextureView {
    use wgpu::util::DeviceExt as _;
    let d = &gpu.device;
    let format = wgpu::TextureFormat::Depth32Float;
    let texture = d.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d { width, height, depth_or_array_layers: layers },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let wgsl = format!(
        "@group(0) @binding(0) var<storage, read> values: array<f32>;\n\
         @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {{\n\
             return vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.5, 1.0);\n\
         }}\n\
         @fragment fn fs(@builtin(position) p: vec4<f32>) -> @builtin(frag_depth) f32 {{\n\
             return values[u32(p.y) * {width}u + u32(p.x)];\n\
         }}\n"
    );
    let pipeline = fill_pipeline(
        gpu,
        &wgsl,
        FillTargets {
            depth_stencil: Some(wgpu::DepthStencilState {
                format,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Always),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: Default::default(),
            colour: &[],
        },
    );
    let per_slice = (width * height) as usize;
    let mut encoder = d.create_command_encoder(&Default::default());
    for layer in 0..layers {
        let slice = &values[layer as usize * per_slice..][..per_slice];
        let source = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: &slice.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>(),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let bind_group = d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: source.as_entire_binding() }],
        });
        let target = texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2),
            base_array_layer: layer,
            array_layer_count: Some(1),
            ..Default::default()
        });
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: None,
            color_attachments: &[],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &target,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(0.0), store: wgpu::StoreOp::Store }),
                stencil_ops: None,
            }),
            ..Default::default()
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
    gpu.queue.submit([encoder.finish()]);
    texture.create_view(&wgpu::TextureViewDescriptor { dimension: Some(dimension), ..Default::default() })
}

/// Checks that every global of `module` that has a binding is one of `bound`, and that
/// each group's bindings are 0, 1, 2...; `Err` says which is not.
pub fn check_bound(module: &naga::Module, bound: &[Bound]) -> Result<(), String> {
    for (_, g) in module.global_variables.iter() {
        let Some(b) = &g.binding else { continue };
        if !bound.iter().any(|x| x.group == b.group && x.binding == b.binding) {
            return Err(format!(
                "binds a resource at group {} binding {} that the test does not give",
                b.group, b.binding
            ));
        }
    }
    let n_groups = bound.iter().map(|b| b.group + 1).max().unwrap_or(0);
    for g in 0..n_groups {
        let mut bindings: Vec<u32> = bound.iter().filter(|b| b.group == g).map(|b| b.binding).collect();
        bindings.sort_unstable();
        if bindings.iter().enumerate().any(|(k, &b)| b != k as u32) {
            return Err(format!("group {g}: bindings {bindings:?} are not 0, 1, 2..."));
        }
    }
    Ok(())
}

/// [`Bound`]s on the device: what each is ([`Made`], in the order of `bound`), the
/// pipeline layout of their groups and the bind groups to set.
pub struct BindGroups {
    made: Vec<Made>,
    pub layout: wgpu::PipelineLayout,
    /// Every group that has members, with its number.
    pub groups: Vec<(u32, wgpu::BindGroup)>,
}

/// Makes `bound` on the device (checked by [`check_bound`]) and their bind groups,
/// visible to the stages `visibility`: buffers (a uniform one cut to
/// [`Gpu::uniform_limit`], every other but a typed one at least one vec4), textures
/// written from their texels, samplers; a group without members is left out of the
/// layout.
pub fn bind_groups(gpu: &Gpu, bound: &[Bound], visibility: wgpu::ShaderStages) -> BindGroups {
    use wgpu::util::DeviceExt as _;
    let d = &gpu.device;
    let made: Vec<Made> = bound
        .iter()
        .map(|b| {
            let (bytes, usage) = match &b.buffer {
                Buffer::Texture { width, height, texels } | Buffer::StorageTexture { width, height, texels } => {
                    let image = Image {
                        levels: 1,
                        view: wgpu::TextureViewDimension::D2,
                        format: wgpu::TextureFormat::Rgba32Float,
                        width: *width,
                        height: *height,
                        layers: 1,
                        bytes: texels.iter().flatten().flat_map(|f| f.to_le_bytes()).collect(),
                    };
                    return filled_texture(gpu, &image, matches!(b.buffer, Buffer::StorageTexture { .. }));
                }
                Buffer::Image(image) | Buffer::StorageImage(image) => {
                    return filled_texture(gpu, image, matches!(b.buffer, Buffer::StorageImage(_)));
                }
                Buffer::DepthTexture { view, width, height, layers, values } => {
                    return Made::Texture(depth_texture(gpu, *view, *width, *height, *layers, values));
                }
                Buffer::PointClampLessEqualSampler => {
                    return point_clamp_sampler(gpu, Some(wgpu::CompareFunction::LessEqual));
                }
                Buffer::MultisampledTexture { width, height, samples, texels } => {
                    return Made::Texture(multisampled_texture(gpu, *width, *height, *samples, texels));
                }
                Buffer::PointClampSampler => return point_clamp_sampler(gpu, None),
                Buffer::Uniform(v) => (&v[..v.len().min(gpu.uniform_limit as usize)], wgpu::BufferUsages::UNIFORM),
                Buffer::Storage(v) | Buffer::Typed(v) => (&v[..], wgpu::BufferUsages::STORAGE),
                Buffer::StorageReadWrite(v) | Buffer::TypedReadWrite(v) => {
                    (&v[..], wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC)
                }
            };
            let mut contents = bytes.to_vec();
            if matches!(b.buffer, Buffer::Typed(_) | Buffer::TypedReadWrite(_)) {
                assert!(!contents.is_empty() && contents.len() % 4 == 0, "a typed buffer of {} bytes", contents.len());
            } else {
                // At least one vec4, even for a buffer the shader does not read.
                contents.resize(contents.len().max(16).next_multiple_of(4), 0);
            }
            Made::Buffer(d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &contents,
                usage,
            }))
        })
        .collect();
    let n_groups = bound.iter().map(|b| b.group + 1).max().unwrap_or(0);
    let mut layouts = Vec::new();
    let mut groups = Vec::new();
    for g in 0..n_groups {
        let mut members: Vec<(usize, &Bound)> = bound.iter().enumerate().filter(|(_, b)| b.group == g).collect();
        if members.is_empty() {
            layouts.push(None);
            continue;
        }
        members.sort_by_key(|(_, b)| b.binding);
        let entries: Vec<wgpu::BindGroupLayoutEntry> = members
            .iter()
            .map(|(_, b)| wgpu::BindGroupLayoutEntry {
                binding: b.binding,
                visibility,
                ty: match b.buffer {
                    Buffer::Texture { .. } => wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: false },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    Buffer::Image(Image { view, format, .. }) => wgpu::BindingType::Texture {
                        sample_type: match format {
                            wgpu::TextureFormat::Rgba32Uint => wgpu::TextureSampleType::Uint,
                            wgpu::TextureFormat::Rgba32Sint => wgpu::TextureSampleType::Sint,
                            _ => wgpu::TextureSampleType::Float { filterable: false },
                        },
                        view_dimension: view,
                        multisampled: false,
                    },
                    Buffer::DepthTexture { view, .. } => wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: view,
                        multisampled: false,
                    },
                    Buffer::PointClampLessEqualSampler => {
                        wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison)
                    }
                    Buffer::MultisampledTexture { .. } => wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: false },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: true,
                    },
                    Buffer::StorageImage(Image { view, format, .. }) => wgpu::BindingType::StorageTexture {
                        access: if texel_bytes(format) == 4 {
                            wgpu::StorageTextureAccess::ReadWrite
                        } else {
                            wgpu::StorageTextureAccess::WriteOnly
                        },
                        format,
                        view_dimension: view,
                    },
                    Buffer::StorageTexture { .. } => wgpu::BindingType::StorageTexture {
                        access: wgpu::StorageTextureAccess::WriteOnly,
                        format: wgpu::TextureFormat::Rgba32Float,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    Buffer::PointClampSampler => wgpu::BindingType::Sampler(wgpu::SamplerBindingType::NonFiltering),
                    _ => wgpu::BindingType::Buffer {
                        ty: match b.buffer {
                            Buffer::Uniform(_) => wgpu::BufferBindingType::Uniform,
                            Buffer::StorageReadWrite(_) | Buffer::TypedReadWrite(_) => {
                                wgpu::BufferBindingType::Storage { read_only: false }
                            }
                            _ => wgpu::BufferBindingType::Storage { read_only: true },
                        },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                },
                count: None,
            })
            .collect();
        let layout = d.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &entries });
        let group = d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &layout,
            entries: &members
                .iter()
                .map(|(k, b)| wgpu::BindGroupEntry {
                    binding: b.binding,
                    resource: match &made[*k] {
                        Made::Buffer(buffer) => buffer.as_entire_binding(),
                        Made::Texture(view) | Made::StorageTexture(_, view) => wgpu::BindingResource::TextureView(view),
                        Made::Sampler(sampler) => wgpu::BindingResource::Sampler(sampler),
                    },
                })
                .collect::<Vec<_>>(),
        });
        groups.push((g, group));
        layouts.push(Some(layout));
    }
    let layout_refs: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().map(Option::as_ref).collect();
    let layout = d.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &layout_refs,
        immediate_size: 0,
    });
    BindGroups { made, layout, groups }
}

/// Runs the compute entry point `main` of `module` (workgroup size `workgroup`, as the
/// module declares it) for `groups` workgroups with `bound` bound, and returns the
/// contents of every [`Buffer::StorageReadWrite`], [`Buffer::TypedReadWrite`] and
/// [`Buffer::StorageTexture`] after the dispatch, in the order of `bound`; `Err` says
/// why it did not run. Every global of the module that has a binding must be one of
/// `bound` ([`check_bound`]).
pub fn run_compute(
    gpu: &Gpu,
    module: naga::Module,
    workgroup: [u32; 3],
    bound: &[Bound],
    groups: [u32; 3],
) -> Result<Vec<Vec<u8>>, String> {
    let d = &gpu.device;
    check_bound(&module, bound)?;
    let scope = d.push_error_scope(wgpu::ErrorFilter::Validation);
    let shader = if gpu.passthrough {
        let bytes = translate::write(&module, translate::Target::Spirv).map_err(|e| e.to_string())?;
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let entry = wgpu::PassthroughShaderEntryPoint {
            name: "main".into(),
            workgroup_size: (workgroup[0], workgroup[1], workgroup[2]),
        };
        // SAFETY: the SPIR-V is naga's, from a module naga validated (the corpus test
        // `corpus_translate` runs the same writer's output through spirv-val), and every
        // binding it declares is one of the layout below (checked above).
        unsafe {
            d.create_shader_module_passthrough(wgpu::ShaderModuleDescriptorPassthrough {
                entry_points: std::borrow::Cow::Owned(vec![entry]),
                spirv: Some(std::borrow::Cow::Owned(words)),
                ..Default::default()
            })
        }
    } else {
        d.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(module)),
        })
    };
    let BindGroups { made, layout: pipeline_layout, groups: bind_groups } =
        bind_groups(gpu, bound, wgpu::ShaderStages::COMPUTE);
    let pipeline = d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: None,
        layout: Some(&pipeline_layout),
        module: &shader,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    if let Some(e) = block_on(scope.pop()) {
        return Err(corpus::expect::one_line(&format!("wgpu: {e}")));
    }
    let mut encoder = d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: None, timestamp_writes: None });
        pass.set_pipeline(&pipeline);
        for (g, group) in &bind_groups {
            pass.set_bind_group(*g, group, &[]);
        }
        pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
    }
    let reads = copy_writable(gpu, &mut encoder, bound, &made);
    gpu.queue.submit([encoder.finish()]);
    read_copies(gpu, &reads)
}

/// Records on `encoder` copies of every [`Buffer::StorageReadWrite`],
/// [`Buffer::TypedReadWrite`] and [`Buffer::StorageTexture`] of `bound` (`made` by
/// [`bind_groups`]) into mappable buffers, in the order of `bound`, with the length
/// each holds.
fn copy_writable(
    gpu: &Gpu,
    encoder: &mut wgpu::CommandEncoder,
    bound: &[Bound],
    made: &[Made],
) -> Vec<(wgpu::Buffer, usize)> {
    let mut reads = Vec::new();
    for (b, made) in bound.iter().zip(made) {
        if let (Buffer::StorageReadWrite(v) | Buffer::TypedReadWrite(v), Made::Buffer(buffer)) = (&b.buffer, made) {
            let size = buffer.size();
            let read = mappable(gpu, size);
            encoder.copy_buffer_to_buffer(buffer, 0, &read, 0, size);
            reads.push((read, v.len()));
        }
        if let (Buffer::StorageImage(Image { format, width, height, bytes, .. }), Made::StorageTexture(texture, _)) =
            (&b.buffer, made)
        {
            let layout = wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(texel_bytes(*format) * width),
                rows_per_image: Some(*height),
            };
            reads.push((copy_texture_out(gpu, encoder, texture, bytes.len() as u64, layout), bytes.len()));
        }
        if let (Buffer::StorageTexture { width, height, .. }, Made::StorageTexture(texture, _)) = (&b.buffer, made) {
            let len = 16 * *width as usize * *height as usize;
            let layout =
                wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(16 * width), rows_per_image: None };
            reads.push((copy_texture_out(gpu, encoder, texture, len as u64, layout), len));
        }
    }
    reads
}

/// A buffer of `size` bytes to copy into and map for reading.
fn mappable(gpu: &Gpu, size: u64) -> wgpu::Buffer {
    gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Records on `encoder` a copy of the whole of `texture` (its first level) into a new
/// [`mappable`] buffer of `size` bytes, laid out as `layout` says; returns the buffer.
pub fn copy_texture_out(
    gpu: &Gpu,
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    size: u64,
    layout: wgpu::TexelCopyBufferLayout,
) -> wgpu::Buffer {
    let read = mappable(gpu, size);
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo { buffer: &read, layout },
        texture.size(),
    );
    read
}

/// The bytes of the buffers [`copy_writable`] copied into, once the commands are
/// submitted.
pub fn read_copies(gpu: &Gpu, reads: &[(wgpu::Buffer, usize)]) -> Result<Vec<Vec<u8>>, String> {
    let d = &gpu.device;
    for (read, _) in reads {
        read.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
    }
    d.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| format!("poll: {e}"))?;
    reads
        .iter()
        .map(|(read, len)| {
            let view = read.get_mapped_range(..).map_err(|e| format!("map: {e}"))?;
            Ok(view[..*len].to_vec())
        })
        .collect()
}

/// Submits `encoder` (a pass over the bind groups `groups` of `bound`) and returns
/// the contents of every writable binding of `bound` after it, as [`run_compute`]
/// does.
pub fn submit_and_read(
    gpu: &Gpu,
    mut encoder: wgpu::CommandEncoder,
    bound: &[Bound],
    groups: &BindGroups,
) -> Result<Vec<Vec<u8>>, String> {
    let reads = copy_writable(gpu, &mut encoder, bound, &groups.made);
    gpu.queue.submit([encoder.finish()]);
    read_copies(gpu, &reads)
}
