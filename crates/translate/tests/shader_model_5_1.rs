//! Shader Model 5.1's register spaces and ranges: each range is a variable named by
//! its ID, bound at its first register's slot in its space (group = the class's group
//! plus 4 · space by default, or where `Bindings` places it); a range of one register is
//! that register, a larger one a naga binding array indexed by the operand's register
//! less the range's first one, an unbounded one a runtime-sized binding array, a
//! constant buffer's element its operand's third index. Every SPIR-V passes `spirv-val`
//! for Vulkan 1.1; GLSL (no binding arrays in naga's writer) and HLSL (none of storage
//! buffers nor unbounded ones) refuse such modules with a back-end error.

mod common;

use translate::{Bindings, Options, Target, TranslateError};

/// The WGSL source of `text` translated with `options`, after its module's SPIR-V
/// passed `spirv-val` (universal and Vulkan 1.1 environments) and every target wrote it
/// or refused it with a back-end error (never a panic).
fn translated_with(text: &str, options: &Options) -> Result<String, TranslateError> {
    let p = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    let m = translate::module_from_program(&p, &[], &[], options)?;
    let spirv = translate::write(&m, Target::Spirv).unwrap_or_else(|e| panic!("SPIR-V: {e}\n{text}"));
    if let Some(val) = common::spirv_val("shader_model_5_1") {
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val: {e}\n{text}"));
    }
    if let Some(val) = common::spirv_val_with("shader_model_5_1 vulkan1.1", &["--target-env", "vulkan1.1"]) {
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val --target-env vulkan1.1: {e}\n{text}"));
    }
    for target in Target::ALL {
        if let Err(e) = translate::write(&m, target) {
            assert_eq!(e.code(), "backend", "{}: {e}\n{text}", target.name());
        }
    }
    translate::wgsl_source_of_program(&p, &[], &[], options)
}

fn translated(text: &str) -> Result<String, TranslateError> {
    translated_with(text, &Options::default())
}

fn module(text: &str) -> naga::Module {
    let p = tpf::parse::parse_program(text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    translate::module_from_program(&p, &[], &[], &Options::default()).unwrap()
}

fn ps(decls: &str, body: &str) -> String {
    format!("ps_5_1\n{decls}\ndcl_input_ps linear v0.xy\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\nret \n")
}

fn cs(decls: &str, body: &str) -> String {
    format!("cs_5_1\n{decls}\ndcl_input vThreadID.xy\ndcl_temps 2\ndcl_thread_group 4, 1, 1\n{body}\nret \n")
}

/// The result ids SPIR-V `words` decorate `NonUniform` (decoration 5300).
fn non_uniform_decorations(words: &[u8]) -> usize {
    let words: Vec<u32> = words.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    let mut at = 5;
    let mut n = 0;
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if op == 71 && words.get(at + 2) == Some(&5300) {
            n += 1;
        }
        at += count.max(1);
    }
    n
}

/// Whether SPIR-V `words` declare capability `cap`.
fn has_capability(words: &[u8], cap: u32) -> bool {
    let words: Vec<u32> = words.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    words.windows(2).any(|w| w[0] == (2 << 16 | 17) && w[1] == cap)
}

#[test]
fn a_range_of_one_register_is_bound_at_that_register() {
    let s = translated(&ps(
        "dcl_constantbuffer CB1[3:3][4], immediateIndexed, space=0\ndcl_sampler S0[2:2], mode_default, space=0\n\
         dcl_resource_texture2d (float,float,float,float) T2[5:5], space=0",
        "sample r0.xyzw, v0.xyxx, T2[5].xyzw, S0[2]\nmul o0.xyzw, r0.xyzw, CB1[3][2].xyzw",
    ))
    .unwrap();
    assert!(s.contains("@group(0) @binding(3) var<uniform> cb1: array<vec4<u32>, 4>;"), "{s}");
    assert!(s.contains("@group(2) @binding(2) var s0: sampler;"), "{s}");
    assert!(s.contains("@group(1) @binding(5) var t2: texture_2d<f32>;"), "{s}");
    assert!(s.contains("cb1[2u]"), "the element is the third index: {s}");
    assert!(!s.contains("binding_array"), "{s}");
}

