//! Shader Model 5.1 ranges of registers on lavapipe: a `cs_5_1` program reading a
//! range of four structured buffers (`T0[2:5]`, an array of storage-buffer descriptors
//! at binding 2) with immediate registers and with a register index marked
//! `NonUniformResourceIndex`, a range of three 2D textures (`T1[6:8]`, an array of
//! sampled-image descriptors at binding 6) loaded (`ld`) through such an index, and a
//! range of two constant buffers (`CB0[0:1]`, an array of uniform-buffer descriptors)
//! indexed by a register holding the thread group's number, is translated to SPIR-V, run
//! on lavapipe through `ash` (the translator's own SPIR-V, descriptor arrays bound at
//! the default places) and compared word for word with the reference interpreter's
//! dispatch (`exec::compute::dispatch`).
//!
//! `exec` runs Shader Model 5.1 ranges with immediate registers (in register space 0)
//! and refuses a register index into a range, so the reference runs the same program
//! with the indexed read written as a `switch` over the range's registers, each case an
//! immediate read: what the index means, element `index - lower` of the array.
//!
//! This lavapipe (Mesa 22.3) has no `VK_EXT_descriptor_indexing`, so no non-uniform
//! indexing of descriptor arrays is promised, only dynamically uniform indexing
//! (Vulkan 1.0's `shader*ArrayDynamicIndexing`): it indexes the storage buffers and
//! sampled images per invocation all the same, but reads one element for every
//! invocation of a group from a uniform-buffer array indexed non-uniformly (the first
//! invocation's), so the constant buffers are indexed by the group's number, uniform
//! within a group. (`wgpu` exposes no binding arrays on it at all.)
//!
//! Without a lavapipe adapter the test prints SKIP and passes, unless
//! `DXREF_REQUIRE_CORPUS=1`.

use ash::vk;
use exec::compute::Limits;
use exec::resources::{Dimension, Resources, Srv, TextureView, Uav};

/// Why there is no device, for the SKIP line and the failure message.
const NO_LAVAPIPE: &str = "no lavapipe device (Debian packages mesa-vulkan-drivers and libvulkan1)";

/// Threads: 2 groups of 8.
const GROUPS: [u32; 3] = [2, 1, 1];
const THREADS: usize = 16;

/// The program on the device: the register index into `T0`.
const INDEXED: &str = "ld_structured r0.z, vThreadID.x, l(0), T0[r1.x + 2].xxxx {nonuniform}
mov r1.y, vThreadGroupID.x
mov r0.w, CB0[r1.y + 0][0].y
ld_indexable(texture2d)(float,float,float,float) r3.xyzw, r2.xyzw, T1[r1.z + 6].xyzw {nonuniform}";

/// The same read for the reference: a switch over the range's registers.
const SWITCHED: &str = "switch r1.x
case l(0)
ld_structured r0.z, vThreadID.x, l(0), T0[2].xxxx
break
case l(1)
ld_structured r0.z, vThreadID.x, l(0), T0[3].xxxx
break
case l(2)
ld_structured r0.z, vThreadID.x, l(0), T0[4].xxxx
break
default
ld_structured r0.z, vThreadID.x, l(0), T0[5].xxxx
break
endswitch
mov r1.y, vThreadGroupID.x
if_nz r1.y
mov r0.w, CB0[1][0].y
else
mov r0.w, CB0[0][0].y
endif
switch r1.z
case l(0)
ld_indexable(texture2d)(float,float,float,float) r3.xyzw, r2.xyzw, T1[6].xyzw
break
case l(1)
ld_indexable(texture2d)(float,float,float,float) r3.xyzw, r2.xyzw, T1[7].xyzw
break
default
ld_indexable(texture2d)(float,float,float,float) r3.xyzw, r2.xyzw, T1[8].xyzw
break
endswitch";

