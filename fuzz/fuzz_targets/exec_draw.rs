//! One draw through the reference pipeline with a program from arbitrary container
//! bytes (the vertex or geometry shader), resources of the kinds the program declares
//! (`exec::Plan::bindings`) bound at its slots and filled with input bytes, and a
//! topology, draw call, vertex data and up to two class instances (interface slot,
//! function table, `this[]` words) the first bytes pick. The draw returns a result or
//! an `ExecError`, bounded by its step limit.
#![no_main]
use exec::pipeline::{self, DrawCall, InputElement, Pipeline, Topology, VertexBuffer, APPEND_ALIGNED};
use exec::resources::{Dimension, Sampler, Srv, TextureView, Uav};
use exec::{BindingKind, Format, Plan, Resources};
use libfuzzer_sys::fuzz_target;

const TOPOLOGIES: [Topology; 9] = Topology::ALL;

/// Bytes before the container: topology, draw call, checking (0..6), then the class
/// instances: their count (6) and six bytes each from 8 (slot, table, `this` x y z w).
const CONTROL: usize = 20;

/// The class instances the control bytes bind: small slots and tables (so that they
/// land on declared slots and listed tables, or just miss them: the bound-table and
/// error paths), `this` words as given (constant buffer, element, texture, sampler:
/// the `this[]`-indexed reads, in range or not).
fn class_instances(control: &[u8]) -> exec::ClassInstances {
    let mut out = exec::ClassInstances::new();
    let count = usize::from(control[6] % 3);
    for k in control[8..].chunks_exact(6).take(count) {
        let this = [k[2], k[3], k[4], k[5]].map(u32::from);
        out.bind(u32::from(k[0] % 8), exec::ClassInstance { table: u32::from(k[1] % 8), this });
    }
    out
}

/// A small texture of the declared dimension (4x4, 2 slices where it has slices).
fn texture(dimension: tpf::ResourceDimension, samples: u8, data: &[u8]) -> Option<TextureView<'_>> {
    use tpf::ResourceDimension as R;
    let (dimension, height, depth, array_size) = match dimension {
        R::Texture1D => (Dimension::Texture1D, 1, 1, 1),
        R::Texture1DArray => (Dimension::Texture1DArray, 1, 1, 2),
        R::Texture2D => (Dimension::Texture2D, 4, 1, 1),
        R::Texture2DArray => (Dimension::Texture2DArray, 4, 1, 2),
        R::Texture3D => (Dimension::Texture3D, 4, 4, 1),
        R::TextureCube | R::TextureCubeArray => (Dimension::TextureCube, 4, 1, 6),
        R::Texture2DMS => (Dimension::Texture2DMS { samples: u32::from(samples.max(1)) }, 4, 1, 1),
        R::Texture2DMSArray => (Dimension::Texture2DMSArray { samples: u32::from(samples.max(1)) }, 4, 1, 2),
        _ => return None,
    };
    Some(TextureView {
        dimension,
        format: Format::R32G32B32A32_FLOAT,
        width: 4,
        height,
        depth,
        array_size,
        mip_levels: 1,
        data,
    })
}

