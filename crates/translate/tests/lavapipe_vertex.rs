//! Translated vertex shaders run on Mesa's lavapipe (a Vulkan device on the CPU,
//! through `wgpu`) give the reference interpreter's outputs, component for component.
//!
//! Every corpus vertex shader that `exec` compiles and runs and `translate` translates is
//! written as a compute entry point ([`translate::Options::vertex_as_compute`]) and run
//! for [`VERTICES`] vertices of generated inputs (as `exec`'s `corpus_run` test makes
//! them: input floats in [-2, 2], integer-typed and system-value registers as small
//! integers, every declared constant buffer full of pseudo-random floats; `SV_VertexID`
//! is the vertex's index, `SV_InstanceID` 0), then the same vertices through
//! `exec::machine::Machine::run_vertex`. Every output register component is compared:
//!
//! - bit for bit, which is what integer results, moves and plain float arithmetic
//!   (`add`, `mul`, `mad`, `dp#`, `min`/`max`, conversions...) must give;
//! - two NaNs are equal whatever their bits (the reference makes every NaN one quiet
//!   NaN; the device keeps its own: "32-bit Floating Point Rules" leaves the bits free);
//! - when the program uses an instruction whose precision Direct3D leaves to the device,
//!   two finite floats that differ are "within tolerance" when they are at most `ulps`
//!   units in the last place apart or at most `abs` apart, with the largest `ulps` and
//!   `abs` of [`TOLERANCES`] over the instructions the program contains. The tolerance
//!   is applied to the outputs, after whatever arithmetic follows the instruction: an
//!   output beyond it is reported, not hidden.
//!
//! Each shader's outcome (`exact`, `within tolerance`, the first differing output with
//! both values, or why it is not compared) is one line of
//! `tests/expect/lavapipe_vertex.txt` (two-sided; `DXREF_BLESS=1` rewrites it). Without
//! a lavapipe adapter the test prints SKIP and passes, unless `DXREF_REQUIRE_CORPUS=1`.
//! Lavapipe is found among the Vulkan adapters by its name (`llvmpipe`); setting
//! `VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json` makes it the only one.

use std::collections::BTreeMap;
use std::future::Future;

use corpus::Rng;
use exec::machine::Machine;
use exec::{Plan, Resources};
use tpf::{Body, Decl, Opcode, ProgramType, SystemName};

/// Vertices run per shader (one workgroup of the compute entry point).
const VERTICES: u32 = 64;

/// Per instruction: the units in the last place and the absolute difference an output
/// may differ by when the program uses it (the device's `exp2`, `log2`, `sin`, `cos`,
/// square root and division may be approximations; the reference's are correctly
/// rounded or close to it). `log` and `sincos` also get an absolute bound, for results
/// near zero.
const TOLERANCES: &[(Opcode, u32, f32)] = &[
    (Opcode::Div, 2, 0.0),
    (Opcode::Rcp, 2, 0.0),
    (Opcode::Rsq, 2, 0.0),
    (Opcode::Sqrt, 2, 0.0),
    (Opcode::Exp, 4, 0.0),
    (Opcode::Log, 4, 1.0 / 2_097_152.0),
    (Opcode::SinCos, 4, 1.0 / 2_097_152.0),
];

/// Polls a future to its end (wgpu's native futures are ready once the device is
/// polled; no executor is needed).
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::yield_now();
    }
}

struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    uniform_limit: u64,
    /// The device takes SPIR-V as it is (`PASSTHROUGH_SHADERS`): the translator's own
    /// SPIR-V runs, with its bounds-check policy; otherwise wgpu writes SPIR-V from the
    /// module with its own (`Restrict`: out-of-range indices clamped).
    passthrough: bool,
}

/// The lavapipe device, if there is one.
fn lavapipe() -> Option<Gpu> {
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
        label: Some("lavapipe_vertex"),
        required_features: features,
        required_limits: limits.clone(),
        ..Default::default()
    }))
    .ok()?;
    println!("lavapipe_vertex: {:?}", adapter.get_info());
    Some(Gpu {
        device,
        queue,
        uniform_limit: limits.max_uniform_buffer_binding_size,
        passthrough: !features.is_empty(),
    })
}

/// A value of `corpus_run`'s float mode: [-2, 2] in steps of 1/1000.
fn float_value(rng: &mut Rng) -> u32 {
    ((rng.below(4001) as f32 - 2000.0) / 1000.0).to_bits()
}

