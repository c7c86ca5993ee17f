//! Translated pixel shaders run on Mesa's lavapipe (through `wgpu`, a real render
//! pass) write what the reference interpreter's pixel stage (`exec::pixel::shade`)
//! computes, word for word.
//!
//! The draw (`support/pixel_harness.rs`): a point list, one point per pixel at the
//! pixel's centre of [`WIDTH`] × [`HEIGHT`] `R32G32B32A32` render targets (float, uint
//! or sint as each `SV_Target` is), a generated vertex shader passing each input
//! location's 32-bit patterns on with the pixel shader's interpolation, a
//! `Depth32Float` target (test `Always`) when the shader writes `oDepth`. Each point is
//! its own primitive: its pixel is the one covered pixel of its 2×2 quad, and the three
//! helper pixels see the same attributes (a point's attributes are the vertex's at
//! every fragment), so derivatives of attributes are 0 and those of `SV_Position` are
//! one. The reference runs the same quads: for each point, the quad holding its pixel,
//! that pixel covered, all four with the point's attributes, `SV_Position` =
//! (x + 0.5, y + 0.5, z, 1) per pixel (clip w = 1: Vulkan's `FragCoord.w` = 1/w = 1).
//!
//! Inputs: each location gets generated words per point — floats in [-2, 2] for float
//! inputs (interpolated as the shader declares, which over a point gives the vertex's
//! value: exactly on lavapipe at clip w = 1; the `interpolation ...` programs show that
//! its perspective-correct interpolation is 1 ulp off at other w, and the position's
//! z at w = 0.7 is the harness's own rounding of z·w / w), integers 0..16 for integer
//! ones;
//! `SV_PrimitiveID` is the point's index. Resources are made as `lavapipe_compute`
//! makes them (the generators are repeated here: they live in that test file):
//! constant buffers of 4096 generated vectors, raw, structured and typed buffers,
//! float 1D and 2D textures of one level, samplers with point filtering and clamp
//! addressing.
//!
//! Every word of every render target (the clear value where no pixel was written:
//! discarded, or `oMask` without sample 0) and the depth target (the reference's
//! `oDepth` clamped to [0, 1], the viewport's depth range) is compared: bit for bit,
//! NaNs equal whatever their bits, and within [`TOLERANCES`] where the program uses an
//! instruction whose precision is the device's (as `lavapipe_vertex`). Shaders exec
//! refuses, that do not translate, or that need resources the harness does not bind
//! are "not compared", with the reason. One line per corpus entry in
//! `tests/expect/lavapipe_pixel.txt`, one per hand-written program in
//! `tests/expect/lavapipe_pixel_programs.txt` (two-sided; `DXREF_BLESS=1` rewrites).
//! Lavapipe runs on one thread (`LP_NUM_THREADS=1`). Without a lavapipe adapter the
//! tests print SKIP and pass, unless `DXREF_REQUIRE_CORPUS=1`.

use std::collections::BTreeMap;

use corpus::Rng;
use exec::compute::Limits;
use exec::pixel::{self, Quad, QuadPixel};
use exec::resources::{AddressMode, Dimension, Filter, Sampler, Srv, TextureView};
use exec::{Format, Plan, Resources};
use tpf::{Body, Decl, Opcode, ProgramType, ResourceDimension, ReturnType, SamplerMode, SystemName};
use translate::buffer_format::{self, Numeric};

#[path = "support/lavapipe.rs"]
mod lavapipe;
#[path = "support/pixel_harness.rs"]
mod pixel_harness;
use lavapipe::{vec4_bytes, Bound, Buffer, Gpu};
use pixel_harness::{Kind as TargetKind, Point, CLEAR_DEPTH, HEIGHT, WIDTH};

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

/// A word: a small integer or a float in [-2, 2] (1/1000 steps), by a coin.
fn word(rng: &mut Rng) -> u32 {
    if rng.below(2) == 0 {
        rng.below(16) as u32
    } else {
        float(rng)
    }
}

/// A float in [-2, 2] (1/1000 steps).
fn float(rng: &mut Rng) -> u32 {
    ((rng.below(4001) as f32 - 2000.0) / 1000.0).to_bits()
}

