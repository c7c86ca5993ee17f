//! Translated corpus pixel shaders drawn as triangles on Mesa's lavapipe (through
//! `wgpu`) write what the reference rasterizer and pixel stage (`exec::raster::draw`)
//! compute for the same triangles and inputs: quads whose four pixels see different
//! attributes, so that every derivative and every implicit-LOD footprint is computed
//! from real differences (the point harness of `lavapipe_pixel` gives each quad one
//! set of attributes: derivatives of attributes are 0 there).
//!
//! The draw (`support/pixel_harness.rs`, [`pixel_harness::run_pixel_triangles`]): the
//! [`WIDTH`] × [`HEIGHT`] render targets covered by two triangles, (0, 0), (16, 0),
//! (0, 4) and (16, 0), (16, 4), (0, 4) in render-target pixels, clip w = 1, both
//! clockwise (front-facing). Their shared diagonal passes through no pixel centre
//! (x + 4y = 13.5 has no integer solution), so each pixel is covered once, and the
//! quads it crosses are shaded once per triangle with real helper pixels (attributes
//! extrapolated). The generated vertex shader passes each input location's 32-bit
//! patterns on with the pixel shader's interpolation; the resources
//! (`support/resources.rs`), class instances and the comparison
//! (`support/pixel_compare.rs`) are those of `lavapipe_pixel` (every word of every
//! target, of the depth target and of every UAV; NaNs equal; [`tolerance::TOLERANCES`]
//! where the program uses an instruction whose precision is the device's).
//!
//! Inputs, chosen so that the interpolated values are exact on both sides: each
//! component of a float input is an affine function of the render-target position,
//! `a(x, y) = a₀ + gx·(x − ½) + gy·(y − ½)`, with `a₀` the point harness's generated
//! value (a float in [−2, 2]) rounded to a multiple of 2⁻¹², and gradients `gx`, `gy`
//! of ±2⁻³ to ±2⁻⁷ (a power of two each, signs and sizes from the generator), so that
//! at pixel (0, 0) the shader sees the generated value and across the target the values
//! move by up to about 2.5. Every value of `a` at a vertex (integer positions) or a
//! pixel centre is then a multiple of 2⁻¹² below 8 in magnitude (under 2¹⁵ units: a
//! float32 holds it exactly), and so is every intermediate value of a plane set-up:
//! the vertex differences, their products with the integer edge vectors (below 2⁸,
//! under 2²⁰ units), their sums, the division by twice the area (64: a power of two),
//! the plane's value at any pixel centre however it is evaluated. lavapipe's float32
//! plane equations and the reference's float64 barycentrics (exact: integer edge
//! functions over a power-of-two area) rounded once therefore give the same bits, the
//! perspective division included (1/w is 1 at every vertex: its plane is the constant
//! 1). `SV_Position.z` is such a plane (0.25 + x/128 + y/64), `.w` is 1. Integer inputs
//! and `constant` float ones are the leading vertex's (each vertex has its own generated
//! words; Vulkan's provoking vertex is the first, as Direct3D's leading vertex);
//! `SV_PrimitiveID` is the triangle's index (the leading vertex's register in the
//! reference). So the inputs of every pixel, helpers included, are bit-identical on
//! both sides, and a difference is the shader's: a derivative of an attribute is
//! exactly its gradient on both, and one of a value computed from the attributes is the
//! difference of two values each side computes per pixel (the causes of the entries
//! that still differ are traced in the expectation file's header).
//!
//! Derivatives: the translation maps `deriv_rtx`/`deriv_rty` to `dpdx`/`dpdy` (either
//! precision, as Direct3D leaves it), the `_coarse` and `_fine` forms to their WGSL
//! names; the reference computes plain ones fine and coarse ones from the quad's top
//! row or left column (`exec::pixel`). lavapipe computes every form per pixel (fine):
//! plain and fine derivatives are compared exactly, coarse ones agree with fine ones
//! where the value is affine over the quad (an attribute) and differ in the bottom row
//! or right column otherwise, which Direct3D allows (the coarse derivative's pixels
//! are the implementation's choice: Microsoft's deriv_rtx_coarse page); such entries
//! differ, with that cause said in the header. Implicit-LOD instructions (`sample`,
//! `sample_b`, `sample_c`, `lod`) take the quad's coarse derivatives of the address on
//! both sides; the corpus run's textures have one level and point filtering, so a
//! sample's texel does not depend on the LOD (a NaN or infinite address still does),
//! `lod`'s result does (within its tolerance). The hand-written programs named
//! `mipmapped_*` bind textures of every mip level (`resources::PIXEL_MIPS`, nearest-mip
//! filtering) and give each input component a gradient along one axis only, so that an
//! address made of input components has a footprint along the axes whose size is a
//! power of two texels: the LOD is an integer on both sides, and the level an implicit
//! sample reads is compared exactly. (The corpus run with every mip level: 27 entries
//! differ, 15 with one-axis gradients, most of them samples of cubes at reflected
//! directions or of 2D textures at transformed addresses, where the two sides' levels
//! differ at some pixels — `EnvironmentMapEffect_PSEnvMap`'s cube sample at an input's
//! own direction among them, so cube LODs are computed differently; not yet traced
//! further, so not made the test.)
//!
//! Every corpus pixel shader is run; the outcome line of one that uses a derivative or
//! an implicit-LOD instruction (decided from the decoded program) ends with them, in
//! brackets. One line per corpus entry in `tests/expect/lavapipe_pixel_derivatives.txt`
//! (two-sided; `DXREF_BLESS=1` rewrites). Shaders exec refuses, that do not translate,
//! or that need resources the harness does not bind are "not compared", with the
//! reason. Lavapipe runs on one thread (`LP_NUM_THREADS=1`). Without a lavapipe adapter
//! the tests print SKIP and pass, unless `DXREF_REQUIRE_CORPUS=1`.