fuzz_target!(|data: &[u8]| {
    if data.len() < CONTROL {
        return;
    }
    let (control, blob) = data.split_at(CONTROL);
    let Ok(plan) = Plan::from_bytecode(blob) else { return };
    let (vs, gs) = match plan.stage {
        tpf::ProgramType::Vertex => (Some(&plan), None),
        tpf::ProgramType::Geometry => (None, Some(&plan)),
        _ => return,
    };
    // Every non-system input from slot 0, four floats each.
    let layout: Vec<InputElement> = plan
        .input_signature
        .iter()
        .filter(|e| e.system_value == 0)
        .map(|e| InputElement {
            semantic_name: e.semantic_name.clone(),
            semantic_index: e.semantic_index,
            format: Format::R32G32B32A32_FLOAT,
            input_slot: 0,
            aligned_byte_offset: APPEND_ALIGNED,
            per_instance: false,
            instance_data_step_rate: 0,
        })
        .collect();
    let stride = 16 * layout.len() as u32;
    // Resource memory: the input bytes, repeated to a fixed size.
    let memory: Vec<u8> = blob.iter().copied().cycle().take(4096).collect();
    let vectors: Vec<[u32; 4]> = memory
        .chunks_exact(16)
        .map(|c| std::array::from_fn(|i| u32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap())))
        .collect();
    let mut uav_memory: Vec<Vec<u8>> = plan.bindings.iter().map(|_| memory[..1024].to_vec()).collect();
    let mut resources = Resources { class_instances: class_instances(control), ..Resources::default() };
    let mut uav_memory_iter = uav_memory.iter_mut();
    for b in &plan.bindings {
        let slot = b.slot as usize;
        match b.kind {
            BindingKind::ConstantBuffer { vectors: n } => {
                if let Some(cb) = resources.constant_buffers.get_mut(slot) {
                    *cb = Some(&vectors[..(n as usize).min(vectors.len())]);
                }
            }
            BindingKind::Sampler { comparison } => {
                if let Some(s) = resources.samplers.get_mut(slot) {
                    let comparison = comparison.then_some(exec::resources::ComparisonFunc::Less);
                    *s = Some(Sampler { comparison, ..Sampler::default() });
                }
            }
            BindingKind::Texture { .. } | BindingKind::RawBuffer | BindingKind::StructuredBuffer { .. }
                if slot < 128 =>
            {
                let srv = match b.kind {
                    BindingKind::RawBuffer => Some(Srv::Raw { data: &memory }),
                    BindingKind::StructuredBuffer { stride } => Some(Srv::Structured { data: &memory, stride }),
                    BindingKind::Texture { dimension: tpf::ResourceDimension::Buffer, .. } => {
                        Some(Srv::Buffer { data: &memory, format: Format::R32G32B32A32_FLOAT })
                    }
                    BindingKind::Texture { dimension, samples } => {
                        texture(dimension, samples, &memory).map(Srv::Texture)
                    }
                    _ => None,
                };
                if resources.srvs.len() <= slot {
                    resources.srvs.resize_with(slot + 1, || None);
                }
                resources.srvs[slot] = srv;
            }
            BindingKind::TypedUav { .. } | BindingKind::RawUav | BindingKind::StructuredUav { .. } if slot < 64 => {
                let Some(mem) = uav_memory_iter.next() else { continue };
                let uav = match b.kind {
                    BindingKind::RawUav => Some(Uav::Raw { data: mem }),
                    BindingKind::StructuredUav { stride } => Some(Uav::Structured { data: mem, stride, counter: 0 }),
                    BindingKind::TypedUav { dimension: tpf::ResourceDimension::Buffer } => {
                        Some(Uav::Buffer { data: mem, format: Format::R32_UINT })
                    }
                    BindingKind::TypedUav { dimension } => match texture(dimension, 1, &[]) {
                        Some(view) => Some(Uav::Texture { view, data: mem }),
                        None => None,
                    },
                    _ => None,
                };
                if resources.uavs.len() <= slot {
                    resources.uavs.resize_with(slot + 1, || None);
                }
                resources.uavs[slot] = uav;
            }
            _ => {}
        }
    }
    let vertex_data: &[u8] = &memory[..1024];
    let buffers = [Some(VertexBuffer { data: vertex_data, stride, offset: 0 })];
    let topology = TOPOLOGIES[usize::from(control[0]) % TOPOLOGIES.len()];
    let count = u32::from(control[1] % 32);
    let call = match control[2] % 3 {
        0 => DrawCall::Draw { vertex_count: count, start_vertex: u32::from(control[3] % 4) },
        1 => DrawCall::DrawInstanced {
            vertex_count_per_instance: count,
            instance_count: u32::from(control[3] % 4),
            start_vertex: 0,
            start_instance: u32::from(control[4] % 4),
        },
        _ => DrawCall::DrawAuto,
    };
    let mut pipeline = Pipeline {
        input_layout: &layout,
        vertex_buffers: &buffers,
        index_buffer: None,
        topology,
        vs,
        gs,
        vs_resources: resources,
        gs_resources: Resources::default(),
        stream_output: None,
        capture: true,
        step_limit: 20_000,
        checking: control[5] & 1 != 0,
    };
    if gs.is_some() {
        // The geometry shader's bindings are its own; the UAVs stay with the VS set.
        let Resources { constant_buffers, srvs, samplers, uavs, class_instances } =
            std::mem::take(&mut pipeline.vs_resources);
        pipeline.gs_resources = Resources { constant_buffers, srvs, samplers, uavs: Vec::new(), class_instances };
        pipeline.vs_resources.uavs = uavs;
    }
    let _ = pipeline::draw(&mut pipeline, call);
});
