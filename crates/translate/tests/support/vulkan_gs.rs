//! A Vulkan graphics pipeline on lavapipe through `ash` for native geometry shaders
//! (wgpu has no geometry stage): the translated vertex shader (naga's SPIR-V), the
//! native geometry shader ([`translate::geometry_spirv`]) with the draw's stream output
//! as transform feedback, rasterizer discard; one draw, with pipeline-statistics and
//! transform-feedback-stream queries, read back. The geometry shader's resources are
//! bound where the translation puts them (see the crate documentation's bindings):
//! constant buffers as uniform buffers in set 0, views in set 1 (typed buffers as
//! storage buffers of their bytes, textures as sampled images, 1D ones 2D of height 1),
//! samplers in set 2, each at binding = register; the GLSL form's textures are combined
//! image samplers at the texture's binding (naga's GLSL merges a texture and its
//! sampler), with the draw's point, clamp sampler.
//!
//! Included with `#[path = "support/vulkan_gs.rs"] mod vulkan_gs;` (tests and the
//! native geometry-shader benchmark).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::ffi::c_void;

use ash::vk;
use translate::Topology;

/// Why there is no device, for the SKIP line and the failure message.
pub const NO_LAVAPIPE: &str =
    "no lavapipe Vulkan device with geometry shaders and transform feedback (Debian packages mesa-vulkan-drivers and libvulkan1)";

/// One draw's inputs.
pub struct Draw {
    pub vs: Vec<u8>,
    pub gs: Vec<u8>,
    pub topology: Topology,
    /// Vertex data: `stride` vec4s per vertex (bits).
    pub data: Vec<[u32; 4]>,
    pub stride: u32,
    /// The vertex shader's input registers (attribute location = register, offset
    /// 16 × register).
    pub input_registers: Vec<u32>,
    /// Inputs are `R32G32B32A32_FLOAT` (else `_UINT`).
    pub float_input: bool,
    pub vertices: u32,
    /// The geometry shader's constant buffers by register.
    pub cbs: BTreeMap<u32, Vec<[u32; 4]>>,
    /// The geometry shader's shader resource views by register.
    pub views: BTreeMap<u32, View>,
    /// The geometry shader's samplers by register: point filtering, clamp-to-edge
    /// addressing (`D3D11_FILTER_MIN_MAG_MIP_POINT`, `D3D11_TEXTURE_ADDRESS_CLAMP`).
    pub samplers: Vec<u32>,
    pub so: streamout::StreamOutputDesc,
    /// Bytes of each slot's buffer.
    pub so_sizes: [usize; 4],
}

/// A shader resource view of the geometry shader.
pub enum View {
    /// A typed buffer view of `format`: a storage buffer of the view's bytes (the
    /// translation converts the elements; its options name the format).
    Typed(translate::Format, Vec<u8>),
    /// A texture of one level, `R32G32B32A32_SFLOAT` texels' bytes, `layers` layers of
    /// `width` × `height` (a 1D texture: height 1), viewed as a 2D array if `array`.
    Texture { width: u32, height: u32, layers: u32, array: bool, texels: Vec<u8> },
}

impl Draw {
    /// The geometry shader's translation options: the typed buffers' formats.
    pub fn gs_options(&self) -> translate::Options {
        let text: String = self
            .views
            .iter()
            .filter_map(|(r, v)| match v {
                View::Typed(f, _) => Some(format!("t{r} = {}\n", f.name())),
                View::Texture { .. } => None,
            })
            .collect();
        translate::Options { bindings: translate::Bindings::parse(&text).expect("formats"), ..Default::default() }
    }

    /// `Ok` when each stream-output buffer's stride (the declared one, else the slot's
    /// elements packed) is within `max` bytes, the transform-feedback limit of the
    /// `whose` (device, context); else why the draw is not compared.
    pub fn strides_within(&self, max: u32, whose: &str) -> Result<(), String> {
        for slot in 0..4u8 {
            let packed: u32 = self
                .so
                .entries
                .iter()
                .filter(|e| e.output_slot == slot)
                .map(|e| 4 * u32::from(e.component_count))
                .sum();
            let stride = self.so.strides.get(usize::from(slot)).copied().filter(|&s| s != 0).unwrap_or(packed);
            if stride > max {
                return Err(format!(
                    "not compared: a transform-feedback stride of {stride} bytes, over the {whose}'s {max}"
                ));
            }
        }
        Ok(())
    }
}

/// What a draw gave: the stream-output (transform-feedback) buffers, per stream the
/// primitives written and needed, the statistics (IA vertices, IA primitives, VS
/// invocations, GS invocations, GS primitives).
#[derive(Debug, PartialEq)]
pub struct Outcome {
    pub so: [Vec<u8>; 4],
    pub so_stats: [(u64, u64); 4],
    pub stats: [u64; 5],
}