/// The input registers of `VERTICES` vertices (`plan.input_registers` each), with the
/// system values the compute entry point gives (`SV_VertexID` = index, `SV_InstanceID`
/// = 0) in their declared components.
fn inputs(plan: &Plan, rng: &mut Rng, small: bool) -> Vec<[u32; 4]> {
    let regs = plan.input_registers as usize;
    let mut v = vec![[0u32; 4]; regs * VERTICES as usize];
    for (k, r) in v.iter_mut().enumerate() {
        let reg = (k % regs.max(1)) as u32;
        let int = plan.input_signature.iter().any(|e| e.register == reg && matches!(e.component_type, 1 | 2));
        for c in r.iter_mut() {
            *c = if int || small { rng.below(8) as u32 } else { float_value(rng) };
        }
    }
    for vertex in 0..VERTICES as usize {
        for d in &plan.inputs {
            let value = match d.system {
                SystemName::VertexId => vertex as u32,
                SystemName::InstanceId => 0,
                _ => continue,
            };
            let reg = &mut v[vertex * regs + d.register as usize];
            for (c, slot) in reg.iter_mut().enumerate() {
                if d.mask & (1 << c) != 0 {
                    *slot = value;
                }
            }
        }
    }
    v
}

/// Every declared constant buffer: 4096 vectors of pseudo-random floats.
fn constant_buffers(program: &tpf::Program<'_>, rng: &mut Rng) -> BTreeMap<u32, Vec<[u32; 4]>> {
    let mut cbs = BTreeMap::new();
    for inst in program.iter() {
        if let Body::Decl(Decl::ConstantBuffer { operand, .. }) = &inst.body {
            let slot = inst.operand(*operand).indices().first().map_or(0, |i| i.immediate() as u32);
            cbs.insert(slot, (0..4096).map(|_| [0; 4].map(|_: u32| float_value(rng))).collect());
        }
    }
    cbs
}

/// The reference: every vertex through `run_vertex`.
fn reference(plan: &Plan, input: &[[u32; 4]], cbs: &BTreeMap<u32, Vec<[u32; 4]>>) -> Result<Vec<[u32; 4]>, String> {
    let mut res = Resources::default();
    for (&slot, cb) in cbs {
        if let Some(s) = res.constant_buffers.get_mut(slot as usize) {
            *s = Some(cb);
        }
    }
    let mut m = Machine::new(plan);
    m.set_step_limit(1 << 20);
    let regs = plan.input_registers as usize;
    let mut out = Vec::new();
    for vertex in 0..VERTICES as usize {
        let v = &input[vertex * regs..(vertex + 1) * regs];
        out.extend_from_slice(m.run_vertex(plan, v, &mut res).map_err(|e| e.to_string())?);
    }
    Ok(out)
}

