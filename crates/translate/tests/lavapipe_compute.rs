//! Translated compute shaders run on Mesa's lavapipe (a Vulkan device on the CPU,
//! through `wgpu`) write what the reference interpreter's dispatch
//! (`exec::compute::dispatch`) writes, byte for byte.
//!
//! Every corpus compute shader is translated and dispatched for [`GROUPS`] thread
//! groups on both, with the same generated memory: constant buffers of 4096 vectors;
//! raw, structured and typed buffer views (shader resource views and UAVs) of
//! pseudo-random words (each word, by a coin, a small integer 0..16 or a float in
//! [-2, 2], so that both integer addressing and float arithmetic get exercised), a
//! typed buffer of the four-component 32-bit format of its declared type
//! (`R32G32B32A32_FLOAT`, `_UINT`, `_SINT`); float 1D and 2D textures (views and
//! write-only typed UAVs) of one level, [`resources::TEXTURE_SIZE`] texels square
//! (1D: one row), `R32G32B32A32_FLOAT` texels in [0, 1] — the format the translator's storage
//! textures hold for a typed UAV, whatever its declared float type (`unorm` too);
//! samplers with point filtering and clamp addressing; float multisampled 2D textures
//! of the declared sample count (4 where the declaration leaves it open), texels
//! `R16G16B16A16_FLOAT` in [0, 1] in 1/256 steps, drawn sample by sample on the device
//! (no copy writes a multisampled texture). The UAVs start full of such
//! words (texels) too, so that what neither side writes is compared as well (the memory
//! is `support/resources.rs`'s, shared with `lavapipe_pixel`). Every
//! word of every UAV (a texture's texels, row after row) is compared:
//!
//! - bit for bit; two NaNs are equal whatever their bits (the reference makes every
//!   NaN one quiet NaN; "32-bit Floating Point Rules" leaves the bits free);
//! - when the program uses an instruction whose precision Direct3D leaves to the
//!   device, two finite floats within [`tolerance::TOLERANCES`] of it are "within
//!   tolerance";
//! - the UAV counters (`imm_atomic_alloc`) are bound at group 3, starting at 0;
//! - an exact comparison where the reference leaves every UAV as it was (the generated
//!   constants send the program down no path that writes), or changes words only to 0
//!   (its reads all out of bounds, say), says so.
//!
//! The memory is drawn in rounds, each from its own seed (the program's name and the
//! round's number). The first round draws every word as above. When the reference
//! writes nothing with it, or only zeros — constants that gate every write, or send
//! every read out of bounds, as bit fields of sizes and pitches do — or makes threads
//! of a group race (two of them storing other values to one word) — up to [`ROUNDS`]
//! more are drawn whose constant-buffer words are, by a die, such a word, any 32 bits,
//! or one of the program's own 32-bit immediates (what it compares and masks constants
//! with) or a neighbour of one; then up to [`PACKED_ROUNDS`] more whose words are
//! mostly packed bit fields: small numbers (0 to 3) in the fields the program takes
//! words apart into (`ubfe`/`ibfe` widths and offsets, `and` masks, `ushr`/`ishr`
//! shifts), as sizes, scales, pitches and flags packed in one constant are. The
//! first round in which the reference writes a value other than 0 (else the first in
//! which it writes at all), the same in both group orders and both orders of the
//! threads of a group (`exec`'s `GroupOrder::ReverseThreads`), is the one compared on
//! the device, and the outcome line names it ("(memory of round 3)") when it is not the
//! first. Nothing depends on which program it is.
//!
//! Shaders with other resources (multisampled texture arrays, 3D textures, typed UAV textures
//! that are read, comparison samplers) are "not compared", with the reason. Each outcome is one line of
//! `tests/expect/lavapipe_compute.txt` (two-sided; `DXREF_BLESS=1` rewrites it).
//!
//! A second test runs hand-written programs the same way, with thread-group shared
//! memory, barriers and atomics (`tests/expect/lavapipe_compute_programs.txt`): a
//! reduction, a prefix sum, interlocked adds whose totals do not depend on the order,
//! every sample of a multisampled texture's texels (and samples and texels past its
//! end), and out-of-bounds shared-memory accesses (where exec's documented choice and the
//! translation's bounds checks part for a structured offset past the stride).
//! Without a lavapipe adapter the tests print SKIP and pass, unless
//! `DXREF_REQUIRE_CORPUS=1`.