/// A texel in [0, 1] (1/1000 steps).
fn texel(rng: &mut Rng) -> [f32; 4] {
    [0; 4].map(|_| rng.below(1001) as f32 / 1000.0)
}

/// The side of the textures bound (one row for a 1D texture).
const TEXTURE_SIZE: u32 = 64;

#[derive(Clone, Copy)]
enum Kind {
    Raw,
    Structured(u32),
    Typed(Format),
    Texture { one_d: bool },
}

struct View {
    kind: Kind,
    bytes: Vec<u8>,
}

impl View {
    fn size(one_d: bool) -> (u32, u32) {
        (TEXTURE_SIZE, if one_d { 1 } else { TEXTURE_SIZE })
    }

    fn texels(&self) -> Vec<[f32; 4]> {
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

#[derive(Default)]
struct Data {
    cbs: BTreeMap<u32, Vec<[u32; 4]>>,
    srvs: BTreeMap<u32, View>,
    samplers: Vec<u32>,
}

impl Data {
    /// Constant buffers at group 0, views at 1, samplers at 2: bindings 0, 1, 2... in
    /// slot order; the typed buffers' formats.
    fn bindings(&self) -> translate::Bindings {
        let mut text = String::new();
        for (k, slot) in self.cbs.keys().enumerate() {
            text += &format!("cb{slot} = 0:{k}\n");
        }
        for (k, slot) in self.srvs.keys().enumerate() {
            text += &format!("t{slot} = 1:{k}\n");
        }
        for (k, slot) in self.samplers.iter().enumerate() {
            text += &format!("s{slot} = 2:{k}\n");
        }
        for (slot, v) in &self.srvs {
            if let Kind::Typed(f) = v.kind {
                text += &format!("t{slot} = {}\n", f.name());
            }
        }
        translate::Bindings::parse(&text).expect("bindings")
    }

    fn bound(&self) -> Vec<Bound> {
        let mut bound = Vec::new();
        for (k, cb) in self.cbs.values().enumerate() {
            bound.push(Bound { group: 0, binding: k as u32, buffer: Buffer::Uniform(vec4_bytes(cb)) });
        }
        for (k, v) in self.srvs.values().enumerate() {
            let buffer = match v.kind {
                Kind::Raw | Kind::Structured(_) => Buffer::Storage(v.bytes.clone()),
                Kind::Typed(_) => Buffer::Typed(v.bytes.clone()),
                Kind::Texture { one_d } => {
                    let (width, height) = View::size(one_d);
                    Buffer::Texture { width, height, texels: v.texels() }
                }
            };
            bound.push(Bound { group: 1, binding: k as u32, buffer });
        }
        for k in 0..self.samplers.len() {
            bound.push(Bound { group: 2, binding: k as u32, buffer: Buffer::PointClampSampler });
        }
        bound
    }

    fn resources(&self) -> Resources<'_> {
        let mut res = Resources::default();
        for (&slot, cb) in &self.cbs {
            if let Some(s) = res.constant_buffers.get_mut(slot as usize) {
                *s = Some(cb);
            }
        }
        for (&slot, v) in &self.srvs {
            let slot = slot as usize;
            if res.srvs.len() <= slot {
                res.srvs.resize(slot + 1, None);
            }
            res.srvs[slot] = Some(match v.kind {
                Kind::Raw => Srv::Raw { data: &v.bytes },
                Kind::Structured(stride) => Srv::Structured { data: &v.bytes, stride },
                Kind::Typed(format) => Srv::Buffer { data: &v.bytes, format },
                Kind::Texture { one_d } => Srv::Texture(View::texture_view(one_d, &v.bytes)),
            });
        }
        for &slot in &self.samplers {
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
        res
    }
}

fn slot(program: &tpf::Program<'_>, o: &tpf::Operand) -> u32 {
    let k = if program.version.is_sm51() { 1 } else { 0 };
    o.index(k).map_or(0, |i| i.immediate() as u32)
}

/// The memory for every declaration, or why the program is not compared.
fn program_data(program: &tpf::Program<'_>, rng: &mut Rng) -> Result<Data, String> {
    let mut data = Data::default();
    for inst in program.iter() {
        let Body::Decl(d) = &inst.body else { continue };
        let (operand, kind) = match d {
            Decl::ConstantBuffer { operand, .. } => {
                let s = slot(program, inst.operand(*operand));
                data.cbs.insert(s, (0..4096).map(|_| [0; 4].map(|_: u32| word(rng))).collect());
                continue;
            }
            Decl::ResourceRaw { operand, .. } => (operand, Kind::Raw),
            Decl::ResourceStructured { operand, stride, .. } => (operand, Kind::Structured(*stride)),
            Decl::Resource { operand, dim, return_type, .. } => {
                let numeric = match return_type.types[0] {
                    ReturnType::Float | ReturnType::Unorm | ReturnType::Snorm => Numeric::Float,
                    ReturnType::Uint => Numeric::Uint,
                    ReturnType::Sint => Numeric::Sint,
                    _ => return Err("needs a view of another return type".into()),
                };
                match dim {
                    ResourceDimension::Buffer => (operand, Kind::Typed(buffer_format::default_format(numeric, false))),
                    ResourceDimension::Texture1D | ResourceDimension::Texture2D if numeric == Numeric::Float => {
                        (operand, Kind::Texture { one_d: *dim == ResourceDimension::Texture1D })
                    }
                    _ => {
                        return Err(
                            "needs textures of another dimension or type (the harness binds float 1D and 2D ones)"
                                .into(),
                        )
                    }
                }
            }
            Decl::UavTyped { .. } | Decl::UavRaw { .. } | Decl::UavStructured { .. } => {
                return Err("declares UAVs (the pixel harness binds none)".into())
            }
            Decl::Sampler { operand, mode: SamplerMode::Default, .. } => {
                data.samplers.push(slot(program, inst.operand(*operand)));
                continue;
            }
            Decl::Sampler { .. } => return Err("needs comparison or mono samplers".into()),
            _ => continue,
        };
        let s = slot(program, inst.operand(*operand));
        let bytes = match kind {
            Kind::Raw => (0..4096).flat_map(|_| word(rng).to_le_bytes()).collect(),
            Kind::Structured(stride) => (0..16 * stride).flat_map(|_| word(rng).to_le_bytes()).collect(),
            Kind::Typed(f) => (0..16 * f.size()).flat_map(|_| word(rng).to_le_bytes()).collect(),
            Kind::Texture { one_d } => {
                let (w, h) = View::size(one_d);
                (0..w * h).flat_map(|_| texel(rng)).flat_map(f32::to_le_bytes).collect()
            }
        };
        data.srvs.insert(s, View { kind, bytes });
    }
    data.samplers.sort_unstable();
    Ok(data)
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

/// One point per pixel, row after row: its depth and (by input location of the
/// harness's interface) its attributes.
fn points(iface: &pixel_harness::Interface, rng: &mut Rng, w: f32) -> Vec<Point> {
    (0..WIDTH * HEIGHT)
        .map(|k| Point {
            x: k % WIDTH,
            y: k / WIDTH,
            z: ((k % 32) + 1) as f32 / 64.0,
            w,
            attributes: iface
                .inputs
                .iter()
                .map(|(_, kind, _)| {
                    [0; 4].map(|_| if *kind == TargetKind::Float { float(rng) } else { rng.below(16) as u32 })
                })
                .collect(),
        })
        .collect()
}

/// What the reference computes for the draw: each target's words (in the interface's
/// order) and the depth target.
type Expected = (Vec<Vec<[u32; 4]>>, Option<Vec<f32>>);

fn reference(plan: &Plan, data: &Data, iface: &pixel_harness::Interface, points: &[Point]) -> Result<Expected, String> {
    let regs = plan.input_registers as usize;
    let inputs: Vec<Vec<[u32; 4]>> = points
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let mut v = vec![[0u32; 4]; regs];
            for ((location, ..), a) in iface.inputs.iter().zip(&p.attributes) {
                if let Some(r) = v.get_mut(*location as usize) {
                    *r = *a;
                }
            }
            for d in plan.inputs.iter().filter(|d| d.system == SystemName::PrimitiveId) {
                if let Some(r) = v.get_mut(d.register as usize) {
                    for (c, w) in r.iter_mut().enumerate() {
                        if d.mask & (1 << c) != 0 {
                            *w = k as u32;
                        }
                    }
                }
            }
            v
        })
        .collect();
    let quads: Vec<Quad<'_>> = points
        .iter()
        .zip(&inputs)
        .map(|(p, v)| {
            let mine = ((p.y & 1) * 2 + (p.x & 1)) as usize;
            let px = |k: usize| QuadPixel { covered: k == mine, inputs: v, z: p.z, w: p.w };
            Quad { x: p.x & !1, y: p.y & !1, front_face: true, pixels: [px(0), px(1), px(2), px(3)] }
        })
        .collect();
    let mut res = data.resources();
    let shaded = pixel::shade(plan, &quads, &mut res, &Limits { step_limit: 1 << 20 }).map_err(|e| e.to_string())?;
    let mut targets: Vec<Vec<[u32; 4]>> =
        iface.targets.iter().map(|(_, kind)| vec![[kind.clear_bits(); 4]; points.len()]).collect();
    let mut depth = iface.depth.then(|| vec![CLEAR_DEPTH; points.len()]);
    for (p, q) in points.iter().zip(&shaded.quads) {
        let out = &q[((p.y & 1) * 2 + (p.x & 1)) as usize];
        // With one sample per pixel, `oMask` keeps the pixel when its bit 0 is set.
        if !out.written || out.coverage_mask.is_some_and(|m| m & 1 == 0) {
            continue;
        }
        let at = (p.y * WIDTH + p.x) as usize;
        for (t, (location, _)) in targets.iter_mut().zip(&iface.targets) {
            t[at] = out.targets.get(*location as usize).copied().unwrap_or([0; 4]);
        }
        if let (Some(d), Some(z)) = (depth.as_mut(), out.depth) {
            let z = f32::from_bits(z);
            d[at] = if z.is_nan() { z } else { z.clamp(0.0, 1.0) };
        }
    }
    Ok((targets, depth))
}

/// Compares the targets word by word; the outcome line.
fn compare(
    iface: &pixel_harness::Interface,
    expected: &Expected,
    got: &pixel_harness::Rendered,
    tolerance: Option<(u32, f32, Opcode)>,
) -> String {
    let mut tolerated = None;
    let mut check = |what: &str, k: usize, a: u32, b: u32, float: bool| -> Option<String> {
        if a == b {
            return None;
        }
        let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
        if float && fa.is_nan() && fb.is_nan() {
            return None;
        }
        if let (true, Some((u, abs, op))) = (float, tolerance) {
            if fa.is_finite() && fb.is_finite() && (ulps(fa, fb) <= u || (fa - fb).abs() <= abs) {
                tolerated = Some(op);
                return None;
            }
        }
        let (x, y) = (k as u32 % WIDTH, k as u32 / WIDTH);
        Some(format!("differs: {what} pixel ({x}, {y}): exec {a:#010x} lavapipe {b:#010x}"))
    };
    for ((location, kind), (e, g)) in iface.targets.iter().zip(expected.0.iter().zip(&got.targets)) {
        for (k, (a, b)) in e.iter().zip(g).enumerate() {
            for c in 0..4 {
                let what = format!("o{location}.{}", b"xyzw"[c] as char);
                if let Some(d) = check(&what, k, a[c], b[c], *kind == TargetKind::Float) {
                    return d;
                }
            }
        }
    }
    if let (Some(e), Some(g)) = (&expected.1, &got.depth) {
        for (k, (a, b)) in e.iter().zip(g).enumerate() {
            if let Some(d) = check("depth", k, a.to_bits(), b.to_bits(), true) {
                return d;
            }
        }
    }
    match tolerated {
        Some(op) => format!("within tolerance ({})", op.mnemonic()),
        None => "exact".into(),
    }
}

/// Runs one pixel shader (a container) both ways with points of clip-space `w`; the
/// outcome line.
fn outcome(gpu: &Gpu, bytes: &[u8], program: &tpf::Program<'_>, id: &str, w: f32) -> String {
    let plan = match Plan::from_bytecode(bytes) {
        Ok(p) => p,
        Err(err) => return corpus::expect::one_line(&format!("not compared: exec: {err}")),
    };
    let seed = id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let mut rng = Rng(seed | 1);
    let data = match program_data(program, &mut rng) {
        Ok(d) => d,
        Err(why) => return format!("not compared: {why}"),
    };
    let options = translate::Options { bindings: data.bindings(), ..Default::default() };
    let module = match translate::module(bytes, &options) {
        Ok(m) => m,
        Err(err) => return format!("not compared: translate: {}", corpus::expect::one_line(&err.to_string())),
    };
    let iface = match pixel_harness::interface(&module) {
        Ok(i) => i,
        Err(err) => return format!("not compared: {err}"),
    };
    let points = points(&iface, &mut rng, w);
    let expected = match reference(&plan, &data, &iface, &points) {
        Ok(e) => e,
        Err(err) => return format!("not compared: exec: {}", corpus::expect::one_line(&err)),
    };
    let got = match pixel_harness::run_pixel(gpu, module, &data.bound(), &points) {
        Ok(g) => g,
        Err(err) => return format!("not compared: lavapipe: {}", corpus::expect::one_line(&err)),
    };
    let outcome = compare(&iface, &expected, &got, tolerance(program));
    if iface.targets.is_empty() && !iface.depth {
        return format!("{outcome}, but writes no render target");
    }
    outcome
}

/// One lavapipe thread (before any device is made), as the other comparisons.
fn one_lavapipe_thread() {
    if std::env::var_os("LP_NUM_THREADS").is_none() {
        std::env::set_var("LP_NUM_THREADS", "1");
    }
}

fn program_of(bytes: &[u8]) -> Option<tpf::Program<'_>> {
    let container = dxbc::Container::parse(bytes).ok()?;
    let chunk = container.chunk_any(&[dxbc::FourCc::SHEX, dxbc::FourCc::SHDR])?;
    tpf::decode(chunk.data).ok()
}

