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
//! write-only typed UAVs) of one level, [`TEXTURE_SIZE`] texels square (1D: one row),
//! `R32G32B32A32_FLOAT` texels in [0, 1] — the format the translator's storage
//! textures hold for a typed UAV, whatever its declared float type (`unorm` too);
//! samplers with point filtering and clamp addressing; float multisampled 2D textures
//! of the declared sample count (4 where the declaration leaves it open), texels
//! `R16G16B16A16_FLOAT` in [0, 1] in 1/256 steps, drawn sample by sample on the device
//! (no copy writes a multisampled texture). The UAVs start full of such
//! words (texels) too, so that what neither side writes is compared as well. Every
//! word of every UAV (a texture's texels, row after row) is compared:
//!
//! - bit for bit; two NaNs are equal whatever their bits (the reference makes every
//!   NaN one quiet NaN; "32-bit Floating Point Rules" leaves the bits free);
//! - when the program uses an instruction whose precision Direct3D leaves to the
//!   device, two finite floats within [`TOLERANCES`] of it are "within tolerance";
//! - the UAV counters (`imm_atomic_alloc`) are bound at group 3, starting at 0;
//! - an exact comparison where the reference leaves every UAV as it was (the generated
//!   constants send the program down no path that writes), or changes words only to 0
//!   (its reads all out of bounds, say), says so.
//!
//! The memory is drawn in rounds, each from its own seed (the program's name and the
//! round's number). The first round draws every word as above. When the reference
//! writes nothing with it, or only zeros — constants that gate every write, or send
//! every read out of bounds, as bit fields of sizes and pitches do — up to [`ROUNDS`]
//! more are drawn whose constant-buffer words are, by a die, such a word, any 32 bits,
//! or one of the program's own 32-bit immediates (what it compares and masks constants
//! with) or a neighbour of one; the first round in which the reference writes a value
//! other than 0 (else the first in which it writes at all), the same in both group
//! orders, is the one compared on the device. Nothing depends on which program it is.
//!
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
use exec::resources::{AddressMode, Dimension, Filter, Sampler, Srv, TextureView, Uav};
use exec::{Format, Plan, Resources};
use tpf::{Body, Decl, Opcode, ProgramType, ResourceDimension, ReturnType, SamplerMode};
use translate::buffer_format::{self, Numeric};

#[path = "support/lavapipe.rs"]
mod lavapipe;
use lavapipe::{run_compute, vec4_bytes, Bound, Buffer, Gpu};

/// The thread groups every program runs.
const GROUPS: [u32; 3] = [2, 2, 1];

/// Per instruction: the units in the last place and the absolute difference a float
/// word may differ by when the program uses it (as `lavapipe_vertex`).
const TOLERANCES: &[(Opcode, u32, f32)] = &[
    (Opcode::Div, 2, 0.0),
    (Opcode::Rcp, 2, 0.0),
    (Opcode::Rsq, 2, 0.0),
    (Opcode::Sqrt, 2, 0.0),
    (Opcode::Exp, 4, 0.0),
    (Opcode::Log, 4, 1.0 / 2_097_152.0),
    (Opcode::SinCos, 4, 1.0 / 2_097_152.0),
];

/// The rounds of memory drawn after the first when the reference writes nothing.
const ROUNDS: u64 = 24;

/// A word: a small integer or a float in [-2, 2] (1/1000 steps), by a coin.
fn word(rng: &mut Rng) -> u32 {
    if rng.below(2) == 0 {
        rng.below(16) as u32
    } else {
        ((rng.below(4001) as f32 - 2000.0) / 1000.0).to_bits()
    }
}

fn words(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).flat_map(|_| word(rng).to_le_bytes()).collect()
}

/// A constant-buffer word of the later rounds: by a die, a [`word`], any 32 bits, or
/// one of `immediates` (the program's own) or its neighbour.
fn constant(rng: &mut Rng, immediates: &[u32]) -> u32 {
    match rng.below(4) {
        0 => word(rng),
        1 => rng.next_u64() as u32,
        _ if immediates.is_empty() => rng.next_u64() as u32,
        _ => {
            let v = immediates[rng.below(immediates.len())];
            v.wrapping_add(rng.below(3) as u32).wrapping_sub(1)
        }
    }
}

