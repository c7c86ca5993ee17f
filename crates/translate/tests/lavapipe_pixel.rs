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
//! makes them (`support/resources.rs`, `PIXEL`): constant buffers of 4096 generated
//! vectors, raw, structured and typed buffers, textures of one level (float 1D and 2D
//! ones, multisampled 2D ones; 1D and 2D arrays, 3D textures, cubes and cube arrays,
//! float or integer, and integer 1D and 2D ones: `Policy::textures`), samplers with
//! point filtering and clamp addressing; textures that comparing instructions read as
//! `R32_FLOAT` depth textures, with `reference <= texel` comparison samplers; UAVs and
//! their hidden counters (helper pixels write nothing, on both sides), typed UAV
//! textures of every dimension but cubes (`R32_*` ones, read and written, where the
//! program loads them: what the translator binds), every UAV word compared after the
//! draw. Programs with Shader Model 5 interfaces get the same class instances on both
//! sides (`exec`'s `Resources::class_instances`, the translator's
//! `Options::class_instances`), derived from their declarations alone
//! ([`class_instances`]): each array element a non-default table where there is a
//! choice, `this` pointing into the first bound constant buffer and at float 2D
//! textures bound for the uniformly indexed `t[r# + k]` reads.
//!
//! Every word of every render target (the clear value where no pixel was written:
//! discarded, or `oMask` without sample 0) and the depth target (the reference's
//! `oDepth` clamped to [0, 1], the viewport's depth range) is compared: bit for bit,
//! NaNs equal whatever their bits, and within [`tolerance::TOLERANCES`] where the
//! program uses an instruction whose precision is the device's (as `lavapipe_vertex`,
//! `support/tolerance.rs`). Shaders exec
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
use exec::{ClassInstances, Plan};
use tpf::{ProgramType, SystemName};

#[path = "support/cut.rs"]
mod cut;
#[path = "support/lavapipe.rs"]
mod lavapipe;
#[path = "support/pixel_compare.rs"]
mod pixel_compare;
#[path = "support/pixel_harness.rs"]
mod pixel_harness;
#[path = "support/resources.rs"]
mod resources;
#[path = "support/tolerance.rs"]
mod tolerance;
use lavapipe::{one_lavapipe_thread, Gpu};
use pixel_compare::{assembled, outcome_of, program_of, Expected};
use pixel_harness::{Kind as TargetKind, Point, CLEAR_DEPTH, HEIGHT, WIDTH};
use resources::{float, Data, PIXEL};

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

fn reference(
    plan: &Plan,
    data: &Data,
    instances: &ClassInstances,
    iface: &pixel_harness::Interface,
    points: &[Point],
) -> Result<Expected, String> {
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
    let mut uavs = data.uav_memory();
    let mut res = data.resources_with_uavs(&mut uavs);
    res.class_instances = instances.clone();
    let shaded = pixel::shade(plan, &quads, &mut res, &Limits { step_limit: 1 << 20 }).map_err(|e| e.to_string())?;
    drop(res);
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
    Ok((targets, depth, uavs))
}

/// Runs one pixel shader (a container) both ways with points of clip-space `w`; the
/// outcome line.
fn outcome(gpu: &Gpu, bytes: &[u8], program: &tpf::Program<'_>, id: &str, w: f32) -> String {
    outcome_with(gpu, bytes, program, id, w, &[])
}