/// The lavapipe device with `VK_EXT_transform_feedback`.
pub struct Vk {
    _entry: ash::Entry,
    instance: ash::Instance,
    physical: vk::PhysicalDevice,
    pub device: ash::Device,
    queue: vk::Queue,
    family: u32,
    memory: vk::PhysicalDeviceMemoryProperties,
    xfb: ash::ext::transform_feedback::Device,
    /// `maxTransformFeedbackStreams`.
    pub streams: u32,
    /// `maxTransformFeedbackBufferDataStride` (bytes).
    pub max_xfb_stride: u32,
}

impl Drop for Vk {
    fn drop(&mut self) {
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// The lavapipe device, or `None` (with the reason) when there is none fit.
pub fn vk() -> Result<Vk, String> {
    unsafe {
        let entry = ash::Entry::load().map_err(|e| format!("no Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_1);
        let instance = entry
            .create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None)
            .map_err(|e| format!("vkCreateInstance: {e}"))?;
        let found = (|| -> Result<Vk, String> {
            let physical = instance
                .enumerate_physical_devices()
                .map_err(|e| e.to_string())?
                .into_iter()
                .find(|&p| {
                    let props = instance.get_physical_device_properties(p);
                    props.device_name_as_c_str().is_ok_and(|n| n.to_string_lossy().contains("llvmpipe"))
                })
                .ok_or("no llvmpipe device")?;
            let features = instance.get_physical_device_features(physical);
            let mut xfb_features = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default();
            let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut xfb_features);
            instance.get_physical_device_features2(physical, &mut f2);
            if features.geometry_shader == 0
                || features.pipeline_statistics_query == 0
                || xfb_features.transform_feedback == 0
            {
                return Err("no geometry shaders, statistics or transform feedback".into());
            }
            let mut xfb_props = vk::PhysicalDeviceTransformFeedbackPropertiesEXT::default();
            let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut xfb_props);
            instance.get_physical_device_properties2(physical, &mut p2);
            let streams = xfb_props.max_transform_feedback_streams;
            let max_xfb_stride = xfb_props.max_transform_feedback_buffer_data_stride;
            let family = instance
                .get_physical_device_queue_family_properties(physical)
                .iter()
                .position(|q| q.queue_flags.contains(vk::QueueFlags::GRAPHICS))
                .ok_or("no graphics queue")? as u32;
            let priorities = [1.0f32];
            let queues =
                [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&priorities)];
            let enabled = vk::PhysicalDeviceFeatures {
                geometry_shader: vk::TRUE,
                pipeline_statistics_query: vk::TRUE,
                shader_clip_distance: features.shader_clip_distance,
                shader_cull_distance: features.shader_cull_distance,
                multi_viewport: features.multi_viewport,
                ..Default::default()
            };
            let mut xfb_enable = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default()
                .transform_feedback(true)
                .geometry_streams(xfb_features.geometry_streams != 0);
            let extensions = [ash::ext::transform_feedback::NAME.as_ptr()];
            let device = instance
                .create_device(
                    physical,
                    &vk::DeviceCreateInfo::default()
                        .queue_create_infos(&queues)
                        .enabled_extension_names(&extensions)
                        .enabled_features(&enabled)
                        .push_next(&mut xfb_enable),
                    None,
                )
                .map_err(|e| format!("vkCreateDevice: {e}"))?;
            let queue = device.get_device_queue(family, 0);
            let memory = instance.get_physical_device_memory_properties(physical);
            let xfb = ash::ext::transform_feedback::Device::new(&instance, &device);
            Ok(Vk {
                _entry: entry.clone(),
                instance: instance.clone(),
                physical,
                device,
                queue,
                family,
                memory,
                xfb,
                streams,
                max_xfb_stride,
            })
        })();
        if found.is_err() {
            instance.destroy_instance(None);
        }
        found
    }
}

/// The device for the test `test`; without one, prints a SKIP line and gives `None`,
/// or fails when `DXREF_REQUIRE_CORPUS=1` (as CI sets it: CI installs lavapipe).
pub fn vk_or_skip(test: &str) -> Option<Vk> {
    match vk() {
        Ok(v) => Some(v),
        Err(why) => {
            assert!(!corpus::required(), "{test}: {NO_LAVAPIPE}: {why}");
            println!("SKIP {test}: {NO_LAVAPIPE}: {why}");
            None
        }
    }
}