use std::collections::BTreeMap;

use corpus::Rng;
use exec::compute::Limits;
use exec::raster::{self, Cull, RasterState, Viewport};
use exec::{ClassInstances, Plan};
use tpf::{Opcode, ProgramType, SystemName};

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
use pixel_harness::{Kind as TargetKind, Vertex, CLEAR_DEPTH, HEIGHT, WIDTH};
use resources::{float, Data, PIXEL, PIXEL_MIPS};

/// The two triangles covering the targets, leading vertex first (render-target pixels).
const TRIANGLES: [[(f32, f32); 3]; 2] = [[(0.0, 0.0), (16.0, 0.0), (0.0, 4.0)], [(16.0, 0.0), (16.0, 4.0), (0.0, 4.0)]];

/// `SV_Position.z` (and the clip-space z, w being 1) at a render-target position.
fn depth_at(x: f32, y: f32) -> f32 {
    0.25 + x / 128.0 + y / 64.0
}

/// The instructions whose result depends on the quad's other pixels: derivatives and
/// implicit-LOD samples.
const QUAD_OPS: &[Opcode] = &[
    Opcode::DerivRtx,
    Opcode::DerivRty,
    Opcode::DerivRtxCoarse,
    Opcode::DerivRtxFine,
    Opcode::DerivRtyCoarse,
    Opcode::DerivRtyFine,
    Opcode::Sample,
    Opcode::SampleB,
    Opcode::SampleC,
    Opcode::SampleClampFeedback,
    Opcode::SampleBClampFeedback,
    Opcode::SampleCClampFeedback,
    Opcode::Lod,
];