/// The 32-bit immediates (`l(...)` components) the program uses, each once.
fn immediates(program: &tpf::Program<'_>) -> Vec<u32> {
    let mut out: Vec<u32> = program
        .iter()
        .flat_map(|i| i.operands().iter())
        .filter(|o| o.ty == tpf::OperandType::Immediate32)
        .flat_map(|o| o.imm[..o.immediate_count()].to_vec())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A texel in [0, 1] (1/1000 steps): a colour, as the corpus's image shaders read.
fn texel(rng: &mut Rng) -> [f32; 4] {
    [0; 4].map(|_| rng.below(1001) as f32 / 1000.0)
}

/// The side of the textures bound: 64 texels (a multiple of 16, as the harness reads
/// writable textures back), 64 rows (one for a 1D texture).
const TEXTURE_SIZE: u32 = 64;

/// What a view is.
#[derive(Clone, Copy)]
enum Kind {
    /// A raw (byte address) buffer.
    Raw,
    /// A structured buffer of this stride.
    Structured(u32),
    /// A typed buffer of this format (the four-component 32-bit one of its declared
    /// type, [`buffer_format::default_format`], named in the bindings).
    Typed(Format),
    /// A 1D (height 1) or 2D texture of one level, `R32G32B32A32_FLOAT` texels (the
    /// format the translator's `rgba32float` storage textures hold for typed UAVs).
    Texture { one_d: bool },
    /// A multisampled 2D texture of `samples` samples per texel, `R16G16B16A16_FLOAT`
    /// (a format the device draws multisampled), each sample's value in [0, 1] in
    /// 1/256 steps (exact in a half); its memory is exec's (samples of a texel
    /// consecutive).
    Multisampled { samples: u32 },
}

/// A view and its memory (a texture's: its texels' floats, row after row).
struct View {
    kind: Kind,
    bytes: Vec<u8>,
}

impl View {
    fn texture(one_d: bool, rng: &mut Rng) -> View {
        let n = TEXTURE_SIZE * if one_d { 1 } else { TEXTURE_SIZE };
        let bytes = (0..n).flat_map(|_| texel(rng)).flat_map(f32::to_le_bytes).collect();
        View { kind: Kind::Texture { one_d }, bytes }
    }

    fn multisampled(samples: u32, rng: &mut Rng) -> View {
        let n = TEXTURE_SIZE * TEXTURE_SIZE * samples;
        let half = |rng: &mut Rng| exec::format::f32_to_f16(rng.below(257) as f32 / 256.0);
        let bytes = (0..4 * n).flat_map(|_| half(rng).to_le_bytes()).collect();
        View { kind: Kind::Multisampled { samples }, bytes }
    }

    /// A texture's width and height.
    fn size(one_d: bool) -> (u32, u32) {
        (TEXTURE_SIZE, if one_d { 1 } else { TEXTURE_SIZE })
    }

    /// A texture's texels (a multisampled one's samples).
    fn texels(&self) -> Vec<[f32; 4]> {
        if let Kind::Multisampled { .. } = self.kind {
            return self
                .bytes
                .chunks_exact(8)
                .map(|c| [0, 1, 2, 3].map(|k| exec::format::f16_to_f32(u16::from_le_bytes([c[2 * k], c[2 * k + 1]]))))
                .collect();
        }
        self.bytes
            .chunks_exact(16)
            .map(|c| [0, 1, 2, 3].map(|k| f32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])))
            .collect()
    }

    fn texture_view(one_d: bool, data: &[u8]) -> TextureView<'_> {
        let (width, height) = View::size(one_d);
        TextureView {
            dimension: if one_d { Dimension::Texture1D } else { Dimension::Texture2D },
            format: Format::R32G32B32A32_FLOAT,
            width,
            height,
            depth: 1,
            array_size: 1,
            mip_levels: 1,
            data,
        }
    }
}

