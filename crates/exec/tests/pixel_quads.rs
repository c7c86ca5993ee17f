//! Pixel shaders on 2×2 quads (`exec::pixel::shade`): derivatives coarse and fine,
//! `discard` and helper pixels still feeding derivatives, implicit-LOD sampling
//! choosing mip levels, `lod`, depth and the other outputs, the system values, and
//! what is refused when the plan is compiled.

use exec::compute::Limits;
use exec::pixel::{self, PixelOutput, Quad, QuadPixel, Shaded};
use exec::resources::{Dimension, Filter, Sampler, Srv, TextureView};
use exec::{ExecErrorKind, Format, Plan, Resources};

fn try_plan(text: &str) -> Result<Plan, exec::ExecError> {
    let bytes = listing::asm::assemble(text, &listing::asm::AsmOptions::default())
        .unwrap_or_else(|e| panic!("assembling:\n{text}\n{e:#?}"))
        .bytes;
    Plan::from_bytecode(&bytes)
}

fn plan(text: &str) -> Plan {
    try_plan(text).unwrap_or_else(|e| panic!("compiling:\n{text}\n{e}"))
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

/// A quad at (x, y) whose pixels have the attribute registers `attrs[k]`.
fn quad<'a>(x: u32, y: u32, attrs: &'a [Vec<[u32; 4]>; 4], covered: [bool; 4]) -> Quad<'a> {
    let p = |k: usize| QuadPixel { covered: covered[k], inputs: &attrs[k], z: 0.25, w: 1.0 };
    Quad { x, y, front_face: true, pixels: [p(0), p(1), p(2), p(3)] }
}

