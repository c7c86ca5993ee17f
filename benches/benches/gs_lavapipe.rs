//! The geometry-shader workloads of `../shared/bench/GS-WORKLOADS.md` lowered to compute
//! (`translate::lower`: vertex, expand, scan and compact passes) and run on Mesa's
//! lavapipe through `wgpu`, beside the reference pipeline (`exec::pipeline::draw`, one
//! core) on the same draw, in emitted vertices per second:
//!
//! - `gs_lavapipe/quad_lowered`, `gs_lavapipe/quad_exec`: 1,000,000 points to quads;
//! - `gs_lavapipe/cube_lowered`, `gs_lavapipe/cube_exec`: 100,000 triangles to six
//!   faces through `dcl_gsinstances 6` (the workload's 200,000 would need a 230 MB
//!   slots buffer, beyond lavapipe's 128 MiB storage-buffer binding limit).
//!
//! A lowered iteration is one submission of the four dispatches and the wait for it
//! (buffers and pipelines are made once); lavapipe uses its own threads
//! (`LP_NUM_THREADS` sets how many). Before timing, the lowered draw's stream-output
//! bytes and statistics are checked equal to the reference's. Without a lavapipe
//! adapter the benchmark prints SKIP and times nothing.

use std::collections::BTreeMap;

use corpus::gs_workloads::{face_matrix_rows, vertex_buffer};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use exec::pipeline::{self, DrawCall, InputElement, Pipeline, SoTarget, StreamOutput, Topology, VertexBuffer};
use exec::{Format, Plan, Resources};
use translate::gs::{GS_COMPUTE_GROUP, GS_COMPUTE_WORKGROUP, GS_STREAM_OUTPUT_GROUP};
use translate::GsOptions;

#[path = "../../crates/translate/tests/support/lavapipe.rs"]
mod lavapipe;

const SIGNATURE_POS: &str = "//\n// Input signature:\n//\n\
// Name                 Index   Mask Register SysValue  Format   Used\n\
// -------------------- ----- ------ -------- -------- ------- ------\n\
// POSITION                 0   xyzw        0     NONE   float   xyzw\n//\n";

fn sig(title: &str, rows: &[(&str, &str, u32, &str, &str)]) -> String {
    let mut s = format!(
        "//\n// {title}:\n//\n// Name                 Index   Mask Register SysValue  Format   Used\n// -------------------- ----- ------ -------- -------- ------- ------\n"
    );
    for (name, mask, register, sv, format) in rows {
        s += &format!("// {name:<20}     0   {mask:<4} {register:>8} {sv:>8} {format:>7}   {mask:<4}\n");
    }
    s + "//\n"
}

fn assemble(text: &str) -> Vec<u8> {
    listing::asm::assemble(text, &listing::asm::AsmOptions::default()).expect("benchmark shader").bytes
}

fn vs() -> Vec<u8> {
    assemble(&format!(
        "{SIGNATURE_POS}{}vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret\n",
        sig("Output signature", &[("SV_Position", "xyzw", 0, "POS", "float")])
    ))
}

fn quad_gs() -> Vec<u8> {
    let mut body = String::new();
    for (dx, dy) in [(-0.1, -0.1), (0.1, -0.1), (-0.1, 0.1), (0.1, 0.1)] {
        body += &format!("add o0.xyzw, v[0][0].xyzw, l({dx:.6}, {dy:.6}, 0.000000, 0.000000)\nemit\n");
    }
    let pos = sig("Input signature", &[("SV_Position", "xyzw", 0, "POS", "float")]);
    let out = sig("Output signature", &[("SV_Position", "xyzw", 0, "POS", "float")]);
    assemble(&format!(
        "{pos}{out}gs_4_0\ndcl_input_siv v[1][0].xyzw, position\ndcl_inputprimitive point\n\
         dcl_outputtopology trianglestrip\ndcl_output_siv o0.xyzw, position\ndcl_maxout 4\n{body}cut\nret\n"
    ))
}