/// The memory a program reads and writes, by slot.
#[derive(Default)]
struct Data {
    cbs: BTreeMap<u32, Vec<[u32; 4]>>,
    srvs: BTreeMap<u32, View>,
    uavs: BTreeMap<u32, View>,
    /// UAVs whose hidden counter the program uses.
    counters: Vec<u32>,
    /// Samplers (point filtering, clamp addressing), by slot.
    samplers: Vec<u32>,
}

impl Data {
    /// Constant buffers at group 0, views at 1, UAVs at 2, counters at 3, samplers at
    /// 4: bindings 0, 1, 2... in slot order (as `on_device` binds them); the typed
    /// buffers' formats.
    fn bindings(&self) -> translate::Bindings {
        let mut text = String::new();
        for (k, slot) in self.cbs.keys().enumerate() {
            text += &format!("cb{slot} = 0:{k}\n");
        }
        for (k, slot) in self.srvs.keys().enumerate() {
            text += &format!("t{slot} = 1:{k}\n");
        }
        for (k, slot) in self.uavs.keys().enumerate() {
            text += &format!("u{slot} = 2:{k}\n");
        }
        for (k, slot) in self.counters.iter().enumerate() {
            text += &format!("uc{slot} = 3:{k}\n");
        }
        for (k, slot) in self.samplers.iter().enumerate() {
            text += &format!("s{slot} = 4:{k}\n");
        }
        for (class, map) in [("t", &self.srvs), ("u", &self.uavs)] {
            for (slot, v) in map {
                if let Kind::Typed(f) = v.kind {
                    text += &format!("{class}{slot} = {}\n", f.name());
                }
            }
        }
        translate::Bindings::parse(&text).expect("bindings")
    }
}

/// The slot a declaration names (the register: Shader Model 5.1's range start).
fn slot(program: &tpf::Program<'_>, o: &tpf::Operand) -> u32 {
    let k = if program.version.is_sm51() { 1 } else { 0 };
    o.index(k).map_or(0, |i| i.immediate() as u32)
}

