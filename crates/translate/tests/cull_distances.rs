//! A vertex shader's `SV_CullDistance` outputs become the target's cull-distance array
//! (SPIR-V's `CullDistance` built-in, GLSL's `gl_CullDistance`, HLSL's
//! `SV_CullDistance`), one array in register and component order as the clip distances
//! are; WGSL and MSL, which have none, refuse the module with a back-end error. The
//! values reach a geometry shader reading them (`tests/lavapipe_gs_native.rs`: the
//! corpus geometry shaders that read `SV_CullDistance`).

mod common;
#[path = "support/glslang.rs"]
mod glslang;

use translate::{Options, SigElement, Target, TranslateError};

/// A vertex shader writing its position to `o0`, two clip distances to `o1.xy` and
/// the cull distances `cull` (declarations) from `v0`.
fn vs(cull: &str, moves: &str) -> naga::Module {
    let text = format!(
        "vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\ndcl_output_siv o1.xy, clip_distance\n{cull}\
         mov o0.xyzw, v0.xyzw\nmov o1.xy, v0.zwzz\n{moves}ret \n"
    );
    let p = tpf::parse::parse_program(&text).unwrap_or_else(|d| panic!("{d:?}\n{text}")).program;
    let element = |name: &str, register, mask| SigElement {
        semantic_name: name.into(),
        semantic_index: 0,
        register,
        mask,
        component_type: 3,
    };
    let osgn = [
        element("SV_Position", 0, 0b1111),
        element("SV_ClipDistance", 1, 0b0011),
        element("SV_CullDistance", 1, 0b1100),
        element("SV_CullDistance", 2, 0b0001),
    ];
    translate::module_from_program(&p, &[element("POSITION", 0, 0b1111)], &osgn, &Options::default())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The three cull distances of `o1.zw` and `o2.x`.
fn three() -> naga::Module {
    vs(
        "dcl_output_siv o1.zw, cull_distance\ndcl_output_siv o2.x, cull_distance\n",
        "mov o1.zw, v0.xxxy\nmov o2.x, -v0.w\n",
    )
}

/// The array sizes of the entry point's outputs bound to `built_in`.
fn outputs(m: &naga::Module, built_in: naga::BuiltIn) -> Vec<u32> {
    let ep = &m.entry_points[0];
    let ty = ep.function.result.as_ref().expect("a result").ty;
    let naga::TypeInner::Struct { members, .. } = &m.types[ty].inner else { panic!("a struct result") };
    members
        .iter()
        .filter(|member| member.binding == Some(naga::Binding::BuiltIn(built_in)))
        .map(|member| match m.types[member.ty].inner {
            naga::TypeInner::Array { size: naga::ArraySize::Constant(n), .. } => n.get(),
            ref other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn cull_distances_are_one_array_beside_the_clip_distances() {
    let m = three();
    assert_eq!(outputs(&m, naga::BuiltIn::CullDistance), [3]);
    assert_eq!(outputs(&m, naga::BuiltIn::ClipDistances), [2]);
    // In register and component order: o1.z, o1.w, o2.x.
    let source = translate::wgsl_source_of_program(
        &tpf::parse::parse_program(
            "vs_4_0\ndcl_output_siv o1.zw, cull_distance\ndcl_output_siv o2.x, cull_distance\nmov o1.zw, l(0,0,1.0,2.0)\n\
             mov o2.x, l(3.0)\nret \n",
        )
        .unwrap()
        .program,
        &[],
        &[],
        &Options::default(),
    )
    .unwrap();
    assert!(
        source.contains("array<f32, 3>(bitcast<f32>(o[1].z), bitcast<f32>(o[1].w), bitcast<f32>(o[2].x))"),
        "{source}"
    );
}

#[test]
fn spirv_glsl_and_hlsl_write_cull_distances() {
    let m = three();
    let spirv = translate::write(&m, Target::Spirv).unwrap();
    let words: Vec<u32> = spirv.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
    // OpCapability CullDistance (33); OpDecorate/OpMemberDecorate ... BuiltIn (11) CullDistance (4).
    assert!(words.windows(2).any(|w| w == [(2 << 16) | 17, 33]), "no CullDistance capability");
    let decorated = words.windows(4).any(|w| w[0] == (4 << 16) | 71 && w[2..] == [11, 4])
        || words.windows(5).any(|w| w[0] == (5 << 16) | 72 && w[3..] == [11, 4]);
    assert!(decorated, "no CullDistance built-in");
    if let Some(val) = common::spirv_val("cull_distances") {
        val(&spirv).unwrap_or_else(|e| panic!("spirv-val: {e}"));
    }
    let glsl = String::from_utf8(translate::write(&m, Target::Glsl).unwrap()).unwrap();
    assert!(glsl.contains("out float gl_CullDistance[3];") && glsl.contains("out float gl_ClipDistance[2];"), "{glsl}");
    if glslang::available_or_skip("cull_distances") {
        glslang::compile(&glsl, "vert", false).unwrap_or_else(|e| panic!("glslang: {e}\n{glsl}"));
    }
    let hlsl = String::from_utf8(translate::write(&m, Target::Hlsl).unwrap()).unwrap();
    assert!(hlsl.contains("SV_CullDistance"), "{hlsl}");
}

#[test]
fn wgsl_and_msl_refuse_cull_distances() {
    let m = three();
    for target in [Target::Wgsl, Target::Msl] {
        let e = translate::write(&m, target).unwrap_err();
        assert!(matches!(e, TranslateError::Backend { .. }), "{target:?}: {e}");
    }
    // Without cull distances both write the module.
    let plain = vs("", "");
    assert!(outputs(&plain, naga::BuiltIn::CullDistance).is_empty());
    for target in [Target::Wgsl, Target::Msl] {
        translate::write(&plain, target).unwrap_or_else(|e| panic!("{target:?}: {e}"));
    }
}

#[test]
fn more_than_eight_cull_distances_are_refused() {
    let text = "vs_4_0\ndcl_output_siv o1.xyzw, cull_distance\ndcl_output_siv o2.xyzw, cull_distance\n\
                dcl_output_siv o3.x, cull_distance\nmov o1.xyzw, l(0,0,0,0)\nmov o2.xyzw, l(0,0,0,0)\n\
                mov o3.x, l(0)\nret \n";
    let p = tpf::parse::parse_program(text).unwrap().program;
    let e = translate::module_from_program(&p, &[], &[], &Options::default()).unwrap_err();
    assert!(matches!(e, TranslateError::SystemValue { .. }), "{e}");
    assert!(e.to_string().contains("cull_distance"), "{e}");
    // Eight together (D3D11_CLIP_OR_CULL_DISTANCE_COUNT): 2 clip + 6 cull pass, 2 + 7 do not.
    let six = "dcl_output_siv o2.xyzw, cull_distance\ndcl_output_siv o3.xy, cull_distance\n";
    let moves = "mov o2.xyzw, v0.xyzw\nmov o3.xy, v0.xyxx\n";
    let m = vs(six, moves);
    assert_eq!(outputs(&m, naga::BuiltIn::CullDistance), [6]);
    let text = format!(
        "vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\ndcl_output_siv o1.xy, clip_distance\n\
         dcl_output_siv o2.xyzw, cull_distance\ndcl_output_siv o3.xyz, cull_distance\nmov o0.xyzw, v0.xyzw\n\
         mov o1.xy, v0.xyxx\n{moves}mov o3.z, v0.z\nret \n"
    );
    let p = tpf::parse::parse_program(&text).unwrap().program;
    let e = translate::module_from_program(&p, &[], &[], &Options::default()).unwrap_err();
    assert!(e.to_string().contains("clip and cull"), "{e}");
}