#[test]
fn register_spaces_are_bound_four_groups_apart_and_named_by_range_id() {
    // Register 5 of spaces 0 and 1: two variables (the IDs), two groups.
    let s = translated(&ps(
        "dcl_constantbuffer CB0[1:1][2], immediateIndexed, space=1\ndcl_sampler S0[0:0], mode_default, space=2\n\
         dcl_resource_texture2d (float,float,float,float) T0[5:5], space=0\n\
         dcl_resource_texture2d (float,float,float,float) T1[5:5], space=1",
        "sample r0.xyzw, v0.xyxx, T0[5].xyzw, S0[0]\nsample r1.xyzw, v0.xyxx, T1[5].xyzw, S0[0]\n\
         add r0.xyzw, r0.xyzw, r1.xyzw\nmul o0.xyzw, r0.xyzw, CB0[1][1].xyzw",
    ))
    .unwrap();
    assert!(s.contains("@group(1) @binding(5) var t0: texture_2d<f32>;"), "{s}");
    assert!(s.contains("@group(5) @binding(5) var t1: texture_2d<f32>;"), "{s}");
    assert!(s.contains("@group(4) @binding(1) var<uniform> cb0: array<vec4<u32>, 2>;"), "{s}");
    assert!(s.contains("@group(10) @binding(0) var s0: sampler;"), "{s}");
    // UAVs and their counters: group 3 + 4 · space.
    let s = translated(&cs(
        "dcl_uav_structured U3[2:2], 4, space=1",
        "imm_atomic_alloc r0.x, U3[2]\nstore_structured U3[2].x, r0.x, l(0), vThreadID.x",
    ))
    .unwrap();
    assert!(s.contains("@group(7) @binding(2) var<storage, read_write> u3: array<u32>;"), "{s}");
    assert!(s.contains("@group(7) @binding(66) var<storage, read_write> uc3: atomic<u32>;"), "{s}");
}

#[test]
fn bindings_place_a_register_of_a_space() {
    let text = ps(
        "dcl_sampler S0[0:0], mode_default, space=0\n\
         dcl_resource_texture2d (float,float,float,float) T0[5:5], space=0\n\
         dcl_resource_texture2d (float,float,float,float) T1[5:5], space=1\n\
         dcl_resource_buffer (uint,uint,uint,uint) T2[3:3], space=2",
        "sample r0.xyzw, v0.xyxx, T0[5].xyzw, S0[0]\nsample r1.xyzw, v0.xyxx, T1[5].xyzw, S0[0]\n\
         add r0.xyzw, r0.xyzw, r1.xyzw\nld_indexable(buffer)(uint,uint,uint,uint) r1.xyzw, l(0, 0, 0, 0), T2[3].xyzw\n\
         add o0.xyzw, r0.xyzw, r1.xyzw",
    );
    let options = Options {
        bindings: Bindings::parse("t5 space1 = 2:7\nt5 = 1:9\nt3 space2 = R8G8B8A8_UINT").unwrap(),
        ..Options::default()
    };
    let s = translated_with(&text, &options).unwrap();
    assert!(s.contains("@group(2) @binding(7) var t1: texture_2d<f32>;"), "{s}");
    assert!(s.contains("@group(1) @binding(9) var t0: texture_2d<f32>;"), "{s}");
    // The format of space 2's t3: one word per element (R8G8B8A8), not four.
    assert!(s.contains("@group(9) @binding(3) var<storage, read> t2: array<u32>;"), "{s}");
    assert!(s.contains("i < arrayLength(&t2) / 1u"), "{s}");
    // Two registers placed at one slot: refused, naming both.
    let options = Options { bindings: Bindings::parse("t5 space1 = 1:5").unwrap(), ..Options::default() };
    let e = translated_with(&text, &options).unwrap_err();
    assert_eq!(e.code(), "resource", "{e}");
    assert!(e.to_string().contains("group 1 binding 5"), "{e}");
}