fn cube_gs() -> Vec<u8> {
    let mut body = String::from("ishl r0.x, vGSInstanceID.x, l(2)\n");
    for k in 0..3 {
        for (c, letter) in ["x", "y", "z", "w"].iter().enumerate() {
            body += &format!("dp4 o0.{letter}, v[{k}][0].xyzw, cb0[r0.x + {c}].xyzw\n");
        }
        body += "mov o1.x, vGSInstanceID.x\nmov o2.x, vGSInstanceID.x\nemit\n";
    }
    let pos = sig("Input signature", &[("SV_Position", "xyzw", 0, "POS", "float")]);
    let out = sig(
        "Output signature",
        &[
            ("SV_Position", "xyzw", 0, "POS", "float"),
            ("SV_RenderTargetArrayIndex", "x", 1, "RTINDEX", "uint"),
            ("FACE", "x", 2, "NONE", "uint"),
        ],
    );
    assemble(&format!(
        "{pos}{out}gs_5_0\ndcl_constantbuffer cb0[24], dynamicIndexed\ndcl_input_siv v[3][0].xyzw, position\n\
         dcl_input vGSInstanceID\ndcl_temps 1\ndcl_inputprimitive triangle\ndcl_outputtopology trianglestrip\n\
         dcl_output_siv o0.xyzw, position\ndcl_output_siv o1.x, rendertarget_array_index\ndcl_output o2.x\n\
         dcl_maxout 3\ndcl_gsinstances 6\n{body}ret\n"
    ))
}

/// One workload: shaders, vertices, topology, constants, stream output.
struct Workload {
    vs: Vec<u8>,
    gs: Vec<u8>,
    vertices: Vec<u8>,
    count: u32,
    topology: Topology,
    constants: Option<Vec<[u32; 4]>>,
    so: streamout::StreamOutputDesc,
    so_bytes: usize,
    emitted: u64,
}

fn so(text: &str, stride: u32) -> streamout::StreamOutputDesc {
    let mut d: streamout::StreamOutputDesc = text.parse().expect("declaration");
    d.strides = vec![stride];
    d
}

/// The reference draw: the stream-output bytes and statistics.
fn reference(w: &Workload, vs: &Plan, gs: &Plan, memory: &mut [u8]) -> (u64, u64, u64) {
    let layout = [InputElement {
        semantic_name: "POSITION".into(),
        semantic_index: 0,
        format: Format::R32G32B32A32_FLOAT,
        input_slot: 0,
        aligned_byte_offset: 0,
        per_instance: false,
        instance_data_step_rate: 0,
    }];
    let buffers = [Some(VertexBuffer { data: &w.vertices, stride: 16, offset: 0 })];
    let mut gs_resources = Resources::default();
    gs_resources.constant_buffers[0] = w.constants.as_deref();
    let mut state = Pipeline {
        input_layout: &layout,
        vertex_buffers: &buffers,
        index_buffer: None,
        topology: w.topology,
        vs: Some(vs),
        gs: Some(gs),
        vs_resources: Resources::default(),
        gs_resources,
        stream_output: Some(StreamOutput {
            declaration: &w.so,
            targets: [Some(SoTarget { data: memory, offset: 0 }), None, None, None],
        }),
        capture: false,
        step_limit: exec::Machine::DEFAULT_STEP_LIMIT,
        checking: false,
    };
    let r = pipeline::draw(&mut state, DrawCall::Draw { vertex_count: w.count, start_vertex: 0 }).expect("draw");
    (r.so_statistics[0].num_primitives_written, r.statistics.gs_invocations, r.statistics.gs_primitives)
}

/// A pass: its pipeline, its bind groups by group number, its workgroup count.
type Pass = (wgpu::ComputePipeline, Vec<(u32, wgpu::BindGroup)>, u32);

/// Which buffer a pass binds at each (group, binding).
type Table<'b> = Vec<((u32, u32), &'b wgpu::Buffer)>;

/// The lowered draw's device state: buffers, pipelines and bind groups, made once.
struct Lowered {
    passes: Vec<Pass>,
    buffers: BTreeMap<(u32, u32, usize), wgpu::Buffer>,
}