fn program(indexed_read: &str) -> String {
    format!(
        "cs_5_1
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[0:1][1], immediateIndexed, space=0
dcl_resource_structured T0[2:5], 4, space=0
dcl_resource_texture2d (float,float,float,float) T1[6:8], space=0
dcl_uav_structured U0[0:0], 16, space=0
dcl_uav_structured U1[1:1], 16, space=0
dcl_input vThreadGroupID.x
dcl_input vThreadID.x
dcl_temps 4
dcl_thread_group 8, 1, 1
ld_structured r0.x, vThreadID.x, l(0), T0[3].xxxx
ld_structured r0.y, vThreadID.x, l(0), T0[5].xxxx
and r1.x, vThreadID.x, l(3)
umin r1.z, r1.x, l(2)
and r2.x, vThreadID.x, l(3)
ushr r2.y, vThreadID.x, l(2)
and r2.y, r2.y, l(3)
mov r2.zw, l(0,0,0,0)
{indexed_read}
iadd r0.w, r0.w, r1.x
store_structured U0[0].xyzw, vThreadID.x, l(0), r0.xyzw
store_structured U1[1].xyzw, vThreadID.x, l(0), r3.xyzw
ret
"
    )
}

/// The words of structured buffer `t#` (`register` 2..5): distinct in every buffer.
fn buffer_words(register: u32) -> Vec<u8> {
    (0..THREADS as u32).flat_map(|i| ((register << 16) | (i * 7 + 1)).to_le_bytes()).collect()
}

/// Texel (`x`, `y`) of texture `t#` (`register` 6..8).
fn texel(register: u32, x: u32, y: u32) -> [f32; 4] {
    [(register * 100 + y * 4 + x) as f32 + 0.5, register as f32, x as f32, y as f32]
}

/// The texels of texture `t#`, row after row.
fn texels(register: u32) -> Vec<u8> {
    let size = compute::SIZE;
    (0..size * size).flat_map(|k| texel(register, k % size, k / size)).flat_map(f32::to_le_bytes).collect()
}

/// Constant buffer `cb#`'s one vector.
fn constants(register: u32) -> [[u32; 4]; 1] {
    [[register * 100, register * 1000 + 5, 0, 0]]
}