use std::collections::BTreeMap;

use corpus::Rng;
use exec::compute::{self, GroupOrder, Limits};
use exec::Plan;
use tpf::{Opcode, ProgramType};

#[path = "support/lavapipe.rs"]
mod lavapipe;
#[path = "support/resources.rs"]
mod resources;
#[path = "support/tolerance.rs"]
mod tolerance;
use lavapipe::{one_lavapipe_thread, run_compute, Gpu};
use resources::{program_data, Data, Hints, COMPUTE};
use tolerance::{tolerance, uav_difference};

/// The thread groups every program runs.
const GROUPS: [u32; 3] = [2, 2, 1];

/// The rounds of memory drawn after the first when the reference writes nothing (or
/// only zeros) whose constants come from the program's immediates.
const ROUNDS: u64 = 24;

/// The rounds after those whose constants are mostly [`resources::packed`] words of
/// the program's bit fields.
const PACKED_ROUNDS: u64 = 24;

/// The reference: `exec`'s dispatch; every UAV's memory after it, in slot order.
fn reference(plan: &Plan, data: &Data, order: GroupOrder) -> Result<Vec<Vec<u8>>, String> {
    let mut uavs = data.uav_memory();
    {
        let mut res = data.resources_with_uavs(&mut uavs);
        compute::dispatch_in_order(plan, GROUPS, order, &mut res, &Limits { step_limit: 1 << 20 })
            .map_err(|e| e.to_string())?;
    }
    Ok(uavs)
}

/// The translation on lavapipe: every UAV's memory after the dispatch, in slot order.
fn on_device(gpu: &Gpu, module: naga::Module, workgroup: [u32; 3], data: &Data) -> Result<Vec<Vec<u8>>, String> {
    let mut written = run_compute(gpu, module, workgroup, &data.bound(), GROUPS)?;
    written.truncate(data.uavs.len());
    Ok(written)
}

/// Compares the UAVs word by word; the outcome line.
fn compare(slots: &[u32], expected: &[Vec<u8>], got: &[Vec<u8>], tolerance: Option<(u32, f32, Opcode)>) -> String {
    let mut tolerated = None;
    if let Some(d) = uav_difference(slots, expected, got, tolerance, &mut tolerated) {
        return d;
    }
    match tolerated {
        Some(op) => format!("within tolerance ({})", op.mnemonic()),
        None => "exact".into(),
    }
}

/// What the reference's dispatch wrote into the UAVs, from least to most telling.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Written {
    /// Every word is as it was.
    Nothing,
    /// The words it changed are all 0: a program whose reads all fell out of bounds
    /// (which read 0) writes so.
    Zeros,
    /// A word changed to another value than 0.
    Values,
}

/// What the UAVs `after` a dispatch hold that `data` did not.
fn written(data: &Data, after: &[Vec<u8>]) -> Written {
    let mut w = Written::Nothing;
    for (v, e) in data.uavs.values().zip(after) {
        for (a, b) in v.bytes.chunks_exact(4).zip(e.chunks_exact(4)) {
            if a != b {
                if b != [0; 4] {
                    return Written::Values;
                }
                w = Written::Zeros;
            }
        }
    }
    w
}