#[test]
fn corpus_pixel_shaders_on_lavapipe_match_the_reference() {
    let Some(entries) = corpus::dxbc_entries("lavapipe_pixel") else { return };
    one_lavapipe_thread();
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_pixel") else { return };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for e in &entries {
        let bytes = e.bytes();
        let program = program_of(&bytes).unwrap_or_else(|| panic!("{}: no decodable program", e.id()));
        let outcome = if program.version.ty != ProgramType::Pixel {
            "not a pixel shader".to_string()
        } else {
            outcome(&gpu, &bytes, &program, &e.id(), 1.0)
        };
        *counts.entry(outcome.split([':', '(', ',']).next().unwrap_or("").trim().to_string()).or_default() += 1;
        outcomes.insert(e.id(), outcome);
    }
    println!("lavapipe_pixel: {counts:?} (translator's SPIR-V passed through: {})", gpu.passthrough);
    corpus::expect::check(corpus::expect_file!("lavapipe_pixel.txt"), &outcomes);
}

/// Hand-written pixel shaders (listings): derivatives of values that are not linear
/// in the position, coarse and fine; `discard` of some pixels; samples at addresses
/// made from the position; depth and several targets of each type.
const PROGRAMS: &[(&str, &str)] = &[
    (
        "derivatives_of_a_product_fine",
        "ps_5_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 1
mul r0.x, v0.x, v0.y
mul r0.y, r0.x, v0.x
deriv_rtx_fine o0.x, r0.x
deriv_rty_fine o0.y, r0.x
deriv_rtx_fine o0.z, r0.y
deriv_rty_fine o0.w, r0.y
ret
",
    ),
    (
        "derivatives_of_a_product_coarse",
        "ps_5_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 1
mul r0.x, v0.x, v0.y
mul r0.y, r0.x, v0.x
deriv_rtx_coarse o0.x, r0.x
deriv_rty_coarse o0.y, r0.x
deriv_rtx_coarse o0.z, r0.y
deriv_rty_coarse o0.w, r0.y
ret
",
    ),
    (
        "derivatives_unsuffixed",
        "ps_4_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 1
mul r0.x, v0.x, v0.y
deriv_rtx o0.x, r0.x
deriv_rty o0.y, r0.x
deriv_rtx o0.z, v1.x
deriv_rty_sat o0.w, -r0.x
ret
",
    ),
    (
        "discard_every_third_pixel",
        "ps_4_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 1
mad r0.x, v0.y, l(16.0), v0.x
ftou r0.x, r0.x
udiv null, r0.x, r0.x, l(3)
discard_z r0.x
mul r0.y, v0.x, v0.x
deriv_rtx_fine o0.x, r0.y
mov o0.yzw, v0.xxyx
ret
",
    ),
    (
        "sample_at_the_position",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
mul r0.xy, v0.xyxx, l(0.0625, 0.25, 0.0, 0.0)
sample o0.xyzw, r0.xyxx, t0.xyzw, s0
sample_b o1.xyzw, r0.yxyy, t0.wzyx, s0, l(-1.0)
ret
",
    ),
    (
        "depth_and_integer_targets",
        "ps_5_0
dcl_input_ps_siv linear noperspective v0.xyz, position
dcl_input_ps constant v1.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output oDepth
dcl_temps 1
ftou r0.xy, v0.xyxx
iadd o0.xyzw, r0.xyxy, v1.xyxy
mov o1.xyzw, v0.xyzx
mul oDepth, v0.z, l(0.5)
ret
",
    ),
];

