//! `dxref translate`: a bundled example to each language, errors naming the
//! instruction, the stage or the binding file's line, and the exit statuses.

mod common;

use common::{dxref, example, temp_dir, temp_file, text};

/// Assembles a listing into a scratch container; its path.
fn assembled(name: &str, listing: &str) -> String {
    let dir = temp_dir(name);
    let out = dir.join(format!("{name}.bin")).to_string_lossy().into_owned();
    let status = dxref(&["asm", listing, "-o", &out]);
    assert!(status.status.success(), "{}", text(&status.stderr));
    out
}

#[test]
fn the_example_vertex_shader_translates_to_every_language() {
    let bin = assembled("transform", &example("transform_vs.asm"));
    let out = dxref(&["translate", &bin, "--to", "wgsl"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wgsl = text(&out.stdout);
    assert!(wgsl.contains("@vertex") && wgsl.contains("@builtin(position)"), "{wgsl}");
    assert!(wgsl.contains("@group(0) @binding(0)"), "the constant buffer's default binding: {wgsl}");
    for (to, needle) in [("msl", "vertex"), ("glsl", "#version 450"), ("hlsl", "SV_Position")] {
        let out = dxref(&["translate", &bin, "--to", to]);
        assert!(out.status.success(), "{to}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains(needle), "{to}: {}", text(&out.stdout));
    }
    let spv = temp_dir("transform-spv").join("vs.spv");
    let out = dxref(&["translate", &bin, "--to", "spirv", "-o", &spv.to_string_lossy()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(&spv).unwrap();
    assert_eq!(bytes.get(..4), Some(&0x0723_0203u32.to_le_bytes()[..]));
}

#[test]
fn a_binding_file_moves_a_register() {
    let bin = assembled("bindings", &example("transform_vs.asm"));
    let file = temp_file("bindings.txt", "# the constant buffer\ncb0 = 5:9\n");
    let out = dxref(&["translate", &bin, "--to", "wgsl", "--bindings", &file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("@group(5) @binding(9)"), "{}", text(&out.stdout));
    let bad = temp_file("bad-bindings.txt", "cb0 = 5:9\n  q1 = 0:0\n");
    let out = dxref(&["translate", &bin, "--to", "wgsl", "--bindings", &bad]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("bad-bindings.txt:2:3:"), "{}", text(&out.stderr));
}

#[test]
fn shader_model_5_1_spaces_and_ranges_are_placed_by_the_binding_file() {
    let listing = temp_file(
        "sm51.asm",
        "ps_5_1\ndcl_sampler S0[0:0], mode_default, space=0\n\
         dcl_resource_texture2d (float,float,float,float) T0[5:5], space=1\n\
         dcl_resource_texture2d (float,float,float,float) T1[2:4], space=0\n\
         dcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 2\n\
         sample r0.xyzw, v0.xyxx, T0[5].xyzw, S0[0]\nftou r1.x, v0.x\n\
         sample r1.xyzw, v0.xyxx, T1[r1.x + 2].xyzw, S0[0]\nadd o0.xyzw, r0.xyzw, r1.xyzw\nret \n",
    );
    let bin = assembled("sm51", &listing);
    // By default space 1's t5 is in group 1 + 4; the range is a binding array at t2.
    let out = dxref(&["translate", &bin, "--to", "wgsl"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wgsl = text(&out.stdout);
    assert!(wgsl.contains("@group(5) @binding(5)"), "{wgsl}");
    assert!(wgsl.contains("binding_array<texture_2d<f32>, 3>"), "{wgsl}");
    let file = temp_file("sm51-bindings.txt", "t5 space1 = 2:7\n");
    let out = dxref(&["translate", &bin, "--to", "wgsl", "--bindings", &file]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("@group(2) @binding(7)"), "{}", text(&out.stdout));
    // naga's GLSL writer has no binding arrays: refused, status 1.
    let out = dxref(&["translate", &bin, "--to", "glsl"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("binding arrays"), "{}", text(&out.stderr));
}

#[test]
fn what_is_not_translated_is_refused_naming_the_instruction() {
    let listing = temp_file(
        "eval.asm",
        "ps_5_0\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 1\n\
         eval_centroid r0.xy, v0.xyxx\nmov o0.xyzw, r0.xyxy\nret \n",
    );
    let bin = assembled("eval", &listing);
    let out = dxref(&["translate", &bin, "--to", "wgsl"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("instruction 3 (eval_centroid)"), "{}", text(&out.stderr));
    // GLSL (and SPIR-V) have pull-model interpolation: interpolateAt* on the input.
    let out = dxref(&["translate", &bin, "--to", "glsl"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("interpolateAtCentroid(_vs2fs_location0)"), "{}", text(&out.stdout));
    // A geometry shader in a language without a geometry stage.
    let out = dxref(&["translate", &example("point_sprite_gs.dxbc"), "--to", "hlsl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no geometry stage"), "{}", text(&out.stderr));
    // A language that does not exist, and bytes that are not a shader.
    let out = dxref(&["translate", &bin, "--to", "cobol"]);
    assert_eq!(out.status.code(), Some(2));
    let junk = temp_file("junk.bin", "not a container");
    let out = dxref(&["translate", &junk, "--to", "wgsl"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn interface_slots_are_bound_to_function_tables() {
    let listing = temp_file(
        "interfaces.asm",
        "ps_5_0\ndcl_function_body fb0\ndcl_function_body fb1\ndcl_function_table ft0 = {fb0}\n\
         dcl_function_table ft1 = {fb1}\ndcl_interface fp0[1][1] = {ft0, ft1}\ndcl_output o0.xyzw\ndcl_temps 1\n\
         fcall fp0[0][0]\nmov o0.xyzw, r0.xyzw\nret \nlabel fb0\nmov r0.xyzw, l(0,0,0,0)\nret \nlabel fb1\n\
         mov r0.xyzw, this[0].xyzw\nret \n",
    );
    let bin = assembled("interfaces", &listing);
    let out = dxref(&["translate", &bin, "--to", "wgsl"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("dx_fb0_()"), "the first table by default: {}", text(&out.stdout));
    let out = dxref(&["translate", &bin, "--to", "wgsl", "--interface", "0=ft1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("dx_fb1_()"), "{}", text(&out.stdout));
    // The slot is read as `dxref run --interface` reads it: `fp0=` too.
    let out = dxref(&["translate", &bin, "--to", "wgsl", "--interface", "fp0=ft1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("dx_fb1_()"), "{}", text(&out.stdout));
    let out = dxref(&["translate", &bin, "--to", "wgsl", "--interface", "zero"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // With the instance's `this` register, which fb1 reads.
    let out = dxref(&["translate", &bin, "--to", "wgsl", "--interface", "0=ft1:1,2,3,4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("vec4<u32>(1u, 2u, 3u, 4u)"), "{}", text(&out.stdout));
    let out = dxref(&["translate", &bin, "--to", "wgsl", "--interface", "0=ft1:1,2,3"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn a_vertex_and_geometry_shader_pair_lowers_to_compute_passes() {
    let vs = assembled("pipeline-vs", &example("passthrough_vs.asm"));
    let gs = example("point_sprite_gs.dxbc");
    let out = dxref(&["translate", "--pipeline", &vs, &gs, "--to", "wgsl"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wgsl = text(&out.stdout);
    for pass in ["vertex", "expand", "scan", "compact"] {
        assert!(wgsl.contains(&format!("// pass: {pass}\n")), "{pass}: {wgsl}");
    }
    assert_eq!(wgsl.matches("@compute").count(), 4, "{wgsl}");
    // SPIR-V: one file per pass, with stream output.
    let prefix = temp_dir("pipeline-spv").join("sprites").to_string_lossy().into_owned();
    let out = dxref(&["translate", "--pipeline", &vs, &gs, "--to", "spirv", "-o", &prefix, "--so", "SV_Position.xyzw"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for pass in ["vertex", "expand", "scan", "compact"] {
        let bytes = std::fs::read(format!("{prefix}.{pass}.spv")).unwrap();
        assert_eq!(bytes.get(..4), Some(&0x0723_0203u32.to_le_bytes()[..]), "{pass}");
    }
    // A topology the geometry shader does not take, and SPIR-V without -o.
    let out = dxref(&["translate", "--pipeline", &vs, &gs, "--to", "wgsl", "--topology", "trianglelist"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("pipeline: the geometry shader takes point primitives"),
        "{}",
        text(&out.stderr)
    );
    let out = dxref(&["translate", "--pipeline", &vs, &gs, "--to", "spirv"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn a_geometry_shader_becomes_a_native_spirv_geometry_shader() {
    let gs = example("point_sprite_gs.dxbc");
    let out = dxref(&["translate", &gs, "--to", "spirv", "-o", "-", "--so", "SV_Position.xyzw"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let words: Vec<u32> = out.stdout.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    assert_eq!(words.first(), Some(&0x0723_0203));
    // OpEntryPoint Geometry.
    let mut at = 5;
    let mut model = None;
    while at < words.len() {
        let (n, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if op == 15 {
            model = Some(words[at + 1]);
        }
        at += n.max(1);
    }
    assert_eq!(model, Some(3));
    // Rasterizing another stream is pipeline state in Vulkan.
    let out =
        dxref(&["translate", &gs, "--to", "spirv", "-o", "-", "--so", "SV_Position.xyzw", "--rasterized-stream", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // --gs-as-compute: the four passes behind a pass-through vertex shader.
    let out = dxref(&["translate", &gs, "--to", "wgsl", "--gs-as-compute"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).matches("@compute").count(), 4, "{}", text(&out.stdout));
    // --gs-as-compute and --so take a geometry shader.
    let vs = assembled("native-vs", &example("passthrough_vs.asm"));
    let out = dxref(&["translate", &vs, "--to", "wgsl", "--gs-as-compute"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let out = dxref(&["translate", &vs, "--to", "wgsl", "--so", "SV_Position.xyzw"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn a_geometry_shader_becomes_a_native_glsl_geometry_shader() {
    let gs = example("point_sprite_gs.dxbc");
    let out = dxref(&["translate", &gs, "--to", "glsl", "--so", "SV_Position.xyzw"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let glsl = text(&out.stdout);
    assert!(glsl.starts_with("#version 450"), "{glsl}");
    for line in ["layout(points) in;", "    EmitVertex();", "    gl_Position = dx_go_pos;"] {
        assert!(glsl.lines().any(|l| l == line), "no `{line}` in\n{glsl}");
    }
    assert!(glsl.lines().any(|l| l.starts_with("layout(triangle_strip, max_vertices = ")), "{glsl}");
    assert!(glsl.contains("xfb_buffer = 0"), "{glsl}");
    // Without --so no transform feedback; --opengl the desktop form.
    let out = dxref(&["translate", &gs, "--to", "glsl", "--opengl"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let gl = text(&out.stdout);
    assert!(!gl.contains("xfb_") && gl.contains("gl_Position.z = "), "{gl}");
    // --opengl takes a geometry shader in GLSL.
    let out = dxref(&["translate", &gs, "--to", "spirv", "-o", "-", "--opengl"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let vs = assembled("native-glsl-vs", &example("passthrough_vs.asm"));
    let out = dxref(&["translate", &vs, "--to", "glsl", "--opengl"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let out = dxref(&["translate", &gs, "--to", "glsl", "--opengl", "--gs-as-compute"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn typed_buffer_views_take_their_format_from_the_command_line() {
    let listing = temp_file(
        "typed.asm",
        "cs_5_0\ndcl_resource_buffer (float,float,float,float) t0\n\
         dcl_uav_typed_buffer (uint,uint,uint,uint) u0\ndcl_input vThreadID.x\ndcl_temps 1\n\
         dcl_thread_group 64, 1, 1\nld_indexable(buffer)(float,float,float,float) r0.xyzw, vThreadID.xxxx, t0.xyzw\n\
         ftou r0.xyzw, r0.xyzw\nstore_uav_typed u0.xyzw, vThreadID.xxxx, r0.xyzw\nret \n",
    );
    let bin = assembled("typed", &listing);
    // The default: R32G32B32A32_FLOAT and _UINT, four words an element.
    let out = dxref(&["translate", &bin, "--to", "wgsl"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wgsl = text(&out.stdout);
    assert!(wgsl.contains("var<storage> t0_: array<u32>") || wgsl.contains("t0_: array<u32>"), "{wgsl}");
    assert!(!wgsl.contains("dx_udivf"), "{wgsl}");
    // R8G8B8A8_UNORM elements are converted in the shader; R16_UINT ones share words.
    let out = dxref(&[
        "translate",
        &bin,
        "--to",
        "wgsl",
        "--buffer-format",
        "t0=R8G8B8A8_UNORM",
        "--buffer-format",
        "u0 = dxgi_format_r16_uint",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let wgsl = text(&out.stdout);
    assert!(wgsl.contains("dx_udivf") && wgsl.contains("atomicOr"), "{wgsl}");
    // A format the translator does not convert, one of the wrong type, a malformed one.
    for (arg, status, needle) in [
        ("t0=R8G8B8A8_UNORM_SRGB", 2, "not a typed buffer format"),
        ("t0=R32_UINT", 1, "declared float"),
        ("t0", 2, "REGISTER=FORMAT"),
        ("cb0=R32_FLOAT", 2, "typed buffer views"),
    ] {
        let out = dxref(&["translate", &bin, "--to", "wgsl", "--buffer-format", arg]);
        assert_eq!(out.status.code(), Some(status), "{arg}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains(needle), "{arg}: {}", text(&out.stderr));
    }
}