fn shade(plan: &Plan, quads: &[Quad<'_>], res: &mut Resources<'_>) -> Shaded {
    pixel::shade(plan, quads, res, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn target(p: &PixelOutput, t: usize) -> [f32; 4] {
    p.targets[t].map(f32::from_bits)
}

/// `r0.x` = x · y at the pixel centres of the quad at (4, 2): 11.25, 13.75, 15.75,
/// 19.25. Coarse derivatives take the top row and left column for the whole quad,
/// fine ones each pixel's row and column; `deriv_rtx`/`deriv_rty` are fine.
#[test]
fn coarse_derivatives_are_per_quad_and_fine_ones_per_row_and_column() {
    let p = plan(
        "ps_5_0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xy
dcl_temps 1
mul r0.x, v0.x, v0.y
deriv_rtx_coarse o0.x, r0.x
deriv_rtx_fine o0.y, r0.x
deriv_rty_coarse o0.z, r0.x
deriv_rty_fine o0.w, r0.x
deriv_rtx o1.x, r0.x
deriv_rty o1.y, r0.x
deriv_rtx_fine o1.z, -r0.x
deriv_rty_fine_sat o1.w, r0.x
deriv_rtx_coarse o2.xy, v0.xyxx
ret
",
    );
    let attrs: [Vec<[u32; 4]>; 4] = Default::default();
    let s = shade(&p, &[quad(4, 2, &attrs, [true; 4])], &mut Resources::default());
    let want_fine_x = [2.5, 2.5, 3.5, 3.5];
    let want_fine_y = [4.5, 5.5, 4.5, 5.5];
    for (k, px) in s.quads[0].iter().enumerate() {
        assert!(px.written && !px.discarded);
        assert_eq!(target(px, 0), [2.5, want_fine_x[k], 4.5, want_fine_y[k]], "pixel {k}");
        assert_eq!(target(px, 1), [want_fine_x[k], want_fine_y[k], -want_fine_x[k], 1.0], "pixel {k}");
        // d(x)/dx = 1, d(y)/dx = 0.
        assert_eq!(target(px, 2)[..2], [1.0, 0.0], "pixel {k}");
    }
    assert_eq!(s.ps_invocations, 4);
}

/// Attributes are the caller's, per pixel; their derivatives are across the quad.
#[test]
fn derivatives_of_attributes_given_per_pixel() {
    let p = plan(
        "ps_4_0
dcl_input_ps linear v1.xy
dcl_output o0.xy
deriv_rtx o0.x, v1.x
deriv_rty o0.y, v1.y
ret
",
    );
    let attr = |x: f32, y: f32| vec![[0; 4], [f(x), f(y), 0, 0]];
    let attrs = [attr(1.0, 10.0), attr(3.0, 20.0), attr(7.0, 50.0), attr(15.0, 100.0)];
    let s = shade(&p, &[quad(0, 0, &attrs, [true; 4])], &mut Resources::default());
    let want = [[2.0, 40.0], [2.0, 80.0], [8.0, 40.0], [8.0, 80.0]];
    for (k, px) in s.quads[0].iter().enumerate() {
        assert_eq!(target(px, 0)[..2], want[k], "pixel {k}");
    }
}

/// A discarded pixel's outputs are dropped, but it runs on: the derivatives after the
/// `discard` still see its values. A pixel the primitive does not cover is a helper
/// the same way.
#[test]
fn discarded_and_uncovered_pixels_still_feed_derivatives() {
    let p = plan(
        "ps_4_0
dcl_input_ps linear v0.xy
dcl_output o0.xy
discard_nz v0.y
deriv_rtx o0.x, v0.x
deriv_rty o0.y, v0.x
ret
",
    );
    let attr = |x: f32, discard: bool| vec![[f(x), if discard { 1 } else { 0 }, 0, 0]];
    let attrs = [attr(1.0, false), attr(4.0, true), attr(9.0, false), attr(16.0, false)];
    let s = shade(&p, &[quad(0, 0, &attrs, [true, true, true, false])], &mut Resources::default());
    let q = &s.quads[0];
    assert_eq!(q.map(|p| p.written), [true, false, true, false]);
    assert_eq!(q.map(|p| p.discarded), [false, true, false, false]);
    assert_eq!(target(&q[0], 0)[..2], [3.0, 8.0]);
    assert_eq!(target(&q[2], 0)[..2], [7.0, 8.0]);
    // The helpers computed theirs too (the caller drops them).
    assert_eq!(target(&q[1], 0)[..2], [3.0, 12.0]);
    assert_eq!(target(&q[3], 0)[..2], [7.0, 12.0]);

    // `discard_z`, and a quad nobody covers is not run.
    let p = plan(
        "ps_4_0
dcl_input_ps constant v0.x
dcl_output o0.x
discard_z v0.x
mov o0.x, l(1.0)
ret
",
    );
    let attrs = [vec![[0; 4]], vec![[1, 0, 0, 0]], vec![[0; 4]], vec![[2, 0, 0, 0]]];
    let s = shade(&p, &[quad(0, 0, &attrs, [true; 4]), quad(2, 0, &attrs, [false; 4])], &mut Resources::default());
    assert_eq!(s.quads[0].map(|p| p.written), [false, true, false, true]);
    assert_eq!(s.quads[1], [PixelOutput::default(); 4]);
    assert_eq!(s.ps_invocations, 4);
}

/// An 8×8 R32_FLOAT texture of 4 mips whose texels hold their mip number.
fn mip_texture() -> Vec<u8> {
    let mut data = Vec::new();
    for level in 0..4u32 {
        let n = 8 >> level;
        for _ in 0..n * n {
            data.extend_from_slice(&(level as f32).to_le_bytes());
        }
    }
    data
}

fn view(data: &[u8]) -> Srv<'_> {
    Srv::Texture(TextureView {
        dimension: Dimension::Texture2D,
        format: Format::R32_FLOAT,
        width: 8,
        height: 8,
        depth: 1,
        array_size: 1,
        mip_levels: 4,
        data,
    })
}

fn point_sampler() -> Sampler {
    Sampler { min: Filter::Point, mag: Filter::Point, mip: Filter::Point, ..Sampler::default() }
}

/// The address is `SV_Position.xy × v0.x`, so its derivatives are `v0.x` texture
/// coordinates per pixel: `v0.x × 8` texels, LOD = log2 of that. `sample` reads the
/// mip it selects, `sample_b` adds its bias, `sample_c` compares with that mip, `lod`
/// returns the LOD clamped (to the mips) and not.
#[test]
fn implicit_lod_chooses_the_mip_from_the_quad_derivatives() {
    let p = plan(
        "ps_5_0
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps constant v1.xy
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
mul r0.xy, v0.xyxx, v1.xxxx
sample o0.x, r0.xyxx, t0.xyzw, s0
sample_b o0.y, r0.xyxx, t0.yxzw, s0, l(1.0)
sample_c o0.z, r0.xyxx, t0.xxxx, s1, v1.y
sample_l o0.w, r0.xyxx, t0.xxxx, s0, l(2.0)
lod o1.xyzw, r0.xyxx, t0.xyzw, s0
ret
",
    );
    let data = mip_texture();
    let cmp = Sampler { comparison: Some(exec::resources::ComparisonFunc::Less), ..point_sampler() };
    for (scale, mip) in [(1.0f32 / 8.0, 0u32), (2.0 / 8.0, 1), (4.0 / 8.0, 2), (1.0, 3), (4.0, 3), (1.0 / 64.0, 0)] {
        let mut res = Resources::default();
        res.srvs.push(Some(view(&data)));
        res.samplers[0] = Some(point_sampler());
        res.samplers[1] = Some(cmp);
        // sample_c: 1.5 < texel passes on mips 2 and 3.
        let attrs: [Vec<[u32; 4]>; 4] = std::array::from_fn(|_| vec![[0; 4], [f(scale), f(1.5), 0, 0]]);
        let s = shade(&p, &[quad(2, 2, &attrs, [true; 4])], &mut res);
        let raw = (scale * 8.0).log2();
        for (k, px) in s.quads[0].iter().enumerate() {
            let o = target(px, 0);
            assert_eq!(o[0], mip as f32, "scale {scale} pixel {k}");
            assert_eq!(o[1], (raw + 1.0).clamp(0.0, 3.0), "sample_b, scale {scale} pixel {k}");
            assert_eq!(o[2], if mip >= 2 { 1.0 } else { 0.0 }, "sample_c, scale {scale}");
            assert_eq!(o[3], 2.0, "sample_l");
            assert_eq!(target(px, 1), [raw.clamp(0.0, 3.0), raw, 0.0, 0.0], "lod, scale {scale}");
        }
    }
}

/// Attributes flat over the quad (as a point sprite gives them) have derivatives 0:
/// the LOD is -infinity, clamped to mip 0.
#[test]
fn flat_addresses_sample_the_most_detailed_mip() {
    let p = plan(
        "ps_4_1
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
sample o0.x, v0.xyxx, t0.xyzw, s0
lod o0.yzw, v0.xyxx, t0.xxyz, s0
ret
",
    );
    let data = mip_texture();
    let mut res = Resources::default();
    res.srvs.push(Some(view(&data)));
    res.samplers[0] = Some(point_sampler());
    let attrs: [Vec<[u32; 4]>; 4] = std::array::from_fn(|_| vec![[f(0.3), f(0.6), 0, 0]]);
    let s = shade(&p, &[quad(0, 0, &attrs, [true; 4])], &mut res);
    for px in &s.quads[0] {
        assert_eq!(target(px, 0), [0.0, 0.0, f32::NEG_INFINITY, 0.0]);
    }
}

/// `oDepth`, `oMask`, several render targets, and the system values.
#[test]
fn depth_coverage_targets_and_system_values() {
    let p = plan(
        "ps_5_0
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_input_ps_sgv constant v1.x, is_front_face
dcl_input vCoverage
dcl_output o0.xyzw
dcl_output o3.xy
dcl_output oDepth
dcl_output oMask
mov o0.xyzw, v0.xyzw
mov o3.x, v1.x
mov o3.y, vCoverage.x
mul oDepth, v0.z, l(0.5)
mov oMask, l(5)
ret
",
    );
    let attrs: [Vec<[u32; 4]>; 4] = Default::default();
    let mut q = quad(6, 8, &attrs, [true, true, false, true]);
    q.front_face = false;
    let s = shade(&p, &[q], &mut Resources::default());
    for (k, px) in s.quads[0].iter().enumerate() {
        let (x, y) = (6 + (k & 1), 8 + (k >> 1));
        assert_eq!(target(px, 0), [x as f32 + 0.5, y as f32 + 0.5, 0.25, 1.0]);
        assert_eq!(px.targets[3][..2], [0, u32::from(k != 2)]);
        assert_eq!(px.targets[1], [0; 4]);
        assert_eq!(px.depth, Some(f(0.125)));
        assert_eq!(px.coverage_mask, Some(5));
        assert_eq!(px.stencil_ref, None);
    }
    // Without oDepth, none.
    let p = plan("ps_4_0\ndcl_output o0.x\nmov o0.x, l(1.0)\nret\n");
    let s = shade(&p, &[quad(0, 0, &attrs, [true; 4])], &mut Resources::default());
    assert_eq!(s.quads[0][0].depth, None);
    assert_eq!(s.quads[0][0].targets[0][0], f(1.0));
}

/// `oDepthGE`/`oDepthLE` write the depth as given.
#[test]
fn conservative_depth_outputs() {
    for reg in ["oDepthGE", "oDepthLE"] {
        let p = plan(&format!("ps_5_0\ndcl_output {reg}\nmov {reg}, l(0.75)\nret\n"));
        let attrs: [Vec<[u32; 4]>; 4] = Default::default();
        let s = shade(&p, &[quad(0, 0, &attrs, [true; 4])], &mut Resources::default());
        assert_eq!(s.quads[0][3].depth, Some(f(0.75)), "{reg}");
    }
}

/// Derivatives in flow control that diverges within the quad: the pixels that skip
/// the instruction contribute what their registers hold (Direct3D: undefined).
#[test]
fn derivatives_in_divergent_flow_control_read_the_other_pixels_registers() {
    let p = plan(
        "ps_4_0
dcl_input_ps constant v0.xy
dcl_output o0.x
dcl_temps 1
mov r0.x, v0.y
if_nz v0.x
  deriv_rtx o0.x, r0.x
endif
ret
",
    );
    let attr = |on: u32, v: f32| vec![[on, f(v), 0, 0]];
    let attrs = [attr(1, 1.0), attr(0, 5.0), attr(1, 2.0), attr(1, 10.0)];
    let s = shade(&p, &[quad(0, 0, &attrs, [true; 4])], &mut Resources::default());
    let q = &s.quads[0];
    assert_eq!([target(&q[0], 0)[0], target(&q[1], 0)[0], target(&q[2], 0)[0]], [4.0, 0.0, 8.0]);
    assert_eq!(target(&q[3], 0)[0], 8.0);
}

/// Every pixel is bounded by the step limit, also when it loops around a quad
/// operation.
#[test]
fn endless_loops_stop_at_the_step_limit() {
    let p = plan(
        "ps_4_0
dcl_output o0.x
dcl_temps 1
loop
  deriv_rtx r0.x, r0.x
endloop
ret
",
    );
    let attrs: [Vec<[u32; 4]>; 4] = Default::default();
    let err =
        pixel::shade(&p, &[quad(0, 0, &attrs, [true; 4])], &mut Resources::default(), &Limits { step_limit: 10_000 })
            .unwrap_err();
    assert!(matches!(err.kind, ExecErrorKind::StepLimit(_)), "{err}");
}

/// What the pixel stage refuses is named when the plan is compiled; quad
/// instructions outside a pixel shader are refused too; `shade` takes pixel shaders
/// only, and refuses pull-model evaluation (only a rasterized draw has the planes).
#[test]
fn refusals_name_the_instruction() {
    let refused = |text: &str, what: &str| {
        let err = try_plan(text).expect_err(text);
        match &err.kind {
            ExecErrorKind::Unsupported(m) => assert!(m.contains(what), "{m}"),
            other => panic!("{other:?}"),
        }
    };
    refused("vs_5_0\ndcl_input v0.x\ndcl_output o0.x\neval_centroid o0.x, v0.x\nret\n", "eval_centroid");
    // Pull-model evaluation compiles in a pixel shader but needs a rasterized draw's
    // attribute planes (`exec::raster::draw`): `shade` refuses it, saying so.
    let eval = plan("ps_5_0\ndcl_input_ps linear v0.x\ndcl_output o0.x\neval_centroid o0.x, v0.x\nret\n");
    let err = pixel::shade(&eval, &[], &mut Resources::default(), &Limits::default()).unwrap_err();
    assert!(matches!(&err.kind, ExecErrorKind::Unsupported(m) if m.contains("eval_centroid")), "{err}");
    refused("vs_5_0\ndcl_input v0.x\ndcl_output o0.x\nderiv_rtx_fine o0.x, v0.x\nret\n", "deriv_rtx_fine");
    refused(
        "vs_4_1\ndcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\n\
         dcl_input v0.xy\ndcl_output o0.x\nlod o0.x, v0.xyxx, t0.xyzw, s0\nret\n",
        "lod outside a pixel shader",
    );
    let vs = plan("vs_4_0\ndcl_output o0.x\nmov o0.x, l(1.0)\nret\n");
    let err = pixel::shade(&vs, &[], &mut Resources::default(), &Limits::default()).unwrap_err();
    assert!(matches!(err.kind, ExecErrorKind::Draw(_)), "{err}");
    let ps = plan("ps_4_0\ndcl_output o0.x\nmov o0.x, l(1.0)\nret\n");
    let err = exec::Machine::new(&ps).run_vertex(&ps, &[], &mut Resources::default()).unwrap_err();
    assert!(matches!(err.kind, ExecErrorKind::Draw(_)), "{err}");
}

/// UAV writes and atomics: covered pixels make them, in the order the pixels run;
/// helper pixels (not covered, or discarded) make none, and their returning atomics
/// give 0.
#[test]
fn helper_pixels_make_no_uav_writes() {
    let p = plan(
        "ps_5_0
dcl_uav_raw u1
dcl_input_ps constant v0.x
dcl_input_ps_siv linear noperspective v1.xy, position
dcl_output o0.x
dcl_temps 1
ftou r0.xy, v1.xyxx
imad r0.x, r0.y, l(2), r0.x
ishl r0.x, r0.x, l(2)
imm_atomic_iadd r0.y, u1, l(16), l(1)
discard_nz v0.x
store_raw u1.x, r0.x, r0.y
mov o0.x, r0.y
ret
",
    );
    let mut memory = vec![0u8; 20];
    let mut res = Resources::default();
    res.uavs.push(None);
    res.uavs.push(Some(exec::resources::Uav::Raw { data: &mut memory }));
    let attrs = [vec![[0u32; 4]], vec![[1, 0, 0, 0]], vec![[0; 4]], vec![[0; 4]]];
    let s = shade(&p, &[quad(0, 0, &attrs, [true, true, false, true])], &mut res);
    drop(res);
    let words: Vec<u32> = memory.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    // Pixels 0, 1 and 3 counted (1 discards after its atomic); 0 and 3 stored the
    // count they got; the helper (2) and the discarded pixel (1) stored nothing.
    assert_eq!(words, [0, 0, 0, 2, 3]);
    assert_eq!(s.quads[0].map(|p| p.targets[0][0]), [0, 1, 0, 2]);
    assert_eq!(s.quads[0].map(|p| p.written), [true, false, false, true]);
}