fn spirv_words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// What one draw created, destroyed together.
#[derive(Default)]
struct Objects {
    buffers: Vec<(vk::Buffer, vk::DeviceMemory)>,
    modules: Vec<vk::ShaderModule>,
    images: Vec<(vk::Image, vk::DeviceMemory, vk::ImageView)>,
    samplers: Vec<vk::Sampler>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    layout: vk::PipelineLayout,
    render_pass: vk::RenderPass,
    framebuffer: vk::Framebuffer,
    pipeline: vk::Pipeline,
    descriptor_pool: vk::DescriptorPool,
    queries: Vec<vk::QueryPool>,
    command_pool: vk::CommandPool,
    fence: vk::Fence,
}

/// A pipeline built for a draw, to run once or many times (the benchmark).
pub struct Prepared<'v> {
    vk: &'v Vk,
    o: Objects,
    cmd: vk::CommandBuffer,
    so: Vec<(usize, *mut c_void, usize)>,
    streams: u32,
}

impl Drop for Prepared<'_> {
    fn drop(&mut self) {
        let d = &self.vk.device;
        let o = &self.o;
        unsafe {
            let _ = d.device_wait_idle();
            d.destroy_fence(o.fence, None);
            d.destroy_command_pool(o.command_pool, None);
            for &q in &o.queries {
                d.destroy_query_pool(q, None);
            }
            d.destroy_descriptor_pool(o.descriptor_pool, None);
            d.destroy_pipeline(o.pipeline, None);
            d.destroy_framebuffer(o.framebuffer, None);
            d.destroy_render_pass(o.render_pass, None);
            d.destroy_pipeline_layout(o.layout, None);
            for &l in &o.set_layouts {
                d.destroy_descriptor_set_layout(l, None);
            }
            for &s in &o.samplers {
                d.destroy_sampler(s, None);
            }
            for &(i, m, v) in &o.images {
                d.destroy_image_view(v, None);
                d.destroy_image(i, None);
                d.free_memory(m, None);
            }
            for &m in &o.modules {
                d.destroy_shader_module(m, None);
            }
            for &(b, m) in &o.buffers {
                d.destroy_buffer(b, None);
                d.free_memory(m, None);
            }
        }
    }
}

fn topology(t: Topology) -> vk::PrimitiveTopology {
    match t {
        Topology::PointList => vk::PrimitiveTopology::POINT_LIST,
        Topology::LineList => vk::PrimitiveTopology::LINE_LIST,
        Topology::LineStrip => vk::PrimitiveTopology::LINE_STRIP,
        Topology::TriangleList => vk::PrimitiveTopology::TRIANGLE_LIST,
        Topology::TriangleStrip => vk::PrimitiveTopology::TRIANGLE_STRIP,
        Topology::LineListAdj => vk::PrimitiveTopology::LINE_LIST_WITH_ADJACENCY,
        Topology::LineStripAdj => vk::PrimitiveTopology::LINE_STRIP_WITH_ADJACENCY,
        Topology::TriangleListAdj => vk::PrimitiveTopology::TRIANGLE_LIST_WITH_ADJACENCY,
        Topology::TriangleStripAdj => vk::PrimitiveTopology::TRIANGLE_STRIP_WITH_ADJACENCY,
    }
}

/// A descriptor's buffer or image (with its sampler).
enum Described {
    Buffer([vk::DescriptorBufferInfo; 1]),
    Image([vk::DescriptorImageInfo; 1]),
}

/// The colour aspect's level 0, layers `0..layers`.
fn color_layers(layers: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: layers,
    }
}

const STATISTICS: [vk::QueryPipelineStatisticFlags; 5] = [
    vk::QueryPipelineStatisticFlags::INPUT_ASSEMBLY_VERTICES,
    vk::QueryPipelineStatisticFlags::INPUT_ASSEMBLY_PRIMITIVES,
    vk::QueryPipelineStatisticFlags::VERTEX_SHADER_INVOCATIONS,
    vk::QueryPipelineStatisticFlags::GEOMETRY_SHADER_INVOCATIONS,
    vk::QueryPipelineStatisticFlags::GEOMETRY_SHADER_PRIMITIVES,
];

