//! `lod` (Microsoft's "lod (sm4.1 - asm)" page) and `gather4_po`/`gather4_po_c` with
//! offsets from a register (the "gather4_po (sm5 - asm)" page), which WGSL has no form
//! for: `lod` computed from the address's coarse derivatives (D3D11.3 functional spec
//! 7.18.11) for every dimension it takes, the programmable gathers as gathers at the
//! coordinate moved by offset / size. Each translates to WGSL, to SPIR-V passing
//! `spirv-val` and to MSL; what stays refused says why. `tests/lavapipe_pixel.rs`
//! runs them against the reference.

mod common;

use translate::{Options, TranslateError};

/// A pixel shader of `decls` and `body` (writing `r0`): its WGSL source, after checking
/// that the module writes SPIR-V (passing `spirv-val`) and MSL.
fn translated(decls: &str, body: &str) -> Result<String, TranslateError> {
    let text = format!(
        "ps_5_0\n{decls}\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\n\
         mov o0.xyzw, r0.xyzw\nret \n"
    );
    common::checked_wgsl("lod_and_programmable_gathers", &text, true)
}

/// The error of the pixel shader of `decls` and `body`, which must be refused as
/// unsupported at `mnemonic`.
fn refused(decls: &str, body: &str, mnemonic: &str) -> TranslateError {
    let e = translated(decls, body).expect_err(mnemonic);
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some(mnemonic)), "{e}");
    e
}

#[test]
fn lod_of_every_dimension_is_computed_from_coarse_derivatives() {
    for (decl, helper) in [
        ("texture1d", "dx_lod_of(vec3<f32>(dx.x * sz.x, 0.0, 0.0)"),
        ("texture1darray", "dx_lod_of(vec3<f32>(dx.x * sz.x, 0.0, 0.0)"),
        ("texture2d", "dx_lod_of(vec3<f32>(dx.x * sz.x, dx.y * sz.y, 0.0)"),
        ("texture2darray", "dx_lod_of(vec3<f32>(dx.x * sz.x, dx.y * sz.y, 0.0)"),
        ("texture3d", "dx_lod_of(vec3<f32>(dx.x * sz.x, dx.y * sz.y, dx.z * sz.z)"),
        ("texturecube", "dx_lod_cube(sz.x, a.xyz, dx.xyz, dy.xyz)"),
        ("texturecubearray", "dx_lod_cube(sz.x, a.xyz, dx.xyz, dy.xyz)"),
    ] {
        let decls = format!("dcl_sampler s0, mode_default\ndcl_resource_{decl} (float,float,float,float) t0");
        let s = translated(&decls, "lod r0.xyzw, v0.xyzw, t0.yxzw, s0").unwrap_or_else(|e| panic!("{decl}: {e}"));
        assert!(s.contains("let dx = dx_ftz4(dpdxCoarse(a));"), "{decl}: {s}");
        assert!(s.contains("let dy = dx_ftz4(dpdyCoarse(a));"), "{decl}: {s}");
        assert!(s.contains(helper), "{decl}: {s}");
        // Clamped to the view's levels (a NaN gives 0); (clamped, raw, 0, 0) swizzled.
        assert!(s.contains("clamp(raw, 0.0, f32(textureNumLevels(t0) - 1u))"), "{decl}: {s}");
        assert!(s.contains("let res = vec4<u32>(dx_r(used), dx_r(raw), 0u, 0u);"), "{decl}: {s}");
        assert!(s.contains("r0.x = res.y;") && s.contains("r0.y = res.x;"), "{decl}: {s}");
    }
}

#[test]
fn lod_of_a_texture_comparisons_also_read_translates() {
    let decls = "dcl_sampler s0, mode_default\ndcl_sampler s1, mode_comparison\n\
                 dcl_resource_texture2d (float,float,float,float) t0";
    let s = translated(decls, "lod r0.xy, v0.xyxx, t0.xyzw, s0\nsample_c r0.z, v0.xyxx, t0.xxxx, s1, v0.z").unwrap();
    assert!(s.contains("texture_depth_2d"), "{s}");
}