#[test]
fn ranges_are_binding_arrays_indexed_from_their_first_register() {
    let s = translated(&ps(
        "dcl_constantbuffer CB1[2:4][4], dynamicIndexed, space=0\ndcl_sampler S0[0:1], mode_default, space=0\n\
         dcl_resource_texture2d (float,float,float,float) T1[10:13], space=0\n\
         dcl_resource_texture2d (float,float,float,float) T2[5:5], space=0",
        "ftou r1.x, v0.x\nsample r0.xyzw, v0.xyxx, T1[r1.x + 10].xyzw, S0[1]\n\
         sample r1.xyzw, v0.xyxx, T1[12].xyzw, S0[r1.x + 0]\nadd r0.xyzw, r0.xyzw, r1.xyzw\n\
         sample r1.xyzw, v0.xyxx, T2[5].xyzw, S0[0]\nadd r0.xyzw, r0.xyzw, r1.xyzw\n\
         ftou r1.x, v0.y\nmul r0.xyzw, r0.xyzw, CB1[r1.x + 3][3].xyzw\nmul o0.xyzw, r0.xyzw, CB1[4][1].xyzw",
    ))
    .unwrap();
    assert!(s.starts_with("enable wgpu_binding_array;"), "{s}");
    assert!(s.contains("@group(1) @binding(10) var t1: binding_array<texture_2d<f32>, 4>;"), "{s}");
    assert!(s.contains("@group(1) @binding(5) var t2: texture_2d<f32>;"), "{s}");
    assert!(s.contains("@group(2) @binding(0) var s0: binding_array<sampler, 2>;"), "{s}");
    // A constant buffer of a binding array is a struct holding its vectors.
    assert!(s.contains("struct dx_cb1 { w: array<vec4<u32>, 4>, }"), "{s}");
    assert!(s.contains("@group(0) @binding(2) var<uniform> cb1: binding_array<dx_cb1, 3>;"), "{s}");
    // Elements: the operand's register less the range's first.
    assert!(s.contains("textureSample(t1[r1.xxxx.x], s0[1u]"), "{s}");
    assert!(s.contains("textureSample(t1[2u], s0[r1.xxxx.x]"), "{s}");
    assert!(s.contains("cb1[(r1.xxxx.x + 1u)].w[3u]"), "{s}");
    assert!(s.contains("cb1[2u].w[1u]"), "{s}");
}

#[test]
fn every_texture_instruction_reads_through_a_binding_array() {
    let s = translated(&ps(
        "dcl_sampler S0[0:1], mode_default, space=0\ndcl_sampler S1[2:3], mode_comparison, space=0\n\
         dcl_resource_texture2d (float,float,float,float) T0[0:3], space=0\n\
         dcl_resource_texture2d (float,float,float,float) T1[4:5], space=1\n\
         dcl_resource_texture2darray (float,float,float,float) T2[0:1], space=2",
        "ftou r1.x, v0.x\n\
         sample_l r0.xyzw, v0.xyxx, T0[r1.x + 0].xyzw {nonuniform}, S0[r1.x + 0] {nonuniform}, l(0)\n\
         sample_c r1.y, v0.xyxx, T1[r1.x + 4].xxxx, S1[3], l(0.5)\n\
         gather4 r0.xyzw, v0.xyxx, T0[2].xyzw, S0[1].y\n\
         gather4_po r0.xyzw, v0.xyxx, l(1, 2, 0, 0), T0[r1.x + 1].xyzw, S0[0].x\n\
         resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xyzw, l(0), T0[r1.x + 0].xyzw\n\
         lod r0.xy, v0.xyxx, T0[3].xyxx, S0[1]\n\
         ld_indexable(texture2d)(float,float,float,float) r0.xyzw, l(0, 0, 0, 0), T0[r1.x + 2].xyzw\n\
         sample_d r0.xyzw, v0.xyxx, T2[r1.x + 1].xyzw, S0[0], v0.xxxx, v0.yyyy\n\
         mov o0.xyzw, r0.xyzw",
    ))
    .unwrap();
    assert!(s.contains("@group(2) @binding(2) var s1: binding_array<sampler_comparison, 2>;"), "{s}");
    assert!(s.contains("@group(5) @binding(4) var t1: binding_array<texture_depth_2d, 2>;"), "{s}");
    assert!(s.contains("@group(9) @binding(0) var t2: binding_array<texture_2d_array<f32>, 2>;"), "{s}");
    assert!(s.contains("textureSampleLevel(t0[r1.xxxx.x], s0[r1.xxxx.x]"), "{s}");
    assert!(s.contains("textureSampleCompare(t1[r1.xxxx.x], s1[1u]"), "{s}");
    assert!(s.contains("textureGather(1, t0[2u], s0[1u]"), "{s}");
    assert!(s.contains("textureDimensions(t0[(r1.xxxx.x + 1u)])"), "{s}");
    assert!(s.contains("textureNumLevels(t0[r1.xxxx.x])"), "{s}");
    assert!(s.contains("textureLoad(t0[(r1.xxxx.x + 2u)]"), "{s}");
    assert!(s.contains("textureSampleGrad(t2[(r1.xxxx.x + 1u)], s0[0u]"), "{s}");
}