/// The translation on lavapipe: `Ok(outputs)` or why it did not run.
fn on_device(
    gpu: &Gpu,
    module: naga::Module,
    input: &[[u32; 4]],
    n_out: usize,
    cbs: &BTreeMap<u32, Vec<[u32; 4]>>,
) -> Result<Vec<[u32; 4]>, String> {
    use wgpu::util::DeviceExt as _;
    let d = &gpu.device;
    // The constant buffers are at group 0, bindings 0, 1, 2... in slot order (see
    // `run_one`): wgpu's Vulkan back end numbers a group's bindings in order from 0,
    // which SPIR-V passed through must match. Nothing else may be bound.
    for (_, g) in module.global_variables.iter() {
        let Some(b) = &g.binding else { continue };
        match (g.space, b.group) {
            (naga::AddressSpace::Uniform, 0)
            | (naga::AddressSpace::Storage { .. }, translate::VERTEX_AS_COMPUTE_GROUP) => {}
            _ => return Err(format!("binds a resource at group {} binding {}", b.group, b.binding)),
        }
    }
    let uniforms: Vec<u32> = (0..cbs.len() as u32).collect();
    let scope = d.push_error_scope(wgpu::ErrorFilter::Validation);
    let shader = if gpu.passthrough {
        let bytes = translate::write(&module, translate::Target::Spirv).map_err(|e| e.to_string())?;
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let entry = wgpu::PassthroughShaderEntryPoint {
            name: "main".into(),
            workgroup_size: (translate::VERTEX_AS_COMPUTE_WORKGROUP, 1, 1),
        };
        // SAFETY: the SPIR-V is naga's, from a module naga validated (the corpus test
        // `corpus_translate` runs the same writer's output through spirv-val), and its
        // bindings are those of the layout below.
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
    let storage = |binding: u32, read_only: bool| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let cb_entries: Vec<_> = uniforms
        .iter()
        .map(|&binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect();
    let cb_layout = d.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: None, entries: &cb_entries });
    let io_layout = d.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: None,
        entries: &[storage(0, true), storage(1, false)],
    });
    let layout = d.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: None,
        bind_group_layouts: &[Some(&cb_layout), None, None, None, Some(&io_layout)],
        immediate_size: 0,
    });
    let pipeline = d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: None,
        layout: Some(&layout),
        module: &shader,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let words = |v: &[[u32; 4]]| -> Vec<u8> { v.iter().flatten().flat_map(|w| w.to_le_bytes()).collect() };
    let cb_buffers: Vec<(u32, wgpu::Buffer)> = cbs
        .values()
        .zip(&uniforms)
        .map(|(cb, &slot)| {
            let mut bytes = words(cb);
            bytes.truncate(gpu.uniform_limit as usize);
            let buffer = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: None,
                contents: &bytes,
                usage: wgpu::BufferUsages::UNIFORM,
            });
            (slot, buffer)
        })
        .collect();
    // A buffer of at least one vec4 even when the shader reads no input.
    let mut in_bytes = words(input);
    in_bytes.resize(in_bytes.len().max(16), 0);
    let in_buffer = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &in_bytes,
        usage: wgpu::BufferUsages::STORAGE,
    });
    let out_size = (n_out.max(1) * 16 * VERTICES as usize) as u64;
    let out_buffer = d.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: out_size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let read_buffer = d.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: out_size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let cb_group = d.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &cb_layout,
        entries: &cb_buffers
            .iter()
            .map(|(slot, b)| wgpu::BindGroupEntry { binding: *slot, resource: b.as_entire_binding() })
            .collect::<Vec<_>>(),
    });
    let io_group = d.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &io_layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: in_buffer.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: out_buffer.as_entire_binding() },
        ],
    });
    if let Some(e) = block_on(scope.pop()) {
        return Err(corpus::expect::one_line(&format!("wgpu: {e}")));
    }
    let mut encoder = d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: None, timestamp_writes: None });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &cb_group, &[]);
        pass.set_bind_group(4, &io_group, &[]);
        pass.dispatch_workgroups(VERTICES.div_ceil(translate::VERTEX_AS_COMPUTE_WORKGROUP), 1, 1);
    }
    encoder.copy_buffer_to_buffer(&out_buffer, 0, &read_buffer, 0, out_size);
    gpu.queue.submit([encoder.finish()]);
    read_buffer.map_async(wgpu::MapMode::Read, .., |r| r.expect("map"));
    d.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| format!("poll: {e}"))?;
    let view = read_buffer.get_mapped_range(..).map_err(|e| format!("map: {e}"))?;
    let out: Vec<[u32; 4]> = view
        .chunks_exact(16)
        .map(|c| [0, 1, 2, 3].map(|k| u32::from_le_bytes(c[4 * k..4 * k + 4].try_into().unwrap())))
        .collect();
    Ok(if n_out == 0 { Vec::new() } else { out })
}

/// Units in the last place between two finite floats of the same sign (or a huge
/// number when the signs differ and neither is zero).
fn ulps(a: f32, b: f32) -> u32 {
    let key = |x: f32| -> i64 {
        let bits = x.to_bits() as i64;
        if bits & 0x8000_0000 != 0 {
            -(bits & 0x7fff_ffff)
        } else {
            bits
        }
    };
    (key(a) - key(b)).unsigned_abs().min(u64::from(u32::MAX)) as u32
}