/// The memory for every declaration, or why the program is not compared; the constant
/// buffers' words from [`constant`] with `immediates` when given, else [`word`].
fn program_data(program: &tpf::Program<'_>, rng: &mut Rng, immediates: Option<&[u32]>) -> Result<Data, String> {
    let mut data = Data::default();
    for inst in program.iter() {
        match &inst.body {
            Body::Op(_) if matches!(inst.opcode, Opcode::ImmAtomicAlloc | Opcode::ImmAtomicConsume) => {
                if let Some(o) = inst.operands().get(1) {
                    let s = slot(program, o);
                    if !data.counters.contains(&s) {
                        data.counters.push(s);
                    }
                }
                continue;
            }
            Body::Decl(_) => {}
            _ => continue,
        }
        let Body::Decl(d) = &inst.body else { continue };
        let (map, operand, kind) = match d {
            Decl::ConstantBuffer { operand, .. } => {
                let s = slot(program, inst.operand(*operand));
                let cb = (0..4096)
                    .map(|_| {
                        [0; 4].map(|_: u32| match immediates {
                            Some(imm) => constant(rng, imm),
                            None => word(rng),
                        })
                    })
                    .collect();
                data.cbs.insert(s, cb);
                continue;
            }
            Decl::ResourceRaw { operand, .. } => (&mut data.srvs, operand, Kind::Raw),
            Decl::ResourceStructured { operand, stride, .. } => (&mut data.srvs, operand, Kind::Structured(*stride)),
            Decl::UavRaw { operand, .. } => (&mut data.uavs, operand, Kind::Raw),
            Decl::UavStructured { operand, stride, .. } => (&mut data.uavs, operand, Kind::Structured(*stride)),
            Decl::Resource { operand, dim, return_type, .. } | Decl::UavTyped { operand, dim, return_type, .. } => {
                let uav = matches!(d, Decl::UavTyped { .. });
                let numeric = match return_type.types[0] {
                    ReturnType::Float | ReturnType::Unorm | ReturnType::Snorm => Numeric::Float,
                    ReturnType::Uint => Numeric::Uint,
                    ReturnType::Sint => Numeric::Sint,
                    _ => return Err("needs a view of another return type".into()),
                };
                let map = if uav { &mut data.uavs } else { &mut data.srvs };
                let kind = match dim {
                    ResourceDimension::Buffer => Kind::Typed(buffer_format::default_format(numeric, false)),
                    ResourceDimension::Texture1D | ResourceDimension::Texture2D if numeric == Numeric::Float => {
                        if uav && program.iter().any(|i| i.opcode == Opcode::LdUavTyped) {
                            return Err("reads a typed UAV texture (the harness binds write-only ones)".into());
                        }
                        let s = slot(program, inst.operand(*operand));
                        map.insert(s, View::texture(*dim == ResourceDimension::Texture1D, rng));
                        continue;
                    }
                    ResourceDimension::Texture2DMS if !uav && numeric == Numeric::Float => {
                        // A declaration without a sample count takes any: 4.
                        let samples = match d {
                            Decl::Resource { sample_count: n @ 1.., .. } => u32::from(*n),
                            _ => 4,
                        };
                        let s = slot(program, inst.operand(*operand));
                        map.insert(s, View::multisampled(samples, rng));
                        continue;
                    }
                    ResourceDimension::Texture2DMS | ResourceDimension::Texture2DMSArray => {
                        return Err(
                            "needs multisampled texture arrays or integer ones (the harness binds float 2D ones)"
                                .into(),
                        )
                    }
                    _ => {
                        return Err(
                            "needs textures of another dimension or type (the harness binds float 1D and 2D ones)"
                                .into(),
                        )
                    }
                };
                (map, operand, kind)
            }
            Decl::Sampler { operand, mode: SamplerMode::Default, .. } => {
                data.samplers.push(slot(program, inst.operand(*operand)));
                continue;
            }
            Decl::Sampler { .. } => return Err("needs comparison or mono samplers".into()),
            _ => continue,
        };
        let s = slot(program, inst.operand(*operand));
        let len = match kind {
            Kind::Raw => 16384,
            Kind::Structured(stride) => 64 * stride as usize,
            Kind::Typed(f) => 64 * f.size(),
            Kind::Texture { .. } | Kind::Multisampled { .. } => unreachable!("textures are made above"),
        };
        map.insert(s, View { kind, bytes: words(rng, len / 4) });
    }
    data.samplers.sort_unstable();
    data.counters.sort_unstable();
    Ok(data)
}

/// The reference: `exec`'s dispatch; every UAV's memory after it, in slot order.
fn reference(plan: &Plan, data: &Data, order: GroupOrder) -> Result<Vec<Vec<u8>>, String> {
    let mut uavs: Vec<Vec<u8>> = data.uavs.values().map(|v| v.bytes.clone()).collect();
    {
        let mut res = Resources::default();
        for (&slot, cb) in &data.cbs {
            if let Some(s) = res.constant_buffers.get_mut(slot as usize) {
                *s = Some(cb);
            }
        }
        for (&slot, v) in &data.srvs {
            let slot = slot as usize;
            if res.srvs.len() <= slot {
                res.srvs.resize(slot + 1, None);
            }
            res.srvs[slot] = Some(match v.kind {
                Kind::Raw => Srv::Raw { data: &v.bytes },
                Kind::Structured(stride) => Srv::Structured { data: &v.bytes, stride },
                Kind::Typed(f) => Srv::Buffer { data: &v.bytes, format: f },
                Kind::Texture { one_d } => Srv::Texture(View::texture_view(one_d, &v.bytes)),
                Kind::Multisampled { samples } => Srv::Texture(TextureView {
                    dimension: Dimension::Texture2DMS { samples },
                    format: Format::R16G16B16A16_FLOAT,
                    width: TEXTURE_SIZE,
                    height: TEXTURE_SIZE,
                    depth: 1,
                    array_size: 1,
                    mip_levels: 1,
                    data: &v.bytes,
                }),
            });
        }
        for ((&slot, v), memory) in data.uavs.iter().zip(uavs.iter_mut()) {
            let slot = slot as usize;
            while res.uavs.len() <= slot {
                res.uavs.push(None);
            }
            res.uavs[slot] = Some(match v.kind {
                Kind::Raw => Uav::Raw { data: memory },
                Kind::Structured(stride) => Uav::Structured { data: memory, stride, counter: 0 },
                Kind::Typed(f) => Uav::Buffer { data: memory, format: f },
                Kind::Texture { one_d } => Uav::Texture { view: View::texture_view(one_d, &[]), data: memory },
                Kind::Multisampled { .. } => unreachable!("a UAV is not multisampled"),
            });
        }
        for &slot in &data.samplers {
            if let Some(s) = res.samplers.get_mut(slot as usize) {
                *s = Some(Sampler {
                    min: Filter::Point,
                    mag: Filter::Point,
                    mip: Filter::Point,
                    address: [AddressMode::Clamp; 3],
                    ..Sampler::default()
                });
            }
        }
        compute::dispatch_in_order(plan, GROUPS, order, &mut res, &Limits { step_limit: 1 << 20 })
            .map_err(|e| e.to_string())?;
    }
    Ok(uavs)
}