impl Lowered {
    fn new(gpu: &lavapipe::Gpu, w: &Workload) -> Lowered {
        let options = GsOptions {
            topology: w.topology,
            stream_output: Some(w.so.clone()),
            vs: translate::Options::default(),
            gs: translate::Options::default(),
        };
        let low = translate::lower(&w.vs, &w.gs, &options).expect("lowering");
        let l = &low.layout;
        let d = &gpu.device;
        let prims = w.topology.primitives(w.count) as u64;
        let inv = prims * l.instances as u64;
        let (max, slot, regs) = (l.max_vertices as u64, l.slot() as u64, l.registers as u64);
        let new = |size: u64, usage: wgpu::BufferUsages| {
            d.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: size.max(16).next_multiple_of(16),
                usage: usage
                    | wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let plain = wgpu::BufferUsages::empty();
        let vin = new(w.vertices.len() as u64, plain);
        gpu.queue.write_buffer(&vin, 0, &w.vertices);
        let vout = new(w.count as u64 * l.vs_outputs as u64 * 16, plain);
        let slots = new(inv * max * slot * 16, plain);
        let prim_list = new(inv * max * 16, plain);
        let counts = new(inv * 32, plain);
        let offsets = new(inv * 32, plain);
        let stats = new(80, plain);
        let vb = new(inv * max * regs * 16, plain);
        let ib = new(inv * max * 3 * 4, plain);
        let indirect = new(20, plain);
        let so = new(w.so_bytes as u64, plain);
        let cb = new(384, wgpu::BufferUsages::UNIFORM);
        if let Some(c) = &w.constants {
            let bytes: Vec<u8> = c.iter().flatten().flat_map(|x| x.to_le_bytes()).collect();
            gpu.queue.write_buffer(&cb, 0, &bytes);
        }
        // Which buffer each pass binds at (group, binding).
        let g = GS_COMPUTE_GROUP;
        let tables: [(usize, Table<'_>); 4] = [
            (0, vec![((g, 0), &vin), ((g, 1), &vout)]),
            (1, vec![((g, 0), &vout), ((g, 1), &slots), ((g, 2), &prim_list), ((g, 3), &counts), ((0, 0), &cb)]),
            (2, vec![((g, 0), &counts), ((g, 1), &offsets), ((g, 2), &stats)]),
            (
                3,
                vec![
                    ((g, 0), &slots),
                    ((g, 1), &prim_list),
                    ((g, 2), &counts),
                    ((g, 3), &offsets),
                    ((g, 4), &stats),
                    ((g, 5), &vb),
                    ((g, 6), &ib),
                    ((g, 7), &indirect),
                    ((GS_STREAM_OUTPUT_GROUP, 0), &so),
                ],
            ),
        ];
        let dispatch = [
            (w.count as u64).div_ceil(translate::VERTEX_AS_COMPUTE_WORKGROUP as u64),
            inv.div_ceil(GS_COMPUTE_WORKGROUP as u64),
            1,
            inv.div_ceil(GS_COMPUTE_WORKGROUP as u64),
        ];
        let mut passes = Vec::new();
        for ((_, module), (k, table)) in low.passes().into_iter().zip(tables.iter()) {
            // The module's bindings, with how each is accessed.
            let mut groups: BTreeMap<u32, Vec<wgpu::BindGroupLayoutEntry>> = BTreeMap::new();
            for (_, var) in module.global_variables.iter() {
                let Some(b) = &var.binding else { continue };
                let ty = match var.space {
                    naga::AddressSpace::Uniform => wgpu::BufferBindingType::Uniform,
                    naga::AddressSpace::Storage { access } => {
                        wgpu::BufferBindingType::Storage { read_only: !access.contains(naga::StorageAccess::STORE) }
                    }
                    _ => panic!("a binding that is not a buffer"),
                };
                groups.entry(b.group).or_default().push(wgpu::BindGroupLayoutEntry {
                    binding: b.binding,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
                    count: None,
                });
            }
            let n_groups = groups.keys().max().map_or(0, |m| m + 1);
            let mut layouts = Vec::new();
            let mut bind_groups = Vec::new();
            for gi in 0..n_groups {
                let Some(entries) = groups.get_mut(&gi) else {
                    layouts.push(None);
                    continue;
                };
                entries.sort_by_key(|e| e.binding);
                let layout = d.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries });
                let bound: Vec<wgpu::BindGroupEntry> = entries
                    .iter()
                    .map(|e| {
                        let buffer = table.iter().find(|(at, _)| *at == (gi, e.binding)).expect("a bound buffer").1;
                        wgpu::BindGroupEntry { binding: e.binding, resource: buffer.as_entire_binding() }
                    })
                    .collect();
                bind_groups.push((
                    gi,
                    d.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout: &layout, entries: &bound }),
                ));
                layouts.push(Some(layout));
            }
            let refs: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().map(Option::as_ref).collect();
            let pipeline_layout = d.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &refs,
                immediate_size: 0,
            });
            let shader = d.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: None,
                source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(module.clone())),
            });
            let pipeline = d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: None,
                layout: Some(&pipeline_layout),
                module: &shader,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            });
            passes.push((pipeline, bind_groups, dispatch[*k].max(1) as u32));
        }
        let mut buffers = BTreeMap::new();
        buffers.insert((0, 0, 0), so);
        buffers.insert((0, 0, 1), stats);
        Lowered { passes, buffers }
    }

    /// One draw: the four dispatches, submitted and waited for.
    fn run(&self, gpu: &lavapipe::Gpu) {
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass =
                encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: None, timestamp_writes: None });
            for (pipeline, groups, n) in &self.passes {
                pass.set_pipeline(pipeline);
                for (g, group) in groups {
                    pass.set_bind_group(*g, group, &[]);
                }
                pass.dispatch_workgroups(*n, 1, 1);
            }
        }
        gpu.queue.submit([encoder.finish()]);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("poll");
    }

    /// A buffer's bytes (`key` 0: stream output, 1: statistics).
    fn read(&self, gpu: &lavapipe::Gpu, key: usize) -> Vec<u8> {
        let buffer = &self.buffers[&(0, 0, key)];
        let read = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: buffer.size(),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        encoder.copy_buffer_to_buffer(buffer, 0, &read, 0, buffer.size());
        gpu.queue.submit([encoder.finish()]);
        read.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("poll");
        let view = read.get_mapped_range(..).expect("mapped");
        view.to_vec()
    }
}