/// [`outcome`] with the float 2D textures at the SRV slots `odd` of a size that is not a
/// power of two ([`resources::ODD_SIZE`]).
fn outcome_with(gpu: &Gpu, bytes: &[u8], program: &tpf::Program<'_>, id: &str, w: f32, odd: &[u32]) -> String {
    let draw = |plan: &Plan,
                data: &Data,
                instances: &ClassInstances,
                module,
                iface: &pixel_harness::Interface,
                rng: &mut Rng| {
        let points = points(iface, rng, w);
        let expected = reference(plan, data, instances, iface, &points)
            .map_err(|err| format!("not compared: exec: {}", corpus::expect::one_line(&err)))?;
        let got = pixel_harness::run_pixel(gpu, module, &data.bound(), &points)
            .map_err(|err| format!("not compared: lavapipe: {}", corpus::expect::one_line(&err)))?;
        Ok((expected, got))
    };
    outcome_of(bytes, program, id, PIXEL, odd, Box::new(draw))
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

/// `DXREF_TRACE=<entry>` (ignored unless asked for): the entry cut after each
/// instruction (`support/cut.rs`) through both sides, up to the first cut that is not
/// `exact` (how the causes in `tests/expect/lavapipe_pixel.txt` were traced).
#[test]
#[ignore]
fn trace_the_first_differing_instruction() {
    pixel_compare::trace("lavapipe_pixel_trace", false, &|gpu, bytes, p, id| outcome(gpu, bytes, p, id, 1.0));
}

/// Hand-written pixel shaders (listings): derivatives of values that are not linear
/// in the position, coarse and fine; `discard` of some pixels; samples at addresses
/// made from the position, of a 2D texture and of a cube (also at a NaN and at the
/// zero direction, which Direct3D leaves undefined); cube gathers inside a face, across
/// a face's edge and where two axes tie; `lod` of every dimension at addresses linear
/// in the position (so that coarse and fine derivatives agree), with derivatives along
/// the axes, skewed ones (made orthogonal) and a cube's; `gather4_po` and
/// `gather4_po_c` with offsets from registers (negative ones, ones past [-32, 31] whose
/// low 6 bits count, high bits set, clamped past the edges; of a texture of a size that
/// is not a power of two too, also at addresses on the footprint's edges, where the
/// translation's offset / size quotient is inexact); typed UAV textures of every
/// dimension loaded and stored; depth and several targets of each type.
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
        "sample_a_cube_at_directions_from_the_position",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texturecube (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_temps 1
add r0.xy, v0.xyxx, l(-8.0, -2.0, 0.0, 0.0)
mov r0.z, l(0.37)
sample o0.xyzw, r0.xyzx, t0.xyzw, s0
sample o1.xyzw, r0.zxyz, t0.xyzw, s0
sample o2.xyzw, -r0.yzxy, t0.xyzw, s0
ret
",
    ),
    (
        "sample_a_cube_at_a_nan_direction",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texturecube (float,float,float,float) t0
dcl_output o0.xyzw
sample o0.xyzw, l(0x7fc00000, 0x7fc00000, 0x7fc00000, 0), t0.xyzw, s0
ret
",
    ),
    (
        "sample_a_cube_at_the_zero_direction",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texturecube (float,float,float,float) t0
dcl_output o0.xyzw
sample o0.xyzw, l(0.0, 0.0, 0.0, 0.0), t0.xyzw, s0
ret
",
    ),
    (
        "gather_a_cube_inside_a_face",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texturecube (float,float,float,float) t0
dcl_output o0.xyzw
gather4 o0.xyzw, l(0.5, 0.2, 0.1, 0.0), t0.xyzw, s0
ret
",
    ),
    (
        "gather_a_cube_across_a_face_edge",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texturecube (float,float,float,float) t0
dcl_output o0.xyzw
gather4 o0.xyzw, l(0.5, 0.497, 0.1, 0.0), t0.xyzw, s0
ret
",
    ),
    (
        "gather_a_cube_where_two_axes_tie",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texturecube (float,float,float,float) t0
dcl_output o0.xyzw
gather4 o0.xyzw, l(0.5, 0.5, 0.125, 0.0), t0.xyzw, s0
ret
",
    ),
    (
        "lod_of_each_dimension_at_coordinates_from_the_position",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texture1d (float,float,float,float) t0
dcl_resource_texture2d (float,float,float,float) t1
dcl_resource_texture1darray (float,float,float,float) t2
dcl_resource_texture2darray (float,float,float,float) t3
dcl_resource_texture3d (float,float,float,float) t4
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_output o4.xyzw
dcl_temps 1
mul r0.xyzw, v0.xyxy, l(0.0625, 0.25, 0.001953125, 0.5)
lod o0.xyzw, r0.xyxx, t0.xyzw, s0
lod o1.xyzw, r0.xyxx, t1.yxzw, s0
lod o2.xyzw, r0.zwxx, t2.xyzw, s0
lod o3.xyzw, r0.zwxx, t3.wyxx, s0
mov r0.y, l(0.5)
lod o4.xyzw, r0.zywx, t4.xyzw, s0
ret
",
    ),
    (
        "lod_of_skewed_derivatives",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
mad r0.x, v0.y, l(0.5), v0.x
mad r0.y, v0.x, l(-0.25), v0.y
mul r0.xyzw, r0.xyxy, l(0.0625, 0.125, 0.00390625, 0.0078125)
lod o0.xyzw, r0.xyxx, t0.xyzw, s0
lod o1.xyzw, r0.zwzz, t0.xyzw, s0
ret
",
    ),
    (
        "lod_of_a_cube_at_directions_from_the_position",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texturecube (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
add r0.xy, v0.xyxx, l(-8.0, -2.0, 0.0, 0.0)
mov r0.z, l(0.37)
lod o0.xyzw, r0.xyzx, t0.xyzw, s0
mul r0.xyz, r0.xyzx, l(4.0, 4.0, 16.0, 0.0)
lod o1.xyzw, r0.zxyz, t0.xyzw, s0
ret
",
    ),
    (
        "gather4_po_with_offsets_from_registers",
        "ps_5_0
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2darray (float,float,float,float) t1
dcl_resource_texture2d (float,float,float,float) t2
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_temps 2
mul r0.xy, v0.xyxx, l(0.015625, 0.0625, 0.0, 0.0)
mov r0.z, l(1.0)
ftoi r1.xy, v0.xyxx
imad r1.xy, r1.xyxx, l(5, -7, 0, 0), l(-40, 9, 0, 0)
gather4_po o0.xyzw, r0.xyxx, r1.xyxx, t0.xyzw, s0.x
gather4_po o1.xyzw, r0.xyzx, r1.yxxx, t1.wxyz, s0.z
iadd r1.zw, r1.xxxy, l(0, 0, 0x7fffffc0, -64)
gather4_po o2.xyzw, r0.yxyy, r1.zwzz, t0.xyzw, s0.y
gather4_po_c o3.xyzw, r0.xyxx, r1.xyxx, t2.xyzw, s1.x, l(0.5)
ret
",
    ),
    (
        "gather4_po_of_a_non_power_of_two_size",
        "ps_5_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 2
mad r0.xy, v0.xyxx, l(0.0625, 0.25, 0.0, 0.0), l(0.003, 0.007, 0.0, 0.0)
ftoi r1.xy, v0.xyxx
imad r1.xy, r1.xyxx, l(5, -7, 0, 0), l(-40, 9, 0, 0)
gather4_po o0.xyzw, r0.xyxx, r1.xyxx, t0.xyzw, s0.x
gather4_po o1.xyzw, r0.yxyy, r1.yxyy, t0.xyzw, s0.w
ret
",
    ),
    (
        "gather4_po_of_a_non_power_of_two_size_at_footprint_edges",
        "ps_5_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 2
mul r0.xy, v0.xyxx, l(0.0625, 0.25, 0.0, 0.0)
ftoi r1.xy, v0.xyxx
imad r1.xy, r1.xyxx, l(5, -7, 0, 0), l(-40, 9, 0, 0)
gather4_po o0.xyzw, r0.xyxx, r1.xyxx, t0.xyzw, s0.x
ret
",
    ),
    (
        "typed_uav_textures_loaded_and_stored",
        "ps_5_0
dcl_uav_typed_texture1d (float,float,float,float) u1
dcl_uav_typed_texture2d (float,float,float,float) u2
dcl_uav_typed_texture2darray (uint,uint,uint,uint) u3
dcl_uav_typed_texture3d (sint,sint,sint,sint) u4
dcl_uav_typed_texture1darray (float,float,float,float) u5
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 3
ftou r0.xy, v0.xyxx
imad r0.z, r0.y, l(16), r0.x
mov r0.w, l(2)
ld_uav_typed r1.xyzw, r0.zzzz, u1.xyzw
add r2.x, r1.x, l(1.5)
store_uav_typed u1.xyzw, r0.zzzz, r2.xxxx
ld_uav_typed r2.xyzw, r0.xyww, u3.wzyx
iadd r2.xyzw, r2.xyzw, l(1, 2, 3, 4)
store_uav_typed u3.xyzw, r0.xyww, r2.xyzw
mov o0.xyzw, r1.xyzw
mov o1.xyzw, r2.xyzw
ld_uav_typed r1.xyzw, r0.xyww, u4.xyzw
imul null, r1.xyzw, r1.xyzw, l(-3, -3, -3, -3)
store_uav_typed u4.xyzw, r0.xyww, r1.xyzw
ld_uav_typed r1.xyzw, r0.xyxx, u2.xyzw
store_uav_typed u5.xyzw, r0.zwzz, r1.xyxx
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
    (
        // Interfaces: a register index (pixel x mod 4; 3 is past the three slots and
        // calls nothing), `this[]` read relatively and leading to constant-buffer
        // elements (of a uniformly indexed slot too), under the class instances `class_instances` derives (slot k on
        // table (k + 1) mod 3).
        "interfaces_register_index_and_this",
        "ps_5_0
dcl_constantbuffer cb0[16], dynamicIndexed
dcl_function_body fb0
dcl_function_body fb1
dcl_function_body fb2
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_function_table ft2 = {fb2}
dcl_interface_dynamicindexed fp0[3][1] = {ft0, ft1, ft2}
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 3
ftou r2.x, v0.x
and r2.x, r2.x, l(3)
mov r0.xyzw, l(0, 0, 0, 0)
fcall fp0[r2.x + 0][0]
mov o0.xyzw, r0.xyzw
ret
label fb0
mov r1.xy, this[r2.x + 0].xyxx
mov r0.xyzw, cb[r1.x + 0][r1.y + 0].xyzw
ret
label fb1
mov r1.xy, this[r2.x + 0].xyxx
iadd r0.xyzw, cb0[r1.y + 1].xyzw, l(1, 2, 3, 4)
ret
label fb2
mov r0.xyzw, this[r2.x + 0].xyzw
ret
",
    ),
    (
        "uniformly_indexed_textures_without_interfaces",
        "ps_5_0
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2d (float,float,float,float) t1
dcl_resource_texture2d (float,float,float,float) t3
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 2
ftou r0.xy, v0.xyxx
and r0.z, r0.x, l(3)
mov r1.xy, r0.xyxx
mov r1.zw, l(0, 0, 0, 0)
ld_indexable(texture2d)(float,float,float,float) o0.xyzw, r1.xyzw, t[r0.z + 0].xyzw
and r0.w, r0.y, l(1)
ld_indexable(texture2d)(float,float,float,float) o1.xyzw, r1.yxzw, t[r0.w + 1].wzyx
ret
",
    ),
    (
        "uniformly_indexed_comparison_without_interfaces",
        "ps_5_0
dcl_sampler s0, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2d (float,float,float,float) t1
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 2
ftou r0.x, v0.x
and r0.x, r0.x, l(1)
mul r1.xy, v0.xyxx, l(0.0625, 0.0625, 0.0, 0.0)
sample_c_lz_indexable(texture2d)(float,float,float,float) o0.x, r1.xyxx, t[r0.x + 0].xxxx, s0, l(0.5)
gather4_c_indexable(texture2d)(float,float,float,float) o0.yzw, r1.yxyy, t[r0.x + 0].xyzw, s0.x, l(0.25)
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

#[test]
fn hand_written_pixel_shaders_on_lavapipe_match_the_reference() {
    one_lavapipe_thread();
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_pixel_programs") else { return };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    for (name, text) in PROGRAMS {
        let bytes = assembled(text);
        let program = program_of(&bytes).unwrap_or_else(|| panic!("{name}: no decodable program"));
        // Programs named so read t0 as a texture of a size that is not a power of two.
        let odd: &[u32] = if name.contains("non_power_of_two") { &[0] } else { &[] };
        let mut line = outcome_with(&gpu, &bytes, &program, name, 1.0, odd);
        if line.starts_with("differs") && name.contains("coarse") {
            // The cause, said (the line stays a difference): Direct3D lets a coarse
            // derivative take any row or column of the quad; exec takes the top row and
            // the left column, lavapipe the pixel's own (as fine ones).
            line += " (coarse derivatives: lavapipe computes them per pixel, as fine ones)";
        }
        if line.starts_with("differs") && name.contains("nan_direction") {
            // The cause, said: a cube's face at a NaN direction is undefined (D3D11.3
            // functional spec, texture cube addressing); each picks its own.
            line += " (a NaN direction selects no face: exec and lavapipe read different texels)";
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
