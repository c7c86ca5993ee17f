//! Translated vertex shaders run on Mesa's lavapipe (a Vulkan device on the CPU,
//! through `wgpu`) give the reference interpreter's outputs, component for component.
//!
//! Every corpus vertex shader that `exec` compiles and runs and `translate` translates is
//! written as a compute entry point ([`translate::Options::vertex_as_compute`]) and run
//! for [`VERTICES`] vertices of generated inputs (as `exec`'s `corpus_run` test makes
//! them: input floats in [-2, 2], integer-typed and system-value registers as small
//! integers, every declared constant buffer and raw or structured buffer view full of
//! pseudo-random floats; `SV_VertexID` is the vertex's index, `SV_InstanceID` 0), then
//! the same vertices through
//! `exec::machine::Machine::run_vertex`. Every output register component is compared:
//!
//! - bit for bit, which is what integer results, moves and plain float arithmetic
//!   (`add`, `mul`, `mad`, `dp#`, `min`/`max`, conversions...) must give;
//! - two NaNs are equal whatever their bits (the reference makes every NaN one quiet
//!   NaN; the device keeps its own: "32-bit Floating Point Rules" leaves the bits free);
//! - when the program uses an instruction whose precision Direct3D leaves to the device,
//!   two finite floats that differ are "within tolerance" when they are at most `ulps`
//!   units in the last place apart or at most `abs` apart, with the largest `ulps` and
//!   `abs` of [`tolerance::TOLERANCES`] (`support/tolerance.rs`) over the instructions
//!   the program contains. The tolerance is applied to the outputs, after whatever
//!   arithmetic follows the instruction: an output beyond it is reported, not hidden.
//!
//! Each shader's outcome (`exact`, `within tolerance`, the first differing output with
//! both values, or why it is not compared) is one line of
//! `tests/expect/lavapipe_vertex.txt` (two-sided; `DXREF_BLESS=1` rewrites it). Without
//! a lavapipe adapter the test prints SKIP and passes, unless `DXREF_REQUIRE_CORPUS=1`.
//! The device and the dispatch are `tests/support/lavapipe.rs`.
//!
//! `trace_the_first_differing_instruction` (ignored; `DXREF_TRACE=<entry>`) runs one
//! entry changed by `support/cut.rs` to write each instruction's result in turn, and
//! names the first that differs (how the causes in the expectation file were found);
//! `the_trace_names_the_first_differing_instruction` checks it on a known difference.
//!
//! Two more tests use the same comparison: hand-written one-instruction programs
//! (`tests/expect/lavapipe_alu.txt`) and random programs from fixed seeds, straight-line
//! arithmetic with nested `if`, `loop` and `switch` (`tests/expect/lavapipe_random.txt`).

use std::collections::BTreeMap;

use corpus::Rng;
use exec::machine::Machine;
use exec::resources::Srv;
use exec::{Plan, Resources};
use tpf::{Body, Decl, ProgramType, SystemName};

#[path = "support/cut.rs"]
mod cut;
#[path = "support/lavapipe.rs"]
mod lavapipe;
#[path = "support/tolerance.rs"]
mod tolerance;
use lavapipe::{bytes_vec4, run_compute, vec4_bytes, Bound, Buffer, Gpu};
use tolerance::{tolerance, within};

/// Vertices run per shader (one workgroup of the compute entry point).
const VERTICES: u32 = 64;

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

/// The memory a program reads besides its inputs: constant buffers by slot, and raw or
/// structured buffer views (`t#`) by slot with their stride (0: raw).
#[derive(Default)]
struct Data {
    cbs: BTreeMap<u32, Vec<[u32; 4]>>,
    buffers: BTreeMap<u32, (u32, Vec<u8>)>,
}

impl Data {
    /// The bindings the translation is given: constant buffers at group 0 and buffer
    /// views at group 1, bindings 0, 1, 2... in slot order (as `on_device` binds them).
    fn bindings(&self) -> translate::Bindings {
        let mut text: String = self.cbs.keys().enumerate().map(|(k, slot)| format!("cb{slot} = 0:{k}\n")).collect();
        text.extend(self.buffers.keys().enumerate().map(|(k, slot)| format!("t{slot} = 1:{k}\n")));
        translate::Bindings::parse(&text).expect("bindings")
    }
}