/// The [`QUAD_OPS`] `program` uses, by mnemonic, in a stable order.
fn quad_ops(program: &tpf::Program<'_>) -> Vec<&'static str> {
    QUAD_OPS.iter().filter(|op| program.iter().any(|i| i.opcode == **op)).map(|op| op.mnemonic()).collect()
}

/// A component's plane: its value at pixel (0, 0)'s centre and its gradients.
#[derive(Clone, Copy)]
struct Plane {
    at: f32,
    gx: f32,
    gy: f32,
}

impl Plane {
    /// From the generator: the point harness's value rounded to a multiple of 2⁻¹², and
    /// gradients of ±2⁻³ to ±2⁻⁷.
    ///
    /// `along_one_axis`: one of the gradients (by a coin) is 0 instead, so that an
    /// address made of such components has a footprint along the axes.
    fn generated(rng: &mut Rng, along_one_axis: bool) -> Plane {
        let at = (f32::from_bits(float(rng)) * 4096.0).round() / 4096.0;
        let mut gradient = || {
            let g = 2f32.powi(-3 - rng.below(5) as i32);
            if rng.below(2) == 0 {
                g
            } else {
                -g
            }
        };
        let (mut gx, mut gy) = (gradient(), gradient());
        if along_one_axis {
            if rng.below(2) == 0 {
                gx = 0.0
            } else {
                gy = 0.0
            }
        }
        Plane { at, gx, gy }
    }

    /// The value at render-target position (x, y): exact (see the module documentation).
    fn at(self, x: f32, y: f32) -> f32 {
        self.at + self.gx * (x - 0.5) + self.gy * (y - 0.5)
    }
}

/// The triangles' vertices, triangle after triangle: each float input component's
/// [`Plane`] at the vertex, integer inputs' words generated per vertex.
fn vertices(iface: &pixel_harness::Interface, rng: &mut Rng, along_one_axis: bool) -> Vec<Vertex> {
    let planes: Vec<Option<[Plane; 4]>> = iface
        .inputs
        .iter()
        .map(|(_, kind, _)| (*kind == TargetKind::Float).then(|| [0; 4].map(|_| Plane::generated(rng, along_one_axis))))
        .collect();
    let mut out = Vec::new();
    for t in TRIANGLES {
        for (x, y) in t {
            let attributes = planes
                .iter()
                .map(|p| match p {
                    Some(p) => p.map(|p| p.at(x, y).to_bits()),
                    None => [0; 4].map(|_| rng.below(16) as u32),
                })
                .collect();
            out.push(Vertex { x, y, z: depth_at(x, y), w: 1.0, attributes });
        }
    }
    out
}

/// The reference's draw of the same triangles: each vertex's registers are the
/// interface's input locations, `SV_PrimitiveID`'s components (the triangle's index)
/// and the clip-space position in the register after the pixel shader's inputs.
fn reference(
    plan: &Plan,
    data: &Data,
    instances: &ClassInstances,
    iface: &pixel_harness::Interface,
    vertices: &[Vertex],
) -> Result<Expected, String> {
    let regs = plan.input_registers as usize;
    let registers: Vec<Vec<[u32; 4]>> = vertices
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let mut v = vec![[0u32; 4]; regs + 1];
            for ((location, ..), a) in iface.inputs.iter().zip(&p.attributes) {
                if let Some(r) = v.get_mut(*location as usize) {
                    *r = *a;
                }
            }
            for d in plan.inputs.iter().filter(|d| d.system == SystemName::PrimitiveId) {
                if let Some(r) = v.get_mut(d.register as usize) {
                    for (c, w) in r.iter_mut().enumerate() {
                        if d.mask & (1 << c) != 0 {
                            *w = (k / 3) as u32;
                        }
                    }
                }
            }
            // As the harness makes it.
            let x = p.x / WIDTH as f32 * 2.0 - 1.0;
            let y = 1.0 - p.y / HEIGHT as f32 * 2.0;
            v[regs] = [x * p.w, y * p.w, p.z * p.w, p.w].map(f32::to_bits);
            v
        })
        .collect();
    let triangles: Vec<[&[[u32; 4]]; 3]> =
        registers.chunks_exact(3).map(|t| [&t[0][..], &t[1][..], &t[2][..]]).collect();
    let state = RasterState {
        viewport: Viewport {
            top_left_x: 0.0,
            top_left_y: 0.0,
            width: WIDTH as f32,
            height: HEIGHT as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        },
        target_width: WIDTH,
        target_height: HEIGHT,
        cull: Cull::None,
        front_counter_clockwise: false,
        depth_clip: true,
        position_register: regs as u32,
    };
    let mut uavs = data.uav_memory();
    let mut res = data.resources_with_uavs(&mut uavs);
    res.class_instances = instances.clone();
    let drawn =
        raster::draw(plan, &triangles, &state, &mut res, &Limits { step_limit: 1 << 20 }).map_err(|e| e.to_string())?;
    drop(res);
    let pixels = (WIDTH * HEIGHT) as usize;
    let mut targets: Vec<Vec<[u32; 4]>> =
        iface.targets.iter().map(|(_, kind)| vec![[kind.clear_bits(); 4]; pixels]).collect();
    let mut depth = iface.depth.then(|| vec![CLEAR_DEPTH; pixels]);
    for (at, out) in drawn.pixels.iter().enumerate() {
        // With one sample per pixel, `oMask` keeps the pixel when its bit 0 is set.
        let Some(out) = out.filter(|o| o.written && o.coverage_mask.is_none_or(|m| m & 1 != 0)) else { continue };
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

/// Runs one pixel shader (a container) both ways; the outcome line.
fn outcome(gpu: &Gpu, bytes: &[u8], program: &tpf::Program<'_>, id: &str) -> String {
    outcome_with(gpu, bytes, program, id, false)
}

/// [`outcome`], or with `mips` float 2D textures, 2D arrays, cubes and cube arrays of
/// every mip level ([`resources::PIXEL_MIPS`]) and inputs whose components each vary
/// along one axis only ([`Plane::generated`]).
fn outcome_with(gpu: &Gpu, bytes: &[u8], program: &tpf::Program<'_>, id: &str, mips: bool) -> String {
    let draw = |plan: &Plan,
                data: &Data,
                instances: &ClassInstances,
                module,
                iface: &pixel_harness::Interface,
                rng: &mut Rng| {
        let vertices = vertices(iface, rng, mips);
        let expected = reference(plan, data, instances, iface, &vertices)
            .map_err(|err| format!("not compared: exec: {}", corpus::expect::one_line(&err)))?;
        let got = pixel_harness::run_pixel_triangles(gpu, module, &data.bound(), &vertices)
            .map_err(|err| format!("not compared: lavapipe: {}", corpus::expect::one_line(&err)))?;
        Ok((expected, got))
    };
    outcome_of(bytes, program, id, if mips { PIXEL_MIPS } else { PIXEL }, &[], Box::new(draw))
}

#[test]
fn corpus_pixel_shaders_drawn_as_triangles_on_lavapipe_match_the_rasterizer() {
    let Some(entries) = corpus::dxbc_entries("lavapipe_pixel_derivatives") else { return };
    one_lavapipe_thread();
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_pixel_derivatives") else { return };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut with_quad_ops: BTreeMap<String, usize> = BTreeMap::new();
    for e in &entries {
        let bytes = e.bytes();
        let program = program_of(&bytes).unwrap_or_else(|| panic!("{}: no decodable program", e.id()));
        if program.version.ty != ProgramType::Pixel {
            continue;
        }
        let mut line = outcome(&gpu, &bytes, &program, &e.id());
        let kind = line.split([':', '(', ',']).next().unwrap_or("").trim().to_string();
        let ops = quad_ops(&program);
        if !ops.is_empty() {
            *with_quad_ops.entry(kind.clone()).or_default() += 1;
            line = format!("{line} [{}]", ops.join(" "));
        }
        *counts.entry(kind).or_default() += 1;
        outcomes.insert(e.id(), line);
    }
    println!("lavapipe_pixel_derivatives: {counts:?}; of those using derivatives or implicit LODs: {with_quad_ops:?}");
    corpus::expect::check(corpus::expect_file!("lavapipe_pixel_derivatives.txt"), &outcomes);
}

/// `DXREF_TRACE=<entry>` (ignored unless asked for): the entry cut after each
/// instruction (`support/cut.rs`) through both sides, up to the first cut that is not
/// `exact` (how the causes in `tests/expect/lavapipe_pixel_derivatives.txt` were
/// traced).
#[test]
#[ignore]
fn trace_the_first_differing_instruction() {
    pixel_compare::trace("lavapipe_pixel_derivatives_trace", true, &outcome);
}

/// Hand-written pixel shaders (listings) drawn as the corpus's are: the inputs in every
/// interpolation mode and `SV_Position` written out as read; every derivative
/// form of attributes (affine over the quad: all forms agree) and of their products
/// (not affine: coarse and fine ones differ within a quad), implicit-LOD samples and
/// `lod` of a 2D texture and of a cube at addresses from the attributes, a `discard`
/// that leaves some quads with helpers inside the triangle.
const PROGRAMS: &[(&str, &str)] = &[
    (
        // Explicit levels of a cube and of a 2D array of every mip level.
        "mipmapped_levels_of_a_cube_and_an_array",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texturecube (float,float,float,float) t0
dcl_resource_texture2darray (float,float,float,float) t1
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_output o4.xyzw
dcl_temps 1
sample_l o0.xyzw, v1.xyzx, t0.xyzw, s0, l(0.0)
sample_l o1.xyzw, v1.xyzx, t0.xyzw, s0, l(1.0)
sample_l o2.xyzw, v1.xyzx, t0.xyzw, s0, l(3.0)
mov r0.xy, v1.xyxx
mov r0.z, l(2.0)
sample_l o3.xyzw, r0.xyzx, t1.xyzw, s0, l(0.0)
sample_l o4.xyzw, r0.xyzx, t1.xyzw, s0, l(2.0)
ret
",
    ),
    (
        // An address not affine over the quad: u = x·y/64, so that the bottom row's x
        // derivative and the right column's y derivative are larger than the top row's
        // and the left column's (3 times in the first quads). The sample's LOD is one
        // per quad on both sides (exact); `lod`, which the translation computes from
        // `dpdxCoarse`/`dpdyCoarse`, differs where lavapipe takes the pixel's own row or
        // column.
        "mipmapped_sample_at_a_product_of_the_position",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
mul r0.x, v0.y, v0.x
mul r0.x, r0.x, l(0.015625)
mov r0.y, l(0.5)
sample o0.xyzw, r0.xyxx, t0.xyzw, s0
lod o1.xyzw, r0.xyxx, t0.xyzw, s0
ret
",
    ),
    (
        // A skewed footprint: per pixel (1, 0) texels across, (4, 5) down. Its longer
        // side is 6.4 texels (LOD 2.68: level 3, the reference's); a footprint measured
        // by its largest component, 5, gives LOD 2.32 (level 2).
        "mipmapped_sample_at_a_skewed_footprint",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
mad r0.x, v0.y, l(4.0), v0.x
mul r0.y, v0.y, l(5.0)
mul r0.xy, r0.xyxx, l(0.015625, 0.015625, 0.0, 0.0)
sample o0.xyzw, r0.xyxx, t0.xyzw, s0
lod o1.xyzw, r0.xyxx, t0.xyzw, s0
ret
",
    ),
    (
        // Implicit-LOD samples of a texture of every mip level at addresses whose
        // footprint is along the axes, its size 2, 4 and 16 times the attribute's (a
        // power of two texels: the LOD an integer, away from the nearest-mip rounding),
        // and an explicit level.
        "mipmapped_samples_along_the_axes",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_output o4.xyzw
dcl_temps 1
mul r0.xy, v1.xyxx, l(2.0, 2.0, 0, 0)
sample o0.xyzw, r0.xyxx, t0.xyzw, s0
mul r0.xy, v1.xyxx, l(4.0, 4.0, 0, 0)
sample o1.xyzw, r0.xyxx, t0.xyzw, s0
mul r0.xy, v1.xyxx, l(16.0, 16.0, 0, 0)
sample o2.xyzw, r0.xyxx, t0.xyzw, s0
lod o3.xyzw, r0.xyxx, t0.xyzw, s0
sample_l o4.xyzw, v1.xyxx, t0.xyzw, s0, l(2.0)
ret
",
    ),
    (
        // The inputs themselves, each interpolation: exact, as the module
        // documentation argues.
        "inputs_interpolated_each_way",
        "ps_4_1
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_input_ps linear v1.xyzw
dcl_input_ps linear noperspective v2.xyzw
dcl_input_ps linear centroid v3.xyzw
dcl_input_ps linear sample v4.xyzw
dcl_input_ps constant v5.xyzw
dcl_input_ps constant v6.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_output o4.xyzw
dcl_output o5.xyzw
dcl_output o6.xyzw
mov o0.xyzw, v0.xyzw
mov o1.xyzw, v1.xyzw
mov o2.xyzw, v2.xyzw
mov o3.xyzw, v3.xyzw
mov o4.xyzw, v4.xyzw
mov o5.xyzw, v5.xyzw
mov o6.xyzw, v6.xyzw
ret
",
    ),
    (
        "fine_derivatives_of_attributes_and_products",
        "ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
mul r0.xy, v1.xyxx, v1.zwzz
deriv_rtx_fine o0.xy, v1.xyxx
deriv_rty_fine o0.zw, v1.zzzw
deriv_rtx_fine o1.xy, r0.xyxx
deriv_rty_fine o1.zw, r0.xxxy
ret
",
    ),
    (
        "coarse_derivatives_of_attributes",
        "ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
deriv_rtx_coarse o0.xy, v1.xyxx
deriv_rty_coarse o0.zw, v1.zzzw
ret
",
    ),
    (
        "coarse_derivatives_of_products",
        "ps_5_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 1
mul r0.xy, v1.xyxx, v1.zwzz
deriv_rtx_coarse o0.xy, r0.xyxx
deriv_rty_coarse o0.zw, r0.xxxy
ret
",
    ),
    (
        "unsuffixed_derivatives_of_products",
        "ps_4_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 1
mul r0.xy, v1.xyxx, v1.zwzz
deriv_rtx o0.xy, r0.xyxx
deriv_rty o0.zw, r0.xxxy
ret
",
    ),
    (
        "derivatives_of_attributes_interpolated_each_way",
        "ps_4_1
dcl_input_ps linear noperspective v1.xy
dcl_input_ps linear centroid v2.xy
dcl_input_ps constant v3.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
deriv_rtx o0.xy, v1.xyxx
deriv_rty o0.zw, v2.xxxy
deriv_rtx o1.xy, v3.xyxx
mov o1.zw, v2.xxxy
ret
",
    ),
    (
        "samples_and_lod_at_addresses_from_attributes",
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texturecube (float,float,float,float) t1
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_output o3.xyzw
dcl_temps 1
sample o0.xyzw, v1.xyxx, t0.xyzw, s0
sample_b o1.xyzw, v1.zwzz, t0.wzyx, s0, l(-1.5)
lod o2.xyzw, v1.xyxx, t0.xyzw, s0
mov r0.xyz, v1.xyzx
mov r0.z, l(1.5)
sample o3.xyzw, r0.xyzx, t1.xyzw, s0
ret
",
    ),
    (
        "discard_then_derivatives",
        "ps_4_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 1
mul r0.x, v0.x, v0.y
ftou r0.x, r0.x
and r0.x, r0.x, l(1)
discard_nz r0.x
mul r0.x, v1.x, v1.y
deriv_rtx o0.x, r0.x
deriv_rty o0.y, r0.x
deriv_rtx o0.zw, v1.xxxy
ret
",
    ),
];

#[test]
fn hand_written_pixel_shaders_drawn_as_triangles_on_lavapipe_match_the_rasterizer() {
    one_lavapipe_thread();
    let Some(gpu) = lavapipe::device_or_skip("lavapipe_pixel_derivatives_programs") else { return };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    for (name, text) in PROGRAMS {
        let bytes = assembled(text);
        let program = program_of(&bytes).unwrap_or_else(|| panic!("{name}: no decodable program"));
        let mut line = outcome_with(&gpu, &bytes, &program, name, name.starts_with("mipmapped"));
        if line.starts_with("differs: o1") && name.contains("product_of_the_position") {
            line += " (lod: the translation's coarse derivatives are fine ones on lavapipe)";
        }
        if line.starts_with("differs") && name.contains("coarse") {
            // The cause, said (the line stays a difference): Direct3D lets a coarse
            // derivative take any row or column of the quad; exec takes the top row and
            // the left column, lavapipe the pixel's own (as fine ones), which differ
            // where the value is not affine over the quad.
            line += " (coarse derivatives: lavapipe computes them per pixel, as fine ones)";
        }
        outcomes.insert(name.to_string(), line);
    }
    println!("lavapipe_pixel_derivatives_programs: {outcomes:#?}");
    corpus::expect::check(corpus::expect_file!("lavapipe_pixel_derivatives_programs.txt"), &outcomes);
}