impl Vk {
    /// A host-visible buffer holding `data` (zeros to `size` bytes), mapped.
    fn buffer(
        &self,
        o: &mut Objects,
        usage: vk::BufferUsageFlags,
        data: &[u8],
        size: usize,
    ) -> Result<(vk::Buffer, *mut c_void), String> {
        let d = &self.device;
        let size = size.max(data.len()).max(16);
        unsafe {
            let buffer = d
                .create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(size as u64)
                        .usage(usage)
                        .sharing_mode(vk::SharingMode::EXCLUSIVE),
                    None,
                )
                .map_err(|e| format!("vkCreateBuffer: {e}"))?;
            let req = d.get_buffer_memory_requirements(buffer);
            let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
            let index = (0..self.memory.memory_type_count)
                .find(|&i| {
                    req.memory_type_bits & (1 << i) != 0
                        && self.memory.memory_types[i as usize].property_flags.contains(want)
                })
                .ok_or("no host-visible memory")?;
            let memory = d
                .allocate_memory(
                    &vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(index),
                    None,
                )
                .map_err(|e| format!("vkAllocateMemory: {e}"))?;
            o.buffers.push((buffer, memory));
            d.bind_buffer_memory(buffer, memory, 0).map_err(|e| e.to_string())?;
            let p = d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).map_err(|e| e.to_string())?;
            std::ptr::write_bytes(p.cast::<u8>(), 0, size);
            std::ptr::copy_nonoverlapping(data.as_ptr(), p.cast::<u8>(), data.len());
            Ok((buffer, p))
        }
    }

    /// Builds the pipeline and records the draw.
    pub fn prepare(&self, d: &Draw) -> Result<Prepared<'_>, String> {
        self.prepare_with(d, None, false)
    }

    /// [`Vk::prepare`] with the geometry shader's SPIR-V given (`None`: the native
    /// SPIR-V geometry shader of `d.gs` with `d.so`); `combined`: its textures are
    /// combined image samplers at their bindings and it has no samplers of its own
    /// (the GLSL form).
    pub fn prepare_with(&self, d: &Draw, gs: Option<Vec<u8>>, combined: bool) -> Result<Prepared<'_>, String> {
        let mut p =
            Prepared { vk: self, o: Objects::default(), cmd: vk::CommandBuffer::null(), so: Vec::new(), streams: 0 };
        self.build(d, gs, combined, &mut p)?;
        Ok(p)
    }

    /// A texture of one level, `R32G32B32A32_SFLOAT`, sampled in the geometry stage,
    /// and its view (2D, or 2D array if `array`).
    fn image(
        &self,
        o: &mut Objects,
        (width, height, layers, array): (u32, u32, u32, bool),
    ) -> Result<(vk::Image, vk::ImageView), String> {
        let d = &self.device;
        let format = vk::Format::R32G32B32A32_SFLOAT;
        unsafe {
            let image = d
                .create_image(
                    &vk::ImageCreateInfo::default()
                        .image_type(vk::ImageType::TYPE_2D)
                        .format(format)
                        .extent(vk::Extent3D { width, height, depth: 1 })
                        .mip_levels(1)
                        .array_layers(layers)
                        .samples(vk::SampleCountFlags::TYPE_1)
                        .tiling(vk::ImageTiling::OPTIMAL)
                        .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST)
                        .sharing_mode(vk::SharingMode::EXCLUSIVE)
                        .initial_layout(vk::ImageLayout::UNDEFINED),
                    None,
                )
                .map_err(|e| format!("vkCreateImage: {e}"))?;
            let req = d.get_image_memory_requirements(image);
            let Some(index) = (0..self.memory.memory_type_count).find(|&i| req.memory_type_bits & (1 << i) != 0) else {
                d.destroy_image(image, None);
                return Err("no memory for an image".into());
            };
            let memory = match d.allocate_memory(
                &vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(index),
                None,
            ) {
                Ok(m) => m,
                Err(e) => {
                    d.destroy_image(image, None);
                    return Err(format!("vkAllocateMemory: {e}"));
                }
            };
            o.images.push((image, memory, vk::ImageView::null()));
            d.bind_image_memory(image, memory, 0).map_err(|e| e.to_string())?;
            let view = d
                .create_image_view(
                    &vk::ImageViewCreateInfo::default()
                        .image(image)
                        .view_type(if array { vk::ImageViewType::TYPE_2D_ARRAY } else { vk::ImageViewType::TYPE_2D })
                        .format(format)
                        .subresource_range(color_layers(layers)),
                    None,
                )
                .map_err(|e| format!("vkCreateImageView: {e}"))?;
            if let Some(last) = o.images.last_mut() {
                last.2 = view;
            }
            Ok((image, view))
        }
    }

    fn build(&self, d: &Draw, gs: Option<Vec<u8>>, combined: bool, p: &mut Prepared<'_>) -> Result<(), String> {
        let dev = &self.device;
        let vs = translate::translate(&d.vs, &translate::Options::default(), translate::Target::Spirv)
            .map_err(|e| format!("translate vs: {e}"))?;
        let gs = match gs {
            Some(gs) => gs,
            None => {
                let options = translate::NativeGsOptions { gs: d.gs_options(), stream_output: Some(d.so.clone()) };
                translate::geometry_spirv(&d.gs, &options).map_err(|e| format!("native gs: {e}"))?
            }
        };
        // Lavapipe's limit is 512 bytes; Direct3D allows 2048.
        d.strides_within(self.max_xfb_stride, "device")?;
        let streams_used: u32 = d.so.entries.iter().map(|e| e.stream + 1).max().unwrap_or(1).min(self.streams.max(1));
        p.streams = streams_used;
        unsafe {
            let o = &mut p.o;
            for code in [&vs, &gs] {
                let words = spirv_words(code);
                let m = dev
                    .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
                    .map_err(|e| format!("vkCreateShaderModule: {e}"))?;
                o.modules.push(m);
            }
            // Set 0: constant buffers; 1: views; 2: samplers; binding = register (the
            // translation's groups and bindings).
            let sampled =
                if combined { vk::DescriptorType::COMBINED_IMAGE_SAMPLER } else { vk::DescriptorType::SAMPLED_IMAGE };
            let sets: [Vec<(u32, vk::DescriptorType)>; 3] = [
                d.cbs.keys().map(|&r| (r, vk::DescriptorType::UNIFORM_BUFFER)).collect(),
                d.views
                    .iter()
                    .map(|(&r, v)| match v {
                        View::Typed(..) => (r, vk::DescriptorType::STORAGE_BUFFER),
                        View::Texture { .. } => (r, sampled),
                    })
                    .collect(),
                if combined {
                    Vec::new()
                } else {
                    d.samplers.iter().map(|&r| (r, vk::DescriptorType::SAMPLER)).collect()
                },
            ];
            for set in &sets {
                let bindings: Vec<vk::DescriptorSetLayoutBinding> = set
                    .iter()
                    .map(|&(r, ty)| {
                        vk::DescriptorSetLayoutBinding::default()
                            .binding(r)
                            .descriptor_type(ty)
                            .descriptor_count(1)
                            .stage_flags(vk::ShaderStageFlags::GEOMETRY)
                    })
                    .collect();
                let l = dev
                    .create_descriptor_set_layout(
                        &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                        None,
                    )
                    .map_err(|e| e.to_string())?;
                o.set_layouts.push(l);
            }
            let set_layouts = o.set_layouts.clone();
            o.layout = dev
                .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts), None)
                .map_err(|e| e.to_string())?;
            let subpasses = [vk::SubpassDescription::default().pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)];
            o.render_pass = dev
                .create_render_pass(&vk::RenderPassCreateInfo::default().subpasses(&subpasses), None)
                .map_err(|e| e.to_string())?;
            o.framebuffer = dev
                .create_framebuffer(
                    &vk::FramebufferCreateInfo::default().render_pass(o.render_pass).width(1).height(1).layers(1),
                    None,
                )
                .map_err(|e| e.to_string())?;
            let stages = [
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::VERTEX)
                    .module(o.modules[0])
                    .name(c"main"),
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::GEOMETRY)
                    .module(o.modules[1])
                    .name(c"main"),
            ];
            let vb_bindings = [vk::VertexInputBindingDescription::default()
                .binding(0)
                .stride(16 * d.stride.max(1))
                .input_rate(vk::VertexInputRate::VERTEX)];
            let format = if d.float_input { vk::Format::R32G32B32A32_SFLOAT } else { vk::Format::R32G32B32A32_UINT };
            let attributes: Vec<vk::VertexInputAttributeDescription> = d
                .input_registers
                .iter()
                .map(|&r| {
                    vk::VertexInputAttributeDescription::default().location(r).binding(0).format(format).offset(16 * r)
                })
                .collect();
            let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
                .vertex_binding_descriptions(&vb_bindings)
                .vertex_attribute_descriptions(&attributes);
            let assembly = vk::PipelineInputAssemblyStateCreateInfo::default().topology(topology(d.topology));
            let viewports = [vk::Viewport { x: 0.0, y: 0.0, width: 1.0, height: 1.0, min_depth: 0.0, max_depth: 1.0 }];
            let scissors =
                [vk::Rect2D { offset: vk::Offset2D { x: 0, y: 0 }, extent: vk::Extent2D { width: 1, height: 1 } }];
            let viewport = vk::PipelineViewportStateCreateInfo::default().viewports(&viewports).scissors(&scissors);
            let raster = vk::PipelineRasterizationStateCreateInfo::default()
                .rasterizer_discard_enable(true)
                .polygon_mode(vk::PolygonMode::FILL)
                .cull_mode(vk::CullModeFlags::NONE)
                .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
                .line_width(1.0);
            let multisample =
                vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(vk::SampleCountFlags::TYPE_1);
            let info = vk::GraphicsPipelineCreateInfo::default()
                .stages(&stages)
                .vertex_input_state(&vertex_input)
                .input_assembly_state(&assembly)
                .viewport_state(&viewport)
                .rasterization_state(&raster)
                .multisample_state(&multisample)
                .layout(o.layout)
                .render_pass(o.render_pass)
                .subpass(0);
            o.pipeline = dev
                .create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
                .map_err(|(_, e)| format!("vkCreateGraphicsPipelines: {e}"))?[0];

            // Buffers: vertices, constant buffers, transform feedback.
            let vb_bytes: Vec<u8> = d.data.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
            let (vb, _) = self.buffer(o, vk::BufferUsageFlags::VERTEX_BUFFER, &vb_bytes, 0)?;
            // Descriptors: (set, binding, type, buffer or image).
            let mut descriptors: Vec<(u32, u32, vk::DescriptorType, Described)> = Vec::new();
            for (&r, cb) in &d.cbs {
                let bytes: Vec<u8> = cb.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
                let (b, _) = self.buffer(o, vk::BufferUsageFlags::UNIFORM_BUFFER, &bytes, 0)?;
                let info = vk::DescriptorBufferInfo { buffer: b, offset: 0, range: bytes.len() as u64 };
                descriptors.push((0, r, vk::DescriptorType::UNIFORM_BUFFER, Described::Buffer([info])));
            }
            // The draw's sampler: point filtering, clamp-to-edge addressing.
            let point_clamp = dev
                .create_sampler(
                    &vk::SamplerCreateInfo::default()
                        .mag_filter(vk::Filter::NEAREST)
                        .min_filter(vk::Filter::NEAREST)
                        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
                        .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                        .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                        .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                        .max_lod(vk::LOD_CLAMP_NONE),
                    None,
                )
                .map_err(|e| format!("vkCreateSampler: {e}"))?;
            o.samplers.push(point_clamp);
            // Texture uploads: (staging buffer, image, width, height, layers).
            let mut uploads = Vec::new();
            for (&r, v) in &d.views {
                match v {
                    View::Typed(_, bytes) => {
                        if bytes.is_empty() || bytes.len() % 4 != 0 {
                            return Err(format!("a typed buffer of {} bytes", bytes.len()));
                        }
                        let (b, _) = self.buffer(o, vk::BufferUsageFlags::STORAGE_BUFFER, bytes, 0)?;
                        let info = vk::DescriptorBufferInfo { buffer: b, offset: 0, range: bytes.len() as u64 };
                        descriptors.push((1, r, vk::DescriptorType::STORAGE_BUFFER, Described::Buffer([info])));
                    }
                    &View::Texture { width, height, layers, array, ref texels } => {
                        let want = 16 * width as usize * height as usize * layers as usize;
                        if texels.len() != want || want == 0 {
                            return Err(format!("a texture of {} bytes, not {want}", texels.len()));
                        }
                        let (staging, _) = self.buffer(o, vk::BufferUsageFlags::TRANSFER_SRC, texels, 0)?;
                        let (image, view) = self.image(o, (width, height, layers, array))?;
                        uploads.push((staging, image, width, height, layers));
                        let info = vk::DescriptorImageInfo {
                            sampler: if combined { point_clamp } else { vk::Sampler::null() },
                            image_view: view,
                            image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                        };
                        descriptors.push((1, r, sampled, Described::Image([info])));
                    }
                }
            }
            if !combined {
                for &r in &d.samplers {
                    let info = vk::DescriptorImageInfo {
                        sampler: point_clamp,
                        image_view: vk::ImageView::null(),
                        image_layout: vk::ImageLayout::UNDEFINED,
                    };
                    descriptors.push((2, r, vk::DescriptorType::SAMPLER, Described::Image([info])));
                }
            }
            let mut xfb_buffers = Vec::new();
            for (slot, &size) in d.so_sizes.iter().enumerate() {
                if size == 0 {
                    continue;
                }
                let (b, ptr) = self.buffer(o, vk::BufferUsageFlags::TRANSFORM_FEEDBACK_BUFFER_EXT, &[], size)?;
                xfb_buffers.push((slot as u32, b, size));
                p.so.push((slot, ptr, size));
            }
            let mut bound_sets = Vec::new();
            if !descriptors.is_empty() {
                let mut counts: BTreeMap<i32, u32> = BTreeMap::new();
                for (_, _, ty, _) in &descriptors {
                    *counts.entry(ty.as_raw()).or_default() += 1;
                }
                let sizes: Vec<vk::DescriptorPoolSize> = counts
                    .iter()
                    .map(|(&ty, &n)| vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::from_raw(ty),
                        descriptor_count: n,
                    })
                    .collect();
                o.descriptor_pool = dev
                    .create_descriptor_pool(
                        &vk::DescriptorPoolCreateInfo::default().max_sets(3).pool_sizes(&sizes),
                        None,
                    )
                    .map_err(|e| e.to_string())?;
                bound_sets = dev
                    .allocate_descriptor_sets(
                        &vk::DescriptorSetAllocateInfo::default()
                            .descriptor_pool(o.descriptor_pool)
                            .set_layouts(&set_layouts),
                    )
                    .map_err(|e| e.to_string())?;
                let writes: Vec<vk::WriteDescriptorSet> = descriptors
                    .iter()
                    .map(|(set, binding, ty, info)| {
                        let w = vk::WriteDescriptorSet::default()
                            .dst_set(bound_sets[*set as usize])
                            .dst_binding(*binding)
                            .descriptor_type(*ty);
                        match info {
                            Described::Buffer(b) => w.buffer_info(b),
                            Described::Image(i) => w.image_info(i),
                        }
                    })
                    .collect();
                dev.update_descriptor_sets(&writes, &[]);
            }

            // Queries: statistics, and per stream the primitives written and needed.
            let flags = STATISTICS.iter().fold(vk::QueryPipelineStatisticFlags::empty(), |a, &b| a | b);
            let stats = dev
                .create_query_pool(
                    &vk::QueryPoolCreateInfo::default()
                        .query_type(vk::QueryType::PIPELINE_STATISTICS)
                        .query_count(1)
                        .pipeline_statistics(flags),
                    None,
                )
                .map_err(|e| e.to_string())?;
            o.queries.push(stats);
            let xfbq = dev
                .create_query_pool(
                    &vk::QueryPoolCreateInfo::default()
                        .query_type(vk::QueryType::TRANSFORM_FEEDBACK_STREAM_EXT)
                        .query_count(streams_used),
                    None,
                )
                .map_err(|e| e.to_string())?;
            o.queries.push(xfbq);

            o.command_pool = dev
                .create_command_pool(
                    &vk::CommandPoolCreateInfo::default()
                        .queue_family_index(self.family)
                        .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER),
                    None,
                )
                .map_err(|e| e.to_string())?;
            let cmd = dev
                .allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(o.command_pool)
                        .level(vk::CommandBufferLevel::PRIMARY)
                        .command_buffer_count(1),
                )
                .map_err(|e| e.to_string())?[0];
            p.cmd = cmd;
            o.fence = dev.create_fence(&vk::FenceCreateInfo::default(), None).map_err(|e| e.to_string())?;

            dev.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default()).map_err(|e| e.to_string())?;
            dev.cmd_reset_query_pool(cmd, stats, 0, 1);
            dev.cmd_reset_query_pool(cmd, xfbq, 0, streams_used);
            for &(staging, image, width, height, layers) in &uploads {
                // Each layout change of an image's layers, between two pipeline stages.
                let transition = |access: [vk::AccessFlags; 2],
                                  layout: [vk::ImageLayout; 2],
                                  stages: [vk::PipelineStageFlags; 2]| {
                    let barrier = [vk::ImageMemoryBarrier::default()
                        .src_access_mask(access[0])
                        .dst_access_mask(access[1])
                        .old_layout(layout[0])
                        .new_layout(layout[1])
                        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                        .image(image)
                        .subresource_range(color_layers(layers))];
                    dev.cmd_pipeline_barrier(
                        cmd,
                        stages[0],
                        stages[1],
                        vk::DependencyFlags::empty(),
                        &[],
                        &[],
                        &barrier,
                    );
                };
                transition(
                    [vk::AccessFlags::empty(), vk::AccessFlags::TRANSFER_WRITE],
                    [vk::ImageLayout::UNDEFINED, vk::ImageLayout::TRANSFER_DST_OPTIMAL],
                    [vk::PipelineStageFlags::TOP_OF_PIPE, vk::PipelineStageFlags::TRANSFER],
                );
                let region = [vk::BufferImageCopy::default()
                    .image_subresource(vk::ImageSubresourceLayers {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
                        mip_level: 0,
                        base_array_layer: 0,
                        layer_count: layers,
                    })
                    .image_extent(vk::Extent3D { width, height, depth: 1 })];
                dev.cmd_copy_buffer_to_image(cmd, staging, image, vk::ImageLayout::TRANSFER_DST_OPTIMAL, &region);
                transition(
                    [vk::AccessFlags::TRANSFER_WRITE, vk::AccessFlags::SHADER_READ],
                    [vk::ImageLayout::TRANSFER_DST_OPTIMAL, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL],
                    [vk::PipelineStageFlags::TRANSFER, vk::PipelineStageFlags::GEOMETRY_SHADER],
                );
            }
            let xfb = self.xfb.fp();
            dev.cmd_begin_query(cmd, stats, 0, vk::QueryControlFlags::empty());
            for s in 0..streams_used {
                (xfb.cmd_begin_query_indexed_ext)(cmd, xfbq, s, vk::QueryControlFlags::empty(), s);
            }
            let area = vk::Rect2D { offset: vk::Offset2D { x: 0, y: 0 }, extent: vk::Extent2D { width: 1, height: 1 } };
            dev.cmd_begin_render_pass(
                cmd,
                &vk::RenderPassBeginInfo::default()
                    .render_pass(o.render_pass)
                    .framebuffer(o.framebuffer)
                    .render_area(area),
                vk::SubpassContents::INLINE,
            );
            dev.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, o.pipeline);
            dev.cmd_bind_vertex_buffers(cmd, 0, &[vb], &[0]);
            if !bound_sets.is_empty() {
                dev.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::GRAPHICS, o.layout, 0, &bound_sets, &[]);
            }
            for &(slot, b, size) in &xfb_buffers {
                let (buffers, offsets, sizes) = ([b], [0u64], [size as u64]);
                (xfb.cmd_bind_transform_feedback_buffers_ext)(
                    cmd,
                    slot,
                    1,
                    buffers.as_ptr(),
                    offsets.as_ptr(),
                    sizes.as_ptr(),
                );
            }
            (xfb.cmd_begin_transform_feedback_ext)(cmd, 0, 0, std::ptr::null(), std::ptr::null());
            dev.cmd_draw(cmd, d.vertices, 1, 0, 0);
            (xfb.cmd_end_transform_feedback_ext)(cmd, 0, 0, std::ptr::null(), std::ptr::null());
            dev.cmd_end_render_pass(cmd);
            for s in 0..streams_used {
                (xfb.cmd_end_query_indexed_ext)(cmd, xfbq, s, s);
            }
            dev.cmd_end_query(cmd, stats, 0);
            dev.end_command_buffer(cmd).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Builds, runs once, reads back.
    pub fn draw(&self, d: &Draw) -> Result<Outcome, String> {
        self.draw_with(d, None, false)
    }

    /// [`Vk::draw`] with the geometry shader's SPIR-V given (see [`Vk::prepare_with`]).
    pub fn draw_with(&self, d: &Draw, gs: Option<Vec<u8>>, combined: bool) -> Result<Outcome, String> {
        let p = self.prepare_with(d, gs, combined)?;
        p.run()?;
        p.read()
    }
}