/// The translation on lavapipe: every UAV's memory after the dispatch, in slot order.
fn on_device(gpu: &Gpu, module: naga::Module, workgroup: [u32; 3], data: &Data) -> Result<Vec<Vec<u8>>, String> {
    let mut bound: Vec<Bound> = Vec::new();
    for (k, cb) in data.cbs.values().enumerate() {
        bound.push(Bound { group: 0, binding: k as u32, buffer: Buffer::Uniform(vec4_bytes(cb)) });
    }
    for (k, v) in data.srvs.values().enumerate() {
        let buffer = match v.kind {
            Kind::Raw | Kind::Structured(_) => Buffer::Storage(v.bytes.clone()),
            Kind::Typed(_) => Buffer::Typed(v.bytes.clone()),
            Kind::Texture { one_d } => {
                let (width, height) = View::size(one_d);
                Buffer::Texture { width, height, texels: v.texels() }
            }
            Kind::Multisampled { samples } => {
                Buffer::MultisampledTexture { width: TEXTURE_SIZE, height: TEXTURE_SIZE, samples, texels: v.texels() }
            }
        };
        bound.push(Bound { group: 1, binding: k as u32, buffer });
    }
    for (k, v) in data.uavs.values().enumerate() {
        let buffer = match v.kind {
            Kind::Raw | Kind::Structured(_) => Buffer::StorageReadWrite(v.bytes.clone()),
            Kind::Typed(_) => Buffer::TypedReadWrite(v.bytes.clone()),
            Kind::Texture { one_d } => {
                let (width, height) = View::size(one_d);
                Buffer::StorageTexture { width, height, texels: v.texels() }
            }
            Kind::Multisampled { .. } => unreachable!("a UAV is not multisampled"),
        };
        bound.push(Bound { group: 2, binding: k as u32, buffer });
    }
    for k in 0..data.counters.len() {
        bound.push(Bound { group: 3, binding: k as u32, buffer: Buffer::StorageReadWrite(vec![0; 4]) });
    }
    for k in 0..data.samplers.len() {
        bound.push(Bound { group: 4, binding: k as u32, buffer: Buffer::PointClampSampler });
    }
    let mut written = run_compute(gpu, module, workgroup, &bound, GROUPS)?;
    written.truncate(data.uavs.len());
    Ok(written)
}

/// Units in the last place between two finite floats (a huge number across signs).
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