/// Compares the outputs; the outcome line.
fn compare(expected: &[[u32; 4]], got: &[[u32; 4]], n_out: usize, tolerance: Option<(u32, f32)>) -> String {
    let mut tolerated = false;
    for (k, (e, g)) in expected.iter().zip(got).enumerate() {
        for c in 0..4 {
            let (a, b) = (e[c], g[c]);
            if a == b {
                continue;
            }
            let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
            if fa.is_nan() && fb.is_nan() {
                continue;
            }
            if let Some((u, abs)) = tolerance {
                if fa.is_finite() && fb.is_finite() && (ulps(fa, fb) <= u || (fa - fb).abs() <= abs) {
                    tolerated = true;
                    continue;
                }
            }
            return format!(
                "differs: vertex {} o{}.{}: exec {a:#010x} ({fa:e}) lavapipe {b:#010x} ({fb:e})",
                k / n_out.max(1),
                k % n_out.max(1),
                ['x', 'y', 'z', 'w'][c]
            );
        }
    }
    if expected.len() != got.len() {
        return format!("differs: {} output vectors from exec, {} from lavapipe", expected.len(), got.len());
    }
    if tolerated { "within tolerance" } else { "exact" }.to_string()
}

#[test]
fn corpus_vertex_shaders_on_lavapipe_match_the_reference() {
    let Some(entries) = corpus::dxbc_entries("lavapipe_vertex") else { return };
    let Some(gpu) = lavapipe() else {
        assert!(
            !corpus::required(),
            "lavapipe_vertex: no lavapipe adapter (Debian packages mesa-vulkan-drivers and libvulkan1)"
        );
        println!("SKIP lavapipe_vertex: no lavapipe adapter (Debian packages mesa-vulkan-drivers and libvulkan1)");
        return;
    };
    let options = translate::Options { vertex_as_compute: true, ..Default::default() };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for e in &entries {
        let bytes = e.bytes();
        let container = dxbc::Container::parse(&bytes).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        let Some(chunk) = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]) else { continue };
        let program = tpf::decode(chunk.data).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        let outcome = if program.version.ty != ProgramType::Vertex {
            "not a vertex shader".to_string()
        } else {
            run_one(&gpu, &bytes, &program, &options, &e.id())
        };
        *counts.entry(outcome.split(':').next().unwrap_or("").to_string()).or_default() += 1;
        outcomes.insert(e.id(), outcome);
    }
    println!("lavapipe_vertex: {counts:?} (translator's SPIR-V passed through: {})", gpu.passthrough);
    corpus::expect::check(corpus::expect_file!("lavapipe_vertex.txt"), &outcomes);
}

fn run_one(gpu: &Gpu, bytes: &[u8], program: &tpf::Program<'_>, options: &translate::Options, id: &str) -> String {
    let plan = match Plan::from_bytecode(bytes) {
        Ok(p) => p,
        Err(err) => return corpus::expect::one_line(&format!("not compared: exec: {err}")),
    };
    run_plan(gpu, &plan, program, id, &|with: &translate::Options| {
        translate::module(bytes, &translate::Options { bindings: with.bindings.clone(), ..options.clone() })
    })
}

/// Runs `plan` (the reference) and the module `translate` makes (given the bindings to
/// use) on the same generated inputs; the outcome line.
fn run_plan(
    gpu: &Gpu,
    plan: &Plan,
    program: &tpf::Program<'_>,
    id: &str,
    translate: &dyn Fn(&translate::Options) -> Result<naga::Module, translate::TranslateError>,
) -> String {
    let n_out = plan.output_registers as usize;
    let seed = id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let mut rng = Rng(seed | 1);
    let cbs = constant_buffers(program, &mut rng);
    // Constant buffers at bindings 0, 1, 2... of group 0, in slot order.
    let text: String = cbs.keys().enumerate().map(|(k, slot)| format!("cb{slot} = 0:{k}\n")).collect();
    let options = translate::Options {
        bindings: translate::Bindings::parse(&text).expect("bindings"),
        vertex_as_compute: true,
        ..Default::default()
    };
    let module = match translate(&options) {
        Ok(m) => m,
        Err(err) => return format!("not compared: translate: {}", corpus::expect::one_line(&err.to_string())),
    };
    // Floats first; loops whose count comes from float data may not end: then small
    // integers (as `exec`'s corpus_run test retries).
    let mut run = None;
    for small in [false, true] {
        let input = inputs(plan, &mut rng, small);
        match reference(plan, &input, &cbs) {
            Ok(out) => {
                run = Some((input, out));
                break;
            }
            Err(err) if !small => {
                let _ = err;
            }
            Err(err) => return corpus::expect::one_line(&format!("not compared: exec: {err}")),
        }
    }
    let Some((input, expected)) = run else { return "not compared: exec did not run".into() };
    let got = match on_device(gpu, module, &input, n_out, &cbs) {
        Ok(g) => g,
        Err(err) => return corpus::expect::one_line(&format!("not compared: {err}")),
    };
    let mut tolerance: Option<(u32, f32)> = None;
    for ins in program.iter() {
        if let Some(&(_, u, abs)) = TOLERANCES.iter().find(|(op, _, _)| *op == ins.opcode) {
            let (u0, a0) = tolerance.unwrap_or((0, 0.0));
            tolerance = Some((u0.max(u), a0.max(abs)));
        }
    }
    compare(&expected, &got, n_out, tolerance)
}