/// Runs one compute shader (a container) both ways; the outcome line.
fn outcome(gpu: &Gpu, bytes: &[u8], program: &tpf::Program<'_>, id: &str) -> String {
    let plan = match Plan::from_bytecode(bytes) {
        Ok(p) => p,
        Err(err) => return corpus::expect::one_line(&format!("not compared: exec: {err}")),
    };
    let seed = resources::seed(id);
    let mut rng = Rng(seed | 1);
    let mut data = match program_data(program, &mut rng, COMPUTE, None) {
        Ok(d) => d,
        Err(why) => return format!("not compared: {why}"),
    };
    // The bindings depend on the declarations alone: the same in every round.
    let options = translate::Options { bindings: data.bindings(), ..Default::default() };
    let module = match translate::module(bytes, &options) {
        Ok(m) => m,
        Err(err) => return format!("not compared: translate: {}", corpus::expect::one_line(&err.to_string())),
    };
    let mut expected = match reference(&plan, &data, GroupOrder::Forward) {
        Ok(u) => u,
        Err(err) => return format!("not compared: exec: {}", corpus::expect::one_line(&err)),
    };
    // Groups that communicate through UAVs race (Direct3D runs groups in any order, or
    // at once), as do threads of a group that write the same words without a barrier:
    // such a program has no one result to compare with.
    let mut reversed = reference(&plan, &data, GroupOrder::Reverse);
    let mut threads_reversed = reference(&plan, &data, GroupOrder::ReverseThreads);
    let first = written(&data, &expected);
    // The round whose memory is compared.
    let mut chosen = 0;
    let only_threads_race = reversed.as_ref() == Ok(&expected) && threads_reversed.as_ref() != Ok(&expected);
    if first < Written::Values && reversed.as_ref().is_ok_and(|r| written(&data, r) < Written::Values)
        || only_threads_race
    {
        // Later rounds, for one that writes values, else one that writes at all (and
        // whose threads do not race).
        let mut best = if reversed.as_ref() == Ok(&expected) && threads_reversed.as_ref() == Ok(&expected) {
            first
        } else {
            Written::Nothing
        };
        let mut hints = Hints::of(program);
        for round in 1..=ROUNDS + PACKED_ROUNDS {
            let mut rng = Rng((seed ^ round.wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1);
            hints.packed = round > ROUNDS;
            let Ok(d) = program_data(program, &mut rng, COMPUTE, Some(&hints)) else { break };
            let Ok(e) = reference(&plan, &d, GroupOrder::Forward) else { continue };
            let w = written(&d, &e);
            if w <= best {
                continue;
            }
            let r = reference(&plan, &d, GroupOrder::Reverse);
            let t = reference(&plan, &d, GroupOrder::ReverseThreads);
            if r.as_ref() == Ok(&e) && t.as_ref() == Ok(&e) {
                (data, expected, reversed, threads_reversed, best, chosen) = (d, e, r, t, w, round);
                if best == Written::Values {
                    break;
                }
            }
        }
    }
    if reversed.as_ref() != Ok(&expected) {
        return "not compared: its result depends on the order of the thread groups".into();
    }
    if threads_reversed.as_ref() != Ok(&expected) {
        return "not compared: its result depends on the order of the threads in a group".into();
    }
    let got = match on_device(gpu, module, plan.thread_group, &data) {
        Ok(u) => u,
        Err(err) => return format!("not compared: lavapipe: {}", corpus::expect::one_line(&err)),
    };
    let slots: Vec<u32> = data.uavs.keys().copied().collect();
    let outcome = compare(&slots, &expected, &got, tolerance(program));
    // A comparison where the reference writes no word, or only zeros, proves little:
    // said so.
    let outcome = match written(&data, &expected) {
        Written::Nothing if outcome == "exact" => "exact, but writes nothing (with the generated memory)".into(),
        Written::Zeros if outcome == "exact" => "exact, but writes only zeros (with the generated memory)".into(),
        _ => outcome,
    };
    match chosen {
        0 => outcome,
        r => format!("{outcome} (memory of round {r})"),
    }
}

#[test]
fn corpus_compute_shaders_on_lavapipe_match_the_reference() {
    let Some(entries) = corpus::dxbc_entries("lavapipe_compute") else { return };
    one_lavapipe_thread();
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_compute") else { return };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for e in &entries {
        let bytes = e.bytes();
        let container = dxbc::Container::parse(&bytes).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        let Some(chunk) = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]) else { continue };
        let program = tpf::decode(chunk.data).unwrap_or_else(|err| panic!("{}: {err}", e.id()));
        let outcome = if program.version.ty != ProgramType::Compute {
            "not a compute shader".to_string()
        } else {
            outcome(&gpu, &bytes, &program, &e.id())
        };
        *counts.entry(outcome.split([':', '(']).next().unwrap_or("").trim().to_string()).or_default() += 1;
        outcomes.insert(e.id(), outcome);
    }
    println!("lavapipe_compute: {counts:?} (translator's SPIR-V passed through: {})", gpu.passthrough);
    corpus::expect::check(corpus::expect_file!("lavapipe_compute.txt"), &outcomes);
}