/// The reference's dispatch of `text`: the UAVs' bytes.
fn reference(text: &str) -> [Vec<u8>; 2] {
    let program = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    let plan = exec::Plan::compile(&program, Vec::new(), Vec::new()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let buffers: Vec<Vec<u8>> = (2..6).map(buffer_words).collect();
    let cbs = [constants(0), constants(1)];
    let images: Vec<Vec<u8>> = (6..9).map(texels).collect();
    let [mut u0, mut u1] = [vec![0u8; THREADS * 16], vec![0u8; THREADS * 16]];
    {
        let mut res = Resources::default();
        res.constant_buffers[0] = Some(&cbs[0]);
        res.constant_buffers[1] = Some(&cbs[1]);
        res.srvs = vec![None, None];
        res.srvs.extend(buffers.iter().map(|b| Some(Srv::Structured { data: b, stride: 4 })));
        res.srvs.extend(images.iter().map(|data| {
            let view = TextureView {
                dimension: Dimension::Texture2D,
                format: exec::Format::R32G32B32A32_FLOAT,
                width: compute::SIZE,
                height: compute::SIZE,
                depth: 1,
                array_size: 1,
                mip_levels: 1,
                data,
            };
            Some(Srv::Texture(view))
        }));
        res.uavs = vec![
            Some(Uav::Structured { data: &mut u0, stride: 16, counter: 0 }),
            Some(Uav::Structured { data: &mut u1, stride: 16, counter: 0 }),
        ];
        exec::compute::dispatch(&plan, GROUPS, &mut res, &Limits { step_limit: 1 << 20 }).expect("dispatch");
    }
    [u0, u1]
}

/// The translation of `text` on the device: the UAVs' bytes.
fn on_device(text: &str) -> Result<Vec<Vec<u8>>, String> {
    let program = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    let module = translate::module_from_program(&program, &[], &[], &translate::Options::default())
        .map_err(|e| e.to_string())?;
    let spirv = translate::write(&module, translate::Target::Spirv).map_err(|e| e.to_string())?;
    let words: Vec<u32> = spirv.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    let cbs: Vec<Vec<u8>> = (0..2)
        .map(|r| {
            let mut bytes: Vec<u8> = constants(r).iter().flatten().flat_map(|w| w.to_le_bytes()).collect();
            bytes.resize(256, 0);
            bytes
        })
        .collect();
    let views: Vec<Vec<u8>> = (2..6).map(buffer_words).collect();
    let images: Vec<Vec<u8>> = (6..9).map(texels).collect();
    // The translator's default places: cb# set 0, t# set 1, u# set 3, each range at
    // its first register's binding, an array of descriptors.
    let uav = || vec![vec![0u8; THREADS * 16]];
    let sets = [
        vec![(0, vk::DescriptorType::UNIFORM_BUFFER, cbs)],
        vec![(2, vk::DescriptorType::STORAGE_BUFFER, views), (6, vk::DescriptorType::SAMPLED_IMAGE, images)],
        vec![],
        vec![(0, vk::DescriptorType::STORAGE_BUFFER, uav()), (1, vk::DescriptorType::STORAGE_BUFFER, uav())],
    ];
    compute::run(&words, &sets, GROUPS)
}

/// A compute pipeline on lavapipe through `ash` (`wgpu` exposes no binding arrays on
/// this lavapipe: it wants `VK_EXT_descriptor_indexing`, which arrays of descriptors
/// indexed dynamically do not need).
mod compute {
    use ash::vk;

    /// A descriptor set: its bindings (binding, type, the contents of its array's
    /// elements: a buffer's bytes, or a `SAMPLED_IMAGE`'s texels, [`SIZE`] × [`SIZE`] of
    /// `R32G32B32A32_SFLOAT` row after row).
    pub type Set = Vec<(u32, vk::DescriptorType, Vec<Vec<u8>>)>;

    /// The width and height of every image.
    pub const SIZE: u32 = 4;

    /// Runs the SPIR-V `words` (entry point `main`) over `sets`; returns every buffer
    /// of the last set after the dispatch, in binding and element order.
    pub fn run(words: &[u32], sets: &[Set], groups: [u32; 3]) -> Result<Vec<Vec<u8>>, String> {
        unsafe {
            let entry = ash::Entry::load().map_err(|e| format!("no Vulkan loader: {e}"))?;
            let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_1);
            let instance = entry
                .create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None)
                .map_err(|e| format!("vkCreateInstance: {e}"))?;
            let result = with_instance(&instance, words, sets, groups);
            instance.destroy_instance(None);
            result
        }
    }

    unsafe fn with_instance(
        instance: &ash::Instance,
        words: &[u32],
        sets: &[Set],
        groups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, String> {
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
        if features.shader_storage_buffer_array_dynamic_indexing == 0 {
            return Err("no shaderStorageBufferArrayDynamicIndexing".into());
        }
        let family = instance
            .get_physical_device_queue_family_properties(physical)
            .iter()
            .position(|q| q.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or("no compute queue")? as u32;
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&priorities)];
        let enabled = vk::PhysicalDeviceFeatures {
            shader_storage_buffer_array_dynamic_indexing: vk::TRUE,
            shader_uniform_buffer_array_dynamic_indexing: features.shader_uniform_buffer_array_dynamic_indexing,
            ..Default::default()
        };
        let d = instance
            .create_device(
                physical,
                &vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_features(&enabled),
                None,
            )
            .map_err(|e| format!("vkCreateDevice: {e}"))?;
        let memory = instance.get_physical_device_memory_properties(physical);
        let result = with_device(&d, &memory, family, words, sets, groups);
        let _ = d.device_wait_idle();
        d.destroy_device(None);
        result
    }

    /// A `SIZE` × `SIZE` `R32G32B32A32_SFLOAT` sampled image and its view, to be filled
    /// from staging buffer `staging`.
    unsafe fn image(
        d: &ash::Device,
        memory: &vk::PhysicalDeviceMemoryProperties,
        staging: usize,
    ) -> Result<(vk::Image, vk::DeviceMemory, vk::ImageView, usize), String> {
        let format = vk::Format::R32G32B32A32_SFLOAT;
        let image = d
            .create_image(
                &vk::ImageCreateInfo::default()
                    .image_type(vk::ImageType::TYPE_2D)
                    .format(format)
                    .extent(vk::Extent3D { width: SIZE, height: SIZE, depth: 1 })
                    .mip_levels(1)
                    .array_layers(1)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .tiling(vk::ImageTiling::OPTIMAL)
                    .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST)
                    .initial_layout(vk::ImageLayout::UNDEFINED),
                None,
            )
            .map_err(|e| format!("vkCreateImage: {e}"))?;
        let req = d.get_image_memory_requirements(image);
        let index = (0..memory.memory_type_count).find(|&i| req.memory_type_bits & (1 << i) != 0).ok_or("no memory")?;
        let mem = d
            .allocate_memory(
                &vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(index),
                None,
            )
            .map_err(|e| format!("vkAllocateMemory: {e}"))?;
        d.bind_image_memory(image, mem, 0).map_err(|e| e.to_string())?;
        let view = d
            .create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(vk::ImageViewType::TYPE_2D)
                    .format(format)
                    .subresource_range(COLOR),
                None,
            )
            .map_err(|e| format!("vkCreateImageView: {e}"))?;
        Ok((image, mem, view, staging))
    }

    const COLOR: vk::ImageSubresourceRange = vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    };

    unsafe fn with_device(
        d: &ash::Device,
        memory: &vk::PhysicalDeviceMemoryProperties,
        family: u32,
        words: &[u32],
        sets: &[Set],
        groups: [u32; 3],
    ) -> Result<Vec<Vec<u8>>, String> {
        // Host-visible buffers, mapped: per set, per binding, per element (an image's
        // is the staging buffer its texels are copied from).
        let mut buffers: Vec<(vk::Buffer, vk::DeviceMemory, *mut u8, usize)> = Vec::new();
        let mut images: Vec<(vk::Image, vk::DeviceMemory, vk::ImageView, usize)> = Vec::new();
        let mut made = Vec::new();
        for set in sets {
            let mut bindings = Vec::new();
            for (_, ty, contents) in set {
                let mut elements = Vec::new();
                for data in contents {
                    let usage = match *ty {
                        vk::DescriptorType::UNIFORM_BUFFER => vk::BufferUsageFlags::UNIFORM_BUFFER,
                        vk::DescriptorType::SAMPLED_IMAGE => vk::BufferUsageFlags::TRANSFER_SRC,
                        _ => vk::BufferUsageFlags::STORAGE_BUFFER,
                    };
                    let buffer = d
                        .create_buffer(
                            &vk::BufferCreateInfo::default()
                                .size(data.len() as u64)
                                .usage(usage)
                                .sharing_mode(vk::SharingMode::EXCLUSIVE),
                            None,
                        )
                        .map_err(|e| format!("vkCreateBuffer: {e}"))?;
                    let req = d.get_buffer_memory_requirements(buffer);
                    let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
                    let index = (0..memory.memory_type_count)
                        .find(|&i| {
                            req.memory_type_bits & (1 << i) != 0
                                && memory.memory_types[i as usize].property_flags.contains(want)
                        })
                        .ok_or("no host-visible memory")?;
                    let mem = d
                        .allocate_memory(
                            &vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(index),
                            None,
                        )
                        .map_err(|e| format!("vkAllocateMemory: {e}"))?;
                    d.bind_buffer_memory(buffer, mem, 0).map_err(|e| e.to_string())?;
                    let p = d
                        .map_memory(mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                        .map_err(|e| e.to_string())?
                        .cast::<u8>();
                    std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len());
                    buffers.push((buffer, mem, p, data.len()));
                    elements.push(buffers.len() - 1);
                    if *ty == vk::DescriptorType::SAMPLED_IMAGE {
                        images.push(image(d, memory, buffers.len() - 1)?);
                    }
                }
                bindings.push(elements);
            }
            made.push(bindings);
        }
        let set_layouts: Vec<vk::DescriptorSetLayout> = sets
            .iter()
            .map(|set| {
                let bindings: Vec<vk::DescriptorSetLayoutBinding<'_>> = set
                    .iter()
                    .map(|(binding, ty, contents)| {
                        vk::DescriptorSetLayoutBinding::default()
                            .binding(*binding)
                            .descriptor_type(*ty)
                            .descriptor_count(contents.len() as u32)
                            .stage_flags(vk::ShaderStageFlags::COMPUTE)
                    })
                    .collect();
                d.create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings), None)
            })
            .collect::<Result<_, _>>()
            .map_err(|e| format!("vkCreateDescriptorSetLayout: {e}"))?;
        let sizes = [
            vk::DescriptorPoolSize { ty: vk::DescriptorType::UNIFORM_BUFFER, descriptor_count: 16 },
            vk::DescriptorPoolSize { ty: vk::DescriptorType::STORAGE_BUFFER, descriptor_count: 16 },
            vk::DescriptorPoolSize { ty: vk::DescriptorType::SAMPLED_IMAGE, descriptor_count: 16 },
        ];
        let pool = d
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default().max_sets(sets.len() as u32).pool_sizes(&sizes),
                None,
            )
            .map_err(|e| format!("vkCreateDescriptorPool: {e}"))?;
        let descriptor_sets = d
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&set_layouts),
            )
            .map_err(|e| format!("vkAllocateDescriptorSets: {e}"))?;
        let infos: Vec<Vec<Vec<vk::DescriptorBufferInfo>>> = made
            .iter()
            .map(|set| {
                set.iter()
                    .map(|elements| {
                        elements
                            .iter()
                            .map(|&k| vk::DescriptorBufferInfo {
                                buffer: buffers[k].0,
                                offset: 0,
                                range: vk::WHOLE_SIZE,
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let view_of = |k: usize| images.iter().find(|i| i.3 == k).map(|i| i.2).unwrap_or_default();
        let image_infos: Vec<Vec<Vec<vk::DescriptorImageInfo>>> = made
            .iter()
            .map(|set| {
                set.iter()
                    .map(|elements| {
                        elements
                            .iter()
                            .map(|&k| vk::DescriptorImageInfo {
                                sampler: vk::Sampler::null(),
                                image_view: view_of(k),
                                image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        let mut writes = Vec::new();
        for (s, set) in sets.iter().enumerate() {
            for (b, (binding, ty, _)) in set.iter().enumerate() {
                let write = vk::WriteDescriptorSet::default()
                    .dst_set(descriptor_sets[s])
                    .dst_binding(*binding)
                    .descriptor_type(*ty);
                writes.push(if *ty == vk::DescriptorType::SAMPLED_IMAGE {
                    write.image_info(&image_infos[s][b])
                } else {
                    write.buffer_info(&infos[s][b])
                });
            }
        }
        d.update_descriptor_sets(&writes, &[]);
        let module = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None)
            .map_err(|e| format!("vkCreateShaderModule: {e}"))?;
        let layout = d
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts), None)
            .map_err(|e| format!("vkCreatePipelineLayout: {e}"))?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let pipeline = d
            .create_compute_pipelines(
                vk::PipelineCache::null(),
                &[vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout)],
                None,
            )
            .map_err(|(_, e)| format!("vkCreateComputePipelines: {e}"))?[0];
        let command_pool = d
            .create_command_pool(&vk::CommandPoolCreateInfo::default().queue_family_index(family), None)
            .map_err(|e| e.to_string())?;
        let cmd = d
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default().command_pool(command_pool).command_buffer_count(1),
            )
            .map_err(|e| e.to_string())?[0];
        d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default()).map_err(|e| e.to_string())?;
        // The images' texels, then the images readable by the shader.
        let barrier = |image, from, to, src, dst| {
            vk::ImageMemoryBarrier::default()
                .image(image)
                .old_layout(from)
                .new_layout(to)
                .src_access_mask(src)
                .dst_access_mask(dst)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .subresource_range(COLOR)
        };
        for &(image, _, _, staging) in &images {
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[barrier(
                    image,
                    vk::ImageLayout::UNDEFINED,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    vk::AccessFlags::empty(),
                    vk::AccessFlags::TRANSFER_WRITE,
                )],
            );
            let region = vk::BufferImageCopy::default()
                .image_subresource(vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                })
                .image_extent(vk::Extent3D { width: SIZE, height: SIZE, depth: 1 });
            d.cmd_copy_buffer_to_image(
                cmd,
                buffers[staging].0,
                image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &[region],
            );
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[barrier(
                    image,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                    vk::AccessFlags::TRANSFER_WRITE,
                    vk::AccessFlags::SHADER_READ,
                )],
            );
        }
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
        d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, layout, 0, &descriptor_sets, &[]);
        d.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
        d.end_command_buffer(cmd).map_err(|e| e.to_string())?;
        let fence = d.create_fence(&vk::FenceCreateInfo::default(), None).map_err(|e| e.to_string())?;
        let queue = d.get_device_queue(family, 0);
        let cmds = [cmd];
        d.queue_submit(queue, &[vk::SubmitInfo::default().command_buffers(&cmds)], fence)
            .map_err(|e| format!("vkQueueSubmit: {e}"))?;
        d.wait_for_fences(&[fence], true, u64::MAX).map_err(|e| e.to_string())?;
        let last: Vec<usize> = made.last().into_iter().flatten().flatten().copied().collect();
        let out = last.iter().map(|&k| std::slice::from_raw_parts(buffers[k].2, buffers[k].3).to_vec()).collect();
        for (image, mem, view, _) in images {
            d.destroy_image_view(view, None);
            d.destroy_image(image, None);
            d.free_memory(mem, None);
        }
        d.destroy_fence(fence, None);
        d.destroy_command_pool(command_pool, None);
        d.destroy_pipeline(pipeline, None);
        d.destroy_pipeline_layout(layout, None);
        d.destroy_shader_module(module, None);
        d.destroy_descriptor_pool(pool, None);
        for l in set_layouts {
            d.destroy_descriptor_set_layout(l, None);
        }
        for (buffer, mem, _, _) in buffers {
            d.destroy_buffer(buffer, None);
            d.free_memory(mem, None);
        }
        Ok(out)
    }
}

