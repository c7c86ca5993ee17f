//! The Direct3D 11 device model: a shader from arbitrary container bytes created as
//! every stage and as a geometry shader with an arbitrary stream-output declaration,
//! then an arbitrary sequence of context calls (buffers, stream-output targets, vertex
//! buffers, topologies, draws, `DrawAuto`, clear state). The first 256 bytes drive the
//! calls (`arbitrary`); the rest is the bytecode.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use d3d11::{
    BindFlags, Buffer, BufferDesc, Device, DeviceDesc, FeatureLevel, InputElement, Runtime, Shader, SoEntry,
    StreamOutputDesc, Topology,
};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 6] = ["SV_Position", "TEXCOORD", "COLOR", "POSITION", "SV_POSITION", "NORMAL"];

#[derive(Arbitrary, Debug)]
struct Entry {
    stream: u8,
    name: Option<u8>,
    semantic_index: u8,
    start_component: u8,
    component_count: u8,
    output_slot: u8,
}

#[derive(Arbitrary, Debug)]
enum Call {
    CreateBuffer { size: u16, flags: u8 },
    SoSetTargets { first: u8, count: u8, offset: u16 },
    SetVertexBuffer { buffer: u8, stride: u8, offset: u8 },
    SetTopology(u8),
    SetInputLayout,
    SetShaders { vs: bool, gs: bool },
    Draw { count: u8, start: u8 },
    DrawInstanced { count: u8, instances: u8 },
    DrawAuto,
    ClearState,
}

const TOPOLOGIES: [Topology; 9] = Topology::ALL;

fn run(u: &mut Unstructured<'_>, bytecode: &[u8]) -> arbitrary::Result<()> {
    let level = FeatureLevel::ALL[usize::from(u8::arbitrary(u)?) % FeatureLevel::ALL.len()];
    let runtime = if bool::arbitrary(u)? { Runtime::D3D11_1 } else { Runtime::D3D11_0 };
    let device = Device::new(DeviceDesc::new(level, runtime).uavs_at_every_stage(bool::arbitrary(u)?));
    let length = if bool::arbitrary(u)? { bytecode.len() } else { usize::from(u16::arbitrary(u)?) };
    // Every create call on the bytecode, with and without an out parameter.
    let mut vs: Option<Shader> = None;
    let mut gs: Option<Shader> = None;
    let mut other = None;
    let _ = device.create_vertex_shader(bytecode, length, None, Some(&mut vs));
    let _ = device.create_geometry_shader(bytecode, length, None, Some(&mut gs));
    let _ = device.create_pixel_shader(bytecode, length, None, Some(&mut other));
    let _ = device.create_hull_shader(bytecode, length, None, None);
    let _ = device.create_domain_shader(bytecode, length, None, None);
    let _ = device.create_compute_shader(bytecode, length, None, None);
    if let Ok(linkage) = device.create_class_linkage() {
        let _ = device.create_pixel_shader(bytecode, length, Some(&linkage), Some(&mut other));
    }
    let entries: Vec<Entry> = u.arbitrary_iter()?.take(16).collect::<Result<_, _>>()?;
    let so = StreamOutputDesc {
        entries: entries
            .iter()
            .map(|e| SoEntry {
                stream: u32::from(e.stream % 5),
                semantic_name: e.name.map(|n| NAMES[usize::from(n) % NAMES.len()].to_string()),
                semantic_index: u32::from(e.semantic_index % 4),
                start_component: e.start_component % 5,
                component_count: e.component_count % 6,
                output_slot: e.output_slot % 5,
            })
            .collect(),
        strides: u.arbitrary_iter::<u8>()?.take(5).map(|s| s.map(|s| u32::from(s) * 4)).collect::<Result<_, _>>()?,
        rasterized_stream: u32::from(u8::arbitrary(u)? % 6),
    };
    let mut so_gs = None;
    let created = device.create_geometry_shader_with_stream_output(bytecode, length, &so, None, Some(&mut so_gs));
    let _ = created.succeeded();
    if so_gs.is_some() {
        gs = so_gs;
    }
    let mut context = device.immediate_context();
    context.set_step_limit(10_000);
    context.set_capture(bool::arbitrary(u)?);
    let mut buffers: Vec<Buffer> = Vec::new();
    let calls: Vec<Call> = u.arbitrary_iter()?.take(32).collect::<Result<_, _>>()?;
    for call in calls {
        match call {
            Call::CreateBuffer { size, flags } => {
                let desc = BufferDesc::new(u32::from(size % 4096), BindFlags(u32::from(flags) & BindFlags::ALL.0));
                if let Ok(b) = device.create_buffer(&desc, None) {
                    buffers.push(b);
                }
            }
            Call::SoSetTargets { first, count, offset } => {
                let chosen: Vec<Option<Buffer>> =
                    (0..usize::from(count % 5)).map(|i| buffers.get(usize::from(first) + i).cloned()).collect();
                let offsets = vec![u32::from(offset); chosen.len()];
                context.so_set_targets(&chosen, &offsets);
            }
            Call::SetVertexBuffer { buffer, stride, offset } => {
                let b = buffers.get(usize::from(buffer)).cloned();
                context.ia_set_vertex_buffers(0, &[b], &[u32::from(stride)], &[u32::from(offset)]);
            }
            Call::SetTopology(t) => context.ia_set_primitive_topology(TOPOLOGIES[usize::from(t) % TOPOLOGIES.len()]),
            Call::SetInputLayout => {
                let Some(shader) = &vs else { continue };
                let elements: Vec<InputElement> = dxbc::Container::parse(shader.bytecode())
                    .ok()
                    .and_then(|c| c.chunk_any(&[dxbc::FourCc::ISGN, dxbc::FourCc::ISG1]).map(|ch| (ch.fourcc, ch.data)))
                    .and_then(|(f, d)| dxbc::Signature::parse(d, dxbc::SignatureFormat::for_fourcc(f)?).ok())
                    .map(|sig| {
                        sig.elements
                            .iter()
                            .filter(|e| u32::from(e.system_value) == 0)
                            .map(|e| InputElement {
                                semantic_name: e.semantic_name.to_string(),
                                semantic_index: e.semantic_index,
                                format: exec::Format::R32G32B32A32_FLOAT,
                                input_slot: 0,
                                aligned_byte_offset: exec::pipeline::APPEND_ALIGNED,
                                per_instance: false,
                                instance_data_step_rate: 0,
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                if let Ok(layout) = device.create_input_layout(&elements, shader.bytecode()) {
                    context.ia_set_input_layout(Some(&layout));
                }
            }
            Call::SetShaders { vs: v, gs: g } => {
                let _ = context.vs_set_shader(if v { vs.as_ref() } else { None }, &[]);
                let _ = context.gs_set_shader(if g { gs.as_ref() } else { None }, &[]);
            }
            Call::Draw { count, start } => {
                let _ = context.draw(u32::from(count % 64), u32::from(start % 8));
            }
            Call::DrawInstanced { count, instances } => {
                let _ = context.draw_instanced(u32::from(count % 32), u32::from(instances % 4), 0, 0);
            }
            Call::DrawAuto => {
                let _ = context.draw_auto();
            }
            Call::ClearState => context.clear_state(),
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let split = data.len().min(256);
    let (control, bytecode) = data.split_at(split);
    let _ = run(&mut Unstructured::new(control), bytecode);
});
