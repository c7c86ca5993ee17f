//! 1D textures and 1D texture arrays are bound as 2D views of height 1 (WGSL has no 1D
//! array, and its `texture_1d` has no level, bias, gradient or offset sampling): the
//! coordinate's row is 0 for loads and the texel centre 0.5 for sampling, offsets and
//! gradients get a zero v, `resinfo` reports the height as 0 and a 1D array's size in y.
//! Every module's SPIR-V passes `spirv-val`.

mod common;

use translate::{Options, Target};

/// The WGSL the front end writes for `text`, after checking that the module
/// validates and its SPIR-V passes `spirv-val` (when installed).
fn translated(text: &str) -> String {
    let p = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    let m = translate::module_from_program(&p, &[], &[], &Options::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    if let Some(val) = common::spirv_val("one_d_textures") {
        let spirv = translate::write(&m, Target::Spirv).unwrap();
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val: {e}\n{text}"));
    }
    translate::wgsl_source_of_program(&p, &[], &[], &Options::default()).unwrap()
}

fn ps(decls: &str, body: &str) -> String {
    format!(
        "ps_5_0\ndcl_sampler s0, mode_default\n{decls}\ndcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\n\
         dcl_temps 2\n{body}\nmov o0.xyzw, r0.xyzw\nret \n"
    )
}

#[test]
fn sampling_a_1d_texture_reads_row_0_at_its_texel_centre_with_offsets_levels_and_gradients() {
    let s = translated(&ps(
        "dcl_resource_texture1d (float,float,float,float) t0",
        "sample_aoffimmi(-2,0,0) r0.xyzw, v0.x, t0.xyzw, s0\n\
         sample_l_aoffimmi(3,0,0) r1.xyzw, v0.x, t0.xyzw, s0, l(1.5)\nadd r0.xyzw, r0.xyzw, r1.xyzw\n\
         sample_d r1.xyzw, v0.x, t0.xyzw, s0, l(0.3), l(0.4)\nadd r0.xyzw, r0.xyzw, r1.xyzw\n\
         sample_b r1.xyzw, v0.x, t0.xyzw, s0, l(0.2)\nadd r0.xyzw, r0.xyzw, r1.xyzw",
    ));
    assert!(s.contains("var t0: texture_2d<f32>;"), "{s}");
    assert!(s.contains("textureSample(t0, s0, vec2<f32>(c.x, 0.5), vec2<i32>(-2, 0))"), "{s}");
    assert!(s.contains("textureSampleLevel(t0, s0, vec2<f32>(c.x, 0.5), bitcast<f32>(q3.x), vec2<i32>(3, 0))"), "{s}");
    assert!(
        s.contains(
            "textureSampleGrad(t0, s0, vec2<f32>(c.x, 0.5), vec2<f32>(bitcast<f32>(q3.x), 0.0), \
             vec2<f32>(bitcast<f32>(q4.x), 0.0))"
        ),
        "{s}"
    );
    assert!(s.contains("textureSampleBias(t0, s0, vec2<f32>(c.x, 0.5), bitcast<f32>(q3.x))"), "{s}");
}

#[test]
fn a_1d_array_is_a_2d_array_whose_layer_is_the_coordinates_y() {
    let s = translated(&ps(
        "dcl_resource_texture1darray (float,float,float,float) t3",
        "ftoi r1.xyzw, v0.xyzw\nld_aoffimmi(-8,0,0) r0.xyzw, r1.xyzw, t3.xyzw\n\
         sample r1.xyzw, v0.xyxx, t3.xyzw, s0\nadd r0.xyzw, r0.xyzw, r1.xyzw\n\
         resinfo_uint r1.xyzw, l(0), t3.xyzw\nadd r0.xyzw, r0.xyzw, r1.xyzw",
    ));
    assert!(s.contains("var t3: texture_2d_array<f32>;"), "{s}");
    assert!(s.contains("textureLoad(t3, vec2<i32>(a.x + -8, 0), a.y, a.w)"), "{s}");
    assert!(s.contains("textureSample(t3, s0, vec2<f32>(c.x, 0.5), dx_layer(c.y))"), "{s}");
    // resinfo: width, array size, 0, levels.
    assert!(s.contains("vec3<u32>(d.x, textureNumLayers(t3), 0u)"), "{s}");
}

#[test]
fn resinfo_of_a_1d_texture_reports_no_height() {
    let s =
        translated(&ps("dcl_resource_texture1d (float,float,float,float) t0", "resinfo_uint r0.xyzw, l(0), t0.xyzw"));
    assert!(s.contains("vec3<u32>(d.x, 0u, 0u)"), "{s}");
}

#[test]
fn a_compared_1d_texture_is_a_depth_2d_texture() {
    let s = translated(
        "ps_5_0\ndcl_sampler s0, mode_comparison\ndcl_resource_texture1darray (float,float,float,float) t0\n\
         dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\n\
         sample_c r0.x, v0.xyxx, t0.xxxx, s0, v0.z\nmov o0.xyzw, r0.xxxx\nret \n",
    );
    assert!(s.contains("var t0: texture_depth_2d_array;"), "{s}");
    assert!(s.contains("textureSampleCompare(t0, s0, vec2<f32>(c.x, 0.5), dx_layer(c.y), bitcast<f32>(q3.x))"), "{s}");
}

#[test]
fn typed_1d_uavs_are_2d_storage_textures_addressed_at_row_0() {
    let s = translated(
        "cs_5_0\ndcl_uav_typed_texture1d (float,float,float,float) u0\n\
         dcl_uav_typed_texture1darray (float,float,float,float) u1\ndcl_temps 1\ndcl_thread_group 4, 1, 1\n\
         ld_uav_typed r0.xyzw, vThreadID.xyyy, u1.xyzw\nstore_uav_typed u0.xyzw, vThreadID.xxxx, r0.xyzw\n\
         store_uav_typed u1.xyzw, vThreadID.xyyy, r0.xyzw\nret \n",
    );
    assert!(s.contains("var u0: texture_storage_2d<rgba32float, write>;"), "{s}");
    assert!(s.contains("var u1: texture_storage_2d_array<r32float, read_write>;"), "{s}");
    assert!(s.contains("textureLoad(u1, vec2<u32>(q0.x, 0u), q0.y)"), "{s}");
    assert!(s.contains("textureStore(u0, vec2<u32>(q0.x, 0u), "), "{s}");
}