impl Prepared<'_> {
    /// Submits the recorded draw and waits for it.
    pub fn run(&self) -> Result<(), String> {
        let dev = &self.vk.device;
        unsafe {
            dev.reset_fences(&[self.o.fence]).map_err(|e| e.to_string())?;
            let cmds = [self.cmd];
            dev.queue_submit(self.vk.queue, &[vk::SubmitInfo::default().command_buffers(&cmds)], self.o.fence)
                .map_err(|e| format!("vkQueueSubmit: {e}"))?;
            dev.wait_for_fences(&[self.o.fence], true, u64::MAX).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// The transform-feedback buffers and the queries' results.
    pub fn read(&self) -> Result<Outcome, String> {
        let dev = &self.vk.device;
        let mut so: [Vec<u8>; 4] = Default::default();
        for &(slot, ptr, size) in &self.so {
            let mut v = vec![0u8; size];
            unsafe { std::ptr::copy_nonoverlapping(ptr.cast::<u8>(), v.as_mut_ptr(), size) };
            so[slot] = v;
        }
        let mut stats = [[0u64; 5]; 1];
        let mut xfb = vec![[0u64; 2]; self.streams as usize];
        unsafe {
            dev.get_query_pool_results(
                self.o.queries[0],
                0,
                &mut stats,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
            .map_err(|e| format!("statistics: {e}"))?;
            dev.get_query_pool_results(
                self.o.queries[1],
                0,
                &mut xfb,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
            .map_err(|e| format!("transform-feedback queries: {e}"))?;
        }
        let mut so_stats = [(0u64, 0u64); 4];
        for (s, x) in xfb.iter().enumerate() {
            so_stats[s] = (x[0], x[1]);
        }
        Ok(Outcome { so, so_stats, stats: stats[0] })
    }
}