/// Small vertex shaders, one instruction (or a short chain) each, over three float
/// inputs and two constant vectors; `(name, body)`: each body writes `o0.xyzw`.
const ALU_PROGRAMS: &[(&str, &str)] = &[
    ("add", "add o0.xyzw, v0.xyzw, v1.xyzw"),
    ("mul", "mul o0.xyzw, v0.xyzw, v1.xyzw"),
    ("mad", "mad o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw"),
    ("mul then add", "mul r0.xyzw, v0.xyzw, v1.xyzw\nadd o0.xyzw, r0.xyzw, v2.xyzw"),
    ("dp2", "dp2 o0.xyzw, v0.xyzw, v1.xyzw"),
    ("dp3", "dp3 o0.xyzw, v0.xyzw, v1.xyzw"),
    ("dp4", "dp4 o0.xyzw, v0.xyzw, v1.xyzw"),
    ("dp3 with a constant 1", "mov r0.xy, v0.xyxx\nmov r0.z, l(1.0)\ndp3 o0.xyzw, r0.xyzx, v1.xywx"),
    (
        "two products and a sum",
        "mul r0.x, v0.x, v1.x\nmul r0.y, v0.y, v1.y\nadd r0.z, r0.x, r0.y\nadd o0.xyzw, r0.zzzz, v1.wwww",
    ),
    ("dp3 with a constant 0.5", "mov r0.xy, v0.xyxx\nmov r0.z, l(0.5)\ndp3 o0.xyzw, r0.xyzx, v1.xywx"),
    ("mad with a constant", "mad o0.xyzw, v0.xyzw, l(1.5, 0.3, 0.7, 3.0), v2.xyzw"),
    ("dp4 with constants", "dp4 o0.x, v0.xyzw, cb0[0].xyzw\ndp4 o0.y, v0.xyzw, cb0[1].xyzw\nmov o0.zw, v1.zzzw"),
    ("min max", "min r0.xyzw, v0.xyzw, v1.xyzw\nmax o0.xyzw, r0.xyzw, v2.xyzw"),
    ("sat", "add_sat o0.xyzw, v0.xyzw, v1.xyzw"),
    ("frc", "frc o0.xyzw, v0.xyzw"),
    ("round", "round_ne o0.x, v0.x\nround_ni o0.y, v0.y\nround_pi o0.z, v0.z\nround_z o0.w, v0.w"),
    ("ftoi ftou", "mul r0.xyzw, v0.xyzw, l(1000.0, 1000.0, 1000.0, 1000.0)\nftoi o0.xy, r0.xyxx\nftou o0.zw, r0.zzzw"),
    ("itof utof", "itof o0.xy, v0.xyxx\nutof o0.zw, v0.zzzw"),
    ("comparisons", "lt o0.x, v0.x, v1.x\nge o0.y, v0.y, v1.y\neq o0.z, v0.z, v1.z\nne o0.w, v0.w, v1.w"),
    ("movc", "lt r0.xyzw, v0.xyzw, v1.xyzw\nmovc o0.xyzw, r0.xyzw, v1.xyzw, v2.xyzw"),
    ("iadd imul", "iadd r0.xyzw, v0.xyzw, v1.xyzw\nimul null, o0.xyzw, r0.xyzw, v2.xyzw"),
    ("imad", "imad o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw"),
    ("udiv", "udiv o0.xy, o0.zw, v0.xyxx, v1.xyxx"),
    ("shifts", "ishl o0.x, v0.x, v1.x\nushr o0.y, v0.y, v1.y\nishr o0.z, v0.z, v1.z\nnot o0.w, v0.w"),
    (
        "bit fields",
        "ubfe o0.x, v1.x, v2.x, v0.x\nibfe o0.y, v1.y, v2.y, v0.y\nbfi o0.z, v1.z, v2.z, v0.z, v1.w\nbfrev o0.w, v0.w",
    ),
    ("bit counts", "countbits o0.x, v0.x\nfirstbit_lo o0.y, v0.y\nfirstbit_hi o0.z, v0.z\nfirstbit_shi o0.w, v0.w"),
    ("f32tof16 f16tof32", "f32tof16 r0.xyzw, v0.xyzw\nf16tof32 o0.xyzw, r0.xyzw"),
    ("div", "div o0.xyzw, v0.xyzw, v1.xyzw"),
    ("rcp", "rcp o0.xyzw, v0.xyzw"),
    ("rsq", "rsq o0.xyzw, |v0.xyzw|"),
    ("sqrt", "sqrt o0.xyzw, |v0.xyzw|"),
    ("exp", "exp o0.xyzw, v0.xyzw"),
    ("log", "log o0.xyzw, |v0.xyzw|"),
    ("sincos", "sincos o0.xy, o0.zw, v0.xyxx"),
    ("d_add", "dadd o0.xyzw, v0.xyzw, -v1.xyzw"),
    ("d_mul", "dmul o0.xyzw, v0.xyzw, v1.xyzw"),
    ("d_div", "ddiv o0.xyzw, v0.xyzw, v1.xyzw"),
    ("d_fma", "dfma o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw"),
    ("d_rcp", "drcp o0.xyzw, v0.zwxy"),
    ("d_min", "dmin o0.xyzw, v0.xyzw, |v1.xyzw|"),
    ("d_max", "dmax_sat o0.xyzw, v0.xyzw, v1.xyzw"),
    ("d_movc", "dmovc o0.xyzw, v2.xyxx, v0.xyzw, v1.xyzw"),
    ("d_cmp", "dlt o0.xy, v0.xyzw, v1.xyzw\ndeq o0.zw, v0.xyzw, v0.zwxy"),
    ("d_tof", "dtof o0.xy, v0.xyzw\ndtoi o0.z, v1.xyxy\ndtou o0.w, v1.zwzw"),
    ("d_fromf", "ftod o0.xyzw, v0.xyxx"),
    ("d_fromi", "itod o0.xy, v0.xxxx\nutod o0.zw, v0.yyyy"),
    (
        "subroutine",
        "mov r0.xyzw, v2.xyzw\ncallc_nz v0.x, l0\ncall l1\nmov o0.xyzw, r0.xyzw\nret \nlabel l0\n\
         add r0.xyzw, v0.xyzw, v1.xyzw\nret \nlabel l1\nretc_z v1.y\nmul r0.xy, r0.xyxx, v1.xyxx",
    ),
];