#[test]
fn lod_outside_a_pixel_shader_and_of_a_multisampled_view_is_refused() {
    let text = "vs_5_0\ndcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\n\
                dcl_input v0.xy\ndcl_output o0.xyzw\nlod o0.xyzw, v0.xyxx, t0.xyzw, s0\nret \n";
    let p = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}")).program;
    let e = translate::module_from_program(&p, &[], &[], &Options::default()).unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("lod")), "{e}");
    assert!(e.to_string().contains("pixel shader"), "{e}");
    refused(
        "dcl_sampler s0, mode_default\ndcl_resource_texture2dms(4) (float,float,float,float) t0",
        "lod r0.xyzw, v0.xyzw, t0.xyzw, s0",
        "lod",
    );
}

#[test]
fn gather4_po_gathers_at_the_coordinate_moved_by_the_low_six_bits_of_the_offsets() {
    let decls = "dcl_sampler s0, mode_default\ndcl_resource_texture2d (float,float,float,float) t0\n\
                 dcl_resource_texture2darray (float,float,float,float) t1";
    let body = "ftoi r1.xy, v0.zwzz\ngather4_po r0.xyzw, v0.xyxx, r1.xyxx, t0.xyzw, s0.y\n\
                gather4_po r1.xyzw, v0.xyzx, r1.yxxx, t1.wxyz, s0.x\nadd r0.xyzw, r0.xyzw, r1.xyzw";
    let s = translated(decls, body).unwrap();
    assert!(s.contains("let po = (bitcast<vec2<i32>>(q1.xy) << vec2<u32>(26u)) >> vec2<u32>(26u);"), "{s}");
    assert!(s.contains("let at = c.xy + vec2<f32>(po) / vec2<f32>(textureDimensions(t0));"), "{s}");
    assert!(s.contains("textureGather(1, t0, s0, at)"), "{s}");
    assert!(s.contains("textureGather(0, t1, s0, at, dx_layer(c.z))"), "{s}");
}

#[test]
fn gather4_po_c_and_a_depth_gather4_po_translate() {
    let decls = "dcl_sampler s0, mode_default\ndcl_sampler s1, mode_comparison\n\
                 dcl_resource_texture2d (float,float,float,float) t0\n\
                 dcl_resource_texture2darray (float,float,float,float) t1";
    let body = "ftoi r1.xy, v0.zwzz\ngather4_po_c r0.xyzw, v0.xyxx, r1.xyxx, t0.xyzw, s1.x, v0.w\n\
                gather4_po r1.xyzw, v0.xyxx, r1.xyxx, t0.xyzw, s0.x\nadd r0.xyzw, r0.xyzw, r1.xyzw\n\
                gather4_po_c r1.xyzw, v0.xyzx, r1.xyxx, t1.xyzw, s1.x, v0.w\nadd r0.xyzw, r0.xyzw, r1.xyzw";
    let s = translated(decls, body).unwrap();
    assert!(s.contains("textureGatherCompare(t0, s1, at, bitcast<f32>(q4.x))"), "{s}");
    assert!(s.contains("textureGather(t0, s0, at)"), "{s}");
    assert!(s.contains("textureGatherCompare(t1, s1, at, dx_layer(c.z), bitcast<f32>(q4.x))"), "{s}");
}

#[test]
fn gather4_po_of_a_cube_is_refused() {
    refused(
        "dcl_sampler s0, mode_default\ndcl_resource_texturecube (float,float,float,float) t0",
        "ftoi r1.xy, v0.zwzz\ngather4_po r0.xyzw, v0.xyzx, r1.xyxx, t0.xyzw, s0.x",
        "gather4_po",
    );
}

#[test]
fn a_biased_sample_of_a_compared_texture_is_refused_naming_why() {
    let decls = "dcl_sampler s0, mode_default\ndcl_sampler s1, mode_comparison\n\
                 dcl_resource_texture2d (float,float,float,float) t0";
    let body = "sample_b r0.xyzw, v0.xyxx, t0.xyzw, s0, l(0.5)\nsample_c r0.x, v0.xyxx, t0.xxxx, s1, v0.z";
    let e = refused(decls, body, "sample_b");
    assert!(e.to_string().contains("depth"), "{e}");
}