fn bench_workload(c: &mut Criterion, gpu: &lavapipe::Gpu, name: &str, w: &Workload) {
    let (vs, gs) = (Plan::from_bytecode(&w.vs).expect("vs"), Plan::from_bytecode(&w.gs).expect("gs"));
    let mut memory = vec![0u8; w.so_bytes];
    let (written, invocations, primitives) = reference(w, &vs, &gs, &mut memory);
    let lowered = Lowered::new(gpu, w);
    lowered.run(gpu);
    let so = lowered.read(gpu, 0);
    assert!(so[..w.so_bytes] == memory[..], "{name}: the lowered draw wrote other stream-output bytes");
    let stats: Vec<u64> =
        lowered.read(gpu, 1).chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().unwrap()) as u64).collect();
    assert_eq!((stats[8], stats[16], stats[17]), (written, invocations, primitives), "{name}: statistics");
    let mut g = c.benchmark_group("gs_lavapipe");
    g.sample_size(10);
    g.throughput(Throughput::Elements(w.emitted));
    g.bench_function(format!("{name}_lowered"), |b| b.iter(|| lowered.run(gpu)));
    g.bench_function(format!("{name}_exec"), |b| b.iter(|| reference(w, &vs, &gs, &mut memory)));
    g.finish();
}

fn workloads(c: &mut Criterion) {
    let Some(gpu) = lavapipe::lavapipe("gs_lavapipe") else {
        println!("SKIP gs_lavapipe: {}", lavapipe::NO_LAVAPIPE);
        return;
    };
    const QUAD: u32 = 1_000_000;
    const CUBE: u32 = 100_000;
    let quad = Workload {
        vs: vs(),
        gs: quad_gs(),
        vertices: vertex_buffer(QUAD),
        count: QUAD,
        topology: Topology::PointList,
        constants: None,
        so: so("SV_Position.xyzw", 16),
        so_bytes: 6 * QUAD as usize * 16,
        emitted: 4 * QUAD as u64,
    };
    bench_workload(c, &gpu, "quad", &quad);
    drop(quad);
    let cube = Workload {
        vs: vs(),
        gs: cube_gs(),
        vertices: vertex_buffer(3 * CUBE),
        count: 3 * CUBE,
        topology: Topology::TriangleList,
        constants: Some(face_matrix_rows()),
        so: so("SV_Position.xyzw; FACE.x", 20),
        so_bytes: 18 * CUBE as usize * 20,
        emitted: 18 * CUBE as u64,
    };
    bench_workload(c, &gpu, "cube", &cube);
}

criterion_group!(gs_lavapipe_benches, workloads);
criterion_main!(gs_lavapipe_benches);