/// The hand-written programs of [`ALU_PROGRAMS`] through both, one line each in
/// `tests/expect/lavapipe_alu.txt` (needs lavapipe, not the corpus).
#[test]
fn alu_programs_on_lavapipe_match_the_reference() {
    let Some(gpu) = lavapipe() else {
        assert!(
            !corpus::required(),
            "lavapipe_alu: no lavapipe adapter (Debian packages mesa-vulkan-drivers and libvulkan1)"
        );
        println!("SKIP lavapipe_alu: no lavapipe adapter (Debian packages mesa-vulkan-drivers and libvulkan1)");
        return;
    };
    let mut outcomes = BTreeMap::new();
    for (name, body) in ALU_PROGRAMS {
        let text = format!(
            "vs_5_0\ndcl_constantbuffer cb0[2], immediateIndexed\ndcl_input v0.xyzw\ndcl_input v1.xyzw\n\
             dcl_input v2.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\n{body}\nret \n"
        );
        let program = tpf::parse::parse_program(&text).unwrap_or_else(|d| panic!("{name}: {d:?}")).program;
        let plan = Plan::compile(&program, Vec::new(), Vec::new()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let outcome = run_plan(&gpu, &plan, &program, name, &|with: &translate::Options| {
            translate::module_from_program(&program, &[], &[], with)
        });
        outcomes.insert(format!("alu/{name}"), outcome);
    }
    corpus::expect::check(corpus::expect_file!("lavapipe_alu.txt"), &outcomes);
}