/// An input interpolated each way a float input can be (`perspective`, `linear` =
/// noperspective, `centroid`, flat), and `SV_Position.zw`, each drawn with points of
/// several clip-space w: over a point every interpolation gives the vertex's value,
/// which lavapipe computes exactly or not (the line says).
fn interpolation_program(mode: &str) -> String {
    if mode == "position" {
        return "ps_4_1\ndcl_input_ps_siv linear noperspective v0.zw, position\ndcl_output o0.xyzw\n\
                mov o0.xyzw, v0.zwzw\nret\n"
            .into();
    }
    format!("ps_4_1\ndcl_input_ps {mode} v1.xyzw\ndcl_output o0.xyzw\nmov o0.xyzw, v1.xyzw\nret\n")
}

/// The hand-written programs, assembled, as containers with the signatures the
/// assembler derives.
fn assembled(text: &str) -> Vec<u8> {
    listing::asm::assemble(text, &listing::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembling:\n{text}\n{e:#?}"))
        .bytes
}

#[test]
fn hand_written_pixel_shaders_on_lavapipe_match_the_reference() {
    one_lavapipe_thread();
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_pixel_programs") else { return };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    for (name, text) in PROGRAMS {
        let bytes = assembled(text);
        let program = program_of(&bytes).unwrap_or_else(|| panic!("{name}: no decodable program"));
        let mut line = outcome(&gpu, &bytes, &program, name, 1.0);
        if line.starts_with("differs") && name.contains("coarse") {
            // The cause, said (the line stays a difference): Direct3D lets a coarse
            // derivative take any row or column of the quad; exec takes the top row and
            // the left column, lavapipe the pixel's own (as fine ones).
            line += " (coarse derivatives: lavapipe computes them per pixel, as fine ones)";
        }
        outcomes.insert(name.to_string(), line);
    }
    for mode in ["linear", "linear noperspective", "linear centroid", "constant", "position"] {
        let bytes = assembled(&interpolation_program(mode));
        let program = program_of(&bytes).expect("the interpolation program decodes");
        for w in [1.0f32, 2.0, 3.0, 0.7] {
            let name = format!("interpolation {mode}, clip w {w}");
            outcomes.insert(name.clone(), outcome(&gpu, &bytes, &program, &name, w));
        }
    }
    println!("lavapipe_pixel_programs: {outcomes:#?}");
    corpus::expect::check(corpus::expect_file!("lavapipe_pixel_programs.txt"), &outcomes);
}