/// Hand-written programs with shared memory, barriers and atomics (listings).
const PROGRAMS: &[(&str, &str)] = &[
    (
        "reduction_structured_tgsm",
        "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadGroupID.xy
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_structured g0, 4, 64
dcl_thread_group 64, 1, 1
imad r0.x, vThreadGroupID.y, l(2), vThreadGroupID.x
imad r0.x, r0.x, l(64), vThreadIDInGroupFlattened.x
ishl r0.x, r0.x, l(2)
ld_raw r0.y, r0.x, u0.xxxx
store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.y
sync_g_t
mov r0.z, l(32)
loop
  ieq r1.x, r0.z, l(0)
  breakc_nz r1.x
  ult r1.x, vThreadIDInGroupFlattened.x, r0.z
  if_nz r1.x
    iadd r1.y, vThreadIDInGroupFlattened.x, r0.z
    ld_structured r1.y, r1.y, l(0), g0.xxxx
    ld_structured r1.z, vThreadIDInGroupFlattened.x, l(0), g0.xxxx
    iadd r1.y, r1.y, r1.z
    store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r1.y
  endif
  sync_g_t
  ushr r0.z, r0.z, l(1)
endloop
if_z vThreadIDInGroupFlattened.x
  ld_structured r1.x, l(0), l(0), g0.xxxx
  imad r1.y, vThreadGroupID.y, l(2), vThreadGroupID.x
  ishl r1.y, r1.y, l(2)
  store_raw u1.x, r1.y, r1.x
endif
ret
",
    ),
    (
        "prefix_sum_raw_tgsm",
        "cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadID.xy
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_raw g0, 256
dcl_thread_group 64, 1, 1
imad r0.x, vThreadID.y, l(128), vThreadID.x
ishl r0.x, r0.x, l(2)
ld_raw r0.y, r0.x, u0.xxxx
ishl r0.w, vThreadIDInGroupFlattened.x, l(2)
store_raw g0.x, r0.w, r0.y
sync_g_t
mov r0.z, l(1)
loop
  uge r1.x, r0.z, l(64)
  breakc_nz r1.x
  mov r1.w, l(0)
  uge r1.x, vThreadIDInGroupFlattened.x, r0.z
  if_nz r1.x
    iadd r1.y, vThreadIDInGroupFlattened.x, -r0.z
    ishl r1.y, r1.y, l(2)
    ld_raw r1.w, r1.y, g0.xxxx
  endif
  sync_g_t
  ld_raw r1.z, r0.w, g0.xxxx
  iadd r1.z, r1.z, r1.w
  store_raw g0.x, r0.w, r1.z
  sync_g_t
  ishl r0.z, r0.z, l(1)
endloop
ld_raw r1.x, r0.w, g0.xxxx
store_raw u1.x, r0.x, r1.x
ret
",
    ),
    (
        "interlocked_adds_uav_and_tgsm",
        "cs_5_0
dcl_uav_raw u0
dcl_uav_structured u1, 8
dcl_input vThreadGroupID.xy
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_raw g0, 8
dcl_thread_group 8, 4, 1
atomic_iadd u0, l(0), l(1)
atomic_iadd g0, l(0), vThreadIDInGroupFlattened.x
atomic_umax g0, l(4), vThreadIDInGroupFlattened.x
imad r0.x, vThreadGroupID.y, l(2), vThreadGroupID.x
and r0.y, vThreadIDInGroupFlattened.x, l(3)
mov r0.w, l(4)
atomic_iadd u1, r0.xwxx, r0.y
sync_g_t
if_z vThreadIDInGroupFlattened.x
  ld_raw r1.xy, l(0), g0.xyxx
  ishl r0.z, r0.x, l(3)
  iadd r0.z, r0.z, l(4)
  store_raw u0.xy, r0.z, r1.xyxx
endif
ret
",
    ),
    (
        "imm_atomics_tgsm_single_thread_per_word",
        "cs_5_0
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadID.xy
dcl_temps 3
dcl_tgsm_structured g0, 16, 16
dcl_tgsm_raw g1, 64
dcl_thread_group 16, 1, 1
store_structured g0.xyzw, vThreadIDInGroupFlattened.x, l(0), l(0xfffffff0, 12, 12, 12)
ishl r1.z, vThreadIDInGroupFlattened.x, l(2)
store_raw g1.x, r1.z, l(0xfffffff0)
mov r1.x, vThreadIDInGroupFlattened.x
mov r1.y, l(0)
imm_atomic_imax r0.x, g0, r1.xyxx, l(5)
imm_atomic_umin r0.y, g1, r1.z, l(3)
imm_atomic_exch r0.z, g0, r1.xyxx, l(7)
mov r1.y, l(4)
imm_atomic_cmp_exch r0.w, g0, r1.xyxx, l(12), vThreadID.x
mov r1.y, l(8)
imm_atomic_xor r2.x, g0, r1.xyxx, vThreadID.y
ld_structured r2.yzw, vThreadIDInGroupFlattened.x, l(0), g0.xxyz
imad r1.z, vThreadID.y, l(32), vThreadID.x
ishl r1.z, r1.z, l(5)
store_raw u0.xyzw, r1.z, r0.xyzw
iadd r1.z, r1.z, l(16)
store_raw u0.xyzw, r1.z, r2.xyzw
ret
",
    ),
    (
        "out_of_bounds_tgsm_raw",
        "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.xy
dcl_temps 2
dcl_tgsm_raw g0, 16
dcl_thread_group 1, 1, 1
store_raw g0.xyzw, l(0), l(1, 2, 3, 4)
store_raw g0.xyzw, l(8), l(30, 40, 50, 60)
store_raw g0.x, l(16), l(99)
ld_raw r0.xyzw, l(0), g0.xyzw
ld_raw r1.xyzw, l(12), g0.xyzw
imad r1.y, vThreadID.y, l(2), vThreadID.x
ishl r1.y, r1.y, l(5)
store_raw u0.xyzw, r1.y, r0.xyzw
iadd r1.y, r1.y, l(16)
store_raw u0.x, r1.y, r1.x
ret
",
    ),
    (
        "out_of_bounds_tgsm_structured_offset",
        "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.xy
dcl_temps 2
dcl_tgsm_structured g0, 8, 2
dcl_thread_group 1, 1, 1
store_structured g0.xy, l(0), l(0), l(5, 6, 0, 0)
store_structured g0.xy, l(1), l(0), l(7, 8, 0, 0)
store_structured g0.xy, l(0), l(4), l(10, 11, 0, 0)
ld_structured r0.xyzw, l(0), l(0), g0.xyzw
imad r1.y, vThreadID.y, l(2), vThreadID.x
ishl r1.y, r1.y, l(4)
store_raw u0.xyzw, r1.y, r0.xyzw
ret
",
    ),
    (
        // Every sample of a multisampled texture's texels (the harness draws them), and
        // out-of-range samples and texels (which read 0), by group and thread.
        "multisampled_texture_samples",
        "cs_5_0
dcl_resource_texture2dms(4) (float,float,float,float) t0
dcl_uav_raw u0
dcl_input vThreadID.xy
dcl_temps 3
dcl_thread_group 8, 8, 1
imad r0.x, vThreadID.y, l(16), vThreadID.x
imul null, r0.x, r0.x, l(96)
iadd r1.xy, vThreadID.xyxx, l(48, 48, 0, 0)
mov r1.zw, l(0,0,0,0)
mov r2.x, l(0)
loop
  uge r2.y, r2.x, l(6)
  breakc_nz r2.y
  ldms r0.yzw, r1.xyzw, t0.xzyw, r2.x
  ishl r2.z, r2.x, l(4)
  iadd r2.z, r0.x, r2.z
  store_raw u0.xyz, r2.z, r0.yzwy
  iadd r2.x, r2.x, l(1)
endloop
ret
",
    ),
];

#[test]
fn shared_memory_barrier_and_atomic_programs_on_lavapipe_match_the_reference() {
    one_lavapipe_thread();
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_compute (programs)") else { return };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    for (name, text) in PROGRAMS {
        let bytes = listing::asm::assemble(text, &Default::default()).unwrap_or_else(|d| panic!("{name}: {d:?}")).bytes;
        let container = dxbc::Container::parse(&bytes).expect("container");
        let chunk = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR]).expect("program");
        let program = tpf::decode(chunk.data).expect("decodes");
        outcomes.insert(name.to_string(), outcome(&gpu, &bytes, &program, name));
    }
    println!("lavapipe_compute programs: {outcomes:?}");
    corpus::expect::check(corpus::expect_file!("lavapipe_compute_programs.txt"), &outcomes);
}