fn words(bytes: &[u8]) -> Vec<[u32; 4]> {
    bytes
        .chunks_exact(16)
        .map(|v| std::array::from_fn(|k| u32::from_le_bytes(v[4 * k..4 * k + 4].try_into().unwrap())))
        .collect()
}

#[test]
fn ranges_of_buffers_and_textures_on_lavapipe_match_the_reference() {
    if std::env::var_os("LP_NUM_THREADS").is_none() {
        std::env::set_var("LP_NUM_THREADS", "1");
    }
    let expected: Vec<Vec<[u32; 4]>> = reference(&program(SWITCHED)).iter().map(|u| words(u)).collect();
    // The reference itself: every thread read buffers 3 and 5, buffer 2 + (i & 3), the
    // y of the constant buffer its group's number names, and texel (i & 3, i >> 2) of
    // texture 6 + min(i & 3, 2).
    for i in 0..THREADS as u32 {
        let word = |r: u32| (r << 16) | (i * 7 + 1);
        let v = expected[0][i as usize];
        assert_eq!(v, [word(3), word(5), word(2 + (i & 3)), (i & 3) + 1000 * (i / 8) + 5], "thread {i}");
        let t = texel(6 + (i & 3).min(2), i & 3, (i >> 2) & 3).map(f32::to_bits);
        assert_eq!(expected[1][i as usize], t, "thread {i}");
    }
    let got: Vec<Vec<[u32; 4]>> = match on_device(&program(INDEXED)) {
        Ok(uavs) => uavs.iter().map(|u| words(u)).collect(),
        Err(why) if why.starts_with("no ") => {
            assert!(!corpus::required(), "lavapipe_binding_arrays: {NO_LAVAPIPE}: {why}");
            println!("SKIP lavapipe_binding_arrays: {NO_LAVAPIPE}: {why}");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    assert_eq!(got, expected);
    // The switched form translates too and gives the same words.
    let got: Vec<Vec<[u32; 4]>> = on_device(&program(SWITCHED)).unwrap().iter().map(|u| words(u)).collect();
    assert_eq!(got, expected);
}
