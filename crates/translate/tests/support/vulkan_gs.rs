//! A Vulkan graphics pipeline on lavapipe through `ash` for native geometry shaders
//! (wgpu has no geometry stage): the translated vertex shader (naga's SPIR-V), the
//! native geometry shader ([`translate::geometry_spirv`]) with the draw's stream output
//! as transform feedback, rasterizer discard; one draw, with pipeline-statistics and
//! transform-feedback-stream queries, read back.
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
    pub so: streamout::StreamOutputDesc,
    /// Bytes of each slot's buffer.
    pub so_sizes: [usize; 4],
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
    set_layout: vk::DescriptorSetLayout,
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
            d.destroy_descriptor_set_layout(o.set_layout, None);
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
        self.prepare_with(d, None)
    }

    /// [`Vk::prepare`] with the geometry shader's SPIR-V given (`None`: the native
    /// SPIR-V geometry shader of `d.gs` with `d.so`).
    pub fn prepare_with(&self, d: &Draw, gs: Option<Vec<u8>>) -> Result<Prepared<'_>, String> {
        let mut p =
            Prepared { vk: self, o: Objects::default(), cmd: vk::CommandBuffer::null(), so: Vec::new(), streams: 0 };
        self.build(d, gs, &mut p)?;
        Ok(p)
    }

    fn build(&self, d: &Draw, gs: Option<Vec<u8>>, p: &mut Prepared<'_>) -> Result<(), String> {
        let dev = &self.device;
        let vs = translate::translate(&d.vs, &translate::Options::default(), translate::Target::Spirv)
            .map_err(|e| format!("translate vs: {e}"))?;
        let gs = match gs {
            Some(gs) => gs,
            None => {
                let options =
                    translate::NativeGsOptions { gs: translate::Options::default(), stream_output: Some(d.so.clone()) };
                translate::geometry_spirv(&d.gs, &options).map_err(|e| format!("native gs: {e}"))?
            }
        };
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
            // Constant buffers: set 0, binding = register (the translation's group 0).
            let bindings: Vec<vk::DescriptorSetLayoutBinding> = d
                .cbs
                .keys()
                .map(|&r| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(r)
                        .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::GEOMETRY)
                })
                .collect();
            o.set_layout = dev
                .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings), None)
                .map_err(|e| e.to_string())?;
            let set_layouts = [o.set_layout];
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
            let mut cb_buffers = Vec::new();
            for (&r, cb) in &d.cbs {
                let bytes: Vec<u8> = cb.iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
                let (b, _) = self.buffer(o, vk::BufferUsageFlags::UNIFORM_BUFFER, &bytes, 0)?;
                cb_buffers.push((r, b, bytes.len()));
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
            let mut set = None;
            if !cb_buffers.is_empty() {
                let sizes = [vk::DescriptorPoolSize {
                    ty: vk::DescriptorType::UNIFORM_BUFFER,
                    descriptor_count: cb_buffers.len() as u32,
                }];
                o.descriptor_pool = dev
                    .create_descriptor_pool(
                        &vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes),
                        None,
                    )
                    .map_err(|e| e.to_string())?;
                let s = dev
                    .allocate_descriptor_sets(
                        &vk::DescriptorSetAllocateInfo::default()
                            .descriptor_pool(o.descriptor_pool)
                            .set_layouts(&set_layouts),
                    )
                    .map_err(|e| e.to_string())?[0];
                let infos: Vec<[vk::DescriptorBufferInfo; 1]> = cb_buffers
                    .iter()
                    .map(|&(_, b, n)| [vk::DescriptorBufferInfo { buffer: b, offset: 0, range: n as u64 }])
                    .collect();
                let writes: Vec<vk::WriteDescriptorSet> = cb_buffers
                    .iter()
                    .zip(&infos)
                    .map(|(&(r, _, _), info)| {
                        vk::WriteDescriptorSet::default()
                            .dst_set(s)
                            .dst_binding(r)
                            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                            .buffer_info(info)
                    })
                    .collect();
                dev.update_descriptor_sets(&writes, &[]);
                set = Some(s);
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
            if let Some(s) = set {
                dev.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::GRAPHICS, o.layout, 0, &[s], &[]);
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
        self.draw_with(d, None)
    }

    /// [`Vk::draw`] with the geometry shader's SPIR-V given (see [`Vk::prepare_with`]).
    pub fn draw_with(&self, d: &Draw, gs: Option<Vec<u8>>) -> Result<Outcome, String> {
        let p = self.prepare_with(d, gs)?;
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
