//! `sampleinfo` and `samplepos` of a multisampled texture view: the count from
//! `textureNumSamples`, the position from the standard pattern of that count
//! (D3D11_STANDARD_MULTISAMPLE_PATTERN, which is also Vulkan's standard sample
//! locations), 0 for a view that is not multisampled; the rasterizer's are refused.
//! The SPIR-V passes `spirv-val`.

mod common;

use translate::TranslateError;

fn translated(decls: &str, body: &str) -> Result<String, TranslateError> {
    let text = format!(
        "ps_4_1\n{decls}\ndcl_input_ps constant v0.x\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\n\
         mov o0.xyzw, r0.xyzw\nret \n"
    );
    common::checked_wgsl("sample_queries", &text, false)
}

const MS: &str = "dcl_resource_texture2dms(0) (float,float,float,float) t0";

#[test]
fn sampleinfo_is_the_views_sample_count_float_or_uint_swizzled() {
    let s = translated(MS, "sampleinfo r0.xy, t0.yxxx\nsampleinfo_uint r1.x, t0.x\nmov r0.z, r1.x").unwrap();
    assert!(s.contains("let res = vec4<u32>(bitcast<u32>(f32(textureNumSamples(t0))), 0u, 0u, 0u);"), "{s}");
    assert!(s.contains("r0.x = res.y;") && s.contains("r0.y = res.x;"), "{s}");
    assert!(s.contains("let res = vec4<u32>(textureNumSamples(t0), 0u, 0u, 0u);"), "{s}");
}

#[test]
fn samplepos_reads_the_standard_pattern_of_the_views_count() {
    let s = translated(MS, "samplepos r0.xy, t0.xyxx, v0.x").unwrap();
    assert!(s.contains("dx_samplepos(textureNumSamples(t0), q1.x)"), "{s}");
    // The 4-sample pattern starts at entry 3: (-2, -6)/16 first.
    assert!(s.contains("vec2(0, 0),\n        vec2(4, 4), vec2(-4, -4),\n        vec2(-2, -6),"), "{s}");
}

#[test]
fn a_view_that_is_not_multisampled_has_no_samples() {
    let s = translated("dcl_resource_texture2d (float,float,float,float) t0", "sampleinfo_uint r0.x, t0.x").unwrap();
    assert!(s.contains("let res = vec4<u32>(0u, 0u, 0u, 0u);"), "{s}");
}

#[test]
fn the_rasterizers_sample_pattern_is_refused_naming_the_instruction() {
    let e = translated("", "sampleinfo r0.x, rasterizer").unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("sampleinfo")), "{e}");
    assert!(e.to_string().contains("rasterizer"), "{e}");
}