#[test]
fn buffers_and_uavs_in_ranges() {
    let s = translated(&cs(
        "dcl_resource_buffer (float,float,float,float) T0[0:1], space=0\n\
         dcl_resource_structured T1[4:7], 16, space=0\n\
         dcl_uav_typed_buffer (uint,uint,uint,uint) U0[0:2], space=1\n\
         dcl_uav_typed_texture2d (float,float,float,float) U1[3:4], space=0\n\
         dcl_uav_structured U2[0:1], 4, space=0",
        "ld_indexable(buffer)(float,float,float,float) r0.xyzw, vThreadID.xxxx, T0[vThreadID.x + 0].xyzw\n\
         store_uav_typed U0[vThreadID.x + 0].xyzw, vThreadID.xxxx, r0.xyzw\n\
         ld_uav_typed_indexable(texture2d)(float,float,float,float) r1.xyzw, vThreadID.xyyy, U1[3].xyzw\n\
         store_uav_typed U1[vThreadID.y + 3].xyzw, vThreadID.xyyy, r1.xyzw\n\
         bufinfo r1.x, T0[1].xxxx\n\
         imm_atomic_iadd r1.y, U2[vThreadID.y + 0], vThreadID.xxxx, l(1)\n\
         atomic_iadd U0[2], vThreadID.x, l(1)\n\
         ld_structured r0.xyzw, r0.x, l(0), T1[r0.x + 5].xyzw\n\
         store_structured U2[1].x, vThreadID.x, l(0), r0.y",
    ))
    .unwrap();
    assert!(s.contains("struct dx_t0 { w: array<u32>, }"), "{s}");
    assert!(s.contains("@group(1) @binding(0) var<storage, read> t0: binding_array<dx_t0, 2>;"), "{s}");
    assert!(s.contains("@group(7) @binding(0) var<storage, read_write> u0: binding_array<dx_u0, 3>;"), "{s}");
    assert!(s.contains("var u1: binding_array<texture_storage_2d<r32float, read_write>, 2>;"), "{s}");
    assert!(s.contains("@group(1) @binding(4) var<storage, read> t1: binding_array<dx_t1, 4>;"), "{s}");
    // Typed buffers' conversion functions take the element first.
    assert!(s.contains("fn dx_ld_t0(dx_k: u32, i: u32) -> vec4<u32>"), "{s}");
    assert!(s.contains("dx_ld_t0(vec4<u32>(vThreadID, 0u).xxxx.x, q0.x)"), "{s}");
    assert!(s.contains("dx_st_u0(vec4<u32>(vThreadID, 0u).xxxx.x, q0.x, q1)"), "{s}");
    assert!(s.contains("arrayLength(&t0[1u].w)"), "{s}");
    assert!(s.contains("atomicAdd(&u2[vec4<u32>(vThreadID, 0u).yyyy.x].w["), "{s}");
    // A load into the index's own register reads the element once, first.
    assert!(s.contains("let dx_e = (r0.xxxx.x + 1u);\n        r0.x = t1[dx_e].w["), "{s}");
    let m = module(&cs("dcl_resource_raw T0[0:3], space=0", "ld_raw r0.x, l(0), T0[vThreadID.x + 0].x"));
    for target in [Target::Glsl, Target::Hlsl] {
        let e = translate::write(&m, target).unwrap_err();
        assert_eq!(e.code(), "backend", "{e}");
    }
}