/// Compares the UAVs word by word; the outcome line.
fn compare(slots: &[u32], expected: &[Vec<u8>], got: &[Vec<u8>], tolerance: Option<(u32, f32, Opcode)>) -> String {
    let mut tolerated = None;
    for ((slot, e), g) in slots.iter().zip(expected).zip(got) {
        if e.len() != g.len() {
            return format!("differs: u{slot}: {} bytes from exec, {} from lavapipe", e.len(), g.len());
        }
        for (k, (a, b)) in e.chunks_exact(4).zip(g.chunks_exact(4)).enumerate() {
            let a = u32::from_le_bytes([a[0], a[1], a[2], a[3]]);
            let b = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if a == b {
                continue;
            }
            let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
            if fa.is_nan() && fb.is_nan() {
                continue;
            }
            if let Some((u, abs, op)) = tolerance {
                if fa.is_finite() && fb.is_finite() && (ulps(fa, fb) <= u || (fa - fb).abs() <= abs) {
                    tolerated = Some(op);
                    continue;
                }
            }
            return format!("differs: u{slot} word {k} (byte {}): exec {a:#010x} lavapipe {b:#010x}", 4 * k);
        }
    }
    match tolerated {
        Some(op) => format!("within tolerance ({})", op.mnemonic()),
        None => "exact".into(),
    }
}

/// The loosest tolerance of the instructions `program` uses, with the instruction.
fn tolerance(program: &tpf::Program<'_>) -> Option<(u32, f32, Opcode)> {
    let mut t: Option<(u32, f32, Opcode)> = None;
    for inst in program.iter() {
        if let Some(&(op, u, abs)) = TOLERANCES.iter().find(|(op, ..)| *op == inst.opcode) {
            let (u0, a0, _) = t.unwrap_or((0, 0.0, op));
            if u > u0 || abs > a0 {
                t = Some((u.max(u0), abs.max(a0), op));
            }
        }
    }
    t
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
    let seed = id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let mut rng = Rng(seed | 1);
    let mut data = match program_data(program, &mut rng, None) {
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
    // at once): such a program has no one result to compare with.
    let mut reversed = reference(&plan, &data, GroupOrder::Reverse);
    let first = written(&data, &expected);
    if first < Written::Values && reversed.as_ref().is_ok_and(|r| written(&data, r) < Written::Values) {
        // Later rounds, for one that writes values, else one that writes at all.
        let mut best = if reversed.as_ref() == Ok(&expected) { first } else { Written::Nothing };
        let imm = immediates(program);
        for round in 1..=ROUNDS {
            let mut rng = Rng((seed ^ round.wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1);
            let Ok(d) = program_data(program, &mut rng, Some(&imm)) else { break };
            let Ok(e) = reference(&plan, &d, GroupOrder::Forward) else { continue };
            let w = written(&d, &e);
            if w <= best {
                continue;
            }
            let r = reference(&plan, &d, GroupOrder::Reverse);
            if r.as_ref() == Ok(&e) {
                (data, expected, reversed, best) = (d, e, r, w);
                if best == Written::Values {
                    break;
                }
            }
        }
    }
    if reversed.as_ref() != Ok(&expected) {
        return "not compared: its result depends on the order of the thread groups".into();
    }
    let got = match on_device(gpu, module, plan.thread_group, &data) {
        Ok(u) => u,
        Err(err) => return format!("not compared: lavapipe: {}", corpus::expect::one_line(&err)),
    };
    let slots: Vec<u32> = data.uavs.keys().copied().collect();
    let outcome = compare(&slots, &expected, &got, tolerance(program));
    // A comparison where the reference writes no word, or only zeros, proves little:
    // said so.
    match written(&data, &expected) {
        Written::Nothing if outcome == "exact" => "exact, but writes nothing (with the generated memory)".into(),
        Written::Zeros if outcome == "exact" => "exact, but writes only zeros (with the generated memory)".into(),
        _ => outcome,
    }
}

/// One lavapipe thread: workgroups then run one after the other, so that groups which
/// update the same UAV word without atomics (a race in Direct3D that neither group order
/// shows) cannot make an outcome vary from run to run. Before any device is made.
fn one_lavapipe_thread() {
    if std::env::var_os("LP_NUM_THREADS").is_none() {
        std::env::set_var("LP_NUM_THREADS", "1");
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
