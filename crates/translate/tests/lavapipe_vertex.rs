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
//! The device and the dispatch are `tests/support/lavapipe.rs`.

use std::collections::BTreeMap;

use corpus::Rng;
use exec::machine::Machine;
use exec::{Plan, Resources};
use tpf::{Body, Decl, Opcode, ProgramType, SystemName};

#[path = "support/lavapipe.rs"]
mod lavapipe;
use lavapipe::{bytes_vec4, run_compute, vec4_bytes, Bound, Buffer, Gpu};

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

/// The translation on lavapipe: `Ok(outputs)` or why it did not run. The constant
/// buffers are at group 0, bindings 0, 1, 2... in slot order (see `run_plan`); the
/// vertices' registers at [`translate::VERTEX_AS_COMPUTE_GROUP`].
fn on_device(
    gpu: &Gpu,
    module: naga::Module,
    input: &[[u32; 4]],
    n_out: usize,
    cbs: &BTreeMap<u32, Vec<[u32; 4]>>,
) -> Result<Vec<[u32; 4]>, String> {
    let mut bound: Vec<Bound> = cbs
        .values()
        .enumerate()
        .map(|(k, cb)| Bound { group: 0, binding: k as u32, buffer: Buffer::Uniform(vec4_bytes(cb)) })
        .collect();
    let io = translate::VERTEX_AS_COMPUTE_GROUP;
    bound.push(Bound { group: io, binding: 0, buffer: Buffer::Storage(vec4_bytes(input)) });
    let out = vec![0u8; n_out.max(1) * 16 * VERTICES as usize];
    bound.push(Bound { group: io, binding: 1, buffer: Buffer::StorageReadWrite(out) });
    let wg = translate::VERTEX_AS_COMPUTE_WORKGROUP;
    let written = run_compute(gpu, module, [wg, 1, 1], &bound, [VERTICES.div_ceil(wg), 1, 1])?;
    Ok(if n_out == 0 { Vec::new() } else { bytes_vec4(&written[0]) })
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
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_vertex") else { return };
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
];

/// The hand-written programs of [`ALU_PROGRAMS`] through both, one line each in
/// `tests/expect/lavapipe_alu.txt` (needs lavapipe, not the corpus).
#[test]
fn alu_programs_on_lavapipe_match_the_reference() {
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_alu") else { return };
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