#[test]
fn a_register_index_is_non_uniform_in_spirv() {
    // `NonUniformResourceIndex`: naga's uniformity analysis takes every register (a
    // function's variable) as non-uniform, so each access through a register index is
    // decorated `NonUniform`, with or without the operand's flag.
    let decls = "dcl_sampler S0[0:0], mode_default, space=0\n\
                 dcl_resource_texture2d (float,float,float,float) T0[0:7], space=0";
    for body in [
        "ftou r1.x, v0.x\nsample o0.xyzw, v0.xyxx, T0[r1.x + 0].xyzw {nonuniform}, S0[0]",
        "ftou r1.x, v0.x\nsample o0.xyzw, v0.xyxx, T0[r1.x + 0].xyzw, S0[0]",
    ] {
        let text = ps(decls, body);
        translated(&text).unwrap();
        let spirv = translate::write(&module(&text), Target::Spirv).unwrap();
        assert!(non_uniform_decorations(&spirv) > 0, "{body}");
        assert!(has_capability(&spirv, 5301), "ShaderNonUniform: {body}");
    }
    let text = ps(decls, "sample o0.xyzw, v0.xyxx, T0[3].xyzw, S0[0]");
    let spirv = translate::write(&module(&text), Target::Spirv).unwrap();
    assert_eq!(non_uniform_decorations(&spirv), 0, "an immediate element is uniform");
}

#[test]
fn unbounded_ranges_are_runtime_sized_binding_arrays() {
    let text = ps(
        "dcl_sampler S0[0:0], mode_default, space=0\n\
         dcl_resource_texture2d (float,float,float,float) T1[10:*], space=0",
        "ftou r1.x, v0.x\nsample o0.xyzw, v0.xyxx, T1[r1.x + 10].xyzw, S0[0]",
    );
    let s = translated(&text).unwrap();
    assert!(s.contains("@group(1) @binding(10) var t1: binding_array<texture_2d<f32>>;"), "{s}");
    let m = module(&text);
    // Vulkan needs the capability naga leaves out (spirv-val checks it above).
    let spirv = translate::write(&m, Target::Spirv).unwrap();
    assert!(has_capability(&spirv, 5302), "RuntimeDescriptorArray");
    let e = translate::write(&m, Target::Hlsl).unwrap_err();
    assert_eq!(e.code(), "backend", "{e}");
    assert!(e.to_string().contains("unbounded"), "{e}");
    let e = translate::write(&m, Target::Glsl).unwrap_err();
    assert_eq!(e.code(), "backend", "{e}");
    // A runtime-sized array of constant buffers: WGSL and MSL; naga's SPIR-V writer
    // bounds-checks an index into uniform buffers, which needs the length this array
    // does not have, and refuses it.
    let text = ps(
        "dcl_constantbuffer CB0[0:*][2], dynamicIndexed, space=3",
        "ftou r1.x, v0.x\nmov o0.xyzw, CB0[r1.x + 0][1].xyzw",
    );
    let m = module(&text);
    let s = String::from_utf8(translate::write(&m, Target::Wgsl).unwrap()).unwrap();
    assert!(s.contains("@group(12) @binding(0) \nvar<uniform> cb0_: binding_array<dx_cb0_>;"), "{s}");
    translate::write(&m, Target::Msl).unwrap();
    for target in [Target::Spirv, Target::Glsl, Target::Hlsl] {
        let e = translate::write(&m, target).unwrap_err();
        assert_eq!(e.code(), "backend", "{e}");
    }
}