/// Every declared constant buffer: 4096 vectors of pseudo-random floats; every raw or
/// structured buffer view: 64 elements (raw: 4096 bytes) of them.
fn program_data(program: &tpf::Program<'_>, rng: &mut Rng) -> Data {
    let mut data = Data::default();
    for inst in program.iter() {
        let Body::Decl(d) = &inst.body else { continue };
        let (operand, stride) = match d {
            Decl::ConstantBuffer { operand, .. } => {
                let slot = inst.operand(*operand).indices().first().map_or(0, |i| i.immediate() as u32);
                data.cbs.insert(slot, (0..4096).map(|_| [0; 4].map(|_: u32| float_value(rng))).collect());
                continue;
            }
            Decl::ResourceRaw { operand, .. } => (operand, 0),
            Decl::ResourceStructured { operand, stride, .. } => (operand, *stride),
            _ => continue,
        };
        let slot = inst.operand(*operand).indices().first().map_or(0, |i| i.immediate() as u32);
        let len = if stride == 0 { 4096 } else { 64 * stride as usize };
        let bytes = (0..len / 4).flat_map(|_| float_value(rng).to_le_bytes()).collect();
        data.buffers.insert(slot, (stride, bytes));
    }
    data
}

/// The reference: every vertex through `run_vertex`.
fn reference(plan: &Plan, input: &[[u32; 4]], data: &Data) -> Result<Vec<[u32; 4]>, String> {
    let mut res = Resources::default();
    for (&slot, cb) in &data.cbs {
        if let Some(s) = res.constant_buffers.get_mut(slot as usize) {
            *s = Some(cb);
        }
    }
    for (&slot, (stride, bytes)) in &data.buffers {
        let slot = slot as usize;
        if res.srvs.len() <= slot {
            res.srvs.resize(slot + 1, None);
        }
        res.srvs[slot] = Some(if *stride == 0 {
            Srv::Raw { data: bytes }
        } else {
            Srv::Structured { data: bytes, stride: *stride }
        });
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

/// The translation on lavapipe: `Ok(outputs)` or why it did not run. The memory is
/// bound as [`Data::bindings`] says; the vertices' registers at
/// [`translate::VERTEX_AS_COMPUTE_GROUP`].
fn on_device(
    gpu: &Gpu,
    module: naga::Module,
    input: &[[u32; 4]],
    n_out: usize,
    data: &Data,
) -> Result<Vec<[u32; 4]>, String> {
    let mut bound: Vec<Bound> = data
        .cbs
        .values()
        .enumerate()
        .map(|(k, cb)| Bound { group: 0, binding: k as u32, buffer: Buffer::Uniform(vec4_bytes(cb)) })
        .collect();
    bound.extend(data.buffers.values().enumerate().map(|(k, (_, bytes))| Bound {
        group: 1,
        binding: k as u32,
        buffer: Buffer::Storage(bytes.clone()),
    }));
    let io = translate::VERTEX_AS_COMPUTE_GROUP;
    bound.push(Bound { group: io, binding: 0, buffer: Buffer::Storage(vec4_bytes(input)) });
    let out = vec![0u8; n_out.max(1) * 16 * VERTICES as usize];
    bound.push(Bound { group: io, binding: 1, buffer: Buffer::StorageReadWrite(out) });
    let wg = translate::VERTEX_AS_COMPUTE_WORKGROUP;
    let written = run_compute(gpu, module, [wg, 1, 1], &bound, [VERTICES.div_ceil(wg), 1, 1])?;
    Ok(if n_out == 0 { Vec::new() } else { bytes_vec4(&written[0]) })
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
                if within(fa, fb, u, abs) {
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

/// `DXREF_TRACE=<entry>` (ignored unless asked for): the entry cut after each
/// instruction (`support/cut.rs`) through both sides, up to the first cut that is not
/// `exact` (how the causes in `tests/expect/lavapipe_vertex.txt` were traced).
#[test]
#[ignore]
fn trace_the_first_differing_instruction() {
    let Some(id) = std::env::var("DXREF_TRACE").ok() else { return };
    let Some(entries) = corpus::dxbc_entries("lavapipe_vertex_trace") else { return };
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_vertex_trace") else { return };
    let entry = entries.iter().find(|e| e.id() == id).unwrap_or_else(|| panic!("no entry {id}"));
    let options = translate::Options { vertex_as_compute: true, ..Default::default() };
    BIT_FOR_BIT.store(true, std::sync::atomic::Ordering::Relaxed);
    let run = |bytes: &[u8]| {
        let container = dxbc::Container::parse(bytes).expect("the cut container parses");
        let chunk = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).expect("a program chunk");
        let program = tpf::decode(chunk.data).expect("the cut program decodes");
        run_one(&gpu, bytes, &program, &options, &id)
    };
    // The words of o0 at the vertex a difference line names, on both sides.
    let show = |bytes: &[u8], line: &str| {
        let at = line.split("vertex ").nth(1).and_then(|r| r.split(' ').next()).and_then(|v| v.parse::<u32>().ok());
        SHOW_VERTEX.store(at.map_or(0, |v| v + 1), std::sync::atomic::Ordering::Relaxed);
        run(bytes);
        SHOW_VERTEX.store(0, std::sync::atomic::Ordering::Relaxed);
    };
    println!("{id}: {:?}", cut::first_difference(&entry.bytes(), &run, &show));
}

/// The trace finds a known first difference: in this program only the `mul` by a
/// literal 0 (instruction 11, after a loop run three times) differs on lavapipe (`-0`
/// for a negative value, as `alu/mul by a literal 0`), and the `add` after it hides it
/// again (`-0 + x` is `x`).
#[test]
fn the_trace_names_the_first_differing_instruction() {
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_vertex_trace_check") else { return };
    let text = "vs_5_0\ndcl_input v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\nmov r0.xyzw, v0.xyzw\n\
                mov r1.x, l(0)\nloop\nige r1.y, r1.x, l(3)\nbreakc_nz r1.y\n\
                add r0.xyzw, r0.xyzw, l(0.5, 0.5, 0.5, 0.5)\niadd r1.x, r1.x, l(1)\nendloop\n\
                mul r1.xyzw, r0.xyzw, l(0.0, 0.0, 0.0, 0.0)\nadd o0.xyzw, r1.xyzw, r0.xyzw\nret\n";
    let bytes = listing::asm::assemble(text, &listing::asm::AsmOptions::default()).expect("assembles").bytes;
    let options = translate::Options { vertex_as_compute: true, ..Default::default() };
    let run = |bytes: &[u8]| {
        let container = dxbc::Container::parse(bytes).expect("the container parses");
        let chunk = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).expect("a program chunk");
        let program = tpf::decode(chunk.data).expect("the program decodes");
        run_one(&gpu, bytes, &program, &options, "trace check")
    };
    assert_eq!(run(&bytes), "exact", "the whole program agrees");
    let found = cut::first_difference(&bytes, &run, &|_, _| {});
    let (k, n, text, line) = found.expect("a difference is found");
    assert_eq!((k, n, text.as_str()), (11, 1, "mul r1.xyzw, r0.xyzw, l(0.000000, 0.000000, 0.000000, 0.000000)"));
    assert!(line.contains("exec 0x80000000") && line.contains("lavapipe 0x00000000"), "{line}");
    // The loop's body is traced run by run: the reference gives the loop's `add` after
    // its first run and after its third (the value the `mul` reads), and lavapipe agrees.
    for n in [1, 3] {
        let cut = cut::cut_after(&bytes, 8, n).expect("cuts").expect("writes a temp");
        assert_eq!(run(&cut), "exact");
        let plan = Plan::from_bytecode(&cut).expect("the reference compiles the cut program");
        let input = inputs(&plan, &mut Rng(7), false);
        let out = reference(&plan, &input, &Data::default()).expect("the reference runs it");
        for (v, o) in input.iter().zip(&out) {
            let want = v.map(|x| (0..n).fold(f32::from_bits(x), |a, _| a + 0.5).to_bits());
            assert_eq!(*o, want, "run {n}");
        }
    }
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
    let data = program_data(program, &mut rng);
    let options = translate::Options { bindings: data.bindings(), vertex_as_compute: true, ..Default::default() };
    let module = match translate(&options) {
        Ok(m) => m,
        Err(err) => return format!("not compared: translate: {}", corpus::expect::one_line(&err.to_string())),
    };
    // Floats first; loops whose count comes from float data may not end: then small
    // integers (as `exec`'s corpus_run test retries).
    let mut run = None;
    for small in [false, true] {
        let input = inputs(plan, &mut rng, small);
        match reference(plan, &input, &data) {
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
    let got = match on_device(gpu, module, &input, n_out, &data) {
        Ok(g) => g,
        Err(err) => return corpus::expect::one_line(&format!("not compared: {err}")),
    };
    if let Some(v) = SHOW_VERTEX.load(std::sync::atomic::Ordering::Relaxed).checked_sub(1) {
        let at = v as usize * n_out;
        let (e, g) = (expected.get(at).copied().unwrap_or_default(), got.get(at).copied().unwrap_or_default());
        println!(
            "        exec {e:08x?} {:?}\n        lavapipe {g:08x?} {:?}",
            e.map(f32::from_bits),
            g.map(f32::from_bits)
        );
    }
    let tolerance = if BIT_FOR_BIT.load(std::sync::atomic::Ordering::Relaxed) { None } else { tolerance(program) };
    compare(&expected, &got, n_out, tolerance.map(|(u, abs, _)| (u, abs)))
}

/// Set by the trace: every output compared bit for bit (no tolerance), so that the
/// first difference is shown with its values.
static BIT_FOR_BIT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
/// Set by the trace: 1 + the vertex whose `o0` words both sides wrote are printed.
static SHOW_VERTEX: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

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
    ("msad", "msad o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw"),
    ("msad saturating", "msad o0.xyzw, v0.xyzw, v1.xyzw, l(0xffffff00, 0xfffffff0, 0xfffffeff, 0)"),
    ("bit counts", "countbits o0.x, v0.x\nfirstbit_lo o0.y, v0.y\nfirstbit_hi o0.z, v0.z\nfirstbit_shi o0.w, v0.w"),
    ("f32tof16 f16tof32", "f32tof16 r0.xyzw, v0.xyzw\nf16tof32 o0.xyzw, r0.xyzw"),
    ("div", "div o0.xyzw, v0.xyzw, v1.xyzw"),
    ("rcp", "rcp o0.xyzw, v0.xyzw"),
    ("rsq", "rsq o0.xyzw, |v0.xyzw|"),
    ("sqrt", "sqrt o0.xyzw, |v0.xyzw|"),
    ("exp", "exp o0.xyzw, v0.xyzw"),
    ("log", "log o0.xyzw, |v0.xyzw|"),
    ("sincos", "sincos o0.xy, o0.zw, v0.xyxx"),
    (
        "comparisons with NaN",
        "mov r0.xyzw, l(0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff)\nne o0.x, r0.x, v0.x\n\
         eq o0.y, r0.y, v0.y\nlt o0.z, v0.z, r0.z\nge o0.w, r0.w, v0.w",
    ),
    // The device's constant folding (see `random_programs_on_lavapipe_match_the_reference`):
    // x * 0 for a negative x is -0 and -0 + 0 is +0, which lavapipe gives only when the
    // 0 is not a literal (the computed 0 is a denormal made at run time, flushed to +0).
    ("mul by a literal 0", "mul o0.xyzw, v0.xyzw, l(0.0, 0.0, 0.0, 0.0)"),
    ("mul by a computed 0", "ushr r0.xyzw, v0.xyzw, l(31, 31, 31, 31)\nmul o0.xyzw, v0.xyzw, r0.xyzw"),
    // -0 (the sign of a negative input, computed at run time) + 0 is +0.
    (
        "add a literal 0 to -0",
        "and r0.xyzw, v0.xyzw, l(0x80000000, 0x80000000, 0x80000000, 0x80000000)\n\
         add o0.xyzw, r0.xyzw, l(0.0, 0.0, 0.0, 0.0)",
    ),
    (
        "add a computed 0 to -0",
        "and r0.xy, v0.xyxx, l(0x80000000, 0x80000000, 0, 0)\nushr r0.zw, v0.xxxy, l(31, 31, 31, 31)\n\
         add o0.xyzw, r0.xyxy, r0.zwzw",
    ),
    ("d_add", "dadd o0.xyzw, v0.xyzw, -v1.xyzw"),
    ("d_mul", "dmul o0.xyzw, v0.xyzw, v1.xyzw"),
    ("d_div", "ddiv o0.xyzw, v0.xyzw, v1.xyzw"),
    ("d_fma", "dfma o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw"),
    ("d_rcp", "drcp o0.xyzw, v0.zwxy"),
    ("d_min", "dmin o0.xyzw, v0.xyzw, |v1.xyzw|"),
    ("d_max", "dmax_sat o0.xyzw, v0.xyzw, v1.xyzw"),
    ("d_movc", "dmovc o0.xyzw, v2.xyxx, v0.xyzw, v1.xyzw"),
    ("d_cmp", "dlt o0.xy, v0.xyzw, v1.xyzw\ndeq o0.zw, v0.xyzw, v0.zwxy"),
    // Double NaNs (high words 0x7ff80000): `dne` is true, `deq` and `dge` false.
    (
        "d_cmp with NaN",
        "mov r0.xyzw, l(0, 0x7ff80000, 0, 0x7ff80000)\ndne o0.xy, r0.xyzw, v0.xyzw\n\
         deq o0.z, r0.xyxy, v0.xyxy\ndge o0.w, r0.zwzw, v0.zwzw",
    ),
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

/// Random vertex programs: how many [`random_programs_on_lavapipe_match_the_reference`]
/// runs, each from its own seed.
const RANDOM_PROGRAMS: u64 = 200;

/// A random program's registers keep floats and integers apart, so that a NaN's bits
/// (which the device chooses, "32-bit Floating Point Rules") never reach an integer
/// operation: `r0`, `r1`, `v0` and `cb0` hold floats, `r2`, `r3` and `v1` integers;
/// values cross only through conversions and comparisons, whose results are defined
/// for every input. `r4.xyz` count the iterations of the loops at each depth, `r4.w`
/// holds a loop's exit test or a relative index.
struct Gen {
    rng: Rng,
    /// When set, the literal operands are read from `cb1` instead (their bits pushed
    /// here; loop bounds and `case` values stay literals).
    data: Option<Vec<[u32; 4]>>,
}

impl Gen {
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.rng.below(items.len())]
    }

    fn swizzle(&mut self) -> String {
        (0..4).map(|_| ['x', 'y', 'z', 'w'][self.rng.below(4)]).collect()
    }

    fn mask(&mut self) -> String {
        let m = 1 + self.rng.below(15);
        (0..4).filter(|c| m & (1 << c) != 0).map(|c| ['x', 'y', 'z', 'w'][c]).collect()
    }

    /// A float source: a float register, a constant or a literal, with a modifier.
    fn float_src(&mut self) -> String {
        let pick = self.rng.below(8);
        let base = match pick {
            0 => format!("v0.{}", self.swizzle()),
            1 => format!("cb0[{}].{}", self.rng.below(4), self.swizzle()),
            2 => {
                let v = [0.0f32, -0.0, 1.0, 0.5, -2.5, 1e30, -1e-30, 3.0e38, 1e-38, f32::INFINITY];
                let lit = [0; 4].map(|_| v[self.rng.below(v.len())]);
                match &mut self.data {
                    Some(data) => {
                        data.push(lit.map(f32::to_bits));
                        format!("cb1[{}].xyzw", data.len() - 1)
                    }
                    None => {
                        let text = lit.map(|x| format!("{x:?}").replace("inf", "1.#INF00"));
                        format!("l({})", text.join(", "))
                    }
                }
            }
            k => format!("r{}.{}", k % 2, self.swizzle()),
        };
        match self.rng.below(6) {
            0 => format!("-{base}"),
            1 if pick != 2 => format!("|{base}|"),
            2 if pick != 2 => format!("-|{base}|"),
            _ => base,
        }
    }

    /// An integer source: an integer register or a literal (sometimes negated).
    fn int_src(&mut self) -> String {
        let base = match self.rng.below(6) {
            0 => format!("v1.{}", self.swizzle()),
            1 => {
                let v = [0, 1, -1, 7, 31, 32, 33, i32::MIN, i32::MAX, 0xffff, 0x1234_5678];
                let lit = [0; 4].map(|_| v[self.rng.below(v.len())]);
                match &mut self.data {
                    Some(data) => {
                        data.push(lit.map(|x| x as u32));
                        format!("cb1[{}].xyzw", data.len() - 1)
                    }
                    None => format!("l({})", lit.map(|x| x.to_string()).join(", ")),
                }
            }
            k => format!("r{}.{}", 2 + k % 2, self.swizzle()),
        };
        if self.rng.below(8) == 0 && !base.starts_with('l') && !base.starts_with("cb1") {
            format!("-{base}")
        } else {
            base
        }
    }

    fn float_dst(&mut self) -> String {
        format!("r{}.{}", self.rng.below(2), self.mask())
    }

    fn int_dst(&mut self) -> String {
        format!("r{}.{}", 2 + self.rng.below(2), self.mask())
    }

    fn sat(&mut self) -> &'static str {
        if self.rng.below(4) == 0 {
            "_sat"
        } else {
            ""
        }
    }

    /// One instruction of straight-line arithmetic.
    fn instruction(&mut self) -> String {
        match self.rng.below(12) {
            0 | 1 => {
                let op = self.pick(&["add", "mul", "min", "max", "dp2", "dp3", "dp4"]);
                let sat = self.sat();
                format!("{op}{sat} {}, {}, {}", self.float_dst(), self.float_src(), self.float_src())
            }
            2 => {
                let sat = self.sat();
                format!(
                    "mad{sat} {}, {}, {}, {}",
                    self.float_dst(),
                    self.float_src(),
                    self.float_src(),
                    self.float_src()
                )
            }
            3 => {
                let op = self.pick(&["mov", "frc", "round_ne", "round_ni", "round_pi", "round_z"]);
                let sat = if op == "mov" { self.sat() } else { "" };
                format!("{op}{sat} {}, {}", self.float_dst(), self.float_src())
            }
            4 => {
                let op = self.pick(&["itof", "utof", "f16tof32"]);
                format!("{op} {}, {}", self.float_dst(), self.int_src())
            }
            5 => {
                let op = self.pick(&["lt", "ge", "eq", "ne"]);
                format!("{op} {}, {}, {}", self.int_dst(), self.float_src(), self.float_src())
            }
            6 => {
                let op = self.pick(&["ftoi", "ftou"]);
                format!("{op} {}, {}", self.int_dst(), self.float_src())
            }
            7 => format!("movc {}, {}, {}, {}", self.float_dst(), self.int_src(), self.float_src(), self.float_src()),
            8 | 9 => {
                let op = self.pick(&[
                    "iadd", "ishl", "ishr", "ushr", "and", "or", "xor", "imin", "imax", "umin", "umax", "ieq", "ine",
                    "ilt", "ige", "ult", "uge",
                ]);
                format!("{op} {}, {}, {}", self.int_dst(), self.int_src(), self.int_src())
            }
            10 => {
                let op =
                    self.pick(&["not", "ineg", "bfrev", "countbits", "firstbit_hi", "firstbit_lo", "firstbit_shi"]);
                format!("{op} {}, {}", self.int_dst(), self.int_src())
            }
            _ => match self.rng.below(6) {
                0 => format!("imad {}, {}, {}, {}", self.int_dst(), self.int_src(), self.int_src(), self.int_src()),
                1 => format!("ubfe {}, {}, {}, {}", self.int_dst(), self.int_src(), self.int_src(), self.int_src()),
                2 => format!("ibfe {}, {}, {}, {}", self.int_dst(), self.int_src(), self.int_src(), self.int_src()),
                3 => format!(
                    "bfi {}, {}, {}, {}, {}",
                    self.int_dst(),
                    self.int_src(),
                    self.int_src(),
                    self.int_src(),
                    self.int_src()
                ),
                4 => {
                    let op = self.pick(&["imul", "umul", "udiv"]);
                    // Two destinations of one mask (a destination may be null).
                    let m = self.mask();
                    let (a, b) = (self.rng.below(2) + 2, self.rng.below(2) + 2);
                    let hi = if self.rng.below(3) == 0 { "null".to_string() } else { format!("r{a}.{m}") };
                    format!("{op} {hi}, r{b}.{m}, {}, {}", self.int_src(), self.int_src())
                }
                _ => format!("movc {}, {}, {}, {}", self.int_dst(), self.int_src(), self.int_src(), self.int_src()),
            },
        }
    }

    /// One instruction that moves through an indexable temp (`x0` floats, `x1`
    /// integers) or reads the immediate constant buffer (floats), or one of `swapc`,
    /// `uaddc`, `usubb`, `umad`. The relative index is made in range first (`and` with
    /// 3 into `r4.w`): out-of-range indexing is left to the device by Direct3D.
    fn indexed(&mut self) -> String {
        let index = format!("and r4.w, {}, l(3, 3, 3, 3)\n", self.int_src());
        match self.rng.below(7) {
            0 => format!("{index}mov x0[r4.w + 0].{}, {}", self.mask(), self.float_src()),
            1 => format!("{index}mov {}, x0[r4.w + 0].{}", self.float_dst(), self.swizzle()),
            2 => format!("{index}mov x1[r4.w + 0].{}, {}", self.mask(), self.int_src()),
            3 => format!("{index}iadd {}, x1[r4.w + 0].{}, {}", self.int_dst(), self.swizzle(), self.int_src()),
            4 => format!("{index}add {}, icb[r4.w + 0].{}, {}", self.float_dst(), self.swizzle(), self.float_src()),
            5 => {
                let (m, a, b) = (self.mask(), self.rng.below(2), self.rng.below(2));
                format!("swapc r{a}.{m}, r{b}.{m}, {}, {}, {}", self.int_src(), self.float_src(), self.float_src())
            }
            _ => {
                let op = self.pick(&["uaddc", "usubb"]);
                let (m, a, b) = (self.mask(), 2 + self.rng.below(2), 2 + self.rng.below(2));
                if self.rng.below(3) == 0 {
                    format!("umad {}, {}, {}, {}", self.int_dst(), self.int_src(), self.int_src(), self.int_src())
                } else {
                    format!("{op} r{a}.{m}, r{b}.{m}, {}, {}", self.int_src(), self.int_src())
                }
            }
        }
    }

    /// A scalar integer condition.
    fn condition(&mut self) -> String {
        let c = ['x', 'y', 'z', 'w'][self.rng.below(4)];
        match self.rng.below(3) {
            0 => format!("v1.{c}"),
            k => format!("r{}.{c}", 1 + k),
        }
    }

    /// A block: straight-line instructions with, below depth 3, `if`/`else`, bounded
    /// loops (with `breakc`/`continuec` inside) and `switch`.
    fn block(&mut self, depth: usize, in_loop: bool, out: &mut String) {
        for _ in 0..1 + self.rng.below(6) {
            let nest = depth < 3 && self.rng.below(4) == 0;
            match if nest { self.rng.below(3) } else { 3 } {
                0 => {
                    let z = self.pick(&["if_nz", "if_z"]);
                    *out += &format!("{z} {}\n", self.condition());
                    self.block(depth + 1, in_loop, out);
                    if self.rng.below(2) == 0 {
                        *out += "else\n";
                        self.block(depth + 1, in_loop, out);
                    }
                    *out += "endif\n";
                }
                1 => {
                    let counter = ['x', 'y', 'z'][depth];
                    *out += &format!(
                        "mov r4.{counter}, l(0)\nloop\nuge r4.w, r4.{counter}, l({})\nbreakc_nz r4.w\n\
                         iadd r4.{counter}, r4.{counter}, l(1)\n",
                        1 + self.rng.below(5)
                    );
                    self.block(depth + 1, true, out);
                    if self.rng.below(2) == 0 {
                        let op = self.pick(&["breakc_nz", "breakc_z", "continuec_nz", "continuec_z"]);
                        *out += &format!("{op} {}\n", self.condition());
                        self.block(depth + 1, true, out);
                    }
                    *out += "endloop\n";
                }
                2 => {
                    *out += &format!("switch {}\ncase l(0)\n", self.condition());
                    self.block(depth + 1, in_loop, out);
                    *out += "break\ncase l(1)\ncase l(-1)\n";
                    self.block(depth + 1, in_loop, out);
                    *out += "break\ndefault\n";
                    self.block(depth + 1, in_loop, out);
                    *out += "break\nendswitch\n";
                }
                _ => {
                    *out += &if self.rng.below(6) == 0 { self.indexed() } else { self.instruction() };
                    *out += "\n";
                }
            }
        }
        let _ = in_loop;
    }

    /// The whole listing: registers initialised from the inputs, a random block, every
    /// register written to an output (`o0`, `o1` floats, `o2`, `o3` integers).
    fn program(&mut self) -> String {
        let mut body = String::new();
        self.block(0, false, &mut body);
        let mut s = String::from("vs_5_0\ndcl_constantbuffer cb0[4], immediateIndexed\n");
        if let Some(data) = &self.data {
            s += &format!("dcl_constantbuffer cb1[{}], immediateIndexed\n", data.len().max(1));
        }
        s += "dcl_immediateConstantBuffer { { 1.500000, -0.000000, 2.250000, -3.000000 }, \
              { 0.100000, 1000000.000000, -0.500000, 0.000000 }, { 7.000000, -7.000000, 0.333333, 65536.000000 }, \
              { -1.000000, 1.000000, 0.000001, -1234.500000 } }\n\
              dcl_input v0.xyzw\ndcl_input v1.xyzw\n\
              dcl_output o0.xyzw\ndcl_output o1.xyzw\ndcl_output o2.xyzw\ndcl_output o3.xyzw\ndcl_temps 5\n\
              dcl_indexableTemp x0[4], 4\ndcl_indexableTemp x1[4], 4\n\
              mov r0.xyzw, v0.xyzw\nmov r1.xyzw, v0.wzyx\nmov r2.xyzw, v1.xyzw\nmov r3.xyzw, v1.yxwz\n";
        // The indexable temps start as copies of the registers of their kind.
        for k in 0..4 {
            s += &format!(
                "mov x0[{k}].xyzw, r{}.{}\nmov x1[{k}].xyzw, r{}.yzwx\n",
                k % 2,
                ["xyzw", "wzyx"][k / 2],
                2 + k % 2
            );
        }
        s += &body;
        s += "mov o0.xyzw, r0.xyzw\nmov o1.xyzw, r1.xyzw\nmov o2.xyzw, r2.xyzw\nmov o3.xyzw, r3.xyzw\nret \n";
        s
    }

    /// The inputs: `v0` floats ([-2, 2] and a few special values), `v1` integers
    /// (small, and a few edge values).
    fn inputs(&mut self) -> Vec<[u32; 4]> {
        let mut v = Vec::new();
        for _ in 0..VERTICES {
            v.push([0; 4].map(|_: u32| match self.rng.below(10) {
                0 => [0.0f32, -0.0, 1e30, -3e38, 1e-38, f32::INFINITY][self.rng.below(6)].to_bits(),
                _ => float_value(&mut self.rng),
            }));
            v.push([0; 4].map(|_: u32| match self.rng.below(4) {
                0 => [0u32, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 31, 32][self.rng.below(6)],
                _ => self.rng.below(40) as u32,
            }));
        }
        v
    }
}

/// One random program (the seed's) through both: `exec` on the listing, lavapipe on its
/// translation; the outcome line. With `data`, literal operands are read from `cb1`.
fn random_outcome(gpu: &Gpu, seed: u64, data: bool) -> (String, String) {
    let mut g = Gen { rng: Rng(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(seed + 1) | 1), data: data.then(Vec::new) };
    let text = g.program();
    let program = tpf::parse::parse_program(&text).unwrap_or_else(|d| panic!("seed {seed}: {d:?}\n{text}")).program;
    let plan = Plan::compile(&program, Vec::new(), Vec::new()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let input = g.inputs();
    let mut data = Data::default();
    data.cbs.insert(0, (0..4).map(|_| [0; 4].map(|_: u32| float_value(&mut g.rng))).collect());
    if let Some(literals) = g.data.take() {
        data.cbs.insert(1, if literals.is_empty() { vec![[0; 4]] } else { literals });
    }
    let n_out = plan.output_registers as usize;
    let outcome = match reference(&plan, &input, &data) {
        Err(err) => corpus::expect::one_line(&format!("not compared: exec: {err}")),
        Ok(expected) => {
            let options = translate::Options {
                bindings: translate::Bindings::parse("cb0 = 0:0\ncb1 = 0:1\n").expect("bindings"),
                vertex_as_compute: true,
                ..Default::default()
            };
            match translate::module_from_program(&program, &[], &[], &options) {
                Err(err) => format!("not compared: translate: {}", corpus::expect::one_line(&err.to_string())),
                Ok(module) => match on_device(gpu, module, &input, n_out, &data) {
                    Err(err) => corpus::expect::one_line(&format!("not compared: {err}")),
                    Ok(got) => compare(&expected, &got, n_out, None),
                },
            }
        }
    };
    (outcome, text)
}

/// [`RANDOM_PROGRAMS`] random programs ([`Gen`]), each run twice through both: with
/// its literal operands as written, and with the same values read from a constant
/// buffer. One line per seed in `tests/expect/lavapipe_random.txt`:
///
/// - `exact`: both forms bit for bit (NaNs equal whatever their bits). The
///   instructions drawn are those whose precision Direct3D does not leave to the
///   device, so no tolerance applies;
/// - `differs with literals only: ...`: the constant-buffer form is exact, the literal
///   form is not. lavapipe simplifies `x * 0` to 0 and `x + 0` to `x` when the 0 is a
///   constant (Mesa's gallivm checks its operands for the constant zero before LLVM
///   sees them), which IEEE 754 and Direct3D ("32-bit Floating Point Rules") do not
///   allow for a negative, infinite or NaN `x` (`x * 0` is -0 or NaN) and for `x = -0`
///   (-0 + 0 is +0); the ALU programs "mul by a literal 0" and "add a literal 0 to -0"
///   show it alone, next to the same with a 0 computed at run time. The translation is
///   the same in both forms but for where the value is read;
/// - `differs: ...`: a difference the literal/constant-buffer split does not explain (to
///   be explained before it is blessed: a constant zero the device folds can also come
///   from elsewhere, such as a temp register read before it is written, which is 0).
///
/// `DXREF_SHOW_PROGRAMS=1` prints the listing of every seed that is not exact.
#[test]
fn random_programs_on_lavapipe_match_the_reference() {
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_random") else { return };
    let mut outcomes = BTreeMap::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..RANDOM_PROGRAMS {
        let (literal, text) = random_outcome(&gpu, seed, false);
        let (data, _) = random_outcome(&gpu, seed, true);
        let outcome = match (literal.as_str(), data.as_str()) {
            ("exact", "exact") => "exact".to_string(),
            (_, "exact") => format!("differs with literals only: {}", literal.trim_start_matches("differs: ")),
            ("exact", _) => format!("differs with literals in a constant buffer: {data}"),
            _ => literal,
        };
        if outcome != "exact" && std::env::var_os("DXREF_SHOW_PROGRAMS").is_some() {
            println!("seed {seed}: {outcome}\n{text}");
        }
        *counts.entry(outcome.split(':').next().unwrap_or("").to_string()).or_default() += 1;
        outcomes.insert(format!("random/{seed:03}"), outcome);
    }
    println!("lavapipe_random: {counts:?}");
    corpus::expect::check(corpus::expect_file!("lavapipe_random.txt"), &outcomes);
}