#[test]
fn what_a_range_cannot_be_is_refused() {
    // An immediate register outside its range.
    let e = translated(&ps("dcl_constantbuffer CB0[0:0][1], immediateIndexed, space=0", "mov o0.xyzw, CB0[1][0].xyzw"))
        .unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("mov")), "{e}");
    let e = translated(&ps(
        "dcl_sampler S0[0:0], mode_default, space=0\n\
         dcl_resource_texture2d (float,float,float,float) T0[2:5], space=0",
        "sample o0.xyzw, v0.xyxx, T0[6].xyzw, S0[0]",
    ))
    .unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("sample")), "{e}");
    assert!(e.to_string().contains("outside its range [2:5]"), "{e}");
    // A register index into a range of one register.
    let e = translated(&ps(
        "dcl_constantbuffer CB0[0:0][1], immediateIndexed, space=0",
        "ftou r1.x, v0.x\nmov o0.xyzw, CB0[r1.x + 0][0].xyzw",
    ))
    .unwrap_err();
    assert_eq!((e.code(), e.mnemonic()), ("unsupported", Some("mov")), "{e}");
    // The hidden counter of a range of UAVs.
    let e = translated(&cs("dcl_uav_structured U0[0:1], 4, space=0", "imm_atomic_alloc r0.x, U0[1]")).unwrap_err();
    assert_eq!(e.code(), "resource", "{e}");
    assert!(e.to_string().contains("hidden counter"), "{e}");
}

#[test]
fn a_geometry_shader_reads_a_range_in_native_spirv() {
    let text = "gs_5_1\ndcl_resource_texture2d (float,float,float,float) T0[0:1], space=1\n\
                dcl_input_siv v[1][0].xyzw, position\ndcl_inputprimitive point\ndcl_outputtopology pointlist\n\
                dcl_output_siv o0.xyzw, position\ndcl_temps 1\ndcl_maxout 1\nftou r0.x, v[0][0].x\n\
                ld_indexable(texture2d)(float,float,float,float) r0.xyzw, l(0, 0, 0, 0), T0[r0.x + 0].xyzw {nonuniform}\n\
                add o0.xyzw, v[0][0].xyzw, r0.xyzw\nemit\nret\n";
    let bytes = listing::asm::assemble(text, &Default::default()).unwrap_or_else(|d| panic!("{d:?}")).bytes;
    let spirv = translate::translate(&bytes, &Options::default(), Target::Spirv).unwrap();
    assert!(non_uniform_decorations(&spirv) > 0);
    if let Some(val) = common::spirv_val_with("shader_model_5_1 gs", &["--target-env", "vulkan1.1"]) {
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val: {e}"));
    }
    let e = translate::translate(&bytes, &Options::default(), Target::Glsl).unwrap_err();
    assert_eq!(e.code(), "backend", "{e}");
}

#[test]
fn space_1_meets_the_compute_lowering_group_unless_placed() {
    // Space 1's constant buffers take group 4 by default, where the geometry-shader
    // passes put their buffers: refused, naming the slot; placed elsewhere, lowered.
    let asm = |text: &str| listing::asm::assemble(text, &Default::default()).unwrap_or_else(|d| panic!("{d:?}")).bytes;
    let vs = asm("vs_5_1\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret\n");
    let gs = asm("gs_5_1\ndcl_constantbuffer CB0[0:0][1], immediateIndexed, space=1\n\
         dcl_input_siv v[1][0].xyzw, position\ndcl_inputprimitive point\ndcl_outputtopology pointlist\n\
         dcl_output_siv o0.xyzw, position\ndcl_maxout 1\nadd o0.xyzw, v[0][0].xyzw, CB0[0][0].xyzw\nemit\nret\n");
    let options = |gs: Options| translate::GsOptions {
        topology: translate::Topology::PointList,
        stream_output: None,
        vs: Options::default(),
        gs,
    };
    let e = translate::lower(&vs, &gs, &options(Options::default())).unwrap_err();
    assert_eq!(e.code(), "resource", "{e}");
    assert!(e.to_string().contains("group 4 binding 0"), "{e}");
    let placed = Options { bindings: Bindings::parse("cb0 space1 = 6:0").unwrap(), ..Options::default() };
    translate::lower(&vs, &gs, &options(placed)).unwrap();
}
